"""Senet under Tait's rules: one test per sentence of seed 003_30ab1187949567ae.txt.

Each test's docstring quotes the sentence it checks. Positions are written the way a
player would write them by hand (docs/positions.md).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from spoken import said

from companion.rules import (
    PASS,
    IllegalMoveError,
    InvalidThrowError,
    Move,
    OptionError,
    Phase,
    PositionError,
    get_game,
)
from companion.rules.senet_tait import SenetTait, SenetTaitState


def position(
    black: list[Any],
    white: list[Any],
    to_act: str = "black",
    throw: int | None = None,
    **options: object,
) -> SenetTaitState:
    """A position from the players' own notation: squares, 'plinth' or 'off' per piece."""

    def fill(entries: list[Any]) -> list[Any]:
        return entries + ["plinth"] * (5 - len(entries))

    state = get_game("senet-tait", **options).state_from_dict(
        {
            "game": "senet-tait",
            "version": 1,
            "to_act": to_act,
            "throw": throw,
            "pieces": {"black": fill(black), "white": fill(white)},
        }
    )
    assert isinstance(state, SenetTaitState)
    return state


def notations(state: SenetTaitState) -> list[str]:
    return [m.notation for m in state.legal_moves()]


def texts(events: list[Any]) -> list[str]:
    """The events as the OLED says them (Black and White are Tait's names in every position)."""
    return said(SenetTait().new_state(), events)


# --- the start ------------------------------------------------------------------


def test_start_all_pieces_off_the_board_five_each() -> None:
    """'The game starts with all the pieces off the board, and each player has five pieces.'"""
    state = get_game("senet-tait").new_state()
    assert isinstance(state, SenetTaitState)
    assert state.plinth == [5, 5]
    assert all(square == -1 for square in state.board)
    assert len(state.pieces()) == 10


def test_player_one_is_black_and_throws_first() -> None:
    """'In this game Player 1 takes the black pieces and throws the casting sticks.'"""
    state = get_game("senet-tait").new_state()
    assert state.phase is Phase.THROW
    assert state.current_player == 0
    assert state.player_to_act_name == "Black"


def test_only_two_players() -> None:
    """Senet is a game for two: Black and White."""
    with pytest.raises(OptionError, match="played by 2 players, not 3"):
        get_game("senet-tait").new_state(3)


# --- the throw ------------------------------------------------------------------


def test_score_is_the_number_of_light_sides_and_none_light_scores_six() -> None:
    """'The number of light sides showing is counted as the score, but if no light
    sides are showing then the score is six.'"""
    sticks = get_game("senet-tait").new_state().throw_spec
    assert sticks is not None
    assert sticks.parse("LDDD").values == (1,)
    assert sticks.parse("L L L D").values == (3,)
    assert sticks.parse("LLLL").values == (4,)
    assert sticks.parse("DDDD").values == (6,)


def test_four_sticks_distribution_is_exact() -> None:
    """rules-notes: four fair sticks give 1: 4/16, 2: 6/16, 3: 4/16, 4: 1/16, 6: 1/16."""
    state = get_game("senet-tait").new_state()
    by_score = {t.values[0]: p for t, p in state.throw_outcomes()}
    assert by_score == {
        1: Fraction(4, 16),
        2: Fraction(6, 16),
        3: Fraction(4, 16),
        4: Fraction(1, 16),
        6: Fraction(1, 16),
    }


def test_five_sticks_option_makes_a_five_possible() -> None:
    """The stick count is an option (rules-notes): with five sticks a five can be thrown."""
    state = get_game("senet-tait", sticks=5).new_state()
    by_score = {t.values[0]: p for t, p in state.throw_outcomes()}
    assert by_score[5] == Fraction(1, 32)
    assert by_score[6] == Fraction(1, 32)
    assert sum(by_score.values()) == 1


def test_a_score_the_sticks_cannot_show_is_refused() -> None:
    """With four sticks a five cannot be thrown; entering one is an error, not a move."""
    sticks = get_game("senet-tait").new_state().throw_spec
    assert sticks is not None
    with pytest.raises(InvalidThrowError, match="cannot score 5"):
        sticks.parse("5")


# --- entering -------------------------------------------------------------------


@pytest.mark.parametrize("score", [4, 6])
def test_new_piece_enters_on_four_or_six(score: int) -> None:
    """'New pieces can be placed on the board on a throw of four or six. The piece is
    placed on square four or six, depending upon the throw.'"""
    state = position([], [], throw=score)
    assert notations(state) == [f"enter {score}"]
    state.apply(state.parse_move(f"enter {score}"))
    assert state.board[score] == 0
    assert state.plinth == [4, 5]


@pytest.mark.parametrize("score", [1, 2, 3])
def test_other_scores_cannot_enter(score: int) -> None:
    """Only a four or a six enters: with every piece on the plinth the throw is lost."""
    state = position([], [], throw=score)
    assert state.legal_moves() == (PASS,)


def test_cannot_enter_onto_own_piece() -> None:
    """'This move cannot be made if the appropriate square is already occupied by a
    piece of the same colour.'"""
    state = position([4], [], throw=4)
    assert "enter 4" not in notations(state)
    assert notations(state) == ["4-8"]


