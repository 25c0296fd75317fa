"""The club's wire protocol (companion/club/protocol.py), the publisher's outbox and
`companion publish`'s refusals of a config it cannot use: no broker needed."""

from __future__ import annotations

import contextlib
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tables import Table, no_fsync

from companion.club import protocol
from companion.club.protocol import ProtocolError
from companion.club.publish import Outbox
from companion.errors import CompanionError
from companion.journal.store import load

pytestmark = pytest.mark.usefixtures(no_fsync.__name__)


def finished(tmp_path: Path, seed: int = 1) -> tuple[Path, Any]:
    table = Table(tmp_path, seed=seed)
    path = table.new_game()
    table.finish()
    return path, load(path, repair=False)


def header_of(path: Path) -> bytes:
    return path.read_bytes().split(b"\n", 1)[0]


def result_of(path: Path, loaded: Any, table: str = "t1", ended: str | None = None) -> dict[str, Any]:
    return protocol.result_payload(loaded, table=table, header_line=header_of(path),
                                   ended=ended or "2026-11-26T03:00:00+00:00")


def test_result_id_is_the_documented_hash_of_the_content_and_the_same_for_the_same_game(
        tmp_path: Path) -> None:
    path, loaded = finished(tmp_path / "a")
    result = result_of(path, loaded)
    content = {k: result[k] for k in protocol.ID_FIELDS}
    body = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    expected = hashlib.sha256(body.encode()).hexdigest()[:20]
    assert result["id"] == protocol.result_id(result) == expected
    again = result_of(path, load(path, repair=False), ended="2026-11-27T00:00:00+00:00")
    assert again["id"] == expected  # read again, another end time: the same id
    assert result_of(path, loaded, table="t2")["id"] != expected  # another table's
    other_path, other = finished(tmp_path / "b", seed=2)
    assert result_of(other_path, other)["id"] != expected
    forged = dict(result, winner="White" if result["winner"] == "Black" else "Black")
    assert protocol.result_id(forged) == expected  # the winner is the replay's to check
    forged["actions"] = forged["actions"][:-1]
    assert protocol.result_id(forged) != expected


def test_times_outside_the_protocols_range_are_refused_not_raised(tmp_path: Path) -> None:
    path, loaded = finished(tmp_path)
    for when in ("9999-12-31T23:59:59+00:00", "9999-12-31T23:59:59-14:00",
                 "0001-01-01T00:00:00+14:00", "1970-01-01T00:00:00+00:00", "yesterday"):
        with pytest.raises(ProtocolError):
            protocol.validate_result(result_of(path, loaded) | {"ended": when})


def test_payloads_of_a_journal_follow_the_protocol(tmp_path: Path) -> None:
    path, loaded = finished(tmp_path)
    result = protocol.result_payload(loaded, table="table-1", header_line=header_of(path),
                                     ended="2026-11-26T03:00:00+00:00")
    assert protocol.validate_result(json.loads(protocol.encode(result))) == result
    assert result["winner"] in ("Black", "White") and result["moves"] == len(loaded.records)
    assert result["seats"] == [{"name": "Black", "kind": "human", "level": None},
                               {"name": "White", "kind": "computer", "level": "normal"}]
    state = protocol.state_payload(loaded, table="table-1")
    assert protocol.validate_state(state)["status"] == "finished" and state["turn"] is None
    table = Table(tmp_path / "live", seed=3)
    live_path = table.new_game()
    table.play(5)
    live = load(live_path, repair=False)
    assert protocol.state_payload(live, table="t")["status"] == "playing"
    with pytest.raises(ProtocolError, match="no result: the game is playing"):
        protocol.result_payload(live, table="t", header_line=header_of(live_path))


def good_state() -> dict[str, Any]:
    return {"v": 1, "table": "t1", "game": "senet-tait", "players": 2, "options": {},
            "names": ["Black", "White"],
            "seats": [{"name": "Black", "kind": "human", "level": None},
                      {"name": "White", "kind": "computer", "level": "normal"}],
            "actions": [], "status": "playing", "turn": "Black", "last": "",
            "journal": "x.journal", "updated": "2026-11-26T03:00:00+00:00"}


