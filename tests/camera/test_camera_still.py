"""A picture is read only when the board has been still for a moment and nothing covers
it (issue 34: "a picture is read only when it has been still for a moment and nothing
(a hand) covers the board"): frames of the fake camera with a hand reaching in,
resting, and drawing back, deterministic by seed."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from itertools import islice
from pathlib import Path

import numpy as np
import pytest
from scenes import position

from companion.app.camera import LiveCamera
from companion.camera.board import Pixels, layout_for
from companion.camera.fake import FakeCamera
from companion.camera.find import seen_board
from companion.camera.read import PictureRefused, Reader
from companion.camera.saved import SavedFrames
from companion.camera.sources import CameraError
from companion.camera.still import STILL_FRAMES, Look, Stillness, motion, small, still_readings
from companion.rules import Move, State
from companion.rules.core import Square

FPS = 30.0
"""The frame rate the frames are taken at (the clock's seconds per frame)."""
REACH = [4.0, 3.0, 2.2, 1.5, 1.0, 0.6, 0.3, 0.1, 0.0]
"""A hand reaching in from off the board to a square, in squares back from it, a frame each."""


class Frames:
    """A camera that gives ``frames`` in order, then fails as one unplugged;
    :meth:`clock` its time in seconds (a frame each 1/:data:`FPS`)."""

    def __init__(self, frames: Sequence[Pixels]) -> None:
        self.frames, self.taken = list(frames), 0

    def grab(self) -> Pixels:
        if self.taken >= len(self.frames):
            raise CameraError("the frames ended")
        self.taken += 1
        return self.frames[self.taken - 1]

    def clock(self) -> float:
        return self.taken / FPS

    def close(self) -> None:
        pass


@pytest.fixture(scope="module")
def tait() -> tuple[State, Move, FakeCamera, Reader]:
    """A position of Tait's Senet waiting for a move, the move played, the camera and the reader."""
    state = position("senet-tait", 3, waiting_for_throw=True)
    state.apply(state.throw_outcomes()[1][0])
    move = state.legal_moves()[-1]
    layout = layout_for(state)
    return state, move, FakeCamera(layout), Reader(layout)


def after(state: State, move: Move) -> dict[Square, int]:
    played = state.copy()
    played.apply(move)
    return seen_board(played)


@pytest.fixture(scope="module")
def videos(tait: tuple[State, Move, FakeCamera, Reader]) -> dict[int, list[Pixels]]:
    """By seed (1-3), the frames of the move played: the board before still; a hand
    reaches in, rests on the board for a while (still but over it), moves the piece
    and draws back; the board after the move still."""
    state, move, camera, _reader = tait
    out = {}
    for seed in (1, 2, 3):
        hands: list[float | None] = [None] * 8 + REACH + [0.0] * 10
        first = camera.frames(seen_board(state), seed, hands)
        second = camera.frames(after(state, move), seed, [0.0, *REACH[::-1], None, *[None] * 10])
        out[seed] = [p.image for p in first + second]
    return out


def held(camera: FakeCamera, board: dict[Square, int], seed: int, hand: float | None,
         count: int) -> Frames:
    """``count`` frames of ``board`` held still (three frames' noise, over and over)."""
    three = [p.image for p in camera.frames(board, seed, [hand] * 3)]
    return Frames((three * count)[:count])


def test_the_fake_cameras_frames_are_one_scene_with_fresh_noise_by_seed(
        tait: tuple[State, Move, FakeCamera, Reader]) -> None:
    state, _move, camera, _reader = tait
    board = seen_board(state)
    one = camera.frames(board, 5, [None, None, 0.0])
    two = camera.frames(board, 5, [None, None, 0.0])
    assert all(np.array_equal(a.image, b.image) for a, b in zip(one, two, strict=True))
    assert not np.array_equal(one[0].image, one[1].image)  # the sensor's noise
    assert np.abs(one[0].image.astype(int) - one[1].image).mean() < 4
    assert motion(small(one[0].image), small(one[1].image)) == 0.0
    assert motion(small(one[1].image), small(one[2].image)) > 0.01  # the hand came
    assert one[2].hand and not one[1].hand


def test_stillness_counts_still_frames_and_a_moving_hand_starts_it_again(
        tait: tuple[State, Move, FakeCamera, Reader]) -> None:
    state, _move, camera, _reader = tait
    frames = camera.frames(seen_board(state), 8, [None] * STILL_FRAMES + REACH[3:] + [0.0] * STILL_FRAMES)
    stillness = Stillness()
    runs = []
    for frame in frames:
        stillness.feed(frame.image)
        runs.append(stillness.run)
    assert runs[:STILL_FRAMES] == list(range(1, STILL_FRAMES + 1))
    assert runs[STILL_FRAMES:STILL_FRAMES + 6] == [0] * 6  # each frame of the hand moving
    assert runs[-1] == STILL_FRAMES  # the hand held still: still (the reader refuses it)
    stillness.reset()
    assert stillness.run == 0


def test_a_hand_gives_no_reading_only_a_wait_and_the_board_is_read_when_it_has_gone(
        tait: tuple[State, Move, FakeCamera, Reader], videos: dict[int, list[Pixels]]) -> None:
    """While the hand moves nothing is read; held still over the board the reader
    refuses it (in two seeds of three: the third's fingertips cover no square, and its
    board is read right); once it has gone the new board is read, as soon as it
    has been still for STILL_FRAMES frames. No frame is ever read wrong."""
    state, move, _camera, reader = tait
    before, board = seen_board(state), after(state, move)
    hand_at = 8  # the first frame with a hand
    rests = range(hand_at + len(REACH) + STILL_FRAMES, hand_at + len(REACH) + 10)  # still, over the board
    back = 8 + len(REACH) + 10 + 1 + len(REACH)  # the first frame without a hand, after the move
    refused = 0
    for seed in (1, 2, 3):
        frames = videos[seed]
        looks = _take(still_readings(Frames(frames).grab, reader), len(frames))
        for index, look in enumerate(looks):
            if look.reading is not None:
                assert look.reading.occupied() == (before if index < back - len(REACH) - 1 else board)
        reaching = range(hand_at, hand_at + len(REACH) - 1)
        going = range(back - len(REACH), back + 1)
        assert not any(looks[i].still for i in (*reaching, *going)), "a frame of the moving hand was still"
        assert all(looks[i].still for i in rests)
        refused += all(looks[i].refused is not None for i in rests)
        # the hand's going moved the frame at ``back``; still again STILL_FRAMES frames later
        assert looks[back + STILL_FRAMES - 1].reading is None
        assert looks[back + STILL_FRAMES].reading is not None
    assert refused >= 2


def _take(looks: Iterator[Look], n: int) -> list[Look]:
    """The first ``n`` of ``looks``."""
    return list(islice(looks, n))


@pytest.mark.parametrize("seed", [1, 2])
def test_a_live_camera_waits_past_the_hand_and_the_board_as_before(
        tait: tuple[State, Move, FakeCamera, Reader], videos: dict[int, list[Pixels]], seed: int) -> None:
    state, move, _camera, _reader = tait
    board = after(state, move)
    frames = Frames(videos[seed])
    live = LiveCamera(frames, clock=frames.clock)
    reading = live.look(state)
    assert {s: p for s, p in reading.items() if p is not None} == board
    assert frames.taken == len(frames.frames) - 10 + STILL_FRAMES  # read once the board was still


def test_a_piece_on_a_wrong_square_is_said_once_it_has_stood_for_a_moment(
        tait: tuple[State, Move, FakeCamera, Reader]) -> None:
    state, _move, camera, _reader = tait
    board = seen_board(state)
    square = next(s for s in range(1, 31) if s not in board)
    wrong = {**board, square: 0}  # a piece no legal move puts there
    frames = held(camera, wrong, 6, None, 200)
    live = LiveCamera(frames, clock=frames.clock, settle=2.0)
    reading = live.look(state)
    assert {s: p for s, p in reading.items() if p is not None} == wrong
    assert frames.taken == pytest.approx(STILL_FRAMES + 2.0 * FPS, abs=2)


def test_a_board_as_before_after_patience_is_the_answer_and_a_resting_hand_refuses(
        tait: tuple[State, Move, FakeCamera, Reader], tmp_path: Path) -> None:
    state, _move, camera, _reader = tait
    board = seen_board(state)
    frames = held(camera, board, 7, None, 100)
    live = LiveCamera(frames, clock=frames.clock, patience=2.0)
    assert {s: p for s, p in live.look(state).items() if p is not None} == board
    assert frames.taken == pytest.approx(2.0 * FPS, abs=2)
    frames = held(camera, board, 1, 0.0, 100)
    saved = SavedFrames(tmp_path / "frames")  # camera.save_frames on: the frame refused kept
    with pytest.raises(PictureRefused, match=r"^hold still: something covers"):
        LiveCamera(frames, clock=frames.clock, patience=2.0, saved=saved).look(state)
    assert [p.name[-12:] for p in (tmp_path / "frames").iterdir()] == ["-refused.jpg"]


def test_a_look_ends_at_the_next_frame_when_cancelled_or_closed(
        tait: tuple[State, Move, FakeCamera, Reader]) -> None:
    state, _move, camera, _reader = tait
    still = [p.image for p in camera.frames(seen_board(state), 7, [None] * 3)] * 40
    frames = Frames(still)
    cancel = threading.Event()
    live = LiveCamera(frames, clock=frames.clock)
    grab = frames.grab

    def grab_then_cancel() -> Pixels:
        if frames.taken == 10:
            cancel.set()
        return grab()

    frames.grab = grab_then_cancel  # type: ignore[method-assign]
    with pytest.raises(PictureRefused, match="stopped"):
        live.look(state, cancel)
    assert frames.taken == 11
    live.close()
    with pytest.raises(PictureRefused, match="stopped"):
        live.look(state)


