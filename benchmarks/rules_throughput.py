"""Rules throughput: random playouts of every game and player count, beside royalur's.

    .venv/bin/python benchmarks/rules_throughput.py [--quick] [--rounds N] [--cold N]

For each game and every player count it allows: random legal moves and fair throws,
whole games one after the other, through the unchecked ``push`` (as a playout engine
would), through the checked ``apply``, and in search mode (``search_copy`` + ``play``:
no history, no events returned, as ``companion.ai`` plays). The floor is the same loop
on the ``royalur`` package (a pure-Python Royal Game of Ur engine, Finkel rules: roll,
list the moves, make one). The method is benchmarks/measure.py's: CPU time of this
thread, floor and modes interleaved in short slices (floor, push, apply, search,
search, apply, push, floor), one ratio per round, min / median / spread printed.

The ratio is moves per CPU second over royalur's. A "move" is a Move other than an
explicit pass (royalur counts only the moves it makes); it is a different amount of
work in each game: one piece by one die in the Labyrinth, one plinth by a combination
of stick values in casting-stick Senet, a choice of where to stop after a walk over
the board in the Cretan Labyrinth. ``moves/game`` (seeded games, so the same in every
run) says how long a whole game is here against a game of Ur.

* **warm**: each game object first plays ``--warmup`` CPU seconds untimed (the engines
  keep what recurs: events built once, the Cretan Labyrinth's walks), as a companion
  that has been on for a while has them;
* **cold**: ``--cold`` fresh processes per game and player count, each measuring
  ``push`` against royalur from its very first game (the game object made, untimed,
  as the companion makes one when a game is set up): what a player gets right after
  start-up. The game object's construction is printed beside it in CPU ms.

Targets: every game at least 1.5x royalur through ``push``, warm and cold; ``senet-tait``
at least 5x. Nothing here passes or fails a build: only ratios measured in the same run
are comparable.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Callable

from measure import Work, clock, emit, interleave, ratio_line, run_child

from companion.rules import PASS, Game, Phase, State, game_class, game_ids, get_game

TARGET_ALL = 1.5
"""Every game's push moves per second over royalur's (the search issue)."""
TARGET_TAIT = 5.0
"""senet-tait's push moves per second over royalur's (the foundation issue)."""

MODES = ("push", "apply", "search")
CHECK_EVERY = 8
"""Actions between two looks at the clock."""


class Playout:
    """Random games of one game, one after the other, played in slices of CPU time:
    a game left unfinished when a slice ends goes on in the next."""

    def __init__(self, game: Game, players: int, mode: str, seed: int) -> None:
        self.game, self.players, self.mode = game, players, mode
        self.rng = random.Random(seed)
        self.state = self._new()
        self.games = 0

    def _new(self) -> State:
        state = self.game.new_state(self.players)
        return state.search_copy() if self.mode == "search" else state

    def __call__(self, budget: float) -> float:
        """Play for about ``budget`` CPU seconds; returns the moves made (not passes)."""
        randrange = self.rng.randrange
        end = clock() + budget
        moves = 0
        state = self.state
        act: Callable[..., object] = {"push": state.push, "apply": state.apply, "search": state.play}[self.mode]
        while True:
            for _ in range(CHECK_EVERY):
                phase = state.phase
                if phase is Phase.THROW:
                    spec = state.throw_spec
                    assert spec is not None
                    act(spec.draw(randrange))
                elif phase is Phase.OVER:
                    self.games += 1
                    state = self.state = self._new()
                    act = {"push": state.push, "apply": state.apply, "search": state.play}[self.mode]
                else:
                    legal = state.legal_moves()
                    move = legal[randrange(len(legal))]
                    act(move)
                    if move is not PASS:
                        moves += 1
            if clock() >= end:
                return moves


class RoyalurPlayout:
    """The floor: the same loop on royalur (roll, list the moves, make a random one)."""

    def __init__(self, seed: int) -> None:
        from royalur import Game as UrGame  # the baseline engine, installed by the dev extra

        random.seed(seed)  # royalur rolls with the random module
        self.make = UrGame.create_finkel
        self.rng = random.Random(seed)
        self.game = self.make()
        self.games = 0

    def __call__(self, budget: float) -> float:
        end = clock() + budget
        moves = 0
        game = self.game
        while True:
            for _ in range(CHECK_EVERY):
                if game.is_finished():
                    self.games += 1
                    game = self.game = self.make()
                elif game.is_waiting_for_roll():
                    game.roll_dice()
                else:
                    available = game.find_available_moves()
                    game.make_move(available[self.rng.randrange(len(available))])
                    moves += 1
            if clock() >= end:
                return moves


def moves_per_game(game: Game, players: int, games: int, seed: int) -> float:
    """Mean moves (not passes) of ``games`` seeded random games: the same in every run."""
    playout = Playout(game, players, "push", seed)
    total = 0.0
    while playout.games < games:
        total += playout(0.0)
    return total / playout.games


def ur_moves_per_game(games: int, seed: int) -> float:
    floor = RoyalurPlayout(seed)
    total = 0.0
    while floor.games < games:
        total += floor(0.0)
    return total / floor.games


def configs(only: list[str] | None) -> list[tuple[str, int]]:
    """(game, players) for every game and every player count it allows."""
    out = []
    for game_id in only or game_ids():
        cls = game_class(game_id)
        out += [(game_id, n) for n in range(cls.min_players, cls.max_players + 1)]
    return out


def label(game_id: str, players: int) -> str:
    cls = game_class(game_id)
    return game_id if cls.min_players == cls.max_players else f"{game_id} ({players}p)"


def cold_child(game_id: str, players: int, rounds: int, slice_s: float, seed: int) -> None:
    """In a fresh process: the game made (timed), then push against royalur from the
    first game; prints the per-round ratios as JSON."""
    floor = RoyalurPlayout(seed)
    start = clock()
    game = get_game(game_id)
    made = clock() - start
    result = interleave(floor, {"push": Playout(game, players, "push", seed)}, rounds, slice_s)
    emit({"made": made, "ratios": result.ratios["push"]})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="a few seconds in all: two games, few rounds, one cold process (CI sanity)")
    parser.add_argument("--rounds", type=int, default=12, help="warm rounds per game (default 12)")
    parser.add_argument("--slice", type=float, default=0.05,
                        help="CPU seconds per slice (default 0.05)")
    parser.add_argument("--cold", type=int, default=5,
                        help="fresh processes per game and player count (default 5)")
    parser.add_argument("--cold-rounds", type=int, default=6,
                        help="rounds in each fresh process (default 6: its first ~0.6 CPU s)")
    parser.add_argument("--warmup", type=float, default=1.0,
                        help="untimed play per game before the warm rounds, in CPU seconds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", action="append", default=None, metavar="ID",
                        help="measure only this game (repeatable; default: every game)")
    parser.add_argument("--cold-child", nargs=2, metavar=("GAME", "PLAYERS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.cold_child:
        cold_child(args.cold_child[0], int(args.cold_child[1]), args.cold_rounds, args.slice, args.seed)
        return
    todo = configs(args.game)
    if args.quick:
        todo = [(g, n) for g, n in todo if n == game_class(g).min_players][:2]
        args.rounds, args.slice, args.warmup, args.cold, args.cold_rounds = 2, 0.02, 0.05, 1, 2

    print("Floor: royalur (Finkel rules), the same random-playout loop. CPU time of this")
    print("thread; floor and modes interleaved (floor, push, apply, search, search, apply,")
    print("push, floor) in slices of", f"{args.slice:g} CPU s; one ratio per round (moves/s over")
    print("the floor's). Cold: fresh processes, push from the first game.")
    ur_per_game = ur_moves_per_game(20 if args.quick else 200, args.seed)
    print(f"royalur: {ur_per_game:.0f} moves per game (seeded)")
    print()
    verdicts: list[str] = []
    for game_id, players in todo:
        name = label(game_id, players)
        game = get_game(game_id)
        per_game = moves_per_game(game, players, 3 if args.quick else 20, args.seed + 7)
        Playout(game, players, "push", args.seed + 1000)(args.warmup)
        floor: Work = RoyalurPlayout(args.seed)
        subjects: dict[str, Work] = {mode: Playout(game, players, mode, args.seed) for mode in MODES}
        warm = interleave(floor, subjects, args.rounds, args.slice)
        print(f"{name}: {per_game:.0f} moves per game ({per_game / ur_per_game:.2f}x a game of Ur)")
        for mode in MODES:
            print(ratio_line(f"  warm {mode}", warm.ratios[mode], "x royalur"))
        cold: list[float] = []
        made: list[float] = []
        for i in range(args.cold):
            child = run_child([__file__, "--cold-child", game_id, str(players),
                               "--cold-rounds", str(args.cold_rounds), "--slice", str(args.slice),
                               "--seed", str(args.seed + i)])
            cold += child["ratios"]
            made.append(child["made"])
        print(ratio_line("  cold push", cold, "x royalur")
              + f"  (game object made in {statistics.median(made) * 1000:.1f} CPU ms)")
        target = TARGET_TAIT if game_id == "senet-tait" else TARGET_ALL
        for kind, values in (("warm", warm.ratios["push"]), ("cold", cold)):
            ratio = statistics.median(values)
            verdict = "meets" if ratio >= target else "BELOW"
            verdicts.append(f"{name}: {kind} push {ratio:.2f}x royalur ({verdict} the {target:g}x target)")
        sys.stdout.flush()
    print()
    for line in verdicts:
        print(line)


if __name__ == "__main__":
    main()
