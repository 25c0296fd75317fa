"""hardware/README.md's frame-time arithmetic is what luma.oled really sends.

luma opens the bus with smbus2 (``i2c(port=1)``, as the service does on a Pi); here
``smbus2.SMBus`` is a recorder of the transfers instead of ``/dev/i2c-1``. Each
transfer costs 9 clock periods per byte (8 bits + ACK), counting the address byte,
plus about 2 for START and STOP.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import pytest
import smbus2
from luma.core.interface.serial import i2c
from luma.oled.device import sh1106, ssd1306
from PIL import Image

README = Path(__file__).resolve().parents[2] / "hardware" / "README.md"


class RecordingBus:
    """Stands in for smbus2.SMBus: records the bytes of each I2C transfer."""

    transfers: ClassVar[list[int]] = []

    def __init__(self, bus: int | None = None, force: bool = False) -> None:
        pass

    def write_i2c_block_data(
        self, address: int, register: int, data: list[int], force: Any = None
    ) -> None:
        self.transfers.append(1 + 1 + len(data))  # address, control byte, data

    def i2c_rdwr(self, *messages: Any) -> None:
        for message in messages:
            self.transfers.append(1 + message.len)  # address, then the message

    def close(self) -> None:
        pass


@pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")  # luma's, not ours
@pytest.mark.parametrize(("driver", "periods"), [(ssd1306, 9310), (sh1106, 9752)])
def test_one_frame_costs_the_clock_periods_the_readme_gives(
    monkeypatch: pytest.MonkeyPatch, driver: Any, periods: int
) -> None:
    monkeypatch.setattr(smbus2, "SMBus", RecordingBus)
    device = driver(i2c(port=1, address=0x3C))
    device.persist = True
    RecordingBus.transfers = []
    device.display(Image.new("1", (128, 64)))
    assert sum(9 * n + 2 for n in RecordingBus.transfers) == periods
    text = README.read_text()
    assert str(periods) in text
    for hertz in (100_000, 400_000):
        milliseconds = f"{periods / hertz * 1000:.1f} ms"
        assert milliseconds in text, f"{milliseconds} at {hertz} Hz is not in {README}"
