"""benchmarks/calibration.py's ``vs-base`` line: the chance ``strong``'s hint shows for
itself in games against the baseline (issue 32: calibration "on `strong` against the
baseline"). A pair plays both seats on the same throws, and only strong's own decisions
are recorded, with both players' results.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest
from benchmark_scripts import load_script


@pytest.fixture(scope="module")
def calibration() -> ModuleType:
    return load_script("calibration", "calibration_versus_under_test")


def test_a_pair_records_strongs_own_chances_in_each_seat(calibration: ModuleType) -> None:
    played = calibration.versus_records("senet-tait", 1, 1)
    assert len(played) == 2  # one pair: strong in seat 0, then in seat 1
    for seat, (shown, result) in enumerate(played):
        assert shown, "strong had decisions with a choice"
        assert {p for p, _v in shown} == {seat}
        assert all(0.0 <= v <= 1.0 for _p, v in shown)
        assert sorted(result) == [0.0, 1.0]
    tallies = calibration.tallied("senet-tait", 2, "strong", played)
    assert [before.count for before, _after in tallies] == [len(s) for s, _r in played]


def test_at_three_players_strong_takes_each_seat_once_against_two_baselines(
        calibration: ModuleType) -> None:
    """A set at 3 players is three games, strong in seat 0, 1, 2 and the baseline in
    the other two: only strong's decisions are recorded, with all three results."""
    played = calibration.versus_records("labyrinth", 1, 1, players=3)
    assert len(played) == 3
    for seat, (shown, result) in enumerate(played):
        assert shown and {p for p, _v in shown} == {seat}
        assert len(result) == 3 and sum(result) == pytest.approx(1.0)
    tallies = calibration.tallied("labyrinth", 3, "strong", played)
    assert [before.count for before, _after in tallies] == [len(s) for s, _r in played]


def test_the_records_are_kept_and_read_back(calibration: ModuleType, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    Record = tuple[list[tuple[int, float]], list[float]]
    played: list[Record] = [([(0, 0.7), (0, 0.8)], [1.0, 0.0]), ([(1, 0.4)], [1.0, 0.0])]
    calls = []

    def fake(game_id: str, pairs: int, seed: int, log: bool = False,
             players: int = 2) -> list[Record]:
        calls.append((game_id, pairs, seed))
        return played

    monkeypatch.setattr(calibration, "versus_records", fake)
    first = calibration.hint_versus("senet-sticks", 3, 7, tmp_path)
    again = calibration.hint_versus("senet-sticks", 3, 7, tmp_path)
    assert calls == [("senet-sticks", 2, 7)]  # 3 games are 2 pairs; the second call reads the file
    assert (tmp_path / "versus-senet-sticks-7-4.json").exists()
    assert [(b.count, b.squared) for b, _a in first] == [(b.count, b.squared) for b, _a in again]
    assert first[1][0].squared == pytest.approx(0.4 ** 2)  # seat 1 lost: shown 0.4, result 0
