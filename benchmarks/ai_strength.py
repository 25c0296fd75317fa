"""The computer player's strength and its time per decision, per game.

Run with ``make bench`` (``--games``, ``--versus-games`` and ``--positions`` trade time
for precision, ``--game`` picks games, ``--part`` one part). The versus part against
the baseline is most of the time: at one worker on a shared machine Tait's Senet played
300 games in 2 minutes, the Labyrinth about 13 games a minute, casting-stick Senet and
the Cretan Labyrinth slower (docs/ai.md); 300 games of each take hours. The default
run leaves the Cretan Labyrinth's games against the baseline out of the versus and
judge parts and says so (``baseline.SLOW_BASELINE``: days); ``--game`` names it to play
them. Five parts:

1. **Strength** (``--part strength``; ``--opponent`` and ``--players`` narrow it, as
   ``--opponent random --players 2 --games 200`` for the issue's "against random"
   table): for every game and number of players, the ``strong`` level in one seat
   against the floor players in all the others, seats rotating from game to game:
   ``random`` (a uniformly random legal move: the floor of all play) and ``greedy``
   (one ply: the move whose position evaluates best, no look-ahead: the floor of
   search). Prints the games played, the strong player's win rate with its 95% Wilson
   interval, the fair share (1 in the number of players) and the target: at least 95%
   against random in the Labyrinth, casting-stick Senet and the Cretan Labyrinth; in
   Tait's Senet at least 75% against random and more than the fair share against
   greedy. A shared win counts as a fraction.
2. **Against the baseline** (``--part versus``, ``--versus-games``, default 300 per
   game): ``strong`` (with the shipped evaluation) against the depth-2 expectimax of
   ``baseline.py``, which searches its own moves for the throw, the next throw and the
   opponent's reply (the module's docstring states it exactly), two-player games in
   pairs on the same throws with the seats swapped (one ``random.Random`` per pair,
   seeded ``heldout-baseline:SEED:PAIR``, a namespace no tuning has used: neither
   player draws from it, so the second game replays the first one's throws as long as
   the games go alike). Prints per game the games, strong's win rate with its 95%
   Wilson interval, the pairs won 2-0, 1-1, 0-2, the baseline's tree size per decision
   (positions created: median, p90, max) and its CPU time per decision, and whether the
   target is met: at least 60% with the interval's low end above 50%.
   ``--players N`` (3 or 4: the Labyrinth, the Cretan Labyrinth) plays rotations of N
   games on the same throws instead, ``strong`` in each seat in turn and the baseline in
   every other (seeds ``heldout-baseline:SEED:Np:ROTATION``), against the issue's
   target at N players: a win share of at least 1.5 times the fair share 1/N, the
   interval's low end above 1/N. ``--log-pairs`` writes a JSON line per game and per
   pair (or rotation) on stderr as it ends, so a run cut short still counts;
   ``--log-decisions`` one per decision of the baseline with a choice (its tree and
   CPU seconds), for games too slow to end.
   ``--versus-namespace NAME`` seeds the rounds ``NAME:SEED:PAIR`` (and
   ``NAME:SEED:Np:ROTATION``) instead: a namespace of one's own to tune on, so that
   ``heldout-baseline`` stays unseen.
   ``--versus-opponent one-turn`` plays the opponent the figures before issue 32 were
   measured against instead (:func:`one_turn_expectimax_move`: it never searches the
   reply).
3. **The level ladder** (``--part ladder``, ``--ladder-games``, default 100 per rung and
   game): ``strong`` against ``normal`` and ``normal`` against ``easy``, two-player
   games in pairs on the same throws with the seats swapped (seeds
   ``ladder:SEED:PAIR``; ``easy`` draws its noise from a generator of its own), the
   upper level's win share with its 95% Wilson interval over games and its 95% paired
   interval (bootstrap over pairs), the pairs 2-0/1-1/0-2 and the CPU seconds. Target:
   the paired interval's low end above 50% on every rung.
4. **One judge** (``--part judge``): the hint (:func:`companion.ai.player.hint` at
   ``normal``) against the review on ``--judge-positions`` midgame positions of random
   games (default 100, seeded ``7000 + SEED``; 0: none): the share where the review's
   best move at its depth (:func:`companion.ai.review.judge`: ``strong``'s ranking
   filtered, the candidates searched deeper) is the hint's (or as good), the share
   where the search at the hint's
   own depth ranks another move above it (target: never) and the share where the
   review calls the hint's move a mistake above 5 points. Then the review's **false
   mistakes**: ``--review-games`` games (default 100) of ``strong`` against the
   baseline in pairs (seeds ``heldout-review:SEED:PAIR``; ``--review-namespace`` names
   another namespace), every move of ``strong`` with a choice reviewed as
   :mod:`companion.ai.review` reviews a move; the share with an error above 5 points
   (target: at most 1%) and of at least 2 (the review's "mistake"), and the share where
   the review at the depth ``strong``'s search finished ranks another move above
   ``strong``'s (the hint's at ``strong``; target: never), the share of decisions the
   review searched deeper than ``strong`` (the rest were over its node cap), with Wilson
   intervals, the review's CPU seconds a game and the run's. ``--review-actions N`` ends
   each game after N actions (the Cretan Labyrinth's games against the baseline run
   long).
5. **Time per decision** at the default level (``normal``) over midgame positions of
   every game (a decision with more than one legal move, from the middle third of
   random games): p50, p99 and the maximum, next to the budget and to the floor, a
   one-ply search of the same positions (what ``greedy`` spends). Target: p99 at most
   50 ms on this machine; the decision is ended by the node budget, not the clock.

``--search-eval learned`` or ``--search-eval progress`` makes ``strong`` value its
search's leaves by the learned model or the progress heuristic in every game chosen, in
place of the shipped choice (:data:`companion.ai.learned.SEARCH_BY_PROGRESS`), to compare
the two on the same seeds. ``--versus-opponent strong-progress`` with ``--search-eval
learned`` plays them head to head: ``strong`` over the learned model in one seat,
``strong`` over the progress heuristic in every other, pairs (rotations) on the same
throws with the seats rotated, the learned seat's win share against the fair share with
its Wilson and paired-bootstrap intervals; ``--versus-namespace`` names the seeds
(tuning seeds, or a held-out namespace used once).

Nothing here fails a build; the figures are for the issue's closing note.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass

from baseline import CAP_EXTRA_THROWS, SLOW_BASELINE, Baseline
from measure import interleave, ratio_line, repeat_until

from companion.ai.evaluate import chances as progress_chances
from companion.ai.learned import SEARCH_BY_PROGRESS, search_chances
from companion.ai.learned import chances as learned_chances
from companion.ai.match import match, wilson
from companion.ai.player import DEFAULT_LEVEL, Player, choose, get_level
from companion.ai.search import Values, search
from companion.rules import (
    Move,
    Phase,
    State,
    game_class,
    game_ids,
    get_game,
    play_out,
    random_action,
)

TARGET_VERSUS = 0.60
"""Win rate of ``strong`` against the baseline (its interval's low end above 50%)."""

TARGET_VERSUS_SHARE = 1.5
"""At 3 and 4 players: strong's win share against baseline players in every other seat,
at least this times the fair share (1 in the players), the low end above the fair share."""

TARGET_RANDOM = {"senet-tait": 0.75}
"""Win rate against random play required of the strong level (default 0.95)."""
TARGET_P99_S = 0.050
"""p99 time per decision at the default level, in seconds."""


SEARCH_EVALS: dict[str, Callable[[State], Values]] = {
    "shipped": search_chances,
    "learned": learned_chances,
    "progress": progress_chances,
}
"""``--search-eval``: the leaves' values of ``strong``'s search: as shipped (the learned
model, the progress heuristic in the games of ``SEARCH_BY_PROGRESS``), the learned model
everywhere, or the progress heuristic everywhere."""


def strong_player(search_eval: str) -> Player:
    """``strong`` with its search's leaves valued by ``SEARCH_EVALS[search_eval]``."""
    evaluation = SEARCH_EVALS[search_eval]
    return lambda state, rng: choose(state, "strong", rng, evaluation=evaluation).move


@dataclass(frozen=True)
class Series:
    game_id: str
    players: int
    opponent: str
    games: int
    seed: int
    search_eval: str = "shipped"


def play_series(series: Series) -> tuple[float, int, float]:
    """(strong's wins, games, seconds) of one series (run in a worker process)."""
    from companion.ai.player import player

    start = time.perf_counter()
    entries = ["strong"] + [series.opponent] * (series.players - 1)
    seats = [strong_player(series.search_eval)] + [player(series.opponent)] * (series.players - 1)
    result = match(get_game(series.game_id), entries, series.games, series.seed, seats)
    return result.wins[0], result.games, time.perf_counter() - start


# ------------------------------------------- the one-turn expectimax (before issue 32)


def one_turn_values(state: State, depth: int) -> tuple[float, ...]:
    """The plain expectimax-n value of ``state`` to ``depth`` plies over the progress
    evaluation (:func:`companion.ai.evaluate.chances`): no table, no pruning, no
    budget; a forced decision is free (a ply is a throw or a real choice)."""
    if state.phase is Phase.OVER or depth <= 0:
        return progress_chances(state)
    if state.phase is Phase.THROW:
        total = [0.0] * state.players
        for throw, _p, weight in state.chance_outcomes():
            child = state.search_copy()
            child.play(throw)
            for i, v in enumerate(one_turn_values(child, depth - 1)):
                total[i] += weight * v
        return tuple(total)
    moves = state.legal_moves()
    me = state.current_player
    best: tuple[float, ...] | None = None
    for move in moves:
        child = state.search_copy()
        child.play(move)
        values = one_turn_values(child, depth if len(moves) == 1 else depth - 1)
        if best is None or values[me] > best[me]:
            best = values
    assert best is not None
    return best


def one_turn_expectimax_move(state: State, rng: random.Random) -> Move:
    """The opponent the versus figures before issue 32 were measured against (then
    called "a depth-2 expectimax"): the move with the best value of one more ply over
    the progress evaluation: the move, then the expectation over the next throw (in the
    Labyrinth the other die of the same turn instead). It never searches the opponent's
    reply. The first of equal moves."""
    moves = state.legal_moves()
    if len(moves) == 1:
        return moves[0]
    me = state.current_player
    best, best_value = moves[0], -1.0
    for move in moves:
        child = state.search_copy()
        child.play(move)
        value = one_turn_values(child, 1)[me]
        if value > best_value:
            best, best_value = move, value
    return best


@dataclass(frozen=True)
class VersusResult:
    """Strong's wins (shared wins as fractions) in ``games`` games; ``pairs``: the
    rounds of games (a pair at two players, a rotation at ``n``) by strong's wins in
    them, most first: at two players the pairs won 2-0, 1-1 (or with shares between),
    0-2; at ``n`` players ``n + 1`` counts, strong's wins in a rotation rounded down; the
    baseline's positions created and CPU seconds per decision (decisions with more
    than one legal move); the wall-clock seconds of the games; ``failed``: rounds left
    out because a game ran out of memory (a :class:`MemoryError` under ``ulimit -v``),
    not in ``games``."""

    wins: float
    games: int
    pairs: tuple[int, ...]
    nodes: list[int]
    cpu: list[float]
    seconds: float
    failed: int = 0
    scores: tuple[float, ...] = ()
    """Strong's wins in each round that counted (0 to ``players``), in round order: the
    units of the paired interval (:func:`bootstrap`)."""


def play_from(
    state: State, seats: list[Callable[[State, random.Random], Move]], rng: random.Random
) -> tuple[int, ...]:
    """The rest of a game from ``state``, as :func:`companion.ai.match.play_game`
    plays a whole one (throws drawn from ``rng``); the winning seats."""
    randrange = rng.randrange
    while state.phase is not Phase.OVER:
        if state.phase is Phase.THROW:
            spec = state.throw_spec
            assert spec is not None
            state.apply(spec.draw(randrange))
        else:
            state.apply(seats[state.current_player](state, rng))
    outcome = state.outcome
    assert outcome is not None
    return outcome.winners


VERSUS_NAMESPACE = "heldout-baseline"
"""The versus part's seeds' namespace (``--versus-namespace``): no tuning uses it."""


def versus_seed(seed: int, players: int, i: int, namespace: str = VERSUS_NAMESPACE) -> str:
    """The throws' seed of round ``i`` (a pair, or a rotation of ``players`` games) of
    the versus part: ``heldout-baseline:SEED:PAIR`` at two players (as always),
    ``heldout-baseline:SEED:Np:ROTATION`` at ``N`` players (a namespace of its own);
    ``namespace`` in place of ``heldout-baseline`` (``--versus-namespace``: tuning
    seeds, or a fresh held-out namespace)."""
    return f"{namespace}:{seed}:{i}" if players == 2 else f"{namespace}:{seed}:{players}p:{i}"


VERSUS_OPPONENTS = ("baseline", "one-turn", "strong-progress")
"""``--versus-opponent``: the baseline (:mod:`baseline`), the one-turn expectimax
(:func:`one_turn_expectimax_move`), or ``strong`` itself with its search's leaves
valued by the progress heuristic (a head-to-head of two evaluations at one search:
``--search-eval learned --versus-opponent strong-progress``)."""


def play_versus(
    game_id: str, pairs: int, seed: int, first: int, search_eval: str = "shipped",
    opponent: str = "baseline", log: bool = False, late: float = 0.0, players: int = 2,
    log_decisions: bool = False, namespace: str = VERSUS_NAMESPACE,
) -> VersusResult:
    """``strong`` against the baseline (or ``opponent`` ``one-turn``: the one-turn
    expectimax; ``strong-progress``: ``strong`` searching with the progress heuristic
    at its leaves) in rounds ``first .. first + pairs - 1`` of ``players``-player games:
    in round ``i`` strong sits in seat 0, then in seat 1 (and so on to seat
    ``players - 1``), the baseline in every other seat, and all games of the round draw
    their throws from ``random.Random(versus_seed(seed, players, i, namespace))`` (a fresh one
    each: the same throws as long as the games go alike; no player draws from it). At
    two players a round is a pair of games with the seats swapped. A round in which a
    game raises :class:`MemoryError` (the baseline has no budget; run under ``ulimit
    -v``) is left out of the count, logged (always) and counted in ``failed``.

    ``log``: on stderr, a JSON line per game as it ends (``"seat"``: strong's; strong's
    share of the win, the actions played, the outcome's reason, the baseline's
    decisions with a choice, their positions created at the median and the most, their
    CPU seconds in all) and per round as it ends (strong's wins; the baseline's nodes
    and CPU seconds of each decision). ``log_decisions``: a JSON line per decision of
    the baseline with a choice, as it is made (the round, strong's seat, the actions
    played so far, the legal moves, the positions created, the CPU seconds): where a
    game too slow to end spends its time. ``late`` (``--quick`` only: short games): every
    game of a round starts where a random game (seeded ``SEED:opening`` after the
    round's seed) was after that share of its actions."""
    start = time.perf_counter()
    strong = strong_player(search_eval)
    game = get_game(game_id)
    base = Baseline()
    other: Callable[[State, random.Random], Move] = (
        base if opponent == "baseline" else one_turn_expectimax_move
        if opponent == "one-turn" else strong_player("progress"))
    where = [0, 0]  # the round and strong's seat, for the decisions' log

    def logged_base(state: State, rng: random.Random) -> Move:
        known = len(base.nodes)
        move = base(state, rng)
        if len(base.nodes) > known:
            print(json.dumps({"game": game_id, "players": players, "pair": where[0],
                              "seat": where[1], "actions": len(state.history),
                              "moves": len(state.legal_moves()), "nodes": base.nodes[-1],
                              "cpu": round(base.seconds[-1], 4)}), file=sys.stderr, flush=True)
        return move

    if log_decisions and opponent == "baseline":
        other = logged_base
    wins = 0.0
    tally = [0] * (players + 1)
    logged = 0
    failures = 0
    scores: list[float] = []
    for i in range(first, first + pairs):
        won = 0.0
        opening = game.new_state(players)
        name = versus_seed(seed, players, i, namespace)
        if late:
            played = play_out(opening.copy(), random.Random(f"{name}:opening").randrange)
            for action in played.history[: int(late * len(played.history))]:
                opening.push(action)
            if opening.phase is Phase.OVER:
                opening = game.new_state(players)
        failed = False
        for seat in range(players):
            seats = [strong if s == seat else other for s in range(players)]
            where[:] = [i, seat]
            at = len(base.nodes)
            cpu = sum(base.seconds)
            state = opening.copy()
            try:
                winners = play_from(state, seats, random.Random(name))
            except MemoryError:
                # the baseline's unbudgeted tree outgrew the memory (``ulimit -v``): the
                # round is left out of the count, and said so
                failed = True
                print(json.dumps({"game": game_id, "players": players, "pair": i, "seat": seat,
                                  "failed": "MemoryError", "actions": len(state.history)}),
                      file=sys.stderr, flush=True)
                break
            share = 1.0 / len(winners) if seat in winners else 0.0
            won += share
            if log:
                nodes = sorted(base.nodes[at:]) or [0]
                outcome = state.outcome
                assert outcome is not None
                print(json.dumps({"game": game_id, "players": players, "pair": i, "seat": seat,
                                  "strong": share, "actions": len(state.history),
                                  "reason": outcome.reason, "decisions": len(base.nodes) - at,
                                  "nodes p50": nodes[len(nodes) // 2], "nodes max": nodes[-1],
                                  "cpu": round(sum(base.seconds) - cpu, 3)}),
                      file=sys.stderr, flush=True)
        if failed:
            failures += 1
            continue
        wins += won
        scores.append(won)
        if players == 2:
            tally[0 if won == 2 else (2 if won == 0 else 1)] += 1
        else:
            tally[players - int(won)] += 1
        if log:
            # one line a round, for a run cut short: ``--log-pairs``
            print(json.dumps({"game": game_id, "players": players, "pair": i, "strong": won,
                              "nodes": base.nodes[logged:], "cpu": base.seconds[logged:]}),
                  file=sys.stderr, flush=True)
            logged = len(base.nodes)
    return VersusResult(wins, players * (pairs - failures), tuple(tally), base.nodes,
                        base.seconds, time.perf_counter() - start, failures, tuple(scores))


# ------------------------------------------------------------ the level ladder


LADDER: tuple[tuple[str, str], ...] = (("strong", "normal"), ("normal", "easy"))
"""The rungs of the ladder: (upper level, lower level); each must win > 50%."""


def level_player(level: str, noise_seed: str) -> Callable[[State, random.Random], Move]:
    """The computer at ``level``, drawing ``easy``'s noise from its own generator
    (seeded ``noise_seed``), never from the game's: the throws of a pair's two games
    stay the same."""
    own = random.Random(noise_seed)
    return lambda state, rng: choose(state, level, own).move


@dataclass(frozen=True)
class LadderResult:
    """The upper level's wins (shared wins as fractions) in ``games`` games; ``pairs``
    won 2-0, 1-1, 0-2 (a pair with a shared win counted 1-1); ``cpu``: CPU seconds of
    the games; ``scores``: the upper level's wins in each pair, 0 to 2, in pair order."""

    wins: float
    games: int
    pairs: tuple[int, int, int]
    cpu: float
    scores: tuple[float, ...] = ()


def bootstrap(values: list[float], resamples: int = 2000) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95% percentile bootstrap interval over them
    (``resamples`` resamples with ``random.Random(0)``: the same interval in every run).

    :raises statistics.StatisticsError: for no values.
    """
    rng = random.Random(0)
    means = sorted(statistics.fmean(rng.choices(values, k=len(values))) for _ in range(resamples))
    return statistics.fmean(values), means[int(0.025 * resamples)], means[int(0.975 * resamples) - 1]


def play_ladder(game_id: str, upper: str, lower: str, pairs: int, seed: int, first: int,
                late: float = 0.0) -> LadderResult:
    """``upper`` against ``lower`` in pairs ``first .. first + pairs - 1`` of two-player
    games: in pair ``i`` ``upper`` sits in seat 0, then in seat 1, both games drawing
    their throws from ``random.Random(f"ladder:{seed}:{i}")`` (a namespace no tuning
    has used; the players draw nothing from it). ``late`` (``--quick``): both games
    start where a random game was after that share of its actions."""
    start = time.process_time()
    game = get_game(game_id)
    wins = 0.0
    tally = [0, 0, 0]
    scores: list[float] = []
    for i in range(first, first + pairs):
        opening = game.new_state()
        if late:
            played = play_out(opening.copy(), random.Random(f"ladder:{seed}:{i}:opening").randrange)
            for action in played.history[: int(late * len(played.history))]:
                opening.push(action)
            if opening.phase is Phase.OVER:
                opening = game.new_state()
        won = 0.0
        for seat in (0, 1):
            hi = level_player(upper, f"ladder-noise:{seed}:{i}:{seat}:hi")
            lo = level_player(lower, f"ladder-noise:{seed}:{i}:{seat}:lo")
            seats = [hi, lo] if seat == 0 else [lo, hi]
            winners = play_from(opening.copy(), seats, random.Random(f"ladder:{seed}:{i}"))
            if seat in winners:
                won += 1.0 / len(winners)
        wins += won
        scores.append(won)
        tally[0 if won == 2 else (2 if won == 0 else 1)] += 1
    return LadderResult(wins, 2 * pairs, (tally[0], tally[1], tally[2]),
                        time.process_time() - start, tuple(scores))


# ------------------------------------------- the hint and the review: one judge


@dataclass(frozen=True)
class Agreement:
    """Over ``positions`` decisions: ``same`` where the review's best move at its depth
    is the hint's (or as good: equal values), ``above`` where the review at the hint's
    own depth ranks a move above the hint's (target: never), ``mistake`` where the
    review calls the hint's move a mistake of more than 5 points; ``cpu`` seconds."""

    positions: int
    same: int
    above: int
    mistake: int
    cpu: float


FALSE_MISTAKE = 0.05
"""An error above this share of the chance to win (5 points) is a mistake in issue 32's
false-mistake rate (the review's own word "mistake" starts at 2 points)."""
TARGET_FALSE_MISTAKES = 0.01
"""At most this share of ``strong``'s moves against the baseline called mistakes."""
SAME = 1e-9
"""Values within this of each other are equal (a tie)."""


def hint_agreement(game_id: str, count: int, seed: int, level: str = DEFAULT_LEVEL) -> Agreement:
    """The hint at ``level`` against the review on ``count`` midgame positions of random
    games (:func:`midgame_positions`, seeded ``7000 + seed``: positions no tuning saw)."""
    from companion.ai.player import hint
    from companion.ai.review import judge
    from companion.ai.search import move_chances

    start = time.process_time()
    same = above = mistake = 0
    positions = midgame_positions(game_id, count, 7000 + seed)
    for state in positions:
        me = state.current_player
        found = hint(state, level)
        deep = {m: v[me] for m, v in judge(state, found.move).values}
        best = max(deep.values())
        same += deep[found.move] >= best - SAME
        mistake += best - deep[found.move] > FALSE_MISTAKE
        if found.depth >= 1:
            level_values = {m: v[me] for m, v in move_chances(state, found.depth)}
            above += max(level_values.values()) > level_values[found.move] + SAME
    return Agreement(len(positions), same, above, mistake, time.process_time() - start)


@dataclass(frozen=True)
class FalseMistakes:
    """``strong``'s decisions with a choice reviewed (``moves``), those with an error
    above 5 points (``over5``) and of at least 2 (``over2``, the review's mistakes), those
    where the review at the depth ``strong``'s search finished (the hint's at ``strong``)
    ranks another move above ``strong``'s (``above``; target: never), those whose
    candidates the review searched deeper than ``strong``'s search finished
    (``deeper``; the others were over the review's node cap), in ``games`` games against
    the baseline; ``cpu``: CPU seconds (play and review), ``review_cpu``: the review's
    (:func:`companion.ai.review.judge`) alone."""

    games: int
    moves: int
    over5: int
    over2: int
    cpu: float
    above: int = 0
    deeper: int = 0
    review_cpu: float = 0.0


def false_mistakes(game_id: str, pairs: int, seed: int, first: int,
                   max_actions: int = 0, late: float = 0.0,
                   namespace: str = "heldout-review", log: bool = False,
                   players: int = 2) -> FalseMistakes:
    """``strong`` against the baseline in pairs of two-player games (seats swapped,
    throws from ``random.Random(f"{namespace}:{seed}:{i}")``, by default
    ``heldout-review``, a namespace no tuning used; at ``players`` > 2 rounds of
    ``players`` games, ``strong`` in each seat once and baselines in the others, throws
    from ``f"{namespace}:{seed}:{players}p:{i}"``), every decision of ``strong`` with a
    choice reviewed as :func:`companion.ai.review.review` reviews a move
    (:func:`~companion.ai.review.judge`: ``strong``'s ranking filtered, the candidates
    searched deeper): its error is the best candidate's deeper value minus the chosen
    one's. At the depth ``strong``'s own search finished (the hint's at ``strong``,
    whose first row is ``strong``'s move) the search's values at that depth with no
    budget (:func:`~companion.ai.search.move_chances`) are checked too: ``above`` counts
    the decisions where one ranks another move above ``strong``'s. ``max_actions`` (0: none) ends a game early; ``late`` (``--quick``):
    both games start where a random game was after that share of its actions; ``log``:
    a JSON line per game (with its ``"seat"``: strong's) and one per pair on stderr as
    each ends (a run cut short can be counted game by game)."""
    from companion.ai.review import judge
    from companion.ai.search import move_chances
    from companion.ui.review_words import MISTAKE

    start = time.process_time()
    game = get_game(game_id)
    moves = over5 = over2 = above = deeper = 0
    review_cpu = 0.0

    def mark() -> tuple[float, ...]:
        """The counts so far, and the CPU clock: where a game or a pair begins."""
        return (moves, over5, over2, above, deeper, review_cpu, time.process_time())

    def since(begun: tuple[float, ...]) -> dict[str, float]:
        """The counts since ``begun`` (:func:`mark`), for a JSON line."""
        now = mark()
        counts = {k: now[j] - begun[j] for j, k in enumerate(("moves", "over5", "over2", "above", "deeper"))}
        return {**counts, "review_cpu": round(now[5] - begun[5], 2), "cpu": round(now[6] - begun[6], 2)}

    base = Baseline()
    for i in range(first, first + pairs):
        tally = mark()
        name = versus_seed(seed, players, i, namespace)
        opening = game.new_state(players)
        if late:
            played = play_out(opening.copy(), random.Random(f"{name}:opening").randrange)
            for action in played.history[: int(late * len(played.history))]:
                opening.push(action)
            if opening.phase is Phase.OVER:
                opening = game.new_state(players)
        for seat in range(players):
            rng = random.Random(name)
            state = opening.copy()
            actions = 0
            game_tally = mark()
            while state.phase is not Phase.OVER and (not max_actions or actions < max_actions):
                actions += 1
                if state.phase is Phase.THROW:
                    state.apply(random_action(state, rng.randrange))
                    continue
                if state.current_player != seat:
                    state.apply(base(state, rng))
                    continue
                decision = choose(state, "strong", rng)
                move = decision.move
                if len(state.legal_moves()) > 1:
                    me = state.current_player
                    began = time.process_time()
                    judged = judge(state, move)
                    review_cpu += time.process_time() - began
                    valued = {m: v[me] for m, v in judged.values}
                    error = max(valued.values()) - valued[move]
                    moves += 1
                    over5 += error > FALSE_MISTAKE
                    over2 += error >= MISTAKE
                    deeper += judged.deeper
                    if decision.depth >= 1:  # the search at the hint's own depth
                        same = {m: v[me] for m, v in move_chances(state, decision.depth)}
                        above += max(same.values()) > same[move] + SAME
                state.apply(move)
            if log:
                # one line a game as it ends: a run cut short still counts every game
                print(json.dumps({"game": game_id, "players": players, "namespace": namespace, "seed": seed,
                                  "pair": i, "seat": seat, "actions": len(state.history),
                                  **since(game_tally)}),
                      file=sys.stderr, flush=True)
        if log:
            print(json.dumps({"game": game_id, "players": players, "namespace": namespace, "seed": seed,
                              "pair": i, **since(tally)}),
                  file=sys.stderr, flush=True)
    return FalseMistakes(players * pairs, moves, over5, over2, time.process_time() - start, above,
                         deeper, review_cpu)


def chunks(series: Series, parts: int) -> list[Series]:
    """``series`` split into ``parts`` series of about equal size, each its own seed."""
    size = -(-series.games // parts)
    out = []
    for i in range(parts):
        n = min(size, series.games - i * size)
        if n > 0:
            out.append(Series(series.game_id, series.players, series.opponent, n,
                              series.seed * 1000 + i, series.search_eval))
    return out


def midgame_positions(game_id: str, count: int, seed: int) -> list[State]:
    """``count`` positions where a decision with more than one legal move is due, from
    the middle third of random games of ``game_id`` (its usual number of players)."""
    game = get_game(game_id)
    rng = random.Random(seed)
    found: list[State] = []
    while len(found) < count:
        state = game.new_state()
        record: list[State] = []
        while state.phase is not Phase.OVER:
            if len(state.legal_moves()) > 1:  # a decision (none while a throw is due)
                record.append(state.search_copy())
            state.apply(random_action(state, rng.randrange))
        third = len(record) // 3
        middle = record[third : 2 * third]
        rng.shuffle(middle)
        found += middle[: max(1, (count - len(found)) // 4)]
    return found[:count]


def percentile(sorted_values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``sorted_values`` (nearest rank)."""
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def time_decisions(game_id: str, count: int, seed: int) -> tuple[list[float], list[int], list[float]]:
    """CPU seconds per decision at the default level over ``count`` midgame positions
    (sorted), the depths reached, and the per-round ratios of the default level's CPU
    time per decision to a one-ply search's (the floor) over the same positions.

    CPU time, not the wall clock: on a machine shared with other work the wall clock
    measures the others too, and the decision itself depends on the node budget only.
    The ratio is measured apart from the per-position times, in interleaved slices of
    :func:`measure.interleave` (floor, normal, normal, floor; 12 rounds), each side
    going round the same positions: timed one call at a time, a one-ply search of
    0.04-0.07 ms moved by 67% between two runs (the Labyrinth: 30.3x, then 18.1x)."""
    positions = midgame_positions(game_id, count, seed)
    times, depths = [], []
    for state in positions:
        start = time.process_time()
        decision = choose(state, DEFAULT_LEVEL, random.Random(seed))
        times.append(time.process_time() - start)
        depths.append(decision.depth)

    def going_round(decide: Callable[[State], object]) -> Callable[[], object]:
        at = [0]

        def one() -> object:
            state = positions[at[0] % len(positions)]
            at[0] += 1
            return decide(state)
        return one

    rng = random.Random(seed)
    rounds = interleave(
        repeat_until(going_round(lambda state: search(state, 1))),
        {"normal": repeat_until(going_round(lambda state: choose(state, DEFAULT_LEVEL, rng)))},
        rounds=12 if count > 20 else 2, by="time")
    return sorted(times), depths, rounds.ratios["normal"]


def calibration_data(game_id: str, games: int, seed: int) -> list[tuple[float, int]]:
    """(player 0's progress minus player 1's, 1 if player 0 won else 0) at every
    fifth decision of ``games`` two-player games between players of the default level
    (games without a sole winner left out)."""
    from companion.ai.match import play_game
    from companion.ai.player import player

    game = get_game(game_id)
    default = player(DEFAULT_LEVEL)
    seen: list[float] = []

    def watching(state: State, r: random.Random) -> Move:
        seen.append(state.progress(0) - state.progress(1))
        return default(state, r)

    data: list[tuple[float, int]] = []
    for i in range(games):
        seen.clear()
        winners = play_game(game, [watching, watching], random.Random(f"calibrate:{seed}:{i}"))
        if len(winners) == 1:
            data += [(d, 1 if winners == (0,) else 0) for d in seen[::5]]
    return data


def fit_sharpness(data: list[tuple[float, int]]) -> float:
    """The ``k`` of ``P(player 0 wins) = 1 / (1 + exp(-k * difference))`` that makes
    the outcomes likeliest (golden-section search of the log-likelihood, k in 0.1..60)."""
    import math

    def loglik(k: float) -> float:
        total = 0.0
        for d, won in data:
            p = 1.0 / (1.0 + math.exp(-k * d))
            total += math.log(max(1e-12, p if won else 1.0 - p))
        return total

    low, high = 0.1, 60.0
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(60):
        a = high - ratio * (high - low)
        b = low + ratio * (high - low)
        if loglik(a) < loglik(b):
            low = a
        else:
            high = b
    return (low + high) / 2


def calibrate(games: int, seed: int, game_list: list[str]) -> None:
    """Print the fitted sharpness of each game next to the one its Game class declares."""
    from companion.rules import game_class

    print(f"Sharpness k of the evaluation, fitted on {games} two-player games at '{DEFAULT_LEVEL}':")
    for game_id in game_list:
        data = calibration_data(game_id, games, seed)
        k = fit_sharpness(data)
        used = game_class(game_id).sharpness
        print(f"{game_id:<18} fitted {k:5.1f}  (in use {used:g}; {len(data)} positions)", flush=True)


def cpu_seconds() -> float:
    """CPU seconds of this process and of its finished workers (user and system)."""
    import resource

    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def ladder_part(args: argparse.Namespace, game_list: list[str]) -> None:
    """Print the level ladder (see :func:`play_ladder`)."""
    print("The level ladder: the upper level against the lower, two players, pairs of games on the")
    print(f"same throws with the seats swapped (seeds ladder:{args.seed}:PAIR, never used in tuning),")
    print("win share of the upper level with its 95% Wilson interval over games and its 95% paired")
    print("interval (bootstrap over pairs, 2,000 resamples: the pairs share their throws, so they are")
    print("the independent units); target: the paired interval's low end above 50%.")
    print()
    print(f"{'game':<18} {'rung':<16} {'games':>5} {'won':>6} {'95% Wilson':>16} {'95% paired':>16} "
          f"{'2-0/1-1/0-2':>12} {'CPU s':>7}  target")
    pairs = -(-args.ladder_games // 2)
    late = 0.9 if args.quick else 0.0
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        shares = max(1, args.workers * 2)
        size = -(-pairs // shares)
        submitted = {
            (game_id, upper, lower): [
                pool.submit(play_ladder, game_id, upper, lower, min(size, pairs - k * size),
                            args.seed, k * size, late)
                for k in range(shares) if pairs - k * size > 0]
            for game_id in game_list for upper, lower in LADDER
        }
        for (game_id, upper, lower), parts in submitted.items():
            played = [f.result() for f in parts]
            wins = sum(r.wins for r in played)
            games = sum(r.games for r in played)
            low, high = wilson(wins, games)
            _mean, paired_low, paired_high = bootstrap([w / 2 for r in played for w in r.scores])
            tally = "/".join(str(sum(r.pairs[j] for r in played)) for j in range(3))
            verdict = "met" if paired_low > 0.5 else "NOT met"
            print(f"{game_id:<18} {upper + ' vs ' + lower:<16} {games:>5} {wins / games:>6.1%} "
                  f"{f'[{low:.1%}, {high:.1%}]':>16} {f'[{paired_low:.1%}, {paired_high:.1%}]':>16} "
                  f"{tally:>12} {sum(r.cpu for r in played):>7.1f}  {verdict}", flush=True)
    print()


def judge_part(args: argparse.Namespace, game_list: list[str], versus: list[str]) -> None:
    """Print the hint/review agreement (``game_list``) and the review's false-mistake
    rate of strong in games against the baseline (``versus``; the others said left out)."""
    if args.judge_positions:
        hint_table(args, game_list)
    left = ", ".join(g for g in game_list if g not in versus)
    if left:
        print(f"Left out of the false mistakes (games against the baseline): {left} "
              "(benchmarks/baseline.py SLOW_BASELINE); --game names it to play them.")
    false_mistakes_table(args, versus)


def hint_table(args: argparse.Namespace, game_list: list[str]) -> None:
    """Print the hint/review agreement."""
    print(f"The hint ('{DEFAULT_LEVEL}': companion.ai.player.hint) against the review "
          "(companion.ai.review.judge: the")
    print(f"filter's candidates searched deeper) on {args.judge_positions} midgame positions of "
          f"random games per game (seed {7000 + args.seed}):")
    print("same = the review's best move at its depth is the hint's (or as good); above = at the")
    print("hint's own depth the search ranks a move above the hint's (target: never); mistake = the")
    print("review at its depth calls the hint's move a mistake (> 5 points).")
    print()
    print(f"{'game':<18} {'positions':>9} {'same':>16} {'above':>16} {'mistake':>16} {'CPU s':>7}  target")
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        agreed = {game_id: pool.submit(hint_agreement, game_id, args.judge_positions, args.seed)
                  for game_id in game_list}
        for game_id, future in agreed.items():
            a = future.result()

            def share(k: int, n: int = a.positions) -> str:
                low, high = wilson(k, n)
                return f"{k / n:.1%} [{low:.0%},{high:.0%}]"

            verdict = "met" if a.above == 0 else "NOT met"
            print(f"{game_id:<18} {a.positions:>9} {share(a.same):>16} {share(a.above):>16} "
                  f"{share(a.mistake):>16} {a.cpu:>7.1f}  above never: {verdict}", flush=True)
    print()


def false_mistakes_table(args: argparse.Namespace, game_list: list[str]) -> None:
    """Print the review's false-mistake rate of strong."""
    counts = args.players or [2]
    print("The review's false mistakes: strong's moves (decisions with a choice) in games of strong")
    print(f"against the baseline (pairs, seats swapped, seeds {args.review_namespace}:{args.seed}:PAIR; "
          f"at N > 2 players rounds of N games, strong in each seat once, seeds "
          f"{args.review_namespace}:{args.seed}:Np:ROUND), reviewed as")
    cut = f", each game ended after {args.review_actions} actions" if args.review_actions else ""
    print(f"companion.ai.review reviews a move{cut}; target: at most "
          f"{TARGET_FALSE_MISTAKES:.0%} with an error above {FALSE_MISTAKE * 100:.0f} points.")
    print("above = at the depth strong's search finished (the hint's at strong) the review ranks "
          "another move")
    print("above strong's (target: never); deeper = the review searched the candidates deeper "
          "than strong's")
    print("search finished (else over its node cap: valued at strong's depth); review s/game = "
          "the review's CPU s a game.")
    print()
    print(f"{'game':<18} {'games':>5} {'moves':>6} {'> 5 points':>18} {'>= 2 points':>18} "
          f"{'above':>18} {'deeper':>7} {'review s/game':>13} {'CPU s':>7}  target")
    lines = [(game_id, n) for game_id in game_list for n in counts
             if get_game(game_id).min_players <= n <= get_game(game_id).max_players]
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        # Five shares a line at least, submitted share by share across the lines: a
        # run cut short for time (--log-pairs counts it) has played some of every line.
        shares = max(5, args.workers * 2)
        reviewed: dict[tuple[str, int], list[Future[FalseMistakes]]] = {line: [] for line in lines}
        for k in range(shares):
            for game_id, n in lines:
                rounds = -(-args.review_games // n)
                size = -(-rounds // shares)
                if rounds - k * size > 0:
                    reviewed[game_id, n].append(pool.submit(
                        false_mistakes, game_id, min(size, rounds - k * size), args.seed, k * size,
                        args.review_actions, 0.9 if args.quick else 0.0, args.review_namespace,
                        args.log_pairs, n))
        for (game_id, n), parts in reviewed.items():
            done = [f.result() for f in parts]
            moves = sum(r.moves for r in done)
            over5 = sum(r.over5 for r in done)
            over2 = sum(r.over2 for r in done)
            above = sum(r.above for r in done)
            games = sum(r.games for r in done)
            m = max(1, moves)
            lo5, hi5 = wilson(over5, m)
            lo2, hi2 = wilson(over2, m)
            lo, hi = wilson(above, m)
            verdict = "met" if over5 / m <= TARGET_FALSE_MISTAKES else "NOT met"
            verdict += "; above never: " + ("met" if above == 0 else "NOT met")
            label = game_id if n == 2 else f"{game_id} {n}p"
            print(f"{label:<18} {games:>5} {moves:>6} "
                  f"{f'{over5 / m:.1%} [{lo5:.1%},{hi5:.1%}]':>18} "
                  f"{f'{over2 / m:.1%} [{lo2:.1%},{hi2:.1%}]':>18} "
                  f"{f'{above / m:.1%} [{lo:.1%},{hi:.1%}]':>18} "
                  f"{sum(r.deeper for r in done) / m:>7.1%} "
                  f"{sum(r.review_cpu for r in done) / max(1, games):>13.2f} "
                  f"{sum(r.cpu for r in done):>7.1f}  {verdict}", flush=True)
    print()


def versus_part(args: argparse.Namespace, game_list: list[str], leaves: str) -> None:
    """The versus part: ``strong`` against the baseline, at two players (default) or at
    each ``--players`` count the game allows."""
    strong = get_level("strong")
    against = (f"the baseline (benchmarks/baseline.py: a depth-2 expectimax over its moves "
               f"for the throw,\nthe next throw and the opponent's reply; up to "
               f"{CAP_EXTRA_THROWS} extra throws of its own; leaves: progress less "
               "pieces at risk; no budget)"
               if args.versus_opponent == "baseline" else
               "the one-turn expectimax (the move, then the next throw; never the reply)"
               if args.versus_opponent == "one-turn" else
               "'strong' searching with the progress heuristic at its leaves (a head-to-head of "
               "the two\nevaluations at one search: the target is the fair share 1/N; the "
               "baseline's columns are 0)")
    namespace = args.versus_namespace
    counts = args.players or [2]
    lines = [(game_id, n) for n in counts for game_id in game_list
             if game_class(game_id).min_players <= n <= game_class(game_id).max_players]
    print(f"'strong' ({strong.help}; {leaves}) against")
    print(f"{against}; at two players pairs of games on the same throws with the seats swapped,")
    held = namespace == VERSUS_NAMESPACE
    print(f"seeds {namespace}:{args.seed}:PAIR"
          f"{' (never used in tuning)' if held else ' (a namespace of its own, not heldout-baseline)'}; "
          "at N > 2 players")
    print("rotations of N games on the same throws, strong in each seat in turn, the opponent in")
    print(f"the others, seeds {namespace}:{args.seed}:Np:ROTATION; 95% Wilson interval over games")
    print("and, after the target, the 95% paired interval (bootstrap over the rounds, which share")
    print("their throws); the baseline's tree: positions created per decision (decisions with a")
    print("choice), its CPU ms.")
    if args.versus_opponent == "strong-progress":
        print("Target: not below the fair share 1/N (the paired interval's high end above it).")
    else:
        print(f"Target: at two players >= {TARGET_VERSUS:.0%} with the low end > 50%; at N players "
              f">= {TARGET_VERSUS_SHARE:.1f}x the fair share 1/N with the low end above 1/N.")
    print()
    print(f"{'game':<18} {'p':>1} {'games':>5} {'won':>6} {'95% interval':>16} {'rounds by wins':>14} "
          f"{'tree p50':>8} {'p90':>7} {'max':>7} {'cpu ms p50':>10} {'p90':>7} {'s/game':>6}  target")
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        shares = max(1, args.workers * 2)
        versus = {}
        for game_id, n in lines:
            rounds = -(-args.versus_games // n)
            size = -(-rounds // shares)
            versus[game_id, n] = [
                pool.submit(play_versus, game_id, min(size, rounds - k * size), args.seed,
                            k * size, args.search_eval, args.versus_opponent, args.log_pairs,
                            0.9 if args.quick else 0.0, n, args.log_decisions, namespace)
                for k in range(shares) if rounds - k * size > 0]
        for (game_id, n), submitted in versus.items():
            played = [f.result() for f in submitted]
            wins = sum(r.wins for r in played)
            games = sum(r.games for r in played)
            failed = sum(r.failed for r in played)
            if not games:
                print(f"{game_id:<18} {n:>1} no round finished: {failed} ran out of memory", flush=True)
                continue
            low, high = wilson(wins, games)
            rate = wins / games
            _mean, paired_low, paired_high = bootstrap([w / n for r in played for w in r.scores])
            if args.versus_opponent == "strong-progress":
                goal = 1 / n  # a head-to-head: not worse than the fair share
                verdict = ("above" if paired_low > goal else "BELOW" if paired_high < goal
                           else "not different from") + f" the fair share {goal:.1%}"
            else:
                goal = TARGET_VERSUS if n == 2 else TARGET_VERSUS_SHARE / n
                verdict = ("met" if rate >= goal and low > 1 / n else "NOT met") + f" (>= {goal:.1%})"
            per_game = sum(r.seconds for r in played) / games
            tally = "/".join(str(sum(r.pairs[j] for r in played)) for j in range(n + 1))
            nodes = sorted(float(m) for r in played for m in r.nodes) or [0.0]
            cpu = sorted(c for r in played for c in r.cpu) or [0.0]
            print(f"{game_id:<18} {n:>1} {games:>5} {rate:>6.1%} {f'[{low:.1%}, {high:.1%}]':>16} "
                  f"{tally:>14} {percentile(nodes, 0.5):>8.0f} {percentile(nodes, 0.9):>7.0f} "
                  f"{nodes[-1]:>7.0f} {percentile(cpu, 0.5) * 1000:>10.1f} "
                  f"{percentile(cpu, 0.9) * 1000:>7.1f} {per_game:>6.2f}  {verdict}; "
                  f"paired [{paired_low:.1%}, {paired_high:.1%}]"
                  + (f"; {failed} rounds left out: out of memory" if failed else ""), flush=True)
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, metavar="N",
                        help="games per game, player count and opponent (default 100: 200 "
                        "per game and player count)")
    parser.add_argument("--positions", type=int, default=200, metavar="N",
                        help="midgame positions per game for the time per decision (default 200)")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1), metavar="N",
                        help="processes playing the games (default 2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", action="append", default=None, metavar="ID",
                        help="only this game (repeatable; default: every game)")
    parser.add_argument("--part", choices=("both", "strength", "time", "versus", "ladder", "judge"),
                        default="both",
                        help="both (default: every part), or one of them: strength, versus, "
                        "ladder (strong vs normal, normal vs easy), judge (the hint against "
                        "the review, the review's false mistakes of strong), time")
    parser.add_argument("--ladder-games", type=int, default=100, metavar="N",
                        help="ladder part: games per rung and game, in pairs with the seats "
                        "swapped (default 100)")
    parser.add_argument("--judge-positions", type=int, default=100, metavar="N",
                        help="judge part: midgame positions per game for the hint/review (0: none) "
                        "agreement (default 100)")
    parser.add_argument("--review-games", type=int, default=100, metavar="N",
                        help="judge part: games of strong against the baseline per game whose "
                        "strong moves the review judges, in pairs (default 100, the issue's)")
    parser.add_argument("--review-namespace", default="heldout-review", metavar="NAME",
                        help="judge part: the seeds of those games are NAME:SEED:PAIR (default "
                        "heldout-review; a fresh name for a measurement no tuning saw)")
    parser.add_argument("--review-actions", type=int, default=0, metavar="N",
                        help="judge part: end each of those games after N actions (default 0: "
                        "whole games)")
    parser.add_argument("--versus-games", type=int, default=300, metavar="N",
                        help="games of strong against the baseline per game, in pairs with "
                        "the seats swapped (default 300; an odd N plays one more)")
    parser.add_argument("--versus-opponent", choices=VERSUS_OPPONENTS, default="baseline",
                        help="versus part: the baseline (default), the one-turn expectimax "
                        "the figures before issue 32 were measured against, or strong-progress: "
                        "strong searching with the progress heuristic at its leaves (with "
                        "--search-eval learned: the two evaluations head to head)")
    parser.add_argument("--versus-namespace", default=VERSUS_NAMESPACE, metavar="NAME",
                        help="versus part: the throws' seeds are NAME:SEED:PAIR (N players: "
                        "NAME:SEED:Np:ROTATION; default heldout-baseline)")
    parser.add_argument("--log-pairs", action="store_true",
                        help="versus and judge parts: a JSON line per pair of games on stderr, "
                        "as it ends (also one per game)")
    parser.add_argument("--log-decisions", action="store_true",
                        help="versus part: a JSON line per decision of the baseline with a "
                        "choice on stderr, as it is made (its tree and CPU seconds)")
    parser.add_argument("--opponent", action="append", choices=("random", "greedy"), default=None,
                        help="strength part: only this floor player (repeatable; default both)")
    parser.add_argument("--players", action="append", type=int, default=None, metavar="N",
                        help="strength part: only this number of players (repeatable; default "
                        "every count the game allows); versus part: play at this number of "
                        "players (repeatable; default 2); judge part: the review's false mistakes at this "
                        "number of players (repeatable; default 2)")
    parser.add_argument("--search-eval", choices=tuple(SEARCH_EVALS), default="shipped",
                        help="strength and versus parts: strong's leaves valued as shipped "
                        "(default), by the learned model or by the progress heuristic in "
                        "every game")
    parser.add_argument("--calibrate", type=int, default=0, metavar="GAMES",
                        help="only fit the evaluation's sharpness per game on GAMES games "
                        "between players of the default level (see companion/ai/evaluate.py), "
                        "and stop")
    parser.add_argument("--quick", action="store_true",
                        help="a sanity run for CI (tests/test_benchmarks_quick.py): 2 games per "
                        "line against random, two players only, 2 versus games (one pair, from 90%% into a "
                        "random game), 10 positions, one worker, one ladder pair per rung (from 90%%), "
                        "3 judge positions, one review pair of 30 actions from 90%%; its figures mean nothing")
    args = parser.parse_args()
    if args.quick:
        args.games, args.versus_games, args.positions, args.workers = 2, 2, 10, 1
        args.ladder_games, args.judge_positions, args.review_games = 2, 3, 2
        args.review_actions = args.review_actions or 30
        args.opponent, args.players = args.opponent or ["random"], args.players or [2]
    game_list = args.game or game_ids()
    if args.calibrate:
        calibrate(args.calibrate, args.seed, game_list)
        return
    strong = get_level("strong")
    began = time.perf_counter()
    leaves = {"shipped": f"progress evaluation in {', '.join(sorted(SEARCH_BY_PROGRESS))} "
                         "at a count without a TD-leaf model (none, as shipped), learned elsewhere "
                         "(TD-leaf: the Labyrinth and the Cretan Labyrinth at 2, 3 and 4 players)",
              "learned": "learned evaluation everywhere",
              "progress": "progress evaluation everywhere"}[args.search_eval]

    if args.part in ("both", "strength"):
        print(f"Strength of 'strong' ({strong.help}; {leaves}) in one seat, the floor players in the")
        print("others, seats rotating; 95% Wilson interval; fair share = 1/players.")
        print()
        print(f"{'game':<22} {'against':<7} {'games':>5} {'won':>6} {'95% interval':>14} "
              f"{'fair':>5} {'s/game':>6}  target")
        all_series = [
            Series(game_id, players, opponent, args.games, args.seed, args.search_eval)
            for game_id in game_list
            for players in range(game_class(game_id).min_players, game_class(game_id).max_players + 1)
            if args.players is None or players in args.players
            for opponent in (args.opponent or ("random", "greedy"))
        ]
        with ProcessPoolExecutor(max_workers=args.workers) as pool:
            futures = {
                s: [pool.submit(play_series, part) for part in chunks(s, max(1, args.workers * 2))]
                for s in all_series
            }
            for s, parts in futures.items():
                results = [f.result() for f in parts]
                wins = sum(r[0] for r in results)
                games = sum(r[1] for r in results)
                rate = wins / games
                low, high = wilson(wins, games)
                fair = 1 / s.players
                if s.opponent == "random":
                    target = TARGET_RANDOM.get(s.game_id, 0.95)
                    verdict = f">= {target:.0%}: {'meets' if rate >= target else 'BELOW'}"
                elif s.game_id == "senet-tait":
                    verdict = f"> fair share: {'meets' if low > fair else ('edge' if rate > fair else 'NO EDGE')}"
                else:
                    verdict = ""
                label = s.game_id if game_class(s.game_id).max_players == 2 else f"{s.game_id} ({s.players}p)"
                per_game = sum(r[2] for r in results) / games
                print(f"{label:<22} {s.opponent:<7} {games:>5} {rate:>6.1%} "
                      f"{f'[{low:.1%}, {high:.1%}]':>14} {fair:>5.0%} {per_game:>6.2f}  {verdict}",
                      flush=True)
        print()

    # the default run (make bench) leaves out the games against the baseline that take
    # days (SLOW_BASELINE) and says so; named with --game, or in a --quick run, they play
    fast = [g for g in game_list if args.game or args.quick or g not in SLOW_BASELINE]
    slow = ", ".join(g for g in game_list if g not in fast)
    if args.part in ("both", "versus"):
        if slow:
            print(f"Left out of the games against the baseline: {slow} (its baseline has no budget "
                  "and one decision can take minutes and gigabytes: benchmarks/baseline.py "
                  "SLOW_BASELINE); --game names it to play them.")
        versus_part(args, fast, leaves)
    if args.part in ("both", "ladder"):
        ladder_part(args, game_list)
    if args.part in ("both", "judge"):
        judge_part(args, game_list, fast)

    if args.part in ("both", "time"):
        normal = get_level(DEFAULT_LEVEL)
        print(f"CPU time per decision at '{DEFAULT_LEVEL}' ({normal.help}), {args.positions} "
              "midgame positions per game;")
        print("floor: a one-ply search of the same positions (each move, then the evaluation).")
        print()
        print(f"{'game':<18} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} {'nodes':>7} "
              f"{'depth':>6}  target p99 <= {TARGET_P99_S * 1000:.0f} ms")
        ratios = {}
        for game_id in game_list:
            times, depths, ratios[game_id] = time_decisions(game_id, args.positions, args.seed)
            p50, p99, top = (percentile(times, 0.5), percentile(times, 0.99), times[-1])
            verdict = "meets" if p99 <= TARGET_P99_S else "ABOVE"
            verdict += f"; Pi estimate p99 {p99 * 8000:.0f}-{p99 * 12000:.0f} ms"
            print(f"{game_id:<18} {p50 * 1000:>7.1f} {p99 * 1000:>7.1f} {top * 1000:>7.1f} "
                  f"{normal.max_nodes or 0:>7} {statistics.mean(depths):>6.2f}  {verdict}", flush=True)
        print()
        print(f"CPU time per decision at '{DEFAULT_LEVEL}' over a one-ply search of the same positions")
        print("(interleaved slices, one ratio per round):")
        for game_id, values in ratios.items():
            print(ratio_line(f"{game_id} decision", values, "x floor time", 30))
        print()
    print(f"({time.perf_counter() - began:.0f} s; CPU {cpu_seconds():.0f} s with the workers)")


if __name__ == "__main__":
    main()
