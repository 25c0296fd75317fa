"""Casting-stick Senet (seed 002_4a37d4d91a7a1598.txt): one test per sentence of the
seed (its docstring quotes it), the seed's examples, the board file, positions, and
property tests over random games.

Squares are numbered along Red's path (Red = Player 1, starting on 1-5, travelling up
to Blue's Home Row 26-30); the default board is drawn in docs/rules/senet-sticks.md:
Sun squares 8, 13, 18, 23; rivers 6 -> 15 and 25 -> 16.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Sequence
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
    Throw,
    get_game,
    random_action,
    state_from_dict,
)
from companion.rules.core import EV_CAPTURED, EV_VALUE_LOST, EV_WON, Event
from companion.rules.senet_sticks import EV_RIVER, SenetSticksState
from companion.rules.senet_sticks_board import DEFAULT_BOARD, load_board, parse_board
from companion.ui.events.senet_sticks import SenetSticksWords

Entry = int | str
FAR_BLUE: list[Entry] = [7, 9, 11, 12, 14]
"""Blue plinths out of the way of Red's moves in the tests below."""


def position(
    red: Sequence[Entry],
    blue: Sequence[Entry],
    values: Sequence[int],
    to_act: int = 1,
    **options: object,
) -> SenetSticksState:
    """A position in play, ``to_act`` 1 (Red) or 2 (Blue), with ``values`` to play."""
    game = get_game("senet-sticks", **options)
    state = game.state_from_dict(
        {
            "format": "board-companion/position",
            "version": 1,
            "game": "senet-sticks",
            "stage": "play",
            "to_act": to_act,
            "values": list(values),
            "plinths": [list(red), list(blue)],
        }
    )
    assert isinstance(state, SenetSticksState)
    return state


def new_game(**options: object) -> SenetSticksState:
    state = get_game("senet-sticks", **options).new_state()
    assert isinstance(state, SenetSticksState)
    return state


def phase(state: SenetSticksState) -> Phase:
    """The phase, read afresh (a plain ``state.phase`` is narrowed by mypy after an assert)."""
    return state.phase


def mv(src: int, dst: int, *values: int) -> Move:
    return Move("move", src, dst, tuple(values))


def up(dst: int, *values: int) -> Move:
    return Move("resurrect", None, dst, tuple(values))


def texts(events: list[Event]) -> list[str]:
    """``events`` in the companion's English words (Red is Player 1, Blue Player 2)."""
    return list(SenetSticksWords(["Red", "Blue"]).all(events))


def from_square(state: SenetSticksState, src: int | None) -> set[Move]:
    return {m for m in state.legal_moves() if m.src == src and m.kind != "pass"}


EXAMPLE_STICKS = """
[sticks]
solid = [1, 6]
[[sticks.coloured]]
faces = [{ value = 5, colour = "red" }, { value = 2, colour = "blue" }]
[[sticks.coloured]]
faces = [{ value = 3, colour = "red" }, { value = 4, colour = "blue" }]
"""


