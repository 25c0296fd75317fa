"""The game journal: one append-only file per game, replayed to resume it.

A journal is event-sourced: its first record names the game, its options and the
number of players; each further record is one applied action (a throw with its
faces, or a move by its notation), an undo, or the end of the game. The position is
the replay of the actions, so resuming gives exactly the position that was left.

File format (UTF-8, one record a line, ``docs``-friendly)::

    1c291ca3 {"format":"board-companion/journal","version":1,"game":"senet-tait",...}
    8f0d2a11 {"n":1,"by":"Black","throw":{"implement":"4 sticks","faces":["L","D","D","D"]},"events":[...]}
    0a9e6b7c {"n":2,"by":"Black","move":"pass","events":["Black's throw of 1 is lost: no legal move"]}
    5d1c44f0 {"undo":1}
    77e3a5b9 {"end":"won","winners":["White"]}

Each line starts with the CRC-32 (8 hex digits) of the JSON after the space. Every
record is written with one ``write``, then ``flush`` and ``fsync``: a power cut loses
at most the record being written. Reading stops at the first line that is truncated,
fails its checksum or does not replay; the intact prefix is kept, the file rewritten
with it (atomically: temporary file, fsync, rename) and the damaged original kept
beside it as ``*.damaged``. Damage is reported, never raised.
"""

from __future__ import annotations

import json
import logging
import os
import re
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Final

from companion.errors import CompanionError
from companion.rules import Action, Event, Game, RulesError, State, Throw, get_game

log = logging.getLogger(__name__)

FORMAT: Final = "board-companion/journal"
VERSION: Final = 1
SUFFIX: Final = ".journal"
STAMP: Final = "%Y%m%d-%H%M%S"
"""The time stamp that begins a journal's name (UTC)."""
_NAME: Final = re.compile(r"(\d{8}-\d{6})-")


class JournalError(CompanionError):
    """A journal that cannot be used at all (no valid first record); names the file."""


