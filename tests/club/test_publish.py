"""``companion publish`` against a real mosquitto on loopback (issues 21 and 33) and the
club itself: a game's live state and result reach the club, and the result leaves the
box's outbox only on the club's receipt; a result published twice is one result; the
broker going away mid-game, the box losing power meanwhile, the broker crashing
(SIGKILL) before it saved what it had acknowledged, and its queue for the club
overflowing while the club is away lose and double nothing; TLS, passwords and the
ACL hold. Skipped, saying why, when mosquitto is missing.

Time is scaled: the issue's "broker stopped for 10 minutes" is a 2-second outage here.
Nothing in the publisher or the broker measures the outage (no timer runs out: MQTT
3.1.1 persistent sessions do not expire in mosquitto's default config, and the
publisher's reconnection delay stops growing at 30 s), so what holds for 2 seconds holds
for 10 minutes, except that after a long outage the box reconnects up to 30 s later.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

import pytest
from broker import Broker, BrokerFactory, Listener, TlsFiles, acl_for_club
from paho.mqtt import client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from tables import PublishProcess, RealClub, Table, club_config, no_fsync

from companion.club import protocol
from companion.journal.store import parse_action

pytestmark = pytest.mark.usefixtures(no_fsync.__name__)
pytest_plugins = ["broker"]  # its fixtures: make_broker, tls_files

PREFIX = protocol.DEFAULT_PREFIX
USERS = {"club": "club-secret", "t1": "t1-secret", "t2": "t2-secret"}
ALL = f"{PREFIX}/#"
UNIT = Path(__file__).parents[2] / "systemd" / "board-companion-publish.service"


def results(messages: list[tuple[str, bytes, bool]]) -> list[dict[str, object]]:
    """The results among ``messages`` (not the box's clearing of one the club has)."""
    return [json.loads(p) for t, p, _ in messages if "/results/" in t and p]


def states(messages: list[tuple[str, bytes, bool]], table: str = "t1") -> list[bytes]:
    """The table's states as a club that missed no message rebuilds them: each whole
    state as sent (``b""``: emptied), and after each delta that follows the last, that
    state with the delta's actions added (as JSON; a delta that does not follow: none)."""
    out: list[bytes] = []
    last: dict[str, object] | None = None
    for topic, payload, _ in messages:
        if topic == protocol.state_topic(PREFIX, table):
            last = json.loads(payload) if payload else None
            out.append(payload)
        elif topic == protocol.delta_topic(PREFIX, table) and last is not None:
            delta = protocol.validate_delta(json.loads(payload))
            done = last["actions"]
            assert isinstance(done, list)
            if (delta["after"], delta["prefix"]) != (
                    len(done), protocol.chain(protocol.GENESIS, done)):
                continue
            last = {**last, "actions": [*done, *delta["actions"]], "status": delta["status"]}
            out.append(json.dumps(last).encode())
    return out


def club_replay(payload: dict[str, object]) -> object:
    """What the club does with a state or result: replay its actions with the rules."""
    from companion.rules import get_game

    game = get_game(str(payload["game"]), **dict(payload["options"]))  # type: ignore[call-overload]
    state = game.new_state(int(payload["players"]))  # type: ignore[call-overload]
    for record in payload["actions"]:  # type: ignore[attr-defined]
        state.apply(parse_action(state, record))
    return state


@pytest.fixture
def box(tmp_path: Path) -> tuple[Path, Path, Path]:
    """The box's journal folder, the publisher's state folder and a log file."""
    journals, state = tmp_path / "journals", tmp_path / "publish-state"
    journals.mkdir()
    return journals, state, tmp_path / "publish.log"


def start_publisher(broker: Broker, box: tuple[Path, Path, Path], table: str = "t1",
                    **kw: object) -> PublishProcess:
    journals, state, log = box
    config = club_config(log.with_name(f"club-{table}.toml"), broker, table, **kw)  # type: ignore[arg-type]
    return PublishProcess(config, journals, state, log).start()


def unit_limits() -> tuple[int, int]:
    """``TasksMax`` and ``MemoryMax`` (bytes) of the publisher's unit."""
    text = UNIT.read_text()
    tasks = re.search(r"^TasksMax=(\d+)$", text, re.M)
    memory = re.search(r"^MemoryMax=(\d+)M$", text, re.M)
    assert tasks and memory
    return int(tasks.group(1)), int(memory.group(1)) << 20


def proc_usage(pid: int) -> tuple[int, int]:
    """Threads and resident bytes of process ``pid`` now."""
    status = Path(f"/proc/{pid}/status").read_text()
    threads = re.search(r"^Threads:\s+(\d+)", status, re.M)
    rss = re.search(r"^VmRSS:\s+(\d+) kB", status, re.M)
    assert threads and rss
    return int(threads.group(1)), int(rss.group(1)) * 1024


def test_a_scripted_game_reaches_the_club(make_broker: BrokerFactory,
                                          box: tuple[Path, Path, Path]) -> None:
    broker = make_broker(USERS, acl_for_club(PREFIX, ["t1", "t2"]))
    club = Listener(broker, "club", [ALL]).start()
    table = Table(box[0], seed=3)
    path = table.new_game()
    real = RealClub(broker, box[1].parent / "club.sqlite").start()
    publisher = start_publisher(broker, box)
    try:
        publisher.wait_log("connected to the club broker")
        club.wait_for(lambda m: any(json.loads(p)["status"] == "playing"
                                    for p in states(m) if p))
        table.play(12)
        moves = table.moves
        got = club.wait_for(lambda m: any(len(json.loads(p)["actions"]) == moves
                                          for p in states(m) if p))
        live = protocol.validate_state(json.loads(states(got)[-1]))
        assert live["table"] == "t1" and live["status"] == "playing"
        assert live["journal"] == path.name
        assert live["seats"][1] == {"name": "White", "kind": "computer", "level": "normal"}
        assert live["turn"] == table.state.player_to_act_name  # type: ignore[union-attr]
        assert str(club_replay(live)) == str(table.state)  # the club rebuilds the position
        winner = table.finish()
        got = club.wait_for(lambda m: bool(results(m)) and any(
            json.loads(p)["status"] == "finished" for p in states(m) if p))
        threads, rss = proc_usage(publisher.process.pid)  # type: ignore[union-attr]
        publisher.wait_log("stored by the club")
        topic = protocol.result_topic(PREFIX, "t1", str(results(got)[0]["id"]))
        got = club.wait_for(lambda m: (topic, b"", False) in m)  # the box clears its copy
    finally:
        assert publisher.stop() == 0
        club.stop()
        real.stop()
    [result] = results(got)
    protocol.validate_result(result)
    assert result["id"] == protocol.result_id(result)
    assert result["winner"] == winner and result["moves"] == table.moves
    assert club_replay(result).outcome is not None  # type: ignore[attr-defined]
    assert [t for t, p, _ in got if "/results/" in t] == [topic, topic]  # sent, cleared
    outbox = json.loads((box[1] / protocol.OUTBOX).read_text())
    assert outbox["published"] == [result["id"]] == real.ids()
    assert path.name in publisher.text() and "sent again" not in publisher.text()
    max_tasks, max_memory = unit_limits()  # as it would run under its unit
    assert threads <= max_tasks and rss <= max_memory, (threads, rss)


def test_a_result_published_twice_is_one_result(make_broker: BrokerFactory,
                                                box: tuple[Path, Path, Path]) -> None:
    broker = make_broker(USERS, acl_for_club(PREFIX, ["t1"]))
    real = RealClub(broker, box[1].parent / "club.sqlite").start()
    table = Table(box[0], seed=5)
    table.new_game()
    publisher = start_publisher(broker, box)
    try:
        publisher.wait_log("connected to the club broker")
        table.finish()
        publisher.wait_log("stored by the club")
    finally:
        publisher.stop()
    # a power cut after the club's receipt and before the outbox was written: the
    # result is sent again at the next start, and the club answers it again
    outbox = box[1] / protocol.OUTBOX
    outbox.write_text(json.dumps({**json.loads(outbox.read_text()), "published": []}))
    publisher = start_publisher(broker, box)
    try:
        publisher.wait_log("stored by the club", count=2)
    finally:
        publisher.stop()
        real.stop()
    assert len(real.ids()) == 1
    assert json.loads(outbox.read_text())["published"] == real.ids()
    later = Listener(broker, "club", [f"{PREFIX}/results/#"]).start()  # a club starting now
    time.sleep(0.5)
    later.stop()
    assert results(later.messages) == []  # the broker keeps no copy: the club has it


def test_a_broker_crash_before_its_autosave_loses_nothing(
        make_broker: BrokerFactory, box: tuple[Path, Path, Path]) -> None:
    """Mosquitto saves its persistence file every ``autosave_interval`` (30 min by
    default): SIGKILLed before that, it forgets results it acknowledged while the club
    was stopped. The box keeps each until the club's receipt, so it sends them again."""
    broker = make_broker(USERS, acl_for_club(PREFIX, ["t1"]),
                         settings={"autosave_interval": "1800"})
    real = RealClub(broker, box[1].parent / "club.sqlite").start()
    real.stop()  # the club has its session, then is away
    table = Table(box[0], seed=8)
    publisher = start_publisher(broker, box)
    try:
        publisher.wait_log("connected to the club broker")
        for n in range(4):
            table.new_game()
            table.finish()
            publisher.wait_log("published (", count=n + 1)
        time.sleep(0.5)  # the broker has acknowledged them all (QoS 1)
        broker.kill()
        broker.start()
        real.start()
        publisher.wait_log("stored by the club", count=4, timeout=60)
    finally:
        publisher.stop()
        real.stop()
    stored = real.ids()
    assert len(stored) == 4 == len(set(stored))
    assert sorted(json.loads((box[1] / protocol.OUTBOX).read_text())["published"]) == sorted(stored)


def test_a_full_queue_for_the_club_loses_no_result(
        make_broker: BrokerFactory, box: tuple[Path, Path, Path]) -> None:
    """The broker keeps at most ``max_queued_messages`` for a client that is away (1,000
    on Debian; 3 here) and drops the rest. States go to a session of their own, and a
    result without its receipt is sent again: six results while the club is away all
    reach it."""
    broker = make_broker(USERS, acl_for_club(PREFIX, ["t1"]),
                         settings={"max_queued_messages": "3"})
    real = RealClub(broker, box[1].parent / "club.sqlite").start()
    real.stop()
    table = Table(box[0], seed=9)
    publisher = start_publisher(broker, box)
    try:
        publisher.wait_log("connected to the club broker")
        for n in range(6):
            table.new_game()
            table.play(3)
            table.finish()
            publisher.wait_log("published (", count=n + 1)
        real.start()
        publisher.wait_log("stored by the club", count=6, timeout=60)
    finally:
        publisher.stop()
        real.stop()
    assert len(real.ids()) == 6 == len(set(real.ids()))


def test_broker_outage_and_power_cut_lose_and_double_nothing(
        make_broker: BrokerFactory, box: tuple[Path, Path, Path]) -> None:
    broker = make_broker(USERS, acl_for_club(PREFIX, ["t1"]))
    real = RealClub(broker, box[1].parent / "club.sqlite").start()
    watcher = Listener(broker, "club", [state_filter()]).start()
    table = Table(box[0], seed=7)
    table.new_game()
    publisher = start_publisher(broker, box)
    try:
        publisher.wait_log("connected to the club broker")
        table.finish()  # game 1: published while the broker is there
        publisher.wait_log("stored by the club")
        table.new_game()  # game 2 begins, then the broker goes for the "10 minutes"
        table.play(6)
        watcher.wait_for(lambda m: any(json.loads(p)["actions"] for p in states(m) if p))
        broker.stop()
        table.finish()  # game 2 ends while the broker is away...
        table.new_game()  # ...and game 3 begins
        table.play(9)
        time.sleep(2.0)  # the outage, scaled (see the module doc)
        publisher.kill()  # the box's power is cut while the broker is away
        assert not (box[1] / "club-outbox.json.tmp").exists()
        watcher.stop()
        broker.start()  # both come back
        watcher = Listener(broker, "club", [state_filter()]).start()
        publisher = start_publisher(broker, box)
        moves = table.moves
        publisher.wait_log("stored by the club", count=2, timeout=60)
        got = watcher.wait_for(lambda m: any(
            len(json.loads(p)["actions"]) == moves for p in states(m) if p), timeout=30)
        time.sleep(1.5)  # anything doubled would come now
    finally:
        publisher.stop()
        watcher.stop()
        real.stop()
    ids = real.ids()
    assert len(ids) == 2 and len(set(ids)) == 2, ids  # every result, exactly once
    outbox = json.loads((box[1] / protocol.OUTBOX).read_text())
    assert sorted(outbox["published"]) == sorted(ids)
    latest = json.loads(states(got)[-1])
    assert latest["status"] == "playing" and len(latest["actions"]) == table.moves
    assert str(club_replay(latest)) == str(table.state)


def state_filter() -> str:
    return protocol.state_filter(PREFIX)


def test_tls_with_the_club_ca_and_not_without(make_broker: BrokerFactory, tls_files: TlsFiles,
                                              box: tuple[Path, Path, Path]) -> None:
    broker = make_broker(USERS, acl_for_club(PREFIX, ["t1"]), tls=tls_files)
    club = Listener(broker, "club", [ALL]).start()
    table = Table(box[0])
    table.new_game()
    wrong = start_publisher(broker, box, ca=tls_files.other_ca)  # a CA that signed nothing
    try:
        wrong.wait_log("certificate verify failed")
    finally:
        wrong.stop()
    assert club.messages == []
    publisher = start_publisher(broker, box, ca=tls_files.ca)
    try:
        got = club.wait_for(lambda m: bool(states(m)))
    finally:
        publisher.stop()
        club.stop()
    assert json.loads(states(got)[0])["status"] == "playing"
    bare = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv311)  # no TLS at all
    bare.username_pw_set("club", USERS["club"])
    answers: list[object] = []
    bare.on_connect = lambda client, userdata, flags, reason, props: answers.append(reason)
    bare.connect("127.0.0.1", broker.port)
    for _ in range(30):
        if bare.loop(0.1) != mqtt.MQTT_ERR_SUCCESS:
            break  # the broker hung up
    assert answers == []  # never let in


