"""benchmarks/compare_runs.py pairs the ratios of two benchmark logs and says which moved.

Two small logs in the shape ``make bench`` prints: a measure.py ratio line that agrees,
one that moves by more than 15%, a ratio written ``1.23x`` on a line of its own, and a
line only the first run printed. The script must name each and exit 1.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import programs

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "compare_runs.py"

FIRST = """\
== benchmarks/rules_throughput.py
labyrinth (2p): 614 moves per game (4.21x a game of Ur)
  warm push                        ratio min   4.31  median   4.70 x royalur  IQR 4.47-4.80  range 4.31-5.09  n=12
labyrinth (4p): 904 moves per game (6.20x a game of Ur)
  warm push                        ratio min   4.00  median   4.30 x royalur  IQR 4.20-4.40  range 4.00-4.50  n=12
== benchmarks/service_latency.py
start to first frame: 523 ms; floor: a process, start to exit: 200 ms: 2.61x
    queue: wall p99        ratio min   0.08  median   2.11 x floor time  IQR 1.10-3.13  range 0.08-4.15  n=2  [wall clock: spread only]
peak memory: whole demo game 45.1 MiB: 1.30x (target <= 1.5x): met
"""

SECOND = """\
== benchmarks/rules_throughput.py
labyrinth (2p): 614 moves per game (4.21x a game of Ur)
  warm push                        ratio min   4.50  median   5.30 x royalur  IQR 4.90-5.40  range 4.50-5.60  n=12
labyrinth (4p): 904 moves per game (6.20x a game of Ur)
  warm push                        ratio min   4.10  median   4.10 x royalur  IQR 4.05-4.20  range 4.00-4.30  n=12
== benchmarks/service_latency.py
start to first frame: 610 ms; floor: a process, start to exit: 180 ms: 3.39x
    queue: wall p99        ratio min   0.50  median   0.90 x floor time  IQR 0.60-1.00  range 0.50-1.10  n=2  [wall clock: spread only]
"""


def run(tmp_path: Path, first: str, second: str, *options: str) -> subprocess.CompletedProcess[str]:
    one, two = tmp_path / "one.log", tmp_path / "two.log"
    one.write_text(first)
    two.write_text(second)
    return programs.run([sys.executable, str(SCRIPT), str(one), str(two), *options],
                        capture_output=True, text=True, idle=1)


def line_of(output: str, name: str) -> str:
    found = [line for line in output.splitlines() if line.endswith(name)]
    assert len(found) == 1, output
    return found[0]


def test_a_ratio_that_moves_more_than_15_percent_or_goes_missing_fails_the_pair(tmp_path: Path) -> None:
    done = run(tmp_path, FIRST, SECOND, "--all")
    assert done.returncode == 1, done.stderr
    out = done.stdout
    # 4.30 against 4.10: 4.9% apart, within 15%
    assert line_of(out, "labyrinth (4p): warm push").split()[:4] == ["ok", "4.300", "4.100", "4.9%"]
    # 4.70 against 5.30: 12.8% apart, within
    assert line_of(out, "labyrinth (2p): warm push").split()[0] == "ok"
    # 2.61x against 3.39x, a ratio on a line of its own: 29.9% apart
    moved = line_of(out, "start to first frame: # ms; floor: a process, start to exit: # ms:")
    assert moved.split()[:4] == ["DIFFERS", "2.610", "3.390", "29.9%"]
    # printed by the first run only; its target (1.5x) is not a ratio
    missing = line_of(out, "peak memory: whole demo game # MiB:")
    assert missing.split()[:3] == ["MISSING", "1.300", "-"]
    assert "1.500" not in out
    # the moves per game (4.21x, 6.20x) are ratios too, named by their game
    assert line_of(out, "labyrinth (2p): # moves per game (").split()[0] == "ok"
    # a wall-clock tail (marked by measure.py) is listed with its difference, not held
    assert line_of(out, "start to first frame: queue: wall p99").split()[:4] == [
        "wall", "2.110", "0.900", "134.4%"]
    assert out.splitlines()[-1].startswith(
        "7 ratios, 6 in both runs (1 of wall-clock times, listed, not held to the rule); "
        "2 differ by more than 15%")


def test_two_runs_that_agree_exit_0_and_list_only_the_wall_clock_ratios(tmp_path: Path) -> None:
    done = run(tmp_path, FIRST, FIRST)
    assert done.returncode == 0, done.stdout
    assert done.stdout.splitlines() == [
        "== benchmarks/service_latency.py",
        "  wall       2.110    2.110    0.0%  start to first frame: queue: wall p99",
        "7 ratios, 7 in both runs (1 of wall-clock times, listed, not held to the rule); "
        "0 differ by more than 15% (the larger over the smaller) or are in one run only"]


def test_a_wider_tolerance_lets_the_moved_ratio_pass(tmp_path: Path) -> None:
    second = SECOND + "peak memory: whole demo game 44.0 MiB: 1.28x (target <= 1.5x): met\n"
    assert run(tmp_path, FIRST, second).returncode == 1
    assert run(tmp_path, FIRST, second, "--tolerance", "0.35").returncode == 0
