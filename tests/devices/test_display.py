"""The display wrapper: real luma drivers on the noop interface, errors survived."""

from __future__ import annotations

from typing import Any

import luma.oled.device
import pytest
import smbus2
from PIL import Image, ImageDraw

from companion.app import config as cfg
from companion.devices.display import DisplaySpec, Panel, make_device
from companion.devices.oled import COMMAND, DATA, BusRecorder

pytestmark = pytest.mark.filterwarnings("error::DeprecationWarning")
"""Issue 22.10a: the display path, windowed or full-frame, uses no deprecated Pillow call."""


def picture(text_x: int) -> Image.Image:
    img = Image.new("1", (128, 64))
    ImageDraw.Draw(img).rectangle((text_x, 10, text_x + 10, 20), fill=1)
    return img


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
@pytest.mark.parametrize("height", [64, 32])
def test_real_drivers_build_on_the_noop_interface(driver: str, height: int) -> None:
    device = make_device(DisplaySpec(driver=driver, backend="noop", height=height))
    assert (device.width, device.height) == (128, height)
    luma_driver = getattr(luma.oled.device, driver)
    assert isinstance(device, luma_driver)  # luma's own driver class, windowed
    assert device.windowed is True
    Panel(device).show(Image.new("1", (128, height)))


def test_the_dummy_device_keeps_the_last_frame() -> None:
    screen = Panel(make_device(DisplaySpec(backend="dummy")))
    screen.show(picture(5))
    assert screen.device.image.tobytes() == picture(5).tobytes()


def test_unknown_driver_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="ssd1306, sh1106"):
        make_device(DisplaySpec(driver="ssd1305", backend="noop"))


class Flaky:
    """A device whose bus fails ``failures`` times, as a glitching I2C bus does."""

    width, height = 128, 64

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.shown: list[bytes] = []

    def display(self, image: Image.Image) -> None:
        if self.failures:
            self.failures -= 1
            from luma.core.error import DeviceNotFoundError

            raise DeviceNotFoundError("I2C device not found on address: 0x3C")
        self.shown.append(image.tobytes())

    def clear(self) -> None:
        self.shown.append(b"blank")

    def cleanup(self) -> None:
        pass


def test_an_i2c_error_at_display_is_retried_and_the_game_goes_on(caplog: Any) -> None:
    device = Flaky(failures=1)
    screen = Panel(device, retries=2)
    assert screen.show(picture(1)) is True
    assert device.shown == [picture(1).tobytes()]
    assert "display error" in caplog.text


def test_a_frame_that_failed_every_retry_is_pushed_again_next_time() -> None:
    device = Flaky(failures=3)
    screen = Panel(device, retries=2)
    assert screen.show(picture(1)) is False  # logged, not raised
    assert screen.show(picture(1)) is True   # same picture, but it never arrived: pushed
    assert device.shown == [picture(1).tobytes()]


def test_unchanged_frames_are_not_pushed_again() -> None:
    device = Flaky(failures=0)
    screen = Panel(device)
    screen.show(picture(1))
    screen.show(picture(1))
    screen.show(picture(2))
    assert len(device.shown) == 2


def test_close_blanks_the_panel() -> None:
    device = Flaky(failures=0)
    Panel(device).close()
    assert device.shown == [b"blank"]


class Buggy(Flaky):
    """A device whose ``display()`` fails the way a bug does, not the way a bus does."""

    def display(self, image: Image.Image) -> None:
        raise TypeError("unsupported operand type(s) for |=: 'int' and 'NoneType'")


def test_a_bug_in_the_driver_is_raised_not_retried_as_a_bus_error(caplog: Any) -> None:
    screen = Panel(Buggy(failures=0))
    with pytest.raises(TypeError):
        screen.show(picture(1))
    assert "display error" not in caplog.text


