"""`companion web`'s application through Starlette's TestClient: what a spectator sees,
what a stranger cannot reach, and that a session of requests changes no file."""

from __future__ import annotations

import html
import json
import os
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from web_journals import write_finished, write_game

from companion.journal import record
from companion.journal.store import encode, load
from companion.rules import PieceZone
from companion.ui.games.boards import board_model
from companion.web.app import create_app
from companion.web.reviews import Reviews

GAMES = ("senet-tait", "senet-sticks", "labyrinth", "cretan-labyrinth")


def client(directory: Path, reviews: Reviews | None = None) -> TestClient:
    return TestClient(create_app(directory, poll=0.01, stream_limit=1, reviews=reviews))


def reviewed_page(directory: Path, name: str) -> str:
    """The page ``/game/NAME`` once its review is worked out (it is, in the background,
    from the first time the page is asked for)."""
    reviews = Reviews()
    c = client(directory, reviews)
    assert c.get(f"/game/{name}").status_code == 200
    assert reviews.wait()
    page = c.get(f"/game/{name}")
    assert page.status_code == 200
    return page.text


def first_event(c: TestClient) -> dict[str, str]:
    with c.stream("GET", "/events") as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        assert response.headers["cache-control"] == "no-store"
        text = "".join(response.iter_text())
    event = re.search(r"event: board\ndata: (.*)\n\n", text)
    assert event is not None, text
    data: dict[str, str] = json.loads(event.group(1))
    return data


def svg_pieces(html: str) -> list[tuple[int, str]]:
    """(player, square) of every piece drawn in the page's board SVG, sorted."""
    match = re.search(r"<svg xmlns=.*?</svg>", html, re.S)
    assert match is not None
    root = ET.fromstring(match.group(0))
    return sorted((int(g.attrib["data-player"]), g.attrib["data-square"])
                  for g in root.iter("{http://www.w3.org/2000/svg}g")
                  if "piece" in g.attrib.get("class", "").split())


@pytest.mark.parametrize("game", GAMES)
def test_the_front_page_shows_the_board_the_engine_holds(tmp_path: Path, game: str) -> None:
    path, state = write_game(tmp_path, game, 40, seed=5)
    page = client(tmp_path).get("/")
    assert page.status_code == 200
    on_board = sorted((p.player, str(p.square)) for p in state.pieces() if p.zone is PieceZone.BOARD)
    assert svg_pieces(page.text) == on_board
    rec = record.read(path)
    assert f'data-actions="{rec.actions}"' in page.text
    assert rec.to_act in page.text.replace("&#x27;", "'")  # whose turn, in words
    last = rec.turns[-1].steps[-1]
    for said in last.events:  # the event log in the record's words
        assert said.replace("'", "&#x27;") in page.text
    assert 'class="throw"' in page.text


def test_the_last_move_is_highlighted_where_it_landed(tmp_path: Path) -> None:
    write_game(tmp_path, "senet-tait", 60, seed=2)
    page = client(tmp_path).get("/").text
    assert "highlight-frame" in page


def test_the_first_event_carries_the_live_board_and_changes_follow(tmp_path: Path) -> None:
    write_game(tmp_path, "senet-tait", 6)
    c = client(tmp_path)
    first = first_event(c)
    assert 'data-actions="6"' in first["html"]
    path2, _ = write_game(tmp_path, "senet-tait", 9, stamp="20260101-130000")
    assert 'data-actions="9"' in first_event(c)["html"]  # the newest game is the live one
    assert path2.name in first_event(c)["html"]


