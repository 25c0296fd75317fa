"""Reading a casting-stick Senet position (``docs/positions.md``): :func:`read_position`
checks each key and returns the facts (:class:`Position`); ``SenetSticks.state_from_dict``
builds the state from them and checks the position as a whole (a blocked board, a win,
the Abyss before the start)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.rules.core import PositionError, require
from companion.rules.senet_sticks.tables import (
    ABYSS,
    EMPTY,
    MARK_KEYS,
    STAGE_PLAY,
    STAGE_START,
    STAGE_TOSS,
    STAGES,
)
from companion.rules.senet_sticks_board import PLINTHS, BoardSpec
from companion.rules.throws import ColouredSticks


@dataclass(slots=True)
class Position:
    """The facts a position file gives, each key checked: the names are those of
    :class:`~companion.rules.senet_sticks.SenetSticksState`."""

    squares: int
    colour_toss: bool
    stage: str = STAGE_START
    colours: tuple[str, str] | None = None
    turn: int = 0
    casts: list[int | None] = field(default_factory=lambda: [None, None])
    values: list[int] = field(default_factory=list)
    board: list[int] = field(default_factory=list)
    abyss: list[int] = field(default_factory=lambda: [0, 0])
    moved: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.board = [EMPTY] * (self.squares + 1)


def read_position(
    data: Mapping[str, Any], spec: BoardSpec, sticks: ColouredSticks, *, colour_toss: bool, mid_captures: bool,
) -> Position:
    """The facts of the keys written by ``SenetSticksState._body`` (or by hand), each key
    checked against the board ``spec``, the ``sticks`` of a turn and the options
    (``colour-toss``, ``combination-captures``).

    :raises PositionError: naming the key and the reason.
    """
    facts = Position(spec.squares, colour_toss)
    n = spec.squares
    stage = require(data, "stage", str)
    if stage not in STAGES:
        raise PositionError("stage", f"expected one of {', '.join(STAGES)}, got {stage!r}")
    if stage == STAGE_TOSS and not colour_toss:
        raise PositionError("stage", "a colour toss is due only with option colour-toss")
    facts.stage = stage
    colours = data.get("colours")
    if stage == STAGE_TOSS:
        if colours is not None:
            raise PositionError("colours", "must be null before the colour toss")
        facts.colours = None
    elif colours is None and not colour_toss:
        facts.colours = spec.colours
    else:
        pair = spec.colours
        if not isinstance(colours, list) or sorted(colours) != sorted(pair):
            raise PositionError("colours", f"expected the colours of Players 1 and 2, e.g. {list(pair)}, got {colours!r}")
        facts.colours = (colours[0], colours[1])
    to_act = require(data, "to_act", int)
    if to_act not in (1, 2):
        raise PositionError("to_act", f"expected 1 or 2, got {to_act}")
    facts.turn = to_act - 1
    casts = data.get("start_casts", [None, None])
    faces = {f.value for f in spec.solid}
    if (
        not isinstance(casts, list) or len(casts) != 2
        or any(c is not None and c not in faces for c in casts)
        or (casts[0] is None and casts[1] is not None)
    ):
        raise PositionError(
            "start_casts", f"expected [first, second], each null or a solid-stick value {sorted(faces)}, got {casts!r}"
        )
    if stage == STAGE_START:
        if casts[1] is not None:
            raise PositionError("start_casts", "both casts made: the starting player is already decided")
        facts.casts = [casts[0], casts[1]]
    values = data.get("values", [])
    possible = {f.value for pair in sticks.sticks for f in pair}
    if (
        not isinstance(values, list) or len(values) > len(sticks.sticks)
        or any(isinstance(v, bool) or v not in possible for v in values)
    ):
        raise PositionError(
            "values", f"expected up to {len(sticks.sticks)} stick values from {sorted(possible)}, got {values!r}"
        )
    if values and stage != STAGE_PLAY:
        raise PositionError("values", "values are played only once the game has started")
    facts.values = list(values)
    marks = {key: data.get(key, []) for key, _flag in MARK_KEYS}
    plinths = require(data, "plinths", list)
    if len(plinths) != 2:
        raise PositionError("plinths", "expected two lists, Player 1's and Player 2's")
    for p, entries in enumerate(plinths):
        where = f"plinths[{p}]"
        if not isinstance(entries, list) or len(entries) != PLINTHS:
            raise PositionError(where, f"expected a list of {PLINTHS} entries")
        for i, entry in enumerate(entries):
            at = f"{where}[{i}]"
            if entry == ABYSS:
                facts.abyss[p] += 1
            elif isinstance(entry, int) and not isinstance(entry, bool):
                if not 1 <= entry <= n:
                    raise PositionError(at, f"square must be 1 to {n}, got {entry}")
                if entry in spec.rivers:
                    raise PositionError(at, f"no plinth stays on square {entry}: its river carries it on")
                if facts.board[entry] != EMPTY:
                    raise PositionError(at, f"square {entry} already holds a plinth")
                facts.board[entry] = p
            else:
                raise PositionError(at, f"expected a square 1-{n} or {ABYSS!r}, got {entry!r}")
    if stage != STAGE_PLAY:
        _check_before_start(facts, to_act)
    for key, flag in MARK_KEYS:
        squares = marks[key]
        if squares and not values:
            raise PositionError(key, "marks a plinth moved this turn: only while values remain to play")
        if key == "took" and squares and mid_captures:
            raise PositionError(key, "is kept only with option combination-captures=no")
        if not isinstance(squares, list) or any(
            not isinstance(s, int) or isinstance(s, bool) or not 1 <= s <= n
            or facts.board[s] != facts.turn for s in squares
        ):
            raise PositionError(
                key, f"expected a list of squares holding a plinth of the player to act, got {squares!r}"
            )
        for s in squares:
            facts.moved[s] = facts.moved.get(s, 0) | flag
    return facts


def set_up_board(squares: int) -> list[int]:
    """The board before the start, ``board[s]`` for squares 0..``squares`` (0 unused): the
    player (0 or 1) on each square or ``EMPTY``. Seed: 'Place five plinths in each
    player's Home Row on each side' (on the first five squares of each player's path when
    a Home Row is longer than five)."""
    board = [EMPTY] * (squares + 1)
    for s in range(1, PLINTHS + 1):
        board[s], board[squares + 1 - s] = 0, 1
    return board


def _check_before_start(facts: Position, to_act: int) -> None:
    """Before the start (the colour toss or the casts for who starts) the plinths stand
    as set up (seed: 'Place five plinths in each player's Home Row on each side', on the
    first five squares of each player's path) and the player to act is worked out:
    Player 1 tosses and casts first, Player 2 casts second. A file that says otherwise
    is refused, naming the key.

    :raises PositionError: naming ``plinths`` or ``to_act``.
    """
    n = facts.squares
    if facts.board != set_up_board(n):
        raise PositionError(
            "plinths", f"before the start every plinth stands as set up: Player 1's on 1-{PLINTHS}, "
            f"Player 2's on {n + 1 - PLINTHS}-{n}"
        )
    due = 1 if facts.stage == STAGE_START and facts.casts[0] is not None else 0
    if to_act != due + 1:
        raise PositionError(
            "to_act", f"Player {due + 1} {'casts' if facts.stage == STAGE_START else 'tosses'} next "
            f"before the start, not Player {to_act}"
        )
    facts.turn = due


__all__ = ["Position", "read_position", "set_up_board"]
