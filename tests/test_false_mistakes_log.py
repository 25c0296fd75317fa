"""benchmarks/ai_strength.py's review of ``strong``'s moves against the baseline (the
judge part's false mistakes) logs every game as it ends, so a run cut short for time
still counts each finished game (docs/ai.md, "The review's false mistakes over 100
games"). (The table itself runs in test_benchmarks_quick.py.)"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
if str(BENCHMARKS) not in sys.path:
    sys.path.append(str(BENCHMARKS))  # ai_strength imports its siblings by their bare names
import ai_strength  # noqa: E402


def test_each_game_and_each_pair_is_logged_as_it_ends(capsys: pytest.CaptureFixture[str]) -> None:
    result = ai_strength.false_mistakes("labyrinth", 1, 1, 0, max_actions=30, late=0.9,
                                        namespace="test-log", log=True)
    lines = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    games = [line for line in lines if "seat" in line]
    pairs = [line for line in lines if "seat" not in line]
    assert [g["seat"] for g in games] == [0, 1]
    assert all(g["namespace"] == "test-log" and g["pair"] == 0 and g["actions"] > 0 for g in games)
    assert len(pairs) == 1
    assert result.moves > 0  # strong had choices in these 30 actions
    for key, total in (("moves", result.moves), ("over5", result.over5), ("over2", result.over2),
                       ("above", result.above), ("deeper", result.deeper)):
        assert sum(g[key] for g in games) == pairs[0][key] == total


def test_at_three_players_strong_is_reviewed_in_each_seat_once(capsys: pytest.CaptureFixture[str]) -> None:
    """At 3 players a round is three games on one seed, ``strong`` in seat 0, 1, 2 in turn
    against two baselines, and only ``strong``'s moves are reviewed: the 3-player line of
    the judge part (docs/ai.md, "The review's false mistakes at 3 and 4 players")."""
    result = ai_strength.false_mistakes("labyrinth", 1, 1, 0, max_actions=40, late=0.9,
                                        namespace="test-log", log=True, players=3)
    lines = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    games = [line for line in lines if "seat" in line]
    assert [g["seat"] for g in games] == [0, 1, 2]
    assert all(g["players"] == 3 for g in games)
    assert result.games == 3 and result.moves == sum(g["moves"] for g in games) > 0
