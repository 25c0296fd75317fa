"""The club's wire protocol: what a box publishes to the club's MQTT broker (issue 21).

Shared by the box's publisher (``companion publish``, :mod:`companion.club.publish`)
and the club page (``companion club``). MQTT 3.1.1; every payload is a UTF-8 JSON
object with ``"v": 1`` of at most :data:`MAX_PAYLOAD` bytes.

Topics (``prefix``: the config's ``club.topic``, default :data:`DEFAULT_PREFIX`;
``table``: ``club.table``, a slug of ``[a-z0-9-]``, 1 to 32 characters):

``{prefix}/tables/{table}/state`` (retained, QoS 1)
    The table's live game (:func:`state_payload`, checked by :func:`validate_state`).
    A zero-length retained message empties the table (the box has no game).
``{prefix}/tables/{table}/delta`` (QoS 1, not retained)
    The actions the table's game gained since the last state the box sent in this
    connection (:func:`delta_payload`, checked by :func:`validate_delta`): ``"after"``
    names how many actions it follows and ``"prefix"`` the chain hash of those
    (:func:`chain`), so the club sees a delta it cannot apply (one lost, a club that
    restarted, a forged one) and asks for the whole state instead. The whole state is
    sent on each (re)connection, for a new game, when actions were taken back, and
    when the club asks: the traffic grows with the game, not with its square.
``{prefix}/requests/{table}`` (QoS 1, written by the club only)
    The club asking the box for the table's whole state (:func:`request_payload`).
``{prefix}/results/{table}/{result_id}`` (retained, QoS 1)
    One finished game (:func:`result_payload`, checked by :func:`validate_result`).
    :func:`result_id` is the hash of the result's content (its table, game, seats,
    start and actions), so a result published twice is one result, and the club
    computes it again and refuses a result whose id is not its content's. A
    zero-length retained message there is the box clearing a result the club stored.
``{prefix}/receipts/{table}`` (QoS 1, written by the club only)
    The club's word on a result (:func:`receipt_payload`): stored (after its database
    commit) or refused (and why). A box keeps a result in its outbox, and sends it
    again, until its receipt comes (end-to-end acknowledgement: the broker's PUBACK
    only says the broker has it).

``{prefix}/roster`` (retained, QoS 1, written by the club only)
    The club's roster (:func:`roster_payload`, checked by :func:`validate_roster`):
    the names of the people who play, which the box's publisher keeps for the seat
    screen (:mod:`companion.journal.roster`). A seat a person took carries
    ``"person"`` in a state's and a result's ``"seats"``.

``"actions"`` are the journal's action records in force (taken-back ones removed),
as written in its lines but without their ``"events"`` words (:func:`bare_actions`;
the result id is still taken over the records as written): the club rebuilds the position by replaying them
(:func:`companion.journal.store.parse_action`). A result's ``"winner"`` is the winner's
name, or ``null`` when the game ended with more than one winner (a shared win).
Abandoned games have no result: only their state says ``"abandoned"``.

ACL (the broker's): a box's user (its table name) may write only
``{prefix}/tables/{table}/#`` and ``{prefix}/results/{table}/#`` and read only
``{prefix}/receipts/{table}``, ``{prefix}/requests/{table}`` and ``{prefix}/roster``;
the club's user may read ``{prefix}/#`` and write only ``{prefix}/receipts/#``,
``{prefix}/requests/#`` and ``{prefix}/roster``;
anonymous clients nothing.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Final

from companion.errors import CompanionError

if TYPE_CHECKING:
    from companion.journal.store import Loaded
    from companion.rules import State

VERSION: Final = 1
"""The ``"v"`` of every payload."""
MAX_PAYLOAD: Final = 256 * 1024
"""The longest payload written or accepted, in bytes."""
MAX_DEPTH: Final = 16
"""The deepest nesting of arrays and objects a payload may have (a real one: 4)."""
DEFAULT_PREFIX: Final = "board-companion"
"""The default topic prefix (config ``club.topic``)."""
TABLE_PATTERN: Final = re.compile(r"[a-z0-9-]{1,32}")
"""What a table name (config ``club.table``) must match, whole."""
RESULT_ID_PATTERN: Final = re.compile(r"[0-9a-f]{20}")
"""What a result id matches, whole: 20 lower-case hex digits."""
STATUSES: Final = ("playing", "finished", "abandoned")
"""The ``"status"`` values of a state payload."""
KINDS: Final = ("human", "computer")
"""The ``"kind"`` values of a seat."""
OUTBOX: Final = "club-outbox.json"
"""The box's file (in its state folder) of result ids the club confirmed storing."""
ID_FIELDS: Final = ("table", "game", "players", "options", "seats", "started", "actions")
"""The fields of a result payload its id is the hash of (:func:`result_id`)."""
EARLIEST: Final = datetime(2020, 1, 1, tzinfo=UTC)
"""The earliest time a payload may give (a box's clock never set says 1970)."""
LATEST: Final = datetime(9000, 1, 1, tzinfo=UTC)
"""The latest time a payload may give (datetime's range ends at 9999: later than
this and arithmetic on it could overflow)."""
QOS: Final = 1
MAX_PERSON: Final = 200
"""The longest ``"person"`` of a seat accepted, in characters (a box sends at most 32:
:data:`companion.journal.names.MAX_NAME`; the club cleans and cuts what it shows)."""


