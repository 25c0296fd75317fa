"""The service, in a process of its own, reviewing a finished game that would take
minutes: for tests/app/test_worker.py's SIGTERM test.

``python tests/app/slow_review_service.py DIR``: a finished game of Tait's Senet (the
review walkthrough's seeded game) is written to the journal folder DIR; the service is
built as ``companion run`` builds it (mock pins, the noop display, the threaded
worker) and runs in the main thread with its SIGTERM handler (:func:`run_forever`).
The buttons resume the game and ask for its review. The review's evaluation is made
slow on purpose, :data:`BURN_S` of CPU per position valued (a Pi Zero's review of a
long game, stretched): the whole review would take several minutes. ``reviewing`` is
printed once the review is under way on the worker's thread; ``closed`` when the
service has closed (after SIGTERM).
"""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import companion.ai.review as review_module
from companion.app.controller import Screen
from companion.app.events import ButtonEvent, ButtonName, Press
from companion.app.service import build, mock_factory, run_forever
from companion.journal.store import JournalStore
from companion.rules import get_game
from companion.sim.demo import demo_config

BURN_S = 0.02
"""CPU seconds burnt per position the review values (a few thousand in this game)."""

OK = ButtonEvent(ButtonName.OK, Press.PRESSED)
BACK = ButtonEvent(ButtonName.BACK, Press.SHORT)


def main(folder: Path) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: the walkthroughs
    from walkthroughs.review import random_actions

    game = get_game("senet-tait")
    journal = JournalStore(folder).begin(game, 2, started="2026-01-01T00:00:00+00:00")
    state = game.new_state()
    for action in random_actions(7):
        by = state.player_to_act_name
        journal.append(by, action, state.apply(action))
    journal.close()

    started = threading.Event()
    real = review_module.search_chances  # type: ignore[attr-defined]

    def slow(position: object) -> tuple[float, ...]:
        started.set()
        end = time.thread_time() + BURN_S
        while time.thread_time() < end:  # CPU, as a search is: the GIL held meanwhile
            pass
        return real(position)  # type: ignore[arg-type]

    setattr(review_module, "search_chances", slow)  # noqa: B010 (a name not exported)
    parts = build(demo_config(folder), pin_factory=mock_factory(), games=["senet-tait"])
    service = parts.service

    def press() -> None:
        assert service.ready.wait(30)
        for event in (OK, OK, OK, BACK, OK):  # splash, Resume, the board; pause: Review
            service.post(event)
        assert started.wait(30) and service.controller.screen is Screen.REVIEWING
        print("reviewing", flush=True)

    threading.Thread(target=press, daemon=True).start()
    run_forever(parts)
    print("closed", flush=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
