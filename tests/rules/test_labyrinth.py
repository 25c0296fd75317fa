"""Rules of Peter Aleff's Game of the Labyrinth (game id ``labyrinth``).

Each test names, in its docstring, the seed and the sentence it checks: seed 000 is
``000_764640a44232cb09.txt`` (Rules of Play, Part 1), seed 001 is
``001_7445520b05b4b51e.txt`` (the summary with the special fields). Readings of what
the seeds leave open are in ``docs/rules/labyrinth.md``.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import (
    PASS,
    BoardDataError,
    IllegalMoveError,
    Move,
    OptionError,
    Phase,
    PieceZone,
    PositionError,
    get_game,
    play_out,
    random_action,
    state_from_dict,
)
from companion.rules.core import (
    EV_BORNE_OFF,
    EV_MOVED,
    EV_SWAPPED,
    EV_TRAPPED,
    EV_TURN_PASSES,
    EV_VALUE_LOST,
    EV_WON,
    Event,
)
from companion.rules.labyrinth import (
    EV_ALL_TRAPPED,
    EV_BOUNCE,
    EV_CROSS,
    EV_DROP,
    EV_FREED,
    EV_GOOSE,
    EV_JUMP,
    EV_MILLSTONE_OFFER,
    EV_NEED_ONE,
    EV_ORBIT_OFFER,
    EV_RIDE,
    EV_START_TIE,
    EV_STARTS,
    EV_STAY,
    EV_TUNNEL,
    Labyrinth,
    LabyrinthState,
)
from companion.rules.labyrinth_board import load_board

COLOURS = ("red", "blue", "green", "yellow")


def game(**options: object) -> Labyrinth:
    g = get_game("labyrinth", **options)
    assert isinstance(g, Labyrinth)
    return g


def position(
    pieces: dict[str, list[Any]],
    *,
    to_act: str = "red",
    dice: list[int] | None = None,
    players: int = 2,
    g: Labyrinth | None = None,
    **extra: Any,
) -> LabyrinthState:
    """A hand-written position; players not named keep their pieces outside."""
    full = {c: pieces.get(c, ["outside"] * 4) for c in COLOURS[:players]}
    data: dict[str, Any] = {
        "format": "board-companion/position",
        "version": 1,
        "game": "labyrinth",
        "players": players,
        "to_act": to_act,
        "dice": dice,
        "pieces": full,
        **extra,
    }
    state = (g or game()).state_from_dict(data)
    assert isinstance(state, LabyrinthState)
    return state


RED, BLUE, GREEN = 0, 1, 2


def ev(kind: str, player: int, src: int | None = None, dst: int | None = None, **args: Any) -> Event:
    """An event as the rules must report it (what each kind carries:
    ``companion/rules/labyrinth/events.py``)."""
    return Event(kind, player, src=src, dst=dst, args=args)


def kinds(events: list[Any]) -> list[str]:
    return [e.kind for e in events]


def where(state: LabyrinthState, colour: str) -> list[Any]:
    """The colour's pieces as written in the position JSON."""
    entries: list[Any] = state.to_dict()["pieces"][colour]
    return entries


def phase(state: LabyrinthState) -> Phase:
    """The phase, read through a function so the type checker does not narrow it."""
    return state.phase


def notations(state: LabyrinthState) -> list[str]:
    return [m.notation for m in state.legal_moves()]


def play(state: LabyrinthState, *actions: str) -> list[Event]:
    """Apply moves (notation) or throws (``"throw 3 5"``) in turn; return all events."""
    out: list[Event] = []
    for action in actions:
        if action.startswith("throw "):
            spec = state.throw_spec
            assert spec is not None, f"no throw due for {action!r}"
            out += state.apply(spec.parse(action[6:]))
        else:
            out += state.apply(state.parse_move(action))
    return out


# ------------------------------------------------------------------ players, start


def test_two_three_or_four_players() -> None:
    """Seed 000: 'This is a game for two, three or four players, each traveling with four
    game pieces.'"""
    g = game()
    for n in (2, 3, 4):
        state = g.new_state(n)
        assert len(state.pieces()) == 4 * n
        assert all(p.zone is PieceZone.OUTSIDE for p in state.pieces())
    for n in (1, 5):
        with pytest.raises(OptionError, match="2 to 4 players"):
            g.new_state(n)


def test_highest_single_die_starts_and_ties_throw_again() -> None:
    """Seed 000: 'Each player rolls one die; the player with the highest number goes
    first. Turns continue clockwise.' (tied players throw again: docs/rules/labyrinth.md)"""
    state = game().new_state(3)
    assert state.phase is Phase.THROW
    assert state.throw_spec is not None and state.throw_spec.id == "1d6"
    assert state.current_player == 0
    play(state, "throw 5")
    assert state.current_player == 1
    play(state, "throw 5")
    events = play(state, "throw 2")
    assert ev(EV_START_TIE, RED, value=5, players=(RED, BLUE)) in events
    assert state.to_dict()["contenders"] == ["red", "blue"]
    assert state.current_player == 0  # only the tied players throw again
    play(state, "throw 3")
    events = play(state, "throw 6")
    assert ev(EV_STARTS, BLUE, value=6) in events
    assert state.current_player == 1 and state.throw_spec is not None
    assert state.throw_spec.id == "2d6"
    play(state, "throw 2 3", "pass")  # nobody can enter without a 1
    assert state.current_player == 2  # clockwise: Blue, then Green
    play(state, "throw 2 3", "pass")
    assert state.current_player == 0


def test_throw_outcomes_of_two_dice_and_one_die() -> None:
    """Seed 000: 'At each turn, roll the two dice' / 'Each player rolls one die'."""
    state = game().new_state(2)
    assert sum(p for _, p in state.throw_outcomes()) == 1
    assert len(state.throw_outcomes()) == 6
    s2 = position({}, dice=None)
    outcomes = s2.throw_outcomes()
    assert len(outcomes) == 36 and sum(p for _, p in outcomes) == Fraction(1)


# ------------------------------------------------------------------ entering, dice


def test_entering_needs_a_one_and_unusable_values_are_lost() -> None:
    """Seed 001: 'Field 1 -- You need to roll a 1 to enter a piece onto the first space.'
    A value that no piece can use is lost, and the events say so."""
    state = position({}, dice=[2, 3])
    assert state.legal_moves() == (PASS,)
    events = state.apply(PASS)
    assert events[:3] == [
        ev(EV_NEED_ONE, RED, value=1),
        ev(EV_VALUE_LOST, RED, value=2, explained=True),
        ev(EV_VALUE_LOST, RED, value=3, explained=True),
    ]
    assert state.current_player == 1 and state.phase is Phase.THROW