def test_anonymous_and_wrong_password_are_refused(make_broker: BrokerFactory,
                                                  box: tuple[Path, Path, Path]) -> None:
    broker = make_broker(USERS, acl_for_club(PREFIX, ["t1"]))
    club = Listener(broker, "club", [ALL]).start()
    table = Table(box[0])
    table.new_game()
    anonymous = start_publisher(broker, box, password="")
    try:
        anonymous.wait_log("refused the connection")
    finally:
        anonymous.stop()
    wrong = start_publisher(broker, box, password="guess")
    try:
        wrong.wait_log("refused the connection")
        time.sleep(0.5)
    finally:
        wrong.stop()
    assert club.messages == []
    club.stop()


def test_a_box_cannot_write_another_tables_topics(make_broker: BrokerFactory,
                                                  box: tuple[Path, Path, Path]) -> None:
    broker = make_broker(USERS, acl_for_club(PREFIX, ["t1", "t2"]))
    club = Listener(broker, "club", [ALL]).start()
    table = Table(box[0])
    table.new_game()
    # the box of table t1 set up as t2: mosquitto acknowledges its QoS 1 messages (MQTT
    # 3.1.1 has no way to say no) and drops them
    impostor = start_publisher(broker, box, table="t2", user="t1")
    try:
        impostor.wait_log("connected to the club broker")
        table.finish()
        impostor.wait_log("published (")
        time.sleep(0.5)
    finally:
        impostor.stop()
    forged = broker.client("t1")
    forged.connect("127.0.0.1", broker.port)
    forged.loop_start()
    info = forged.publish(protocol.state_topic(PREFIX, "t2"), b'{"v":1}', qos=1, retain=True)
    info.wait_for_publish(5)
    own = forged.publish(protocol.state_topic(PREFIX, "t1"), b"", qos=1, retain=True)
    own.wait_for_publish(5)
    forged.disconnect()
    forged.loop_stop()
    got = club.wait_for(lambda m: any(t.endswith("/t1/state") for t, _, _ in m))
    time.sleep(0.5)
    club.stop()
    assert [t for t, _, _ in club.messages] == [protocol.state_topic(PREFIX, "t1")]
    assert got


