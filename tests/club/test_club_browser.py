"""The club page in a real browser: a mosquitto with passwords and the ACL, two boxes'
tables and a few results published to it, `companion club` run as its own process
(as its systemd unit runs it), and the page opened in Debian's headless Chromium
(`--dump-dom`, `--screenshot`): both tables with their boards, the results and the
ratings are there.

Needs /usr/bin/chromium and mosquitto (`make test` installs them when apt-get can be
used); skips with the reason otherwise. Write docs/club.md's screenshots again with
``UPDATE_SCREENSHOTS=1 .venv/bin/python -m pytest tests/club/test_club_browser.py``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import programs
import pytest
from broker import BrokerFactory, acl_for_club, free_port
from games import play, states
from PIL import Image

from companion.club import protocol

pytest_plugins = ["broker"]  # its fixtures: make_broker, tls_files

REPO = Path(__file__).resolve().parents[2]
SHOTS = REPO / "docs" / "club"
UPDATE = bool(os.environ.get("UPDATE_SCREENSHOTS"))
CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars"]
PREFIX = "board-companion"
USERS = {"cafe-1": "pw-1", "cafe-2": "pw-2", "club": "pw-club"}

pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="no chromium: `make test` installs Debian's chromium when apt-get can be used "
    "as root; here it cannot (install it: apt-get install chromium)",
)


def chromium(*args: str, profile: Path) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None
    return programs.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *args],
                        capture_output=True, text=True, idle=6, check=False)


def publish(cli: Any, port: int, messages: list[tuple[str, bytes]]) -> None:
    """Publish ``messages`` retained at QoS 1 as a box would, and disconnect."""
    cli.connect("127.0.0.1", port)
    cli.loop_start()
    for topic, data in messages:
        cli.publish(topic, data, qos=1, retain=True).wait_for_publish(10)
    cli.loop_stop()
    cli.disconnect()


def test_the_club_page_in_a_browser(make_broker: BrokerFactory, tmp_path: Path) -> None:
    broker = make_broker(USERS, acl_for_club(PREFIX, ["cafe-1", "cafe-2"]))
    base = tmp_path / "journals"
    anna_ben = {0: "Anna Berg", 1: "Ben"}  # people of the club's roster (issue 33)
    finished = [("cafe-1", play(base / "a", "senet-sticks", 11, people=anna_ben),
                 "2026-11-26T19:40:00+00:00"),
                ("cafe-1", play(base / "b", "senet-sticks", 12, people={0: "Ben", 1: "Anna Berg"}),
                 "2026-11-26T20:05:00+00:00"),
                ("cafe-2", play(base / "c", "senet-tait", 13, seats={1: "normal"}),
                 "2026-11-26T20:20:00+00:00")]
    live_1 = play(base / "d", "senet-tait", 14, seats={1: "strong"}, finish=False, stop_after=57)
    live_2 = play(base / "e", "labyrinth", 15, finish=False, stop_after=90)
    for table, live in (("cafe-1", live_1), ("cafe-2", live_2)):
        messages = [(protocol.result_topic(PREFIX, t, (r := g.result(t, ended=e))["id"]),
                     protocol.encode(r)) for t, g, e in finished if t == table]
        state = list(states(live, table, updated="2026-11-26T20:31:00+00:00"))[-1]
        messages.append((protocol.state_topic(PREFIX, table), protocol.encode(state)))
        publish(broker.client(table), broker.port, messages)
    password = tmp_path / "club-password"
    password.write_text("pw-club\n")
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "club", "--broker", "127.0.0.1", "--broker-port",
         str(broker.port), "--user", "club", "--password-file", str(password), "--db",
         str(tmp_path / "club.sqlite"), "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(url + "live", timeout=2) as answer:
                    live = answer.read().decode()
                if live.count("<tr data-result=") == 3 and live.count("<svg") == 2:
                    break
            except OSError:
                if proc.poll() is not None:
                    raise AssertionError("companion club stopped") from None
            assert time.monotonic() < deadline, "the club did not get the tables in 30 s"
            time.sleep(0.1)
        done = chromium("--window-size=1200,900", "--dump-dom", url, profile=tmp_path / "profile")
        assert done.returncode == 0, done.stderr[-2000:]
        dom = done.stdout
        for table in ("cafe-1", "cafe-2"):
            assert f'data-table="{table}"' in dom
        assert 'data-game="senet-tait"' in dom and 'data-game="labyrinth"' in dom
        assert dom.count("<tr data-result=") == 3
        assert "Computer (normal)" in dom and "White (computer, strong)" in dom
        # ratings by name: Anna played Red, then Blue; one rating of hers
        ratings = dom[dom.index('data-game="senet-sticks"'):]
        ratings = ratings[:ratings.index("</table>")]
        assert "<td>Anna Berg</td>" in ratings and "<td>Ben</td>" in ratings
        assert "<td>Red</td>" not in ratings and "<td>Blue</td>" not in ratings
        assert "Anna Berg (Red), Ben (Blue)" in dom
        # the page in German (issue 31): ?lang=de
        done = chromium("--window-size=1200,900", "--dump-dom", url + "?lang=de",
                        profile=tmp_path / "profile")
        assert done.returncode == 0, done.stderr[-2000:]
        german = done.stdout
        assert '<html lang="de">' in german
        for word in ("Ergebnisse", "Wertungen", "Weiß (Computer, stark)", "Tisch cafe-1",
                     "Zuletzt: ", "Aktionen"):
            assert word in german, word
        for word in ("Results", "Ratings", "(computer", "Last: ", "to play"):
            assert word not in german, word
        shots = {"club-page.png": (1200, 1400)}
        for name, (width, height) in shots.items():
            shot = tmp_path / name
            done = chromium(f"--window-size={width},{height}", f"--screenshot={shot}", url,
                            profile=tmp_path / "profile")
            assert done.returncode == 0 and shot.exists(), done.stderr[-2000:]
            with Image.open(shot) as image:
                assert image.size == (width, height)
                assert len(image.convert("L").getcolors(1 << 16) or []) > 8  # not blank
            if UPDATE:
                SHOTS.mkdir(parents=True, exist_ok=True)
                shutil.copy(shot, SHOTS / name)
    finally:
        proc.terminate()
        proc.wait(timeout=15)
        for stream in (proc.stdout, proc.stderr):
            if stream:
                stream.close()
    assert proc.returncode in (0, -15)
