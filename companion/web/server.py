"""The spectator page's server: uvicorn (h11) on one asyncio loop, within its unit's limits.

The unit (``systemd/board-companion-web.service``) gives the page ``TasksMax=32`` and
``MemoryMax=150M``, and the default 1,024 open files. What keeps it inside them:

* threads: the event streams run on the loop (no thread each), journals are read in at
  most :data:`companion.web.app.READERS` worker threads, anyio's default pool is cut to
  :data:`THREADS`, the finished games' reviews are worked out one at a time on one
  thread of their own (:class:`companion.web.reviews.Reviews`): the process has a
  handful of threads whatever the traffic;
* connections: at most :data:`MAX_CONNECTIONS` (fewer when the open-file limit is low;
  the soft limit is raised to :data:`OPEN_FILES` where the hard limit allows). At the
  cap, the connection idle longest (no request under way, for :data:`IDLE_GRACE`
  seconds at least) is closed to make room; when none is, the new connection gets a 503
  and is closed. The overload is logged
  once when it begins and once when it ends, never per request;
* idle and slow clients: a request's head must arrive within :data:`HEAD_TIMEOUT`
  seconds of the connection (or of the previous response: keep-alive), a response
  whose client does not read it for :data:`SLOW_TIMEOUT` seconds is cut, and a head
  larger than :data:`MAX_HEAD` bytes is refused by h11;
* memory: every journal is read by the bounded reader (a 200 MB file is refused from
  its size, unread), and at most :data:`~companion.web.app.READERS` at once.

asyncio's own "out of resources" message (``accept()`` failing) is let through once a
minute at most (:class:`OncePerMinute`). SIGTERM ends the event streams at once, so a
stop does not wait for spectators who never leave, and tells a review under way to end.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import resource
import time
from pathlib import Path
from types import FrameType
from typing import Any, Final

import anyio.to_thread
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from companion.web.app import LiveBoard, create_app
from companion.web.reviews import Reviews

log = logging.getLogger(__name__)

MAX_CONNECTIONS: Final = 2000
"""The most connections open at once (event streams, page loads, idle ones)."""
OPEN_FILES: Final = 4096
"""The open-file soft limit asked for at start (within the hard limit)."""
SPARE_FILES: Final = 64
"""Open files kept free of connections (journals, the listening socket, the log)."""
HEAD_TIMEOUT: Final = 10.0
"""Seconds a connection may take to send a whole request head (idle or slow clients)."""
KEEP_ALIVE: Final = 5.0
"""Seconds an idle keep-alive connection is kept after a response (uvicorn's timer)."""
SLOW_TIMEOUT: Final = 30.0
"""Seconds a client may leave a response unread (its socket full) before it is cut."""
MAX_HEAD: Final = 16 * 1024
"""The largest request head, in bytes (h11 refuses a larger one with a 400)."""
IDLE_GRACE: Final = 1.0
"""Seconds a connection must have been idle to be closed for a newcomer at the cap (a
client that has just connected is about to send its request)."""
REFUSED_LINGER: Final = 2.0
"""Seconds a refused connection is kept for its client to read the 503."""
STOP_TIMEOUT: Final = 5
"""Seconds a stopping server waits for responses under way (the unit allows 10)."""
THREADS: Final = 4
"""anyio's default worker-thread pool (the journals use their own, smaller one)."""
SWEEP: Final = 1.0
"""Seconds between two looks at the open connections for idle and slow ones."""
_BUSY: Final = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
                b"connection: close\r\nretry-after: 5\r\ncontent-length: 43\r\n\r\n"
                b"Too many spectators just now: retry soon.\r\n")


