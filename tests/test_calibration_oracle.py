"""benchmarks/calibration.py's oracle: the true win chance's Brier score by playouts, and
the number of held-out games at which an interval parts from the progress heuristic's.

These figures decide whether the issue's calibration target can be met at all, so the
estimator must be unbiased (checked exactly, by enumerating every set of playouts) and
the games it prints must follow from the intervals.
"""

from __future__ import annotations

import itertools
import math
import re
import sys
from pathlib import Path
from types import ModuleType

import programs
import pytest
from benchmark_scripts import load_script

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "calibration.py"


@pytest.fixture(scope="module")
def calibration() -> ModuleType:
    return load_script("calibration", "calibration_under_test")


@pytest.mark.parametrize("rollouts", [2, 3, 5])
@pytest.mark.parametrize("result", [0.0, 0.5, 1.0])
@pytest.mark.parametrize(
    "outcomes",
    [
        {1.0: 0.3, 0.0: 0.7},  # a win or a loss
        {1.0: 0.2, 0.5: 0.3, 0.0: 0.5},  # shared wins too: q(1-q) alone would be biased
    ],
)
def test_the_true_squared_error_is_unbiased(
    calibration: ModuleType, rollouts: int, result: float, outcomes: dict[float, float]
) -> None:
    """The mean over every possible set of playouts, weighted by its chance, is exactly
    the squared error of the true chance."""
    true_chance = sum(r * w for r, w in outcomes.items())
    expected = 0.0
    for draw in itertools.product(outcomes.items(), repeat=rollouts):
        chance = math.prod(w for _, w in draw)
        total = sum(r for r, _ in draw)
        squares = sum(r * r for r, _ in draw)
        expected += chance * calibration.true_squared_error(total, squares, rollouts, result)
    assert expected == pytest.approx((true_chance - result) ** 2, abs=1e-12)


def test_apart_at_is_where_the_gap_equals_the_two_half_widths(calibration: ModuleType) -> None:
    # Half-widths 0.004 and 0.006 at 1000 games, a gap of 0.005: twice the gap is needed,
    # so four times the games.
    assert calibration.apart_at(1000, 0.005, (0.196, 0.204), (0.203, 0.215)) == "4,000"
    assert calibration.apart_at(1000, 0.0, (0.2, 0.21), (0.2, 0.21)) == "never"
    assert calibration.apart_at(1000, -0.01, (0.2, 0.21), (0.2, 0.21)) == "never"


def test_the_oracle_line_scales_the_true_chance_from_its_own_games(calibration: ModuleType) -> None:
    """Every oracle game alike: no spread, so the true chance's interval is as narrow as
    the progress one there; the games then follow from the main table's progress
    interval (half-width 0.005) and the gap alone."""
    per = [{"oracle": 20.0, "learned": 20.5, "progress": 21.0, "count": 100.0}] * 30
    line = calibration.oracle_line(per, 50, 1, 1000, (0.205, 0.215))
    assert line.games == 30 and line.positions == 3000
    assert line.scores["oracle"] == pytest.approx((0.200, 0.200, 0.200))
    assert line.gaps["reach"] == pytest.approx((0.010, 0.010, 0.010))
    assert line.gaps["room"] == pytest.approx((0.005, 0.005, 0.005))
    # Both intervals 0.010 wide (the true one 0/0 times the progress one's, so 0 wide:
    # half-widths 0 + 0.005 against a gap of 0.010): a quarter of the games.
    assert line.apart[0] == "250"


def test_the_table_prints_the_true_chance_column(calibration: ModuleType) -> None:
    done = programs.run(
        [sys.executable, str(SCRIPT), "--quick", "--game", "senet-tait", "--oracle", "2",
         "--oracle-games", "4", "--oracle-thin", "4", "--boot", "50"],
        capture_output=True, text=True, idle=1,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "true apart at" in done.stdout
    row = re.search(r"^senet-tait +2 .*", done.stdout, re.MULTILINE)
    assert row is not None, done.stdout
    assert re.search(r"(never|[\d,]+) \[([\d,]+|never)-([\d,]+|never)\] +ECE", row.group(0)), row.group(0)
    assert re.search(r"senet-tait +2 +4 games .*oracle \d\.\d{3} .*reach [+-]\d\.\d{4} .*room ", done.stdout)
