"""`companion camera calibrate` (a board of the player's own, marked by its four
corners) and `companion camera check` with a real camera's code path: a video file of
fake photos through ``--device`` or ``camera.device`` (issue 34)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from camera_video import write_video
from PIL import Image
from scenes import position

from companion.camera import calibration as cal
from companion.camera.board import Layout, layout_for
from companion.camera.fake import fake_camera
from companion.camera.find import seen_board
from companion.cli import main
from companion.rules import get_game
from companion.rules.core import Square

GAME = "senet-tait"


@pytest.fixture
def layout() -> Layout:
    return layout_for(get_game(GAME).new_state())


def _corners(layout: Layout, seed: int, off: float = 2.0) -> list[str]:
    """The true corners of the fake camera's board at ``seed``, ``off`` pixels out, as
    the command takes them."""
    homography = fake_camera(layout, markers=False).photo({}, seed, pose=seed).homography
    true = cal.corners_on(layout, homography) + np.array([[off, -off], [-off, off], [off, off], [-off, -off]])
    return [f"{x:.0f},{y:.0f}" for x, y in true]


def test_calibrate_help_says_what_it_does(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["camera", "calibrate", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for words in ("board of your own, without markers", "four corners", "EMPTY", "--corners X,Y",
                  "top left, top right, bottom right, bottom left", "camera-calibration-GAME.json",
                  "--forget"):
        assert words in text, words


def test_calibrate_writes_the_still_with_a_grid_then_saves_the_corners(
        tmp_path: Path, layout: Layout, capsys: pytest.CaptureFixture[str]) -> None:
    state, still = tmp_path / "state", tmp_path / "still.png"
    assert main(["camera", "calibrate", GAME, "--fake", "6", "--dir", str(state), "--still", str(still)]) == 0
    said = capsys.readouterr().out
    assert "--corners X,Y X,Y X,Y X,Y" in said and "square 1 is at the top left" in said
    grid = tmp_path / "still-grid.png"
    assert Image.open(still).size == Image.open(grid).size == (800, 600)
    assert not state.exists()  # nothing saved before the corners are given
    assert main(["camera", "calibrate", GAME, "--dir", str(state), "--still", str(still),
                 "--corners", *_corners(layout, 6)]) == 0
    saved = cal.path_for(state, GAME)
    assert f"calibration saved: {saved}" in capsys.readouterr().out
    calibration = cal.load(state, layout)
    assert calibration is not None and calibration.still == (800, 600)
    # the fake camera where calibrate put it, pieces on the board, other light
    out = tmp_path / "check.png"
    assert main(["camera", "check", GAME, "--fake", "6", "--dir", str(state), "--out", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "differing from the scene: none" in lines[3]
    assert lines[-1].endswith(str(saved))
    # the printed board's markers again, once it is forgotten
    assert main(["camera", "calibrate", GAME, "--dir", str(state), "--forget"]) == 0
    assert not saved.exists()


def test_corners_in_a_wrong_order_save_nothing(tmp_path: Path, layout: Layout,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    state = tmp_path / "state"
    tl, tr, br, bl = _corners(layout, 2)
    assert main(["camera", "calibrate", GAME, "--fake", "2", "--dir", str(state),
                 "--still", str(tmp_path / "s.png"), "--corners", tr, tl, bl, br]) == 2
    assert "calibration not saved: the corners go round the wrong way" in capsys.readouterr().err
    assert not cal.path_for(state, GAME).exists()
    assert main(["camera", "calibrate", GAME, "--dir", str(state), "--still", str(tmp_path / "s.png"),
                 "--corners", tl, tr, br, "12;40"]) == 2
    assert "corner '12;40'" in capsys.readouterr().err


def test_a_damaged_calibration_is_refused_by_check_and_kept(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = cal.path_for(tmp_path, GAME)
    path.write_text('{"format": "board-companion camera calibration", "version": 1}')
    assert main(["camera", "check", GAME, "--fake", "1", "--dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert str(path) in err and "damaged" in err and "--forget" in err
    assert path.read_text().startswith('{"format"')


def test_check_reads_a_device_a_video_file_of_fake_photos(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """The printed board (markers) filmed by a still camera: the first still frame read."""
    state = position(GAME, 7)
    layout = layout_for(state)
    pieces = seen_board(state)
    frames = fake_camera(layout).frames(pieces, 7, [None] * 8)
    video = write_video(tmp_path / "table.avi", (f.image for f in frames))
    out = tmp_path / "check.png"
    assert main(["camera", "check", GAME, "--device", str(video), "--dir", str(tmp_path),
                 "--out", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    board = [row.split() for row in lines[:3]]
    names = tuple(state.name(p)[0] for p in range(state.players))
    read = {place.square: names.index(board[place.row][place.col])
            for place in layout.squares if board[place.row][place.col] != "."}
    assert read == dict(pieces)
    assert lines[3] == f"squares read: 30, occupied: {len(pieces)}"
    assert out.exists() and (tmp_path / "check-photo.png").exists()


def test_check_uses_the_configured_camera_and_its_calibration(tmp_path: Path, layout: Layout,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """camera.source usb with a video file as its device; a board without markers,
    calibrated from the video's first still frame."""
    camera = fake_camera(layout, markers=False)
    empty = camera.frames({}, 30, [None] * 8, pose=9)
    config = tmp_path / "config.toml"
    empty_video = write_video(tmp_path / "empty.avi", (f.image for f in empty))
    config.write_text(f'[camera]\nsource = "usb"\ndevice = "{empty_video}"\n')
    still = tmp_path / "still.png"
    assert main(["camera", "calibrate", GAME, "--config", str(config), "--dir", str(tmp_path),
                 "--still", str(still)]) == 0
    assert "from camera.source usb" in capsys.readouterr().out
    assert main(["camera", "calibrate", GAME, "--config", str(config), "--dir", str(tmp_path),
                 "--still", str(still), "--corners", *_corners(layout, 9)]) == 0
    pieces: dict[Square, int] = {1: 0, 12: 1, 25: 0}
    played = write_video(tmp_path / "played.avi", (f.image for f in camera.frames(pieces, 31, [None] * 8, pose=9)))
    config.write_text(f'[camera]\nsource = "usb"\ndevice = "{played}"\n')
    capsys.readouterr()
    assert main(["camera", "check", GAME, "--config", str(config), "--dir", str(tmp_path),
                 "--out", str(tmp_path / "c.png")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["B", ".", ".", ".", ".", ".", ".", ".", ".", "."]
    assert lines[3] == "squares read: 30, occupied: 3"


def test_check_without_a_camera_says_how_to_name_one(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.toml"
    config.write_text("")
    assert main(["camera", "check", GAME, "--config", str(config), "--dir", str(tmp_path)]) == 2
    assert "--device PATH|INDEX" in capsys.readouterr().err
    assert main(["camera", "check", GAME, "--device", str(tmp_path / "none.avi"), "--dir", str(tmp_path)]) == 2
    assert "no such file" in capsys.readouterr().err


def test_calibrate_by_pieces_on_the_corner_squares(tmp_path: Path, layout: Layout,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """--pieces: a piece on 1, 10, 30, 21 in turn (the fake camera puts them there);
    the corners found are near the true ones, and the half turn that corners given by
    hand cannot be told is told: square 1 is where the first piece stood."""
    assert main(["camera", "calibrate", GAME, "--fake", "8", "--pieces", "--dir", str(tmp_path),
                 "--still", str(tmp_path / "s.png")]) == 0
    said = capsys.readouterr().out
    assert [line.split(":")[0] for line in said.splitlines() if line.startswith("square ")] == [
        "square 1", "square 10", "square 30", "square 21"]
    calibration = cal.load(tmp_path, layout)
    assert calibration is not None
    true = cal.corners_on(layout, fake_camera(layout, markers=False).photo({}, 8, pose=8).homography)
    assert np.abs(calibration.corners - true).max() < 6
    assert main(["camera", "check", GAME, "--fake", "8", "--dir", str(tmp_path),
                 "--out", str(tmp_path / "c.png")]) == 0
    assert "differing from the scene: none" in capsys.readouterr().out


def test_calibrate_by_pieces_needs_a_terminal_with_a_real_camera(tmp_path: Path, layout: Layout,
                                                                 monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    video = write_video(tmp_path / "empty.avi",
                        (f.image for f in fake_camera(layout, markers=False).frames({}, 3, [None] * 8, pose=3)))
    monkeypatch.setattr("builtins.input", lambda: (_ for _ in ()).throw(EOFError()))
    assert main(["camera", "calibrate", GAME, "--device", str(video), "--pieces", "--dir", str(tmp_path),
                 "--still", str(tmp_path / "s.png")]) == 2
    captured = capsys.readouterr()
    assert "put one piece on square 1" in captured.out and "needs a terminal" in captured.err
    assert not cal.path_for(tmp_path, GAME).exists()
