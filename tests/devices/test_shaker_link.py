"""The serial link to the shaker, over a real pseudo-terminal.

The device end is a small scripted shaker in Python on the pty's master side; the
companion end is the real :class:`ShakerLink` with pyserial's ReaderThread on the
slave. Closing the master is what unplugging the USB cable looks like to pyserial.
"""

from __future__ import annotations

import contextlib
import functools
import os
import pty
import random
import select
import threading
import time
import tty
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from serial.tools import list_ports

from companion.devices import shaker_link
from companion.devices.shaker_codec import (
    TERMINATOR,
    Frame,
    FrameError,
    ShakerProtocolError,
    crc16,
    format_frame,
    implement_fields,
    parse_frame,
    throw_from_frame,
)
from companion.devices.shaker_link import ShakerLink, ShakerStatus, find_shaker_port
from companion.rules.errors import InvalidThrowError
from companion.rules.throws import (
    BinarySticks,
    ColouredSticks,
    Deck,
    Dice,
    Implement,
    StickFace,
    Throw,
)

WAIT = 5.0
"""Seconds any single expectation may take before the test fails (not a timing test)."""


def wait_for(condition: Callable[[], Any], what: str, timeout: float = WAIT) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what}")


class FakeShaker:
    """The device end of a pty, speaking the shaker protocol like the firmware does.

    It answers QUERY and CONFIG with STATUS, records every host frame, keeps the last
    throw pending until its ACK, and can be told to send anything at all.
    """

    def __init__(self, boot: str = "1a2b3c4d", stale: list[bytes] | None = None) -> None:
        self.master, self.slave = pty.openpty()
        self.path = os.ttyname(self.slave)  # kept open, or reading the master fails (EIO)
        tty.setraw(self.slave)  # no echo before the companion opens it, as a USB CDC port
        self.garbage: list[bytes] = []
        self.boot = boot
        self.seq = 0
        self.received: list[Frame] = []
        self.raw = bytearray()
        self.config: Frame | None = None
        self.pending: bytes | None = None
        self.pending_seq: int | None = None
        self.stale = list(stale or [])  # sent first, before answering the first QUERY
        self.answer = True
        self.resend_every: float | None = None  # seconds, as the firmware's RESEND_MS
        self.pending_sent = 0.0
        self.lock = threading.Lock()
        self.closed = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    # device -> host
    def write(self, data: bytes) -> None:
        with self.lock:
            if not self.closed:
                os.write(self.master, data)

    def send(self, type: str, fields: list[tuple[str, str]] | None = None) -> bytes:
        line = format_frame(type, self.seq, fields or [], self.boot)
        self.seq += 1
        self.write(line)
        return line

    def throw(
        self, faces: str, cfg: str | None = None, kind: list[tuple[str, str]] | None = None
    ) -> bytes:
        """Send a THROW (for the last CONFIG unless ``cfg`` / ``kind`` say otherwise)."""
        if kind is None:
            assert self.config is not None, "not configured"
            kind = list(self.config.fields)
        if cfg is None:
            cfg = str(self.config.seq if self.config is not None else 0)
        # Pending before it is written: the host may read it and ACK it (on this
        # fake's reader thread) before this thread runs again, and an ACK that came
        # first left the throw pending for good (a loaded machine, 2 runs in 25).
        line = format_frame("THROW", self.seq, [("cfg", cfg), *kind, ("faces", faces)], self.boot)
        self.pending_seq, self.pending, self.pending_sent = self.seq, line, time.monotonic()
        self.seq += 1
        self.write(line)
        return line

    def resend(self) -> None:
        assert self.pending is not None
        self.write(self.pending)

    # host -> device
    def _run(self) -> None:
        buffer = b""
        while not self.closed:
            try:
                ready, _, _ = select.select([self.master], [], [], 0.05)
                if (
                    self.pending is not None
                    and self.resend_every is not None
                    and time.monotonic() - self.pending_sent >= self.resend_every
                ):
                    self.pending_sent = time.monotonic()
                    self.write(self.pending)
                if not ready:
                    continue
                data = os.read(self.master, 4096)
            except OSError:
                return  # closed, or the host side is not open (EIO)
            self.raw += data
            buffer += data
            while TERMINATOR in buffer:
                line, buffer = buffer.split(TERMINATOR, 1)
                try:
                    frame = parse_frame(line)
                except FrameError:
                    self.garbage.append(line)
                    continue
                self._frame(frame)

    def _frame(self, frame: Frame) -> None:
        self.received.append(frame)
        if not self.answer:
            return
        if frame.type == "QUERY":
            for line in self.stale:
                self.write(line)
            self.stale = []
            self._status(frame.seq)
        elif frame.type == "CONFIG":
            self.config = None if frame["kind"] == "none" else frame
            self._status(frame.seq)
        elif (
            frame.type == "ACK"
            and frame["ref"] == str(self.pending_seq)
            and frame["boot"] == self.boot
        ):
            self.pending = None

    def _status(self, ref: int) -> None:
        pending = "-" if self.pending is None else str(self.pending_seq)
        armed = "0" if self.config is None else "1"
        self.send("STATUS", [("ref", str(ref)), ("state", "idle"), ("armed", armed), ("pending", pending)])

    def frames(self, type: str) -> list[Frame]:
        return [f for f in list(self.received) if f.type == type]

    def unplug(self) -> None:
        with self.lock:
            self.closed = True
            os.close(self.master)
            os.close(self.slave)
        self.thread.join(2)


