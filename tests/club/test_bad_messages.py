"""Bad messages on the club's topics are logged and skipped: never stored, never shown,
and the club goes on (issue 21). Each is given to :meth:`Club.receive` as paho's thread
would; the last test sends them through a real mosquitto."""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from typing import Any

import pytest
from broker import BrokerFactory, acl_for_club
from games import Played, play, states

from companion.club import protocol
from companion.club.server import Broker, Club, Listener
from companion.club.store import ClubStore

pytest_plugins = ["broker"]  # its fixtures: make_broker, tls_files

PREFIX = "board-companion"
MARK = "MARK-never-shown"


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    return play(tmp_path_factory.mktemp("journals"), "senet-sticks", 3)


@pytest.fixture
def club() -> Club:
    return Club(ClubStore(":memory:"), PREFIX)


def result_topic(payload: dict[str, Any]) -> str:
    return protocol.result_topic(PREFIX, payload["table"], payload["id"])


def state_topic(table: str = "t1") -> str:
    return protocol.state_topic(PREFIX, table)


def bad_results(played: Played) -> dict[str, dict[str, Any]]:
    """Results of the right shape whose game does not exist."""
    good = played.result("t1")
    actions = good["actions"]
    loser = next(s["name"] for s in good["seats"] if s["name"] != good["winner"])
    flipped = [dict(a) for a in actions]
    first_move = next(i for i, a in enumerate(flipped) if "move" in a)
    flipped[first_move]["move"] = "nonsense-move"
    return {
        "the loser named as winner": {**good, "winner": loser},
        "a shared win claimed": {**good, "winner": None},
        "the game cut before its end": {**good, "actions": actions[:-5], "moves": len(actions) - 5},
        "a move that is not legal": {**good, "actions": flipped},
        "an unknown game": {**good, "game": "chess"},
        "the wrong number of players": {**good, "players": 3,
                                        "seats": [*good["seats"], good["seats"][0]]},
        "an option the game does not have": {**good, "options": {"queens": 9}},
        "a board file path from the network": {**good, "options": {**good["options"],
                                                                "board": "/etc/passwd"}},
        "seats that are not the game's players": {**good, "seats": [
            {**good["seats"][0], "name": MARK}, good["seats"][1]]},
    }


def test_a_good_result_and_state_are_taken(club: Club, played: Played) -> None:
    good = played.result("t1")
    assert club.receive(result_topic(good), protocol.encode(good)).kind == "result"
    state = list(states(played, "t1"))[-1]
    assert club.receive(state_topic(), protocol.encode(state)).kind == "state"
    assert club.store.count() == 1 and club.bad == 0


@pytest.mark.parametrize("why", [
    "the loser named as winner", "a shared win claimed", "the game cut before its end",
    "a move that is not legal", "an unknown game", "the wrong number of players",
    "an option the game does not have", "a board file path from the network",
    "seats that are not the game's players"])
def test_a_result_for_a_game_that_does_not_exist_is_skipped(
        club: Club, played: Played, why: str, caplog: pytest.LogCaptureFixture) -> None:
    payload = bad_results(played)[why]
    with caplog.at_level(logging.WARNING, "companion.club"):
        got = club.receive(result_topic(payload), protocol.encode(payload))
    assert got.kind == "bad", why
    assert club.store.count() == 0 and club.version == 0
    assert "bad message" in caplog.text
    assert MARK not in club.live_html()


RAW: dict[str, bytes] = {
    "not JSON": b"{this is not json",
    "not UTF-8": b'{"v":1,"table":"\xff\xfe"}',
    "a JSON array": b"[1, 2, 3]",
    "JSON nested 10000 deep": b"[" * 10000 + b"]" * 10000,
    "over 256 KiB": json.dumps({"v": 1, "pad": "x" * (300 * 1024), "name": MARK}).encode(),
    "NaN": b'{"v": 1, "players": NaN}',
    "an empty object": b"{}",
    "another version": json.dumps({"v": 2, "name": MARK}).encode(),
}


@pytest.mark.parametrize("why", sorted(RAW))
@pytest.mark.parametrize("where", ["state", "result"])
def test_a_payload_that_is_not_a_message_is_skipped(club: Club, played: Played, why: str,
                                                    where: str) -> None:
    topic = state_topic() if where == "state" else result_topic(played.result("t1"))
    got = club.receive(topic, RAW[why])
    assert got.kind == "bad"
    assert club.store.count() == 0 and club.store.tables() == [] and club.live() == []
    assert MARK not in club.live_html()