def test_double_one_enters_two_pieces_unless_the_option_says_one() -> None:
    """Seed 000: 'You have to use each number separately' -- each 1 of a double 1 enters
    a piece (option double-one-enters-two=no allows one entry per turn)."""
    state = position({}, dice=[1, 1])
    play(state, "enter 1", "enter 1")
    assert where(state, "red").count(1) == 2
    state = position({}, dice=[1, 1], g=game(double_one_enters_two="no"))
    play(state, "enter 1")
    assert notations(state) == ["1-2"]


def test_values_used_separately_in_either_order() -> None:
    """Seed 001: 'Use each number separately ... You may use the two numbers in any
    order.'"""
    state = position({"red": [8, 30, "outside", "outside"]}, dice=[2, 5])
    assert notations(state) == ["8-10", "30-30", "8-13", "30-27"]
    play(state, "8-13")
    assert state.phase is Phase.MOVE and state.values == [2]
    assert notations(state) == ["30-30"]  # the piece on 13 is trapped


def test_first_value_field_is_resolved_before_the_second() -> None:
    """Seed 000: 'if you use both numbers for the same traveler, you must land at the end
    of the first number before continuing with the second number.' Seed 001: '... and deal
    with its consequences before continuing'."""
    state = position({"red": [3, "outside", "outside", "outside"]}, dice=[3, 2])
    events = play(state, "3-6 to 12")
    assert ev(EV_JUMP, RED, 6, 12) in events
    assert notations(state) == ["12-14"]
    play(state, "12-14")
    assert where(state, "red")[0] == 14


def test_both_values_must_be_used() -> None:
    """Seed 000: 'Unless all your Athenians are trapped, you must use both your numbers
    and move at least one of your travelers at each turn'."""
    state = position({"red": [8, "outside", "outside", "outside"]}, dice=[2, 3])
    play(state, "8-10")
    assert state.phase is Phase.MOVE
    assert PASS not in state.legal_moves()
    with pytest.raises(IllegalMoveError):
        state.apply(PASS)


def test_a_double_is_two_values_and_no_extra_throw() -> None:
    """Seed 000: 'roll the two dice and move one or two of your Athenians according to the
    numbers facing up' -- 'you must use both your numbers': a double gives two moves of
    its value, not four as in backgammon, and no extra throw (docs/rules/labyrinth.md Q25)."""
    state = position({"red": [8, 20, "outside", "outside"]}, dice=[3, 3])
    play(state, "8-11")
    assert state.values == [3]
    events = play(state, "20-23")
    assert events[-1] == ev(EV_TURN_PASSES, BLUE)
    assert state.current_player == 1 and state.phase is Phase.THROW


def test_geese_and_jumps_are_not_a_choice() -> None:
    """Seed 000: 'you get to use again the last single die number which brought you on
    that field'; seed 001: 'Field 6 -- Free passage. When you land here, advance your piece
    to 12.' The repeat and the advance are part of the move, even when the repeat bounces
    off 58 to a worse field: no move stops on 53 or on 6 (docs/rules/labyrinth.md Q24)."""
    state = position({"red": [47, 3, "outside", "outside"]}, dice=[6, 3])
    assert "47-53 to 57" in notations(state) and "47-53" not in notations(state)
    assert "3-6 to 12" in notations(state) and "3-6" not in notations(state)
    play(state, "47-53 to 57", "3-6 to 12")
    assert where(state, "red")[:2] == [57, 12]


def test_returning_to_the_same_field_counts_as_a_move() -> None:
    """Seed 000: '... be it only to return to the same field'."""
    state = position({"red": [58, "outside", "outside", "outside"]}, dice=[6, 6])
    assert notations(state) == ["58-58"]
    events = play(state, "58-58")
    assert ev(EV_BOUNCE, RED, 61, 58, steps=3) in events


# ------------------------------------------------------------------ sanctuaries and swaps


def test_sanctuaries_hold_any_number_of_pieces() -> None:
    """Seed 000: 'The following fields are the only ones that may be occupied by any
    number of Athenians at the same time: 1, 2, 3, 4, 5, 31 and 58.'"""
    state = position({"red": [2, 3, "outside", "outside"], "blue": [3, 4, 31, 31]}, dice=[1, 1])
    events = play(state, "2-3", "3-4")
    assert not any(e.kind == EV_SWAPPED for e in events)
    assert state.may_share(31) and state.may_share(58) and not state.may_share(30)


def test_arriving_on_an_occupied_field_sends_the_occupant_back() -> None:
    """Seed 000: 'Except on sanctuary spaces, Athenians do not share fields. If one
    arrives on an occupied field, that occupant goes to where the new arrival just came
    from'."""
    state = position({"red": [10, "outside", "outside", "outside"], "blue": [14, "outside", "outside", "outside"]}, dice=[4, 2])
    events = play(state, "10-14")
    assert ev(EV_SWAPPED, RED, 14, 10, other=BLUE) in events
    assert where(state, "red")[0] == 14 and where(state, "blue")[0] == 10


def test_swap_with_own_piece() -> None:
    """Seed 000: '... that occupant goes to where the new arrival just came from, even if
    it is one of your own group.' '... or to have two of your people switch places with
    each other.'"""
    state = position({"red": [10, 14, "outside", "outside"]}, dice=[4, 2])
    events = play(state, "10-14")
    assert ev(EV_SWAPPED, RED, 14, 10, other=RED) in events
    assert sorted(where(state, "red")[:2]) == [10, 14]


def test_jump_onto_an_occupied_field_sends_the_occupant_to_where_the_count_began() -> None:
    """Seed 001: 'Field 6 -- Free passage. When you land here, advance your piece to 12.'
    with 'that occupant goes to where the new arrival just came from' (reading in
    docs/rules/labyrinth.md: the field where the count began)."""
    state = position({"red": [3, "outside", "outside", "outside"], "blue": [12, "outside", "outside", "outside"]}, dice=[3, 2])
    events = play(state, "3-6 to 12")
    assert events[-1] == ev(EV_SWAPPED, RED, 12, 3, other=BLUE)
    assert where(state, "blue")[0] == 3


# ------------------------------------------------------------------ exact count


def test_overshooting_31_steps_back_the_surplus() -> None:
    """Seed 001: 'Field 31 -- ... You must arrive on field 31 by an exact count. ... If
    your die count overshoots the exact number needed, you enter 31 and then move the
    surplus number of steps backward.'"""
    state = position({"red": [29, "outside", "outside", "outside"]}, dice=[5, 2])
    events = play(state, "29-28")
    assert ev(EV_BOUNCE, RED, 31, 28, steps=3) in events
    play(state, "28-30 with 2")
    state = position({"red": [29, "outside", "outside", "outside"]}, dice=[2, 2])
    play(state, "29-31", "31-33")
    assert where(state, "red")[0] == 33


