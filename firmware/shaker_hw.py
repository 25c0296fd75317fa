# The thin hardware layer: accelerometers over machine.I2C, a vibration switch on a
# pin, the on-board LED, the watchdog and the USB serial port. Nothing here decides
# anything; shaker_app.py does. Each sensor has read_activity() -> milli-g of activity.

import select
import struct
import sys

import machine
from shaker_detect import activity


class SensorError(OSError):
    pass


class LIS3DH:
    """ST LIS3DH at I2C address 0x18 (SA0 to GND) or 0x19; 100 Hz, +-4 g, 12 bit."""

    ADDRESSES = (0x18, 0x19)
    WHO_AM_I = 0x0F
    ID = 0x33
    kind = "lis3dh"

    def __init__(self, i2c, address):
        self.i2c = i2c
        self.address = address
        # CTRL_REG1: 100 Hz, normal mode, X/Y/Z on. CTRL_REG4: block update, +-4 g, high resolution.
        i2c.writeto_mem(address, 0x20, b"\x57")
        i2c.writeto_mem(address, 0x23, b"\x98")

    def read_mg(self):
        raw = self.i2c.readfrom_mem(self.address, 0x28 | 0x80, 6)  # OUT_X_L.., auto-increment
        x, y, z = struct.unpack("<hhh", raw)
        return (x >> 4) * 2, (y >> 4) * 2, (z >> 4) * 2  # 2 mg per digit at +-4 g

    def read_activity(self):
        return activity(*self.read_mg())


class MPU6050:
    """InvenSense MPU-6050 at I2C address 0x68 (AD0 to GND) or 0x69; +-4 g."""

    ADDRESSES = (0x68, 0x69)
    WHO_AM_I = 0x75
    ID = 0x68
    kind = "mpu6050"

    def __init__(self, i2c, address):
        self.i2c = i2c
        self.address = address
        i2c.writeto_mem(address, 0x6B, b"\x00")  # PWR_MGMT_1: wake up
        i2c.writeto_mem(address, 0x1C, b"\x08")  # ACCEL_CONFIG: +-4 g, 8192 per g

    def read_mg(self):
        raw = self.i2c.readfrom_mem(self.address, 0x3B, 6)  # ACCEL_XOUT_H..
        x, y, z = struct.unpack(">hhh", raw)
        return x * 1000 // 8192, y * 1000 // 8192, z * 1000 // 8192

    def read_activity(self):
        return activity(*self.read_mg())


class VibrationSwitch:
    """A vibration or ball tilt switch between a GPIO and GND, counted by interrupt."""

    kind = "switch"

    def __init__(self, pin, jolt_mg):
        self.edges = 0
        self.level = jolt_mg * 2
        self.pin = machine.Pin(pin, machine.Pin.IN, machine.Pin.PULL_UP)
        self.pin.irq(self._edge, machine.Pin.IRQ_FALLING | machine.Pin.IRQ_RISING)

    def _edge(self, _pin):
        self.edges += 1

    def read_activity(self):
        edges = self.edges
        self.edges -= edges
        return self.level if edges else 0


def find_sensor(config):
    """The sensor config.SENSOR names, or the first one found with "auto"."""
    wanted = config.SENSOR
    if wanted in ("auto", "lis3dh", "mpu6050"):
        i2c = machine.I2C(
            config.I2C_ID,
            sda=machine.Pin(config.I2C_SDA),
            scl=machine.Pin(config.I2C_SCL),
            freq=config.I2C_FREQ,
        )
        present = i2c.scan()
        for cls in (LIS3DH, MPU6050):
            if wanted not in ("auto", cls.kind):
                continue
            for address in cls.ADDRESSES:
                if address in present:
                    who = i2c.readfrom_mem(address, cls.WHO_AM_I, 1)[0]
                    if who == cls.ID:
                        return cls(i2c, address)
        if wanted != "auto":
            raise SensorError("no %s on I2C (found %s)" % (wanted, [hex(a) for a in present]))
    return VibrationSwitch(config.SWITCH_PIN, config.DETECTOR["jolt_mg"])


class Led:
    def __init__(self, pin):
        self.pin = machine.Pin(pin, machine.Pin.OUT)
        self.lit = None

    def show(self, lit):
        if lit != self.lit:
            self.pin.value(1 if lit else 0)
            self.lit = lit


class UsbSerial:
    """The USB CDC port as seen by MicroPython: sys.stdin / sys.stdout, raw bytes."""

    def __init__(self):
        self.poll = select.poll()
        self.poll.register(sys.stdin, select.POLLIN)
        self.stdin = sys.stdin.buffer
        self.stdout = sys.stdout.buffer

    def read_available(self, limit=64):
        data = bytearray()
        while len(data) < limit and self.poll.poll(0):
            chunk = self.stdin.read(1)
            if not chunk:
                break
            data += chunk
        return data

    def write(self, data):
        self.stdout.write(data)


def watchdog(timeout_ms):
    """machine.WDT, clamped to the RP2040's 8388 ms; feed() it at least that often."""
    return machine.WDT(timeout=min(timeout_ms, 8388))