class Host:
    """A ShakerLink with its callbacks recorded."""

    def __init__(self, find_port: Callable[[], str | None]) -> None:
        self.throws: list[Throw] = []
        self.statuses: list[ShakerStatus] = []
        self.errors: list[str] = []
        self.link = ShakerLink(
            on_throw=self.throws.append,
            on_status=self.statuses.append,
            on_error=self.errors.append,
            find_port=find_port,
        )

    def messages(self) -> list[str]:
        return [s.message for s in self.statuses]


@pytest.fixture
def device() -> Iterator[FakeShaker]:
    dev = FakeShaker()
    yield dev
    if not dev.closed:
        dev.unplug()


@pytest.fixture
def host(device: FakeShaker) -> Iterator[Host]:
    h = Host(lambda: device.path)
    h.link.start()
    wait_for(lambda: h.link.connected, "the link to connect")
    yield h
    h.link.stop()


def has_throws(host: Host, count: int) -> bool:
    return len(host.throws) >= count


def configured(device: FakeShaker, implement: Implement) -> Frame:
    """The CONFIG the device received for ``implement`` (waits for it)."""
    wanted = implement_fields(implement)
    frame: Frame = wait_for(
        lambda: device.config is not None and list(device.config.fields) == wanted and device.config,
        f"CONFIG for {implement.id}",
    )
    return frame


def acked(device: FakeShaker, seq: int) -> list[Frame]:
    return [f for f in device.frames("ACK") if f["ref"] == str(seq) and f["boot"] == device.boot]


# --- the ordinary throw --------------------------------------------------------


def test_a_throw_reaches_the_companion_once_as_the_implement_asked_for(
    device: FakeShaker, host: Host
) -> None:
    sticks = BinarySticks(4)
    host.link.request_throw(sticks)
    configured(device, sticks)
    device.throw("LDDL")
    wait_for(lambda: host.throws, "the throw")
    assert host.throws == [sticks.from_faces(["L", "D", "D", "L"])]
    assert host.throws[0].values == (2,)
    wait_for(lambda: acked(device, device.pending_seq or 0), "the ACK")
    # The fake shaker's reader clears its pending throw just after recording the ACK.
    wait_for(lambda: device.pending is None, "the shaker to drop its pending throw")
    assert host.link.wanted is None


