# The shaker's main loop, run by MicroPython at boot. Stop it with Ctrl-C from a
# serial terminal (mpremote does that itself before copying files). Once started, the
# RP2040's watchdog cannot be stopped: after Ctrl-C a timer keeps feeding it so the
# REPL and mpremote keep working; a reset (mpremote reset) starts the shaker again.

import os
import time

import machine
import shaker_config as config
import shaker_hw
from shaker_app import Shaker
from shaker_detect import ShakeDetector


WDT = None


def run():
    global WDT
    usb = shaker_hw.UsbSerial()
    led = shaker_hw.Led(config.LED_PIN)
    shaker = Shaker(
        usb.write,
        os.urandom,
        "unknown",
        ShakeDetector(**config.DETECTOR),
        config.HEARTBEAT_MS,
        config.RESEND_MS,
    )
    now = time.ticks_ms()
    try:
        sensor = shaker_hw.find_sensor(config)
    except OSError:
        sensor = None  # reported below; the companion shows "shaker: no sensor"
    else:
        shaker.hw = sensor.kind
    shaker.start(now)
    if sensor is None:
        shaker._error(now, "no-sensor")
    if config.WATCHDOG_MS:
        WDT = shaker_hw.watchdog(config.WATCHDOG_MS)
    next_sample = now
    sensor_errors = 0
    while True:
        now = time.ticks_ms()
        data = usb.read_available()
        if data:
            shaker.feed_bytes(data, now)
        if sensor is not None and time.ticks_diff(now, next_sample) >= 0:
            next_sample = time.ticks_add(now, config.SAMPLE_MS)
            try:
                level = sensor.read_activity()
            except OSError:
                sensor_errors += 1
                if sensor_errors % 500 == 1:  # at most one ERROR every 5 s at 100 Hz
                    shaker._error(now, "sensor")
            else:
                shaker.sample(now, level)
        shaker.tick(now)
        led.show(shaker.led(now))
        if WDT is not None:
            WDT.feed()
        time.sleep_ms(1)


def keep_feeding():
    if WDT is not None:
        feed = WDT.feed
        machine.Timer(period=1000, callback=lambda _t: feed())


try:
    run()
except KeyboardInterrupt:
    keep_feeding()
    raise
except Exception as exc:  # a bug: say so, then start again
    import sys

    sys.print_exception(exc)
    time.sleep_ms(1000)
    machine.reset()