def encode(record: Mapping[str, Any]) -> bytes:
    """One journal line for ``record``: CRC-32, a space, compact JSON, newline."""
    body = json.dumps(record, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return b"%08x %s\n" % (zlib.crc32(body), body)


def decode(line: bytes) -> dict[str, Any]:
    """The record of one journal line (without its newline).

    :raises ValueError: for a bad checksum or anything that is not a JSON object.
    """
    crc, sep, body = line.partition(b" ")
    if not sep or len(crc) != 8 or not re.fullmatch(rb"[0-9a-f]{8}", crc):
        raise ValueError("no checksum")
    if int(crc, 16) != zlib.crc32(body):
        raise ValueError("checksum mismatch")
    record = json.loads(body.decode("utf-8"))
    if not isinstance(record, dict):
        raise ValueError("not a JSON object")
    return record


def action_record(n: int, by: str, action: Action, events: list[Event]) -> dict[str, Any]:
    """The record of action number ``n``, made by the player named ``by``."""
    record: dict[str, Any] = {"n": n, "by": by}
    if isinstance(action, Throw):
        record["throw"] = {"implement": action.implement, "faces": list(action.faces)}
    else:
        record["move"] = action.notation
    record["events"] = [e.text for e in events]
    return record


def parse_action(state: State, record: Mapping[str, Any]) -> Action:
    """The action a record names, checked against ``state``.

    :raises ValueError: (RulesError among them) when it does not fit the position.
    """
    if "throw" in record:
        throw = record["throw"]
        spec = state.throw_spec
        if spec is None or not isinstance(throw, dict):
            raise ValueError("a throw where none is due")
        faces = throw.get("faces")
        if throw.get("implement") != spec.id or not isinstance(faces, list):
            raise ValueError(f"a throw of {throw.get('implement')!r}, expected {spec.id!r}")
        return spec.from_faces([str(f) for f in faces])
    if "move" in record and isinstance(record["move"], str):
        return state.parse_move(record["move"])
    raise ValueError("neither a throw nor a move")


@dataclass
class Loaded:
    """A journal read back: the game, the replayed position and what was wrong."""

    path: Path
    game: Game
    players: int
    header: dict[str, Any]
    actions: list[Action]
    records: list[dict[str, Any]]
    """The action records in force (undone ones removed), for the game record."""
    state: State
    ended: bool
    damage: str | None = None
    """What was wrong and what was kept, in words; ``None`` when the file was intact."""
    intact: int | None = None
    """The length in bytes of the file's intact lines (what :meth:`JournalStore.reopen`
    keeps: a damaged tail that could not be repaired is cut there before appending)."""


def replay(game: Game, players: int, actions: list[Action]) -> State:
    """The position after ``actions`` from the start (every action checked)."""
    state = game.new_state(players)
    for action in actions:
        state.apply(action)
    return state


def load(path: Path, *, repair: bool = True) -> Loaded:
    """Read and replay the journal ``path``; repair a damaged tail (see module doc).

    :raises JournalError: when the first record is missing or unusable.
    """
    data = path.read_bytes()
    lines = data.split(b"\n")
    tail = lines.pop()  # b"" when the file ends with a newline
    damage: str | None = None
    if tail:
        damage = f"the last line ({len(lines) + 1}) was cut short"
    header: dict[str, Any] | None = None
    game: Game | None = None
    players = 0
    state: State | None = None
    actions: list[Action] = []
    records: list[dict[str, Any]] = []
    ended = False
    good = 0
    for number, line in enumerate(lines, start=1):
        try:
            record = decode(line)
        except ValueError as exc:
            damage = f"line {number}: {exc}"
            break
        if header is None:
            header, game, players = _read_header(path, record)
            state = game.new_state(players)
            good = number
            continue
        assert game is not None and state is not None
        try:
            if "undo" in record:
                count = record["undo"]
                if not isinstance(count, int) or not 0 < count <= len(actions):
                    raise ValueError(f"cannot undo {count!r} actions")
                del actions[-count:]
                del records[-count:]
                state = replay(game, players, actions)
                ended = False
            elif "end" in record:
                ended = True
            else:
                if ended:
                    raise ValueError("an action after the end of the game")
                action = parse_action(state, record)
                state.apply(action)
                actions.append(action)
                records.append(record)
        except (ValueError, RulesError) as exc:
            damage = f"line {number}: {exc}"
            break
        good = number
    if header is None or game is None or state is None:
        raise JournalError(f"{path}: {damage or 'empty'}: no usable first record")
    if damage is not None:
        damage = f"{game.title}: {damage}; {len(actions)} action(s) kept."
        log.warning("journal %s damaged: %s", path, damage)
        if repair:
            try:
                _rewrite(path, data, lines[:good])
            except OSError as exc:  # a full disk: the tail is cut off when appending
                log.warning("journal %s: cannot repair it now: %s", path, exc)
    intact = sum(len(line) + 1 for line in lines[:good])
    return Loaded(path, game, players, header, actions, records, state, ended, damage, intact)


def _read_header(path: Path, record: Mapping[str, Any]) -> tuple[dict[str, Any], Game, int]:
    if record.get("format") != FORMAT or record.get("version") != VERSION:
        raise JournalError(f"{path}: not a {FORMAT} version {VERSION} file")
    options = record.get("options", {})
    players = record.get("players")
    if not isinstance(options, dict) or not isinstance(players, int):
        raise JournalError(f"{path}: first record lacks options or players")
    try:
        game = get_game(str(record.get("game")), **options)
        game.check_players(players)
    except RulesError as exc:
        raise JournalError(f"{path}: {exc}") from None
    return dict(record), game, players


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _rewrite(path: Path, original: bytes, lines: list[bytes]) -> None:
    """Keep ``lines`` only: write a temporary file, fsync, rename over ``path``."""
    damaged = path.with_name(path.name + ".damaged")
    damaged.write_bytes(original)
    tmp = path.with_name(path.name + ".tmp")
    try:
        with tmp.open("wb") as fh:
            fh.write(b"".join(line + b"\n" for line in lines))
            fh.flush()
            os.fsync(fh.fileno())
    except OSError:
        tmp.unlink(missing_ok=True)
        raise
    os.replace(tmp, path)
    _fsync_dir(path.parent)


@dataclass
class Journal:
    """An open journal being appended to. Use :meth:`JournalStore.begin` or
    :meth:`JournalStore.reopen`."""

    path: Path
    records: list[dict[str, Any]] = field(default_factory=list)
    """The action records in force, in order (undone ones removed)."""
    _fh: Any = None

    def _write(self, record: Mapping[str, Any]) -> None:
        """Append one line, durable when this returns; when the disk fails (full, gone
        read-only) the file is cut back to where it was and the error raised: a record
        is either wholly in the journal or not at all, so the next one does not land
        after half a line (which would make reading stop there and lose it)."""
        if self._fh is None:
            raise JournalError(f"{self.path}: journal is closed")
        fh = self._fh  # unbuffered: nothing failed is left in a buffer to go out later
        start = fh.seek(0, os.SEEK_END)
        try:
            data = memoryview(encode(record))
            while data:
                data = data[fh.write(data):]
            os.fsync(fh.fileno())
        except OSError:
            try:
                fh.truncate(start)
            except OSError as exc:
                log.warning("journal %s: cannot cut back a failed record: %s", self.path, exc)
            raise

    def append(self, by: str, action: Action, events: list[Event]) -> None:
        """Record ``action`` by player ``by`` (its name) that caused ``events``.
        Durable when this returns (flush + fsync)."""
        record = action_record(len(self.records) + 1, by, action, events)
        self._write(record)
        self.records.append(record)

    def undo(self, count: int) -> None:
        """Record that the last ``count`` actions are taken back."""
        self._write({"undo": count})
        del self.records[-count:]

    def end(self, reason: str, winners: list[str]) -> None:
        """Record the end of the game (``reason``: ``"won"`` or ``"abandoned"``)."""
        self._write({"end": reason, "winners": winners})

    def close(self) -> None:
        """Close the file (everything written is already on disk); idempotent."""
        if self._fh is not None:
            self._fh.close()
            self._fh = None


class JournalStore:
    """The directory of journals: one ``*.journal`` file per game, newest name last."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def begin(self, game: Game, players: int, *, started: str | None = None) -> Journal:
        """Start the journal of a new game (its first record written and synced).

        ``started``: the start time text (default: now, UTC, ISO 8601).
        """
        self.directory.mkdir(parents=True, exist_ok=True)
        now = datetime.now(UTC)
        stamp = self._stamp_after_newest(now)
        for i in range(1000):
            name = f"{stamp}-{game.id}" + (f"-{i}" if i else "") + SUFFIX
            path = self.directory / name
            try:
                fh = path.open("xb", buffering=0)
            except FileExistsError:
                continue
            break
        else:
            raise JournalError(f"{self.directory}: cannot create a journal file")
        journal = Journal(path, _fh=fh)
        try:
            journal._write({
                "format": FORMAT,
                "version": VERSION,
                "game": game.id,
                "options": dict(game.option_values),
                "players": players,
                "started": started or now.isoformat(timespec="seconds"),
            })
            _fsync_dir(self.directory)
        except OSError:  # no game began: leave no empty file to be reported as unusable
            journal.close()
            path.unlink(missing_ok=True)
            raise
        return journal

    def _stamp_after_newest(self, now: datetime) -> str:
        """The name stamp (``YYYYMMDD-HHMMSS``) of a game begun at ``now``, one second
        after the newest journal's when ``now`` is not later: names then sort in the
        order the games began, which :meth:`unfinished` relies on, also for two games
        begun in the same second or after the clock stepped back (a Pi has no clock of
        its own until it reaches a time server)."""
        stamp = now.strftime(STAMP)
        stamps = [m.group(1) for p in self.directory.glob("*" + SUFFIX)
                  if (m := _NAME.match(p.name))]
        newest = max(stamps, default="")
        if stamp > newest:
            return stamp
        return (datetime.strptime(newest, STAMP) + timedelta(seconds=1)).strftime(STAMP)

    def reopen(self, loaded: Loaded) -> Journal:
        """Append to the journal that ``loaded`` was read from (after its intact lines)."""
        fh = loaded.path.open("ab", buffering=0)
        if loaded.intact is not None and fh.seek(0, os.SEEK_END) > loaded.intact:
            try:
                fh.truncate(loaded.intact)
            except OSError:
                fh.close()
                raise
        return Journal(loaded.path, list(loaded.records), _fh=fh)

    def unfinished(self) -> tuple[Loaded | None, list[str]]:
        """The newest game that has not ended, and the problems found on the way
        (damaged or unusable journals, in words). Never raises for a bad file."""
        problems: list[str] = []
        if not self.directory.is_dir():
            return None, problems
        for path in sorted(self.directory.glob("*" + SUFFIX), reverse=True):
            try:
                loaded = load(path)
            except (JournalError, OSError) as exc:
                problems.append(str(exc))
                try:  # set aside, so that it is reported once
                    path.rename(path.with_name(path.name + ".unusable"))
                except OSError as rename_error:
                    log.warning("cannot set aside %s: %s", path, rename_error)
                continue
            if loaded.damage:
                problems.append(loaded.damage)
            if not loaded.ended:
                return loaded, problems
            return None, problems
        return None, problems
