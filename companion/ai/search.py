"""Expectimax over the games' chance nodes, deepened step by step under a budget.

The tree, through the public rules API only (search mode: ``search_copy``, ``play``,
``position_key``, ``chance_outcomes``, ``progress``):

* a *decision* node (:attr:`Phase.MOVE` or :attr:`Phase.DECIDE`): the player to act
  picks one of the legal moves;
* a *chance* node (:attr:`Phase.THROW`): every outcome of
  :meth:`~companion.rules.State.chance_outcomes`, weighted by its probability (the
  exact distribution as floats; throws that differ only in the order of their dice or
  sticks are one outcome);
* a *leaf*: a finished game, or where the depth ends: the learned evaluation of
  :mod:`companion.ai.learned` (one win chance per player; the progress heuristic of
  :mod:`companion.ai.evaluate` for a game without a shipped model, and in the games
  of :data:`~companion.ai.learned.SEARCH_BY_PROGRESS`, Tait's Senet and both
  Labyrinths, where it plays better: :func:`~companion.ai.learned.search_chances`).

**Values are vectors**, one win chance per player, summing to 1. They are backed up
by *expectimax-n* (max-n, Luckhardt and Irani 1986, with chance nodes): at a decision
node the player to act takes the child that gives *them* the highest chance; at a
chance node the vector is the probability-weighted mean of the children's. With two
players this is expectiminimax (one player's gain is the other's loss). With three or
four (the Labyrinth, the Cretan Labyrinth) every player is assumed to play for its own
chance, not in a coalition against the player searching (not "paranoid"); between
equal values the move listed first wins.

**Depth** counts plies: a decision with more than one legal move, or a throw. A forced
decision (one legal move, such as ``pass``) is free. Depth 1 is every legal move then
the evaluation; depth 2 adds the throw that follows (the expected evaluation over its
outcomes), depth 3 the next decision, and so on. A Labyrinth turn (two dice, a
decision each) is two plies; a Senet turn one.

**Iterative deepening under a budget**: depth 1, then 2, 3, ... up to the level's
maximum, while the budget lasts: ``budget_s`` seconds of wall-clock time and/or
``max_nodes`` node expansions (an *expansion* is a copy of a position with one action
played on it). Both are checked before every expansion, and the search stops at once
when either is spent, so it never goes over the budget by more than one expansion.
Depth 1 gives an answer even when the budget ends inside it (the moves it did not reach
rank last, in their listed order); a deeper iteration that the budget cut short still
counts for the moves it finished: they are searched in the order of the previous
iteration's values, best first (the *move ordering*), and the moves an unfinished
iteration reached rank first, by their deeper values.

**No pruning**: with values between 0 and 1 and a throw between most decisions,
alpha-beta with Star1 pruning at chance nodes (tried on two-player positions of every
game) saved under 8% of the expansions at 4 plies, for twice the code; without pruning
the order of the moves inside the tree does not change the work, so moves are ordered
only at the root (above).

**Cancelling**: a search given a ``cancel`` flag (a :class:`threading.Event`) checks it
with its budget, before every expansion, and raises :class:`Cancelled` once it is set:
the service's worker sets it when the service stops (SIGTERM), so a search or a review
on a Pi Zero that could run for minutes ends within one expansion.

**Garbage collection** is paused during a search (and resumed after): a full collection
of the process took up to 50 ms in trials, which would break the budget.

**Transposition table**: values by position key (:meth:`State.position_key`) with the
depth they were searched to, reused for an equal or smaller depth: two move orders
that reach the same position (the Labyrinth's dice used either way round) are searched
once. One table per decision, so a decision depends only on the position, the budget
and the random generator (with a node budget and no clock, on nothing else: the same
on every machine).
"""

from __future__ import annotations

import gc
import math
import threading
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from companion.ai.learned import search_chances as chances
from companion.errors import CompanionError
from companion.rules import Action, IllegalMoveError, Move, Phase, State

Values = tuple[float, ...]
"""One win chance per player."""


@dataclass(frozen=True, slots=True)
class RankedMove:
    """A legal move and its value: the expected win chance of the player to act after
    playing it (0..1), at the depth the search reached for it."""

    move: Move
    value: float
    depth: int


@dataclass(frozen=True, slots=True)
class Decision:
    """The result of a search: the move chosen, its value, every legal move ranked.

    ``value`` is the chosen move's expected win chance for the player to act (0..1);
    ``ranking`` every legal move, best first (its first entry is ``move`` unless the
    level adds noise to its choice); ``depth`` the plies of the deepest iteration that
    finished; ``nodes`` the node expansions made; ``seconds`` the wall-clock time taken.
    """

    move: Move
    value: float
    ranking: tuple[RankedMove, ...]
    depth: int
    nodes: int
    seconds: float


