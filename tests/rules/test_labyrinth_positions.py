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


# ----------------------------------------------- issue 35: keys read and checked (pos6)


def test_a_trap_mark_of_this_turn_is_refused_while_the_turn_ends() -> None:
    """The turn's end counts down the player's traps and clears every mark of the turn
    before it offers the ride on the tunnel's exit: while that ride waits (``turn_ending``)
    no piece is marked as trapped this turn (the mark would keep it trapped a turn more)."""
    state = reached(2, lambda s: s.closing, seeds=2000)
    data = state.to_dict()
    colour = data["to_act"]
    taken = {e if isinstance(e, int) else e.get("field") for es in data["pieces"].values() for e in es
             if not isinstance(e, str)}
    traps = state.game.board.traps
    trap = next(f for f in sorted(traps) if f not in taken)
    turns = traps[trap]
    i = next(i for i, e in enumerate(data["pieces"][colour]) if e != data["pending"]["field"])
    marked = copy.deepcopy(data)
    marked["pieces"][colour][i] = {"field": trap, "turns_to_lose": turns, "trapped_this_turn": True}
    with pytest.raises(PositionError, match="turn's end clears") as caught:
        read(marked)
    assert caught.value.where == f"pieces.{colour}[{i}].trapped_this_turn"
    # the same piece trapped in an earlier turn: read
    marked["pieces"][colour][i] = {"field": trap, "turns_to_lose": turns}
    read(marked)


@pytest.mark.parametrize(("key", "value"), [
    ("dice", [3, 4]), ("pending", {"what": "ride", "field": 7}), ("entered_this_turn", True),
    ("turn_ending", True),
])
def test_the_throws_for_the_start_hold_nothing_of_a_turn(key: str, value: object) -> None:
    """'Each player rolls one die; the player with the highest number goes first': before
    that no turn has begun, so no dice of a turn, no offer, no entry, no turn's end. The
    reader ignored these keys in the start stage; a file that gives them is refused."""
    data = get_game("labyrinth").new_state(2).to_dict()
    assert read(data).to_dict() == data
    with pytest.raises(PositionError, match="start") as caught:
        read(data | {key: value})
    assert caught.value.where == key


@pytest.mark.parametrize(("key", "value"), [
    ("dice", [3, 4]), ("pending", {"what": "ride", "field": 7}), ("turn_ending", True),
])
def test_a_finished_game_holds_no_dice_or_offer(key: str, value: object) -> None:
    """'The first player to bear off all four pieces is the winner': the last bear-off
    ends the game and clears the dice still to use and any offer; a finished game that
    still has them is refused (they were ignored)."""
    data = get_game("labyrinth").new_state(2).to_dict()
    data["pieces"]["red"] = ["off"] * 4
    data["stage"] = "over"
    assert read(data).outcome is not None
    with pytest.raises(PositionError, match="over") as caught:
        read(data | {key: value})
    assert caught.value.where == key


@pytest.mark.parametrize("contenders", [["red", "blue", "blue", "green"], ["blue", "red", "green"]])
def test_contenders_are_named_once_each_in_seat_order(contenders: list[str]) -> None:
    """Players throw for the start in seat order ('Turns continue clockwise'), each once a
    round: a list naming one twice or out of order was silently put right."""
    data = get_game("labyrinth").new_state(3).to_dict()
    assert data["contenders"] == ["red", "blue", "green"]
    with pytest.raises(PositionError, match="once each, in seat order") as caught:
        read(data | {"contenders": contenders})
    assert caught.value.where == "contenders"


def test_a_start_throw_of_a_colour_not_in_the_game_is_refused() -> None:
    """Only the players of the game throw for the start; a throw for another colour was
    ignored."""
    data = get_game("labyrinth").new_state(2).to_dict()
    with pytest.raises(PositionError, match="no such colour") as caught:
        read(data | {"start_throws": {"red": None, "blue": None, "green": 4}})
    assert caught.value.where == "start_throws.green"


