"""Tell systemd how the service is doing: the ``sd_notify`` protocol and a loop-driven watchdog.

The unit ``systemd/board-companion.service`` is ``Type=notify`` with ``WatchdogSec=``.
systemd then expects, over the datagram socket named by ``$NOTIFY_SOCKET``:

- ``READY=1`` once, when the display shows its first screen (until then the unit is
  "activating", and ``systemctl start`` waits);
- ``WATCHDOG=1`` at least once per ``$WATCHDOG_USEC`` microseconds, or systemd kills
  the service (SIGABRT) and ``Restart=on-failure`` starts it again;
- ``STATUS=...`` whenever there is something a person running ``systemctl status``
  would like to read (the game being played, "waiting for the shaker");
- ``STOPPING=1`` when the service begins to shut down.

The protocol is one datagram of newline-separated ``KEY=VALUE`` assignments per
message (``man 3 sd_notify``); it needs only the standard library.
``$NOTIFY_SOCKET`` is a file-system path, or an abstract socket name written with a
leading ``@``. Off systemd (a laptop, tests, ``companion run`` in a terminal)
``$NOTIFY_SOCKET`` is unset and every call here is a no-op that returns ``False``.

The watchdog must prove that the *event loop* is alive, not merely that the process
is: :class:`WatchdogPinger` sends ``WATCHDOG=1`` only from :meth:`WatchdogPinger.tick`,
which the loop calls itself, on every pass. A loop stuck in a handler stops calling
``tick``, the pings stop, and systemd restarts the service. No thread of its own pings.

When the watchdog fires, systemd kills the service with SIGABRT. With
``faulthandler.enable()`` called at start, Python then writes every thread's
traceback to stderr, which is the journal: where the loop hung is in
``journalctl -u board-companion``.

Typical use in the service's loop::

    notifier = Notifier.from_env()
    pinger = WatchdogPinger.from_env(notifier)
    ...                                   # build devices, draw the first screen
    notifier.ready(status="Senet: waiting for a throw")
    while running:
        pinger.tick()
        event = events.get(timeout=pinger.timeout())   # wakes in time for the next ping
        ...
    notifier.stopping()
"""

from __future__ import annotations

import logging
import math
import os
import socket
import time
from collections.abc import Callable, Mapping

from companion.errors import CompanionError

__all__ = [
    "Notifier",
    "NotifyError",
    "WatchdogPinger",
    "watchdog_interval",
]

_log = logging.getLogger(__name__)


class NotifyError(CompanionError, ValueError):
    """A notification address or message that the protocol cannot carry."""


def _socket_address(name: str) -> str:
    """``$NOTIFY_SOCKET`` as a ``socket`` address: ``@name`` becomes the abstract ``\\0name``.

    :raises NotifyError: the name is empty, relative, or of a kind this module does not
        speak (``vsock:...``, used by systemd for virtual machines, is not supported).
    """
    if name.startswith("@") and len(name) > 1:
        return "\0" + name[1:]
    if name.startswith("/"):
        return name
    raise NotifyError(
        f"NOTIFY_SOCKET={name!r} is neither an absolute path nor an @abstract socket name"
    )


class Notifier:
    """A client for systemd's notification socket.

    :param address: the socket, as ``$NOTIFY_SOCKET`` writes it (an absolute path, or
        ``@name`` for an abstract socket); ``None`` makes a notifier that sends nothing.
    :raises NotifyError: ``address`` is not a form described above.

    Sending never raises: systemd being restarted or the socket gone must not take the
    game down. A failed send is logged (once, until a send succeeds again) and the
    method returns ``False``. One notifier may be used from several threads: each
    message is a single ``sendto`` of one datagram.
    """

    def __init__(self, address: str | None) -> None:
        self._address = None if address is None else _socket_address(address)
        self._socket: socket.socket | None = None
        self._failing = False

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Notifier:
        """The notifier for ``$NOTIFY_SOCKET`` (a disabled one when it is unset or empty).

        An address this module cannot use (e.g. ``vsock:``) is logged as a warning and
        gives a disabled notifier rather than an error: the service still runs, only
        systemd is not told about it.
        """
        env = os.environ if environ is None else environ
        name = env.get("NOTIFY_SOCKET", "")
        if not name:
            return cls(None)
        try:
            return cls(name)
        except NotifyError as error:
            _log.warning("systemd notification disabled: %s", error)
            return cls(None)

    @property
    def enabled(self) -> bool:
        """True when there is a socket to send to (the service runs under systemd)."""
        return self._address is not None

    def send(self, *assignments: str) -> bool:
        """Send ``KEY=VALUE`` assignments as one datagram; ``True`` if it was sent.

        :param assignments: e.g. ``"READY=1"``, ``"STATUS=Senet: White to throw"``.
            Each must contain ``=`` and no newline (the protocol's separator).
        :raises NotifyError: an assignment without ``=`` or with a newline (a bug in the
            caller, so it is raised even when the notifier is disabled).
        """
        for item in assignments:
            if "=" not in item or "\n" in item:
                raise NotifyError(f"not a KEY=VALUE line: {item!r}")
        if self._address is None or not assignments:
            return False
        payload = "\n".join(assignments).encode("utf-8")
        try:
            if self._socket is None:
                self._socket = socket.socket(
                    socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC
                )
            self._socket.sendto(payload, self._address)
        except OSError as error:
            if not self._failing:
                _log.warning("could not notify systemd at %r: %s", self._address, error)
            self._failing = True
            return False
        self._failing = False
        return True

    def ready(self, status: str | None = None) -> bool:
        """``READY=1``: start-up is done (send once, after the first screen is shown)."""
        return self.send("READY=1", *self._status(status))

    def watchdog(self) -> bool:
        """``WATCHDOG=1``: one keep-alive ping. Prefer :class:`WatchdogPinger` in a loop."""
        return self.send("WATCHDOG=1")

    def status(self, text: str) -> bool:
        """``STATUS=text``: a one-line status shown by ``systemctl status``.

        Newlines in ``text`` become spaces (the protocol cannot carry them).
        """
        return self.send(*self._status(text))

    def stopping(self, status: str | None = None) -> bool:
        """``STOPPING=1``: shutdown has begun (send when SIGTERM is handled)."""
        return self.send("STOPPING=1", *self._status(status))

    def close(self) -> None:
        """Close the socket (sending later opens a new one)."""
        if self._socket is not None:
            self._socket.close()
            self._socket = None

    @staticmethod
    def _status(text: str | None) -> tuple[str, ...]:
        if text is None:
            return ()
        return ("STATUS=" + " ".join(text.splitlines()),)


