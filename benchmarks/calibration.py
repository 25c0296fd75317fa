"""How honest the computer's "chance to win" is: calibration over held-out games.

For every game and number of players, plays ``--games`` self-play games that the
learned evaluation was not trained on (seeds ``heldout:SEED:PLAYERS:I``; training uses
``train:...``), takes every player's predicted win chance at every ``--every``-th
action, and compares it with who won, for two evaluations side by side:

* ``learned``: :mod:`companion.ai.learned` (what the hint shows);
* ``progress``: :mod:`companion.ai.evaluate`, the softmax of progress used before.

Printed per game and player count: the expected calibration error (ECE: the mean, over
ten bins of predicted chance 0-0.1, ..., 0.9-1, of |mean predicted - share won|,
weighted by the bin's share of predictions), the Brier score (mean squared difference
between the predicted chance and the result, 1 for a win, 1/k each for a k-way shared
win, 0 otherwise, over every player of every position), the Brier score of always
1/players, and 95% intervals by bootstrap over games (``--boot`` resamples of whole
games, not positions: positions of one game are not independent), and the learned
minus the progress Brier score with its interval from the same resamples (paired: both
evaluations see the same games, so this interval is much narrower than either), and the
number of held-out games at which the two intervals would come apart (``apart at``: the
intervals narrow as one over the square root of the games, so at this gap and spread
that is ``games * ((half-width learned + half-width progress) / gap) ** 2``). Then each
learned model's reliability table by deciles. Targets: ECE <= 0.03 and the learned Brier
score below the progress one with the intervals apart.

``--oracle M`` adds what no evaluation of a position can beat, and whether the target
can be reached at all: on the first ``--oracle-games`` held-out games of each line, at
every ``--oracle-thin``-th of their positions, every player's win chance under the same
self-play players estimated by ``M`` playouts from the position (the Brier score of that
estimate, less its sampling variance, ``(mean of r**2 - q**2) / (M - 1)`` for playout
results ``r`` with mean ``q``, is an unbiased estimate of the Brier score of the true win
chance), beside the learned and progress scores on the same positions, with the paired
gaps (progress minus true chance: the most any evaluation could gain; learned minus
true chance: the room left to the learned one) and their intervals over those games.
The table's ``true apart at`` column is then the number of held-out games at which even
the true chance's interval would part from the progress heuristic's: ``apart at``'s
formula with this line's progress interval at ``--games`` games, the true chance's
interval scaled from the oracle games by its width relative to the progress one there,
and the paired gap; in brackets the same at the two ends of the gap's 95% interval.
Slow: the playouts cost ``M`` half-games a position (see docs/ai.md for the sizes used).
``--player normal`` plays the held-out games between ``normal`` computer players
instead of the self-play player (slower; casting-stick Senet most).

``--hint easy,normal,strong`` measures instead the chance the hint shows
(:func:`companion.ai.player.hint`: its first row's value, what the box and ``rules
hint`` show) on held-out self-play at each of those levels (every seat at the level;
seeds ``hint-heldout:SEED:LEVEL:PLAYERS:I``, never used to fit the map of
:mod:`companion.ai.calibrate`): at every decision with a choice, the player to act's
chance against its result, before the map (the searched value) and after it (the
chance shown); per game, player count and level the games, the decisions, the ECE (ten
bins) with its bootstrap interval before and after, the Brier scores and the CPU
seconds, then the reliability by deciles before and after (issue 32: target ECE <=
0.03 at every level; a line above it is printed MISSED). ``--records DIR`` keeps each
line's games and reads them back, so a refitted map is measured again without playing.
``--versus-games N`` adds per game and player count the line ``vs-base``: the chance
``strong``'s hint shows for itself at each of its decisions with a choice in ``N`` games
against the baseline of ``baseline.py`` (two players: pairs on the same throws with the
seats swapped, seeds ``hint-baseline:SEED:PAIR``; 3 and 4: sets with ``strong`` in each
seat once and baselines in the others, seeds ``hint-baseline:SEED:Np:SET``;
:func:`versus_records`), before and after
the map of ``strong`` (issue 32: "on `strong` against the baseline"); ``--log-pairs``
writes each pair's records on stderr as it ends.

Run: ``python benchmarks/calibration.py`` (part of ``make bench``): the first table
(about 6 minutes of CPU at the default 1000 games a line, most of it the Cretan
Labyrinth's), then the hint's table at ``easy``, ``normal`` and ``strong``, every game
and player count, ``--hint-games`` games a line (default 30; 0: none) with the
``vs-base`` lines at ``--versus-games`` (default 30): issue 32 asks ``make bench`` to
print the calibration per level and player count (about 13 minutes of CPU for the
self-play lines at 30 games, docs/ai.md, and some 10 more for the games against the
baseline; not the Cretan Labyrinth's, :data:`SLOW_BASELINE`). ``--quick``: the hint's table for the first game only, two games a line.
Nothing here fails a build.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from baseline import SLOW_BASELINE

from companion.ai import evaluate, learned
from companion.ai.player import choose
from companion.ai.train import selfplay_game, selfplay_move
from companion.rules import Game, Move, Phase, State, game_class, game_ids, get_game

BINS = 10
TARGET_ECE = 0.03


@dataclass
class Tally:
    """Per game, per model: per bin (count, sum of predictions, sum of results) and the
    sum of squared errors."""

    bins: list[list[float]]
    squared: float = 0.0
    count: int = 0

    @classmethod
    def empty(cls) -> Tally:
        return cls([[0.0, 0.0, 0.0] for _ in range(BINS)])

    def add(self, predicted: float, result: float) -> None:
        b = self.bins[min(BINS - 1, int(predicted * BINS))]
        b[0] += 1
        b[1] += predicted
        b[2] += result
        self.squared += (predicted - result) ** 2
        self.count += 1


def merged(tallies: Sequence[Tally]) -> Tally:
    out = Tally.empty()
    for t in tallies:
        for b, c in zip(out.bins, t.bins, strict=True):
            b[0] += c[0]
            b[1] += c[1]
            b[2] += c[2]
        out.squared += t.squared
        out.count += t.count
    return out


def ece(t: Tally) -> float:
    """Expected calibration error of a merged tally."""
    if not t.count:
        return 0.0
    return sum(abs(b[1] - b[2]) for b in t.bins if b[0]) / t.count


def brier(t: Tally) -> float:
    return t.squared / t.count if t.count else 0.0


def held_out(game_id: str, players: int, games: int, seed: int, every: int,
             mover: str) -> list[dict[str, Tally]]:
    """Per held-out game, a tally per model ('learned', 'progress', 'uniform')."""
    game = get_game(game_id)
    move: Callable[[State, random.Random], Move] | None = None
    if mover != "selfplay":
        def move(state: State, rng: random.Random) -> Move:
            return choose(state, mover, rng).move
    out = []
    for i in range(games):
        played = selfplay_game(game, players, random.Random(f"heldout:{seed}:{players}:{i}"),
                               0.1, every, move)
        if played is None:
            continue
        positions, result = played
        tallies = {"learned": Tally.empty(), "progress": Tally.empty(), "uniform": Tally.empty()}
        for s in positions:
            for name, values in (("learned", learned.chances(s)), ("progress", evaluate.chances(s)),
                                 ("uniform", (1 / players,) * players)):
                tally = tallies[name]
                for p in range(players):
                    tally.add(values[p], result[p])
        out.append(tallies)
    return out


def playout(state: State, rng: random.Random) -> tuple[float, ...]:
    """Every player's result of one game played on from ``state`` by the held-out games'
    self-play players."""
    state = state.search_copy()
    while state.phase is not Phase.OVER:
        if state.phase is Phase.THROW:
            spec = state.throw_spec
            assert spec is not None
            state.play(spec.draw(rng.randrange))
        else:
            state.play(selfplay_move(state, rng, 0.1))
    outcome = state.outcome
    assert outcome is not None
    return evaluate.shares(outcome, state.players)


ORACLE_SCORES = ("oracle", "learned", "progress")


def true_squared_error(total: float, squares: float, rollouts: int, result: float) -> float:
    """An unbiased estimate of ``(p - result) ** 2`` for a player whose true win chance
    ``p`` is the mean of its playout results: ``total`` and ``squares`` are the sums of
    ``rollouts`` (at least 2) independent results and of their squares (results 1, 0 or
    a shared 1/k). It is ``(q - result) ** 2`` for their mean ``q``, less the variance
    of ``q``, estimated without bias as ``(squares / rollouts - q ** 2) / (rollouts - 1)``
    (for results of 0 and 1 only, ``q (1 - q) / (rollouts - 1)``). A single estimate
    may be below 0; their mean over many positions is what counts.
    """
    q = total / rollouts
    return (q - result) ** 2 - (squares / rollouts - q * q) / (rollouts - 1)


def oracle(game: Game, players: int, games: int, seed: int, every: int, thin: int,
           rollouts: int) -> list[dict[str, float]]:
    """Per held-out game (the first ``games`` of :func:`held_out`'s), at every ``thin``-th
    position: the summed squared errors of the playout estimate (less its sampling
    variance), of the learned and of the progress chances, and the count of predictions.

    :raises ValueError: for fewer than 2 ``rollouts`` (no sampling variance to remove).
    """
    if rollouts < 2:
        raise ValueError(f"--oracle needs at least 2 playouts a position, not {rollouts}")
    out = []
    for i in range(games):
        played = selfplay_game(game, players, random.Random(f"heldout:{seed}:{players}:{i}"),
                               0.1, every)
        if played is None:
            continue
        positions, result = played
        rng = random.Random(f"oracle:{seed}:{players}:{i}")
        sums = {"oracle": 0.0, "learned": 0.0, "progress": 0.0, "count": 0.0}
        for s in positions[::thin]:
            total = [0.0] * players
            squares = [0.0] * players
            for _ in range(rollouts):
                for p, r in enumerate(playout(s, rng)):
                    total[p] += r
                    squares[p] += r * r
            learned_values, progress_values = learned.chances(s), evaluate.chances(s)
            for p in range(players):
                sums["oracle"] += true_squared_error(total[p], squares[p], rollouts, result[p])
                sums["learned"] += (learned_values[p] - result[p]) ** 2
                sums["progress"] += (progress_values[p] - result[p]) ** 2
                sums["count"] += 1
        out.append(sums)
    return out


@dataclass
class OracleLine:
    """One line's oracle figures: point Brier scores and 95% intervals over the oracle
    games (``scores``, by :data:`ORACLE_SCORES`), the paired gaps progress - oracle and
    learned - oracle (``gaps``), and the games at which the true chance's interval would
    part from the progress heuristic's (``apart``: the point and the two ends)."""

    games: int
    positions: int
    scores: dict[str, tuple[float, float, float]]
    gaps: dict[str, tuple[float, float, float]]
    apart: tuple[str, str, str]


def oracle_line(per: list[dict[str, float]], boot: int, seed: int, games: int,
                progress_span: tuple[float, float]) -> OracleLine:
    """The figures of :class:`OracleLine` from :func:`oracle`'s per-game sums, with the
    progress heuristic's Brier interval ``progress_span`` over ``games`` held-out games
    (the main table's) for the games at which the intervals part."""
    rng = random.Random(f"boot:{seed}")
    draws: dict[str, list[float]] = {name: [] for name in (*ORACLE_SCORES, "room", "reach")}
    for _ in range(boot):
        drawn = [per[rng.randrange(len(per))] for _ in per]
        count = sum(g["count"] for g in drawn)
        for name in ORACLE_SCORES:
            draws[name].append(sum(g[name] for g in drawn) / count)
        draws["reach"].append(draws["progress"][-1] - draws["oracle"][-1])
        draws["room"].append(draws["learned"][-1] - draws["oracle"][-1])
    count = sum(g["count"] for g in per)
    point = {name: sum(g[name] for g in per) / count for name in ORACLE_SCORES}
    point["reach"] = point["progress"] - point["oracle"]
    point["room"] = point["learned"] - point["oracle"]
    spans = {name: interval(values) for name, values in draws.items()}
    # The true chance's interval at the main table's games: the progress interval there,
    # times how much wider the true chance's is than the progress one on the oracle games.
    ratio = (spans["oracle"][1] - spans["oracle"][0]) / max(1e-12, spans["progress"][1] - spans["progress"][0])
    width = ratio * (progress_span[1] - progress_span[0])
    true_span = (0.0, width)
    apart = tuple(apart_at(games, gap, true_span, progress_span)
                  for gap in (point["reach"], spans["reach"][1], spans["reach"][0]))
    return OracleLine(
        len(per), int(count),
        {name: (point[name], *spans[name]) for name in ORACLE_SCORES},
        {name: (point[name], *spans[name]) for name in ("reach", "room")},
        (apart[0], apart[1], apart[2]),
    )


def apart_at(games: int, gap: float, low: tuple[float, float], high: tuple[float, float]) -> str:
    """The held-out games at which the interval ``low`` (of the lower score) and ``high``
    would part, if their widths shrink as one over the square root of the games."""
    if gap <= 0:
        return "never"
    half = (low[1] - low[0]) / 2 + (high[1] - high[0]) / 2
    return f"{games * (half / gap) ** 2:,.0f}"


def hint_selfplay(game_id: str, players: int, games: int, seed: int, level: str,
                  records: Path | None = None) -> list[tuple[Tally, Tally]]:
    """Per held-out game of self-play at ``level`` (every seat; seeds
    ``hint-heldout:SEED:LEVEL:PLAYERS:I``, never used in training or tuning), a tally of
    the chance the hint shows for the player to act at every decision with a choice
    against that player's result (1 won, 1/k of a k-way shared win, 0 lost): before the
    map (the searched value of the hint's first row) and after it (that value through
    :func:`companion.ai.calibrate.chance`, what :func:`companion.ai.player.hint` shows).
    The map changes no move, so both come from the same games. ``records``: a folder
    where each line's games are kept (and read back instead of played again)."""
    from companion.ai.calibrate_fit import Record, selfplay

    cached = records / f"held-{game_id}-{players}-{level}-{seed}-{games}.json" if records else None
    played: list[Record]
    if cached is not None and cached.exists():
        played = [([(int(p), float(v)) for p, v in s], r)
                  for s, r in json.loads(cached.read_text("utf-8"))["records"]]
    else:
        played = selfplay(game_id, players, level, f"hint-heldout:{seed}:{level}:{players}", games,
                          noise_label=f"hint-heldout-noise:{seed}:{level}:{players}")
        if cached is not None:
            cached.parent.mkdir(parents=True, exist_ok=True)
            cached.write_text(json.dumps({"records": played}), "utf-8")
    return tallied(game_id, players, level, played)


def tallied(game_id: str, players: int, level: str,
            played: Sequence[tuple[list[tuple[int, float]], list[float]]]) -> list[tuple[Tally, Tally]]:
    """Per recorded game (:data:`companion.ai.calibrate_fit.Record`: the player to act
    and the hint's searched value at each recorded decision, every player's result), a
    tally before the map (the value, clipped to 0..1) and after it (through
    :func:`companion.ai.calibrate.chance` of ``level``)."""
    from companion.ai.calibrate import chance

    out = []
    for shown, result in played:
        before, after = Tally.empty(), Tally.empty()
        for p, value in shown:
            raw = min(1.0, max(0.0, value))
            before.add(raw, result[p])
            after.add(chance(game_id, players, level, raw), result[p])
        out.append((before, after))
    return out


def versus_records(game_id: str, pairs: int, seed: int, log: bool = False,
                   players: int = 2) -> list[tuple[list[tuple[int, float]], list[float]]]:
    """``pairs`` pairs of two-player games of ``strong`` against the baseline of
    ``benchmarks/baseline.py`` (the depth-2 expectimax that searches the opponent's
    reply; ``ai_strength.py --part versus`` plays the same opponent), the seats swapped
    in the second game of a pair and both games drawing their throws from
    ``random.Random(f"hint-baseline:{seed}:{pair}")`` (a namespace of its own, never used
    in training or tuning; neither player draws from it). At 3 or 4 ``players``: sets of
    ``players`` games, ``strong`` in each seat once and a baseline in every other, all
    drawing from ``random.Random(f"hint-baseline:{seed}:{players}p:{set}")``. A record per game, as
    :func:`companion.ai.calibrate_fit.selfplay` makes them: at every decision of
    ``strong`` with a choice (not in a solved ending, :func:`companion.ai.race.covers`)
    strong's seat and the searched value of the hint's first row at ``strong``
    (:func:`companion.ai.player.hint`, ``shown=False``), which is the move strong plays;
    then both players' results. A pair in which a game raises :class:`MemoryError`
    (the baseline has no budget; run under ``ulimit -v``) is left out, said on stderr.
    ``log``: a JSON line per pair on stderr as it ends (its records), so that a run cut
    short still counts."""
    if str(Path(__file__).resolve().parent) not in sys.path:
        sys.path.append(str(Path(__file__).resolve().parent))  # the sibling baseline.py
    from baseline import Baseline

    from companion.ai.player import hint
    from companion.ai.race import covers
    from companion.rules import random_action

    game = get_game(game_id)
    out: list[tuple[list[tuple[int, float]], list[float]]] = []
    label = "" if players == 2 else f"{players}p:"
    for i in range(pairs):
        pair = []
        try:
            for seat in range(players):
                base = Baseline()
                rng = random.Random(f"hint-baseline:{seed}:{label}{i}")
                state = game.new_state(players)
                shown: list[tuple[int, float]] = []
                while state.outcome is None:
                    if state.phase is Phase.THROW:
                        state.apply(random_action(state, rng.randrange))
                    elif len(state.legal_moves()) == 1:
                        state.apply(state.legal_moves()[0])
                    elif state.current_player == seat:
                        found = hint(state, "strong", shown=False)
                        if not covers(state):
                            shown.append((seat, found.value))
                        state.apply(found.move)
                    else:
                        state.apply(base(state))
                winners = state.outcome.winners
                pair.append((shown, [1 / len(winners) if p in winners else 0.0
                                     for p in range(players)]))
        except MemoryError:
            print(json.dumps({"game": game_id, "pair": i, "failed": "MemoryError"}),
                  file=sys.stderr, flush=True)
            continue
        out.extend(pair)
        if log:
            print(json.dumps({"game": game_id, "pair": i, "records": pair}), file=sys.stderr,
                  flush=True)
    return out


def hint_versus(game_id: str, games: int, seed: int, records: Path | None = None,
                log: bool = False, players: int = 2) -> list[tuple[Tally, Tally]]:
    """Per game of :func:`versus_records` (``games`` rounded up to whole pairs, or sets
    of ``players`` games), the tallies of :func:`tallied` at ``strong``: the chance
    strong's hint shows for itself against its result. ``records``: as
    :func:`hint_selfplay`'s (a file ``versus-GAME-SEED-GAMES.json``, at 3 or 4 players
    ``versus-GAME-Np-SEED-GAMES.json``)."""
    pairs = -(-games // players)
    name = game_id if players == 2 else f"{game_id}-{players}p"
    cached = records / f"versus-{name}-{seed}-{players * pairs}.json" if records else None
    played: list[tuple[list[tuple[int, float]], list[float]]]
    if cached is not None and cached.exists():
        played = [([(int(p), float(v)) for p, v in s], r)
                  for s, r in json.loads(cached.read_text("utf-8"))["records"]]
    else:
        played = versus_records(game_id, pairs, seed, log, players)
        if cached is not None:
            cached.parent.mkdir(parents=True, exist_ok=True)
            cached.write_text(json.dumps({"records": played}), "utf-8")
    return tallied(game_id, players, "strong", played)


def reliability(t: Tally) -> str:
    """A tally's deciles: mean shown / share won (decisions), ``-`` for an empty one."""
    return " ".join(f"{b[1] / b[0]:.2f}/{b[2] / b[0]:.2f}({int(b[0])})" if b[0] else "-"
                    for b in t.bins)


def hint_table(levels: list[str], game_list: list[str], games: int, seed: int, boot: int,
               records: Path | None = None, versus: int = 0, log: bool = False,
               no_versus: frozenset[str] = frozenset(), counts: Sequence[int] | None = None) -> None:
    """Print the hint's calibration per game, player count and level (``--hint``; with
    ``counts`` only those player counts: ``--players``), before
    and after the map of :mod:`companion.ai.calibrate`; with ``versus`` games (rounded
    up to pairs, or sets of as many games as players) also a line ``vs-base`` per game
    and player count: ``strong``'s own chance in games against the baseline
    (:func:`hint_versus`; at 3 and 4 players ``strong`` in one seat, the baseline in the
    others; ``log``: its pairs on stderr as they end)."""
    began = time.process_time()
    print("Calibration of the hint's chance (companion.ai.player.hint: its first row, for the "
          "player to act,")
    print(f"at every decision with a choice) over {games} held-out self-play games per line at "
          "each level (every seat")
    print(f"at that level); before the map (the searched value) and after it (the chance "
          f"shown); ECE over {BINS} bins,")
    print(f"95% interval by bootstrap over games ({boot}); target ECE <= {TARGET_ECE}.")
    if versus:
        print(f"vs-base: strong's own chance (its hint at strong) at its decisions in {versus} "
              "games against the baseline per game and player count (two players: pairs on "
              f"the same throws, seeds hint-baseline:{seed}:PAIR; 3 and 4: sets with strong in "
              f"each seat once, baselines in the others, seeds hint-baseline:{seed}:Np:SET).")
    print(f"{'game':<18} {'n':>1} {'level':<7} {'games':>5} {'decisions':>9}  "
          f"{'ECE before':>20}  {'ECE after':>20}  {'Brier b/a':>11}  {'CPU s':>6}  verdict")
    rows = []
    for game_id in game_list:
        cls = game_class(game_id)
        for players in range(cls.min_players, cls.max_players + 1):
            if counts and players not in counts:
                continue
            lines = [(level, level) for level in levels]
            if versus and game_id in no_versus:
                print(f"{game_id:<18} {players:>1} vs-base not played in this run (the "
                      "baseline's decisions take up to hundreds of CPU seconds here; --hint "
                      f"strong --versus-games N --game {game_id} plays it)", flush=True)
            elif versus:
                lines.append(("strong", "vs-base"))
            for level, label in lines:
                start = time.process_time()
                per_game = (hint_versus(game_id, versus, seed, records, log, players)
                            if label == "vs-base"
                            else hint_selfplay(game_id, players, games, seed, level, records))
                cells = []
                for k in (0, 1):
                    whole = merged([g[k] for g in per_game])
                    rng = random.Random(f"boot:{seed}")
                    eces = [ece(merged([per_game[rng.randrange(len(per_game))][k] for _ in per_game]))
                            for _ in range(boot)]
                    low, high = interval(eces)
                    cells.append((whole, ece(whole), low, high))
                value = cells[1][1]
                verdict = "meets" if value <= TARGET_ECE else "MISSED"
                text = "  ".join(f"{f'{v:.3f} [{lo:.3f},{hi:.3f}]':>20}" for _t, v, lo, hi in cells)
                print(f"{game_id:<18} {players:>1} {label:<7} {len(per_game):>5} "
                      f"{cells[0][0].count:>9}  {text}  "
                      f"{brier(cells[0][0]):.3f}/{brier(cells[1][0]):.3f}  "
                      f"{time.process_time() - start:>6.1f}  ECE {verdict}", flush=True)
                rows.append((game_id, players, label, cells[0][0], cells[1][0]))
    print()
    print("Reliability of the hint's chance by deciles: mean shown / share won (decisions), "
          "before and after the map")
    for game_id, players, level, before, after in rows:
        print(f"{game_id:<18} {players} {level:<7} before {reliability(before)}")
        print(f"{game_id:<18} {players} {level:<7} after  {reliability(after)}")
    print(f"({time.process_time() - began:.0f} s of CPU)")


def interval(values: list[float]) -> tuple[float, float]:
    values = sorted(values)
    return values[int(0.025 * len(values))], values[min(len(values) - 1, int(0.975 * len(values)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, metavar="N",
                        help="held-out games per game and player count (default 1000)")
    parser.add_argument("--every", type=int, default=5, metavar="K",
                        help="a position every K actions (default 5)")
    parser.add_argument("--boot", type=int, default=500, help="bootstrap resamples (default 500)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--player", default="selfplay",
                        help="who plays the held-out games: selfplay (default) or a level")
    parser.add_argument("--game", action="append", default=None, metavar="ID")
    parser.add_argument("--oracle", type=int, default=0, metavar="M",
                        help="also the true win chance's Brier score by M playouts a position "
                             "(selfplay only; slow)")
    parser.add_argument("--oracle-games", type=int, default=20, metavar="G",
                        help="held-out games per line for --oracle (default 20)")
    parser.add_argument("--oracle-thin", type=int, default=1, metavar="T",
                        help="--oracle at every T-th of those games' positions (default 1)")
    parser.add_argument("--hint", default="", metavar="LEVELS",
                        help="instead: the calibration of the hint's chance on self-play at each "
                        "of these levels (comma-separated, e.g. easy,normal,strong), --games "
                        "games a line")
    parser.add_argument("--records", default=None, metavar="DIR",
                        help="--hint: keep each line's games in DIR and read them back instead "
                        "of playing them again")
    parser.add_argument("--versus-games", type=int, default=None, metavar="N",
                        help="the hint's table: also strong's own chance in N games against the "
                        "baseline per game and player count (line vs-base; default 30 without "
                        "--hint, 0 with it)")
    parser.add_argument("--hint-games", type=int, default=30, metavar="N",
                        help="without --hint: the hint's table after the first, at easy, normal "
                        "and strong, N games a line (default 30; 0: none)")
    parser.add_argument("--players", action="append", type=int, default=None, metavar="N",
                        help="--hint: only this number of players (repeatable; default every "
                        "count the game allows)")
    parser.add_argument("--log-pairs", action="store_true",
                        help="the vs-base line: a JSON line per pair on stderr as it ends")
    parser.add_argument("--quick", action="store_true", help="20 games, 200 resamples (a sanity run)")
    args = parser.parse_args()
    if args.quick:
        args.games, args.boot = 20, 200
    records = Path(args.records) if args.records else None
    if args.hint:
        hint_table([v.strip() for v in args.hint.split(",") if v.strip()], args.game or game_ids(),
                   2 if args.quick else args.games, args.seed, args.boot, records,
                   2 if args.quick and args.versus_games else args.versus_games or 0,
                   args.log_pairs, counts=args.players)
        return
    calibration_table(args)
    if args.hint_games:
        # the hint's table too, as issue 32's closing asks of `make bench` (--quick: the
        # first game only, two games a line)
        print()
        hint_table(["easy", "normal", "strong"], (args.game or game_ids())[:1 if args.quick else None],
                   2 if args.quick else args.hint_games, args.seed, args.boot, records,
                   2 if args.quick else (30 if args.versus_games is None else args.versus_games),
                   args.log_pairs, SLOW_BASELINE)


def calibration_table(args: argparse.Namespace) -> None:
    """Print the learned evaluation's and the progress heuristic's calibration on
    held-out games (the module's first table)."""
    began = time.process_time()
    print(f"Calibration over {args.games} held-out games per line ({args.player}), a position "
          f"every {args.every} actions; 95% intervals by bootstrap over games ({args.boot}).")
    if args.oracle:
        print(f"With the true win chance by {args.oracle} playouts a position, every "
              f"{args.oracle_thin * args.every} actions of the first {args.oracle_games} held-out "
              f"games of each line, on a line of its own below the line's: Brier scores and the "
              f"paired gaps with 95% intervals over those games; 'reach': progress - true chance "
              f"(the most any evaluation could gain), 'room': learned - true chance (what the "
              f"learned one could).")
    print(f"{'game':<18} {'n':>1} {'positions':>9}  {'ECE learned':>20} {'ECE progress':>20}  "
          f"{'Brier learned':>20} {'Brier progress':>20} {'1/n':>6}  {'difference (paired)':>24}  "
          f"{'apart at':>9}  {'true apart at':>24}  verdict")
    tables = []
    for game_id in args.game or game_ids():
        cls = game_class(game_id)
        for players in range(cls.min_players, cls.max_players + 1):
            per_game = held_out(game_id, players, args.games, args.seed, args.every, args.player)
            rng = random.Random(f"boot:{args.seed}")
            boots: dict[str, list[list[float]]] = {"learned": [[], []], "progress": [[], []]}
            paired: list[float] = []
            for _ in range(args.boot):
                pick = [per_game[rng.randrange(len(per_game))] for _ in per_game]
                for name, lists in boots.items():
                    t = merged([g[name] for g in pick])
                    lists[0].append(ece(t))
                    lists[1].append(brier(t))
                paired.append(boots["learned"][1][-1] - boots["progress"][1][-1])
            whole = {name: merged([g[name] for g in per_game]) for name in ("learned", "progress", "uniform")}
            cells = []
            for k in (0, 1):
                for name in ("learned", "progress"):
                    value = (ece if k == 0 else brier)(whole[name])
                    low, high = interval(boots[name][k])
                    cells.append((value, low, high))
            ok_ece = cells[0][0] <= TARGET_ECE
            apart = cells[2][2] < cells[3][1]
            verdict = (f"ECE {'meets' if ok_ece else 'ABOVE'}; Brier "
                       f"{'lower, apart' if apart else ('lower, overlapping' if cells[2][0] < cells[3][0] else 'NOT LOWER')}")
            text = "  ".join(f"{v:.3f} [{lo:.3f},{hi:.3f}]" for v, lo, hi in cells[:2])
            text2 = "  ".join(f"{v:.3f} [{lo:.3f},{hi:.3f}]" for v, lo, hi in cells[2:])
            d_low, d_high = interval(paired)
            needed = apart_at(len(per_game), cells[3][0] - cells[2][0], (cells[2][1], cells[2][2]),
                              (cells[3][1], cells[3][2]))
            true_needed = "-"
            line: OracleLine | None = None
            if args.oracle and args.player == "selfplay":
                line = oracle_line(oracle(get_game(game_id), players, args.oracle_games, args.seed,
                                          args.every, args.oracle_thin, args.oracle),
                                   args.boot, args.seed, len(per_game), (cells[3][1], cells[3][2]))
                true_needed = f"{line.apart[0]} [{line.apart[1]}-{line.apart[2]}]"
            print(f"{game_id:<18} {players:>1} {whole['learned'].count // players:>9}  {text}  {text2} "
                  f"{brier(whole['uniform']):>6.3f}  {cells[2][0] - cells[3][0]:+.4f} "
                  f"[{d_low:+.4f},{d_high:+.4f}]  {needed:>9}  {true_needed:>24}  {verdict}", flush=True)
            if line is not None:
                text = "  ".join(f"{name} {v:.3f} [{lo:.3f},{hi:.3f}]"
                                 for name, (v, lo, hi) in line.scores.items())
                gaps = "  ".join(f"{name} {v:+.4f} [{lo:+.4f},{hi:+.4f}]"
                                 for name, (v, lo, hi) in line.gaps.items())
                print(f"{game_id:<18} {players}  {line.games} games {line.positions // players} "
                      f"positions  {text}  {gaps}", flush=True)
            tables.append((game_id, players, whole["learned"]))
    print()
    print("Reliability of the learned evaluation by deciles of predicted chance: "
          "mean predicted / share won (count)")
    for game_id, players, t in tables:
        row = " ".join(f"{b[1] / b[0]:.2f}/{b[2] / b[0]:.2f}({int(b[0])})" if b[0] else "-"
                       for b in t.bins)
        print(f"{game_id:<18} {players}  {row}")
    print(f"({time.process_time() - began:.0f} s of CPU)")


if __name__ == "__main__":
    main()
