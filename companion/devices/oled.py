"""Windowed OLED updates: send the panel only the part of a frame that changed.

luma.oled's ``ssd1306`` and ``sh1106`` drivers send the whole frame on every
``display()``: 1024 bytes for 128x64, 23.3 ms on a 400 kHz I2C bus (hardware/README.md),
even when a press only moved the cursor one row. :class:`WindowedSSD1306` and
:class:`WindowedSH1106` are those drivers (luma's own classes: their init sequence,
``preprocess`` rotation, contrast, sleep and serial interface all still run) with a
``display()`` that sends only what the panel does not already show:

* the frame is packed into the controllers' display RAM (GDDRAM) layout: a *page* is
  8 pixel rows, one byte per column, the page's top row in bit 0 (:func:`pack`);
* each page that differs from the last frame sent is trimmed to its changed column
  span;
* SSD1306 (datasheet 10.1.3-10.1.5: horizontal addressing mode, ``COLUMNADDR`` 0x21 and
  ``PAGEADDR`` 0x22 set a window the data fills row of pages by row): a run of adjacent
  pages may be sent as one window when that costs fewer clock periods than a window
  each (:func:`plan_ssd1306`); a change that covers the panel is luma's full frame;
* SH1106 (page addressing only: ``0xB0 | page``, lower column ``0x00 | low nibble``,
  higher column ``0x10 | high nibble``; the column advances with each data byte): each
  changed page is one 3-byte command and its span (:func:`plan_sh1106`). A 128-wide
  panel shows RAM columns 2-129 of the SH1106's 132 (luma's ``page_address_offset``).

Costs are I2C clock periods, counted as hardware/README.md counts them
(:func:`transfer_periods`). When the panel's RAM is unknown -- the first frame, after
``hide()`` (the panel slept: treat its RAM as lost), after any failed transfer (a glitch
or a reconnected panel) -- the next frame is sent in full, after luma's init sequence
again (the controller may have been reset: see :class:`_TrackedRam`).
``windowed=False`` (config ``display.windowed = false``) sends every frame whole, the
bytes luma's own ``display()`` sends (tests/devices/test_oled.py compares them), but
packed by :func:`pack` from ``Image.tobytes()``: luma's ``display()`` walks the pixels
with ``Image.getdata()``, deprecated in Pillow 13 and gone in Pillow 14.

:class:`BusRecorder` stands in for ``smbus2.SMBus`` off the Pi and keeps every
transfer, so tests and ``benchmarks/oled_frame_cost.py`` count the bytes luma's real
``i2c`` interface would put on the wire.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from luma.core.device import device
from luma.oled.device import sh1106, ssd1306
from PIL import Image

START_STOP = 2
"""Clock periods for an I2C transfer's START and STOP conditions (about one each)."""

COMMAND, DATA = 0x00, 0x40
"""The control byte that opens an SSD1306 / SH1106 I2C transfer: commands or RAM data."""


def transfer_periods(payload: int) -> int:
    """I2C clock periods of one write transfer carrying ``payload`` bytes (commands or
    data) to the panel: 9 periods per byte (8 bits and the ACK) for the address byte,
    the control byte and the payload, plus :data:`START_STOP`.

    >>> transfer_periods(6) + transfer_periods(1024)  # luma's SSD1306 frame
    9310
    """
    return 9 * (payload + 2) + START_STOP


def pack(image: Image.Image, width: int, pages: int) -> bytes:
    """The GDDRAM bytes of ``image`` (mode "1", ``width`` x ``8 * pages`` pixels, in
    the panel's own orientation, i.e. after ``preprocess``): ``width * pages`` bytes,
    page by page; byte ``p * width + x`` is column ``x`` of page ``p``, pixel row
    ``8 * p + b`` in bit ``b`` (what luma's drivers compute pixel by pixel)."""
    # Turned a quarter clockwise, each panel column becomes one row of ``pages`` bytes
    # whose first byte holds the bottom page, its bottom pixel in the high bit.
    columns = image.transpose(Image.Transpose.ROTATE_270).tobytes()
    return b"".join(columns[pages - 1 - p :: pages] for p in range(pages))


