"""Throughput of the casting-stick Senet engine: random games played to the end.

Run: ``.venv/bin/python benchmarks/senet_sticks_playouts.py [GAMES]`` (default 200).
Prints, for each option set, games per second, actions per second and how the games
ended. Not a test: nothing here passes or fails.
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter

from companion.rules import Phase, get_game

OPTION_SETS: list[dict[str, object]] = [
    {},
    {"extra_stick": True},
    {"mode": "quick"},
    {"combination_captures": False},
]


def playout(options: dict[str, object], seed: int) -> tuple[int, str]:
    """Play one game with random throws and moves; return (actions, outcome reason)."""
    rng = random.Random(seed)
    state = get_game("senet-sticks", **options).new_state()
    actions = 0
    while state.phase is not Phase.OVER:
        if state.phase is Phase.THROW:
            spec = state.throw_spec
            assert spec is not None
            state.push(spec.draw(rng.randrange))
        else:
            moves = state.legal_moves()
            state.push(moves[rng.randrange(len(moves))])
        actions += 1
    outcome = state.outcome
    assert outcome is not None
    return actions, outcome.reason.split(";")[0]


def main(games: int) -> None:
    for options in OPTION_SETS:
        reasons: Counter[str] = Counter()
        total = 0
        start = time.perf_counter()
        for seed in range(games):
            actions, reason = playout(options, seed)
            total += actions
            reasons[reason] += 1
        elapsed = time.perf_counter() - start
        label = ", ".join(f"{k}={v}" for k, v in options.items()) or "defaults"
        print(
            f"{label:<28} {games / elapsed:8.1f} games/s {total / elapsed:10.0f} actions/s "
            f"{total / games:6.1f} actions/game"
        )
        for reason, n in reasons.most_common():
            print(f"    {n:5d}  {reason}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
