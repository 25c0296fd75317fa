"""Random positions of the camera's games, shared by the camera tests."""

from __future__ import annotations

import random

from companion.rules import Phase, State, get_game, random_action

GAMES = ("senet-tait", "senet-sticks", "labyrinth", "cretan-labyrinth")
"""The games whose boards the camera reads: all four."""


def position(game_id: str, seed: int, *, waiting_for_throw: bool = False) -> State:
    """A position of ``game_id`` after a seeded number (0-120) of random actions; with
    ``waiting_for_throw`` the first one from there that waits for a throw in play."""
    rng = random.Random(seed)
    state = get_game(game_id).new_state()
    for _ in range(rng.randrange(0, 120)):
        if state.phase is Phase.OVER:
            break
        state.apply(random_action(state, rng.randrange))
    while waiting_for_throw and state.phase is not Phase.THROW:
        if state.phase is Phase.OVER:
            return position(game_id, seed + 1000, waiting_for_throw=True)
        state.apply(random_action(state, rng.randrange))
    return state
