"""The board and sticks of casting-stick Senet, read from a TOML file and validated.

The seed (``002_4a37d4d91a7a1598.txt``) gives no board drawing and no stick faces, so
both are data: ``companion/rules/data/senet_sticks.toml`` is the documented default
(see ``docs/rules/senet-sticks.md``) and a player may load their own file with the
game option ``board=PATH``.

:func:`load_board` returns a :class:`BoardSpec` or raises
:class:`~companion.rules.errors.BoardDataError` naming the file, the line (when the
mistake can be placed on one) and the reason.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from companion.rules.datafile import TomlLines, parse_toml, read_text
from companion.rules.errors import BoardDataError
from companion.rules.throws import ColouredSticks, StickFace

DEFAULT_BOARD: Final = Path(__file__).parent / "data" / "senet_sticks.toml"
"""The built-in board and sticks (30 squares, 6 rows of 5; two dual-coloured sticks)."""

PLINTHS: Final = 5
"""'Place five plinths in each player's Home Row' -- five plinths each."""

MAX_SQUARES: Final = 200
"""The longest track accepted (a board with more squares is surely a typing mistake)."""


@dataclass(frozen=True, slots=True)
class BoardSpec:
    """A validated casting-stick Senet board and its sticks.

    Squares are numbered ``1..squares`` along Player 1's path; Player 2 travels from
    ``squares`` down to 1. ``home_rows[p]`` are the squares of player ``p``'s own Home
    Row (Player 1: ``1..home_row``; Player 2: the last ``home_row`` squares).
    ``resurrection`` is counted along each player's own path (the seed's "space 6").
    ``rivers`` maps a river's square to the square it leads to (for both players).
    """

    source: str
    squares: int
    rows: int
    columns: int
    home_row: int
    resurrection: int
    sun: frozenset[int]
    rivers: Mapping[int, int]
    colours: tuple[str, str]
    solid: tuple[StickFace, StickFace]
    extra_solid: tuple[StickFace, StickFace]
    coloured: tuple[tuple[StickFace, StickFace], ...]

    @property
    def home_rows(self) -> tuple[frozenset[int], frozenset[int]]:
        """Each player's own Home Row as a set of board squares."""
        n, h = self.squares, self.home_row
        return frozenset(range(1, h + 1)), frozenset(range(n - h + 1, n + 1))

    def sticks(self, extra: bool) -> ColouredSticks:
        """The casting sticks of a turn: the dual-coloured ones, the solid one, and the
        extra solid stick when ``extra`` ("To make the game move faster, add an
        additional solid color stick")."""
        solids = (self.solid, self.extra_solid) if extra else (self.solid,)
        return ColouredSticks((*self.coloured, *solids), name="casting sticks")

    def start_stick(self) -> ColouredSticks:
        """The one solid stick each player casts to decide who goes first."""
        return ColouredSticks((self.solid,), name="solid stick")

    def toss_stick(self) -> ColouredSticks:
        """The one dual-coloured stick tossed to choose colours (the first listed)."""
        return ColouredSticks((self.coloured[0],), name="coloured stick")


# ------------------------------------------------------------------------ lines


# ----------------------------------------------------------------------- loading


class _Checker:
    def __init__(self, source: str, text: str) -> None:
        self.source = source
        self.lines = TomlLines(text)

    def fail(self, table: str, key: str | None, reason: str, index: int = 0) -> BoardDataError:
        return BoardDataError(self.source, self.lines.of(table, key, index), reason)

    def table(self, data: Mapping[str, Any], name: str, parent: str = "") -> Mapping[str, Any]:
        full = f"{parent}.{name}" if parent else name
        value = data.get(name)
        if not isinstance(value, dict):
            raise self.fail(parent, name, f"missing table [{full}]")
        return value

    def only(self, data: Mapping[str, Any], table: str, allowed: Sequence[str], index: int = 0) -> None:
        for key in data:
            if key not in allowed:
                raise self.fail(
                    table, key,
                    f"unknown key {key!r} in [{table}] (known: {', '.join(allowed)})", index,
                )

    def integer(
        self, data: Mapping[str, Any], table: str, key: str, low: int, high: int,
        default: int | None = None, index: int = 0,
    ) -> int:
        if key not in data:
            if default is not None:
                return default
            raise self.fail(table, None, f"[{table}] needs {key} (a whole number)", index)
        value = data[key]
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(table, key, f"{key} must be a whole number, got {value!r}", index)
        if not low <= value <= high:
            raise self.fail(table, key, f"{key} must be {low} to {high}, got {value}", index)
        return value


