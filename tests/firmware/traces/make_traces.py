"""Writes the accelerometer traces the firmware tests feed to the shake detector.

Run ``python tests/firmware/traces/make_traces.py`` to rebuild the CSV files beside it
(they are committed; a fixed seed makes them repeat). Each row is ``t_ms,ax,ay,az`` in
milli-g at 100 Hz, modelled on what an LIS3DH at +-4 g in a hand-held cup records:
gravity (1000 mg) plus sensor noise (about +-25 mg), hand tremor, and for a shake a
swing of about 4 Hz along the cup with the dice knocking the walls.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from pathlib import Path

HERE = Path(__file__).parent
STEP_MS = 10

Sample = tuple[float, float, float]


def _rows(duration_ms: int, at: Callable[[int], Sample], rng: random.Random) -> Iterator[str]:
    for t in range(0, duration_ms, STEP_MS):
        x, y, z = at(t)
        noise = [rng.gauss(0, 12) for _ in range(3)]
        yield f"{t},{round(x + noise[0])},{round(y + noise[1])},{round(z + noise[2])}"


def shake(t: int, rng: random.Random, start: int = 500, stop: int = 2000) -> Sample:
    """Rest in the hand, 1.5 s of shaking, then the cup held still (tilted, trembling)."""
    tremor = 30 * math.sin(2 * math.pi * 9 * t / 1000)
    if start <= t < stop:
        phase = 2 * math.pi * 4 * (t - start) / 1000
        swing = 1800 * math.sin(phase)
        knock = 1200 if rng.random() < 0.08 else 0  # dice hitting the wall
        return swing + knock, 250 * math.cos(phase), 1000 + 300 * math.sin(2 * phase)
    if t >= stop:
        return 0, 500 + tremor, 866  # held at 30 degrees, still
    return tremor, 0, 1000


def bump(t: int, rng: random.Random, at_ms: int = 1000) -> Sample:
    """The cup standing on the table when someone knocks the table: one decaying spike."""
    if at_ms <= t < at_ms + 120:
        dt = (t - at_ms) / 1000
        ring = 2500 * math.exp(-dt / 0.025) * math.cos(2 * math.pi * 30 * dt)
        return ring * 0.3, ring * 0.2, 1000 + ring
    return 0, 0, 1000


def double_bump(t: int, rng: random.Random) -> Sample:
    """Two knocks on the table 400 ms apart: still not a shake."""
    first = bump(t, rng, 1000)
    return first if 1000 <= t < 1200 else bump(t, rng, 1400)


def tilt(t: int, rng: random.Random) -> Sample:
    """The cup tipped slowly from upright onto its side over 2 s (no shaking)."""
    angle = min(max((t - 500) / 2000, 0.0), 1.0) * math.pi / 2
    return 1000 * math.sin(angle), 0, 1000 * math.cos(angle)


def cycle(t: int, rng: random.Random) -> Sample:
    """For the end-to-end test: 0.4 s of brisk shaking every second, looping."""
    t %= 1000
    if t < 400:
        phase = 2 * math.pi * 6 * t / 1000
        return 1800 * math.sin(phase), 0, 1000
    return 0, 0, 1000


TRACES: dict[str, tuple[int, Callable[[int, random.Random], Sample]]] = {
    "shake": (3000, shake),
    "bump": (2500, bump),
    "double_bump": (2500, double_bump),
    "tilt": (3000, tilt),
    "cycle": (1000, cycle),
}


def main() -> None:
    for name, (duration, model) in TRACES.items():
        rng = random.Random(name)
        rows = _rows(duration, lambda t, m=model, r=rng: m(t, r), rng)  # type: ignore[misc]
        text = "t_ms,ax,ay,az\n" + "\n".join(rows) + "\n"
        (HERE / f"{name}.csv").write_text(text, encoding="ascii")


if __name__ == "__main__":
    main()
