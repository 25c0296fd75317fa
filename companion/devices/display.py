"""The OLED: luma.oled's ``ssd1306`` / ``sh1106`` drivers, or stand-ins off the Pi.

Backends (config key ``display.backend``):

* ``i2c``: the real driver on the I2C bus (``display.i2c_port``, ``display.i2c_address``);
* ``noop``: the real driver class on luma's ``noop`` interface (the driver code runs,
  nothing is sent anywhere) -- the off-Pi default, so the driver is exercised;
* ``dummy``: luma's ``dummy`` device, whose ``.image`` is the last frame.

:class:`Screen` wraps any of them: it pushes a frame only when the picture changed
(a frame is 1024 bytes, about 23 ms at 400 kHz I2C), and an error at ``display()``
(a glitching I2C bus raises ``DeviceNotFoundError`` there) is logged and retried,
never raised: the game goes on and the next frame tries again.
"""

from __future__ import annotations

import atexit
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PIL import Image

log = logging.getLogger(__name__)

DRIVERS = ("ssd1306", "sh1106")
BACKENDS = ("i2c", "noop", "dummy")


@dataclass(frozen=True, slots=True)
class DisplaySpec:
    """``driver``: ssd1306 or sh1106; ``width`` x ``height`` pixels (128x64 or 128x32);
    ``rotate``: 0-3 quarter turns; ``contrast``: 0-255; ``i2c_port``: bus number;
    ``i2c_address``: 7-bit address (0x3C or 0x3D)."""

    driver: str = "ssd1306"
    backend: str = "noop"
    width: int = 128
    height: int = 64
    rotate: int = 0
    contrast: int = 255
    i2c_port: int = 1
    i2c_address: int = 0x3C


def make_device(spec: DisplaySpec) -> Any:
    """Build the luma device for ``spec``.

    :raises luma.core.error.DeviceNotFoundError: ``i2c`` backend without the bus.
    :raises ValueError: for an unknown driver or backend.
    """
    if spec.backend == "dummy":
        from luma.core.device import dummy

        return dummy(width=spec.width, height=spec.height, rotate=spec.rotate, mode="1")
    if spec.driver not in DRIVERS:
        raise ValueError(f"unknown display driver {spec.driver!r}; drivers: {', '.join(DRIVERS)}")
    from luma.oled import device as oled

    driver = getattr(oled, spec.driver)
    if spec.backend == "noop":
        from luma.core.interface.serial import noop

        interface = noop()
    elif spec.backend == "i2c":
        from luma.core.interface.serial import i2c

        interface = i2c(port=spec.i2c_port, address=spec.i2c_address)
    else:
        raise ValueError(f"unknown display backend {spec.backend!r}; backends: {', '.join(BACKENDS)}")
    device = driver(interface, width=spec.width, height=spec.height, rotate=spec.rotate)
    device.contrast(spec.contrast)
    return device


class Screen:
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
        self.errors = 0
        """Failed ``display()`` calls so far."""
        self._pending = False

    @property
    def size(self) -> tuple[int, int]:
        """The device's drawing size in pixels (after rotation)."""
        return (int(self.device.width), int(self.device.height))

    def show(self, image: Image.Image) -> bool:
        """Push ``image`` (mode "1", the device's size) if it differs from the last frame
        shown (or the last push failed). Returns whether the device took it."""
        if (
            not self._pending
            and self.last is not None
            and self.last.tobytes() == image.tobytes()
        ):
            return True
        self.last = image
        if self.on_frame is not None:
            self.on_frame(image)
        for attempt in range(self.retries + 1):
            try:
                self.device.display(image)
            except Exception as exc:  # DeviceNotFoundError, OSError from the bus
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
        except Exception as exc:
            log.warning("display error while setting the contrast: %s", exc)

    def sleep(self) -> None:
        """Switch the panel off (OLED pixels age when lit for hours); errors are logged."""
        try:
            self.device.hide()
        except Exception as exc:
            log.warning("display error while switching off: %s", exc)

    def wake(self) -> None:
        """Switch the panel back on, showing the last frame."""
        try:
            self.device.show()
        except Exception as exc:
            log.warning("display error while switching on: %s", exc)

    def blank(self) -> None:
        """Clear the panel (on exit); errors are logged, not raised."""
        try:
            self.device.clear()
        except Exception as exc:
            log.warning("display error while blanking: %s", exc)

    def close(self) -> None:
        """Blank the panel and release the bus."""
        self.blank()
        try:
            self.device.persist = False
            self.device.cleanup()
        except Exception as exc:
            log.warning("display error while closing: %s", exc)
        # luma also registers cleanup() with atexit: a second call would write to the
        # closed bus.
        atexit.unregister(self.device.cleanup)
