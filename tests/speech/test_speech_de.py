"""The German of the cues (the shipped catalogue; tests/test_catalogues.py checks that
every message has its German with the same placeholders): Settings > Speech fits a
menu row, and a whole scripted game of each game is said in German with no English sentence left (the Cretan
cards' own text aside: it is the deck file's)."""

from __future__ import annotations

from pathlib import Path

import pytest
from walkthroughs.cue_games import GAMES, german, play_whole_game, speaking

from companion.i18n import _


def test_the_speech_settings_fit_a_menu_row_in_german() -> None:
    with speaking(german()):
        rows = [_("Speech: {state}").format(state=_("off")), _("Voice: {voice}").format(voice="en-gb"),
                _("Rate: {rate} words/min").format(rate=250), _("Volume: {volume}%").format(volume=200)]
    assert all(len(row) <= 20 for row in rows), rows


@pytest.mark.parametrize("game_id", GAMES)
def test_a_whole_game_is_said_in_german(tmp_path: Path, game_id: str) -> None:
    with speaking(german()):
        _ctl, speaker = play_whole_game(tmp_path, game_id)
    english = {c.text for c in play_whole_game(tmp_path / "en", game_id)[1].said}
    said = [c.text for c in speaker.said]
    assert said[0].endswith(" wirft")
    assert said[-1].endswith("!")
    untranslated = sorted({t for t in said if t in english})
    assert not untranslated, untranslated[:5]
    for text in said:
        assert "{" not in text and "}" not in text, text
        for word in (" throws ", " moves ", " to throw", " wins", "'s "):
            if game_id == "cretan-labyrinth" and ": " in text:  # the card's own text
                text = text.split(": ")[0]
            assert word not in text, text