def raise_open_files(wanted: int = OPEN_FILES) -> int:
    """Raise the open-file soft limit to ``wanted`` where the hard limit allows;
    returns the soft limit in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return soft if soft != resource.RLIM_INFINITY else wanted


class Gate:
    """The open connections of one server, the cap and the timeouts (see the module)."""

    def __init__(self, cap: int, *, head_timeout: float = HEAD_TIMEOUT,
                 slow_timeout: float = SLOW_TIMEOUT) -> None:
        self.cap = cap
        self.head_timeout = head_timeout
        self.slow_timeout = slow_timeout
        self.open: dict[GuardedH11Protocol, None] = {}
        """Open connections, the oldest first."""
        self.overloaded = False
        self.refused = 0
        self.closed_idle = 0
        self._sweeping = False

    def admit(self, conn: GuardedH11Protocol) -> bool:
        """Whether ``conn`` may stay open: room under the cap, made by closing the
        longest-idle connection when there is one."""
        if len(self.open) >= self.cap:
            now = time.monotonic()
            victim = min((c for c in self.open if c.idle and now - c.waiting_since >= IDLE_GRACE),
                         key=lambda c: c.waiting_since, default=None)
            self._overload()
            if victim is None:
                self.refused += 1
                return False
            self.closed_idle += 1
            victim.drop()
        self.open[conn] = None
        if not self._sweeping:
            self._sweeping = True
            asyncio.get_running_loop().call_later(SWEEP, self._sweep)
        return True

    def left(self, conn: GuardedH11Protocol) -> None:
        """``conn`` is closed."""
        self.open.pop(conn, None)
        if self.overloaded and len(self.open) < self.cap * 9 // 10:
            self.overloaded = False
            log.warning("web: back under %d connections (%d idle ones closed, %d refused "
                        "meanwhile)", self.cap, self.closed_idle, self.refused)

    def _overload(self) -> None:
        if not self.overloaded:
            self.overloaded = True
            self.refused = self.closed_idle = 0
            log.warning("web: %d connections open, the most allowed: the longest-idle ones "
                        "are closed, new ones refused (503) while none is idle; said once "
                        "until it eases", self.cap)

    def _sweep(self) -> None:
        now = time.monotonic()
        for conn in list(self.open):
            idle_too_long = conn.idle and now - conn.waiting_since > self.head_timeout
            unread = conn.paused_since is not None and now - conn.paused_since > self.slow_timeout
            if idle_too_long or unread:
                conn.drop()
        if self.open:
            asyncio.get_running_loop().call_later(SWEEP, self._sweep)
        else:
            self._sweeping = False


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol under a :class:`Gate` (set as the class's ``gate``)."""

    gate: Gate

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.waiting_since = time.monotonic()
        """When this connection began waiting for its next request (monotonic seconds)."""
        self.paused_since: float | None = None
        """Since when the client has not read what was sent (``None``: it reads)."""
        self.refused = False
        """Over the cap: answered 503 at once, its request ignored, closed soon."""

    @property
    def idle(self) -> bool:
        """No request under way (waiting for one, or between two)."""
        return self.cycle is None or self.cycle.response_complete

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.waiting_since = time.monotonic()
        if not self.gate.admit(self):
            # Answer first, then end the sending side: closing at once, with the request
            # unread, would reset the connection before the client reads the 503.
            self.refused = True
            transport.write(_BUSY)
            if transport.can_write_eof():
                transport.write_eof()
            self.loop.call_later(REFUSED_LINGER, transport.abort)

    def data_received(self, data: bytes) -> None:
        if not self.refused:
            super().data_received(data)

    def connection_lost(self, exc: Exception | None) -> None:
        self.gate.left(self)
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        self.waiting_since = time.monotonic()
        super().on_response_complete()

    def pause_writing(self) -> None:
        self.paused_since = time.monotonic()
        super().pause_writing()

    def resume_writing(self) -> None:
        self.paused_since = None
        super().resume_writing()

    def drop(self) -> None:
        """Close the connection now (idle too long, a slow reader, room for another)."""
        self.gate.left(self)
        if not self.transport.is_closing():
            self.transport.abort()


class OncePerMinute(logging.Filter):
    """Lets each message template through at most once a minute (asyncio's accept
    errors come once a second while the open-file limit is reached)."""

    def __init__(self, every: float = 60.0) -> None:
        super().__init__()
        self.every = every
        self._last: dict[object, float] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        now = time.monotonic()
        key = (record.name, record.msg)
        if now - self._last.get(key, -self.every) < self.every:
            return False
        self._last[key] = now
        return True


class _Server(uvicorn.Server):
    """uvicorn's server that also ends the event streams when asked to stop (SIGTERM,
    Ctrl-C): they would otherwise keep the shutdown waiting until systemd kills it."""

    board: LiveBoard | None = None
    reviews: Reviews | None = None

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        super().handle_exit(sig, frame)
        if self.reviews is not None:  # the review under way ends at its next search node
            self.reviews.close()
        board = self.board
        if board is not None:
            with contextlib.suppress(RuntimeError):  # no loop running: nothing streams
                asyncio.get_running_loop().call_soon_threadsafe(board.close)


def serve(directory: Path, host: str, port: int, *, max_connections: int = MAX_CONNECTIONS,
          head_timeout: float = HEAD_TIMEOUT, language: str = "en") -> None:
    """Serve the spectator page of ``directory`` on ``host``:``port`` until SIGTERM or
    Ctrl-C (uvicorn's own signal handling). ``language``: the box's
    ``display.language``, for a reader whose browser asks for none the box has.

    ``max_connections``: the cap (lowered to the open-file limit less
    :data:`SPARE_FILES`); ``head_timeout``: seconds for a request head (see the module).

    :raises OSError: the address cannot be bound (in use, not this machine's).
    """
    files = raise_open_files()
    cap = max(1, min(max_connections, files - SPARE_FILES))
    protocol = type("Guarded", (GuardedH11Protocol,), {"gate": Gate(cap, head_timeout=head_timeout)})
    app = create_app(directory, language=language)
    config = uvicorn.Config(
        app, host=host, port=port, log_level="warning", access_log=False,
        server_header=False, lifespan="off", http=protocol, ws="none", proxy_headers=False,
        timeout_keep_alive=int(KEEP_ALIVE), h11_max_incomplete_event_size=MAX_HEAD,
        loop="asyncio", timeout_graceful_shutdown=STOP_TIMEOUT,
    )
    for name in ("asyncio", "uvicorn.error"):  # after Config: it sets up uvicorn's loggers
        logging.getLogger(name).addFilter(OncePerMinute())
    server = _Server(config)
    server.board = app.board
    server.reviews = app.reviews

    async def main() -> None:
        anyio.to_thread.current_default_thread_limiter().total_tokens = THREADS
        await server.serve()

    asyncio.run(main())


__all__ = ["Gate", "GuardedH11Protocol", "OncePerMinute", "raise_open_files", "serve"]
