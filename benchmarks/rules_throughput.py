"""Rules throughput: random playouts of every registered game next to royalur's.

Run with ``make bench``. For each game: random legal moves and fair throws until the
game ends, for a fixed time; prints moves per second (a "move" is a Move other than an
explicit pass, as royalur counts only the moves it makes) and games per second, once
through the unchecked ``push`` (as a playout engine would) and once through the
checked ``apply``. In the same run the same loop runs on the ``royalur`` package (a
pure-Python Royal Game of Ur engine, Finkel rules) and every figure is printed as a
ratio to it. The target for ``senet-tait`` is at least 5x royalur's moves per second.

Nothing here passes or fails: figures depend on the machine; only ratios measured in
the same run are comparable.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from companion.rules import PASS, Phase, State, game_class, game_ids, get_game

TARGET_RATIO = 5.0
"""senet-tait's moves per second over royalur's, as the foundation issue asks."""


def playout_loop(
    make_state: Callable[[], State], checked: bool, seconds: float, seed: int
) -> tuple[float, float]:
    """(moves per second, games per second) of random playouts for about ``seconds``."""
    rng = random.Random(seed)
    randrange = rng.randrange
    moves = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = make_state()
        act = state.apply if checked else state.push
        while True:
            phase = state.phase
            if phase is Phase.THROW:
                spec = state.throw_spec
                assert spec is not None
                act(spec.draw(randrange))
            elif phase is Phase.OVER:
                break
            else:
                legal = state.legal_moves()
                move = legal[randrange(len(legal))]
                act(move)
                if move is not PASS:
                    moves += 1
        games += 1
    elapsed = time.perf_counter() - start
    return moves / elapsed, games / elapsed


def royalur_loop(seconds: float, seed: int) -> tuple[float, float]:
    """The same loop on royalur (Finkel rules)."""
    from royalur import Game  # the baseline engine, installed by the dev extra

    random.seed(seed)  # royalur rolls with the random module
    rng = random.Random(seed)
    moves = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        game = Game.create_finkel()
        while not game.is_finished():
            if game.is_waiting_for_roll():
                game.roll_dice()
            else:
                available = game.find_available_moves()
                game.make_move(available[rng.randrange(len(available))])
                moves += 1
        games += 1
    elapsed = time.perf_counter() - start
    return moves / elapsed, games / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement, in seconds")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    base_moves, base_games = royalur_loop(args.seconds, args.seed)
    print(f"{'royalur (Finkel), baseline':<34} {base_moves:>10,.0f} moves/s {base_games:>8,.1f} games/s")
    print()
    print(f"{'game':<20} {'mode':<9} {'moves/s':>10} {'x royalur':>9} {'games/s':>9}")
    for game_id in game_ids():
        cls = game_class(game_id)
        for players in sorted({cls.min_players, cls.max_players}):
            game = get_game(game_id)
            label = game_id if cls.min_players == cls.max_players else f"{game_id} ({players}p)"
            for checked in (False, True):
                moves, games = playout_loop(
                    lambda game=game, players=players: game.new_state(players),  # type: ignore[misc]
                    checked,
                    args.seconds,
                    args.seed,
                )
                mode = "apply" if checked else "push"
                print(f"{label:<20} {mode:<9} {moves:>10,.0f} {moves / base_moves:>8.2f}x {games:>9,.1f}")
    tait, _ = playout_loop(lambda: get_game("senet-tait").new_state(), False, args.seconds, args.seed + 1)
    ratio = tait / base_moves
    verdict = "meets" if ratio >= TARGET_RATIO else "BELOW"
    print(f"\nsenet-tait push: {ratio:.2f}x royalur ({verdict} the {TARGET_RATIO:.0f}x target)")


if __name__ == "__main__":
    main()