def default_text() -> str:
    return DEFAULT_BOARD.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def example_board(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The default board with sticks that can show the seed's 5, 3 and 6."""
    text = default_text()
    text = text[: text.index("[sticks]")] + EXAMPLE_STICKS
    path = tmp_path_factory.mktemp("board") / "example.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


# ------------------------------------------------------------------ setting up


def test_five_plinths_start_in_each_home_row() -> None:
    """'Place five plinths in each player's Home Row on each side.'"""
    state = get_game("senet-sticks").new_state()
    on_board = {p.square: p.player for p in state.pieces()}
    assert on_board == {1: 0, 2: 0, 3: 0, 4: 0, 5: 0, 26: 1, 27: 1, 28: 1, 29: 1, 30: 1}


def test_colour_toss_gives_the_colour_shown() -> None:
    """'Optional: Choose a color - one player tosses a colored stick and takes the color
    shown. The other takes the remaining color.'"""
    state = new_game(colour_toss=True)
    assert state.player_to_act_name == "Player 1"
    spec = state.throw_spec
    assert spec is not None and spec.describe() == "1 coloured stick"
    events = state.apply(spec.parse("3:blue"))
    assert texts(events) == ["Player 1 tosses blue: Player 1 plays blue, Player 2 red"]
    assert state.player_to_act_name == "Blue"
    assert state.to_dict()["colours"] == ["blue", "red"]
    # Blue is Player 1 now: a red value is not theirs to use.
    state.apply(state.throw_spec.parse("4"))  # type: ignore[union-attr]
    state.apply(state.throw_spec.parse("2"))  # type: ignore[union-attr]
    state.apply(state.throw_spec.parse("2:red 2:blue 2"))  # type: ignore[union-attr]
    assert state.values == [2, 2]


def test_highest_solid_cast_goes_first_and_a_tie_casts_again() -> None:
    """'Each player casts a solid color stick. The player with the highest value goes
    first.'"""
    state = new_game()
    stick = state.throw_spec
    assert stick is not None and stick.describe() == "1 solid stick"
    assert state.current_player == 0
    state.apply(stick.parse("2"))
    assert state.current_player == 1
    events = state.apply(stick.parse("2"))
    assert texts(events) == ["Blue casts 2", "Both cast 2: cast again"]
    assert state.current_player == 0 and state.throw_spec == stick
    state.apply(stick.parse("2"))
    events = state.apply(stick.parse("4"))
    assert texts(events)[-1] == "Blue goes first"
    assert state.current_player == 1
    assert state.throw_spec == state.game.sticks


def test_only_the_matching_colour_may_use_a_dual_coloured_value() -> None:
    """'The value on the dual colored stick(s) can be used only by the matching player
    color in their turn.'"""
    state = position([1, 2, 3, 4, 5], [26, 27, 28, 29, 30], [], to_act=1)
    sticks = state.throw_spec
    assert sticks is not None
    events = state.apply(sticks.parse("2:red 2:blue 4"))
    assert state.values == [2, 4]
    assert texts(events)[0] == "Red throws 2 red, 2 blue, 4; may use 2 and 4"
    blue = position([1, 2, 3, 4, 5], [26, 27, 28, 29, 30], [], to_act=2)
    blue.apply(sticks.parse("2:red 2:blue 4"))
    assert blue.values == [2, 4]
    blue = position([1, 2, 3, 4, 5], [26, 27, 28, 29, 30], [], to_act=2)
    blue.apply(sticks.parse("2:red 3:red 4"))
    assert blue.values == [4]


def test_stick_outcomes_are_exact() -> None:
    """Two dual-coloured sticks and one solid stick: eight throws, each 1/8; Red may
    use three values exactly when both coloured sticks show red (1/4)."""
    state = position([1, 2, 3, 4, 5], [26, 27, 28, 29, 30], [])
    outcomes = state.throw_outcomes()
    assert len(outcomes) == 8
    assert all(p == Fraction(1, 8) for _, p in outcomes)
    three = sum(p for t, p in outcomes if sum(c in (None, "red") for c in t.colours) == 3)
    assert three == Fraction(1, 4)
    assert sum(p for _, p in outcomes) == 1


def test_extra_solid_stick_option() -> None:
    """'Options: To make the game move faster, add an additional solid color stick.'"""
    state = position([1, 2, 3, 4, 5], [26, 27, 28, 29, 30], [], extra_stick=True)
    sticks = state.throw_spec
    assert sticks is not None and sticks.describe() == "4 casting sticks"
    outcomes = state.throw_outcomes()
    assert len(outcomes) == 16 and sum(p for _, p in outcomes) == 1
    state.apply(sticks.parse("2:red 3:red 4 2"))
    assert state.values == [2, 3, 4, 2]


# ---------------------------------------------------------------- moving


def test_exact_values_or_totals_the_seeds_two_two_two() -> None:
    """'Toss the casting sticks and move plinths forward according to the exact values
    (or totals) and colors shown. (Example: If a 2 and 2 and 2 are thrown, you can only
    move each of three plinths 2 spaces, or one plinth 4 spaces and another plinth 2
    spaces, or one plinth 6 spaces. You cannot move 1 plinth 5 spaces and another plinth
    1 space, or two plinths 3 and 3.)'"""
    red: list[Entry] = [7, 10, 14, 29, 30]
    state = position(red, [26, 27, 28, "abyss", "abyss"], [2, 2, 2])
    legal = set(state.legal_moves())
    assert legal == {
        mv(7, 9, 2), mv(7, 11, 2, 2), mv(7, 13, 2, 2, 2),
        mv(10, 12, 2),
        mv(14, 16, 2), mv(14, 18, 2, 2), mv(14, 20, 2, 2, 2),
    }
    assert {sum(m.values) for m in legal} == {2, 4, 6}
    # each of three plinths 2 spaces
    three = position(red, [26, 27, 28, "abyss", "abyss"], [2, 2, 2])
    for move in (mv(7, 9, 2), mv(10, 12, 2), mv(14, 16, 2)):
        assert three.current_player == 0
        three.apply(move)
    assert three.phase is Phase.THROW and three.current_player == 1
    # one plinth 4 spaces and another 2 spaces
    four = position(red, [26, 27, 28, "abyss", "abyss"], [2, 2, 2])
    four.apply(mv(7, 11, 2, 2))
    assert four.values == [2]
    four.apply(mv(10, 12, 2))
    assert four.current_player == 1
    # one plinth 6 spaces
    six = position(red, [26, 27, 28, "abyss", "abyss"], [2, 2, 2])
    six.apply(mv(14, 20, 2, 2, 2))
    assert six.current_player == 1
    # never 5 + 1 or 3 + 3
    with pytest.raises(IllegalMoveError):
        state.apply(mv(7, 12, 5))
    assert state.parse_move("7-13 [2+2+2]") == mv(7, 13, 2, 2, 2)


def test_every_usable_value_is_used_in_the_order_the_player_chooses() -> None:
    """'All available moves must be made, but it is up to the player in which order
    they are played.'"""
    state = position([10, 27, 28, 29, 30], [7, 9, 11, 14, "abyss"], [2, 3])
    assert {mv(10, 12, 2), mv(10, 13, 3), mv(10, 15, 2, 3), mv(10, 15, 3, 2)} == set(
        state.legal_moves()
    )
    first_three = state.copy()
    assert isinstance(first_three, SenetSticksState)
    first_three.apply(mv(10, 13, 3))
    assert first_three.phase is Phase.MOVE and first_three.values == [2]
    first_three.apply(mv(13, 15, 2))
    assert phase(first_three) is Phase.THROW and first_three.current_player == 1


def test_a_player_cannot_pass_on_a_valid_move() -> None:
    """'A player can not pass on a valid move.'"""
    state = position([10, 27, 28, 29, 30], FAR_BLUE, [2])
    assert PASS not in state.legal_moves()
    with pytest.raises(IllegalMoveError, match="'pass' is not legal"):
        state.apply(PASS)


def test_a_move_that_invalidates_another_value_discards_it() -> None:
    """'A player may make a move that will invalidate another roll value - then that
    value is discarded.'"""
    state = position([20, 26, 28, 29, 30], FAR_BLUE, [4, 2, 3])
    assert {2, 3, 4} == set(state.usable_values())
    events = state.apply(mv(20, 24, 4))
    assert texts(events) == [
        "Red moves 20 to 24 (4)",
        "Red's 2 can no longer be used and is discarded",
    ]
    assert events[-1].kind == EV_VALUE_LOST
    assert state.values == [3]
    state.apply(mv(24, 27, 3))  # the fifth plinth enters Blue's Home Row
    assert state.outcome is not None and state.outcome.winners == (0,)


def test_a_value_blocked_now_but_usable_after_another_stays(tmp_path: Path) -> None:
    """'it is up to the player in which order they are played': a 2 that no move can
    use now, but that Red can use once the 3 has moved the plinth in its way, is not
    discarded. (A board with extra Sun squares on 14 and 17.)"""
    path = tmp_path / "suns.toml"
    path.write_text(_edit("sun = [8, 13, 18, 23]", "sun = [8, 13, 14, 17, 18, 23]"), encoding="utf-8")
    state = position([10, 12, 27, 28, 29], [13, 14, 17, 30, "abyss"], [2, 3], board=str(path))
    assert state.legal_moves() == (mv(12, 15, 3),)
    assert state.values == [2, 3]
    events = state.apply(mv(12, 15, 3))
    assert texts(events) == ["Red moves 12 to 15 (3)"]
    assert state.legal_moves() == (mv(10, 12, 2),)


def test_plinths_move_over_others_and_never_land_on_their_own() -> None:
    """'Plinths can be moved over other plinths, but must land in an open space, or on
    an opponent that is not on a Safe space.'"""
    state = position([10, 11, 12, 29, 30], [14, 7, 9, "abyss", "abyss"], [4])
    moves = set(state.legal_moves())
    assert mv(10, 14, 4) in moves  # over 11, 12 and 13; takes Blue on 14
    assert mv(11, 15, 4) in moves
    state3 = position([10, 11, 12, 29, 30], [14, 7, 9, "abyss", "abyss"], [2])
    assert mv(10, 12, 2) not in state3.legal_moves()  # Red's own plinth on 12


def test_sun_squares_are_safe() -> None:
    """'Safe spaces are marked by the Sun.' -- a plinth on a Sun cannot be taken."""
    state = position([16, 10, 27, 28, 29], [18, 12, 7, "abyss", "abyss"], [2])
    moves = set(state.legal_moves())
    assert mv(16, 18, 2) not in moves  # Blue on the Sun square 18
    assert mv(10, 12, 2) in moves  # Blue on 12, no Sun


def test_landing_on_an_opponent_sends_it_to_the_abyss() -> None:
    """'If a player lands on an opponent that is not on a Safe space, the opponent's
    plinth is removed from the board and place in their Abyss (Land of the Dead).'"""
    state = position([16, 27, 28, 29, 30], [20, 7, 9, 10, "abyss"], [4])
    events = state.apply(mv(16, 20, 4))
    assert texts(events) == ["Red moves 16 to 20 (4)", "Blue's plinth on 20 goes to the Abyss"]
    assert events[1].kind == EV_CAPTURED
    assert state.abyss_count(1) == 2
    held = [p for p in state.pieces() if p.zone is PieceZone.HELD]
    assert sorted(p.player for p in held) == [1, 1]


def test_protected_opponent_and_no_other_move_discards_the_value() -> None:
    """'If the opponent's plinth is on a Safe space and no other moves can be made, that
    move is discarded and the turn is over.'"""
    state = position([16, 27, 28, 29, 30], [18, 7, 9, 10, 11], [2])
    assert state.legal_moves() == (PASS,)
    events = state.apply(PASS)
    assert texts(events) == ["Red cannot use 2: it is lost and the turn passes"]
    assert state.phase is Phase.THROW and state.current_player == 1


def test_the_turn_passes_explicitly_when_values_remain_unusable() -> None:
    """A turn ends with an explicit pass whose event names the values lost."""
    state = position([22, 27, 28, 29, 30], [18, 7, 9, 10, 11], [2, 3])
    # 3 takes the river back to 16; from there the 2 would land on Blue's Sun square.
    state.apply(mv(22, 16, 3))
    assert state.legal_moves() == (PASS,)
    assert texts(state.apply(PASS)) == ["Red cannot use 2: it is lost and the turn passes"]


# ---------------------------------------------------------------- rivers


def _boundaries(move: Move) -> list[int]:
    assert isinstance(move.src, int)
    out, at = [], move.src
    for v in move.values:
        at += v
        out.append(at)
    return out


def test_no_backward_move_except_by_a_river() -> None:
    """'Plinths can not move backwards (for that player's direction of travel) except
    when landing on a river.'"""
    state = position([22, 10, 27, 28, 29], [*FAR_BLUE[1:], "abyss"], [3])
    for move in state.legal_moves():
        after = state.copy()
        events = after.apply(move)
        assert isinstance(move.src, int) and isinstance(move.dst, int)
        if move.dst < move.src:
            assert any(e.kind == EV_RIVER for e in events)
    events = state.apply(mv(22, 16, 3))
    assert texts(events) == [
        "Red moves 22 to 16 (3)",
        "Red's plinth takes the river on 25 back to 16",
    ]


def test_river_cannot_be_taken_with_5_2_4(example_board: str) -> None:
    """'Ex: If the roll is 5, 2, 4, and the river is on space 3, the river can not be
    taken.' -- Red's plinth on 22, the river on 25 (three squares ahead); a river in
    the middle of a value is passed over: 'can not be used in the middle of a move'."""
    state = position([22, "abyss", "abyss", "abyss", "abyss"], FAR_BLUE, [5, 2, 4], board=example_board)
    moves = from_square(state, 22)
    assert moves
    assert all(25 not in _boundaries(m) for m in moves)
    assert mv(22, 27, 5) in moves  # over the river on 25
    for move in moves:
        events = state.copy().apply(move)
        assert not any(e.kind == EV_RIVER for e in events)


def test_river_taken_with_3_of_5_3_4_and_continue(example_board: str) -> None:
    """'If the roll is 5, 3, 4, the 3 can be used to take the river and continue with
    the other rolls.'"""
    state = position([22, "abyss", "abyss", "abyss", "abyss"], FAR_BLUE, [5, 3, 4], board=example_board)
    moves = from_square(state, 22)
    assert {mv(22, 16, 3), mv(22, 21, 3, 5), mv(22, 20, 3, 4)} <= moves
    events = state.apply(mv(22, 21, 3, 5))
    assert texts(events) == [
        "Red moves 22 to 21 (3+5)",
        "Red's plinth takes the river on 25 back to 16",
    ]
    assert state.values == [4]


def test_river_bypassed_by_playing_the_other_values_first(example_board: str) -> None:
    """'If the player wants to bypass the river with that combination, the other roll(s)
    must be used first to skip over it, then the additional 3 may be played with that
    same plinth.'"""
    state = position([22, "abyss", "abyss", "abyss", "abyss"], FAR_BLUE, [5, 3, 4], board=example_board)
    moves = from_square(state, 22)
    assert {mv(22, 30, 5, 3), mv(22, 29, 4, 3)} <= moves
    events = state.apply(mv(22, 30, 5, 3))
    assert not any(e.kind == EV_RIVER for e in events)


def test_river_is_forced_when_it_is_the_only_valid_move() -> None:
    """'If the only remaining valid roll is the 3 and the river would send the player
    back, the river must be taken.'"""
    state = position([22, 27, 28, 29, 30], FAR_BLUE, [3])
    assert state.legal_moves() == (mv(22, 16, 3),)


def test_a_river_whose_end_holds_your_own_plinth_cannot_be_landed_on() -> None:
    """Landing on a river means taking it; its end must be open or a takeable opponent
    (docs/rules/senet-sticks.md, "Where a river leads")."""
    state = position([22, 16, 28, 29, 30], FAR_BLUE, [3])
    assert mv(22, 16, 3) not in state.legal_moves()
    state = position([22, 27, 28, 29, 30], [16, 7, 9, 10, 11], [3])
    events = state.apply(mv(22, 16, 3))
    assert texts(events)[-1] == "Blue's plinth on 16 goes to the Abyss"


# ---------------------------------------------------------------- the Abyss


def test_resurrection_into_an_open_space_of_the_home_row() -> None:
    """'A plinth in the Abyss can only Resurrected into an open space in the Home Row'"""
    state = position(["abyss", 1, 2, 4, 5], [26, 27, 28, 29, 30], [3])
    assert from_square(state, None) == {up(3, 3)}
    events = state.apply(up(3, 3))
    assert texts(events) == ["Red resurrects a plinth from the Abyss onto 3 (3)"]
    assert state.abyss_count(0) == 0
    blocked = position(["abyss", 1, 2, 4, 5], [26, 27, 28, 29, 30], [2])
    assert from_square(blocked, None) == set()


def test_resurrection_onto_square_6_takes_its_river(example_board: str) -> None:
    """'(or space 6, taking the river if the end is open or occupied by the opponent)'"""
    open_end = position(["abyss", 1, 2, 3, 4], FAR_BLUE, [6], board=example_board)
    assert from_square(open_end, None) == {up(15, 6)}
    events = open_end.apply(up(15, 6))
    assert texts(events) == [
        "Red resurrects a plinth from the Abyss onto 15 (6)",
        "Red's plinth takes the river on 6 forward to 15",
    ]
    opponent = position(["abyss", 1, 2, 3, 4], [15, 7, 9, 10, 11], [6], board=example_board)
    events = opponent.apply(up(15, 6))
    assert texts(events)[-1] == "Blue's plinth on 15 goes to the Abyss"
    own = position(["abyss", 15, 2, 3, 4], FAR_BLUE, [6], board=example_board)
    assert from_square(own, None) == set()


def test_combination_out_of_the_abyss_lands_on_open_spaces() -> None:
    """'A combination of rolls can be used to exit the Home Row from the Abyss as long
    as it lands first in an open space on an exact roll or combination of valid rolls,
    and each value of a combination lands on an open space.'"""
    state = position(["abyss", 27, 28, 29, 30], [7, 9, 10, 11, 12], [4, 3])
    resurrect = from_square(state, None)
    # 4 then 3 ends on Blue's 7: taking is not allowed out of the Abyss.
    assert resurrect == {up(4, 4), up(3, 3)}
    assert up(7, 4, 3) not in resurrect and up(7, 3, 4) not in resurrect
    free = position(["abyss", 27, 28, 29, 30], [9, 10, 11, 12, 14], [4, 3])
    assert {up(4, 4), up(3, 3), up(7, 4, 3), up(7, 3, 4)} == from_square(free, None)
    # The first value must land in the Home Row (or on square 6): 4 + 3 yes, 7 alone no.
    assert all(m.values[0] <= 5 for m in from_square(free, None))


def test_a_plinth_resurrected_this_turn_and_moved_again_lands_on_open_spaces() -> None:
    """'A combination of rolls can be used to exit the Home Row from the Abyss as long
    as it lands first in an open space on an exact roll or combination of valid rolls,
    and each value of a combination lands on an open space.' -- at the table a plinth
    brought out with the 4 and then moved on with the 3 is that combination, whether
    the companion records it as one move or two: the 3 may not take Blue on 7."""
    state = position(["abyss", 27, 28, 29, 30], [7, 9, 10, 11, 12], [4, 3])
    state.apply(up(4, 4))
    assert mv(4, 7, 3) not in state.legal_moves()
    assert state.legal_moves() == (PASS,)
    # It still moves on onto an open square, and the rule ends with the turn.
    free = position(["abyss", 27, 28, 29, 30], [9, 10, 11, 12, 14], [4, 3, 2])
    free.apply(up(4, 4))
    assert mv(4, 7, 3) in free.legal_moves()
    again = state_from_dict(free.to_dict())
    assert again.to_dict() == free.to_dict() and again.legal_moves() == free.legal_moves()
    assert free.to_dict()["resurrected"] == [4]
    free.apply(mv(4, 7, 3))
    assert mv(7, 9, 2) not in free.legal_moves()  # Blue on 9 is not open either
    assert free.legal_moves() == (PASS,)
    free.apply(PASS)
    assert "resurrected" not in free.to_dict()


def test_resurrection_combination_reaching_6_takes_the_river() -> None:
    """With the default sticks square 6 is reached from the Abyss by 2 + 4 (or 4 + 2):
    the river to 15 is taken, and may end on an opponent (space 6's own rule)."""
    state = position(["abyss", 1, 27, 28, 29], [15, 7, 9, 10, 11], [2, 4])
    assert {up(15, 2, 4), up(15, 4, 2)} <= from_square(state, None)
    events = state.apply(up(15, 2, 4))
    assert texts(events)[-1] == "Blue's plinth on 15 goes to the Abyss"


def test_combination_captures_no_also_when_the_plinth_moves_on_in_a_second_move() -> None:
    """Option ``combination-captures=no``: only the last value of a combination may take
    (docs/rules/senet-sticks.md). A plinth that took with its 2 and moves on with the
    other 2 in the same turn has taken in the middle of its 2 + 2, so it may not."""
    state = position([10, 1, 2, 3, 4], [12, 7, 9, 20, 21], [2, 2], **{"combination-captures": False})
    assert mv(10, 14, 2, 2) not in state.legal_moves()
    state.apply(mv(10, 12, 2))
    assert mv(12, 14, 2) not in state.legal_moves()
    assert state.legal_moves()
    again = state_from_dict(state.to_dict())
    assert again.legal_moves() == state.legal_moves()
    default = position([10, 1, 2, 3, 4], [12, 7, 9, 20, 21], [2, 2])
    default.apply(mv(10, 12, 2))
    assert mv(12, 14, 2) in default.legal_moves()


# ---------------------------------------------------------------- Home Rows


def test_an_opponent_arrived_in_your_home_row_is_safe() -> None:
    """'Home Row is Safe for opponent's plinths that have gone all the way around the
    board and landed there, and they can not be attacked or taken off the board.'"""
    state = position([1, 27, 28, 29, 30], [3, 7, 9, 10, 11], [2])
    assert mv(1, 3, 2) not in state.legal_moves()
    assert state.legal_moves() == (PASS,)


def test_your_own_home_row_is_not_safe_from_outside() -> None:
    """'A player's own Home Row is not a safe space from being attacked from an opponent
    coming in from outside the Home Row.'"""
    state = position([5, 20, 21, 22, 24], [8, 26, 27, 28, 29], [3], to_act=2)
    assert mv(8, 5, 3) in state.legal_moves()
    events = state.apply(mv(8, 5, 3))
    assert texts(events)[-1] == "Red's plinth on 5 goes to the Abyss"


def test_an_opponent_in_the_home_row_cannot_attack_but_moves_on() -> None:
    """'An opponent in the Home Row cannot attack a player, but can still move forward
    if spaces allow.'"""
    state = position([2, 20, 21, 22, 24], [4, 26, 27, 28, 29], [2], to_act=2)
    assert mv(4, 2, 2) not in state.legal_moves()
    free = position([1, 20, 21, 22, 24], [4, 26, 27, 28, 29], [2], to_act=2)
    assert mv(4, 2, 2) in free.legal_moves()


def test_usable_faces_mark_the_movers_colour_and_the_solid_stick() -> None:
    state = get_game("senet-sticks").new_state()
    for cast in ("4", "2"):                    # Red casts 4, Blue 2: Red starts
        spec = state.throw_spec
        assert spec is not None
        state.apply(spec.parse(cast))
    spec = state.throw_spec
    assert spec is not None
    state.apply(spec.parse("2:red 2:blue 2"))
    assert isinstance(state, SenetSticksState)
    assert state.usable_faces() == (True, False, True)
    state.apply(Move("move", 5, 7, (2,)))
    assert state.usable_faces().count(True) == 1
    # a position read from a file does not know its throw: nothing is marked
    assert position([1, 2, 3, 4, 5], [26, 27, 28, 29, 30], [2]).usable_faces() == ()


# ---------------------------------------------------------------- winning


def test_all_five_in_the_opponents_home_row_wins() -> None:
    """'The first person to place all five plinths in the opponent's Home Row ... wins.'
    / 'Normal Mode: All five plinths must enter the opponent's Home Row.'"""
    state = position([23, 27, 28, 29, 30], FAR_BLUE, [3, 2])
    events = state.apply(mv(23, 26, 3))
    assert state.phase is Phase.OVER
    assert state.outcome is not None and state.outcome.winners == (0,)
    assert events[-1].kind == EV_WON
    assert texts(events)[-1] == "Red wins: all five plinths in the opponent's Home Row"
    assert state.legal_moves() == () and state.throw_spec is None


def test_exiling_all_the_opponents_plinths_wins() -> None:
    """'... or exile all the opponent's plinths out to the Abyss wins.'"""
    state = position([16, 1, 2, 3, 4], [20, "abyss", "abyss", "abyss", "abyss"], [4, 2])
    events = state.apply(mv(16, 20, 4))
    assert state.outcome is not None and state.outcome.winners == (0,)
    assert texts(events)[-1] == "Red wins: all the opponent's plinths exiled to the Abyss"


def test_quick_mode_first_plinth_home_wins() -> None:
    """'Quick Mode: First player to reach opponent's Home Row wins.'"""
    quick = position([23, 1, 2, 3, 4], FAR_BLUE, [3], mode="quick")
    quick.apply(mv(23, 26, 3))
    assert quick.outcome is not None and quick.outcome.winners == (0,)
    normal = position([23, 1, 2, 3, 4], FAR_BLUE, [3])
    normal.apply(mv(23, 26, 3))
    assert normal.outcome is None


def test_a_win_in_the_middle_of_a_combination_ends_the_move() -> None:
    """docs/rules/senet-sticks.md: 'Checked after every move; the win ends the turn at
    once.' A value that wins ends the move there: the combination is cut at the winning
    step, so no move goes on past it (seed audit, issue 16)."""
    quick = position([24, 1, 2, 3, 4], FAR_BLUE, [2, 2], mode="quick")
    assert mv(24, 26, 2) in quick.legal_moves()        # 26 is in Blue's Home Row: wins
    assert mv(24, 28, 2, 2) not in quick.legal_moves()
    events = quick.apply(mv(24, 26, 2))
    assert quick.outcome is not None and quick.outcome.winners == (0,)
    assert texts(events)[-1] == "Red wins: first plinth in the opponent's Home Row (quick mode)"
    # Taking the opponent's last plinth wins at once: 10-12 takes it, 10-15 may not go on.
    exile = position([10, 1, 2, 3, 4], [12, "abyss", "abyss", "abyss", "abyss"], [2, 3])
    assert mv(10, 12, 2) in exile.legal_moves()
    assert mv(10, 15, 2, 3) not in exile.legal_moves()
    events = exile.apply(mv(10, 12, 2))
    assert texts(events)[-1] == "Red wins: all the opponent's plinths exiled to the Abyss"


def test_a_blocked_board_ends_the_game() -> None:
    """Not in the seed: when no throw can move any plinth of either player the game
    ends; more plinths in the opponent's Home Row wins (docs/rules, "A blocked board")."""
    state = position([24, 26, 27, 28, 29], [1, 2, 3, 30, "abyss"], [2])
    assert state.legal_moves() == (PASS,)
    events = state.apply(PASS)
    assert state.phase is Phase.OVER
    assert state.outcome is not None and state.outcome.winners == (0,)
    assert "blocked" in texts(events)[-1]
    again = state_from_dict(state.to_dict())
    assert again.phase is Phase.OVER and again.outcome == state.outcome


def test_a_blocked_board_read_from_a_file_waits_for_a_throw_as_in_play() -> None:
    """Issue 22.10: the same blocked board, reached in play or read from a position file,
    behaves the same: the player to act throws (seed: every turn begins with a throw of
    the casting sticks), cannot move, and that pass ends the game. Only a file that says
    the game already ended there ("blocked": true) reads back as over."""
    state = position([24, 26, 27, 28, 29], [1, 2, 3, 30, "abyss"], [])
    assert state.phase is Phase.THROW and state.outcome is None
    spec = state.throw_spec
    assert spec is not None
    state.apply(spec.draw(lambda n: 0))
    assert state.legal_moves() == (PASS,)
    state.apply(PASS)
    assert state.outcome is not None and state.legal_moves() == () and state.throw_spec is None
    assert state.to_dict()["blocked"] is True
    # A board that is not blocked cannot claim to be.
    data = position([1, 2, 3, 4, 5], [26, 27, 28, 29, 30], []).to_dict()
    data["blocked"] = True
    with pytest.raises(PositionError, match="blocked"):
        state_from_dict(data)


def test_an_edited_board_file_is_read_again(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(default_text(), encoding="utf-8")
    assert 20 not in load_board(path).sun
    path.write_text(_edit("sun = [8, 13, 18, 23]", "sun = [8, 13, 18, 20, 23]"), encoding="utf-8")
    os.utime(path, ns=(1, 1))
    assert 20 in load_board(path).sun


def test_mode_option_is_checked() -> None:
    with pytest.raises(OptionError, match="must be one of normal, quick"):
        get_game("senet-sticks", mode="fast")


# ---------------------------------------------------------------- positions


def test_position_round_trip() -> None:
    state = position([22, 10, "abyss", 28, 29], [18, 7, 9, "abyss", 11], [2, 3])
    data = state.to_dict()
    assert data["plinths"] == [[10, 22, 28, 29, "abyss"], [7, 9, 11, 18, "abyss"]]
    again = state_from_dict(data)
    assert again.to_dict() == data
    assert again.legal_moves() == state.legal_moves()


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"to_act": 3}, "to_act"),
        ({"stage": "setup"}, "stage"),
        ({"values": [7]}, "values"),
        ({"plinths": [[1, 2, 3, 4], [26, 27, 28, 29, 30]]}, "plinths[0]"),
        ({"plinths": [[1, 2, 3, 4, 26], [26, 27, 28, 29, 30]]}, "plinths[1][0]"),
        ({"plinths": [[1, 2, 3, 4, 25], [26, 27, 28, 29, 30]]}, "plinths[0][4]"),
        ({"plinths": [[1, 2, 3, 4, "heaven"], [26, 27, 28, 29, 30]]}, "plinths[0][4]"),
        ({"colours": ["red", "green"]}, "colours"),
        ({"resurrected": [26]}, "resurrected"),
        ({"took": [1]}, "took"),
    ],
)
def test_bad_positions_name_the_key(change: dict[str, Any], where: str) -> None:
    data = get_game("senet-sticks").new_state().to_dict()
    data.update({"stage": "play", "values": [2]}, **change)
    with pytest.raises(PositionError) as info:
        state_from_dict(data)
    assert info.value.where == where


