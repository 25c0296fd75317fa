"""benchmarks/ai_strength.py's versus part at more than two players: a rotation plays
``strong`` in each seat in turn against the baseline in every other seat, and its log
names every game as it ends (and, asked, every decision of the baseline). (The two-player table runs in test_benchmarks_quick.py.)"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def load() -> ModuleType:
    """benchmarks/ai_strength.py (it imports its siblings by their bare names)."""
    if str(BENCHMARKS) not in sys.path:
        sys.path.append(str(BENCHMARKS))
    return importlib.import_module("ai_strength")


ai_strength = load()


def test_two_players_keep_the_pair_seeds() -> None:
    # the measurements in docs/ai.md name these seeds: they must not move
    assert ai_strength.versus_seed(6, 2, 17) == "heldout-baseline:6:17"
    assert ai_strength.versus_seed(6, 3, 17) == "heldout-baseline:6:3p:17"


def test_a_tuning_namespace_moves_the_seeds_and_only_them() -> None:
    assert ai_strength.versus_seed(6, 2, 17, "tune10laby") == "tune10laby:6:17"
    assert ai_strength.versus_seed(6, 4, 17, "tune10laby") == "tune10laby:6:4p:17"
    assert ai_strength.VERSUS_NAMESPACE == "heldout-baseline"


def test_a_rotation_of_three_seats_logs_each_game(capsys: pytest.CaptureFixture[str]) -> None:
    result = ai_strength.play_versus("labyrinth", 1, 1, 0, log=True, late=0.9, players=3,
                                     log_decisions=True)
    assert result.games == 3
    assert len(result.pairs) == 4 and sum(result.pairs) == 1
    assert 0.0 <= result.wins <= 3.0
    assert result.pairs[3 - int(result.wins)] == 1
    lines = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    decisions = [line for line in lines if "moves" in line]
    assert [d["nodes"] for d in decisions] == result.nodes
    assert all(d["moves"] > 1 for d in decisions)
    lines = [line for line in lines if "moves" not in line]
    games = [line for line in lines if "seat" in line]
    assert [g["seat"] for g in games] == [0, 1, 2]
    assert all(g["players"] == 3 and g["pair"] == 0 and g["reason"] for g in games)
    assert sum(g["strong"] for g in games) == pytest.approx(result.wins)
    rounds = [line for line in lines if "seat" not in line]
    assert len(rounds) == 1 and rounds[0]["strong"] == pytest.approx(result.wins)
    assert len(rounds[0]["nodes"]) == len(result.nodes) == sum(g["decisions"] for g in games)


def test_a_round_out_of_memory_is_left_out_and_said(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real = ai_strength.play_from
    calls = []

    def failing_first(*args: object) -> tuple[int, ...]:
        calls.append(1)
        if len(calls) == 1:
            raise MemoryError
        return real(*args)  # type: ignore[no-any-return]

    monkeypatch.setattr(ai_strength, "play_from", failing_first)
    result = ai_strength.play_versus("senet-tait", 2, 1, 0, log=False, late=0.9)
    assert result.failed == 1
    assert result.games == 2 and sum(result.pairs) == 1
    failed = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    assert failed == [{"game": "senet-tait", "players": 2, "pair": 0, "seat": 0,
                       "failed": "MemoryError", "actions": failed[0]["actions"]}]


def test_the_seeds_take_a_namespace() -> None:
    assert ai_strength.versus_seed(6, 2, 17, "tune10cretan") == "tune10cretan:6:17"
    assert ai_strength.versus_seed(6, 4, 17, "tune10cretan") == "tune10cretan:6:4p:17"


def test_a_head_to_head_of_two_evaluations_scores_each_round() -> None:
    """strong over the learned model against strong over progress: no baseline plays
    (its columns stay empty), and each round's wins are kept for the paired interval."""
    result = ai_strength.play_versus("cretan-labyrinth", 2, 1, 0, search_eval="learned",
                                     opponent="strong-progress", late=0.9, players=3,
                                     namespace="test-h2h")
    assert result.games == 6 and len(result.scores) == 2
    assert sum(result.scores) == pytest.approx(result.wins)
    assert all(0.0 <= s <= 3.0 for s in result.scores)
    assert result.nodes == [] and result.cpu == []


def test_the_same_seeds_replay_the_same_games_and_another_namespace_others() -> None:
    def scores(namespace: str) -> tuple[float, ...]:
        played: tuple[float, ...] = ai_strength.play_versus(
            "senet-tait", 3, 1, 0, search_eval="learned", opponent="strong-progress",
            late=0.9, namespace=namespace).scores
        return played

    assert scores("a") == scores("a")
    assert any(scores(f"b{k}") != scores("a") for k in range(3))
