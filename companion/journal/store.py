"""The game journal: one append-only file per game, replayed to resume it.

A journal is event-sourced: its first record names the game, its options and the
number of players; each further record is one applied action (a throw with its
faces, or a move by its notation), an undo, or the end of the game. The position is
the replay of the actions, so resuming gives exactly the position that was left. An
action's ``events`` are the rules' events as data (:meth:`companion.rules.Event.to_json`):
what a reader shows of a line it does not replay; journals written before events were
data hold their English sentences there instead, and are read all the same.

File format (UTF-8, one record a line, ``docs``-friendly)::

    1c291ca3 {"format":"board-companion/journal","version":1,"game":"senet-tait",...}
    8f0d2a11 {"n":1,"by":"Black","throw":{"implement":"4 sticks","faces":["L","D","D","D"]},"events":[...]}
    0a9e6b7c {"n":2,"by":"Black","move":"pass","events":[{"kind":"throw-lost","player":0,"args":{"value":1}}]}
    5d1c44f0 {"undo":1}
    77e3a5b9 {"end":"won","winners":["White"]}

Each line starts with the CRC-32 (8 hex digits) of the JSON after the space. Every
record is written with one ``write``, then ``flush`` and ``fsync``: a power cut loses
at most the record being written. A line holds at most :data:`MAX_LINE_BYTES` bytes
and JSON nested at most :data:`MAX_DEPTH` deep; a journal is at most
:data:`MAX_FILE_BYTES` long (the longest real line is under 500 bytes).

Reading stops at the first line that is truncated, fails its checksum, is too long or
too deeply nested, or does not replay; the intact prefix is kept. Before the file is
cut to that prefix, the whole damaged original is copied beside it as
``NAME.damaged`` (``NAME.damaged.1``, ``.2``, ... when that exists: a copy is never
overwritten), and the copy and its directory are fsynced; then the prefix is
written to a temporary file, fsynced and renamed over the journal. A file whose
first record is unusable (empty, not a journal, an unknown game) is renamed
``NAME.unusable`` (``.unusable.1``, ...). Problems are reported
(:meth:`JournalStore.survey`), never raised: no file stops the companion starting.
"""

from __future__ import annotations

import enum
import errno
import json
import logging
import os
import re
import zlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from companion.errors import CompanionError
from companion.i18n import N_, _
from companion.rules.datafile import RefusedFileError, parse_json, read_bytes, replace_atomically
from companion.rules.datafile import fsync_dir as _fsync_dir
from companion.rules.errors import RulesError
from companion.rules.registry import get_game

if TYPE_CHECKING:  # the engine: imported with the first journal read or game begun
    from companion.rules import Action, Event, Game, State

log = logging.getLogger(__name__)

FORMAT: Final = "board-companion/journal"
VERSION: Final = 1
SUFFIX: Final = ".journal"
STAMP: Final = "%Y%m%d-%H%M%S"
"""The time stamp that begins a journal's name (UTC)."""
_NAME: Final = re.compile(r"(\d{8}-\d{6})-")
MAX_LINE_BYTES: Final = 64 * 1024
"""The longest journal line written or read, in bytes (a real one is under 500)."""
MAX_DEPTH: Final = 16
"""The deepest nesting of arrays and objects a record may have (a real one: 5, an
event's list argument)."""
MAX_FILE_BYTES: Final = 32 * 1024 * 1024
"""The longest journal read, in bytes (a long game of random moves: about 300 KiB)."""
NEWLINE: Final = b"\n"
DAMAGED: Final = ".damaged"
"""Suffix of the copy of a damaged journal kept before it is cut (then ``.1``, ...)."""
UNUSABLE: Final = ".unusable"
"""Suffix a journal without a usable first record is renamed to (then ``.1``, ...)."""


class JournalError(CompanionError):
    """A journal that cannot be used at all (no valid first record); names the file."""


