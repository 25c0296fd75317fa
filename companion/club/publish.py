"""``companion publish``: the box's side of the club (issue 21), a process of its own.

It follows the journal folder and publishes to the club's MQTT broker, by the wire
protocol of :mod:`companion.club.protocol`:

* the table's live game (the newest readable journal): its whole state, retained,
  QoS 1, after each (re)connection, for a new game, after actions were taken back and
  when the club asks (on ``{prefix}/requests/<table>``); after every other change a
  delta of the actions added since (QoS 1, not retained: :func:`~companion.club.
  protocol.delta_payload`, naming how many actions it follows and their chain hash, so
  the club notices one it cannot apply and asks), and the whole state again once the
  table has been quiet for :data:`SETTLE` seconds after deltas; an empty retained
  message when the folder holds no journal;
* nothing of the club's but the receipts and the roster: the club's roster (retained
  on ``{prefix}/roster``) is written at once (temporary file and rename) to
  ``roster.json`` in this process's state folder, its names cleaned, for the seat
  screen (:func:`companion.journal.roster.load_roster`);
* each finished game's result, until the club says it has stored it: the club's
  receipt (on ``{prefix}/receipts/<table>``, sent after its database commit) puts
  the result's id into the outbox (:class:`Outbox`, ``club-outbox.json`` in this
  process's own state folder), and the box then clears the retained copy on the
  broker. Until its receipt comes a result is sent again, after :data:`RESEND` seconds
  doubling to :data:`RESEND_MAX`, and at once after each reconnection: a broker that
  crashed before saving it, a queue that overflowed or a club away for a day loses
  nothing, and the club takes a result it has as the same result (its id is the hash
  of its content) and answers it again. A result the club refuses (its receipt says
  why) is logged and not sent again until its journal changes.

The games played before the publisher's first start are sent too, once: a new outbox
(and one of an older version, which did not send them) has a *backlog*; until every
finished game last written before the outbox was made has its receipt (or was refused),
the whole folder is looked at, then the backlog is marked done in the outbox and
only the games written since are (a restart does not read the box's history again).

The journals are read, never written or locked: each is looked at with ``os.stat``
every :data:`INTERVAL` seconds and read again only when its size, time or inode
changed: the live game on from the lines already taken (:meth:`Publisher._follow`),
else whole, with the companion's own safe reader (:func:`companion.journal.store.load` with
``repair=False``: a FIFO or a device is refused, a damaged tail is left alone). A
journal that cannot be read is logged (once per change) and skipped: nothing in the
folder stops the publisher. While the broker is away it tries again after a growing
delay (1 s doubling to :data:`RECONNECT_MAX`), each failure logged; states are not
queued (the newest is sent on each connection).

The referee (board-companion.service) never loads this module: it stays offline.
Needs the ``club`` extra (paho-mqtt).
"""

from __future__ import annotations

import json
import logging
import os
import ssl
import stat
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from companion.club import protocol
from companion.errors import CompanionError
from companion.journal.roster import ROSTER_FILE, save_roster
from companion.journal.store import (
    MAX_FILE_BYTES,
    JournalError,
    Loaded,
    load,
    load_more,
    read_journal_bytes,
)
from companion.rules.datafile import RefusedFileError, parse_json, read_bytes, replace_atomically

log = logging.getLogger(__name__)

INTERVAL: Final = 1.0
"""Seconds between two looks at the journal folder."""
RECONNECT_MAX: Final = 30
"""The longest wait between two connection attempts, in seconds."""
KEEPALIVE: Final = 30
"""MQTT keep-alive in seconds: a broker gone silently is noticed within 1.5 times this."""
OUTBOX_FORMAT: Final = "board-companion/club-outbox"
RESEND: Final = 30.0
"""Seconds after which a result without its receipt is sent again (doubling)."""
RESEND_MAX: Final = 600.0
"""The longest wait between two sendings of a result without its receipt, in seconds."""
MAX_IN_FLIGHT: Final = 32
"""The most results sent and not yet confirmed at once (paho keeps a copy of each until
the broker's PUBACK): a first start with hundreds of games in the folder sends them,
oldest first, this many at a time."""
MAX_OUTBOX_BYTES: Final = 4 * 1024 * 1024
"""The longest outbox read (each result id takes 23 bytes: about 180,000 games)."""
MAX_PASSWORD_BYTES: Final = 4096
SETTLE: Final = 30.0
"""Seconds without a change after which a table followed by deltas gets its whole state
again (retained): the broker's copy is then current for a club that connects later, and
a last delta lost (a club whose queue overflowed) is made good without another change."""
OVERLAP: Final = 64
"""Bytes before the end of the lines taken that are read again and compared when a
journal is read on (:meth:`Publisher._follow`)."""


