"""How fast the companion digests shaker frames (not a test: prints numbers).

``python benchmarks/shaker_link_throughput.py`` measures, on this machine:

* frames parsed per second by :func:`companion.devices.shaker_codec.parse_frame`;
* lines per second through the link's line splitter and frame handling (the path a
  ReaderThread feeds), for valid heartbeats and for garbage;
* the time to skip a 100 kB line without a terminator.

The shaker sends about one frame every 2 s (heartbeats) plus a few per throw, so any
rate above a few thousand per second leaves the Pi's CPU to the rest of the service.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable

from companion.devices import shaker_link
from companion.devices.shaker_codec import format_frame, parse_frame
from companion.devices.shaker_link import ShakerLink

BOOT = "5eed5eed"


class _Transport:
    def write(self, data: bytes) -> int:
        return len(data)


def _rate(label: str, count: int, run: Callable[[], None]) -> None:
    start = time.perf_counter()
    run()
    elapsed = time.perf_counter() - start
    print(f"{label:<48} {count / elapsed:>12,.0f} per second  ({elapsed * 1000:.1f} ms)")


def main() -> None:
    logging.getLogger("companion.devices.shaker_link").setLevel(logging.ERROR)
    heartbeat = format_frame("HEARTBEAT", 1, [("state", "idle"), ("armed", "0"), ("up", "42")], BOOT)
    n = 50_000

    def parse_all() -> None:
        for _ in range(n):
            parse_frame(heartbeat)

    _rate("parse_frame(heartbeat)", n, parse_all)

    link = ShakerLink(on_throw=lambda throw: None, find_port=lambda: None)
    protocol = shaker_link._LineProtocol(link, link._generation)
    protocol.connection_made(_Transport())
    beats = heartbeat * n
    _rate("link: heartbeat lines (one 4 kB read at a time)", n, lambda: _feed(protocol, beats))
    rng = random.Random(1)
    garbage = b"".join(bytes(rng.randrange(256) for _ in range(60)) + b"\r\n" for _ in range(n))
    _rate("link: garbage lines of 60 bytes", n, lambda: _feed(protocol, garbage))
    big = b"A" * 100_000 + b"\r\n"
    _rate("link: 100 kB lines skipped", 1, lambda: _feed(protocol, big))


def _feed(protocol: shaker_link._LineProtocol, data: bytes) -> None:
    for i in range(0, len(data), 4096):
        protocol.data_received(data[i : i + 4096])


if __name__ == "__main__":
    main()
