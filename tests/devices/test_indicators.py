"""The buzzer and the LED on gpiozero's mock pins: a cue for each thing the players
should hear about, the LED lit while a throw is awaited and blinking while the shaker
is gone, both switched off from Settings."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.devices.clock import ManualScheduler
from companion.devices.indicators import Cue, Indicators

BUZZER, LED = 18, 27


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory(pin_class=MockPWMPin)
    yield f
    f.reset()


def wait_for(test: Callable[[], bool], timeout: float = 5.0) -> None:
    """Wait (not a timing check) for gpiozero's background thread to do its work."""
    deadline = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < deadline, "gpiozero's background thread did nothing"
        time.sleep(0.005)


def beeps(pin: Any) -> list[float]:
    """How long the buzzer was on, per beep (seconds)."""
    states = pin.states
    out = []
    for a, b in itertools.pairwise(states):
        if a.state and not b.state:
            out.append(b.timestamp - a.timestamp)
    return out


@pytest.mark.parametrize(("cue", "count"), [(Cue.THROW, 1), (Cue.TURN, 2), (Cue.ERROR, 1)])
def test_an_active_buzzer_tells_the_cues_apart_by_rhythm(
    factory: MockFactory, cue: Cue, count: int
) -> None:
    ind = Indicators(buzzer_pin=BUZZER, led_pin=None, pin_factory=factory)
    ind.cue(cue)
    pin = factory.pin(BUZZER)
    wait_for(lambda: len(beeps(pin)) == count and not pin.state)
    if cue is Cue.ERROR:
        assert beeps(pin)[0] > 0.2  # a long beep, unlike the short ones
    ind.close()


def test_a_passive_buzzer_plays_tones_of_different_pitch(factory: MockFactory) -> None:
    sched = ManualScheduler()
    ind = Indicators(buzzer_pin=BUZZER, led_pin=None, kind="passive", pin_factory=factory,
                     scheduler=sched)
    pin = factory.pin(BUZZER)
    ind.cue(Cue.TURN)
    first = pin.frequency
    sched.advance(0.1)
    second = pin.frequency
    sched.advance(0.1)
    assert first is not None and second is not None and second > first
    assert not ind.buzzer.is_active  # silent after the last note
    ind.cue(Cue.ERROR)
    assert pin.frequency is not None and pin.frequency < first
    ind.close()


def test_sound_off_is_silent(factory: MockFactory) -> None:
    ind = Indicators(buzzer_pin=BUZZER, led_pin=None, pin_factory=factory)
    ind.sound = False
    ind.cue(Cue.TURN)
    time.sleep(0.05)
    assert not any(s.state for s in factory.pin(BUZZER).states)
    ind.close()


def test_the_led_is_lit_while_a_throw_is_awaited_and_blinks_while_the_shaker_is_gone(
    factory: MockFactory,
) -> None:
    ind = Indicators(buzzer_pin=None, led_pin=LED, pin_factory=factory)
    pin = factory.pin(LED)
    ind.show(awaiting=True, trouble=False)
    assert pin.state
    ind.show(awaiting=False, trouble=False)
    assert not pin.state
    ind.show(awaiting=True, trouble=True)
    wait_for(lambda: sum(1 for s in pin.states if s.state) >= 3)  # on, off, on again
    ind.light = False
    ind.show(awaiting=True, trouble=True)
    assert not pin.state
    ind.close()
    assert ind.led is None


def test_a_buzzer_that_cannot_be_opened_is_left_out() -> None:
    plain = MockFactory()  # no PWM: a passive buzzer cannot work here
    try:
        ind = Indicators(buzzer_pin=BUZZER, led_pin=LED, kind="passive", pin_factory=plain)
        assert ind.buzzer is None and ind.led is not None
        ind.cue(Cue.THROW)  # nothing to sound, nothing raised
        ind.close()
    finally:
        plain.reset()