def test_entering_bumps_an_opponent() -> None:
    """'However, if there is an opponent's piece on that square, then it will be bumped,
    that is, it will be removed from the board back to its plinth and must start its
    journey again.'"""
    state = position([], [6], throw=6)
    events = state.apply(state.parse_move("enter 6"))
    assert "White's piece on 6 is bumped back to its plinth" in texts(events)
    assert state.board[6] == 0
    assert state.plinth == [4, 5]


# --- moving ---------------------------------------------------------------------


def test_piece_moves_the_number_thrown() -> None:
    """'A piece already on the board may be moved the number of spaces indicated on the
    casting sticks, if the destination square is not already occupied by a piece of
    the same colour.'"""
    state = position([8, 10], [], throw=2)
    assert notations(state) == ["10-12"]
    state.apply(state.parse_move("10-12"))
    assert state.board[12] == 0 and state.board[10] == -1


def test_pieces_jump_over_other_pieces() -> None:
    """The seed names no blocking: a piece passes over pieces of either colour
    (docs/rules/senet-tait.md, 'Passing pieces')."""
    state = position([8], [9, 10], throw=3)
    assert notations(state) == ["8-11"]


def test_moving_onto_opponent_bumps_it() -> None:
    """'If the square is occupied by an opponent's piece then the opponent's piece is
    bumped, as described above.'"""
    state = position([8], [11], throw=3)
    events = state.apply(state.parse_move("8-11"))
    assert texts(events) == ["Black moves 8 to 11", "White's piece on 11 is bumped back to its plinth"]
    assert state.plinth[1] == 5


def test_house_of_rebirth_is_safe() -> None:
    """'A piece cannot be bumped from The House of Rebirth, however, as that is a safe square.'"""
    state = position([12], [15], throw=3)
    assert state.legal_moves() == (PASS,)


def test_house_of_rebirth_can_be_entered_when_empty() -> None:
    """The House of Rebirth is a square like others when nobody stands on it."""
    state = position([12], [], throw=3)
    assert notations(state) == ["12-15"]


def test_house_of_water_sends_piece_to_plinth() -> None:
    """'A piece landing on The House Of Water will be removed immediately from the board,
    and put back on its plinth.'"""
    state = position([25], [], throw=2)
    events = state.apply(state.parse_move("25-27"))
    assert texts(events)[-1].startswith("Black's piece drowns in the House of Water")
    assert state.board[27] == -1 and state.plinth[0] == 5


def test_house_of_water_only_when_no_other_legal_move() -> None:
    """'Note that a move to The House Of Water may only be made if there are no other
    legal moves available.'"""
    state = position([25, 10], [], throw=2)
    assert notations(state) == ["10-12"]
    with pytest.raises(IllegalMoveError, match="'25-27' is not legal"):
        state.apply(Move("move", 25, 27, (2,)))


def test_entering_counts_as_another_legal_move_against_the_house_of_water() -> None:
    """Entering a new piece is a legal move, so it is preferred to drowning."""
    state = position([23], [], throw=4)
    assert notations(state) == ["enter 4"]


# --- bearing off ----------------------------------------------------------------


@pytest.mark.parametrize(("square", "score"), [(30, 1), (29, 2), (28, 3), (25, 6)])
def test_bearing_off_by_exact_throw(square: int, score: int) -> None:
    """'A piece may be borne off the board on an exact throw. A piece on the last square
    requires a throw of one, a piece on the next to last square requires a throw of two,
    and so on up until square 25, from which a throw of six allows a piece to bear off.'"""
    state = position([square, "off", "off", "off", "off"], [], throw=score)
    assert notations(state) == [f"{square}-off"]
    events = state.apply(state.parse_move(f"{square}-off"))
    assert f"Black bears a piece off from {square}" in texts(events)
    assert state.off[0] == 5


def test_no_bearing_off_past_the_end() -> None:
    """An inexact throw does not bear off: from 29 a three is lost."""
    state = position([29], [], throw=3)
    assert state.legal_moves() == (PASS,)


def test_square_26_bears_off_only_with_five_sticks() -> None:
    """From 26 the exact throw is five, which only five sticks can show."""
    assert "26-off" not in notations(position([26], [], throw=6))
    assert "26-off" in notations(position([26], [], throw=5, sticks=5))


# --- losing a throw -------------------------------------------------------------


def test_throw_lost_when_nothing_is_possible() -> None:
    """'If none of the actions are possible, the throw is lost.'"""
    state = position([30], [], throw=2)
    assert state.legal_moves() == (PASS,)
    events = state.apply(PASS)
    assert texts(events) == ["Black's throw of 2 is lost: no legal move"]
    assert state.current_player == 1 and state.phase is Phase.THROW


def test_pass_refused_while_a_move_exists() -> None:
    """A player cannot give up a throw that can be used."""
    state = position([10], [], throw=2)
    with pytest.raises(IllegalMoveError, match="'pass' is not legal"):
        state.apply(PASS)


