"""The Game of the Labyrinth's events as data and in words (issue 31): the rules return
kinds, players, fields and values, never a sentence; ``LabyrinthWords`` says each kind
in English (the sentence the rules once wrote) and in German, also the kinds no
random game of the built-in board makes (a piece sent back outside the entrance, a
trap of one or three turns)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from companion.i18n import set_language
from companion.rules import Event, Phase, get_game, random_action
from companion.rules.core import EV_SWAPPED, EV_THROWN, EV_TRAPPED
from companion.speech.cues import Said, voice_for
from companion.ui.events import words_for
from companion.ui.events.labyrinth import LabyrinthWords

WORDS = LabyrinthWords(["Red", "Blue"])


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    set_language("en")
    yield
    set_language("en")


def test_every_event_of_random_games_is_data_and_survives_the_journal() -> None:
    """No sentence, only values; each event reads back from its JSON as it was."""
    game = get_game("labyrinth")
    kinds: set[str] = set()
    for seed in range(3):
        state = game.new_state(3)
        rng = random.Random(seed)
        while state.phase is not Phase.OVER:
            for event in state.apply(random_action(state, rng.randrange)):
                kinds.add(event.kind)
                assert all(isinstance(v, int | bool | tuple) for v in event.args.values()), event
                assert Event.from_json(event.to_json()) == event
    assert len(kinds) > 15


def test_the_game_names_its_words() -> None:
    state = get_game("labyrinth").new_state(2)
    assert isinstance(words_for(state), LabyrinthWords)


def test_a_piece_sent_back_outside_the_entrance_is_said_so() -> None:
    """On a user's board whose field 1 is no sanctuary, a piece entering there sends its
    occupant back where the newcomer came from: outside (``dst`` ``None``)."""
    mine = Event(EV_SWAPPED, 0, src=1, dst=None, args={"other": 0})
    theirs = Event(EV_SWAPPED, 0, src=1, dst=None, args={"other": 1})
    assert WORDS(mine) == "Red's pieces switch places: the one on 1 goes back outside the entrance"
    assert WORDS(theirs) == "Blue's piece on 1 goes back outside the entrance, where Red's piece came from"
    set_language("de")
    assert WORDS(theirs) == "Stein von Blau auf 1 muss zurück vor den Eingang, woher der Stein von Rot kam"


@pytest.mark.parametrize(("turns", "in_english", "in_german"), [
    (1, "it loses one turn", "einmal aussetzen"),
    (2, "it loses two turns", "zweimal aussetzen"),
    (3, "it loses 3 turns", "3 Runden aussetzen"),
])
def test_a_trap_says_the_turns_it_costs(turns: int, in_english: str, in_german: str) -> None:
    event = Event(EV_TRAPPED, 1, src=13, args={"turns": turns})
    assert WORDS(event) == f"Blue's piece is trapped on 13: {in_english}"
    set_language("de")
    assert WORDS(event).endswith(in_german)


def test_words_never_fail_on_a_journal_line_written_by_hand() -> None:
    """A line after damage is shown as written: a throw that is not two dice still
    reads."""
    assert WORDS(Event(EV_THROWN, 0, args={"values": (4,)})) == "Red throws 4"
    assert WORDS(Event(EV_THROWN, 0, args={})) == "Red throws "


def test_the_voice_says_a_swap_outside_the_entrance_in_the_screens_words() -> None:
    state = get_game("labyrinth").new_state(2)
    event = Event(EV_SWAPPED, 0, src=1, dst=None, args={"other": 1})
    said = voice_for("labyrinth").event(Said(state, None, state), event)
    assert said == "Blue's piece on field 1 goes back outside the entrance, where Red's piece came from"
