"""Reading the board and deck TOML files a user can copy and edit, with line numbers.

``tomllib`` keeps no positions, so :class:`TomlLines` indexes the text once (table
headers, keys, values inside arrays) and the games' checkers use it to name the line
of a mistake in :class:`~companion.rules.errors.BoardDataError`.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
import sys
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from companion.rules.errors import BoardDataError


def packaged_path(name: str) -> str:
    """The path of the packaged data file ``name`` (``companion/rules/data/NAME``)."""
    return str(resources.files("companion.rules") / "data" / name)


MAX_FILE_BYTES = 1 << 20
"""The largest board, deck or config file read, in bytes (1 MiB; the packaged ones are
under 12 KiB). A larger file, or a device such as ``/dev/zero``, is refused unread."""

_BOM = "\ufeff"


class RefusedFileError(ValueError):
    """A file left unread because of what it is: not a regular file (a FIFO, a device
    such as ``/dev/zero``, a directory, a socket) or larger than the limit.

    ``str(error)`` is one line, ``PATH: REASON``; :attr:`reason` is the reason alone.
    """

    def __init__(self, path: str | Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = str(path)
        self.reason = reason


_KINDS = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISDIR, "a directory"),
          (stat.S_ISSOCK, "a socket"))
_CHUNK = 1 << 16


def read_bytes(path: str | Path, limit: int) -> bytes:
    """The bytes of the regular file ``path`` (following symbolic links), at most
    ``limit`` bytes, read without ever blocking on what the path names.

    The file is opened with ``O_NONBLOCK`` (opening a FIFO does not wait for a writer),
    checked with ``fstat`` on the open descriptor (no race with a rename) to be a
    regular file no longer than ``limit``, then read in one piece of the size found,
    and in chunks while it grows, up to ``limit + 1`` bytes (a file that grows past the
    limit meanwhile is still refused, never read to its end).

    :raises RefusedFileError: not a regular file (a FIFO, ``/dev/zero``, a directory,
        a socket: nothing is read), or over ``limit`` bytes.
    :raises OSError: it cannot be opened or read (missing, no permission, I/O error).
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | getattr(os, "O_NOCTTY", 0)
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = next((name for test, name in _KINDS if test(info.st_mode)), "a special file")
            raise RefusedFileError(path, f"not a regular file ({kind})")
        if info.st_size > limit:
            raise RefusedFileError(path, f"larger than {_size(limit)}")
        # One read of the size fstat gave (plus one byte, to see growth): one buffer, no
        # second copy of a large file; then small reads while it still grows.
        chunks = [os.read(fd, info.st_size + 1)]
        total = len(chunks[0])
        while total <= limit:
            chunk = os.read(fd, min(limit + 1 - total, _CHUNK))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:
            raise RefusedFileError(path, f"larger than {_size(limit)}")
        return chunks[0] if len(chunks) == 1 else b"".join(chunks)
    finally:
        os.close(fd)