def test_the_example_in_docs_positions_md() -> None:
    """The senet-sticks example of docs/positions.md reads and has the moves it names."""
    doc = (Path(__file__).parents[2] / "docs" / "positions.md").read_text(encoding="utf-8")
    section = doc[doc.index("## `senet-sticks`") :]
    block = section[section.index("```json") + len("```json") : section.index("```", section.index("```json") + 7)]
    state = state_from_dict(json.loads(block))
    notations = {m.notation for m in state.legal_moves()}
    assert {"22-16", "22-27 [2+3]", "resurrect 5 [2+3]"} <= notations
    events = state.apply(state.parse_move("22-16"))
    assert "Red's plinth takes the river on 25 back to 16" in texts(events)


# ---------------------------------------------------------------- the board file


def test_default_board() -> None:
    """The documented default: 30 squares, Home Rows of 5, Suns 8 13 18 23, rivers
    6 -> 15 and 25 -> 16; sticks 2 red / 3 blue, 3 red / 2 blue and a solid 2 / 4."""
    spec = load_board()
    assert (spec.squares, spec.home_row, spec.resurrection) == (30, 5, 6)
    assert spec.sun == {8, 13, 18, 23}
    assert dict(spec.rivers) == {6: 15, 25: 16}
    assert [(f.value, f.colour) for s in spec.coloured for f in s] == [
        (2, "red"), (3, "blue"), (3, "red"), (2, "blue"),
    ]
    assert [f.value for f in spec.solid] == [2, 4]


