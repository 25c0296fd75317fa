"""Buttons through gpiozero mock pins: debounce, short press, hold, auto-repeat."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.devices.buttons import Buttons, ButtonTiming
from companion.devices.clock import ManualScheduler
from companion.devices.events import ButtonEvent, ButtonName, DeviceEvent, Press

TIMING = ButtonTiming(debounce=0.02, hold=1.0, repeat_delay=0.5, repeat_interval=0.15)


def make(factory: Any, pins: dict[ButtonName, int] | None = None) -> tuple[Buttons, ManualScheduler, list[DeviceEvent]]:
    events: list[DeviceEvent] = []
    sched = ManualScheduler()
    buttons = Buttons(pins or {ButtonName.OK: 13, ButtonName.DOWN: 6, ButtonName.BACK: 19},
                      events.append, sched, TIMING, pin_factory=factory)
    return buttons, sched, events


def storm(pin: Any, sched: ManualScheduler, gaps_ms: list[int], end_low: bool) -> None:
    """Toggle ``pin`` with the given gaps (ms), ending at the requested level."""
    low = True
    for gap in gaps_ms:
        if low:
            pin.drive_low()
        else:
            pin.drive_high()
        low = not low
        sched.advance(gap / 1000)
    if end_low:
        pin.drive_low()
    else:
        pin.drive_high()


def test_a_clean_short_press_gives_pressed_then_short(mock_factory: Any) -> None:
    buttons, sched, events = make(mock_factory)
    pin = mock_factory.pin(13)
    pin.drive_low()
    assert events == [ButtonEvent(ButtonName.OK, Press.PRESSED)]  # at once, no waiting
    sched.advance(0.2)
    pin.drive_high()
    sched.advance(0.1)
    assert events == [ButtonEvent(ButtonName.OK, Press.PRESSED), ButtonEvent(ButtonName.OK, Press.SHORT)]
    buttons.close()


@settings(max_examples=40, deadline=None)
@given(
    press_gaps=st.lists(st.integers(1, 10), min_size=1, max_size=12),
    release_gaps=st.lists(st.integers(1, 10), min_size=1, max_size=12),
)
def test_a_storm_of_bounces_gives_exactly_one_press(press_gaps: list[int], release_gaps: list[int]) -> None:
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    try:
        buttons, sched, events = make(factory)
        pin = factory.pin(13)
        storm(pin, sched, press_gaps, end_low=True)
        sched.advance(0.3)
        storm(pin, sched, release_gaps, end_low=False)
        sched.advance(0.3)
        assert events == [
            ButtonEvent(ButtonName.OK, Press.PRESSED),
            ButtonEvent(ButtonName.OK, Press.SHORT),
        ]
        buttons.close()
    finally:
        factory.reset()


def test_holding_gives_held_once_and_no_short(mock_factory: Any) -> None:
    buttons, sched, events = make(mock_factory)
    pin = mock_factory.pin(19)
    pin.drive_low()
    sched.advance(3.0)
    pin.drive_high()
    sched.advance(0.1)
    assert events == [ButtonEvent(ButtonName.BACK, Press.PRESSED), ButtonEvent(ButtonName.BACK, Press.HELD)]
    buttons.close()


def test_down_repeats_while_held_and_stops_on_release(mock_factory: Any) -> None:
    buttons, sched, events = make(mock_factory)
    pin = mock_factory.pin(6)
    pin.drive_low()
    sched.advance(0.5 + 0.15 * 3 + 0.01)  # repeat at 0.5, 0.65, 0.8, 0.95
    pin.drive_high()
    sched.advance(1.0)
    repeats = [e for e in events if isinstance(e, ButtonEvent) and e.press is Press.REPEAT]
    assert len(repeats) == 4
    assert events[0] == ButtonEvent(ButtonName.DOWN, Press.PRESSED)
    buttons.close()


def test_a_glitch_shorter_than_debounce_while_idle_is_a_press(mock_factory: Any) -> None:
    """A real (if brief) press is not swallowed: it is reported at once."""
    buttons, sched, events = make(mock_factory)
    pin = mock_factory.pin(13)
    pin.drive_low()
    sched.advance(0.005)
    pin.drive_high()
    sched.advance(0.1)
    assert [e.press for e in events if isinstance(e, ButtonEvent)] == [Press.PRESSED, Press.SHORT]
    buttons.close()


def test_close_releases_the_pins(mock_factory: Any) -> None:
    from gpiozero import DigitalInputDevice

    buttons, _sched, _events = make(mock_factory)
    buttons.close()
    again = DigitalInputDevice(13, pin_factory=mock_factory)  # would raise if still reserved
    again.close()


def test_separate_presses_after_quiet_are_all_counted(mock_factory: Any) -> None:
    buttons, sched, events = make(mock_factory)
    pin = mock_factory.pin(13)
    rng = random.Random(5)
    for _ in range(20):
        pin.drive_low()
        sched.advance(0.03 + rng.random() * 0.1)
        pin.drive_high()
        sched.advance(0.03 + rng.random() * 0.1)
    presses = [e for e in events if isinstance(e, ButtonEvent) and e.press is Press.PRESSED]
    assert len(presses) == 20
    buttons.close()
