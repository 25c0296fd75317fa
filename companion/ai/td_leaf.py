"""TD-leaf(lambda): the Senets' and the Labyrinth's evaluations learned with the search
in the loop.

The Newton fit of :mod:`companion.ai.train` fits the learned model to the outcomes of a
one-ply player's games (the progress heuristic with 10% random moves), which no level
plays. Here the model learns from the games the search itself plays with it, as
TD-Gammon (Tesauro 1995) and KnightCap (Baxter, Tridgell and Weaver 1998, "TD-leaf")
learned theirs: two players self-play with :func:`companion.ai.search.search` at depth
``depth`` (1: every way to end the turn, valued by the model, the best taken; the
``greedy`` player of casting-stick Senet) over the model being trained, and after each
game the model's value of the *leaf of the principal variation* of every decision (at
depth 1 the end of the mover's turn, the position before the next cast: the turn the
search chose ends there) moves towards the TD(lambda) return of the values that came
after it, the last one the result (1 if Player 1 won, else 0)::

    G[T-1] = result,  G[t] = (1 - lambda) V[t+1] + lambda G[t+1]
    w += alpha * (G[t] - V[t]) * x[t]          (for every leaf t of the game)

where ``V[t] = sigmoid(w . x[t])`` is Player 1's chance at leaf ``t`` and ``x[t]`` the
difference of the two players' inputs (the ten :data:`~companion.ai.learned.FEATURES`
and, with ``squares``, a count of plinths per square of each player's own path:
:attr:`~companion.ai.learned.Model.squares`; in Tait's Senet the count of pieces per
square, :func:`~companion.ai.learned.tait_square_rows`). The step is the gradient of the log-loss
of the logistic model against the target ``G[t]`` (no ``V (1 - V)`` factor), computed
with the weights as they were at the game's start (offline within a game, online
between games). Throws are drawn from ``random.Random(f"td:{seed}:{i}")`` for game
``i``, the players are deterministic, and the arithmetic is plain Python floats in a
fixed order: the same seed and options give the same weights, bit for bit.

In Tait's Senet depth 1 is one action (the search's ply), so a leaf is the position
before each throw; the search values the endings of the solved table exactly
(:mod:`companion.ai.race`), and the model is not used there: a self-play game stops
at the first leaf the table covers, and its exact chance for Player 1 takes the
result's place (the last return), so the model learns only the positions it values.

The Labyrinth (two players; 3 and 4 below): the same, with the
search at ``depth`` plies (2: both dice of the turn), the leaves the positions before
each main throw of two dice, the inputs the ten features and
:func:`~companion.ai.learned.labyrinth_rows` (a count per field of free and of trapped
pieces, and the pieces at risk as :mod:`companion.ai.labyrinth_leaf` counts them), and
the start :func:`labyrinth_start`, the search's leaf as it was (so the training starts
no worse than it).

More players (the Labyrinth at 3 and 4, the Cretan Labyrinth at 2, 3 and 4): the same
with every player's own inputs ``x[t][p]`` (not a difference) and the model's softmax
``V[t][p] = exp(w . x[t][p]) / sum over q of exp(w . x[t][q])``; the returns are
vectors (``G[T-1]`` the winners' shares), and the step is the gradient of the
cross-entropy of the softmax against them, ``w += alpha * sum over p of (G[t][p] -
V[t][p]) * x[t][p]``, which at two players is the step above. The start is the
search's leaf as it was (:func:`labyrinth_start`, :func:`progress_start`), so the
training starts no worse than it. The Cretan Labyrinth's leaves are the positions
before each throw of the distance dice (the start of a turn), its inputs the ten
features (``escape`` and ``items`` are its own) and with ``squares``
:func:`~companion.ai.learned.cretan_rows` (``--no-squares``: the ten features only, as
shipped); after every step :func:`cretan_constrained` keeps progress and the Magic Key
from lowering a score. Plain Python; the cost is the
self-play searches (docs/ai.md, "TD-leaf").
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from companion.ai.evaluate import shares
from companion.ai.learned import (
    FEATURES,
    Model,
    cretan_inputs,
    cretan_key_gain,
    cretan_rows,
    cretan_scores,
    features,
    labyrinth_inputs,
    labyrinth_rows,
    model_chances,
    softmax,
    square_rows,
    tait_extra_rows,
    tait_square_rows,
)
from companion.ai.race import exact_for
from companion.ai.search import Values, search
from companion.rules import Phase, State, get_game
from companion.rules.cretan_labyrinth import CretanLabyrinthState
from companion.rules.labyrinth import LabyrinthState
from companion.rules.senet_sticks.state import SenetSticksState
from companion.rules.senet_tait import SenetTaitState

_Leaf = TypeVar("_Leaf")

MAX_ACTIONS = 20_000
"""A self-play game that has not ended after this many actions is dropped."""


@dataclass(frozen=True, slots=True)
class TdResult:
    """What :func:`td_leaf` learned: the model, the leaves it learned from, the games
    that ended, and the mean log-loss of the leaves' values against their TD targets
    over the last tenth of the games (how well the model predicts its own future)."""

    model: Model
    leaves: int
    games: int
    td_loss: float


def inputs(state: State, squares: bool, extras: bool = False) -> list[float]:
    """``x``: Player 1's inputs less Player 2's (the ten features, then with
    ``squares`` the count per square of the own path, or in the Labyrinth
    :func:`~companion.ai.learned.labyrinth_rows`; with ``extras`` in Tait's Senet
    then :func:`~companion.ai.learned.tait_extra_rows`)."""
    rows = features(state)
    x = [a - b for a, b in zip(rows[0], rows[1], strict=True)]
    if not squares:
        return x
    if isinstance(state, SenetSticksState):
        first, second = square_rows(state)
    elif isinstance(state, LabyrinthState):
        first, second = labyrinth_rows(state)
    elif isinstance(state, CretanLabyrinthState):
        first, second = cretan_rows(state)
    elif isinstance(state, SenetTaitState):
        first, second = tait_square_rows(state)
        if extras:
            more = tait_extra_rows(state)
            first, second = first + more[0], second + more[1]
    else:
        return x
    x += [a - b for a, b in zip(first, second, strict=True)]
    return x


def player_inputs(state: State, squares: bool, extras: bool = False) -> list[list[float]]:
    """Every player's own inputs (one list per player): the ten features, then with
    ``squares`` the game's rows of :attr:`~companion.ai.learned.Model.squares` (see
    :func:`inputs`, which is the first list less the second at two players)."""
    rows = [list(r) for r in features(state)]
    if not squares:
        return rows
    more: list[list[float]]
    if isinstance(state, SenetSticksState):
        more = square_rows(state)
    elif isinstance(state, LabyrinthState):
        more = labyrinth_rows(state)
    elif isinstance(state, CretanLabyrinthState):
        more = cretan_rows(state)
    elif isinstance(state, SenetTaitState):
        more = tait_square_rows(state)
        if extras:
            more = [a + b for a, b in zip(more, tait_extra_rows(state), strict=True)]
    else:
        return rows
    return [a + b for a, b in zip(rows, more, strict=True)]


def progress_start(game_id: str, players: int) -> Model:
    """The progress heuristic (:func:`companion.ai.evaluate.chances`) as a model:
    ``progress`` weighted by the game's sharpness ``k``, every other weight 0 (the
    softmax of ``k * progress``). The Cretan Labyrinth's TD-leaf start: its search's
    leaf before (:data:`companion.ai.learned.SEARCH_BY_PROGRESS`)."""
    k = get_game(game_id).sharpness
    weights = [0.0] * len(FEATURES)
    weights[0] = k
    return Model(game_id, players, tuple(weights))


def labyrinth_start(fitted: Model) -> Model:
    """The Labyrinth's TD-leaf start: :func:`companion.ai.labyrinth_leaf.chances` as a
    model (``progress`` weighted by the game's sharpness ``k``, the at-risk input
    ``-k``, every other weight 0), so the training starts from the search's leaf as
    shipped before, not from ``fitted`` (the Newton fit, which the search played worse
    with: :data:`companion.ai.learned.SEARCH_BY_PROGRESS`)."""
    state = get_game(fitted.game).new_state(fitted.players)
    assert isinstance(state, LabyrinthState)
    k = state.game.sharpness
    weights = [0.0] * len(fitted.weights)
    weights[0] = k
    squares = [0.0] * labyrinth_inputs(state)
    squares[-1] = -k
    return Model(fitted.game, fitted.players, tuple(weights), tuple(squares))


def cretan_constrained(w: list[float], base: int, players: int) -> list[float]:
    """The Cretan Labyrinth's weights ``w`` (the ten features, then with
    :func:`~companion.ai.learned.cretan_rows` those inputs' weights from ``base`` on)
    moved the least so that more progress never lowers a score (``progress``'s weight
    at least 0, and at least twice ``progress_squared``'s less: the score rises on
    0..1) and taking the Magic Key never lowers it (with the rows: the weight of the
    stage "the key and no diamond" raised until
    :func:`~companion.ai.learned.cretan_key_gain` is 0 where it was below). Applied
    after every step of the training: the key is the way to escape, and a model that
    valued it below the diamonds handed in (the model before issue 32's fifth round)
    made the search never take it."""
    w = list(w)
    if w[0] < 0.0:
        w[0] = 0.0
    if w[0] + 2.0 * w[1] < 0.0:
        w[1] = -w[0] / 2.0
    state = get_game("cretan-labyrinth").new_state(players)
    assert isinstance(state, CretanLabyrinthState)
    if len(w) - base == cretan_inputs(state):
        gain = cretan_key_gain(Model("cretan-labyrinth", players, tuple(w[:base]), tuple(w[base:])), state)
        if gain < 0.0:
            w[base + len(state.game.decks.colours) + 1] -= gain
    return w


def _sigmoid(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def _evaluation(model: Model) -> Callable[[State], Values]:
    """The search's leaves valued by ``model`` (a finished game: the winners' shares)."""
    def value(state: State) -> Values:
        outcome = state.outcome
        if outcome is not None:
            return shares(outcome, state.players)
        if isinstance(state, CretanLabyrinthState):
            return softmax(cretan_scores(model, state))
        return model_chances(model, features(state), state)
    return value


def selfplay_leaves(model: Model, game_id: str, label: str, depth: int,
                    squares: bool, extras: bool = False) -> tuple[list[list[float]], float] | None:
    """One self-play game of the search at ``depth`` over ``model`` (throws from
    ``random.Random(label)``): the inputs of every decision's principal-variation leaf
    (the position before each cast of the play, the end of the turn chosen), and
    Player 1's result (where the game reaches an ending of the solved table,
    :func:`companion.ai.race.exact_for`, its exact chance there: the game stops);
    ``None`` for a game that does not end in :data:`MAX_ACTIONS`."""
    played = _selfplay(model, game_id, label, depth,
                       lambda state: inputs(state, squares, extras))
    return None if played is None else (played[0], played[1][0])


def selfplay_rows(model: Model, game_id: str, label: str, depth: int, squares: bool,
                  extras: bool = False) -> tuple[list[list[list[float]]], tuple[float, ...]] | None:
    """:func:`selfplay_leaves` at any count of players (``model.players``): every
    player's own inputs at each decision's leaf (:func:`player_inputs`), and every
    player's result (the winners' shares, or the solved table's exact values)."""
    return _selfplay(model, game_id, label, depth,
                     lambda state: player_inputs(state, squares, extras))