def load_board(path: str | Path | None = None) -> BoardSpec:
    """Read and validate a board file (default: the built-in one).

    :raises BoardDataError: the file cannot be read, is not TOML, or describes an
        impossible board; the message names the file, the line and the reason.
    """
    file = Path(path) if path else DEFAULT_BOARD
    try:
        stamp = file.stat().st_mtime_ns
    except OSError as exc:
        raise BoardDataError(str(file), None, f"cannot read: {exc.strerror or exc}") from None
    return _load_cached(str(file), stamp)


@functools.lru_cache(maxsize=16)
def _load_cached(source: str, stamp: int) -> BoardSpec:
    """The board in ``source`` as of modification time ``stamp`` (an edited file is re-read)."""
    return parse_board(read_text(source), source)


def parse_board(text: str, source: str = "<board>") -> BoardSpec:
    """Validate the TOML ``text`` of a board file; ``source`` names it in errors.

    :raises BoardDataError: naming ``source``, the line and the reason.
    """
    data = parse_toml(text, source)
    c = _Checker(source, text)
    c.only(data, "", ("board", "players", "sticks"))

    board = c.table(data, "board")
    c.only(board, "board", ("squares", "rows", "columns", "home_row", "resurrection", "sun", "river"))
    squares = c.integer(board, "board", "squares", 2 * PLINTHS + 2, MAX_SQUARES)
    home_row = c.integer(board, "board", "home_row", PLINTHS, (squares - 2) // 2)
    rows = c.integer(board, "board", "rows", 1, squares, default=1)
    columns = c.integer(board, "board", "columns", 1, squares, default=squares // rows)
    if rows * columns != squares:
        raise c.fail(
            "board", "rows" if "rows" in board else "columns",
            f"rows x columns must equal squares ({rows} x {columns} != {squares})",
        )
    resurrection = c.integer(
        board, "board", "resurrection", home_row + 1, squares - home_row, default=home_row + 1
    )
    homes = (frozenset(range(1, home_row + 1)), frozenset(range(squares - home_row + 1, squares + 1)))

    raw_sun = board.get("sun", [])
    if not isinstance(raw_sun, list):
        raise c.fail("board", "sun", f"sun must be a list of squares, got {raw_sun!r}")
    sun: set[int] = set()
    for s in raw_sun:
        if isinstance(s, bool) or not isinstance(s, int) or not 1 <= s <= squares:
            raise c.fail("board", "sun", f"a Sun square must be 1 to {squares}, got {s!r}")
        if s in sun:
            raise c.fail("board", "sun", f"Sun square {s} is listed twice")
        sun.add(s)

    raw_rivers = board.get("river", [])
    if not isinstance(raw_rivers, list):
        raise c.fail("board", "river", "rivers are [[board.river]] tables with from and to")
    rivers: dict[int, int] = {}
    for i, river in enumerate(raw_rivers):
        where = "board.river"
        if not isinstance(river, dict):
            raise c.fail(where, None, "a river is a table with from and to", i)
        c.only(river, where, ("from", "to"), i)
        start = c.integer(river, where, "from", 1, squares, index=i)
        end = c.integer(river, where, "to", 1, squares, index=i)
        for key, s in (("from", start), ("to", end)):
            if s in homes[0] or s in homes[1]:
                raise c.fail(where, key, f"a river cannot {'start' if key == 'from' else 'end'} in a Home Row (square {s})", i)
        if start == end:
            raise c.fail(where, "to", f"a river must lead somewhere else than its own square {start}", i)
        if start in sun:
            raise c.fail(where, "from", f"square {start} cannot be both a Sun and a river: no plinth stays on a river", i)
        if start in rivers:
            raise c.fail(where, "from", f"square {start} already has a river", i)
        rivers[start] = end
    for i, river in enumerate(raw_rivers):
        end = river["to"]
        if end in rivers:
            raise c.fail(
                "board.river", "to",
                f"river ends on square {end}, where another river starts (rivers do not chain)", i,
            )

    players = c.table(data, "players")
    c.only(players, "players", ("colours",))
    colours = players.get("colours")
    if (
        not isinstance(colours, list) or len(colours) != 2
        or not all(isinstance(x, str) and re.fullmatch(r"[a-z][a-z0-9\-]*", x) for x in colours)
        or colours[0] == colours[1]
    ):
        raise c.fail(
            "players", "colours",
            f"colours must be two different lower-case words such as [\"red\", \"blue\"], got {colours!r}",
        )
    pair = (str(colours[0]), str(colours[1]))

    sticks = c.table(data, "sticks")
    c.only(sticks, "sticks", ("solid", "extra_solid", "coloured"))

    def solid_faces(key: str) -> tuple[StickFace, StickFace]:
        faces = sticks.get(key)
        if (
            not isinstance(faces, list) or len(faces) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v < squares for v in faces)
        ):
            raise c.fail(
                "sticks", key,
                f"{key} must be the values of the stick's two faces, each 1 to {squares - 1}, got {faces!r}",
            )
        return StickFace(faces[0]), StickFace(faces[1])

    solid = solid_faces("solid")
    if solid[0].value == solid[1].value:
        raise c.fail(
            "sticks", "solid",
            "the solid stick decides who goes first, so its two faces need different values",
        )
    extra_solid = solid_faces("extra_solid") if "extra_solid" in sticks else solid

    raw_coloured = sticks.get("coloured")
    if not isinstance(raw_coloured, list) or not raw_coloured:
        raise c.fail("sticks", "coloured", "at least one [[sticks.coloured]] stick is needed")
    coloured: list[tuple[StickFace, StickFace]] = []
    for i, stick in enumerate(raw_coloured):
        where = "sticks.coloured"
        if not isinstance(stick, dict):
            raise c.fail(where, None, "a coloured stick is a table with faces", i)
        c.only(stick, where, ("faces",), i)
        faces = stick.get("faces")
        if not isinstance(faces, list) or len(faces) != 2:
            raise c.fail(where, "faces", "a stick has two faces: faces = [{ value = 2, colour = \"red\" }, ...]", i)
        made: list[StickFace] = []
        for face in faces:
            if not isinstance(face, dict) or set(face) != {"value", "colour"}:
                raise c.fail(where, "faces", f"each face needs exactly value and colour, got {face!r}", i)
            value, colour = face["value"], face["colour"]
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value < squares:
                raise c.fail(where, "faces", f"a face value must be 1 to {squares - 1}, got {value!r}", i)
            if colour not in pair:
                raise c.fail(where, "faces", f"a face colour must be one of {', '.join(pair)}, got {colour!r}", i)
            made.append(StickFace(value, colour))
        if made[0].colour == made[1].colour:
            raise c.fail(
                where, "faces",
                f"a dual-coloured stick shows each player's colour on one face; both faces are {made[0].colour}", i,
            )
        coloured.append((made[0], made[1]))

    return BoardSpec(
        source=source,
        squares=squares,
        rows=rows,
        columns=columns,
        home_row=home_row,
        resurrection=resurrection,
        sun=frozenset(sun),
        rivers=dict(rivers),
        colours=pair,
        solid=solid,
        extra_solid=extra_solid,
        coloured=tuple(coloured),
    )


__all__ = ["DEFAULT_BOARD", "PLINTHS", "BoardSpec", "load_board", "parse_board"]
