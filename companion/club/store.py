"""The club's memory: an SQLite file (stdlib :mod:`sqlite3`, WAL) of every result and of
each table's latest state, and the ratings computed from the results.

Two tables:

``results``
    One row per finished game, ``id`` (the result id) the PRIMARY KEY: a result
    received twice (a box republishing after a power cut, the broker resending a
    retained message) is stored once, the first copy kept. A winning move taken back
    and the game played on to another end gives a second result of the same game
    (the same table, game, player count and start): of such results the one with the
    most moves stands (at equal moves, the one received last) and the others are
    marked ``superseded_by`` it: they are kept, but neither shown nor rated.
``tables``
    One row per table: its latest state payload (``NULL``: the box has no game).
``roster``
    The club's roster: one row per person (``companion club roster add``), the name
    cleaned (:func:`~companion.journal.names.clean_name`), unique ignoring case.

Ratings (:meth:`ClubStore.ratings`) come from openskill's Plackett-Luce model
(multiplayer), one rating per player per game, recomputed from nothing in result order
(the ``ended`` time in UTC, then the id) whenever a result was added: the same results
give the same ratings whatever order they arrived in. A player is a seat's name for a
human seat and ``"Computer (level)"`` for a computer seat; a game in which two seats
have the same rating name (the computer against itself at one level) is not rated.

The store is used from the MQTT thread (writes) and the page's threads (reads): every
call takes one lock; the connection is shared (``check_same_thread=False``).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from openskill.models import PlackettLuce

from companion.errors import CompanionError
from companion.journal.names import MAX_NAME, clean_name, shown_name

MAX_PEOPLE: Final = 500
"""The most names the roster keeps (the roster message's limit,
:data:`companion.club.protocol.MAX_PEOPLE`)."""
Z: Final = 3.0
"""The ordinal shown is ``mu - Z * sigma``: a conservative skill (99.7% one-sided)."""

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS results (
    id TEXT PRIMARY KEY,
    table_name TEXT NOT NULL,
    game TEXT NOT NULL,
    ended_utc TEXT NOT NULL,
    payload TEXT NOT NULL,
    received REAL NOT NULL,
    game_key TEXT,
    moves INTEGER NOT NULL DEFAULT 0,
    superseded_by TEXT
);
CREATE INDEX IF NOT EXISTS results_order ON results (ended_utc, id);
CREATE TABLE IF NOT EXISTS tables (
    name TEXT PRIMARY KEY,
    payload TEXT,
    received REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS roster (
    folded TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    added REAL NOT NULL
);
"""


class StoreError(CompanionError):
    """The club's database cannot be opened or written (names the file and the reason)."""


def utc(text: str) -> str:
    """An ISO 8601 time as UTC ISO 8601 (a time without an offset is taken as UTC), so
    that results sort by the instant they ended.

    :raises ValueError: ``text`` is no ISO 8601 time.
    """
    when = datetime.fromisoformat(text)
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone(UTC).isoformat(timespec="microseconds")


def game_key(payload: Mapping[str, Any]) -> str:
    """What makes two results the same game: its table, game, player count and start
    (a journal's header gives its start to the second)."""
    return json.dumps([payload.get("table"), payload.get("game"), payload.get("players"),
                       payload.get("started")], ensure_ascii=False)


def person_name(seat: Mapping[str, Any]) -> str:
    """The person who sat at a human seat (its ``"person"``, cleaned by
    :func:`~companion.journal.names.clean_name`); ``""`` for a seat no one named, or
    the computer's."""
    person = seat.get("person")
    if seat.get("kind") == "computer" or not isinstance(person, str):
        return ""
    return clean_name(person)


def rating_name(seat: Mapping[str, Any]) -> str:
    """The name a seat is rated under: the person's (:func:`person_name`) for a seat a
    person of the roster took, else its name (the game's: ``Black``) for a human, and
    ``"Computer (level)"`` for the computer; a name from the network made safe text by
    :func:`~companion.journal.names.shown_name`."""
    if seat.get("kind") == "computer":
        return f"Computer ({shown_name(seat.get('level') or '?')})"
    return person_name(seat) or shown_name(seat.get("name", "?"))


@dataclass(frozen=True)
class Rating:
    """One player's rating in one game: ``mu`` (the estimated skill, 25 at the start),
    ``sigma`` (its uncertainty, one standard deviation, 8.33 at the start), ``games``
    rated and ``wins``; :attr:`ordinal` is ``mu - 3 sigma``."""

    game: str
    player: str
    mu: float
    sigma: float
    games: int
    wins: int

    @property
    def ordinal(self) -> float:
        """The conservative skill, ``mu - 3 * sigma`` (what the table is sorted by)."""
        return self.mu - Z * self.sigma


