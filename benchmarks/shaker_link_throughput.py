"""How fast the companion digests shaker frames (not a test: prints numbers).

Where it makes sense each rate is printed next to a floor measured in the same run:
the same bytes through the least any line reader must do (split, C CRC).

``python benchmarks/shaker_link_throughput.py`` measures, on this machine:

* frames parsed per second by :func:`companion.devices.shaker_codec.parse_frame`;
* lines per second through the link's line splitter and frame handling (the path a
  ReaderThread feeds), for valid heartbeats and for garbage;
* the time to skip a 100 kB line without a terminator;
* how long after a replug (a new pseudo-terminal appearing) the link is connected
  again (the issue asks for at most 2 s).

The shaker sends about one frame every 2 s (heartbeats) plus a few per throw, so any
rate above a few thousand per second leaves the Pi's CPU to the rest of the service.
"""

from __future__ import annotations

import binascii
import logging
import os
import pty
import random
import select
import threading
import time
import tty
from collections.abc import Callable

from companion.devices import shaker_link
from companion.devices.shaker_codec import format_frame, parse_frame
from companion.devices.shaker_link import ShakerLink

BOOT = "5eed5eed"


class _Transport:
    def write(self, data: bytes) -> int:
        return len(data)


def _rate(
    label: str, count: int, run: Callable[[], None], baseline: Callable[[], object] | None = None
) -> None:
    """Print ``count / time`` of ``run``; with ``baseline`` (the same input through the
    least a line reader must do), also the ratio of the two, measured now."""
    start = time.perf_counter()
    run()
    elapsed = time.perf_counter() - start
    ratio = ""
    if baseline is not None:
        start = time.perf_counter()
        baseline()
        floor = time.perf_counter() - start
        ratio = f"  {elapsed / floor:5.1f}x the floor"
    print(f"{label:<48} {count / elapsed:>12,.0f} per second  ({elapsed * 1000:.1f} ms){ratio}")


def main() -> None:
    logging.getLogger("companion.devices.shaker_link").setLevel(logging.ERROR)
    heartbeat = format_frame("HEARTBEAT", 1, [("state", "idle"), ("armed", "0"), ("up", "42")], BOOT)
    n = 50_000

    def parse_all() -> None:
        for _ in range(n):
            parse_frame(heartbeat)

    def floor_parse() -> None:  # split the fields and check the CRC in C: the least work
        matched = 0
        for _ in range(n):
            body, _, crc = heartbeat.rstrip(b"\r\n").rpartition(b" *")
            body.split(b" ")
            matched += binascii.crc_hqx(body, 0xFFFF) == int(crc, 16)

    _rate("parse_frame(heartbeat)", n, parse_all, floor_parse)

    link = ShakerLink(on_throw=lambda throw: None, find_port=lambda: None)
    protocol = shaker_link._LineProtocol(link, link._generation)
    protocol.connection_made(_Transport())
    beats = heartbeat * n
    _rate("link: heartbeat lines (one 4 kB read at a time)", n, lambda: _feed(protocol, beats),
          lambda: [beats[i:i + 4096].split(b"\r\n") for i in range(0, len(beats), 4096)])
    rng = random.Random(1)
    garbage = b"".join(bytes(rng.randrange(256) for _ in range(60)) + b"\r\n" for _ in range(n))
    _rate("link: garbage lines of 60 bytes", n, lambda: _feed(protocol, garbage))
    big = b"A" * 100_000 + b"\r\n"
    _rate("link: 100 kB lines skipped", 1, lambda: _feed(protocol, big))
    times = [_reconnect_seconds(away) for away in (0.3, 0.45, 0.6, 0.75, 0.9, 1.3)]
    label = "reconnect after a replug (6 trials)"
    print(f"{label:<48} max {max(times):.2f} s, mean {sum(times) / len(times):.2f} s")


class _PtyShaker:
    """Answers QUERY with STATUS on the master side of a pty (enough to connect)."""

    def __init__(self) -> None:
        self.master, self.slave = pty.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.alive = True
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        buffer = b""
        while self.alive:
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if not ready:
                continue
            try:
                buffer += os.read(self.master, 4096)
            except OSError:
                return
            while b"\r\n" in buffer:
                line, buffer = buffer.split(b"\r\n", 1)
                frame = parse_frame(line)
                if frame.type == "QUERY":
                    fields = [("ref", str(frame.seq)), ("state", "idle"), ("armed", "0"), ("pending", "-")]
                    os.write(self.master, format_frame("STATUS", 0, fields, BOOT))

    def close(self) -> None:
        self.alive = False
        self.thread.join()
        os.close(self.master)
        os.close(self.slave)


def _reconnect_seconds(away: float) -> float:
    """Seconds from the port reappearing to the link being connected, after ``away`` s."""
    current: list[_PtyShaker | None] = [_PtyShaker()]
    link = ShakerLink(
        on_throw=lambda throw: None,
        find_port=lambda: current[0].path if current[0] is not None else None,
    )
    link.start()
    try:
        _until(lambda: link.connected)
        old = current[0]
        assert old is not None
        current[0] = None
        old.close()
        _until(lambda: not link.connected)
        time.sleep(away)
        current[0] = _PtyShaker()
        start = time.perf_counter()
        _until(lambda: link.connected)
        return time.perf_counter() - start
    finally:
        link.stop()
        if current[0] is not None:
            current[0].close()


def _until(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise TimeoutError("the link did not get there")
        time.sleep(0.005)


def _feed(protocol: shaker_link._LineProtocol, data: bytes) -> None:
    for i in range(0, len(data), 4096):
        protocol.data_received(data[i : i + 4096])


if __name__ == "__main__":
    main()
