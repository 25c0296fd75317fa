"""``companion club``: the club page, a process of its own, read-only to the broker.

Three parts:

* :class:`Club`: what the club holds (the SQLite :class:`~companion.club.store.ClubStore`
  and every table's replayed game) and :meth:`Club.receive`, which takes one MQTT
  message: the topic parsed, the payload decoded and its shape checked
  (:mod:`companion.club.protocol`), the actions replayed by the rules engine
  (:mod:`companion.club.replay`), then stored. A bad message (not JSON, the wrong
  shape, over 256 KiB, a state that does not replay, a result for a game that does not
  exist) is logged as a warning and skipped: it is never stored, never shown, and
  never stops the club;
* :class:`Listener`: the paho-mqtt client (MQTT 3.1.1, client id ``club-<host>``, a
  persistent session: ``clean_session=False``, so QoS 1 messages sent while the club
  was away are delivered when it comes back) subscribed to ``{prefix}/#`` at QoS 1;
  it never publishes. paho's own thread takes the results, a thread of the club's the
  tables' states (the latest of each when they come faster than it replays them);
* the page (Starlette on uvicorn, as ``companion web``, with its connection limits
  :class:`companion.web.server.GuardedH11Protocol`): ``/`` every table live (board,
  whose turn, the last event), the results and the ratings per game; ``/events``
  server-sent events (``event: board``, ``{"html": ...}``) at each change, which the
  spectator page's script (``/static/page.js``) puts in place; ``/live`` the same
  fragment; GET and HEAD only, the spectator page's security headers.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import ssl
import threading
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Final

import anyio
import anyio.to_thread
from anyio import CapacityLimiter

from companion import i18n
from companion.club import page, protocol
from companion.club.protocol import ProtocolError
from companion.club.replay import Replayed, check_result, replay_payload
from companion.club.store import ClubStore, StoreError
from companion.errors import CompanionError

log = logging.getLogger(__name__)

POLL: Final = 1.0
"""Seconds between two looks at the club's version by each event stream: the page is
rendered at most once a POLL whatever the traffic (with 50 busy tables a rendering
costs about 0.12 CPU s, most of it the boards that changed; benchmarks/club_load.py)."""
KEEPALIVE: Final = 15.0
"""Seconds without news after which an event stream sends a comment line."""
RENDERERS: Final = 1
"""Worker threads rendering the page at once."""


class ClubError(CompanionError):
    """The club cannot start: the broker's address, TLS files or password file are unusable."""


@dataclass
class Received:
    """What :meth:`Club.receive` did with one message: ``kind`` is ``"state"``,
    ``"empty"`` (a table emptied), ``"result"``, ``"duplicate"`` (a result stored
    already) or ``"bad"``; ``reason`` says why a bad one was skipped."""

    kind: str
    table: str = ""
    reason: str = ""


