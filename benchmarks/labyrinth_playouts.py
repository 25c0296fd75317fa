"""Throughput of the Labyrinth engine: random playouts per second (not a pass/fail test).

Run: ``.venv/bin/python benchmarks/labyrinth_playouts.py [GAMES] [PLAYERS]``. Prints
games per second, actions per second and the mean and longest game in actions. The
throws come from ``random.Random(seed)``; the moves are chosen uniformly among the
legal ones and applied unchecked (``State.push``), as a search would.
"""

from __future__ import annotations

import random
import sys
import time

from companion.rules import Phase, get_game


def playouts(games: int, players: int) -> tuple[float, int, int]:
    """Play ``games`` random games; return (seconds, total actions, longest game)."""
    game = get_game("labyrinth")
    total = 0
    longest = 0
    start = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_state(players)
        actions = 0
        while state.phase is not Phase.OVER:
            spec = state.throw_spec
            if spec is not None:
                state.push(spec.draw(rng.randrange))
            else:
                moves = state.legal_moves()
                state.push(moves[rng.randrange(len(moves))])
            actions += 1
        total += actions
        longest = max(longest, actions)
    return time.perf_counter() - start, total, longest


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    for players in [int(sys.argv[2])] if len(sys.argv) > 2 else [2, 3, 4]:
        seconds, total, longest = playouts(games, players)
        print(
            f"labyrinth {players} players: {games / seconds:8.1f} games/s "
            f"{total / seconds:10.0f} actions/s  mean {total / games:7.1f} actions, "
            f"longest {longest}"
        )


if __name__ == "__main__":
    main()
