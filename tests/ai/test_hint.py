"""The hint is the computer's move (issue 32): its first row is the move
:func:`companion.ai.player.choose` plays at the same level and seed, and its rows are
sorted by the chance shown, every value from one search at one depth (the chance shown
is its searched value through :mod:`companion.ai.calibrate`'s map); the review's
values at that depth (:func:`companion.ai.search.move_chances`) are the hint's searched
ones, so the review never ranks a move above the hint's at the same depth. Hypothesis draws the
positions (a few dozen per game, from seeded random games)."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from companion.ai.calibrate import chance
from companion.ai.player import LEVELS, choose, hint, hint_level
from companion.ai.race import covers
from companion.ai.search import move_chances
from companion.rules import Phase, State, get_game, random_action

GAMES = ("senet-tait", "labyrinth", "senet-sticks", "cretan-labyrinth")


def position(game_id: str, players: int, seed: int, actions: int) -> State | None:
    """The position after about ``actions`` random actions of the game seeded ``seed``,
    at the next decision with a choice; ``None`` if the game ends first."""
    rng = random.Random(f"hint:{game_id}:{seed}")
    state = get_game(game_id).new_state(players)
    n = 0
    while True:
        phase = state.phase
        if phase is Phase.OVER:
            return None
        if phase is not Phase.THROW and n >= actions and len(state.legal_moves()) > 1:
            return state
        state.apply(random_action(state, rng.randrange))
        n += 1


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=24, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), actions=st.integers(0, 240),
       level=st.sampled_from(sorted(LEVELS)), players=st.integers(2, 4))
def test_the_hints_first_row_is_the_computers_move(game_id: str, seed: int, actions: int,
                                                    level: str, players: int) -> None:
    game = get_game(game_id)
    players = min(max(players, game.min_players), game.max_players)
    state = position(game_id, players, seed, actions)
    assume(state is not None)
    assert state is not None
    found = hint(state, level)
    searched = hint(state, level, shown=False)  # the values before the map
    decision = choose(state, level, random.Random(seed))
    if LEVELS[level].noise:  # easy: the hint is its choice before the noise
        assert found.move == decision.ranking[0].move
        assert searched.rows == decision.ranking
    else:
        assert found.move == decision.move
        assert searched.value == decision.value
    # (a solved ending's exact chance is shown as it is: companion.ai.race.covers)
    assert found.value == (searched.value if covers(state) else chance(game_id, players, level, searched.value))
    values = [r.value for r in found.rows]
    assert values == sorted(values, reverse=True)
    assert {r.depth for r in found.rows} == {found.depth}
    assert sorted(r.move.notation for r in found.rows) == sorted(
        m.notation for m in state.legal_moves())
    losses = found.losses()
    assert losses[found.move.notation] == 0.0 and all(0.0 <= x <= 1.0 for x in losses.values())


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), actions=st.integers(0, 240))
# Found by CI: the review's run searched the casting-stick ends in another order than the
# search, and its transposition table (a deeper entry used at a shallower depth) gave
# 22-24 0.935 where the hint said 0.984 at the same depth 4.
@example(seed=216, actions=166)
# Found by a random run: at depth 1 the review valued casting-stick Senet's turn ends by
# the evaluation alone where the hint took the solved table's exact values (12-10: 0.605
# against 0.484); Search.end_value now values them for both.
@example(seed=207, actions=126)
def test_the_review_at_the_hints_depth_gives_the_hints_values(game_id: str, seed: int,
                                                               actions: int) -> None:
    state = position(game_id, 2, seed, actions)
    assume(state is not None)
    assert state is not None
    found = hint(state, "normal", shown=False)  # the searched values (the map aside)
    if found.depth < 1:
        return
    me = state.current_player
    review = {m: v[me] for m, v in move_chances(state, found.depth)}
    assert {r.move: r.value for r in found.rows} == review
    assert max(review.values()) == found.value


def test_the_hint_level_is_the_computer_seats() -> None:
    assert hint_level({}) == "normal"
    assert hint_level({1: "strong"}) == "strong"
    assert hint_level({2: "easy", 1: "strong"}) == "strong"


@pytest.mark.parametrize("game_id", GAMES)
def test_every_level_plays_the_same_move_on_a_slow_machine(game_id: str) -> None:
    """Decisions are by node budget (issue 32): a clock that jumps a second at every look
    (a Pi under load) changes no level's move or ranking. ``easy`` had a 0.04 s time
    budget, which cut its one ply short there, so the box's easy player, its hint and
    this test all depended on the machine's load."""
    for seed in range(6):
        state = position(game_id, 2, seed, 40 + 30 * seed)
        if state is None:
            continue
        for level in LEVELS:
            still = choose(state, level, random.Random(seed), clock=lambda: 0.0)
            slow = choose(state, level, random.Random(seed), clock=itertools.count().__next__)
            assert slow.ranking == still.ranking and slow.move == still.move, (level, seed)
