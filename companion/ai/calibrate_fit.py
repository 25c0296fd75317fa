"""Fitting the maps of :mod:`companion.ai.calibrate` from self-play (the one command).

Refit a game (reproducible from its seed; CPU time in docs/ai.md)::

    python -m companion.ai.calibrate_fit --game senet-tait [--games 40] [--seed 1]

plays ``--games`` self-play games per player count and level (every seat at the level,
as ``benchmarks/calibration.py --hint`` plays its held-out games; seeds
``calibrate-train:SEED:LEVEL:PLAYERS:I``, never measured on), records the hint's
searched value for the player to act at every decision with a choice with that
player's result, fits the candidates (:func:`choose_map`) and writes
``companion/ai/data/calibration-<game>.json`` with the seeds, game counts, decisions
and CPU seconds that made it. Pure Python, like the maps it writes.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from companion.ai.calibrate import IDENTITY, LEVEL_NAMES, CalibrationError, Map

GRID: Final = 41
"""Knots of a Platt map: ``v`` = 0, 1/40, ..., 1."""

BLEND: Final = 0.01
"""The share of the identity blended into an isotonic map, so that it rises strictly."""

Record = tuple[list[tuple[int, float]], list[float]]
"""One self-play game: (player to act, the hint's raw value) at every decision with a
choice, and every player's result (1 won, 1/k of a k-way shared win, 0 lost)."""


def selfplay(game_id: str, players: int, level: str, label: str, games: int,
             progress: bool = False, noise_label: str | None = None,
             first: int = 0) -> list[Record]:
    """``games`` self-play games of ``game_id`` at ``level`` (every seat), game ``i``
    (``first`` to ``first + games - 1``: a line's records can be extended with more
    games, the same as one run of them all) seeded ``f"{label}:{i}"`` (its throws) and
    ``f"{noise_label}:{i}"`` (``easy``'s
    noise; default ``label + "-noise"``): at every decision with a choice the raw value of the hint's first row for
    the player to act (:func:`companion.ai.player.hint` without the map), and the
    results. The move played is the level's (:func:`companion.ai.player.choose` with
    the noise generator and no time budget, so the games are the same on any machine;
    the hint's first row where the level has no noise). Positions whose values are exact
    (:func:`companion.ai.race.covers`: both Senets' solved endings) give no sample:
    the hint shows those values unmapped, so the map must not be fitted on them."""
    from companion.ai.player import LEVELS, choose, hint
    from companion.ai.race import covers
    from companion.rules import Phase, get_game, random_action

    game = get_game(game_id)
    out: list[Record] = []
    for i in range(first, first + games):
        rng = random.Random(f"{label}:{i}")
        noise = random.Random(f"{noise_label or label + '-noise'}:{i}")
        state = game.new_state(players)
        shown: list[tuple[int, float]] = []
        while state.outcome is None:
            if state.phase is Phase.THROW:
                state.apply(random_action(state, rng.randrange))
                continue
            if len(state.legal_moves()) == 1:
                state.apply(state.legal_moves()[0])
                continue
            found = hint(state, level, shown=False)
            if not covers(state):  # an exact value is shown unmapped: not the map's to fit
                shown.append((state.current_player, found.value))
            move = (choose(state, level, noise).move if LEVELS[level].noise
                    else found.move)
            state.apply(move)
        winners = state.outcome.winners
        out.append((shown, [1 / len(winners) if p in winners else 0.0 for p in range(players)]))
        if progress:
            print(f"\r{game_id} {players} players {level}: game {i + 1}/{first + games}", end="",
                  file=sys.stderr, flush=True)
    if progress:
        print(file=sys.stderr)
    return out


def points(records: Sequence[Record], players: int) -> list[tuple[float, float]]:
    """The (value, result) pairs to fit: every decision's value with the result of the
    player to act; with two players also ``1 - value`` with the opponent's result."""
    out = []
    for shown, result in records:
        for p, v in shown:
            v = min(1.0, max(0.0, v))
            out.append((v, result[p]))
            if players == 2:
                out.append((1.0 - v, result[1 - p]))
    return out


def _logit(v: float) -> float:
    v = min(1 - 1e-6, max(1e-6, v))
    return math.log(v / (1 - v))


def _sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x)) if x > -700 else 0.0


