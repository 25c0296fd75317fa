"""Corners given from another corner of a board without markers (issue 34, docs/camera.md
2b): the still of an empty board cannot tell a half turn (nor a quarter turn of a
squarish board), so the board was read turned. `companion camera calibrate GAME
--orient` reads a picture of the game's first position (or one piece on square 1) under
each turn the corners may be off by and turns the saved calibration to the one that
reads it (:func:`companion.camera.orient.orient`)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from camera_video import write_video
from scenes import GAMES

from companion.camera import calibration as cal
from companion.camera.board import Layout, layout_for
from companion.camera.fake import FakeCamera, fake_camera
from companion.camera.find import seen_board
from companion.camera.orient import orient
from companion.camera.read import PictureRefused, Reader
from companion.cli import main
from companion.cli.camera import set_up
from companion.rules import get_game, play_out

POSE = 4
"""The fake camera's pose (seed) of these tests."""


def _given(layout: Layout, camera: FakeCamera, quarters: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The still of the empty board, its true corners, and the corners a player gives
    from the corner ``quarters`` further on (2: from the bottom right, a half turn)."""
    empty = camera.photo({}, POSE, pose=POSE)
    true = cal.corners_on(layout, empty.homography)
    return empty.image, true, np.roll(true, quarters, axis=0)


def test_the_turns_the_empty_board_cannot_tell() -> None:
    """A half turn on every board; quarter turns too where check_corners takes them (a
    board less than twice as long as wide)."""
    assert [cal.turns(layout_for(get_game(g).new_state())) for g in GAMES] == [
        (0, 2), (0, 1, 2, 3), (0, 1, 2, 3), (0, 1, 2, 3)]


@pytest.mark.parametrize("game", GAMES)
def test_a_turned_calibration_is_found_from_the_first_position_and_then_reads_right(game: str) -> None:
    """For each turn: the calibration made from corners given turned reads a position
    wrongly (the bug: the board read turned); orient() finds the turn from a picture of
    the set-up, and the calibration it returns reads positions as they stand. The
    reference turned from the saved one is the reference made from the right corners,
    within a few grey levels (resampled)."""
    state = get_game(game).new_state()
    layout = layout_for(state)
    camera = fake_camera(layout, markers=False)
    expected, _words = set_up(state, layout)
    picture = camera.photo(expected, POSE + 1, pose=POSE).image
    # a position later in a game: what the box reads
    later = get_game(game).new_state()
    rng = random.Random(3)
    play_out(later, rng.randrange, until=lambda s: len(s.history) >= 30)
    pieces = dict(seen_board(later))
    photo = camera.photo(pieces, POSE + 2, pose=POSE).image
    still, true, _given_corners = _given(layout, camera, 0)
    right = cal.calibrate(layout, still, [tuple(p) for p in true])
    for quarters in cal.turns(layout):
        wrong = cal.calibrate(layout, still, [tuple(p) for p in np.roll(true, quarters, axis=0)])
        found, oriented = orient(layout, wrong, picture, expected)
        assert found == quarters
        assert np.abs(oriented.corners - true).max() < 1e-3
        difference = np.abs(oriented.reference.astype(int) - right.reference.astype(int))
        assert difference.mean() < 3
        assert Reader(layout, calibration=oriented).read(photo).occupied() == pieces
        if quarters:
            try:
                turned_reading = Reader(layout, calibration=wrong).read(photo).occupied()
            except PictureRefused:  # a quarter turn of a board that is not square
                turned_reading = None
            assert turned_reading != pieces


def test_a_set_up_that_reads_alike_turned_or_not_at_all_is_refused() -> None:
    layout = layout_for(get_game("labyrinth").new_state())
    camera = fake_camera(layout, markers=False)
    still, true, _given_corners = _given(layout, camera, 0)
    calibration = cal.calibrate(layout, still, [tuple(p) for p in true])
    # an empty board reads the same under every turn: the turn cannot be told
    with pytest.raises(cal.CalibrationError, match="reads the same as given and a quarter turn"):
        orient(layout, calibration, camera.photo({}, POSE + 1, pose=POSE).image, {})
    # a piece on 2 where 1 was asked for: no turn reads it, each reading said
    with pytest.raises(cal.CalibrationError) as refused:
        orient(layout, calibration, camera.photo({2: 0}, POSE + 1, pose=POSE).image, {1: 0})
    words = str(refused.value)
    assert words.startswith("no turn of the corners reads the pieces as set up: as given, 2 squares "
                            "otherwise (1, 2)")
    assert "a half turn, " in words


def test_the_set_up_asked_for() -> None:
    said = {g: set_up(get_game(g).new_state(), layout_for(get_game(g).new_state())) for g in GAMES}
    assert said["senet-tait"] == ({1: 0}, "put one piece of Black on square 1, nothing else on the board")
    assert said["senet-sticks"][1] == ("set the pieces up as at the start of a game, nothing else on the "
                                       "board: Red on 1, 2, 3, 4, 5; Blue on 26, 27, 28, 29, 30")
    assert said["cretan-labyrinth"][0] == {"gate1": 0, "gate3": 1}


def _check(game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["camera", "check", game, "--fake", str(POSE), "--dir", str(tmp_path),
                 "--out", str(tmp_path / "c.png")]) == 0
    return capsys.readouterr().out


def test_orient_through_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Casting-stick Senet's corners given from the bottom right: `camera check` reads
    the board turned; `calibrate --orient` with the home rows set up turns the
    calibration, and `camera check` then reads every square right; a second --orient
    keeps it."""
    game = "senet-sticks"
    layout = layout_for(get_game(game).new_state())
    _still, _true, given = _given(layout, fake_camera(layout, markers=False), 2)
    corners = [f"{x:.1f},{y:.1f}" for x, y in given]
    assert main(["camera", "calibrate", game, "--fake", str(POSE), "--dir", str(tmp_path),
                 "--still", str(tmp_path / "s.png"), "--corners", *corners]) == 0
    capsys.readouterr()
    assert "differing from the scene: none" not in _check(game, tmp_path, capsys)
    assert main(["camera", "calibrate", game, "--fake", str(POSE), "--dir", str(tmp_path), "--orient"]) == 0
    said = capsys.readouterr().out
    assert "Red on 1, 2, 3, 4, 5; Blue on 26, 27, 28, 29, 30" in said
    assert ("the corners were given turned by a half turn: the board's top left is the corner "
            "given as bottom right") in said
    assert "differing from the scene: none" in _check(game, tmp_path, capsys)
    saved = cal.path_for(tmp_path, game).read_bytes()
    assert main(["camera", "calibrate", game, "--fake", str(POSE), "--dir", str(tmp_path), "--orient"]) == 0
    assert "kept as it is" in capsys.readouterr().out
    assert cal.path_for(tmp_path, game).read_bytes() == saved


def test_orient_with_a_real_camera_and_its_refusals(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Tait's Senet, half turned, through a real camera's code path (a video file of
    fake photos of one piece on square 1, Enter pressed); no calibration, or no
    terminal: refused, nothing saved."""
    game = "senet-tait"
    layout = layout_for(get_game(game).new_state())
    camera = fake_camera(layout, markers=False)
    assert main(["camera", "calibrate", game, "--fake", "1", "--dir", str(tmp_path), "--orient"]) == 2
    assert "no calibration of senet-tait" in capsys.readouterr().err
    still, _true, given = _given(layout, camera, 2)
    cal.save(cal.calibrate(layout, still, [tuple(p) for p in given]), tmp_path)
    before = cal.path_for(tmp_path, game).read_bytes()
    video = write_video(tmp_path / "one.avi",
                        (f.image for f in camera.frames({1: 0}, POSE + 1, [None] * 8, pose=POSE)))
    monkeypatch.setattr("builtins.input", lambda: (_ for _ in ()).throw(EOFError()))
    argv = ["camera", "calibrate", game, "--device", str(video), "--dir", str(tmp_path), "--orient"]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert "put one piece of Black on square 1" in captured.out and "needs a terminal" in captured.err
    assert cal.path_for(tmp_path, game).read_bytes() == before
    monkeypatch.setattr("builtins.input", lambda: "")
    assert main(argv) == 0
    assert "turned by a half turn" in capsys.readouterr().out
    oriented = cal.load(tmp_path, layout)
    assert oriented is not None
    assert np.abs(oriented.corners - np.roll(given, -2, axis=0)).max() < 0.01
