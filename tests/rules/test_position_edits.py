"""Issue 35: no stuck or impossible game gets in through a position file.

Positions along seeded random games of each game are written out (``State.to_dict``),
one key is changed to another value of its type (a number nudged, a flag flipped, a name
swapped for another name of the file, an entry dropped, a key left out, a piece's mark
added), and the file is read again. The reader must either refuse it with a
:class:`PositionError` that names a key, or give a position that play can go on from:
it reads back the same, something is legal (a throw, a move or a choice) unless the
game is over, and every position random play reaches from it reads back too.

Run as a script (``python tests/rules/test_position_edits.py [seeds] [every] [game] [sample]``) it tries
every edit of every ``every``-th position of ``seeds`` games per game and prints how many
edited positions got in broken, per game: the issue's "impossible positions accepted".
"""

from __future__ import annotations

import copy
import random
import sys
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

# The positions of random games and the paths into a position file, shared with the
# older property test of validate() (issue 22.5), which this one sharpens.
from test_validate_property import CASES, _get, leaves
from test_validate_property import positions as _positions

from companion.rules import (
    Phase,
    PositionError,
    RulesError,
    State,
    get_game,
    random_action,
    state_from_dict,
)

ENVELOPE = ("format", "version", "game", "options", "players")
STEPS = 300
"""Actions of random play per game the positions are taken from."""
PLAY_ON = 30
"""Actions of random play from an edited position that got in."""
EDITS = 25
"""Edits tried per position in the quick sweep (a Cretan position has hundreds)."""
MARKS = {"trapped_this_turn": True, "turn_ending": True}
"""Keys a file may hold that a position written by play often leaves out (its default):
an edit may add them."""


def positions(game_id: str, players: int, seed: int) -> list[State]:
    """Copies of the positions of one seeded random game, at most :data:`STEPS` long."""
    return _positions(game_id, players, seed, STEPS)


