"""Invariants over many random games of every registered game (hypothesis).

For every game id and every allowed number of players: throw distributions sum to
exactly 1; no two pieces stand on a square that forbids sharing; pieces are never
created or lost; a position that is not over has a throw due or a legal move (or an
explicit pass); positions survive their JSON form; every game ends.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import Phase, PieceZone, State, game_class, game_ids, get_game, random_action

MAX_ACTIONS = 20_000
"""A random game that has not ended after this many actions is a failure."""

GAMES_AND_PLAYERS = [
    (game_id, players)
    for game_id in game_ids()
    for players in range(game_class(game_id).min_players, game_class(game_id).max_players + 1)
]


def check_position(state: State, pieces_per_player: Counter[int]) -> None:
    """Every invariant of one position."""
    pieces = state.pieces()
    assert Counter(p.player for p in pieces) == pieces_per_player, "pieces created or lost"
    on_board = Counter(p.square for p in pieces if p.zone is PieceZone.BOARD)
    for square, count in on_board.items():
        assert square is not None
        assert count == 1 or state.may_share(square), f"{count} pieces share square {square}"
    phase = state.phase
    if phase is Phase.THROW:
        outcomes = state.throw_outcomes()
        assert outcomes, "a throw is due but nothing can be thrown"
        assert sum((p for _, p in outcomes), Fraction(0)) == 1
        assert all(p > 0 for _, p in outcomes)
        assert state.legal_moves() == ()
    elif phase in (Phase.MOVE, Phase.DECIDE):
        moves = state.legal_moves()
        assert moves, "nothing to do in a position that is not over"
        assert len({m.notation for m in moves}) == len(moves), "two moves share a notation"
    else:
        assert state.outcome is not None and state.outcome.winners


def play_random_game(game_id: str, players: int, seed: int) -> State:
    rng = random.Random(seed)
    game = get_game(game_id)
    state = game.new_state(players)
    per_player = Counter(p.player for p in state.pieces())
    for n in range(MAX_ACTIONS):
        check_position(state, per_player)
        phase = state.phase
        if n % 7 == 0 or phase is Phase.OVER:  # the JSON form gives back the same position
            again = game.state_from_dict(state.to_dict())
            assert again.to_dict() == state.to_dict()
            assert again.legal_moves() == state.legal_moves()
        if phase is Phase.OVER:
            return state
        state.apply(random_action(state, rng.randrange))
    raise AssertionError(f"{game_id} with {players} players did not end in {MAX_ACTIONS} actions")


@settings(max_examples=25, deadline=None)
@given(
    case=st.sampled_from(GAMES_AND_PLAYERS),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
)
def test_random_games_keep_every_invariant_and_end(case: tuple[str, int], seed: int) -> None:
    game_id, players = case
    state = play_random_game(game_id, players, seed)
    assert state.phase is Phase.OVER


def test_every_game_and_player_count_is_played() -> None:
    """hypothesis samples cases; make sure each one is played at least once."""
    for game_id, players in GAMES_AND_PLAYERS:
        assert play_random_game(game_id, players, seed=players).phase is Phase.OVER
