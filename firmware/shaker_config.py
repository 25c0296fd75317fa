# The shaker's settings: edit this file to match your wiring, then copy it to the Pico
# (mpremote cp shaker_config.py :). GP numbers are the Pico's GPIO numbers, not pins.

SENSOR = "auto"  # "auto" (LIS3DH, then MPU-6050, then the switch), "lis3dh", "mpu6050", "switch"
I2C_ID = 0  # I2C0 on GP4 (SDA) / GP5 (SCL), the Pico's physical pins 6 and 7
I2C_SDA = 4
I2C_SCL = 5
I2C_FREQ = 400_000  # Hz
SWITCH_PIN = 15  # a vibration / ball tilt switch between GP15 and GND (internal pull-up)
LED_PIN = "LED"  # the on-board LED ("LED" works on the Pico and the Pico W)

SAMPLE_MS = 10  # one accelerometer sample every 10 ms (100 Hz)
WATCHDOG_MS = 8000  # machine.WDT timeout; the RP2040 allows at most 8388 ms; 0 = no watchdog

# Shake detection (see shaker_detect.py), milli-g and milliseconds.
DETECTOR = {
    "jolt_mg": 700,
    "quiet_mg": 200,
    "jolt_gap_ms": 60,
    "shake_jolts": 4,
    "shake_window_ms": 1200,
    "settle_ms": 500,
    "cooldown_ms": 800,
}
HEARTBEAT_MS = 2000
RESEND_MS = 1000