class OutOfBudget(CompanionError):
    """Raised inside a search when its time or node budget is spent."""


class Cancelled(OutOfBudget):
    """Raised by a search whose ``cancel`` flag was set: its result is not wanted (the
    service is stopping). Unlike a spent budget it is not caught by :func:`search`: a
    search cut short by it has no answer."""


class Search:
    """One decision's search: a budget, a node counter and a transposition table.

    ``budget_s``: wall-clock seconds (``None``: no time limit); ``max_nodes``: node
    expansions (``None``: no limit); ``clock``: the time source (seconds, monotonic;
    ``time.perf_counter`` unless a test gives its own); ``evaluation``: the leaves'
    win chances (the review passes the learned model's in every game); ``cancel``: a
    flag that ends the search at the next expansion once set (``None``: none).
    """

    def __init__(
        self,
        budget_s: float | None = None,
        max_nodes: int | None = None,
        clock: Callable[[], float] = time.perf_counter,
        evaluation: Callable[[State], Values] = chances,
        cancel: threading.Event | None = None,
    ) -> None:
        self.clock = clock
        self.cancelled: Callable[[], bool] = _never if cancel is None else cancel.is_set
        self.evaluation = evaluation
        """The leaves' values (default: :func:`companion.ai.learned.search_chances`)."""
        self.started = clock()
        self.deadline = math.inf if budget_s is None else self.started + budget_s
        self.max_nodes = math.inf if max_nodes is None else max_nodes
        self.nodes = 0
        self.table: dict[Hashable, tuple[int, Values]] = {}
        """Values by position key: (depth searched, values)."""

    def child(self, state: State, action: Action) -> State:
        """A copy of ``state`` with ``action`` played: one node expansion.

        :raises OutOfBudget: when the budget is spent (checked before expanding).
        :raises Cancelled: when the ``cancel`` flag is set (checked with the budget).
        """
        if self.nodes >= self.max_nodes or self.clock() >= self.deadline or self.cancelled():
            if self.cancelled():
                raise Cancelled
            raise OutOfBudget
        self.nodes += 1
        after = state.search_copy()
        after.play(action)
        return after

    def value(self, state: State, depth: int) -> Values:
        """The expectimax-n value of ``state`` searched ``depth`` plies deep.

        :raises OutOfBudget: when the budget is spent.
        :raises Cancelled: when the ``cancel`` flag is set.
        """
        phase = state.phase
        if phase is Phase.OVER or depth <= 0:
            return self.evaluation(state)
        key = state.position_key()
        known = self.table.get(key)
        if known is not None and known[0] >= depth:
            return known[1]
        if phase is Phase.THROW:
            total = [0.0] * state.players
            for throw, _p, weight in state.chance_outcomes():
                values = self.value(self.child(state, throw), depth - 1)
                for i, v in enumerate(values):
                    total[i] += weight * v
            result: Values = tuple(total)
        else:
            moves = state.legal_moves()
            if len(moves) == 1:
                result = self.value(self.child(state, moves[0]), depth)
            else:
                me = state.current_player
                best: Values | None = None
                for move in moves:
                    values = self.value(self.child(state, move), depth - 1)
                    if best is None or values[me] > best[me]:
                        best = values
                assert best is not None
                result = best
        self.table[key] = (depth, result)
        return result


def search(
    state: State,
    max_depth: int,
    budget_s: float | None = None,
    max_nodes: int | None = None,
    clock: Callable[[], float] = time.perf_counter,
    evaluation: Callable[[State], Values] = chances,
    cancel: threading.Event | None = None,
) -> tuple[list[RankedMove], int, int]:
    """Iterative deepening from ``state`` (a decision is due) up to ``max_depth``
    plies, within the budget (see the module's docstring). ``evaluation`` values the
    leaves (default :func:`companion.ai.learned.search_chances`; the strength benchmark
    compares others); ``cancel`` ends the search once set (:class:`Cancelled`).

    Returns ``(ranking, depth, nodes)``: every legal move with its value, best first;
    the plies of the deepest finished iteration (0 if depth 1 was cut short); the node
    expansions made.

    :raises IllegalMoveError: when ``state`` waits for a throw or is over.
    :raises ValueError: for ``max_depth`` below 1.
    :raises Cancelled: when ``cancel`` is set before the search ends.
    """
    if state.phase not in (Phase.MOVE, Phase.DECIDE):
        raise IllegalMoveError(f"no decision is due in {state.describe()}")
    if max_depth < 1:
        raise ValueError(f"max_depth must be at least 1, got {max_depth}")
    moves = state.legal_moves()
    me = state.current_player
    run = Search(budget_s, max_nodes, clock, evaluation, cancel)
    if len(moves) == 1:
        return [RankedMove(moves[0], evaluation(state)[me], 0)], 0, 0
    # The cyclic garbage collector is paused during a search: a full collection walks
    # every object of the process (the engines' tables included) and took up to 50 ms
    # in trials, longer than a whole decision. A search's garbage is freed as it goes
    # (reference counting); the little that forms cycles waits for the collector, which
    # resumes afterwards.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _deepen(state, moves, me, max_depth, run)
    finally:
        if collecting:
            gc.enable()


