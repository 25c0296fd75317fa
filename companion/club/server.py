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
* :class:`Listener`: two paho-mqtt clients (MQTT 3.1.1), so that states can never
  crowd results out of the broker's queue: the results' client (``club-<host>-r``, a
  persistent session, ``clean_session=False``: results sent while the club was away
  are delivered when it comes back) subscribed to ``{prefix}/results/+/+``, which
  answers each result with a receipt on ``{prefix}/receipts/<table>`` once it is
  stored (or says why it was refused); the states' client (``club-<host>``, a clean
  session: the broker keeps each table's latest state as a retained message anyway)
  subscribed to ``{prefix}/tables/+/state``. The club publishes nothing but receipts
  and its roster (retained on ``{prefix}/roster``, again after each connection and
  each change: ``companion club roster``).
  paho's thread takes the results, a thread of the club's the tables' states (the
  latest of each when they come faster than it replays them);
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
from datetime import timedelta
from importlib import resources
from pathlib import Path
from typing import Any, Final

import anyio
import anyio.to_thread
from anyio import CapacityLimiter

from companion import i18n
from companion.club import page, protocol
from companion.club.protocol import ProtocolError
from companion.club.replay import MAX_ACTIONS, Replayed, check_result, replay_payload
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
ROSTER_POLL: Final = 2.0
"""Seconds between two looks at the roster in the database (``companion club roster``
changes it from a process of its own): a change reaches the boxes within this."""


ASK_AGAIN: Final = 2.0
"""Seconds before a table's box is asked for its whole state again (while its deltas
still do not follow: the answer was lost, or the box is away)."""
MAX_WAITING: Final = 1000
"""The most states and deltas of one table waiting for the states' thread: past it
they are dropped (the next delta does not follow: the whole state is asked for)."""


class ClubError(CompanionError):
    """The club cannot start: the broker's address, TLS files or password file are unusable."""