def test_bounce_is_allowed_even_when_another_piece_could_use_the_whole_value() -> None:
    """Seed 000: 'This is permitted even if one of your other people could use the whole
    die to move forward.'"""
    state = position({"red": [29, 8, "outside", "outside"]}, dice=[5, 5])
    assert {"29-28", "8-13"} <= set(notations(state))
    play(state, "29-28")


def test_overshooting_61_from_60_backs_up_past_58() -> None:
    """Seed 001: 'when the die roll of a player on field 60 exceeds the exact count needed
    to arrive on 61 and that player's traveler must back up to before 58' -- backing up
    passes field 58 without stopping."""
    state = position({"red": [60, "outside", "outside", "outside"]}, dice=[6, 2])
    events = play(state, "60-56")
    assert ev(EV_BOUNCE, RED, 61, 56, steps=5) in events


def test_field_58_exception_the_swapped_piece_skips_58() -> None:
    """Seed 001, field 58: 'Exception: when the die roll of a player on field 60 exceeds
    the exact count needed to arrive on 61 and that player's traveler must back up to
    before 58 and happens to land on your field, you change places, and so you advance
    directly to the field that player started from, and you don't need to enter field
    58. If, however, on a future turn you, too, overshoot 61 and must land back before 58,
    you must then roll an exact count of the die to enter 58 all over again.'"""
    state = position(
        {"red": [60, "outside", "outside", "outside"], "blue": [57, "outside", "outside", "outside"]},
        dice=[5, 1],
    )
    events = play(state, "60-57")
    assert ev(EV_SWAPPED, RED, 57, 60, other=BLUE) in events
    assert where(state, "blue")[0] == 60
    play(state, "57-58")  # Red's other value: 58 by exact count
    # Blue, a turn later, overshoots 61 and lands before 58 ...
    play(state, "throw 5 3", "60-57")
    assert where(state, "blue")[0] == 57
    # ... and now needs the exact count into 58 again: 57 + 3 steps into 58 and back 2.
    assert "57-56" in notations(state)
    events = play(state, "57-56")
    assert ev(EV_BOUNCE, BLUE, 58, 56, steps=2) in events


# ------------------------------------------------------------------ geese


def test_goose_repeats_the_last_single_value() -> None:
    """Seed 000: 'When you land on a field with one of the "Flock of Geese a-flying"
    arrows, you get to use again the last single die number which brought you on that
    field'. (Default goose fields 16, 42, 53: rules-notes.md.)"""
    state = position({"red": [12, "outside", "outside", "outside"]}, dice=[4, 1])
    events = play(state, "12-16 to 20")
    assert ev(EV_GOOSE, RED, 16, 20, value=4, backwards=False) in events
    assert where(state, "red")[0] == 20


def test_goose_backwards_when_the_piece_was_going_backwards() -> None:
    """Seed 000: 'If you land on the geese while going backwards, continue going backwards
    by again your last die, until you no longer land on a field with geese.'"""
    state = position({"red": [57, "outside", "outside", "outside"]}, dice=[6, 1])
    events = play(state, "57-53 to 47")
    assert ev(EV_BOUNCE, RED, 58, 53, steps=5) in events
    assert ev(EV_GOOSE, RED, 53, 47, value=6, backwards=True) in events
    assert where(state, "red")[0] == 47


def test_a_goose_repeat_that_overshoots_58_steps_back_and_says_so() -> None:
    """Seed 000: 'If one of your Athenians cannot move forward the full number on a die
    because an exact count is required to arrive on a field ahead, step forward into that
    field and then one step backwards for each excess point on that die.' -- the goose's
    repeat of a 6 from 53 goes forward into 58 and back 1 to 57. The repeat went
    forwards (not "backwards"), and the bounce is told like any other
    (docs/rules/labyrinth.md: the events screen tells "the bounce before 31, 58 or 61")."""
    state = position({"red": [47, "outside", "outside", "outside"]}, dice=[6, 1])
    events = play(state, "47-53 to 57")
    assert events == [
        ev(EV_MOVED, RED, 47, 53, value=6),
        ev(EV_GOOSE, RED, 53, 57, value=6, backwards=False),
        ev(EV_BOUNCE, RED, 58, 57, steps=1),
    ]
    assert where(state, "red")[0] == 57


def test_goose_repeat_that_lands_on_a_jump_takes_it() -> None:
    """Seed 000: 'again as long as you land on a field containing the arrow' with seed 001
    'Field 21 -- Advance to 26.' (goose repeats end on an ordinary landing, which takes
    the field's effect: docs/rules/labyrinth.md)."""
    state = position({"red": [11, "outside", "outside", "outside"]}, dice=[5, 1])
    events = play(state, "11-16 to 26")
    assert events[1:3] == [
        ev(EV_GOOSE, RED, 16, 21, value=5, backwards=False),
        ev(EV_JUMP, RED, 21, 26),
    ]
    assert where(state, "red")[0] == 26


def test_goose_repeats_chain_while_they_land_on_geese(tmp_path: Path) -> None:
    """Seed 000: '... and again as long as you land on a field containing the arrow,
    until you land on one without the geese.' (a user's board with geese on 20 and 24)"""
    state = position(
        {"red": [16, "outside", "outside", "outside"]}, dice=[4, 1], g=_game_with_geese(tmp_path, [20, 24])
    )
    events = play(state, "16-20 to 28")
    assert ev(EV_GOOSE, RED, 20, 24, value=4, backwards=False) in events
    assert ev(EV_GOOSE, RED, 24, 28, value=4, backwards=False) in events
    assert where(state, "red")[0] == 28


def test_field_42_advances_to_56_instead_of_the_goose() -> None:
    """Seed 001: 'Field 42 -- Instead of doubling your move with the Goose symbol, advance
    to field 56.'"""
    state = position({"red": [40, "outside", "outside", "outside"]}, dice=[2, 1])
    events = play(state, "40-42 to 56")
    assert ev(EV_JUMP, RED, 42, 56) in events
    assert not any(e.kind == EV_GOOSE for e in events)


def test_goose_on_the_landing_square_swaps_then_flies_on() -> None:
    """Seed 000: 'If one arrives on an occupied field, that occupant goes to where the new
    arrival just came from' -- each landing of a goose repeat is an arrival."""
    state = position(
        {"red": [12, "outside", "outside", "outside"], "blue": [16, "outside", "outside", "outside"]},
        dice=[4, 1],
    )
    events = play(state, "12-16 to 20")
    assert events[1] == ev(EV_SWAPPED, RED, 16, 12, other=BLUE)
    assert where(state, "red")[0] == 20 and where(state, "blue")[0] == 12


