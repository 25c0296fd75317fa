"""More flows through the mock pins: undo by holding BACK, manual entry, the serial seam."""

from __future__ import annotations

import sys
import time
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serving import serving
from walkthroughs import scripted_draw

from companion.app.controller import Screen
from companion.app.service import Parts
from companion.devices.events import ButtonName, SourceStatus, ThrowReported
from companion.devices.sources import (
    PassiveSource,
    SourceContext,
    SourceUnavailableError,
    ThrowSource,
)
from companion.journal.store import load
from companion.rules import Implement
from companion.sim.demo import PinDriver, demo_config


@pytest.fixture
def running(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[tuple[Parts, PinDriver]]:
    overrides: dict[str, Any] = getattr(request, "param", {})
    with serving(demo_config(tmp_path, **overrides),
                 draw=scripted_draw(["4", "2", "3", "6"])) as running_parts:
        yield running_parts


def start(parts: Parts, driver: PinDriver) -> None:
    ctl = parts.service.controller
    driver.press(ButtonName.OK)                       # splash
    for _ in range(ctl.games.index("senet-tait")):
        driver.press(ButtonName.DOWN)
    driver.press(ButtonName.OK)                       # menu
    driver.press(ButtonName.OK)                       # setup


def test_holding_back_on_the_pin_undoes_the_move(running: tuple[Parts, PinDriver]) -> None:
    parts, driver = running
    ctl = parts.service.controller
    start(parts, driver)
    driver.shake()                                    # Black throws 4
    driver.press(ButtonName.OK)                       # enter 4
    driver.shake()                                    # White throws 2: lost
    assert ctl.view().screen == "lost"
    driver.press(ButtonName.BACK, hold=True)
    assert ctl.view().title == "Undone"
    driver.press(ButtonName.OK)
    assert ctl.view().screen == "moves" and ctl.view().items == ("enter 4",)
    assert ctl.journal is not None
    assert load(ctl.journal.path).actions == ctl.actions
    assert b'{"undo":2}' in ctl.journal.path.read_bytes()


@pytest.mark.parametrize("running", [{"throw.source": "manual"}], indirect=True)
def test_manual_entry_with_the_buttons(running: tuple[Parts, PinDriver]) -> None:
    parts, driver = running
    ctl = parts.service.controller
    start(parts, driver)
    assert ctl.view().screen == "manual"
    for button in (ButtonName.DOWN, ButtonName.DOWN, ButtonName.OK):  # the score 2 (two light sides)
        driver.press(button)
    assert ctl.view().title == "Black threw 2"


class FakeSerialShaker(PassiveSource):
    """Stands in for the serial shaker's host side, through the real seam."""

    last: FakeSerialShaker | None = None

    def __init__(self, ctx: SourceContext) -> None:
        super().__init__("serial-shaker")
        self.post = ctx.post
        FakeSerialShaker.last = self

    def arm(self, implement: Implement | None) -> None:
        super().arm(implement)


@pytest.fixture
def serial_module(monkeypatch: pytest.MonkeyPatch) -> None:
    module = types.ModuleType("companion.devices.serial_shaker")
    module.make_source = FakeSerialShaker  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "companion.devices.serial_shaker", module)


@pytest.mark.parametrize("running", [{"throw.source": "serial-shaker"}], indirect=True)
def test_the_serial_shaker_seam(serial_module: None, running: tuple[Parts, PinDriver]) -> None:
    parts, driver = running
    ctl = parts.service.controller
    start(parts, driver)
    source = FakeSerialShaker.last
    assert source is not None and source.armed is not None and source.armed.id == "4 sticks"
    source.post(SourceStatus("serial-shaker", False, "Shaker unplugged"))
    driver.idle()
    assert "Shaker unplugged" in ctl.view().lines
    source.post(ThrowReported("serial-shaker", "4 sticks", ("L", "D", "L", "D")))
    driver.idle()
    assert ctl.view().title == "Black threw 2"
    assert source.armed is None  # nothing due while a move is chosen


@pytest.fixture
def broken_serial_module(monkeypatch: pytest.MonkeyPatch) -> None:
    def make_source(ctx: SourceContext) -> ThrowSource:
        raise SourceUnavailableError("serial-shaker: cannot open the port")

    module = types.ModuleType("companion.devices.serial_shaker")
    module.make_source = make_source  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "companion.devices.serial_shaker", module)


