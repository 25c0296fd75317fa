"""The board of the Game of the Labyrinth as data: loading and checking a board TOML file.

The built-in board is ``companion/rules/data/labyrinth.toml``; a user's copy is read
with the game option ``board=PATH``. :func:`load_board` checks every entry and raises
:class:`~companion.rules.errors.BoardDataError` naming the file, the line and the
reason (an unknown field number, a tunnel to nowhere, a cycle of jumps, ...).

This module reads a file, which is the one piece of I/O of the rules package: it
happens once, when a :class:`~companion.rules.labyrinth.Labyrinth` game is made.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from companion.rules.datafile import TomlLines, packaged_path, parse_toml, read_text
from companion.rules.errors import BoardDataError

BUILTIN_NAME: Final = "companion/rules/data/labyrinth.toml"
"""How errors name the built-in board file."""

SIDES: Final = 6
"""Dice of the Labyrinth have six sides; counts are precomputed for values 1..6."""

_TOP_KEYS: Final = {
    "fields",
    "entry_value",
    "sanctuaries",
    "exact_count",
    "geese",
    "jumps",
    "traps",
    "trap_exits",
    "orbit",
    "millstone",
}
_ORBIT_KEYS: Final = {"fields", "towards_first"}
_MILLSTONE_KEYS: Final = {"pairs"}


@dataclass(frozen=True, eq=False)
class Board:
    """A checked Labyrinth board. Fields are numbered ``1..last``; ``last`` is Elysium.

    ``forward[s][v]`` is ``(landing, exact)`` for a piece on field ``s`` (1..last-1)
    counting a die value ``v`` (1..6) forward: ``exact`` is the exact-count field it
    stepped into and bounced back from (0 when the count was not cut short).
    """

    path: str
    last: int
    entry_value: int
    sanctuaries: frozenset[int]
    exact_count: tuple[int, ...]
    geese: frozenset[int]
    jumps: Mapping[int, int]
    traps: Mapping[int, int]
    trap_exits: Mapping[int, int]
    orbit: tuple[int, ...]
    orbit_towards_first: frozenset[int]
    millstone: Mapping[int, int]
    forward: tuple[tuple[tuple[int, int], ...], ...] = field(repr=False, default=())

    def count_forward(self, src: int, value: int) -> tuple[int, int]:
        """Where a forward count of ``value`` from field ``src`` lands.

        Seed 000: "If one of your Athenians cannot move forward the full number on a die
        because an exact count is required to arrive on a field ahead, step forward into
        that field and then one step backwards for each excess point on that die."

        :returns: ``(landing field, exact-count field bounced from or 0)``. The landing
            field is never below 1.
        """
        target = src + value
        for e in self.exact_count:
            if src < e < target:
                return max(1, e - (target - e)), e
        return target, 0

    def count_backward(self, src: int, value: int) -> int:
        """Where a backward count of ``value`` from ``src`` lands: never below field 1.

        Counting backwards passes exact-count fields freely (see docs/rules/labyrinth.md).
        """
        return max(1, src - value)


def load_board(path: str | None = None) -> Board:
    """Read and check a board TOML file; ``None`` or ``""`` reads the built-in board.

    :raises BoardDataError: naming the file, the line (when known) and the reason: a
        file that cannot be read, TOML syntax, an unknown key, a field number outside
        ``1..fields``, a jump (tunnel) to nowhere, a cycle of jumps, conflicting
        effects on one field.
    """
    if not path:
        return _builtin_board()
    return parse_board(read_text(path), path)


@functools.cache
def _builtin_board() -> Board:
    """The built-in board, read once (a user's file is read each time a game is made)."""
    return parse_board(read_text(packaged_path("labyrinth.toml")), BUILTIN_NAME)


def parse_board(text: str, path: str) -> Board:
    """Check the board TOML ``text`` (read from ``path``, used in messages).

    :raises BoardDataError: as :func:`load_board`.
    """
    data = parse_toml(text, path)
    return _Checker(data, path, TomlLines(text)).board()


class _Checker:
    def __init__(self, data: dict[str, Any], path: str, where: TomlLines) -> None:
        self.data = data
        self.path = path
        self.where = where
        self.last = 0

    def fail(self, line: int | None, reason: str) -> BoardDataError:
        return BoardDataError(self.path, line, reason)

    # --- typed access ------------------------------------------------------------

    def _int(self, value: object, line: int | None, what: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(line, f"{what}: expected a whole number, got {value!r}")
        return value

    def _field(self, value: object, line: int | None, what: str, *, last_ok: bool = True) -> int:
        number = self._int(value, line, what)
        top = self.last if last_ok else self.last - 1
        if not 1 <= number <= top:
            raise self.fail(
                line, f"{what}: unknown field {number} (the board has fields 1 to {self.last})"
            )
        return number

    def _field_list(self, section: str | None, key: str, value: object) -> list[int]:
        line = self.where.key(section, key)
        if not isinstance(value, list):
            raise self.fail(line, f"{key}: expected a list of field numbers, got {value!r}")
        out: list[int] = []
        for item in value:
            item_line = self.where.value(section, key, item)
            number = self._field(item, item_line, key)
            if number in out:
                raise self.fail(item_line, f"{key}: field {number} is listed twice")
            out.append(number)
        return out

    def _field_table(self, section: str, value: object) -> dict[int, tuple[int, int | None]]:
        """``{field: (value, line)}`` of a table whose keys are field numbers."""
        if not isinstance(value, dict):
            raise self.fail(self.where.key(None, section), f"{section}: expected a table")
        out: dict[int, tuple[int, int | None]] = {}
        for key, raw in value.items():
            line = self.where.key(section, key)
            if not (key.isascii() and key.isdigit()):  # int() also reads "³", "٣"
                raise self.fail(line, f"[{section}]: {key!r} is not a field number")
            src = self._field(int(key), line, f"[{section}] {key}")
            out[src] = (self._int(raw, line, f"[{section}] {key}"), line)
        return out

    # --- the board -----------------------------------------------------------------

    def board(self) -> Board:
        data = self.data
        for key in data:
            if key not in _TOP_KEYS:
                line = self.where.key(None, key) or self.where.header(key)
                raise self.fail(
                    line, f"unknown key {key!r} (known: {', '.join(sorted(_TOP_KEYS))})"
                )
        if "fields" not in data:
            raise self.fail(None, "missing 'fields' (the number of fields, e.g. 61)")
        line = self.where.key(None, "fields")
        self.last = self._int(data["fields"], line, "fields")
        if not 10 <= self.last <= 200:
            raise self.fail(line, f"fields: expected 10 to 200, got {self.last}")
        last = self.last

        entry_value = self._int(
            data.get("entry_value", 1), self.where.key(None, "entry_value"), "entry_value"
        )
        if not 1 <= entry_value <= SIDES:
            raise self.fail(
                self.where.key(None, "entry_value"),
                f"entry_value: a die shows 1 to {SIDES}, not {entry_value}",
            )

        sanctuaries = self._field_list(None, "sanctuaries", data.get("sanctuaries", []))
        exact = self._field_list(None, "exact_count", data.get("exact_count", [last]))
        if last not in exact:
            raise self.fail(
                self.where.key(None, "exact_count"),
                f"exact_count must hold field {last} (Elysium is entered by exact count)",
            )
        geese = self._field_list(None, "geese", data.get("geese", []))
        if last in geese:
            raise self.fail(self.where.value(None, "geese", last), "geese: Elysium cannot carry geese")

        jumps_raw = self._field_table("jumps", data.get("jumps", {}))
        jumps: dict[int, int] = {}
        for src, (dst, jline) in jumps_raw.items():
            if not 1 <= dst < last:
                raise self.fail(
                    jline,
                    f"[jumps] {src} = {dst}: a tunnel to nowhere (a jump must end on a field "
                    f"1 to {last - 1})",
                )
            if src == last:
                raise self.fail(jline, f"[jumps] {src}: no jump can start from Elysium")
            jumps[src] = dst
        for start, (_, jline) in jumps_raw.items():
            seen = [start]
            at = jumps[start]
            while at in jumps:
                if at in seen:
                    chain = " -> ".join(map(str, [*seen, at]))
                    raise self.fail(jline, f"[jumps] {start}: the jumps {chain} form a cycle")
                seen.append(at)
                at = jumps[at]

        traps_raw = self._field_table("traps", data.get("traps", {}))
        traps: dict[int, int] = {}
        for src, (turns, tline) in traps_raw.items():
            if not 1 <= turns <= 9:
                raise self.fail(tline, f"[traps] {src}: turns lost must be 1 to 9, got {turns}")
            if src == last or src in jumps:
                raise self.fail(tline, f"[traps] {src}: a trap cannot be on Elysium or a jump field")
            traps[src] = turns
        exits_raw = self._field_table("trap_exits", data.get("trap_exits", {}))
        exits: dict[int, int] = {}
        for src, (dst, eline) in exits_raw.items():
            if src not in traps:
                raise self.fail(eline, f"[trap_exits] {src}: field {src} is not in [traps]")
            if not 1 <= dst < last:
                raise self.fail(eline, f"[trap_exits] {src} = {dst}: a tunnel to nowhere")
            if dst in jumps or dst in traps:
                raise self.fail(
                    eline, f"[trap_exits] {src} = {dst}: the exit cannot be a jump or a trap"
                )
            exits[src] = dst

        orbit_data = data.get("orbit", {"fields": []})
        oline = self.where.header("orbit")
        if not isinstance(orbit_data, dict):
            raise self.fail(oline, "orbit: expected a table")
        for key in orbit_data:
            if key not in _ORBIT_KEYS:
                raise self.fail(self.where.key("orbit", key) or oline, f"[orbit]: unknown key {key!r}")
        orbit = self._field_list("orbit", "fields", orbit_data.get("fields", []))
        if len(orbit) == 1:
            raise self.fail(self.where.key("orbit", "fields"), "[orbit] fields: a track needs 2 fields or none")
        towards_first = self._field_list("orbit", "towards_first", orbit_data.get("towards_first", []))
        for f in towards_first:
            if f not in orbit[1:-1]:
                raise self.fail(
                    self.where.value("orbit", "towards_first", f),
                    f"[orbit] towards_first: {f} is not a middle field of the orbit",
                )
        for f in orbit:
            fline = self.where.value("orbit", "fields", f)
            if f in jumps or f == last or f in geese:
                raise self.fail(fline, f"[orbit] fields: {f} is also a jump, goose or Elysium")
            if f in traps and f not in exits:
                raise self.fail(
                    fline, f"[orbit] fields: the trap {f} needs an exit in [trap_exits]"
                )

        mill_data = data.get("millstone", {"pairs": []})
        mline = self.where.header("millstone")
        if not isinstance(mill_data, dict):
            raise self.fail(mline, "millstone: expected a table")
        for key in mill_data:
            if key not in _MILLSTONE_KEYS:
                raise self.fail(self.where.key("millstone", key) or mline, f"[millstone]: unknown key {key!r}")
        pairs = mill_data.get("pairs", [])
        pline = self.where.key("millstone", "pairs")
        if not isinstance(pairs, list):
            raise self.fail(pline, "[millstone] pairs: expected a list of [field, field] pairs")
        millstone: dict[int, int] = {}
        for pair in pairs:
            if not isinstance(pair, list) or len(pair) != 2:
                raise self.fail(pline, f"[millstone] pairs: expected [field, field], got {pair!r}")
            a, b = (self._field(x, self.where.value("millstone", "pairs", x), "[millstone] pairs") for x in pair)
            for f in (a, b):
                if f in millstone or a == b:
                    raise self.fail(
                        self.where.value("millstone", "pairs", f),
                        f"[millstone] pairs: field {f} is in more than one crossing",
                    )
                if f in jumps or f in traps or f in orbit or f in geese or f == last:
                    raise self.fail(
                        self.where.value("millstone", "pairs", f),
                        f"[millstone] pairs: {f} already has another effect",
                    )
            millstone[a] = b
            millstone[b] = a
        for g in geese:
            if g in traps:
                raise self.fail(self.where.value(None, "geese", g), f"geese: {g} is also a trap")

        board = Board(
            path=self.path,
            last=last,
            entry_value=entry_value,
            sanctuaries=frozenset(sanctuaries),
            exact_count=tuple(sorted(exact)),
            geese=frozenset(geese),
            jumps=jumps,
            traps=traps,
            trap_exits=exits,
            orbit=tuple(orbit),
            orbit_towards_first=frozenset(towards_first),
            millstone=millstone,
        )
        forward = tuple(
            tuple(board.count_forward(s, v) for v in range(SIDES + 1)) for s in range(last)
        )
        object.__setattr__(board, "forward", forward)
        return board