# ------------------------------------------------------------------ jumps, tunnels, traps


@pytest.mark.parametrize(("src", "value", "field", "dst"), [(3, 3, 6, 12), (15, 3, 18, 26), (19, 2, 21, 26)])
def test_advance_fields(src: int, value: int, field: int, dst: int) -> None:
    """Seed 001: 'Field 6 -- Free passage. When you land here, advance your piece to 12.'
    'Field 18 -- Advance to 26.' 'Field 21 -- Advance to 26.'"""
    other = 1 if value != 1 else 2
    state = position({"red": [src, "outside", "outside", "outside"]}, dice=[value, other + 4])
    events = play(state, f"{src}-{field} to {dst}")
    assert ev(EV_JUMP, RED, field, dst) in events
    assert where(state, "red")[0] == dst


def test_field_59_tunnel_back_to_47() -> None:
    """Seed 001: 'Field 59 -- Go back through the tunnel to 47.'"""
    state = position({"red": [56, "outside", "outside", "outside"]}, dice=[3, 4])
    assert "56-59" not in notations(state)  # 58 needs an exact count: 56+3 bounces
    state = position({"red": [58, "outside", "outside", "outside"]}, dice=[1, 4])
    events = play(state, "58-59 to 47 with 1")
    assert ev(EV_JUMP, RED, 59, 47) in events
    assert where(state, "red")[0] == 47


def test_field_13_traps_the_piece_for_two_turns_of_its_owner() -> None:
    """Seed 001: 'Field 13 -- An unlucky number; lose 2 turns.' Seed 000: 'Unless all your
    Athenians are trapped' -- the trap holds the piece, the player's other pieces move."""
    state = position({"red": [10, 20, "off", "off"]}, dice=[3, 2])
    events = play(state, "10-13")
    assert ev(EV_TRAPPED, RED, 13, turns=2) in events
    assert notations(state) == ["20-22"]  # the trapped piece cannot use the other value
    assert where(state, "red")[0] == {"field": 13, "turns_to_lose": 2, "trapped_this_turn": True}
    play(state, "20-22")
    for lost in (1, 2):
        play(state, "throw 2 3", "pass")  # Blue
        play(state, "throw 2 3")  # one of Red's lost turns
        assert state.phase is Phase.MOVE
        assert all(m.src != 13 for m in state.legal_moves())
        assert where(state, "red")[0] == {"field": 13, "turns_to_lose": 3 - lost}
        first = notations(state)[0]
        events = play(state, first)
        events += play(state, notations(state)[0])
    assert ev(EV_FREED, RED, 13) in events
    assert where(state, "red")[0] == 13
    play(state, "throw 2 3", "pass")
    play(state, "throw 2 3")
    assert "13-15" in notations(state)


def test_all_pieces_trapped_loses_the_throw() -> None:
    """Seed 000: 'Unless all your Athenians are trapped, you must use both your numbers'."""
    state = position({"red": [{"field": 13, "turns_to_lose": 2}, "off", "off", "off"]}, dice=[4, 5])
    assert state.legal_moves() == (PASS,)
    events = play(state, "pass")
    assert events[0] == ev(EV_ALL_TRAPPED, RED)
    assert ev(EV_VALUE_LOST, RED, value=4, explained=True) in events


def _trap_on_52(g: Labyrinth) -> tuple[LabyrinthState, list[Event]]:
    """Red lands on 52 and loses two turns; return the state and the last turn's events."""
    state = position({"red": [50, 20, "off", "off"]}, dice=[2, 1], g=g)
    events = play(state, next(n for n in notations(state) if n.startswith("50-52")))
    assert ev(EV_TRAPPED, RED, 52, turns=2) in events
    assert not any(e.kind in (EV_ORBIT_OFFER, EV_RIDE) for e in events)  # 'except for the trap in 52'
    play(state, "20-21 to 26")
    for _ in range(2):
        play(state, "throw 2 3", "pass")  # Blue
        assert where(state, "red")[0]["field"] == 52
        events = play(state, "throw 2 2")
        events += play(state, notations(state)[0])
        events += play(state, notations(state)[0])
    return state, events


def test_field_52_loses_two_turns_then_takes_the_tunnel_to_7() -> None:
    """Seed 001: 'Field 52 -- Lose two turns and then take the tunnel to field 7. (Want
    to try the Knight's Orbit again from there?)'"""
    state, events = _trap_on_52(game())
    assert events[-2:] == [
        ev(EV_TUNNEL, RED, 52, 7),
        ev(EV_ORBIT_OFFER, RED, 7),
    ]
    assert where(state, "red")[0] == 7
    assert state.current_player == 0 and notations(state) == ["ride from 7", "stay on 7"]
    assert state.to_dict()["turn_ending"] is True
    assert state_from_dict(state.to_dict()).to_dict() == state.to_dict()
    play(state, "ride from 7")
    events = play(state, "throw 1")
    assert events == [ev(EV_RIDE, RED, 7, 46, value=1), ev(EV_TURN_PASSES, BLUE)]
    assert state.current_player == 1 and "turn_ending" not in state.to_dict()


def test_field_52_without_the_ride_after_the_tunnel() -> None:
    """Option ride-after-tunnel=no: the piece comes out on 7 and the turn passes."""
    state, events = _trap_on_52(game(ride_after_tunnel="no"))
    assert events[-2:] == [
        ev(EV_TUNNEL, RED, 52, 7),
        ev(EV_TURN_PASSES, BLUE),
    ]
    assert where(state, "red")[0] == 7


def test_field_52_option_tunnel_first() -> None:
    """Seed 001: 'If you fall into the trap at 52, take the one-way tunnel back to 7 and
    lose 2 turns.' (option field-52=tunnel-then-trap)"""
    state = position({"red": [50, "outside", "outside", "outside"]}, dice=[2, 1], g=game(field_52="tunnel-then-trap"))
    events = play(state, "50-52 to 7")
    assert ev(EV_TUNNEL, RED, 52, 7) in events
    assert where(state, "red")[0] == {"field": 7, "turns_to_lose": 2, "trapped_this_turn": True}


# ------------------------------------------------------------------ Knight's Orbit


