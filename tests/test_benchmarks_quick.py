"""Every benchmark runs: ``--quick`` in a subprocess exits 0 and prints its figures.

No timing is asserted (figures depend on the machine; benchmarks/README.md says how to
read them): only that a benchmark still works after a change to what it measures, and
prints its ratio lines (benchmarks/measure.py's ``ratio min ... median ...``) or, for
the playout benchmarks that count rather than time, their figure lines.
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import programs
import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
HELPERS = {"measure.py", "playouts.py", "compare_runs.py", "baseline.py"}
"""Modules the benchmarks import, and the tool that compares two runs: not benchmarks."""

RATIO = r"ratio min +\d+\.\d+ +median +\d+\.\d+ "
EXPECTED = {
    "senet_sticks_playouts.py": r"blocked board ended \d+ of \d+ random games",
    "labyrinth_playouts.py": r"4 players: (\d+) of \1 random games ended",
    "cretan_playouts.py": r"goal-seeking +2 players: escaped in \d+ of \d+ games",
    "magic_key.py": r"2 players, 1 positions: the review's gap [+-]\d+\.\d points on average; played out "
    r"[+-]\d+\.\d \[[+-]\d+\.\d, [+-]\d+\.\d\] over 2 pairs of games",
    "oled_frame_cost.py": r"senet-tait +ssd1306 +\d+ .* \d\.\d\d\n(.|\n)*target met in every game: ",
    "review_speed.py": r"senet-tait +\d+ +\d+\.\d\d +\d+\.\d\d(.|\n)*cretan-labyrinth +\d+ ",
    "ai_strength.py": r"senet-tait +2 +2 +\d+\.\d% +\[\d+\.\d%, \d+\.\d%\] +\d+/\d+/\d+ +\d+ +\d+ +\d+ "
    r"+\d+\.\d +\d+\.\d +\d+\.\d\d  (met|NOT met)(.|\n)*" + RATIO,
    "calibration.py": r"senet-tait +2 +\d+ +\d\.\d{3} \[.*ECE (meets|ABOVE)(.|\n)*"
    r"senet-tait +2 easy +\d+ .*ECE (meets|MISSED)(.|\n)*senet-tait +2 strong +\d+ .*ECE "
    r"(meets|MISSED)\nsenet-tait +2 vs-base +\d+ .*ECE (meets|MISSED)",
    "club_load.py": r"results lost 0, doubled 0 (.|\n)*all messages +p50 +\d+\.\d ms +p99 +\d+\.\d ms"
    r"|no mosquitto here",
    "gc_pauses.py": r"full collection at the end / floor +" + RATIO[:-1]
    + r".*\n +full collection at the end: least \d+\.\d ms, median \d+\.\d ms CPU against the 12 ms budget",
    "vision.py": r"senet-tait \((.|\n)*wrong moves accepted +0 of (.|\n)*read / floor +" + RATIO
    + r"(.|\n)*senet-sticks \((.|\n)*labyrinth \((.|\n)*cretan-labyrinth \("
    r"(.|\n)*wrong moves accepted +0 of (.|\n)*read / floor +",
    "speech_latency.py": r"en-gb +speaker median +\d+\.\d +p90 +\d+\.\d(.|\n)*"
    + r"target: p90 <= 150 ms: (met|NOT met)(.|\n)*speaking / silent, p99 ratio +" + RATIO[:-1],
}
"""What a benchmark must print where a ratio line is not enough: its figure lines (the
playout benchmarks count rather than time, calibration scores chances; gc_pauses must
print its floor ratio and the absolute pause against the budget). Default: a ratio line."""

ANY_RATIO = r"\d\.\d+ ?x\b"
"""A ratio as any benchmark prints one (``3.5x``, ``1.20 x floor``): what a benchmark
not yet on benchmarks/measure.py must print at least."""

REQUIRED = {
    "rules_throughput.py", "shaker_link_throughput.py", "board_picture_cost.py",
    "web_footprint.py", "gc_pauses.py", *EXPECTED,
}
"""Benchmarks that must take ``--quick``; the others are run once they do."""


IDLE = {"ai_strength.py": 30.0, "calibration.py": 15.0, "service_latency.py": 8.0,
        "speech_latency.py": 7.0, "vision.py": 16.0}
"""Seconds of a quick run on an idle 2-core machine (``pytest --durations``), where it is
over the default ``IDLE_DEFAULT``. The wall-clock net is :func:`programs.limit` of it
(20x); each process may use ``CPU_SAFETY`` times it in CPU seconds: a benchmark that
loops for ever fails on its CPU time, however busy the machine, and one that is only slow
because the machine is busy passes."""

IDLE_DEFAULT = 6.0
CPU_SAFETY = 10

NEEDS = {"speech_latency.py": "espeak-ng"}
"""Benchmarks that drive a Debian program (``make debian-tools`` installs it): skipped
with a reason where it is missing."""


def scripts() -> list[str]:
    return sorted(p.name for p in BENCHMARKS.glob("*.py") if p.name not in HELPERS)


def test_the_required_benchmarks_exist() -> None:
    assert set(scripts()) >= REQUIRED


@pytest.mark.parametrize("name", scripts())
def test_quick_run_exits_0_and_prints_its_figures(name: str) -> None:
    path = BENCHMARKS / name
    if name not in REQUIRED and "--quick" not in path.read_text():
        pytest.skip(f"benchmarks/{name} has no --quick mode yet")
    if name in NEEDS and shutil.which(NEEDS[name]) is None:
        pytest.skip(f"benchmarks/{name} needs {NEEDS[name]} (make debian-tools)")
    idle = IDLE.get(name, IDLE_DEFAULT)
    done = programs.run([sys.executable, str(path), "--quick"], capture_output=True, text=True,
                        idle=idle, cpu=CPU_SAFETY * idle)
    assert done.returncode == 0, done.stderr[-2000:]
    expected = EXPECTED.get(name, RATIO if name in REQUIRED else ANY_RATIO)
    assert re.search(expected, done.stdout), done.stdout[-2000:]


@pytest.mark.parametrize("name", scripts())
def test_help_prints_and_exits_0(name: str) -> None:
    """``--help`` of every benchmark prints its options (argparse formats each help text
    with ``%``: a bare "90%" in one made ``ai_strength.py --help`` raise)."""
    path = BENCHMARKS / name
    if "argparse" not in path.read_text():
        pytest.skip(f"benchmarks/{name} takes no options")
    done = programs.run([sys.executable, str(path), "--help"], capture_output=True, text=True,
                        idle=IDLE_DEFAULT, cpu=CPU_SAFETY * IDLE_DEFAULT)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "usage:" in done.stdout
