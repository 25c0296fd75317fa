"""Real cameras: where the frames come from (``camera.source`` ``usb`` and ``picamera``).

A :class:`FrameSource` gives one frame at a time, RGB, shape (height, width, 3), uint8,
and is closed when done. Two are built:

* :class:`VideoSource`: OpenCV's ``cv2.VideoCapture``. A device index (``0``) or a
  ``/dev/videoN`` path is opened through V4L2 (``cv2.CAP_V4L2``: a USB webcam); any
  other path is opened as a video file by the same code (OpenCV's own backend), which
  is how the tests drive this source without a camera;
* :class:`PiCameraSource`: a Raspberry Pi camera module through picamera2 (Pi OS's
  ``python3-picamera2``), imported when the camera is first opened, never before.

Both open on the first :meth:`~FrameSource.grab`, on the caller's thread (the
service's worker, never the event loop's), and raise :class:`CameraError` when the
camera cannot be opened or gives no frame (unplugged, a file that ended); the next
grab tries to open it again (a camera plugged back in is used again).
"""

from __future__ import annotations

import importlib.util
import logging
import threading
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from companion.errors import CompanionError

from .board import Pixels

log = logging.getLogger(__name__)

PICAMERA2_MISSING = "picamera2 is not installed (Pi OS: apt install python3-picamera2)"
"""The error when ``camera.source = "picamera"`` finds no picamera2."""
FRAME_SIZE = (1280, 720)
"""The frame size (width, height) pixels asked of a real camera (it may give another):
a square of a printed A4 board is then about 40 pixels across from 50 cm."""


class CameraError(CompanionError, OSError):
    """The camera cannot be opened or gave no frame; the message names it and why."""


class FrameSource(Protocol):
    """Frames from a camera."""

    def grab(self) -> Pixels:
        """The next frame: RGB, shape (height, width, 3), uint8.

        :raises CameraError: the camera cannot be opened or gave no frame.
        """
        ...

    def close(self) -> None:
        """Let the camera go (idempotent; a later :meth:`grab` opens it again)."""
        ...


def parse_device(device: str | int) -> int | str:
    """A ``camera.device`` value as ``cv2.VideoCapture`` takes it: digits are an index
    (``"0"`` -> 0), anything else a path."""
    if isinstance(device, int):
        return device
    text = device.strip()
    return int(text) if text.isdigit() else text


class VideoSource:
    """Frames through ``cv2.VideoCapture`` from ``device``: an index or a
    ``/dev/videoN`` path (V4L2, asked for :data:`FRAME_SIZE`), or a video file's path
    (the file's own size; its frames in order, then :class:`CameraError`)."""

    def __init__(self, device: str | int) -> None:
        self.device = parse_device(device)
        self._capture: Any = None
        self._lock = threading.Lock()

    @property
    def v4l2(self) -> bool:
        """Whether the device is opened through V4L2 (an index or a /dev path)."""
        return isinstance(self.device, int) or str(self.device).startswith("/dev/")

    def _open(self) -> Any:
        if self.v4l2:
            capture = cv2.VideoCapture(self.device, cv2.CAP_V4L2)
        else:
            if not Path(str(self.device)).is_file():
                raise CameraError(f"camera {self.device}: no such file")
            capture = cv2.VideoCapture(str(self.device))
        if not capture.isOpened():
            capture.release()
            raise CameraError(f"camera {self.device} cannot be opened (is it plugged in, and "
                              "may this user use it: the video group?)")
        if self.v4l2:
            # Motion JPEG: most webcams give 1280 x 720 at 30 frames a second only so
            capture.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*"MJPG"))
            capture.set(cv2.CAP_PROP_FRAME_WIDTH, FRAME_SIZE[0])
            capture.set(cv2.CAP_PROP_FRAME_HEIGHT, FRAME_SIZE[1])
            capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # the newest frame, not an old one
        log.info("camera %s opened", self.device)
        return capture

    def grab(self) -> Pixels:
        """The next frame, RGB uint8 (h, w, 3).

        :raises CameraError: the device cannot be opened, or it gave no frame (the
            camera unplugged, the file at its end): the source is closed, the next grab
            opens it again.
        """
        with self._lock:
            if self._capture is None:
                self._capture = self._open()
            ok, frame = self._capture.read()
            if not ok or frame is None:
                self._release()
                raise CameraError(f"camera {self.device} gave no picture (unplugged?)")
        return np.asarray(cv2.cvtColor(frame, cv2.COLOR_BGR2RGB), np.uint8)

    def _release(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None

    def close(self) -> None:
        with self._lock:
            self._release()


def picamera2_installed() -> bool:
    """Whether picamera2 can be imported (without importing it)."""
    try:
        return importlib.util.find_spec("picamera2") is not None
    except (ImportError, ValueError):
        return False


class PiCameraSource:
    """Frames of a Raspberry Pi camera module through picamera2, :data:`FRAME_SIZE`,
    RGB. picamera2 is imported on the first grab.

    :raises CameraError: (from :meth:`grab`) picamera2 is missing
        (:data:`PICAMERA2_MISSING`), no camera module is found, or a frame fails.
    """

    def __init__(self, number: int = 0) -> None:
        self.number = number
        self._camera: Any = None
        self._lock = threading.Lock()

    def _open(self) -> Any:
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]
        except ImportError as exc:
            raise CameraError(PICAMERA2_MISSING) from exc
        try:
            camera = Picamera2(self.number)
            # picamera2's "BGR888" is R, G, B in memory: the order the reader takes
            camera.configure(camera.create_video_configuration(
                main={"size": FRAME_SIZE, "format": "BGR888"}))
            camera.start()
        except Exception as exc:  # picamera2 raises RuntimeError, IndexError, OSError...
            raise CameraError(f"the Pi camera {self.number} cannot be opened: {exc}") from exc
        log.info("Pi camera %d opened", self.number)
        return camera

    def grab(self) -> Pixels:
        """The next frame, RGB uint8 (h, w, 3). :raises CameraError: as the class says."""
        with self._lock:
            if self._camera is None:
                self._camera = self._open()
            try:
                frame = self._camera.capture_array("main")
            except Exception as exc:
                self._release()
                raise CameraError(f"the Pi camera gave no picture: {exc}") from exc
        return np.ascontiguousarray(np.asarray(frame)[..., :3], np.uint8)

    def _release(self) -> None:
        if self._camera is not None:
            try:
                self._camera.close()
            except Exception:  # closing a camera that failed: nothing more to do
                log.debug("closing the Pi camera failed", exc_info=True)
            self._camera = None

    def close(self) -> None:
        with self._lock:
            self._release()


__all__ = ["FRAME_SIZE", "PICAMERA2_MISSING", "CameraError", "FrameSource", "PiCameraSource",
           "VideoSource", "parse_device", "picamera2_installed"]
