"""`companion demo --camera`: a whole game whose moves the box finds from the fake
camera's pictures (issue 34: "the demo can run a whole game from the fake camera"):
the scripted player makes each move on the fake board, the box's look puts the cursor
on it, the player presses OK."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

pytest.importorskip("cv2")

from companion.cli import main
from companion.journal.store import load
from companion.sim import demo


def test_a_whole_game_with_its_moves_found_by_the_camera(tmp_path: Path) -> None:
    result = demo.play(tmp_path, seed=3, game="senet-sticks", options={"mode": "quick"}, camera=True)
    assert result.journal is not None
    loaded = load(result.journal)
    assert loaded.state.outcome is not None
    moves = [r for r in loaded.records if "move" in r]
    # every move chosen on a moves screen: found by the camera, or (a picture refused,
    # moves that leave the same board) with the buttons; the camera found nearly all
    assert result.camera_found + result.camera_buttons <= len(moves)
    assert result.camera_found >= 0.8 * len(moves) > 0, (result.camera_found, result.camera_buttons, len(moves))


def test_the_demo_command_says_how_many_moves_the_camera_found(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    asked: dict[str, object] = {}

    def play(journal_dir: Path, **kwargs: object) -> demo.DemoResult:
        asked.update(kwargs)
        return demo.DemoResult(None, camera_found=40, camera_buttons=2)

    monkeypatch.setattr(demo, "play", play)
    out = io.StringIO()
    assert demo.main(tmp_path, seed=1, frames_dir=None, out=out, camera=True) == 0
    assert asked["camera"] is True
    assert out.getvalue() == "camera: 40 moves found from the fake camera's pictures, 2 chosen with the buttons\n"
    with pytest.raises(SystemExit):
        main(["demo", "--help"])
    assert "--camera" in capsys.readouterr().out
