"""The real cameras' sources (``camera.source`` usb and picamera) without a camera: the
USB webcam's ``cv2.VideoCapture`` code path reads a video file of fake photos; a
missing device, a file that ends and a missing picamera2 give a :class:`CameraError`
that names them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from camera_video import write_video
from scenes import position

from companion.camera.board import layout_for
from companion.camera.fake import FakeCamera
from companion.camera.find import seen_board
from companion.camera.read import Reader
from companion.camera.sources import (
    PICAMERA2_MISSING,
    CameraError,
    PiCameraSource,
    VideoSource,
    parse_device,
    picamera2_installed,
)
from companion.rules.core import Square


def test_a_video_file_is_read_through_the_capture_frame_by_frame_then_it_ends(tmp_path: Path) -> None:
    state = position("senet-tait", 4)
    layout = layout_for(state)
    camera, reader = FakeCamera(layout), Reader(layout)
    boards: list[dict[Square, int]] = [seen_board(state), {1: 0, 7: 1}]
    photos = [camera.photo(board, seed) for seed, board in enumerate(boards)]
    source = VideoSource(str(write_video(tmp_path / "table.avi", (p.image for p in photos))))
    assert not source.v4l2
    for photo, board in zip(photos, boards, strict=True):
        frame = source.grab()
        assert frame.shape == photo.image.shape and frame.dtype == np.uint8
        assert np.abs(frame.astype(int) - photo.image).mean() < 4  # RGB, not BGR; Motion JPEG's loss
        assert reader.read(frame).occupied() == board
    with pytest.raises(CameraError, match="gave no picture"):
        source.grab()  # the file ended: as a camera unplugged
    assert source.grab().shape == photos[0].image.shape  # opened again: from the start
    source.close()
    source.close()


def test_a_device_that_is_not_there_is_a_camera_error_each_time(tmp_path: Path) -> None:
    for device in (str(tmp_path / "no-such.avi"), "/dev/video63"):
        source = VideoSource(device)
        for _ in range(2):
            with pytest.raises(CameraError, match=device.replace(".", r"\.")):
                source.grab()
        source.close()


def test_the_device_is_an_index_or_a_path() -> None:
    assert parse_device("0") == 0 and parse_device(" 2 ") == 2 and parse_device(3) == 3
    assert parse_device("/dev/video0") == "/dev/video0"
    assert VideoSource("1").v4l2 and VideoSource("/dev/video1").v4l2
    assert not VideoSource("table.avi").v4l2


@pytest.mark.skipif(picamera2_installed(), reason="picamera2 is installed here")
def test_without_picamera2_the_pi_camera_says_how_to_install_it() -> None:
    source = PiCameraSource()
    with pytest.raises(CameraError) as caught:
        source.grab()
    assert str(caught.value) == PICAMERA2_MISSING
    assert "apt install python3-picamera2" in PICAMERA2_MISSING
    source.close()
