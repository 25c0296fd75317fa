"""The timer thread and the virtual clock: order, cancel, close."""

from __future__ import annotations

import threading

from companion.devices.clock import ManualScheduler, ThreadScheduler


def test_thread_scheduler_runs_calls_in_deadline_order_and_skips_cancelled() -> None:
    sched = ThreadScheduler()
    ran: list[str] = []
    done = threading.Event()
    def last() -> None:
        ran.append("c")
        done.set()

    sched.call_later(0.03, last)
    sched.call_later(0.01, lambda: ran.append("a"))
    sched.call_later(0.02, lambda: ran.append("b")).cancel()
    assert done.wait(5)
    assert ran == ["a", "c"]
    sched.close()
    assert not sched._thread.is_alive()


def test_an_error_in_a_call_is_reported_and_later_calls_still_run() -> None:
    errors: list[BaseException] = []
    sched = ThreadScheduler(on_error=errors.append)
    done = threading.Event()

    def boom() -> None:
        raise ValueError("boom")

    sched.call_later(0.0, boom)
    sched.call_later(0.01, done.set)
    assert done.wait(5)
    assert [str(e) for e in errors] == ["boom"]
    sched.close()


def test_manual_scheduler_runs_only_what_is_due() -> None:
    sched = ManualScheduler()
    ran: list[float] = []
    sched.call_later(1.0, lambda: ran.append(sched.now()))
    def chain() -> None:
        sched.call_later(0.25, lambda: ran.append(sched.now()))

    sched.call_later(0.5, chain)
    sched.advance(0.9)
    assert ran == [0.75]
    sched.advance(0.2)
    assert ran == [0.75, 1.0]
    assert sched.now() == 1.1