@pytest.mark.parametrize(("change", "message"), [
    ({"v": 2}, "version"),
    ({"v": True}, "version"),
    ({"table": "Table 1"}, "table name"),
    ({"players": True}, "'players'"),
    ({"players": 3}, "seats"),
    ({"status": "won"}, "'status'"),
    ({"names": ["Black"]}, "'names'"),
    ({"seats": [{"name": "Black", "kind": "robot", "level": None}] * 2}, "kind"),
    ({"actions": [1, 2]}, "'actions'"),
    ({"updated": "yesterday"}, "ISO 8601"),
    ({"turn": 7}, "'turn'"),
    ({"last": "x" * protocol.MAX_PAYLOAD}, "over"),
])
def test_a_state_of_the_wrong_shape_or_size_is_refused(change: dict[str, Any],
                                                       message: str) -> None:
    protocol.validate_state(good_state())
    with pytest.raises(ProtocolError, match=message):
        protocol.validate_state({**good_state(), **change})


def test_a_result_whose_moves_or_id_do_not_fit_is_refused() -> None:
    result = {**good_state(), "id": "0" * 20, "winner": "Black", "moves": 0,
              "started": "2026-11-26T02:00:00+00:00", "ended": "2026-11-26T03:00:00+00:00"}
    protocol.validate_result(result)
    with pytest.raises(ProtocolError, match="'moves'"):
        protocol.validate_result({**result, "moves": 3})
    with pytest.raises(ProtocolError, match="hex"):
        protocol.validate_result({**result, "id": "../../etc"})
    with pytest.raises(ProtocolError, match="lacks 'winner'"):
        protocol.validate_result({k: v for k, v in result.items() if k != "winner"})


@pytest.mark.parametrize("data", [
    b"not json", b"[1, 2]", b'{"v": NaN}', b"\xff\xfe", b"[" * 100 + b"]" * 100,
    b'{"a": "' + b"x" * protocol.MAX_PAYLOAD + b'"}',
])
def test_received_bytes_that_are_no_payload_are_refused(data: bytes) -> None:
    with pytest.raises(ProtocolError):
        protocol.decode(data)


def test_topics_are_built_and_read_back() -> None:
    state = protocol.state_topic("club", "t-1")
    assert state == "club/tables/t-1/state"
    assert protocol.parse_topic("club", state) == ("state", "t-1", None)
    result = protocol.result_topic("club", "t-1", "ab" * 10)
    assert protocol.parse_topic("club", result) == ("result", "t-1", "ab" * 10)
    for topic in ("club/tables/t-1/other", "club/results/t-1/xyz", "other/tables/t/state",
                  "club/tables/T/state"):
        with pytest.raises(ProtocolError):
            protocol.parse_topic("club", topic)
    for table in ("", "A", "a" * 33, "t/1", "t+"):
        with pytest.raises(ProtocolError):
            protocol.check_table(table)
    for prefix in ("", "a/#", "/a", "a/", "a+b"):
        with pytest.raises(ProtocolError):
            protocol.check_prefix(prefix)
    assert issubclass(ProtocolError, CompanionError) and issubclass(ProtocolError, ValueError)


def test_the_outbox_keeps_acknowledged_ids_and_survives_damage(tmp_path: Path) -> None:
    path = tmp_path / protocol.OUTBOX
    box = Outbox(path)
    box.add("a" * 20)
    box.add("a" * 20)
    again = Outbox(path)
    assert "a" * 20 in again and again.since == box.since
    assert again.backlog and again.horizon == protocol.EARLIEST  # the games before: to send
    again.backlog_sent()
    assert not Outbox(path).backlog and Outbox(path).horizon == box.since
    older = json.loads(path.read_text())
    del older["backlog"]  # an outbox of an older version never sent the games before
    path.write_text(json.dumps(older))
    assert Outbox(path).backlog
    assert json.loads(path.read_text())["published"] == ["a" * 20]
    path.write_text('{"format": "board-companion/club-outbox", "published": 5')
    fresh = Outbox(path)
    assert fresh.published == set()
    assert path.with_name(path.name + ".bad").exists() and json.loads(path.read_text())


@pytest.mark.parametrize(("lines", "status", "message"), [
    (["publish = false"], 0, "club.publish is false"),
    (["publish = true"], 2, "club.broker is empty"),
    (["publish = true", 'broker = "b"', 'table = "Table 1"'], 2, "club.table"),
    (["publish = true", 'broker = "b"', 'table = "t1"', 'password_file = "/nonexistent"'], 2,
     "club.password_file"),
    (["publish = true", 'broker = "b"', 'table = "t1"', 'tls_ca = "/nonexistent"'], 2,
     "club.tls_ca"),
])
def test_publish_refuses_a_config_it_cannot_use(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: list[str], status: int,
        message: str) -> None:
    from companion.cli import main

    config = tmp_path / "config.toml"
    config.write_text("[club]\n" + "\n".join(lines) + "\n")
    assert main(["publish", "--config", str(config), "--dir", str(tmp_path),
                 "--state-dir", str(tmp_path / "state")]) == status
    assert message in capsys.readouterr().err
    assert not (tmp_path / "state").exists()  # nothing written