Span = tuple[int, int]
"""First and last column (inclusive) of a page's change."""


def changed_spans(old: bytes, new: bytes, width: int, pages: int) -> list[Span | None]:
    """For each page, the first and last column where ``new`` differs from ``old``
    (both as :func:`pack` gives them), or ``None`` for an unchanged page."""
    spans: list[Span | None] = []
    for p in range(pages):
        start = p * width
        a, b = old[start : start + width], new[start : start + width]
        if a == b:
            spans.append(None)
            continue
        first = 0
        while a[first] == b[first]:
            first += 1
        last = width - 1
        while a[last] == b[last]:
            last -= 1
        spans.append((first, last))
    return spans


Window = tuple[int, int, int, int]
"""A rectangle of GDDRAM: first page, last page, first column, last column (inclusive,
columns as the panel shows them, before any controller column offset)."""


def ssd1306_window_periods(window: Window) -> int:
    """Clock periods of one SSD1306 window: the 6 command bytes of ``COLUMNADDR`` and
    ``PAGEADDR``, then the window's data in one transfer."""
    p0, p1, x0, x1 = window
    return transfer_periods(6) + transfer_periods((p1 - p0 + 1) * (x1 - x0 + 1))


def plan_ssd1306(spans: Sequence[Span | None]) -> list[Window]:
    """The cheapest set of SSD1306 windows that covers every changed page of
    ``spans`` (from :func:`changed_spans`): each window is a run of adjacent pages and
    the union of their spans (an unchanged page inside a run is sent again as it is).
    Chosen by dynamic programming over the pages (8 at most); ties go to fewer windows."""
    pages = len(spans)
    # best[i]: (periods, windows) covering the changes of pages < i
    best: list[tuple[int, list[Window]]] = [(0, [])]
    for end in range(1, pages + 1):
        choice: tuple[int, list[Window]] | None = None
        if spans[end - 1] is None:
            choice = best[end - 1]
        for start in range(end - 1, -1, -1):
            inside = [s for s in spans[start:end] if s is not None]
            if not inside or spans[start] is None:
                continue  # a window starts on a changed page
            window = (start, end - 1, min(s[0] for s in inside), max(s[1] for s in inside))
            cost = best[start][0] + ssd1306_window_periods(window)
            if choice is None or cost <= choice[0]:  # longer runs come later
                choice = (cost, [*best[start][1], window])
        assert choice is not None  # page end-1 is unchanged, or starts a window itself
        best.append(choice)
    return best[pages][1]


def plan_sh1106(spans: Sequence[Span | None]) -> list[tuple[int, Span]]:
    """The SH1106 page writes for ``spans``: each changed page with its span (page
    addressing cannot cover two pages with one write, and a span never costs more
    than its whole page, so this is also never dearer than the full frame)."""
    return [(p, span) for p, span in enumerate(spans) if span is not None]