# --- extra throws ---------------------------------------------------------------


def test_turn_passes_after_an_ordinary_move() -> None:
    """'Usually, after one player throws the sticks and makes a move, play passes to the
    other player.'"""
    state = position([10], [], throw=2)
    state.apply(state.parse_move("10-12"))
    assert state.current_player == 1


def test_extra_throw_after_a_six() -> None:
    """'(i) when that player's last throw was six'"""
    state = position([10], [], throw=6)
    events = state.apply(state.parse_move("10-16"))
    assert texts(events)[-1] == "Black throws again (threw a six)"
    assert state.current_player == 0 and state.phase is Phase.THROW


def test_extra_throw_after_a_lost_six_by_default() -> None:
    """The extra throw follows the six thrown, used or not (docs/rules/senet-tait.md);
    option six-after-lost-throw=no gives the other reading."""
    state = position([28, 29, "off", "off", "off"], [], throw=6)
    state.apply(PASS)
    assert state.current_player == 0
    state = position([28, 29, "off", "off", "off"], [], throw=6, six_after_lost_throw="no")
    state.apply(PASS)
    assert state.current_player == 1


def test_extra_throw_after_moving_onto_the_house_of_beauty() -> None:
    """'(ii) when that player's last move was to move a piece on The House Of Beauty'"""
    state = position([23], [], throw=3)
    events = state.apply(state.parse_move("23-26"))
    assert texts(events)[-1] == "Black throws again (House of Beauty)"
    assert state.current_player == 0


def test_house_of_beauty_from_option() -> None:
    """The other reading, moving a piece that stands on 26, is option house-of-beauty=from."""
    state = position([26, 10], [], throw=2, house_of_beauty="from")
    state.apply(state.parse_move("26-28"))
    assert state.current_player == 0
    state = position([24, 10], [], throw=2, house_of_beauty="from")
    state.apply(state.parse_move("24-26"))
    assert state.current_player == 1


def test_extra_throw_after_bearing_off() -> None:
    """'(iii) when that player's last move was to bear a piece off the board'"""
    state = position([29], [], throw=2)
    events = state.apply(state.parse_move("29-off"))
    assert texts(events)[-1] == "Black throws again (bore a piece off)"
    assert state.current_player == 0


def test_extra_throws_are_not_cumulative() -> None:
    """'Extra throws are not cumulative, so throwing a six to bear off will not give a
    player two extra throws.'"""
    state = position([25], [10], throw=6)
    events = state.apply(state.parse_move("25-off"))
    assert texts(events)[-1] == "Black throws again (threw a six, bore a piece off)"
    assert state.phase is Phase.THROW and state.current_player == 0
    sticks = state.throw_spec
    assert sticks is not None
    state.apply(sticks.parse("1"))
    state.apply(PASS)  # Black has nothing on 1: the throw is lost, and the turn passes
    assert state.current_player == 1


# --- the end --------------------------------------------------------------------


def test_first_to_bear_off_all_five_wins() -> None:
    """'The game is won by the first player whose pieces have all been borne off the board.'"""
    state = position([30, "off", "off", "off", "off"], [10], throw=1)
    events = state.apply(state.parse_move("30-off"))
    assert texts(events)[-1] == "Black wins: all five pieces borne off"
    assert state.phase is Phase.OVER
    assert state.outcome is not None and state.outcome.winners == (0,)
    assert state.legal_moves() == ()
    with pytest.raises(IllegalMoveError, match="game is over"):
        state.apply(PASS)


# --- positions ------------------------------------------------------------------


def test_position_round_trips_through_json() -> None:
    """to_dict / state_from_dict give back the same position."""
    state = position([4, 15, "off"], [6, 22, 30], to_act="white", throw=3)
    again = get_game("senet-tait").state_from_dict(state.to_dict())
    assert again.to_dict() == state.to_dict()
    assert [m.notation for m in again.legal_moves()] == notations(state)


@pytest.mark.parametrize(
    ("pieces", "where", "reason"),
    [
        ({"black": [4, 4], "white": []}, "pieces.black[1]", "already holds"),
        ({"black": [27], "white": []}, "pieces.black[0]", "House of Water"),
        ({"black": [31], "white": []}, "pieces.black[0]", "1 to 30"),
        ({"black": ["nowhere"], "white": []}, "pieces.black[0]", "expected a square"),
        # Pieces of a colour the game does not have were silently dropped (issue 22.5).
        ({"black": [], "white": [], "red": [3]}, "pieces.red", "no such colour"),
    ],
)
def test_bad_positions_name_the_key(pieces: dict[str, list[Any]], where: str, reason: str) -> None:
    """A hand-written position with a mistake gets an error naming the key and the reason."""
    for colour in pieces:
        pieces[colour] = pieces[colour] + ["plinth"] * (5 - len(pieces[colour]))
    with pytest.raises(PositionError) as info:
        get_game("senet-tait").state_from_dict(
            {"game": "senet-tait", "version": 1, "to_act": "black", "pieces": pieces}
        )
    assert info.value.where == where
    assert reason in info.value.reason
