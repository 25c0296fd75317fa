"""Reading the board and deck TOML files a user can copy and edit, with line numbers.

``tomllib`` parses (:func:`parse_toml`), and a syntax error is named at the line
``tomllib`` gives. It keeps no positions of what it parsed, so for a mistake found
after parsing (a value wrong for the rules) :class:`TomlLines` indexes the text in one
linear pass (table headers, keys, values inside arrays) and the games' checkers use it
to name the line in :class:`~companion.rules.errors.BoardDataError`.
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
        line, reason = _toml_error_line(exc, text)
        raise BoardDataError(name, line, f"not valid TOML: {reason}") from None
    except RecursionError:
        raise BoardDataError(name, None, "not valid TOML: arrays or tables nested too deeply") from None
    except ValueError as exc:  # int() of a number over sys.get_int_max_str_digits() digits
        # Each run of digits is matched once: a pattern "[0-9_]{4300,}" searched from
        # every position re-reads each shorter run from each of its digits (quadratic:
        # 5 CPU s on a 1 MiB file of 4299-digit numbers).
        limit = sys.get_int_max_str_digits()
        long = next((m for m in _DIGITS.finditer(text) if m.end() - m.start() >= limit), None)
        if long is None:
            raise BoardDataError(name, None, f"not valid TOML: {exc}") from None
        line = text.count("\n", 0, long.start()) + 1
        raise BoardDataError(name, line, "not valid TOML: a number with too many digits") from None


_DIGITS = re.compile(r"[0-9_]+")


_AT = re.compile(r" \(at line (\d+), column \d+\)$")
_AT_END = " (at end of document)"


def _toml_error_line(exc: tomllib.TOMLDecodeError, text: str) -> tuple[int | None, str]:
    """The line of a ``tomllib`` syntax error and its reason without the position.

    Python 3.14's error has ``lineno``; up to 3.13 the position is only in the message,
    ``"Invalid value (at line 3, column 4)"`` (the position is cut from the reason), or
    ``"Unclosed array (at end of document)"`` (kept: the line is the last line of
    ``text`` that is not blank). Both come from where ``tomllib`` stopped, not from a
    reader of our own.
    """
    message = str(exc)
    lineno = getattr(exc, "lineno", None)
    found = _AT.search(message)
    if found is not None:
        message = message[: found.start()]
        if not isinstance(lineno, int):
            lineno = int(found.group(1))
    elif message.endswith(_AT_END) and not isinstance(lineno, int):
        lineno = text.count("\n", 0, len(text.rstrip())) + 1
    return (lineno if isinstance(lineno, int) else None), message


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
    tables has index ``index``; a plain ``[table]`` has index 0. A dotted key
    (``a.b = 1``) is found as ``"a.b"`` and as ``"a"``.

    The text is read once, left to right, as TOML reads it: strings (the four kinds,
    multi-line ones across lines), comments, and arrays and inline tables to their
    closing bracket, across lines. So a line inside an array (``[44, 50],``) or inside a
    multi-line string is never taken for a header or a key. The work is linear in the
    length of the text: each character is looked at a bounded number of times, and no
    regular expression can backtrack (issue 35: a header pattern run on nested array
    lines took over 10 CPU s on a valid 9 KB board). Meant for text that
    :func:`parse_toml` has accepted; any other text gives some line numbers, never an
    error.
    """

    def __init__(self, text: str) -> None:
        self.headers: dict[str, list[int]] = {}
        self.keys: dict[tuple[str, int, str], int] = {}
        self.tokens: dict[tuple[str, int, str], list[tuple[str, int]]] = {}
        """``(table, index, key)`` -> the scalar values written in the key's value, in
        order, each as ``(text, line)``: a bare value as written (``44``, ``true``), a
        string without its quotes. Keys of inline tables are left out."""
        _TomlScan(text, self).run()

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
        """The line that holds ``value`` (written as ``str(value)``, e.g. a field
        number) inside ``key``'s value, e.g. an array spread over lines: its first
        occurrence; ``key``'s own line when the value is not found; ``None`` without
        the key."""
        start = self.key(table, key)
        if start is None:
            return None
        wanted = str(value)
        for written, line in self.tokens.get((table or "", 0, key), ()):
            if written == wanted:
                return line
        return start


_BLANK = " \t\r"
_NOT_BARE = " \t\r\n,[]{}#='\"."
"""What ends a bare key's part (the ``.`` joins the parts of a dotted key)."""
_NOT_VALUE = " \t\r\n,[]{}#='\""
"""What ends a bare value (a number, a date, ``true``; ``1.5`` is one value)."""