def _selfplay(model: Model, game_id: str, label: str, depth: int,
              record: Callable[[State], _Leaf]) -> tuple[list[_Leaf], tuple[float, ...]] | None:
    """The self-play game of :func:`selfplay_leaves` at ``model.players`` players:
    ``record`` of each leaf, and every player's result."""
    game = get_game(game_id)
    n = model.players
    rng = random.Random(label)
    state = game.new_state(n)
    evaluation = _evaluation(model)
    exact = exact_for(game)
    leaves: list[_Leaf] = []
    for _ in range(MAX_ACTIONS):
        phase = state.phase
        if phase is Phase.OVER:
            outcome = state.outcome
            assert outcome is not None
            return leaves, shares(outcome, n)
        if phase is Phase.THROW:
            spec = state.throw_spec
            assert spec is not None
            known = None if exact is None else exact(state)
            if known is not None:
                return leaves, tuple(known)
            if _in_play(state):
                leaves.append(record(state))
            state.play(spec.draw(rng.randrange))
        else:
            moves = state.legal_moves()
            if len(moves) == 1:
                state.play(moves[0])
            else:
                ranking, _depth, _nodes = search(state, depth, evaluation=evaluation)
                state.play(ranking[0].move)
    return None


def _in_play(state: State) -> bool:
    """Whether ``state`` waits for the casting sticks of the play (not the casts for
    colours or who begins; in Tait's Senet every throw; in the Labyrinth the main
    throw of two dice; in the Cretan Labyrinth the distance dice, a turn's start)."""
    if isinstance(state, SenetTaitState):
        return True
    if isinstance(state, LabyrinthState):
        return state.throw_spec is state.game.two_dice and not state.throwing_for_start
    if isinstance(state, CretanLabyrinthState):
        return state.throw_spec is state.game.distance_dice
    return isinstance(state, SenetSticksState) and state.throw_spec is state.game.sticks


