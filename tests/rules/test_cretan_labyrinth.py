"""Rules of the Cretan Labyrinth (seed ``004_fc892f1937d88e90.txt``), one test per rule.

Each test's docstring quotes the sentence of the seed it checks. Positions are written
as JSON bodies (``docs/positions.md``), keys left out taking their defaults. The default
board (``companion/rules/data/cretan_labyrinth.toml``), drawn north at the top::

    12  B . . . . 3 3 . . . . B
    11  . R G Y . 3 3 . G . R .
    10  . . . Y R . . B G . G .
     9  . G G . . . R . . Y Y .
     8  . . B . Y B . Y . R . .
     7  2 2 . R . P P B . . 4 4
     6  2 2 . . B P P . R . 4 4
     5  . . R . Y . B Y . B . .
     4  . Y Y . . R . . . G G .
     3  . G . G B . . R Y . . .
     2  . R . G . 1 1 . Y G R .
     1  B . . . . 1 1 . . . . B
        a b c d e f g h i j k l
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from spoken import said

from companion.rules import (
    PASS,
    BoardDataError,
    IllegalMoveError,
    OptionError,
    Phase,
    PositionError,
    get_game,
    random_action,
    state_from_dict,
)
from companion.rules.cretan_data import (
    ITEMS,
    WEAPON_TABLE,
    battle_by_weapons,
    data_path,
    load_board,
    load_decks,
    parse_board,
    parse_decks,
)
from companion.rules.cretan_labyrinth import CretanLabyrinth, CretanLabyrinthState

GAME = CretanLabyrinth()
FOUR = ["red", "green", "blue", "yellow"]


def position(players: int = 2, game: CretanLabyrinth = GAME, **body: Any) -> CretanLabyrinthState:
    data = {"game": "cretan-labyrinth", "version": 1, "players": players, **body}
    state = game.state_from_dict(data)
    assert isinstance(state, CretanLabyrinthState)
    return state


def moving(squares: list[str], distance: int, direction: str, players: int = 2, **body: Any) -> CretanLabyrinthState:
    """A position where Player 1 (at ``squares[0]``) has thrown ``distance`` and drawn ``direction``."""
    pieces = body.pop("pieces", [{"square": s} for s in squares])
    return position(players, stage="move", distance=distance, direction=direction, pieces=pieces, **body)


def stops(state: CretanLabyrinthState) -> set[str]:
    return {str(m.dst) for m in state.legal_moves() if m.kind == "move"}


def draw(state: CretanLabyrinthState, card: str) -> list[str]:
    spec = state.throw_spec
    assert spec is not None, state.describe()
    return said(state, state.apply(spec.parse(card)))


def throw(state: CretanLabyrinthState, value: int) -> list[str]:
    spec = state.throw_spec
    assert spec is not None and spec.id.endswith("d6"), state.describe()
    return said(state, state.apply(spec.parse(str(value))))


def play(state: CretanLabyrinthState, notation: str) -> list[str]:
    return said(state, state.apply(state.parse_move(notation)))


def notations(state: CretanLabyrinthState) -> list[str]:
    return [m.notation for m in state.legal_moves()]


# ------------------------------------------------------------------ starting the game


def test_pieces_start_on_their_own_gateways() -> None:
    """Starting rule 1: 'Choose a colored playing piece and place it on the corresponding
    gateway (large colored square on each side of the board) on the board.'"""
    assert [p.square for p in GAME.new_state(4).pieces()] == ["gate1", "gate2", "gate3", "gate4"]
    assert [p.square for p in GAME.new_state(3).pieces()] == ["gate1", "gate2", "gate3"]
    # Two players take opposite gateways.
    assert [p.square for p in GAME.new_state(2).pieces()] == ["gate1", "gate3"]
    with pytest.raises(OptionError):
        GAME.new_state(5)


def test_highest_start_roll_goes_first_and_ties_throw_again() -> None:
    """Starting rule 2: 'Each player rolls one die and the highest roll goes first.'"""
    state = GAME.new_state(3)
    assert state.phase is Phase.THROW and state.throw_spec == GAME.die
    throw(state, 4)
    throw(state, 6)
    events = throw(state, 6)
    assert "Player 2 and Player 3 tie with 6 and throw again" in events
    assert state.current_player == 1
    throw(state, 2)
    throw(state, 5)
    assert state.turn == 2 and state.current_player == 2
    assert state.throw_spec == GAME.distance_dice


def test_a_turn_is_a_distance_throw_then_a_direction_card_then_the_move() -> None:
    """Turn rule 1: 'The first player first rolls the dice to see how far to go and then
    takes a direction card to see which direction to go. The player then moves accordingly.'
    Rule 2: 'There are two squares on each side of the entry square. The player may choose
    which of these to leave by as desired, as long as it's the direction dictated by the
    direction card.'"""
    state = position(stage="distance", pieces=[{"square": "gate1"}, {"square": "gate3"}])
    assert state.throw_spec is not None and state.throw_spec.id == "1d6"
    throw(state, 3)
    assert state.throw_spec is not None and state.throw_spec.id == "deck:direction"
    events = draw(state, "north")
    assert events == ["Player 1 draws: The walls shift. Go NORTH."]
    assert state.phase is Phase.MOVE
    # Out of gateway 1 (f1-g2) by f3 or by g3: f3 f4(red) f5, or g3 g4 g5(blue).
    assert stops(state) == {"f4", "f5", "g5"}
    assert notations(state) == ["gate1-f4", "gate1-f5", "gate1-g5"]


def test_turns_pass_clockwise() -> None:
    """Turn rule 3: 'Each player then takes their turn in sequence clockwise around the table.'"""
    state = moving(["d4", "a12", "l12"], 1, "north", players=3, turn=3,
                   pieces=[{"square": "a12"}, {"square": "l12"}, {"square": "d4"}])
    play(state, "d4-d5")
    assert state.turn == 0 and state.phase is Phase.THROW
    state = moving(["d4", "a12"], 1, "north", players=3,
                   pieces=[{"square": "d4"}, {"square": "a12"}, {"square": "l12"}])
    play(state, "d4-d5")
    assert state.turn == 1


# ---------------------------------------------------------------- where a move may stop


def test_ending_on_a_blank_space_may_stop_there_or_on_a_coloured_space_crossed() -> None:
    """Rule 4: 'If a player's move ends on a blank space, the player may stop there or on
    any colored space that may have been crossed in that roll, but not on another blank space.'"""
    # d1 north 5: d2 (green), d3 (green), d4, d5 (blank), d6 (blank).
    state = moving(["d1", "a12"], 5, "north")
    assert stops(state) == {"d2", "d3", "d6"}


def test_ending_on_a_coloured_space_never_stops_on_a_blank_one() -> None:
    """Rule 5: 'If a player's move ends on a colored space, the player may stop on that
    colored space or any other colored space that may have been crossed in that roll,
    but not on a blank space.'"""
    assert stops(moving(["d4", "a12"], 3, "north")) == {"d7"}
    assert stops(moving(["d1", "a12"], 2, "north")) == {"d2", "d3"}