class _TomlScan:
    """One left-to-right pass over a TOML text for :class:`TomlLines`.

    ``i`` only moves forward: every step of every loop consumes at least one character,
    and :meth:`run` skips to the end of the line after each header or key/value, so any
    text, valid or not, is read in time linear in its length.
    """

    def __init__(self, text: str, into: TomlLines) -> None:
        self.text = text
        self.n = len(text)
        self.i = 0
        self.line = 1
        self.into = into

    def run(self) -> None:
        text, n, into = self.text, self.n, self.into
        table, index = "", 0
        while self.i < n:
            c = text[self.i]
            if c in _BLANK:
                self.i += 1
            elif c == "\n":
                self.line += 1
                self.i += 1
            elif c == "#":
                self._to_line_end()
            elif c == "[":
                double = text.startswith("[[", self.i)
                self.i += 2 if double else 1
                line = self.line
                table = ".".join(self._key_path())
                found = into.headers.setdefault(table, [])
                found.append(line)
                index = len(found) - 1 if double else 0
                self._to_line_end()
            else:
                line = self.line
                path = self._key_path()
                if path and self.i < n and text[self.i] == "=":
                    self.i += 1
                    name = ".".join(path)
                    into.keys.setdefault((table, index, name), line)
                    into.keys.setdefault((table, index, path[0]), line)
                    tokens: list[tuple[str, int]] = []
                    self._value(tokens)
                    into.tokens.setdefault((table, index, name), tokens)
                self._to_line_end()

    def _to_line_end(self) -> None:
        """Skip to the next newline (not past it), or to the end of the text."""
        end = self.text.find("\n", self.i)
        self.i = self.n if end < 0 else end

    def _skip_blanks(self) -> None:
        text, n = self.text, self.n
        while self.i < n and text[self.i] in _BLANK:
            self.i += 1

    def _key_path(self) -> list[str]:
        """The parts of a key or table name (``a . "b c" . d``), up to what follows it."""
        text, n = self.text, self.n
        parts: list[str] = []
        while True:
            self._skip_blanks()
            if self.i >= n:
                return parts
            c = text[self.i]
            if c in "\"'":
                parts.append(self._string()[0])
            else:
                start = self.i
                while self.i < n and text[self.i] not in _NOT_BARE:
                    self.i += 1
                if self.i == start:
                    return parts
                parts.append(text[start:self.i])
            self._skip_blanks()
            if self.i >= n or text[self.i] != ".":
                return parts
            self.i += 1

    def _value(self, tokens: list[tuple[str, int]]) -> None:
        """Read the value after ``=``: one scalar, or an array or inline table to its
        closing bracket, across lines; each scalar goes to ``tokens``."""
        text, n = self.text, self.n
        depth = 0
        while self.i < n:
            c = text[self.i]
            if c in _BLANK:
                self.i += 1
            elif c == "\n":
                if depth <= 0:
                    return
                self.line += 1
                self.i += 1
            elif c == "#":
                self._to_line_end()
            elif c in "[{":
                depth += 1
                self.i += 1
            elif c in "]}":
                depth -= 1
                self.i += 1
                if depth <= 0:
                    return
            elif c == ",":
                self.i += 1
                if depth <= 0:
                    return
            elif c == "=":  # in an inline table: what came before was a key
                self.i += 1
                if tokens:
                    tokens.pop()
            else:
                line = self.line
                if c in "\"'":
                    written = self._string()[0]
                else:
                    start = self.i
                    while self.i < n and text[self.i] not in _NOT_VALUE:
                        self.i += 1
                    written = text[start:self.i]
                tokens.append((written, line))
                if depth <= 0:
                    return

    def _string(self) -> tuple[str, int]:
        """Read the string that starts at ``i`` (any of the four kinds); return its text
        between the quotes (escapes left as written) and the line it starts on."""
        text, n = self.text, self.n
        quote = text[self.i]
        basic = quote == '"'
        line = self.line
        if text.startswith(quote * 3, self.i):
            start = self.i + 3
            j = start
            while j < n:
                c = text[j]
                if basic and c == "\\":
                    j += 2
                    continue
                if c == quote and text.startswith(quote * 3, j):
                    # Up to two more quotes belong to the string: a is "'a'".
                    extra = 0
                    while extra < 2 and j + 3 + extra < n and text[j + 3 + extra] == quote:
                        extra += 1
                    end = j + extra
                    self.line += text.count("\n", self.i, end)
                    self.i = end + 3
                    return text[start:end], line
                j += 1
            self.line += text.count("\n", self.i, n)
            self.i = n
            return text[start:], line
        start = self.i + 1
        j = start
        while j < n:
            c = text[j]
            if basic and c == "\\":
                j += 2
                continue
            if c == quote or c == "\n":
                break
            j += 1
        end = min(j, n)
        self.i = end + 1 if end < n and text[end] == quote else end
        return text[start:end], line


def fsync_dir(directory: Path) -> None:
    """Make ``directory``'s entries durable (a rename or a new file in it survives a
    power cut)."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def replace_atomically(path: Path, data: bytes) -> None:
    """Make ``data`` the whole of ``path``, durably and all at once: a temporary file,
    fsync, rename over ``path``, fsync of the directory (a repaired journal keeps its
    intact lines; the saved settings, the club's outbox and the camera's calibration are
    written so too).

    :raises OSError: the directory cannot be written (``path`` stays as it was).
    """
    tmp = path.with_name(path.name + ".tmp")
    try:
        with tmp.open("wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
    except OSError:
        tmp.unlink(missing_ok=True)
        raise
    os.replace(tmp, path)
    fsync_dir(path.parent)
