# A stand-in for MicroPython's machine module, for running the firmware on the unix
# port in tests (tests/firmware). Only what shaker_hw.py uses.
#
# The I2C bus holds one simulated LIS3DH at 0x18 that plays the accelerometer trace
# named by the environment variable SHAKER_TRACE (CSV: t_ms,ax,ay,az in milli-g),
# looping, timed by time.ticks_ms() from the first read.

import os
import struct
import sys
import time


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1):
        self.id = id
        self._value = 0

    def value(self, v=None):
        if v is None:
            return self._value
        self._value = v

    def irq(self, handler=None, trigger=0):
        self.handler = handler


def _load_trace(path):
    rows = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line[0] in "#t":
                continue
            rows.append(tuple(int(v) for v in line.split(",")))
    return rows


class I2C:
    def __init__(self, id, sda=None, scl=None, freq=400000):
        path = os.getenv("SHAKER_TRACE")
        self.trace = _load_trace(path) if path else [(0, 0, 0, 1000)]
        self.start = None
        self.regs = {}

    def scan(self):
        return [0x18]

    def writeto_mem(self, addr, reg, data):
        self.regs[reg] = bytes(data)

    def _sample(self):
        now = time.ticks_ms()
        if self.start is None:
            self.start = now
        period = self.trace[-1][0] + 10
        t = time.ticks_diff(now, self.start) % period
        row = self.trace[0]
        for r in self.trace:  # short traces: a linear scan is fine
            if r[0] > t:
                break
            row = r
        return row[1:]

    def readfrom_mem(self, addr, reg, n):
        if addr != 0x18:
            raise OSError(19)  # ENODEV, as a real bus without the device
        if reg == 0x0F:
            return b"\x33"
        if reg == 0x28 | 0x80:
            x, y, z = self._sample()
            # 12-bit left-justified at 2 mg per digit, as the LIS3DH at +-4 g
            return struct.pack("<hhh", (x // 2) << 4, (y // 2) << 4, (z // 2) << 4)
        return b"\x00" * n


class WDT:
    def __init__(self, id=0, timeout=5000):
        if timeout > 8388:
            raise ValueError("timeout too long")  # as the RP2040 port
        self.timeout = timeout

    def feed(self):
        pass


class Timer:
    def __init__(self, id=-1, period=1000, callback=None):
        self.callback = callback  # never fires: the unix tests do not interrupt main.py


def reset():
    sys.exit(3)
