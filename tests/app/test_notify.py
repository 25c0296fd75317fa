"""The sd_notify client and the loop-driven watchdog, against a real Unix datagram socket.

The socket stands where systemd's would be: ``NOTIFY_SOCKET`` names it, and whatever
the service sends arrives in it as systemd would read it.
"""

from __future__ import annotations

import logging
import os
import queue
import socket
import tempfile
import threading
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion.app.notify import Notifier, NotifyError, WatchdogPinger, watchdog_interval

WAIT = 10.0
"""Seconds to wait for something that must happen; only a failing test waits this long."""


class Receiver:
    """systemd's end: a bound datagram socket."""

    def __init__(self, sock: socket.socket, name: str) -> None:
        self.sock = sock
        self.name = name  # as NOTIFY_SOCKET writes it

    def get(self, timeout: float = WAIT) -> str:
        self.sock.settimeout(timeout)
        return self.sock.recv(4096).decode("utf-8")

    def pending(self) -> list[str]:
        """Every datagram already delivered (AF_UNIX delivers during the sender's send)."""
        self.sock.setblocking(False)
        messages = []
        try:
            while True:
                messages.append(self.sock.recv(4096).decode("utf-8"))
        except BlockingIOError:
            return messages


@pytest.fixture
def receiver(monkeypatch: pytest.MonkeyPatch) -> Iterator[Receiver]:
    # A short directory: a Unix socket path must fit in 108 bytes.
    with tempfile.TemporaryDirectory(prefix="nfy", dir="/tmp") as directory:
        path = str(Path(directory) / "notify")
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(path)
        monkeypatch.setenv("NOTIFY_SOCKET", path)
        monkeypatch.delenv("WATCHDOG_USEC", raising=False)
        monkeypatch.delenv("WATCHDOG_PID", raising=False)
        try:
            yield Receiver(sock, path)
        finally:
            sock.close()


def test_ready_with_status_arrives_as_one_datagram(receiver: Receiver) -> None:
    notifier = Notifier.from_env()
    assert notifier.enabled
    assert notifier.ready(status="Senet: White to throw")
    assert receiver.get() == "READY=1\nSTATUS=Senet: White to throw"


def test_watchdog_status_and_stopping_arrive_in_order(receiver: Receiver) -> None:
    notifier = Notifier.from_env()
    assert notifier.watchdog()
    assert notifier.status("waiting for\nthe shaker")
    assert notifier.stopping()
    assert [receiver.get(), receiver.get(), receiver.get()] == [
        "WATCHDOG=1",
        "STATUS=waiting for the shaker",  # a newline would end the assignment
        "STOPPING=1",
    ]
    notifier.close()


def test_abstract_socket_named_with_at_sign(monkeypatch: pytest.MonkeyPatch) -> None:
    name = f"board-companion-test-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
        assert Notifier.from_env().ready()
        sock.settimeout(WAIT)
        assert sock.recv(4096) == b"READY=1"