class PublishError(CompanionError):
    """The club settings cannot be used (no broker, no table, an unreadable password
    file); the message says which key and why."""


@dataclass(frozen=True)
class ClubSettings:
    """The ``club.*`` config keys, checked. :meth:`from_config` builds it."""

    broker: str
    port: int
    table: str
    prefix: str = protocol.DEFAULT_PREFIX
    username: str = ""
    password: str | None = None
    tls_ca: Path | None = None

    @classmethod
    def from_config(cls, conf: Mapping[str, Any]) -> ClubSettings:
        """The settings of a resolved config (:func:`companion.app.config.from_args`);
        the password is read from ``club.password_file`` (its first line).

        :raises PublishError: ``club.broker`` or ``club.table`` is empty or bad, the
            password file cannot be read, or the CA file does not exist.
        """
        broker = str(conf.get("club.broker") or "").strip()
        if not broker:
            raise PublishError("club.broker is empty: set the club's broker host in the config")
        table = str(conf.get("club.table") or "")
        try:
            protocol.check_table(table)
            prefix = protocol.check_prefix(str(conf.get("club.topic") or protocol.DEFAULT_PREFIX))
        except protocol.ProtocolError as exc:
            raise PublishError(f"club: {exc}") from None
        password: str | None = None
        if conf.get("club.password_file"):
            password = read_password(Path(conf["club.password_file"]))
        ca: Path | None = None
        if conf.get("club.tls_ca"):
            ca = Path(conf["club.tls_ca"])
            if not ca.is_file():
                raise PublishError(f"club.tls_ca: {ca} is not a file")
        return cls(broker, int(conf.get("club.port") or 1883), table, prefix,
                   str(conf.get("club.username") or ""), password, ca)

    @property
    def user(self) -> str:
        """The user name at the broker: ``club.username``, else the table name."""
        return self.username or self.table


def read_password(path: Path) -> str:
    """The first line of the password file ``path`` (without its line end).

    :raises PublishError: it cannot be read, is not a regular file, is over 4 KiB, is
        not UTF-8 or its first line is empty.
    """
    try:
        text = read_bytes(path, MAX_PASSWORD_BYTES).decode("utf-8")
    except (OSError, RefusedFileError, UnicodeDecodeError) as exc:
        raise PublishError(f"club.password_file: {path}: {exc}") from None
    password = text.splitlines()[0] if text else ""
    if not password:
        raise PublishError(f"club.password_file: {path}: the first line is empty")
    return password


