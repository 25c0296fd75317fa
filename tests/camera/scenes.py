"""Random positions of the camera's games, shared by the camera tests."""

from __future__ import annotations

import random

from companion.rules import Phase, State, get_game, play_out

GAMES = ("senet-tait", "senet-sticks", "labyrinth", "cretan-labyrinth")
"""The games whose boards the camera reads: all four."""


def position(game_id: str, seed: int, *, waiting_for_throw: bool = False) -> State:
    """A position of ``game_id`` after a seeded number (0-120) of random actions; with
    ``waiting_for_throw`` the first one from there that waits for a throw in play."""
    rng = random.Random(seed)
    state = get_game(game_id).new_state()
    steps = rng.randrange(0, 120)
    play_out(state, rng.randrange, until=lambda s: len(s.history) >= steps)
    if waiting_for_throw:
        play_out(state, rng.randrange, until=lambda s: s.phase is Phase.THROW)
        if state.phase is Phase.OVER:
            return position(game_id, seed + 1000, waiting_for_throw=True)
    return state
