"""The OLED: luma.oled's ``ssd1306`` / ``sh1106`` drivers, or stand-ins off the Pi.

Backends (config key ``display.backend``):

* ``i2c``: the real driver on the I2C bus (``display.i2c_port``, ``display.i2c_address``);
* ``noop``: the real driver class on luma's ``noop`` interface (the driver code runs,
  nothing is sent anywhere) -- the off-Pi default, so the driver is exercised;
* ``dummy``: luma's ``dummy`` device, whose ``.image`` is the last frame.

The drivers are luma's classes as :mod:`companion.devices.oled` extends them: with
``display.windowed`` (the default) a frame sends only the pages and columns that
changed -- a cursor step costs a few ms on the bus instead of 23 ms at 400 kHz.

:class:`Panel` wraps any of them: it pushes a frame only when the picture changed
(a frame is 1024 bytes, about 23 ms at 400 kHz I2C), and a bus error at ``display()``
(:data:`BUS_ERRORS`: a glitching I2C bus raises ``DeviceNotFoundError`` or ``OSError``
there) is logged and retried, never raised: the game goes on and the next frame tries
again (the drivers of :mod:`companion.devices.oled` re-initialise the controller
first: it may have lost power). Any other exception is a bug and is raised.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from luma.core.error import Error as LumaError
from PIL import Image

log = logging.getLogger(__name__)

BUS_ERRORS = (LumaError, OSError)
"""What a failing display raises: luma's errors (its ``i2c`` turns EIO / EREMOTEIO on a
command into ``DeviceNotFoundError``) and ``OSError`` (smbus2's, which luma passes on
as it is for a data transfer and for other errno values)."""

DRIVERS = ("ssd1306", "sh1106")
BACKENDS = ("i2c", "noop", "dummy")


@dataclass(frozen=True, slots=True)
class DisplaySpec:
    """``driver``: ssd1306 or sh1106; ``width`` x ``height`` pixels (128x64 or 128x32);
    ``rotate``: 0-3 quarter turns; ``contrast``: 0-255; ``i2c_port``: bus number;
    ``i2c_address``: 7-bit address (0x3C or 0x3D); ``windowed``: send only what changed
    (``False``: luma's full frame every time)."""

    driver: str = "ssd1306"
    backend: str = "noop"
    width: int = 128
    height: int = 64
    rotate: int = 0
    contrast: int = 255
    i2c_port: int = 1
    i2c_address: int = 0x3C
    windowed: bool = True

    @classmethod
    def from_config(cls, conf: Mapping[str, Any], backend: str) -> DisplaySpec:
        """The spec of the ``display.*`` keys of a checked configuration (see
        :mod:`companion.app.config`), with ``backend`` resolved (not ``auto``)."""
        return cls(
            driver=conf["display.driver"], backend=backend, width=conf["display.width"],
            height=conf["display.height"], rotate=conf["display.rotate"],
            contrast=conf["display.contrast"], i2c_port=conf["display.i2c_port"],
            i2c_address=conf["display.i2c_address"], windowed=conf["display.windowed"],
        )


def make_device(spec: DisplaySpec) -> Any:
    """Build the device for ``spec``: :class:`~companion.devices.oled.WindowedSSD1306` or
    :class:`~companion.devices.oled.WindowedSH1106` (luma's drivers, windowed when
    ``spec.windowed``) on the ``i2c`` or ``noop`` interface, or luma's ``dummy``.

    :raises luma.core.error.DeviceNotFoundError: ``i2c`` backend without the bus.
    :raises ValueError: for an unknown driver or backend.
    """
    if spec.backend == "dummy":
        from luma.core.device import dummy

        return dummy(width=spec.width, height=spec.height, rotate=spec.rotate, mode="1")
    if spec.driver not in DRIVERS:
        raise ValueError(f"unknown display driver {spec.driver!r}; drivers: {', '.join(DRIVERS)}")
    from companion.devices.oled import WindowedSH1106, WindowedSSD1306

    driver = WindowedSSD1306 if spec.driver == "ssd1306" else WindowedSH1106
    if spec.backend == "noop":
        from luma.core.interface.serial import noop

        interface = noop()
    elif spec.backend == "i2c":
        from luma.core.interface.serial import i2c

        interface = i2c(port=spec.i2c_port, address=spec.i2c_address)
    else:
        raise ValueError(f"unknown display backend {spec.backend!r}; backends: {', '.join(BACKENDS)}")
    device = driver(interface, width=spec.width, height=spec.height, rotate=spec.rotate,
                    windowed=spec.windowed)
    device.contrast(spec.contrast)
    return device


class Panel:
    """Shows frames on a luma device; skips unchanged frames; survives bus errors.

    ``on_frame(image)`` (optional) is called with each frame handed to the device --
    the terminal simulator draws it, the demo saves it, the benchmark times it.
    ``retries``: how many extra attempts a failing ``display()`` gets at once.
    """

    def __init__(
        self,
        device: Any,
        *,
        on_frame: Callable[[Image.Image], None] | None = None,
        retries: int = 2,
    ) -> None:
        self.device = device
        self.on_frame = on_frame
        self.retries = retries
        self.last: Image.Image | None = None
        self._last_bytes = b""
        self.errors = 0
        """Failed ``display()`` calls so far."""
        self._pending = False
        self._closed = False

    @property
    def size(self) -> tuple[int, int]:
        """The device's drawing size in pixels (after rotation)."""
        return (int(self.device.width), int(self.device.height))

    def show(self, image: Image.Image) -> bool:
        """Push ``image`` (mode "1", the device's size) if it differs from the last frame
        shown (or the last push failed). Returns whether the device took it: a bus
        error (:data:`BUS_ERRORS`) is logged and retried ``retries`` times, then
        ``False``; any other exception from the device is a bug and is raised."""
        if not self._pending and self.last is not None:
            # The same picture object again (the service reuses a view's picture) is
            # the same frame; else compare the bytes, the last frame's kept from its show.
            if image is self.last:
                return True
            data = image.tobytes()
            if data == self._last_bytes:
                return True
        else:
            data = image.tobytes()
        self.last, self._last_bytes = image, data
        if self.on_frame is not None:
            self.on_frame(image)
        return self._push(image)

    def _push(self, image: Image.Image) -> bool:
        for attempt in range(self.retries + 1):
            try:
                self.device.display(image)
            except BUS_ERRORS as exc:
                self.errors += 1
                log.warning(
                    "display error (attempt %d of %d): %s", attempt + 1, self.retries + 1, exc
                )
                continue
            self._pending = False
            return True
        self._pending = True
        return False

    def set_contrast(self, level: int) -> None:
        """Set the panel's contrast (0-255); errors are logged, not raised."""
        try:
            self.device.contrast(level)
        except BUS_ERRORS as exc:
            log.warning("display error while setting the contrast: %s", exc)

    def sleep(self) -> None:
        """Switch the panel off (OLED pixels age when lit for hours); bus errors are logged."""
        try:
            self.device.hide()
        except BUS_ERRORS as exc:
            log.warning("display error while switching off: %s", exc)

    def wake(self) -> None:
        """Switch the panel back on, showing the last frame: it is sent again first (in
        full: the panel's RAM may not have survived the sleep), then the panel lights;
        bus errors are logged (a frame that did not arrive is pushed at the next
        :meth:`show`)."""
        if self.last is not None:
            self._push(self.last)
        try:
            self.device.show()
        except BUS_ERRORS as exc:
            log.warning("display error while switching on: %s", exc)

    def blank(self) -> None:
        """Clear the panel (on exit); bus errors are logged, not raised."""
        try:
            self.device.clear()
        except BUS_ERRORS as exc:
            log.warning("display error while blanking: %s", exc)

    def close(self) -> None:
        """Blank the panel and release the bus (once; a second call does nothing).

        luma registers an exit hook for every device (a closure in
        ``luma.core.device.device.__init__`` that calls ``self.cleanup()``; it cannot be
        unregistered from outside): the drivers of :mod:`companion.devices.oled` run
        ``cleanup()`` only once, so at exit the hook finds nothing left to do instead of
        writing to the closed bus."""
        if self._closed:
            return
        self._closed = True
        self.blank()
        try:
            self.device.persist = False
            self.device.cleanup()
        except BUS_ERRORS as exc:
            log.warning("display error while closing: %s", exc)
