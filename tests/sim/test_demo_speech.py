"""``companion demo --speech DIR``: each cue said in a whole game is a numbered WAV in DIR,
listed in DIR/cues.txt, and speech changes nothing of the game (the same record and the
same frames as without it)."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import programs
import pytest

from companion.cli import main
from companion.sim.demo import play


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_the_demo_with_speech_writes_every_cue_and_plays_the_same_game(tmp_path: Path) -> None:
    plain = play(tmp_path / "j1", seed=3)
    spoken = play(tmp_path / "j2", seed=3, speech_dir=tmp_path / "speech")
    assert spoken.record == plain.record and spoken.screens == plain.screens
    index = (tmp_path / "speech" / "cues.txt").read_text(encoding="utf-8").splitlines()
    assert [line.split("\t")[0] for line in index] == [p.name for p in spoken.cues]
    assert sorted(p.name for p in (tmp_path / "speech").glob("*.wav")) == [p.name for p in spoken.cues]
    for line in index:
        name, text = line.split("\t")
        assert re.fullmatch(r"\d{4}\.wav", name) and text.strip()


def test_demo_speech_without_espeak_ng_is_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    status = main(["demo", "--speech", str(tmp_path / "speech")])
    assert status != 0
    assert "--speech needs espeak-ng" in capsys.readouterr().err
    assert not (tmp_path / "speech").exists()


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_the_demo_command_says_where_the_cues_went_in_the_language_asked(tmp_path: Path) -> None:
    """Issue 35: `companion demo` could not speak German; `--language de` gives German
    screens and cues (the record printed stays the journal's words)."""
    done = programs.run([sys.executable, "-m", "companion", "demo", "--speech", str(tmp_path),
                         "--language", "de"], capture_output=True, text=True, check=False,
                        idle=12)
    assert done.returncode == 0, done.stderr
    assert re.search(rf"\d+ cues written to {re.escape(str(tmp_path))} \(listed in cues.txt\)",
                     done.stdout)
    said = (tmp_path / "cues.txt").read_text(encoding="utf-8")
    assert "Schwarz wirft" in said
    assert not re.search(r"\b(throws|Black|White|borne off)\b", said), said[:2000]