@dataclass
class Received:
    """What :meth:`Club.receive` did with one message: ``kind`` is ``"state"``,
    ``"empty"`` (a table emptied), ``"delta"`` (a table's new actions applied),
    ``"behind"`` (a delta that does not follow the club's actions: not applied),
    ``"result"``, ``"duplicate"`` (a result stored
    already), ``"cleared"`` (a box clearing a result the club has) or ``"bad"``;
    ``reason`` says why a bad one was skipped; ``result`` is the result id of a result's
    topic (``""`` for a state, or a topic that could not be read)."""

    kind: str
    table: str = ""
    reason: str = ""
    result: str = ""
    ask: bool = False
    """The club should ask the table's box for its whole state (:meth:`Listener.ask`): a
    delta that does not follow what the club has, or does not replay, or a retained
    state (maybe older than the deltas the club will get next)."""

    @property
    def receipt(self) -> dict[str, Any] | None:
        """The receipt the box that sent this result is owed (:func:`~companion.club.
        protocol.receipt_payload`): stored for a new or known result, refused with the
        reason for a bad one; ``None`` for a state, a cleared result, or a message
        whose topic names no result."""
        if not self.result or not self.table:
            return None
        if self.kind in ("result", "duplicate"):
            return protocol.receipt_payload(self.result, stored=True)
        if self.kind == "bad":
            return protocol.receipt_payload(self.result, stored=False, reason=self.reason)
        return None


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
        self._chains: dict[str, tuple[str, int, str]] = {}
        """Each table's journal name, number of actions and their chain hash
        (:func:`~companion.club.protocol.chain`): what a delta must follow."""
        for kept in store.tables():  # the tables as they were when the club stopped
            try:
                self._set(kept.table, kept.payload, None)
            except ProtocolError as exc:  # a game of an older version's rules
                log.warning("club: table %s as stored does not replay: %s", kept.table, exc)

    def _set(self, table: str, payload: dict[str, Any] | None,
             base: page.LiveTable | None,
             chain: tuple[str, int, str] | None = None) -> dict[str, Any] | None:
        """Replay ``payload`` (onto ``base``'s position when it begins with its actions)
        and show it as ``table``'s; ``chain``: its journal, action count and chain hash
        when known (else worked out). Returns the payload as kept: its ``status`` and
        ``turn`` the club's own (:func:`worked_out`).

        :raises ProtocolError: it does not replay (the table is left as it was)."""
        replayed: Replayed | None = None
        if payload is not None:
            before = None
            if base is not None and base.payload is not None and base.replayed is not None:
                before = (base.payload["actions"], base.replayed)
            replayed = replay_payload(payload, base=before)
            payload = worked_out(payload, replayed)
        with self._lock:
            self._live[table] = page.LiveTable(table, payload, replayed)
            self._changes[table] = self._changes.get(table, 0) + 1
            if payload is None:
                self._chains.pop(table, None)
            elif chain is not None:
                self._chains[table] = chain
            else:
                self._chains[table] = (str(payload["journal"]), len(payload["actions"]),
                                       protocol.chain(protocol.GENESIS, payload["actions"]))
        return payload

    def receive(self, topic: str, data: bytes, *, received: float | None = None,
                retained: bool = False) -> Received:
        """Take one message (see the module); never raises for what the message holds.

        ``received``: Unix seconds (default: now); ``retained``: the broker's retained
        copy (sent on subscribing: a whole state maybe older than the deltas since, so
        the box is asked for its whole state: :attr:`Received.ask`).

        :raises StoreError: the database cannot be written (the listener logs it).
        """
        now = time.time() if received is None else received
        table = rid = ""
        try:
            kind, table, found = protocol.parse_topic(self.prefix, topic)
            rid = found or ""
            if kind == "result" and not data:
                return Received("cleared", table, result=rid)
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
                return Received("state", table, ask=retained)
            if kind == "delta":
                return self._delta(table, topic, payload, now)
            payload = protocol.validate_result(payload)
            if payload["table"] != table or payload["id"] != rid:
                raise ProtocolError(f"a result {payload['id']!r} of table {payload['table']!r} "
                                    f"on {topic!r}")
            if protocol.result_id(payload) != rid:
                raise ProtocolError(f"result {rid}: the id is not the hash of its content")
            if self.store.has_result(rid):  # known: not replayed again
                return Received("duplicate", table, result=rid)
            check_result(payload)
            payload = club_times(payload, now)
            if not self.store.add_result(payload, received=now):
                return Received("duplicate", table, result=rid)
            self._changed()
            return Received("result", table, result=rid)
        except (ProtocolError, ValueError, KeyError, TypeError, OverflowError) as exc:
            self.bad += 1
            reason = str(exc) if isinstance(exc, ProtocolError) else f"{type(exc).__name__}: {exc}"
            log.warning("club: bad message on %r skipped: %s", topic[:200], reason[:300])
            return Received("bad", table, reason=reason, result=rid,
                            ask=bool(table) and topic.endswith("/delta"))

    def _delta(self, table: str, topic: str, payload: dict[str, Any], now: float) -> Received:
        """A table's new actions (:func:`~companion.club.protocol.validate_delta`),
        applied when they follow the club's own: the same journal, ``after`` the number
        of actions the club has and ``prefix`` their chain hash; then replayed onto a
        copy of the club's position (an illegal one: a bad message, the table as it
        was). A delta that does not follow (one lost on the way, a club that restarted,
        a forged prefix) is not applied: ``"behind"``, and the box is asked for its
        whole state.

        :raises ProtocolError: the wrong shape, the wrong table, actions that do not
            replay. :raises StoreError: the database cannot be written.
        """
        delta = protocol.validate_delta(payload)
        if delta["table"] != table:
            raise ProtocolError(f"a delta for table {delta['table']!r} on {topic!r}")
        with self._lock:
            base = self._live.get(table)
            have = self._chains.get(table)
        if (base is None or base.payload is None or have is None
                or have != (delta["journal"], delta["after"], delta["prefix"])):
            held = "no game" if have is None else f"{have[1]} actions of {have[0]}"
            why = (f"a delta after {delta['after']} actions of {delta['journal'][:80]}, "
                   f"the club has {held[:120]}")
            log.info("club: table %s: %s: asking for the whole state", table, why)
            return Received("behind", table, reason=why, ask=True)
        new = delta["actions"]
        state = dict(base.payload, actions=[*base.payload["actions"], *new],
                     status=delta["status"], updated=delta["updated"])
        if len(state["actions"]) > MAX_ACTIONS:
            raise ProtocolError(f"{len(state['actions'])} actions, over {MAX_ACTIONS}")
        kept = self._set(table, state, base, (have[0], len(state["actions"]),
                                              protocol.chain(have[2], new)))
        self.store.set_table(table, kept, received=now)
        self._changed()
        return Received("delta", table)

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


