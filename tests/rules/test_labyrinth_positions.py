"""Labyrinth positions that play cannot reach are refused when read (issue 35), and the
ones play does reach still read: a turn's end waiting on a ride anywhere but the
tunnel's exit, an offer with both dice unused, a start tie that names one player or a
player out of the tie who never threw or threw a 6."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from companion.rules import PositionError, State, get_game, random_action
from companion.rules.labyrinth import LabyrinthState


def reached(players: int, found: Callable[[LabyrinthState], bool], seeds: int = 400) -> LabyrinthState:
    """The first position of seeded random games where ``found`` holds."""
    for seed in range(seeds):
        state = get_game("labyrinth").new_state(players)
        rng = random.Random(seed)
        while state.outcome is None:
            assert isinstance(state, LabyrinthState)
            if found(state):
                return state
            state.apply(random_action(state, rng.randrange))
    raise AssertionError("no such position in the seeds tried")


def read(data: dict[str, Any]) -> State:
    return get_game("labyrinth").state_from_dict(data)


def test_an_offer_with_both_dice_unused_is_refused() -> None:
    state = reached(2, lambda s: s.pending is not None and len(s.values) == 1)
    data = state.to_dict()
    assert read(data).to_dict() == data  # as play left it: read
    data["dice"] = [*data["dice"], 3]
    with pytest.raises(PositionError, match="both dice are unused"):
        read(data)


def test_a_turns_end_waits_only_on_the_ride_from_the_tunnels_exit() -> None:
    state = reached(2, lambda s: s.closing, seeds=2000)
    data = state.to_dict()
    assert data["turn_ending"] is True and data["pending"]["field"] == 7
    assert 7 in data["pieces"][data["to_act"]]
    assert read(data).to_dict() == data
    for field in (46, 34):  # other fields of the Knight's Orbit
        moved = dict(data, pending={**data["pending"], "field": field})
        colour = data["to_act"]
        moved["pieces"] = dict(data["pieces"], **{colour: [
            field if p == 7 else p for p in data["pieces"][colour]]})
        with pytest.raises(PositionError, match="tunnel's exit"):
            read(moved)


def test_a_start_tie_names_two_players_or_more_each_out_of_it_lower() -> None:
    state = reached(4, lambda s: s.stage == 0 and len(s.contenders) < s.players)
    data = state.to_dict()
    assert read(data).to_dict() == data
    out = next(c for c in ("red", "blue", "green", "yellow") if c not in data["contenders"])
    for change, says in (({"contenders": data["contenders"][:1]}, "two players or more"),
                         ({"start_throws": {**data["start_throws"], out: None}}, "1-5"),
                         ({"start_throws": {**data["start_throws"], out: 6}}, "1-5")):
        with pytest.raises(PositionError, match=says):
            read(data | change)
