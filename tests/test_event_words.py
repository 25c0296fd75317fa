"""Every event of every game, worded on every surface in English and German (issue 31).

Events are data (:class:`companion.rules.Event`); the screens
(:func:`companion.ui.events.words_for`), speech (each game's voice) and ``companion
journal show`` (:mod:`companion.journal.record`, whose words the spectator and club pages
show) word them. Whole random games of every game and player count are played; each
event is worded on each surface in English and in German, and the German must hold
no English word the catalogue does not also use in German, and no raw key of the rules
(``blue-pegasus``, ``gate2``, ``face-danger``).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion.i18n import set_language
from companion.journal import record as rec
from companion.journal.store import JournalStore
from companion.rules import Event, Phase, State, game_class, game_ids, get_game, random_action
from companion.speech.cues import Said, voice_for
from companion.ui.events import words_for

GERMAN_PO = Path(__file__).parents[1] / "companion" / "locale" / "de" / "LC_MESSAGES" / "companion.po"
WORD = re.compile(r"[A-Za-zÄÖÜäöüß]+(?:'[a-z]+)?")
RAW_KEY = re.compile(r"\b[a-z]+(?:-[a-z0-9]+)+\b|\b[a-z]+\d+\b")
"""What a rules key looks like when it leaks: ``blue-pegasus``, ``face-danger``, ``gate2``."""


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    set_language("en")


def _vocabularies() -> tuple[set[str], set[str]]:
    """(the words of the English messages, the words of their German translations),
    lower case, each of more than two letters."""
    with GERMAN_PO.open("rb") as fh:
        catalog = read_po(fh)
    english: set[str] = set()
    german: set[str] = set()
    for m in catalog:
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple | list) else (m.id,)
        strings = m.string if isinstance(m.string, tuple | list) else (m.string,)
        english |= {w.lower() for text in ids for w in WORD.findall(re.sub(r"\{\w*\}", " ", text))}
        german |= {w.lower() for text in strings if text
                   for w in WORD.findall(re.sub(r"\{\w*\}", " ", text))}
    return english, german


ENGLISH, GERMAN = _vocabularies()
ENGLISH_ONLY = {w for w in ENGLISH - GERMAN if len(w) > 2}


def english_left(text: str) -> list[str]:
    """The words of ``text`` that are English and never German in the catalogue."""
    return [w for w in WORD.findall(text) if w.lower() in ENGLISH_ONLY]


def played(game_id: str, players: int, seed: int) -> Iterator[tuple[State, object, list[Event], State]]:
    """(position before, action, its events, position after) of a whole random game
    (at most 1,500 actions)."""
    state = get_game(game_id).new_state(players)
    rnd = random.Random(seed)
    for _ in range(1500):
        if state.phase is Phase.OVER:
            return
        before = state.copy()
        action = random_action(state, rnd.randrange)
        events = state.apply(action)
        yield before, action, events, state.copy()


def _games() -> list[tuple[str, int]]:
    out = []
    for game_id in game_ids():
        cls = game_class(game_id)
        out += [(game_id, p) for p in sorted({cls.min_players, cls.max_players})]
    return out


@pytest.mark.parametrize(("game_id", "players"), _games())
def test_every_event_is_worded_on_every_surface_in_german(game_id: str, players: int) -> None:
    voice = voice_for(game_id)
    seen: dict[tuple[object, ...], tuple[State, object, Event, State]] = {}
    for seed in range(2):
        for before, action, events, after in played(game_id, players, seed):
            for event in events:  # each event once, with the names it is worded with
                key = (event.kind, event.player, event.src, event.dst,
                       tuple(sorted(event.args.items())), tuple(words_for(after).names))
                seen.setdefault(key, (before, action, event, after))
    kinds = {event.kind for _b, _a, event, _s in seen.values()}
    set_language("en")
    english = [words_for(after)(event) for _b, _a, event, after in seen.values()]
    set_language("de")
    left: dict[str, str] = {}
    raw: dict[str, str] = {}
    for (before, action, event, after), in_english in zip(seen.values(), english, strict=True):
        said = [words_for(after)(event), voice.event(Said(before, action, after), event) or ""]  # type: ignore[arg-type]
        for text in said:
            assert text.strip(), f"{event}: no words"
            if english_left(text):
                left[text] = f"{event.kind}: {english_left(text)}"
            if RAW_KEY.search(text):
                raw[text] = f"{event.kind}: {RAW_KEY.findall(text)}"
        assert said[0] != in_english or not english_left(in_english), event
    assert kinds, "the games made no events"
    assert not raw, f"raw keys in German words: {dict(list(raw.items())[:8])}"
    assert not left, f"English left in German words: {dict(list(left.items())[:8])}"


@pytest.mark.parametrize("game_id", game_ids())
def test_journal_show_words_a_game_in_german(game_id: str, tmp_path: Path) -> None:
    """``companion journal show`` (and so the pages, which show its steps' words):
    every event line of a whole game in German, none in English."""
    store = JournalStore(tmp_path)
    game = get_game(game_id)
    journal = store.begin(game, 2)
    for before, action, events, _after in played(game_id, 2, 7):
        journal.append(before.player_to_act_name, action, events)  # type: ignore[arg-type]
    journal.close()
    set_language("de")
    record = rec.read(journal.path)
    lines = [w for t in record.turns for s in t.steps for w in s.events]
    assert len(lines) > 20
    left = {line: english_left(line) for line in lines if english_left(line)}
    assert not left, f"English left in journal show: {dict(list(left.items())[:8])}"
    assert not [line for line in lines if RAW_KEY.search(line)]
