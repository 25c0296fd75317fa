"""The Minotaur's two readings in the Cretan Labyrinth (seed ``004_fc892f1937d88e90.txt``,
docs/rules/cretan-labyrinth.md D30): the default ``minotaur=quest`` (a quest ends) and
the option ``minotaur=out`` (the player leaves the game).

Each test's docstring quotes the sentence of the seed it checks, then the negative case
where there is one. The board is the default one (drawn in ``test_cretan_labyrinth.py``);
``e10`` is a red space one step north of ``e9``.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from spoken import said

from companion.rules import Phase, PieceZone, PositionError, get_game, random_action
from companion.rules.cretan_labyrinth import CretanLabyrinth, CretanLabyrinthState

QUEST = CretanLabyrinth()
OUT = CretanLabyrinth(minotaur="out")


def position(game: CretanLabyrinth, players: int, **body: Any) -> CretanLabyrinthState:
    data = {"game": "cretan-labyrinth", "version": 1, "players": players, **body}
    state = game.state_from_dict(data)
    assert isinstance(state, CretanLabyrinthState)
    return state


def met(game: CretanLabyrinth, pieces: list[Any], **body: Any) -> tuple[CretanLabyrinthState, list[str]]:
    """Player 1 (on ``e9``, the first of ``pieces``) moves to the red ``e10`` and draws
    the red Minotaur; the position and the events of the draw."""
    state = position(game, len(pieces), stage="move", distance=1, direction="north", pieces=pieces, **body)
    state.apply(state.parse_move("e9-e10"))
    return state, draw(state, "red-minotaur")


def draw(state: CretanLabyrinthState, face: str) -> list[str]:
    """The throw (a die's value, a card's id) due in ``state``; the events."""
    spec = state.throw_spec
    assert spec is not None, state.describe()
    return said(state, state.apply(spec.parse(face)))


def test_met_without_defense_the_player_leaves_the_game_by_option() -> None:
    """MINOTAUR: 'If you meet him without defense, you can kiss your life good-by.'
    With ``minotaur=out`` the player leaves the game: the piece leaves the board, the
    diamonds are lost, the tools and weapons go back to the bottom of their decks, and
    the turn passes to the next player still in the game."""
    pieces = [{"square": "e9", "diamonds": ["blue", "green"], "items": ["yellow-rope"]},
              {"square": "a1"}, {"square": "l12"}]
    state, events = met(OUT, pieces)
    assert events[1:] == ["Player 1 is killed and leaves the game", "Player 2's turn"]
    assert state.out == [True, False, False]
    assert state.pieces()[0].zone is PieceZone.OFF and state.pieces()[0].square is None
    assert state.diamonds[0] == set() and state.items[0] == []
    assert state.decks["red"].returned[-1] == "red-minotaur"
    assert state.decks["yellow"].returned[-1] == "yellow-rope"
    assert state.outcome is None and state.in_game() == [1, 2]


def test_met_without_defense_the_quest_ends_by_default() -> None:
    """The negative case: by default (``minotaur=quest``) the Minotaur ends the quest,
    not the player: back to the own gateway, diamonds lost, the tools kept, still in
    the game."""
    pieces = [{"square": "e9", "diamonds": ["blue", "green"], "items": ["yellow-rope"]},
              {"square": "a1"}, {"square": "l12"}]
    state, events = met(QUEST, pieces)
    assert "Player 1 is killed: back to the gateway, diamonds lost" in events
    assert state.out == [False, False, False] and state.square(0) == "gate1"
    assert state.diamonds[0] == set() and state.items[0] == ["yellow-rope"]
    assert state.pieces()[0].zone is PieceZone.BOARD


def test_a_helping_weapon_still_averts_him() -> None:
    """'If you meet him without defense': with a bow or a sword the Minotaur is averted
    (rule 15) under either reading; facing him without it takes the player out."""
    pieces = [{"square": "e9", "items": ["red-bow"]}, {"square": "a1"}, {"square": "l12"}]
    state, _ = met(OUT, pieces)
    assert [m.notation for m in state.legal_moves()] == ["avert bow", "face-danger"]
    averted = state.copy()
    averted.apply(averted.parse_move("avert bow"))
    assert isinstance(averted, CretanLabyrinthState) and averted.out == [False, False, False]
    state.apply(state.parse_move("face-danger"))
    assert state.out[0] and state.decks["red"].returned[-1] == "red-bow"


def test_the_turn_order_skips_a_player_out_of_the_game() -> None:
    """'Each player then takes their turn in sequence clockwise around the table': a
    player out of the game has no turn any more, and no lost turn is taken from them."""
    pieces = [{"square": "e9"}, {"square": "c5", "out": True}, {"square": "l12", "lost_turns": 1},
              {"square": "l1"}]
    state = position(OUT, 4, stage="move", distance=1, direction="north", pieces=pieces)
    state.apply(state.parse_move("e9-e10"))
    events = draw(state, "red-diamond")
    assert events[-2:] == ["Player 3 loses a turn", "Player 4's turn"]
    draw(state, "1")
    draw(state, "south")  # Player 4 on l1 cannot go south
    assert said(state, state.apply(state.parse_move("pass")))[-1] == "Player 1's turn"


def test_a_player_taken_out_on_their_turn_leaves_the_others_landing_to_finish() -> None:
    """'Even if a player is transported to another space when it's not their turn (this
    happens with the unicorn sometimes), that player must take a card. In this case if
    the two players are taking the same color card the player who's turn it is draws
    first.' The player whose turn it is draws the Minotaur and leaves; the player the
    unicorn moved still lands and draws, the position between (the turn still the
    leaver's) is one a game reaches and its JSON is read back; then the turn passes."""
    pieces = [{"square": "d9"}, {"square": "c5", "items": ["blue-mirror"]}, {"square": "k4"}]
    state = position(OUT, 3, stage="move", distance=1, direction="north", pieces=pieces)
    state.apply(state.parse_move("d9-d10"))  # yellow
    draw(state, "yellow-unicorn")
    state.apply(state.parse_move("swap Player 2"))  # Player 1 to the red c5, Player 2 to d10
    assert draw(state, "red-minotaur")[1:] == ["Player 1 is killed and leaves the game"]
    draw(state, "yellow-medusa")
    assert state.turn == 0 and state.current_player == 1 and state.out[0]
    assert [m.notation for m in state.legal_moves()] == ["avert mirror", "face-danger"]
    again = OUT.state_from_dict(state.to_dict())
    assert again.to_dict() == state.to_dict()
    events = said(state, state.apply(state.parse_move("avert mirror")))
    assert events[-1] == "Player 2's turn" and state.turn == 1


def test_the_magic_key_of_a_player_who_leaves_goes_back_to_the_palace() -> None:
    """'There is only one magic key': it is 'the Magic Key in the key chamber located in
    the great palace' until somebody hands in the diamonds for it. A keeper the Minotaur
    takes out leaves it where a key nobody holds is: in the palace, for the next player
    there with four diamonds."""
    pieces = [{"square": "e9", "key": True}, {"square": "a1", "diamonds": ["red"]}, {"square": "l12"}]
    state, events = met(OUT, pieces)
    assert events[1:3] == ["Player 1 is killed and leaves the game", "The Magic Key goes back to the palace"]
    assert state.keys == [False, False, False] and state.keeper() is None
    assert state.key_available(1) and state.key_available(2)


def test_the_last_player_left_wins() -> None:
    """'... you each must use all of your cunning and strength to escape the deadly magic
    maze alive!': when the Minotaur has taken out all but one, that one has won (D30)."""
    pieces = [{"square": "e9"}, {"square": "c5", "out": True}, {"square": "l12"}]
    state, events = met(OUT, pieces)
    assert events[-2:] == ["Player 1 is killed and leaves the game",
                           "Player 3 is the last one left in the labyrinth and wins!"]
    assert state.phase is Phase.OVER and state.outcome is not None
    assert state.outcome.winners == (2,) and state.outcome.reason == "the last player left in the labyrinth"


def test_a_two_player_game_ends_at_once_when_one_is_out() -> None:
    """With two players the first taken out leaves the other the last one left: the game
    ends at once, also when the one taken out drew out of turn; with the default reading
    it goes on."""
    state, events = met(OUT, [{"square": "e9"}, {"square": "a1"}])
    assert events[-1] == "Player 2 is the last one left in the labyrinth and wins!"
    assert state.outcome is not None and state.outcome.winners == (1,)
    state, _ = met(QUEST, [{"square": "e9"}, {"square": "a1"}])
    assert state.outcome is None and state.turn == 1
    # Out of turn: Player 1 changes places with Player 2 (the unicorn), who lands on the
    # blue c8 and draws the Minotaur there; Player 1, whose turn it is, wins at once.
    state = position(OUT, 2, stage="move", distance=1, direction="south", pieces=[{"square": "c9"}, {"square": "e9"}])
    state.apply(state.parse_move("c9-c8"))  # blue
    draw(state, "blue-unicorn")
    state.apply(state.parse_move("swap Player 2"))  # Player 1 to the blank e9: no card
    assert draw(state, "blue-minotaur")[1:] == [
        "Player 2 is killed and leaves the game", "Player 1 is the last one left in the labyrinth and wins!",
    ]
    assert state.outcome is not None and state.outcome.winners == (0,)


def test_nobody_changes_places_with_a_player_out_of_the_game() -> None:
    """UNICORN: 'This creature will lure you ... and then ZAP!' -- a player out of the game
    has no piece on the board to change places with."""
    for game, out, targets in ((OUT, True, ["swap Player 3"]), (QUEST, False, ["swap Player 2", "swap Player 3"])):
        pieces = [{"square": "d9"}, {"square": "c5", "out": out}, {"square": "k4"}]
        state = position(game, 3, stage="move", distance=1, direction="north", pieces=pieces)
        state.apply(state.parse_move("d9-d10"))  # yellow
        draw(state, "yellow-unicorn")
        assert [m.notation for m in state.legal_moves()] == targets


def test_a_keeper_is_not_stopped_by_a_player_out_of_the_game() -> None:
    """Key rule 7: 'If the keeper of the Magic Key passes within two spaces of another
    player then player must stop and do battle' -- a player out of the game is no longer
    on the board to stop the keeper."""
    for game, out in ((OUT, True), (QUEST, False)):
        pieces = [{"square": "e5", "key": True}, {"square": "c10", "out": out}, {"square": "l1"}]
        state = position(game, 3, stage="move", distance=4, direction="north", pieces=pieces)
        battles = {str(state.game.board.names[n]): q for n, q in state.stops().items() if q >= 0}
        assert battles == ({} if out else {"e8": 1})


def test_the_round_limit_leaders_are_among_the_players_still_in() -> None:
    """D27's round limit: the leaders share the win -- only players still in the game."""
    game = CretanLabyrinth(minotaur="out", round_limit=1)
    pieces = [{"square": "e9"}, {"square": "c5", "out": True}, {"square": "l12"}]
    state = position(game, 3, stage="move", distance=1, direction="east", pieces=pieces, turns=3)
    state.apply(state.parse_move("e9-f9"))  # blank: the turn ends
    assert state.outcome is not None and state.outcome.winners == (0, 2)


def test_positions_with_a_player_out_survive_their_json_form_and_impossible_ones_are_named() -> None:
    """docs/positions.md: ``out`` per piece. A player out of the game holds nothing,
    never holds the turn and has no task pending; at least two players are in while play
    goes on; nobody is out without the option."""
    pieces = [{"square": "e9"}, {"square": "c5", "out": True}, {"square": "l12"}]
    state = position(OUT, 3, pieces=pieces)
    data = state.to_dict()
    assert [p["out"] for p in data["pieces"]] == [False, True, False]
    again = OUT.state_from_dict(data)
    assert again.to_dict() == data and again.position_key() == state.position_key()

    def refused(game: CretanLabyrinth, key: str, message: str, players: int = 3, **body: Any) -> None:
        with pytest.raises(PositionError) as err:
            position(game, players, **body)
        assert err.value.where == key and message in str(err.value)

    refused(OUT, "turn", "Player 2 is out of the game but holds the turn", pieces=pieces, turn=2)
    refused(OUT, "turn", "Player 2 is out of the game but holds the turn", pieces=pieces, turn=2,
            stage="move", distance=1, direction="north")
    refused(OUT, "pieces[1]", "out of the game yet holds",
            pieces=[{"square": "e9"}, {"square": "c5", "out": True, "diamonds": ["red"]}, {"square": "l12"}])
    refused(QUEST, "pieces[1].out", "unless the option minotaur is out", pieces=pieces)
    refused(OUT, "pieces", "only Player 1 is left in the game", players=2,
            pieces=[{"square": "e9"}, {"square": "c5", "out": True}])
    refused(OUT, "pending[0]", "for Player 2, who is out of the game", pieces=pieces, stage="resolve",
            distance=1, direction="north", pending=[["draw", 2, "red"], ["end-turn"]])
    refused(OUT, "winners", "the last player left in the game: Player 1", players=2, stage="over",
            pieces=[{"square": "e9"}, {"square": "c5", "out": True}], winners=[2])
    over = position(OUT, 2, stage="over", pieces=[{"square": "e9"}, {"square": "c5", "out": True}], winners=[1])
    assert over.outcome is not None and over.outcome.winners == (0,)


@settings(max_examples=24, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32 - 1))
def test_random_games_with_players_out_end_and_the_out_never_act(players: int, seed: int) -> None:
    """Random games with ``minotaur=out``: the game ends (the last one left, an escape,
    or the round limit); a player once out stays out, holds nothing, never is the player
    to act and never is the subject of an event again; every card stays in the game; and
    every position with a player out is read back from its JSON (the reader refuses
    none a game reaches)."""
    rng = random.Random(seed)
    game = get_game("cretan-labyrinth", minotaur="out", round_limit=40)
    state = game.new_state(players)
    assert isinstance(state, CretanLabyrinthState)
    cards = Counter(c for cs in state.game.decks.contents.values() for c in cs)
    out: set[int] = set()
    for n in range(40_000):
        assert {p for p in range(players) if state.out[p]} >= out
        out = {p for p in range(players) if state.out[p]}
        for p in out:
            assert not (state.diamonds[p] or state.items[p] or state.keys[p] or state.lost[p])
        found: Counter[str] = state.cards_held()
        for deck in state.decks.values():
            found.update(deck.unseen)
            found.update(deck.returned)
        assert found == cards
        if state.phase is Phase.OVER:
            assert state.outcome is not None and state.outcome.winners
            assert not set(state.outcome.winners) & out
            if len(out) == players - 1:
                assert state.outcome.winners == tuple(state.in_game())
            assert game.state_from_dict(state.to_dict()).to_dict() == state.to_dict()
            return
        assert len(out) <= players - 2
        assert state.current_player not in out
        events = state.apply(random_action(state, rng.randrange))
        assert all(e.player not in out for e in events)
        if out or n % 97 == 0:  # once someone is out, every position is read back
            assert game.state_from_dict(state.to_dict()).to_dict() == state.to_dict()
    raise AssertionError("the game did not end")