@dataclass(frozen=True)
class TableState:
    """A table's latest state: ``table`` name, its ``payload`` (``None``: no game) and
    when it was received (Unix seconds)."""

    table: str
    payload: dict[str, Any] | None
    received: float


class ClubStore:
    """The SQLite file at ``path`` (``":memory:"`` for tests), created when missing.

    :raises StoreError: the file cannot be opened or is not the club's database.
    """

    def __init__(self, path: Path | str) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            # FULL: a commit is on the disk when execute returns, so the receipt the club
            # then sends (the box forgets the result) survives a power cut of the club
            # (NORMAL may lose the last commits in WAL mode).
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_SCHEMA)
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(results)")}
            for column, kind in (("game_key", "TEXT"), ("moves", "INTEGER NOT NULL DEFAULT 0"),
                                 ("superseded_by", "TEXT")):
                if column not in columns:  # a database of an older version
                    self._db.execute(f"ALTER TABLE results ADD COLUMN {column} {kind}")
            self._db.execute("CREATE INDEX IF NOT EXISTS results_game ON results (game_key)")
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot open the club's database: {exc}") from None
        self._ratings: dict[str, list[Rating]] | None = None

    def close(self) -> None:
        """Close the database; safe twice."""
        with self._lock:
            self._db.close()

    def _write(self, sql: str, args: Sequence[object]) -> int:
        try:
            with self._lock:
                return self._db.execute(sql, args).rowcount
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot write: {exc}") from None

    def add_result(self, payload: Mapping[str, Any], *, received: float = 0.0) -> bool:
        """Keep a checked result payload; ``True`` when it is new, ``False`` when a
        result with its id is stored already (the first copy is kept).

        :raises StoreError: the database cannot be written.
        :raises ValueError: the payload's ``ended`` is no ISO 8601 time.
        """
        key = game_key(payload)
        row = (payload["id"], payload["table"], payload["game"], utc(payload["ended"]),
               json.dumps(payload, ensure_ascii=False), received, key,
               int(payload.get("moves") or 0))
        try:
            with self._lock:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    added = self._db.execute(
                        "INSERT OR IGNORE INTO results (id, table_name, game, ended_utc, "
                        "payload, received, game_key, moves) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        row).rowcount == 1
                    if added:
                        self._supersede(key)
                    self._db.execute("COMMIT")
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot write: {exc}") from None
        if added:
            self._ratings = None
        return added

    def _supersede(self, key: str) -> None:
        """Of the results of one game (``key``: :func:`game_key`), the one with the most
        moves (then the last received) stands; the others point to it. In the caller's
        transaction, with the lock held."""
        rows = self._db.execute("SELECT id FROM results WHERE game_key = ? "
                                "ORDER BY moves DESC, received DESC, rowid DESC", (key,)).fetchall()
        if len(rows) < 2:
            return
        standing = rows[0][0]
        self._db.execute("UPDATE results SET superseded_by = CASE WHEN id = ? THEN NULL ELSE ? END "
                         "WHERE game_key = ?", (standing, standing, key))

    def set_table(self, table: str, payload: Mapping[str, Any] | None, *,
                  received: float = 0.0, text: str | None = None) -> None:
        """Keep ``table``'s latest state (``None``: the table has no game now).
        ``text``: the payload's JSON as received, when the caller has it (not encoded
        again).

        :raises StoreError: the database cannot be written.
        """
        if text is None and payload is not None:
            text = json.dumps(payload, ensure_ascii=False)
        self._write("INSERT INTO tables (name, payload, received) VALUES (?, ?, ?) "
                    "ON CONFLICT (name) DO UPDATE SET payload = excluded.payload, "
                    "received = excluded.received", (table, text, received))

    def roster(self) -> list[str]:
        """The roster's names, in the order they were added."""
        return [r[0] for r in self._read("SELECT name FROM roster ORDER BY added, rowid")]

    def add_person(self, name: str, *, added: float | None = None) -> str:
        """Put ``name`` on the roster (cleaned: :func:`~companion.journal.names.
        clean_name`); the name kept, ``""`` when it was there already (ignoring case).

        :raises ValueError: nothing is left of ``name`` once cleaned, or it is longer
            than :data:`~companion.journal.names.MAX_NAME` characters (it would be cut),
            or the roster has :data:`MAX_PEOPLE` names.
        :raises StoreError: the database cannot be written.
        """
        import time

        cleaned = clean_name(name, limit=10 * MAX_NAME)
        if not cleaned:
            raise ValueError(f"{name!r}: no name is left once control characters are removed")
        if len(cleaned) > MAX_NAME:
            raise ValueError(f"{cleaned!r}: {len(cleaned)} characters, at most {MAX_NAME}")
        if len(self.roster()) >= MAX_PEOPLE:
            raise ValueError(f"the roster has {MAX_PEOPLE} names already")
        added_at = time.time() if added is None else added
        done = self._write("INSERT OR IGNORE INTO roster (folded, name, added) VALUES (?, ?, ?)",
                           (cleaned.casefold(), cleaned, added_at))
        return cleaned if done == 1 else ""

    def remove_person(self, name: str) -> str:
        """Take ``name`` (ignoring case, cleaned as :meth:`add_person` does) off the
        roster; the name removed, ``""`` when it was not there. Results and ratings
        under the name stay.

        :raises StoreError: the database cannot be written.
        """
        folded = clean_name(name, limit=10 * MAX_NAME).casefold()
        found = self._read("SELECT name FROM roster WHERE folded = ?", (folded,))
        if not found:
            return ""
        self._write("DELETE FROM roster WHERE folded = ?", (folded,))
        return str(found[0][0])

    def _read(self, sql: str, args: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    def results(self, limit: int | None = None) -> list[dict[str, Any]]:
        """The stored result payloads, the latest ended first (``limit``: at most so many)."""
        rows = self._read("SELECT payload FROM results WHERE superseded_by IS NULL "
                          "ORDER BY ended_utc DESC, id DESC"
                          + (" LIMIT ?" if limit is not None else ""),
                          (limit,) if limit is not None else ())
        return [json.loads(r[0]) for r in rows]

    def has_result(self, rid: str) -> bool:
        """Whether a result with the id ``rid`` is stored."""
        return bool(self._read("SELECT 1 FROM results WHERE id = ?", (rid,)))

    def superseded(self) -> dict[str, str]:
        """Each superseded result's id and the id of the result of its game that stands."""
        return dict(self._read("SELECT id, superseded_by FROM results "
                               "WHERE superseded_by IS NOT NULL"))

    def result_ids(self) -> list[str]:
        """Every stored result id (superseded ones too), in result order."""
        return [r[0] for r in self._read("SELECT id FROM results ORDER BY ended_utc, id")]

    def count(self) -> int:
        """How many results stand (superseded ones not counted)."""
        return int(self._read("SELECT COUNT(*) FROM results WHERE superseded_by IS NULL")[0][0])

    def tables(self) -> list[TableState]:
        """Every table known, by name, with its latest state."""
        return [TableState(name, None if text is None else json.loads(text), received)
                for name, text, received in
                self._read("SELECT name, payload, received FROM tables ORDER BY name")]

    def ratings(self) -> dict[str, list[Rating]]:
        """Per game id, every rated player's :class:`Rating`, best ordinal first (ties by
        name). Computed again only after a result was added."""
        cached = self._ratings
        if cached is not None:
            return cached
        rows = self._read("SELECT payload FROM results WHERE superseded_by IS NULL "
                          "ORDER BY ended_utc, id")
        computed = compute_ratings(json.loads(r[0]) for r in rows)
        self._ratings = computed
        return computed


def compute_ratings(results: Any) -> dict[str, list[Rating]]:
    """Ratings from result payloads taken in the order given (see the module): each
    game's winners ranked first, every other seat second. ``winner`` ``null`` (a shared
    win) ranks every seat equal."""
    model = PlackettLuce()
    current: dict[tuple[str, str], Any] = {}
    played: dict[tuple[str, str], list[int]] = {}
    for result in results:
        game = result["game"]
        names = [rating_name(s) for s in result["seats"]]
        if len(set(names)) != len(names) or len(names) < 2:
            continue
        teams = [[current.get((game, n)) or model.rating(name=n)] for n in names]
        winner = result.get("winner")
        seat_names = [s.get("name") for s in result["seats"]]
        ranks = [1.0 if winner is None or name == winner else 2.0 for name in seat_names]
        rated = model.rate(teams, ranks=ranks)
        for n, team, rank in zip(names, rated, ranks, strict=True):
            current[(game, n)] = team[0]
            tally = played.setdefault((game, n), [0, 0])
            tally[0] += 1
            tally[1] += 1 if rank == 1.0 and winner is not None else 0
    out: dict[str, list[Rating]] = {}
    for (game, name), r in current.items():
        games, wins = played[(game, name)]
        out.setdefault(game, []).append(Rating(game, name, float(r.mu), float(r.sigma), games, wins))
    for ratings in out.values():
        ratings.sort(key=lambda r: (-r.ordinal, r.player))
    return dict(sorted(out.items()))


__all__ = ["MAX_PEOPLE", "ClubStore", "Rating", "StoreError", "TableState", "compute_ratings", "game_key",
           "person_name", "rating_name",
           "utc"]
