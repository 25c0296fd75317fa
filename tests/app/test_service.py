"""The service with real timers: presses through mock pins reach the screen; SIGTERM
ends cleanly (journal closed, display blanked, pins released)."""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from companion.app import config as cfg
from companion.app.controller import Screen
from companion.app.service import Parts, build, run_forever
from companion.devices.clock import ThreadScheduler


def config(tmp_path: Path) -> dict[str, Any]:
    values = cfg.defaults()
    values.update({"display.backend": "dummy", "journal.dir": str(tmp_path),
                   "buttons.debounce": 0.005})
    return values


def press(parts: Parts, bcm: int) -> None:
    pin = parts.pin_factory.pin(bcm)
    pin.drive_low()
    time.sleep(0.02)
    pin.drive_high()
    time.sleep(0.02)
    assert parts.service.wait_idle(5)


def test_sigterm_closes_the_journal_blanks_the_display_and_releases_the_pins(
    tmp_path: Path, mock_factory: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    frames: list[Image.Image] = []
    parts = build(config(tmp_path), pin_factory=mock_factory, on_frame=frames.append)
    assert isinstance(parts.scheduler, ThreadScheduler)
    service = parts.service
    ok = parts.config["buttons.ok"]
    seen: dict[str, Any] = {}

    def player() -> None:
        while not frames:
            time.sleep(0.01)
        for _ in range(3):   # splash, menu, setup: a game starts, its journal opens
            press(parts, ok)
        seen["screen"] = service.controller.screen
        seen["journal"] = service.controller.journal
        os.kill(os.getpid(), signal.SIGTERM)

    thread = threading.Thread(target=player)
    thread.start()
    run_forever(parts)           # returns on SIGTERM
    thread.join(5)
    assert seen["screen"] is Screen.THROW
    journal = seen["journal"]
    assert journal is not None and journal._fh is None  # closed
    assert service.controller.journal is None
    device = service.screen.device
    assert device.image.getbbox() is None  # blanked
    from gpiozero import DigitalInputDevice

    for key in ("buttons.up", "buttons.ok", "buttons.back", "shaker.pin"):
        DigitalInputDevice(parts.config[key], pin_factory=mock_factory).close()  # free again
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    # the effective configuration was logged at start, every key
    assert "effective configuration" in caplog.text
    assert "buttons.ok = 13" in caplog.text and "display.backend = 'dummy'" in caplog.text


def test_an_idle_service_does_not_redraw(tmp_path: Path, mock_factory: Any) -> None:
    frames: list[Image.Image] = []
    parts = build(config(tmp_path), pin_factory=mock_factory, on_frame=frames.append)
    loop = threading.Thread(target=parts.service.run)
    loop.start()
    try:
        assert parts.service.ready.wait(5)
        time.sleep(0.3)
        assert len(frames) == 1  # the splash, once
        press(parts, parts.config["buttons.ok"])
        assert len(frames) == 2
    finally:
        from companion.app.events import Quit

        parts.service.post(Quit())
        loop.join(5)
        parts.service.close()


def test_a_press_is_rendered_once_not_again_at_its_release(
    tmp_path: Path, mock_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A release that leaves the view as it was is not rendered again: rendering is most
    of a press's CPU time, and every press was drawn twice, at its press and again at
    its release (after the frame, so press-to-frame did not show it: the loop's CPU
    did). A new language redraws the same view."""
    from companion.app import service as service_module
    from companion.i18n import set_language
    from companion.ui.render import render as real

    rendered: list[object] = []

    def counting(view: Any, size: tuple[int, int]) -> Image.Image:
        rendered.append(view)
        return real(view, size)

    monkeypatch.setattr(service_module, "render", counting)
    parts = build(config(tmp_path), pin_factory=mock_factory)
    loop = threading.Thread(target=parts.service.run)
    loop.start()
    try:
        assert parts.service.ready.wait(5)
        before = len(rendered)
        press(parts, parts.config["buttons.ok"])  # splash -> menu: a press and a release
        assert len(rendered) == before + 1
        reply = parts.service.controller.reply()
        parts.service.show(reply)
        assert len(rendered) == before + 1  # the same view, the same picture
        set_language("de")
        parts.service.show(reply)
        assert len(rendered) == before + 2  # words drawn at render time may change
    finally:
        set_language("en")
        from companion.app.events import Quit

        parts.service.post(Quit())
        loop.join(5)
        parts.service.close()


def test_the_collector_held_through_start_up_runs_again_after_the_first_frame(
    tmp_path: Path, mock_factory: Any
) -> None:
    """`companion run` holds the garbage collector until the first frame (cli.cmd_run);
    the service lets it run from there, frozen start-up and all."""
    import gc

    parts = build(config(tmp_path), pin_factory=mock_factory)
    loop = threading.Thread(target=parts.service.run)
    gc.disable()
    try:
        loop.start()
        assert parts.service.ready.wait(5)
        assert gc.isenabled()
    finally:
        gc.enable()
        from companion.app.events import Quit

        parts.service.post(Quit())
        loop.join(5)
        parts.service.close()


def test_systemd_is_told_when_the_service_is_ready_and_stopping(
    tmp_path: Path, mock_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import socket

    from companion.app.events import Quit

    address = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(address)
    sock.settimeout(5)
    monkeypatch.setenv("NOTIFY_SOCKET", address)
    monkeypatch.setenv("WATCHDOG_USEC", "200000")  # WatchdogSec=0.2s: a ping every 0.1 s
    parts = build(config(tmp_path), pin_factory=mock_factory)
    loop = threading.Thread(target=parts.service.run)
    loop.start()
    try:
        assert sock.recv(100) == b"READY=1\nSTATUS=showing the first screen"
        # No event arrives, yet the idle loop wakes itself to keep the watchdog fed.
        assert sock.recv(100) == b"WATCHDOG=1"
        assert sock.recv(100) == b"WATCHDOG=1"
    finally:
        parts.service.post(Quit())
        loop.join(5)
        parts.service.close()
    while (message := sock.recv(100)) == b"WATCHDOG=1":
        pass  # pings sent before the Quit was handled
    assert message == b"STOPPING=1"
    sock.close()


def test_the_service_draws_throws_with_the_secrets_module(monkeypatch: pytest.MonkeyPatch) -> None:
    import secrets

    from companion.app.service import secure_draw
    from companion.rules import BinarySticks

    calls: list[int] = []

    def randbelow(n: int) -> int:
        calls.append(n)
        return n - 1

    monkeypatch.setattr(secrets, "randbelow", randbelow)
    throw = secure_draw(BinarySticks(4), 0)
    assert calls == [16] and throw.faces == ("L", "L", "L", "L")


def test_the_service_starts_in_the_language_of_the_config(tmp_path: Path, mock_factory: Any) -> None:
    """``display.language = "de"``: the words of the box are German from the first
    screen on (issue 20)."""
    from companion.i18n import language, set_language

    values = config(tmp_path)
    values["display.language"] = "de"
    try:
        parts = build(values, pin_factory=mock_factory)
        try:
            assert language() == "de"
            assert parts.service.controller.prefs.language == "de"
            assert "Schiedsrichter" in " ".join(parts.service.controller.view().lines)
        finally:
            parts.service.close()
    finally:
        set_language("en")
