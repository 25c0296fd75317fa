"""A board the player already owns, with no markers: calibrated by its four corners on a
still of the empty board, then read as a printed one (issue 34, "For a board the
player already owns: `companion camera calibrate` takes a still of the empty board,
and the player marks the four corners ...; the calibration is saved")."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from scenes import GAMES, position

from companion.camera import calibration as cal
from companion.camera.board import Layout, layout_for
from companion.camera.fake import FakeCamera, fake_camera
from companion.camera.find import seen_board
from companion.camera.read import PictureRefused, Reader
from companion.rules import get_game


def _calibrated(layout: Layout, camera: FakeCamera, pose: int, error: float) -> tuple[cal.Calibration, np.ndarray]:
    """The calibration of ``camera`` at ``pose`` from a still of the empty board, its
    true corners off by up to ``error`` pixels each way; and the true corners."""
    empty = camera.photo({}, 5000 + pose, pose=pose)
    true = cal.corners_on(layout, empty.homography)
    given = true + np.random.default_rng(pose).uniform(-error, error, (4, 2))
    return cal.calibrate(layout, empty.image, [tuple(p) for p in given], f"fake {pose}"), true


@pytest.mark.parametrize("game", GAMES)
def test_a_board_without_markers_is_read_through_its_calibration(game: str) -> None:
    """A fake photo of a marker-less board under a random pose, calibrated with its
    true corners plus a few pixels of error: every square read right (a picture may be
    refused, a doubt asks; none is misread)."""
    layout = layout_for(position(game, 0))
    camera = fake_camera(layout, markers=False)
    read = refused = 0
    for pose in range(4):
        calibration, _true = _calibrated(layout, camera, pose, error=2.5)
        reader = Reader(layout, calibration=calibration)
        pieces = seen_board(position(game, 40 + pose))
        photo = camera.photo(pieces, 600 + pose, pose=pose)
        with pytest.raises(PictureRefused, match="markers"):
            Reader(layout).read(photo.image)  # no markers on the board: only the calibration reads it
        try:
            reading = reader.read(photo.image)
        except PictureRefused:
            refused += 1
            continue
        assert reading.occupied() == pieces, (game, pose)
        read += 1
    assert refused <= 1, f"{game}: {refused} of 4 pictures refused"


def test_a_hand_over_a_calibrated_board_is_refused() -> None:
    layout = layout_for(get_game("senet-tait").new_state())
    camera = fake_camera(layout, markers=False)
    calibration, _ = _calibrated(layout, camera, 3, error=1.0)
    reader = Reader(layout, calibration=calibration)
    refused = 0
    for seed in range(6):
        pieces = seen_board(position("senet-tait", seed))
        try:
            reading = reader.read(camera.photo(pieces, 700 + seed, hand=True, pose=3).image)
        except PictureRefused:
            refused += 1
            continue
        assert reading.occupied() == pieces
    assert refused >= 5


def _true_corners(game: str = "senet-tait", pose: int = 1) -> tuple[Layout, np.ndarray, np.ndarray]:
    layout = layout_for(get_game(game).new_state())
    empty = fake_camera(layout, markers=False).photo({}, 9, pose=pose)
    return layout, empty.image, cal.corners_on(layout, empty.homography)


def test_corners_in_a_wrong_order_are_refused() -> None:
    layout, still, true = _true_corners()
    tl, tr, br, bl = (tuple(p) for p in true)
    size = (still.shape[1], still.shape[0])
    cal.check_corners([tl, tr, br, bl], size, layout)  # the right order
    with pytest.raises(cal.CalibrationError, match="wrong way"):
        cal.check_corners([tr, tl, bl, br], size, layout)  # left and right swapped: a mirror
    with pytest.raises(cal.CalibrationError, match="wrong way"):
        cal.check_corners([tl, bl, br, tr], size, layout)  # counter-clockwise
    with pytest.raises(cal.CalibrationError, match="cross"):
        cal.check_corners([tl, br, tr, bl], size, layout)  # two opposite corners swapped
    with pytest.raises(cal.CalibrationError, match="quarter"):
        cal.check_corners([bl, tl, tr, br], size, layout)  # Tait's Senet's 10 x 3 turned
    with pytest.raises(cal.CalibrationError, match="outside"):
        cal.check_corners([tl, tr, br, (-5.0, 10.0)], size, layout)
    with pytest.raises(cal.CalibrationError, match="four"):
        cal.check_corners([tl, tr, br], size, layout)
    with pytest.raises(cal.CalibrationError, match="too small"):
        cal.check_corners([(10, 10), (40, 10), (40, 20), (10, 20)], size, layout)


def test_a_still_too_dark_is_refused() -> None:
    layout, still, true = _true_corners()
    with pytest.raises(cal.CalibrationError, match="too dark"):
        cal.calibrate(layout, still // 12, [tuple(p) for p in true])


def test_a_corner_is_x_comma_y() -> None:
    assert cal.parse_corner("120,45.5") == (120.0, 45.5)
    for bad in ("120", "a,b", "1,2,3", "nan,3"):
        with pytest.raises(cal.CalibrationError, match="corner"):
            cal.parse_corner(bad)


def test_the_calibration_is_saved_and_read_back(tmp_path: Path) -> None:
    layout, still, true = _true_corners()
    made = cal.calibrate(layout, still, [tuple(p) for p in true], "fake 1")
    path = cal.save(made, tmp_path)
    assert path == tmp_path / "camera-calibration-senet-tait.json"
    assert not list(tmp_path.glob("*.tmp"))
    back = cal.load(tmp_path, layout)
    assert back is not None
    assert back.game == "senet-tait" and back.still == (800, 600) and back.camera == "fake 1"
    assert np.allclose(back.corners, made.corners, atol=0.01)
    assert np.array_equal(back.reference, made.reference)  # PNG: lossless
    assert cal.load(tmp_path / "none", layout) is None
    assert cal.forget(tmp_path, "senet-tait") == path and not path.exists()


def test_a_damaged_or_foreign_calibration_is_a_clear_error_and_is_kept(tmp_path: Path) -> None:
    layout, still, true = _true_corners()
    path = cal.save(cal.calibrate(layout, still, [tuple(p) for p in true]), tmp_path)
    good = path.read_text()
    for text, words in (("{not json", "not JSON"), ('{"format": "x"}', "not a calibration"),
                        (good.replace('"version": 1', '"version": 9'), "version 9"),
                        (good.replace('"corners"', '"cornerz"'), "damaged")):
        path.write_text(text)
        with pytest.raises(cal.CalibrationError, match=words) as caught:
            cal.load(tmp_path, layout)
        assert str(path) in str(caught.value)
        assert path.read_text() == text  # left as it was: nothing lost
    data = json.loads(good)
    data["reference"] = data["reference"][:200]
    path.write_text(json.dumps(data))
    with pytest.raises(cal.CalibrationError, match="damaged"):
        cal.load(tmp_path, layout)
    # a calibration of another board, saved under this game's name
    other = layout_for(get_game("senet-sticks").new_state())
    ostill = fake_camera(other, markers=False).photo({}, 2, pose=2)
    foreign = cal.calibrate(other, ostill.image, [tuple(p) for p in cal.corners_on(other, ostill.homography)])
    path.write_text(foreign.to_json())
    with pytest.raises(cal.CalibrationError, match="not of this senet-tait board"):
        cal.load(tmp_path, layout)


def test_a_frame_of_another_shape_than_the_still_is_refused() -> None:
    layout, still, true = _true_corners()
    calibration = cal.calibrate(layout, still, [tuple(p) for p in true])
    reader = Reader(layout, calibration=calibration)
    with pytest.raises(cal.CalibrationError, match="640 x 640"):
        reader.read(np.zeros((640, 640, 3), np.uint8))
    # the same proportions at another resolution: the corners scale with it
    assert calibration.homography((1200, 1600, 3), (320, 96)).shape == (3, 3)


def test_the_grid_picture_keeps_the_still_size_and_draws_on_it() -> None:
    _layout, still, _ = _true_corners()
    picture = cal.grid_picture(still)
    assert picture.shape == still.shape and picture.dtype == np.uint8
    assert not np.array_equal(picture, still)
    assert tuple(picture[300, 100]) == (255, 0, 255)  # the line at x = 100


@pytest.mark.parametrize("game", GAMES)
def test_the_corners_are_found_from_a_piece_on_each_corner_square(game: str) -> None:
    """'the player marks the four corners ... by the corners' squares': a piece put on
    each corner square in turn (each photo with its own light, the camera not moved)
    gives the board's corners within a fifth of a square (a piece stands a little off
    its square's centre, and the corners are half a square beyond the pieces), and the
    board is read through them. Two poses of the camera a game."""
    layout = layout_for(position(game, 0))
    camera = fake_camera(layout, markers=False)
    places = cal.corner_squares(layout)
    assert len({p.square for p in places}) == 4
    for pose in (21, 22):
        empty = camera.photo({}, 300 + pose, pose=pose)
        centres = [cal.find_piece(empty.image, camera.photo({place.square: k % 2}, 400 + 10 * pose + k,
                                                               pose=pose).image)
                   for k, place in enumerate(places)]
        corners = cal.corners_from_pieces(layout, centres)
        true = cal.corners_on(layout, empty.homography)
        square = np.hypot(*(true[1] - true[0])) / layout.grid[1]  # pixels, along the top
        assert np.abs(corners - true).max() < 0.2 * square, (game, pose, square)
    calibration = cal.calibrate(layout, empty.image, [tuple(p) for p in corners])
    pieces = seen_board(position(game, 77))
    try:
        reading = Reader(layout, calibration=calibration).read(camera.photo(pieces, 500, pose=22).image)
    except PictureRefused:
        return  # a doubt asks; never a misread
    assert reading.occupied() == pieces


def test_a_piece_not_there_or_more_than_a_piece_is_refused() -> None:
    layout = layout_for(get_game("senet-tait").new_state())
    camera = fake_camera(layout, markers=False)
    first, again = camera.frames({}, 1, [None, None], pose=1)  # the same light, fresh noise
    empty = first.image
    with pytest.raises(cal.CalibrationError, match="no piece found"):
        cal.find_piece(empty, again.image)
    with pytest.raises(cal.CalibrationError, match="more than a piece"):
        cal.find_piece(empty, camera.photo({}, 2, pose=1, hand=True).image)
    with pytest.raises(cal.CalibrationError, match="different sizes"):
        cal.find_piece(empty, empty[:100])
    with pytest.raises(cal.CalibrationError, match="do not make a board"):
        cal.corners_from_pieces(layout, [(10, 10), (200, 10), (10, 200), (200, 200)])  # crossed
