"""The Cretan Labyrinth over many games: how often play escapes, and in how many rounds.

    .venv/bin/python benchmarks/cretan_playouts.py [--quick] [--games N]

For 2, 3 and 4 players on the default board and decks, ``--games`` seeded games of a
simple goal-seeking player (``companion.ai.cretan_goal``: the stop nearest the goal, a
missing diamond first) and of random legal moves, with the default round limit (300):
how many ended by an escape (not by the round limit), and the rounds they lasted
(turns over players, as the limit counts them). docs/rules/cretan-labyrinth.md, D27,
quotes these lines. No timing: the figures depend only on the seeds.
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Sequence

from playouts import Chooser, play_out, random_choice, spread

from companion.ai.cretan_goal import goal_seeking_choice
from companion.rules import Move, State, get_game
from companion.rules.cretan_labyrinth import EV_ROUND_LIMIT, CretanLabyrinthState


def goal_seeking(state: State, moves: Sequence[Move], rng: random.Random) -> int:
    assert isinstance(state, CretanLabyrinthState)
    return goal_seeking_choice(state, moves)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="2 games per line (CI sanity)")
    parser.add_argument("--games", type=int, default=40, help="games per line (default 40)")
    args = parser.parse_args()
    games = 2 if args.quick else args.games
    game = get_game("cretan-labyrinth")
    players_list = (2,) if args.quick else (2, 3, 4)
    choosers: tuple[tuple[str, Chooser], ...] = (("goal-seeking", goal_seeking), ("random", random_choice))
    for name, choose in choosers:
        for players in players_list:
            rng = random.Random(players)
            escaped = 0
            rounds = []
            for _ in range(games):
                played = play_out(game.new_state(players), rng, choose)
                assert isinstance(played.state, CretanLabyrinthState)
                escaped += EV_ROUND_LIMIT not in played.events
                rounds.append(math.ceil(played.state.turns / players))
            print(f"{name:<13} {players} players: escaped in {escaped} of {games} games "
                  f"({100 * escaped / games:.0f} %); rounds {spread(rounds)}")


if __name__ == "__main__":
    main()
