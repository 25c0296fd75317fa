"""The Game of the Labyrinth over many random games: every one ends, and how long.

    .venv/bin/python benchmarks/labyrinth_playouts.py [--quick] [--games N]

Plays ``--games`` seeded random games (random legal moves, fair throws) of 2, 3 and 4
players to the end, with no cap (docs/rules/labyrinth.md, "Why every game ends"), and
prints how many ended and their lengths in moves (a die's value played, a decision, or
a pass). No timing: the figures depend only on the seeds.
"""

from __future__ import annotations

import argparse
import random

from playouts import play_out, spread

from companion.rules import get_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="5 games per line (CI sanity)")
    parser.add_argument("--games", type=int, default=200, help="games per line (default 200)")
    args = parser.parse_args()
    games = 5 if args.quick else args.games
    game = get_game("labyrinth")
    for players in (2, 3, 4):
        rng = random.Random(players)
        lengths = [play_out(game.new_state(players), rng).moves for _ in range(games)]
        print(f"{players} players: {len(lengths)} of {games} random games ended; "
              f"moves per game {spread(lengths)}")


if __name__ == "__main__":
    main()
