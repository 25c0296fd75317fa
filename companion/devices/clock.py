"""Timers for the device adapters: one thread that sleeps until the next deadline.

Debounce, hold, auto-repeat and the shaker's quiet period all need "call this in N
seconds, unless cancelled". :class:`ThreadScheduler` does that with ONE thread that
waits on a condition until the earliest deadline (it never polls: with nothing
scheduled it sleeps until something is). :class:`ManualScheduler` is the same
interface on a virtual clock that a test or the scripted demo advances by hand, so a
whole game of button presses runs in milliseconds and identically every time.
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from collections.abc import Callable
from typing import Protocol


class Timer(Protocol):
    """A scheduled call; :meth:`cancel` is safe to call at any time, even after it ran."""

    def cancel(self) -> None: ...


class Scheduler(Protocol):
    """A clock (seconds, monotonic) and delayed calls."""

    def now(self) -> float:
        """The current time in seconds (monotonic; only differences mean anything)."""
        ...

    def call_later(self, delay: float, fn: Callable[[], None]) -> Timer:
        """Call ``fn()`` after ``delay`` seconds (>= 0) in the scheduler's thread."""
        ...


class _Entry:
    __slots__ = ("cancelled", "fn", "when")

    def __init__(self, when: float, fn: Callable[[], None]) -> None:
        self.when = when
        self.fn = fn
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class _Heap:
    def __init__(self) -> None:
        self._heap: list[tuple[float, int, _Entry]] = []
        self._count = itertools.count()

    def push(self, entry: _Entry) -> None:
        heapq.heappush(self._heap, (entry.when, next(self._count), entry))

    def next_due(self) -> float | None:
        while self._heap and self._heap[0][2].cancelled:
            heapq.heappop(self._heap)
        return self._heap[0][0] if self._heap else None

    def pop_due(self, now: float) -> _Entry | None:
        due = self.next_due()
        if due is None or due > now:
            return None
        return heapq.heappop(self._heap)[2]


class ThreadScheduler:
    """Delayed calls run by one daemon thread; :meth:`close` stops it.

    Callbacks run one at a time in that thread; an exception in one is logged by
    ``on_error`` (default: printed by :mod:`threading`'s hook) and does not stop the others.
    """

    def __init__(self, on_error: Callable[[BaseException], None] | None = None) -> None:
        self._heap = _Heap()
        self._cond = threading.Condition()
        self._closed = False
        self._on_error = on_error
        self._thread = threading.Thread(target=self._run, name="companion-timers", daemon=True)
        self._thread.start()

    def now(self) -> float:
        """``time.monotonic()``, in seconds."""
        return time.monotonic()

    def call_later(self, delay: float, fn: Callable[[], None]) -> Timer:
        """Call ``fn()`` in the timer thread after ``delay`` seconds."""
        entry = _Entry(time.monotonic() + max(0.0, delay), fn)
        with self._cond:
            self._heap.push(entry)
            if self._heap.next_due() == entry.when:
                # The new earliest deadline: the thread must wait less. A later one
                # waits its turn without waking the thread (and taking the GIL from
                # the loop) now.
                self._cond.notify()
        return entry

    def _run(self) -> None:
        while True:
            with self._cond:
                while True:
                    if self._closed:
                        return
                    now = time.monotonic()
                    entry = self._heap.pop_due(now)
                    if entry is not None:
                        break
                    due = self._heap.next_due()
                    # No deadline: sleep until call_later() or close() notifies.
                    self._cond.wait(None if due is None else due - now)
            try:
                entry.fn()
            except Exception as exc:
                if self._on_error is None:
                    raise
                self._on_error(exc)

    def close(self) -> None:
        """Stop the thread (pending calls are dropped); idempotent."""
        with self._cond:
            self._closed = True
            self._cond.notify()
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout=2)


class ManualScheduler:
    """A virtual clock: time moves only in :meth:`advance`, which runs the calls due.

    Thread-safe: device callbacks may schedule from any thread; the calls run in the
    thread that calls :meth:`advance`.
    """

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._heap = _Heap()
        self._lock = threading.RLock()

    def now(self) -> float:
        """The virtual time in seconds."""
        with self._lock:
            return self._now

    def call_later(self, delay: float, fn: Callable[[], None]) -> Timer:
        """Call ``fn()`` once :meth:`advance` passes ``delay`` seconds from now."""
        with self._lock:
            entry = _Entry(self._now + max(0.0, delay), fn)
            self._heap.push(entry)
        return entry

    def advance(self, seconds: float) -> None:
        """Move the clock forward by ``seconds``, running every call due on the way in order."""
        with self._lock:
            end = self._now + seconds
        while True:
            with self._lock:
                due = self._heap.next_due()
                if due is None or due > end:
                    self._now = end
                    return
                self._now = max(self._now, due)
                entry = self._heap.pop_due(self._now)
            if entry is not None:
                entry.fn()

    def close(self) -> None:
        """Nothing to stop (kept for the same interface as :class:`ThreadScheduler`)."""
