"""A picture is read only when the board has been still for a moment.

A real camera gives frames all the time; a player's hand comes and goes over the
board. :class:`Stillness` compares each frame with the one before: a frame is *still*
when few pixels of a small grey copy of it (:data:`SMALL_WIDTH` pixels wide, blurred:
sensor noise averages out) changed by more than :data:`MOTION_LEVEL`; the board is
still when :data:`STILL_FRAMES` frames in a row were (about a quarter of a second at
a webcam's 30 frames a second). :func:`still_readings` reads only such frames; the
reader itself refuses a frame where a marker is hidden or a square covered
(:class:`~.read.PictureRefused`: a hand held still over the board), so a hand never
gives a reading, only a wait.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import cv2
import numpy as np

from .board import Pixels
from .read import PictureRefused, Reader, Reading

SMALL_WIDTH = 160
"""The width in pixels of the grey copy frames are compared on (its height in
proportion)."""
MOTION_LEVEL = 8.0
"""Grey levels (0-255) a pixel of the small copy must change by to count as moved."""
MOTION_SHARE = 0.0002
"""The share of the small copy's pixels that may move in a still frame."""
STILL_FRAMES = 6
"""Frames in a row that must be still (each against the one before) before one is read."""


def small(frame: Pixels) -> Pixels:
    """``frame`` (RGB uint8, (h, w, 3)) as a small blurred grey copy, float32 0-255,
    :data:`SMALL_WIDTH` pixels wide."""
    height, width = frame.shape[:2]
    size = (SMALL_WIDTH, max(1, round(height * SMALL_WIDTH / width)))
    grey = cv2.cvtColor(frame, cv2.COLOR_RGB2GRAY)
    reduced = cv2.resize(grey, size, interpolation=cv2.INTER_AREA).astype(np.float32)
    return np.asarray(cv2.GaussianBlur(reduced, (3, 3), 0), np.float32)


def motion(before: Pixels, after: Pixels) -> float:
    """The share of pixels that moved (by more than :data:`MOTION_LEVEL`) between two
    small copies (:func:`small`) of one size; 1.0 when their sizes differ."""
    if before.shape != after.shape:
        return 1.0
    return float(np.mean(np.abs(after - before) > MOTION_LEVEL))


@dataclass
class Stillness:
    """Counts the still frames in a row: :meth:`feed` each frame, in order.

    ``frames``: how many in a row make the board still; ``share``: the moved share a
    still frame may have (:func:`motion`)."""

    frames: int = STILL_FRAMES
    share: float = MOTION_SHARE
    run: int = 0
    """Still frames in a row so far (the first frame counts as still)."""
    _last: Pixels | None = None

    def feed(self, frame: Pixels) -> bool:
        """Take the next frame (RGB uint8); whether the board has now been still for
        :attr:`frames` frames."""
        copy = small(frame)
        if self._last is None or motion(self._last, copy) <= self.share:
            self.run += 1
        else:
            self.run = 0
        self._last = copy
        return self.run >= self.frames

    def reset(self) -> None:
        """Forget the frames so far (the camera was opened again)."""
        self.run, self._last = 0, None


@dataclass(frozen=True)
class Look:
    """One frame of :func:`still_readings`: ``frame`` (RGB uint8); ``still`` whether the
    board had been still long enough to read it; then ``reading`` what it shows, or
    ``refused`` why it could not be read (a hand over a square, a marker hidden)."""

    frame: Pixels
    still: bool
    reading: Reading | None = None
    refused: PictureRefused | None = None


def still_readings(grab: Callable[[], Pixels], reader: Reader,
                   stillness: Stillness | None = None) -> Iterator[Look]:
    """Every frame ``grab`` gives, as a :class:`Look`: read only when the board has been
    still for a moment (``stillness``, default :class:`Stillness`()). Endless: the
    caller stops when it has what it waits for (or its time is up).

    :raises companion.camera.sources.CameraError: from ``grab``.
    """
    stillness = stillness or Stillness()
    while True:
        frame = grab()
        if not stillness.feed(frame):
            yield Look(frame, False)
            continue
        try:
            yield Look(frame, True, reader.read(frame))
        except PictureRefused as exc:
            yield Look(frame, True, refused=exc)


def still_picture(grab: Callable[[], Pixels], average: int = 1, most: int = 150) -> Pixels:
    """A still picture from ``grab`` (a camera's frames, RGB uint8): the first frame after
    the board has been still for a moment (:class:`Stillness`), or the last of ``most``
    frames, then the mean of ``average`` frames from it on (fewer if the frames end
    first: a video file): the sensor's noise averaged out of a calibration's still
    (``companion camera calibrate``, the box's Calibrate camera row).

    :raises companion.camera.sources.CameraError: the first frame cannot be had (a frame
        missing later ends the wait: a video file at its end gives its last frame).
    """
    from .sources import CameraError

    stillness = Stillness()
    frame = None
    for _ in range(most):
        try:
            frame = grab()
        except CameraError:
            if frame is None:
                raise
            break  # a video file at its end: its last frame
        if stillness.feed(frame):
            break
    assert frame is not None
    frames = [frame]
    for _ in range(average - 1):
        try:
            frames.append(grab())
        except CameraError:
            break
    if len(frames) == 1:
        return frame
    return np.asarray(np.mean(frames, axis=0) + 0.5, np.uint8)


__all__ = ["MOTION_LEVEL", "MOTION_SHARE", "SMALL_WIDTH", "STILL_FRAMES", "Look", "Stillness",
           "motion", "small", "still_picture", "still_readings"]
