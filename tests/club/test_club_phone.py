"""The club page on a phone (issue 33): rendered in Debian's headless Chromium at
390 x 844 CSS pixels, in English and German, with the longest names the club keeps and
fifty results, nothing is wider than the screen (``document.documentElement.
scrollWidth <= 390``): the results and ratings tables scroll sideways in a box of
their own, the tables' cards shrink to the screen and long names wrap inside them.

The page is the club's own (``create_app``, its HTML and CSS as served), opened from
files, in a frame of 390 pixels, so that a small probe script can measure it (the served page's
Content-Security-Policy allows no script but its own). Needs /usr/bin/chromium; skips
otherwise. ``UPDATE_SCREENSHOTS=1`` writes docs/club/club-page-phone.png again.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from games import play, states
from PIL import Image
from starlette.testclient import TestClient
from test_club_browser import CHROMIUM, chromium

from companion.club import protocol
from companion.club.server import Club, create_app
from companion.club.store import ClubStore
from companion.journal.names import MAX_NAME

REPO = Path(__file__).resolve().parents[2]
SHOTS = REPO / "docs" / "club"
UPDATE = bool(os.environ.get("UPDATE_SCREENSHOTS"))
WIDTH, HEIGHT = 390, 844
PREFIX = "board-companion"
LONG = ["Maximiliane-Charlotte Oberhuber-Wittgenstein", "W" * 40,
        "Bartholomäus Schwarzenbergerschmidt", "Ελευθερία Παπαδοπούλου-Καραγιάννη"]

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium (apt-get install chromium)")

PROBE = """
window.addEventListener("load", function () {
  var root = document.documentElement, wide = [];
  document.querySelectorAll("body *").forEach(function (e) {
    var box = e.getBoundingClientRect(), inScroll = e.closest(".scroll");
    if (!inScroll && box.right > window.innerWidth + 0.5) {
      wide.push(e.tagName + "." + e.className + " " + Math.round(box.right));
    }
  });
  parent.document.getElementById("probe").textContent = JSON.stringify(
    {scroll: root.scrollWidth, inner: window.innerWidth, wide: wide.slice(0, 20)});
});
"""


def named(payload: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """``payload`` with its seats' people named ``names``."""
    seats = [dict(s, person=n) for s, n in zip(payload["seats"], names, strict=False)]
    return dict(payload, seats=seats)


def crowded_club(base: Path) -> Club:
    """A club with two live tables (long names at them) and fifty results of four long
    names (stored as the club would, straight into its store)."""
    club = Club(ClubStore(":memory:"), PREFIX)
    finished = play(base / "done", "senet-tait", 21)
    for n in range(50):
        result = finished.result("cafe-long-table-name-number-one")
        result = named(dict(result, started=f"2026-11-01T02:{n:02d}:00+00:00",
                            ended=f"2026-11-{n % 28 + 1:02d}T03:{n:02d}:00+00:00"),
                       [LONG[n % 4], LONG[(n + 1) % 4]])
        result["id"] = protocol.result_id(result)
        assert club.store.add_result(result)
    for table, live in (("cafe-long-table-name-number-one",
                         play(base / "a", "labyrinth", 22, finish=False, stop_after=70)),
                        ("cafe-2", play(base / "b", "senet-tait", 23, finish=False, stop_after=30))):
        state = named(list(states(live, table))[-1], LONG[:2])
        got = club.receive(protocol.state_topic(PREFIX, table), protocol.encode(state))
        assert got.kind == "state", got.reason
    return club


def page_files(club: Club, folder: Path, query: str) -> Path:
    """The page as the club serves it, with its CSS, as files in ``folder`` (the probe
    script instead of the page's own), in a frame of 390 x 844 (headless Chromium's
    windows are at least 500 pixels wide): the file to open."""
    client = TestClient(create_app(club))
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("page.css", "club.css"):
        (folder / name).write_bytes(client.get(f"/static/{name}").content)
    (folder / "probe.js").write_text(PROBE)
    html = client.get("/" + query).text
    html = html.replace('href="/static/', 'href="').replace(
        '<script src="/static/page.js" defer></script>', '<script src="probe.js"></script>')
    (folder / "page.html").write_text(html, encoding="utf-8")
    frame = folder / "phone.html"
    frame.write_text(f'<!DOCTYPE html><html><body style="margin:0"><iframe src="page.html" '
                     f'width="{WIDTH}" height="{HEIGHT}" style="border:0;display:block">'
                     '</iframe><pre id="probe"></pre></body></html>')
    return frame


@pytest.mark.parametrize("query", ["", "?lang=de"])
def test_the_club_page_fits_a_phone(tmp_path: Path, query: str) -> None:
    club = crowded_club(tmp_path / "journals")
    path = page_files(club, tmp_path / "page", query)
    text = (path.parent / "page.html").read_text(encoding="utf-8")
    assert text.count("<tr data-result=") == 50 and text.count("<svg") == 2
    assert ("Ergebnisse" in text) == (query == "?lang=de")
    assert LONG[1][: MAX_NAME - 1] + "\u2026" in text  # the name cut where the club keeps it
    done = chromium(f"--window-size=500,{HEIGHT}", "--force-device-scale-factor=1",
                    "--allow-file-access-from-files", "--dump-dom", path.as_uri(),
                    profile=tmp_path / "profile")
    assert done.returncode == 0, done.stderr[-2000:]
    found = re.search(r'<pre id="probe">(.*?)</pre>', done.stdout, re.S)
    assert found is not None, done.stdout[-2000:]
    probe = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    assert probe["inner"] == WIDTH, probe
    assert probe["scroll"] <= WIDTH, probe
    assert probe["wide"] == [], probe
    if query:
        return
    shot = tmp_path / "club-page-phone.png"
    whole = tmp_path / "window.png"
    done = chromium(f"--window-size=500,{HEIGHT}", "--force-device-scale-factor=1",
                    "--allow-file-access-from-files", f"--screenshot={whole}", path.as_uri(),
                    profile=tmp_path / "profile")
    assert done.returncode == 0 and whole.exists(), done.stderr[-2000:]
    with Image.open(whole) as image:
        image.convert("RGB").crop((0, 0, WIDTH, HEIGHT)).save(shot, optimize=True)
    with Image.open(shot) as image:
        assert len(image.convert("L").getcolors(1 << 16) or []) > 8  # not blank
    if UPDATE:
        SHOTS.mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, SHOTS / shot.name)

