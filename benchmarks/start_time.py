"""How long the referee takes to show its first frame, next to the import floor.

    .venv/bin/python benchmarks/start_time.py [--runs N] [--quick]

Each run starts `companion run` as a person does, in a pseudo-terminal (80x24, mock
pins, an empty journal directory), and measures the seconds from spawning Python to
the first frame's text on the terminal; then it types ``q``. The CPU seconds of a run
are read at that moment, from every thread's ``/proc/PID/task/*/schedstat`` (what it
does after its first frame, the collection and freeze of ``Service.ready`` and the
quitting, is not counted; its CPU until it has quit is printed beside). The floor, measured in
the same run: a Python process that imports the same libraries the referee draws and
reads pins with (gpiozero with its mock pins, luma.oled's device, luma.core's
interface, pyserial, Pillow) and exits. The two alternate (which goes first
alternates too), so a machine busy with something else slows both alike. Printed: the
median and the spread (lowest and highest) of each, of the CPU seconds (the run's to
its first frame, the floor's until it exits) as well as of the wall clock, and the ratio
of each run to its floor in a benchmarks/measure.py line: CPU seconds, the figure to
compare (waiting for a core is not counted), and the wall clock beside it, marked as
such (a start on a busy machine waits for the disk and the scheduler as much as it
computes).

Each run starts `companion run` as the console script does (``from companion.cli import
main``, then ``main``; tests/sim/start_probe.py): importing the command line imports
none of the service, the rules engines or the other commands (never imported by
`run`), so that what `run` imports comes in under its hold of the garbage collector.

What the first frame (the splash) does not need is imported on first use, after it:
the screens before a game (resume, setup), of a game in play, of the computer's turn,
of the review and the menus (:mod:`companion.app.screens`, PEP 562), the worker's
results (:mod:`companion.app.results`, with the first event the loop handles), the
game's table and the words of a game's events (with the first game), the rules engine's
core and implements (:mod:`companion.rules` gives its names on first use, PEP 562: the
menu lists the games from the registry, which imports neither; with the first game set
up or journal read). The screens' and
the results' import is paid at the first OK, when the menu is drawn: so that nobody
reads the splash's figure as the whole start, each run also types OK as soon as its
first frame is out and the CPU to the next frame (the menu's, with the screens imported
and ``Service.ready``'s collection) is printed beside, with its ratio to the same floor.
The target is the first frame's figure.

The module lists behind it (what the start imports, up to the first frame) are
checked by tests/sim/test_start_imports.py with the same probe
(tests/sim/start_probe.py).
"""

from __future__ import annotations

import argparse
import platform
import resource
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "sim"))
from measure import ratio_line
from start_probe import FLOOR_IMPORTS, Start, floor_start, run_start


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _timed(start: Callable[[], Start]) -> tuple[float, float, float, float]:
    """(wall seconds to the first frame or to exit, CPU seconds of the child until its
    first frame (the floor: until its exit), CPU seconds of the child until the menu's
    frame after one OK (the floor: until its exit), CPU seconds of the child until its
    exit)."""
    before = _children_cpu()
    result = start()
    whole = _children_cpu() - before
    first = whole if result.cpu is None else result.cpu
    return result.seconds, first, first if result.menu_cpu is None else result.menu_cpu, whole


def _run_to_menu() -> Start:
    return run_start(menu=True)


TARGET = 1.3
"""Issue 35's target: start to first frame at most this many times the import floor,
CPU seconds measured to the first frame."""


def _spread(values: list[float], unit: float = 1e3) -> str:
    return (f"median {statistics.median(values) * unit:6.0f}  "
            f"[{min(values) * unit:.0f}, {max(values) * unit:.0f}]")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=10, help="runs of each (default 10)")
    parser.add_argument("--quick", action="store_true", help="3 runs of each")
    args = parser.parse_args(argv)
    runs = 3 if args.quick else max(args.runs, 1)
    run_start()  # once unmeasured: the byte-code caches written, the files in the page cache
    walls: dict[str, list[float]] = {"run": [], "floor": []}
    cpus: dict[str, list[float]] = {"run": [], "floor": []}
    wholes: dict[str, list[float]] = {"run": [], "floor": []}
    menus: dict[str, list[float]] = {"run": [], "floor": []}
    for i in range(runs):
        order = [("run", _run_to_menu), ("floor", floor_start)]
        for name, start in order if i % 2 == 0 else reversed(order):
            wall, cpu, menu, whole = _timed(start)
            walls[name].append(wall)
            cpus[name].append(cpu)
            menus[name].append(menu)
            wholes[name].append(whole)
    print(f"start to first frame, {runs} interleaved runs each ({platform.machine()}, "
          f"Python {platform.python_version()}), ms:")
    print(f"  companion run, spawn to first frame   wall {_spread(walls['run'])}   "
          f"CPU {_spread(cpus['run'])}")
    print(f"  companion run, to the menu's frame after one OK typed at once  "
          f"CPU {_spread(menus['run'])}")
    print("    (the first frame is the splash; the setup, game, turn, review and menu screens and")
    print("    the game's table are imported after it, at that OK, with Service.ready's collection:")
    print("    counted in this line, not in the one above)")
    print(f"  (companion run until it has quit:                              "
          f"CPU {_spread(wholes['run'])})")
    print(f"  floor: import {', '.join(FLOOR_IMPORTS)}, spawn to exit")
    print(f"                                        wall {_spread(walls['floor'])}   "
          f"CPU {_spread(cpus['floor'])}")
    ratios = [r / f for r, f in zip(walls["run"], walls["floor"], strict=True)]
    cpu_ratios = [r / f for r, f in zip(cpus["run"], cpus["floor"], strict=True)]
    print("  run / floor, one ratio per pair of runs:")
    print("  " + ratio_line("CPU seconds to the first frame", cpu_ratios, "x floor time"))
    print(f"  target (issue 35): CPU to the first frame at most {TARGET:g}x the floor (median): "
          f"{'met' if statistics.median(cpu_ratios) <= TARGET else 'NOT met'}")
    menu_ratios = [r / f for r, f in zip(menus["run"], cpus["floor"], strict=True)]
    print("  " + ratio_line("CPU to the menu after one OK", menu_ratios, "x floor time"))
    print("    (beside it, not the target's figure: the whole start until a player's first "
          "choice can be made)")
    print("  " + ratio_line("wall clock", ratios, "x floor time", wall=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
