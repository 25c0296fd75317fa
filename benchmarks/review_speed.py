"""How long `companion journal review` takes: a 300-action game of every game.

For each game (its usual number of players), ``--games`` self-play games (the training
player of :mod:`companion.ai.train`, seeds ``review:SEED:I``), cut to their first
``--actions`` actions (300), reviewed by :func:`companion.ai.review.review`. Prints the
CPU seconds per review (median and max, and their spread over the games) and the
estimate for a Raspberry Pi (8 to 12 times slower per core). Target: at most 60 s here.

With ``--strong N`` (default 2; 0 skips it) it also reviews N whole two-player games
per game of the ``strong`` level against random moves (seats swapped every other
game, throws seeded ``review-strong:SEED:I``) and prints the share of each side's
moves the review calls mistakes (an error of 2 points of chance or more) and the share
above 5 points (issue 32's target for ``strong``: at most 1% above 5 points, measured
there against the depth-2 baseline over 100 games; this is a smaller, cheaper look),
and both sides' error per move with its word. Nothing here fails a build.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from companion.ai.player import choose
from companion.ai.review import review
from companion.ai.train import selfplay_move
from companion.rules import Action, Phase, game_ids, get_game, random_action
from companion.ui.review_words import MISTAKE, rating_key

TARGET_S = 60.0


def actions_of(game_id: str, count: int, seed: str) -> tuple[int, list[Action]]:
    """(players, the first ``count`` actions) of a self-play game (fewer if it ends)."""
    state = get_game(game_id).new_state()
    rng = random.Random(seed)
    actions: list[Action] = []
    while state.phase is not Phase.OVER and len(actions) < count:
        action: Action
        if state.phase is Phase.THROW:
            action = random_action(state, rng.randrange)
        else:
            action = selfplay_move(state, rng, 0.1)
        state.apply(action)
        actions.append(action)
    return state.players, actions


def strong_against_random(game_id: str, seed: str, strong_seat: int) -> list[Action]:
    """A whole two-player game: ``strong`` in ``strong_seat``, random moves in the other
    (at most 3000 actions)."""
    state = get_game(game_id).new_state(2)
    rng = random.Random(seed)
    actions: list[Action] = []
    while state.phase is not Phase.OVER and len(actions) < 3000:
        action: Action
        if state.phase is not Phase.THROW and state.current_player == strong_seat:
            action = choose(state, "strong").move
        else:
            action = random_action(state, rng.randrange)
        state.apply(action)
        actions.append(action)
    return actions


def mistakes_table(game_ids_: list[str], games: int, seed: int) -> None:
    """The review's mistakes of ``strong`` and of random play (see the docstring)."""
    print(f"\nThe review of {games} whole games of strong against random moves per game "
          f"(mistake: >= {100 * MISTAKE:.0f} points of chance).")
    print(f"{'game':<18} {'side':<7} {'moves':>6} {'mistakes':>9} {'> 5 points':>11} "
          f"{'points/move':>12}  rating")
    for game_id in game_ids_:
        tally: dict[str, list[float]] = {"strong": [0, 0, 0, 0.0], "random": [0, 0, 0, 0.0]}
        for i in range(games):
            seat = i % 2
            actions = strong_against_random(game_id, f"review-strong:{seed}:{i}", seat)
            result = review(get_game(game_id), 2, actions)
            for m in result.moves:
                side = tally["strong" if m.player == seat else "random"]
                side[0] += 1
                side[1] += m.mistake
                side[2] += m.error > 0.05
                side[3] += m.error
        for name, (moves, bad, worse, error) in tally.items():
            per = error / moves if moves else 0.0
            print(f"{game_id:<18} {name:<7} {moves:>6.0f} {100 * bad / max(1, moves):>8.1f}% "
                  f"{100 * worse / max(1, moves):>10.1f}% {100 * per:>12.2f}  {rating_key(per)}",
                  flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, metavar="N")
    parser.add_argument("--actions", type=int, default=300, metavar="N")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", action="append", default=None, metavar="ID")
    parser.add_argument("--strong", type=int, default=2, metavar="N",
                        help="whole games of strong against random per game whose mistakes "
                             "are counted (0: none)")
    parser.add_argument("--quick", action="store_true",
                        help="a sanity run for CI: one game of 60 actions per game, no "
                             "strong games")
    args = parser.parse_args()
    if args.quick:
        args.games, args.actions, args.strong = 1, 60, 0
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
    if args.strong:
        mistakes_table(args.game or game_ids(), args.strong, args.seed)


if __name__ == "__main__":
    main()
