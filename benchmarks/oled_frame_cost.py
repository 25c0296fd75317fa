"""What one OLED frame costs: the CPU time luma.oled spends packing it, and the I2C time.

    .venv/bin/python benchmarks/oled_frame_cost.py

The I2C time is computed from the bytes luma sends (hardware/README.md shows the
arithmetic); the CPU time is measured here, with smbus2's bus replaced by a recorder,
so the number is the Python work only. Run it on the Pi you build (a Pi Zero 2 W is
several times slower than a desktop) and add the two for the time a redraw holds
the service's loop.
"""

from __future__ import annotations

import platform
import time
from typing import Any

import smbus2
from luma.core.device import dummy
from luma.core.interface.serial import i2c
from luma.oled.device import sh1106, ssd1306
from PIL import Image, ImageDraw

FRAMES = 50


class RecordingBus:
    """smbus2.SMBus without a bus: keeps the size of each transfer."""

    def __init__(self, bus: int | None = None, force: bool = False) -> None:
        self.transfers: list[int] = []

    def write_i2c_block_data(
        self, address: int, register: int, data: list[int], force: Any = None
    ) -> None:
        self.transfers.append(2 + len(data))

    def i2c_rdwr(self, *messages: Any) -> None:
        self.transfers.extend(1 + message.len for message in messages)

    def close(self) -> None:
        pass


def main() -> None:
    smbus2.SMBus = RecordingBus  # type: ignore[misc,assignment]
    frame = Image.new("1", (128, 64))
    ImageDraw.Draw(frame).text((4, 4), "Senet: White throws 3", fill=1)
    print(f"{platform.machine()} {platform.python_implementation()} {platform.python_version()}")
    # The floor: luma's dummy device, which only keeps a copy of the frame.
    floor_device = dummy(width=128, height=64, mode="1")
    start = time.perf_counter()
    for _ in range(FRAMES):
        floor_device.display(frame)
    floor_ms = (time.perf_counter() - start) / FRAMES * 1000
    print(f"{'dummy':8} CPU {floor_ms:6.2f} ms/frame (the floor: luma keeps a copy)")
    for driver in (ssd1306, sh1106):
        device = driver(i2c(port=1, address=0x3C))
        device.persist = True
        bus: RecordingBus = device._serial_interface._bus
        bus.transfers.clear()
        device.display(frame)
        periods = sum(9 * n + 2 for n in bus.transfers)
        start = time.perf_counter()
        for _ in range(FRAMES):
            device.display(frame)
        cpu_ms = (time.perf_counter() - start) / FRAMES * 1000
        print(
            f"{driver.__name__:8} CPU {cpu_ms:6.2f} ms/frame ({cpu_ms / floor_ms:.1f}x the floor); "
            f"I2C {periods} clock periods: "
            f"{periods / 100:.1f} ms at 100 kHz, {periods / 400:.1f} ms at 400 kHz"
        )


if __name__ == "__main__":
    main()