def read_text(path: str | Path, limit: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of ``path`` (at most ``limit`` bytes), without a leading byte
    order mark (Windows Notepad writes one; TOML does not allow it, people do).
    Read with :func:`read_bytes`: a FIFO or a device is refused, never waited on.

    :raises BoardDataError: the file cannot be read, is not a regular file, is larger
        than ``limit`` bytes or is not UTF-8 text; the message names the file.
    """
    try:
        data = read_bytes(path, limit)
    except OSError as exc:
        raise BoardDataError(str(path), None, f"cannot read the file: {exc.strerror or exc}") from None
    except RefusedFileError as exc:
        raise BoardDataError(str(path), None, exc.reason) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BoardDataError(str(path), None, "not a UTF-8 text file") from None
    return text.removeprefix(_BOM)


def _size(limit: int) -> str:
    return f"{limit >> 20} MiB" if limit >= 1 << 20 and limit % (1 << 20) == 0 else f"{limit} bytes"


def parse_toml(text: str, name: str) -> dict[str, Any]:
    """``tomllib.loads(text)``; any failure names ``name`` and, when known, its line.

    Besides syntax errors this refuses, as one-line errors instead of tracebacks, an
    integer of over 4300 digits (Python's limit on converting them) and arrays or
    inline tables nested so deeply that the parser would exceed the recursion limit.

    :raises BoardDataError: ``name:LINE: not valid TOML: REASON``.
    """
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"at line (\d+)", str(exc))
        reason = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc))
        raise BoardDataError(
            name, int(found.group(1)) if found else None, f"not valid TOML: {reason}"
        ) from None
    except RecursionError:
        raise BoardDataError(name, None, "not valid TOML: arrays or tables nested too deeply") from None
    except ValueError as exc:  # int() of a number over sys.get_int_max_str_digits() digits
        long = re.search(rf"[0-9_]{{{sys.get_int_max_str_digits()},}}", text)
        if long is None:
            raise BoardDataError(name, None, f"not valid TOML: {exc}") from None
        line = text.count("\n", 0, long.start()) + 1
        raise BoardDataError(name, line, "not valid TOML: a number with too many digits") from None


MAX_JSON_DEPTH = 32
"""Arrays and objects nested deeper than this are refused before parsing (a position
nests 4 deep, a journal record 3): Python's parser recurses once per level, and a line
of 100,000 brackets would otherwise exceed the recursion limit."""

_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_JSON_BRACKET = re.compile(r"[\[\]{}]")


class JsonTextError(ValueError):
    """Text that :func:`parse_json` refuses; the message is the reason in one line."""


def nests_deeper_than(text: str, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether the arrays and objects of JSON ``text`` nest more than ``limit`` deep
    (brackets inside strings do not count): a cheap scan made before parsing, free
    when the text holds no more than ``limit`` opening brackets at all."""
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    for match in _JSON_BRACKET.finditer(_JSON_STRING.sub("", text)):
        if match.group() in "[{":
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


def _refuse_constant(name: str) -> Any:
    raise JsonTextError(f"{name} is not allowed: JSON numbers are finite")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JsonTextError(f"{text} is too large: JSON numbers are finite")
    return value


_DECODER = json.JSONDecoder(parse_constant=_refuse_constant, parse_float=_finite_float)


def parse_json(text: str, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """``json.loads(text)`` for text from a file, strict where Python's is lenient.

    Refused: ``NaN``, ``Infinity`` and numbers that overflow to infinity (``1e999``),
    integers of over 4300 digits, and arrays or objects nested over ``max_depth``
    deep (checked before parsing, so the parser never recurses that far).

    :raises JsonTextError: the reason in one line (a syntax error with its line and column).
    """
    if nests_deeper_than(text, max_depth):
        raise JsonTextError(f"arrays or objects nested over {max_depth} deep")
    try:
        return _DECODER.decode(text)
    except JsonTextError:
        raise
    except json.JSONDecodeError as exc:
        raise JsonTextError(
            f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None
    except ValueError as exc:  # int() of a number over sys.get_int_max_str_digits() digits
        if "digits" in str(exc):
            raise JsonTextError("a number with too many digits") from None
        raise JsonTextError(str(exc)) from None
    except RecursionError:  # not reached below max_depth; kept as the last guard
        raise JsonTextError("arrays or objects nested too deeply") from None


class TomlLines:
    """Line numbers (1-based) of the headers, keys and array values of a TOML text.

    Tables are named as in their header (``"board"``, ``"buttons.up"``); the top level
    is ``""`` (``None`` is accepted too). The ``index``-th ``[[table]]`` of an array of
    tables has index ``index``; a plain ``[table]`` has index 0. Lines inside
    multi-line strings are not read as keys.
    """

    _HEADER = re.compile(r"^\s*(\[\[?)\s*([A-Za-z0-9_.\-\" ]+?)\s*\]\]?\s*(#.*)?$")
    _KEY = re.compile(r"""^\s*(?:"([^"\\]*)"|'([^']*)'|([A-Za-z0-9_\-]+))\s*=""")

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.headers: dict[str, list[int]] = {}
        self.keys: dict[tuple[str, int, str], int] = {}
        table, index = "", 0
        in_string = False
        for number, line in enumerate(self.lines, start=1):
            if in_string:
                if line.count('"""') % 2 == 1:
                    in_string = False
                continue
            header = self._HEADER.match(line)
            if header:
                table = header.group(2).replace('"', "").replace(" ", "")
                self.headers.setdefault(table, []).append(number)
                index = len(self.headers[table]) - 1 if header.group(1) == "[[" else 0
                continue
            key = self._KEY.match(line)
            if key:
                name = next(g for g in key.groups() if g is not None)
                self.keys.setdefault((table, index, name), number)
            if line.count('"""') % 2 == 1:
                in_string = True

    def header(self, table: str | None, index: int = 0) -> int | None:
        """The line of the header of ``table`` (its ``index``-th for ``[[table]]``)."""
        found = self.headers.get(table or "")
        if found and index < len(found):
            return found[index]
        return None

    def key(self, table: str | None, key: str, index: int = 0) -> int | None:
        """The line of ``key =`` in ``table``, or ``None``."""
        return self.keys.get((table or "", index, key))

    def of(self, table: str | None, key: str | None = None, index: int = 0) -> int | None:
        """The line of ``key`` in ``table`` if it is there, else of the table's header."""
        if key is not None:
            found = self.key(table, key, index)
            if found is not None:
                return found
        return self.header(table, index)

    def value(self, table: str | None, key: str, value: object) -> int | None:
        """The line, at or after ``key``'s, that holds ``value`` inside its array
        (``key``'s own line when the value is not found; ``None`` without the key)."""
        start = self.key(table, key)
        if start is None:
            return None
        token = re.compile(r"(?<![\w.])" + re.escape(str(value)) + r"(?![\w.])")
        depth = 0
        for number in range(start, len(self.lines) + 1):
            line = self.lines[number - 1].split("#", 1)[0]
            text = line.split("=", 1)[1] if number == start and "=" in line else line
            if token.search(text):
                return number
            depth += text.count("[") - text.count("]")
            if depth <= 0:
                break
        return start