def test_a_throw_sent_twice_counts_once_and_is_acknowledged_again(
    device: FakeShaker, host: Host
) -> None:
    dice = Dice(2, 6)
    host.link.request_throw(dice)
    configured(device, dice)
    line = device.throw("3,5")
    wait_for(lambda: host.throws, "the throw")
    device.write(line)  # the ACK was lost: the shaker sends the same frame again
    wait_for(lambda: len(acked(device, device.pending_seq or 0)) == 2, "the second ACK")
    host.link.request_throw(dice)  # even while a new throw is wanted
    device.write(line)
    wait_for(lambda: host.link.counts["duplicates"] == 2, "the duplicate counted")
    assert host.throws == [dice.from_faces(["3", "5"])]


def test_two_requests_in_a_row_give_two_throws(device: FakeShaker, host: Host) -> None:
    requests: list[tuple[str, Implement]] = [("DDDD", BinarySticks(4)), ("6,6", Dice(2, 6))]
    for count, (faces, implement) in enumerate(requests, start=1):
        host.link.request_throw(implement)
        configured(device, implement)
        device.throw(faces)
        wait_for(functools.partial(has_throws, host, count), f"throw {count}")
    assert [t.values for t in host.throws] == [(6,), (6, 6)]


def test_cancelling_a_request_tells_the_shaker(device: FakeShaker, host: Host) -> None:
    host.link.request_throw(Dice(1, 6))
    configured(device, Dice(1, 6))
    host.link.cancel_throw()
    wait_for(lambda: device.config is None, "CONFIG kind=none")
    device.throw("4", kind=[("kind", "dice"), ("n", "1"), ("sides", "6")])
    wait_for(lambda: host.link.counts["unrequested"] == 1, "the unrequested throw")
    assert host.throws == []
    # acknowledged so it is not re-sent: the host writes the ACK before it counts the
    # throw, but the fake shaker's reader thread reads it from the pty in its own time
    wait_for(lambda: acked(device, device.pending_seq or 0), "the ACK of the unrequested throw")


def test_a_deck_is_refused_before_anything_is_sent(device: FakeShaker, host: Host) -> None:
    with pytest.raises(ShakerProtocolError):
        host.link.request_throw(Deck("direction", ("N", "S")))
    assert device.frames("CONFIG") == []


# --- stale frames --------------------------------------------------------------


def test_frames_buffered_before_the_connection_are_not_applied() -> None:
    # The Pico keeps what it printed while no host listened and delivers it on
    # connect: an old HELLO, a throw and a heartbeat, all before the STATUS.
    b = "1a2b3c4d"
    stale = [
        format_frame("HELLO", 0, [("fw", "1"), ("hw", "sim"), ("caps", "dice")], b),
        format_frame("THROW", 1, [("cfg", "7"), ("kind", "dice"), ("n", "2"), ("sides", "6"), ("faces", "1,1")], b),
        format_frame("HEARTBEAT", 2, [("state", "idle"), ("armed", "0")], b),
    ]
    device = FakeShaker(b, stale)
    device.seq = 3
    host = Host(lambda: device.path)
    try:
        host.link.request_throw(Dice(2, 6))
        host.link.start()
        configured(device, Dice(2, 6))
        assert host.link.counts["stale"] == 3
        assert host.throws == []
        assert device.frames("ACK") == []  # nothing of that old throw was taken
        device.throw("2,4")
        wait_for(lambda: host.throws, "the real throw")
        assert host.throws == [Dice(2, 6).from_faces(["2", "4"])]
    finally:
        host.link.stop()
        device.unplug()