def test_a_wall_ends_the_move_with_the_option_of_a_coloured_space_crossed() -> None:
    """Rule 8: 'If a player runs into a wall (edge of the board) during a move, that is the
    end of the player's move unless the player wishes to go back to a colored space.'"""
    # d10 north 6: d11 (yellow), d12 (blank), then the edge.
    assert stops(moving(["d10", "a1"], 6, "north")) == {"d11", "d12"}


def test_another_players_gateway_ends_the_move() -> None:
    """Rule 9: 'A player may not enter another player's gateway. If a player runs into
    another player's gateway then that is the end of the turn unless the player wishes to
    go back to a colored space.'"""
    # Two players: gateway 3 (f11-g12) is Player 2's. g8 north 4: g9 (red), g10, gateway 3.
    assert stops(moving(["g8", "gate3"], 4, "north")) == {"g9", "g10"}
    # Player 2 on e1 going east runs straight into Player 1's gateway: no move.
    state = position(stage="move", distance=3, direction="east", turn=2,
                     pieces=[{"square": "a12"}, {"square": "e1"}])
    assert state.legal_moves() == (PASS,)
    assert play(state, "pass") == ["Player 2 cannot move east", "Player 1's turn"]


def test_a_card_may_send_a_player_to_the_nearest_gateway_even_anothers() -> None:
    """Rule 9: 'An exception here would be when a player is sent to the nearest gateway by a card.'"""
    state = moving(["e9", "a1"], 1, "north")
    play(state, "e9-e10")  # e10 is red
    events = draw(state, "red-unicorn")
    assert "Player 1 goes from E10 to gateway 3" in events
    assert state.square(0) == "gate3"


def test_a_player_passes_through_the_own_gateway_choosing_the_exit() -> None:
    """Rule 10: 'A player may pass through their own gateway. When passing through, the
    player may choose which square to exit by, as long as direction is maintained.'"""
    # e1 east 3: gateway 1, then h1 or h2, then i1 (blank) or i2 (yellow).
    assert stops(moving(["e1", "a12"], 3, "east")) == {"gate1", "i1", "i2"}


def test_the_palace_is_one_square_and_may_be_stopped_in_when_passing() -> None:
    """Rule 11: 'If passing through the palace (center large square) then that is considered
    as one square.' Rule 12: 'If a player's move goes through and past the palace, the
    player may stop in the palace if desired.'"""
    assert stops(moving(["f3", "a12"], 3, "north")) == {"f4", "palace"}
    # f4 north 3: f5, the palace (one square), then f8 (blue) or g8 (blank).
    assert stops(moving(["f4", "a12"], 3, "north")) == {"palace", "f8", "g8"}


def test_leaving_the_palace_by_any_square_in_the_cards_direction() -> None:
    """Rule 13: 'When exiting the palace, whether passing through or at the beginning of a
    turn, the player may choose which square to exit by as long as the direction is what
    is shown on the current direction card.'"""
    assert stops(moving(["palace", "a12"], 1, "east")) == {"h6", "h7"}
    assert stops(moving(["palace", "a12"], 1, "south")) == {"f5", "g5"}


def test_a_card_for_any_direction_offers_all_four() -> None:
    """'The other deck is "direction" cards. These explain what to do on them.' The
    default deck's 'any direction' card lets the player choose."""
    assert stops(moving(["d4", "a12"], 1, "any-way")) == {"d5", "e4", "d3", "c4"}


# ------------------------------------------------------------------------------ cards


def test_ending_on_a_coloured_space_draws_a_card_tools_kept_others_to_the_bottom() -> None:
    """Rule 6: 'If a player ends a move on a colored space then the player must take a card
    from the top of the deck of corresponding color and do as it says. If the card is a
    tool or weapon then the card may be kept for later use. Other cards are returned to
    the bottom of the deck.'"""
    state = moving(["d1", "a12"], 1, "north")
    play(state, "d1-d2")
    assert state.phase is Phase.THROW and state.throw_spec is not None
    assert state.throw_spec.id == "deck:green"
    events = draw(state, "green-bow")
    assert events[-2:] == ["Player 1 keeps the Magic Bow and Arrow", "Player 2's turn"]
    assert state.items[0] == ["green-bow"]
    assert "green-bow" not in state.decks["green"].unseen
    state = moving(["d1", "a12"], 1, "north")
    play(state, "d1-d2")
    draw(state, "green-pit")
    assert state.decks["green"].returned == ("green-pit",)
    assert "green-pit" not in state.decks["green"].unseen


def test_returned_cards_are_drawn_in_order_once_the_unseen_cards_are_gone() -> None:
    """Rule 6: 'Other cards are returned to the bottom of the deck.' The card on top is
    the next unseen card (each equally likely); the returned ones come after, in order."""
    rest: Counter[str] = Counter(GAME.decks.contents["direction"]) - Counter(["east", "north"])
    decks = {"direction": {"unseen": [], "returned": ["east", "north", *sorted(rest.elements())]}}
    pieces = [{"square": "gate1"}, {"square": "gate3"}]
    state = position(stage="direction", distance=2, decks=decks, pieces=pieces)
    assert [(t.card, p) for t, p in state.throw_outcomes()] == [("east", Fraction(1))]
    assert draw(state, "east")[0].endswith("Go EAST.")
    assert state.decks["direction"].returned[0] == "north"
    state = position(stage="direction", distance=2, pieces=pieces)
    odds = dict((t.card, p) for t, p in state.throw_outcomes())
    assert odds == {"any-way": Fraction(4, 24), "east": Fraction(5, 24), "north": Fraction(5, 24),
                    "south": Fraction(5, 24), "west": Fraction(5, 24)}
    with pytest.raises(ValueError, match="cannot be drawn"):
        draw(position(stage="direction", distance=2, decks=decks, pieces=pieces), "north")


def test_a_player_moved_onto_a_coloured_space_against_their_will_draws_a_card() -> None:
    """Rule 7: 'If a player ends up on a colored space against their will, ie: a card says
    "Move away from goal three spaces", then the player must take a card of that color.'"""
    state = moving(["e4", "a12"], 1, "north")
    play(state, "e4-e5")  # yellow
    events = draw(state, "yellow-dark")  # two spaces away from the palace: e4, then e3 (blue)
    assert "Player 1 goes from E5 to E3" in events
    assert state.phase is Phase.THROW and state.throw_spec is not None
    assert state.throw_spec.id == "deck:blue" and state.current_player == 0


def test_a_diamond_of_each_colour_at_most() -> None:
    """Rule 14: 'If a player draws a card that says to find a diamond then the player
    receives a diamond of that color, but only one diamond of each color may be held at one time.'"""
    state = moving(["d1", "a12"], 1, "north", pieces=[{"square": "d1", "diamonds": ["green"]}, {"square": "a12"}])
    play(state, "d1-d2")
    assert "Player 1 already holds a green diamond" in draw(state, "green-diamond")
    assert state.diamonds[0] == {"green"}
    state = moving(["d1", "a12"], 1, "north", pieces=[{"square": "d1", "diamonds": ["red"]}, {"square": "a12"}])
    play(state, "d1-d2")
    assert "Player 1 receives a green diamond" in draw(state, "green-diamond")
    assert state.diamonds[0] == {"red", "green"}