def fit_platt(data: Sequence[tuple[float, float]], ridge: float = 1e-3) -> tuple[float, float]:
    """``(a, b)`` of the logistic regression of the result on ``logit(value)``
    (Newton's method from ``(1, 0)``, the identity; a small ridge toward it)."""
    a, b = 1.0, 0.0
    xs = [_logit(v) for v, _r in data]
    for _ in range(30):
        ga = -ridge * (a - 1)
        gb = -ridge * b
        haa, hab, hbb = ridge, 0.0, ridge
        for x, (_v, r) in zip(xs, data, strict=True):
            q = _sigmoid(a * x + b)
            e = r - q
            w = q * (1 - q)
            ga += e * x
            gb += e
            haa += w * x * x
            hab += w * x
            hbb += w
        det = haa * hbb - hab * hab
        if det <= 0:
            break
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a, b = a + da, b + db
        if abs(da) < 1e-10 and abs(db) < 1e-10:
            break
    return a, b


def platt_map(a: float, b: float) -> Map:
    """The Platt map ``sigmoid(a logit(v) + b)`` sampled at :data:`GRID` knots (``a``
    must be positive)."""
    if a <= 0:
        raise CalibrationError(f"a Platt map needs a positive slope, got {a}")
    xs = [i / (GRID - 1) for i in range(GRID)]
    ys = [0.0] + [_sigmoid(a * _logit(x) + b) for x in xs[1:-1]] + [1.0]
    # Far out on the logit the sigmoid can round to equal floats: keep them apart.
    for i in range(1, GRID - 1):
        ys[i] = min(max(ys[i], ys[i - 1] + 1e-9), 1 - (GRID - 1 - i) * 1e-9)
    return Map(tuple(xs), tuple(ys), "platt")


def fit_isotonic(data: Sequence[tuple[float, float]]) -> Map:
    """Isotonic regression of the result on the value (pool-adjacent-violators), the
    pooled blocks' centres (mean value, mean result) joined by straight lines from
    (0, 0) to (1, 1), blended with :data:`BLEND` of the identity (strictly rising)."""
    ordered = sorted(data)
    blocks: list[list[float]] = []  # [sum of values, sum of results, count]
    for v, r in ordered:
        blocks.append([v, r, 1.0])
        while len(blocks) > 1 and blocks[-2][1] / blocks[-2][2] >= blocks[-1][1] / blocks[-1][2]:
            top = blocks.pop()
            for k in range(3):
                blocks[-1][k] += top[k]
    knots: list[tuple[float, float]] = [(0.0, 0.0)]
    for sv, sr, n in blocks:
        x, y = sv / n, sr / n
        if 0.0 < x < 1.0 and x > knots[-1][0]:
            knots.append((x, max(y, knots[-1][1])))
    knots.append((1.0, 1.0))
    xs = [x for x, _y in knots]
    ys = [(1 - BLEND) * y + BLEND * x for x, y in knots]
    for i in range(1, len(ys)):  # equal neighbours (a flat block) apart by the blend
        ys[i] = max(ys[i], ys[i - 1] + 1e-9)
    ys[-1] = 1.0
    return Map(tuple(xs), tuple(min(y, 1.0) for y in ys), "isotonic")


def symmetric(f: Map) -> Map:
    """``f`` made to give two players' chances summing to 1: ``(f(v) + 1 - f(1 - v)) / 2``
    through the knots of both (a fit to data seen from both sides is so up to how its
    ties fell)."""
    xs: list[float] = []
    for x in sorted({*f.xs, *(1 - x for x in f.xs)}):
        if not xs or x - xs[-1] > 1e-9:  # a knot and a mirrored one a rounding apart: one
            xs.append(x)
    xs[0], xs[-1] = 0.0, 1.0
    ys = [0.0] + [(f(x) + 1 - f(1 - x)) / 2 for x in xs[1:-1]] + [1.0]
    return Map(tuple(xs), tuple(ys), f.method)


