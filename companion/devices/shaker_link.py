"""The companion's end of the USB serial link to the Pico shaker.

:class:`ShakerLink` finds the shaker (USB VID:PID ``2E8A:0005``, the stock MicroPython
rp2 firmware, or a configured port such as ``/dev/shaker``), keeps it connected, asks
it for a throw of the implement the rules want, and hands each throw to ``on_throw``
exactly once as a :class:`companion.rules.throws.Throw` of that implement. The line
protocol is in ``docs/protocol.md``; the framing in :mod:`companion.devices.shaker_codec`.

Threads: pyserial's :class:`serial.threaded.ReaderThread` reads the port; a
supervisor thread (re)connects, retries and watches for silence. The callbacks run in
those threads: a service must only post an event to its own loop from them.

What survives what:

* unplug / replug: the reader fails, ``on_status`` says "shaker unplugged", the
  supervisor looks for the port every ``retry_interval`` seconds (0.5 s by default),
  and after reconnecting it re-synchronises (QUERY / STATUS) and asks for the throw
  again;
* stale frames (kept in the Pico's USB buffer while no host listened, or from a
  previous boot) are dropped: nothing counts before the STATUS that answers this
  connection's QUERY, nor anything with another boot id, nor a throw that answers an
  earlier request;
* a throw sent twice (its ACK got lost) is acknowledged again and dropped by its
  (boot id, sequence number);
* malformed input (bad CRC, garbage, a 100 kB line, half a frame, impossible faces)
  is counted in :attr:`ShakerLink.counts`, logged, and never applied.

Usage::

    link = ShakerLink(on_throw=post_throw, on_status=post_status, on_error=log_error)
    link.start()
    link.request_throw(state.throw_spec)   # BinarySticks(4), Dice(2, 6), ...
    ...
    link.stop()
"""

from __future__ import annotations

import collections
import contextlib
import logging
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import serial
import serial.threaded
from serial.tools import list_ports

from companion.devices.shaker_codec import (
    MAX_LINE,
    SEQ_MODULUS,
    TERMINATOR,
    Frame,
    FrameError,
    ShakerProtocolError,
    format_frame,
    implement_fields,
    parse_frame,
    throw_from_frame,
)
from companion.rules.errors import InvalidThrowError
from companion.rules.throws import Implement, Throw

log = logging.getLogger(__name__)

SHAKER_VID = 0x2E8A
"""USB vendor id of the Raspberry Pi RP2040 (stock MicroPython rp2 firmware)."""
SHAKER_PID = 0x0005
"""USB product id of MicroPython on the RP2040."""

RETRY_INTERVAL = 0.5
"""Seconds between looks for the port while disconnected (reconnects well within 2 s)."""
QUERY_RETRY = 1.0
"""Seconds to wait for the STATUS answering a QUERY (or CONFIG) before asking again."""
SILENCE_LIMIT = 5.0
"""Seconds without any frame (heartbeats come every 2 s) before "shaker not answering"."""
PENDING_WAIT = 3.0
"""Seconds to wait for a throw the shaker reports as pending before asking anew."""
DEDUP_MEMORY = 256
"""How many (boot id, sequence) pairs of applied throws are remembered for duplicates."""


@dataclass(frozen=True, slots=True)
class ShakerStatus:
    """What the OLED can say about the shaker.

    ``message`` is in players' words ("shaker ready", "shaker unplugged", "shaking...").
    ``state`` is the shaker's own: ``idle``, ``shaking``, ``settling`` or ``thrown``.
    """

    connected: bool
    message: str
    port: str | None = None
    boot: str | None = None
    hardware: str | None = None
    firmware: str | None = None
    state: str | None = None


ThrowCallback = Callable[[Throw], None]
StatusCallback = Callable[[ShakerStatus], None]
ErrorCallback = Callable[[str], None]


def find_shaker_port(vid: int = SHAKER_VID, pid: int = SHAKER_PID) -> str | None:
    """The device path of the first serial port with USB ``vid:pid``, or ``None``."""
    for info in sorted(list_ports.comports(), key=lambda p: p.device):
        if info.vid == vid and info.pid == pid:
            return str(info.device)
    return None