def test_a_danger_is_averted_by_returning_both_cards() -> None:
    """Rule 15: 'If a player encounters a danger when drawing one of these cards and
    possesses a card that will help, then the danger may be circumvented by returning both
    cards to the bottom of their corresponding decks. The player then doesn't have to do
    what the danger card says.'"""
    start = moving(["e9", "a1"], 1, "north",
                   pieces=[{"square": "e9", "items": ["green-bow"], "diamonds": ["blue"]}, {"square": "a1"}])
    state = start.copy()
    assert isinstance(state, CretanLabyrinthState)
    play(state, "e9-e10")  # red
    draw(state, "red-minotaur")
    assert state.phase is Phase.DECIDE and notations(state) == ["avert bow", "face-danger"]
    assert "Player 1 averts the danger with the Magic Bow and Arrow" in play(state, "avert bow")
    assert state.items[0] == [] and state.square(0) == "e10" and state.diamonds[0] == {"blue"}
    assert state.decks["red"].returned == ("red-minotaur",)
    assert state.decks["green"].returned == ("green-bow",)
    # Facing the Minotaur instead: killed, back to the own gateway, diamonds lost.
    state = start.copy()
    assert isinstance(state, CretanLabyrinthState)
    play(state, "e9-e10")
    draw(state, "red-minotaur")
    play(state, "face-danger")
    assert state.square(0) == "gate1" and state.diamonds[0] == set() and state.items[0] == ["green-bow"]


def test_a_danger_without_a_helping_card_is_done() -> None:
    """Rule 6: '... must take a card ... and do as it says.' The Cyclops 'will trap you
    and slow your progress': two turns lost."""
    state = moving(["e9", "a1"], 1, "north")
    play(state, "e9-e10")
    events = draw(state, "red-cyclops")
    assert "Player 1 loses 2 turns" in events
    assert state.lost[0] == 2 and state.turn == 1
    throw(state, 1)
    draw(state, "south")  # Player 2 on a1 cannot go south
    events = play(state, "pass")
    assert events[-2:] == ["Player 1 loses a turn", "Player 2's turn"]
    assert state.turn == 1 and state.lost[0] == 1


def test_unicorn_moves_another_player_who_draws_after_the_player_whose_turn_it_is() -> None:
    """'Even if a player is transported to another space when it's not their turn (this
    happens with the unicorn sometimes), that player must take a card. In this case if the
    two players ar taking the same color card the player who's turn it is draws first.'"""
    state = moving(["e2", "c5"], 1, "north")
    play(state, "e2-e3")  # blue
    draw(state, "blue-unicorn")
    assert notations(state) == ["swap Player 2"]
    play(state, "swap Player 2")
    assert state.square(0) == "c5" and state.square(1) == "e3"
    assert state.current_player == 0 and state.throw_spec is not None and state.throw_spec.id == "deck:red"
    draw(state, "red-diamond")
    assert state.current_player == 1 and state.throw_spec is not None and state.throw_spec.id == "deck:blue"
    assert "Player 2 receives a blue diamond" in draw(state, "blue-diamond")
    assert state.turn == 1 and state.diamonds == [{"red"}, {"blue"}]


def test_unicorn_swap_of_the_same_colour_turn_player_first() -> None:
    """'... if the two players ar taking the same color card the player who's turn it is draws first.'"""
    state = moving(["e2", "c8"], 1, "north")
    play(state, "e2-e3")  # blue; Player 2 stands on c8, blue too
    draw(state, "blue-unicorn")
    play(state, "swap Player 2")
    assert state.current_player == 0 and state.throw_spec is not None and state.throw_spec.id == "deck:blue"
    draw(state, "blue-diamond")
    assert state.current_player == 1 and state.throw_spec is not None and state.throw_spec.id == "deck:blue"


def test_pegasus_flies_anywhere_but_into_anothers_gateway() -> None:
    """'PEGASUS ... Catch him and this winged steed will take you anywhere you want to go!'"""
    state = moving(["d1", "a12"], 1, "north")
    play(state, "d1-d2")
    draw(state, "green-pegasus")
    assert state.phase is Phase.MOVE
    targets = {str(m.dst) for m in state.legal_moves()}
    assert "gate3" not in targets and "gate1" in targets and "palace" in targets and "d2" not in targets
    assert len(targets) == len(GAME.board.names) - 2
    play(state, "fly palace")
    assert state.square(0) == "palace"


def test_rattle_snake_sends_back_where_the_move_began() -> None:
    """'RATTLE SNAKE: ... It's best to go back where you came from rather than trying to pass.'"""
    state = moving(["d4", "a12"], 3, "north")
    play(state, "d4-d7")  # red
    draw(state, "red-rattlesnake")
    assert state.square(0) == "d4"



def test_rattle_snake_does_not_send_a_player_back_into_another_players_gateway() -> None:
    """Rule 9: 'A player may not enter another player's gateway. ... An exception here
    would be when a player is sent to the nearest gateway by a card.' Player 1, sent to
    Player 2's gateway by the nearest-gateway card, walks out to g9 and meets a rattle
    snake ('go back where you came from'): that card is not the exception, so Player 1
    stays on g9 (docs/rules/cretan-labyrinth.md)."""
    state = moving(["gate3", "a12"], 2, "any-way")
    play(state, "gate3-g9")  # red
    events = draw(state, "red-rattlesnake")
    assert state.square(0) == "g9"
    assert "Player 1 stays on G9" in events
    # The negative case: a player's own gateway is no bar, the snake sends them back.
    state = moving(["gate1", "gate3"], 2, "any-way")
    red = [m.notation for m in state.legal_moves() if GAME.board.colours[GAME.board.node(str(m.dst))] == "red"]
    play(state, red[0])
    draw(state, "red-rattlesnake")
    assert state.square(0) == "gate1"


def test_rattle_snake_after_the_unicorn_sends_a_player_moved_out_of_turn_back_to_where_they_came_from() -> None:
    """'RATTLE SNAKE: ... It's best to go back where you came from rather than trying to
    pass.' and 'Even if a player is transported to another space when it's not their turn
    (this happens with the unicorn sometimes), that player must take a card.' Player 2,
    turned to stone on i9 since a move that began on l12, is changed with Player 1 onto e5:
    Player 2 came from i9, not from l12."""
    pieces = [{"square": "e2"}, {"square": "i9", "came_from": "l12", "lost_turns": 2}]
    state = moving(["e2", "i9"], 3, "north", pieces=pieces)
    play(state, "e2-e5")  # yellow
    draw(state, "yellow-unicorn")
    play(state, "swap Player 2")
    assert state.square(1) == "e5" and state.current_player == 1
    assert "Player 2 goes from E5 to I9" in draw(state, "yellow-rattlesnake")
    assert state.square(1) == "i9"

