"""Push buttons on GPIO pins: debounce, short press, hold and auto-repeat.

gpiozero's ``DigitalInputDevice`` reads the pin (with the Pi's pull-up: a press pulls
the pin to ground) and calls back on every edge. It is gpiozero's ``Button`` without
the ``HoldMixin``: ``Button`` starts one hold thread per button that wakes ten times a
second even when nobody touches anything, and hold and repeat are done here anyway,
on the service's one timer thread. Debouncing is this module's own code (:class:`ButtonLogic`),
because gpiozero's mock backend does not simulate ``bounce_time`` and the real
backends differ (lgpio waits for a stable level; RPi.GPIO ignores edges for a while):

* the first edge after a quiet period is reported AT ONCE (no latency added);
* any edge within ``debounce`` seconds of the previous edge is a bounce: it is not
  reported, but once the pin has been quiet for ``debounce`` seconds its level is
  compared with what was reported and a missed change is reported then.

So a storm of bounces 1-10 ms apart gives exactly one press with ``debounce`` >= 0.02.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.devices.clock import Scheduler, Timer
from companion.devices.events import ButtonEvent, ButtonName, Post, Press


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
    ) -> None:
        self.name = name
        self._post = post
        self._sched = scheduler
        self._timing = timing
        self._repeats = repeats
        self._lock = threading.Lock()
        self._raw = False
        self._reported = False
        self._last_edge = float("-inf")
        self._held = False
        self._settle: Timer | None = None
        self._hold_timer: Timer | None = None
        self._repeat_timer: Timer | None = None
        self._press_id = 0

    def edge(self, pressed: bool) -> None:
        """A raw edge: the pin now reads ``pressed``."""
        out: list[ButtonEvent] = []
        with self._lock:
            now = self._sched.now()
            quiet = now - self._last_edge >= self._timing.debounce
            self._last_edge = now
            self._raw = pressed
            if quiet and pressed != self._reported:
                self._report(pressed, out)
            if self._settle is not None:
                self._settle.cancel()
            self._settle = self._sched.call_later(self._timing.debounce, self._on_settle)
        for ev in out:
            self._post(ev)

    def _on_settle(self) -> None:
        out: list[ButtonEvent] = []
        with self._lock:
            self._settle = None
            if self._raw != self._reported:
                self._report(self._raw, out)
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
        from gpiozero import DigitalInputDevice  # here: the rules never need gpiozero

        self.logic: dict[ButtonName, ButtonLogic] = {}
        self._devices: list[Any] = []
        try:
            for name, pin in pins.items():
                logic = ButtonLogic(
                    name, post, scheduler, timing, repeats=name in self.REPEATING
                )
                device = DigitalInputDevice(
                    pin, pull_up=True, bounce_time=None, pin_factory=pin_factory
                )
                device.when_activated = _edge_callback(logic, True)
                device.when_deactivated = _edge_callback(logic, False)
                self.logic[name] = logic
                self._devices.append(device)
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


def _edge_callback(logic: ButtonLogic, pressed: bool) -> Callable[[], None]:
    def callback() -> None:
        logic.edge(pressed)

    return callback
