"""Do two runs of the benchmarks agree? Pairs every ratio two ``make bench`` logs print.

    .venv/bin/python benchmarks/compare_runs.py LOG1 LOG2 [--tolerance 0.15] [--all]

A log is what ``make bench`` (or ``make bench-ratios``) prints: a ``== benchmarks/NAME.py``
line before each script's output. In each script's output a **ratio** is:

* the median of a measure.py ratio line (``LABEL ratio min X median Y UNIT IQR ...``),
  named by its label and by the subject of the nearest less indented line above it
  (the text before its first colon: ``labyrinth (2p)`` for ``  warm push``);
* any other number written as a ratio, ``1.23x`` or ``1.23 x floor``, or as a share
  ``12.3% of the ...``, named by the text of its line before the line's first ratio
  (and its place on the line); a figure right after or before the word ``target``
  (``target <= 1.5x``, ``the 1.5x target``) is a target, not a measurement, and is
  left out.

Numbers in a name are replaced by ``#`` (a count of cues or a time in the name does not
part a pair), except those that are part of a word (``ssd1306``) or a player count
(``(4p)``).

**The rule**: two runs agree on a ratio when the larger of its two figures is at most
``1 + tolerance`` times the smaller (default 15%: issue 25's "agree within 15%"); the
relative difference printed is that quotient minus one. The exit status is 1 when any
ratio differs by more, or is printed by one run and not by the other; 0 otherwise.
A ratio on a line marked ``[wall clock: spread only]`` (measure.py's ``WALL``: a
wall-clock tail on a shared machine, benchmarks/README.md) is paired and listed as
``wall`` with its difference, but not held to the rule. ``--all`` prints every pair (by
default the pairs that agree are counted, not listed).
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

TOLERANCE = 0.15
"""Two figures of a ratio agree when the larger is at most ``1 + TOLERANCE`` times the
smaller (issue 25)."""

SCRIPT = re.compile(r"^== (\S+)")
RATIO_LINE = re.compile(r"^(?P<label>.*?)\s+ratio min +[-\d.]+ +median +(?P<median>[-\d.]+|inf|nan) ")
OTHER = re.compile(r"(?<![\w.])(?P<value>\d+(?:\.\d+)?)(?: ?x\b|% of )")
NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\d.]|p\))")


WALL_MARK = "[wall clock"
"""The mark measure.py's ``ratio_line(..., wall=True)`` puts on a ratio of wall-clock
times that a busy machine moves (``measure.WALL``): such a pair is listed as ``wall``
with its difference, and does not count towards the exit status."""


@dataclass(frozen=True)
class Ratio:
    """One printed ratio: where it was (script, name) and its figure; ``wall``: marked
    as a wall-clock ratio (:data:`WALL_MARK`)."""

    script: str
    name: str
    value: float
    wall: bool = False


def _normal(text: str) -> str:
    """``text`` with its measured numbers as ``#`` and its spaces collapsed."""
    return " ".join(NUMBER.sub("#", text).split())


def _subject(line: str) -> str:
    """The text of ``line`` before its first colon ('' when it has none)."""
    head, colon, _ = line.partition(":")
    return _normal(head) if colon else ""


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _a_target(line: str, start: int, end: int) -> bool:
    """Whether the figure at ``line[start:end]`` is a target: ``target <= 1.5x``, ``the
    1.5x target``."""
    return "target" in line[max(0, start - 12): start] or line[end:].lstrip().startswith("target")


def parse(text: str) -> list[Ratio]:
    """Every ratio of a log (see the module's docstring), in order; a name printed twice
    in one script gets ``[2]``, ``[3]`` ... after it."""
    out: list[Ratio] = []
    script = ""
    above: list[str] = []  # the script's lines so far that are not ratio lines
    seen: dict[tuple[str, str], int] = {}

    def add(name: str, value: float, wall: bool) -> None:
        key = (script, name)
        seen[key] = seen.get(key, 0) + 1
        if seen[key] > 1:
            name = f"{name} [{seen[key]}]"
        out.append(Ratio(script, name, value, wall))

    for line in text.splitlines():
        found = SCRIPT.match(line)
        if found:
            script, above = found.group(1), []
            continue
        if not line.strip():
            continue
        ratio = RATIO_LINE.match(line)
        if ratio:
            context = ""
            for earlier in reversed(above):
                if _indent(earlier) < _indent(line) and _subject(earlier):
                    context = _subject(earlier)
                    break
            label = _normal(ratio.group("label"))
            add(f"{context}: {label}" if context else label, float(ratio.group("median")),
                WALL_MARK in line)
            continue
        above.append(line)
        figures = [m for m in OTHER.finditer(line) if not _a_target(line, m.start(), m.end())]
        if figures:
            prefix = _normal(line[: figures[0].start()]) or "(line start)"
            for k, m in enumerate(figures, 1):
                add(prefix if k == 1 else f"{prefix} #{k}", float(m.group("value")),
                    WALL_MARK in line)
    return out


def difference(a: float, b: float) -> float:
    """The larger of ``a`` and ``b`` over the smaller, minus one (0.0: equal; inf when
    one is 0 and the other not)."""
    low, high = sorted((abs(a), abs(b)))
    if high == 0:
        return 0.0
    return high / low - 1 if low else float("inf")


def compare(first: list[Ratio], second: list[Ratio], tolerance: float = TOLERANCE,
            show_all: bool = False) -> tuple[list[str], int]:
    """The lines to print and how many ratios differ by more than ``tolerance`` or are
    in one run only."""
    one = {(r.script, r.name): r.value for r in first}
    two = {(r.script, r.name): r.value for r in second}
    walls = {(r.script, r.name) for r in [*first, *second] if r.wall}
    keys = list(one) + [k for k in two if k not in one]
    lines: list[str] = []
    bad = 0
    current = None
    for key in keys:
        script, name = key
        if key not in one or key not in two:
            verdict, text = "MISSING", (f"{one[key]:8.3f} {'-':>8}" if key in one
                                        else f"{'-':>8} {two[key]:8.3f}")
            bad += 1
        else:
            diff = difference(one[key], two[key])
            verdict = "wall" if key in walls else "ok" if diff <= tolerance else "DIFFERS"
            bad += verdict == "DIFFERS"
            text = f"{one[key]:8.3f} {two[key]:8.3f} {diff:7.1%}"
            if verdict == "ok" and not show_all:
                continue
        if script != current:
            lines.append(f"== {script}")
            current = script
        lines.append(f"  {verdict:<8}{text}  {name}")
    paired = sum(1 for k in keys if k in one and k in two)
    wall = sum(1 for k in keys if k in walls and k in one and k in two)
    lines.append(f"{len(keys)} ratios, {paired} in both runs ({wall} of wall-clock times, "
                 f"listed, not held to the rule); {bad} differ by more than {tolerance:.0%} "
                 "(the larger over the smaller) or are in one run only")
    return lines, bad


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("first", type=Path, help="the first run's log")
    parser.add_argument("second", type=Path, help="the second run's log")
    parser.add_argument("--tolerance", type=float, default=TOLERANCE,
                        help="the largest relative difference that agrees (default 0.15)")
    parser.add_argument("--all", action="store_true", help="list the pairs that agree too")
    args = parser.parse_args(argv)
    first = parse(args.first.read_text(errors="replace"))
    second = parse(args.second.read_text(errors="replace"))
    lines, bad = compare(first, second, args.tolerance, args.all)
    print("\n".join(lines))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