def watchdog_interval(environ: Mapping[str, str] | None = None) -> float | None:
    """Seconds between watchdog pings: half of ``$WATCHDOG_USEC``, or ``None`` if off.

    systemd sets ``$WATCHDOG_USEC`` (microseconds, from the unit's ``WatchdogSec=``)
    and ``$WATCHDOG_PID``; pinging at half the timeout, as ``man 3 sd_watchdog_enabled``
    advises, leaves room for one late tick. ``None`` when the variable is unset, not
    a positive integer, or when ``$WATCHDOG_PID`` names another process (the watchdog
    is then some other process's duty). A malformed value is logged as a warning.
    """
    env = os.environ if environ is None else environ
    pid = env.get("WATCHDOG_PID", "")
    if pid and pid != str(os.getpid()):
        return None
    raw = env.get("WATCHDOG_USEC", "")
    if not raw:
        return None
    try:
        usec = int(raw)
    except ValueError:
        usec = 0
    if usec <= 0:
        _log.warning("ignoring WATCHDOG_USEC=%r: not a positive number of microseconds", raw)
        return None
    return usec / 2_000_000


class WatchdogPinger:
    """Sends ``WATCHDOG=1`` from the event loop, at most once per ``interval`` seconds.

    :param notifier: where the pings go.
    :param interval: seconds between pings (> 0), or ``None`` for no watchdog (then
        :meth:`tick` never sends and :meth:`timeout` is ``None``).
    :param clock: a monotonic clock in seconds (tests pass a fake one).
    :raises ValueError: ``interval`` is not a positive finite number.

    The first :meth:`tick` pings at once. A loop that was blocked for several
    intervals sends a single ping when it comes back, not one per missed interval.
    """

    def __init__(
        self,
        notifier: Notifier,
        interval: float | None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if interval is not None and not (interval > 0 and math.isfinite(interval)):
            raise ValueError(
                f"watchdog interval must be a positive number of seconds, got {interval!r}"
            )
        self._notifier = notifier
        self._interval = interval if notifier.enabled else None
        self._clock = clock
        self._next: float | None = None  # when the next ping is due; None: at the first tick

    @classmethod
    def from_env(
        cls,
        notifier: Notifier,
        environ: Mapping[str, str] | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> WatchdogPinger:
        """A pinger at :func:`watchdog_interval` of the environment (off when unset)."""
        return cls(notifier, watchdog_interval(environ), clock=clock)

    @property
    def interval(self) -> float | None:
        """Seconds between pings, or ``None`` when the watchdog is off."""
        return self._interval

    def tick(self) -> bool:
        """Call on every pass of the event loop; sends ``WATCHDOG=1`` when one is due.

        Returns ``True`` when a ping was sent.
        """
        if self._interval is None:
            return False
        now = self._clock()
        if self._next is not None and now < self._next:
            return False
        self._next = now + self._interval
        return self._notifier.watchdog()

    def timeout(self) -> float | None:
        """Seconds (>= 0) until the next ping is due, or ``None`` when the watchdog is off.

        Use it as the loop's wait timeout (``queue.get(timeout=pinger.timeout())``) so
        an idle loop still wakes to call :meth:`tick` in time.
        """
        if self._interval is None:
            return None
        if self._next is None:
            return 0.0
        return max(0.0, self._next - self._clock())