def _td_many(game_id: str, start: Model, seed: int, games: int, lam: float, alpha: float,
             depth: int, squares: bool, progress: bool) -> TdResult:
    """:func:`td_leaf` at more than two players: the softmax's own inputs per player
    (the module's docstring)."""
    n = start.players
    width = len(player_inputs(get_game(game_id).new_state(n), squares)[0])
    base = len(start.weights)
    w = list(start.weights)
    if squares:
        w += list(start.squares) if start.squares else [0.0] * (width - base)
    leaves_seen = ended = tail_count = 0
    tail_loss = 0.0
    for i in range(games):
        model = Model(game_id, n, tuple(w[:base]), tuple(w[base:]))
        played = selfplay_rows(model, game_id, f"td:{seed}:{i}", depth, squares)
        if progress:
            print(f"\rTD-leaf: game {i + 1}/{games}", end="", file=sys.stderr, flush=True)
        if played is None or not played[0]:
            continue
        xs, result = played
        ended += 1
        values = [_softmax([sum(wi * xi for wi, xi in zip(w, row, strict=True)) for row in rows])
                  for rows in xs]
        target = list(result)
        step = alpha * (1.0 - 0.5 * i / games)
        grad = [0.0] * len(w)
        tail = i >= games - max(1, games // 10)
        for t in range(len(xs) - 1, -1, -1):
            v = values[t]
            if tail:
                tail_loss -= sum(g * math.log(min(max(vp, 1e-12), 1.0)) for g, vp in zip(target, v, strict=True) if g)
                tail_count += 1
            for p, row in enumerate(xs[t]):
                err = target[p] - v[p]
                if err:
                    for k, xk in enumerate(row):
                        if xk:
                            grad[k] += err * xk
            target = [(1.0 - lam) * vp + lam * g for vp, g in zip(v, target, strict=True)]
        w = [wi + step * g for wi, g in zip(w, grad, strict=True)]
        if game_id == "cretan-labyrinth":
            w = cretan_constrained(w, base, n)
        leaves_seen += len(xs)
    if progress:
        print(file=sys.stderr)
    model = Model(game_id, n, tuple(w[:base]), tuple(w[base:]))
    return TdResult(model, leaves_seen, ended, tail_loss / max(1, tail_count))


def _softmax(scores: list[float]) -> list[float]:
    top = max(scores)
    e = [math.exp(z - top) for z in scores]
    total = sum(e)
    return [x / total for x in e]


def td_leaf(game_id: str, start: Model, seed: int, games: int, lam: float = 0.7,
            alpha: float = 0.01, depth: int = 1, squares: bool = True,
            progress: bool = False, extras: bool = False) -> TdResult:
    """TD-leaf(``lam``) from the weights of ``start`` (its squares 0 where it has none)
    over ``games`` self-play games (see the module's docstring); the step ``alpha``
    falls linearly to half of it over the games. ``extras`` (Tait's Senet, with
    ``squares``): the inputs of :func:`~companion.ai.learned.tait_extra_rows` after the
    values per square (:data:`~companion.ai.learned.TAIT_EXTRAS`).

    At more than two players (``start.players``: the Labyrinth, the Cretan Labyrinth)
    the softmax's step over every player's own inputs (the module's docstring);
    ``extras`` is then ignored.

    :raises ValueError: for a game without TD-leaf's leaves (only the Senets, the
        Labyrinth and the Cretan Labyrinth have them), or a count of players the game
        does not allow.
    """
    if game_id not in ("senet-sticks", "senet-tait", "labyrinth", "cretan-labyrinth"):
        raise ValueError(f"TD-leaf has no leaves for the game {game_id!r}")
    played_by = get_game(game_id)
    if not played_by.min_players <= start.players <= played_by.max_players:
        raise ValueError(f"{game_id} is not played by {start.players}")
    if start.players != 2:
        return _td_many(game_id, start, seed, games, lam, alpha, depth, squares, progress)
    extras = extras and squares and game_id == "senet-tait"
    n = len(inputs(get_game(game_id).new_state(2), True, extras)) - len(start.weights)
    w = list(start.weights)
    if squares:
        w += list(start.squares) if start.squares else [0.0] * n
    base = len(start.weights)
    leaves_seen = 0
    ended = 0
    tail_loss = 0.0
    tail_count = 0
    for i in range(games):
        model = Model(game_id, 2, tuple(w[:base]), tuple(w[base:]))
        played = selfplay_leaves(model, game_id, f"td:{seed}:{i}", depth, squares, extras)
        if progress:
            print(f"\rTD-leaf: game {i + 1}/{games}", end="", file=sys.stderr, flush=True)
        if played is None or not played[0]:
            continue
        xs, result = played
        ended += 1
        values = [_sigmoid(sum(wi * xi for wi, xi in zip(w, x, strict=True))) for x in xs]
        target = result
        step = alpha * (1.0 - 0.5 * i / games)
        grad = [0.0] * len(w)
        for t in range(len(xs) - 1, -1, -1):
            v = values[t]
            err = target - v
            if i >= games - max(1, games // 10):
                vv = min(max(v, 1e-12), 1 - 1e-12)
                tail_loss -= target * math.log(vv) + (1 - target) * math.log(1 - vv)
                tail_count += 1
            x = xs[t]
            for k, xk in enumerate(x):
                if xk:
                    grad[k] += err * xk
            target = (1.0 - lam) * v + lam * target
        w = [wi + step * g for wi, g in zip(w, grad, strict=True)]
        if game_id == "cretan-labyrinth":
            w = cretan_constrained(w, base, 2)
        leaves_seen += len(xs)
    if progress:
        print(file=sys.stderr)
    model = Model(game_id, 2, tuple(w[:base]), tuple(w[base:]))
    return TdResult(model, leaves_seen, ended, tail_loss / max(1, tail_count))


__all__ = ["TdResult", "cretan_constrained", "inputs", "labyrinth_start", "player_inputs", "progress_start",
           "selfplay_leaves", "selfplay_rows", "td_leaf"]