class _LineProtocol(serial.threaded.Protocol):  # type: ignore[misc,unused-ignore]
    """Splits bytes into CR LF lines of at most MAX_LINE bytes for the link.

    Longer runs without a terminator are thrown away up to the next CR LF and
    reported once, so a 100 kB line costs neither memory nor quadratic rescans.
    """

    def __init__(self, link: ShakerLink, generation: int) -> None:
        self.link = link
        self.generation = generation
        self.buffer = bytearray()
        self.overflow = False

    def connection_made(self, transport: Any) -> None:
        self.link._connected(self.generation, transport)

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while True:
            end = self.buffer.find(TERMINATOR)
            if end < 0:
                if len(self.buffer) > MAX_LINE:
                    if not self.overflow:
                        self.link._bad_line(b"", "too-long")
                    self.overflow = True
                    keep = self.buffer.endswith(b"\r")
                    self.buffer = bytearray(b"\r" if keep else b"")
                return
            line = bytes(self.buffer[:end])
            del self.buffer[: end + 2]
            if self.overflow:
                self.overflow = False  # the tail of an over-long line
                continue
            self.link._line(self.generation, line)

    def connection_lost(self, exc: BaseException | None) -> None:
        self.link._lost(self.generation, exc)


class _Port(serial.Serial):  # type: ignore[misc,unused-ignore]
    """pyserial's port, whose ``in_waiting`` reports a vanished device as pyserial's
    own :class:`serial.SerialException`.

    pyserial's :class:`serial.threaded.ReaderThread` reads with
    ``read(in_waiting or 1)`` and ends cleanly (``connection_lost``) only on a
    ``SerialException``; when the device goes away between two reads, the
    ``TIOCINQ`` ioctl behind ``in_waiting`` raises a plain ``OSError`` (EIO) instead,
    the reader thread dies without ``connection_lost``, and the unplug went unnoticed.
    """

    @property
    def in_waiting(self) -> int:
        try:
            return int(super().in_waiting)
        except OSError as exc:
            raise serial.SerialException(f"the port went away: {exc}") from exc


