"""Every cue of a whole scripted game of each game, in each language, rendered with
espeak-ng to WAV (``companion demo --speech``) and checked with sox: each is non-silent
and no longer than its words need, and no cue text carries the screen's notation.

Runs once the cues exist (``companion.speech.cues``, the other half of issue 20) and
for each language whose catalogue is present; skipped with the reason otherwise."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from companion.i18n import language, languages, set_language
from companion.rules import game_ids
from companion.sim.demo import play

pytestmark = [
    pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed"),
    pytest.mark.skipif(shutil.which("sox") is None, reason="sox is not installed"),
]

SCREEN_NOTATION = re.compile(r"\d+\s*[-/>:]\s*\d+")
"""What only a screen shows: ``4-10``, ``12>18``, ``3/5``, ``5:1``."""


def stats(path: Path) -> tuple[float, float]:
    """(RMS amplitude, length in seconds) of a WAV, from ``sox F -n stat``."""
    done = subprocess.run(["sox", str(path), "-n", "stat"], capture_output=True, text=True,
                          check=True)
    found = dict(re.findall(r"^(Length \(seconds\)|RMS +amplitude):\s+(\S+)", done.stderr, re.M))
    return float(found["RMS     amplitude"]), float(found["Length (seconds)"])


@pytest.mark.parametrize("code", ["en", "de"])
@pytest.mark.parametrize("game", game_ids())
def test_every_cue_of_a_whole_game_is_heard_and_short(game: str, code: str, tmp_path: Path) -> None:
    pytest.importorskip("companion.speech.cues", reason="the cues are not on this branch yet")
    if code not in languages():
        pytest.skip(f"no catalogue for {code!r} on this branch yet")
    before = language()
    set_language(code)
    try:
        result = play(tmp_path / "journal", seed=2, game=game, speech_dir=tmp_path / "speech",
                      config_overrides={"display.language": code})
    finally:
        set_language(before)
    index = (tmp_path / "speech" / "cues.txt").read_text(encoding="utf-8").splitlines()
    assert len(index) == len(result.cues) > 0, "a whole game said nothing"
    for line in index:
        name, text = line.split("\t")
        assert not SCREEN_NOTATION.search(text), f"{name}: screen notation in {text!r}"
        rms, seconds = stats(tmp_path / "speech" / name)
        assert rms > 0.02, f"{name} is silent: {text!r}"
        assert seconds <= 1.5 + 0.1 * len(text), f"{name} lasts {seconds} s: {text!r}"
