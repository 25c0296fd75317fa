"""The pages in their reader's language (issue 31): the spectator page and the club page
worded from the catalogue in German or English per request (``?lang=``, the browser's
``Accept-Language``, else the box's ``display.language``), never mixing two readers'
languages; what came from a file or the network shown as text (autoescaping); and
``companion journal show --language de``."""

from __future__ import annotations

import html
import json
import re
import threading
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from web_journals import write_finished, write_game

from companion import i18n
from companion.club import page as club_page
from companion.club.store import Rating
from companion.journal import record
from companion.journal.store import decode, encode
from companion.web.app import create_app
from companion.web.reviews import Reviews

SCRIPT = "<script>alert(1)</script>"


def client(directory: Path, language: str = "en", reviews: Reviews | None = None) -> TestClient:
    return TestClient(create_app(directory, language=language, poll=0.01, stream_limit=1,
                                 reviews=reviews))


# ---------------------------------------------------------------- i18n


@pytest.mark.parametrize(("header", "default", "expected"), [
    ("de-DE,de;q=0.9,en;q=0.8", "en", "de"),
    ("de-AT", "en", "de"),                 # a region of a language the box has
    ("en-GB,en;q=0.9,de;q=0.8", "de", "en"),
    ("fr-FR, fr;q=0.9, de;q=0.5", "en", "de"),  # the first the box has
    ("fr, it", "de", "de"),                # none the box has: its display.language
    ("de;q=0.2, en;q=0.7", "de", "en"),    # by q, not by order
    ("en;q=0, de", "en", "de"),            # q=0: not acceptable
    ("*", "de", "de"),
    ("", "de", "de"),
    (None, "en", "en"),
    ("de;q=bad, ;;, en", "de", "en"),      # what does not parse is skipped
])
def test_accept_language_is_negotiated(header: str | None, default: str, expected: str) -> None:
    assert i18n.negotiate(header, default, ("de", "en")) == expected