def test_orbit_ride_is_optional_and_uses_one_free_die() -> None:
    """Seed 000: 'When you land on any of these fields, except for the trap in 52, you may
    take a free skyride. ... If you decide to take this ride, you get one free roll of a
    single die. Count its points forward along the orbit from wherever you enter it.'"""
    state = position({"red": [4, "outside", "outside", "outside"]}, dice=[3, 2])
    events = play(state, "4-7")
    assert ev(EV_ORBIT_OFFER, RED, 7) in events
    assert phase(state) is Phase.DECIDE and notations(state) == ["ride from 7", "stay on 7"]
    play(state, "ride from 7")
    assert phase(state) is Phase.THROW and state.throw_spec is not None
    assert state.throw_spec.id == "1d6"
    assert state.to_dict()["pending"] == {"what": "orbit-die", "field": 7}
    events = play(state, "throw 2")
    assert ev(EV_RIDE, RED, 7, 49, value=2) in events
    assert state.phase is Phase.MOVE and notations(state) == ["49-51"]  # the remaining 2


def test_orbit_declined_keeps_the_piece() -> None:
    """Seed 000: 'you may take a free skyride' -- optional."""
    state = position({"red": [4, "outside", "outside", "outside"]}, dice=[3, 2])
    play(state, "4-7")
    events = play(state, "stay on 7")
    assert events == [ev(EV_STAY, RED, 7)]
    assert notations(state) == ["7-9"]


def test_orbit_reverses_at_the_end_of_the_line() -> None:
    """Seed 000: 'Reverse direction at the end of the line if you have excess points
    remaining on your free roll.'"""
    state = position({"red": [4, "outside", "outside", "outside"]}, dice=[3, 2])
    play(state, "4-7", "ride from 7")
    events = play(state, "throw 6")  # 46 49 52 55 34, back to 55
    assert ev(EV_RIDE, RED, 7, 55, value=6) in events


@pytest.mark.parametrize(
    ("start", "die", "end"),
    [(46, 1, 49), (49, 2, 55), (49, 3, 34), (34, 1, 55), (34, 5, 7), (55, 1, 34), (7, 1, 46)],
)
def test_orbit_directions(start: int, die: int, end: int) -> None:
    """Seed 001: 'Field 34 -- Another entrance to the optional Knight's Orbit along the
    track 34-55-52-49-46-7 and back again.' 'Fields 46 and 49 -- You may take the Knight's
    Orbit, starting towards 34.' (55: 'Count its points forward along the orbit')"""
    state = position({"red": [start, "outside", "outside", "outside"]}, dice=[1],
                     pending={"what": "ride", "field": start})
    play(state, f"ride from {start}")
    events = play(state, f"throw {die}")
    assert ev(EV_RIDE, RED, start, end, value=die) in events
    assert where(state, "red")[0] == end


def test_orbit_ride_ending_on_52_drops_to_7() -> None:
    """Seed 001, field 7: 'Do not enter the one-way tunnel to 52. If your die count lands
    you on 52, that tunnel drops you back to 7.'"""
    state = position({"red": [46, "outside", "outside", "outside"]}, dice=[1],
                     pending={"what": "ride", "field": 46})
    play(state, "ride from 46")
    events = play(state, "throw 2")
    assert ev(EV_DROP, RED, 52, 7) in events
    assert where(state, "red")[0] == 7  # not trapped


def test_orbit_ride_ending_on_52_is_trapped_with_the_option() -> None:
    """Q17, the other reading (option ``ride-to-52=trap``): seed 001 'Field 52 -- Lose two
    turns and then take the tunnel to field 7.' A ride ending on 52 lands there like a
    count does: trapped for two turns, no drop to 7 yet."""
    state = position({"red": [46, "outside", "outside", "outside"]}, dice=[1],
                     pending={"what": "ride", "field": 46}, g=Labyrinth(ride_to_52="trap"))
    play(state, "ride from 46")
    events = play(state, "throw 2")
    assert not any(e.kind == EV_DROP for e in events)
    assert where(state, "red")[0] == {"field": 52, "turns_to_lose": 2, "trapped_this_turn": True}


def test_a_ride_after_the_tunnel_ending_on_52_loses_two_turns_not_three() -> None:
    """Seed 001: 'Field 52 -- Lose two turns and then take the tunnel to field 7. (Want to
    try the Knight's Orbit again from there?)' With ``ride-to-52=trap`` (Q17) the ride
    offered on 7 as the turn ends, landing on 52, is trapped for its owner's next two
    turns, as a count ending on 52 is; the turn it was taken in is over (issue 35)."""
    g = game(ride_to_52="trap")
    pieces: dict[str, list[Any]] = {
        "blue": [{"field": 52, "turns_to_lose": 1}, "off", "off", "off"],
        "red": ["outside", "off", "off", "off"],  # Red passes without a 1
    }
    state = position(pieces, to_act="blue", g=g)
    events = play(state, "throw 3 4", "pass", "ride from 7", "throw 3")
    assert events[-3:] == [
        ev(EV_RIDE, BLUE, 7, 52, value=3),
        ev(EV_TRAPPED, BLUE, 52, turns=2),
        ev(EV_TURN_PASSES, RED),
    ]
    assert where(state, "blue")[0] == {"field": 52, "turns_to_lose": 2}
    play(state, "throw 2 3", "pass")  # Red
    events = play(state, "throw 2 3", "pass")  # Blue's first lost turn
    assert ev(EV_FREED, BLUE, 52) not in events
    assert where(state, "blue")[0] == {"field": 52, "turns_to_lose": 1}
    play(state, "throw 2 3", "pass")  # Red
    events = play(state, "throw 2 3", "pass")  # Blue's second lost turn
    assert events[-3:] == [
        ev(EV_FREED, BLUE, 52),
        ev(EV_TUNNEL, BLUE, 52, 7),
        ev(EV_ORBIT_OFFER, BLUE, 7),
    ]
    # Without the option the same ride drops through the tunnel and is not trapped.
    state = position(pieces, to_act="blue")
    events = play(state, "throw 3 4", "pass", "ride from 7", "throw 3")
    assert ev(EV_DROP, BLUE, 52, 7) in events
    assert where(state, "blue")[0] == 7


def test_orbit_ride_landing_swaps() -> None:
    """Seed 000: 'If one arrives on an occupied field, that occupant goes to where the new
    arrival just came from' -- the ride's landing is an arrival."""
    state = position({"red": [7, "outside", "outside", "outside"], "blue": [49, "outside", "outside", "outside"]},
                     dice=[1], pending={"what": "ride", "field": 7})
    play(state, "ride from 7")
    events = play(state, "throw 2")
    assert ev(EV_SWAPPED, RED, 49, 7, other=BLUE) in events



