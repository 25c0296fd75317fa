"""Reading a casting-stick Senet position (``docs/positions.md``): :func:`read_state`
checks each key and the position as a whole (a blocked board, a win, the Abyss before
the start). ``SenetSticks.state_from_dict`` runs it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.rules.core import PositionError, require
from companion.rules.senet_sticks.state import (
    _MARK_KEYS,
    _STAGES,
    ABYSS,
    EMPTY,
    STAGE_PLAY,
    STAGE_START,
    STAGE_TOSS,
    SenetSticksRules,
    SenetSticksState,
)
from companion.rules.senet_sticks_board import PLINTHS


def read_state(game: SenetSticksRules, data: Mapping[str, Any], players: int) -> SenetSticksState:
    """Build a state from the keys written by ``SenetSticksState._body`` (or by hand).

    :raises PositionError: naming the key and the reason.
    """
    state = SenetSticksState(game)
    n = game.squares
    stage = require(data, "stage", str)
    if stage not in _STAGES:
        raise PositionError("stage", f"expected one of {', '.join(_STAGES)}, got {stage!r}")
    if stage == STAGE_TOSS and not game.option("colour-toss"):
        raise PositionError("stage", "a colour toss is due only with option colour-toss")
    state.stage = stage
    colours = data.get("colours")
    if stage == STAGE_TOSS:
        if colours is not None:
            raise PositionError("colours", "must be null before the colour toss")
        state.colours = None
    elif colours is None and not game.option("colour-toss"):
        state.colours = game.spec.colours
    else:
        pair = game.spec.colours
        if not isinstance(colours, list) or sorted(colours) != sorted(pair):
            raise PositionError("colours", f"expected the colours of Players 1 and 2, e.g. {list(pair)}, got {colours!r}")
        state.colours = (colours[0], colours[1])
    to_act = require(data, "to_act", int)
    if to_act not in (1, 2):
        raise PositionError("to_act", f"expected 1 or 2, got {to_act}")
    state.turn = to_act - 1
    casts = data.get("start_casts", [None, None])
    faces = {f.value for f in game.spec.solid}
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
        state.casts = [casts[0], casts[1]]
    values = data.get("values", [])
    possible = {f.value for pair in game.sticks.sticks for f in pair}
    if (
        not isinstance(values, list) or len(values) > len(game.sticks.sticks)
        or any(isinstance(v, bool) or v not in possible for v in values)
    ):
        raise PositionError(
            "values", f"expected up to {len(game.sticks.sticks)} stick values from {sorted(possible)}, got {values!r}"
        )
    if values and stage != STAGE_PLAY:
        raise PositionError("values", "values are played only once the game has started")
    state.values = list(values)
    marks = {key: data.get(key, []) for key, _flag in _MARK_KEYS}
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
                state.abyss[p] += 1
            elif isinstance(entry, int) and not isinstance(entry, bool):
                if not 1 <= entry <= n:
                    raise PositionError(at, f"square must be 1 to {n}, got {entry}")
                if entry in game.spec.rivers:
                    raise PositionError(at, f"no plinth stays on square {entry}: its river carries it on")
                if state.board[entry] != EMPTY:
                    raise PositionError(at, f"square {entry} already holds a plinth")
                state.board[entry] = p
            else:
                raise PositionError(at, f"expected a square 1-{n} or {ABYSS!r}, got {entry!r}")
    for key, flag in _MARK_KEYS:
        squares = marks[key]
        if squares and not values:
            raise PositionError(key, "marks a plinth moved this turn: only while values remain to play")
        if key == "took" and squares and game.mid_captures:
            raise PositionError(key, "is kept only with option combination-captures=no")
        if not isinstance(squares, list) or any(
            not isinstance(s, int) or isinstance(s, bool) or not 1 <= s <= n
            or state.board[s] != state.turn for s in squares
        ):
            raise PositionError(
                key, f"expected a list of squares holding a plinth of the player to act, got {squares!r}"
            )
        for s in squares:
            state.moved[s] = state.moved.get(s, 0) | flag
    winners = [p for p in (0, 1) if state._has_won(p)]
    if len(winners) == 2:
        raise PositionError("plinths", "both players cannot have won")
    if winners:
        state.winner = winners[0]
        state.values = []
        state.moved = {}
    elif data.get("blocked", False) is not False:
        # A game that ended on a blocked board (after the pass that found it) reads
        # back as ended. A blocked board without this key waits for a throw, as in
        # play: the throw is passed, and that pass ends the game.
        if data.get("blocked") is not True or stage != STAGE_PLAY or values or not state._blocked():
            raise PositionError(
                "blocked", "true only for a game in play, no values left, on a board no throw can change"
            )
        state.blocked = True
        outcome = state.outcome
        assert outcome is not None
        state.winner = outcome.winners[0]
    elif stage != STAGE_PLAY and (state.abyss[0] or state.abyss[1]):
        raise PositionError("plinths", "no plinth can be in the Abyss before the game starts")
    return state


__all__ = ["read_state"]