class _TrackedRam(device):  # type: ignore[misc]  # luma has no type hints
    """What both windowed drivers share: they remember the panel's RAM (``_ram``) and
    forget it when a transfer fails or the panel sleeps, so the next frame goes whole;
    they re-initialise the controller after a failure or a sleep (below); luma's cleanup
    runs once. Put before luma's driver class in the bases.

    A failed transfer may mean the panel lost power for a moment (a loose wire, a weak
    supply): its controller is then back in its power-on state -- display off, charge
    pump off, page addressing, no remaps -- and shows nothing whatever RAM it is sent.
    So the commands luma's own ``__init__`` sent (recorded as it sends them, up to its
    first frame) are sent again before the next frame, then the contrast last set, the
    frame in full, and DISPLAYON unless the panel was hidden. The same after
    :meth:`hide`: a panel asleep sees no transfers, so a power blip meanwhile would go
    unnoticed; waking re-initialises it (about 30 command bytes, under 1 ms at 400 kHz).
    """

    _ram: bytes | None
    _cleaned: bool
    _init_commands: list[tuple[int, ...]] | None
    _recording: bool
    _needs_init: bool
    _shown: bool
    _level: int | None

    def _start_recording(self) -> None:
        """Call before luma's ``__init__``: what it sends until its first frame is its
        init sequence."""
        self._ram = None
        self._cleaned = False
        self._init_commands = []
        self._recording = True
        self._needs_init = False
        self._shown = False
        self._level = None

    def command(self, *cmd: int) -> None:
        """Send command bytes; a failed transfer makes the panel's RAM and state unknown."""
        if self._recording and self._init_commands is not None:
            self._init_commands.append(cmd)
        try:
            super().command(*cmd)
        except BaseException:
            self._lost()
            raise

    def data(self, data: Sequence[int]) -> None:
        """Send RAM data bytes; a failed transfer makes the panel's RAM and state unknown."""
        try:
            super().data(data)
        except BaseException:
            self._lost()
            raise

    def _lost(self) -> None:
        self._ram = None
        self._needs_init = not self._recording

    def _before_frame(self) -> bool:
        """Called first by ``display()``: ends the recording of luma's init; sends it
        again if the controller may have been reset. Returns whether it did (the frame
        then goes whole, followed by DISPLAYON: :meth:`_after_frame`)."""
        self._recording = False
        if not self._needs_init or self._cleaned:
            return False
        self._replay_init()
        return True

    def _after_frame(self, reinitialised: bool) -> None:
        if reinitialised:
            if self._shown:
                self.command(self._const.DISPLAYON)
            self._needs_init = False

    def _replay_init(self) -> None:
        self._ram = None
        for cmd in self._init_commands or ():
            self.command(*cmd)
        if self._level is not None:
            super().contrast(self._level)

    def contrast(self, level: int) -> None:
        """Set the contrast (0-255); it is sent again after a re-initialisation."""
        super().contrast(level)
        self._level = level

    def show(self) -> None:
        """Switch the panel on (wake), re-initialising its controller first if it slept
        or a transfer failed (its RAM is then unknown: the next frame goes whole)."""
        self._shown = True
        if self._needs_init and not self._cleaned and not self._recording:
            self._replay_init()
        super().show()
        self._needs_init = False

    def hide(self) -> None:
        """Switch the panel off (sleep); the next frame after it re-initialises the
        controller and is sent in full."""
        self._ram = None
        self._shown = False
        self._needs_init = not self._recording
        super().hide()

    def cleanup(self) -> None:
        """luma's cleanup (blank the panel unless ``persist``, close the bus), once:
        luma also calls it from the exit hook it registered."""
        if self._cleaned:
            return
        self._cleaned = True
        super().cleanup()


class WindowedSSD1306(_TrackedRam, ssd1306):  # type: ignore[misc]  # luma has no type hints
    """luma.oled's ``ssd1306`` sending only the changed windows (see the module).

    ``serial_interface``: luma's ``i2c`` (or ``noop``); ``width`` x ``height`` pixels
    (128x64 or 128x32); ``rotate``: 0-3 quarter turns clockwise; ``windowed``: ``False``
    to send every frame whole (the bytes of luma's own full-frame ``display()``).

    :raises luma.core.error.DeviceDisplayModeError: an unsupported size.
    :raises luma.core.error.DeviceNotFoundError: the panel does not answer (at init or
        at any transfer).
    """

    def __init__(
        self,
        serial_interface: Any = None,
        width: int = 128,
        height: int = 64,
        rotate: int = 0,
        *,
        windowed: bool = True,
    ) -> None:
        self.windowed = windowed
        self._start_recording()
        super().__init__(serial_interface, width=width, height=height, rotate=rotate)

    def display(self, image: Image.Image) -> None:
        """Show ``image`` (mode "1", the device's ``size``), sending only what changed.

        :raises ValueError: a frame of another mode or size.
        :raises luma.core.error.DeviceNotFoundError: a command transfer failed;
        :raises OSError: a data transfer failed (luma passes smbus2's error on); after
            either the next frame is sent in full.
        """
        _check_frame(self, image)
        again = self._before_frame()
        new = pack(self.preprocess(image), self._w, self._pages)
        old = self._ram if self.windowed else None
        if old is None:
            windows = [(0, self._pages - 1, 0, self._w - 1)]  # luma's frame, byte for byte
        else:
            windows = plan_ssd1306(changed_spans(old, new, self._w, self._pages))
        for p0, p1, x0, x1 in windows:
            self.command(
                self._const.COLUMNADDR, self._colstart + x0, self._colstart + x1,
                self._const.PAGEADDR, p0, p1,
            )
            w = self._w
            self.data(list(b"".join(new[p * w + x0 : p * w + x1 + 1] for p in range(p0, p1 + 1))))
        self._ram = new
        self._after_frame(again)


