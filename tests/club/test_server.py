"""The club page end to end through a real mosquitto (TLS, passwords, the protocol's
ACL): two boxes publish their tables and results, the club shows every table's board
as the engine replays it, whose turn and the last event, the results and the ratings;
it keeps its session and its results over a restart without doubling any."""

from __future__ import annotations

import contextlib
import html as html_text
import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from broker import Broker as Mosquitto
from broker import BrokerFactory, TlsFiles, acl_for_club
from games import Played, play, states
from starlette.testclient import TestClient

from companion.club import protocol
from companion.club.page import last_words
from companion.club.replay import replay_payload
from companion.club.server import Broker, Club, Listener, create_app
from companion.club.store import ClubStore
from companion.ui.games.boards import board_model, board_svg

pytest_plugins = ["broker"]  # its fixtures: make_broker, tls_files

PREFIX = "board-companion"
USERS = {"t1": "pw-t1", "t2": "pw-t2", "club": "pw-club"}


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Played]:
    base = tmp_path_factory.mktemp("journals")
    return {
        "t1": play(base / "t1", "senet-sticks", 5),
        "t2": play(base / "t2", "senet-tait", 2, seats={1: "strong"}),
        "t2-live": play(base / "t2-live", "labyrinth", 4, finish=False, stop_after=60),
    }


