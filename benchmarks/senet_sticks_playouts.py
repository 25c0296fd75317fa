"""Casting-stick Senet over many random games: how often a blocked board ends one.

    .venv/bin/python benchmarks/senet_sticks_playouts.py [--quick] [--games N]

Plays ``--games`` seeded random games (random legal moves, fair throws) on the default
board, without and with the extra stick, and counts the games ended by a blocked board
(docs/rules/senet-sticks.md, "A blocked board"), with the games' lengths in moves. No
timing: the figures depend only on the seeds.
"""

from __future__ import annotations

import argparse
import random

from playouts import play_out, spread

from companion.rules import get_game
from companion.rules.senet_sticks import SenetSticksState


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="20 games (CI sanity)")
    parser.add_argument("--games", type=int, default=500, help="games per line (default 500)")
    args = parser.parse_args()
    games = 20 if args.quick else args.games
    for extra in (False, True):
        game = get_game("senet-sticks", extra_stick=extra)
        rng = random.Random(1)
        blocked = 0
        lengths = []
        for _ in range(games):
            played = play_out(game.new_state(2), rng)
            assert isinstance(played.state, SenetSticksState)
            blocked += played.state.blocked
            lengths.append(played.moves)
        name = "with the extra stick" if extra else "default board"
        print(f"{name:<22} blocked board ended {blocked} of {games} random games "
              f"({100 * blocked / games:.1f} %); moves per game {spread(lengths)}")


if __name__ == "__main__":
    main()