def test_a_ride_touches_down_only_where_it_ends() -> None:
    """Seed 001: 'touching down only on those fields, like a knight's move, not counting
    the spaces between.' 'If your die count lands you on 52, that tunnel drops you back to
    7.' The ride passes an occupied orbit field without disturbing it, and a ride ending
    on 52 leaves the piece serving its trap there where it is (docs/rules/labyrinth.md Q26)."""
    state = position(
        {"red": [46, "outside", "outside", "outside"],
         "blue": [49, {"field": 52, "turns_to_lose": 1}, "outside", "outside"]},
        dice=[1], pending={"what": "ride", "field": 46},
    )
    play(state, "ride from 46")
    events = play(state, "throw 2")
    assert events[:2] == [
        ev(EV_RIDE, RED, 46, 52, value=2),
        ev(EV_DROP, RED, 52, 7),
    ]
    assert not any(e.kind == EV_SWAPPED for e in events)
    assert where(state, "red")[0] == 7
    assert where(state, "blue")[:2] == [49, {"field": 52, "turns_to_lose": 1}]

# ------------------------------------------------------------- impossible positions


def test_impossible_positions_are_refused_naming_what_is_impossible() -> None:
    """Issue 22.5: Labyrinth.validate names what no game can reach."""
    with pytest.raises(PositionError, match="no trap of the board takes more than 2"):
        position({"red": [{"field": 13, "turns_to_lose": 5}, "outside", "outside", "outside"]}, dice=[1, 2])
    with pytest.raises(PositionError, match="offers no ride"):
        position({"red": [52, "outside", "outside", "outside"]}, dice=[1],
                 pending={"what": "ride", "field": 52})
    with pytest.raises(PositionError, match="every piece is outside"):
        position({"red": [12, "outside", "outside", "outside"]}, stage="start")
    data = position({"red": [12, "outside", "outside", "outside"]}, dice=[1, 2]).to_dict()
    data["pieces"]["green"] = [20, "outside", "outside", "outside"]  # silently dropped before
    with pytest.raises(PositionError, match="no such colour in a game of 2"):
        game().state_from_dict(data)
    # The cases read in play stay valid: a trap serving its turns, a ride offered on 46.
    position({"red": [{"field": 13, "turns_to_lose": 2}, "outside", "outside", "outside"]}, dice=[1, 2])
    position({"red": [46, "outside", "outside", "outside"]}, dice=[1], pending={"what": "ride", "field": 46})


# ------------------------------------------------------------------ Millstone


def test_millstone_crossing_is_optional_and_free() -> None:
    """Seed 001: 'Fields 44-50 45-51 -- The Millstone. When you land on one of these
    fields, you may, if you wish, cross the Millstone diagonally. You may go from 44 to 50
    or from 45 to 51, or reversed. This is a free move. You may then continue with any
    remaining number.'"""
    state = position({"red": [41, "outside", "outside", "outside"]}, dice=[3, 2])
    events = play(state, "41-44")
    assert ev(EV_MILLSTONE_OFFER, RED, 44, 50) in events
    assert notations(state) == ["cross to 50", "stay on 44"]
    events = play(state, "cross to 50")
    assert events == [ev(EV_CROSS, RED, 44, 50)]
    assert notations(state) == ["50-52"]
    state = position({"red": [49, "outside", "outside", "outside"]}, dice=[2, 2])
    play(state, "49-51", "cross to 45")  # reversed: 51 to 45
    assert where(state, "red")[0] == 45


# ------------------------------------------------------------------ bearing off, winning


def test_bear_off_on_61_by_exact_count_and_win() -> None:
    """Seed 001: 'Field 61 -- Elysium. You must enter field 61 by exact count. Once arrived
    there, carry your traveler off the board. The first player to bear off all four pieces
    is the winner.'"""
    state = position({"red": [60, 58, "off", "off"]}, dice=[1, 3])
    assert notations(state) == ["58-59 to 47 with 1", "60-off", "58-off", "60-59 to 47"]
    events = play(state, "60-off")
    assert ev(EV_BORNE_OFF, RED, 60, count=3, pieces=4) in events
    events = play(state, "58-off")
    assert events[-1] == ev(EV_WON, RED)
    assert state.phase is Phase.OVER
    assert state.outcome is not None and state.outcome.winners == (0,)
    assert state.legal_moves() == ()


# ------------------------------------------------------------------ checked application, JSON


def test_illegal_actions_are_refused_and_change_nothing() -> None:
    """The checked entry point: an illegal move raises IllegalMoveError naming it."""
    state = position({"red": [10, "outside", "outside", "outside"]}, dice=[3, 4])
    before = state.to_dict()
    with pytest.raises(IllegalMoveError, match="'10-12'"):
        state.apply(Move("move", 10, 12, (2,)))
    with pytest.raises(IllegalMoveError, match=r"a throw is due|not due"):
        state.apply(game().two_dice.parse("1 2"))
    assert state.to_dict() == before


def test_position_round_trip_keeps_traps_and_pending_choices() -> None:
    """Trapped pieces with their remaining turns are part of the position JSON."""
    state = position(
        {"red": [{"field": 13, "turns_to_lose": 1}, 44, "off", "outside"], "blue": [31, 31, 5, 60]},
        dice=[3], pending={"what": "cross", "field": 44}, thrown=[2, 3],
    )
    data = json.loads(json.dumps(state.to_dict()))
    again = state_from_dict(data)
    assert again.to_dict() == data
    assert state.trapped() == [(0, 13, 1)]
    assert data["pieces"]["red"][0] == {"field": 13, "turns_to_lose": 1}


@pytest.mark.parametrize(
    ("pieces", "where_", "reason"),
    [
        ({"red": [20, 20, "outside", "outside"]}, "pieces.red[1]", "already holds a piece"),
        ({"red": [6, "outside", "outside", "outside"]}, "pieces.red[0]", "moves on to 12"),
        ({"red": [61, "outside", "outside", "outside"]}, "pieces.red[0]", "1 to 60"),
        ({"red": ["home", "outside", "outside", "outside"]}, "pieces.red[0]", "expected a field"),
    ],
)
def test_bad_positions_are_rejected(pieces: dict[str, list[Any]], where_: str, reason: str) -> None:
    """A position that cannot happen names the key and the reason."""
    with pytest.raises(PositionError, match=reason) as info:
        position(pieces)
    assert info.value.where == where_


def test_copy_is_independent() -> None:
    """State.copy(): a search may try a move on a copy without touching the original."""
    state = position({"red": [10, 14, "outside", "outside"]}, dice=[4, 3])
    before = state.to_dict()
    other = state.copy()
    assert isinstance(other, LabyrinthState)
    play(other, "10-14", "10-13")
    assert state.to_dict() == before
    assert other.to_dict() != before


def test_start_stage_position_round_trip() -> None:
    """A position in the middle of the throws for who starts reads back as written."""
    state = position({}, players=3, stage="start", to_act="blue",
                     start_throws={"red": 4, "blue": None, "green": None})
    assert state.current_player == 1 and state.phase is Phase.THROW
    play(state, "throw 4", "throw 1")
    assert state.to_dict()["contenders"] == ["red", "blue"]
    assert state.to_dict()["start_throws"] == {"red": None, "blue": None, "green": 1}


