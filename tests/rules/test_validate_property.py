"""Issue 22.5: one ``validate`` per game, run on every position read.

* every position reached in random play reads back (it validates);
* a position changed at random is either refused with a :class:`PositionError`, or it is
  a position play could reach: then every position played on from it validates too, and
  nothing but rules errors come out (never accepted and then played wrongly).
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import Phase, PositionError, State, get_game, random_action, state_from_dict

CASES = [
    ("senet-tait", 2),
    ("labyrinth", 2),
    ("labyrinth", 4),
    ("senet-sticks", 2),
    ("cretan-labyrinth", 2),
    ("cretan-labyrinth", 4),
]
STEPS = 400
"""Actions of random play per example (a game need not end)."""


def positions(game_id: str, players: int, seed: int, steps: int = STEPS) -> list[State]:
    """Copies of the positions of one random game, at most ``steps`` actions long."""
    rng = random.Random(seed)
    state = get_game(game_id).new_state(players)
    seen = [state.copy()]
    for _ in range(steps):
        if state.phase is Phase.OVER:
            break
        state.push(random_action(state, rng.randrange))
        seen.append(state.copy())
    return seen


def leaves(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside ``data`` except the envelope's keys."""
    found: list[tuple[Any, ...]] = []
    if isinstance(data, dict):
        for key, value in data.items():
            if not path and key in ("format", "version", "game", "options", "players"):
                continue
            found.append((*path, key))
            found += leaves(value, (*path, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            found.append((*path, i))
            found += leaves(value, (*path, i))
    return found


def mutate(data: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """``data`` with one value changed the way a hand edit might: a number nudged, a flag
    flipped, a name swapped for another name of the position, an entry dropped."""
    data = copy.deepcopy(data)
    paths = leaves(data)
    path = paths[rng.randrange(len(paths))]
    parent: Any = data
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    value = parent[key]
    strings = [v for p in paths if isinstance(v := _get(data, p), str)]
    if isinstance(value, bool):
        parent[key] = not value
    elif isinstance(value, int):
        parent[key] = value + rng.choice([-2, -1, 1, 2, 5])
    elif isinstance(value, str) and strings:
        parent[key] = rng.choice(strings)
    elif isinstance(value, list) and value:
        value.pop(rng.randrange(len(value)))
    elif value is None:
        parent[key] = rng.choice([1, True, "red"])
    return data


def _get(data: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        data = data[key]
    return data


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_every_position_reached_in_random_play_validates(game_id: str, players: int) -> None:
    for seed in range(3):
        for state in positions(game_id, players, seed):
            again = state_from_dict(state.to_dict())
            assert again.to_dict() == state.to_dict()


@settings(max_examples=60, deadline=None)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**32 - 1))
def test_a_changed_position_is_refused_or_plays_on_validly(case: tuple[str, int], seed: int) -> None:
    game_id, players = case
    rng = random.Random(seed)
    seen = positions(game_id, players, seed % 1000)
    data = mutate(seen[rng.randrange(len(seen))].to_dict(), rng)
    try:
        state = state_from_dict(data)
    except PositionError:
        return
    for _ in range(60):
        if state.phase is Phase.OVER:
            break
        state.apply(random_action(state, rng.randrange))
        # still a position a game can reach: it reads back, and the same
        state_from_dict(state.to_dict())