@pytest.mark.parametrize(("key", "value"), [
    ("contenders", ["red", "blue"]), ("start_throws", {"red": 3, "blue": 3}),
])
def test_the_throws_for_the_start_are_refused_once_play_has_begun(key: str, value: object) -> None:
    """The start ends with one player the highest (a tie throws again), and play writes
    no start keys: a file in play naming contenders or start throws (here a tie never
    thrown off) says something play never leaves; it was ignored."""
    state = reached(2, lambda s: s.stage == 1)
    data = state.to_dict()
    assert "contenders" not in data and "start_throws" not in data
    with pytest.raises(PositionError, match="only while the players throw for the start") as caught:
        read(data | {key: value})
    assert caught.value.where == key
    read(data | {"contenders": [], "start_throws": {"red": None, "blue": None}})  # nothing said: read


def test_a_trap_mark_of_this_turn_is_refused_with_both_dice_unused() -> None:
    """A piece falls into a trap by a count, which uses a die of the turn: with both dice
    of the throw still to use nothing of the turn is done, so no piece is marked as
    trapped this turn."""
    state = reached(2, lambda s: any(s.fresh) and len(s.values) == 1 and s.pending is None)
    data = state.to_dict()
    assert read(data).to_dict() == data
    colour = data["to_act"]
    i = next(i for i, e in enumerate(data["pieces"][colour]) if isinstance(e, dict) and e.get("trapped_this_turn"))
    with pytest.raises(PositionError, match="both dice") as caught:
        read(data | {"dice": [*data["dice"], 2]})
    assert caught.value.where == f"pieces.{colour}[{i}].trapped_this_turn"


def test_a_finished_game_is_the_winners_to_act() -> None:
    """The game ends on the winner's last bear-off, in the winner's turn: who acts in a
    finished game is worked out (the winner) and a file naming another is refused."""
    data = get_game("labyrinth").new_state(2).to_dict()
    for key in ("start_throws", "contenders"):
        del data[key]
    data["pieces"]["blue"] = ["off"] * 4
    data["stage"] = "over"
    del data["to_act"]
    assert read(data).to_dict()["to_act"] == "blue"
    assert read(data | {"to_act": "blue"}).to_dict()["to_act"] == "blue"
    with pytest.raises(PositionError, match="winner") as caught:
        read(data | {"to_act": "red"})
    assert caught.value.where == "to_act"


def test_the_marks_of_a_turn_are_refused_when_the_dice_used_cannot_have_made_them() -> None:
    """Each mark of the turn under way took a die of its own: an offer waiting (a count
    landed on its field), a piece entered (a 1), each piece trapped this turn (a count
    ending on the trap). With one die of the throw left, the offer waiting used the
    other: no piece entered and none fell into a trap this turn."""
    state = reached(2, lambda s: s.pending is not None and len(s.values) == 1 and not s.closing)
    data = state.to_dict()
    assert read(data).to_dict() == data
    with pytest.raises(PositionError, match="a die of its own") as caught:
        read(data | {"entered_this_turn": True})
    assert caught.value.where == "entered_this_turn"
    colour = data["to_act"]
    taken = {e if isinstance(e, int) else e.get("field") for es in data["pieces"].values() for e in es
             if not isinstance(e, str)}
    traps = state.game.board.traps
    trap = next(f for f in sorted(traps) if f not in taken)
    i = next(i for i, e in enumerate(data["pieces"][colour]) if e != data["pending"]["field"])
    marked = copy.deepcopy(data)
    marked["pieces"][colour][i] = {"field": trap, "turns_to_lose": traps[trap], "trapped_this_turn": True}
    with pytest.raises(PositionError, match="a die of its own") as caught:
        read(marked)
    assert caught.value.where == f"pieces.{colour}[{i}].trapped_this_turn"
    marked["dice"] = None  # both dice used: the trap and the offer
    read(marked)
