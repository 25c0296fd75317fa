"""hardware/README.md's frame-time arithmetic is what luma.oled really sends.

luma opens the bus with smbus2 (``i2c(port=1)``, as the service does on a Pi); here
``smbus2.SMBus`` is :class:`~companion.devices.oled.BusRecorder`, which keeps the
transfers instead of writing to ``/dev/i2c-1``. Each transfer costs 9 clock periods
per byte (8 bits + ACK), counting the address and control bytes, plus about 2 for
START and STOP: :func:`~companion.devices.oled.transfer_periods`, the one place the
project computes it (the benchmark ``oled_frame_cost.py`` uses it too).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import smbus2
from luma.core.interface.serial import i2c
from luma.oled.device import sh1106, ssd1306
from PIL import Image

from companion.devices.oled import BusRecorder, WindowedSH1106, WindowedSSD1306

README = Path(__file__).resolve().parents[2] / "hardware" / "README.md"

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")
"""luma's stock drivers run here (what it really sends) and their ``display()`` calls
Pillow's deprecated ``getdata()``; the companion's own path does not (tests/devices)."""


@pytest.mark.parametrize(
    ("driver", "periods"),
    [(ssd1306, 9310), (sh1106, 9752), (WindowedSSD1306, 9310), (WindowedSH1106, 9752)],
)
def test_one_frame_costs_the_clock_periods_the_readme_gives(
    monkeypatch: pytest.MonkeyPatch, driver: Any, periods: int
) -> None:
    # luma's drivers, and the windowed ones for a frame whose every page changed
    monkeypatch.setattr(smbus2, "SMBus", BusRecorder)
    device = driver(i2c(port=1, address=0x3C))
    device.persist = True
    bus: BusRecorder = device._serial_interface._bus
    bus.transfers = []
    device.display(Image.new("1", (128, 64), 1))
    assert bus.periods() == periods
    text = README.read_text()
    assert str(periods) in text
    for hertz in (100_000, 400_000):
        milliseconds = f"{periods / hertz * 1000:.1f} ms"
        assert milliseconds in text, f"{milliseconds} at {hertz} Hz is not in {README}"
