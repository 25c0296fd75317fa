"""Is ``strong`` held back by its node budget? (issue 32, branch budget6)

Two parts, on seeds of a namespace of their own (default ``tune-budget6``, never a
held-out one):

* ``--part time``: ``--positions`` midgame positions of random games per game (seeded
  ``NAMESPACE:positions:GAME``), each searched as ``strong`` searches it at every
  budget of ``--nodes`` (and ``--depth``): the CPU seconds of a decision (p50, p90,
  p99, max) and the depth of the deepest finished iteration (how often it is the
  level's ``max_depth``: the budget no longer binds there).
* ``--part versus``: ``--pairs`` pairs of two-player games of ``strong`` at each budget
  against the baseline of ``baseline.py`` (seats swapped, both games of pair ``i``
  drawing their throws from ``random.Random(f"{NAMESPACE}:{i}")``, the same throws at
  every budget, so the budgets are compared pair by pair). A JSON line per pair and
  budget on stderr as it ends (strong's wins, its decisions' CPU seconds and depths),
  then per budget: the win share with its Wilson interval, strong's CPU seconds per
  decision (p50, p99, max), and against the first budget the paired difference of wins
  per pair with a 95% bootstrap interval (2000 resamples of pairs).

``strong`` here is :func:`companion.ai.search.search` with the leaves of
:func:`companion.ai.learned.search_chances`, its first row played: what
:func:`companion.ai.player.choose` plays at ``strong`` with that depth and budget.

``--part time`` ends with the median CPU seconds per decision at each budget as a ratio
to the first budget's, on the same positions. ``--quick`` (a few seconds, what
``tests/test_benchmarks_quick.py`` runs): ``--part time`` on Tait's Senet, 4 positions,
budgets 250 and 1000.

Run with ``nice -n 10`` and ``ulimit -v 5000000`` on a shared machine, one process.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable

from ai_strength import bootstrap, midgame_positions, percentile, play_from
from baseline import Baseline

from companion.ai.learned import search_chances
from companion.ai.match import wilson
from companion.ai.search import search
from companion.rules import Move, State, get_game


def strong_at(nodes: int, depth: int, cpu: list[float], depths: list[int]
              ) -> Callable[[State, random.Random], Move]:
    """``strong`` searching to ``depth`` plies within ``nodes`` expansions; each decision
    with a choice appends its CPU seconds to ``cpu`` and its depth to ``depths``."""

    def play(state: State, rng: random.Random) -> Move:
        start = time.process_time()
        ranking, reached, _n = search(state, depth, None, nodes, evaluation=search_chances)
        if len(ranking) > 1:
            cpu.append(time.process_time() - start)
            depths.append(reached)
        return ranking[0].move

    return play


def quantiles(values: list[float]) -> str:
    ordered = sorted(values) or [0.0]
    return (f"p50 {1000 * percentile(ordered, 0.5):.0f} ms, p90 {1000 * percentile(ordered, 0.9):.0f} ms, "
            f"p99 {1000 * percentile(ordered, 0.99):.0f} ms, max {1000 * ordered[-1]:.0f} ms")


def part_time(game_id: str, budgets: list[tuple[int, int]], count: int, namespace: str) -> None:
    positions = midgame_positions(game_id, count, hash_seed(f"{namespace}:positions:{game_id}"))
    medians: list[float] = []
    for nodes, depth in budgets:
        cpu: list[float] = []
        depths: list[int] = []
        player = strong_at(nodes, depth, cpu, depths)
        for state in positions:
            player(state, random.Random(0))
        full = sum(d == depth for d in depths)
        hist = {d: depths.count(d) for d in sorted(set(depths))}
        print(json.dumps({"game": game_id, "part": "time", "nodes": nodes, "depth": depth,
                          "positions": len(cpu), "cpu": quantiles(cpu),
                          "reached max depth": full, "depths": hist}), flush=True)
        medians.append(statistics.median(cpu) if cpu else 0.0)
    (nodes0, depth0), floor = budgets[0], medians[0]
    for (nodes, depth), median in zip(budgets[1:], medians[1:], strict=True):
        ratio = f"{median / floor:.2f}x" if floor > 0 else "n/a (no decision with a choice)"
        print(f"{game_id}: median CPU per decision at {nodes} nodes (depth {depth}) is {ratio} "
              f"that at {nodes0} nodes (depth {depth0}), the same {len(positions)} positions",
              flush=True)


def hash_seed(text: str) -> int:
    """A stable integer seed from ``text`` (``random.Random(str)`` is stable; ``hash`` is not)."""
    return random.Random(text).randrange(2**31)


def part_versus(game_id: str, budgets: list[tuple[int, int]], pairs: int, first: int,
                namespace: str) -> None:
    game = get_game(game_id)
    wins: dict[tuple[int, int], list[float]] = {b: [] for b in budgets}
    cpus: dict[tuple[int, int], list[float]] = {b: [] for b in budgets}
    for i in range(first, first + pairs):
        for budget in budgets:
            cpu: list[float] = []
            depths: list[int] = []
            strong = strong_at(budget[0], budget[1], cpu, depths)
            base: Callable[[State, random.Random], Move] = Baseline()
            won = 0.0
            for seat in (0, 1):
                seats = [strong, base] if seat == 0 else [base, strong]
                winners = play_from(game.new_state(), seats, random.Random(f"{namespace}:{i}"))
                won += 1.0 / len(winners) if seat in winners else 0.0
            wins[budget].append(won)
            cpus[budget] += cpu
            print(json.dumps({"game": game_id, "pair": i, "nodes": budget[0], "depth": budget[1],
                              "strong": won, "cpu": [round(c, 4) for c in cpu],
                              "depths": depths}), file=sys.stderr, flush=True)
    reference = budgets[0]
    for budget in budgets:
        w = wins[budget]
        low, high = wilson(sum(w), 2 * len(w))
        line = (f"{game_id} strong at {budget[0]} nodes, depth {budget[1]}: "
                f"{sum(w):g}/{2 * len(w)} = {sum(w) / (2 * len(w)):.1%} [{low:.1%}, {high:.1%}]; "
                f"CPU per decision {quantiles(cpus[budget])}")
        if budget != reference:
            diff = [a - b for a, b in zip(w, wins[reference], strict=True)]
            mean, lo, hi = bootstrap(diff)
            line += (f"; against {reference[0]}: {mean / 2:+.1%} of games per pair "
                     f"[{lo / 2:+.1%}, {hi / 2:+.1%}]")
        print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append")
    parser.add_argument("--part", choices=("time", "versus"))
    parser.add_argument("--nodes", default="1000,4000,16000",
                        help="budgets, comma-separated; NODES/DEPTH for a max depth other than 8")
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--pairs", type=int, default=60)
    parser.add_argument("--first", type=int, default=0, help="first pair")
    parser.add_argument("--namespace", default="tune-budget6")
    parser.add_argument("--quick", action="store_true",
                        help="a few seconds: --part time, Tait's Senet, 4 positions, budgets 250,1000")
    args = parser.parse_args()
    if args.quick:
        args.game, args.part, args.positions, args.nodes = ["senet-tait"], "time", 4, "250,1000"
    if not args.game or not args.part:
        parser.error("--game and --part are required (or --quick)")
    budgets = []
    for item in args.nodes.split(","):
        nodes, _, depth = item.partition("/")
        budgets.append((int(nodes), int(depth or 8)))
    for game_id in args.game:
        if args.part == "time":
            part_time(game_id, budgets, args.positions, args.namespace)
        else:
            part_versus(game_id, budgets, args.pairs, args.first, args.namespace)


if __name__ == "__main__":
    main()
