"""Windowed OLED updates: what reaches the panel's RAM is always the whole frame.

The drivers run on luma's real ``i2c`` interface over a recording ``smbus2.SMBus``
(:class:`BusRecorder`), exactly as the service opens the bus on a Pi; every transfer is
applied to a model of the controller's RAM written from its datasheet
(``tests/devices/gddram.py``), and after each frame the part of the RAM the panel
shows must be the frame.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import random
import tempfile
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import smbus2
from gddram import SH1106Ram, SSD1306Ram
from hypothesis import given, settings
from hypothesis import strategies as st
from luma.core.error import DeviceNotFoundError
from luma.core.interface.serial import i2c
from luma.oled.device import sh1106, ssd1306
from PIL import Image, ImageDraw

from companion.devices.display import Panel as Display
from companion.devices.oled import (
    BusRecorder,
    WindowedSH1106,
    WindowedSSD1306,
    pack,
    transfer_periods,
)
from companion.sim.demo import play

pytestmark = pytest.mark.filterwarnings("error::DeprecationWarning")
"""Issue 22.10a: nothing on our display path may lean on a deprecated Pillow call
(luma's own ``display()`` uses ``Image.getdata()``, gone in Pillow 14)."""


@contextlib.contextmanager
def stock_luma() -> Iterator[None]:
    """Around luma's own drivers, run to compare what they send with ours: their
    ``display()`` calls the deprecated ``Image.getdata()`` (allowed here only)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Image.Image.getdata", DeprecationWarning)
        yield

BUS_ERRORS = (DeviceNotFoundError, OSError)
"""What a failed transfer raises through luma's ``i2c``: ``command()`` turns EIO into
``DeviceNotFoundError``, ``data()`` lets smbus2's ``OSError`` through."""
DRIVERS: dict[str, tuple[Any, type[SSD1306Ram] | type[SH1106Ram]]] = {
    "ssd1306": (WindowedSSD1306, SSD1306Ram),
    "sh1106": (WindowedSH1106, SH1106Ram),
}


class FailingBus(BusRecorder):
    """A recorder whose transfers raise EIO, as a glitching bus does: ``fail`` of them,
    after ``skip`` more have gone through."""

    fail = 0
    skip = 0

    def write_i2c_block_data(self, address: int, register: int, data: Any, force: Any = None) -> None:
        self._maybe_fail()
        super().write_i2c_block_data(address, register, data, force)

    def i2c_rdwr(self, *messages: Any) -> None:
        self._maybe_fail()
        super().i2c_rdwr(*messages)

    def _maybe_fail(self) -> None:
        if self.fail:
            if self.skip:
                self.skip -= 1
                return
            self.fail -= 1
            raise OSError(errno.EIO, "Remote I/O error")


@pytest.fixture(autouse=True)
def recording_bus(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(smbus2, "SMBus", FailingBus)


@dataclass
class Panel:
    """A driver on the recording bus and the model of its controller's RAM."""

    device: Any
    ram: SSD1306Ram | SH1106Ram
    rng: random.Random
    configured: dict[str, int] = field(default_factory=dict)
    """The controller's settings right after the driver's initialisation."""

    @property
    def bus(self) -> FailingBus:
        bus: FailingBus = self.device._serial_interface._bus
        return bus

    def deliver(self) -> list[bytes]:
        """Apply the transfers sent so far to the model; return them."""
        sent = list(self.bus.transfers)
        for transfer in sent:
            self.ram.feed(transfer)
        self.bus.transfers.clear()
        return sent

    def shown(self) -> bytes:
        first = getattr(self.device, "_colstart", None)
        if first is None:
            first = self.device._page_address_offset
        return self.ram.visible(first, self.device._w, self.device._h // 8)


def panel(driver: str, height: int = 64, rotate: int = 0, seed: int = 0, **options: Any) -> Panel:
    cls, model = DRIVERS[driver]
    rng = random.Random(seed)
    device = cls(i2c(port=1, address=0x3C), height=height, rotate=rotate, **options)
    result = Panel(device, model(rng), rng)
    result.deliver()
    result.configured = dict(result.ram.settings)
    assert result.ram.lit(result.configured)
    return result


def expected(device: Any, image: Image.Image) -> bytes:
    """The RAM bytes of ``image`` computed pixel by pixel (independently of
    :func:`pack`), after luma's own rotation."""
    physical = device.preprocess(image)
    pixels = physical.load()
    width, pages = device._w, device._h // 8
    out = bytearray(width * pages)
    for p in range(pages):
        for x in range(width):
            out[p * width + x] = sum(1 << b for b in range(8) if pixels[x, 8 * p + b])
    return bytes(out)


def full_frame_periods(device: Any) -> int:
    pages: int = device._h // 8
    if isinstance(device, WindowedSSD1306):
        return transfer_periods(6) + transfer_periods(device._w * pages)
    return pages * (transfer_periods(3) + transfer_periods(device._w))


def reinit_periods(device: Any) -> int:
    """What re-initialising the controller adds to a frame: luma's init commands, the
    contrast and DISPLAYON."""
    return sum(transfer_periods(len(c)) for c in device._init_commands) + transfer_periods(2) \
        + transfer_periods(1)


# ------------------------------------------------------------------ random frames

@dataclass(frozen=True)
class Edit:
    """Fill or clear a rectangle of the last frame (a cursor step, a changed line)."""

    x: int
    y: int
    w: int
    h: int
    fill: int


@dataclass(frozen=True)
class Noise:
    """A frame of random pixels (a new screen)."""

    seed: int


@dataclass(frozen=True)
class Sleep:
    """The panel sleeps and wakes; its RAM may be lost meanwhile."""


@dataclass(frozen=True)
class Glitch:
    """While the next frame is sent, ``count`` transfers fail after ``skip`` went
    through; after each failure the panel's RAM is lost (it may have been
    reconnected) and the frame is sent again, as :class:`~companion.devices.display.Panel` retries it."""

    skip: int
    count: int


changes = st.one_of(
    st.builds(Edit, st.integers(0, 127), st.integers(0, 127), st.integers(1, 40),
              st.integers(1, 20), st.integers(0, 1)),
    st.builds(Noise, st.integers(0, 2**32)),
    st.just(Sleep()),
)
steps = st.lists(
    st.tuples(changes, st.one_of(st.none(), st.builds(Glitch, st.integers(0, 4), st.integers(1, 3)))),
    min_size=1,
    max_size=8,
)
"""Each step: a change, and maybe a glitch while the frame after it is sent."""


@pytest.mark.parametrize("driver", sorted(DRIVERS))
@pytest.mark.parametrize("height", [64, 32])
@settings(max_examples=100, deadline=None)
@given(rotate=st.integers(0, 3), seed=st.integers(0, 2**16), script=steps)
def test_the_panel_ram_always_holds_the_whole_frame(
    driver: str, height: int, rotate: int, seed: int,
    script: list[tuple[Edit | Noise | Sleep, Glitch | None]],
) -> None:
    p = panel(driver, height, rotate, seed)
    device = p.device
    frame = Image.new("1", device.size)
    for step, glitch in script:
        if isinstance(step, Sleep):
            device.hide()
            p.deliver()
            p.ram.lose(p.rng)
            device.show()
            p.deliver()
        elif isinstance(step, Edit):
            frame = frame.copy()
            box = (step.x, step.y, step.x + step.w - 1, step.y + step.h - 1)
            ImageDraw.Draw(frame).rectangle(box, fill=step.fill)
        else:
            bits = random.Random(step.seed).randbytes(device.size[0] * device.size[1] // 8)
            frame = Image.frombytes("1", device.size, bits)
        if glitch is not None:
            p.bus.skip, p.bus.fail = glitch.skip, glitch.count
        for _attempt in range(5):
            try:
                device.display(frame)
                break
            except BUS_ERRORS:
                p.deliver()  # what went through before the failure
                p.ram.lose(p.rng)
        p.bus.fail = 0
        sent = p.deliver()
        assert p.shown() == expected(device, frame)
        periods = sum(transfer_periods(len(t) - 1) for t in sent)
        again = glitch is not None or isinstance(step, Sleep)  # re-initialised
        assert periods <= full_frame_periods(device) + again * reinit_periods(device)


# ------------------------------------------------------------------ what is sent

def test_pack_is_what_luma_sends_for_a_whole_frame() -> None:
    rng = random.Random(5)
    for height in (64, 32):
        for rotate in range(4):
            with stock_luma():
                stock = ssd1306(i2c(port=1), height=height, rotate=rotate)
            bus: BusRecorder = stock._serial_interface._bus
            image = Image.frombytes("1", stock.size, rng.randbytes(128 * height // 8))
            bus.transfers.clear()
            with stock_luma():
                stock.display(image)
            assert bus.transfers[-1][1:] == pack(stock.preprocess(image), 128, height // 8)


@pytest.mark.parametrize(("driver", "stock"), [("ssd1306", ssd1306), ("sh1106", sh1106)])
@pytest.mark.parametrize("rotate", [0, 1, 2, 3])
def test_a_whole_new_screen_is_sent_exactly_as_luma_sends_it(
    driver: str, stock: Any, rotate: int
) -> None:
    ours = panel(driver, rotate=rotate)
    with stock_luma():
        theirs = stock(i2c(port=1), rotate=rotate)
    their_bus: BusRecorder = theirs._serial_interface._bus
    image = Image.frombytes("1", theirs.size, random.Random(rotate).randbytes(1024))
    their_bus.transfers.clear()
    with stock_luma():
        theirs.display(image)
    ours.device.display(image)
    assert ours.deliver() == their_bus.transfers


def cursor_frames(size: tuple[int, int] = (128, 64)) -> tuple[Image.Image, Image.Image]:
    """A list screen, then the same with the highlight one row lower."""
    before = Image.new("1", size)
    draw = ImageDraw.Draw(before)
    for row in range(6):
        draw.text((2, 2 + 10 * row), f"move {row}", fill=1)
    after = before.copy()
    ImageDraw.Draw(before).rectangle((0, 12, 127, 21), outline=1)
    ImageDraw.Draw(after).rectangle((0, 22, 127, 31), outline=1)
    return before, after


def test_a_cursor_step_sends_only_the_rows_it_touched_ssd1306() -> None:
    p = panel("ssd1306")
    before, after = cursor_frames()
    p.device.display(before)
    p.deliver()
    p.device.display(after)
    sent = p.deliver()
    assert p.shown() == expected(p.device, after)
    # rows 12-31 changed: pages 1-3, full width, as one window
    assert sent == [
        bytes([0x00, 0x21, 0, 127, 0x22, 1, 3]),
        bytes([0x40]) + pack(after, 128, 8)[128:512],
    ]
    assert sum(transfer_periods(len(t) - 1) for t in sent) < full_frame_periods(p.device) / 2


def test_a_one_pixel_change_is_one_byte_in_a_one_column_window_ssd1306() -> None:
    p = panel("ssd1306")
    image = Image.new("1", (128, 64))
    p.device.display(image)
    p.deliver()
    image.putpixel((100, 42), 1)  # page 5, bit 2
    p.device.display(image)
    assert p.deliver() == [bytes([0x00, 0x21, 100, 100, 0x22, 5, 5]), bytes([0x40, 0x04])]


def test_sh1106_columns_start_at_ram_column_2_on_a_128_wide_panel() -> None:
    p = panel("sh1106")
    image = Image.new("1", (128, 64))
    p.device.display(image)
    p.deliver()
    image.putpixel((0, 9), 1)     # page 1, panel column 0: RAM column 2
    image.putpixel((127, 63), 1)  # page 7, panel column 127: RAM column 129 = 0x81
    p.device.display(image)
    assert p.deliver() == [
        bytes([0x00, 0xB1, 0x02, 0x10]), bytes([0x40, 0x02]),
        bytes([0x00, 0xB7, 0x01, 0x18]), bytes([0x40, 0x80]),
    ]
    assert p.shown() == expected(p.device, image)


@pytest.mark.parametrize("driver", sorted(DRIVERS))
def test_an_unchanged_frame_sends_nothing(driver: str) -> None:
    p = panel(driver)
    before, _ = cursor_frames()
    p.device.display(before)
    p.deliver()
    p.device.display(before.copy())
    assert p.deliver() == []


@pytest.mark.parametrize("driver", sorted(DRIVERS))
def test_after_sleep_the_next_frame_is_sent_in_full(driver: str) -> None:
    p = panel(driver)
    before, after = cursor_frames()
    p.device.display(before)
    p.deliver()
    p.device.hide()
    p.device.show()
    p.deliver()
    p.ram.lose(p.rng)  # whatever happened to the RAM while the panel slept
    p.device.display(after)
    sent = p.deliver()
    assert sum(transfer_periods(len(t) - 1) for t in sent) == full_frame_periods(p.device)
    assert p.shown() == expected(p.device, after)


@pytest.mark.parametrize("driver", sorted(DRIVERS))
@pytest.mark.parametrize("skip", [0, 1], ids=["command-fails", "data-fails"])
def test_after_a_bus_error_the_next_frame_is_sent_in_full(driver: str, skip: int) -> None:
    p = panel(driver)
    before, after = cursor_frames()
    p.device.display(before)
    p.deliver()
    p.bus.skip, p.bus.fail = skip, 1
    with pytest.raises(BUS_ERRORS):
        p.device.display(after)
    p.deliver()
    p.ram.power_loss(p.rng)  # the panel was reconnected
    p.device.display(after)
    sent = p.deliver()
    assert sum(transfer_periods(len(t) - 1) for t in sent) == \
        full_frame_periods(p.device) + reinit_periods(p.device)
    assert p.shown() == expected(p.device, after)
    assert p.ram.lit(p.configured)


@pytest.mark.parametrize("driver", sorted(DRIVERS))
def test_windowed_false_is_luma_s_full_frame_every_time(driver: str) -> None:
    p = panel(driver, windowed=False)
    before, after = cursor_frames()
    for image in (before, after, after):
        p.device.display(image)
        sent = p.deliver()
        assert sum(transfer_periods(len(t) - 1) for t in sent) == full_frame_periods(p.device)
        assert p.shown() == expected(p.device, image)


@pytest.mark.parametrize("driver", sorted(DRIVERS))
def test_a_frame_of_the_wrong_size_is_a_clear_error(driver: str) -> None:
    p = panel(driver)
    with pytest.raises(ValueError, match="128x64 pixels; got mode '1', 64x64"):
        p.device.display(Image.new("1", (64, 64)))


def test_the_recorder_counts_the_readme_s_periods() -> None:
    p = panel("ssd1306")
    p.device.display(Image.new("1", (128, 64), 1))
    assert p.bus.periods() == 9310


# ------------------------------------------------------------------ power blips

@functools.cache
def game_frames() -> tuple[Image.Image, ...]:
    """The frames of a whole demo game of Senet (816), as the service hands them on."""
    frames: list[Image.Image] = []
    with tempfile.TemporaryDirectory() as tmp:
        play(Path(tmp), seed=1, game="senet-tait", on_frame=lambda image, _s: frames.append(image.copy()))
    return tuple(frames)


OUTAGE = range(40, 46)
"""The frames during which the panel has no power: every transfer fails."""


@pytest.mark.parametrize("driver", sorted(DRIVERS))
@pytest.mark.parametrize("windowed", [True, False], ids=["windowed", "full-frame"])
def test_after_a_power_blip_every_frame_is_lit(driver: str, windowed: bool) -> None:
    """Issue 22.1: the bus fails for a few frames, then works again with the controller
    in its power-on state (display off, charge pump off, page addressing, no remaps).
    Every frame after it must be lit and whole (on main: 0 of them were lit)."""
    p = panel(driver, windowed=windowed)
    screen = Display(p.device)
    lit = after = 0
    for n, frame in enumerate(game_frames()):
        if n in OUTAGE:
            p.bus.fail = 10**6
        elif n == OUTAGE.stop:
            p.bus.fail = 0
            p.ram.power_loss(p.rng)
        if not screen.show(frame):
            assert n in OUTAGE
            continue
        p.deliver()
        if n >= OUTAGE.stop:
            after += 1
            lit += p.ram.lit(p.configured) and p.shown() == expected(p.device, frame)
    assert after > 700
    assert lit == after


@pytest.mark.parametrize("driver", sorted(DRIVERS))
@pytest.mark.parametrize("windowed", [True, False], ids=["windowed", "full-frame"])
def test_a_power_blip_while_the_panel_sleeps_is_healed_by_the_wake(driver: str, windowed: bool) -> None:
    """Issue 22.1 with ``display.sleep_after``: the panel sleeps, loses power (no
    transfer fails: nothing is sent meanwhile), wakes: the wake re-initialises it."""
    p = panel(driver, windowed=windowed)
    screen = Display(p.device)
    frames = game_frames()[:80]
    for n, frame in enumerate(frames):
        if n == 30:
            screen.sleep()
            p.deliver()
            p.ram.power_loss(p.rng)
            screen.wake()
            p.deliver()
            assert p.ram.lit(p.configured)
            assert p.shown() == expected(p.device, frames[29])
        assert screen.show(frame)
        p.deliver()
        assert p.ram.lit(p.configured)
        assert p.shown() == expected(p.device, frame)


@pytest.mark.parametrize("driver", sorted(DRIVERS))
def test_the_contrast_set_survives_a_power_blip(driver: str) -> None:
    p = panel(driver)
    p.device.contrast(40)
    image, _ = cursor_frames()
    p.device.display(image)
    p.deliver()
    p.configured = dict(p.ram.settings)
    p.bus.fail = 1
    with pytest.raises(BUS_ERRORS):
        p.device.display(Image.new("1", (128, 64)))
    p.ram.power_loss(p.rng)
    p.device.display(image)
    p.deliver()
    assert p.ram.settings["contrast"] == 40
    assert p.ram.lit(p.configured)