def test_a_bus_oserror_is_survived_like_device_not_found() -> None:
    # luma's i2c turns EIO into DeviceNotFoundError only for commands; a failed data
    # transfer (most of a frame) raises smbus2's OSError as it is.
    class DataFails(Flaky):
        def display(self, image: Image.Image) -> None:
            if self.failures:
                self.failures -= 1
                raise OSError(121, "Remote I/O error")
            self.shown.append(image.tobytes())

    device = DataFails(failures=1)
    assert Panel(device, retries=1).show(picture(1)) is True
    assert device.shown == [picture(1).tobytes()]


@pytest.fixture
def bus(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Every I2C bus luma opens is a recorder; yields a function giving the last one."""
    opened: list[BusRecorder] = []

    def open_bus(port: int | None = None, force: bool = False) -> BusRecorder:
        opened.append(BusRecorder(port, force))
        return opened[-1]

    monkeypatch.setattr(smbus2, "SMBus", open_bus)
    return lambda: opened[-1]


def data_bytes(recorder: BusRecorder) -> int:
    return sum(len(t) - 1 for t in recorder.transfers if t[0] == DATA)


@pytest.mark.parametrize("windowed", [True, False])
def test_display_windowed_in_the_config_reaches_the_driver(bus: Any, windowed: bool) -> None:
    conf = cfg.defaults() | {"display.windowed": windowed}
    screen = Panel(make_device(DisplaySpec.from_config(conf, backend="i2c")))
    screen.show(picture(1))
    bus().transfers.clear()
    screen.show(picture(2))  # the square (rows 10-20) moved one column right
    # windowed: columns 1-12 of pages 1-2 (rows 8-23); else the whole frame
    assert data_bytes(bus()) == (2 * 12 if windowed else 1024)


def test_windowed_is_the_default_and_a_config_key() -> None:
    assert DisplaySpec().windowed is True
    assert cfg.defaults()["display.windowed"] is True
    assert cfg.BY_NAME["display.windowed"].parse("false", "command line") is False


def test_the_service_honours_display_windowed_false(tmp_path: Any) -> None:
    from gpiozero.pins.mock import MockFactory

    from companion.app.service import build

    conf = cfg.defaults() | {"display.backend": "noop", "display.windowed": False,
                             "journal.dir": str(tmp_path)}
    parts = build(conf, pin_factory=MockFactory())
    try:
        assert parts.service.screen.device.windowed is False
    finally:
        parts.service.close()


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_waking_sends_the_last_frame_whole_before_the_panel_lights(bus: Any, driver: str) -> None:
    screen = Panel(make_device(DisplaySpec(driver=driver, backend="i2c")))
    screen.show(picture(1))
    screen.sleep()
    bus().transfers.clear()
    screen.wake()
    sent = bus().transfers
    assert data_bytes(bus()) == 1024  # the whole frame: the RAM may be lost in sleep
    assert sent[-1] == bytes([COMMAND, 0xAF])  # then DISPLAYON
    assert all(t != bytes([COMMAND, 0xAF]) for t in sent[:-1])


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_after_close_luma_s_exit_hook_sends_nothing_more(
    bus: Any, monkeypatch: pytest.MonkeyPatch, driver: str
) -> None:
    # luma.core.device.device.__init__ registers a closure, shutdown_hook(), that calls
    # self.cleanup() at exit: atexit.unregister(device.cleanup) cannot remove it.
    import luma.core.device

    hooks: list[Any] = []
    monkeypatch.setattr(luma.core.device.atexit, "register", hooks.append)
    screen = Panel(make_device(DisplaySpec(driver=driver, backend="i2c")))
    screen.show(picture(1))
    screen.close()
    recorder = bus()
    sent = list(recorder.transfers)
    assert recorder.closed == 1
    assert len(hooks) == 1
    hooks[0]()  # what the interpreter runs at exit
    assert recorder.transfers == sent  # no DISPLAYOFF, no blank frame on the closed bus
    assert recorder.closed == 1


def test_closing_twice_blanks_once() -> None:
    device = Flaky(failures=0)
    screen = Panel(device)
    screen.close()
    screen.close()
    assert device.shown == [b"blank"]