class ProtocolError(CompanionError, ValueError):
    """A table name, topic or payload that does not follow the protocol; says why."""


# ---------------------------------------------------------------- names and topics


def check_table(table: str) -> str:
    """``table`` when it is a valid table name (see :data:`TABLE_PATTERN`).

    :raises ProtocolError: it is not.
    """
    if not isinstance(table, str) or not TABLE_PATTERN.fullmatch(table):
        raise ProtocolError(f"table name {table!r}: 1 to 32 of a-z, 0-9 and '-' expected")
    return table


def check_prefix(prefix: str) -> str:
    """``prefix`` when it is usable as a topic prefix: not empty, no MQTT wildcard
    (``+``, ``#``), no NUL, not starting or ending with ``/``, at most 200 characters.

    :raises ProtocolError: it is not.
    """
    if (not isinstance(prefix, str) or not prefix or len(prefix) > 200
            or any(c in prefix for c in "+#\0") or prefix.startswith("/")
            or prefix.endswith("/")):
        raise ProtocolError(f"topic prefix {prefix!r}: no '+', '#', leading or trailing '/'")
    return prefix


def state_topic(prefix: str, table: str) -> str:
    """``{prefix}/tables/{table}/state``.

    :raises ProtocolError: a bad prefix or table name.
    """
    return f"{check_prefix(prefix)}/tables/{check_table(table)}/state"


def delta_topic(prefix: str, table: str) -> str:
    """``{prefix}/tables/{table}/delta``: the actions a table's game gained.

    :raises ProtocolError: a bad prefix or table name.
    """
    return f"{check_prefix(prefix)}/tables/{check_table(table)}/delta"


def request_topic(prefix: str, table: str) -> str:
    """``{prefix}/requests/{table}``: where the club asks ``table`` for its whole state.

    :raises ProtocolError: a bad prefix or table name.
    """
    return f"{check_prefix(prefix)}/requests/{check_table(table)}"


def result_topic(prefix: str, table: str, rid: str) -> str:
    """``{prefix}/results/{table}/{rid}``.

    :raises ProtocolError: a bad prefix, table name or result id.
    """
    if not isinstance(rid, str) or not RESULT_ID_PATTERN.fullmatch(rid):
        raise ProtocolError(f"result id {rid!r}: 20 hex digits expected")
    return f"{check_prefix(prefix)}/results/{check_table(table)}/{rid}"


def receipt_topic(prefix: str, table: str) -> str:
    """``{prefix}/receipts/{table}``: where the club answers ``table``'s results.

    :raises ProtocolError: a bad prefix or table name.
    """
    return f"{check_prefix(prefix)}/receipts/{check_table(table)}"


def roster_topic(prefix: str) -> str:
    """``{prefix}/roster``: the club's roster, retained.

    :raises ProtocolError: a bad prefix.
    """
    return f"{check_prefix(prefix)}/roster"


def state_filter(prefix: str) -> str:
    """The subscription to every table's state: ``{prefix}/tables/+/state``."""
    return f"{check_prefix(prefix)}/tables/+/state"


def delta_filter(prefix: str) -> str:
    """The subscription to every table's deltas: ``{prefix}/tables/+/delta``."""
    return f"{check_prefix(prefix)}/tables/+/delta"


def results_filter(prefix: str) -> str:
    """The subscription to every table's results: ``{prefix}/results/+/+``."""
    return f"{check_prefix(prefix)}/results/+/+"