def worked_out(payload: dict[str, Any], replayed: Replayed) -> dict[str, Any]:
    """``payload`` with the club's own ``status`` and ``turn``, from its replay (a box's
    are not believed, and a delta's base state has the turn of when it was sent):
    ``"finished"`` when the rules name a winner, else ``"abandoned"`` when the box says
    so (an end record has no action to replay), else ``"playing"``; the turn is the
    player to act of a game being played (``None`` otherwise)."""
    state = replayed.state
    if state.outcome is not None:
        status = "finished"
    else:
        status = "abandoned" if payload.get("status") == "abandoned" else "playing"
    turn: str | None = None
    if status == "playing":
        try:
            turn = state.player_to_act_name
        except Exception:  # a position without one: no turn shown
            log.debug("club: no player to act in %s", replayed.game.id, exc_info=True)
    return dict(payload, status=status, turn=turn)


FUTURE_SLACK: Final = 3600.0
"""Seconds a box's clock may be ahead of the club's before its times are not believed."""


def club_times(payload: dict[str, Any], received: float) -> dict[str, Any]:
    """``payload`` with an ``ended`` the club can vouch for: a box's own end time is
    kept when it is not later than the club's receive time (plus
    :data:`FUTURE_SLACK`) and not before the game's start; otherwise the result is
    dated by the club's receive time and the box's time kept aside as ``box_ended``.
    Results are ordered by ``ended``: one dated 9999 no longer stays at the top of the
    page. (``started`` is part of the result's id: it is shown, never used to order.)

    :raises ProtocolError: a time outside :data:`~companion.club.protocol.EARLIEST` to
        :data:`~companion.club.protocol.LATEST`.
    """
    from datetime import UTC, datetime

    now = datetime.fromtimestamp(received, UTC)
    started = protocol.parse_time(payload["started"])
    ended = protocol.parse_time(payload["ended"])
    if started <= ended <= now + timedelta(seconds=FUTURE_SLACK):
        return payload
    return dict(payload, box_ended=payload["ended"], ended=now.isoformat(timespec="seconds"))


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
    """The club's MQTT clients (see the module): each connects in the background and
    reconnects by itself (paho's loop thread, 1 to 30 seconds between tries).

    Results come to a client and a session of their own (``club-<host>-r``, persistent),
    so that however many states the tables send, the broker's queue for the results
    never fills with them. A result is taken in paho's thread and answered with a
    receipt (:meth:`Received.receipt`) on the box's receipt topic once it is stored:
    the box keeps the result, and sends it again, until then; a result the club has
    already is answered again, so a receipt lost on the way costs one more sending.

    A table's state is a whole snapshot, so states are handed to a thread of their own
    (``club-states``), and a state not yet taken is replaced by a newer one of its
    table (:attr:`superseded` counts them): when messages come faster than the club
    can replay them, it skips to each table's latest instead of falling ever further
    behind. The states' client has a clean session: on every connection the broker
    sends each table's retained state, current after the club was away.
    """

    def __init__(self, club: Club, broker: Broker) -> None:
        self.club = club
        self.broker = broker
        self.connected = threading.Event()
        """Both clients are connected and subscribed."""
        base = broker.client_id or client_id()
        self.client = self._client(base, clean_session=True)
        self.results_client = self._client(f"{base[:21]}-r", clean_session=False)
        self.superseded = 0
        """States replaced by a newer one of their table before they were taken."""
        self.receipts = 0
        """Receipts handed to the broker since start."""
        self._up: set[str] = set()
        self._pending: dict[str, list[tuple[str, bytes, bool]]] = {}
        """Per table (its topics' common part): the whole states and deltas waiting for
        the states' thread, in order (topic, payload, retained)."""
        self._wake = threading.Condition()
        self._stopping = False
        self._worker = threading.Thread(target=self._take_states, name="club-states",
                                        daemon=True)
        self.roster_poll = ROSTER_POLL
        self.rosters = 0
        """Roster messages handed to the broker since start."""
        self._roster_sent: list[str] | None = None
        self._roster_due = threading.Event()
        self._roster_stop = threading.Event()
        self._roster_watch = threading.Thread(target=self._watch_roster, name="club-roster",
                                              daemon=True)
        self.asked = 0
        """Requests for a table's whole state handed to the broker since start."""
        self.ask_again = ASK_AGAIN
        self._asked: dict[str, float] = {}
        self.client.on_connect = self._connected("states", protocol.state_filter(club.prefix),
                                                 protocol.delta_filter(club.prefix))
        self.results_client.on_connect = self._connected(
            "results", protocol.results_filter(club.prefix))
        self.client.on_disconnect = self._disconnected("states")
        self.results_client.on_disconnect = self._disconnected("results")
        self.client.on_message = self._on_state
        self.results_client.on_message = self._on_result

    def _client(self, cid: str, *, clean_session: bool) -> Any:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        cli = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=cid,
                          clean_session=clean_session, protocol=mqtt.MQTTv311)
        if self.broker.username is not None:
            cli.username_pw_set(self.broker.username, self.broker.password)
        if self.broker.ca is not None:
            try:
                cli.tls_set(ca_certs=str(self.broker.ca), cert_reqs=ssl.CERT_REQUIRED)
            except (OSError, ssl.SSLError, ValueError) as exc:
                raise ClubError(f"club: TLS with {self.broker.ca}: {exc}") from None
        cli.reconnect_delay_set(1, 30)
        return cli

    def start(self) -> None:
        """Connect both clients (in the background) and start paho's threads."""
        self._worker.start()
        self._roster_watch.start()
        for cli in (self.results_client, self.client):
            cli.connect_async(self.broker.host, self.broker.port, keepalive=30)
            cli.loop_start()

    def stop(self) -> None:
        """Disconnect, stop paho's threads, take the states still waiting; safe twice."""
        self._roster_stop.set()
        self._roster_due.set()
        if self._roster_watch.is_alive():
            self._roster_watch.join(10)
        for cli in (self.client, self.results_client):
            cli.disconnect()
            cli.loop_stop()
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
            for queue in batch.values():
                for topic, data, retained in queue:
                    got = self._take(topic, data, retained=retained)
                    if got is not None and got.ask and got.table:
                        try:
                            self.ask(got.table, got.reason or "a retained state")
                        except Exception:  # never let the thread die: asked again later
                            log.exception("club: table %s could not be asked", got.table)

    def _watch_roster(self) -> None:
        """Publish the roster (retained, QoS 1, on ``{prefix}/roster``) after each
        connection of the results' client and whenever the database's changed (looked
        at every :attr:`roster_poll` seconds)."""
        while not self._roster_stop.is_set():
            self._roster_due.wait(self.roster_poll)
            self._roster_due.clear()
            if self._roster_stop.is_set() or "results" not in self._up:
                continue
            try:
                people = self.club.store.roster()
                if people == self._roster_sent:
                    continue
                data = protocol.encode(protocol.roster_payload(people))
                self.results_client.publish(protocol.roster_topic(self.club.prefix), data,
                                            qos=protocol.QOS, retain=True)
            except Exception:  # never let the thread die: tried again at the next look
                log.exception("club: the roster could not be published")
                continue
            self._roster_sent = people
            self.rosters += 1
            log.info("club: roster of %d names published", len(people))

    def _take(self, topic: str, data: bytes, *, retained: bool = False) -> Received | None:
        try:
            return self.club.receive(topic, data, retained=retained)
        except StoreError as exc:  # not stored: no receipt, the box sends it again
            log.error("club: %s", exc)
        except Exception:  # never let a thread of the club die on one message
            log.exception("club: a message on %r could not be taken", topic[:200])
        return None

    def _connected(self, which: str, *topic_filters: str) -> Any:
        def on_connect(client: Any, userdata: Any, flags: Any, reason: Any,
                       properties: Any) -> None:
            if reason.is_failure:
                log.warning("club: the broker refused the %s connection: %s", which, reason)
                return
            client.subscribe([(f, protocol.QOS) for f in topic_filters])
            log.info("club: connected to %s:%d for the %s, subscribed to %s",
                     self.broker.host, self.broker.port, which, ", ".join(topic_filters))
            self._up.add(which)
            if which == "results":  # the broker may have lost it: publish it again
                self._roster_sent = None
                self._roster_due.set()
            if len(self._up) == 2:
                self.connected.set()
        return on_connect

    def _disconnected(self, which: str) -> Any:
        def on_disconnect(client: Any, userdata: Any, flags: Any, reason: Any,
                          properties: Any) -> None:
            self._up.discard(which)
            self.connected.clear()
            if reason.is_failure:
                log.warning("club: %s connection to the broker lost (%s): reconnecting",
                            which, reason)
        return on_disconnect

    def _on_state(self, client: Any, userdata: Any, message: Any) -> None:
        """A table's whole state or delta, queued for the states' thread in the order
        they came, per table; a whole state replaces what of its table still waits."""
        topic = str(message.topic)
        table, _, which = topic.rpartition("/")
        item = (topic, bytes(message.payload), bool(message.retain))
        with self._wake:
            queue = self._pending.setdefault(table, [])
            if which != "delta" and queue:
                self.superseded += len(queue)
                queue.clear()
            if len(queue) >= MAX_WAITING:  # far behind: the deltas dropped, the whole asked
                self.superseded += len(queue)
                queue.clear()
            queue.append(item)
            self._wake.notify()

    def ask(self, table: str, why: str) -> bool:
        """Ask ``table``'s box for its whole state (QoS 1 on ``{prefix}/requests/
        {table}``), at most once per :attr:`ask_again` seconds a table (a box that
        is away misses it: it sends its whole state when it connects). Whether it was
        sent now."""
        now = time.monotonic()
        if now - self._asked.get(table, -1e9) < self.ask_again:
            return False
        self._asked[table] = now
        data = protocol.encode(protocol.request_payload(why))
        self.client.publish(protocol.request_topic(self.club.prefix, table), data,
                            qos=protocol.QOS)
        self.asked += 1
        return True

    def _on_result(self, client: Any, userdata: Any, message: Any) -> None:
        got = self._take(str(message.topic), bytes(message.payload))
        receipt = got.receipt if got is not None else None
        if got is None or receipt is None:
            return
        topic = protocol.receipt_topic(self.club.prefix, got.table)
        client.publish(topic, protocol.encode(receipt), qos=protocol.QOS)
        self.receipts += 1
        log.info("club: result %s of table %s %s", got.result, got.table,
                 "stored" if receipt["stored"] else "refused: " + receipt["reason"])


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


__all__ = ["ASK_AGAIN", "MAX_WAITING", "ROSTER_POLL", "Broker", "Club", "ClubError", "Listener", "LivePage", "Received", "client_id",
           "create_app", "serve", "worked_out"]
