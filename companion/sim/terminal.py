"""The terminal simulator: the real service on mock pins, the OLED drawn with half blocks
(Braille patterns when the terminal is smaller than 130x36).

In Braille, a highlighted (inverted) area -- a title, the selected row, a previewed
square -- is drawn in the terminal's reverse video with its dark pixels as the dots,
so its text reads as on the panel (inverted dots do not). A terminal too small for
even the Braille panel gets one line saying the size it needs; resizing the window
redraws at once (SIGWINCH), not at the next key.

Each key drives a gpiozero ``MockPin`` (low while "pressed"), so the keys go through
the same debounce, hold and shaker code as real buttons. All keys wait in ONE queue:
a key's press starts when the previous key's press (or shake, and the throw drawn
after it) is over, so keys typed faster than a person presses buttons still act in
the order typed (Down Down Enter on the menu opens the third game).

====================  ==============================
Up / Down, k / j      UP / DOWN
Enter                 OK
Backspace, b          BACK (short press)
u                     hold BACK: undo the last move
t                     the THROW button
s, space              shake the shaker
q                     quit
====================  ==============================
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import sys
import termios
import threading
import tty
from collections.abc import Callable
from itertools import accumulate
from typing import Any, TextIO

from PIL import Image

from companion.app.events import Quit
from companion.app.service import Parts
from companion.devices.events import ButtonName

KEYS_HELP = "Up/Down  Enter=OK  Backspace=BACK  u=undo (hold BACK)  t=THROW  s=shake  q=quit"
"""The line under the panel: 79 columns, so it fits an 80-column terminal."""
KEYS_SHORT = "Up/Down Enter=OK Bksp=BACK u=undo t=THROW s=shake q=quit"
"""The line under the panel in a terminal narrower than :data:`KEYS_HELP` (57 columns:
narrower than the Braille panel's frame)."""
REVERSE, NORMAL = "\x1b[7m", "\x1b[27m"
"""The terminal's reverse video on and off (SGR 7 and 27)."""
INVERTED_WINDOW = 4
"""A Braille cell is drawn inverted when most pixels lit in it and this many cells
either side (the same four pixel rows): a highlighted band, not a stroke of text."""


def to_half_blocks(image: Image.Image) -> list[str]:
    """``image`` (mode "1") as text: one character per two pixel rows (upper/lower half)."""
    img = image.convert("1")
    width, height = img.size
    px = img.load()
    assert px is not None
    lines = []
    for y in range(0, height, 2):
        row = []
        for x in range(width):
            top = bool(px[x, y])
            bottom = bool(px[x, y + 1]) if y + 1 < height else False
            row.append("█" if top and bottom else "▀" if top else "▄" if bottom else " ")
        lines.append("".join(row))
    return lines


_BRAILLE_DOTS = ((0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (1, 0, 0x08), (1, 1, 0x10),
                 (1, 2, 0x20), (0, 3, 0x40), (1, 3, 0x80))


def to_braille(image: Image.Image) -> list[str]:
    """``image`` as Braille patterns, 2x4 pixels a character (for terminals too small
    for half blocks: 64 columns by 16 rows for a 128x64 panel), highlighted areas in
    reverse video (see :func:`braille_cells`)."""
    lines = []
    for row in braille_cells(image):
        text, inverted = "", False
        for bits, reverse in row:
            if reverse != inverted:
                text += REVERSE if reverse else NORMAL
                inverted = reverse
            text += chr(0x2800 + bits)
        lines.append(text + (NORMAL if inverted else ""))
    return lines


def _cell_table() -> bytes:
    """The Braille pattern (0-255, from U+2800) of each 2x4 cell written as one byte:
    bits ``2 * dy + dx`` (dx 0-1 across, dy 0-3 down) set for its lit pixels."""
    table = bytearray(256)
    for index in range(256):
        for dx, dy, bit in _BRAILLE_DOTS:
            if index >> (2 * dy + dx) & 1:
                table[index] |= bit
    return bytes(table)


_CELL = _cell_table()
_BITS = bytes(n.bit_count() for n in range(256))
"""The number of set bits of each byte."""


def _cells_of(data: bytes, width: int, height: int) -> list[bytes]:
    """Per row of cells (4 pixel rows), each cell's pixels as one byte (bits
    ``2 * dy + dx``) from ``data`` (one byte a pixel, 0 or 1, ``width`` x ``height``).
    Whole rows at a time, as integers: the bytes of a row of pixels pair up by shifts
    and ors, one byte a cell, none spilling into the next (at most 3 << 6)."""
    columns = (width + 1) // 2
    blank = bytes(width + width % 2)
    rows = []
    for y in range(0, height, 4):
        index = 0
        for dy in range(4):
            line = data[(y + dy) * width:(y + dy + 1) * width] if y + dy < height else b""
            line = line + blank[len(line):]
            pairs = (int.from_bytes(line[0::2], "big") | int.from_bytes(line[1::2], "big") << 1)
            index |= pairs << 2 * dy
        rows.append(index.to_bytes(columns, "big"))
    return rows


def braille_cells(image: Image.Image) -> list[list[tuple[int, bool]]]:
    """``image`` as rows of Braille cells (2x4 pixels each): ``(dots, reverse)``, the
    pattern's bits (0-255, from U+2800) and whether the cell is drawn in reverse video.

    A cell is reversed when more than half the pixels are lit in it and in the
    :data:`INVERTED_WINDOW` cells either side of it: then its dots are its DARK pixels
    (the text of a highlighted row), which reverse video shows dark on light, as the
    panel does. Either way the cells give back the image exactly: a lit pixel is a dot
    of a normal cell or a gap of a reversed one."""
    img = image.convert("L")  # one byte a pixel, 0 or 255: read as one bytes object
    width, height = img.size
    data = img.point(lambda v: 1 if v >= 128 else 0).tobytes()
    lit_rows = _cells_of(data, width, height)
    inside_rows = _cells_of(b"\x01" * (width * height), width, height)  # the panel's pixels
    rows: list[list[tuple[int, bool]]] = []
    for lit, inside in zip(lit_rows, inside_rows, strict=True):
        # running counts (lit pixels, pixels) before each cell: a window's in two lookups
        lit_before = [0, *accumulate(lit.translate(_BITS))]
        pixels_before = [0, *accumulate(inside.translate(_BITS))]
        dots = lit.translate(_CELL)
        every = inside.translate(_CELL)
        count = len(lit)
        row = []
        for i in range(count):
            lo, hi = max(0, i - INVERTED_WINDOW), min(count, i + INVERTED_WINDOW + 1)
            reverse = 2 * (lit_before[hi] - lit_before[lo]) > pixels_before[hi] - pixels_before[lo]
            row.append((every[i] & ~dots[i] if reverse else dots[i], reverse))
        rows.append(row)
    return rows


def braille_size(image: Image.Image) -> tuple[int, int]:
    """The (columns, rows) the Braille panel needs: its frame and the keys' line."""
    return (image.width + 1) // 2 + 2, (image.height + 3) // 4 + 3


class FramePrinter:
    """An ``on_frame`` hook that redraws the panel at the top of the terminal: in half
    blocks (one character per pixel column, two pixel rows) when the terminal has room,
    else in Braille patterns; in a terminal too small for those, one line that says the
    size to make it. ``size()`` gives the terminal's (columns, rows) (default: the
    terminal's own). :meth:`redraw` draws the last frame again (after a resize); a
    lock keeps a redraw from another thread from mixing with a frame."""

    def __init__(self, out: TextIO, size: Callable[[], tuple[int, int]] | None = None) -> None:
        self.out = out
        self.size = size or _terminal_size
        self.last: Image.Image | None = None
        self._lock = threading.Lock()

    def __call__(self, image: Image.Image) -> None:
        with self._lock:
            self.last = image
            self._draw(image)

    def redraw(self) -> None:
        """Draw the last frame again, for the terminal's size now (nothing before the
        first frame)."""
        with self._lock:
            if self.last is not None:
                self._draw(self.last)

    def _draw(self, image: Image.Image) -> None:
        cols, rows = self.size()
        need_cols, need_rows = braille_size(image)
        if cols < need_cols or rows < need_rows:
            say = f"make the window at least {need_cols}x{need_rows} (it is {cols}x{rows})"
            self.out.write("\x1b[H\x1b[J" + say[: max(cols - 1, 1)])
            self.out.flush()
            return
        fits = cols >= image.width + 2 and rows >= image.height // 2 + 4
        art = to_half_blocks(image) if fits else to_braille(image)
        border = "+" + "-" * (image.width if fits else need_cols - 2) + "+"
        keys = KEYS_HELP if cols > len(KEYS_HELP) else KEYS_SHORT
        text = "\n".join(["\x1b[H\x1b[J" + border, *(f"|{line}|" for line in art),
                          border, keys])  # no newline after the keys: a window of
        # exactly the rows needed must not scroll the top border away
        self.out.write(text)
        self.out.flush()


def _terminal_size() -> tuple[int, int]:
    """The terminal's size from the terminal itself (stdout's, as the kernel has it
    after a resize); ``shutil``'s answer (``$COLUMNS``/``$LINES`` first, else 80x24)
    only when stdout is not a terminal. ``$COLUMNS`` is not read first: a shell or a
    test runner that exports it would pin the panel to a size the window no longer has."""
    import shutil

    try:
        size = os.get_terminal_size(sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        size = shutil.get_terminal_size()
    return size.columns, size.lines


def frame_printer(
    out: TextIO, size: Callable[[], tuple[int, int]] | None = None
) -> FramePrinter:
    """The :class:`FramePrinter` of ``out`` (``size()``: the terminal's columns, rows)."""
    return FramePrinter(out, size)


class KeyReader:
    """Reads keys from a terminal in cbreak mode and drives the mock pins of ``parts``."""

    def __init__(
        self, parts: Parts, stdin: Any = None, on_resize: Callable[[], None] | None = None
    ) -> None:
        self.parts = parts
        self.stdin = stdin or sys.stdin
        self.fd = self.stdin.fileno()
        self._stop_r, self._stop_w = os.pipe()
        self._resize_r, self.resize_w = os.pipe()
        """A byte written to :attr:`resize_w` (by the SIGWINCH handler: nothing else is
        safe in a signal handler) makes the reader's thread call ``on_resize``."""
        os.set_blocking(self.resize_w, False)
        self.on_resize = on_resize
        conf = parts.config
        self.pins = {b: conf[f"buttons.{b.value}"] for b in ButtonName}
        self.hold = float(conf["buttons.hold"])
        self.shaker = conf["shaker.pin"]
        self.min_edges = int(conf["shaker.min_edges"])
        self.quiet = float(conf["shaker.quiet"])
        self._lock = threading.Lock()
        self._free = float("-inf")
        """When the last key typed is over: the next one starts then (or now, if later)."""
        self._pending = b""
        self._thread = threading.Thread(target=self._run, name="companion-keys", daemon=True)

    def start(self) -> None:
        """Start reading keys in a daemon thread."""
        self._thread.start()

    def stop(self) -> None:
        """Stop reading keys (wakes the thread through a pipe); its pipes are closed."""
        os.write(self._stop_w, b"x")
        self._thread.join(timeout=2)
        for fd in (self._stop_r, self._stop_w, self._resize_r, self.resize_w):
            os.close(fd)

    def _tap(self, button: ButtonName, seconds: float = 0.08) -> None:
        """Press ``button`` for ``seconds`` once every key typed before it is done."""
        bcm = self.pins.get(button)
        if bcm is None:
            return
        pin = self.parts.pin_factory.pin(bcm)
        gap = 2 * float(self.parts.config["buttons.debounce"])
        self._queue([(0.0, pin.drive_low), (seconds, pin.drive_high)], seconds + gap)

    def _shake(self) -> None:
        """Shake the shaker once every key typed before is done; the next key waits
        until the shake has ended (``shaker.quiet`` without an edge) and been drawn."""
        if self.shaker is None:
            return
        pin = self.parts.pin_factory.pin(self.shaker)
        edges = self.min_edges + 4
        steps = [(0.015 * i, pin.drive_low if i % 2 == 0 else pin.drive_high)
                 for i in range(edges)]
        steps.append((0.015 * edges, pin.drive_high))
        self._queue(steps, 0.015 * edges + self.quiet + 0.05)

    def _queue(self, steps: list[tuple[float, Callable[[], None]]], length: float) -> None:
        """Schedule ``steps`` (seconds from the start, pin action) to start when the
        previous key's are over, and keep the next key ``length`` seconds after that
        start. ONE queue for every button and the shaker: keys act in the order typed,
        as fast as they come, each still through its mock pin and the real debounce."""
        sched = self.parts.scheduler
        with self._lock:
            now = sched.now()
            start = max(now, self._free)
            self._free = start + length
            for offset, action in steps:
                sched.call_later(start - now + offset, action)

    def _key(self, key: bytes) -> None:
        if key in (b"\x1b[A", b"k", b"w"):
            self._tap(ButtonName.UP)
        elif key in (b"\x1b[B", b"j"):
            self._tap(ButtonName.DOWN)
        elif key in (b"\r", b"\n"):
            self._tap(ButtonName.OK)
        elif key in (b"\x7f", b"\x08", b"b"):
            self._tap(ButtonName.BACK)
        elif key == b"u":
            self._tap(ButtonName.BACK, self.hold + 0.2)
        elif key == b"t":
            self._tap(ButtonName.THROW)
        elif key in (b"s", b" "):
            self._shake()
        elif key in (b"q", b"\x03"):
            self.parts.service.post(Quit("q pressed"))

    def _run(self) -> None:
        while True:
            ready, _, _ = select.select([self.fd, self._stop_r, self._resize_r], [], [])
            if self._stop_r in ready:
                return
            if self._resize_r in ready:
                os.read(self._resize_r, 64)  # several resizes: one redraw
                if self.on_resize is not None:
                    self.on_resize()
                if self.fd not in ready:
                    continue
            data = os.read(self.fd, 64)
            if not data:
                self.parts.service.post(Quit("end of input"))
                return
            self.feed(data)

    def feed(self, data: bytes) -> None:
        """Act on the keys in ``data`` (bytes as the terminal sends them), in order; an
        escape sequence cut off at the end of ``data`` is completed by the next call."""
        data = self._pending + data
        self._pending = b""
        i = 0
        while i < len(data):
            if data[i : i + 1] == b"\x1b" and i + 2 >= len(data) and data[i + 1 : i + 2] in (b"", b"[", b"O"):
                self._pending = data[i:]  # the rest of the sequence is still on its way
                return
            if data[i : i + 2] in (b"\x1b[", b"\x1bO"):
                self._key(b"\x1b[" + data[i + 2 : i + 3])  # ESC O A: the same arrow
                i += 3
            else:
                self._key(data[i : i + 1])
                i += 1


def run_in_terminal(
    parts: Parts, run: Callable[[], None], printer: FramePrinter | None = None
) -> None:
    """Put the terminal in cbreak mode, read keys, call ``run()`` (the loop), restore.
    With ``printer`` (the service's ``on_frame``), a resized window is redrawn at once."""
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    sys.stdout.write("\x1b[2J\x1b[?25l")
    reader = KeyReader(parts, on_resize=printer.redraw if printer is not None else None)

    def resized(signum: int, frame: object) -> None:
        with contextlib.suppress(OSError):  # the pipe is full: a redraw is on its way
            os.write(reader.resize_w, b"w")

    previous = signal.signal(signal.SIGWINCH, resized)
    try:
        tty.setcbreak(fd)
        reader.start()
        run()
    finally:
        signal.signal(signal.SIGWINCH, previous)
        reader.stop()
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        sys.stdout.write("\x1b[?25h\n")
        sys.stdout.flush()