def test_without_notify_socket_everything_is_a_quiet_no_op(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.setenv("WATCHDOG_USEC", "2000000")
    notifier = Notifier.from_env()
    assert not notifier.enabled
    assert not notifier.ready(status="x")
    assert not notifier.watchdog()
    assert not notifier.stopping()
    pinger = WatchdogPinger.from_env(notifier)
    assert pinger.interval is None and pinger.timeout() is None
    assert not pinger.tick()


def test_socket_gone_is_logged_once_not_raised(
    receiver: Receiver, caplog: pytest.LogCaptureFixture
) -> None:
    notifier = Notifier.from_env()
    os.unlink(receiver.name)  # systemd went away
    with caplog.at_level(logging.WARNING, logger="companion.app.notify"):
        assert not notifier.watchdog()
        assert not notifier.watchdog()
    assert len(caplog.records) == 1
    assert receiver.name in caplog.records[0].getMessage()


def test_malformed_assignment_is_a_caller_error(receiver: Receiver) -> None:
    notifier = Notifier.from_env()
    with pytest.raises(NotifyError):
        notifier.send("READY")
    with pytest.raises(NotifyError):
        notifier.send("STATUS=a\nREADY=1")
    assert receiver.pending() == []


@pytest.mark.parametrize("name", ["relative/path", "vsock:2:1234", "@"])
def test_unusable_address_disables_notification_with_a_warning(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, name: str
) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", name)
    with caplog.at_level(logging.WARNING, logger="companion.app.notify"):
        assert not Notifier.from_env().enabled
    assert name in caplog.text
    with pytest.raises(NotifyError):
        Notifier(name)


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"WATCHDOG_USEC": "15000000"}, 7.5),
        ({"WATCHDOG_USEC": "15000000", "WATCHDOG_PID": str(os.getpid())}, 7.5),
        ({"WATCHDOG_USEC": "15000000", "WATCHDOG_PID": "1"}, None),  # not ours
        ({"WATCHDOG_USEC": "0"}, None),
        ({"WATCHDOG_USEC": "soon"}, None),
        ({}, None),
    ],
)
def test_watchdog_interval_is_half_of_watchdog_usec(
    environ: dict[str, str], expected: float | None
) -> None:
    assert watchdog_interval(environ) == expected


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_pinger_pings_once_per_interval_and_never_in_a_burst(receiver: Receiver) -> None:
    clock = FakeClock()
    pinger = WatchdogPinger(Notifier.from_env(), 5.0, clock=clock)
    assert pinger.timeout() == 0.0
    assert pinger.tick()  # first tick pings at once
    assert not pinger.tick()
    clock.now += 4.0
    assert not pinger.tick()
    assert pinger.timeout() == pytest.approx(1.0)
    clock.now += 1.0
    assert pinger.tick()
    clock.now += 60.0  # the loop was away for twelve intervals
    assert pinger.tick()
    assert not pinger.tick()
    assert receiver.pending() == ["WATCHDOG=1"] * 3


def test_pinger_rejects_a_nonsense_interval(receiver: Receiver) -> None:
    with pytest.raises(ValueError, match="positive"):
        WatchdogPinger(Notifier.from_env(), 0.0)
    with pytest.raises(ValueError, match="positive"):
        WatchdogPinger(Notifier.from_env(), float("nan"))


class QueueLoop:
    """An event loop of the service's shape: one thread takes callables off a queue.

    It calls ``pinger.tick()`` on every pass and waits at most ``pinger.timeout()``
    for the next item, as ``companion.app.notify``'s docstring tells the service to.
    """

    def __init__(self, pinger: WatchdogPinger) -> None:
        self.pinger = pinger
        self.items: queue.Queue[Callable[[], None] | None] = queue.Queue()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while True:
            self.pinger.tick()
            try:
                item = self.items.get(timeout=self.pinger.timeout())
            except queue.Empty:
                continue
            if item is None:
                return
            item()

    def stop(self) -> None:
        self.items.put(None)
        self.thread.join(WAIT)


def test_watchdog_stops_while_the_loop_is_blocked_and_resumes_after(
    receiver: Receiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    # WatchdogSec=20ms: systemd's WATCHDOG_USEC as the service would see it; pings
    # are due every 10 ms.
    monkeypatch.setenv("WATCHDOG_USEC", "20000")
    pinger = WatchdogPinger.from_env(Notifier.from_env())
    assert pinger.interval == 0.01
    loop = QueueLoop(pinger)
    try:
        # Running: pings keep arriving.
        for _ in range(3):
            assert receiver.get() == "WATCHDOG=1"

        # A handler hangs (a stuck I2C write, a deadlock): the loop is blocked in it.
        entered, release = threading.Event(), threading.Event()

        def hang() -> None:
            entered.set()
            release.wait(WAIT)

        loop.items.put(hang)
        assert entered.wait(WAIT)
        receiver.pending()  # pings sent before the handler was entered
        # 30 ping intervals pass with the loop blocked: not one ping may arrive. (This
        # wait can only make a broken pinger pass by luck, never a working one fail.)
        assert not release.wait(0.3)
        assert receiver.pending() == []

        release.set()  # the handler returns; the loop's next pass pings again
        assert receiver.get() == "WATCHDOG=1"
    finally:
        release.set()
        loop.stop()
    assert not loop.thread.is_alive()
