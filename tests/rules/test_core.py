"""The rules core: implements and their exact distributions, value objects, options, errors."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

from companion.rules import (
    PASS,
    BinarySticks,
    ColouredSticks,
    Deck,
    Dice,
    IllegalMoveError,
    Implement,
    InvalidThrowError,
    Move,
    OptionError,
    PositionError,
    RulesError,
    StickFace,
    Throw,
    UnknownGameError,
    game_ids,
    get_game,
    state_from_dict,
)


def test_game_ids_are_the_registered_games() -> None:
    assert "senet-tait" in game_ids()
    assert len(set(game_ids())) == len(game_ids())


def test_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(UnknownGameError, match="unknown game 'chess'; games: senet-tait"):
        get_game("chess")


def test_errors_are_value_errors_in_one_tree() -> None:
    for error in (IllegalMoveError, InvalidThrowError, OptionError, PositionError, UnknownGameError):
        assert issubclass(error, RulesError) and issubclass(error, ValueError)


def test_two_dice_distribution() -> None:
    outcomes = Dice(2, 6).outcomes()
    assert len(outcomes) == 36
    assert sum(p for _, p in outcomes) == 1
    totals = Counter[int]()
    for throw, p in outcomes:
        totals[sum(throw.values)] += int(p * 36)
    assert totals[7] == 6 and totals[2] == 1


def test_one_die_for_a_bonus_roll() -> None:
    die = Dice(1, 6)
    assert die.describe() == "one die"
    assert [t.values for t, _ in die.outcomes()] == [(v,) for v in range(1, 7)]
    assert die.parse("5") == Throw("1d6", ("5",), (5,))


@pytest.mark.parametrize("text", ["7", "0", "x", "3 4"])
def test_dice_refuse_impossible_throws(text: str) -> None:
    with pytest.raises(InvalidThrowError):
        Dice(1, 6).parse(text)


def test_binary_sticks_follow_the_binomial() -> None:
    sticks = BinarySticks(4)
    probabilities = {t.values[0]: p for t, p in sticks.outcomes()}
    assert probabilities[2] == Fraction(6, 16)
    assert sum(probabilities.values()) == 1


def test_binary_sticks_draw_is_fair() -> None:
    """Every face pattern comes from one uniform number: counts follow C(4, k)."""
    sticks = BinarySticks(4)
    rng = random.Random(3)
    counts = Counter(sticks.draw(rng.randrange).values[0] for _ in range(16_000))
    assert 5_600 < counts[2] < 6_400  # expected 6000; sd about 61
    assert 700 < counts[6] < 1_300  # expected 1000


def test_coloured_sticks_values_and_colours() -> None:
    dual = (StickFace(1, "red"), StickFace(2, "blue"))
    solid = (StickFace(3), StickFace(4))
    sticks = ColouredSticks((dual, dual, solid))
    outcomes = sticks.outcomes()
    assert sum(p for _, p in outcomes) == 1
    throw = sticks.parse("1:red 2:blue 4")
    assert throw.values == (1, 2, 4)
    assert throw.colours == ("red", "blue", None)
    with pytest.raises(InvalidThrowError, match="stick 3 shows 3 or 4"):
        sticks.parse("1:red 2:blue 5")


def test_deck_draws_unseen_cards_then_the_returned_ones_in_order() -> None:
    deck = Deck("direction", ("north", "north", "east"))
    assert dict((t.card, p) for t, p in deck.outcomes()) == {
        "north": Fraction(2, 3),
        "east": Fraction(1, 3),
    }
    emptied = Deck("direction", (), ("west", "south"))
    assert [(t.card, p) for t, p in emptied.outcomes()] == [("west", Fraction(1))]
    with pytest.raises(InvalidThrowError, match="cannot be drawn"):
        emptied.parse("south")
    with pytest.raises(InvalidThrowError, match="empty"):
        Deck("red", ()).outcomes()


def test_a_throw_from_another_implement_is_refused() -> None:
    state = get_game("senet-tait").new_state()
    with pytest.raises(InvalidThrowError, match="expected '4 sticks'"):
        state.apply(Dice(1, 6).parse("4"))
    with pytest.raises(InvalidThrowError, match="does not match its faces"):
        state.apply(Throw("4 sticks", ("L", "L", "D", "D"), (3,)))


def test_move_repr_evaluates_back_and_notation_is_stable() -> None:
    move = Move("move", 12, 16, (4,))
    assert eval(repr(move)) == move
    assert move.notation == "12-16"
    assert Move("move", 3, 7, (2, 2)).notation == "3-7 [2+2]"
    assert Move("bear-off", 28, None, (3,)).notation == "28-off"
    assert PASS.notation == "pass"


def test_options_are_parsed_and_checked() -> None:
    assert get_game("senet-tait", sticks="5").option("sticks") == 5
    with pytest.raises(OptionError, match="must be one of 4, 5"):
        get_game("senet-tait", sticks=3)
    with pytest.raises(OptionError, match="has no option 'stiks'"):
        get_game("senet-tait", stiks=4)
    with pytest.raises(OptionError, match="expected int"):
        get_game("senet-tait", sticks="many")


def test_game_repr_names_changed_options() -> None:
    assert repr(get_game("senet-tait", sticks=5)) == "get_game('senet-tait', sticks=5)"


@pytest.mark.parametrize(
    ("data", "where"),
    [
        ([], ""),
        ({"version": 1}, "game"),
        ({"game": "chess", "version": 1}, "game"),
        ({"game": "senet-tait", "version": 9}, "version"),
        ({"game": "senet-tait", "version": 1, "players": 3}, "players"),
        ({"game": "senet-tait", "version": 1, "options": {"sticks": 7}}, "options"),
        ({"game": "senet-tait", "version": 1, "to_act": "black"}, "pieces"),
    ],
)
def test_malformed_positions_name_the_problem(data: object, where: str) -> None:
    with pytest.raises(PositionError) as info:
        state_from_dict(data)  # type: ignore[arg-type]
    assert info.value.where == where


def test_copy_is_independent() -> None:
    state = get_game("senet-tait").new_state()
    sticks = state.throw_spec
    assert sticks is not None
    state.apply(sticks.parse("4"))
    other = state.copy()
    state.apply(state.parse_move("enter 4"))
    assert other.legal_moves()[0].notation == "enter 4"
    assert len(other.history) == 1 and len(state.history) == 2


def test_play_out_ends_every_game_and_nothing_is_due_after() -> None:
    from companion.rules import Phase, play_out, random_action

    for game_id in game_ids():
        state = play_out(get_game(game_id).new_state(), random.Random(5).randrange)
        assert state.phase is Phase.OVER and state.outcome is not None
        with pytest.raises(IllegalMoveError, match="nothing to do"):
            random_action(state, random.Random(5).randrange)


def test_play_out_until_stops_where_the_same_loop_of_random_actions_stops() -> None:
    """``until`` is asked before each action (after the end): the same draws and the
    same position as the loop written out; a game over first stops there."""
    from companion.rules import Phase, play_out, random_action

    for game_id in game_ids():
        stopped = play_out(get_game(game_id).new_state(), random.Random(3).randrange,
                           until=lambda s: len(s.history) >= 30 and s.phase is Phase.THROW)
        rng = random.Random(3)
        state = get_game(game_id).new_state()
        while not (len(state.history) >= 30 and state.phase is Phase.THROW):
            state.apply(random_action(state, rng.randrange))
        assert stopped.history == state.history and stopped.to_dict() == state.to_dict()
        over = play_out(get_game(game_id).new_state(), random.Random(5).randrange,
                        until=lambda s: False)
        assert over.phase is Phase.OVER
    with pytest.raises(RuntimeError, match="no end after 10 actions"):
        play_out(get_game("senet-tait").new_state(), random.Random(5).randrange, 10,
                 until=lambda s: False)


def test_the_menu_titles_are_the_games_own() -> None:
    """The registry keeps each title so a menu needs no import; it must not drift."""
    from companion.rules import game_class, game_title

    for game_id in game_ids():
        assert game_title(game_id) == game_class(game_id).title
    with pytest.raises(UnknownGameError):
        game_title("chess")


def _implements_met(game_id: str, seed: int) -> list[Implement]:
    """Every distinct implement due in one random game of ``game_id`` (decks included)."""
    from companion.rules import Phase, random_action

    state = get_game(game_id).new_state()
    seen: dict[str, Implement] = {}
    rng = random.Random(seed)
    while state.phase is not Phase.OVER:
        spec = state.throw_spec
        if spec is not None:
            seen.setdefault(repr(spec), spec)
        state.push(random_action(state, rng.randrange))
    return list(seen.values())


@pytest.mark.parametrize("game_id", game_ids())
def test_a_throw_written_out_reads_back_as_the_same_throw(game_id: str) -> None:
    """``str(throw)`` is what a person would type: ``parse`` gives the throw back
    (``"2 (LLDD)"`` for sticks, ``"card 7"`` for a card, ``"3 5"`` for dice)."""
    for spec in _implements_met(game_id, 3):
        for throw, _ in spec.outcomes():
            assert spec.parse(str(throw)) == throw


def test_a_written_stick_throw_must_score_what_its_faces_show() -> None:
    with pytest.raises(InvalidThrowError, match="score 2, not 3"):
        BinarySticks().parse("3 (LLDD)")


@pytest.mark.parametrize("game_id", game_ids())
def test_every_throw_can_be_entered_face_by_face(game_id: str) -> None:
    """Manual entry: choosing a face in each of ``entry_slots()`` gives every possible
    throw, and only throws the implement can show."""
    import itertools

    for spec in _implements_met(game_id, 4):
        slots = spec.entry_slots()
        entered = {
            spec.from_slots(chosen)
            for chosen in itertools.product(*(range(len(slot)) for slot in slots))
        }
        assert entered >= {t for t, _ in spec.outcomes()}
        for throw in entered:
            spec.check(throw)
        with pytest.raises(InvalidThrowError):
            spec.from_slots([len(slots[0])] * len(slots))


def test_entry_by_hand_follows_the_implement() -> None:
    sticks = BinarySticks(count=4)
    assert sticks.entry_slots() == (("1", "2", "3", "4", "6"),)  # by score, lowest first
    assert [sticks.entry_words(t) for t in ("1", "3", "6")] == [
        "1 (1 light side)", "3 (3 light sides)", "6 (no light side)"]
    assert sticks.from_slots([4]).faces == ("D", "D", "D", "D")
    assert Dice(count=2).entry_slots() == (("1", "2", "3", "4", "5", "6"),) * 2
    coloured = ColouredSticks(((StickFace(1, "red"), StickFace(2)), (StickFace(3), StickFace(4))))
    assert coloured.entry_slots() == (("1:red", "2"), ("3", "4"))
    assert Deck("hero", ("b", "a", "a")).entry_slots() == (("a", "b"),)
    assert Deck("hero", ("b", "a")).from_slots([1]).card == "b"