def test_bad_journals_are_skipped_and_left_as_they_are(make_broker: BrokerFactory,
                                                       box: tuple[Path, Path, Path]) -> None:
    broker = make_broker(USERS, acl_for_club(PREFIX, ["t1"]))
    journals = box[0]
    table = Table(journals, seed=11)
    path = table.new_game()
    table.play(10)
    bad = {
        "20990101-000001-senet-tait.journal": b"not a journal at all\n",
        "20990101-000002-nosuchgame.journal": b'00000000 {"format":"x"}\n',
        "20990101-000003-senet-tait.journal": path.read_bytes() + b"deadbeef {cut sho",
    }
    for name, data in bad.items():
        (journals / name).write_bytes(data)
    os.mkfifo(journals / "20990101-000004-senet-tait.journal")
    before = sorted(p.name for p in journals.iterdir())
    club = Listener(broker, "club", [ALL]).start()
    publisher = start_publisher(broker, box)
    try:
        got = club.wait_for(lambda m: bool(states(m)))
        publisher.wait_log("skipped")
        time.sleep(1.5)
        assert publisher.process is not None and publisher.process.poll() is None
    finally:
        assert publisher.stop() == 0
        club.stop()
    # the newest readable journal is the live game: the one cut short, up to its damage
    first = json.loads(states(got)[0])
    assert first["journal"] == "20990101-000003-senet-tait.journal"
    assert len(first["actions"]) == 10
    assert sorted(p.name for p in journals.iterdir()) == before  # nothing repaired or renamed
    for name, data in bad.items():
        assert (journals / name).read_bytes() == data


