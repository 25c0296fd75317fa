"""Garbage-collector pauses during whole games, per game, against the frame budget.

    .venv/bin/python benchmarks/gc_pauses.py [--quick] [--seeds N]

Plays whole scripted games through the companion itself (``companion.sim.demo.play``:
the service, its loop, the mock pins, the presenters and the journal; random moves
chosen on the screens), every game, the Labyrinth and the Cretan Labyrinth with 2 and 4
players, and times every collection with :data:`gc.callbacks`: its CPU time on the
thread that collects (:func:`time.thread_time`, which a busy machine does not inflate)
and its wall time beside. Every collection stops every thread (the GIL), the loop's
included, whichever thread allocated last.

The budget is :data:`FRAME_BUDGET_MS`: the time the screen may take for a cursor step
(issue 25's 12 ms at 400 kHz); a pause as long adds a whole frame's time to a press.
The engines keep caches (walks, events; megabytes in a 4-player Cretan game), so full
(generation 2) collections grow with the game: the lines to read are each game's
``full collection / budget`` ratio (min, median, max over the game's full collections)
and its ``longest pause / budget`` (the longest of any generation, one a game). Each
game is played in a fresh process, so one game's caches do not weigh on the next.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import statistics
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from measure import emit, ratio_line, run_child

from companion.sim.demo import play

FRAME_BUDGET_MS = 12.0
"""Milliseconds a cursor step may take on the screen (issue 25, at 400 kHz)."""

GAMES = (
    ("senet-tait", None),
    ("senet-sticks", None),
    ("labyrinth", 2),
    ("labyrinth", 4),
    ("cretan-labyrinth", 2),
    ("cretan-labyrinth", 4),
)
"""(game, players; None: the setup screen's default)."""


@dataclass(frozen=True)
class Pause:
    generation: int
    cpu_ms: float
    wall_ms: float
    thread: str


class PauseRecorder:
    """Times every collection while installed in :data:`gc.callbacks`."""

    def __init__(self) -> None:
        self.pauses: list[Pause] = []
        self._start: dict[int, tuple[float, float]] = {}

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        ident = threading.get_ident()
        if phase == "start":
            self._start[ident] = (time.thread_time(), time.perf_counter())
            return
        begun = self._start.pop(ident, None)
        if begun is None:
            return
        cpu = (time.thread_time() - begun[0]) * 1000
        wall = (time.perf_counter() - begun[1]) * 1000
        self.pauses.append(Pause(info["generation"], cpu, wall, threading.current_thread().name))

    def __enter__(self) -> PauseRecorder:
        gc.callbacks.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self)


def child(game: str, players: int | None, seed: int) -> None:
    """In a fresh process: the collections during one whole demo game of ``game``
    (seeded), printed as JSON."""
    with tempfile.TemporaryDirectory(prefix="gc-pauses-") as tmp, PauseRecorder() as recorder:
        play(Path(tmp), seed=seed, game=game, players=players)
    emit([dataclasses.astuple(p) for p in recorder.pauses])


def measure(game: str, players: int | None, seed: int) -> list[Pause]:
    """The collections during one whole demo game of ``game`` (seeded), played in a
    fresh process (its heap holds what a companion just started holds)."""
    found = run_child([__file__, "--child", game, str(players or 0), str(seed)])
    return [Pause(*row) for row in found]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="one short game (CI sanity)")
    parser.add_argument("--seeds", type=int, default=3, help="whole games per game (default 3)")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]) or None, int(args.child[2]))
        return
    todo = GAMES[:1] if args.quick else GAMES
    seeds = range(1, 2 if args.quick else args.seeds + 1)
    print(f"frame budget {FRAME_BUDGET_MS:g} ms; pauses in CPU ms of the collecting thread "
          f"(wall ms beside); {len(seeds)} whole game(s) each, through the service")
    over: list[str] = []
    for game, players in todo:
        each = [measure(game, players, seed) for seed in seeds]
        pauses = [p for found in each for p in found]
        name = game if players is None else f"{game} ({players}p)"
        counts = [sum(1 for p in pauses if p.generation == g) for g in range(3)]
        young = [p.cpu_ms for p in pauses if p.generation < 2]
        full = [p for p in pauses if p.generation == 2]
        worst = max(pauses, key=lambda p: p.cpu_ms)
        threads = sorted({p.thread for p in pauses})
        print(f"{name}: {len(pauses)} collections (gen 0/1/2: {counts[0]}/{counts[1]}/{counts[2]}) "
              f"on threads {', '.join(threads)}")
        if young:
            print(f"  gen 0-1: median {statistics.median(young):.2f} ms, "
                  f"max {max(young):.2f} ms")
        if full:
            print(ratio_line("  full collection / budget", [p.cpu_ms / FRAME_BUDGET_MS for p in full],
                             "x budget", 28)
                  + f"  (max {max(p.cpu_ms for p in full):.1f} ms; "
                  f"wall max {max(p.wall_ms for p in full):.1f} ms)")
        else:
            print("  no full collection")
        print(ratio_line("  longest pause / budget",
                         [max(p.cpu_ms for p in found) / FRAME_BUDGET_MS for found in each],
                         "x budget", 28)
              + f"  (one a game; longest {worst.cpu_ms:.2f} ms, gen {worst.generation}, {worst.thread})")
        if worst.cpu_ms >= FRAME_BUDGET_MS:
            over.append(f"{name}: a {worst.cpu_ms:.1f} ms pause reaches the {FRAME_BUDGET_MS:g} ms budget")
    print()
    for line in over or ["no pause reached the frame budget"]:
        print(line)


if __name__ == "__main__":
    main()