@pytest.mark.parametrize("running", [{"throw.source": "serial-shaker"}], indirect=True)
def test_a_source_that_cannot_start_hands_over_to_manual_entry(
    broken_serial_module: None, running: tuple[Parts, PinDriver]
) -> None:
    parts, _driver = running
    ctl = parts.service.controller
    assert ctl.source == "manual"
    assert ctl.screen is Screen.MESSAGE and ctl.view().title == "Throw source failed"
    assert "serial-shaker: cannot open the port" in ctl.view().lines


@pytest.mark.parametrize("running", [{"display.sleep_after": 30.0}], indirect=True)
def test_the_panel_sleeps_when_idle_and_the_next_press_only_wakes_it(
    running: tuple[Parts, PinDriver],
) -> None:
    parts, driver = running
    service = parts.service
    driver.sched.advance(29.0)
    driver.idle()
    assert not service.asleep
    driver.sched.advance(2.0)
    driver.idle()
    assert service.asleep
    driver.press(ButtonName.OK)
    assert not service.asleep and service.controller.view().screen == "splash"
    driver.press(ButtonName.OK)
    assert service.controller.view().screen == "menu"


@pytest.mark.parametrize("running", [{"throw.source": "gpio-shaker"}], indirect=True)
def test_the_throw_button_throws_when_the_shaker_is_the_source(
    running: tuple[Parts, PinDriver],
) -> None:
    parts, driver = running
    start(parts, driver)
    driver.press(ButtonName.THROW)
    assert parts.service.controller.view().title == "Black threw 4"


def test_the_led_and_the_buzzer_follow_the_game_on_their_pins(
    running: tuple[Parts, PinDriver],
) -> None:
    parts, driver = running
    factory = parts.pin_factory
    led, buzzer = factory.pin(parts.config["led.pin"]), factory.pin(parts.config["buzzer.pin"])
    start(parts, driver)                              # Black to throw
    assert led.state                                  # lit: a throw is awaited
    driver.shake()                                    # Black throws 4
    assert not led.state                              # a move is chosen now
    deadline = time.monotonic() + 5
    while not any(s.state for s in buzzer.states):    # the throw's beep (a wait, not a timing)
        assert time.monotonic() < deadline, "no beep for the throw"
        time.sleep(0.005)


def test_each_cue_comes_with_its_reply(tmp_path: Path) -> None:
    from companion.app.controller import Controller
    from companion.devices.events import ButtonEvent, Press, Shaken
    from companion.devices.indicators import Cue
    from companion.devices.sources import SOURCE_NAMES
    from companion.journal.store import JournalStore

    ctl = Controller(store=JournalStore(tmp_path), draw=scripted_draw(["4", "2"]),
                     sources=list(SOURCE_NAMES), source="gpio-shaker", games=["senet-tait"])
    ctl.start()
    ok = ButtonEvent(ButtonName.OK, Press.PRESSED)
    for event in (ok, ok, ok):                        # splash, menu, setup: Black to throw
        assert ctl.handle(event).cue is None
    assert ctl.handle(Shaken("gpio-shaker")).cue is Cue.THROW
    assert ctl.handle(ok).cue is Cue.TURN             # enter 4: White to throw
    reply = ctl.handle(ThrowReported("gpio-shaker", "4 sticks", ("X",)))
    assert reply.view.title == "Throw rejected" and reply.cue is Cue.ERROR
    assert ctl.handle(ok).cue is None                 # back to White's throw
    assert ctl.handle(Shaken("gpio-shaker")).cue is Cue.THROW   # White 2: lost
    assert ctl.handle(ok).cue is Cue.TURN             # the lost throw passes to Black


@pytest.mark.parametrize(
    "running", [{"games": {"senet-tait": {"house-of-beauty": "from"}}}], indirect=True
)
def test_the_setup_starts_from_the_game_options_of_the_config(
    running: tuple[Parts, PinDriver],
) -> None:
    parts, driver = running
    ctl = parts.service.controller
    driver.press(ButtonName.OK)                       # splash
    for _ in range(ctl.games.index("senet-tait")):
        driver.press(ButtonName.DOWN)
    driver.press(ButtonName.OK)                       # the menu: Senet's setup
    assert "House of Beauty: from" in ctl.view().items
    driver.press(ButtonName.OK)                       # Begin
    assert ctl.game is not None and ctl.game.option("house-of-beauty") == "from"
