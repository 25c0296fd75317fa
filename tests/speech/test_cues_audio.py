"""Every cue of a whole scripted game of each game, said by espeak-ng into a WAV file
(``espeak-ng -w``): sox finds sound in each (not silence) and none longer than
:data:`LONGEST_S`. In English and in German (the shipped catalogue).

Needs espeak-ng and sox (``make test`` installs them); skipped with the reason when
either is missing."""

from __future__ import annotations

import gettext
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import programs
import pytest
from walkthroughs.cue_games import GAMES, german, play_whole_game, speaking

from companion.i18n import UnknownLanguage, _, load

ESPEAK = shutil.which("espeak-ng")
SOX = shutil.which("sox")
pytestmark = pytest.mark.skipif(not (ESPEAK and SOX), reason="needs espeak-ng and sox (make test installs them)")

LONGEST_S = 12.0
"""The longest a cue may take at the default rate (160 words a minute), in seconds. The
longest are the Cretan cards read out whole (about 9 s in English)."""
QUIETEST_RMS = 0.01
"""The RMS amplitude (full scale 1) below which a WAV counts as silent; speech is ~0.1."""
VOICES = {"en": "en-gb", "de": "de"}


def measure(wav: Path) -> tuple[float, float]:
    """A WAV file's length in seconds and its RMS amplitude (``sox FILE -n stat``)."""
    out = subprocess.run([str(SOX), str(wav), "-n", "stat"], capture_output=True, text=True,
                         check=True).stderr
    length = float(re.search(r"Length \(seconds\):\s*([\d.]+)", out).group(1))  # type: ignore[union-attr]
    rms = float(re.search(r"RMS\s+amplitude:\s*([\d.]+)", out).group(1))  # type: ignore[union-attr]
    return length, rms


def render(text: str, voice: str, wav: Path) -> tuple[str, float, float]:
    programs.run([str(ESPEAK), "-v", voice, "-s", "160", "-w", str(wav), text],
                 check=True, capture_output=True, idle=1)
    return (text, *measure(wav))


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("game_id", GAMES)
def test_every_cue_of_a_whole_game_is_heard_and_short(tmp_path: Path, game_id: str, language: str) -> None:
    translations: gettext.NullTranslations
    try:
        translations = load(language)
    except UnknownLanguage:
        translations = gettext.NullTranslations()
    if translations.gettext("{player} to throw") == "{player} to throw" and language != "en":
        translations = german()
    with speaking(translations):
        _ctl, speaker = play_whole_game(tmp_path / "journal", game_id)
        assert _("{player} to throw") != "{player} to throw" or language == "en"
    texts = sorted({c.text for c in speaker.said})
    assert len(texts) > 20
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda it: render(it[1], VOICES[language], tmp_path / f"{it[0]}.wav"),
                                enumerate(texts)))
    silent = [t for t, _length, rms in results if rms < QUIETEST_RMS]
    long = [(t, round(length, 1)) for t, length, _rms in results if length > LONGEST_S]
    assert not silent, f"silent cues: {silent[:5]}"
    assert not long, f"cues longer than {LONGEST_S} s: {long[:5]}"
    longest = max(results, key=lambda r: r[1])
    print(f"{game_id} {language}: {len(texts)} cues, longest {longest[1]:.1f} s: {longest[0]!r}")


def phonemes(text: str, voice: str) -> str:
    """What espeak-ng would say for ``text``, as its phoneme mnemonics (``-x``)."""
    done = programs.run([str(ESPEAK), "-v", voice, "-q", "-x", text], capture_output=True,
                        text=True, idle=1, check=True)
    return str(done.stdout).strip()


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_cretan_square_s_column_letter_is_said_as_a_letter(language: str) -> None:
    """Issue 35: "move to A 11" was said "move to uh eleven": with a space espeak-ng
    takes a lone A for the article (``a#``). The square is said "A11", and espeak-ng
    names the letter (English ``eI``, German ``A:``)."""
    from companion.rules import get_game
    from companion.speech.games.cretan_labyrinth import CretanLabyrinthVoice

    state = get_game("cretan-labyrinth").new_state(2)
    with speaking(german() if language == "de" else gettext.NullTranslations()):
        said = _("move to {dst}").format(dst=CretanLabyrinthVoice().square(state, "a11"))
    assert said == ("move to A11" if language == "en" else "nach A11 ziehen")
    heard = phonemes(said, VOICES[language])
    assert ("eI" if language == "en" else "A:") in heard and "a#" not in heard, heard
    if language == "en":  # the check can fail: the old words
        assert "a#" in phonemes("move to A 11", "en-gb")
