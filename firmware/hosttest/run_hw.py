# Exercises the sensor drivers of shaker_hw.py against register maps on the unix port;
# prints JSON: what each driver wrote to set the sensor up and the milli-g it read.

import json
import struct

import shaker_hw


class FakeI2C:
    def __init__(self, regs):
        self.regs = regs
        self.writes = []

    def scan(self):
        return [0x19, 0x68]

    def writeto_mem(self, addr, reg, data):
        self.writes.append([addr, reg, data[0]])

    def readfrom_mem(self, addr, reg, n):
        return self.regs[(addr, reg)][:n]


# LIS3DH at 0x19, +-4 g high resolution: 1 g = 500 digits << 4; -0.5 g; 2 g
lis = FakeI2C({(0x19, 0x0F): b"\x33", (0x19, 0xA8): struct.pack("<hhh", 500 << 4, -250 << 4, 1000 << 4)})
# MPU-6050 at 0x68, +-4 g: 8192 per g (big-endian)
mpu = FakeI2C({(0x68, 0x75): b"\x68", (0x68, 0x3B): struct.pack(">hhh", 8192, -4096, 16384)})


class Config:
    SENSOR = "auto"
    I2C_ID = 0
    I2C_SDA = 4
    I2C_SCL = 5
    I2C_FREQ = 400000
    SWITCH_PIN = 15
    DETECTOR = {"jolt_mg": 700}


a = shaker_hw.LIS3DH(lis, 0x19)
b = shaker_hw.MPU6050(mpu, 0x68)
switch = shaker_hw.VibrationSwitch(15, 700)
quiet = switch.read_activity()
switch._edge(None)
switch._edge(None)
shaken = switch.read_activity()
after = switch.read_activity()
found = shaker_hw.find_sensor(Config)  # the stand-in bus has a LIS3DH at 0x18
print(json.dumps({
    "lis3dh": {"writes": lis.writes, "mg": list(a.read_mg()), "activity": a.read_activity()},
    "mpu6050": {"writes": mpu.writes, "mg": list(b.read_mg()), "activity": b.read_activity()},
    "switch": [quiet, shaken, after],
    "found": found.kind,
    "wdt": shaker_hw.watchdog(20000).timeout,
}))