def _edit(old: str, new: str) -> str:
    text = default_text()
    assert old in text
    return text.replace(old, new, 1)


def _line(text: str, needle: str, nth: int = 1) -> int:
    lines = [i for i, line in enumerate(text.splitlines(), start=1) if needle in line]
    return lines[nth - 1]


@pytest.mark.parametrize(
    ("old", "new", "needle", "nth", "reason"),
    [
        ("sun = [8, 13, 18, 23]", "sun = [8, 13, 18, 31]", "sun =", 1, "Sun square must be 1 to 30"),
        ("sun = [8, 13, 18, 23]", "sun = [8, 8]", "sun =", 1, "listed twice"),
        ("to = 16", "to = 27", "to = 27", 1, "cannot end in a Home Row"),
        ("to = 16", "to = 6", "to = 6", 1, "another river starts"),
        ("from = 25", "from = 6", "from = 6", 2, "already has a river"),
        ("from = 25", "from = 23", "from = 23", 1, "both a Sun and a river"),
        ("rows = 6", "rows = 5", "rows = 5", 1, "rows x columns must equal squares"),
        ("home_row = 5", "home_row = 4", "home_row = 4", 1, "home_row must be 5 to 14"),
        ("squares = 30", "squares = \"30\"", "squares = \"30\"", 1, "squares must be a whole number"),
        ("resurrection = 6", "resurection = 6", "resurection", 1, "unknown key 'resurection'"),
        ('colours = ["red", "blue"]', 'colours = ["red", "red"]', "colours =", 1, "two different"),
        ("solid = [2, 4]", "solid = [2, 2]", "solid =", 1, "different values"),
        ("solid = [2, 4]", "solid = [2, 0]", "solid =", 1, "each 1 to 29"),
        ('{ value = 3, colour = "blue" }]', '{ value = 3, colour = "red" }]', "faces =", 1, "both faces are red"),
        ('{ value = 2, colour = "blue" }]', '{ value = 2, colour = "green" }]', "faces =", 2, "one of red, blue"),
        ("squares = 30", "squares = = 30", "squares = = 30", 1, "not valid TOML"),
    ],
)
def test_board_file_errors_name_file_line_and_reason(
    tmp_path: Path, old: str, new: str, needle: str, nth: int, reason: str
) -> None:
    text = _edit(old, new)
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BoardDataError) as info:
        get_game("senet-sticks", board=str(path))
    err = info.value
    assert err.path == str(path)
    assert err.line == _line(text, needle, nth)
    assert reason in err.reason
    assert str(err).startswith(f"{path}:{err.line}: ")


