"""How fast the companion digests shaker frames (not a test: prints numbers).

Each cost is printed as a ratio to a floor measured in the same run on the same
bytes: the least any reader of this protocol must do with them (:func:`floor_reader`:
cut CR LF lines 4 kB at a time, check each line's CRC with the codec's own
:func:`crc16`, split its fields into key=value pairs). Both in CPU time, interleaved in
short rounds (benchmarks/measure.py), with the min, median and spread of the per-round
ratios (``--quick``: a few seconds).

``python benchmarks/shaker_link_throughput.py`` measures, on this machine:

* the CPU time of a frame parsed by :func:`companion.devices.shaker_codec.parse_frame`;
* the CPU time of lines through the link's line splitter and frame handling (the path a
  ReaderThread feeds), for valid heartbeats and for garbage;
* the time to skip a 100 kB line without a terminator;
* how long after a replug (a new pseudo-terminal appearing) the link is connected
  again (the issue asks for at most 2 s).

The shaker sends about one frame every 2 s (heartbeats) plus a few per throw, so any
rate above a few thousand per second leaves the Pi's CPU to the rest of the service.
"""

from __future__ import annotations

import argparse
import logging
import os
import pty
import random
import select
import statistics
import threading
import time
import tty
from collections.abc import Callable

from measure import interleave, ratio_line, repeat_until

from companion.devices import shaker_link
from companion.devices.shaker_codec import crc16, format_frame, parse_frame
from companion.devices.shaker_link import ShakerLink

BOOT = "5eed5eed"


class _Transport:
    def write(self, data: bytes) -> int:
        return len(data)


def floor_reader(data: bytes, read: int = 4096) -> int:
    """The least a reader of the shaker's frames must do with ``data``: take it ``read``
    bytes at a time, cut CR LF lines (a line cut by a read waits for the next), and for
    each line check the ``*XXXX`` CRC with the codec's :func:`crc16` (CRC-16/CCITT-FALSE
    in C: binascii's table-driven ``crc_hqx``) and split the fields of a good one into
    key=value pairs. Returns how many lines passed the CRC."""
    good = 0
    tail = b""
    for i in range(0, len(data), read):
        lines = (tail + data[i : i + read]).split(b"\r\n")
        tail = lines.pop()
        for line in lines:
            good += _floor_line(line)
    return good


def _floor_line(line: bytes) -> int:
    body, sep, crc = line.rpartition(b" *")
    if not sep or len(crc) != 4:
        return 0
    try:
        if int(crc, 16) != crc16(body):
            return 0
    except ValueError:
        return 0
    dict(token.partition(b"=")[::2] for token in body.split(b" ")[3:])
    return 1


def _compare(label: str, run: Callable[[], object], floor: Callable[[], object], rounds: int) -> None:
    """Print the CPU time of ``run`` over that of ``floor`` (the same input through the
    least a reader must do), in interleaved rounds (benchmarks/measure.py)."""
    result = interleave(repeat_until(floor), {label: repeat_until(run)}, rounds, by="time")
    per_call = 1 / statistics.median(result.rates[label])
    print(ratio_line(label, result.ratios[label], "x floor time", 50)
          + f"  ({per_call * 1000:.3f} CPU ms a call)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a few seconds (CI sanity)")
    parser.add_argument("--rounds", type=int, default=12, help="rounds per figure (default 12)")
    args = parser.parse_args()
    rounds = 2 if args.quick else args.rounds
    logging.getLogger("companion.devices.shaker_link").setLevel(logging.ERROR)
    heartbeat = format_frame("HEARTBEAT", 1, [("state", "idle"), ("armed", "0"), ("up", "42")], BOOT)
    n = 2_000
    print("floor: the same bytes cut into CR LF lines 4 kB at a time, each line's CRC "
          "checked with the codec's crc16 (C, table-driven), its fields split into "
          "key=value pairs. CPU time, interleaved rounds (benchmarks/measure.py).")

    _compare("parse_frame(heartbeat)", lambda: parse_frame(heartbeat),
             lambda: _floor_line(heartbeat[:-2]), rounds)

    link = ShakerLink(on_throw=lambda throw: None, find_port=lambda: None)
    protocol = shaker_link._LineProtocol(link, link._generation)
    protocol.connection_made(_Transport())
    beats = heartbeat * n
    if floor_reader(beats) != n:
        raise RuntimeError("the floor did not take every heartbeat")
    _compare(f"link: {n} heartbeat lines, 4 kB reads", lambda: _feed(protocol, beats),
             lambda: floor_reader(beats), rounds)
    rng = random.Random(1)
    garbage = b"".join(bytes(rng.randrange(256) for _ in range(60)) + b"\r\n" for _ in range(n))
    _compare(f"link: {n} garbage lines of 60 bytes", lambda: _feed(protocol, garbage),
             lambda: floor_reader(garbage), rounds)
    big = b"A" * 100_000 + b"\r\n"
    _compare("link: a 100 kB line skipped", lambda: _feed(protocol, big),
             lambda: floor_reader(big), rounds)
    aways = (0.3,) if args.quick else (0.3, 0.45, 0.6, 0.75, 0.9, 1.3)
    times = [_reconnect_seconds(away) for away in aways]
    label = f"reconnect after a replug ({len(times)} trials)"
    print(f"{label:<50} max {max(times):.2f} s, mean {sum(times) / len(times):.2f} s of wall time "
          "(target <= 2 s; no floor: the link polls for the port)")


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