def test_a_position_with_the_old_thrown_key_is_still_read() -> None:
    """docs/positions.md: positions written before the key ``thrown`` was dropped (it
    held the turn's two dice only for the screen) are still read; the key is ignored
    and no longer written."""
    old = position({"red": [12, "outside", "outside", "outside"]}, dice=[2], thrown=[4, 2])
    new = position({"red": [12, "outside", "outside", "outside"]}, dice=[2])
    assert old.to_dict() == new.to_dict() and "thrown" not in old.to_dict()
    assert notations(old) == notations(new) == ["12-14"]
    over = position({"red": ["off"] * 4}, stage="over", thrown=[6, 6])
    assert over.phase is Phase.OVER and "thrown" not in over.to_dict()


def test_position_example_of_the_docs() -> None:
    """docs/positions.md: the hand-written Labyrinth example and the moves it lists."""
    doc = (Path(__file__).parents[2] / "docs/positions.md").read_text(encoding="utf-8")
    section = doc[doc.index("## `labyrinth`"):]
    start = section.index("```json") + len("```json")
    data = json.loads(section[start:section.index("```", start)])
    state = state_from_dict(data)
    assert isinstance(state, LabyrinthState)
    play(state, "throw 4 3")
    assert notations(state) == ["12-16 to 20", "41-45", "12-15", "41-44"]
    events = play(state, "12-16 to 20")
    assert events[1:] == [
        ev(EV_SWAPPED, RED, 16, 12, other=BLUE),
        ev(EV_GOOSE, RED, 16, 20, value=4, backwards=False),
    ]


# ------------------------------------------------------------------ board data


def _write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "board.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


_BUILTIN = (Path(__file__).parents[2] / "companion/rules/data/labyrinth.toml").read_text(encoding="utf-8")


def _game_with_geese(tmp_path: Path, geese: list[int]) -> Labyrinth:
    text = _BUILTIN.replace("geese = [16, 42, 53]", f"geese = {geese}")
    return game(board=_write(tmp_path, text))


def test_builtin_board_lists_every_special_field() -> None:
    """Seed 001's special fields, as data in companion/rules/data/labyrinth.toml."""
    board = load_board()
    assert board.last == 61
    assert board.sanctuaries == {1, 2, 3, 4, 5, 31, 58}
    assert board.exact_count == (31, 58, 61)
    assert board.geese == {16, 42, 53}
    assert dict(board.jumps) == {6: 12, 18: 26, 21: 26, 42: 56, 59: 47}
    assert dict(board.traps) == {13: 2, 52: 2}
    assert dict(board.trap_exits) == {52: 7}
    assert board.orbit == (7, 46, 49, 52, 55, 34)
    assert dict(board.millstone) == {44: 50, 50: 44, 45: 51, 51: 45}


def test_a_users_board_changes_the_geese(tmp_path: Path) -> None:
    """rules-notes.md: the goose fields are one edit away (option board=PATH)."""
    path = _write(tmp_path, _BUILTIN.replace("geese = [16, 42, 53]", "geese = [15, 42, 53]"))
    g = game(board=path)
    assert g.board.geese == {15, 42, 53}
    state = position({"red": [12, "outside", "outside", "outside"]}, dice=[3, 1], g=g)
    events = play(state, "12-15 to 26")
    assert ev(EV_GOOSE, RED, 15, 18, value=3, backwards=False) in events
    assert state.to_dict()["options"]["board"] == path


@pytest.mark.parametrize(
    ("old", "new", "line_of", "reason"),
    [
        ("13 = 2   #", "73 = 2   #", "73 = 2", "unknown field 73"),
        ("59 = 47", "59 = 70", "59 = 70", "tunnel to nowhere"),
        ("59 = 47", "59 = 0", "59 = 0", "tunnel to nowhere"),
        ("6 = 12   #", "6 = 12\n12 = 6   #", "6 = 12", "form a cycle"),
        ("geese = [16, 42, 53]", "geese = [16, 42,\n  99]", "  99]", "unknown field 99"),
        ("fields = 61", "fields = 61\ncolour = 'red'", "colour = 'red'", "unknown key 'colour'"),
        ("pairs = [[44, 50], [45, 51]]", "pairs = [[44, 50], [45, 50]]", "pairs =", "more than one crossing"),
        ("exact_count = [31, 58, 61]", "exact_count = [31, 58]", "exact_count", "must hold field 61"),
        ("sanctuaries = [1, 2,", "sanctuaries = [1, 2 2,", "sanctuaries", "not valid TOML"),
        ("fields = [7, 46, 49, 52, 55, 34]", "fields = [7, 46, 49, 52, 55, 64]", "fields = [7", "unknown field 64"),
        ("13 = 2   #", "13 = 0   #", "13 = 0", "turns lost must be 1 to 9"),
        ("52 = 7", "53 = 7", "53 = 7", "not in [traps]"),
        ("towards_first = []", "towards_first = [7]", "towards_first", "not a middle field"),
        ("geese = [16, 42, 53]", "geese = [16, 42, 53, 13]", "geese", "also a trap"),
        ("[orbit]", "[orbit]\nspeed = 2", "speed", "unknown key 'speed'"),
    ],
)
def test_bad_board_files_name_the_file_line_and_reason(
    tmp_path: Path, old: str, new: str, line_of: str, reason: str
) -> None:
    """'A board file with an unknown field number, a tunnel to nowhere or a cycle of jumps
    is rejected with a message naming the line.' (issue 5)"""
    assert old in _BUILTIN
    text = _BUILTIN.replace(old, new, 1)
    path = _write(tmp_path, text)
    expected_line = next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith(line_of))
    with pytest.raises(BoardDataError) as info:
        game(board=path)
    err = info.value
    assert err.path == path
    assert err.line == expected_line, str(err)
    assert reason in err.reason
    assert str(err).startswith(f"{path}:{expected_line}: ")


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        ("fields = 61\n[jumps]\n6 = 12\n12 = 6\n", 3, "the jumps 6 -> 12 -> 6 form a cycle"),
        ("fields = 61\n[jumps]\n6 = 6\n", 3, "the jumps 6 -> 6 form a cycle"),
        ("fields = 61\n[jumps]\n59 = 62\n", 3, "a tunnel to nowhere"),
        ("fields = 61\nsanctuaries = [1, 2, 0]\n", 2, "unknown field 0"),
        ("fields = 61\n[traps]\nthirteen = 2\n", 3, "'thirteen' is not a field number"),
        ("fields = 61\n[millstone]\npairs = [[44]]\n", 3, "expected [field, field]"),
        ("fields = 61\nentry_value = 7\n", 2, "a die shows 1 to 6"),
        ("entry_value = 1\n", None, "missing 'fields'"),
    ],
)
def test_small_bad_board_files(tmp_path: Path, text: str, line: int | None, reason: str) -> None:
    """Small hand-written board files: each mistake is named with its line."""
    path = _write(tmp_path, text)
    with pytest.raises(BoardDataError) as info:
        load_board(path)
    assert (info.value.path, info.value.line) == (path, line)
    assert reason in info.value.reason