def test_pan_and_the_pterodactyl_steal_every_diamond() -> None:
    """'PTERODACTYL: ... This winged giant will attack stealing all the diamonds you have
    worked so hard to collect!' 'PAN: ... he'll lure you with his flute music then steal
    your diamonds!'"""
    pieces = [{"square": "e9", "diamonds": ["red", "blue"], "items": ["yellow-sword"]}, {"square": "a1"}]
    state = moving(["e9", "a1"], 1, "north", pieces=pieces)
    play(state, "e9-e10")
    assert "Player 1 loses red and blue diamonds" in draw(state, "red-pan")  # nothing helps against Pan
    assert state.diamonds[0] == set()
    state = moving(["e9", "a1"], 1, "north", pieces=pieces)
    play(state, "e9-e10")
    draw(state, "red-pterodactyl")
    assert notations(state) == ["avert sword", "face-danger"]
    play(state, "face-danger")
    assert state.diamonds[0] == set() and state.items[0] == ["yellow-sword"]


def test_a_card_moving_toward_the_goal_can_bring_a_player_home_to_win() -> None:
    """Rule 7 ('... a card says "Move away from goal three spaces"') and rule 17: 'Your
    next goal is to reach your original gateway. Once there you win the game if you
    possess one of each (4) color of diamond and the Magic Key.'"""
    state = moving(["d1", "a12"], 1, "north")
    play(state, "d1-d2")
    draw(state, "green-passage")  # two spaces toward the palace: d3, d4
    assert state.square(0) == "d4" and state.turn == 1
    state = moving(["d1", "a12"], 1, "north",
                   pieces=[{"square": "d1", "diamonds": FOUR, "key": True}, {"square": "a12"}])
    play(state, "d1-d2")
    events = draw(state, "green-passage")  # toward the own gateway: e2, then gateway 1
    assert "Player 1 goes from D2 to gateway 1" in events
    assert events[-1] == "Player 1 escapes the labyrinth and wins!"


def test_the_unicorn_cannot_swap_with_a_player_in_a_gateway() -> None:
    """Rule 9: 'A player may not enter another player's gateway.'"""
    state = moving(["e2", "gate3"], 1, "north")
    play(state, "e2-e3")
    assert "nobody can change places with Player 1" in draw(state, "blue-unicorn")
    assert state.square(0) == "e3" and state.turn == 1


def test_two_dice_for_distance_by_option() -> None:
    """Turn rule 1 says 'rolls the dice'; one die by default, two by option."""
    game = get_game("cretan-labyrinth", distance_dice=2)
    assert isinstance(game, CretanLabyrinth)
    state = position(game=game, pieces=[{"square": "d1"}, {"square": "a12"}])
    spec = state.throw_spec
    assert spec is not None and spec.id == "2d6"
    state.apply(spec.parse("3 4"))
    assert state.distance == 7


# ------------------------------------------------------------------ the key and the win


def test_the_magic_key_for_one_diamond_of_each_colour_in_the_palace() -> None:
    """Rule 16: 'Your first goal is to reach the temple (large square in the center). Once
    there you may obtain a Magic Key by handing in one of each (4) colored diamonds.'"""
    state = moving(["f4", "a12"], 2, "north", pieces=[{"square": "f4", "diamonds": FOUR}, {"square": "a12"}])
    play(state, "f4-palace")
    assert notations(state) == ["take-key", "keep-diamonds"]
    assert "Player 1 hands in four diamonds and takes the Magic Key" in play(state, "take-key")
    assert state.keys == [True, False] and state.diamonds[0] == set()
    # Three diamonds are not enough.
    state = moving(["f4", "a12"], 2, "north", pieces=[{"square": "f4", "diamonds": FOUR[:3]}, {"square": "a12"}])
    play(state, "f4-palace")
    assert state.turn == 1


def test_back_at_the_own_gateway_with_four_diamonds_and_the_key_wins() -> None:
    """Rule 17: 'Your next goal is to reach your original gateway. Once there you win the
    game if you possess one of each (4) color of diamond and the Magic Key.'"""
    state = moving(["f3", "a12"], 1, "south", pieces=[{"square": "f3", "diamonds": FOUR, "key": True}, {"square": "a12"}])
    events = play(state, "f3-gate1")
    assert events[-1] == "Player 1 escapes the labyrinth and wins!"
    assert state.phase is Phase.OVER and state.outcome is not None and state.outcome.winners == (0,)
    state = moving(["f3", "a12"], 1, "south", pieces=[{"square": "f3", "diamonds": FOUR[:3], "key": True}, {"square": "a12"}])
    play(state, "f3-gate1")
    assert state.phase is Phase.THROW and state.turn == 1


def test_landing_on_the_keeper_takes_the_key_and_another_turn() -> None:
    """Key rule 1: 'If a player lands on the same space as the player with the Magic Key
    (that player may stop even if the roll goes further), that player then is the keeper
    of the Magic Key and takes another turn.'"""
    state = moving(["d1", "d6"], 6, "north", pieces=[{"square": "d1"}, {"square": "d6", "key": True}])
    assert {"d6", "d4", "d5"} <= stops(state)  # d4, d5: blank, but within two of the keeper
    events = play(state, "d1-d6")
    assert "Player 1 lands on Player 2 and takes the Magic Key" in events
    assert events[-1] == "Player 1 takes another turn"
    assert state.keys == [True, False] and state.turn == 0


def test_landing_within_two_spaces_of_the_keeper_allows_a_battle() -> None:
    """Key rule 2: 'If a player lands within two spaces (vertically, horizontally or
    diagonally) of the player with the Magic Key (that player may stop even if the roll
    goes further) then that player may do battle with the keeper of the Magic Key in order
    to gain the key.'"""
    state = moving(["d1", "e6"], 3, "north", pieces=[{"square": "d1"}, {"square": "e6", "key": True}])
    play(state, "d1-d4")  # d4 to e6: one across, two up
    assert notations(state) == ["attack Player 2", "no-attack"]
    assert play(state, "no-attack") == ["Player 1 does not attack Player 2", "Player 2's turn"]
    assert state.turn == 1 and state.keys == [False, True]


def test_battle_by_the_weapon_table() -> None:
    """Key rule 3: 'First the attacker (the one without the key) announces an attack and
    display a weapon. The defending player then displays a weapon and the victor is the
    one with the strongest weapon.'"""
    state = moving(["d1", "e6"], 3, "north",
                   pieces=[{"square": "d1", "items": ["red-sword", "green-potion"]},
                           {"square": "e6", "key": True, "items": ["blue-mirror"]}])
    play(state, "d1-d4")
    play(state, "attack Player 2")
    assert state.current_player == 0 and notations(state) == ["show sword", "show potion"]
    play(state, "show sword")
    assert state.current_player == 1 and notations(state) == ["show mirror"]
    events = play(state, "show mirror")
    # The sword in the attacker's hand defeats 2, 4, 6 (the mirror is 6); the mirror in
    # the defender's hand defeats only 7 (the Head of Medusa).
    assert "Player 1 defeats Player 2 and takes the Magic Key" in events
    assert events[-1] == "Player 1 takes another turn"
    assert state.keys == [True, False] and state.items[0] == ["red-sword", "green-potion"]