class WindowedSH1106(_TrackedRam, sh1106):  # type: ignore[misc]  # luma has no type hints
    """luma.oled's ``sh1106`` sending only the changed part of each page (see the
    module). Parameters, errors: as :class:`WindowedSSD1306`; ``page_address_offset``:
    the RAM column of the panel's first pixel column (2 on 128-wide panels, luma's
    default)."""

    def __init__(
        self,
        serial_interface: Any = None,
        width: int = 128,
        height: int = 64,
        rotate: int = 0,
        *,
        windowed: bool = True,
        page_address_offset: int = 0x02,
    ) -> None:
        self.windowed = windowed
        self._start_recording()
        super().__init__(serial_interface, width=width, height=height, rotate=rotate,
                         page_address_offset=page_address_offset)

    def display(self, image: Image.Image) -> None:
        """Show ``image`` (mode "1", the device's ``size``), sending only what changed.

        :raises ValueError: a frame of another mode or size.
        :raises luma.core.error.DeviceNotFoundError: a command transfer failed;
        :raises OSError: a data transfer failed (luma passes smbus2's error on); after
            either the next frame is sent in full.
        """
        _check_frame(self, image)
        again = self._before_frame()
        new = pack(self.preprocess(image), self._w, self._pages)
        old = self._ram if self.windowed else None
        if old is None:  # luma's frame, byte for byte
            writes = [(p, (0, self._w - 1)) for p in range(self._pages)]
        else:
            writes = plan_sh1106(changed_spans(old, new, self._w, self._pages))
        for page, (x0, x1) in writes:
            column = self._page_address_offset + x0
            self.command(0xB0 | page, column & 0x0F, 0x10 | column >> 4)
            self.data(list(new[page * self._w + x0 : page * self._w + x1 + 1]))
        self._ram = new
        self._after_frame(again)


def _check_frame(device: Any, image: Image.Image) -> None:
    if image.mode != device.mode or image.size != device.size:
        raise ValueError(
            f"a frame for this display must be mode {device.mode!r}, "
            f"{device.width}x{device.height} pixels; got mode {image.mode!r}, "
            f"{image.width}x{image.height}"
        )


class BusRecorder:
    """Stands in for ``smbus2.SMBus`` (put it in place of ``smbus2.SMBus`` before luma's
    ``i2c(port=...)`` opens the bus): keeps each write transfer, as the bytes after the
    address byte (the control byte first: :data:`COMMAND` or :data:`DATA`)."""

    def __init__(self, bus: int | None = None, force: bool = False) -> None:
        self.transfers: list[bytes] = []
        self.closed = 0
        """How often ``close()`` was called."""

    def write_i2c_block_data(
        self, address: int, register: int, data: Sequence[int], force: Any = None
    ) -> None:
        """What luma's ``i2c.command()`` calls (and ``data()`` on an unmanaged bus)."""
        self.transfers.append(bytes([register, *data]))

    def i2c_rdwr(self, *messages: Any) -> None:
        """What luma's ``i2c.data()`` calls with one smbus2 ``i2c_msg`` per transfer."""
        self.transfers.extend(bytes(list(message)) for message in messages)

    def close(self) -> None:
        """Count the close (luma closes the bus in ``cleanup()``)."""
        self.closed += 1

    def periods(self) -> int:
        """Clock periods of every transfer so far (:func:`transfer_periods`)."""
        return sum(transfer_periods(len(t) - 1) for t in self.transfers)