def test_a_line_still_being_written_is_not_shown_nor_called_damage(tmp_path: Path) -> None:
    path, _ = write_game(tmp_path, "senet-tait", 6)
    whole = path.read_bytes()
    last_line = whole[:-1].rsplit(b"\n", 1)[1] + b"\n"
    path.write_bytes(whole[: len(whole) - len(last_line) // 2])
    page = client(tmp_path).get("/").text
    assert 'data-actions="5"' in page
    assert "damaged" not in page and "being written" in page


def test_saved_games_list_and_their_records_in_the_words_of_journal_show(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    paths = [write_game(tmp_path, g, 30, stamp=f"2026010{i}-120000")[0]
             for i, g in enumerate(GAMES, start=1)]
    c = client(tmp_path)
    listing = c.get("/games").text
    for p in paths:
        assert f'href="/game/{p.name}"' in listing
        one = c.get(f"/game/{p.name}")
        assert one.status_code == 200 and record.read(p).title in html.unescape(one.text)
        text = c.get(f"/game/{p.name}/record.txt")
        assert text.headers["content-type"].startswith("text/plain")
        assert main(["journal", "show", str(p)]) == 0
        assert text.text == capsys.readouterr().out


def test_an_empty_directory_and_a_missing_one_say_so(tmp_path: Path) -> None:
    assert "No game yet" in client(tmp_path).get("/").text
    assert "No saved games" in client(tmp_path / "nowhere").get("/games").text


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"])
def test_only_get_and_head_are_answered(tmp_path: Path, method: str) -> None:
    write_game(tmp_path, "senet-tait", 3)
    for url in ("/", "/events", "/nowhere"):
        response = client(tmp_path).request(method, url)
        assert response.status_code == 405
        assert response.headers["allow"] == "GET, HEAD"
    head = client(tmp_path).head("/games")
    assert head.status_code == 200 and head.content == b""


def test_every_response_carries_the_security_headers(tmp_path: Path) -> None:
    path, _ = write_game(tmp_path, "senet-tait", 3)
    c = client(tmp_path)
    for url in ("/", "/games", f"/game/{path.name}", "/static/page.js", "/nowhere"):
        response = c.get(url)
        assert response.headers["content-security-policy"].startswith("default-src 'self'")
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["cache-control"] in ("no-store", "no-cache")
    assert c.get("/").headers["cache-control"] == "no-store"
    assert c.get("/static/page.css").headers["content-type"].startswith("text/css")
    assert "<script>" not in c.get("/").text  # no inline script: the CSP would block it


@pytest.mark.parametrize("url", [
    "/game/..", "/game/%2e%2e", "/game/..%2f..%2fetc%2fpasswd", "/game/%2e%2e%2fsecret.journal",
    "/game/%2fetc%2fpasswd", "//etc/passwd", "/game//etc/passwd", "/game/secret.journal%00",
    "/game/%00", "/game/..%5csecret.journal", "/game/outside.journal",
    "/game/outside.journal/record.txt", "/static/..%2f..%2fapp.py", "/static/%2e%2e",
    "/game/.hidden.journal", "/game/a..journal", "/game/20260101-120000-senet-tait.journal.damaged",
])
def test_no_file_outside_the_journals_can_be_reached(tmp_path: Path, url: str) -> None:
    games = tmp_path / "games"
    write_game(games, "senet-tait", 3)
    secret = tmp_path / "secret.journal"
    secret.write_bytes(b"SECRET\n")
    (games / "outside.journal").symlink_to(secret)  # a link pointing out of the directory
    (games / ".hidden.journal").write_bytes(b"SECRET\n")
    (games / "20260101-120000-senet-tait.journal.damaged").write_bytes(b"SECRET\n")
    response = client(games).get(url)
    sent = response.request.url.raw_path.decode()
    if sent != url:  # the client normalised a literal "..", as browsers do: the front page
        assert ".." not in sent and not sent.startswith("/game/"), sent
    else:
        assert response.status_code == 404, url
    assert "SECRET" not in response.text
    assert "Traceback" not in response.text


def test_a_symlink_is_not_listed(tmp_path: Path) -> None:
    games = tmp_path / "games"
    path, _ = write_game(games, "senet-tait", 3)
    (games / "20990101-000000-senet-tait.journal").symlink_to(path)
    listing = client(games).get("/games").text
    assert "20990101" not in listing and path.name in listing


def _deep(depth: int) -> bytes:
    return encode({"n": 1, "by": "Black", "x": json.loads("[" * depth + "]" * depth)})


def _bad_checksum(good: bytes) -> bytes:
    """The third line's checksum changed (its JSON intact)."""
    lines = good.split(b"\n")
    lines[2] = (b"0" if lines[2][:1] != b"0" else b"1") + lines[2][1:]
    return b"\n".join(lines)


BROKEN: dict[str, Callable[[bytes], bytes]] = {
    "empty": lambda good: b"",
    "cut-first-line": lambda good: good[:30],
    "bad-checksum": lambda good: _bad_checksum(good),
    "flipped-byte": lambda good: good[:200] + bytes([good[200] ^ 0x01]) + good[201:],
    "deep-nesting": lambda good: good.split(b"\n", 1)[0] + b"\n" + _deep(200),
    "not-utf8": lambda good: good.split(b"\n", 1)[0] + b"\n" + b"00000000 \xff\xfe\xfa\n",
    "not-a-journal": lambda good: b"hello\n",
    "binary": lambda good: bytes(range(256)) * 4,
    "wrong-game": lambda good: encode({"format": "board-companion/journal", "version": 1,
                                       "game": "chess", "options": {}, "players": 2}),
    "cut-in-the-middle": lambda good: good[: len(good) // 2] + b"\n" + good[len(good) // 2:],
}


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_a_damaged_journal_shows_as_such_never_a_500(tmp_path: Path, kind: str) -> None:
    good, _ = write_game(tmp_path / "good", "senet-tait", 20)
    games = tmp_path / "games"
    games.mkdir()
    name = "20260102-120000-senet-tait.journal"
    (games / name).write_bytes(BROKEN[kind](good.read_bytes()))
    c = client(games)
    for url in ("/", "/games", f"/game/{name}"):
        response = c.get(url)
        assert response.status_code == 200, (url, response.text)
        assert "Traceback" not in response.text
        assert re.search(r"damaged|not a usable journal|unusable", response.text), (url, response.text)
    assert "damaged" in first_event(c)["html"] or "not a usable journal" in first_event(c)["html"]


def snapshot(directory: Path) -> tuple[list[str], dict[str, tuple[bytes, int]]]:
    names = sorted(os.listdir(directory))
    return names, {n: ((directory / n).read_bytes(), os.lstat(directory / n).st_mtime_ns)
                   for n in names if (directory / n).is_file()}


def test_a_session_of_requests_writes_nothing(tmp_path: Path) -> None:
    games = tmp_path / "games"
    paths = [write_game(games, g, 25, stamp=f"2026010{i}-120000")[0] for i, g in enumerate(GAMES)]
    (games / "20260109-120000-senet-tait.journal").write_bytes(
        paths[0].read_bytes()[:-40])  # cut short: the loader would repair it, the page must not
    (games / "20260110-120000-senet-tait.journal").write_bytes(b"hello\n")
    before = snapshot(games)
    c = client(games)
    for url in ["/", "/live", "/games", "/static/page.js",
                *(f"/game/{n}" for n in before[0]), *(f"/game/{n}/record.txt" for n in before[0])]:
        assert c.get(url).status_code in (200, 404)
    first_event(c)
    assert snapshot(games) == before


def test_the_page_says_which_seat_the_computer_plays_and_at_which_level(tmp_path: Path) -> None:
    """Was: the spectator page named the players only; nobody watching could tell the
    computer's seat (issue 23, item 7)."""
    path, state = write_game(tmp_path, "senet-tait", 14, seats={1: "strong"})
    c = client(tmp_path)
    front = html.unescape(c.get("/").text)
    assert "Black, White (computer, strong)" in front
    to_act = record.read(path).to_act  # "White to throw": said with the computer's level
    assert state.current_player == 1 and to_act == "White to throw"
    assert '<p class="status">in progress: White (computer, strong) to throw</p>' in front
    assert "Black, White (computer, strong)" in html.unescape(c.get("/games").text)
    assert "(computer" not in html.unescape(client(tmp_path / "none").get("/").text)


@pytest.mark.parametrize("game", GAMES)
def test_the_board_scales_with_the_window(tmp_path: Path, game: str) -> None:
    """Was: a board of a fixed 402x182 px, the smallest thing on a desktop screen: the
    SVG has its proportions (viewBox) and the page's width, no size in pixels, and the
    page's CSS lets it fill its share of the window (issue 23, item 7)."""
    write_game(tmp_path, game, 30)
    c = client(tmp_path)
    root = ET.fromstring(re.search(r"<svg xmlns=.*?</svg>", c.get("/").text, re.S).group(0))  # type: ignore[union-attr]
    assert root.attrib["width"] == "100%" and "height" not in root.attrib
    assert len(root.attrib["viewBox"].split()) == 4
    css = c.get("/static/page.css").text
    rule = re.search(r"\.board svg \{([^}]*)\}", css)
    assert rule is not None and "width: 100%" in rule.group(1) and "max-width" not in rule.group(1)


def test_cretan_holdings_are_said_in_words(tmp_path: Path) -> None:
    """Was: "Player 4: holds blue mirror" for a blue diamond and the Mirror."""
    import random

    from companion.rules import Phase, get_game, random_action
    from companion.ui.games.boards import board_model, board_svg

    state, rng = get_game("cretan-labyrinth").new_state(4), random.Random(3)
    said: set[str] = set()
    while state.phase is not Phase.OVER and len(said) < 60:
        state.apply(random_action(state, rng.randrange))
        svg = board_svg(board_model(state))
        width = float(svg.split('viewBox="0 0 ', 1)[1].split()[0])
        lines = re.findall(r'<text class="counts" x="([\d.]+)"[^>]*>([^<]*)</text>', svg)
        for x, line in lines:  # long holdings go on in the next line, not off the board
            assert float(x) + len(html.unescape(line)) * 7.5 <= width, line
        said.update(" ".join(line for _, line in lines).split("holds ")[1:])
    assert said, "nobody held anything in this game"
    item = r"(a (red|green|blue|yellow) diamond|(red|green|blue|yellow)( and|,) .* diamonds|" \
           r"a Magic Key|the (Magic Bow and Arrow|Magic Sword|Magic Feather|Shrinking Potion|" \
           r"Rope|Mirror|Head of Medusa))"
    for text in said:
        text = re.sub(r" (Player \d|To play):.*", "", text).strip()
        parts = re.split(r", (?=a |the )| and (?=a |the )", text)
        assert all(re.fullmatch(item, p) for p in parts), text
    assert any(" diamond and the " in text for text in said)


SVG = "{http://www.w3.org/2000/svg}"


def test_the_review_counts_turns_as_the_log_does_and_draws_each_player_in_their_colour(
        tmp_path: Path) -> None:
    """Issue 35: the win-chance graph was 600 px wide, its lines were not the players'
    colours, it had no axes, and the review said "action 96" where the page numbers
    turns. Here an undo leaves a turn in the log with no action in force, so counting
    the actions in force by player would give other numbers than the log's."""
    path = write_finished(tmp_path, "senet-sticks", seed=1, undo_after=11)
    log = record.read(path)
    assert any(all(s.taken_back or s.kind == "undo" for s in t.steps) for t in log.turns)
    loaded = load(path, repair=False)
    page = reviewed_page(tmp_path, path.name)
    review = html.unescape(page[page.index('<section class="review"'):])
    assert not re.search(r"\baction \d", review)  # the page numbers turns, not actions

    def in_log(turn: int, by: str, what: str) -> bool:
        """Whether the log's turn ``turn`` is ``by``'s, with ``what`` among its actions in force."""
        return any(t.number == turn and t.by == by and any(
            s.text == what and not s.taken_back for s in t.steps) for t in log.turns)

    rows = re.findall(r'<tr class="worst"><td>(\d+)</td><td>([^<]+)</td><td>([^<]+)</td>', review)
    assert rows and all(in_log(int(n), by, played) for n, by, played in rows)
    swings = re.findall(r"<li>turn (\d+): (\w+) (?:played (\S+(?: \[[^]]*\])?) and|had an? (?:un)?lucky "
                        r"(.+?): [-+])", review)
    assert swings and all(in_log(int(n), by, played or f"throw {thrown}")
                          for n, by, played, thrown in swings)

    def element(pattern: str) -> ET.Element:
        found = re.search(pattern, page, re.S)
        assert found is not None, pattern
        return ET.fromstring(found.group(0))

    svg = element(r'<svg [^>]*class="chances".*?</svg>')
    assert svg.attrib["width"] == "100%" and len(svg.attrib["viewBox"].split()) == 4
    sides = board_model(loaded.state).sides
    lines = {int(p.attrib["data-player"]): p for p in svg.iter(f"{SVG}polyline")
             if p.attrib.get("class") == "line"}
    assert {p: line.attrib["stroke"] for p, line in lines.items()} == {
        s.player: s.colour for s in sides}  # the board's colours
    pieces = {int(g.attrib["data-player"]): circle.attrib["fill"]
              for g in element(r"<svg xmlns=[^>]*board.*?</svg>").iter(f"{SVG}g")
              if "piece" in g.attrib.get("class", "").split()
              and (circle := g.find(f"{SVG}circle")) is not None}
    assert pieces and all(lines[p].attrib["stroke"] == fill for p, fill in pieces.items())
    keys = [(k.attrib["data-player"], "".join(k.itertext())) for k in svg.iter(f"{SVG}g")
            if k.attrib.get("class") == "key"]
    assert keys == [(str(s.player), s.name) for s in sides]  # the legend names each line

    axes = {g.attrib["class"]: g for g in svg.iter(f"{SVG}g") if g.attrib.get("class", "").startswith("axis")}
    assert [t.text for t in axes["axis y"].iter(f"{SVG}text")] == ["0%", "25%", "50%", "75%", "100%"]
    ticks = [(float(t.attrib["x"]), int(t.text or "")) for t in axes["axis x"].iter(f"{SVG}text")
             if t.attrib.get("class") == "tick"]
    assert [t.text for t in axes["axis x"].iter(f"{SVG}text") if t.attrib.get("class") == "title"] == ["turn"]
    # Each turn's label stands at the point its first action in force starts from.
    xs = [float(xy.split(",")[0]) for xy in lines[0].attrib["points"].split()]
    assert len(xs) == len(loaded.actions) + 1
    in_force = [t.number for t in log.turns for s in t.steps if s.kind != "undo" and not s.taken_back]
    assert len(ticks) >= 3 and ticks[0][1] == in_force[0]
    for x, turn in ticks:
        assert x == pytest.approx(xs[in_force.index(turn)], abs=0.1), turn