def test_a_throw_answering_an_earlier_request_is_not_applied(
    device: FakeShaker, host: Host
) -> None:
    dice = Dice(2, 6)
    host.link.request_throw(dice)
    config = configured(device, dice)
    device.throw("1,2", cfg=str((config.seq - 10) % 65536))
    wait_for(lambda: host.link.counts["stale"] >= 1, "the stale throw")
    wait_for(lambda: device.config is not None and device.config.seq != config.seq, "a new CONFIG")
    assert host.throws == []
    device.throw("5,5")
    wait_for(lambda: host.throws, "the answer to the new CONFIG")
    assert host.throws[0].values == (5, 5)


def test_frames_of_another_boot_are_dropped(device: FakeShaker, host: Host) -> None:
    dice = Dice(1, 6)
    host.link.request_throw(dice)
    configured(device, dice)
    body = f"THROW 9 ffffffff cfg={device.config.seq if device.config else 0} kind=dice n=1 sides=6 faces=6"
    device.write(f"{body} *{crc16(body.encode()):04X}\r\n".encode())
    wait_for(lambda: host.link.counts["stale"] >= 1, "the frame of another boot")
    assert host.throws == []
    assert not [f for f in device.frames("ACK") if f["boot"] == "ffffffff"]


# --- bad input -----------------------------------------------------------------


def test_malformed_input_is_counted_and_never_applied(device: FakeShaker, host: Host) -> None:
    dice = Dice(2, 6)
    host.link.request_throw(dice)
    config = configured(device, dice)
    good = format_frame(
        "THROW", 50, [("cfg", str(config.seq)), *config.fields, ("faces", "3,5")], device.boot
    )
    device.write(good.replace(b"3,5", b"3,6"))  # bad checksum
    device.write(b"\x00\xff garbage \x1b[2J\r\n")  # garbage
    device.write(b"A" * 100_000 + b"\r\n")  # a line of 100 kB
    device.write(good[:30] + b"\r\n")  # half a frame
    device.write(b"\r\n\r\n")  # empty lines
    impossible = format_frame(
        "THROW", 51, [("cfg", str(config.seq)), *config.fields, ("faces", "7,1")], device.boot
    )
    device.write(impossible)
    wait_for(lambda: host.link.counts["invalid-throw"] == 1, "the impossible throw")
    counts = host.link.counts
    assert counts["bad:bad-crc"] == 1
    assert counts["bad:not-ascii"] == 1
    assert counts["bad:too-long"] == 1
    assert counts["bad:no-crc"] >= 2  # the half frame and the empty lines
    assert host.throws == []
    assert any("impossible throw" in e for e in host.errors)
    # and the link still works
    device.write(good)
    wait_for(lambda: host.throws, "the good throw")
    assert host.throws == [dice.from_faces(["3", "5"])]


def test_a_device_error_reaches_on_error(device: FakeShaker, host: Host) -> None:
    device.send("ERROR", [("code", "no-sensor")])
    wait_for(lambda: host.errors, "the error")
    assert host.errors == ["the shaker reports no-sensor"]


# --- unplug and replug ---------------------------------------------------------


def test_unplug_and_replug_with_a_fresh_boot(tmp_path: Path) -> None:
    link_path = tmp_path / "shaker"  # a stable name, as a udev SYMLINK+= gives
    first = FakeShaker("00000001")
    link_path.symlink_to(first.path)
    host = Host(lambda: str(link_path) if link_path.exists() else None)
    second: FakeShaker | None = None
    try:
        host.link.start()
        wait_for(lambda: host.link.connected, "the first connection")
        sticks = BinarySticks(4)
        host.link.request_throw(sticks)
        configured(first, sticks)
        first.throw("LLLL")
        wait_for(lambda: host.throws, "the first throw")

        first.unplug()
        link_path.unlink()
        wait_for(lambda: "shaker unplugged" in host.messages(), "'shaker unplugged'")
        assert not host.link.connected
        host.link.request_throw(sticks)  # the game goes on and wants the next throw

        second = FakeShaker("00000002")  # the Pico lost power: a new boot id
        second.stale = [format_frame("THROW", 0, [("cfg", "1"), ("kind", "sticks"), ("n", "4"), ("faces", "LLLL")], "00000001")]
        link_path.symlink_to(second.path)
        wait_for(lambda: host.link.connected, "the reconnection")  # (benchmarks/ times it)
        configured(second, sticks)
        second.throw("DDDL")
        wait_for(lambda: len(host.throws) == 2, "the throw after the replug")
        assert [t.values for t in host.throws] == [(4,), (1,)]
        assert host.link.counts["stale"] >= 1  # the old boot's frame
        assert host.messages().count("shaker ready") == 2
    finally:
        host.link.stop()
        if not first.closed:
            first.unplug()
        if second is not None and not second.closed:
            second.unplug()