def test_the_wrong_shape_and_the_wrong_topic_are_skipped(club: Club, played: Played) -> None:
    state = list(states(played, "t1"))[10]
    good = played.result("t1")
    cases: list[tuple[str, Any]] = [
        (state_topic(), {**state, "status": "sleeping"}),
        (state_topic(), {**state, "names": ["only one"]}),
        (state_topic(), {**state, "players": True}),
        (state_topic(), {**state, "updated": "yesterday"}),
        (state_topic(), {**state, "actions": "all of them"}),
        (state_topic("t2"), state),  # a state of t1 on t2's topic
        (f"{PREFIX}/tables/T1!/state", state),  # not a table name
        (f"{PREFIX}/elsewhere", state),
        (result_topic(good), {**good, "moves": 3}),
        (result_topic(good), {**good, "id": "0" * 20}),  # the id is not its topic's
        (result_topic({**good, "table": "t2"}), good),
        (result_topic(good), {**good, "ended": MARK}),
    ]
    for topic, payload in cases:
        got = club.receive(topic, json.dumps(payload).encode())
        assert got.kind == "bad", (topic, payload.get("status"))
    assert club.bad == len(cases)
    assert club.store.count() == 0 and club.live() == []


def test_a_state_whose_actions_do_not_replay_keeps_the_last_good_one(club: Club,
                                                                    played: Played) -> None:
    good = list(states(played, "t1"))[20]
    assert club.receive(state_topic(), protocol.encode(good)).kind == "state"
    broken = {**good, "actions": [*good["actions"][:-1], {"n": 99, "by": "Red", "move": "x9"}],
              "last": MARK}
    assert club.receive(state_topic(), protocol.encode(broken)).kind == "bad"
    [table] = club.live()
    assert table.payload == good
    assert MARK not in club.live_html()
    assert club.store.tables()[0].payload == good


def test_names_from_the_network_are_escaped_on_the_page(club: Club, played: Played) -> None:
    state = list(states(played, "t1"))[30]
    evil = "<script>alert(1)</script>"
    payload = {**state, "seats": [{**state["seats"][0], "name": evil}, state["seats"][1]],
               "turn": '"><img src=x onerror=alert(2)>', "last": evil, "journal": evil}
    assert club.receive(state_topic(), protocol.encode(payload)).kind == "state"
    html = club.live_html()
    assert "<script>" not in html and "<img" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_bad_messages_through_the_broker_leave_the_club_running(
        make_broker: BrokerFactory, played: Played, tmp_path: Path) -> None:
    broker = make_broker({"t1": "pw-t1", "club": "pw-club"}, acl_for_club(PREFIX, ["t1"]))
    club = Club(ClubStore(tmp_path / "club.sqlite"), PREFIX)
    listener = Listener(club, Broker("127.0.0.1", broker.port, "club", "pw-club",
                                     client_id="club-test"))
    listener.start()
    try:
        assert listener.connected.wait(10)
        box = broker.client("t1")
        box.connect("127.0.0.1", broker.port)
        box.loop_start()
        good = played.result("t1")
        for payload in [*RAW.values(), json.dumps(bad_results(played)["a shared win claimed"])
                        .encode()]:
            box.publish(result_topic(good), payload, qos=1).wait_for_publish(10)
            box.publish(state_topic(), payload, qos=1).wait_for_publish(10)
        box.publish(result_topic(good), protocol.encode(good), qos=1,
                    retain=True).wait_for_publish(10)
        sent = 2 * (len(RAW) + 1)  # a state not yet taken is replaced by the next one
        deadline = time.monotonic() + 15
        while (club.store.count() == 0 or club.bad + listener.superseded < sent) \
                and time.monotonic() < deadline:
            time.sleep(0.05)
        box.loop_stop()
        box.disconnect()
        assert club.store.result_ids() == [good["id"]]
        assert club.bad + listener.superseded == sent
        assert club.bad >= len(RAW) + 1  # the results: each taken in turn
        assert listener.client.is_connected()
        assert MARK not in club.live_html()
    finally:
        listener.stop()
