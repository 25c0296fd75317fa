"""Video files made of fake photos: a real camera's code path (``cv2.VideoCapture``)
driven without a camera."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import cv2

from companion.camera.board import Pixels


def write_video(path: Path, frames: Iterable[Pixels], fps: float = 10.0) -> Path:
    """``frames`` (RGB uint8, all of one size) written to ``path`` (an .avi, Motion
    JPEG) with ``cv2.VideoWriter``; ``path`` returned."""
    writer: cv2.VideoWriter | None = None
    try:
        for frame in frames:
            if writer is None:
                height, width = frame.shape[:2]
                writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), fps, (width, height))
                assert writer.isOpened(), "OpenCV cannot write Motion JPEG here"
            writer.write(cv2.cvtColor(frame, cv2.COLOR_RGB2BGR))
    finally:
        if writer is not None:
            writer.release()
    return path