def test_a_throw_made_during_a_usb_glitch_is_delivered_once() -> None:
    # The Pico stayed powered (a powered hub): same boot, and the throw made while the
    # companion was away is still pending. After the reconnect it arrives exactly once.
    current: list[FakeShaker] = [FakeShaker("0000abcd")]
    host = Host(lambda: current[0].path if not current[0].closed else None)
    try:
        host.link.start()
        wait_for(lambda: host.link.connected, "the connection")
        dice = Dice(2, 6)
        host.link.request_throw(dice)
        config = configured(current[0], dice)
        current[0].answer = False  # the shaker is busy: nothing is acknowledged
        old = current[0]
        old.unplug()
        wait_for(lambda: "shaker unplugged" in host.messages(), "'shaker unplugged'")
        # the same shaker (same boot and sequence) on a new port with a throw pending
        new = FakeShaker("0000abcd")
        new.seq = old.seq
        new.config = config
        line = new.throw("4,4")
        new.stale = [line]  # in the Pico's buffer: arrives before the STATUS
        new.resend_every = 0.3
        current[0] = new
        wait_for(lambda: host.throws, "the pending throw")
        new.resend_every = None
        new.write(line)  # two more copies, as if the ACKs got lost
        new.write(line)
        wait_for(lambda: host.link.counts["duplicates"] >= 2, "the duplicates")
        assert host.link.counts["stale"] >= 1  # the copy that came before the STATUS
        assert host.throws == [dice.from_faces(["4", "4"])]
    finally:
        host.link.stop()
        for dev in current:
            if not dev.closed:
                dev.unplug()


def test_no_port_is_reported_and_looked_for_again() -> None:
    host = Host(lambda: None)
    try:
        host.link.start()
        wait_for(lambda: "shaker not found: plug it in" in host.messages(), "'not found'")
        assert not host.link.connected
    finally:
        host.link.stop()


def test_the_shaker_is_found_by_its_usb_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    class Port:
        def __init__(self, device: str, vid: int | None, pid: int | None) -> None:
            self.device, self.vid, self.pid = device, vid, pid

    ports = [Port("/dev/ttyS0", None, None), Port("/dev/ttyUSB0", 0x10C4, 0xEA60), Port("/dev/ttyACM1", 0x2E8A, 0x0005)]
    monkeypatch.setattr(list_ports, "comports", lambda: ports)
    assert find_shaker_port() == "/dev/ttyACM1"
    monkeypatch.setattr(list_ports, "comports", lambda: ports[:2])
    assert find_shaker_port() is None


# --- 100,000 random and mutated lines --------------------------------------------


class _Transport:
    def __init__(self) -> None:
        self.written = bytearray()

    def write(self, data: bytes) -> int:
        self.written += data
        return len(data)


def _host_frames(raw: bytes) -> list[Frame]:
    return [parse_frame(line) for line in raw.split(TERMINATOR) if line]


