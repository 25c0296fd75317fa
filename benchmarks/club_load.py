#!/usr/bin/env python3
"""The club under load (issue 21): many boxes publishing whole games through one mosquitto.

Each simulated box plays a whole game scripted by the rules engine (seeded random throws
and moves, written as a real journal: tests/club/games.py), and publishes what a box's
publisher publishes: after every action the table's retained state (QoS 1, the whole
action list, as the protocol has it), at the end the result, and then the result once
more, as a box does after a power cut before the broker's acknowledgement. Boxes play at
``--speed`` times a table's pace (an action every :data:`HUMAN_PACE` seconds: a throw or
a move at a real table), so at 10x an action every 0.3 s per box.

The club is the real one in this process: :class:`companion.club.server.Listener` (paho,
persistent session) into :class:`companion.club.server.Club` (replay check, SQLite
store). The boxes run in a few other processes (so their JSON encoding does not take the
club's interpreter lock), each box with its own MQTT connection, user and password under
the protocol's ACL.

Printed:

* results lost (published, never stored) and doubled (stored more than once, or shown
  more than once on the page): both must be 0 (the exit status is 1 otherwise);
* the club's update latency: from the moment a box hands a message to paho (the box's
  CLOCK_MONOTONIC, the same clock in every process on Linux) to the moment the club has
  checked, replayed and stored it or a newer state of its table (what the page shows
  from then on: a state waiting is replaced by a newer one), p50 / p99 / max, for
  every message and per game; and the club's own CPU time. No floor: it is wall-clock time through a broker
  on a machine shared with other work; quote it with its run.

``--quick``: 4 boxes, short games, 200x speed: a few seconds, to see that it still runs.
Needs /usr/sbin/mosquitto and mosquitto_passwd (Debian's mosquitto); says so and exits 0
without them.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import resource
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "club"))

from broker import MOSQUITTO, acl_for_club, free_port
from broker import Broker as Mosquitto
from games import play, states

from companion.club import protocol
from companion.club.server import Broker, Club, Listener, Received
from companion.club.store import ClubStore

HUMAN_PACE = 3.0
"""Seconds between two actions at a real table (a throw, a move), at speed 1."""
PREFIX = "board-companion"
FULL_GAMES = ("senet-tait", "senet-sticks", "labyrinth")
"""The games the boxes play in turn. Not the Cretan Labyrinth: its random games run to
over 1,000 actions, and the whole action list is then over the protocol's 256 KiB (see
benchmarks/README.md)."""
STALL = 30.0
"""Seconds without the club storing anything after which what is missing counts as lost."""
MAX_ACTIONS = 500
"""Seeds whose random game is longer are passed over (a long tail would set the run's
length alone)."""


def password(table: str) -> str:
    return f"pw-{table}"


def box_process(port: int, tables: list[tuple[str, str, int]], folder: str, pace: float,
                ready: Any, go: Any, out: Any) -> None:
    """Play and publish the games of ``tables`` ((table, game, seed) each), one thread
    per box; put ``(sent, results, errors)`` on ``out``: the send time of every message
    by (table, actions or "result"), the result ids, and what went wrong."""
    from paho.mqtt import client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    played = {}
    for table, game, seed in tables:
        for attempt in range(50):
            candidate = play(Path(folder) / table / str(attempt), game, seed * 100 + attempt)
            if len(candidate.loaded.records) <= MAX_ACTIONS:
                break
        played[table] = candidate
    sent: dict[tuple[str, Any], float] = {}
    results: dict[str, str] = {}
    errors: list[str] = []
    ready.set()
    go.wait()

    def run(table: str) -> None:
        try:
            cli = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"box-{table}",
                              protocol=mqtt.MQTTv311)
            cli.username_pw_set(table, password(table))
            cli.max_queued_messages_set(0)
            cli.connect("127.0.0.1", port)
            cli.loop_start()
            topic = protocol.state_topic(PREFIX, table)
            game = played[table]
            for n, payload in enumerate(states(game, table, updated=protocol.now_iso())):
                data = protocol.encode(payload)
                sent[(table, n)] = time.monotonic()
                cli.publish(topic, data, qos=1, retain=True)
                time.sleep(pace)
            result = game.result(table, ended=protocol.now_iso())
            results[table] = result["id"]
            rtopic = protocol.result_topic(PREFIX, table, result["id"])
            sent[(table, "result")] = time.monotonic()
            cli.publish(rtopic, protocol.encode(result), qos=1, retain=True).wait_for_publish(60)
            cli.publish(rtopic, protocol.encode(result), qos=1, retain=True).wait_for_publish(60)
            cli.disconnect()
            cli.loop_stop()
        except Exception as exc:  # said in the output, counted as lost
            errors.append(f"{table}: {type(exc).__name__}: {exc}")

    threads = [threading.Thread(target=run, args=(t,)) for t, _, _ in tables]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out.put((sent, results, errors, {t: played[t].loaded.game.id for t, _, _ in tables},
             {t: len(played[t].loaded.records) for t, _, _ in tables}))


class TimedClub(Club):
    """The club, noting when each message was stored (by table and action count)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.stored: dict[tuple[str, Any], float] = {}
        """When the page first had each (table, actions) or (table, "result")."""
        self.covered: dict[str, int] = {}
        self.kinds: dict[str, int] = defaultdict(int)

    def receive(self, topic: str, data: bytes, *, received: float | None = None,
                retained: bool = False) -> Received:
        got = super().receive(topic, data, received=received, retained=retained)
        now = time.monotonic()
        self.kinds[got.kind] += 1
        if got.kind == "state":
            live = {t.table: t for t in self.live()}[got.table]
            assert live.payload is not None
            # every state up to this one is on the page now (skipped ones included)
            newest = len(live.payload["actions"])
            done = self.covered.get(got.table, -1)
            for n in range(done + 1, newest + 1):
                self.stored[(got.table, n)] = now
            self.covered[got.table] = max(done, newest)
        elif got.kind == "result":
            self.stored.setdefault((got.table, "result"), now)
        return got


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def line(label: str, values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return (f"  {label:<14} p50 {statistics.median(ms):7.1f} ms  p99 {percentile(ms, 0.99):7.1f} ms"
            f"  max {max(ms):7.1f} ms  n={len(ms)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="4 boxes, short games, 200x")
    parser.add_argument("--boxes", type=int, default=None, help="simulated boxes (50)")
    parser.add_argument("--speed", type=float, default=None, help="times a table's pace (10)")
    parser.add_argument("--processes", type=int, default=5, help="box processes (5)")
    parser.add_argument("--queue", type=int, default=1000,
                        help="the broker's max_queued_messages (1000: Debian's default)")
    args = parser.parse_args()
    if not os.access(MOSQUITTO, os.X_OK) or shutil.which("mosquitto_passwd") is None:
        print("club_load: no mosquitto here (Debian's mosquitto package): nothing measured")
        return 0
    boxes = args.boxes or (4 if args.quick else 50)
    speed = args.speed or (200.0 if args.quick else 10.0)
    games = ("senet-sticks",) if args.quick else FULL_GAMES
    pace = HUMAN_PACE / speed
    tables = [(f"table-{i:02d}", games[i % len(games)], i) for i in range(boxes)]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        users = {t: password(t) for t, _, _ in tables} | {"club": "pw-club"}
        broker = Mosquitto(folder / "broker", free_port(), users,
                           acl_for_club(PREFIX, [t for t, _, _ in tables]),
                           settings={"max_queued_messages": str(args.queue)})
        broker.write_config()
        broker.start()
        club = TimedClub(ClubStore(folder / "club.sqlite"), PREFIX)
        listener = Listener(club, Broker("127.0.0.1", broker.port, "club", "pw-club",
                                         prefix=PREFIX, client_id="club-bench"))
        try:
            # the box processes first: forked before paho's thread exists in this one
            ctx = mp.get_context("fork")
            go = ctx.Event()
            out = ctx.Queue()
            nproc = max(1, min(args.processes, boxes))
            readies = []
            procs = []
            for k in range(nproc):
                ready = ctx.Event()
                proc = ctx.Process(target=box_process, args=(
                    broker.port, tables[k::nproc], str(folder / "journals"), pace, ready, go, out))
                proc.start()
                procs.append(proc)
                readies.append(ready)
            listener.start()
            if not listener.connected.wait(15):
                print(f"club_load: the club could not connect: {broker.log_text()}")
                return 1
            for ready in readies:
                ready.wait(600)
            start = time.monotonic()
            go.set()
            sent: dict[tuple[str, Any], float] = {}
            ids: dict[str, str] = {}
            errors: list[str] = []
            game_of: dict[str, str] = {}
            lengths: dict[str, int] = {}
            for _ in procs:
                s, r, e, g, n = out.get(timeout=3600)
                sent.update(s)
                ids.update(r)
                errors += e
                game_of.update(g)
                lengths.update(n)
            for proc in procs:
                proc.join(60)
            # The club may still be working through what came: wait while it makes
            # progress; what is not stored after STALL seconds without any is lost.
            published = time.monotonic()
            seen, since = club.version, time.monotonic()
            while club.store.count() < len(ids) or any(k not in club.stored for k in sent):
                if club.version != seen:
                    seen, since = club.version, time.monotonic()
                elif time.monotonic() - since > STALL:
                    break
                time.sleep(0.1)
            drained = time.monotonic() - published
            time.sleep(1.0)  # the second copies of the results, still on their way
            took = published - start
        finally:
            listener.stop()
            broker.stop()
        stored = club.store.result_ids()
        lost = len(set(ids.values()) - set(stored))
        cpu0 = time.process_time()
        html = club.live_html()
        render = time.process_time() - cpu0
        doubled = (len(stored) - len(set(stored))) + sum(
            max(0, html.count(f'data-result="{rid}"') - 1) for rid in ids.values())
        states_missing = sum(1 for k in sent if k[1] != "result" and k not in club.stored)
        volume = sum(1 for k in sent if k[1] != "result")
        print(f"club_load: {boxes} boxes at {speed:g}x a table's pace (an action every "
              f"{pace:.3f} s per box), one mosquitto on loopback, {nproc} box processes")
        per_game: dict[str, list[int]] = defaultdict(list)
        for table, game in game_of.items():
            per_game[game].append(lengths[table])
        for game, counts in sorted(per_game.items()):
            print(f"  {game:<14} {len(counts)} boxes, actions per game {min(counts)}-"
                  f"{max(counts)} (median {statistics.median(counts):g})")
        print(f"  {volume} state messages and {len(ids)} results (each sent twice) in "
              f"{took:.1f} s; the club done {drained:.1f} s after the last; {club.bad} bad "
              f"messages; {club.kinds['duplicate']} second copies skipped; "
              f"{listener.superseded} states replaced by a newer one before they were taken")
        cpu = resource.getrusage(resource.RUSAGE_SELF)
        print(f"  the club's CPU time: {cpu.ru_utime + cpu.ru_stime:.1f} s for "
              f"{club.kinds['state'] + club.kinds['result']} messages taken "
              f"(broker and boxes not counted)")
        for error in errors:
            print(f"  box error: {error}")
        print(f"results lost {lost}, doubled {doubled} (of {len(ids)}); states never stored "
              f"{states_missing}")
        print(f"  the page with {len(club.live())} tables, {min(len(ids), 50)} results and the "
              f"ratings: {render * 1000:.0f} ms CPU to render once (every board drawn)")
        latencies = [club.stored[k] - t for k, t in sent.items() if k in club.stored]
        if latencies:
            print("update latency, publish to stored (what the page shows):")
            print(line("all messages", latencies))
            by_game: dict[str, list[float]] = defaultdict(list)
            for key, t in sent.items():
                if key in club.stored:
                    by_game[game_of[key[0]]].append(club.stored[key] - t)
            for game, values in sorted(by_game.items()):
                print(line(game, values))
        return 1 if lost or doubled or errors else 0


if __name__ == "__main__":
    sys.exit(main())
