"""Matches: seats rotate, results are reproducible, intervals are Wilson's."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from companion.ai.match import match, wilson
from companion.rules import Move, State, get_game


def test_wilson_interval_of_known_counts() -> None:
    low, high = wilson(8, 10)
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(200, 200)
    assert high == pytest.approx(1.0) and 0.98 < low < 0.99


def test_a_match_is_the_same_with_the_same_seed() -> None:
    game = get_game("senet-sticks")
    first = match(game, ["greedy", "random"], 6, seed=4)
    again = match(game, ["greedy", "random"], 6, seed=4)
    assert first == again
    assert sum(first.wins) == first.games == 6


def test_entries_take_every_seat_in_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    """Game i seats entry j at seat (i + j) mod n: over three games of three players
    each entry plays each seat once, and wins are counted for the entry."""
    seats_of: dict[str, set[int]] = {"a": set(), "b": set(), "c": set()}

    def recorder(name: str) -> Callable[[State, random.Random], Move]:
        def play(state: State, rng: random.Random) -> Move:
            seats_of[name].add(state.current_player)
            moves = state.legal_moves()
            return moves[rng.randrange(len(moves))]
        return play

    monkeypatch.setattr("companion.ai.match.player", recorder)
    result = match(get_game("labyrinth"), ["a", "b", "c"], 3, seed=2)
    assert seats_of == {"a": {0, 1, 2}, "b": {0, 1, 2}, "c": {0, 1, 2}}
    assert sum(result.wins) == 3


def test_a_game_whose_players_cannot_sit_is_refused() -> None:
    with pytest.raises(ValueError, match="played by 2 players, not 3"):
        match(get_game("senet-tait"), ["random"] * 3, 1, seed=1)