@pytest.mark.parametrize(
    ("attacker", "defender", "attacker_wins"),
    [
        ("bow", "feather", True),  # bow attacking defeats 3; feather defending defeats 2, 4, 6
        ("mirror", "head", True),  # the mirror defeats the Head of Medusa
        ("head", "mirror", False),  # both columns claim it: a tie, to the defender
        ("potion", "bow", False),  # both claim it: a tie, to the defender
        ("sword", "rope", False),  # neither claims it: a tie, to the defender
        ("sword", "sword", True),  # the sword attacking defeats 2
        ("mirror", "mirror", False),  # neither: to the defender
        ("rope", "potion", True),
        ("potion", "sword", False),  # the sword defending defeats 4
    ],
)
def test_weapon_table_cases(attacker: str, defender: str, attacker_wins: bool) -> None:
    """Key rule 3: 'The strength of the weapons is as follows (the numbers in the "Will
    Defeat" columns refer to the numbers in the Tool/Weapon column)'; key rule 5: 'With
    both methods the tie goes to the defender.'"""
    assert battle_by_weapons(attacker, defender) is attacker_wins


def test_weapon_table_reading_gives_one_winner_for_every_pair() -> None:
    """The first 'Will Defeat' column holds for the attacker's item, the second for the
    defender's; a pair both columns claim, or neither does, is a tie won by the defender."""
    for a in ITEMS:
        for d in ITEMS:
            a_no, d_no = ITEMS.index(a) + 1, ITEMS.index(d) + 1
            claims = (d_no in WEAPON_TABLE[a][0], a_no in WEAPON_TABLE[d][1])
            assert battle_by_weapons(a, d) is (claims == (True, False))
            swapped = (d_no in WEAPON_TABLE[a][1], a_no in WEAPON_TABLE[d][0])
            assert battle_by_weapons(a, d, "defend-attack") is (swapped == (True, False))
    # Exactly two pairs are claimed by both columns as printed: the readings differ there.
    both = [(a, d) for a in ITEMS for d in ITEMS
            if ITEMS.index(d) + 1 in WEAPON_TABLE[a][0] and ITEMS.index(a) + 1 in WEAPON_TABLE[d][1]]
    assert both == [("potion", "bow"), ("head", "mirror")]


def test_a_weapon_beats_no_weapon() -> None:
    """Key rule 3: '... the victor is the one with the strongest weapon.' A weapon shown
    against none wins without dice."""
    state = moving(["d1", "e6"], 3, "north",
                   pieces=[{"square": "d1"}, {"square": "e6", "key": True, "items": ["blue-feather"]}])
    play(state, "d1-d4")
    play(state, "attack Player 2")
    assert state.current_player == 1
    assert "Player 2 defends the Magic Key against Player 1" in play(state, "show feather")
    assert state.keys == [False, True] and state.turn == 1


def test_without_weapons_each_throws_one_die_high_wins_tie_to_defender() -> None:
    """Key rule 4: 'If neither player has a weapon then the two players each roll one die
    and the victor is the high roll.' Key rule 5: 'With both methods the tie goes to the
    defender.' Key rule 6: 'If the attacker is victorious then that player may take
    another turn.'"""
    start = moving(["d1", "e6"], 3, "north", pieces=[{"square": "d1"}, {"square": "e6", "key": True}])
    state = start.copy()
    assert isinstance(state, CretanLabyrinthState)
    play(state, "d1-d4")
    play(state, "attack Player 2")
    assert state.phase is Phase.THROW and state.current_player == 0 and state.throw_spec == GAME.die
    throw(state, 4)
    assert state.current_player == 1
    events = throw(state, 4)
    assert "Player 2 defends the Magic Key against Player 1" in events and state.turn == 1
    state = start.copy()
    assert isinstance(state, CretanLabyrinthState)
    play(state, "d1-d4")
    play(state, "attack Player 2")
    throw(state, 5)
    events = throw(state, 3)
    assert events[-2:] == ["Player 1 defeats Player 2 and takes the Magic Key", "Player 1 takes another turn"]
    assert state.turn == 0 and state.keys == [True, False]


def test_a_keeper_passing_within_two_spaces_must_stop_and_battle() -> None:
    """Key rule 7: 'If the keeper of the Magic Key passes within two spaces of another
    player then player must stop and do battle with that player as soon as the player
    comes within range. The keeper of the Magic Key is the defender and the other player
    is the attacker. In this case, if the attacker is the victor the the player does not
    take another turn.'"""
    state = moving(["d1", "a12", "c7"], 6, "north", players=3,
                   pieces=[{"square": "d1", "key": True}, {"square": "a12"}, {"square": "c7"}])
    assert stops(state) == {"d5"}  # d5 is the first square within two of c7
    events = play(state, "d1-d5")
    assert "Player 1 with the Magic Key comes within two spaces of Player 3 and must stop and fight" in events
    assert state.phase is Phase.THROW and state.current_player == 2  # the attacker throws first
    throw(state, 6)
    events = throw(state, 1)
    assert "Player 3 defeats Player 1 and takes the Magic Key" in events
    assert events[-1] == "Player 2's turn"  # no extra turn for Player 3
    assert state.keys == [False, False, True]
    # Two players come within range on the same square: the first clockwise after the keeper attacks.
    state = moving(["c7", "d1", "e7"], 6, "north", players=3, turn=2,
                   pieces=[{"square": "c7"}, {"square": "d1", "key": True}, {"square": "e7"}])
    assert stops(state) == {"d5"}
    assert "Player 2 with the Magic Key comes within two spaces of Player 3 and must stop and fight" in play(state, "d1-d5")


def test_a_keeper_starting_within_two_spaces_walks_on_unless_the_option_stops_it() -> None:
    """Key rule 7: '... must stop and do battle with that player as soon as the player
    comes within range.' D29: a player already within range when the keeper's move
    begins does not stop it (default); option ``keeper-near-start=stop``: the keeper stops
    at the first step and battles."""
    pieces = [{"square": "d1", "key": True}, {"square": "a12"}, {"square": "c2"}]
    state = moving(["d1", "a12", "c2"], 3, "north", players=3, pieces=pieces)
    assert "d4" in stops(state)  # the roll's full length: no battle stops it
    game = get_game("cretan-labyrinth", keeper_near_start="stop")
    assert isinstance(game, CretanLabyrinth)
    state = moving(["d1", "a12", "c2"], 3, "north", players=3, pieces=pieces, game=game)
    assert stops(state) == {"d2"}
    assert "Player 1 with the Magic Key comes within two spaces of Player 3 and must stop and fight" in play(state, "d1-d2")


def test_four_magic_keys_and_no_battles_by_option() -> None:
    """Footnote: 'An option would be to use four magic keys and eliminate rules 10 through
    16, the battle rules.'"""
    game = get_game("cretan-labyrinth", magic_keys=4)
    assert isinstance(game, CretanLabyrinth)
    state = moving(["f4", "f5"], 2, "north", game=game,
                   pieces=[{"square": "f4", "diamonds": FOUR}, {"square": "f5", "key": True}])
    assert stops(state) == {"palace"}
    play(state, "f4-palace")
    assert notations(state) == ["take-key", "keep-diamonds"]
    play(state, "take-key")
    assert state.keys == [True, True]
    # Landing on a keeper takes nothing and offers no battle.
    state = moving(["d1", "d4"], 3, "north", game=game, pieces=[{"square": "d1"}, {"square": "d4", "key": True}])
    play(state, "d1-d4")
    assert state.turn == 1 and state.keys == [False, True]
    with pytest.raises(PositionError):
        position(pieces=[{"square": "a1", "key": True}, {"square": "a2", "key": True}])