def encode(record: Mapping[str, Any]) -> bytes:
    """One journal line for ``record``: CRC-32, a space, compact JSON, newline.

    :raises ValueError: for a non-finite number (JSON has none; :func:`decode` would
        refuse the line).
    """
    body = json.dumps(
        record, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")
    return b"%08x %s\n" % (zlib.crc32(body), body)


def decode(line: bytes | memoryview) -> dict[str, Any]:
    """The record of one journal line (without its newline).

    :raises ValueError: for a line over :data:`MAX_LINE_BYTES`, a bad checksum, text
        that is not UTF-8, JSON nested over :data:`MAX_DEPTH` deep (checked before
        parsing), ``NaN``/``Infinity``, a number of over 4300 digits, or anything that
        is not a JSON object. Nothing else.
    """
    if len(line) > MAX_LINE_BYTES:
        raise ValueError(f"a line of {len(line)} bytes (at most {MAX_LINE_BYTES} are written)")
    crc, sep, body = bytes(line).partition(b" ")
    if not sep or len(crc) != 8 or not re.fullmatch(rb"[0-9a-f]{8}", crc):
        raise ValueError("no checksum")
    if int(crc, 16) != zlib.crc32(body):
        raise ValueError("checksum mismatch")
    record = parse_json(body.decode("utf-8"), max_depth=MAX_DEPTH)
    if not isinstance(record, dict):
        raise ValueError("not a JSON object")
    return record


def action_record(n: int, by: str, action: Action, events: list[Event]) -> dict[str, Any]:
    """The record of action number ``n``, made by the player named ``by``."""
    from companion.rules import Throw

    record: dict[str, Any] = {"n": n, "by": by}
    if isinstance(action, Throw):
        record["throw"] = {"implement": action.implement, "faces": list(action.faces)}
    else:
        record["move"] = action.notation
    record["events"] = [e.to_json() for e in events]
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


class ProblemKind(enum.Enum):
    """What was done with a journal the start-up search found wrong."""

    REPAIRED = "repaired"
    """Damaged after its first record: the intact prefix kept, the original copied."""
    DAMAGED = "damaged"
    """Damaged, but the disk refused the repair: the damaged tail is cut off (after a
    copy is kept) when the game is resumed."""
    SET_ASIDE = "set aside"
    """No usable first record: renamed ``*.unusable``; nothing could be repaired."""
    UNUSABLE = "unusable"
    """No usable first record, and it could not even be renamed (it is reported again
    at the next start)."""


_TITLES: Final = {
    ProblemKind.REPAIRED: N_("Journal repaired"),
    ProblemKind.DAMAGED: N_("Journal damaged"),
    ProblemKind.SET_ASIDE: N_("Journal set aside"),
    ProblemKind.UNUSABLE: N_("Journal unusable"),
}
_DAMAGED: Final = N_("Not repaired yet (is the disk full?): the damaged part is cut off, a "
                     "copy kept, when the game is resumed.")
_SET_ASIDE: Final = N_("Nothing could be repaired; set aside as {name}.")
_UNUSABLE: Final = N_("It could not be set aside either: check the disk.")


@dataclass(frozen=True, slots=True)
class JournalProblem:
    """One journal the start-up search found wrong, and what was done with it.

    ``reason`` says what was wrong (with the line number), ``kept`` where the whole
    original now is (the ``*.damaged`` copy or the ``*.unusable`` file; ``None`` when
    it could not be kept aside). :attr:`title` and :attr:`lines` are what the screen
    shows; ``str()`` gives it all in one line, for the log.
    """

    kind: ProblemKind
    path: Path
    reason: str
    kept: Path | None = None

    @property
    def title(self) -> str:
        """The message screen's title: "Journal repaired", "Journal damaged",
        "Journal set aside" or "Journal unusable" (at most 17 characters)."""
        return _TITLES[self.kind]

    @property
    def lines(self) -> tuple[str, ...]:
        """What happened, in words, for the message screen (a repair: the reason only,
        which ends with the number of actions kept)."""
        return self._lines(lambda text: text)

    def said(self) -> tuple[str, tuple[str, ...]]:
        """:attr:`title` and :attr:`lines` in the language in use (the screen's; the
        log keeps English), the reason as it is (a file's line and what is wrong)."""
        return _(self.title), self._lines(_)

    def _lines(self, words: Callable[[str], str]) -> tuple[str, ...]:
        if self.kind is ProblemKind.REPAIRED:
            return (self.reason,)
        if self.kind is ProblemKind.DAMAGED:
            return (self.reason, words(_DAMAGED))
        if self.kind is ProblemKind.SET_ASIDE:
            name = self.kept.name if self.kept else "?"
            return (self.reason, words(_SET_ASIDE).format(name=name))
        return (self.reason, words(_UNUSABLE))

    def __str__(self) -> str:
        return " ".join(self.lines)


@dataclass(frozen=True, slots=True)
class Survey:
    """What :meth:`JournalStore.survey` found: the game to offer, and the problems."""

    pending: Loaded | None
    """The newest journal if its game has not ended (to offer for resume), else ``None``."""
    problems: tuple[JournalProblem, ...] = ()
    """Journals found damaged or unusable on the way, newest first."""


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
    copy: Path | None = None
    """Where the damaged original was copied before the file was cut (``None``: intact,
    or the copy could not be written yet)."""
    repaired: bool = False
    """True when the file on disk was cut to its intact lines by :func:`load`."""

    @property
    def problem(self) -> JournalProblem | None:
        """The damage as a :class:`JournalProblem`, or ``None`` when intact."""
        if self.damage is None:
            return None
        kind = ProblemKind.REPAIRED if self.repaired else ProblemKind.DAMAGED
        return JournalProblem(kind, self.path, self.damage, self.copy)


def replay(game: Game, players: int, actions: list[Action]) -> State:
    """The position after ``actions`` from the start (every action checked)."""
    state = game.new_state(players)
    for action in actions:
        state.apply(action)
    return state


def read_journal_bytes(path: Path) -> bytes:
    """The bytes of the journal ``path``, at most :data:`MAX_FILE_BYTES`, read with
    :func:`companion.rules.datafile.read_bytes` (never waiting on a FIFO, never reading
    a device such as ``/dev/zero``).

    :raises JournalError: it is not a regular file, or is longer (nothing more is read).
    :raises OSError: it cannot be opened or read.
    """
    try:
        return read_bytes(path, MAX_FILE_BYTES)
    except RefusedFileError as exc:
        raise JournalError(f"{exc}: not a journal") from None


def iter_lines(data: bytes, start: int = 0) -> Iterator[tuple[int, memoryview]]:
    """The whole lines of ``data`` from byte ``start`` (without their newlines), each
    with the offset it begins at; the cut-short rest after the last newline is not
    among them. One line at a time and no copy (a view into ``data``): a file of
    millions of empty lines costs no list, a line of 30 MB no second 30 MB."""
    view = memoryview(data)
    end = data.rfind(NEWLINE)
    while start <= end:
        stop = data.index(NEWLINE, start)
        yield start, view[start:stop]
        start = stop + 1


def load(path: Path, *, repair: bool = True, data: bytes | None = None) -> Loaded:
    """Read and replay the journal ``path``; repair a damaged tail (see module doc).

    Any record that cannot be read or replayed, whatever is in it, ends the intact
    prefix: it is reported in :attr:`Loaded.damage`, never raised. ``data``: the file's
    bytes when the caller has read them already (:func:`read_journal_bytes`).

    :raises JournalError: when the first record is missing or unusable, or the file
        is over :data:`MAX_FILE_BYTES` or not a regular file (a FIFO, a device).
        :raises OSError: when it cannot be read. Nothing else.
    """
    data = read_journal_bytes(path) if data is None else data
    end = data.rfind(NEWLINE) + 1  # after the last whole line; what follows was cut short
    damage: str | None = None
    if end < len(data):
        damage = f"the last line ({data.count(NEWLINE) + 1}) was cut short"
    header: dict[str, Any] | None = None
    game: Game | None = None
    players = 0
    state: State | None = None
    actions: list[Action] = []
    records: list[dict[str, Any]] = []
    ended = False
    intact = 0  # bytes of the whole lines taken so far
    for number, (start, line) in enumerate(iter_lines(data), start=1):
        try:
            record = decode(line)
        except ValueError as exc:
            damage = f"line {number}: {exc}"
            break
        if header is None:
            header, game, players, state = _read_header(path, record)
            intact = start + len(line) + 1
            continue
        assert game is not None and state is not None
        try:
            state, ended = _replay_record(game, players, state, ended, actions, records, record)
        except (ValueError, RulesError) as exc:
            damage = f"line {number}: {exc}"
            break
        except Exception as exc:  # a rules engine failing on a record it should refuse
            log.warning("journal %s: line %d cannot be replayed", path, number, exc_info=True)
            damage = f"line {number}: cannot be replayed ({type(exc).__name__})"
            break
        intact = start + len(line) + 1
    if header is None or game is None or state is None:
        raise JournalError(f"{path}: {damage or 'empty'}: no usable first record")
    copy: Path | None = None
    repaired = False
    if damage is not None:
        damage = f"{game.title}: {damage}; {len(actions)} action(s) kept."
        log.warning("journal %s damaged: %s", path, damage)
        if repair:
            try:
                copy = keep_copy(path, data)
                replace_atomically(path, data[:intact])
                repaired = True
            except OSError as exc:  # a full disk: the tail is cut off when appending
                log.warning("journal %s: cannot repair it now: %s", path, exc)
    return Loaded(path, game, players, header, actions, records, state, ended, damage, intact,
                  copy, repaired)


def load_more(loaded: Loaded, data: bytes) -> int:
    """Follow a journal as it grows: apply the whole lines of ``data`` (the bytes of
    the file from :attr:`Loaded.intact` on) to ``loaded`` in place (its state, actions,
    records, ``ended`` and ``intact``), as :func:`load` would have read them; the cut-short
    rest after the last newline is left for the next call. Returns the bytes taken.
    A reader that follows a journal (``companion publish``) pays for the new lines only,
    not a replay of the whole game per change. Nothing is written.

    :raises ValueError: a line that cannot be read or replayed (``loaded`` holds the lines
        before it; read the journal again with :func:`load` to report the damage).
    """
    taken = 0
    for start, line in iter_lines(data):
        record = decode(line)
        try:
            loaded.state, loaded.ended = _replay_record(
                loaded.game, loaded.players, loaded.state, loaded.ended, loaded.actions,
                loaded.records, record)
        except ValueError:
            raise
        except Exception as exc:  # a rules engine failing on a record it should refuse
            raise ValueError(f"cannot be replayed ({type(exc).__name__})") from None
        taken = start + len(line) + 1
        loaded.intact = (loaded.intact or 0) + len(line) + 1
    return taken


def _replay_record(
    game: Game, players: int, state: State, ended: bool,
    actions: list[Action], records: list[dict[str, Any]], record: Mapping[str, Any],
) -> tuple[State, bool]:
    """Apply one record after the first to ``state`` (``actions`` and ``records`` are
    updated); returns the position and whether the game has ended.

    :raises ValueError: (RulesError among them) for a record that does not fit.
    """
    if "undo" in record:
        count = record["undo"]
        if isinstance(count, bool) or not isinstance(count, int) or not 0 < count <= len(actions):
            raise ValueError(f"cannot undo {count!r} actions")
        del actions[-count:]
        del records[-count:]
        return replay(game, players, actions), False
    if "end" in record:
        return state, True
    if ended:
        raise ValueError("an action after the end of the game")
    action = parse_action(state, record)
    state.apply(action)
    actions.append(action)
    records.append(dict(record))
    return state, ended


def _read_header(
    path: Path, record: Mapping[str, Any]
) -> tuple[dict[str, Any], Game, int, State]:
    """The first record's game, number of players and starting position.

    :raises JournalError: for anything that is not a usable first record.
    """
    if record.get("format") != FORMAT or record.get("version") != VERSION:
        raise JournalError(f"{path}: not a {FORMAT} version {VERSION} file")
    options = record.get("options", {})
    players = record.get("players")
    if not isinstance(options, dict) or isinstance(players, bool) or not isinstance(players, int):
        raise JournalError(f"{path}: first record lacks options or players")
    try:
        game = get_game(str(record.get("game")), **options)
        game.check_players(players)
        state = game.new_state(players)
    except RulesError as exc:
        raise JournalError(f"{path}: {exc}") from None
    except Exception as exc:  # an option value a game's constructor did not expect
        log.warning("journal %s: first record not usable", path, exc_info=True)
        raise JournalError(f"{path}: the game cannot be set up ({type(exc).__name__})") from None
    return dict(record), game, players, state


MAX_COPIES: Final = 1000
"""Numbered names tried for a set-aside copy before giving up (an ``OSError``)."""


def _numbered(path: Path, suffix: str) -> list[Path]:
    """``NAME.suffix``, ``NAME.suffix.1``, ``NAME.suffix.2``, ... (:data:`MAX_COPIES`)."""
    first = path.with_name(path.name + suffix)
    return [first] + [path.with_name(f"{first.name}.{n}") for n in range(1, MAX_COPIES)]


def keep_copy(path: Path, data: bytes) -> Path:
    """Keep ``data`` (the damaged journal ``path``'s bytes) as the first free name of
    ``NAME.damaged``, ``NAME.damaged.1``, ...; never overwrites a copy (the file is
    created exclusively). The copy and its directory are fsynced before this returns,
    so the journal may then be cut. A copy already there with the same bytes is
    reused (a repair that failed half-way and is tried again makes no second copy).

    :returns: the copy's path. :raises OSError: when it cannot be written (the
        half-written copy is removed).
    """
    for copy in _numbered(path, DAMAGED):
        try:
            fh = copy.open("xb")
        except FileExistsError:
            try:
                if copy.stat().st_size == len(data) and copy.read_bytes() == data:
                    return copy
            except OSError:
                pass
            continue
        try:
            with fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            _fsync_dir(path.parent)
        except OSError:
            copy.unlink(missing_ok=True)
            raise
        return copy
    raise OSError(errno.EEXIST, f"{MAX_COPIES} copies of {path.name} already kept")


def set_aside(path: Path) -> Path:
    """Rename ``path`` to the first free name of ``NAME.unusable``, ``NAME.unusable.1``,
    ...; never over an existing file (a hard link that fails if the name is taken, then
    the old name removed; on a file system without hard links, a rename checked first).
    The directory is fsynced.

    :returns: the new path. :raises OSError: when it cannot be renamed.
    """
    for target in _numbered(path, UNUSABLE):
        try:
            os.link(path, target)
        except FileExistsError:
            continue
        except OSError as exc:
            if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV,
                                 errno.EMLINK, errno.EISDIR):
                raise
            if target.exists() or target.is_symlink():
                continue
            os.rename(path, target)
        else:
            os.unlink(path)
        _fsync_dir(path.parent)
        return target
    raise OSError(errno.EEXIST, f"{MAX_COPIES} set-aside files of {path.name} already there")


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
        line = encode(record)
        if len(line) > MAX_LINE_BYTES:  # it could not be read back: refuse it as a disk would
            raise OSError(errno.EFBIG, f"a record of {len(line)} bytes, over the journal's "
                          f"{MAX_LINE_BYTES}")
        start = fh.seek(0, os.SEEK_END)
        try:
            data = memoryview(line)
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

    def begin(
        self, game: Game, players: int, *, started: str | None = None,
        seats: Mapping[int, str] | None = None, people: Mapping[int, str] | None = None,
    ) -> Journal:
        """Start the journal of a new game (its first record written and synced).

        ``started``: the start time text (default: now, UTC, ISO 8601); ``seats``: the
        players the computer plays, by player index, with their level (written as the
        header's ``"seats"`` only when there are any); ``people``: the persons of the
        club's roster who took a seat, by player index (written as the header's
        ``"people"``, ``{"0": "Anna"}``, each name cleaned by
        :func:`companion.journal.names.clean_name`, only when there are any; a seat the
        computer plays or a name empty once cleaned is left out).
        """
        from companion.journal.names import clean_name

        named = {p: clean_name(n) for p, n in (people or {}).items()
                 if 0 <= p < players and p not in (seats or {})}
        named = {p: n for p, n in named.items() if n}
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
                **({"seats": {str(p): lv for p, lv in sorted(seats.items())}} if seats else {}),
                **({"people": {str(p): n for p, n in sorted(named.items())}} if named else {}),
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
        stamps = [m.group(1) for p in self.directory.glob("*" + SUFFIX + "*")
                  if (m := _NAME.match(p.name))]  # set-aside copies too: no name reused
        newest = max(stamps, default="")
        if stamp > newest:
            return stamp
        return (datetime.strptime(newest, STAMP) + timedelta(seconds=1)).strftime(STAMP)

    def reopen(self, loaded: Loaded) -> Journal:
        """Append to the journal that ``loaded`` was read from (after its intact lines).

        A damaged tail still on disk (its repair failed) is cut off first, after the
        whole file is kept as a ``*.damaged`` copy (fsynced; see :func:`keep_copy`).

        :raises OSError: the file cannot be opened, copied or cut (nothing is cut then).
        """
        fh = loaded.path.open("ab", buffering=0)
        try:
            if loaded.intact is not None and fh.seek(0, os.SEEK_END) > loaded.intact:
                keep_copy(loaded.path, read_journal_bytes(loaded.path))
                fh.truncate(loaded.intact)
        except OSError:
            fh.close()
            raise
        return Journal(loaded.path, list(loaded.records), _fh=fh)

    def survey(self) -> Survey:
        """Look for the newest game that has not ended; report every journal found
        damaged or unusable on the way (newest first), and what was done with it:
        repaired (a copy kept), set aside as ``*.unusable``, ... (see :class:`ProblemKind`).
        Never raises for a bad file, whatever is in it."""
        problems: list[JournalProblem] = []
        if not self.directory.is_dir():
            return Survey(None)
        for path in sorted(self.directory.glob("*" + SUFFIX), reverse=True):
            try:
                loaded = load(path)
            except Exception as exc:  # JournalError, OSError; anything else is a bug
                if not isinstance(exc, JournalError | OSError):
                    log.exception("journal %s: cannot be read", path)
                reason = str(exc).replace(str(path), path.name)
                try:  # set aside, so that it is reported once
                    kept: Path | None = set_aside(path)
                    kind = ProblemKind.SET_ASIDE
                except OSError as rename_error:
                    log.warning("cannot set aside %s: %s", path, rename_error)
                    kept, kind = None, ProblemKind.UNUSABLE
                problems.append(JournalProblem(kind, path, reason, kept))
                continue
            if loaded.problem is not None:
                problems.append(loaded.problem)
            return Survey(None if loaded.ended else loaded, tuple(problems))
        return Survey(None, tuple(problems))

    def unfinished(self) -> tuple[Loaded | None, list[str]]:
        """:meth:`survey` as the game to offer and the problems, one line of words
        each (``str`` of each :class:`JournalProblem`). Never raises for a bad file."""
        found = self.survey()
        return found.pending, [str(problem) for problem in found.problems]
