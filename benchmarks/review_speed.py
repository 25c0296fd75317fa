"""How long `companion journal review` takes: a 300-action game of every game.

For each game (its usual number of players), ``--games`` self-play games (the training
player of :mod:`companion.ai.train`, seeds ``review:SEED:I``), cut to their first
``--actions`` actions (300), reviewed by :func:`companion.ai.review.review`. Prints the
CPU seconds per review (median and max, and their spread over the games) and the
estimate for a Raspberry Pi (8 to 12 times slower per core). Target: at most 60 s here.
Nothing here fails a build.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from companion.ai.review import review
from companion.ai.train import selfplay_move
from companion.rules import Action, Phase, game_ids, get_game

TARGET_S = 60.0


def actions_of(game_id: str, count: int, seed: str) -> tuple[int, list[Action]]:
    """(players, the first ``count`` actions) of a self-play game (fewer if it ends)."""
    state = get_game(game_id).new_state()
    rng = random.Random(seed)
    actions: list[Action] = []
    while state.phase is not Phase.OVER and len(actions) < count:
        action: Action
        if state.phase is Phase.THROW:
            spec = state.throw_spec
            assert spec is not None
            action = spec.draw(rng.randrange)
        else:
            action = selfplay_move(state, rng, 0.1)
        state.apply(action)
        actions.append(action)
    return state.players, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, metavar="N")
    parser.add_argument("--actions", type=int, default=300, metavar="N")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", action="append", default=None, metavar="ID")
    parser.add_argument("--quick", action="store_true",
                        help="a sanity run for CI: one game of 60 actions per game")
    args = parser.parse_args()
    if args.quick:
        args.games, args.actions = 1, 60
    print(f"Review of the first {args.actions} actions of {args.games} self-play games per game "
          "(CPU seconds; a Pi: 8-12x slower per core).")
    print(f"{'game':<18} {'actions':>7} {'median s':>9} {'max s':>7} {'spread s':>9} "
          f"{'Pi estimate s':>14}  target <= {TARGET_S:.0f} s")
    for game_id in args.game or game_ids():
        game = get_game(game_id)
        times, lengths = [], []
        for i in range(args.games):
            players, actions = actions_of(game_id, args.actions, f"review:{args.seed}:{i}")
            start = time.process_time()
            review(game, players, actions)
            times.append(time.process_time() - start)
            lengths.append(len(actions))
        median, top = statistics.median(times), max(times)
        spread = top - min(times)
        verdict = "meets" if top <= TARGET_S else "ABOVE"
        print(f"{game_id:<18} {min(lengths):>7} {median:>9.2f} {top:>7.2f} {spread:>9.2f} "
              f"{8 * median:>6.0f}-{12 * top:<7.0f}  {verdict}", flush=True)


if __name__ == "__main__":
    main()
