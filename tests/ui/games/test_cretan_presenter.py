"""What the Cretan Labyrinth's presenter shows: every player's inventory
(``status_lines``), the throw screen's short form (``status_brief``) and the question
above each choice (``prompt``), all in lines of the 128-pixel panel (21 characters)."""

from __future__ import annotations

import random

import pytest

from companion.ai.cretan_goal import goal_seeking_choice
from companion.rules import Phase, get_game, random_action
from companion.rules.cretan_labyrinth import CretanLabyrinthState
from companion.rules.cretan_labyrinth.tasks import END_TURN, Fight
from companion.ui.events.cretan_labyrinth import square_word
from companion.ui.games import presenter_for
from companion.ui.render import columns

LINE = columns(128)
"""Characters a line on the 128-pixel panel (21)."""
SHOWN = presenter_for("cretan-labyrinth", LINE)


def _new(players: int = 2, **options: object) -> CretanLabyrinthState:
    state = get_game("cretan-labyrinth", **options).new_state(players)
    assert isinstance(state, CretanLabyrinthState)
    return state


def test_status_lists_each_players_square_diamonds_key_tools_and_lost_turns() -> None:
    state = _new(3)
    state.diamonds[1] = {"yellow", "red", "green", "blue"}
    state.keys[1] = True
    state.items[1] = ["yellow-sword", "blue-head", "green-bow"]
    state.lost[2] = 2
    lines = SHOWN.status_lines(state)
    start = lines.index(f"Player 2 at {square_word(state.square(1))}")
    assert lines[start + 1:start + 5] == [
        "- diamonds: red green",  # the deck file's order of colours
        "  blue yellow",
        "- Magic Key",
        "- tools: bow sword",  # the weapon table's order
    ]
    assert lines[start + 5] == "  Medusa-head"
    assert lines[lines.index(f"Player 1 at {square_word(state.square(0))}") + 1] == "- diamonds: none"
    assert "- loses 2 turns" in lines
    assert "Magic Key: in palace" not in lines  # Player 2 has it
    assert all(len(line) <= LINE for line in lines)


def test_the_throw_screen_shows_only_what_the_player_to_act_holds() -> None:
    state = _new(2)
    state.stage = "distance"
    state.turn = 0
    assert SHOWN.status_brief(state) == ["Has: nothing yet"]
    state.diamonds[0] = {"red", "green", "blue", "yellow"}
    state.items[0] = ["yellow-sword", "blue-head", "green-bow", "red-bow", "yellow-rope", "blue-mirror"]
    state.keys[1] = True
    brief = SHOWN.status_brief(state)
    assert brief[0] == "Has: red green blue"
    assert brief[1].endswith("...") and len(brief) == 3  # two lines at most, then the keeper
    assert brief[2] == "Player 2 has the key"
    assert all(len(line) <= LINE for line in brief)
    state.stage = "direction"  # later in the turn: nothing (the last move shows instead)
    assert SHOWN.status_brief(state) == []


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_text_fits_a_line_and_every_decision_asks_a_question(players: int) -> None:
    """Goal-seeking and random games: each position's texts fit the panel; a question
    is asked whenever a choice is due, none while a throw is."""
    seen: set[str] = set()
    for seed in range(3):
        state = _new(players, round_limit=60)
        rng = random.Random(seed)
        while state.phase is not Phase.OVER:
            assert all(len(line) <= LINE for line in SHOWN.status_lines(state))
            brief = SHOWN.status_brief(state)
            assert len(brief) <= 3 and all(len(line) <= LINE for line in brief)
            question = SHOWN.prompt(state)
            assert len(question) <= LINE
            if state.throw_spec is not None:
                assert question == ""
                state.apply(random_action(state, rng.randrange))
                continue
            moves = state.legal_moves()
            if moves[0].kind != "pass":
                assert question, moves
                seen.add(question.split("?")[0].split("!")[0])
            if seed % 2 == 0:
                state.apply(moves[goal_seeking_choice(state, moves)])
            else:
                state.apply(random_action(state, rng.randrange))
    assert any(q.startswith("Stop where") for q in seen)


def test_the_move_question_gives_the_distance_and_the_direction() -> None:
    state = _new(2)
    state.stage = "move"
    state.turn = 0
    state.distance = 5
    state.direction = "east"
    assert SHOWN.prompt(state) == "Stop where? 5 east"
    state.direction = "any-way"
    assert SHOWN.prompt(state) == "Stop where? 5 any way"


def test_battle_questions_name_the_other_fighter() -> None:
    state = _new(2)
    state.items[0] = ["yellow-sword"]
    state.items[1] = ["green-bow"]
    state.keys[1] = True
    state.stage = "resolve"
    state.turn = 0
    state.queue = [Fight(0, 1, False), END_TURN]
    state._run([])
    assert state.current_player == 0 and SHOWN.prompt(state) == "You attack P2! Show:"
    state.apply(state.parse_move("show sword"))
    assert state.current_player == 1 and SHOWN.prompt(state) == "P1 attacks you! Show:"


def test_status_says_a_player_out_of_the_game_is_out_and_nothing_more() -> None:
    """Option ``minotaur=out`` (D30): a player the Minotaur took out holds nothing and has
    no square; the status says so in one line, in English and in German."""
    from companion.i18n import set_language

    state = _new(3, minotaur="out")
    state.out[1] = True
    lines = SHOWN.status_lines(state)
    assert "Player 2 is out" in lines and not any(line.startswith("Player 2 at") for line in lines)
    assert lines[lines.index("Player 2 is out") + 1] == f"Player 3 at {square_word(state.square(2))}"
    set_language("de")
    try:
        assert "Spieler 2 ist raus" in SHOWN.status_lines(state)
    finally:
        set_language("en")


def test_the_inventories_page_and_a_card_picture_speak_german() -> None:
    """Issue 31: the inventories page said "rope sword Medusa-head; loses 2 turns" and the
    throw picture a direction card's deck key ("any-way") on German screens."""
    from companion.i18n import set_language
    from companion.ui.games.boards.cretan_labyrinth import _blocks, board_model

    state = _new(2)
    state.items[0] = ["red-rope", "yellow-sword", "blue-head"]
    state.lost[0] = 2
    set_language("de")
    try:
        rows = [row for block in _blocks(board_model(state), 128) for row, _side in block if row != "head"]
        text = " ".join(" ".join(rows).split())
        assert "Seil" in text and "Schwert" in text and "setzt 2 Runden aus" in text
        assert not {"rope", "sword", "Medusa-head", "loses"} & set(text.replace(";", " ").split())
        assert SHOWN.face_words(state, "any-way") == "beliebig"
        assert SHOWN.face_words(state, "blue-pegasus") == "Pegasus"
    finally:
        set_language("en")
    assert SHOWN.face_words(state, "north") == "north"