class Outbox:
    """The result ids the club confirmed storing (its receipt), kept in
    ``club-outbox.json`` (an outbox of an older version holds the ids the broker
    acknowledged, under :func:`~companion.club.protocol.journal_result_id`)::

        {"format": "board-companion/club-outbox", "version": 1,
         "since": "2026-11-26T03:00:00+00:00", "backlog": false,
         "published": ["9eac09a9206d1eeb29f0", ...]}

    ``since``: when the outbox was made; ``backlog``: the games last written before it
    are still to be sent (true in a new outbox; missing, as in an outbox of an older
    version, which never sent them: true). Once the backlog is sent
    (:meth:`backlog_sent`), journals last written before ``since`` are not looked at
    again (:attr:`horizon`). Each :meth:`add` rewrites the file (temporary file, fsync,
    rename, directory fsync): after a power cut it holds every id the club confirmed before.
    A file that cannot be read is set aside as ``club-outbox.json.bad`` and a new one
    begun (logged): results may then be sent again, which the club takes as the same
    results (their ids).
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.since: datetime = datetime.now(UTC).replace(microsecond=0)
        self.backlog = True
        """The games last written before :attr:`since` are still to be sent."""
        self.published: set[str] = set()
        self._order: list[str] = []
        self._load()

    def _load(self) -> None:
        try:
            data = read_bytes(self.path, MAX_OUTBOX_BYTES)
        except FileNotFoundError:
            self._save()
            return
        except (OSError, RefusedFileError) as exc:
            log.warning("club outbox %s cannot be read (%s): beginning a new one", self.path, exc)
            self._set_aside()
            return
        try:
            obj = parse_json(data.decode("utf-8"))
            if not isinstance(obj, dict) or obj.get("format") != OUTBOX_FORMAT:
                raise ValueError("not a club outbox")
            since = datetime.fromisoformat(str(obj["since"]))
            ids = obj["published"]
            if not isinstance(ids, list) or not all(
                    isinstance(i, str) and protocol.RESULT_ID_PATTERN.fullmatch(i) for i in ids):
                raise ValueError("'published' is not a list of result ids")
        except (ValueError, KeyError, UnicodeDecodeError) as exc:
            log.warning("club outbox %s is damaged (%s): beginning a new one", self.path, exc)
            self._set_aside()
            return
        self.since = since if since.tzinfo else since.replace(tzinfo=UTC)
        self.backlog = obj.get("backlog", True) is not False
        self._order = list(dict.fromkeys(ids))
        self.published = set(self._order)

    def _set_aside(self) -> None:
        try:
            os.replace(self.path, self.path.with_name(self.path.name + ".bad"))
        except OSError as exc:
            log.warning("club outbox %s cannot be set aside: %s", self.path, exc)
        self._save()

    def __contains__(self, rid: object) -> bool:
        return rid in self.published

    @property
    def horizon(self) -> datetime:
        """Journals last written before this are not sent: :attr:`since` once the
        backlog is sent, :data:`~companion.club.protocol.EARLIEST` before."""
        return protocol.EARLIEST if self.backlog else self.since

    def backlog_sent(self) -> None:
        """Record that every game written before :attr:`since` has been sent and
        confirmed (durable when this returns).

        :raises OSError: the file cannot be written (the backlog is done in memory).
        """
        if self.backlog:
            self.backlog = False
            self._save()

    def add(self, rid: str) -> None:
        """Record that the club stored result ``rid`` (durable when this returns).

        :raises OSError: the file cannot be written (the id is still kept in memory).
        """
        if rid in self.published:
            return
        self.published.add(rid)
        self._order.append(rid)
        self._save()

    def _save(self) -> None:
        body = json.dumps({"format": OUTBOX_FORMAT, "version": 1,
                           "since": self.since.isoformat(timespec="seconds"),
                           "backlog": self.backlog,
                           "published": self._order}, separators=(",", ":")) + "\n"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        replace_atomically(self.path, body.encode("utf-8"))


@dataclass
class InFlight:
    """A result sent and not yet confirmed by the club: what to send again and when."""

    topic: str
    data: bytes
    signature: tuple[int, int, int]
    """The journal's ``os.stat`` signature when the result was made."""
    name: str
    """The journal's file name (for the log)."""
    due: float = 0.0
    """``time.monotonic()`` at which it is sent again."""
    delay: float = RESEND


@dataclass(frozen=True)
class Snapshot:
    """One journal as last read: its ``os.stat`` signature, what :func:`load` gave (or
    ``None`` when it could not be read), its first line and its last-written time."""

    signature: tuple[int, int, int]
    loaded: Loaded | None
    header_line: bytes = b""
    written: datetime | None = None
    readable: bool = False
    """The journal could be read (``loaded`` may since have been let go: see
    :meth:`Publisher._trim`)."""
    tail: bytes = b""
    """The last :data:`OVERLAP` bytes before ``loaded.intact``: compared when the file
    is read on from there, so a file rewritten in place is read whole again."""

    @property
    def written_iso(self) -> str:
        when = self.written or datetime.now(UTC)
        return when.isoformat(timespec="seconds")


def _signature(st: os.stat_result) -> tuple[int, int, int]:
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def read_snapshot(path: Path, st: os.stat_result) -> Snapshot:
    """Read the journal ``path`` (whose ``os.stat`` is ``st``) without writing anything.

    :raises JournalError: it is not a usable journal. :raises OSError: it cannot be read.
    """
    data = read_journal_bytes(path)
    loaded = load(path, repair=False, data=data)
    header = data[:data.find(b"\n")] if b"\n" in data else data
    end = loaded.intact or 0
    return Snapshot(_signature(st), loaded, header,
                    datetime.fromtimestamp(st.st_mtime_ns / 1e9, UTC), readable=True,
                    tail=data[max(0, end - OVERLAP):end])


