"""The computer thinks off the loop's thread: its throw and its search run on the
worker, their results come back as events, and a result no longer awaited is dropped."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from controller_tools import BACK, DOWN, HOLD_BACK, OK, SHAKE, UP, on, send
from walkthroughs import scripted_draw
from walkthroughs.review import HeldExecutor, random_actions

from companion.app.controller import PAUSE_ITEMS, Controller, Screen
from companion.app.events import ComputerChose, Quit, WorkDone, WorkFailed
from companion.app.service import build, mock_factory
from companion.app.worker import Worker
from companion.devices.clock import ManualScheduler
from companion.devices.sources import SOURCE_NAMES
from companion.journal.store import JournalStore
from companion.rules import Move, State
from companion.sim.demo import demo_config

SEAT_BLACK = (OK, OK, UP, OK, OK, BACK, DOWN, OK)
"""From the splash: Senet (the first game), Computer -> its seats, Black: computer
(easy), back, Begin."""





def first_move(state: State, level: str) -> Move:
    return state.legal_moves()[0]


@pytest.fixture
def held(tmp_path: Path) -> Iterator[tuple[Controller, HeldExecutor, list[WorkDone]]]:
    """A controller whose worker holds its jobs, its results collected in a list (the
    service's queue), and Black seated for the computer, who throws a six at once."""
    executor = HeldExecutor()
    worker = Worker(executor)
    results: list[WorkDone] = []
    worker.connect(lambda: None, results.append)
    ctl = Controller(store=JournalStore(tmp_path), draw=scripted_draw(["6", "6", "6"]),
                     sources=list(SOURCE_NAMES), source="gpio-shaker", games=["senet-tait"],
                     think=first_move, worker=worker)
    ctl.start()
    yield send(ctl, *SEAT_BLACK), executor, results
    ctl.close()


def deliver(ctl: Controller, executor: HeldExecutor, results: list[WorkDone]) -> None:
    """The worker finishes its jobs; the loop handles their results in turn."""
    executor.run()
    while results:
        ctl.handle(results.pop(0))


def test_the_computer_s_throw_and_move_come_back_as_events(
    held: tuple[Controller, HeldExecutor, list[WorkDone]],
) -> None:
    ctl, executor, results = held
    assert on(ctl) is Screen.THINKING and ctl.view().lines[0] == "Black (computer) throws..."
    assert ctl.actions == [] and results == []        # nothing drawn on the loop's thread
    deliver(ctl, executor, results)                   # the throw: made, then the search
    assert on(ctl) is Screen.THINKING and ctl.view().lines[0] == "Black (computer) is thinking..."
    assert len(ctl.actions) == 1
    deliver(ctl, executor, results)
    assert on(ctl) is Screen.COMPUTER and ctl.view().lines[0].startswith("Computer: ")


def test_a_result_that_comes_back_after_an_undo_or_a_new_game_is_dropped(
    held: tuple[Controller, HeldExecutor, list[WorkDone]],
) -> None:
    ctl, executor, results = held
    deliver(ctl, executor, results)                   # the computer threw; it searches
    executor.run()
    [chosen] = results
    assert isinstance(chosen, ComputerChose)
    # The players went to the pause menu meanwhile: the move is not shown there...
    send(ctl, BACK)
    ctl.handle(results.pop())
    assert on(ctl) is Screen.PAUSE
    # ... nor once they are back (the search is asked for anew).
    send(ctl, OK)
    assert on(ctl) is Screen.THINKING
    ctl.handle(chosen)
    assert on(ctl) is Screen.THINKING
    # A new game: the old search's answer does not come to it.
    send(ctl, BACK, *[DOWN] * PAUSE_ITEMS.index("End game"), OK, DOWN, OK)  # confirmed
    assert on(ctl) is Screen.MENU
    send(ctl, OK, OK)
    deliver(ctl, executor, results)
    assert on(ctl) is Screen.THROW and ctl.actions == []


def test_holding_back_while_the_computer_thinks_undoes_nothing_of_its_own(
    held: tuple[Controller, HeldExecutor, list[WorkDone]],
) -> None:
    ctl, executor, results = held
    deliver(ctl, executor, results)
    send(ctl, HOLD_BACK)                              # no person has moved yet
    assert ctl.view().title == "Nothing to undo"
    deliver(ctl, executor, results)                   # the old search's answer: dropped
    assert ctl.view().title == "Nothing to undo"
    send(ctl, OK)
    deliver(ctl, executor, results)
    assert on(ctl) is Screen.COMPUTER and len(ctl.actions) == 1


def test_a_hint_is_worked_out_on_the_worker(tmp_path: Path) -> None:
    executor = HeldExecutor()
    worker = Worker(executor)
    results: list[WorkDone] = []
    worker.connect(lambda: None, results.append)
    ctl = Controller(store=JournalStore(tmp_path), draw=scripted_draw(["6"]),
                     sources=list(SOURCE_NAMES), source="gpio-shaker", games=["senet-tait"],
                     think=first_move, worker=worker)
    ctl.start()
    send(ctl, OK, OK, OK, SHAKE)                      # Senet; Black threw a six
    assert on(ctl) is Screen.MOVES
    send(ctl, BACK, *[DOWN] * len(PAUSE_ITEMS), OK)   # the pause menu's last item: Hint
    assert on(ctl) is Screen.THINKING and ctl.view().title == "Hint"
    deliver(ctl, executor, results)
    assert ctl.view().title == "Hint" and ctl.view().lines[0].startswith("Best: ")
    ctl.close()


def until(condition: Callable[[], bool], what: str) -> None:
    """Wait (at most 10 s) for ``condition``, set by the service's own thread."""
    deadline = time.monotonic() + 10
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        time.sleep(0.005)


def test_buttons_are_handled_while_the_computer_s_search_is_blocked(tmp_path: Path) -> None:
    """The search is not on the loop's thread: while it cannot finish, presses still
    change the screen; its answer, come too late, is dropped."""
    release, searching = threading.Event(), threading.Event()
    threads: list[str] = []

    def blocked(state: State, level: str) -> Move:
        threads.append(threading.current_thread().name)
        searching.set()
        assert release.wait(10)
        return state.legal_moves()[0]

    frames: list[Any] = []
    parts = build(demo_config(tmp_path), pin_factory=mock_factory(), scheduler=ManualScheduler(),
                  draw=scripted_draw(["6"] * 4), think=blocked, games=["senet-tait"],
                  on_frame=frames.append)
    service, ctl = parts.service, parts.service.controller
    loop = threading.Thread(target=service.run, name="companion-loop")
    loop.start()
    try:
        assert service.ready.wait(10)
        for event in SEAT_BLACK:
            service.post(event)
        assert searching.wait(10)
        until(lambda: ctl.screen is Screen.THINKING, "the thinking screen")
        shown = len(frames)
        service.post(BACK)                           # the pause menu, search still blocked
        until(lambda: ctl.screen is Screen.PAUSE, "the pause menu while the computer thinks")
        service.post(DOWN)
        until(lambda: ctl.cursor == 1, "the cursor moved while the computer thinks")
        assert len(frames) >= shown + 2 and not release.is_set()
        release.set()
        service.post(UP)
        service.post(OK)                             # Continue: the search is asked anew
        assert service.wait_idle(10)
        assert ctl.screen is Screen.COMPUTER
        assert threads and "companion-loop" not in threads
        assert len(ctl.actions) == 1                 # the computer's throw, no stale move
    finally:
        release.set()
        service.post(Quit())
        loop.join(10)
        service.close()


def test_a_search_that_fails_is_said_and_the_game_goes_on(tmp_path: Path) -> None:
    """A bug in the search (raised on the worker's thread) must not be lost with the
    thread, nor end the game: it is said, and the pause menu leads back to the game."""

    def broken(state: State, level: str) -> Move:
        raise RuntimeError("no moves ranked")

    ctl = Controller(store=JournalStore(tmp_path), draw=scripted_draw(["6", "6"]),
                     sources=list(SOURCE_NAMES), source="gpio-shaker", games=["senet-tait"],
                     think=broken)
    ctl.start()
    send(ctl, *SEAT_BLACK)                            # the worker runs it at once here
    assert ctl.view().title == "Computer failed"
    assert ctl.view().lines == ("RuntimeError: no moves ranked",)
    assert len(ctl.actions) == 1 and ctl.journal is not None  # the throw is kept
    send(ctl, OK)
    assert on(ctl) is Screen.PAUSE


def test_closing_the_worker_ends_the_search_under_way(tmp_path: Path) -> None:
    """close() sets the flag the default search checks: a search that would run for
    good (no node budget, a clock that never moves) ends, and its result says so."""
    from companion.ai.player import choose

    worker = Worker.threaded()
    results: list[WorkDone] = []
    worker.connect(lambda: None, results.append)
    state = seated_state()
    searching = threading.Event()

    def endless() -> WorkDone:
        searching.set()
        choose(state, "strong", max_nodes=10**12, clock=lambda: 0.0, cancel=worker.cancel)
        raise AssertionError("an endless search ended by itself")

    worker.submit(1, endless)
    assert searching.wait(10)
    worker.close()
    until(lambda: bool(results), "the cancelled search's result")
    assert results == [WorkFailed(1, "cancelled")]


def seated_state() -> State:
    """A position of Tait's Senet with a choice (a seeded game up to its first)."""
    from companion.rules import Phase, get_game

    def choice(state: State) -> bool:
        return state.phase is Phase.MOVE and len(state.legal_moves()) > 1

    state = get_game("senet-tait").new_state()
    for action in random_actions(1, choice):
        state.apply(action)
    return state


STOP_BOUND_S = 5.0
"""Issue 35's target for a SIGTERM during a review: the unit's stop timeout leaves that.
The service below ended 0.03-0.07 s after the signal, idle and with both cores busy
(the bound is over 70x that);
its review would take minutes."""


def test_sigterm_during_a_review_ends_the_service_at_once(tmp_path: Path) -> None:
    """A review under way on the worker's thread (minutes long, see
    slow_review_service.py) does not hold the process: SIGTERM closes the service and the
    process exits within the bound, the review cancelled at its search's next expansion."""
    import signal
    import subprocess
    import sys

    child = subprocess.Popen(
        [sys.executable, str(Path(__file__).parent / "slow_review_service.py"), str(tmp_path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        line = child.stdout.readline()  # the review under way (else its output at exit)
        assert line == "reviewing\n", line + child.stderr.read() if child.stderr else line
        child.send_signal(signal.SIGTERM)
        sent = time.monotonic()
        try:
            code = child.wait(STOP_BOUND_S)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"still running {STOP_BOUND_S} s after SIGTERM") from None
        took = time.monotonic() - sent
        rest = child.stdout.read()
        assert code == 0 and rest == "closed\n", (code, rest, took)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        for stream in (child.stdout, child.stderr):
            if stream is not None:
                stream.close()
