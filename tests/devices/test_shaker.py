"""The GPIO shaker through a mock pin: a shake throws once it stops; bumps do not."""

from __future__ import annotations

from typing import Any

from companion.devices.clock import ManualScheduler
from companion.devices.events import DeviceEvent, Shaken, ShakeStarted
from companion.devices.shaker import GpioShaker, ShakeTiming
from companion.rules import BinarySticks

TIMING = ShakeTiming(quiet=0.4, min_edges=8)


def edges(pin: Any, sched: ManualScheduler, count: int, gap: float = 0.02) -> None:
    for i in range(count):
        if i % 2 == 0:
            pin.drive_low()
        else:
            pin.drive_high()
        sched.advance(gap)


def make(factory: Any) -> tuple[GpioShaker, ManualScheduler, list[DeviceEvent], Any]:
    events: list[DeviceEvent] = []
    sched = ManualScheduler()
    shaker = GpioShaker(17, events.append, sched, TIMING, pin_factory=factory)
    shaker.arm(BinarySticks(4))
    return shaker, sched, events, factory.pin(17)


def test_a_shake_throws_once_when_it_stops(mock_factory: Any) -> None:
    shaker, sched, events, pin = make(mock_factory)
    edges(pin, sched, 30)
    assert Shaken("gpio-shaker") not in events  # still shaking: nothing drawn yet
    sched.advance(0.5)
    assert events == [ShakeStarted("gpio-shaker"), Shaken("gpio-shaker")]
    shaker.close()


def test_a_bumped_table_does_not_throw(mock_factory: Any) -> None:
    shaker, sched, events, pin = make(mock_factory)
    edges(pin, sched, 3)
    sched.advance(1.0)
    edges(pin, sched, 4)
    sched.advance(1.0)
    assert events == []
    shaker.close()


def test_shaking_when_no_throw_is_due_is_ignored(mock_factory: Any) -> None:
    shaker, sched, events, pin = make(mock_factory)
    shaker.arm(None)
    edges(pin, sched, 30)
    sched.advance(1.0)
    assert events == []
    shaker.close()


def test_two_shakes_separated_by_rest_throw_twice(mock_factory: Any) -> None:
    shaker, sched, events, pin = make(mock_factory)
    for _ in range(2):
        edges(pin, sched, 20)
        sched.advance(0.5)
    assert events.count(Shaken("gpio-shaker")) == 2
    shaker.close()