def test_round_limit_ends_the_game_with_the_leaders_sharing_the_win() -> None:
    """The seed sets no end but the win; by the rules a game can go on for ever (see
    docs/rules/cretan-labyrinth.md), so the option round-limit ends it."""
    game = get_game("cretan-labyrinth", round_limit=1)
    assert isinstance(game, CretanLabyrinth)
    state = moving(["d4", "a12"], 1, "north", game=game, turn=2, turns=2,
                   pieces=[{"square": "a12", "diamonds": ["red"]}, {"square": "d4", "diamonds": ["blue"]}])
    events = play(state, "d4-d5")
    assert events[-1] == "Round limit reached: Player 1 and Player 2 lead"
    assert state.outcome is not None and state.outcome.winners == (0, 1)
    with pytest.raises(OptionError):
        get_game("cretan-labyrinth", round_limit=-1)


# ------------------------------------------------------------- impossible positions


@pytest.mark.parametrize(
    ("body", "words"),
    [
        # A pending battle against a player who holds no key (the winner would make a
        # second Magic Key).
        ({"stage": "resolve", "distance": 2, "direction": "north",
          "pieces": [{"square": "d4"}, {"square": "d5"}],
          "pending": [["battle", 1, 2, False], ["end-turn"]]}, "does not hold it"),
        ({"stage": "resolve", "distance": 2, "direction": "north",
          "pieces": [{"square": "d4"}, {"square": "d5"}],
          "pending": [["battle-offer", 1, 2], ["end-turn"]]}, "does not hold it"),
        # A key offer for a player without four diamonds.
        ({"stage": "resolve", "distance": 2, "direction": "north",
          "pieces": [{"square": "palace", "diamonds": ["red"]}, {"square": "a12"}],
          "pending": [["key-offer", 1], ["end-turn"]]}, "holds 1 of the 4 diamonds"),
        # Home with four diamonds and the key while play goes on.
        ({"stage": "distance", "pieces": [{"square": "gate1", "diamonds": FOUR, "key": True},
                                          {"square": "a12"}]}, "that wins, yet play goes on"),
        # A finished game naming the wrong winner.
        ({"stage": "over", "winners": [2], "distance": 3,
          "pieces": [{"square": "gate1", "diamonds": FOUR, "key": True}, {"square": "a12"}]},
         "the winners must be the player home"),
        ({"stage": "over", "winners": [1], "pieces": [{"square": "d4"}, {"square": "a12"}]},
         "the round limit is not reached"),
        # The player on turn still has turns to lose.
        ({"stage": "distance", "turn": 2,
          "pieces": [{"square": "d4"}, {"square": "a12", "lost_turns": 1}]}, "turns still to lose"),
        # The start stage with a piece away from its gateway.
        ({"stage": "start", "pieces": [{"square": "d4"}, {"square": "gate3"}]}, "before the first turn"),
    ],
)
def test_impossible_positions_are_refused_naming_what_is_impossible(body: dict[str, Any], words: str) -> None:
    """Issue 22.5: every position read goes through CretanLabyrinth.validate, which names
    what no game can reach."""
    with pytest.raises(PositionError, match=words):
        position(**body)


# -------------------------------------------------------------------------- data files


def test_default_data_files_load() -> None:
    assert isinstance(get_game("cretan-labyrinth"), CretanLabyrinth)
    board = load_board()
    assert (board.width, board.height) == (12, 12)
    assert board.names[board.palace] == "palace" and len(board.gateways) == 4
    assert Counter(c for c in board.colours if c) == {"red": 12, "green": 12, "blue": 12, "yellow": 12}
    decks = load_decks()
    assert decks.colours == ("red", "green", "blue", "yellow")
    assert {k: len(v) for k, v in decks.contents.items()} == {
        "direction": 24, "red": 17, "green": 17, "blue": 17, "yellow": 17,
    }
    # The seed's creatures, tools and weapons are all in the default decks.
    texts = " ".join(c.text for c in decks.cards.values()).upper()
    for word in ("MINOTAUR", "MEDUSA", "PTERODACTYL", "CYCLOPS", "PAN", "UNICORN", "RATTLE SNAKE",
                 "PEGASUS", "BOW", "SWORD", "FEATHER", "SHRINKING POTION", "ROPE", "MIRROR", "HEAD OF MEDUSA"):
        assert word in texts
    assert data_path("cretan_labyrinth.toml").endswith("cretan_labyrinth.toml")


BOARD_OK = '''name = "tiny"
[colours]
R = "red"
[board]
map = """
. 2 2 .
R P . .
. 1 1 .
"""
'''


def test_a_users_board_file_by_option(tmp_path: Path) -> None:
    """'... an owner of the printed game can describe theirs' (issue 7): option ``board``."""
    board = parse_board(BOARD_OK, "tiny.toml")
    assert board.names[board.gateways[0]] == "gate1" and board.width == 4 and board.height == 3
    path = tmp_path / "tiny.toml"
    path.write_text(BOARD_OK)
    decks = tmp_path / "decks.toml"
    decks.write_text(Path(data_path("cretan_decks.toml")).read_text())
    game = get_game("cretan-labyrinth", board=str(path), decks=str(decks))
    assert [p.square for p in game.new_state(2).pieces()] == ["gate1", "gate2"]
    with pytest.raises(OptionError, match="2 gateways"):
        game.new_state(3)
    with pytest.raises(BoardDataError, match="cannot read the file"):
        get_game("cretan-labyrinth", board=str(tmp_path / "missing.toml"))


@pytest.mark.parametrize(
    ("change", "line", "reason"),
    [
        (("R P . .", "R P Q ."), 7, "square c2 (column 3): unknown mark 'Q'"),
        (("R P . .", "R P ."), 7, "this row has 3 squares, the first row 4"),
        ((". 1 1 .", ". 1 P ."), 8, "the palace (P) must be one filled rectangle"),
        ((". 1 1 .", ". . . ."), 5, "gateway 2 is drawn but gateway 1 is missing"),
        ((". 2 2 .", ". . . ."), 5, "the map needs at least two gateways"),
        ((". 2 2 .", ". 3 3 ."), 5, "gateway 3 is drawn but gateway 2 is missing"),
        (('R = "red"', 'R = "Red"'), 3, "must be a lower-case name"),
        (('R = "red"', 'P = "red"'), 3, "must be one capital letter other than P"),
        (("[board]", "[board]\nsize = 3"), 5, "unknown key 'size' in [board]"),
        (('name = "tiny"', 'name = "tiny'), 1, "not valid TOML"),
    ],
)
def test_board_file_errors_name_the_line_and_reason(change: tuple[str, str], line: int, reason: str) -> None:
    text = BOARD_OK.replace(*change)
    with pytest.raises(BoardDataError) as info:
        parse_board(text, "my-board.toml")
    err = info.value
    assert err.path == "my-board.toml" and err.line == line and reason in err.reason, str(err)


