"""The worker: the computer's thinking off the loop's thread.

Drawing the computer's throw, its search and the hint's search are *work*, not a
lookup: the controller hands each as a job to a :class:`Worker` and shows a "thinking"
screen meanwhile. The job's result comes back as an event (:data:`~companion.app.events.WorkDone`)
through the service's queue, like a device's, and the controller applies it on the
loop's thread (the journal is written there, by :meth:`~companion.app.table.Table.act`).
So the buttons and the screen answer while the computer thinks, and the search is
decided by its node budget, not by how long the loop could spare.

Stopping: :meth:`Worker.close` sets the worker's :attr:`~Worker.cancel` flag, which the
jobs hand to their searches (:class:`companion.ai.search.Search` checks it with its
node budget, before every expansion): a search or a review under way ends within one
expansion, so a SIGTERM ends the service at once, not when a review of minutes on a Pi
Zero is done (the executor's thread is joined when the interpreter exits).

Without an executor (or before the service connects its queue) a worker runs each job
at once on the caller's thread and keeps the result until the controller collects it
at the end of the event it is handling: the same events then give the same screens, as
the unit tests and the scripted walkthroughs need.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:  # the results are imported with the first job (issue 35: not at start)
    from concurrent.futures import Executor, Future

    from companion.app.results import WorkDone

log = logging.getLogger(__name__)

Job: TypeAlias = "Callable[[], WorkDone]"
"""A piece of work: returns its result as an event (it may take seconds on a Pi Zero)."""


class Worker:
    """Runs jobs on ``executor`` (``None``: at once, on the caller's thread).

    The service :meth:`connect`\\ s it to its queue; until then, and always without an
    executor, results wait in the worker for :meth:`collect`.
    """

    def __init__(self, executor: Executor | None = None) -> None:
        self._executor = executor
        self._threaded = False
        self._reserve: Callable[[], None] | None = None
        self._deliver: Callable[[WorkDone], None] | None = None
        self._done: list[WorkDone] = []
        self._lock = threading.Lock()
        self.cancel = threading.Event()
        """Set by :meth:`close`: the jobs' searches end at their next expansion."""

    @classmethod
    def threaded(cls) -> Worker:
        """A worker with one thread of its own (jobs run one at a time, in order),
        started with the first job: the menu, drawn first, needs none (nor
        :mod:`concurrent.futures`, imported then)."""
        worker = cls()
        worker._threaded = True
        return worker

    @property
    def inline(self) -> bool:
        """Whether jobs run at once on the caller's thread."""
        return (self._executor is None and not self._threaded) or self._deliver is None

    def _thread(self) -> Executor | None:
        """The executor, made now for a :meth:`threaded` worker's first job."""
        if self._executor is None and self._threaded:
            from concurrent.futures import ThreadPoolExecutor

            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="companion-worker")
        return self._executor

    def connect(self, reserve: Callable[[], None], deliver: Callable[[WorkDone], None]) -> None:
        """Hand results to ``deliver`` (the service's queue, from the worker's thread);
        ``reserve`` is called on the submitting thread when a job is handed over, so
        the service counts the result as due before it is posted (``wait_idle``)."""
        self._reserve, self._deliver = reserve, deliver

    def submit(self, ticket: int, job: Job) -> None:
        """Run ``job`` for the request numbered ``ticket``; its result (or a
        :class:`~companion.app.events.WorkFailed` when it raises) comes back as an event."""
        executor, deliver = (self._thread() if self._deliver is not None else self._executor), self._deliver
        if executor is None or deliver is None:
            result = _run(ticket, job, self.cancel)
            with self._lock:
                self._done.append(result)
            return
        if self._reserve is not None:
            self._reserve()
        future = executor.submit(_run, ticket, job, self.cancel)

        from companion.app.results import WorkFailed

        def done(f: Future[WorkDone]) -> None:
            deliver(f.result() if not f.cancelled() else WorkFailed(ticket, "cancelled"))

        future.add_done_callback(done)

    def collect(self) -> list[WorkDone]:
        """The results of jobs run at once since the last call (oldest first)."""
        with self._lock:
            done, self._done = self._done, []
        return done

    def close(self) -> None:
        """Stop taking jobs; a job not yet begun is cancelled, a job under way is told
        to end (:attr:`cancel`: its search stops at its next node expansion; a job
        that does not check the flag ends in its own time). Idempotent."""
        self.cancel.set()
        self._threaded = False  # no thread made after this
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)


def _run(ticket: int, job: Job, cancel: threading.Event) -> WorkDone:
    from companion.app.results import WorkFailed

    try:
        return job()
    except Exception as exc:
        if cancel.is_set():  # the search's Cancelled (not imported here: not at start)
            log.info("the worker's job %d ended as the service stops (%s)", ticket, type(exc).__name__)
            return WorkFailed(ticket, "cancelled")  # a bug in the search must not be lost with its thread
        log.exception("the worker's job %d failed", ticket)
        return WorkFailed(ticket, f"{type(exc).__name__}: {exc}")


__all__ = ["Job", "Worker"]
