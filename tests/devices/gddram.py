"""Models of the SSD1306's and the SH1106's display RAM (GDDRAM), written from the
datasheets, fed with the I2C transfers a panel receives.

Each transfer is the bytes after the address byte (as
:class:`companion.devices.oled.BusRecorder` keeps them): a control byte, 0x00 for a
stream of commands or 0x40 for RAM data, then the payload. The models know nothing of
luma or of the companion's drivers; a command they do not know is an error, so a
driver that sent something else would fail the tests.

* SSD1306 (Solomon Systech datasheet rev 1.1): 128 columns x 8 pages. Memory
  addressing mode 0x20 (10.1.3): 0 horizontal, 1 vertical, 2 page (the reset default).
  Horizontal mode (8.7, figure 10-3): ``COLUMNADDR`` 0x21 start end and ``PAGEADDR``
  0x22 start end (10.1.4, 10.1.5) set a window and put the pointer at its top left;
  each data byte goes to (column, page), then the column advances; past the window's
  last column it returns to the first and the page advances; past the last page it
  returns to the first. Page mode: 0xB0-0xB7 page, 0x00-0x0F / 0x10-0x1F column low /
  high nibble; the column advances and wraps within the page.
* SH1106 (Sino Wealth datasheet v2.3): 132 columns x 8 pages, page addressing only:
  0xB0-0xB7 page (command 12), 0x00-0x0F lower and 0x10-0x1F higher column nibble
  (commands 1, 2); each data byte advances the column (a write past column 131 is
  an error here: a driver must never do it).

Both models also keep the settings a power-on reset clears (SSD1306 datasheet 10.1,
table 9-1 "reset" column; SH1106 datasheet's command table): display on/off (reset
off), charge pump (reset off), memory addressing mode (reset page), segment remap and
COM scan direction (reset none), contrast, multiplex ratio, display offset, start line,
COM pins, clock, pre-charge, VCOM level, entire-display-on and inverse. :meth:`power_loss`
is a blip of the panel's supply: settings back to their reset values and the RAM lost.
:meth:`lit` says whether the panel shows its RAM as the driver configured it: display
on, charge pump on, and every setting as it was after the driver's own initialisation.
"""

from __future__ import annotations

import random

# Commands followed by one argument byte, and single-byte commands (ranges inclusive).
SSD1306_WITH_ARGUMENT = {
    0x20: "memory addressing mode", 0x81: "contrast", 0x8D: "charge pump",
    0xA8: "multiplex ratio", 0xD3: "display offset", 0xD5: "clock divide",
    0xD9: "pre-charge period", 0xDA: "COM pins", 0xDB: "VCOMH level",
}
SSD1306_SINGLE = [
    (0x40, 0x7F), (0xA0, 0xA1), (0xA4, 0xA7), (0xAE, 0xAF), (0xC0, 0xC0), (0xC8, 0xC8),
    (0xE3, 0xE3), (0x2E, 0x2F),
]
SH1106_WITH_ARGUMENT = {
    0x81: "contrast", 0xA8: "multiplex ratio", 0xAD: "DC-DC control",
    0xD3: "display offset", 0xD5: "clock divide", 0xD9: "pre-charge period",
    0xDA: "COM pins", 0xDB: "VCOM deselect level",
    # Not in the SH1106's command table but sent by luma's init (the SSD1306's charge
    # pump, 0x8D 0x14): taken as a command with its argument, which it is on the
    # SSD1306-compatible SH1106 modules sold with it.
    0x8D: "charge pump (SSD1306)",
}
SH1106_SINGLE = [
    (0x30, 0x33), (0x40, 0x7F), (0xA0, 0xA1), (0xA4, 0xA7), (0xAE, 0xAF), (0xC0, 0xCF),
    (0xE0, 0xE0), (0xE3, 0xE3), (0xEE, 0xEE),
    # 0x20 (the SSD1306's memory addressing mode) is not an SH1106 command either;
    # luma's init sends it alone: a no-op.
    (0x20, 0x20),
]