def read_from(path: Path, offset: int, inode: int) -> bytes:
    """The bytes of the journal ``path`` from ``offset`` on (at most what
    :data:`~companion.journal.store.MAX_FILE_BYTES` leaves), opened as
    :func:`~companion.rules.datafile.read_bytes` opens a file (never waiting on a FIFO).

    :raises ValueError: it is not a regular file, no longer the file ``inode``, or
        shorter than ``offset``. :raises OSError: it cannot be read.
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | getattr(os, "O_NOCTTY", 0)
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_ino != inode or info.st_size < offset:
            raise ValueError("not the file read before")
        os.lseek(fd, offset, os.SEEK_SET)
        chunks = []
        left = MAX_FILE_BYTES - offset
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


class Publisher:
    """Follows ``journal_dir`` and publishes to the club's broker (see the module doc).

    Call :meth:`run` (or :meth:`step` and :meth:`poll` in turn), then :meth:`close`.
    One thread does everything: paho is driven by ``client.loop()`` (no thread of its
    own), so every connection failure is seen, and logged, here.
    """

    def __init__(self, settings: ClubSettings, journal_dir: Path, state_dir: Path, *,
                 interval: float = INTERVAL, reconnect_max: int = RECONNECT_MAX) -> None:
        self.settings = settings
        self.journal_dir = journal_dir
        self.outbox = Outbox(state_dir / protocol.OUTBOX)
        self.roster_path = state_dir / ROSTER_FILE
        """Where the club's roster is kept for the seat screen (:mod:`companion.journal.
        roster`)."""
        self.roster_topic = protocol.roster_topic(settings.prefix)
        self.interval = interval
        self.reconnect_max = reconnect_max
        self.state_topic = protocol.state_topic(settings.prefix, settings.table)
        self._snapshots: dict[Path, Snapshot] = {}
        self.delta_topic = protocol.delta_topic(settings.prefix, settings.table)
        self.request_topic = protocol.request_topic(settings.prefix, settings.table)
        self._sent: SentState | None = None
        """The table's state as last handed to paho since the last connection (None:
        none: the next is the whole state)."""
        self._full_due = False
        """The club asked for the whole state."""
        self.settle = SETTLE
        self.state_bytes = 0
        """Bytes of state payloads (whole states and deltas) handed to paho since start."""
        self.full_states = 0
        """Whole states handed to paho since start."""
        self.deltas = 0
        """Deltas handed to paho since start."""
        self.receipt_topic = protocol.receipt_topic(settings.prefix, settings.table)
        self._results: dict[Path, tuple[tuple[int, int, int], str, str, bytes]] = {}
        """Each finished journal's result: (stat signature, id, older id, payload)."""
        self._pending: dict[str, InFlight] = {}
        """Result id -> the result sent and not yet confirmed by the club."""
        self._bad: dict[str, tuple[int, int, int]] = {}
        self.connected = threading.Event()
        self._open = False
        """A connection is up or being set up (paho's socket is open)."""
        self._delay = 1.0
        self._next_try = 0.0
        self.client = self._make_client()

    def _make_client(self) -> Any:
        from paho.mqtt import client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        s = self.settings
        cli = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"box-{s.table}",
                          clean_session=True, protocol=mqtt.MQTTv311)
        cli.username_pw_set(s.user, s.password)
        if s.tls_ca is not None:
            cli.tls_set(ca_certs=str(s.tls_ca), cert_reqs=ssl.CERT_REQUIRED)
        cli.on_connect = self._on_connect
        cli.on_disconnect = self._on_disconnect
        cli.on_message = self._on_message
        return cli

    # ---------------------------------------------------------------- paho's callbacks
    # (called from client.loop() in :meth:`run`: one thread does everything)

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
        if reason.is_failure:
            log.warning("club broker %s:%d refused the connection: %s",
                        self.settings.broker, self.settings.port, reason)
            return
        log.info("connected to the club broker %s:%d as %s", self.settings.broker,
                 self.settings.port, self.settings.user)
        self._sent = None  # the broker may have lost it: the whole state again
        self._delay = 1.0
        client.subscribe([(self.receipt_topic, protocol.QOS), (self.roster_topic, protocol.QOS),
                          (self.request_topic, protocol.QOS)])
        for flight in self._pending.values():  # the broker may have lost them: again
            flight.due = 0.0
        self.connected.set()

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        if message.topic == self.roster_topic:
            self._on_roster(bytes(message.payload))
        elif message.topic == self.request_topic:
            self._on_request(bytes(message.payload))
        else:
            self._on_receipt(client, userdata, message)

    def _on_request(self, data: bytes) -> None:
        """The club asking for the table's whole state (a delta it could not apply, or
        a club that just connected): sent at the next look at the folder."""
        try:
            request = protocol.validate_request(protocol.decode(data))
        except protocol.ProtocolError as exc:
            log.warning("club request on %s not understood: %s", self.request_topic, exc)
            return
        log.info("the club asks for the whole state of table %s: %s", self.settings.table,
                 request["reason"] or "no reason given")
        self._full_due = True

    def _on_roster(self, data: bytes) -> None:
        """The club's roster (retained: at each connection, then at each change): its
        names cleaned and written at once to :attr:`roster_path` (an empty message:
        an empty roster). A roster not understood is logged and the file left as it
        was; a file that cannot be written is logged (tried again at the next roster)."""
        try:
            people = [] if not data else protocol.validate_roster(protocol.decode(data))["names"]
        except protocol.ProtocolError as exc:
            log.warning("club roster on %s not understood: %s", self.roster_topic, exc)
            return
        try:
            kept = save_roster(self.roster_path, people)
        except OSError as exc:
            log.error("club roster %s cannot be written: %s", self.roster_path, exc)
            return
        log.info("club roster of %d names kept in %s", len(kept), self.roster_path)

    def _on_receipt(self, client: Any, userdata: Any, message: Any) -> None:
        """The club's receipt for a result: stored (into the outbox, the broker's
        retained copy cleared) or refused (logged, not sent again until its journal
        changes). Anything else on the topic is logged and ignored."""
        try:
            receipt = protocol.validate_receipt(protocol.decode(bytes(message.payload)))
        except protocol.ProtocolError as exc:
            log.warning("club receipt on %s not understood: %s", message.topic, exc)
            return
        rid = receipt["id"]
        flight = self._pending.pop(rid, None)
        if not receipt["stored"]:
            log.warning("result %s refused by the club: %s", rid, receipt["reason"])
            if flight is not None:
                self._bad[rid] = flight.signature
            return
        if rid in self.outbox:
            return
        log.info("result %s stored by the club", rid)
        try:
            self.outbox.add(rid)
        except OSError as exc:  # kept in memory: not sent again by this process
            log.error("club outbox %s cannot be written (%s): result %s may be sent "
                      "again after a restart", self.outbox.path, exc, rid)
        topic = protocol.result_topic(self.settings.prefix, self.settings.table, rid)
        client.publish(topic, b"", qos=protocol.QOS, retain=True)  # the club has it

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason: Any,
                       properties: Any) -> None:
        if self.connected.is_set():
            log.warning("club broker gone (%s): reconnecting", reason)
        self.connected.clear()

    # ---------------------------------------------------------------- the loop

    def _try_connect(self) -> None:
        """One connection attempt; on failure the next is :attr:`_delay` seconds later
        (doubling up to :attr:`reconnect_max`; back to 1 s once the broker accepts)."""
        s = self.settings
        try:
            self.client.connect(s.broker, s.port, keepalive=KEEPALIVE)
            self._open = True
            self._next_try = time.monotonic() + self._delay  # if refused by CONNACK
        except (OSError, ValueError) as exc:  # refused, unreachable, TLS, a bad name
            log.warning("club broker %s:%d not reached: %s; next try in %.0f s",
                        s.broker, s.port, exc, self._delay)
            self._next_try = time.monotonic() + self._delay
        self._delay = min(self._delay * 2, float(self.reconnect_max))

    def step(self, timeout: float = 0.1) -> None:
        """Connect if due, and let paho send and receive for up to ``timeout`` seconds."""
        if not self._open:
            if time.monotonic() >= self._next_try:
                self._try_connect()
            if not self._open:
                time.sleep(timeout)
                return
        from paho.mqtt.client import MQTT_ERR_SUCCESS

        if self.client.loop(timeout) != MQTT_ERR_SUCCESS:  # the connection is gone
            self._open = False
            self.connected.clear()

    def run(self, stop: threading.Event) -> None:
        """Follow the folder until ``stop`` is set: :meth:`poll` every :attr:`interval`
        seconds, :meth:`step` in between. Never raises for a journal or the broker."""
        next_poll = 0.0
        while not stop.is_set():
            try:
                self.step()
                if time.monotonic() >= next_poll:
                    next_poll = time.monotonic() + self.interval
                    self.poll()
            except Exception:  # a bug: logged, and the next look tried
                log.exception("club publisher: unexpected error (trying again)")
                time.sleep(self.interval)

    def close(self) -> None:
        """Wait up to a second for the receipts of results in flight, record them, and
        disconnect (the DISCONNECT sent). A result still without its receipt is sent
        again at the next start."""
        deadline = time.monotonic() + 1.0
        while self._open and self._pending and time.monotonic() < deadline:
            self.step(0.05)
        if self._open:
            self.client.disconnect()
            for _ in range(10):
                if self.client.loop(0.05) != 0:
                    break
        self._open = False

    def poll(self) -> None:
        """One look at the folder: publish the new results and those whose receipt is
        overdue, and the table's state if it changed (when connected)."""
        newest = self._scan()
        if not self.connected.is_set():
            return
        self._publish_results()
        self._publish_state(newest)
        if self.outbox.backlog and self._backlog_done():
            try:
                self.outbox.backlog_sent()
            except OSError as exc:
                log.error("club outbox %s cannot be written (%s): the games before %s "
                          "will be looked at again after a restart", self.outbox.path, exc,
                          self.outbox.since.isoformat(timespec="seconds"))
            log.info("the games played before %s are all with the club",
                     self.outbox.since.isoformat(timespec="seconds"))

    def _backlog_done(self) -> bool:
        """Whether every finished game last written before the outbox was made has the
        club's receipt (or was refused by it). Called after :meth:`_publish_results`,
        which made the result of every finished journal read."""
        since_ns = int(self.outbox.since.timestamp() * 1e9)
        for path, snap in self._snapshots.items():
            if snap.signature[2] >= since_ns:
                continue
            if snap.loaded is not None and path not in self._results:
                made = self._result(path, snap)
                if made is None:
                    continue
            made_before = self._results.get(path)
            if made_before is None or made_before[0] != snap.signature:
                continue  # not finished, or a result the protocol refuses
            _, rid, older, _data = made_before
            if not self._done(rid, older) and self._bad.get(rid) != snap.signature:
                return False
        return True

    def _scan(self) -> Snapshot | None:
        """Read the journals that changed; the newest readable one's snapshot."""
        from companion.journal.record import journal_files

        try:
            paths = journal_files(self.journal_dir)
        except OSError as exc:
            log.warning("journal folder %s cannot be listed: %s", self.journal_dir, exc)
            return None
        since_ns = int(self.outbox.horizon.timestamp() * 1e9)
        newest: Snapshot | None = None
        for index, path in enumerate(paths):  # newest first
            try:
                st = path.stat()
            except OSError:
                continue
            old = self._snapshots.get(path)
            if old is not None and old.signature == _signature(st) and (
                    old.loaded is not None or not old.readable or newest is not None):
                snap = old
            elif index > 0 and st.st_mtime_ns < since_ns:
                continue  # an old game, neither the live one nor a result to send
            else:
                snap = self._follow(path, st, old)
                if newest is not None and snap.loaded is not None:
                    # not the live game: its result made, the game let go at once, so
                    # that a folder of hundreds (the first start's backlog) is never
                    # all in memory together
                    self._result(path, snap)
                    snap = Snapshot(snap.signature, None, readable=True)
                self._snapshots[path] = snap
            if newest is None and snap.loaded is not None:
                newest = snap
        for gone in set(self._snapshots) - set(paths):
            del self._snapshots[gone]
            self._results.pop(gone, None)
        self._trim(newest)
        return newest

    def _trim(self, newest: Snapshot | None) -> None:
        """Let go of the games no longer needed in memory (over a season, hundreds; on
        the first start, the whole backlog): every read game but the live one. A
        finished game's result is made first and kept as the bytes to send (a few KiB;
        a read game costs about 0.8 MiB), and those too are let go once the club has
        it. The stat signature is kept, so a game is not read again unless it changes."""
        for path, snap in self._snapshots.items():
            if snap.loaded is not None and snap is not newest:
                self._result(path, snap)  # made once, kept in self._results
                self._snapshots[path] = Snapshot(snap.signature, None, readable=True)
            made = self._results.get(path)
            if made is not None and made[3] and self._done(made[1], made[2]):
                self._results[path] = (made[0], made[1], made[2], b"")

    def _follow(self, path: Path, st: os.stat_result, old: Snapshot | None) -> Snapshot:
        """The journal ``path`` read on from where it was last read (its new lines
        applied to the game in memory: :func:`~companion.journal.store.load_more`) when
        it only grew: the same file (inode), not shorter than the lines taken, the
        bytes before them unchanged (the last :data:`OVERLAP` looked at) and read
        intact so far; else read whole again (:meth:`_read`). The live game costs its
        new actions per change, not a replay of the game."""
        loaded = old.loaded if old is not None else None
        if (old is None or loaded is None or loaded.damage is not None
                or loaded.intact is None or old.signature[0] != st.st_ino
                or st.st_size < loaded.intact or not old.tail):
            return self._read(path, st)
        try:
            back = len(old.tail)
            data = read_from(path, loaded.intact - back, st.st_ino)
            if data[:back] != old.tail:
                raise ValueError("rewritten before the lines taken")
            taken = load_more(loaded, data[back:])
        except (OSError, ValueError, RefusedFileError, JournalError) as exc:
            log.debug("journal %s read again from its start: %s", path.name, exc)
            return self._read(path, st)
        return Snapshot(_signature(st), loaded, old.header_line,
                        datetime.fromtimestamp(st.st_mtime_ns / 1e9, UTC), readable=True,
                        tail=data[max(0, back + taken - OVERLAP):back + taken])

    def _read(self, path: Path, st: os.stat_result) -> Snapshot:
        try:
            return read_snapshot(path, st)
        except (JournalError, OSError) as exc:
            log.warning("journal %s skipped: %s", path.name, exc)
        except Exception:  # a rules engine failing on a bad file: logged, skipped
            log.exception("journal %s skipped: cannot be read", path.name)
        return Snapshot(_signature(st), None)

    def _done(self, rid: str, older: str) -> bool:
        """Whether the club has result ``rid`` (or, in an older outbox, ``older``)."""
        return rid in self.outbox or older in self.outbox

    def _result(self, path: Path, snap: Snapshot) -> tuple[str, str, bytes] | None:
        """The result of a finished journal: its id, its older id and its payload,
        made once per change of the journal; ``None``: no result (not finished, or one
        the protocol refuses: logged once)."""
        made = self._results.get(path)
        if made is not None and made[0] == snap.signature:
            return made[1], made[2], made[3]
        loaded = snap.loaded
        if loaded is None or protocol.status(loaded) != "finished":
            return None
        older = protocol.journal_result_id(snap.header_line, loaded.records)
        try:
            payload = protocol.result_payload(loaded, table=self.settings.table,
                                              header_line=snap.header_line,
                                              ended=snap.written_iso)
            data = protocol.encode(payload)
        except protocol.ProtocolError as exc:
            if self._bad.get(older) != snap.signature:
                log.warning("journal %s: result not published: %s", path.name, exc)
                self._bad[older] = snap.signature
            return None
        self._results[path] = (snap.signature, payload["id"], older, data)
        return payload["id"], older, data

    def _publish_results(self) -> None:
        since_ns = int(self.outbox.horizon.timestamp() * 1e9)
        now = time.monotonic()
        for path, snap in sorted(self._snapshots.items()):
            if snap.signature[2] < since_ns:
                continue
            made = self._result(path, snap)
            if made is None:
                continue
            rid, older, data = made
            if self._done(rid, older) or rid in self._pending:
                continue
            if self._bad.get(rid) == snap.signature:
                continue  # refused by the club: not again until the journal changes
            if len(self._pending) >= MAX_IN_FLIGHT:
                break  # the others (oldest first) as receipts come: bounded memory
            topic = protocol.result_topic(self.settings.prefix, self.settings.table, rid)
            self._pending[rid] = InFlight(topic, data, snap.signature, path.name)
        for rid, flight in self._pending.items():
            if flight.due > now:
                continue
            self.client.publish(flight.topic, flight.data, qos=protocol.QOS, retain=True)
            again = flight.due > 0.0
            flight.due = now + flight.delay
            flight.delay = min(flight.delay * 2, RESEND_MAX)
            log.info("result %s of %s %s (%s)", rid, flight.name,
                     "sent again: no receipt yet" if again else "published", flight.topic)

    def _publish_state(self, newest: Snapshot | None) -> None:
        """The table's state, when it changed (see the module doc): the whole state,
        retained, after each connection, for a new game (or another journal), after
        actions were taken back, and when the club asked (:attr:`_full_due`); else a
        delta of the actions added since the last state sent. A journal unchanged since
        then costs nothing here; a change costs its new actions (and a comparison of
        the references of the actions sent)."""
        sent = self._sent
        if newest is None or newest.loaded is None:
            if sent is not None and sent.key is None and not self._full_due:
                return
            self._publish(self.state_topic, b"", retain=True)  # the retained state deleted
            self._sent = SentState(None, (0, 0, 0), [], protocol.GENESIS, "")
            self._full_due = False
            return
        if not self._full_due and sent is not None and sent.signature == newest.signature:
            if sent.behind and time.monotonic() - sent.changed >= self.settle:
                self._full_due = True  # quiet since: the retained copy brought up to date
            else:
                return
        loaded = newest.loaded
        key = (loaded.path.name, loaded.game.id, protocol.canonical(
            [loaded.header.get("options") or {}, loaded.players,
             protocol.seats(loaded.header, protocol.names(loaded))]))
        records = loaded.records
        count = 0 if sent is None else len(sent.records)
        if (self._full_due or sent is None or sent.key != key or len(records) < count
                or records[:count] != sent.records):
            self._publish_full(newest, key)
            return
        assert sent is not None
        status = protocol.status(loaded)
        if len(records) == count and status == sent.status:
            sent.signature = newest.signature
            return
        new = protocol.bare_actions(records[count:])
        try:
            data = protocol.encode(protocol.delta_payload(
                table=self.settings.table, journal=loaded.path.name, after=count,
                prefix_hash=sent.chain, records=new, status=status,
                updated=newest.written_iso))
        except protocol.ProtocolError:  # too many at once: the whole state instead
            self._publish_full(newest, key)
            return
        self._publish(self.delta_topic, data, retain=False)
        self.deltas += 1
        sent.records.extend(records[count:])
        sent.chain = protocol.chain(sent.chain, new)
        sent.status = status
        sent.signature = newest.signature
        sent.behind = True
        sent.changed = time.monotonic()
        log.debug("delta of table %s sent: %d actions after %d, %d bytes",
                  self.settings.table, len(new), count, len(data))

    def _publish_full(self, newest: Snapshot, key: tuple[str, str, bytes]) -> None:
        """The table's whole state, retained (see :meth:`_publish_state`)."""
        loaded = newest.loaded
        assert loaded is not None
        try:
            payload = protocol.state_payload(loaded, table=self.settings.table,
                                             updated=newest.written_iso)
            data = protocol.encode(payload)
        except protocol.ProtocolError as exc:
            bad = f"state:{loaded.path.name}"
            if self._bad.get(bad) != newest.signature:
                log.warning("journal %s: state not published: %s", loaded.path.name, exc)
                self._bad[bad] = newest.signature
            return
        self._publish(self.state_topic, data, retain=True)
        self.full_states += 1
        self._sent = SentState(key, newest.signature, list(loaded.records),
                               protocol.chain(protocol.GENESIS, payload["actions"]),
                               payload["status"])
        self._full_due = False
        log.info("whole state of table %s sent: %d actions, %d bytes",
                 self.settings.table, len(loaded.records), len(data))

    def _publish(self, topic: str, data: bytes, *, retain: bool) -> None:
        self.client.publish(topic, data, qos=protocol.QOS, retain=retain)
        self.state_bytes += len(data)


@dataclass
class SentState:
    """The table's state as last sent in this connection: the game's ``key`` (journal
    name, game, options, players and seats; ``None``: the table was emptied), the
    journal's stat ``signature`` then, the action ``records`` sent (the journal's own
    objects: compared by reference first), their :func:`~companion.club.protocol.chain`
    hash and the game's ``status``."""

    key: tuple[str, str, bytes] | None
    signature: tuple[int, int, int]
    records: list[dict[str, Any]]
    chain: str
    status: str
    behind: bool = False
    """Deltas were sent since the whole state: the broker's retained copy is older."""
    changed: float = 0.0
    """``time.monotonic()`` of the last delta."""


__all__ = ["INTERVAL", "MAX_IN_FLIGHT", "OVERLAP", "RECONNECT_MAX", "RESEND", "RESEND_MAX",
           "SETTLE",
           "ClubSettings", "InFlight", "Outbox", "PublishError", "Publisher", "SentState",
           "Snapshot", "read_from", "read_password", "read_snapshot"]
