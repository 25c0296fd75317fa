"""Train the learned evaluation of :mod:`companion.ai.learned` from self-play.

One command per game, reproducible from its seed::

    python -m companion.ai.train --game senet-tait --seed 1

plays ``--games`` self-play games at every number of players the game allows, records
every player's :func:`~companion.ai.learned.features` at every ``--every``-th action
with the game's result (1 for the winner; a shared win ``1/k`` to each of ``k``), fits
the softmax model's weights by Newton's method on the log-likelihood (with a small
ridge penalty, ``--ridge``), and writes ``companion/ai/data/<game>.json`` (or
``--out``). The same seed, games and options give the same file, byte for byte.

The self-play player (:func:`selfplay_move`) plays the move that the progress heuristic
(:mod:`companion.ai.evaluate`) values best one ply ahead, and a uniformly random legal
move with probability ``--epsilon`` (0.1), so the games vary. Game ``i`` of player
count ``n`` draws from ``random.Random(f"train:{seed}:{n}:{i}")``;
``benchmarks/calibration.py`` uses other seeds (held-out games).

``--method td-leaf`` (the Senets; the Labyrinth's two players, from its
search's leaf, :func:`companion.ai.td_leaf.labyrinth_start`) starts from that fit and goes on with
TD-leaf(lambda), the search in the loop and a value per square of each player's path
(:mod:`companion.ai.td_leaf`, :func:`train_td`); the shipped casting-stick file is
written so::

    python -m companion.ai.train --game senet-sticks --seed 1 --games 300 --method td-leaf --td-games 1000
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from companion.ai.evaluate import chances as progress_chances
from companion.ai.evaluate import shares
from companion.ai.learned import FEATURES, TAIT_EXTRAS, Model, features, model_chances
from companion.errors import CompanionError
from companion.rules import Game, Move, Phase, State, game_class, get_game

Sample = tuple[list[list[float]], tuple[float, ...]]
"""One position: every player's features, and every player's result (1, 0 or 1/k)."""

MAX_ACTIONS = 100_000
"""A self-play game that has not ended after this many actions is dropped (a stalemate)."""


class TrainingError(CompanionError):
    """Self-play gave nothing to fit (no finished game)."""


def selfplay_move(state: State, rng: random.Random, epsilon: float) -> Move:
    """The self-play player's move: a random legal one with probability ``epsilon``,
    else the best one ply ahead by the progress heuristic."""
    moves = state.legal_moves()
    if len(moves) == 1:
        return moves[0]
    if rng.random() < epsilon:
        return moves[rng.randrange(len(moves))]
    # The progress heuristic, not the learned model: the games (and so the trained
    # weights) must not depend on the model that happens to be shipped.
    me = state.current_player
    best, best_value = moves[0], -1.0
    for move in moves:
        after = state.search_copy()
        after.play(move)
        value = progress_chances(after)[me]
        if value > best_value:
            best, best_value = move, value
    return best


def selfplay_game(
    game: Game, players: int, rng: random.Random, epsilon: float,
    every: int = 1, move: Callable[[State, random.Random], Move] | None = None,
) -> tuple[list[State], tuple[float, ...]] | None:
    """One self-play game: copies of the positions before every ``every``-th action,
    and every player's result (1 / number of winners for a winner, else 0); ``None``
    for a game that does not end within :data:`MAX_ACTIONS`. ``move`` replaces the
    self-play player (for the calibration benchmark's other players)."""
    state = game.new_state(players)
    seen: list[State] = []
    for n in range(MAX_ACTIONS):
        phase = state.phase
        if phase is Phase.OVER:
            outcome = state.outcome
            assert outcome is not None
            return seen, shares(outcome, players)
        if n % every == 0:
            seen.append(state.search_copy())
        if phase is Phase.THROW:
            spec = state.throw_spec
            assert spec is not None
            state.play(spec.draw(rng.randrange))
        else:
            state.play(move(state, rng) if move else selfplay_move(state, rng, epsilon))
    return None


def samples(game: Game, players: int, games: int, label: str, epsilon: float,
            every: int, progress: bool = False) -> list[Sample]:
    """The samples of ``games`` self-play games, game ``i`` seeded ``f"{label}:{i}"``."""
    out: list[Sample] = []
    for i in range(games):
        played = selfplay_game(game, players, random.Random(f"{label}:{i}"), epsilon, every)
        if played is not None:
            positions, result = played
            out += [(features(s), result) for s in positions]
        if progress:
            print(f"\r{game.id} {players} players: game {i + 1}/{games}", end="",
                  file=sys.stderr, flush=True)
    if progress:
        print(file=sys.stderr)
    return out


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``x`` with ``a x = b`` (Gaussian elimination with partial pivoting)."""
    n = len(b)
    m = [[*row[:], b[i]] for i, row in enumerate(a)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[pivot] = m[pivot], m[c]
        if abs(m[c][c]) < 1e-300:
            raise TrainingError("singular system while fitting")
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            if f:
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][k] * x[k] for k in range(r + 1, n))) / m[r][r]
    return x


def fit(data: Sequence[Sample], ridge: float = 1.0, iterations: int = 12) -> list[float]:
    """The weights (one per feature) of the softmax model that make the results of
    ``data`` likeliest, less ``ridge / 2`` times the squared weights (Newton's method
    from all zeros, ``iterations`` steps or until a step changes no weight by 1e-9).

    :raises TrainingError: when ``data`` is empty.
    """
    if not data:
        raise TrainingError("no finished self-play game to fit")
    d = len(FEATURES)
    w = [0.0] * d
    for _ in range(iterations):
        grad = [-ridge * wi for wi in w]
        hess = [[ridge if i == j else 0.0 for j in range(d)] for i in range(d)]
        for rows, result in data:
            pi = model_chances(Model("", 0, tuple(w)), rows)
            mean = [sum(pi[p] * rows[p][k] for p in range(len(rows))) for k in range(d)]
            for p, row in enumerate(rows):
                v = [row[k] - mean[k] for k in range(d)]
                err = result[p] - pi[p]
                q = pi[p]
                for i in range(d):
                    vi = v[i]
                    if vi:  # sum of err * row[i] over players = sum of err * v[i] (errs sum to 0)
                        grad[i] += err * vi
                        qi = q * vi
                        hrow = hess[i]
                        for j in range(i, d):
                            hrow[j] += qi * v[j]
        for i in range(d):
            for j in range(i):
                hess[i][j] = hess[j][i]
        step = _solve(hess, grad)
        w = [wi + si for wi, si in zip(w, step, strict=True)]
        if max(abs(s) for s in step) < 1e-9:
            break
    return w


def log_loss(weights: Sequence[float], data: Sequence[Sample]) -> float:
    """The mean negative log-likelihood of ``data``'s results under ``weights``."""
    model = Model("", 0, tuple(weights))
    total = 0.0
    for rows, result in data:
        pi = model_chances(model, rows)
        total -= sum(r * math.log(max(1e-15, q)) for r, q in zip(result, pi, strict=True))
    return total / max(1, len(data))


def rounded(values: Sequence[float]) -> list[float]:
    """``values`` rounded to six places, as the model file keeps them."""
    return [round(x, 6) for x in values]


def train(game_id: str, seed: int, games: int, epsilon: float = 0.1, every: int = 3,
          ridge: float = 1.0, players: Sequence[int] | None = None,
          progress: bool = False) -> dict[str, object]:
    """The model file's contents for ``game_id`` (see the module's docstring).

    :raises ValueError: for an unknown game or a player count it does not allow.
    :raises TrainingError: when no self-play game ended.
    """
    game = get_game(game_id)
    cls = game_class(game_id)
    counts = list(players) if players else list(range(cls.min_players, cls.max_players + 1))
    models: dict[str, object] = {}
    for n in counts:
        game.check_players(n)
        data = samples(game, n, games, f"train:{seed}:{n}", epsilon, every, progress)
        weights = fit(data, ridge)
        models[str(n)] = {
            "weights": rounded(weights),
            "positions": len(data),
            "log_loss": round(log_loss(weights, data), 6),
        }
    return {
        "format": "companion-learned-evaluation",
        "version": 1,
        "game": game_id,
        "features": list(FEATURES),
        "training": {"command": f"python -m companion.ai.train --game {game_id} --seed {seed} "
                     f"--games {games}", "seed": seed, "games": games, "epsilon": epsilon,
                     "every": every, "ridge": ridge},
        "models": models,
    }


def train_td(game_id: str, seed: int, games: int, td_games: int, lam: float, alpha: float,
             depth: int, squares: bool, progress: bool = False,
             extras: bool = False, start_from: str | None = None) -> dict[str, object]:
    """The model file's contents for ``game_id`` trained by TD-leaf
    (:mod:`companion.ai.td_leaf`): the Newton fit of :func:`train` on ``games``
    one-ply self-play games (seed ``seed``) is the start, then ``td_games`` games of
    TD-leaf(``lam``) with the search at ``depth`` in the loop (seeds ``td:SEED:I``).

    :raises ValueError: for a game TD-leaf does not train this way (the Senets, the
        Labyrinth at two players; its other counts and the Cretan Labyrinth start from
        their search's leaf instead: :func:`train_td_counts`).
    :raises TrainingError: when no self-play game ended.
    """
    from companion.ai.td_leaf import labyrinth_start, td_leaf

    # the Labyrinth: its other player counts keep their Newton fit (the same command)
    counts = None if game_id == "labyrinth" else [2]
    start = train(game_id, seed, games, players=counts, progress=progress)
    entry = start["models"]["2"]  # type: ignore[index]
    model = Model(game_id, 2, tuple(entry["weights"]))
    if game_id == "labyrinth":
        model = labyrinth_start(model)
    extras = extras and squares and game_id == "senet-tait"
    if start_from is not None:
        # TD-leaf goes on from that file's two-player model (its weights and values per
        # square; the inputs it lacks start at 0), not from the Newton fit
        known = json.loads(Path(start_from).read_text("utf-8"))["models"]["2"]
        model = Model(game_id, 2, tuple(known["weights"]), tuple(known.get("squares", ())))
        if extras and len(model.squares) == 30:
            model = Model(game_id, 2, model.weights, model.squares + (0.0,) * len(TAIT_EXTRAS))
    learned = td_leaf(game_id, model, seed, td_games, lam, alpha, depth, squares, progress,
                      extras)
    command = (f"python -m companion.ai.train --game {game_id} --seed {seed} --games {games} "
               f"--method td-leaf --td-games {td_games} --td-lambda {lam} --td-alpha {alpha} "
               f"--td-depth {depth}" + ("" if squares else " --no-squares")
               + (" --td-extras" if extras else "")
               + ("" if start_from is None else f" --td-start {start_from}"))
    result: dict[str, object] = {"weights": rounded(learned.model.weights),
                                 "positions": learned.leaves, "td_loss": round(learned.td_loss, 6),
                                 "start": entry}
    if squares:
        result["squares"] = rounded(learned.model.squares)
    start["models"] = {**start["models"], "2": result}  # type: ignore[dict-item]
    start["training"] = {"command": command, "seed": seed, "games": games, "method": "td-leaf",
                         "td_games": td_games, "td_lambda": lam, "td_alpha": alpha,
                         "td_depth": depth, "squares": squares, "epsilon": 0.1, "every": 3,
                         **({"extras": list(TAIT_EXTRAS)} if extras else {}),
                         "ridge": 1.0}
    return start


def train_td_counts(game_id: str, counts: Sequence[int], seed: int, td_games: int, lam: float,
                    alpha: float, depth: int, squares: bool, base: dict[str, Any],
                    progress: bool = False) -> dict[str, Any]:
    """``base`` (a model file's contents) with the models of ``counts`` players replaced
    by TD-leaf's (:mod:`companion.ai.td_leaf`), each started from its search's leaf as
    shipped before (the Labyrinth: :func:`~companion.ai.td_leaf.labyrinth_start`; the
    Cretan Labyrinth: :func:`~companion.ai.td_leaf.progress_start`), not from a Newton
    fit, and run with seeds ``td:SEED:I``; every other entry of ``base`` is kept as it
    is. Each new entry records the command that writes it (``command``), so the file
    says how each of its models was made.

    :raises ValueError: for a game without such a start (the Senets: :func:`train_td`),
        or a count the game is not played by.
    """
    from companion.ai.td_leaf import labyrinth_start, progress_start, td_leaf

    if game_id not in ("labyrinth", "cretan-labyrinth"):
        raise ValueError(f"{game_id}: TD-leaf per count starts from the Labyrinths' leaves only")
    out: dict[str, Any] = json.loads(json.dumps(base))
    for n in counts:
        if game_id == "labyrinth":
            start = labyrinth_start(Model(game_id, n, (0.0,) * len(FEATURES)))
            began = "labyrinth_leaf"
        else:
            start = progress_start(game_id, n)
            began = "progress"
        learned = td_leaf(game_id, start, seed, td_games, lam, alpha, depth, squares, progress)
        command = (f"python -m companion.ai.train --game {game_id} --seed {seed} "
                   f"--method td-leaf --players {n} --td-games {td_games} --td-lambda {lam} "
                   f"--td-alpha {alpha} --td-depth {depth}" + ("" if squares else " --no-squares"))
        entry: dict[str, Any] = {"weights": rounded(learned.model.weights),
                                 "positions": learned.leaves,
                                 "td_loss": round(learned.td_loss, 6),
                                 "command": command, "start": began,
                                 "td_games": td_games, "td_lambda": lam, "td_alpha": alpha,
                                 "td_depth": depth}
        if learned.model.squares:
            entry["squares"] = rounded(learned.model.squares)
        out["models"][str(n)] = entry
    return out


def dumps(model: dict[str, object]) -> str:
    """The model file's text (stable: sorted keys, two-space indent, a final newline)."""
    return json.dumps(model, indent=2, sort_keys=True) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m companion.ai.train",
        description="Train a game's learned evaluation from self-play (see docs/ai.md).")
    parser.add_argument("--game", required=True, metavar="ID")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=400, metavar="N",
                        help="self-play games per number of players (default 400)")
    parser.add_argument("--epsilon", type=float, default=0.1,
                        help="share of random moves in self-play (default 0.1)")
    parser.add_argument("--every", type=int, default=3, metavar="K",
                        help="record the position before every K-th action (default 3)")
    parser.add_argument("--ridge", type=float, default=1.0, help="ridge penalty (default 1)")
    parser.add_argument("--players", type=int, action="append", default=None, metavar="N",
                        help="only this number of players (repeatable; default: all)")
    parser.add_argument("--out", default=None, metavar="FILE",
                        help="where to write (default companion/ai/data/GAME.json; - for stdout)")
    parser.add_argument("--method", choices=("newton", "td-leaf"), default="newton",
                        help="newton (default): fit to one-ply self-play outcomes; td-leaf: "
                        "start from that fit, then TD-leaf with the search in the loop "
                        "(companion/ai/td_leaf.py). The Cretan Labyrinth, and the Labyrinth "
                        "with --players other than 2: each count's model by TD-leaf from its "
                        "search's leaf, the file's other models kept as they are")
    parser.add_argument("--td-games", type=int, default=2000, metavar="N",
                        help="td-leaf: self-play games of the search (default 2000)")
    parser.add_argument("--td-lambda", type=float, default=0.7, help="td-leaf: lambda (default 0.7)")
    parser.add_argument("--td-alpha", type=float, default=0.01,
                        help="td-leaf: step size at the start, halved by the end (default 0.01)")
    parser.add_argument("--td-depth", type=int, default=1, metavar="PLIES",
                        help="td-leaf: the self-play search's depth in whole turns (default 1)")
    parser.add_argument("--td-extras", dest="extras", action="store_true",
                        help="td-leaf, Tait's Senet: the inputs beyond one value per square "
                        "(pieces on the plinth, the thrower's pieces exposed, pieces passed: "
                        "companion.ai.learned.TAIT_EXTRAS)")
    parser.add_argument("--td-start", default=None, metavar="FILE",
                        help="td-leaf: go on from FILE's two-player model instead of the "
                        "Newton fit (which the file still keeps as its start)")
    parser.add_argument("--no-squares", dest="squares", action="store_false",
                        help="td-leaf: no value per square of the path (the ten features only)")
    args = parser.parse_args(argv)
    began = time.process_time()
    out = Path(args.out) if args.out not in (None, "-") else (
        Path(__file__).parent / "data" / f"{args.game}.json")
    if args.method == "td-leaf" and (args.game == "cretan-labyrinth"
                                     or (args.game == "labyrinth" and args.players
                                         and args.players != [2])):
        # one model per count, each from its search's leaf; the file's others kept
        try:
            base = json.loads(out.read_text("utf-8"))
        except (OSError, ValueError) as exc:
            parser.error(f"{out}: {exc} (the file whose other models are kept)")
        counts = args.players or list(range(game_class(args.game).min_players,
                                            game_class(args.game).max_players + 1))
        model = train_td_counts(args.game, counts, args.seed, args.td_games, args.td_lambda,
                                args.td_alpha, args.td_depth, args.squares, base, progress=True)
    elif args.method == "td-leaf":
        model = train_td(args.game, args.seed, args.games, args.td_games, args.td_lambda,
                         args.td_alpha, args.td_depth, args.squares, progress=True,
                         extras=args.extras, start_from=args.td_start)
    else:
        model = train(args.game, args.seed, args.games, args.epsilon, args.every, args.ridge,
                      args.players, progress=True)
    text = dumps(model)
    if args.out == "-":
        sys.stdout.write(text)
    else:
        out.write_text(text, encoding="utf-8")
        print(f"wrote {out} ({time.process_time() - began:.0f} s of CPU)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