def test_a_plain_small_board_plays_to_the_end(tmp_path: Path) -> None:
    """The engine follows the board data: 20 fields, no special field but Elysium."""
    path = _write(tmp_path, "fields = 20\nexact_count = [20]\n")
    g = game(board=path)
    assert g.board.last == 20 and not g.board.geese and not g.board.orbit
    rng = random.Random(7)
    state = g.new_state(3)
    play_out(state, rng.randrange, 20_000)
    assert state.outcome is not None


def test_missing_board_file(tmp_path: Path) -> None:
    """A board path that does not exist names the file."""
    missing = str(tmp_path / "nope.toml")
    with pytest.raises(BoardDataError, match="cannot read the file: No such file") as info:
        game(board=missing)
    assert info.value.path == missing


# ------------------------------------------------------------------ properties of random games


_OPTION_SETS: list[dict[str, object]] = [
    {},
    {"field_52": "tunnel-then-trap", "double_one_enters_two": False},
    {"ride_after_tunnel": False},
]


def _random_game(
    players: int, seed: int, options: dict[str, object], limit: int = 100_000
) -> tuple[LabyrinthState, int]:
    """Play a random game, checking the invariants after every action."""
    g = game(**options)
    rng = random.Random(seed)
    state = g.new_state(players)
    actions = 0
    while state.phase is not Phase.OVER:
        assert actions < limit, "a random game did not end"
        phase = state.phase
        if phase is Phase.THROW:
            outcomes = state.throw_outcomes()
            assert sum(p for _, p in outcomes) == 1
            assert state.throw_spec is not None
        else:
            moves = state.legal_moves()
            assert moves, "a non-terminal state with neither a throw due nor a move"
            assert len(set(moves)) == len(moves)
        state.apply(random_action(state, rng.randrange))
        actions += 1
        pieces = state.pieces()
        assert len(pieces) == 4 * players
        for p in range(players):
            assert sum(1 for x in pieces if x.player == p) == 4
        on_board = [x.square for x in pieces if x.zone is PieceZone.BOARD]
        for square in set(on_board):
            assert isinstance(square, int)
            if not state.may_share(square):
                assert on_board.count(square) == 1, f"two pieces on {square}"
            assert square not in g.board.jumps
    return state, actions


@settings(max_examples=30, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32 - 1),
    options=st.sampled_from(_OPTION_SETS),
)
def test_random_games_keep_the_invariants_and_end(
    players: int, seed: int, options: dict[str, object]
) -> None:
    """Properties of the foundation issue for labyrinth with 2, 3 and 4 players: throw
    outcomes sum to 1, no two pieces on a non-sanctuary field, four pieces per player
    always accounted for, a throw or a legal move (or pass) is always due, every random
    game ends with one winner who has borne off all four."""
    state, _ = _random_game(players, seed, options)
    outcome = state.outcome
    assert outcome is not None and len(outcome.winners) == 1
    winner = outcome.winners[0]
    assert sum(1 for x in state.pieces() if x.player == winner and x.zone is PieceZone.OFF) == 4


@settings(max_examples=10, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32 - 1), cut=st.integers(0, 400))
def test_json_round_trip_anywhere_in_a_game(players: int, seed: int, cut: int) -> None:
    """A position written in the middle of any game reads back to the same position."""
    g = game()
    rng = random.Random(seed)
    state = g.new_state(players)
    play_out(state, rng.randrange, until=lambda s: len(s.history) >= cut)
    data = json.loads(json.dumps(state.to_dict()))
    again = state_from_dict(data)
    assert again.to_dict() == data
    assert again.phase is state.phase
    assert again.legal_moves() == state.legal_moves()


@settings(max_examples=30, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32 - 1),
    field_52=st.sampled_from(["trap-then-tunnel", "tunnel-then-trap"]),
    ride_after_tunnel=st.booleans(),
)
def test_every_trap_costs_exactly_its_turns_with_rides_trapped_on_52(
    players: int, seed: int, field_52: str, ride_after_tunnel: bool
) -> None:
    """Seed 001: 'Field 13 -- An unlucky number; lose 2 turns.' 'Field 52 -- Lose two turns
    and then take the tunnel to field 7.' In random games with ``ride-to-52=trap`` (Q17),
    every ride offered taken (the ride after the tunnel from 52 is the case of issue 35),
    a trapped piece is free again at the end of exactly as many of its owner's turns
    begun with it trapped as the turns it was to lose: never one more."""
    g = game(ride_to_52="trap", field_52=field_52, ride_after_tunnel=ride_after_tunnel)
    rng = random.Random(seed)
    state = g.new_state(players)
    owed = [0] * len(state.trap)  # the turns each piece was last trapped for
    lost = [0] * len(state.trap)  # its owner's turns begun with it trapped since then
    while state.phase is not Phase.OVER:
        before = state.trap[:]
        rides = [m for m in state.legal_moves() if m.kind == "ride"]
        events = state.apply(rides[0] if rides else random_action(state, rng.randrange))
        after = state.trap
        for k, (was, now) in enumerate(zip(before, after, strict=True)):
            if now > was:
                owed[k], lost[k] = now, 0
            elif was and not now:
                assert lost[k] == owed[k], f"piece {k} lost {lost[k]} turns, not {owed[k]}"
        for e in events:
            if e.kind == EV_TURN_PASSES:
                assert e.player is not None
                for k in range(4 * e.player, 4 * e.player + 4):
                    lost[k] += after[k] > 0


# ------------------------------------------------------------------ notation


def test_a_move_carried_on_names_where_the_piece_ends() -> None:
    """A player moves the real piece: the notation says where a jump, a tunnel or the
    geese take it, and the events agree."""
    state = position({"red": [1, 57, "outside", "outside"]}, dice=[5, 6])
    assert notations(state) == ["1-6 to 12", "57-54", "1-7", "57-53 to 47"]
    events = play(state, "1-6 to 12")
    assert events[-1] == ev(EV_JUMP, RED, 6, 12) and where(state, "red")[0] == 12
    events = play(state, "57-53 to 47")
    assert ev(EV_GOOSE, RED, 53, 47, value=6, backwards=True) in events
    assert where(state, "red")[1] == 47
