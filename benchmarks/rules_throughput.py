"""Rules throughput: random playouts of every registered game, each beside royalur's.

Run with ``make bench``. For each game and player count: random legal moves and fair
throws until the game ends, repeated for a fixed time, through the unchecked ``push``
(as a playout engine would), through the checked ``apply``, and in search mode
(``search_copy`` + ``play``: no history, no events returned, as ``companion.ai``
plays). Beside each game the same loop runs on the floor, the ``royalur`` package (a
pure-Python Royal Game of Ur engine, Finkel rules: roll, list the moves, make one):
the floor and the three modes take turns in short slices (8 of a quarter second each
by default), so every ratio compares figures measured side by side under the same
machine load.

Two figures per row, because neither is the same work in every game:

* moves per second (a "move" is a Move other than an explicit pass, as royalur counts
  only the moves it makes). A move is a different amount of work in each game: one
  piece by one die in the Labyrinth, one plinth by a combination of stick values in
  casting-stick Senet (with the search for values that can no longer be used), a
  choice of where to stop after a walk over the board in the Cretan Labyrinth;
* games per second: whole games from the first throw to the winner, a different length
  in each game (a Cretan game runs to hundreds of turns). Compared with royalur's games
  per second it says how long a whole game takes here against a whole game of Ur.

Each game object first plays ``--warmup`` seconds untimed: the engines keep what recurs
(events built once, the Cretan Labyrinth's walks), as a companion that has been on for
a while has them; the figures are for that steady state.

Targets: every game at least 1.5x royalur's moves per second through ``push``;
``senet-tait`` at least 5x. Nothing here passes or fails a build: the figures depend
on the machine; only ratios measured in the same run are comparable.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from companion.rules import PASS, Game, Phase, State, game_class, game_ids, get_game

TARGET_ALL = 1.5
"""Every game's push moves per second over royalur's (the search issue)."""
TARGET_TAIT = 5.0
"""senet-tait's push moves per second over royalur's (the foundation issue)."""

MODES = ("push", "apply", "search")


@dataclass
class Tally:
    """Moves, whole games and seconds of play added up over slices of one measurement."""

    moves: int = 0
    games: int = 0
    seconds: float = 0.0

    def per_second(self) -> tuple[float, float]:
        """(moves per second, games per second)."""
        return self.moves / self.seconds, self.games / self.seconds


def playout_slice(
    make_state: Callable[[], State], mode: str, seconds: float, rng: random.Random, tally: Tally
) -> None:
    """Random playouts, whole games, for about ``seconds``; added to ``tally``.

    ``mode``: ``push`` (unchecked), ``apply`` (checked, the companion's way) or
    ``search`` (``search_copy`` of the new state, then ``play``)."""
    randrange = rng.randrange
    moves = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = make_state()
        if mode == "search":
            state = state.search_copy()
        act: Callable[..., object] = {
            "push": state.push, "apply": state.apply, "search": state.play
        }[mode]
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
    tally.moves += moves
    tally.games += games
    tally.seconds += time.perf_counter() - start


def royalur_slice(seconds: float, rng: random.Random, tally: Tally) -> None:
    """The floor: the same loop on royalur (Finkel rules: roll, list the moves, make a
    random one), whole games for about ``seconds``; added to ``tally``."""
    from royalur import Game  # the baseline engine, installed by the dev extra

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
    tally.moves += moves
    tally.games += games
    tally.seconds += time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="time per measurement, in seconds (taken in --slices slices)")
    parser.add_argument("--slices", type=int, default=8,
                        help="slices each measurement is taken in, the floor's and the "
                        "game's modes in turn (default 8)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--warmup", type=float, default=1.0,
                        help="untimed play per game before measuring, in seconds")
    parser.add_argument("--game", action="append", default=None, metavar="ID",
                        help="measure only this game (repeatable; default: every game)")
    args = parser.parse_args()

    print("Floor: royalur (Finkel rules), the same random-playout loop, measured beside")
    print("each game: the floor and the game's modes take turns in short slices, so a")
    print("busy machine slows them alike. A 'move' is a different amount of work in each")
    print("game (see this file's docstring); games/s compares whole games.")
    print()
    head = (f"{'game':<22} {'mode':<7} {'moves/s':>9} {'x floor':>8} "
            f"{'games/s':>9} {'x floor':>8}")
    print(head)
    verdicts: list[str] = []
    piece = args.seconds / args.slices
    for game_id in args.game or game_ids():
        cls = game_class(game_id)
        for players in sorted({cls.min_players, cls.max_players}):
            game = get_game(game_id)
            label = game_id if cls.min_players == cls.max_players else f"{game_id} ({players}p)"

            def make(game: Game = game, players: int = players) -> State:
                return game.new_state(players)

            playout_slice(make, "push", args.warmup, random.Random(args.seed + 1000), Tally())
            random.seed(args.seed)  # royalur rolls with the random module
            floor = Tally()
            floor_rng = random.Random(args.seed)
            tallies = {mode: Tally() for mode in MODES}
            rngs = {mode: random.Random(args.seed) for mode in MODES}
            for _ in range(args.slices):
                royalur_slice(piece, floor_rng, floor)
                for mode in MODES:
                    playout_slice(make, mode, piece, rngs[mode], tallies[mode])
            floor_moves, floor_games = floor.per_second()
            print(f"{'  royalur (floor)':<22} {'':<7} {floor_moves:>9,.0f} {'':>8} {floor_games:>9,.1f}")
            for mode in MODES:
                moves, games = tallies[mode].per_second()
                ratio = moves / floor_moves
                print(f"{label:<22} {mode:<7} {moves:>9,.0f} {ratio:>7.2f}x "
                      f"{games:>9,.1f} {games / floor_games:>7.2f}x")
                if mode == "push":
                    target = TARGET_TAIT if game_id == "senet-tait" else TARGET_ALL
                    verdict = "meets" if ratio >= target else "BELOW"
                    verdicts.append(f"{label}: push {ratio:.2f}x royalur ({verdict} the {target:g}x target)")
    print()
    for line in verdicts:
        print(line)


if __name__ == "__main__":
    main()