SSD1306_RESET = {
    "display on": 0, "charge pump": 0x10, "addressing mode": 2, "segment remap": 0,
    "COM scan": 0, "contrast": 0x7F, "multiplex ratio": 63, "display offset": 0,
    "start line": 0, "COM pins": 0x12, "clock divide": 0x80, "pre-charge period": 0x22,
    "VCOMH level": 0x20, "entire display on": 0, "inverse": 0,
}
"""The SSD1306's settings after a power-on reset (datasheet table 9-1)."""
SH1106_RESET = {
    "display on": 0, "charge pump (SSD1306)": 0x10, "DC-DC control": 0x8B,
    "segment remap": 0, "COM scan": 0, "contrast": 0x80, "multiplex ratio": 63,
    "display offset": 0, "start line": 0, "COM pins": 0x12, "clock divide": 0x50,
    "pre-charge period": 0x22, "VCOM deselect level": 0x35, "entire display on": 0,
    "inverse": 0, "pump voltage": 2,
}
"""The SH1106's settings after a power-on reset (datasheet command table)."""


class ModelError(AssertionError):
    """The driver sent something the controller would not take as intended."""


def _single(byte: int, table: list[tuple[int, int]]) -> bool:
    return any(low <= byte <= high for low, high in table)


def _single_setting(byte: int) -> tuple[str, int] | None:
    """The setting a one-byte command of both controllers sets, and its value."""
    if 0x40 <= byte <= 0x7F:
        return "start line", byte - 0x40
    if byte in (0xA0, 0xA1):
        return "segment remap", byte - 0xA0
    if byte in (0xA4, 0xA5):
        return "entire display on", byte - 0xA4
    if byte in (0xA6, 0xA7):
        return "inverse", byte - 0xA6
    if byte in (0xAE, 0xAF):
        return "display on", byte - 0xAE
    if 0xC0 <= byte <= 0xCF:
        return "COM scan", (byte >> 3) & 1
    if 0x30 <= byte <= 0x33:
        return "pump voltage", byte - 0x30
    return None


class _Settings:
    """The settings a power-on reset clears (see the module)."""

    RESET: dict[str, int]

    def _reset_settings(self) -> None:
        self.settings = dict(self.RESET)

    def lit(self, configured: dict[str, int]) -> bool:
        """Whether the panel shows its RAM as configured (``configured``: the settings
        right after the driver's initialisation): display on, charge pump on, every
        setting as then."""
        pump = self.settings.get("charge pump", self.settings.get("charge pump (SSD1306)", 0))
        return bool(self.settings["display on"]) and bool(pump & 0x04) \
            and self.settings == configured


class SSD1306Ram(_Settings):
    """The SSD1306's 128 x 8 pages of GDDRAM, starting with random contents (the RAM
    is not cleared at power-on), and its settings (starting at their reset values)."""

    COLUMNS = 128
    PAGES = 8
    RESET = SSD1306_RESET

    def __init__(self, rng: random.Random) -> None:
        self.ram = bytearray(rng.randbytes(self.COLUMNS * self.PAGES))
        self._power_on()

    def _power_on(self) -> None:
        self._reset_settings()
        self.col_start, self.col_end = 0, self.COLUMNS - 1
        self.page_start, self.page_end = 0, self.PAGES - 1
        self.column = 0
        self.page = 0
        self._pending: list[int] = []

    @property
    def mode(self) -> int:
        """The memory addressing mode: 0 horizontal, 1 vertical, 2 page."""
        return self.settings["addressing mode"]

    def lose(self, rng: random.Random) -> None:
        """The panel lost its RAM (power, a reconnect): random contents again."""
        self.ram[:] = rng.randbytes(len(self.ram))

    def power_loss(self, rng: random.Random) -> None:
        """A blip of the supply: RAM lost, every setting back to its reset value."""
        self.lose(rng)
        self._power_on()

    def feed(self, transfer: bytes) -> None:
        control, payload = transfer[0], transfer[1:]
        if control == 0x00:
            for byte in payload:
                self._command_byte(byte)
        elif control == 0x40:
            if self._pending:
                raise ModelError(f"data while command {self._pending} waits for arguments")
            for byte in payload:
                self._write(byte)
        else:
            raise ModelError(f"unknown control byte 0x{control:02X}")

    def _command_byte(self, byte: int) -> None:
        if self._pending:
            self._pending.append(byte)
            needed = 3 if self._pending[0] in (0x21, 0x22) else 2
            if len(self._pending) == needed:
                command, self._pending = self._pending, []
                self._run(command)
            return
        if byte in SSD1306_WITH_ARGUMENT or byte in (0x21, 0x22):
            self._pending = [byte]
        elif 0x00 <= byte <= 0x0F:
            self.column = (self.column & 0xF0) | byte
        elif 0x10 <= byte <= 0x1F:
            self.column = ((byte & 0x07) << 4) | (self.column & 0x0F)
        elif 0xB0 <= byte <= 0xB7:
            self.page = byte & 0x07
        elif not _single(byte, SSD1306_SINGLE):
            raise ModelError(f"not an SSD1306 command: 0x{byte:02X}")
        elif (setting := _single_setting(byte)) is not None:
            self.settings[setting[0]] = setting[1]

    def _run(self, command: list[int]) -> None:
        code = command[0]
        if code == 0x20:
            if command[1] not in (0, 1, 2):
                raise ModelError(f"bad addressing mode {command[1]}")
            self.settings["addressing mode"] = command[1]
        elif code in SSD1306_WITH_ARGUMENT:
            self.settings[SSD1306_WITH_ARGUMENT[code]] = command[1]
        elif code == 0x21:
            start, end = command[1], command[2]
            if not start <= end < self.COLUMNS:
                raise ModelError(f"bad column window {start}-{end}")
            self.col_start, self.col_end, self.column = start, end, start
        elif code == 0x22:
            start, end = command[1], command[2]
            if not start <= end < self.PAGES:
                raise ModelError(f"bad page window {start}-{end}")
            self.page_start, self.page_end, self.page = start, end, start

    def _write(self, byte: int) -> None:
        self.ram[self.page * self.COLUMNS + self.column] = byte
        if self.mode == 0:
            self.column += 1
            if self.column > self.col_end:
                self.column = self.col_start
                self.page += 1
                if self.page > self.page_end:
                    self.page = self.page_start
        elif self.mode == 2:
            self.column = (self.column + 1) % self.COLUMNS
        else:
            raise ModelError("vertical addressing mode is not modelled")

    def visible(self, first_column: int, width: int, pages: int) -> bytes:
        """The RAM a ``width`` x ``8 * pages`` panel shows, page by page."""
        return b"".join(
            bytes(self.ram[p * self.COLUMNS + first_column : p * self.COLUMNS + first_column + width])
            for p in range(pages)
        )