def _deepen(
    state: State, moves: tuple[Move, ...], me: int, max_depth: int, run: Search
) -> tuple[list[RankedMove], int, int]:
    """The iterations of :func:`search`: depth 1, 2, ... while ``run``'s budget lasts."""
    # Until depth 1 reaches a move, it carries the value of the position before it.
    now = run.evaluation(state)[me]
    ranking: list[RankedMove] = [RankedMove(m, now, 0) for m in moves]
    finished = 0
    for depth in range(1, max_depth + 1):
        order: Sequence[Move] = [r.move for r in ranking]
        done: list[RankedMove] = []
        try:
            for move in order:
                values = run.value(run.child(state, move), depth - 1)
                done.append(RankedMove(move, values[me], depth))
        except Cancelled:
            raise
        except OutOfBudget:
            reached = {r.move for r in done}
            rest = [r for r in ranking if r.move not in reached]
            ranking = _best_first(done) + rest
            break
        ranking = _best_first(done)
        finished = depth
    return ranking, finished, run.nodes


def _never() -> bool:
    """The ``cancel`` check of a search without a flag."""
    return False


def _best_first(ranked: list[RankedMove]) -> list[RankedMove]:
    """By value, best first; equal values keep their order (a stable sort)."""
    return sorted(ranked, key=lambda r: -r.value)


def move_chances(
    state: State,
    depth: int,
    cancel: threading.Event | None = None,
    evaluation: Callable[[State], Values] = chances,
) -> list[tuple[Move, Values]]:
    """Every legal move of ``state`` (a decision is due) with its value vector searched
    ``depth`` plies deep, in the order of :meth:`State.legal_moves`: exactly the values
    :func:`search` ranks the moves by when its iteration ``depth`` finishes (the same
    iterations, move ordering and transposition table, with no budget), so the move
    :func:`search` ranks first has the highest value here. One vector per move, one win
    chance per player (0..1, summing to 1). For the review and the tutor
    (:mod:`companion.ai.review`), which value the moves as the computer plays them.

    :raises IllegalMoveError: when ``state`` waits for a throw or is over.
    :raises ValueError: for ``depth`` below 1.
    :raises Cancelled: when ``cancel`` is set before the values are known.
    """
    if state.phase not in (Phase.MOVE, Phase.DECIDE):
        raise IllegalMoveError(f"no decision is due in {state.describe()}")
    if depth < 1:
        raise ValueError(f"depth must be at least 1, got {depth}")
    moves = state.legal_moves()
    run = Search(evaluation=evaluation, cancel=cancel)
    collecting = gc.isenabled()
    gc.disable()  # as in search()
    try:
        _deepen(state, moves, state.current_player, depth, run)
        # Each move's vector as the last iteration saw it: its child is in the table at
        # depth - 1 (nothing below the root is searched deeper), or is a leaf.
        return [(move, run.value(run.child(state, move), depth - 1)) for move in moves]
    finally:
        if collecting:
            gc.enable()


def turn_plies(state: State, limit: int = 4) -> int:
    """The plies left of the mover's turn in ``state`` (a decision is due): this
    decision and the decisions with a choice that the same player may still make on the
    same throw (the Labyrinth's second die, a ride's offer), counted as :func:`search`
    counts depth (a forced decision is free), along the longest way; at most ``limit``.
    0 when no decision is due. A search ``turn_plies(state) + 1`` plies deep values
    every move at the end of the mover's turn and over the throw that follows.
    """
    if state.phase not in (Phase.MOVE, Phase.DECIDE):
        return 0
    me = state.current_player

    def rest(here: State, left: int) -> int:
        if left <= 0 or here.phase not in (Phase.MOVE, Phase.DECIDE) or here.current_player != me:
            return 0
        moves = here.legal_moves()
        cost = 0 if len(moves) == 1 else 1
        deepest = 0
        for move in moves:
            after = here.search_copy()
            after.play(move)
            deepest = max(deepest, rest(after, left - cost))
        return cost + deepest

    return min(limit, rest(state, limit))
