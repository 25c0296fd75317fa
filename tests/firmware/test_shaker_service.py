"""The whole companion with the Pico shaker: the firmware's own main loop in MicroPython
on a pseudo-terminal, the service with throw source ``serial-shaker`` and mock pins.

Senet is started with button presses; every throw then comes from the firmware over
the serial link (the service draws none). Unplugging the cable (killing the process)
is shown on the throw screen and loses nothing; plugging back in (a new process on a
new pty, reached through the same symlink, as the udev rule's ``/dev/board-shaker``)
brings the throws back.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

from test_shaker_end_to_end import Pico, fast_config

from companion.app.controller import Screen
from companion.app.events import Quit
from companion.app.service import Parts, build, mock_factory
from companion.devices.clock import ManualScheduler
from companion.devices.events import ButtonName
from companion.journal.store import load
from companion.rules import Implement, Throw
from companion.sim.demo import PinDriver, demo_config

WAIT = 30.0
"""Seconds a shaker throw may take to arrive before the test fails (not a timing test)."""


def no_draw(implement: Implement, n: int) -> Throw:
    raise AssertionError("the service drew a throw: every throw must come from the shaker")


def wait_for(parts: Parts, what: Callable[[], bool]) -> None:
    deadline = time.monotonic() + WAIT
    while not what():
        assert time.monotonic() < deadline, f"waited {WAIT} s; screen {parts.service.controller.view()}"
        time.sleep(0.02)
    parts.service.wait_idle(5)


def throws_in_journal(parts: Parts) -> int:
    journal = parts.service.controller.journal
    assert journal is not None
    return sum(1 for rec in load(journal.path, repair=False).records if "throw" in rec)


def test_senet_throws_come_from_the_firmware_and_survive_an_unplug(tmp_path: Path) -> None:
    (tmp_path / "fw").mkdir()
    config_dir = fast_config(tmp_path / "fw")
    log = tmp_path / "micropython.log"
    cable = tmp_path / "board-shaker"
    pico = Pico(config_dir, log)
    cable.symlink_to(pico.path)
    conf = demo_config(
        tmp_path / "journal", **{"throw.source": "serial-shaker", "serial.port": str(cable)}
    )
    parts = build(conf, pin_factory=mock_factory(), scheduler=ManualScheduler(), draw=no_draw)
    loop = threading.Thread(target=parts.service.run, name="companion-loop")
    loop.start()
    driver = PinDriver(parts)
    ctl = parts.service.controller
    try:
        driver.idle()
        for _ in range(3):  # splash, menu (Senet), setup (begin)
            driver.press(ButtonName.OK)
        assert ctl.screen is Screen.THROW
        for _ in range(3):
            thrown = throws_in_journal(parts)
            wait_for(parts, lambda: ctl.screen is not Screen.THROW)
            assert throws_in_journal(parts) == thrown + 1
            while ctl.screen is not Screen.THROW:  # play the first move, read the events
                driver.press(ButtonName.OK)

        pico.unplug()  # the screen says so ("shaker unplugged", then "... plug it in")
        wait_for(parts, lambda: any("plug" in line for line in ctl.view().lines))
        assert ctl.screen is Screen.THROW  # the game waits for its throw

        pico = Pico(config_dir, log)  # plugged back in: a new boot on a new pty
        cable.unlink()
        cable.symlink_to(pico.path)
        thrown = throws_in_journal(parts)
        wait_for(parts, lambda: ctl.screen is not Screen.THROW)
        assert throws_in_journal(parts) == thrown + 1
        assert not any("plug" in line for line in ctl.view().lines)
    finally:
        parts.service.post(Quit("test over"))
        loop.join(10)
        parts.service.close()
        if pico.plugged:
            pico.unplug()
    assert b"Traceback" not in log.read_bytes(), log.read_text()