def parse_topic(prefix: str, topic: str) -> tuple[str, str, str | None]:
    """What a topic under ``prefix`` is: ``("state", table, None)``, ``("delta", table,
    None)`` or ``("result", table, result_id)``.

    :raises ProtocolError: any other topic.
    """
    head = check_prefix(prefix) + "/"
    if not topic.startswith(head):
        raise ProtocolError(f"topic {topic!r} is not under {prefix!r}")
    parts = topic[len(head):].split("/")
    if len(parts) == 3 and parts[0] == "tables" and parts[2] == "state":
        return "state", check_table(parts[1]), None
    if len(parts) == 3 and parts[0] == "tables" and parts[2] == "delta":
        return "delta", check_table(parts[1]), None
    if len(parts) == 3 and parts[0] == "results":
        if not RESULT_ID_PATTERN.fullmatch(parts[2]):
            raise ProtocolError(f"topic {topic!r}: result id of 20 hex digits expected")
        return "result", check_table(parts[1]), parts[2]
    raise ProtocolError(f"topic {topic!r} is neither a table's state nor a result")


# ---------------------------------------------------------------- payloads


def canonical(value: Any) -> bytes:
    """Canonical JSON of ``value`` (sorted keys, no spaces, UTF-8): what the result id
    hashes.

    :raises ValueError: for a non-finite number.
    """
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


def result_id(content: Mapping[str, Any]) -> str:
    """The id of a result: the first 20 hex digits of SHA-256 over the canonical JSON
    (:func:`canonical`) of its :data:`ID_FIELDS` (a missing field counts as ``null``).
    The same game gives the same id, and the club computes it again from what it
    received: a box cannot send one game under several ids, or claim the id of another
    table's game (the table is part of it, and the ACL proves the table)."""
    digest = hashlib.sha256(canonical({k: content.get(k) for k in ID_FIELDS}))
    return digest.hexdigest()[:20]


def journal_result_id(header_line: bytes, actions: Sequence[Mapping[str, Any]]) -> str:
    """The id an older box (before :func:`result_id` hashed the content) gave a result:
    SHA-256 over the journal's header line, ``b"\\n"`` and the canonical JSON of its
    action records, 20 hex digits. A box's outbox may hold such ids: what it sent then is
    not sent again."""
    digest = hashlib.sha256(header_line.rstrip(b"\n") + b"\n" + canonical(list(actions)))
    return digest.hexdigest()[:20]


def now_iso() -> str:
    """The time now, UTC, ISO 8601 to the second (``2026-11-26T03:00:00+00:00``)."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def names(loaded: Loaded) -> list[str]:
    """The players' names of a journal read back, in seat order."""
    return [loaded.game.player_name(i, loaded.players) for i in range(loaded.players)]


def _by_seat(raw: object) -> dict[int, str]:
    """A journal header's ``{"1": value}`` by player index (other keys left out)."""
    if not isinstance(raw, dict):
        return {}
    return {int(p): str(v) for p, v in raw.items()
            if isinstance(p, str) and p.isascii() and p.isdigit() and len(p) < 4}


def seats(header: Mapping[str, Any], player_names: Sequence[str]) -> list[dict[str, Any]]:
    """Each seat as ``{"name", "kind", "level"}``: ``kind`` ``"computer"`` with its
    ``level`` for a seat the journal header's ``"seats"`` names, else ``"human"`` and
    ``None``; a human seat the header's ``"people"`` names (a person of the club's
    roster) also has ``"person"``, the name cleaned
    (:func:`companion.journal.names.clean_name`). A seat without a person has no
    ``"person"`` key, so the result ids of unnamed games are what they were."""
    from companion.journal.names import clean_name

    levels = _by_seat(header.get("seats"))
    people = {p: clean_name(n) for p, n in _by_seat(header.get("people")).items()}
    out: list[dict[str, Any]] = []
    for i, name in enumerate(player_names):
        seat: dict[str, Any] = {"name": name, "kind": "computer" if i in levels else "human",
                                "level": levels.get(i)}
        if i not in levels and people.get(i):
            seat["person"] = people[i]
        out.append(seat)
    return out


def status(loaded: Loaded) -> str:
    """``"finished"`` (the rules name a winner), ``"abandoned"`` (an end record without
    a winner) or ``"playing"``."""
    if loaded.state.outcome is not None:
        return "finished"
    return "abandoned" if loaded.ended else "playing"