def _mutate(rng: random.Random, line: bytes) -> bytes:
    data = bytearray(line)
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(6)
        pos = rng.randrange(len(data) + 1)
        if kind == 0 and data:  # flip a bit
            i = min(pos, len(data) - 1)
            data[i] ^= 1 << rng.randrange(8)
        elif kind == 1:  # insert a byte
            data.insert(pos, rng.randrange(256))
        elif kind == 2:  # cut
            del data[pos:]
        elif kind == 3 and data:  # change a character
            data[min(pos, len(data) - 1)] = rng.choice(b"0123456789LD,=* \r\nABCDEFabcdef")
        elif kind == 4:  # repeat a piece
            data[pos:pos] = data[: rng.randrange(len(data) + 1)]
        else:  # glue another line on
            data += bytes(rng.randrange(256) for _ in range(rng.randrange(20)))
    return bytes(data)


def test_100000_random_and_mutated_lines_never_crash_and_apply_only_valid_throws() -> None:
    rng = random.Random(20261120)
    applied: list[Throw] = []
    link = ShakerLink(on_throw=applied.append, find_port=lambda: None)
    transport = _Transport()
    protocol = shaker_link._LineProtocol(link, link._generation)
    protocol.connection_made(transport)  # as the ReaderThread does
    query = _host_frames(bytes(transport.written))[-1]
    boot = "5eed5eed"
    protocol.data_received(
        format_frame("STATUS", 0, [("ref", str(query.seq)), ("state", "idle"), ("armed", "0"), ("pending", "-")], boot)
    )
    assert link.connected
    implements: list[Implement] = [BinarySticks(4), Dice(2, 6), Dice(1, 6)]

    def request() -> tuple[Implement, int]:
        implement = rng.choice(implements)
        transport.written.clear()  # ACKs so far
        link.request_throw(implement)
        return implement, _host_frames(bytes(transport.written))[-1].seq

    implement, cfg = request()
    seq = 1
    valid_sent = 0
    for _ in range(100_000):
        fields = [("cfg", str(cfg)), *implement_fields(implement)]
        faces = implement.draw(rng.randrange).faces
        text = "".join(faces) if isinstance(implement, BinarySticks) else ",".join(faces)
        good = format_frame("THROW", seq, [*fields, ("faces", text)], boot)
        seq = (seq + 1) % 65536
        choice = rng.random()
        if choice < 0.05:
            line = good  # a valid throw
        elif choice < 0.15:
            line = bytes(rng.randrange(256) for _ in range(rng.randrange(300)))
        else:
            line = _mutate(rng, good)
        if not line.endswith(TERMINATOR):
            line += TERMINATOR
        before = len(applied)
        # in one to three pieces, as a serial port delivers them
        cuts = sorted(rng.randrange(len(line) + 1) for _ in range(rng.randrange(3)))
        for a, b in zip([0, *cuts], [*cuts, len(line)], strict=True):
            protocol.data_received(line[a:b])
        if len(applied) > before:
            assert len(applied) == before + 1
            # the line that did it must be a well-formed throw of the wanted implement
            pieces = [p for p in line.split(TERMINATOR) if p]
            matches = []
            for piece in pieces:
                with contextlib.suppress(FrameError, InvalidThrowError):
                    frame = parse_frame(piece)
                    if frame.type == "THROW" and frame.boot == boot and frame["cfg"] == str(cfg):
                        matches.append(throw_from_frame(frame, implement))
            assert applied[-1] in matches
            valid_sent += line == good
            implement, cfg = request()
        else:
            assert line != good, "a valid throw was not applied"
    assert valid_sent >= 4000
    assert link.counts["bad"] > 50_000
    assert link.counts.get("bug", 0) == 0
    transport.written.clear()


def test_a_shaker_left_armed_is_disarmed_at_its_next_heartbeat(
    device: FakeShaker, host: Host
) -> None:
    device.config = parse_frame(format_frame("CONFIG", 1, [("kind", "dice"), ("n", "1"), ("sides", "6")]))
    device.send("HEARTBEAT", [("state", "idle"), ("armed", "1")])
    wait_for(lambda: device.config is None, "CONFIG kind=none")
    assert [f["kind"] for f in device.frames("CONFIG")] == ["none"]


