"""Labyrinth positions that play cannot reach are refused when read (issue 35), and the
ones play does reach still read: a turn's end waiting on a ride anywhere but the
tunnel's exit, an offer with both dice unused, a start tie that names one player or a
player out of the tie who never threw or threw a 6."""

from __future__ import annotations

import copy
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


def test_a_trap_mark_of_this_turn_only_on_the_player_to_act_with_its_turns_whole() -> None:
    state = reached(2, lambda s: any(s.fresh) and bool(s.values))
    data = state.to_dict()
    assert read(data).to_dict() == data
    colour = data["to_act"]
    other = next(c for c in data["pieces"] if c != colour)
    i = next(i for i, e in enumerate(data["pieces"][colour]) if isinstance(e, dict) and e.get("trapped_this_turn"))
    marked = data["pieces"][colour][i]
    # the mark on another player's piece: its owner would lose a turn more
    moved = copy.deepcopy(data)
    moved["pieces"][other][0] = {"field": 20 if 20 not in moved["pieces"][other] else 22,
                                 "turns_to_lose": 2, "trapped_this_turn": True}
    with pytest.raises(PositionError, match="player to act"):
        read(moved)
    # a turn lost already: the count starts with the owner's next turn
    counted = copy.deepcopy(data)
    counted["pieces"][colour][i] = {**marked, "turns_to_lose": marked["turns_to_lose"] - 1}
    with pytest.raises(PositionError, match="lost none of its turns"):
        read(counted)
    # a new turn's throw due: the turn's end cleared the mark
    with pytest.raises(PositionError, match="player to act"):
        read(data | {"dice": None, "pending": None})


def test_an_entry_this_turn_only_with_a_die_used_and_a_piece_in() -> None:
    state = reached(2, lambda s: s.entered and len(s.values) == 1 and s.pending is None)
    data = state.to_dict()
    assert read(data).to_dict() == data
    for change in ({"dice": None}, {"dice": [*data["dice"], 1]}):
        with pytest.raises(PositionError, match="entered_this_turn"):
            read(data | change)
    colour = data["to_act"]
    with pytest.raises(PositionError, match="is outside"):
        read(data | {"pieces": {**data["pieces"], colour: ["outside"] * 4}})


def test_who_throws_for_the_start_is_worked_out_and_a_file_naming_another_refused() -> None:
    state = reached(3, lambda s: s.stage == 0 and any(s.start_rolls))
    data = state.to_dict()
    assert read(data).to_dict() == data
    due = data["to_act"]
    for colour in ("red", "blue", "green"):
        if colour != due:
            with pytest.raises(PositionError, match="throws next for the start"):
                read(data | {"to_act": colour})
    thrown = next(c for c, v in data["start_throws"].items() if v)
    # a later contender thrown before an earlier one
    with pytest.raises(PositionError, match="seat order"):
        read(data | {"start_throws": {**data["start_throws"], thrown: None, "green": 3}})


def test_a_game_with_all_four_pieces_of_a_player_off_is_over_whatever_the_file_says() -> None:
    data = get_game("labyrinth").new_state(2).to_dict()
    data["pieces"]["red"] = ["off"] * 4
    over = read(data | {"stage": "over"})
    assert over.outcome is not None and over.outcome.winners == (0,)
    with pytest.raises(PositionError, match="the game is over"):
        read(data | {"stage": "play"})