def brier(f: Map, data: Sequence[tuple[float, float]]) -> float:
    """The mean squared difference between ``f(value)`` and the result over ``data``."""
    return sum((f(v) - r) ** 2 for v, r in data) / max(1, len(data))


def ece(f: Map, data: Sequence[tuple[float, float]], bins: int = 10) -> float:
    """The expected calibration error of ``f`` over ``data`` (ten bins of the chance
    shown, as ``benchmarks/calibration.py``)."""
    sums = [[0.0, 0.0, 0.0] for _ in range(bins)]
    for v, r in data:
        s = f(v)
        b = sums[min(bins - 1, int(s * bins))]
        b[0] += 1
        b[1] += s
        b[2] += r
    return sum(abs(b[1] - b[2]) for b in sums) / max(1, len(data))


def _candidates(level: Sequence[Record], pooled: Sequence[Record], players: int) -> dict[str, Map]:
    """The maps a line chooses from, fitted to ``level`` (its own level's games) or to
    ``pooled`` (every level's games of the same game and player count)."""
    own, every = points(level, players), points(pooled, players)
    maps = {"identity": IDENTITY, "isotonic": fit_isotonic(own),
            "isotonic-pooled": fit_isotonic(every)}
    for name, data in (("platt", own), ("platt-pooled", every)):
        a, b = fit_platt(data)
        if a > 0:  # a falling fit (values that say nothing here) is no candidate
            maps[name] = platt_map(a, b)
    if players == 2:
        maps = {name: symmetric(f) for name, f in maps.items()}
    return maps


FOLDS: Final = 5
"""The folds (by game) the map of a line is chosen by."""


def choose_map(records: Sequence[Record], others: Sequence[Record],
               players: int) -> tuple[str, Map, dict[str, float]]:
    """The map of a line fitted to its ``records`` (every game's decisions at one level)
    and ``others`` (the other levels' games of the same game and player count), with
    the figures that chose it: the mean Brier score, on each fold of this level's games
    (:data:`FOLDS` folds: game ``i`` in fold ``i % FOLDS``), of the identity, Platt and
    isotonic maps fitted on the other folds of this level's games, or on those and every
    other level's games (``-pooled``); the one with the lowest is fitted again on all
    the games. Returns ``(name, map, scores)``."""
    scores: dict[str, float] = {}
    for k in range(FOLDS):
        train = [r for i, r in enumerate(records) if i % FOLDS != k]
        test = points([r for i, r in enumerate(records) if i % FOLDS == k], players)
        if not train or not test:
            continue
        candidates = _candidates(train, [*train, *others], players)
        for name in ("identity", "platt", "isotonic", "platt-pooled", "isotonic-pooled"):
            f = candidates.get(name, IDENTITY)
            scores[name] = scores.get(name, 0.0) + brier(f, test) / FOLDS
    # A candidate missing from a fold (a falling Platt fit) counts as the identity there.
    name = min(scores, key=lambda m: scores[m]) if scores else "identity"
    fitted = _candidates(records, [*records, *others], players).get(name, IDENTITY)
    return name, fitted, scores