def test_board_file_missing_table_and_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(BoardDataError, match="unknown key 'people'"):
        parse_board(_edit("[players]", "[people]"), "mine.toml")
    text = default_text()
    with pytest.raises(BoardDataError, match=r"^mine.toml: missing table \[sticks\]$"):
        parse_board(text[: text.index("[sticks]")], "mine.toml")
    with pytest.raises(BoardDataError, match="cannot read"):
        get_game("senet-sticks", board=str(tmp_path / "absent.toml"))


def test_a_users_board_file_is_played(tmp_path: Path) -> None:
    """Option board=PATH: a board with a Sun on 20 protects Blue's plinth there."""
    path = tmp_path / "mine.toml"
    path.write_text(_edit("sun = [8, 13, 18, 23]", "sun = [8, 13, 18, 20, 23]"), encoding="utf-8")
    state = position([16, 27, 28, 29, 30], [20, 7, 9, 10, 11], [4], board=str(path))
    assert state.legal_moves() == (PASS,)
    default = position([16, 27, 28, 29, 30], [20, 7, 9, 10, 11], [4])
    assert default.legal_moves() == (mv(16, 20, 4),)


# ---------------------------------------------------------------- properties

OPTION_SETS: list[dict[str, object]] = [
    {},
    {"mode": "quick"},
    {"extra_stick": True},
    {"extra_stick": True, "mode": "quick", "colour_toss": True},
    {"combination_captures": False},
]
MAX_ACTIONS = 5000


