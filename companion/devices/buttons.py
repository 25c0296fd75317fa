"""Push buttons on GPIO pins: debounce, short press, hold and auto-repeat.

gpiozero's ``DigitalInputDevice`` reads the pin (with the Pi's pull-up: a press pulls
the pin to ground) and calls back on every edge. It is gpiozero's ``Button`` without
the ``HoldMixin``: ``Button`` starts one hold thread per button that wakes ten times a
second even when nobody touches anything, and hold and repeat are done here anyway,
on the service's one timer thread. Debouncing is this module's own code (:class:`ButtonLogic`),
because gpiozero's mock backend does not simulate ``bounce_time`` and the real
backends differ (lgpio waits for a stable level; RPi.GPIO ignores edges for a while):

Every decision is taken on the edges' OWN times (gpiozero hands the pin callback the
tick of the edge; :class:`Buttons` turns it into the scheduler's clock), never on the
time the callback happens to run: a stall of the edge thread delays callbacks by
hundreds of milliseconds on a busy Pi, and a bounce split by such a stall must still
look like a bounce.

* an edge at least ``debounce`` seconds after the previous edge (in edge time) that
  changes the level is reported AT ONCE (no latency added);
* an edge closer than that to the previous one is a bounce: not reported, but
  ``debounce`` seconds after the edge before it a check looks at the pin: a
  level that differs from what was reported, and agrees with the last edge delivered,
  is reported then (a press or release shorter than ``debounce``, and a new press
  that follows such a release, are not lost); while edges keep arriving the check
  repeats ``debounce`` after the last one. A check whose timer runs late (its
  thread stalled) is made by the first edge after it was due, on the level the pin
  had then, before that edge counts; with no such edge it is made
  :data:`EDGE_DELAY_MAX` after it was due, on the edges alone (the pin has moved on). A pin that disagrees with the last edge
  delivered means edges are still on their way: their arrival decides.

So a contact bounce that settles within ``debounce`` gives exactly one press, even when
the edges and the timers run up to 400 ms late (tests/devices/test_buttons.py); a level
that lasts past the check is a real change, so ``debounce`` must exceed the switches'
bounce time (a few ms for a push button; the default ``debounce`` is 20 ms).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.devices.clock import Scheduler, Timer
from companion.devices.events import ButtonEvent, ButtonName, Post, Press

EDGE_DELAY_MAX = 0.5
"""Seconds: the longest an edge's callback is taken to run after the edge (a stalled
edge thread; tests/devices/test_buttons.py models stalls up to 0.4 s). A debounce check
whose timer runs late decides this long after it was due, on the edges alone: a press
or release shorter than ``debounce`` is then reported that late (longer ones are
reported at their first edge, at once)."""

MAX_EDGE_LAG = 5.0
"""Seconds: an edge's tick further in the past than this is taken for a tick of
another clock (see :class:`Buttons`), and the edge for one that happened now."""


@dataclass(frozen=True, slots=True)
class ButtonTiming:
    """Timings of every button, in seconds.

    ``debounce``: edges closer than this are bounces (0.001-0.2).
    ``hold``: a press longer than this is a hold (0.2-10).
    ``repeat_delay`` / ``repeat_interval``: auto-repeat of UP/DOWN starts after the
    delay and repeats at the interval (0.05-5).
    """

    debounce: float = 0.02
    hold: float = 1.0
    repeat_delay: float = 0.5
    repeat_interval: float = 0.15


class ButtonLogic:
    """Debounce, hold and repeat for one button, fed with raw edges.

    :meth:`edge` is called with the pin's new level (``True`` = pressed) from any
    thread; events go to ``post``. Timers come from ``scheduler``.
    """

    def __init__(
        self,
        name: ButtonName,
        post: Post,
        scheduler: Scheduler,
        timing: ButtonTiming,
        *,
        repeats: bool = False,
        level: Callable[[], bool] | None = None,
    ) -> None:
        self.name = name
        self._post = post
        self._sched = scheduler
        self._timing = timing
        self._repeats = repeats
        self._level = level
        self._lock = threading.Lock()
        self._raw = False
        self._reported = False
        self._last_edge = float("-inf")
        self._checked_edge = float("-inf")
        self._held = False
        self._settle: Timer | None = None
        self._due: float | None = None
        """When the pending check is due (scheduler clock), or ``None``."""
        self._generation = 0
        self._hold_timer: Timer | None = None
        self._repeat_timer: Timer | None = None
        self._press_id = 0

    def edge(self, pressed: bool, at: float | None = None) -> None:
        """A raw edge: the pin went to ``pressed`` at time ``at`` (seconds on the
        scheduler's clock; ``None``: now). Edges must come in the order they happened;
        ``at`` may lie in the past (a late callback)."""
        out: list[ButtonEvent] = []
        with self._lock:
            when = self._sched.now() if at is None else at
            previous = self._last_edge
            when = max(when, previous)  # a tick never runs backwards
            quiet = when - previous >= self._timing.debounce
            if self._due is not None and when >= self._due:
                # The check due before this edge has not run (its thread is late):
                # run it now, on the level the pin had then, before this edge counts.
                self._check(self._raw, out)
            self._last_edge = when
            self._raw = pressed
            if quiet and pressed != self._reported:
                self._report(pressed, out)
            elif not quiet and self._settle is None:
                self._arm(previous)
        for ev in out:
            self._post(ev)

    def _arm(self, since: float) -> None:
        """Check the pin ``debounce`` seconds after the edge at ``since`` (scheduler
        clock): on the timer, or on the first edge at or after that time, whichever
        comes first. Lock held."""
        self._checked_edge = self._last_edge
        self._due = since + self._timing.debounce
        self._generation += 1
        generation = self._generation
        delay = self._due - self._sched.now()
        self._settle = self._sched.call_later(max(0.0, delay), lambda: self._on_settle(generation))

    def _check(self, level: bool, out: list[ButtonEvent]) -> None:
        """The check due at ``self._due``, with the pin's ``level`` then. Lock held."""
        if self._settle is not None:
            self._settle.cancel()
        self._settle = self._due = None
        if self._raw != self._reported and level == self._raw:
            self._report(self._raw, out)

    def _on_settle(self, generation: int, final: bool = False) -> None:
        out: list[ButtonEvent] = []
        with self._lock:
            if generation != self._generation or self._due is None:
                return  # already checked by a later edge, or replaced
            now = self._sched.now()
            if not final and now - self._due > self._timing.debounce / 4:
                # The timer ran late: the pin no longer shows its level at the time the
                # check was due, and edges from before then may still be on their way
                # (an even number of them would make the pin agree by chance). Wait
                # until every edge before that time must have come; an edge after it
                # makes the check first, exactly.
                self._settle = self._sched.call_later(
                    max(0.0, self._due + EDGE_DELAY_MAX - now),
                    lambda: self._on_settle(generation, final=True),
                )
                return
            # Every edge delivered so far happened before the check was due (a later
            # one would have run it): the last one gives the level then. On time, the
            # pin must agree (it disagrees while edges are still on their way: they
            # decide); at the final look every edge before then has come.
            level = self._raw if final or self._level is None else self._level()
            self._check(level, out)
            if self._last_edge > self._checked_edge:
                self._arm(self._last_edge)  # edges came meanwhile: look again after them
        for ev in out:
            self._post(ev)

    def _report(self, pressed: bool, out: list[ButtonEvent]) -> None:
        self._reported = pressed
        self._press_id += 1
        for timer in (self._hold_timer, self._repeat_timer):
            if timer is not None:
                timer.cancel()
        self._hold_timer = self._repeat_timer = None
        if pressed:
            self._held = False
            out.append(ButtonEvent(self.name, Press.PRESSED))
            pid = self._press_id
            self._hold_timer = self._sched.call_later(
                self._timing.hold, lambda: self._on_hold(pid)
            )
            if self._repeats:
                self._repeat_timer = self._sched.call_later(
                    self._timing.repeat_delay, lambda: self._on_repeat(pid)
                )
        elif not self._held:
            out.append(ButtonEvent(self.name, Press.SHORT))

    def _on_hold(self, pid: int) -> None:
        with self._lock:
            if pid != self._press_id or not self._reported:
                return
            self._held = True
            self._hold_timer = None
        self._post(ButtonEvent(self.name, Press.HELD))

    def _on_repeat(self, pid: int) -> None:
        with self._lock:
            if pid != self._press_id or not self._reported:
                return
            self._repeat_timer = self._sched.call_later(
                self._timing.repeat_interval, lambda: self._on_repeat(pid)
            )
        self._post(ButtonEvent(self.name, Press.REPEAT))

    def cancel(self) -> None:
        """Stop every pending timer (on close)."""
        with self._lock:
            for timer in (self._settle, self._hold_timer, self._repeat_timer):
                if timer is not None:
                    timer.cancel()
            self._settle = self._hold_timer = self._repeat_timer = None
            self._due = None
            self._press_id += 1


class Buttons:
    """The companion's buttons, each a gpiozero ``DigitalInputDevice`` on a BCM pin, pulled up.

    ``pins`` maps each wired button to its BCM pin (0-27); buttons left out are not
    wired. ``pin_factory`` is a gpiozero pin factory (``MockFactory()`` off-Pi) or
    ``None`` for gpiozero's default. UP and DOWN auto-repeat.

    :raises gpiozero.GPIOZeroError: when a pin is invalid or already in use.
    """

    REPEATING = frozenset({ButtonName.UP, ButtonName.DOWN})

    def __init__(
        self,
        pins: Mapping[ButtonName, int],
        post: Post,
        scheduler: Scheduler,
        timing: ButtonTiming,
        *,
        pin_factory: Any = None,
    ) -> None:
        edge_input = _edge_input_class()  # here: the rules never need gpiozero
        self.logic: dict[ButtonName, ButtonLogic] = {}
        self._devices: list[Any] = []
        try:
            for name, pin in pins.items():
                device = edge_input(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
                self._devices.append(device)
                logic = ButtonLogic(
                    name, post, scheduler, timing, repeats=name in self.REPEATING,
                    level=_level_reader(device),
                )
                device.on_edge = _edge_callback(logic, scheduler)
                self.logic[name] = logic
        except Exception:
            self.close()
            raise

    def close(self) -> None:
        """Release every pin and stop the timers; idempotent."""
        for logic in self.logic.values():
            logic.cancel()
        for device in self._devices:
            device.close()
        self._devices.clear()


def _edge_input_class() -> Any:
    """gpiozero's ``DigitalInputDevice`` that hands each edge's own tick on: gpiozero
    calls ``_fire_events(ticks, active)`` with the time the pin library stamped the
    edge with, and drops it before ``when_activated`` runs."""
    from gpiozero import DigitalInputDevice

    class EdgeInput(DigitalInputDevice):  # type: ignore[misc]  # gpiozero has no type hints
        on_edge: Callable[[bool, float], None] | None = None
        """Called with the new level and how long ago (seconds) the edge happened."""

        def _fire_events(self, ticks: Any, new_active: bool) -> None:
            old = self._last_active
            super()._fire_events(ticks, new_active)
            callback = self.on_edge
            if callback is not None and old is not None and old != new_active:
                factory = self.pin_factory
                ago = float(factory.ticks_diff(factory.ticks(), ticks))
                # A tick from another clock than ticks() (a pin library stamping edges
                # with the wall clock) gives nonsense: then the callback's own time.
                callback(bool(new_active), ago if 0.0 <= ago <= MAX_EDGE_LAG else 0.0)

    return EdgeInput


def _level_reader(device: Any) -> Callable[[], bool]:
    def level() -> bool:
        return bool(device.is_active)

    return level


def _edge_callback(logic: ButtonLogic, scheduler: Scheduler) -> Callable[[bool, float], None]:
    def callback(pressed: bool, ago: float) -> None:
        logic.edge(pressed, scheduler.now() - ago)

    return callback
