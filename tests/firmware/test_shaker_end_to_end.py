"""End to end: the firmware's own main loop in a MicroPython process, a pseudo-terminal
for the USB cable, the companion's ShakerLink, and a game of Senet taking the throws.

The firmware runs unchanged (``firmware/main.py``); only ``machine`` is the stand-in of
``firmware/hosttest/machine.py``, whose LIS3DH plays ``traces/cycle.csv`` (0.4 s of
shaking every second), and ``shaker_config.py`` is copied with shorter settle and
cool-down times so the test takes seconds. Unplugging is killing the process and
closing the pty; plugging back in is a new process (a new boot id) on a new pty.
"""

from __future__ import annotations

import os
import pty
import queue
import subprocess
import tty
from pathlib import Path

from shaker_fw_tools import FIRMWARE, TRACES, mp_env, tool

from companion.devices.shaker_link import ShakerLink, ShakerStatus
from companion.rules import Phase, State, get_game
from companion.rules.throws import Throw

WAIT = 30.0
"""Seconds a throw may take to arrive before the test fails (not a timing test)."""


class Pico:
    """The firmware in a micropython process on the master side of a fresh pty."""

    def __init__(self, config_dir: Path, log: Path) -> None:
        self.master, self.slave = pty.openpty()
        tty.setraw(self.slave)  # no echo of what the shaker prints before the host opens
        self.path = os.ttyname(self.slave)
        self.log = log.open("ab")
        self.process = subprocess.Popen(
            [tool("micropython"), str(FIRMWARE / "main.py")],
            stdin=self.master,
            stdout=self.master,
            stderr=self.log,
            env=mp_env(config_dir, SHAKER_TRACE=str(TRACES / "cycle.csv")),
        )
        self.plugged = True

    def unplug(self) -> None:
        self.plugged = False
        self.process.kill()
        self.process.wait(5)
        os.close(self.master)
        os.close(self.slave)
        self.log.close()


def fast_config(tmp_path: Path) -> Path:
    text = (FIRMWARE / "shaker_config.py").read_text()
    for old, new in (('"settle_ms": 500', '"settle_ms": 300'), ('"cooldown_ms": 800', '"cooldown_ms": 300')):
        assert old in text
        text = text.replace(old, new)
    (tmp_path / "shaker_config.py").write_text(text)
    return tmp_path


def play_until_throws(
    state: State, link: ShakerLink, throws: queue.Queue[Throw], count: int
) -> list[Throw]:
    """Play Senet, taking each throw from the shaker, until ``count`` throws were applied."""
    applied: list[Throw] = []
    while len(applied) < count and state.phase is not Phase.OVER:
        if state.phase is Phase.THROW:
            spec = state.throw_spec
            assert spec is not None
            link.request_throw(spec)
            throw = throws.get(timeout=WAIT)
            spec.check(throw)
            state.apply(throw)
            applied.append(throw)
        else:
            state.apply(state.legal_moves()[0])
    return applied


def test_senet_played_with_the_firmware_shaker_through_an_unplug(tmp_path: Path) -> None:
    config_dir = fast_config(tmp_path)
    log = tmp_path / "micropython.log"
    pico = Pico(config_dir, log)
    throws: queue.Queue[Throw] = queue.Queue()
    statuses: queue.Queue[ShakerStatus] = queue.Queue()
    link = ShakerLink(
        on_throw=throws.put,
        on_status=statuses.put,
        find_port=lambda: pico.path if pico.plugged else None,
    )
    state = get_game("senet-tait").new_state()
    try:
        link.start()
        first = play_until_throws(state, link, throws, 3)
        boot_before = link.counts["connects"]

        while not statuses.empty():  # what was said before the unplug
            statuses.get_nowait()
        pico.unplug()
        # The link says it lost the shaker: "shaker unplugged" when it was in sync,
        # "looking for the shaker" / "... plug it in" when it was still syncing.
        while statuses.get(timeout=WAIT).connected:
            pass
        pico = Pico(config_dir, log)  # plugged back in: the Pico boots again
        second = play_until_throws(state, link, throws, 3)

        assert len(first) == len(second) == 3
        assert all(t.implement == "4 sticks" for t in first + second)
        assert link.counts["connects"] == boot_before + 1
        assert link.counts["throws"] == 6  # none lost, none counted twice
        assert throws.empty()
        assert link.counts.get("bug", 0) == 0
        assert link.counts["bad"] == 0, dict(link.counts)  # the firmware only sends frames
    finally:
        link.stop()
        if pico.plugged:
            pico.unplug()
    assert b"Traceback" not in log.read_bytes(), log.read_text()