def winner(loaded: Loaded) -> str | None:
    """The winner's name, or ``None`` for a game not won or won by more than one."""
    outcome = loaded.state.outcome
    if outcome is None or len(outcome.winners) != 1:
        return None
    return loaded.game.player_name(outcome.winners[0], loaded.players)


def last_event(state: State, records: Sequence[Mapping[str, Any]]) -> str:
    """The last event in words (:mod:`companion.ui.events`, with the names of ``state``'s
    players: the position the journal replays to): the last action record's last event;
    a journal written before events were data has its sentence there, taken as it is;
    ``""`` if none (or it cannot be read)."""
    from companion.rules import Event
    from companion.ui.events import words_for

    for record in reversed(records):
        events = record.get("events")
        if isinstance(events, list) and events:
            last = events[-1]
            if isinstance(last, str):
                return last
            try:
                return words_for(state)(Event.from_json(last))
            except ValueError:
                return ""
    return ""


def bare_actions(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The journal's action records without their ``events`` words: the club replays
    the actions and has the events from its own engine. Without them a 1,000-action
    Cretan Labyrinth game (its events are long sentences) fits in :data:`MAX_PAYLOAD`,
    and the states a table sends over a game are a few times smaller."""
    return [{k: v for k, v in r.items() if k != "events"} for r in records]


def state_payload(loaded: Loaded, *, table: str, updated: str | None = None) -> dict[str, Any]:
    """The live-state payload of a journal read back (see the module doc).

    ``updated``: ISO 8601 UTC time (default: now).

    :raises ProtocolError: a bad table name, or a payload over :data:`MAX_PAYLOAD`.
    """
    who = names(loaded)
    now = status(loaded)
    payload = {
        "v": VERSION, "table": check_table(table), "game": loaded.game.id,
        "players": loaded.players, "options": dict(loaded.header.get("options") or {}),
        "names": who, "seats": seats(loaded.header, who),
        "actions": bare_actions(loaded.records), "status": now,
        "turn": loaded.state.player_to_act_name if now == "playing" else None,
        "last": last_event(loaded.state, loaded.records), "journal": loaded.path.name,
        "updated": updated or now_iso(),
    }
    validate_state(payload)
    return payload


def result_payload(
    loaded: Loaded, *, table: str, header_line: bytes, ended: str | None = None,
) -> dict[str, Any]:
    """The result payload of a finished journal read back (see the module doc).

    ``header_line``: the journal's first line as in the file (kept for the callers
    of older versions; the id is :func:`result_id` of the content); ``ended``: ISO 8601
    UTC end time (default: now), also the start when the journal's header names none.

    :raises ProtocolError: the game is not finished, a bad table name, or a payload
        over :data:`MAX_PAYLOAD`.
    """
    if status(loaded) != "finished":
        raise ProtocolError(f"{loaded.path.name}: no result: the game is {status(loaded)}")
    started = loaded.header.get("started")
    end = ended or now_iso()
    payload: dict[str, Any] = {
        "v": VERSION, "table": check_table(table), "game": loaded.game.id,
        "players": loaded.players, "options": dict(loaded.header.get("options") or {}),
        "seats": seats(loaded.header, names(loaded)), "winner": winner(loaded),
        "moves": len(loaded.records),
        "started": started if isinstance(started, str) else end,
        "ended": end, "actions": bare_actions(loaded.records),
    }
    payload["id"] = result_id(payload)
    validate_result(payload)
    return payload


def encode(payload: Mapping[str, Any]) -> bytes:
    """The bytes to publish: compact UTF-8 JSON.

    :raises ProtocolError: longer than :data:`MAX_PAYLOAD`, or not encodable as JSON.
    """
    try:
        data = json.dumps(payload, separators=(",", ":"), ensure_ascii=False,
                          allow_nan=False).encode("utf-8")
    except (TypeError, ValueError) as exc:
        raise ProtocolError(f"payload not JSON: {exc}") from None
    if len(data) > MAX_PAYLOAD:
        raise ProtocolError(f"payload of {len(data)} bytes, over {MAX_PAYLOAD}")
    return data


def decode(data: bytes) -> dict[str, Any]:
    """The JSON object of a received payload (size, UTF-8 and depth checked first).

    :raises ProtocolError: over :data:`MAX_PAYLOAD`, not UTF-8, not JSON (``NaN``,
        nesting over :data:`MAX_DEPTH` refused), or not an object.
    """
    from companion.rules.datafile import parse_json

    if len(data) > MAX_PAYLOAD:
        raise ProtocolError(f"payload of {len(data)} bytes, over {MAX_PAYLOAD}")
    try:
        obj = parse_json(bytes(data).decode("utf-8"), max_depth=MAX_DEPTH)
    except (UnicodeDecodeError, ValueError) as exc:
        raise ProtocolError(f"payload not JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise ProtocolError("payload is not a JSON object")
    return obj


# ---------------------------------------------------------------- validation


def _need(obj: Mapping[str, Any], key: str, kinds: type | tuple[type, ...],
          *, none: bool = False) -> Any:
    if key not in obj:
        raise ProtocolError(f"payload lacks {key!r}")
    value = obj[key]
    if value is None and none:
        return None
    if isinstance(value, bool) and bool not in (kinds if isinstance(kinds, tuple) else (kinds,)):
        raise ProtocolError(f"payload {key!r}: {type(value).__name__} not expected")
    if not isinstance(value, kinds):
        raise ProtocolError(f"payload {key!r}: {type(value).__name__} not expected")
    return value


def parse_time(text: str) -> datetime:
    """An ISO 8601 time of a payload, as an aware datetime (no offset: UTC).

    :raises ProtocolError: not ISO 8601, or outside :data:`EARLIEST` to :data:`LATEST`.
    """
    try:
        when = datetime.fromisoformat(text)
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        inside = EARLIEST <= when <= LATEST
    except (ValueError, OverflowError):
        raise ProtocolError(f"{text[:40]!r} is not an ISO 8601 time") from None
    if not inside:
        raise ProtocolError(f"{text[:40]!r} is not between {EARLIEST.year} and {LATEST.year}")
    return when


def _time(obj: Mapping[str, Any], key: str) -> None:
    text = _need(obj, key, str)
    try:
        parse_time(text)
    except ProtocolError as exc:
        raise ProtocolError(f"payload {key!r}: {exc}") from None


def _common(obj: object) -> Mapping[str, Any]:
    if not isinstance(obj, Mapping):
        raise ProtocolError("payload is not a JSON object")
    if obj.get("v") != VERSION or isinstance(obj.get("v"), bool):
        raise ProtocolError(f"payload version {obj.get('v')!r}, expected {VERSION}")
    encode(obj)  # the size and JSON-ness
    check_table(_need(obj, "table", str))
    _need(obj, "game", str)
    players = _need(obj, "players", int)
    if not 1 <= players <= 16:
        raise ProtocolError(f"payload 'players': {players} out of 1..16")
    _need(obj, "options", dict)
    for seat in _need(obj, "seats", list):
        if not isinstance(seat, dict):
            raise ProtocolError("payload 'seats': an entry that is not an object")
        _need(seat, "name", str)
        if seat.get("kind") not in KINDS:
            raise ProtocolError(f"payload 'seats': kind {seat.get('kind')!r}")
        _need(seat, "level", str, none=True)
        if "person" in seat and (not isinstance(seat["person"], str)
                                 or len(seat["person"]) > MAX_PERSON):
            raise ProtocolError(f"payload 'seats': a person that is not text of at most "
                                f"{MAX_PERSON} characters")
    if len(obj["seats"]) != players:
        raise ProtocolError("payload 'seats': not one per player")
    for record in _need(obj, "actions", list):
        if not isinstance(record, dict):
            raise ProtocolError("payload 'actions': an entry that is not an object")
    return obj


def validate_state(obj: object) -> dict[str, Any]:
    """``obj`` when it has the shape and size of a state payload (the rules replay is
    the club's to check).

    :raises ProtocolError: it does not; the message says what is wrong.
    """
    payload = _common(obj)
    player_names = _need(payload, "names", list)
    if len(player_names) != payload["players"] or not all(
            isinstance(n, str) for n in player_names):
        raise ProtocolError("payload 'names': not one name per player")
    if payload.get("status") not in STATUSES:
        raise ProtocolError(f"payload 'status': {payload.get('status')!r}")
    _need(payload, "turn", str, none=True)
    _need(payload, "last", str)
    _need(payload, "journal", str)
    _time(payload, "updated")
    return dict(payload)


def validate_result(obj: object) -> dict[str, Any]:
    """``obj`` when it has the shape and size of a result payload (that the actions
    replay to a game won by ``winner`` is the club's to check).

    :raises ProtocolError: it does not; the message says what is wrong.
    """
    payload = _common(obj)
    rid = _need(payload, "id", str)
    if not RESULT_ID_PATTERN.fullmatch(rid):
        raise ProtocolError(f"payload 'id': {rid[:40]!r} is not 20 hex digits")
    _need(payload, "winner", str, none=True)
    moves = _need(payload, "moves", int)
    if moves != len(payload["actions"]):
        raise ProtocolError(f"payload 'moves': {moves}, but {len(payload['actions'])} actions")
    _time(payload, "started")
    _time(payload, "ended")
    return dict(payload)


GENESIS: Final = "0" * 64
"""The chain hash of no actions (:func:`chain`)."""
HASH_PATTERN: Final = re.compile(r"[0-9a-f]{64}")


def chain(start: str, records: Sequence[Mapping[str, Any]]) -> str:
    """The chain hash of ``records`` (bare action records, :func:`bare_actions`) after
    the actions whose chain hash is ``start`` (:data:`GENESIS`: from the first):
    ``h = SHA-256(h_before as 32 bytes + canonical(record))``, 64 hex digits. Each side
    extends it by the new actions only (no second pass over the game), and one differing
    action anywhere before makes another hash.

    :raises ValueError: ``start`` is not 64 hex digits, or a record is not JSON.
    """
    digest = bytes.fromhex(start)
    for record in records:
        digest = hashlib.sha256(digest + canonical(record)).digest()
    return digest.hex()


def delta_payload(*, table: str, journal: str, after: int, prefix_hash: str,
                  records: Sequence[Mapping[str, Any]], status: str,
                  updated: str | None = None) -> dict[str, Any]:
    """A delta (see the module doc): ``{"v", "table", "journal", "after", "prefix",
    "actions", "status", "updated"}``: the ``records`` (bare action records) that follow
    the first ``after`` actions of the game of ``journal``, whose chain hash is
    ``prefix_hash``; ``status`` the game's after them (:func:`status`).

    :raises ProtocolError: a bad table name, or a payload over :data:`MAX_PAYLOAD`.
    """
    payload = {"v": VERSION, "table": check_table(table), "journal": journal,
               "after": after, "prefix": prefix_hash, "actions": list(records),
               "status": status, "updated": updated or now_iso()}
    return validate_delta(payload)


MAX_DELTA_ACTIONS: Final = 1000
"""The most actions one delta carries (a box sends one or a few)."""


def validate_delta(obj: object) -> dict[str, Any]:
    """``obj`` when it has the shape and size of a delta (:func:`delta_payload`); that
    it follows the club's actions, and that they replay, is the club's to check.

    :raises ProtocolError: it does not; the message says what is wrong.
    """
    if not isinstance(obj, Mapping):
        raise ProtocolError("payload is not a JSON object")
    if obj.get("v") != VERSION or isinstance(obj.get("v"), bool):
        raise ProtocolError(f"payload version {obj.get('v')!r}, expected {VERSION}")
    encode(obj)
    check_table(_need(obj, "table", str))
    _need(obj, "journal", str)
    after = _need(obj, "after", int)
    if after < 0:
        raise ProtocolError(f"payload 'after': {after} is negative")
    if not HASH_PATTERN.fullmatch(_need(obj, "prefix", str)):
        raise ProtocolError("payload 'prefix': 64 hex digits expected")
    records = _need(obj, "actions", list)
    if len(records) > MAX_DELTA_ACTIONS or not all(isinstance(r, dict) for r in records):
        raise ProtocolError(f"payload 'actions': at most {MAX_DELTA_ACTIONS} objects expected")
    if obj.get("status") not in STATUSES:
        raise ProtocolError(f"payload 'status': {obj.get('status')!r}")
    _time(obj, "updated")
    return dict(obj)


def request_payload(reason: str = "") -> dict[str, Any]:
    """The club asking a box for its table's whole state: ``{"v", "full", "reason"}``
    (``reason``: why, for the box's log, at most 200 characters)."""
    return {"v": VERSION, "full": True, "reason": reason[:200]}


def validate_request(obj: object) -> dict[str, Any]:
    """``obj`` when it is a request (:func:`request_payload`).

    :raises ProtocolError: it is not.
    """
    if not isinstance(obj, Mapping) or obj.get("v") != VERSION or isinstance(obj.get("v"), bool):
        raise ProtocolError("not a request of this version")
    if obj.get("full") is not True:
        raise ProtocolError("a request for nothing this box sends")
    reason = obj.get("reason", "")
    if not isinstance(reason, str):
        raise ProtocolError("request 'reason': text expected")
    return {"v": VERSION, "full": True, "reason": reason[:200]}


def receipt_payload(rid: str, *, stored: bool, reason: str = "") -> dict[str, Any]:
    """The club's receipt for result ``rid``: ``{"v", "id", "stored", "reason"}``
    (``stored`` false: refused, ``reason`` says why, at most 300 characters)."""
    return {"v": VERSION, "id": rid, "stored": stored, "reason": reason[:300]}


MAX_PEOPLE: Final = 500
"""The most names of a roster payload (:func:`validate_roster`)."""


def roster_payload(people: Sequence[str], *, updated: str | None = None) -> dict[str, Any]:
    """The club's roster: ``{"v", "names", "updated"}`` (``names`` in the club's
    order; ``updated``: ISO 8601 UTC, default now).

    :raises ProtocolError: more than :data:`MAX_PEOPLE` names, or a payload over
        :data:`MAX_PAYLOAD`.
    """
    payload = {"v": VERSION, "names": list(people), "updated": updated or now_iso()}
    return validate_roster(payload)


def validate_roster(obj: object) -> dict[str, Any]:
    """``obj`` when it is a roster (see :func:`roster_payload`): names of at most
    :data:`MAX_PERSON` characters each (to be cleaned by the reader), at most
    :data:`MAX_PEOPLE` of them.

    :raises ProtocolError: it is not.
    """
    if not isinstance(obj, Mapping) or obj.get("v") != VERSION or isinstance(obj.get("v"), bool):
        raise ProtocolError("not a roster of this version")
    encode(obj)
    people = _need(obj, "names", list)
    if len(people) > MAX_PEOPLE:
        raise ProtocolError(f"roster of {len(people)} names, over {MAX_PEOPLE}")
    if not all(isinstance(n, str) and len(n) <= MAX_PERSON for n in people):
        raise ProtocolError(f"roster 'names': each text of at most {MAX_PERSON} characters")
    _time(obj, "updated")
    return dict(obj)


def validate_receipt(obj: object) -> dict[str, Any]:
    """``obj`` when it is a receipt (see :func:`receipt_payload`).

    :raises ProtocolError: it is not.
    """
    if not isinstance(obj, Mapping) or obj.get("v") != VERSION or isinstance(obj.get("v"), bool):
        raise ProtocolError("not a receipt of this version")
    rid = _need(obj, "id", str)
    if not RESULT_ID_PATTERN.fullmatch(rid):
        raise ProtocolError(f"receipt 'id': {rid[:40]!r} is not 20 hex digits")
    _need(obj, "stored", bool)
    _need(obj, "reason", str)
    return dict(obj)


__all__ = [
    "DEFAULT_PREFIX",
    "EARLIEST",
    "GENESIS",
    "HASH_PATTERN",
    "ID_FIELDS",
    "KINDS",
    "LATEST",
    "MAX_DELTA_ACTIONS",
    "MAX_DEPTH",
    "MAX_PAYLOAD",
    "MAX_PEOPLE",
    "MAX_PERSON",
    "OUTBOX",
    "QOS",
    "RESULT_ID_PATTERN",
    "STATUSES",
    "TABLE_PATTERN",
    "VERSION",
    "ProtocolError",
    "canonical",
    "chain",
    "check_prefix",
    "check_table",
    "decode",
    "delta_filter",
    "delta_payload",
    "delta_topic",
    "encode",
    "journal_result_id",
    "last_event",
    "names",
    "now_iso",
    "parse_time",
    "parse_topic",
    "receipt_payload",
    "receipt_topic",
    "request_payload",
    "request_topic",
    "result_id",
    "result_payload",
    "result_topic",
    "results_filter",
    "roster_payload",
    "roster_topic",
    "seats",
    "state_filter",
    "state_payload",
    "state_topic",
    "status",
    "validate_delta",
    "validate_receipt",
    "validate_request",
    "validate_result",
    "validate_roster",
    "validate_state",
    "winner",
]
