"""How long Cretan Labyrinth games last: random play and a simple goal-seeking player.

Not a test: prints, for 2-4 players, the share of games won by escaping the labyrinth
(rather than by the round limit) and the rounds played, and the actions per second of
random play. It is the evidence behind the default ``round-limit`` (see
``docs/rules/cretan-labyrinth.md``).

    .venv/bin/python benchmarks/cretan_playouts.py [--games N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from companion.rules import Move, Phase
from companion.rules.cretan_labyrinth import CretanLabyrinth, CretanLabyrinthState


def target(state: CretanLabyrinthState, p: int) -> list[int]:
    """The nodes player ``p`` wants to reach next."""
    board = state.game.board
    colours = state.game.decks.colours
    if len(state.diamonds[p]) == len(colours):
        if state.keys[p]:
            return [state.own_gateway(p)]
        keeper = state.keeper()
        if keeper is not None:
            return [state.pos[keeper]]
        return [board.palace]
    missing = [c for c in colours if c not in state.diamonds[p]]
    return [n for n, c in enumerate(board.colours) if c in missing]


def goal_seeking(state: CretanLabyrinthState, moves: list[Move], rng: random.Random) -> Move:
    """Prefer averting, attacking, taking the key; stop or fly nearest to the target."""
    board = state.game.board
    for kind in ("take-key", "attack", "avert"):
        for m in moves:
            if m.kind == kind:
                return m
    if moves[0].kind in ("move", "fly"):
        wanted = target(state, state.current_player)

        def cost(m: Move) -> int:
            assert isinstance(m.dst, str)
            n = board.node(m.dst)
            return min(board.gap(n, t) for t in wanted)

        best = min(cost(m) for m in moves)
        return rng.choice([m for m in moves if cost(m) == best])
    return rng.choice(moves)


def play(players: int, seed: int, smart: bool, round_limit: int) -> tuple[int, bool, int]:
    """Rounds played, whether someone escaped, actions taken."""
    rng = random.Random(seed)
    state = CretanLabyrinth(round_limit=round_limit).new_state(players)
    actions = 0
    while state.phase is not Phase.OVER:
        actions += 1
        if state.phase is Phase.THROW:
            spec = state.throw_spec
            assert spec is not None
            state.push(spec.draw(rng.randrange))
        else:
            moves = state.legal_moves()
            state.push(goal_seeking(state, moves, rng) if smart else rng.choice(moves))
    outcome = state.outcome
    assert outcome is not None
    escaped = outcome.reason.startswith("back at")
    return -(-state.turns // players), escaped, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games per line")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'player':<13} {'players':>7} {'escaped':>8} {'rounds median':>14} {'rounds max':>10} {'actions/s':>10}")
    for smart in (True, False):
        for players in (2, 3, 4):
            rounds, escapes, total = [], 0, 0
            start = time.perf_counter()
            for g in range(args.games):
                r, escaped, actions = play(players, args.seed + g, smart, round_limit=0 if smart else 300)
                rounds.append(r)
                escapes += escaped
                total += actions
            rate = total / (time.perf_counter() - start)
            label = "goal-seeking" if smart else "random"
            print(
                f"{label:<13} {players:>7} {escapes / args.games:>8.0%} "
                f"{statistics.median(rounds):>14.0f} {max(rounds):>10} {rate:>10,.0f}"
            )


if __name__ == "__main__":
    main()