def test_asking_again_for_the_same_throw_keeps_the_one_on_its_way(
    device: FakeShaker, host: Host
) -> None:
    sticks = BinarySticks(4)
    host.link.request_throw(sticks)
    configured(device, sticks)
    host.link.request_throw(sticks)  # e.g. the service re-asks after "shaker ready"
    device.throw("LLDD")  # answers the first CONFIG
    wait_for(lambda: host.throws, "the throw")
    assert host.throws == [sticks.from_faces(list("LLDD"))]
    assert len(device.frames("CONFIG")) == 1


def test_a_port_that_never_answers_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shaker_link, "SILENCE_LIMIT", 0.3)
    device = FakeShaker()
    device.answer = False  # some other device on the port, or a Pico without the firmware
    host = Host(lambda: device.path)
    try:
        host.link.start()
        wait_for(lambda: "shaker not answering" in host.messages(), "'not answering'")
        assert not host.link.connected
        assert len(device.frames("QUERY")) >= 1
    finally:
        host.link.stop()
        device.unplug()


def test_a_port_that_goes_away_ends_the_reader_with_connection_lost() -> None:
    """Unplugged between two reads, the port's ``in_waiting`` fails with EIO; pyserial's
    reader thread must still end through ``connection_lost`` (it used to die with an
    ``OSError``, and the link never heard of the unplug)."""
    import os
    import threading

    import serial
    import serial.threaded

    from companion.devices.shaker_link import _Port

    master, slave = pty.openpty()
    port = _Port(os.ttyname(slave), 115200, timeout=None)
    os.close(master)  # the device is gone
    with pytest.raises(serial.SerialException):
        _ = port.in_waiting
    lost = threading.Event()

    class Watch(serial.threaded.Protocol):  # type: ignore[misc]
        def connection_lost(self, exc: BaseException | None) -> None:
            lost.set()

    reader = serial.threaded.ReaderThread(port, Watch)
    reader.start()
    assert lost.wait(10), "the reader thread ended without connection_lost"
    reader.join(5)
    os.close(slave)


@pytest.mark.parametrize(
    ("implement", "faces"),
    [(BinarySticks(4), "lddl"), (Dice(2, 6), "06,1"),
     (ColouredSticks(((StickFace(1, "red"), StickFace(2, "red")), (StickFace(3), StickFace(4)))),
      "2:RED,3")],
)
def test_faces_the_protocol_does_not_write_are_refused_counted_and_logged(
    device: FakeShaker, host: Host, implement: Implement, faces: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Was: the link applied lower-case sticks `lddl`, a die `06` and `2:RED`, which
    docs/protocol.md does not allow (issue 11, case 6). Now as any impossible throw:
    acknowledged, counted, reported, and the CONFIG sent again."""
    host.link.request_throw(implement)
    config = configured(device, implement)
    line = device.throw(faces)
    wait_for(lambda: host.link.counts["invalid-throw"] == 1, "the refused throw")
    wait_for(lambda: acked(device, parse_frame(line).seq), "its ACK")
    wait_for(lambda: device.config is not None and device.config.seq != config.seq, "a new CONFIG")
    assert host.throws == []
    assert any(faces in e and "not written as the protocol writes" in e for e in host.errors)
    assert any(faces in r.getMessage() for r in caplog.records if r.levelname == "WARNING")


def test_a_throw_naming_its_config_with_a_leading_zero_is_not_applied(
    device: FakeShaker, host: Host
) -> None:
    """`cfg` is a sequence number: decimal without leading zeros, like `ref`."""
    dice = Dice(2, 6)
    host.link.request_throw(dice)
    config = configured(device, dice)
    device.throw("1,2", cfg="0" + str(config.seq))
    wait_for(lambda: host.link.counts["stale"] >= 1, "the refused throw")
    assert host.throws == []
