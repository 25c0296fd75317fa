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
  of :data:`~companion.ai.learned.SEARCH_BY_PROGRESS`, the Cretan Labyrinth at a
  count without a TD-leaf model (none as shipped: at 2, 3 and 4 its TD-leaf model); in the
  Labyrinth at every count of players its TD-leaf model, trained from progress less
  the pieces at risk, :mod:`companion.ai.labyrinth_leaf`:
  :func:`~companion.ai.learned.search_chances`).

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
outcomes), depth 3 the next decision, and so on. A Labyrinth turn (two dice, a decision
each) is two plies; a Senet turn one. **In Tait's Senet a throw at the horizon is a
leaf** (:data:`THROW_LEAF_GAMES`): where one ply is left and a throw is due, the
position before the throw is valued by the evaluation, not each outcome's: the
outcomes' positions would be leaves with the throw in hand and unused (a decision is
due there, and progress does not count the throw), so expanding them cost a node each
for no look further, and the evaluation of a position where a throw is due is the one
that counts the pieces at risk to it (the learned ``at_risk``). So there depth 2
values every move like depth 1 and depth 4 like depth 3; ``strong``'s 1000 expansions
reach depth 5 in 94% of its decisions against the baseline, where they reached depth
4 in half of them before (the tuning seeds ``tune3:PAIR``, 100 games).

**A question inside a turn costs no ply in the Labyrinth** (:data:`FREE_QUESTION_GAMES`):
a ride on the Knight's Orbit or a crossing of the Millstone (a decision with two moves)
and the orbit's free die (a throw) are searched at the depth of the move that raised
them, and one at the horizon is searched through, not valued. So a ply is a die's
count or the main throw, and every leaf of an iteration is at the same point of a turn.
Before, a move that landed on an orbit or Millstone field was searched one or two plies
shallower than its siblings: its leaves were the mover's own position with a die still
in hand, its siblings' were after the opponent's throw (the opponent's dice counted as
walked), so such a move looked better by where its leaves fell, not by what it did.

