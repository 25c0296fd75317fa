"""The computer player: one call per decision, at a level chosen per seat.

>>> import random
>>> from companion.rules import get_game
>>> from companion.ai.player import choose
>>> state = get_game("senet-tait").new_state()
>>> _ = state.apply(state.throw_spec.parse("4"))
>>> decision = choose(state, "normal", random.Random(1), max_nodes=500)
>>> decision.move.notation, [r.move.notation for r in decision.ranking]
('enter 4', ['enter 4'])

:func:`choose` searches (:mod:`companion.ai.search`) and returns a
:class:`~companion.ai.search.Decision`: the move, its value (the player's expected
chance to win after it, 0..1), every legal move ranked, the depth reached. The
levels (:data:`LEVELS`):

* ``easy``: one ply (each move, then the evaluation), its choice blurred by noise from
  the seeded random generator: it often picks the second or third best move;
* ``normal`` (the default): iterative deepening to 4 plies within 250 node
  expansions;
* ``strong``: iterative deepening to 8 plies within 1000 node expansions.

The levels have node budgets and no time budget: a decision depends on the position
(and ``easy``'s seeded noise) only, so it is the same on every machine, a slow Pi
included; a Raspberry Pi is about 8 to 12 times slower per core than the machine the
times in docs/ai.md were measured on.

A budget given to :func:`choose` replaces the level's (seconds of wall-clock time; the
search never goes over it by more than one node expansion); ``max_nodes`` caps the node
expansions instead or as well (a node budget alone makes a decision the same on every
machine). :func:`estimate` is a player's chance to win from the evaluation alone, for a
screen that shows it.

:func:`player` also names the baselines of ``companion rules match`` and
``benchmarks/ai_strength.py``: ``random`` (a uniformly random legal move) and
``greedy`` (one ply, no noise, no budget: the move whose position evaluates best).
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final

from companion.ai.calibrate import chance
from companion.ai.learned import estimate, search_chances
from companion.ai.race import covers
from companion.ai.search import Decision, RankedMove, Values, search
from companion.rules import Move, State


@dataclass(frozen=True, slots=True)
class Level:
    """How a computer player searches: ``max_depth`` plies at most, within
    ``budget_s`` seconds and ``max_nodes`` node expansions by default (``None``: no
    limit), and ``noise``: the standard deviation of the Gaussian noise added to each
    move's value (a win chance, 0..1) before the choice (0: the best move)."""

    name: str
    max_depth: int
    budget_s: float | None
    max_nodes: int | None
    noise: float
    help: str


LEVELS: Final[dict[str, Level]] = {
    "easy": Level("easy", 1, None, None, 0.12, "one ply ahead, and often not the best move"),
    "normal": Level("normal", 4, None, 250, 0.0, "up to 4 plies within 250 positions"),
    "strong": Level("strong", 8, None, 1000, 0.0, "up to 8 plies within 1000 positions"),
}
"""The levels a seat can be given, by name. None has a time budget: ``easy``'s one ply is
bounded by the legal moves (or a casting-stick turn's ends), the others by their node
budget, so a level plays the same move on a busy machine or a Pi (``easy`` had 0.04 s of
wall clock, which cut its one ply short under load and on a slow Pi)."""

DEFAULT_LEVEL: Final = "normal"

BASELINES: Final = ("random", "greedy")
"""Players that are not levels: for matches and benchmarks."""


def get_level(name: str) -> Level:
    """The level called ``name``.

    :raises ValueError: naming the levels, for an unknown name.
    """
    try:
        return LEVELS[name]
    except KeyError:
        raise ValueError(f"unknown level {name!r}; levels: {', '.join(LEVELS)}") from None


def choose(
    state: State,
    level: str = DEFAULT_LEVEL,
    rng: random.Random | None = None,
    budget_s: float | None = None,
    max_nodes: int | None = None,
    clock: Callable[[], float] = time.perf_counter,
    evaluation: Callable[[State], Values] = search_chances,
    cancel: threading.Event | None = None,
) -> Decision:
    """The move the computer plays in ``state`` at ``level`` (a name of :data:`LEVELS`).

    ``rng`` draws the noise of a noisy level (``easy``); ``None`` is a generator
    seeded with 0, so a decision is reproducible unless a time budget cuts the search
    short. ``budget_s`` (seconds) and ``max_nodes`` replace the level's budget when
    given. With one legal move there is nothing to search: it is returned at once.
    ``evaluation`` values the search's leaves (one win chance per player; default
    :func:`companion.ai.learned.search_chances`). ``cancel``: once set, the search
    ends at its next node expansion (:class:`~companion.ai.search.Cancelled`).

    :raises ValueError: for an unknown level.
    :raises IllegalMoveError: when ``state`` waits for a throw or is over.
    :raises Cancelled: when ``cancel`` is set before the search ends.
    """
    chosen = get_level(level)
    start = clock()
    ranking, depth, nodes = search(
        state,
        chosen.max_depth,
        chosen.budget_s if budget_s is None else budget_s,
        chosen.max_nodes if max_nodes is None else max_nodes,
        clock,
        evaluation,
        cancel,
    )
    pick: RankedMove = ranking[0]
    if chosen.noise and len(ranking) > 1:
        draw = rng if rng is not None else random.Random(0)
        noisy = [r.value + draw.gauss(0.0, chosen.noise) for r in ranking]
        pick = ranking[noisy.index(max(noisy))]
    return Decision(pick.move, pick.value, tuple(ranking), depth, nodes, clock() - start)


