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

* **in play**: how many collections of each generation the game made, from start-up to
  its end screen, and their CPU ms (median, max). What the demo does after the end
  screen (reading the journal back, for its result) is not counted. A full collection walks megabytes, so on a busy machine another
  process's use of the shared caches stretches it: these move from run to run;
* **a full collection at the end / floor**: on the loop's thread, when the end screen
  is drawn (everything the game built still alive), full collections of that heap
  interleaved with full collections of its **floor**: a synthetic heap of plain
  containers with the same shape (one per tracked object, with as many references: a
  dict for a dict, a list for a list, a tuple for any other; they point at earlier
  ones, so nothing is garbage), built in a
  helper process started then (its own start-up frozen, as the service freezes its
  own: :func:`gc.freeze`), so its collector walks the same number of objects and
  references. In :data:`ROUNDS` rounds of game, floor, floor, game
  (benchmarks/measure.py's palindrome, one process waiting while the other collects;
  each timed collection follows an untimed one of the same heap), so a neighbour's
  use of the shared caches stretches both sides alike; one ratio per
  round (the game's CPU ms over the floor's), min / median / spread over the rounds
  of every game played. The line to compare between runs and machines. Beside it the
  absolute CPU ms (least and median of the game's side) against the budget, with the
  objects tracked: what a pause costs on this machine now, which moves with its load.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import json
import statistics
import subprocess
import sys
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


Shape = list[tuple[str, int]]
"""Per tracked object of a heap: its kind (``"dict"``, ``"list"``, ``"tuple"``: what
the floor makes for it) and how many objects it references."""


def heap_shape() -> Shape:
    """The shape of every object the collector tracks now (dicts as dicts, lists as
    lists, any other container as a tuple), in the collector's order."""
    shape: Shape = []
    for obj in gc.get_objects():
        kind = "dict" if type(obj) is dict else "list" if type(obj) is list else "tuple"
        shape.append((kind, len(gc.get_referents(obj))))
    return shape


def encode(shape: Shape) -> str:
    """``shape`` as one line for the floor process (:func:`floor_process`)."""
    return json.dumps([[kind[0], refs] for kind, refs in shape])


def floor_process() -> None:
    """The floor's side (``--floor``): read a shape line from stdin, build
    :func:`floor_heap` of it, print ``ready``; then for every ``collect`` line, print
    the CPU ms of two :func:`timed_collection` s; end at end of input."""
    gc.collect()
    gc.freeze()  # this process's start-up, as the service freezes its own
    kinds = {"d": "dict", "l": "list", "t": "tuple"}
    shape = [(kinds[kind], refs) for kind, refs in json.loads(sys.stdin.readline())]
    heap = floor_heap(shape)
    del shape
    print("ready", flush=True)
    for line in sys.stdin:
        if line.strip() == "collect":
            print(json.dumps([timed_collection(), timed_collection()]), flush=True)
    del heap


def floor_heap(shape: Shape) -> list[object]:
    """Plain containers of ``shape``, each referencing earlier ones (spread over the
    heap, no cycle: nothing is garbage, as in the game's heap at the end), all tracked
    (a leaf is an empty list)."""
    built: list[object] = []
    for i, (kind, refs) in enumerate(shape):
        if not built or refs == 0:
            built.append([])
            continue
        n = len(built)
        if kind == "dict":
            built.append({j: built[(i * 7919 + j * 104729) % n] for j in range(max(1, refs // 2))})
        else:
            items = [built[(i * 7919 + j * 104729) % n] for j in range(refs)]
            built.append(items if kind == "list" else tuple(items))
    return built


def timed_collection() -> float:
    """CPU ms of a full collection, after an untimed one of the same heap."""
    gc.collect()
    start = time.thread_time()
    gc.collect()
    return (time.thread_time() - start) * 1000


@dataclass
class AtTheEnd:
    """Full collections made on the loop's thread when the game is over (the end
    screen's frame), with everything the game built still alive, interleaved with
    collections of a floor heap of the same shape (:func:`floor_heap`): the CPU ms of
    each side per round, and the objects the collector tracked then."""

    recorder: PauseRecorder
    game_ms: list[float] = dataclasses.field(default_factory=list)
    """CPU ms of each of the game heap's timed collections, two per round."""
    floor_ms: list[float] = dataclasses.field(default_factory=list)
    """The same of the floor heap's, two per round."""
    tracked: int = 0

    def frame(self, image: object, screen: str) -> None:
        if screen != "over" or self.game_ms:
            return
        self.recorder.recording = False  # these are not the game's own collections
        gc.collect()
        shape = heap_shape()
        self.tracked = len(shape)
        with subprocess.Popen([sys.executable, __file__, "--floor"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True) as floor:
            assert floor.stdin is not None and floor.stdout is not None
            floor.stdin.write(encode(shape) + "\n")
            floor.stdin.flush()
            del shape
            if floor.stdout.readline().strip() != "ready":
                raise RuntimeError("the floor process did not start")
            for _ in range(ROUNDS):
                first = timed_collection()
                floor.stdin.write("collect\n")
                floor.stdin.flush()
                self.floor_ms += json.loads(floor.stdout.readline())
                self.game_ms += [first, timed_collection()]
            floor.stdin.close()
        # Not resumed: after the end screen the demo reads the journal back for its
        # result (a new game object, its tables built, then every action replayed),
        # which is not the service's loop and not part of the game.
        self.recorder.recording = False


ROUNDS = 21
"""Rounds of game, floor, floor, game full collections at the end of a game: one
ratio per round (a few ms each; with 9 the Labyrinth's median moved by 12% between two
runs on a busy machine, its rounds' IQR being 1.26-1.54)."""


def child(game: str, players: int | None, seed: int) -> None:
    """In a fresh process: the collections during one whole demo game of ``game``
    (seeded), and the full collections timed at its end, printed as JSON."""
    with tempfile.TemporaryDirectory(prefix="gc-pauses-") as tmp, PauseRecorder() as recorder:
        end = AtTheEnd(recorder)
        play(Path(tmp), seed=seed, game=game, players=players, on_frame=end.frame)
    emit({"pauses": [dataclasses.astuple(p) for p in recorder.pauses], "game": end.game_ms,
          "floor": end.floor_ms, "tracked": end.tracked})


@dataclass(frozen=True)
class Measured:
    """One whole game's collections (:func:`measure`)."""

    pauses: list[Pause]
    game_ms: list[float]
    """CPU ms of the game heap's full collections at the end, two per round."""
    floor_ms: list[float]
    """CPU ms of the floor heap's, interleaved (see :class:`AtTheEnd`)."""
    tracked: int

    def ratios(self) -> list[float]:
        """Per round: the game heap's CPU ms over the floor's (above 1 costs more)."""
        g, f = self.game_ms, self.floor_ms
        return [(g[i] + g[i + 1]) / (f[i] + f[i + 1]) for i in range(0, len(g) - 1, 2)]


def measure(game: str, players: int | None, seed: int) -> Measured:
    """The collections during one whole demo game of ``game`` (seeded), played in a
    fresh process (its heap holds what a companion just started holds), and the full
    collections at its end beside their floor's.

    :raises RuntimeError: the game's end screen never came.
    """
    found = run_child([__file__, "--child", game, str(players or 0), str(seed)])
    if not found["game"]:
        raise RuntimeError(f"{game}: no end screen")
    return Measured([Pause(*row) for row in found["pauses"]], found["game"], found["floor"],
                    found["tracked"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="one short game (CI sanity)")
    parser.add_argument("--seeds", type=int, default=3, help="whole games per game (default 3)")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    parser.add_argument("--floor", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.floor:
        floor_process()
        return
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
        pauses = [p for m in measured for p in m.pauses]
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
        at_end = [ms for m in measured for ms in m.game_ms]
        print(ratio_line("  full collection at the end / floor", [r for m in measured for r in m.ratios()],
                         "x floor time", 38))
        print(f"  full collection at the end: least {min(at_end):.1f} ms, median "
              f"{statistics.median(at_end):.1f} ms CPU against the {FRAME_BUDGET_MS:g} ms budget "
              f"(floor median {statistics.median(ms for m in measured for ms in m.floor_ms):.1f} ms; "
              f"{statistics.median(m.tracked for m in measured):,.0f} objects tracked)")
        if worst.cpu_ms >= FRAME_BUDGET_MS or min(at_end) >= FRAME_BUDGET_MS:
            over.append(f"{name}: full collections reach the {FRAME_BUDGET_MS:g} ms budget "
                        f"(in play up to {worst.cpu_ms:.1f} ms, at the end at least {min(at_end):.1f} ms)")
    print()
    for line in over or ["no pause reached the frame budget"]:
        print(line)


if __name__ == "__main__":
    main()