def test_a_table_without_a_game_is_emptied(make_broker: BrokerFactory,
                                           box: tuple[Path, Path, Path]) -> None:
    broker = make_broker(USERS, acl_for_club(PREFIX, ["t1"]))
    table = Table(box[0])
    path = table.new_game()
    club = Listener(broker, "club", [ALL]).start()
    publisher = start_publisher(broker, box)
    try:
        club.wait_for(lambda m: bool(states(m)))
        path.rename(path.parent.parent / path.name)  # the box has no game any more
        got = club.wait_for(lambda m: states(m)[-1:] == [b""])
    finally:
        publisher.stop()
        club.stop()
    assert [bool(p) for p in states(got)] == [True, False]
    later = Listener(broker, "club", [ALL]).start()  # the broker keeps nothing for t1
    time.sleep(0.5)
    later.stop()
    assert later.messages == []


def test_games_played_before_the_first_start_are_sent_once(make_broker: BrokerFactory,
                                                           box: tuple[Path, Path, Path]) -> None:
    """A box that played before it joined the club (issue 33): its publisher's first
    start sends every finished game in the folder, each once; once all are with the
    club the outbox says so, and a restart does not send or read them again."""
    broker = make_broker(USERS, acl_for_club(PREFIX, ["t1", "t2"]))
    table = Table(box[0], seed=11)
    before = []
    for _ in range(4):
        before.append(table.new_game())
        table.finish()
    unfinished = table.new_game()
    table.play(5)
    an_hour_ago = time.time() - 3600
    for path in [*before, unfinished]:
        os.utime(path, (an_hour_ago, an_hour_ago))
    real = RealClub(broker, box[1].parent / "club.sqlite").start()
    publisher = start_publisher(broker, box)
    try:
        publisher.wait_log("the games played before", timeout=30)
        assert len(real.ids()) == 4
        outbox = json.loads((box[1] / protocol.OUTBOX).read_text())
        assert outbox["backlog"] is False and sorted(outbox["published"]) == sorted(real.ids())
        assert publisher.stop() == 0
        sent = publisher.text().count("published (")
        assert sent == 4, publisher.text()
        publisher = start_publisher(broker, box)
        publisher.wait_log("connected to the club broker", count=2)
        table.finish()  # the live game ends after the restart: sent as ever
        publisher.wait_log("stored by the club", count=5, timeout=30)
    finally:
        assert publisher.stop() == 0
        real.stop()
    assert publisher.text().count("published (") == 5  # each game once, none again
    assert len(set(real.ids())) == 5
    assert unfinished.name in publisher.text()
