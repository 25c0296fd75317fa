"""The German of the cues (``docs/speech-de.txt``, for the catalogue): every cue message
and Settings > Speech row has its German line with the same placeholders, and a whole
scripted game of each game is said in German with no English sentence left (the Cretan
cards' own text aside: it is the deck file's)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from walkthroughs.cue_games import GAMES, doc_catalogue, doc_messages, play_whole_game, speaking

from companion.i18n import _

ROOT = Path(__file__).parents[2]
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}


def extracted() -> set[tuple[str, str | None]]:
    """Every message of the speech package and the menus, as Babel extracts it."""
    found: set[tuple[str, str | None]] = set()
    for folder in ("companion/speech", "companion/app/screens"):
        for filename, _line, message, _comments, _context in extract_from_dir(
                ROOT / folder, keywords=KEYWORDS):
            if folder.endswith("screens") and filename != "menus.py":
                continue
            if isinstance(message, tuple):
                found.add((message[0], message[1]))
            else:
                found.add((message, None))
    return found


def test_every_cue_message_has_its_german_line_with_the_same_placeholders() -> None:
    german = doc_messages()
    missing = sorted(m for m in extracted() if m not in german and m[0] != "")
    assert not missing, f"no German in docs/speech-de.txt for {missing[:5]}"
    for (msgid, plural), forms in german.items():
        wanted = set(re.findall(r"\{\w+\}", msgid + (plural or "")))
        for form in forms:
            assert set(re.findall(r"\{\w+\}", form)) <= wanted, (msgid, form)
            assert set(re.findall(r"\{\w+\}", form)) >= set(re.findall(r"\{\w+\}", msgid)) - {"{count}", "{lights}"}, (msgid, form)


def test_the_speech_settings_fit_a_menu_row_in_german() -> None:
    with speaking(doc_catalogue()):
        rows = [_("Speech: {state}").format(state=_("off")), _("Voice: {voice}").format(voice="en-gb"),
                _("Rate: {rate} words/min").format(rate=250), _("Volume: {volume}%").format(volume=200)]
    assert all(len(row) <= 20 for row in rows), rows


@pytest.mark.parametrize("game_id", GAMES)
def test_a_whole_game_is_said_in_german(tmp_path: Path, game_id: str) -> None:
    with speaking(doc_catalogue()):
        _ctl, speaker = play_whole_game(tmp_path, game_id)
    english = {c.text for c in play_whole_game(tmp_path / "en", game_id)[1].said}
    said = [c.text for c in speaker.said]
    assert said[0].endswith(" ist am Wurf")
    assert said[-1].endswith("!")
    untranslated = sorted({t for t in said if t in english})
    assert not untranslated, untranslated[:5]
    for text in said:
        assert "{" not in text and "}" not in text, text
        for word in (" throws ", " moves ", " to throw", " wins", "'s "):
            if game_id == "cretan-labyrinth" and ": " in text:  # the card's own text
                text = text.split(": ")[0]
            assert word not in text, text