class Club:
    """What the club holds: ``store`` and each table's latest replayed game, for the
    topics under ``prefix``. Thread-safe: paho's thread receives, the page's threads read.

    ``on_change``: called (in the receiving thread) after each stored change, with
    :attr:`version` increased (the load benchmark measures latency with it).
    """

    def __init__(self, store: ClubStore, prefix: str = protocol.DEFAULT_PREFIX) -> None:
        self.store = store
        self.prefix = protocol.check_prefix(prefix)
        self.version = 0
        """Increased at each stored change (a table's state, a new result)."""
        self.bad = 0
        """Bad messages skipped since start."""
        self._lock = threading.Lock()
        self._live: dict[str, page.LiveTable] = {}
        self._svg: dict[str, tuple[int, str]] = {}
        self._changes: dict[str, int] = {}
        for kept in store.tables():  # the tables as they were when the club stopped
            try:
                self._set(kept.table, kept.payload, None)
            except ProtocolError as exc:  # a game of an older version's rules
                log.warning("club: table %s as stored does not replay: %s", kept.table, exc)

    def _set(self, table: str, payload: dict[str, Any] | None,
             base: page.LiveTable | None) -> None:
        replayed: Replayed | None = None
        if payload is not None:
            before = None
            if base is not None and base.payload is not None and base.replayed is not None:
                before = (base.payload["actions"], base.replayed)
            replayed = replay_payload(payload, base=before)
        with self._lock:
            self._live[table] = page.LiveTable(table, payload, replayed)
            self._changes[table] = self._changes.get(table, 0) + 1

    def receive(self, topic: str, data: bytes, *, received: float | None = None) -> Received:
        """Take one message (see the module); never raises for what the message holds.

        ``received``: Unix seconds (default: now).

        :raises StoreError: the database cannot be written (the listener logs it).
        """
        now = time.time() if received is None else received
        try:
            kind, table, rid = protocol.parse_topic(self.prefix, topic)
            if kind == "state" and not data:
                self.store.set_table(table, None, received=now)
                self._set(table, None, None)
                self._changed()
                return Received("empty", table)
            payload = protocol.decode(data)
            if kind == "state":
                payload = protocol.validate_state(payload)
                if payload["table"] != table:
                    raise ProtocolError(f"a state for table {payload['table']!r} on {topic!r}")
                with self._lock:
                    base = self._live.get(table)
                self._set(table, payload, base)
                self.store.set_table(table, payload, received=now,
                                     text=data.decode("utf-8"))
                self._changed()
                return Received("state", table)
            payload = protocol.validate_result(payload)
            if payload["table"] != table or payload["id"] != rid:
                raise ProtocolError(f"a result {payload['id']!r} of table {payload['table']!r} "
                                    f"on {topic!r}")
            if self.store.has_result(payload["id"]):  # known: not replayed again
                return Received("duplicate", table)
            check_result(payload)
            if not self.store.add_result(payload, received=now):
                return Received("duplicate", table)
            self._changed()
            return Received("result", table)
        except (ProtocolError, ValueError, KeyError, TypeError) as exc:
            self.bad += 1
            reason = str(exc) if isinstance(exc, ProtocolError) else f"{type(exc).__name__}: {exc}"
            log.warning("club: bad message on %r skipped: %s", topic[:200], reason[:300])
            return Received("bad", reason=reason)

    def _changed(self) -> None:
        with self._lock:
            self.version += 1

    def live(self) -> list[page.LiveTable]:
        """Every table known, by name."""
        with self._lock:
            return [self._live[t] for t in sorted(self._live)]

    def board(self, live: page.LiveTable) -> str:
        """The table's board SVG, drawn once per change of the table."""
        if live.replayed is None:
            return ""
        with self._lock:
            n = self._changes.get(live.table, 0)
            cached = self._svg.get(live.table)
        if cached is not None and cached[0] == n:
            return cached[1]
        svg = page.board(live.replayed)
        with self._lock:
            self._svg[live.table] = (n, svg)
        return svg

    def live_html(self, language: str = i18n.SOURCE_LANGUAGE) -> str:
        """The live part of the page in ``language``: every table, the results, the
        ratings."""
        with i18n.using(language):
            return page.live_html([(t, self.board(t)) for t in self.live()],
                                  self.store.results(page.RESULTS_SHOWN), self.store.count(),
                                  self.store.ratings())


# ---------------------------------------------------------------- the broker


@dataclass(frozen=True)
class Broker:
    """How to reach the broker: ``host``, ``port`` (1883; 8883 with TLS), ``username``
    and ``password`` (``None``: anonymous), ``ca`` (a CA certificate file: TLS, the
    broker's certificate checked against it and its host name), ``prefix``."""

    host: str = "localhost"
    port: int = 1883
    username: str | None = None
    password: str | None = None
    ca: Path | None = None
    prefix: str = protocol.DEFAULT_PREFIX
    client_id: str = ""


def client_id() -> str:
    """``club-<host>``: the same after a restart, so the broker keeps the session."""
    host = "".join(c for c in socket.gethostname().lower() if c.isalnum() or c == "-")
    return f"club-{host or 'club'}"[:23]