def edits(data: dict[str, Any], rng: random.Random) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every one-key edit of ``data`` (names swapped for up to four others drawn with
    ``rng``), each as (what was changed, the edited copy)."""
    paths = leaves(data)
    names = sorted({v for p in paths if isinstance(v := _get(data, p), str)})

    def changed(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
        copied = copy.deepcopy(data)
        _get(copied, path[:-1])[path[-1]] = value
        return copied

    for path in paths:
        value = _get(data, path)
        where = ".".join(str(k) for k in path)
        if isinstance(value, bool):
            yield where, changed(path, not value)
        elif isinstance(value, int):
            for step in (-2, -1, 1, 2, 5):
                yield where, changed(path, value + step)
        elif isinstance(value, str):
            others = [n for n in names if n != value]
            for other in rng.sample(others, min(4, len(others))):
                yield where, changed(path, other)
        elif isinstance(value, list):
            for i in range(len(value)):
                copied = copy.deepcopy(data)
                _get(copied, path).pop(i)
                yield f"{where}[{i}] dropped", copied
        elif isinstance(value, dict):
            for key, mark in MARKS.items():
                if key not in value and (key != "turn_ending" or not path):
                    yield f"{where}.{key} added", changed((*path, key), mark)
        elif value is None:
            for filler in (1, True, "red"):
                yield where, changed(path, filler)
        if isinstance(value, int) and not isinstance(value, bool) and path[-1] == 0 and "pieces" in path:
            # a plain field written as a piece serving a trap this turn
            yield where, changed(path, {"field": value, "turns_to_lose": 2, "trapped_this_turn": True})
    for key in data:
        if key not in ENVELOPE:
            copied = copy.deepcopy(data)
            del copied[key]
            yield f"{key} left out", copied
    if "turn_ending" not in data and "pieces" in data and isinstance(data["pieces"], dict):
        yield "turn_ending added", {**copy.deepcopy(data), "turn_ending": True}


def broken(state: State, rng: random.Random) -> str | None:
    """Why play cannot go on from ``state`` (a position that got in), or ``None``: it
    does not read back the same, nothing is legal though the game is not over, or
    random play from it reaches a position that does not read back or a rules error."""
    if state_from_dict(state.to_dict()).to_dict() != state.to_dict():
        return "does not read back the same"
    for _ in range(PLAY_ON):
        if state.phase is Phase.OVER:
            return None
        if state.throw_spec is None and not state.legal_moves():
            return f"stuck: nothing legal in {state.describe()}"
        try:
            state.apply(random_action(state, rng.randrange))
            state_from_dict(state.to_dict())
        except RulesError as exc:
            return f"play goes wrong: {type(exc).__name__}: {exc}"
    return None


def check_edit(data: dict[str, Any], rng: random.Random) -> str | None:
    """``None`` when the edited position ``data`` is refused with a key named, or gets in
    and plays on (:func:`broken`); else what went wrong."""
    try:
        state = state_from_dict(data)
    except PositionError as exc:
        return None if str(exc).strip() else "refused without a reason"
    return broken(state, rng)


@settings(max_examples=60, deadline=None)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**32 - 1))
def test_an_edited_position_is_refused_or_plays_on(case: tuple[str, int], seed: int) -> None:
    game_id, players = case
    rng = random.Random(seed)
    seen = positions(game_id, players, seed % 500)
    state = seen[rng.randrange(len(seen))]
    every = list(edits(state.to_dict(), rng))
    what, data = every[rng.randrange(len(every))]
    assert check_edit(data, rng) is None, f"{what}: {data}"


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_each_edit_of_a_few_positions_is_refused_or_plays_on(game_id: str, players: int) -> None:
    seen = positions(game_id, players, 7)
    for state in seen[:: max(1, len(seen) // 4)]:
        rng = random.Random(len(state.history))
        every = list(edits(state.to_dict(), rng))
        for what, data in rng.sample(every, min(EDITS, len(every))):
            assert check_edit(data, rng) is None, f"{what}: {data}"


def test_before_the_start_the_sticks_plinths_stand_as_set_up_and_who_casts_is_worked_out() -> None:
    game = get_game("senet-sticks")
    data = game.new_state().to_dict()
    assert state_from_dict(data).to_dict() == data
    with pytest.raises(PositionError, match="as set up"):
        state_from_dict(data | {"plinths": [[1, 2, 3, 4, 7], [26, 27, 28, 29, 30]]})
    with pytest.raises(PositionError, match="Player 1 casts next"):
        state_from_dict(data | {"to_act": 2})
    cast = data | {"start_casts": [4, None], "to_act": 2}
    assert state_from_dict(cast).current_player == 1
    with pytest.raises(PositionError, match="Player 2 casts next"):
        state_from_dict(cast | {"to_act": 1})


def count(seeds: int, every: int, only: str = "", sample: int = 0) -> dict[str, Counter[str]]:
    """Per game (``id/players``, those whose id starts with ``only``): the edits that got
    in broken, counted by the key changed (indices left out) and what went wrong;
    ``sample`` > 0 tries that many edits per position, drawn at random (seeded)."""
    found: dict[str, Counter[str]] = {}
    for game_id, players in CASES:
        if not game_id.startswith(only):
            continue
        tally: Counter[str] = Counter()
        for seed in range(seeds):
            seen = positions(game_id, players, seed)
            for state in seen[::every]:
                rng = random.Random(seed)
                every_edit = list(edits(state.to_dict(), rng))
                if sample:
                    every_edit = rng.sample(every_edit, min(sample, len(every_edit)))
                for what, data in every_edit:
                    why = check_edit(data, rng)
                    if why is not None:
                        key = "".join(c for c in what if not c.isdigit())
                        tally[f"{key}: {why.split(':')[0]}"] += 1
        found[f"{game_id}/{players}"] = tally
        print(f"{game_id}/{players}: {sum(tally.values())} accepted broken", flush=True)
        for what, n in tally.most_common():
            print(f"    {n:5d}  {what}", flush=True)
    return found


if __name__ == "__main__":
    count(int(sys.argv[1]) if len(sys.argv) > 1 else 2, int(sys.argv[2]) if len(sys.argv) > 2 else 10,
          sys.argv[3] if len(sys.argv) > 3 else "", int(sys.argv[4]) if len(sys.argv) > 4 else 0)
