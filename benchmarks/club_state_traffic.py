#!/usr/bin/env python3
"""Bytes of state traffic per game, and the publisher's CPU per change, before and after
states were sent as changes (issue 33).

One game of the Labyrinth (Peter Aleff's, 2 players; seeded random throws and moves) is
written action by action as a real journal (the companion's own writer), as the referee
writes it; after each action:

* **before**: what the publisher did until then: read the whole journal and replay it
  (:func:`companion.club.publish.read_snapshot`), then make and encode the whole state
  (:func:`companion.club.protocol.state_payload`: every action of the game): one whole
  state per change;
* **after**: the publisher itself (:class:`companion.club.publish.Publisher`, connected to
  a stand-in for paho that keeps what it is handed): one :meth:`Publisher.poll`, which
  reads the journal on from its last lines and sends a delta of the new action (the
  whole state once, at the start).

Printed: the bytes of state payloads over the game each way (MQTT's own few bytes per
message left out: the same count of messages each way), their ratio, and the
publisher's CPU time per change (``time.process_time``, this process: median and p90
over the changes, and for the last 100 changes, where the game is longest); then the
club's CPU per change taking the same messages each way (:meth:`companion.club.server.
Club.receive`, its database in memory). No floor: both are measured on the
same changes, interleaved; quote the bytes (they do not depend on the machine) and the
CPU ratio with the run.

``--actions N`` (default 1,000): the game's length (a game that ends sooner is replaced
by the next seed's); ``--quick``: 150 actions.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from companion.club import protocol
from companion.club.publish import ClubSettings, Publisher, read_snapshot
from companion.journal.store import JournalStore
from companion.rules import get_game, random_action

GAME = "labyrinth"


class Paho:
    """paho's client as the publisher uses it: keeps the bytes it is handed, by topic."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, bytes]] = []

    def publish(self, topic: str, data: bytes, **kw: object) -> None:
        self.sent.append((topic, data))


def game_of(actions: int, seed: int) -> list[tuple[str, object, list[object]]] | None:
    """``actions`` actions of a game that lasts at least that long (who, action, events),
    or ``None`` when this seed's game ends sooner."""
    game = get_game(GAME)
    state = game.new_state(2)
    rng = random.Random(f"club-traffic/{seed}")
    out: list[tuple[str, object, list[object]]] = []
    for _ in range(actions):
        if state.outcome is not None:
            return None
        who = state.player_to_act_name
        action = random_action(state, rng.randrange)
        out.append((who, action, list(state.apply(action))))
    return out


def ms(values: list[float]) -> str:
    ordered = sorted(values)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    return f"median {statistics.median(ordered) * 1e3:7.2f} ms  p90 {p90 * 1e3:7.2f} ms"


def club_cpu(messages: list[tuple[str, bytes]]) -> list[float]:
    """The club's CPU time taking each message (:meth:`companion.club.server.Club.
    receive`, an SQLite database in memory), in order; every one must be taken."""
    from companion.club.server import Club
    from companion.club.store import ClubStore

    club = Club(ClubStore(":memory:"))
    out = []
    for topic, data in messages:
        start = time.process_time()
        got = club.receive(topic, data)
        out.append(time.process_time() - start)
        assert got.kind in ("state", "delta"), got
    club.store.close()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=1000)
    parser.add_argument("--quick", action="store_true", help="150 actions")
    args = parser.parse_args()
    actions = 150 if args.quick else args.actions
    seed = 1
    while (played := game_of(actions, seed)) is None:
        seed += 1
    os.fsync = lambda fd: None  # the disk is not measured
    with tempfile.TemporaryDirectory() as tmp:
        journals = Path(tmp) / "journals"
        game = get_game(GAME)
        journal = JournalStore(journals).begin(game, 2, seats={1: "normal"})
        publisher = Publisher(ClubSettings("127.0.0.1", 9, "t1"), journals, Path(tmp) / "state")
        paho = Paho()
        publisher.client = paho
        publisher.connected.set()
        publisher.poll()  # the whole state of the new game, as on connecting
        before_bytes = 0
        before_sent: list[bytes] = []
        before_cpu: list[float] = []
        after_cpu: list[float] = []
        path = journal.path
        first = read_snapshot(path, path.stat())
        assert first.loaded is not None
        before_sent.append(protocol.encode(protocol.state_payload(first.loaded, table="t1")))
        before_bytes += len(before_sent[0])
        for who, action, events in played:
            journal.append(who, action, events)  # type: ignore[arg-type]
            start = time.process_time()
            snap = read_snapshot(path, path.stat())
            assert snap.loaded is not None
            data = protocol.encode(protocol.state_payload(snap.loaded, table="t1",
                                                          updated=snap.written_iso))
            before_cpu.append(time.process_time() - start)
            before_bytes += len(data)
            before_sent.append(data)
            start = time.process_time()
            publisher.poll()
            after_cpu.append(time.process_time() - start)
        journal.close()
        after_bytes = publisher.state_bytes
        wholes, deltas = publisher.full_states, publisher.deltas
        publisher.close()
    assert sum(len(d) for _, d in paho.sent) == after_bytes
    topic = protocol.state_topic(protocol.DEFAULT_PREFIX, "t1")
    club_before = club_cpu([(topic, d) for d in before_sent])
    club_after = club_cpu(paho.sent)
    print(f"{game.title}, 2 players, one game of {actions} actions (seed {seed}), "
          f"{actions + 1} changes")
    print(f"state traffic per game  before {before_bytes:>12,} bytes ({actions + 1} whole "
          f"states, {before_bytes / (actions + 1) / 1024:.1f} KiB each on average)")
    print(f"                        after  {after_bytes:>12,} bytes ({wholes} whole state, "
          f"{deltas} deltas)")
    print(f"                        {before_bytes / after_bytes:.1f}x less")
    print(f"publisher CPU per change  before {ms(before_cpu)}  (whole read and replay, "
          "whole state)")
    print(f"                          after  {ms(after_cpu)}  (read on, a delta)")
    print(f"                          the last 100 changes: before {ms(before_cpu[-100:])}, "
          f"after {ms(after_cpu[-100:])}")
    print(f"                          {sum(before_cpu) / sum(after_cpu):.1f}x less CPU over "
          "the game")
    print(f"the club's CPU per change  before {ms(club_before)}  (decode, check, replay the "
          "new action, store)")
    print(f"                           after  {ms(club_after)}  (the same from a delta)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
