"""The camera reads positions from fake photos: every square right, a hand refused, and
the move played found from the photo (issue 34, "How it is tested").

The seeds here are not the benchmark's held-out ones (benchmarks/vision.py starts at
1,000,000)."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest
from scenes import GAMES, position

from companion.camera.board import layout_for
from companion.camera.fake import FakeCamera, fake_camera
from companion.camera.find import (
    FOUND,
    NONE,
    board_differences,
    expected_board,
    find_move,
    seen_board,
    seen_pieces,
)
from companion.camera.read import PictureRefused, Reader, board_text, overlay
from companion.rules import Move, Phase, State, random_action
from companion.rules.core import Square


@pytest.fixture(scope="module", params=GAMES)
def rig(request: pytest.FixtureRequest) -> tuple[str, FakeCamera, Reader]:
    layout = layout_for(position(request.param, 0))
    return request.param, fake_camera(layout), Reader(layout)


def test_every_square_of_random_positions_is_read_right(rig: tuple[str, FakeCamera, Reader]) -> None:
    game, camera, reader = rig
    for seed in range(10):
        pieces = seen_board(position(game, seed))
        photo = camera.photo(pieces, seed)
        reading = reader.read(photo.image)
        assert reading.occupied() == pieces, (game, seed, board_text(reader.layout, reading))
        assert set(reading.squares) == {p.square for p in reader.layout.squares}


def test_a_hand_over_the_board_is_refused_and_never_misread(rig: tuple[str, FakeCamera, Reader]) -> None:
    """'a picture is read only when ... nothing (a hand) covers the board': every hand
    is refused, by the squares it covers or by its arm on the paper around the board
    (a hand that only brushes a piece or the board's edge)."""
    game, camera, reader = rig
    for seed in range(100, 110):
        pieces = seen_board(position(game, seed))
        photo = camera.photo(pieces, seed, hand=True)
        with pytest.raises(PictureRefused) as refused:
            reader.read(photo.image)
        assert refused.value.reason, (game, seed)


def test_an_arm_on_the_paper_around_the_board_refuses_the_picture(rig: tuple[str, FakeCamera, Reader]) -> None:
    """A hand over the board belongs to an arm that crosses the paper around it: an arm
    painted on the photo from beyond the page's top edge to 1 mm short of the board (no
    square touched) refuses the picture by the paper alone, naming the squares nearest
    to it; the photo without it is read."""
    game, camera, reader = rig
    layout = reader.layout
    pieces = seen_board(position(game, 3))
    for seed in (7, 8):
        photo = camera.photo(pieces, seed)
        assert reader.read(photo.image).occupied() == pieces
        x0, y0 = layout.origin
        middle, half = x0 + layout.size[0] / 2, layout.square / 4
        arm = np.array([[[middle - half, y0 - 1.0], [middle + half, y0 - 1.0],
                         [middle + half, -30.0], [middle - half, -30.0]]], np.float64)
        corners = cv2.perspectiveTransform(arm, photo.homography)[0].round().astype(np.int32)
        image = photo.image.copy()
        cv2.fillConvexPoly(image, corners, (200, 150, 120))
        with pytest.raises(PictureRefused, match=r"^something covers the paper by ") as refused:
            reader.read(image)
        top_row = {place.square for place in layout.squares if place.row == 0}
        assert set(refused.value.squares) <= top_row and refused.value.squares, (game, seed)


def test_the_move_played_is_found_from_the_photo(rig: tuple[str, FakeCamera, Reader]) -> None:
    game, camera, reader = rig
    found = 0
    for seed in range(200, 208):
        state = position(game, seed, waiting_for_throw=True)
        rng = random.Random(seed)
        spec = state.throw_spec
        assert spec is not None
        throw = spec.draw(rng.randrange)
        played = state.copy()
        played.apply(throw)
        if played.phase is not Phase.MOVE:
            continue
        move = random_action(played, rng.randrange)
        played.apply(move)
        photo = camera.photo(seen_board(played), seed)
        finding = find_move(state, throw, reader.read(photo.image).squares)
        assert finding.kind == FOUND, (game, seed, finding)
        assert move in finding.moves
        found += 1
    assert found >= 4


def test_a_piece_on_the_wrong_square_names_the_squares(rig: tuple[str, FakeCamera, Reader]) -> None:
    """'None: the box says which squares differ and what to do ("the piece on 14 should
    be on 18")': the piece moved is put one square further than the move says."""
    game, camera, reader = rig
    squares = [p.square for p in reader.layout.squares]
    checked = 0
    for seed in range(300, 320):
        state = position(game, seed, waiting_for_throw=True)
        rng = random.Random(seed)
        spec = state.throw_spec
        assert spec is not None
        throw = spec.draw(rng.randrange)
        thrown = state.copy()
        thrown.apply(throw)
        if thrown.phase is not Phase.MOVE:
            continue
        moves = [m for m in thrown.legal_moves() if m.kind == "move" and m.dst in squares]
        if not moves:
            continue
        move = moves[0]
        played = thrown.copy()
        played.apply(move)
        board = seen_board(played)
        assert move.dst is not None
        # one further along the numbers; on the Cretan grid the next square of the row
        wrong = move.dst + 1 if isinstance(move.dst, int) else squares[(squares.index(move.dst) + 1) % len(squares)]
        if move.dst not in board or wrong not in squares or wrong in board:
            continue  # the piece did not stay where it landed (a river, the water)
        board[wrong] = board.pop(move.dst)
        if any(_after(thrown, m) == board for m in thrown.legal_moves()):
            continue  # the wrong square is another legal move's
        photo = camera.photo(board, seed)
        finding = find_move(state, throw, reader.read(photo.image).squares)
        assert finding.kind == NONE, (game, seed, finding)
        assert finding.nearest is not None and finding.differences, (game, seed, finding)
        expected = _after(thrown, finding.nearest)
        for d in finding.differences:  # each named square truly differs, as named
            assert (d.seen, d.expected) == (board.get(d.square), expected.get(d.square))
        if finding.nearest == move:  # 'the piece on 18 should be on 17'
            assert {d.square for d in finding.differences} == {move.dst, wrong}
        checked += 1
    assert checked >= 2


def _after(thrown: State, move: Move) -> dict[Square, int]:
    after = thrown.copy()
    after.apply(move)
    return seen_board(after)


def test_overlay_and_text_show_the_reading(rig: tuple[str, FakeCamera, Reader]) -> None:
    game, camera, reader = rig
    pieces = seen_board(position(game, 5))
    reading = reader.read(camera.photo(pieces, 5).image)
    rows, cols = reader.layout.grid
    picture = overlay(reader, reading)
    assert picture.shape == (2 * rows * reader.px_per_square, 2 * cols * reader.px_per_square, 3)
    text = board_text(reader.layout, reading).split("\n")
    assert len(text) == rows
    assert sum(row.count(".") for row in text) == rows * cols - len(pieces)


def test_a_picture_without_the_markers_is_refused(rig: tuple[str, FakeCamera, Reader]) -> None:
    _game, camera, reader = rig
    photo = camera.photo({}, 1)
    blank = photo.image.copy()
    blank[:] = 128
    with pytest.raises(PictureRefused, match="markers not seen: 0, 1, 2, 3"):
        reader.read(blank)


EDGE_MOUNTS = ((2_502_133, 0), (2_502_133, 3), (2_502_754, 0), (2_502_754, 1), (2_520_251, 0), (2_520_251, 1))
"""Camera mounts of the benchmark's tuning seeds (whole games from 2,500,001; never the
held-out ones) like the one that had a third of its frames refused in a held-out run
(docs/camera.md): tilted 25-30 degrees, the page filling under 80 % of the frame, a
sharp lens, JPEG at quality 63-71 and a cold or uneven lamp -- and the scene of each
frame whose Cretan edge squares were read as covered before the board's outer line
was allowed to blend with the paper beyond it."""


@pytest.mark.parametrize(("mount", "scene"), EDGE_MOUNTS)
def test_the_cretan_edge_squares_are_not_covered_by_the_outer_line(mount: int, scene: int) -> None:
    """By the board's outer line the top view mixes the line with the white paper
    beyond it (the markers' homography a pixel or two off at the board's corners, a
    sharp lens and JPEG's colour blocks): such a blend is not a hand. These frames had
    their edge squares (a12, l1, j1, k1, l2, a1, a4, d12, e12) refused as covered;
    they are read, every square right, and the same frame with a hand is still
    refused."""
    game = "cretan-labyrinth"
    layout = layout_for(position(game, 0))
    camera, reader = fake_camera(layout), Reader(layout)
    state = position(game, 50 + scene)
    pieces = seen_pieces(state)
    reading = reader.read(camera.mounted(pieces, mount, scene).image)
    assert board_differences(reading.squares, expected_board(state)) == ()
    with pytest.raises(PictureRefused):
        reader.read(camera.mounted(pieces, mount, scene, hand=True).image)