def test_a_gateway_must_touch_the_edge() -> None:
    text = '[colours]\nR = "red"\n[board]\nmap = """\n. . . . .\n. 1 . 2 .\n. . P . .\n. . . . .\n"""\n'
    with pytest.raises(BoardDataError, match=r"my.toml:6: gateway 1 must touch the edge"):
        parse_board(text, "my.toml")


DECKS_OK = '''colours = ["red"]

[[direction]]
id = "north"
text = "Go north"
go = "north"

[[red]]
id = "red-diamond"
count = 2
text = "A red diamond"
effect = "diamond"

[[red]]
id = "red-bow"
text = "A bow"
effect = "item"
item = "bow"
'''


@pytest.mark.parametrize(
    ("change", "line", "reason"),
    [
        (('effect = "diamond"', 'effect = "treasure"'), 12, "effect must be one of"),
        (('item = "bow"', 'item = "spear"'), 18, "item must be one of"),
        (('id = "red-bow"', 'id = "red-diamond"'), 15, "the id is used twice"),
        (('go = "north"', 'go = "up"'), 6, "go must be north, east, south, west or any"),
        (('effect = "diamond"', 'effect = "diamond"\nhelped-by = ["bow"]'), 13, "is not a danger"),
        (('effect = "diamond"', 'effect = "lose-turns"'), 12, "turns must be a whole number 1 to 9"),
        (('count = 2', 'count = 0'), 10, "count must be a whole number 1 to 20"),
        (('text = "Go north"', 'txt = "Go north"'), 5, "unknown key 'txt'"),
        (('colours = ["red"]', 'colours = ["red", "blue"]'), None, "the blue deck needs at least one"),
        (('effect = "diamond"', 'effect = "item"\nitem = "rope"'), 8, "holds only tools and weapons"),
    ],
)
def test_deck_file_errors_name_the_card_line_and_reason(change: tuple[str, str], line: int | None, reason: str) -> None:
    text = DECKS_OK.replace(*change)
    with pytest.raises(BoardDataError) as info:
        parse_decks(text, "my-decks.toml")
    err = info.value
    assert err.path == "my-decks.toml" and err.line == line and reason in err.reason, str(err)


def test_board_colours_need_decks(tmp_path: Path) -> None:
    board = tmp_path / "b.toml"
    board.write_text(BOARD_OK.replace('R = "red"', 'R = "purple"'))
    with pytest.raises(BoardDataError, match="purple spaces but the decks file"):
        get_game("cretan-labyrinth", board=str(board))


# ------------------------------------------------------------------------------ JSON


def test_positions_survive_their_json_form_and_bad_ones_are_named() -> None:
    state = moving(["d1", "e6"], 3, "north", pieces=[{"square": "d1", "items": ["red-bow"]}, {"square": "e6", "key": True}])
    play(state, "d1-d4")
    play(state, "attack Player 2")
    data = state.to_dict()
    again = state_from_dict(data)
    assert again.to_dict() == data and again.legal_moves() == state.legal_moves()
    bad = dict(data, decks=dict(data["decks"], red={"unseen": [], "returned": []}))
    with pytest.raises(PositionError, match="missing: red-cave-in"):
        state_from_dict(bad)
    bad = dict(data, pieces=[dict(data["pieces"][0], square="z9"), data["pieces"][1]])
    with pytest.raises(PositionError, match=r"pieces\[0\].square: no square 'z9'"):
        state_from_dict(bad)
    with pytest.raises(PositionError, match="pending"):
        state_from_dict(dict(data, pending=[["land", 1], ["end-turn"]], battle=None))


def test_illegal_moves_are_refused_with_the_legal_ones_named() -> None:
    state = moving(["d1", "a12"], 5, "north")
    with pytest.raises(IllegalMoveError, match="legal: d1-d2, d1-d3, d1-d6"):
        state.parse_move("d1-d5")


# ------------------------------------------------------------------ property tests


def _card_total(state: CretanLabyrinthState) -> Counter[str]:
    found: Counter[str] = Counter()
    for deck in state.decks.values():
        found.update(deck.unseen)
        found.update(deck.returned)
    found.update(state.cards_held())
    return found


ALL_CARDS: Counter[str] = Counter(c for cards in GAME.decks.contents.values() for c in cards)


@settings(max_examples=25, deadline=None)
@given(players=st.integers(min_value=2, max_value=4), seed=st.integers(min_value=0, max_value=2**32 - 1),
       keys=st.sampled_from([1, 4]))
def test_random_games_keep_every_card_diamond_and_key_and_end(players: int, seed: int, keys: int) -> None:
    """Throw and draw outcomes sum to 1; every card is in a deck, a hand or in play; at most
    one diamond of each colour per player; one Magic Key at most (four with the
    footnote's option); a position not over has a throw due or a legal move (or pass);
    and with the round-limit option every random game ends."""
    rng = random.Random(seed)
    game = get_game("cretan-labyrinth", round_limit=25, magic_keys=keys)
    state = game.new_state(players)
    assert isinstance(state, CretanLabyrinthState)
    for n in range(20_000):
        assert _card_total(state) == ALL_CARDS
        assert all(len(d) <= 4 and d <= set(FOUR) for d in state.diamonds)
        assert sum(state.keys) <= (1 if keys == 1 else players)
        phase = state.phase
        if phase is Phase.OVER:
            assert state.outcome is not None and state.outcome.winners
            return
        if phase is Phase.THROW:
            outcomes = state.throw_outcomes()
            assert sum((p for _, p in outcomes), Fraction(0)) == 1
            assert state.legal_moves() == ()
            assert state.throw_spec is not None
        else:
            moves = state.legal_moves()
            assert moves and len({m.notation for m in moves}) == len(moves)
        state.apply(random_action(state, rng.randrange))
        if n % 50 == 0:
            assert game.state_from_dict(state.to_dict()).to_dict() == state.to_dict()
        if n == 300:  # the journal replays exactly: throws and draws are the only chance
            again = game.new_state(players)
            for action in state.history:
                again.apply(action)
            assert again.to_dict() == state.to_dict()
    raise AssertionError("the game did not end")


def test_the_example_position_of_the_docs_plays_as_described() -> None:
    """docs/positions.md, section cretan-labyrinth: the example and what it says."""
    import json

    text = (Path(__file__).parents[2] / "docs" / "positions.md").read_text()
    section = text[text.index("## `cretan-labyrinth`"):]
    block = section[section.index("```json") + len("```json"):]
    state = state_from_dict(json.loads(block[: block.index("```")]))
    assert isinstance(state, CretanLabyrinthState)
    assert notations(state) == ["d1-d2", "d1-d3", "d1-d4", "d1-d5", "d1-d6"]
    play(state, "d1-d5")
    assert notations(state) == ["attack Player 2", "no-attack"]
    play(state, "attack Player 2")
    assert play(state, "show bow")[-2:] == [
        "Player 1 defeats Player 2 and takes the Magic Key", "Player 1 takes another turn",
    ]