class ShakerLink:
    """The shaker as a throw source: ask with :meth:`request_throw`, get ``on_throw``.

    :param on_throw: called once per throw, with a :class:`Throw` of the requested
        implement (from the reader thread).
    :param on_status: called when the connection or the shaker's state changes.
    :param on_error: called with one line of text for each problem worth showing or
        logging (a refused configuration, a throw that could not be applied, a device
        error such as "no-sensor").
    :param port: a fixed device path (``/dev/ttyACM0``, a udev symlink); ``None``
        searches by USB VID/PID each time it (re)connects.
    :param find_port: how to find the port, overriding ``port``; returns a path or
        ``None`` (tests pass a function naming the current pseudo-terminal).
    :param baudrate: baud; USB CDC ignores it, a UART bridge needs the real value.
    :param retry_interval: seconds between looks for the port while disconnected.
    """

    def __init__(
        self,
        *,
        on_throw: ThrowCallback,
        on_status: StatusCallback | None = None,
        on_error: ErrorCallback | None = None,
        port: str | None = None,
        find_port: Callable[[], str | None] | None = None,
        baudrate: int = 115200,
        retry_interval: float = RETRY_INTERVAL,
    ) -> None:
        self._on_throw = on_throw
        self._on_status = on_status
        self._on_error = on_error
        self._find_port = find_port or ((lambda: port) if port else find_shaker_port)
        self._baudrate = baudrate
        self._retry_interval = retry_interval
        self._lock = threading.RLock()
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._reader: serial.threaded.ReaderThread | None = None
        self._transport: Any = None
        self._generation = 0
        self._lost_event = threading.Event()
        self._port: str | None = None
        # host sequence numbers start at random so a restarted companion does not
        # take a throw answering its predecessor's CONFIG for one of its own
        self._seq = secrets.randbelow(SEQ_MODULUS)
        self._synced = False
        self._query_seq: int | None = None
        self._query_sent = 0.0
        self._boot: str | None = None
        self._hello: dict[str, str] = {}
        self._last_frame = 0.0
        self._silent_reported = False
        self._wanted: Implement | None = None
        self._request_cfgs: set[int] = set()
        self._config_seq: int | None = None
        self._config_sent = 0.0
        self._config_confirmed = False
        self._config_refused = False
        self._pending_since: float | None = None
        self._applied: collections.OrderedDict[tuple[str, int], None] = collections.OrderedDict()
        self.counts: collections.Counter[str] = collections.Counter()
        """Counters: ``frames``, ``throws``, ``duplicates``, ``stale``, ``invalid-throw``,
        ``unrequested``, ``bad``, ``bad:<reason>``, ``connects``, ``disconnects``."""

    # --- public -----------------------------------------------------------------

    def start(self) -> None:
        """Start looking for the shaker (returns at once; the link runs in threads)."""
        if self._thread is not None:
            return
        self._stopping.clear()
        self._thread = threading.Thread(target=self._supervise, name="shaker-link", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Close the port and stop the threads (within about 2 seconds)."""
        self._stopping.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None
        self._close()

    def request_throw(self, implement: Implement) -> None:
        """Ask for the next throw to be of ``implement``; ``on_throw`` brings it.

        Sent now when connected, otherwise as soon as the shaker is back. A new
        request replaces an earlier one that has not been thrown yet; asking again
        for the same implement changes nothing (a throw on its way still counts).

        :raises ShakerProtocolError: for an implement the shaker cannot throw (a deck).
        """
        implement_fields(implement)  # validate before anything changes
        with self._lock:
            if implement == self._wanted:
                return
            self._wanted = implement
            self._request_cfgs = set()
            self._config_refused = False
            self._config_confirmed = False
            self._pending_since = None
            if self._synced:
                self._send_config()

    def cancel_throw(self) -> None:
        """No throw is wanted any more: the shaker ignores shakes until the next request."""
        with self._lock:
            self._wanted = None
            self._request_cfgs = set()
            if self._synced:
                self._send("CONFIG", [("kind", "none")])

    def request_status(self) -> None:
        """Ask the shaker for a STATUS now (it also answers every CONFIG)."""
        with self._lock:
            if self._transport is not None:
                self._query_seq = self._send("QUERY")
                self._query_sent = time.monotonic()

    @property
    def connected(self) -> bool:
        """True once the shaker answered this connection's QUERY."""
        return self._synced

    @property
    def wanted(self) -> Implement | None:
        """The implement of the requested throw not yet delivered, if any."""
        return self._wanted

    # --- callbacks, guarded -----------------------------------------------------

    def _status(self, connected: bool, message: str, state: str | None = None) -> None:
        status = ShakerStatus(
            connected,
            message,
            self._port,
            self._boot,
            self._hello.get("hw"),
            self._hello.get("fw"),
            state,
        )
        log.info("shaker: %s", message)
        if self._on_status is not None:
            try:
                self._on_status(status)
            except Exception:
                log.exception("on_status callback failed")

    def _error(self, message: str) -> None:
        log.warning("shaker: %s", message)
        if self._on_error is not None:
            try:
                self._on_error(message)
            except Exception:
                log.exception("on_error callback failed")

    # --- sending ----------------------------------------------------------------

    def _send(self, type: str, fields: list[tuple[str, str]] | None = None) -> int:
        """Send a host frame; returns its sequence number. Never raises."""
        with self._lock:
            seq = self._seq
            self._seq = (seq + 1) % SEQ_MODULUS
            line = format_frame(type, seq, fields or [])
            transport = self._transport
        if transport is not None:
            try:
                transport.write(line)
            except (serial.SerialException, OSError) as exc:
                log.info("shaker: write failed: %s", exc)
        return seq

    def _send_config(self) -> None:
        wanted = self._wanted
        if wanted is None:
            return
        seq = self._send("CONFIG", implement_fields(wanted))
        self._pending_since = None
        self._request_cfgs.add(seq)
        self._config_seq = seq
        self._config_sent = time.monotonic()
        self._config_confirmed = False

    # --- receiving (reader thread) ---------------------------------------------

    def _bad_line(self, line: bytes, reason: str) -> None:
        self.counts["bad"] += 1
        self.counts[f"bad:{reason}"] += 1
        n = self.counts[f"bad:{reason}"]
        if n <= 3 or str(n).rstrip("0") == "1":  # the first three, then 10, 100, 1000...
            log.warning("shaker: dropped a malformed line (%s, %d so far): %r", reason, n, line[:60])

    def _line(self, generation: int, line: bytes) -> None:
        try:
            frame = parse_frame(line)
        except FrameError as exc:
            self._bad_line(line, exc.reason)
            return
        if not frame.from_device:
            self._bad_line(line, "bad-type")  # our own frame echoed back
            return
        try:
            with self._lock:
                if generation != self._generation:
                    return
                self.counts["frames"] += 1
                self._last_frame = time.monotonic()
                self._frame(frame)
        except Exception:  # a bug here must not take the link down
            log.exception("shaker: frame %r not handled", line)
            self.counts["bug"] += 1

    def _frame(self, frame: Frame) -> None:
        if not self._synced:
            if (
                frame.type == "STATUS"
                and self._query_seq is not None
                and frame.get("ref") == str(self._query_seq)
            ):
                self._sync(frame)
            else:
                self.counts["stale"] += 1  # buffered before this connection
            return
        if frame.boot != self._boot:
            self.counts["stale"] += 1
            if frame.type == "HELLO":  # the shaker restarted under us: sync again
                self._hello = dict(frame.fields)
                self._synced = False
                self.request_status()
            return
        if self._silent_reported:
            self._silent_reported = False
            self._status(True, "shaker ready", frame.get("state"))
        handler = getattr(self, f"_handle_{frame.type.lower()}")
        handler(frame)

    def _sync(self, frame: Frame) -> None:
        previous = self._boot
        self._boot = frame.boot
        self._synced = True
        self._silent_reported = False
        self.counts["connects"] += 1
        if previous is not None and previous != frame.boot:
            log.info("shaker: restarted (boot %s, was %s)", frame.boot, previous)
        self._status(True, "shaker ready", frame.get("state"))
        self._after_status(frame)

    def _after_status(self, frame: Frame) -> None:
        pending = frame.get("pending", "-")
        if self._wanted is None:
            if frame.get("armed") == "1":
                self._send("CONFIG", [("kind", "none")])
            return
        if pending != "-":
            self._pending_since = time.monotonic()  # it will be re-sent within a second
            return
        if frame.get("ref") == str(self._config_seq) and frame.get("armed") == "1":
            self._config_confirmed = True
            return
        self._send_config()

    def _handle_status(self, frame: Frame) -> None:
        ref = frame.get("ref")
        if ref == str(self._config_seq) and frame.get("armed") == "1":
            self._config_confirmed = True
        elif ref == str(self._query_seq):
            self._after_status(frame)

    def _handle_hello(self, frame: Frame) -> None:
        self._hello = dict(frame.fields)

    def _handle_heartbeat(self, frame: Frame) -> None:
        if self._wanted is None and frame.get("armed") == "1":
            # armed by a CONFIG whose throw is no longer wanted: a shake now would
            # make a throw nobody asked for
            self._send("CONFIG", [("kind", "none")])

    def _handle_shaking(self, frame: Frame) -> None:
        self._status(True, "shaking...", "shaking")

    def _handle_error(self, frame: Frame) -> None:
        code = frame["code"]
        if code == "bad-config" and frame.get("ref") in {str(s) for s in self._request_cfgs}:
            self._config_refused = True
            self._error(f"the shaker refused to throw {self._wanted}: update its firmware")
        elif code == "not-armed":
            self._status(True, "no throw is due", frame.get("state"))
        elif code == "unacked":
            pass  # it is re-sending the last throw; we will see it
        else:
            self._error(f"the shaker reports {code}")

    def _handle_throw(self, frame: Frame) -> None:
        key = (frame.boot, frame.seq)
        if key in self._applied:
            self.counts["duplicates"] += 1
            self._ack(frame)
            return
        self._ack(frame)
        wanted = self._wanted
        if wanted is None:
            self.counts["unrequested"] += 1
            log.info("shaker: throw %d arrived when none was due; ignored", frame.seq)
            return
        cfg = frame.get("cfg") or ""  # a sequence number, compared as written (as `ref`)
        if cfg not in {str(seq) for seq in self._request_cfgs}:
            self.counts["stale"] += 1
            log.info("shaker: throw %d answers an earlier request; ignored", frame.seq)
            self._send_config()
            return
        try:
            throw = throw_from_frame(frame, wanted)
        except InvalidThrowError as exc:
            self.counts["invalid-throw"] += 1
            self._error(f"impossible throw ignored: {exc}")
            self._send_config()
            return
        self._applied[key] = None
        while len(self._applied) > DEDUP_MEMORY:
            self._applied.popitem(last=False)
        self._wanted = None
        self._request_cfgs = set()
        self._pending_since = None
        self.counts["throws"] += 1
        log.info("shaker: threw %s", throw)
        try:
            self._on_throw(throw)
        except Exception:
            log.exception("on_throw callback failed")

    def _ack(self, frame: Frame) -> None:
        self._send("ACK", [("boot", frame.boot), ("ref", str(frame.seq))])

    # --- connection (reader and supervisor threads) -----------------------------

    def _connected(self, generation: int, transport: Any) -> None:
        with self._lock:
            if generation != self._generation:
                return
            self._transport = transport
            self._synced = False
            self.request_status()

    def _lost(self, generation: int, exc: BaseException | None) -> None:
        with self._lock:
            if generation != self._generation:
                return
            self._transport = None
            was_synced = self._synced
            self._synced = False
        if not self._stopping.is_set():
            self.counts["disconnects"] += 1
            log.info("shaker: connection lost: %s", exc)
            if was_synced:
                self._status(False, "shaker unplugged")
        self._lost_event.set()
        self._wake.set()

    def _close(self) -> None:
        with self._lock:
            reader, self._reader = self._reader, None
            self._generation += 1  # late callbacks of the old reader are ignored
            self._transport = None
            self._synced = False
        if reader is not None:
            reader.stop()  # cancel_read + join, without holding the write lock
            with contextlib.suppress(serial.SerialException, OSError):
                reader.serial.close()

    def _open(self) -> bool:
        path = self._find_port()
        if path is None:
            return False
        try:
            port = _Port(path, self._baudrate, timeout=None, write_timeout=1.0, exclusive=True)
        except (serial.SerialException, OSError, ValueError) as exc:
            log.debug("shaker: cannot open %s: %s", path, exc)
            return False
        port.reset_input_buffer()  # the kernel's copy; the Pico's own buffer is sorted by sync
        with self._lock:
            self._generation += 1
            generation = self._generation
            self._port = path
            self._silent_reported = False
            self._lost_event.clear()
            self._reader = serial.threaded.ReaderThread(
                port, lambda: _LineProtocol(self, generation)
            )
            self._last_frame = time.monotonic()
        self._reader.start()
        return True

    def _supervise(self) -> None:
        self._status(False, "looking for the shaker")
        announced_missing = False
        while not self._stopping.is_set():
            if self._reader is None or self._lost_event.is_set():
                self._close()
                if self._open():
                    announced_missing = False
                else:
                    if not announced_missing:
                        announced_missing = True
                        self._status(False, "shaker not found: plug it in")
                    self._wake.wait(self._retry_interval)
                    self._wake.clear()
                    continue
            self._chores()
            self._wake.wait(0.2)
            self._wake.clear()
        self._close()

    def _chores(self) -> None:
        """Retries that no incoming frame triggers: QUERY, CONFIG, silence."""
        now = time.monotonic()
        with self._lock:
            if self._transport is None:
                return
            silent = now - self._last_frame >= SILENCE_LIMIT
            synced = self._synced
            if not synced:
                if now - self._query_sent >= QUERY_RETRY:
                    self.request_status()
            elif (
                self._wanted is not None
                and not self._config_confirmed
                and not self._config_refused
            ):
                if self._pending_since is not None:
                    if now - self._pending_since >= PENDING_WAIT:
                        self._send_config()
                elif now - self._config_sent >= QUERY_RETRY:
                    self._send_config()
        if silent and not self._silent_reported:
            self._silent_reported = True
            self._status(synced, "shaker not answering")


__all__ = [
    "SHAKER_PID",
    "SHAKER_VID",
    "ShakerLink",
    "ShakerProtocolError",
    "ShakerStatus",
    "find_shaker_port",
]
