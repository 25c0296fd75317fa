"""Casting-stick Senet's static tables: the stages, the position file's words, the
marks of a turn, the interned moves, a move's steps, and what a board file makes of the
board for the legal-move search (:func:`land_table` ...) and the ordered combinations
of a throw's values (:class:`Combinations`). Nothing here changes during a game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from companion.rules.core import Move
from companion.rules.senet_sticks.events import REASON_ABYSS, REASON_HOME, REASON_QUICK
from companion.rules.senet_sticks_board import BoardSpec

STAGE_TOSS: Final = "colour-toss"
STAGE_START: Final = "who-starts"
STAGE_PLAY: Final = "play"
STAGES: Final = (STAGE_TOSS, STAGE_START, STAGE_PLAY)

ABYSS: Final = "abyss"
"""The position-file word for a plinth in the Abyss."""

EMPTY: Final = -1

FRESH: Final = 1
"""Mark of a plinth resurrected this turn: its further values land on open squares."""
TOOK: Final = 2
"""Mark of a plinth that took an opponent this turn (kept with ``combination-captures=no``)."""

MARK_KEYS: Final = (("resurrected", FRESH), ("took", TOOK))
"""Position keys for this turn's marks: plinths resurrected this turn, plinths that took
an opponent this turn (only kept with ``combination-captures=no``)."""

REASONS: Final = {
    REASON_ABYSS: "all the opponent's plinths exiled to the Abyss",
    REASON_QUICK: "first plinth in the opponent's Home Row (quick mode)",
    REASON_HOME: "all five plinths in the opponent's Home Row",
}
"""Each way to win (but a blocked board) as ``Outcome.reason`` says it, by the ``won``
event's ``reason`` key."""

Combination = tuple[int, int, int, tuple[int, ...], bool]
"""An entry of :meth:`Combinations.of`."""

_MOVES: dict[tuple[str, int | None, int, tuple[int, ...]], Move] = {}


def move(kind: str, src: int | None, dst: int, values: tuple[int, ...]) -> Move:
    """An interned move (legal-move lists recur; equal moves are the same object)."""
    key = (kind, src, dst, values)
    m = _MOVES.get(key)
    if m is None:
        m = Move(kind, src, dst, values)
        _MOVES[key] = m
    return m


@dataclass(frozen=True, slots=True)
class Step:
    """One value of a move as it plays (:meth:`SenetSticksState.path_of`).

    ``value`` is the throw value; ``square`` the square where the value leaves the
    plinth (1..squares; the river's end when the value ended on a river); ``river`` the
    river square the value ended on, or ``None``; ``takes``: the value sends an
    opponent's plinth to the Abyss (on the square it lands on or at the river's end).
    """

    value: int
    square: int
    river: int | None
    takes: bool


def reach(spec: BoardSpec, p: int, here: int, v: int) -> int:
    """The square player ``p``'s plinth on ``here`` (0: the Abyss) reaches with ``v``, or
    0 when it cannot (off the board, or out of the Abyss not into the Home Row nor onto
    the resurrection square)."""
    n = spec.squares
    if here == 0:
        pos = v
        if v < 1 or (pos > spec.home_row and pos != spec.resurrection):
            return 0
    else:
        pos = (here if p == 0 else n + 1 - here) + v
        if v < 1 or pos > n:
            return 0
    return pos if p == 0 else n + 1 - pos


def land_table(spec: BoardSpec, top: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """``[p][here][v]``: :func:`reach` for each player, square (0: the Abyss) and value
    ``0..top``."""
    n = spec.squares
    return tuple(
        tuple(tuple(reach(spec, p, here, v) for v in range(top + 1)) for here in range(n + 1))
        for p in (0, 1)
    )


def safe_table(spec: BoardSpec) -> tuple[tuple[bool, ...], ...]:
    """``[p][t]``: an opponent on ``t`` cannot be taken by ``p`` (a Sun square, or p's
    own Home Row where the opponent has arrived)."""
    homes = spec.home_rows
    return tuple(tuple(t in spec.sun or t in homes[p] for t in range(spec.squares + 1)) for p in (0, 1))


def opponent_home_table(spec: BoardSpec) -> tuple[tuple[bool, ...], ...]:
    """``[p][h]``: p's plinth on ``h`` stands in the opponent's Home Row, from where it
    cannot attack."""
    homes = spec.home_rows
    return tuple(tuple(h in homes[1 - p] for h in range(spec.squares + 1)) for p in (0, 1))


def river_table(spec: BoardSpec) -> tuple[int, ...]:
    """Where the river on each square leads (0: no river)."""
    return tuple(spec.rivers.get(t, 0) for t in range(spec.squares + 1))


class Combinations:
    """The ordered combinations of a throw's values, kept per distinct values (at most
    one entry per order-free class of the throws of one set of sticks)."""

    __slots__ = ("_kept",)

    def __init__(self) -> None:
        self._kept: dict[tuple[int, ...], tuple[Combination, ...]] = {}

    def of(self, values: tuple[int, ...]) -> tuple[Combination, ...]:
        """The ordered combinations of ``values`` a plinth may try, as a tree in
        depth-first order: entry ``i`` is ``(value, parent entry or -1, entries in its
        subtree including itself, the values played so far, whether values remain)``.
        Siblings with equal values appear once ('2 then 2' of two 2s once)."""
        found = self._kept.get(values)
        if found is not None:
            return found
        nodes: list[list[Any]] = []

        def grow(parent: int, left: list[int], seq: tuple[int, ...]) -> None:
            tried: set[int] = set()
            for i in left:
                v = values[i]
                if v in tried:
                    continue
                tried.add(v)
                at = len(nodes)
                played = (*seq, v)
                rest = [j for j in left if j != i]
                nodes.append([v, parent, 0, played, bool(rest)])
                grow(at, rest, played)
                nodes[at][2] = len(nodes) - at

        grow(-1, list(range(len(values))), ())
        found = tuple((v, parent, skip, played, more) for v, parent, skip, played, more in nodes)
        self._kept[values] = found
        return found


__all__ = [
    "ABYSS",
    "EMPTY",
    "FRESH",
    "MARK_KEYS",
    "REASONS",
    "STAGES",
    "STAGE_PLAY",
    "STAGE_START",
    "STAGE_TOSS",
    "TOOK",
    "Combination",
    "Combinations",
    "Step",
    "land_table",
    "move",
    "opponent_home_table",
    "reach",
    "river_table",
    "safe_table",
]