class Listener:
    """The club's MQTT client (see the module): connects in the background and
    reconnects by itself (paho's loop thread, 1 to 30 seconds between tries).

    Results are taken in paho's thread, so the broker's acknowledgement (PUBACK) of a
    result goes out only once it is stored. A table's state is a whole snapshot, so
    states are handed to a thread of their own (``club-states``), and a state not yet
    taken is replaced by a newer one of its table (:attr:`superseded` counts them):
    when messages come faster than the club can replay them, it skips to each table's
    latest instead of falling ever further behind. On every connection the club
    subscribes again: the broker sends the retained state of every table (current
    after the club was away) and every retained result (one already stored is known by
    its id and not replayed).
    """

    def __init__(self, club: Club, broker: Broker) -> None:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        self.club = club
        self.broker = broker
        self.connected = threading.Event()
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2, client_id=broker.client_id or client_id(),
            clean_session=False, protocol=mqtt.MQTTv311)
        if broker.username is not None:
            self.client.username_pw_set(broker.username, broker.password)
        if broker.ca is not None:
            try:
                self.client.tls_set(ca_certs=str(broker.ca), cert_reqs=ssl.CERT_REQUIRED)
            except (OSError, ssl.SSLError, ValueError) as exc:
                raise ClubError(f"club: TLS with {broker.ca}: {exc}") from None
        self.superseded = 0
        """States replaced by a newer one of their table before they were taken."""
        self._pending: dict[str, bytes] = {}
        self._wake = threading.Condition()
        self._stopping = False
        self._worker = threading.Thread(target=self._take_states, name="club-states",
                                        daemon=True)
        self.client.reconnect_delay_set(1, 30)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message

    def start(self) -> None:
        """Connect (in the background) and start paho's thread."""
        self._worker.start()
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=30)
        self.client.loop_start()

    def stop(self) -> None:
        """Disconnect, stop paho's thread, take the states still waiting; safe twice."""
        self.client.disconnect()
        self.client.loop_stop()
        with self._wake:
            self._stopping = True
            self._wake.notify_all()
        if self._worker.is_alive():
            self._worker.join(30)

    def _take_states(self) -> None:
        while True:
            with self._wake:
                while not self._pending and not self._stopping:
                    self._wake.wait()
                if not self._pending:
                    return
                batch, self._pending = self._pending, {}
            for topic, data in batch.items():
                self._take(topic, data)

    def _take(self, topic: str, data: bytes) -> None:
        try:
            self.club.receive(topic, data)
        except StoreError as exc:
            log.error("club: %s", exc)
        except Exception:  # never let a thread of the club die on one message
            log.exception("club: a message on %r could not be taken", topic[:200])

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
        if reason.is_failure:
            log.warning("club: the broker refused the connection: %s", reason)
            return
        client.subscribe(f"{self.club.prefix}/#", qos=protocol.QOS)
        log.info("club: connected to %s:%d, subscribed to %s/#", self.broker.host,
                 self.broker.port, self.club.prefix)
        self.connected.set()

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason: Any,
                       properties: Any) -> None:
        self.connected.clear()
        if reason.is_failure:
            log.warning("club: connection to the broker lost (%s): reconnecting", reason)

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        topic = str(message.topic)
        if topic.startswith(f"{self.club.prefix}/tables/") and topic.endswith("/state"):
            with self._wake:
                if topic in self._pending:
                    self.superseded += 1
                self._pending[topic] = bytes(message.payload)
                self._wake.notify()
            return
        self._take(topic, bytes(message.payload))


# ---------------------------------------------------------------- the page


class LivePage:
    """The live part of the page for every event stream: one watcher looks at
    :attr:`Club.version` every ``poll`` seconds and renders once per change and
    language read in."""

    def __init__(self, club: Club, poll: float = POLL) -> None:
        self.club = club
        self.poll = poll
        self.limiter = CapacityLimiter(RENDERERS)
        self.closing = False
        self._cache: dict[str, tuple[int, str]] = {}

    async def html(self, language: str = i18n.SOURCE_LANGUAGE) -> str:
        """The live part now in ``language`` (rendered again only after a change)."""
        version = self.club.version
        cached = self._cache.get(language)
        if cached is not None and cached[0] == version:
            return cached[1]
        html = await anyio.to_thread.run_sync(self.club.live_html, language,
                                              limiter=self.limiter)
        self._cache[language] = (version, html)
        return html

    async def stream(self, limit: int | None,
                     language: str = i18n.SOURCE_LANGUAGE) -> AsyncIterator[str]:
        """One spectator's events: the live part at once and after each change, a
        comment after :data:`KEEPALIVE` seconds without news; ends after ``limit``
        board events (``None``: never) or when the server stops."""
        yield "retry: 1000\n\n"
        seen = -1
        sent = 0
        quiet = 0.0
        while (limit is None or sent < limit) and not self.closing:
            version = self.club.version
            if version != seen:
                seen = version
                sent += 1
                quiet = 0.0
                yield f"event: board\ndata: {json.dumps({'html': await self.html(language)})}\n\n"
                continue
            await asyncio.sleep(self.poll)
            quiet += self.poll
            if quiet >= KEEPALIVE:
                quiet = 0.0
                yield ": still here\n\n"


