"""Frames kept on the box, only when the player asks (``camera.save_frames``).

No picture leaves the box or is stored unless ``camera.save_frames`` is on (issue 34).
When it is, each frame a look was answered with (``*-read.jpg``) or refused on
(``*-refused.jpg``, the last refused frame of a look that found no still, clear
board) is written as a JPEG to a folder under the state directory, at most
:data:`KEEP` of them: the oldest go first.
"""

from __future__ import annotations

import itertools
import logging
import time
from pathlib import Path

import cv2

from .board import Pixels

log = logging.getLogger(__name__)

KEEP = 200
"""The most frames kept (about 30 MB at 1280 x 720)."""
FOLDER = "camera-frames"
"""The folder's name under the state directory."""


class SavedFrames:
    """Writes frames to ``folder`` (made when the first is written), keeping the newest
    ``keep``."""

    def __init__(self, folder: Path, keep: int = KEEP) -> None:
        if keep < 1:
            raise ValueError(f"keep must be at least 1, got {keep}")
        self.folder, self.keep = folder, keep
        self._count = itertools.count()

    def save(self, frame: Pixels, kind: str) -> Path | None:
        """Write ``frame`` (RGB uint8, (h, w, 3)) as ``<time>-<n>-<kind>.jpg`` and drop
        the oldest beyond :attr:`keep`; the path, or ``None`` when it could not be
        written (logged: a full disk never stops a look)."""
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime())
        path = self.folder / f"{stamp}-{next(self._count):06d}-{kind}.jpg"
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            if not cv2.imwrite(str(path), cv2.cvtColor(frame, cv2.COLOR_RGB2BGR),
                               [cv2.IMWRITE_JPEG_QUALITY, 90]):
                raise OSError(f"OpenCV could not write {path}")
            for old in sorted(self.folder.glob("*.jpg"))[:-self.keep]:
                old.unlink(missing_ok=True)
        except OSError as exc:
            log.warning("camera frame not saved: %s", exc)
            return None
        return path


__all__ = ["FOLDER", "KEEP", "SavedFrames"]