@dataclass(frozen=True, slots=True)
class Hint:
    """The hint for the player to act: the computer's ranking at ``level``.

    ``rows``: every legal move with its chance shown (the mover's chance to win after
    it, 0..1: its searched value through the level's map,
    :func:`companion.ai.calibrate.chance`), best first, all from the same search at the
    same ``depth``
    (plies; casting-stick Senet: turns); the first row is the move the computer plays
    at ``level`` (``easy``: its choice before the noise). ``nodes``: the node
    expansions made.
    """

    level: str
    rows: tuple[RankedMove, ...]
    depth: int
    nodes: int

    @property
    def move(self) -> Move:
        """The move the hint names: the first row's."""
        return self.rows[0].move

    @property
    def value(self) -> float:
        """The first row's value: the mover's chance to win after it, 0..1."""
        return self.rows[0].value

    def losses(self) -> dict[str, float]:
        """Each row's move notation with the chance to win it gives away against the
        first row (0..1; 0 for the first row): what the tutor asks about."""
        best = self.rows[0].value
        return {r.move.notation: max(0.0, best - r.value) for r in self.rows}


def hint(
    state: State,
    level: str = DEFAULT_LEVEL,
    cancel: threading.Event | None = None,
    evaluation: Callable[[State], Values] = search_chances,
    shown: bool = True,
) -> Hint:
    """The hint in ``state`` (a decision is due) at ``level``: the ranking of
    :func:`choose` at that level, whose first row is the move :func:`choose` plays
    (with the same seed; ``easy``: its move before the noise, which blurs the choice,
    not the values) and whose values are all from its deepest finished iteration
    (:func:`companion.ai.search.search`). The level's node budget only: a level's time
    budget (``easy``'s) is not applied, so that the hint is the same on every machine
    (``easy`` is one ply, a few hundred expansions at most). The box's Hint, the tutor
    and ``companion rules hint`` show it.

    The rows' values are the chances shown: each searched value through the level's
    map (:func:`companion.ai.calibrate.chance`, strictly increasing, so the order of
    the rows is the search's); ``shown=False`` keeps the searched values (to fit the
    map and to measure it). In an ending of a solved table (both Senets,
    :func:`companion.ai.race.covers`) every row's value is exact and shown as it is:
    an exact chance needs no map.

    :raises ValueError: for an unknown level.
    :raises IllegalMoveError: when ``state`` waits for a throw or is over.
    :raises Cancelled: when ``cancel`` is set before the search ends.
    """
    chosen = get_level(level)
    ranking, depth, nodes = search(state, chosen.max_depth, None, chosen.max_nodes,
                                   evaluation=evaluation, cancel=cancel)
    if shown and not covers(state):  # an ending's exact chances are shown as they are
        game, players = state.game.id, state.players
        ranking = [RankedMove(r.move, chance(game, players, level, r.value), r.depth)
                   for r in ranking]
    return Hint(level, tuple(ranking), depth, nodes)


def hint_level(seats: Mapping[int, str]) -> str:
    """The level a person's hint is given at: that of the computer's seat of the game
    (``seats``: player index to level; several: the lowest index's), else
    :data:`DEFAULT_LEVEL`."""
    for p in sorted(seats):
        if seats[p] in LEVELS:
            return seats[p]
    return DEFAULT_LEVEL


Player = Callable[[State, random.Random], Move]
"""A player for matches: the move to play in a state where a decision is due."""


def player(name: str) -> Player:
    """The player called ``name``: a level (:data:`LEVELS`) or a baseline
    (:data:`BASELINES`).

    :raises ValueError: naming what exists, for an unknown name.
    """
    if name == "random":
        return _random_move
    if name == "greedy":
        return _greedy_move
    if name not in LEVELS:
        known = ", ".join((*LEVELS, *BASELINES))
        raise ValueError(f"unknown player {name!r}; players: {known}")
    return lambda state, rng: choose(state, name, rng).move


def _random_move(state: State, rng: random.Random) -> Move:
    moves = state.legal_moves()
    return moves[rng.randrange(len(moves))]


def _greedy_move(state: State, rng: random.Random) -> Move:
    ranking, _depth, _nodes = search(state, 1)
    return ranking[0].move


__all__ = [
    "BASELINES",
    "DEFAULT_LEVEL",
    "LEVELS",
    "Decision",
    "Hint",
    "Level",
    "Player",
    "RankedMove",
    "choose",
    "estimate",
    "get_level",
    "hint",
    "hint_level",
    "player",
]