def test_using_is_one_language_per_thread_and_leaves_the_process_s_alone() -> None:
    seen: dict[str, list[str]] = {"de": [], "en": []}
    start = threading.Barrier(2)

    def word(code: str) -> None:
        with i18n.using(code):
            start.wait(timeout=10)
            for _ in range(200):
                seen[code].append(i18n._("Saved games"))
    threads = [threading.Thread(target=word, args=(c,)) for c in ("de", "en")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert set(seen["de"]) == {"Gespeicherte Spiele"} and set(seen["en"]) == {"Saved games"}
    assert i18n.language() == "en" and i18n._("Saved games") == "Saved games"
    with pytest.raises(i18n.UnknownLanguage), i18n.using("xx"):
        pass


# ---------------------------------------------------------------- the spectator page


ENGLISH_ONLY = ("Saved games", "Events", "Throw", "Turn 1", "won by", "in progress", "started ")


def test_the_spectator_page_in_german(tmp_path: Path) -> None:
    write_finished(tmp_path, "senet-tait")
    live, _state = write_game(tmp_path, "senet-tait", 30, stamp="20260102-120000")
    reviews = Reviews()  # the finished game's page asks for its review: ended with the test
    try:
        _the_spectator_page_in_german(tmp_path, live, client(tmp_path, reviews=reviews))
    finally:
        reviews.close()


def _the_spectator_page_in_german(tmp_path: Path, live: Path, c: TestClient) -> None:
    front = c.get("/?lang=de")
    assert front.headers["vary"] == "Accept-Language"
    text = html.unescape(front.text)
    assert '<html lang="de">' in text
    for german in ("Gespeicherte Spiele", "Ereignisse", "Wurf", "Runde 1: ", "begonnen ",
                   "Spielbrett-Begleiter: das laufende Spiel", " wirft ", " auf dem Sockel"):
        assert german in text, german
    for english in ENGLISH_ONLY:
        assert english not in text, english
    games = html.unescape(c.get("/games", headers={"accept-language": "de-CH, de;q=0.9"}).text)
    assert "gewonnen von " in games and "Senet nach Tait" in games and "Stand" in games
    playing = html.unescape(c.get(f"/game/{live.name}?lang=de").text)
    assert "läuft: " in playing and "in progress" not in playing
    assert "Am Zug: " in playing and "To play" not in playing  # under the board
    (finished,) = [p for p in tmp_path.glob("*.journal") if p != live]
    one = html.unescape(c.get(f"/game/{finished.name}?lang=de").text)
    assert "gewonnen von " in one and "Das Protokoll als Text" in one
    assert "won by" not in one
    txt = c.get(f"/game/{finished.name}/record.txt?lang=de").text
    assert "Runde 1: " in txt and "Turn 1" not in txt
    missing = c.get("/game/nothing.journal?lang=de")
    assert missing.status_code == 404 and "Diese Seite oder dieses Spiel gibt es nicht." in missing.text


def test_the_language_is_the_query_s_then_the_browser_s_then_the_box_s(tmp_path: Path) -> None:
    write_game(tmp_path, "senet-tait", 10)
    english, german = "Saved games", "Gespeicherte Spiele"
    box_de = client(tmp_path, "de")
    assert german in box_de.get("/").text  # no header: display.language
    assert english in box_de.get("/", headers={"accept-language": "en-US,en"}).text
    assert german in box_de.get("/", headers={"accept-language": "fr"}).text  # none it has
    assert english in box_de.get("/?lang=en", headers={"accept-language": "de"}).text
    assert german in box_de.get("/?lang=xx").text  # an unknown ?lang= is ignored
    box_en = client(tmp_path)
    assert english in box_en.get("/").text
    assert "Ereignisse" in box_en.get("/live", headers={"accept-language": "de"}).text
    with pytest.raises(i18n.UnknownLanguage):
        create_app(tmp_path, language="xx")


def test_the_event_stream_is_in_the_page_s_language(tmp_path: Path) -> None:
    write_game(tmp_path, "senet-tait", 10)
    c = client(tmp_path)
    for lang, word in (("de", "Ereignisse"), ("en", "Events")):
        with c.stream("GET", f"/events?lang={lang}") as response:
            text = "".join(response.iter_text())
        found = re.search(r"event: board\ndata: (.*)\n\n", text)
        assert found is not None, text
        assert word in json.loads(found.group(1))["html"]
    page_js = c.get("/static/page.js").text
    assert "document.documentElement.lang" in page_js


def test_a_name_from_the_journal_is_shown_as_text_never_as_markup(tmp_path: Path) -> None:
    path, _state = write_game(tmp_path, "senet-tait", 6)
    lines = path.read_bytes().splitlines(keepends=True)
    first = decode(lines[1].rstrip(b"\n"))
    first["by"] = SCRIPT
    path.write_bytes(lines[0] + encode(first) + b"".join(lines[2:]))
    for lang in ("en", "de"):
        for url in ("/", f"/game/{path.name}", "/games"):
            answer = client(tmp_path).get(f"{url}?lang={lang}").text
            assert SCRIPT not in answer and "<script>alert" not in answer, url
        shown = client(tmp_path).get(f"/?lang={lang}").text
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in shown


# ---------------------------------------------------------------- the club page


def club_payload(name: str) -> dict[str, object]:
    return {"game": "senet-tait", "status": "playing", "turn": "Black", "actions": [],
            "seats": [{"name": name, "kind": "person"},
                      {"name": "White", "kind": "computer", "level": "strong"}],
            "updated": "2026-11-28T10:00:00+00:00"}


def test_the_club_page_in_german_and_its_names_as_text() -> None:
    tables = [(club_page.LiveTable(SCRIPT, club_payload(SCRIPT), None), ""),
              (club_page.LiveTable("empty", None, None), "")]
    results = [{"id": "0" * 20, "ended": "2026-11-28T11:00:00+00:00", "table": SCRIPT,
                "game": "senet-tait", "winner": SCRIPT, "moves": 12,
                "seats": [{"name": SCRIPT, "kind": "person"}, {"name": "White"}]}]
    ratings = {"senet-tait": [Rating("senet-tait", SCRIPT, 25.0, 8.3, 1, 1)]}
    with i18n.using("de"):
        german = club_page.page(club_page.live_html(tables, results, 1, ratings))
    with i18n.using("en"):
        english = club_page.page(club_page.live_html(tables, results, 1, ratings))
    assert "<script>alert" not in german and "<script>alert" not in english
    assert german.count("&lt;script&gt;") >= 5
    text = html.unescape(german)
    assert '<html lang="de">' in german
    for word in ("Tisch ", "Schwarz ist am Zug", "Weiß (Computer, stark)", "Ergebnisse",
                 "Wertungen", "Kein Spiel an diesem Tisch.", "Senet nach Tait", "Sieger"):
        assert word in text, word
    for word in ("Table ", "to play", "Results", "Ratings", "(computer", "No game on"):
        assert word not in text, word
    assert "Black to play" in html.unescape(english)


# ---------------------------------------------------------------- journal show


def test_journal_show_in_german(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    path = write_finished(tmp_path, "senet-tait", undo_after=6)
    try:
        assert main(["journal", "show", "--language", "de", str(path)]) == 0
        german = capsys.readouterr().out
        assert main(["journal", "list", "--language", "de", "--dir", str(tmp_path)]) == 0
        listed = capsys.readouterr().out
    finally:
        i18n.set_language("en")
    assert german.startswith("Senet nach Tait\n")
    for word in ("  Spieler ", "  Stand ", "gewonnen von ", "Runde 1: Schwarz", "Wurf ",
                 "(zurückgenommen)", "nimmt die Aktionen ", " gewinnt: "):
        assert word in german, word
    for word in ("Turn ", "won by", "throw ", "taken back", "takes back", "players "):
        assert word not in german, word
    assert "gewonnen von " in listed and "Spieler" in listed
    assert main(["journal", "show", str(path)]) == 0  # default: English without a config
    assert "Turn 1: Black" in capsys.readouterr().out
    assert record.read(path).title == "Senet (Tait's rules)"  # the record's facts unchanged
