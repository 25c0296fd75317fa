"""Journals written before events were data still read (issue 31).

``tests/app/journals-bc3bb58/`` holds one journal of each game written by main at
bc3bb58 (random play, one action taken back; made with that commit's own
``JournalStore``): their action records carry the rules' English sentences as
``"events"``. Today's reader replays the actions and words the events itself, so a
player opening an old game sees it whole, in the language in use.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.i18n import set_language
from companion.journal import record as rec
from companion.journal.store import decode

OLD = Path(__file__).parent / "journals-bc3bb58"
JOURNALS = sorted(OLD.glob("*.journal"))

CHANGED_WORDS: dict[str, frozenset[str]] = {
    # the deck's Minotaur card no longer says what being killed costs: since the
    # `minotaur` option (decision D30) that depends on the option, said by the next event;
    # since its events are data (issue 31) a square reads as the board is labelled ("G10",
    # "gateway 3") and a list of players or colours ends in "and" ("red and blue")
    "cretan-labyrinth": frozenset({"card-drawn", "moved", "sent", "start-roll", "danger", "round-limit"}),
}
"""Event kinds (by game id) whose English words today deliberately differ from the
sentence bc3bb58's rules wrote (say why where it is set); every other event must read
exactly as it was written."""


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    set_language("en")
    yield
    set_language("en")


def written_sentences(path: Path) -> list[list[str]]:
    """The ``events`` of each action record of an old journal, as it wrote them."""
    out = []
    for line in path.read_bytes().splitlines()[1:]:
        record = decode(line)
        if "events" in record:
            out.append(list(record["events"]))
    return out


def test_there_is_an_old_journal_of_every_game() -> None:
    games = {json.loads(p.read_bytes().split(b" ", 1)[1].splitlines()[0])["game"] for p in JOURNALS}
    assert games == {"senet-tait", "senet-sticks", "labyrinth", "cretan-labyrinth"}


@pytest.mark.parametrize("path", JOURNALS, ids=lambda p: p.name.split("-", 2)[2])
def test_an_old_journal_reads_whole_in_todays_words(path: Path, tmp_path: Path) -> None:
    copy = tmp_path / path.name  # the reader may repair a file: never the fixture
    shutil.copy(path, copy)
    record = rec.read(copy)
    assert record.damage is None
    steps = [s for t in record.turns for s in t.steps if s.kind != "undo"]
    written = written_sentences(path)
    assert len(steps) == len(written) > 100
    assert sum(s.taken_back for s in steps) == 1
    changed = CHANGED_WORDS.get(record.game, frozenset())
    for step, sentences in zip(steps, written, strict=True):
        assert len(step.facts) == len(sentences)
        for event, words, sentence in zip(step.facts, step.events, sentences, strict=True):
            if event.kind not in changed:
                assert words == sentence, f"{record.game} line {step.line}: {event}"
    assert rec.text(record).count("\n") > len(steps)  # journal show prints it


@pytest.mark.parametrize("path", JOURNALS, ids=lambda p: p.name.split("-", 2)[2])
def test_an_old_journal_reads_in_german(path: Path, tmp_path: Path) -> None:
    copy = tmp_path / path.name
    shutil.copy(path, copy)
    english_words = [s.events for t in rec.read(copy).turns for s in t.steps if s.kind != "undo"]
    set_language("de")
    german_words = [s.events for t in rec.read(copy).turns for s in t.steps if s.kind != "undo"]
    assert len(german_words) == len(english_words)
    same = sum(g == e for g, e in zip(german_words, english_words, strict=True))
    assert same < len(english_words) // 10  # words, not the journal's English sentences
