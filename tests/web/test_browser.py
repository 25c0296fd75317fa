"""End to end, in a real browser: a scripted game of each of the four games with
`companion demo --journal DIR`, `companion web` on a free loopback port, the page opened
in Debian's headless Chromium (`--dump-dom`, `--screenshot`), and the board it shows
compared with the position the engine holds after replaying the journal.

Needs /usr/bin/chromium (`make test` installs it when apt-get can be used); skips with
the reason otherwise. Write the README's screenshots again with
``UPDATE_SCREENSHOTS=1 .venv/bin/python -m pytest tests/web/test_browser.py``.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import programs
import pytest
from PIL import Image

from companion.app.journal import load
from companion.rules import PieceZone

REPO = Path(__file__).resolve().parents[2]
SHOTS = REPO / "docs" / "web"
UPDATE = bool(os.environ.get("UPDATE_SCREENSHOTS"))
CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)
GAMES = ("senet-tait", "senet-sticks", "labyrinth", "cretan-labyrinth")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--window-size=1000,760"]

pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="no chromium: `make test` installs Debian's chromium when apt-get can be used "
    "as root; here it cannot (install it: apt-get install chromium)",
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A scripted whole game of each game, each in its own journal directory."""
    base = tmp_path_factory.mktemp("journals")
    procs = {}
    for game in GAMES:
        procs[game] = subprocess.Popen(
            [sys.executable, "-m", "companion", "demo", "--game", game, "--journal",
             str(base / game)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    for game, proc in procs.items():
        _, err = proc.communicate(timeout=programs.limit(13))  # all four: 13 s idle
        assert proc.returncode == 0, f"demo {game}: {err.decode()}"
    return {game: base / game for game in GAMES}


@contextlib.contextmanager
def serving(directory: Path) -> Iterator[str]:
    """`companion web` on a free loopback port, serving ``directory``; yields its URL."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "web", "--bind", "127.0.0.1", "--port", str(port),
         "--dir", str(directory)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(300):
            try:
                with urllib.request.urlopen(url, timeout=2) as answer:
                    assert answer.status == 200
                break
            except OSError:
                if proc.poll() is not None:
                    raise AssertionError(f"companion web stopped: {proc.stderr.read().decode()}"
                                         if proc.stderr else "companion web stopped") from None
                time.sleep(0.05)
        else:
            raise AssertionError("companion web did not answer in 15 s")
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        for stream in (proc.stdout, proc.stderr):
            if stream:
                stream.close()


def chromium(*args: str, profile: Path) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None
    return programs.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *args],
                        capture_output=True, text=True, idle=5, check=False)


def shown_pieces(dom: str) -> list[tuple[int, str]]:
    match = re.search(r"<svg xmlns=.*?</svg>", dom, re.S)
    assert match is not None, dom[:2000]
    root = ET.fromstring(match.group(0))
    return sorted((int(g.attrib["data-player"]), g.attrib["data-square"])
                  for g in root.iter("{http://www.w3.org/2000/svg}g")
                  if "piece" in g.attrib.get("class", "").split())


@pytest.mark.parametrize("game", GAMES)
def test_the_browser_shows_the_position_after_the_last_move(
        games: dict[str, Path], game: str, tmp_path: Path) -> None:
    directory = games[game]
    (journal,) = directory.glob("*.journal")
    loaded = load(journal, repair=False)
    expected = sorted((p.player, str(p.square)) for p in loaded.state.pieces()
                      if p.zone is PieceZone.BOARD)
    with serving(directory) as url:
        done = chromium("--dump-dom", url, profile=tmp_path / "profile")
        assert done.returncode == 0, done.stderr[-2000:]
        dom = done.stdout
        assert f'data-game="{game}"' in dom
        assert f'data-actions="{len(loaded.actions)}"' in dom
        assert shown_pieces(dom) == expected
        assert "Events" in dom and 'class="throw"' in dom
        shot = tmp_path / f"{game}.png"
        done = chromium(f"--screenshot={shot}", url, profile=tmp_path / "profile")
        assert done.returncode == 0 and shot.exists(), done.stderr[-2000:]
        with Image.open(shot) as image:
            assert image.size == (1000, 760)
            assert len(image.convert("L").getcolors(1 << 16) or []) > 8  # not a blank page
        if UPDATE:
            SHOTS.mkdir(parents=True, exist_ok=True)
            shutil.copy(shot, SHOTS / f"{game}.png")



def widest_white_run(image: Image.Image) -> int:
    """The longest run of pure white pixels in any row: the board's frame (the page
    around it is cream, the events' box off-white)."""
    rgb = image.convert("RGB")
    width, height = rgb.size
    pixels = rgb.load()
    assert pixels is not None
    best = 0
    for y in range(0, height, 4):
        run = 0
        for x in range(width):
            run = run + 1 if pixels[x, y] == (255, 255, 255) else 0
            best = max(best, run)
    return best


@pytest.mark.parametrize(("size", "low", "high"), [
    ((1600, 1000), 2.0, None),  # a desktop: the board at twice its sketch's size or more
    ((390, 844), None, 1.0),  # a phone: the whole width, no wider than the window
])
def test_the_board_scales_with_the_window(
        games: dict[str, Path], tmp_path: Path, size: tuple[int, int],
        low: float | None, high: float | None) -> None:
    """Was: a fixed 402x182 px board, the smallest thing on a desktop screen (issue 23,
    item 7)."""
    (journal,) = games["senet-tait"].glob("*.journal")
    sketch = 402  # the SVG's viewBox width for Senet (3 rows of 10 squares)
    shot = tmp_path / "shot.png"
    with serving(games["senet-tait"]) as url:
        done = chromium(f"--window-size={size[0]},{size[1]}", f"--screenshot={shot}", url,
                        profile=tmp_path / "profile")
    assert done.returncode == 0 and shot.exists(), done.stderr[-2000:]
    with Image.open(shot) as image:
        shown = widest_white_run(image)
    assert journal.exists()
    if low is not None:
        assert shown >= low * sketch, f"the board is {shown} px wide in a {size} window"
    if high is not None:
        assert sketch * 0.8 * (size[0] - 40) / sketch <= shown <= high * size[0], shown
