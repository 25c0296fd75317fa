"""Is taking the Magic Key worth it? The review's values against played-out games.

Issue 32's review must say what the computer believes, and what it believes should be
true. ``tests/ai/test_learned.py::test_the_review_never_calls_taking_the_magic_key_a_mistake``
holds at 2 players and fails (a strict xfail) at 3 and 4: in some of its seeded
positions the review's search values keeping the four diamonds above taking the key.
Is that a fault of the evaluation, or is keeping them right at 3-4 players? A keeper is
hunted (the seed: "the other players will be after you to get your Magic Key"), and the
diamonds are handed in for the key (docs/rules/cretan-labyrinth.md, D14), while a
player who kept them and takes the key from its keeper has everything to go home.

For each player count and each of the test's positions
(``tests/walkthroughs/review.py``'s ``cretan_key_offered(players, seed)``, seeds 0 to
``--positions - 1``): the review's value of each choice for the player to act
(:func:`companion.ai.review.move_values`, the deeper search the review uses), then
``--games`` games played out from after each choice with every seat at ``--level``.
Game ``g`` of both choices draws its throws from ``random.Random("magic-key:SEED:Np:
POSITION:g")`` and each seat its noise from a generator of its own: the two choices
are paired on common random numbers. Printed: each choice's win share for the chooser,
the difference (take - keep) in points with a 95% paired bootstrap interval over games,
beside the review's difference; then the same pooled over the positions of each count.
No timing; CPU seconds for the record. ``--quick``: one position, two games, two
players (its figures mean nothing).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from ai_strength import bootstrap, level_player, play_from

from companion.ai import review
from companion.rules.cretan_labyrinth import CretanLabyrinthState

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from walkthroughs.review import cretan_key_offered  # tests/ is on the path: the line above

CHOICES = ("take-key", "keep-diamonds")


def play_outs(start: CretanLabyrinthState, position: int, games: int, level: str,
              seed: int) -> dict[str, list[float]]:
    """The chooser's result (1, a share of a shared win, or 0) in each of ``games``
    games from after each choice in ``start`` (position ``position`` of
    ``cretan_key_offered``), every seat at ``level``; game ``g`` of both choices on the
    same throws' seed."""
    players = start.players
    me = start.current_player
    out: dict[str, list[float]] = {}
    for kind in CHOICES:
        move = next(m for m in start.legal_moves() if m.kind == kind)
        results = []
        for g in range(games):
            state = start.copy()
            state.apply(move)
            name = f"magic-key:{seed}:{players}p:{position}:{g}"
            seats = [level_player(level, f"{name}:{kind}:{p}") for p in range(players)]
            winners = play_from(state, seats, random.Random(name))
            results.append(1 / len(winners) if me in winners else 0.0)
        out[kind] = results
    return out


def review_gap(state: CretanLabyrinthState) -> tuple[float, float]:
    """The review's values of taking the key and of keeping the diamonds for the player
    to act in ``state``, in points of chance (0 to 100)."""
    me = state.current_player
    valued = {m.kind: 100 * v[me] for m, v in review.move_values(state)}
    return valued["take-key"], valued["keep-diamonds"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, action="append", default=None,
                        help="only this number of players (repeatable; default 2, 3 and 4)")
    parser.add_argument("--positions", type=int, default=5, help="positions per count (default 5: the test's)")
    parser.add_argument("--games", type=int, default=100, help="games per position and choice (default 100)")
    parser.add_argument("--level", default="normal", help="every seat's level in the games (default normal)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="a sanity run: one position, 2 games, 2 players")
    args = parser.parse_args()
    counts = args.players or [2, 3, 4]
    if args.quick:
        counts, args.positions, args.games = [2], 1, 2
    print(f"Taking the Magic Key or keeping the diamonds: the review's values against {args.games} games")
    print(f"a choice played out at '{args.level}' (seeds magic-key:{args.seed}:Np:POSITION:GAME, the same")
    print("throws for both choices); points of chance for the player to act; take - keep with its 95%")
    print("paired bootstrap interval over games.")
    print(f"{'players':>7} {'position':>8} {'review take':>11} {'keep':>6} {'gap':>6}   "
          f"{'won take':>8} {'keep':>6} {'gap':>6} {'95% interval':>16} {'CPU s':>7}")
    for players in counts:
        pooled: list[float] = []
        gaps: list[float] = []
        for position in range(args.positions):
            began = time.process_time()
            start = cretan_key_offered(players, position)
            take, keep = review_gap(start)
            outs = play_outs(start, position, args.games, args.level, args.seed)
            diffs = [100 * (a - b) for a, b in zip(outs["take-key"], outs["keep-diamonds"], strict=True)]
            mean, low, high = bootstrap(diffs)
            won_take = 100 * sum(outs["take-key"]) / args.games
            won_keep = 100 * sum(outs["keep-diamonds"]) / args.games
            print(f"{players:>7} {position:>8} {take:>11.1f} {keep:>6.1f} {take - keep:>+6.1f}   "
                  f"{won_take:>7.1f}% {won_keep:>5.1f}% {mean:>+6.1f} [{low:>+6.1f}, {high:>+6.1f}] "
                  f"{time.process_time() - began:>7.1f}")
            pooled += diffs
            gaps.append(take - keep)
        mean, low, high = bootstrap(pooled)
        print(f"{players} players, {args.positions} positions: the review's gap {sum(gaps) / len(gaps):+.1f} "
              f"points on average; played out {mean:+.1f} [{low:+.1f}, {high:+.1f}] over {len(pooled)} pairs of games")


if __name__ == "__main__":
    main()
