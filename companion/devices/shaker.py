"""The GPIO shaker: a vibration (SW-420) or ball tilt switch on one pin.

Shaking the cup makes the switch chatter: a burst of edges. The throw is drawn when
the shaking STOPS (no edge for ``quiet`` seconds), as with real sticks that are read
once they lie still. A bump of the table gives a few stray edges: a burst with fewer
than ``min_edges`` edges is ignored. The shaker only says "shaken"; the service draws
the throw for the implement the rules ask for, with :func:`secrets.randbelow`.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.devices.clock import Scheduler, Timer
from companion.devices.events import Post, Shaken, ShakeStarted, SourceName

if TYPE_CHECKING:  # the implements: imported with the first game, not at the start
    from companion.rules.throws import Implement

SOURCE = SourceName.GPIO_SHAKER


@dataclass(frozen=True, slots=True)
class ShakeTiming:
    """``quiet``: seconds without an edge that end a shake (0.05-5);
    ``min_edges``: edges a burst needs to count as a shake (2-1000)."""

    quiet: float = 0.4
    min_edges: int = 8


class ShakeDetector:
    """Counts edges into bursts; posts :class:`ShakeStarted` and :class:`Shaken`."""

    def __init__(self, post: Post, scheduler: Scheduler, timing: ShakeTiming) -> None:
        self._post = post
        self._sched = scheduler
        self._timing = timing
        self._lock = threading.Lock()
        self._edges = 0
        self._timer: Timer | None = None
        self.enabled = True
        """While ``False`` (no throw is due) edges are ignored."""

    def edge(self) -> None:
        """One edge of the switch (either direction)."""
        started = False
        with self._lock:
            if not self.enabled:
                return
            self._edges += 1
            started = self._edges == self._timing.min_edges
            if self._timer is not None:
                self._timer.cancel()
            self._timer = self._sched.call_later(self._timing.quiet, self._on_quiet)
        if started:
            self._post(ShakeStarted(SOURCE))

    def _on_quiet(self) -> None:
        with self._lock:
            edges, self._edges, self._timer = self._edges, 0, None
            shaken = self.enabled and edges >= self._timing.min_edges
        if shaken:
            self._post(Shaken(SOURCE))

    def cancel(self) -> None:
        """Forget a shake in progress (no throw will come of it)."""
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
            self._timer = None
            self._edges = 0


class GpioShaker:
    """A :class:`~companion.devices.sources.ThrowSource` on a BCM pin (0-27), pulled up.

    :raises gpiozero.GPIOZeroError: when the pin is invalid or in use.
    """

    name: str = SOURCE

    def __init__(
        self,
        pin: int,
        post: Post,
        scheduler: Scheduler,
        timing: ShakeTiming,
        *,
        pin_factory: Any = None,
    ) -> None:
        from gpiozero import DigitalInputDevice

        self.detector = ShakeDetector(post, scheduler, timing)
        self.detector.enabled = False
        self._device = DigitalInputDevice(pin, pull_up=True, pin_factory=pin_factory)
        self._device.when_activated = self.detector.edge
        self._device.when_deactivated = self.detector.edge

    def arm(self, implement: Implement | None) -> None:
        """Listen for a shake while a throw of ``implement`` is due (``None``: ignore shaking)."""
        self.detector.enabled = implement is not None
        if implement is None:
            self.detector.cancel()

    def close(self) -> None:
        """Stop listening and release the pin; idempotent."""
        self.detector.cancel()
        self._device.close()