def _check_invariants(state: SenetSticksState) -> None:
    pieces = state.pieces()
    for p in (0, 1):
        assert sum(1 for x in pieces if x.player == p) == 5
    squares = [x.square for x in pieces if x.zone is PieceZone.BOARD]
    assert len(squares) == len(set(squares)), "two plinths on a square"
    assert not set(squares) & set(state.game.spec.rivers), "a plinth stays on a river"
    phase = state.phase
    if phase is Phase.THROW:
        outcomes = state.throw_outcomes()
        assert sum(p for _, p in outcomes) == 1
    elif phase is Phase.MOVE:
        assert state.legal_moves()
    else:
        assert state.outcome is not None and state.outcome.winners


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), options=st.sampled_from(OPTION_SETS))
def test_random_games_keep_the_invariants_and_end(seed: int, options: dict[str, object]) -> None:
    """Outcomes sum to 1, no two plinths on a square, five plinths each always
    accounted for, a non-terminal state has a throw or a legal move (or pass), and a
    game of random throws and moves ends."""
    rng = random.Random(seed)
    state = new_game(**options)
    for n in range(MAX_ACTIONS):
        _check_invariants(state)
        if state.phase is Phase.OVER:
            return
        move = random_action(state, rng.randrange)
        if isinstance(move, Throw):
            state.apply(move)
        else:
            before = state.copy()
            assert isinstance(before, SenetSticksState)
            events = state.apply(move)
            if move.kind == "move" and not any(e.kind == EV_RIVER for e in events):
                assert isinstance(move.src, int) and isinstance(move.dst, int)
                # forward along the mover's path: Red up the squares, Blue down
                assert (move.dst > move.src) if before.turn == 0 else (move.dst < move.src)
        if n % 50 == 0:
            again = state_from_dict(state.to_dict())
            assert again.legal_moves() == state.legal_moves()
    pytest.fail(f"the game did not end after {MAX_ACTIONS} actions")


def test_the_throw_event_names_the_player_who_threw_whatever_colour_they_play() -> None:
    """Events are data (issue 31): the throw's event carries its player. Throws recur and
    their events are kept, so the same throw by the same colour in two games where that
    colour is played by different players must still name each game's own player."""
    for shown, blue_player in (("3:blue", 0), ("2:red", 1)):
        state = new_game(colour_toss=True)
        state.apply(state.throw_spec.parse(shown))  # type: ignore[union-attr]
        assert state.colours is not None and state.colours[blue_player] == "blue"
        # who starts: Blue casts the higher value
        first, second = ("4", "2") if blue_player == 0 else ("2", "4")
        state.apply(state.throw_spec.parse(first))  # type: ignore[union-attr]
        state.apply(state.throw_spec.parse(second))  # type: ignore[union-attr]
        assert state.current_player == blue_player
        events = state.apply(state.throw_spec.parse("2:red 2:blue 4"))  # type: ignore[union-attr]
        assert events[0].kind == "thrown" and events[0].player == blue_player
        assert events[0].args == {"values": (2, 2, 4), "colours": ("red", "blue", ""), "usable": (2, 4)}
        assert not hasattr(events[0], "text")  # data, no sentence