**A whole turn as one ply** in a game whose :attr:`Game.turn_is_one_ply` is set
(casting-stick Senet, where one throw gives several values used one after another, a
decision each): a decision that leaves the same player to decide again keeps the
depth, the decision that ends the turn spends one ply, and a throw none (a throw that
another throw follows at once, the casts for who begins and a tie casting again, costs
one, as elsewhere: a run of ties would never end; a search from a decision never meets
one, as they come before the first decision). So depth 1 is
every way to end the turn, then the evaluation; depth 2 adds the opponent's throw and
reply turn (as the baseline of ``benchmarks/ai_strength.py`` searches). The root then
works on the turn's *ends* (the positions after it, each once): depth 1 plays every
sequence of the decisions left and values each end; a deeper iteration searches the
ends best first by the previous iteration's values, and a move is worth its best end
at that depth; an iteration the budget cuts short is dropped (below), so the ranking is
that of the deepest iteration that valued every end. The last ply's turn (the
opponent's reply at depth 2) is played one decision at a time, each the move whose
position evaluates best for its player (:meth:`Search.turn_played_out`): it costs the
moves along one path, not every sequence, so that ``strong``'s 1000 expansions finish
depth 2 in most positions (60% of 497 decisions of random games). A search given
``turn_ends_kept`` (the review's deeper search, :data:`companion.ai.review.TURN_ENDS_KEPT`)
also filters the turns it searches two plies or more deep, as GNU Backgammon filters the
moves of each roll at every ply it looks ahead: every end of such a turn is reached and
valued by the evaluation, and only its best few for the mover are searched on
(:meth:`Search.turn_filtered`); the plain search and the levels search every end.

**Iterative deepening under a budget**: depth 1, then 2, 3, ... up to the level's
maximum, while the budget lasts: ``budget_s`` seconds of wall-clock time and/or
``max_nodes`` node expansions (an *expansion* is a copy of a position with one action
played on it). Both are checked before every expansion, and the search stops at once
when either is spent, so it never goes over the budget by more than one expansion
(except a whole turn's depth 1, below, which the node budget does not cut).
Depth 1 gives an answer even when the budget ends inside it (the moves it did not reach
rank last, in their listed order). A deeper iteration searches the moves in the order of
the previous iteration's values, best first (the *move ordering*); one that the budget
cuts short is dropped: the ranking is the deepest *finished* iteration's, so every value
in it is from one depth and the move played is the first of that ranking (the hint,
:func:`companion.ai.player.hint`, shows exactly it, and the review's
:func:`move_chances` at that depth gives the same values). Before, an unfinished
iteration's moves ranked first by their deeper values, so a ranking mixed two depths.

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

**Exact endings**: a position of a game with a solved table (Tait's Senet, each side
with at most two pieces left, or three against one: :mod:`companion.ai.race`;
casting-stick Senet, at most two plinths left a side but two against two:
:mod:`companion.ai.race_sticks`) is
valued by the table at any depth, before the depth or the transposition table is
looked at: its value is the game's exact value, so nothing below it is searched. The
table's domain is closed under play, so a search from such a position gives every
move its exact value (the move ranked first is the table's best move) at the cost of
one expansion a move per iteration. Other games, and both Senets with other options,
have no table: the check is one comparison a node (in casting-stick Senet, a count
of each side's plinths in the opponent's Home Row).

**Transposition table**: values by position key (:meth:`State.position_key`) with the
depth they were searched to, reused for an equal or smaller depth: two move orders
that reach the same position (the Labyrinth's dice used either way round) are searched
once. One table per decision, so a decision depends only on the position, the budget
and the random generator (with a node budget and no clock, on nothing else: the same
on every machine).
"""

from __future__ import annotations

import contextlib
import gc
import math
import threading
import time
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final

from companion.ai.learned import search_chances as chances
from companion.ai.race import exact_for
from companion.errors import CompanionError
from companion.rules import Action, Game, IllegalMoveError, Move, Phase, State

Values = tuple[float, ...]
"""One win chance per player."""

THROW_LEAF_GAMES: Final = frozenset({"senet-tait"})
"""Games where a throw at the horizon is a leaf (module docstring, "Depth"): their
evaluation does not count a throw in hand, so the outcomes' leaves were the position
before the throw, each at a node's cost. Not the Labyrinth, whose progress counts the
dice in hand as walked (valued before the throw, a leaf lacks the thrower's dice; tried
there, ``strong`` won 20% of 30 games against the baseline on ``heldout-baseline:2``,
39.1% of 64 before on seed 1: not shown either way, so not kept), nor the Cretan
Labyrinth (not measured); casting-stick Senet counts whole turns (no throw is a ply)."""


FREE_QUESTION_GAMES: Final = frozenset({"labyrinth"})
"""Games where a question inside a turn costs no ply (module docstring, "Depth"): the
Labyrinth's ride and crossing (a decision) and the orbit's free die (a throw)."""


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
    flag that ends the search at the next expansion once set (``None``: none);
    ``turns``, ``throw_leaf``, ``free_questions``: the game's plies (:meth:`for_game`);
    ``turn_ends_kept`` (with ``turns`` only): the ends of a turn searched on at a
    decision searched 2 plies or more, its best by the evaluation
    (:meth:`turn_filtered`; ``None``: every end).
    """

    def __init__(
        self,
        budget_s: float | None = None,
        max_nodes: int | None = None,
        clock: Callable[[], float] = time.perf_counter,
        evaluation: Callable[[State], Values] = chances,
        cancel: threading.Event | None = None,
        turns: bool = False,
        throw_leaf: bool = False,
        free_questions: bool = False,
        turn_ends_kept: int | None = None,
    ) -> None:
        self.turn_ends_kept = turn_ends_kept if turns else None
        """Where a whole turn is one ply: at a decision searched 2 plies or more, only
        this many ends of the mover's turn, its best by the evaluation, are searched on
        (a move filter at every ply, :meth:`turn_filtered`; ``None``: every end)."""
        self.free_questions = free_questions and not turns
        """A question inside a turn (the Labyrinth's ride or crossing, the orbit's free
        die) costs no ply: the game is one of :data:`FREE_QUESTION_GAMES`."""
        self.throw_leaf = throw_leaf and not turns
        """A throw at the horizon is a leaf (the game is one of :data:`THROW_LEAF_GAMES`)."""
        self.turns = turns
        """Count a whole turn as one ply (:attr:`Game.turn_is_one_ply`): a decision that
        leaves the same player to decide again keeps the depth, the decision that ends
        the turn spends one ply, a throw none (one that another throw follows at once,
        the casts for who begins, one: the module's docstring, "A whole turn")."""
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
        self.exact_of: Game | None = None
        self.exact: Callable[[State], Values | None] | None = None
        """The exact values of :attr:`exact_of`'s endings (:func:`companion.ai.race.exact_for`;
        ``None``: the game has no table), bound at the first position searched."""

    @classmethod
    def for_game(cls, game: Game, **kw: Any) -> Search:
        """A search set for ``game``'s plies: a whole turn as one ply
        (:attr:`Game.turn_is_one_ply`), a throw at the horizon a leaf
        (:data:`THROW_LEAF_GAMES`), a question inside a turn free
        (:data:`FREE_QUESTION_GAMES`); ``kw`` as the constructor's other arguments."""
        return cls(turns=game.turn_is_one_ply, throw_leaf=game.id in THROW_LEAF_GAMES,
                   free_questions=game.id in FREE_QUESTION_GAMES, **kw)

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

    def end_value(self, end: State) -> Values:
        """A turn's end valued at depth 1 (:func:`_deepen_turns`): the solved table's
        exact value where it covers ``end`` (:func:`companion.ai.race.exact_for`), else
        the evaluation. The hint, the review and the review's candidates all value an
        end so (the review's depth 1 once took the evaluation alone, and called moves
        into casting-stick Senet's solved endings by other values than the hint's)."""
        found = self.exact_value(end)
        return self.evaluation(end) if found is None else found

    def exact_value(self, state: State) -> Values | None:
        """The solved table's exact value of ``state`` (``None`` where no table covers
        it, or the game is over), the game's table looked up once per game object."""
        if state.game is not self.exact_of:
            self.exact_of = state.game
            self.exact = exact_for(state.game)
        return None if self.exact is None or state.phase is Phase.OVER else self.exact(state)

    def value(self, state: State, depth: int) -> Values:
        """The expectimax-n value of ``state`` searched ``depth`` plies deep.

        :raises OutOfBudget: when the budget is spent.
        :raises Cancelled: when the ``cancel`` flag is set.
        """
        phase = state.phase
        # An ending of the solved table (companion.ai.race): its exact value, at any depth.
        exact = self.exact_value(state)
        if exact is not None:
            return exact
        free = self.free_questions and phase is not Phase.OVER and _question(state)
        if phase is Phase.OVER or (depth <= 0 and not free) or (
                depth == 1 and phase is Phase.THROW and self.throw_leaf and not free):
            # A throw at the horizon is a leaf: its outcomes' positions would each be a
            # leaf with the throw in hand and unused (module docstring, "Depth").
            return self.evaluation(state)
        key = state.position_key()
        known = self.table.get(key)
        if known is not None and known[0] >= depth:
            return known[1]
        if self.turns and depth == 1 and phase is not Phase.THROW:
            played = self.value(self.turn_played_out(state), 0)
            self.table[key] = (depth, played)
            return played
        if self.turn_ends_kept is not None and phase is not Phase.THROW:
            filtered = self.turn_filtered(state, depth, self.turn_ends_kept)
            self.table[key] = (depth, filtered)
            return filtered
        if phase is Phase.THROW:
            total = [0.0] * state.players
            for throw, _p, weight in state.chance_outcomes():
                child = self.child(state, throw)
                # Where a whole turn is one ply a throw costs none, unless another throw
                # follows it at once (casting-stick Senet's casts for who begins, a tie
                # casting again): such a run of ties would never end the search.
                free_throw = free or (self.turns and child.phase is not Phase.THROW)
                values = self.value(child, depth if free_throw else depth - 1)
                for i, v in enumerate(values):
                    total[i] += weight * v
            result: Values = tuple(total)
        else:
            moves = state.legal_moves()
            me = state.current_player
            if len(moves) == 1:
                child = self.child(state, moves[0])
                forced = depth - 1 if self.turns and not _same_turn(child, me) else depth
                result = self.value(child, forced)
            else:
                best: Values | None = None
                for move in moves:
                    child = self.child(state, move)
                    values = self.value(child, depth if free else self.depth_after(child, me, depth))
                    if best is None or values[me] > best[me]:
                        best = values
                assert best is not None
                result = best
        self.table[key] = (depth, result)
        return result

    def turn_played_out(self, state: State) -> State:
        """The end of the turn of the player to act in ``state`` (a decision is due),
        played one decision at a time: at each, the move whose position the evaluation
        values best for that player (the first of equal ones). The last ply of a search
        where a whole turn is one ply (:attr:`turns`): it costs the moves along one
        path, not every sequence of the turn's decisions.

        :raises OutOfBudget: when the budget is spent.
        """
        mover = state.current_player
        here = state
        while _same_turn(here, mover):
            moves = here.legal_moves()
            best = self.child(here, moves[0])
            if len(moves) > 1:
                top = self.evaluation(best)[mover]
                for move in moves[1:]:
                    after = self.child(here, move)
                    value = self.evaluation(after)[mover]
                    if value > top:
                        best, top = after, value
            here = best
        return here

    def turn_filtered(self, state: State, depth: int, kept: int) -> Values:
        """The value vector of ``state`` (a decision is due; ``depth`` >= 2, whole
        turns as plies) with a move filter over the mover's turn, as GNU Backgammon's
        move filters: every end of the turn from ``state`` on is reached (every sequence
        of its decisions; equal ends once) and valued by the evaluation, the ``kept``
        best of them for the mover (equal values: the first reached) are searched
        ``depth - 1`` plies on, and the mover takes the best of those (with ``kept``
        at least the turn's ends, what :meth:`value` without a filter takes at this
        turn).

        :raises OutOfBudget: when the budget is spent.
        :raises Cancelled: when the ``cancel`` flag is set.
        """
        me = state.current_player
        ends: dict[Hashable, State] = {}
        keys = _ends(self, state, me, ends, {})
        first = {k: self.evaluation(ends[k])[me] for k in keys}
        best: Values | None = None
        for k in sorted(keys, key=lambda k: -first[k])[:kept]:
            values = self.value(ends[k], depth - 1)
            if best is None or values[me] > best[me]:
                best = values
        assert best is not None
        return best

    def depth_after(self, child: State, mover: int, depth: int) -> int:
        """The depth left to search ``child``, reached by a real choice of ``mover`` at
        ``depth``: one ply less, unless whole turns are plies (:attr:`turns`) and
        ``mover`` decides again in ``child`` (the same turn goes on)."""
        return depth if self.turns and _same_turn(child, mover) else depth - 1


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
    turns = state.game.turn_is_one_ply
    run = Search.for_game(state.game, budget_s=budget_s, max_nodes=max_nodes, clock=clock,
                          evaluation=evaluation, cancel=cancel)
    if len(moves) == 1:
        exact = exact_for(state.game)
        known = None if exact is None else exact(state)
        return [RankedMove(moves[0], (evaluation(state) if known is None else known)[me], 0)], 0, 0
    with collector_paused():
        if turns:
            return _deepen_turns(state, moves, me, max_depth, run)
        return _deepen(state, moves, me, max_depth, run)


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
            if finished == 0:  # no iteration finished: the moves depth 1 reached first
                reached = {r.move for r in done}
                rest = [r for r in ranking if r.move not in reached]
                ranking = _best_first(done) + rest
            # else the deepest finished iteration's ranking stands: values of one depth
            break
        ranking = _best_first(done)
        finished = depth
    return ranking, finished, run.nodes


def _deepen_turns(
    state: State, moves: tuple[Move, ...], me: int, max_depth: int, run: Search
) -> tuple[list[RankedMove], int, int]:
    """The iterations of :func:`search` where a whole turn is one ply (``run.turns``),
    with a *move filter* over the turn's ends (as GNU Backgammon filters the moves of a
    throw before it looks deeper):

    * depth 1 plays every way to finish the turn from ``state`` (every sequence of the
      decisions left), each *end* (the position after the turn; equal ends once) valued
      by the evaluation (by the solved table where it covers the end); it is not cut by the node budget (only by the clock or
      ``cancel``): up to some hundred expansions more than a small budget allows;
    * depth ``d`` >= 2 searches the ends ``d - 1`` plies deeper (the opponent's throw
      and turn, ...), best first by the previous iteration's values. A move's value is
      that of its best end at this depth. An iteration the budget cuts short is
      dropped: the ranking is the deepest finished one's (one depth).
    """
    now = run.evaluation(state)[me]
    ranking: list[RankedMove] = [RankedMove(m, now, 0) for m in moves]
    ends: dict[Hashable, State] = {}
    reach: dict[Move, list[Hashable]] = {}
    # Depth 1 finishes whatever the node budget (a few hundred expansions at most: 567
    # in 1120 decisions of random games), so that every move has a value of one depth:
    # a move not walked to its ends has none. The clock and ``cancel`` still end it.
    limit, run.max_nodes = run.max_nodes, math.inf
    try:
        _turn_ends(run, state, moves, me, ends, reach)
    except Cancelled:
        raise
    except OutOfBudget:
        pass
    finally:
        run.max_nodes = limit
    # The evaluation, or the exact value of a solved ending (companion.ai.race_sticks).
    values = {key: run.end_value(end)[me] for key, end in ends.items()}
    ranking = _rank(ranking, reach, values, 1)
    if len(reach) < len(moves):  # the budget ended inside depth 1
        return ranking, 0, run.nodes
    finished = 1
    for depth in range(2, max_depth + 1):
        order = sorted(values, key=lambda k: -values[k])
        deeper: dict[Hashable, float] = {}
        try:
            for key in order:
                deeper[key] = run.value(ends[key], depth - 1)[me]
        except Cancelled:
            raise
        except OutOfBudget:
            break  # the deepest finished iteration's ranking stands: one depth
        ranking = _rank(ranking, reach, deeper, depth)
        values = deeper
        finished = depth
    return ranking, finished, run.nodes


def _turn_ends(run: Search, state: State, moves: Sequence[Move], me: int,
               ends: dict[Hashable, State], reach: dict[Move, list[Hashable]]) -> None:
    """Fill ``reach`` with the keys of the ends of ``me``'s turn each of ``moves`` leads
    to, and ``ends`` with those positions (equal ends once), move by move: a budget
    spent part of the way leaves the moves walked so far.

    :raises OutOfBudget: when the budget is spent.
    """
    below: dict[Hashable, list[Hashable]] = {}
    for move in moves:
        reach[move] = _ends(run, run.child(state, move), me, ends, below)


def _ends(run: Search, state: State, me: int, ends: dict[Hashable, State],
          below: dict[Hashable, list[Hashable]]) -> list[Hashable]:
    """The keys of the ends of ``me``'s turn reachable from ``state`` (``state`` itself
    when the turn is over there), adding each new one to ``ends``; ``below`` remembers
    the ends of the positions inside the turn already walked.

    :raises OutOfBudget: when the budget is spent.
    """
    key = state.position_key()
    if not _same_turn(state, me):
        if key not in ends:
            ends[key] = state
        return [key]
    known = below.get(key)
    if known is not None:
        return known
    found: dict[Hashable, None] = {}
    for move in state.legal_moves():
        for k in _ends(run, run.child(state, move), me, ends, below):
            found[k] = None
    keys = list(found)
    below[key] = keys
    return keys


def _rank(previous: list[RankedMove], reach: dict[Move, list[Hashable]],
          values: dict[Hashable, float], depth: int) -> list[RankedMove]:
    """The moves with an end valued in ``values`` (by their best one), best first, then
    the others in their ``previous`` order."""
    done: list[RankedMove] = []
    rest: list[RankedMove] = []
    for r in previous:
        known = [values[k] for k in reach.get(r.move, ()) if k in values]
        if known:
            done.append(RankedMove(r.move, max(known), depth))
        else:
            rest.append(r)
    return _best_first(done) + rest


def _question(state: State) -> bool:
    """Whether ``state`` (not over) asks a question inside a turn: a decision
    (:attr:`Phase.DECIDE`: the Labyrinth's ride or crossing) or a throw that a move
    waits for (the orbit's free die, ``waiting_for``). For the games of
    :data:`FREE_QUESTION_GAMES` only."""
    if state.phase is Phase.DECIDE:
        return True
    waiting = getattr(state, "waiting_for", None)
    return state.phase is Phase.THROW and waiting is not None and waiting() is not None


def _same_turn(state: State, mover: int) -> bool:
    """Whether ``mover`` decides again in ``state`` with no throw between: its turn
    goes on."""
    return state.phase in (Phase.MOVE, Phase.DECIDE) and state.current_player == mover


def _never() -> bool:
    """The ``cancel`` check of a search without a flag."""
    return False


def _best_first(ranked: list[RankedMove]) -> list[RankedMove]:
    """By value, best first; equal values keep their order (a stable sort)."""
    return sorted(ranked, key=lambda r: -r.value)


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector for a search, and resume it after if it ran.

    A full collection walks every object of the process (the engines' tables included)
    and took up to 50 ms in trials, longer than a whole decision. A search's garbage is
    freed as it goes (reference counting); the little that forms cycles waits for the
    collector, which resumes afterwards."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def _check_decision(state: State, depth: int) -> None:
    """Refuse a search of the moves of ``state`` ``depth`` plies deep when no decision
    is due (:class:`IllegalMoveError`) or ``depth`` is below 1 (:class:`ValueError`)."""
    if state.phase not in (Phase.MOVE, Phase.DECIDE):
        raise IllegalMoveError(f"no decision is due in {state.describe()}")
    if depth < 1:
        raise ValueError(f"depth must be at least 1, got {depth}")


def move_chances(
    state: State,
    depth: int,
    cancel: threading.Event | None = None,
    evaluation: Callable[[State], Values] = chances,
) -> list[tuple[Move, Values]]:
    """Every legal move of ``state`` (a decision is due) with its value vector searched
    ``depth`` plies deep (in a game whose whole turn is one ply, :attr:`Game.turn_is_one_ply`:
    the move's best end of the turn searched ``depth - 1`` turns deeper), in the order
    of :meth:`State.legal_moves`: exactly the values
    :func:`search` ranks the moves by when its iteration ``depth`` finishes (the same
    iterations, move ordering and transposition table, with no budget), so the move
    :func:`search` ranks first has the highest value here. One vector per move, one win
    chance per player (0..1, summing to 1). For the review and the tutor
    (:mod:`companion.ai.review`), which value the moves as the computer plays them.

    :raises IllegalMoveError: when ``state`` waits for a throw or is over.
    :raises ValueError: for ``depth`` below 1.
    :raises Cancelled: when ``cancel`` is set before the values are known.
    """
    _check_decision(state, depth)
    moves = state.legal_moves()
    turns = state.game.turn_is_one_ply
    run = Search.for_game(state.game, evaluation=evaluation, cancel=cancel)
    with collector_paused():
        if turns:  # as _deepen_turns values a move: its best end of the turn at ``depth``
            me = state.current_player
            # The search's own iterations first, in its order: the transposition table
            # then holds what the search's holds (an entry of a deeper search is used at
            # a shallower one, so the order the ends are searched in shows in the values).
            _deepen_turns(state, moves, me, depth, run)
            ends: dict[Hashable, State] = {}
            reach: dict[Move, list[Hashable]] = {}
            _turn_ends(run, state, moves, me, ends, reach)
            at = {key: run.end_value(end) if depth == 1 else run.value(end, depth - 1)
                  for key, end in ends.items()}
            return [(move, max((at[k] for k in reach[move]), key=lambda v: v[me]))
                    for move in moves]
        _deepen(state, moves, state.current_player, depth, run)
        # Each move's vector as the last iteration saw it: its child is in the table at
        # depth - 1 (nothing below the root is searched deeper), or is a leaf.
        return [(move, run.value(run.child(state, move), depth - 1)) for move in moves]


def candidate_chances(
    state: State,
    moves: Sequence[Move],
    depth: int,
    cancel: threading.Event | None = None,
    evaluation: Callable[[State], Values] = chances,
    max_nodes: int | None = None,
    ends_kept: int | None = None,
    filter_depth: int = 1,
    turn_ends_kept: int | None = None,
) -> list[tuple[Move, Values]]:
    """Some legal ``moves`` of ``state`` (a decision is due; the review's filtered
    candidates) each with its value vector searched ``depth`` plies deep by one search
    (:class:`Search` set for the game, no pruning, one transposition table), in the
    order given: a move's value is its child's expectimax-n value ``depth - 1`` plies
    deep, as :func:`search`'s iteration ``depth`` values it. Where a whole turn is one
    ply (:attr:`Game.turn_is_one_ply`) a move is worth its best end of the turn searched
    ``depth - 1`` turns deeper (as :func:`_deepen_turns`); with ``ends_kept`` only that
    many of each move's ends are searched so deep, its best by their values at
    ``filter_depth`` (a filter over the ends, as over the moves: casting-stick Senet's
    moves reach tens of ends each). ``turn_ends_kept`` (where a whole turn is one ply)
    filters every turn below them too: of each turn searched two plies or more, its
    best ends by the evaluation (:meth:`Search.turn_filtered`; also in the values at
    ``filter_depth`` the ends are picked by). The values may differ from
    :func:`move_chances`'s at the same depth by what the transposition table holds (an
    entry searched deeper is used at a shallower depth) and by ``turn_ends_kept``, not
    by more plies.

    ``max_nodes`` caps the node expansions (``None``: none).

    :raises IllegalMoveError: when ``state`` waits for a throw or is over.
    :raises ValueError: for ``depth`` below 1 or a move not legal in ``state``.
    :raises OutOfBudget: when ``max_nodes`` is spent before the values are known.
    :raises Cancelled: when ``cancel`` is set before the values are known.
    """
    _check_decision(state, depth)
    legal = state.legal_moves()
    if any(m not in legal for m in moves):
        raise ValueError(f"not legal in {state.describe()}: {[str(m) for m in moves if m not in legal]}")
    me = state.current_player
    run = Search.for_game(state.game, max_nodes=max_nodes, evaluation=evaluation, cancel=cancel,
                          turn_ends_kept=turn_ends_kept)
    with collector_paused():
        if not state.game.turn_is_one_ply:
            return [(move, run.value(run.child(state, move), depth - 1)) for move in moves]
        ends: dict[Hashable, State] = {}
        reach: dict[Move, list[Hashable]] = {}
        _turn_ends(run, state, moves, me, ends, reach)

        def at(key: Hashable, plies: int) -> Values:
            return run.end_value(ends[key]) if plies == 1 else run.value(ends[key], plies - 1)

        if ends_kept is not None:
            first = {key: at(key, filter_depth)[me] for key in ends}
            reach = {move: sorted(keys, key=lambda k: -first[k])[:ends_kept]
                     for move, keys in reach.items()}
        deep: dict[Hashable, Values] = {}
        for move in moves:
            for key in reach[move]:
                if key not in deep:
                    deep[key] = at(key, depth)
        return [(move, max((deep[k] for k in reach[move]), key=lambda v: v[me])) for move in moves]


def turn_plies(state: State, limit: int = 4) -> int:
    """The plies left of the mover's turn in ``state`` (a decision is due): this
    decision and the decisions with a choice that the same player may still make on the
    same throw (the Labyrinth's second die, a ride's offer), counted as :func:`search`
    counts depth (a forced decision is free, and below the root a question of a game of
    :data:`FREE_QUESTION_GAMES`), along the longest way; at most ``limit``.
    0 when no decision is due. A search ``turn_plies(state) + 1`` plies deep values
    every move at the end of the mover's turn and over the throw that follows (in a game
    of :data:`THROW_LEAF_GAMES` before it: the module's docstring, "Depth").
    """
    if state.phase not in (Phase.MOVE, Phase.DECIDE):
        return 0
    me = state.current_player
    free = state.game.id in FREE_QUESTION_GAMES

    def rest(here: State, left: int) -> int:
        if left <= 0 or here.phase not in (Phase.MOVE, Phase.DECIDE) or here.current_player != me:
            return 0
        moves = here.legal_moves()
        cost = 0 if len(moves) == 1 or (free and here is not state and _question(here)) else 1
        deepest = 0
        for move in moves:
            after = here.search_copy()
            after.play(move)
            deepest = max(deepest, rest(after, left - cost))
        return cost + deepest

    return min(limit, rest(state, limit))