def wait(test: Callable[[], bool], timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not test():
        if time.monotonic() > deadline:
            raise AssertionError("not within the time")
        time.sleep(0.05)


@contextlib.contextmanager
def box(broker: Mosquitto, table: str) -> Iterator[Any]:
    cli = broker.client(table)
    cli.connect("127.0.0.1", broker.port)
    cli.loop_start()
    try:
        yield cli
    finally:
        cli.loop_stop()
        cli.disconnect()


def send(cli: Any, topic: str, payload: dict[str, Any] | None) -> None:
    data = b"" if payload is None else protocol.encode(payload)
    info = cli.publish(topic, data, qos=1, retain=True)
    info.wait_for_publish(10)


@contextlib.contextmanager
def listening(club: Club, broker: Mosquitto, *, tls: TlsFiles | None = None) -> Iterator[Listener]:
    listener = Listener(club, Broker("localhost" if tls else "127.0.0.1", broker.port, "club",
                                     USERS["club"], tls.ca if tls else None, PREFIX,
                                     client_id="club-test"))
    listener.start()
    try:
        assert listener.connected.wait(15), broker.log_text()
        yield listener
    finally:
        listener.stop()


def test_two_boxes_over_tls_the_page_shows_both_tables_results_and_ratings(
        make_broker: BrokerFactory, tls_files: TlsFiles, games: dict[str, Played],
        tmp_path: Path) -> None:
    broker = make_broker(USERS, acl_for_club(PREFIX, ["t1", "t2"]), tls=tls_files)
    club = Club(ClubStore(tmp_path / "club.sqlite"), PREFIX)
    t1_states = list(states(games["t1"], "t1"))
    t2_live = list(states(games["t2-live"], "t2"))[-1]
    with listening(club, broker, tls=tls_files), box(broker, "t1") as one, box(broker, "t2") as two:
        for state in t1_states[:40]:
            send(one, protocol.state_topic(PREFIX, "t1"), state)
        send(one, protocol.result_topic(PREFIX, "t1", games["t1"].result("t1")["id"]),
             games["t1"].result("t1"))
        result_t2 = games["t2"].result("t2", ended="2026-11-26T03:10:00+00:00")
        send(two, protocol.result_topic(PREFIX, "t2", result_t2["id"]), result_t2)
        send(two, protocol.state_topic(PREFIX, "t2"), t2_live)
        wait(lambda: club.store.count() == 2 and len(club.live()) == 2
             and len(club.live()[0].payload["actions"]) == 39)  # type: ignore[index]
    assert club.bad == 0
    client = TestClient(create_app(club))
    html = client.get("/").text
    # every table: its game, whose turn, the last event, the board as the club replays it
    for table, payload in (("t1", t1_states[39]), ("t2", t2_live)):
        section = re.search(rf'<section class="club-table playing" data-table="{table}".*?'
                            r"</section>", html, re.S)
        assert section is not None, html[:3000]
        text = section.group(0)
        assert f'data-actions="{len(payload["actions"])}"' in text
        assert f"{payload['turn']} to play" in text
        # the last event worded by the club from its own replay, not the box's words
        last = last_words(replay_payload(payload))
        assert last and f"Last: {last}" in html_text.unescape(text)
        expected = board_svg(board_model(replay_payload(payload).state))
        assert expected in text
    # results: the latest ended first; the computer seat named with its level
    rows = re.findall(r'<tr data-result="([0-9a-f]{20})">(.*?)</tr>', html, re.S)
    assert [rid for rid, _ in rows] == [result_t2["id"], games["t1"].result("t1")["id"]]
    assert "White (computer, strong)" in rows[0][1]
    # ratings per game, with their uncertainty
    for game in ("senet-sticks", "senet-tait"):
        assert f'<table class="ratings" data-game="{game}">' in html
    assert "Computer (strong)" in html and "&plusmn;" in html


def test_the_page_is_read_only_with_the_spectator_pages_headers() -> None:
    client = TestClient(create_app(Club(ClubStore(":memory:"))))
    answer = client.get("/")
    assert answer.status_code == 200
    assert "No table has published a game yet." in answer.text
    assert answer.headers["content-security-policy"].startswith("default-src 'self'")
    assert answer.headers["cache-control"] == "no-store"
    assert client.post("/").status_code == 405
    assert client.get("/static/club.css").status_code == 200
    assert client.get("/static/page.js").status_code == 200
    assert client.get("/static/../club.sqlite").status_code == 404
    assert client.get("/nothing").status_code == 404


def test_the_event_stream_sends_the_live_part_at_each_change(games: dict[str, Played]) -> None:
    club = Club(ClubStore(":memory:"))
    app = create_app(club, poll=0.01, stream_limit=2)
    t1 = list(states(games["t1"], "t1"))
    club.receive(protocol.state_topic(PREFIX, "t1"), protocol.encode(t1[5]))
    with TestClient(app) as client, client.stream("GET", "/events") as stream:
        seen: list[str] = []
        for line in stream.iter_lines():
            if line.startswith("data: "):
                seen.append(line)
                if len(seen) == 1:
                    club.receive(protocol.state_topic(PREFIX, "t1"), protocol.encode(t1[6]))
    assert 'data-actions=\\"5\\"' in seen[0]
    assert 'data-actions=\\"6\\"' in seen[1]


def test_an_emptied_table_says_so_and_a_restarted_club_doubles_nothing(
        make_broker: BrokerFactory, games: dict[str, Played], tmp_path: Path) -> None:
    broker = make_broker(USERS, acl_for_club(PREFIX, ["t1", "t2"]))
    db = tmp_path / "club.sqlite"
    club = Club(ClubStore(db), PREFIX)
    result = games["t1"].result("t1")
    with listening(club, broker), box(broker, "t1") as one:
        send(one, protocol.result_topic(PREFIX, "t1", result["id"]), result)
        send(one, protocol.state_topic(PREFIX, "t1"), list(states(games["t1"], "t1"))[-1])
        wait(lambda: club.store.count() == 1 and len(club.live()) == 1)
        send(one, protocol.state_topic(PREFIX, "t1"), None)  # the box: no game now
        wait(lambda: club.live()[0].payload is None)
    assert "No game on this table." in club.live_html()
    club.store.close()
    # While the club is away, t2 finishes a game and t1 publishes its result again (a
    # power cut before the broker's acknowledgement): back, the club has each once.
    result_t2 = games["t2"].result("t2")
    with box(broker, "t2") as two, box(broker, "t1") as one:
        send(two, protocol.result_topic(PREFIX, "t2", result_t2["id"]), result_t2)
        send(one, protocol.result_topic(PREFIX, "t1", result["id"]), result)
    again = Club(ClubStore(db), PREFIX)
    assert [t.payload for t in again.live()] == [None]  # the table as it was
    with listening(again, broker):
        wait(lambda: again.store.count() == 2)
        time.sleep(0.5)  # anything else queued for the session arrives now
    assert sorted(again.store.result_ids()) == sorted([result["id"], result_t2["id"]])
    assert again.bad == 0


def test_the_club_cannot_publish_but_receipts(make_broker: BrokerFactory,
                                              games: dict[str, Played], tmp_path: Path) -> None:
    broker = make_broker(USERS, acl_for_club(PREFIX, ["t1"]))
    club = Club(ClubStore(tmp_path / "club.sqlite"), PREFIX)
    with listening(club, broker) as listener:
        state = list(states(games["t1"], "t1"))[3]
        listener.client.publish(protocol.state_topic(PREFIX, "t1"), protocol.encode(state),
                                qos=1).wait_for_publish(10)
        time.sleep(0.5)
    assert club.live() == []  # the broker dropped it: the ACL gives the club read only


@pytest.mark.parametrize(("argv", "says"), [
    (["--topic", "a/#"], "topic prefix"),
    (["--password-file", "/nonexistent/club-password"], "--password-file"),
    (["--bind", "club.local"], "--bind"),
    (["--port", "0"], "--port"),
])
def test_companion_club_refuses_bad_flags_before_it_starts(
        argv: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    assert main(["club", *argv]) == 2
    assert says in capsys.readouterr().err


def test_the_club_reconnects_after_the_broker_was_away_and_gets_what_came_meanwhile(
        make_broker: BrokerFactory, games: dict[str, Played], tmp_path: Path) -> None:
    broker = make_broker(USERS, acl_for_club(PREFIX, ["t1", "t2"]))
    club = Club(ClubStore(tmp_path / "club.sqlite"), PREFIX)
    t1 = list(states(games["t1"], "t1"))
    with listening(club, broker) as listener:
        with box(broker, "t1") as one:
            send(one, protocol.state_topic(PREFIX, "t1"), t1[10])
        wait(lambda: len(club.live()) == 1)
        broker.stop()  # the broker away (SIGTERM: it saves its retained messages)
        wait(lambda: not listener.connected.is_set())
        time.sleep(2)
        broker.start()
        result = games["t2"].result("t2")
        with box(broker, "t2") as two, box(broker, "t1") as one:
            send(two, protocol.result_topic(PREFIX, "t2", result["id"]), result)
            send(one, protocol.state_topic(PREFIX, "t1"), t1[11])
        wait(lambda: club.store.count() == 1 and len(club.live()) == 1
             and len(club.live()[0].payload["actions"]) == 11, timeout=60)  # type: ignore[index]
        assert listener.connected.is_set()
    assert club.bad == 0


def test_states_that_come_faster_than_the_club_replays_skip_to_each_tables_latest(
        games: dict[str, Played]) -> None:
    """paho's thread hands states over; while the club is busy with one, newer states of
    a table replace the one waiting: the club catches up instead of falling behind."""
    import threading
    from types import SimpleNamespace

    gate = threading.Event()
    taken: list[tuple[str, int]] = []

    class SlowClub(Club):
        def receive(self, topic: str, data: bytes, *, received: float | None = None,
                    retained: bool = False) -> Any:
            gate.wait(10)
            got = super().receive(topic, data, received=received, retained=retained)
            taken.append((got.table, len(self.live()[-1].payload["actions"])  # type: ignore[index]
                          if got.table == "t1" else -1))
            return got

    club = SlowClub(ClubStore(":memory:"), PREFIX)
    listener = Listener(club, Broker("127.0.0.1", 1, prefix=PREFIX))  # no broker: not needed
    t1 = list(states(games["t1"], "t1"))
    listener._worker.start()
    try:
        for n in range(5, 12):  # the first is taken at once (and waits at the gate)
            msg = SimpleNamespace(topic=protocol.state_topic(PREFIX, "t1"),
                                  payload=protocol.encode(t1[n]), retain=False)
            listener._on_state(None, None, msg)
            time.sleep(0.05)
        gate.set()
    finally:
        listener.stop()
    assert taken == [("t1", 5), ("t1", 11)]
    assert listener.superseded == 5


def test_a_stored_result_is_answered_with_a_receipt_and_a_forged_id_is_refused(
        make_broker: BrokerFactory, games: dict[str, Played], tmp_path: Path) -> None:
    """The club answers each result on the box's own receipt topic, after it stored it;
    one game sent under another id (the issue's 10 ids for one game) is refused: the id
    must be the hash of the content, and the content names the table."""
    broker = make_broker(USERS, acl_for_club(PREFIX, ["t1", "t2"]))
    club = Club(ClubStore(tmp_path / "club.sqlite"), PREFIX)
    result = games["t1"].result("t1")
    receipts: list[dict[str, Any]] = []
    with listening(club, broker), box(broker, "t1") as one, box(broker, "t2") as two:
        one.on_message = lambda c, u, m: receipts.append(json.loads(m.payload))
        seen_by_t2: list[bytes] = []
        two.on_message = lambda c, u, m: seen_by_t2.append(m.payload)
        one.subscribe(protocol.receipt_topic(PREFIX, "t1"), qos=1)
        two.subscribe(protocol.receipt_topic(PREFIX, "t1"), qos=1)  # the ACL says no
        time.sleep(0.3)
        send(one, protocol.result_topic(PREFIX, "t1", result["id"]), result)
        wait(lambda: len(receipts) == 1)
        for n in range(3):  # the same game under other ids
            forged = dict(result, id=f"{n:020x}")
            send(one, protocol.result_topic(PREFIX, "t1", forged["id"]), forged)
        other_table = dict(result, table="t2", id=result["id"])
        send(two, protocol.result_topic(PREFIX, "t2", result["id"]), other_table)
        send(one, protocol.result_topic(PREFIX, "t1", result["id"]), result)  # again
        wait(lambda: len(receipts) == 5)
        time.sleep(0.3)
    assert receipts[0] == protocol.receipt_payload(result["id"], stored=True)
    assert [r["stored"] for r in receipts[1:4]] == [False] * 3
    assert all("not the hash of its content" in r["reason"] for r in receipts[1:4])
    assert receipts[4] == receipts[0]  # a result it has: answered again
    assert seen_by_t2 == []
    assert club.store.result_ids() == [result["id"]]


@pytest.mark.parametrize(("ended", "stored_as"), [
    ("2999-01-01T00:00:00+00:00", "club"),  # a box's clock far ahead
    ("2026-11-26T04:00:00+00:00", "box"),
])
def test_the_club_dates_a_result_it_cannot_believe_by_its_own_clock(
        games: dict[str, Played], ended: str, stored_as: str) -> None:
    club = Club(ClubStore(":memory:"), PREFIX)
    result = games["t1"].result("t1", ended=ended)
    received = 1_795_000_000.0  # 2026-11-18, before the box's "ended" in both cases
    got = club.receive(protocol.result_topic(PREFIX, "t1", result["id"]),
                       protocol.encode(result), received=received + 30 * 86400)
    assert got.kind == "result"
    [stored] = club.store.results()
    if stored_as == "box":
        assert stored["ended"] == ended and "box_ended" not in stored
    else:
        assert stored["box_ended"] == ended and stored["ended"].startswith("2026-12-18")


def test_a_time_outside_utcs_range_is_a_bad_message_not_an_overflow(
        games: dict[str, Played]) -> None:
    club = Club(ClubStore(":memory:"), PREFIX)
    result = games["t1"].result("t1") | {"ended": "9999-12-31T23:59:59-14:00"}
    got = club.receive(protocol.result_topic(PREFIX, "t1", result["id"]), protocol.encode(result))
    assert got.kind == "bad" and got.receipt is not None and not got.receipt["stored"]
