"""Issue 34: "the player marks the four corners (on the spectator page ...)": `companion
camera calibrate GAME --page` shows the still of the empty board on a page of its own
(companion/web/marking.py) and the corners clicked there are saved as the calibration.

End to end in Debian's headless Chromium driven through the DevTools protocol
(tests/web/devtools.py, as tests/web/test_browser.py): the command runs with the fake
camera on a free loopback port, the page is opened, the four corners are clicked on
the picture where the fake camera put the board (first in a wrong order: refused on
the page, nothing saved), then saved; the command ends and the calibration holds the
corners clicked. Skips without Chromium or OpenCV. Write docs/camera/calibrate-page.png
again with ``UPDATE_SCREENSHOTS=1``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import devtools
import programs
import pytest

pytest.importorskip("cv2")
pytest.importorskip("uvicorn")

from companion.camera.board import layout_for
from companion.camera.calibration import board_corners_mm, corners_on, load
from companion.camera.fake import fake_camera
from companion.rules import get_game

CHROMIUM = devtools.CHROMIUM
SHOT = Path(__file__).resolve().parents[2] / "docs" / "camera" / "calibrate-page.png"
UPDATE = bool(os.environ.get("UPDATE_SCREENSHOTS"))
"""Write :data:`SHOT` again (``UPDATE_SCREENSHOTS=1``), as tests/web/test_browser.py does."""
FLAGS = devtools.FLAGS

pytestmark = devtools.needs_chromium
free_port = devtools.free_port


def click(page: devtools.Tab, x: float, y: float) -> None:
    """A left click at (x, y), CSS pixels of the viewport."""
    for kind in ("mousePressed", "mouseReleased"):
        page.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)


def click_on(page: devtools.Tab, selector: str, x: float = 0.5, y: float = 0.5) -> None:
    """A click on the element ``selector``, at (``x``, ``y``) of its box (0-1 each way)."""
    rect = json.loads(page.evaluate(
        f"JSON.stringify(document.querySelector('{selector}').getBoundingClientRect())"))
    click(page, rect["left"] + x * rect["width"], rect["top"] + y * rect["height"])


def wait_for(page: devtools.Tab, expression: str, seconds: float) -> object:
    """The value of ``expression`` once it is truthy (the page may be loading)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            value = page.evaluate(expression)
        except devtools.DevToolsError:
            value = None
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"not on the page in {seconds} s: {expression}")


def test_the_corners_clicked_on_the_page_are_saved(tmp_path: Path) -> None:
    assert CHROMIUM is not None
    game, seed = "senet-tait", 4
    layout = layout_for(get_game(game).new_state())
    photo = fake_camera(layout, markers=False).photo({}, seed, pose=seed)
    truth = corners_on(layout, photo.homography)  # top left, top right, bottom right, bottom left
    assert truth.shape == board_corners_mm(layout).shape
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "COMPANION_CONFIG"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "camera", "calibrate", game, "--fake", str(seed), "--page",
         "--bind", "127.0.0.1", "--port", str(port), "--dir", str(tmp_path / "state")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    url = f"http://127.0.0.1:{port}/"
    try:
        devtools.wait_for(url, proc, 30)
        with devtools.browser(CHROMIUM, FLAGS, tmp_path / "profile", idle=5) as page:
            page.open(url, devtools.DESKTOP, mobile=False)
            wait_for(page, "document.querySelector('#still img').naturalWidth", programs.limit(5))
            shown = page.evaluate("document.querySelector('#still img').getBoundingClientRect().width")
            assert shown == photo.image.shape[1]  # the still at its own size: CSS px are its pixels
            rect = json.loads(page.evaluate(
                "JSON.stringify(document.querySelector('#still img').getBoundingClientRect())"))
            # a mirror first (top right marked first): refused on the page, nothing saved
            for x, y in truth[[1, 0, 3, 2]]:
                click(page, rect["left"] + x, rect["top"] + y)
            assert page.evaluate("document.getElementById('save').disabled") is False
            click_on(page, "#save")
            problem = wait_for(page, "document.getElementById('problem') && "
                               "document.getElementById('problem').innerText", programs.limit(5))
            assert "wrong way" in str(problem), problem
            assert not (tmp_path / "state" / f"camera-calibration-{game}.json").exists()
            # marked again, in the order asked: each click numbered on the picture
            wait_for(page, "document.querySelector('#still img').naturalWidth", programs.limit(5))
            rect = json.loads(page.evaluate(
                "JSON.stringify(document.querySelector('#still img').getBoundingClientRect())"))
            for x, y in truth[:3]:
                click(page, rect["left"] + x, rect["top"] + y)
            click_on(page, "#undo")  # the third taken back, then marked again
            for x, y in truth[2:]:
                click(page, rect["left"] + x, rect["top"] + y)
            assert page.evaluate("document.querySelectorAll('.corner-mark').length") == 4
            marked = page.evaluate("document.getElementById('corners').value").split()
            assert len(marked) == 4
            if UPDATE:  # docs/camera.md's picture of the page, the four corners marked
                page.call("Emulation.setDeviceMetricsOverride", width=860, height=920, deviceScaleFactor=1,
                          mobile=False)
                page.screenshot(SHOT)
                page.call("Emulation.setDeviceMetricsOverride", width=devtools.DESKTOP[0],
                          height=devtools.DESKTOP[1], deviceScaleFactor=1, mobile=False)
            click_on(page, "#save")
            saved = wait_for(page, "document.getElementById('saved') && "
                             "document.getElementById('saved').innerText", programs.limit(5))
            assert f"camera-calibration-{game}.json" in str(saved), saved
        out, err = proc.communicate(timeout=programs.limit(5))
        assert proc.returncode == 0, (out, err)
        assert "calibration saved:" in out, out
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(timeout=10)
    calibration = load(tmp_path / "state", layout)
    assert calibration is not None
    # the clicks land on whole CSS pixels: within a pixel of where the board's corners are
    assert abs(calibration.corners - truth).max() <= 1.0, (calibration.corners, truth)
