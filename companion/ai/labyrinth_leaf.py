"""The Labyrinth's leaf before TD-leaf: progress less the pieces at risk to the next hits.

:func:`chances` valued a leaf of ``strong``'s (and every level's) search in Peter
Aleff's Game of the Labyrinth (issue 32) until the TD-leaf models took its place (at 2
players in branch td7laby, at 3 and 4 in branch lab10); it is where their training
starts (:func:`companion.ai.td_leaf.labyrinth_start`), and :func:`at_risk` is one of
their inputs. The softmax, with the game's ``sharpness``
``k``, of ``x[p] = progress(p) - at_risk(p)``::

    chance[p] = exp(k * x[p]) / sum over players q of exp(k * x[q])

``progress`` is :meth:`State.progress` (the dice still to use count as walked), so
with ``at_risk = 0`` this is :func:`companion.ai.evaluate.chances`, the progress
heuristic the search used before.

``at_risk(p)`` is the progress ``p`` is expected to lose to the direct hits of the
player who acts next (seed 000: "If one arrives on an occupied field, that occupant
goes to where the new arrival just came from"), in the units of ``progress``:

* where the two dice are due (:attr:`Phase.THROW` of the main throw), for each piece of
  another player on a field that is no sanctuary, reached by a count of one die value
  ``v`` of a free piece of the thrower (jumps, geese and the exact-count bounce resolved
  by the board: :meth:`Labyrinth.count_end`), the chance that either die shows such a
  value (``1 - (1 - m/6)^2`` for ``m`` values) times the fields the piece would lose
  (to where the count started; trapped pieces by where their trap lets them go), the
  largest loss of those values: exactly the term of the baseline's hand-written leaf
  (``benchmarks/baseline.py``);
* where the mover still holds die values (a leaf in the middle of a turn, after the
  first die, or at a ride's or a crossing's question), the same count with the values
  in hand: a piece hit by one of them loses the largest loss (chance 1). Without it, a
  leaf one throw deeper (the opponent's dice known, the hit not yet played) counted no
  risk at all where the leaf before the throw counted it, so a deeper iteration
  forgot the shots a shallower one avoided (docs/ai.md, "Strength and speed");
* 0 elsewhere (the throws for who starts, the orbit's free die, a finished game).

Rides on the Knight's Orbit, crossings of the Millstone and the sum of both dice on one
piece are not counted. Plain Python, a few microseconds a leaf; the table of where each
count ends is built once per game object (:func:`_shots`).
"""

from __future__ import annotations

import math
from typing import Final

from companion.ai.evaluate import shares
from companion.rules import Phase, State
from companion.rules.labyrinth import LabyrinthState

SIDES: Final = 6
_PIECES: Final = 4

_HIT_CHANCE: Final = tuple(2 * SIDES * m - m * m for m in range(SIDES + 1))
"""The chance that one of two fair dice shows one of ``m`` given values, in 36ths
(``1 - (1 - m/6)^2``): the risk is summed in whole numbers, so that two positions
whose risk is the same are valued the same to the last bit (a search ranks equal
values by the order of the moves, and a calibration map must not part them)."""

_CERTAIN: Final = SIDES * SIDES


class _Ends:
    """Where a count of each die value from each field ends (0: nowhere), for one
    Labyrinth game object (its board and options)."""

    def __init__(self, state: LabyrinthState) -> None:
        game = state.game
        last = game.board.last
        self.ends: list[list[int]] = [[0] * (SIDES + 1) for _ in range(last)]
        for s in range(1, last):
            for v in range(1, SIDES + 1):
                move = game.count_moves[s][v]
                end = game.count_end(move) if move is not None else None
                self.ends[s][v] = end if end is not None else 0


_TABLES: dict[int, tuple[object, _Ends]] = {}
"""The count tables by ``id`` of the game object (kept with the object, so an id is
never reused for another while its table lives)."""


def _shots(state: LabyrinthState) -> _Ends:
    """The count table of ``state``'s game object (built at its first leaf)."""
    known = _TABLES.get(id(state.game))
    if known is None:
        known = _TABLES[id(state.game)] = (state.game, _Ends(state))
    return known[1]


def at_risk(state: LabyrinthState) -> list[float]:
    """Each player's expected progress lost to the direct hits of the player to act
    (see the module's docstring); 0 for that player and where no main throw is due
    and no die value is in hand."""
    scale = _CERTAIN * _PIECES * state.game.board.last
    return [r / scale for r in _risk(state)]


def _risk(state: LabyrinthState) -> list[int]:
    """:func:`at_risk` in whole numbers: the fields lost times their chance in 36ths."""
    n = state.players
    risk = [0] * n
    if state.outcome is not None or state.throwing_for_start:
        return risk
    game = state.game
    phase = state.phase
    in_hand: list[int] | None
    if phase is Phase.THROW:
        if state.throw_spec is not game.two_dice:
            return risk  # the orbit's free die
        in_hand = None
    else:
        in_hand = state.values
        if not in_hand:
            return risk
    last = game.board.last
    shared = game.shared
    worth = game.trap_worth
    q = state.current_player
    pos, trap = state.pos, state.trap
    ends = _shots(state).ends
    values = range(1, SIDES + 1) if in_hand is None else sorted(set(in_hand))
    # field -> {value: the field the count started from (the nearest one)}
    shots: dict[int, dict[int, int]] = {}
    for k in range(q * _PIECES, (q + 1) * _PIECES):
        s = pos[k]
        if trap[k] or s == 0 or s >= last:
            continue
        row = ends[s]
        for v in values:
            end = row[v]
            if end and not shared[end]:
                starts = shots.setdefault(end, {})
                starts[v] = min(s, starts.get(v, s))
    if not shots:
        return risk
    for k, f in enumerate(pos):
        p = k // _PIECES
        if p == q or f not in shots:
            continue
        here = worth[f] if trap[k] else f
        losses = [here - (worth[s] if trap[k] else s) for s in shots[f].values()]
        hitting = [lost for lost in losses if lost > 0]
        if not hitting:
            continue
        chance = _CERTAIN if in_hand is not None else _HIT_CHANCE[len(hitting)]
        risk[p] += chance * max(hitting)
    return risk


def chances(state: State) -> tuple[float, ...]:
    """Every player's chance to win from ``state`` (a Labyrinth position; one float per
    player, 0..1, sum 1): the winners' shares in a finished game, else the softmax of
    ``progress - at_risk`` with the game's sharpness (the module's docstring)."""
    n = state.players
    outcome = state.outcome
    if outcome is not None:
        return shares(outcome, n)
    assert isinstance(state, LabyrinthState)
    k = state.game.sharpness
    risk = _risk(state)
    fields = _PIECES * state.game.board.last
    scale = _CERTAIN * fields
    x = []
    for p in range(n):
        progress = state.progress(p)
        if progress < 0.99:  # fields walked / fields: one exact division of whole numbers
            x.append((_CERTAIN * round(progress * fields) - risk[p]) / scale)
        else:  # the winner's 1.0, or the cap of 0.99
            x.append(progress - risk[p] / scale)
    top = max(x)
    weights = [math.exp(k * (v - top)) for v in x]
    total = sum(weights)
    return tuple(w / total for w in weights)