class SH1106Ram(_Settings):
    """The SH1106's 132 x 8 pages of display RAM, starting with random contents, and
    its settings (starting at their reset values)."""

    COLUMNS = 132
    PAGES = 8
    RESET = SH1106_RESET

    def __init__(self, rng: random.Random) -> None:
        self.ram = bytearray(rng.randbytes(self.COLUMNS * self.PAGES))
        self._power_on()

    def _power_on(self) -> None:
        self._reset_settings()
        self.column = 0
        self.page = 0
        self._pending: list[int] = []

    def lose(self, rng: random.Random) -> None:
        """The panel lost its RAM (power, a reconnect): random contents again."""
        self.ram[:] = rng.randbytes(len(self.ram))

    def power_loss(self, rng: random.Random) -> None:
        """A blip of the supply: RAM lost, every setting back to its reset value."""
        self.lose(rng)
        self._power_on()

    def feed(self, transfer: bytes) -> None:
        control, payload = transfer[0], transfer[1:]
        if control == 0x00:
            for byte in payload:
                self._command_byte(byte)
        elif control == 0x40:
            if self._pending:
                raise ModelError(f"data while command {self._pending} waits for an argument")
            for byte in payload:
                if self.column >= self.COLUMNS:
                    raise ModelError(f"write past the last column on page {self.page}")
                self.ram[self.page * self.COLUMNS + self.column] = byte
                self.column += 1
        else:
            raise ModelError(f"unknown control byte 0x{control:02X}")

    def _command_byte(self, byte: int) -> None:
        if self._pending:
            self.settings[SH1106_WITH_ARGUMENT[self._pending[0]]] = byte
            self._pending = []
            return
        if byte in SH1106_WITH_ARGUMENT:
            self._pending = [byte]
        elif 0x00 <= byte <= 0x0F:
            self.column = (self.column & 0xF0) | byte
        elif 0x10 <= byte <= 0x1F:
            self.column = ((byte & 0x0F) << 4) | (self.column & 0x0F)
        elif 0xB0 <= byte <= 0xB7:
            self.page = byte & 0x07
        elif not _single(byte, SH1106_SINGLE):
            raise ModelError(f"not an SH1106 command: 0x{byte:02X}")
        elif (setting := _single_setting(byte)) is not None:
            self.settings[setting[0]] = setting[1]

    def visible(self, first_column: int, width: int, pages: int) -> bytes:
        """The RAM a ``width`` x ``8 * pages`` panel shows, page by page."""
        return b"".join(
            bytes(self.ram[p * self.COLUMNS + first_column : p * self.COLUMNS + first_column + width])
            for p in range(pages)
        )