def test_a_new_game_builds_its_walks_without_leaving_garbage_for_the_collector() -> None:
    """A board's walks (every walk of four players: some 6,500 distinct ones) are built
    once: what the build does not keep must be freed as it goes, not left in reference
    cycles for a full collection (which stops the screen's loop) to find. 400,000
    objects were left so once."""
    import gc

    from companion.rules.cretan_labyrinth.tables import BoardTables

    game = CretanLabyrinth()
    tables = BoardTables(game.board)  # its own, not the board's shared tables: built now
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        tables.walks(game.seats(4), 6)
        left = gc.collect()
    finally:
        if enabled:
            gc.enable()
    assert tables.walks_made > 5_000  # the walks were found now
    assert left < 1_000


def test_games_on_one_board_share_its_walks_so_a_second_game_costs_nothing_to_set_up(tmp_path: Path) -> None:
    """Reading a journal back (the publisher, the spectator page, ``companion journal``)
    makes a new game object each time: the board's walks are found once per process and
    board, not once per game object (that was 0.1-0.45 s of CPU and 47,000 objects a read)."""
    first, second = CretanLabyrinth(), CretanLabyrinth(**{"keeper-near-start": "stop"})
    first.new_state(4)
    made = first.tables.walks_made
    second.new_state(4)
    assert second.tables is first.tables and second.tables.walks_made == made
    assert second.prepare(4) is first.prepare(4)
    (tmp_path / "tiny.toml").write_text(BOARD_OK)
    other = CretanLabyrinth(board=str(tmp_path / "tiny.toml"))
    assert other.tables is not first.tables


def test_the_walk_tables_hold_what_walking_the_board_finds() -> None:
    """Every walk of the tables (each player of 2, 3 and 4, square, direction card and
    distance, one and two distance dice) is the one walking the board step by step finds
    (``_find_stops``, which still finds the walks that meet the keeper): the same stops
    in the same order, legal moves, blank squares crossed and nodes visited."""
    from companion.rules.cretan_labyrinth.base import STAGE_MOVE

    for dice in (1, 2):
        game = CretanLabyrinth(**{"distance-dice": dice})
        cards = {c.go: cid for cid, c in game.decks.cards.items() if c.deck == "direction"}
        assert len(cards) == 5
        for players in (2, 3, 4):
            table = game.prepare(players)
            state = CretanLabyrinthState(game, players)
            state.stage = STAGE_MOVE
            for p in range(players):
                state.turn = p
                for node in range(len(game.board.names)):
                    state.pos[p] = node
                    for card in (*cards.values(), None):
                        state.direction = card
                        for distance in range(6 * dice + 1):
                            state.distance = distance
                            blanks: list[int] = []
                            visited: list[int] = []
                            stops = state._find_stops(blanks, visited, free=True)
                            walk = table[p][node][game._go_index[card]][distance]
                            assert list(walk[0].items()) == list(stops.items())
                            assert walk == state._walk_of(
                                stops,
                                tuple(b for b in dict.fromkeys(blanks) if b not in stops),
                                tuple(dict.fromkeys(visited)),
                            )


def test_the_keepers_walks_found_along_the_tables_are_those_walking_the_board_finds() -> None:
    """Key rule 7 ('If the keeper of the Magic Key passes within two spaces of another
    player then [he] must stop and do battle ... as soon as [he] comes within range'):
    the keeper's walks cut short along the tables' traces (``_met_stops``) are the walks
    found step by step, stops and battles alike, in random positions of 2-4 players, with
    either reading of a keeper starting near a player and one or two distance dice."""
    import random

    from companion.rules.cretan_labyrinth.base import STAGE_MOVE

    rng = random.Random(25)
    battles = 0
    for options in ({}, {"keeper-near-start": "stop"}, {"distance-dice": 2}):
        game = CretanLabyrinth(**options)
        cards = [cid for cid, c in game.decks.cards.items() if c.deck == "direction"]
        nodes = len(game.board.names)
        for players in (2, 3, 4):
            game.prepare(players)
            for _ in range(700):
                state = CretanLabyrinthState(game, players)
                state.stage = STAGE_MOVE
                p = state.turn = rng.randrange(players)
                state.keys[p] = True
                state.pos = [rng.randrange(nodes) for _ in range(players)]
                state.direction = rng.choice([*cards, None])
                state.distance = rng.randint(game.distance_dice.count, 6 * game.distance_dice.count)
                walked = state._find_stops()
                assert list(state._met_stops(game._go_index[state.direction]).items()) == list(walked.items())
                battles += any(q >= 0 for q in walked.values())
    assert battles > 500  # the walks met other players often


def test_events_made_on_the_fast_path_are_events_like_any_other() -> None:
    """A move's event is built without the dataclass's __init__ (see state._event): it
    compares, hashes, prints and pickles as an event made the ordinary way."""
    import pickle

    from companion.rules.core import Event
    from companion.rules.cretan_labyrinth.base import _event

    fast = _event("moved", 1, "a1", "b2")
    plain = Event("moved", 1, src="a1", dst="b2")
    assert fast == plain and hash(fast) == hash(plain) and repr(fast) == repr(plain) and str(fast) == str(plain)
    assert pickle.loads(pickle.dumps(fast)) == plain


def test_moves_made_on_the_fast_path_are_moves_like_any_other() -> None:
    """Pegasus's and a walk's moves are built without the dataclass's __init__ (see
    tables._new_move): they compare, hash, print and read back as moves made the ordinary way."""
    from companion.rules.core import Move
    from companion.rules.cretan_labyrinth.tables import _new_move

    fast = _new_move("fly", "a1", "palace")
    plain = Move("fly", "a1", "palace")
    assert fast == plain and hash(fast) == hash(plain) and repr(fast) == repr(plain)
    assert fast.notation == plain.notation and {fast: 1}[plain] == 1


def test_the_board_tables_hold_the_boards_distances() -> None:
    """The tables' distances (built in one pass) are the board's, for every two squares."""
    board = GAME.board
    tables = GAME.tables
    nodes = range(len(board.names))
    for a in nodes:
        assert tables.reach_table[a] == tuple(board.reach(a, b) for b in nodes)
        assert tables.gap_table[a] == tuple(board.gap(a, b) for b in nodes)
        assert tables.near[a] == {b for b in nodes if board.reach(a, b) <= 2}


def test_decks_made_on_the_fast_path_are_decks_like_any_other() -> None:
    """The state rebuilds its decks without the dataclass's __init__ (see state._deck):
    they compare, hash and print as decks made the ordinary way."""
    from companion.rules.cretan_labyrinth.base import _deck
    from companion.rules.throws import Deck

    fast = _deck("red", ("red-bow", "red-pit"), ("red-sword",))
    plain = Deck("red", ("red-bow", "red-pit"), ("red-sword",))
    assert fast == plain and hash(fast) == hash(plain) and repr(fast) == repr(plain)
    assert {fast: 1}[plain] == 1
