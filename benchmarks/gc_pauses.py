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
(generation 2) collections grow with the game. Per game, two figures:

* **in play**: how many collections of each generation the game made, and their CPU ms
  (median, max). A full collection walks megabytes, so on a busy machine another
  process's use of the shared caches stretches it: these move from run to run;
* **a full collection at the end / budget**: on the loop's thread, when the end screen
  is drawn (everything the game built still alive), :data:`REPEATS` full collections,
  the least of them; one per game, min / median / spread over the games. The line to
  compare between runs and machines, with the objects the collector tracked then.

Each game is played in a fresh process, so one game's caches do not weigh on the next.
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
        self.recording = True

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if not self.recording:
            return
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


@dataclass
class AtTheEnd:
    """Full collections made on the loop's thread when the game is over (the end
    screen's frame), with everything the game built still alive: the CPU ms of each of
    :data:`REPEATS`, and the objects the collector tracked then."""

    recorder: PauseRecorder
    cpu_ms: list[float] = dataclasses.field(default_factory=list)
    tracked: int = 0

    def frame(self, image: object, screen: str) -> None:
        if screen != "over" or self.cpu_ms:
            return
        self.recorder.recording = False  # these are not the game's own collections
        self.tracked = len(gc.get_objects())
        for _ in range(REPEATS):
            start = time.thread_time()
            gc.collect()
            self.cpu_ms.append((time.thread_time() - start) * 1000)
        self.recorder.recording = True


REPEATS = 7
"""Full collections timed at the end of a game; the least is the figure (the one least
slowed by other work on the machine: a collection walks megabytes, so a neighbour's use
of the shared caches stretches it)."""


def child(game: str, players: int | None, seed: int) -> None:
    """In a fresh process: the collections during one whole demo game of ``game``
    (seeded), and the full collections timed at its end, printed as JSON."""
    with tempfile.TemporaryDirectory(prefix="gc-pauses-") as tmp, PauseRecorder() as recorder:
        end = AtTheEnd(recorder)
        play(Path(tmp), seed=seed, game=game, players=players, on_frame=end.frame)
    emit({"pauses": [dataclasses.astuple(p) for p in recorder.pauses], "end": end.cpu_ms,
          "tracked": end.tracked})


def measure(game: str, players: int | None, seed: int) -> tuple[list[Pause], float, int]:
    """The collections during one whole demo game of ``game`` (seeded), played in a
    fresh process (its heap holds what a companion just started holds); the least
    CPU ms of a full collection at its end; the objects tracked then.

    :raises RuntimeError: the game's end screen never came.
    """
    found = run_child([__file__, "--child", game, str(players or 0), str(seed)])
    if not found["end"]:
        raise RuntimeError(f"{game}: no end screen")
    return [Pause(*row) for row in found["pauses"]], min(found["end"]), found["tracked"]


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
        measured = [measure(game, players, seed) for seed in seeds]
        pauses = [p for found, _, _ in measured for p in found]
        name = game if players is None else f"{game} ({players}p)"
        counts = [sum(1 for p in pauses if p.generation == g) for g in range(3)]
        young = [p.cpu_ms for p in pauses if p.generation < 2]
        full = [p for p in pauses if p.generation == 2]
        worst = max(pauses, key=lambda p: p.cpu_ms)
        threads = sorted({p.thread for p in pauses})
        print(f"{name}: {len(pauses)} collections in play (gen 0/1/2: "
              f"{counts[0]}/{counts[1]}/{counts[2]}) on threads {', '.join(threads)}")
        in_play = f"  in play: gen 0-1 median {statistics.median(young):.2f} ms, max {max(young):.2f} ms"
        if full:
            in_play += (f"; full median {statistics.median(p.cpu_ms for p in full):.1f} ms, "
                        f"max {max(p.cpu_ms for p in full):.1f} ms (wall max "
                        f"{max(p.wall_ms for p in full):.1f} ms)")
        print(in_play)
        at_end = [least for _, least, _ in measured]
        print(ratio_line("  full collection at the end / budget", [ms / FRAME_BUDGET_MS for ms in at_end],
                         "x budget", 38)
              + f"  ({statistics.median(at_end):.1f} ms; "
              f"{statistics.median(t for _, _, t in measured):,.0f} objects tracked)")
        if worst.cpu_ms >= FRAME_BUDGET_MS or max(at_end) >= FRAME_BUDGET_MS:
            over.append(f"{name}: full collections reach the {FRAME_BUDGET_MS:g} ms budget "
                        f"(in play up to {worst.cpu_ms:.1f} ms, at the end {max(at_end):.1f} ms)")
    print()
    for line in over or ["no pause reached the frame budget"]:
        print(line)


if __name__ == "__main__":
    main()
