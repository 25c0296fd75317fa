"""How the benchmarks measure: CPU time, the thing and its floor in interleaved pairs.

Every benchmark here compares a measured thing (an engine, a parser, a frame) with a
floor (the least the same work can cost: another engine, a bare loop, a bare process)
and prints the ratio. On a machine shared with other work, wall-clock time over long
blocks of one side and then the other lets a burst of load land on one side only; the
figures then swing by a factor of two between runs. So:

* **CPU time** (:func:`time.thread_time`: the seconds this thread spent on a CPU) for
  CPU-bound work: time spent waiting for a core while others run is not counted;
* **short interleaved rounds** in a palindromic order, floor, A, B, ..., B, A, floor
  (for one subject: A B B A), each a slice of :data:`SLICE` CPU seconds: a slow spell
  (a cache shared with another process, a lower clock) lands on both sides alike and a
  steady drift cancels within the round;
* **repeated**: one ratio per round, and :func:`ratio_line` prints the min, the median
  and the spread (the interquartile range, and min-max) of those ratios, per game;
* **warm and cold** where a cache matters: cold is a fresh subprocess (see
  :func:`run_child`), warm is after untimed play in the same process;
* **each side pays for its own garbage only**: before each slice, untimed,
  :func:`gc.freeze` moves every object alive to the collector's permanent generation
  (a full collection and an unfreeze start each round). A slice pays for collecting
  what it allocates itself, not for scanning what the other side keeps: otherwise a
  full collection that the floor's allocations happen to start scans the measured
  engine's caches (megabytes in a 4-player Cretan game) and is billed to the floor, or
  lands in one slice of 0.05 s and halves that round's ratio. The pauses of full
  collections over those caches are measured on their own, in whole games:
  benchmarks/gc_pauses.py.

Read a ratio line as: the median is the figure; the IQR says how much it moved between
rounds of this run; two runs agree when their medians are within a few percent.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

clock = time.thread_time
"""CPU seconds of the calling thread (every benchmark here measures on one thread)."""

SLICE = 0.05
"""CPU seconds per slice of a round (a side of a pair), by default."""

Work = Callable[[float], float]
"""A slice of work: called with a CPU-time budget in seconds, does whole units of its
work until about that much CPU time is spent, and returns how many units it did (moves,
frames, bytes). The caller times it."""


@dataclass
class Rounds:
    """The per-round ratios of each subject to the floor (rate over the floor's rate,
    or time over the floor's time: see :func:`interleave`)."""

    ratios: dict[str, list[float]] = field(default_factory=dict)
    rates: dict[str, list[float]] = field(default_factory=dict)
    """Units per CPU second of each subject and of ``"floor"``, per round."""


def interleave(
    floor: Work,
    subjects: Mapping[str, Work],
    rounds: int,
    slice_s: float = SLICE,
    *,
    by: str = "rate",
) -> Rounds:
    """Run ``rounds`` rounds of floor, subjects..., reversed subjects..., floor, each call
    given ``slice_s`` CPU seconds; per round and subject, the ratio of the subject's
    units per CPU second to the floor's (``by="rate"``: above 1 is faster than the
    floor) or of its CPU seconds per unit (``by="time"``: above 1 costs more).

    :raises ValueError: ``rounds`` < 1 or a slice did no unit of work.
    """
    if rounds < 1:
        raise ValueError(f"rounds must be at least 1, not {rounds}")
    out = Rounds({name: [] for name in subjects}, {name: [] for name in [*subjects, "floor"]})
    order = list(subjects)
    try:
        for _ in range(rounds):
            _round(floor, subjects, order, slice_s, out, by)
    finally:
        gc.unfreeze()
    return out


def _round(
    floor: Work, subjects: Mapping[str, Work], order: list[str], slice_s: float, out: Rounds, by: str
) -> None:
    done = {name: 0.0 for name in [*order, "floor"]}
    spent = dict.fromkeys(done, 0.0)
    gc.unfreeze()
    gc.collect()
    for name in ["floor", *order, *reversed(order), "floor"]:
        work = floor if name == "floor" else subjects[name]
        gc.freeze()  # untimed, between slices: see the module's docstring
        start = clock()
        units = work(slice_s)
        spent[name] += clock() - start
        done[name] += units
    rates = {}
    for name in done:
        if done[name] <= 0 or spent[name] <= 0:
            raise ValueError(f"{name}: a slice did no work (or took no CPU time)")
        rates[name] = done[name] / spent[name]
        out.rates[name].append(rates[name])
    for name in order:
        ratio = rates[name] / rates["floor"]
        out.ratios[name].append(ratio if by == "rate" else 1 / ratio)


@contextlib.contextmanager
def one_core() -> Iterator[int]:
    """Run the body with this thread, and every thread or process it starts meanwhile,
    on one CPU (the last this process may use; Linux ``sched_setaffinity``); yields
    its number, and restores the set after.

    For work spread over threads that hand over to each other in microseconds (a press
    through the service: the pin's thread, the loop's): on two cores shared with other
    work, what a hand-off between cores costs moved with the neighbours' load, more for
    a small floor than for the service, and the press-to-frame medians of two
    consecutive runs differed by 16-31%. On one core both sides hand over the same
    way. (The Pi's service is not pinned: this is how the benchmark compares, not how
    the box runs.) Where the call is missing (not Linux), the body runs unpinned."""
    setter = getattr(os, "sched_setaffinity", None)
    if setter is None:
        yield -1
        return
    before = os.sched_getaffinity(0)
    cpu = max(before)
    setter(0, {cpu})
    try:
        yield cpu
    finally:
        setter(0, before)


def repeat_until(unit: Callable[[], object], per_call: int = 1) -> Work:
    """A :data:`Work` that calls ``unit`` until the slice's CPU time is spent (checking
    the clock every ``per_call`` calls); a unit is one call."""

    def work(budget: float) -> float:
        end = clock() + budget
        n = 0
        while True:
            for _ in range(per_call):
                unit()
            n += per_call
            if clock() >= end:
                return n

    return work


@dataclass(frozen=True)
class Summary:
    """The spread of a list of ratios."""

    n: int
    low: float
    q1: float
    median: float
    q3: float
    high: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Summary:
        """:raises ValueError: ``values`` is empty."""
        if not values:
            raise ValueError("no values")
        ordered = sorted(values)
        if len(ordered) == 1:
            q1 = q3 = ordered[0]
        else:
            q1, _, q3 = statistics.quantiles(ordered, n=4, method="inclusive")
        return cls(len(ordered), ordered[0], q1, statistics.median(ordered), q3, ordered[-1])


WALL = "[wall clock: spread only]"
"""The mark of a ratio of wall-clock times that cannot hold still on a machine shared
with other work (a thread's wake-up, one press in a hundred): printed with its spread,
listed by benchmarks/compare_runs.py but not held to its 15% (benchmarks/README.md)."""


def ratio_line(label: str, values: Sequence[float], unit: str = "x floor", width: int = 34,
               *, wall: bool = False) -> str:
    """One printed line: ``label``, then the min, median, IQR and min-max of ``values``
    (per-round ratios) and how many there were. Every benchmark prints its ratios
    this way (tests/test_benchmarks_quick.py looks for ``ratio min``). ``wall``: a
    ratio of wall-clock times that a busy machine moves (marked :data:`WALL`)."""
    s = Summary.of(values)
    return (
        f"{label:<{width}} ratio min {s.low:6.2f}  median {s.median:6.2f} {unit}  "
        f"IQR {s.q1:.2f}-{s.q3:.2f}  range {s.low:.2f}-{s.high:.2f}  n={s.n}"
        + (f"  {WALL}" if wall else "")
    )


def run_child(args: Sequence[str], timeout: float = 600) -> Any:
    """Run ``python ARGS`` in a fresh interpreter (a cold measurement: no module, cache
    or table of this process) and return the JSON of its last stdout line.

    :raises subprocess.CalledProcessError: the child failed.
    :raises subprocess.TimeoutExpired: it ran longer than ``timeout`` seconds.
    """
    done = subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=timeout)
    if done.returncode:
        sys.stderr.write(done.stderr)
        done.check_returncode()
    return json.loads(done.stdout.strip().splitlines()[-1])


def emit(data: object) -> None:
    """Print ``data`` as the JSON line a child hands back to :func:`run_child`."""
    print(json.dumps(data), flush=True)


__all__ = [
    "SLICE",
    "WALL",
    "Rounds",
    "Summary",
    "Work",
    "clock",
    "emit",
    "interleave",
    "ratio_line",
    "repeat_until",
    "run_child",
]