def test_the_publisher_keeps_in_memory_only_the_live_game_and_results_to_send(
        tmp_path: Path) -> None:
    from companion.club.publish import ClubSettings, Publisher

    journals = tmp_path / "journals"
    publisher = Publisher(ClubSettings("127.0.0.1", 9, "t1"), journals, tmp_path / "state")
    table = Table(journals, seed=4)
    paths = []
    for _ in range(3):
        paths.append(table.new_game())
        table.finish()
    first = load(paths[0], repair=False)
    # an outbox of an older version: the id the journal's header and records gave
    publisher.outbox.add(protocol.journal_result_id(header_of(paths[0]), first.records))
    publisher.poll()  # not connected: reads, sends nothing
    kept = {p.name for p, snap in publisher._snapshots.items() if snap.loaded is not None}
    assert kept == {paths[2].name}  # the live (newest) game only: the others' results made
    to_send = {p.name for p, made in publisher._results.items() if made[3]}
    assert paths[1].name in to_send and paths[0].name not in to_send  # the first's is stored
    for path in paths[1:]:
        made = publisher._result(path, publisher._snapshots[path])
        assert made is not None
        publisher.outbox.add(made[0])
    publisher.poll()
    kept = {p.name for p, snap in publisher._snapshots.items() if snap.loaded is not None}
    assert kept == {paths[2].name}
    assert not any(made[3] for made in publisher._results.values())  # all with the club
    publisher.close()


class FakeClient:
    """paho's client as the publisher uses it, keeping what it is asked to publish."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, bytes]] = []

    def publish(self, topic: str, data: bytes, **kw: object) -> None:
        self.sent.append((topic, data))


class Message:
    def __init__(self, topic: str, payload: bytes) -> None:
        self.topic, self.payload = topic, payload


def test_a_first_start_sends_the_backlog_a_few_at_a_time_and_once(tmp_path: Path) -> None:
    """Forty games finished before the publisher's first start: at most MAX_IN_FLIGHT
    sent at once, oldest first, none kept read in memory; each sent once; the backlog
    done when the club has them all."""
    import os
    import time

    from companion.club.publish import MAX_IN_FLIGHT, ClubSettings, Publisher

    journals = tmp_path / "journals"
    table = Table(journals, seed=9)
    for _ in range(40):
        table.new_game()
        table.finish()
    old = time.time() - 3600
    for path in journals.iterdir():
        os.utime(path, (old, old))
    publisher = Publisher(ClubSettings("127.0.0.1", 9, "t1"), journals, tmp_path / "state")
    client = FakeClient()
    publisher.client = client
    publisher.connected.set()
    publisher.poll()
    client.sent = [(t, d) for t, d in client.sent if "/results/" in t]  # not the state
    assert len(client.sent) == MAX_IN_FLIGHT < 40
    assert sum(snap.loaded is not None for snap in publisher._snapshots.values()) == 1
    while publisher.outbox.backlog:
        for topic, data in client.sent:
            if "/results/" not in topic or not data:
                continue
            rid = json.loads(data)["id"]
            receipt = protocol.encode(protocol.receipt_payload(rid, stored=True))
            publisher._on_message(client, None, Message(publisher.receipt_topic, receipt))
        sent, client.sent = client.sent, []
        assert sent, "the backlog is never done"
        publisher.poll()
    assert len(publisher.outbox.published) == 40
    assert json.loads((tmp_path / "state" / protocol.OUTBOX).read_text())["backlog"] is False
    assert [t for t, d in client.sent if d and "/results/" in t] == []  # none sent again


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                               max_size=4),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=200) | json_values.map(lambda v: json.dumps(v).encode()))
def test_any_bytes_are_a_payload_or_a_protocol_error(data: bytes) -> None:
    try:
        obj = protocol.decode(data)
    except ProtocolError:
        return
    assert isinstance(obj, dict)


@settings(max_examples=200, deadline=None)
@given(change=st.dictionaries(st.sampled_from([*sorted(good_state()), "id", "winner", "moves"]),
                              json_values, max_size=4))
def test_any_object_is_a_valid_state_or_result_or_a_protocol_error(
        change: dict[str, Any]) -> None:
    for check in (protocol.validate_state, protocol.validate_result):
        with contextlib.suppress(ProtocolError):
            check({**good_state(), **change})