def fit_game(game_id: str, seed: int, games: int, levels: Sequence[str] = LEVEL_NAMES,
             players: Sequence[int] | None = None, records_dir: Path | None = None,
             progress: bool = False) -> dict[str, Any]:
    """The calibration file's contents for ``game_id`` (see the module's docstring).
    ``records_dir``: keep each line's self-play records there as JSON (and reuse them
    when present, so a refit of the same games does not play them again).

    :raises ValueError: for an unknown game or level.
    """
    from companion.ai.player import get_level
    from companion.rules import game_class

    cls = game_class(game_id)
    counts = list(players) if players else list(range(cls.min_players, cls.max_players + 1))
    maps: dict[str, dict[str, Any]] = {}
    for n in counts:
        lines: dict[str, tuple[list[Record], float, str]] = {}
        for level in levels:
            get_level(level)
            label = f"calibrate-train:{seed}:{level}:{n}"
            began = time.process_time()
            cached = records_dir / f"train-{game_id}-{n}-{level}-{seed}-{games}.json" if records_dir else None
            if cached is not None and cached.exists():
                saved = json.loads(cached.read_text("utf-8"))
                records: list[Record] = [([(int(p), float(v)) for p, v in s], r) for s, r in saved["records"]]
                cpu = float(saved["cpu_s"])
            else:
                records = selfplay(game_id, n, level, label, games, progress)
                cpu = time.process_time() - began
                if cached is not None:
                    cached.parent.mkdir(parents=True, exist_ok=True)
                    cached.write_text(json.dumps({"records": records, "cpu_s": cpu}), "utf-8")
            lines[level] = (records, cpu, label)
        for level, (records, cpu, label) in lines.items():
            others = [r for other, line in lines.items() if other != level for r in line[0]]
            name, fitted, scores = choose_map(records, others, n)
            maps.setdefault(str(n), {})[level] = {
                "method": name,
                "x": [round(x, 6) for x in fitted.xs],
                "y": [round(y, 6) for y in fitted.ys],
                "games": len(records),
                "decisions": sum(len(s) for s, _r in records),
                "seeds": f"{label}:0..{games - 1}",
                "cpu_s": round(cpu, 1),
                "fold_brier": {k: round(v, 5) for k, v in scores.items()},
            }
    return {
        "format": "companion-calibration",
        "version": 1,
        "game": game_id,
        "fitting": {"command": f"python -m companion.ai.calibrate_fit --game {game_id} --seed {seed} "
                    f"--games {games}", "seed": seed, "games": games},
        "maps": maps,
    }


def _rounded(data: dict[str, Any]) -> dict[str, Any]:
    """The file's maps with knots kept strictly rising after rounding to 6 places."""
    for levels in data["maps"].values():
        for entry in levels.values():
            for key in ("x", "y"):
                values = entry[key]
                for i in range(1, len(values)):
                    if values[i] <= values[i - 1]:
                        values[i] = round(values[i - 1] + 1e-6, 6)
                values[-1] = 1.0
                if values[-2] >= 1.0:
                    raise CalibrationError("a map's knots do not stay apart at 6 places")
    return data


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m companion.ai.calibrate_fit",
        description="Fit the map from the searched value to the chance shown (see docs/ai.md).")
    parser.add_argument("--game", required=True, metavar="ID")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=40, metavar="N",
                        help="self-play games per number of players and level (default 40)")
    parser.add_argument("--level", action="append", default=None, choices=LEVEL_NAMES,
                        help="only this level (repeatable; default: all three)")
    parser.add_argument("--players", type=int, action="append", default=None, metavar="N",
                        help="only this number of players (repeatable; default: all)")
    parser.add_argument("--records", default=None, metavar="DIR",
                        help="keep (and reuse) the self-play records in DIR")
    parser.add_argument("--out", default=None, metavar="FILE",
                        help="where to write (default companion/ai/data/calibration-GAME.json; - for stdout)")
    args = parser.parse_args(argv)
    began = time.process_time()
    data = _rounded(fit_game(args.game, args.seed, args.games, args.level or LEVEL_NAMES,
                             args.players, Path(args.records) if args.records else None, True))
    text = json.dumps(data, indent=2, sort_keys=True) + "\n"
    if args.out == "-":
        sys.stdout.write(text)
    else:
        out = Path(args.out) if args.out else Path(__file__).parent / "data" / f"calibration-{args.game}.json"
        out.write_text(text, encoding="utf-8")
        print(f"wrote {out} ({time.process_time() - began:.0f} s of CPU)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