def create_app(club: Club, *, language: str = i18n.SOURCE_LANGUAGE, poll: float = POLL,
               stream_limit: int | None = None) -> Any:
    """The club page's application (read-only: GET and HEAD, the spectator page's
    headers; see the module for the routes). Each page is in its reader's language as
    the spectator page's (:func:`companion.web.app.reader_language`: ``?lang=``, the
    browser's ``Accept-Language``), else ``language`` (``companion club --language``).

    :raises companion.i18n.UnknownLanguage: no catalogue for ``language``."""
    from starlette.applications import Starlette
    from starlette.exceptions import HTTPException
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, Response, StreamingResponse
    from starlette.routing import Route

    from companion.web.app import VARY, ReadOnly, reader_language

    files = {"page.css": ("companion.web", "text/css; charset=utf-8"),
             "page.js": ("companion.web", "text/javascript; charset=utf-8"),
             "club.css": ("companion.club", "text/css; charset=utf-8")}
    static = {name: (resources.files(pkg) / "static" / name).read_bytes()
              for name, (pkg, _) in files.items()}
    live = LivePage(club, poll)
    i18n.load(language)

    def lang(request: Request) -> str:
        return reader_language(request, language)

    async def front(request: Request) -> Response:
        code = lang(request)
        part = await live.html(code)
        with i18n.using(code):
            return HTMLResponse(page.page(part), headers=VARY)

    async def live_part(request: Request) -> Response:
        return HTMLResponse(await live.html(lang(request)), headers=VARY)

    async def events(request: Request) -> Response:
        return StreamingResponse(live.stream(stream_limit, lang(request)),
                                 media_type="text/event-stream",
                                 headers={"X-Accel-Buffering": "no"})

    async def static_file(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in static:
            raise HTTPException(404)
        return Response(static[name], media_type=files[name][1])

    async def not_found(request: Request, exc: Exception) -> Response:
        code = exc.status_code if isinstance(exc, HTTPException) else 404
        with i18n.using(lang(request)):
            return HTMLResponse(page.page(code=code), status_code=code, headers=VARY)

    routes = [Route("/", front), Route("/live", live_part), Route("/events", events),
              Route("/static/{name}", static_file)]
    app = ReadOnly(Starlette(routes=routes, exception_handlers={HTTPException: not_found}))
    app.live = live  # type: ignore[attr-defined]
    return app


def serve(club: Club, broker: Broker, host: str, port: int, *,
          language: str = i18n.SOURCE_LANGUAGE) -> None:
    """Listen to ``broker`` and serve the page on ``host``:``port`` until SIGTERM or
    Ctrl-C; ``language``: the page's for a browser that asks for none the club has.

    :raises OSError: the address cannot be bound.
    :raises ClubError: the TLS files cannot be used.
    """
    import uvicorn

    from companion.web.server import (
        HEAD_TIMEOUT,
        KEEP_ALIVE,
        MAX_CONNECTIONS,
        MAX_HEAD,
        SPARE_FILES,
        STOP_TIMEOUT,
        Gate,
        GuardedH11Protocol,
        raise_open_files,
    )

    listener = Listener(club, broker)
    files = raise_open_files()
    cap = max(1, min(MAX_CONNECTIONS, files - SPARE_FILES))
    protocol_class = type("Guarded", (GuardedH11Protocol,),
                          {"gate": Gate(cap, head_timeout=HEAD_TIMEOUT)})
    app = create_app(club, language=language)
    config = uvicorn.Config(
        app, host=host, port=port, log_level="warning", access_log=False,
        server_header=False, lifespan="off", http=protocol_class, ws="none",
        proxy_headers=False, timeout_keep_alive=int(KEEP_ALIVE),
        h11_max_incomplete_event_size=MAX_HEAD, loop="asyncio",
        timeout_graceful_shutdown=STOP_TIMEOUT)

    class _Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            super().handle_exit(sig, frame)
            app.live.closing = True

    listener.start()
    try:
        asyncio.run(_Server(config).serve())
    finally:
        listener.stop()
        club.store.close()


__all__ = ["Broker", "Club", "ClubError", "Listener", "LivePage", "Received", "client_id",
           "create_app", "serve"]
