"""The baseline of ``ai_strength.py``'s versus part: a plain depth-2 expectimax that
searches the opponent's reply (issue 32, "the baseline, stated and kept honest").

At a decision of player ``me`` (:meth:`Baseline.decide`), through the public rules API
only (``phase``, ``current_player``, ``legal_moves``, ``chance_outcomes``,
``search_copy``, ``play``, ``position_key``, ``progress``, ``outcome``):

1. **my turn**: every sequence of decisions for the throw on the table, until the phase
   is THROW or OVER (in the Labyrinth both dice of the throw; in casting-stick Senet
   every value of the throw; decisions in the middle such as the Knight's Orbit or the
   Millstone). A forced decision (one legal move) is played through, not branched on;
2. **the next throw**: the chance node, every outcome of ``chance_outcomes`` weighted
   by its probability. Throws that follow one another with no decision between them are
   one chance node (the Cretan Labyrinth's distance die and direction card; battle
   dice);
3. if the player who decides after that throw is ``me`` again (an extra throw in
   Senet, a card to draw in the Cretan Labyrinth, the Knight's Orbit's free die), steps
   1-2 repeat, at most :data:`CAP_EXTRA_THROWS` times: a throw of mine due after that
   many is a leaf;
4. **the reply**: the decisions of the player who decides next (with 3 or 4 players the
   next player's) for its throw, every sequence until the phase is THROW or OVER, then
   the **leaf**: no further throw is searched, whoever's it is.

Values are vectors, one win chance per player, backed up by expectimax-n (max-n with
chance nodes): whoever decides takes the child best for itself (the first listed of
equal ones); a chance node is the weighted mean. No pruning, no budget, no time limit.
Positions already valued in the same decision are looked up by ``position_key`` (with
the stage: my turn and the count of extra throws, or the reply) instead of searched
again: a position's value depends on nothing else, so this changes no result
(``tests/test_baseline.py`` checks it), only the work; a node is a position created
(a copy with one action played), counted per decision.

**The leaf** (:func:`leaf_values`): a finished game gives its winners equal shares;
otherwise the win chances are the softmax ``exp(k * x[p]) / sum_q exp(k * x[q])`` of
``x[p] = progress(p) - at_risk(p)``, ``k`` the game's ``sharpness`` (as in
:func:`companion.ai.evaluate.chances`, which is this with ``at_risk = 0``).
``at_risk(p)`` is the classic blot count of backgammon's hand evaluations, direct shots
only: for each piece of ``p`` that the player due to throw next (``p`` excepted) could
send back with a single value of that throw, the probability that the throw shows such
a value (summed over the exact outcomes of ``chance_outcomes``) times the progress the
piece would lose, in the units of ``progress``. Weight 1 (the expected loss to the next
throw's direct shots), the same in every game; not tuned. Per game, from its rules:

* ``senet-tait``: a piece on a square other than 15 (the House of Rebirth: "A piece
  cannot be bumped from The House of Rebirth") is bumped back to its plinth by an
  opponent's piece that lands on it: one on the square ``v`` behind it, or entering on
  4 or 6 from the plinth with a throw of that value. It loses its whole progress (its
  square plus ``ENTRY_WORTH``);
* ``labyrinth``: "If one arrives on an occupied field, that occupant goes to where the
  new arrival just came from": a piece on a field that is no sanctuary is hit by an
  opponent's free piece whose count of one die value ``v`` ends there (jumps, geese and
  the exact-count bounce resolved by the board: ``count_end``); it goes back to the
  field the count started from, losing the fields between (none when that field is
  ahead of it: the tunnel from 59 to 47). For a count through the geese the occupant
  goes to the last goose field, nearer: the term overstates that loss. Two dice: a
  value shows when either die shows it; the sum of both dice on one piece, rides on the
  Knight's Orbit and crossings of the Millstone are not counted;
* ``senet-sticks``: "If a player lands on an opponent that is not on a Safe space, the
  opponent's plinth is removed from the board and place in their Abyss": a plinth not
  safe from the thrower (a Sun square, or the thrower's own Home Row once arrived) is
  hit by a thrower's plinth on the board (not in the opponent's Home Row, from where it
  cannot attack) that reaches its square with one value of the thrower's colour or a
  solid stick, directly or by the river it lands on. It loses its whole progress (its
  square along its path). Combinations of values and plinths rising from the Abyss are
  not counted;
* ``cretan-labyrinth``: no term. No piece is sent back: what changes hands is the Magic
  Key, taken by landing on its keeper (or in a battle within two spaces), and whether
  an opponent can land there with one throw depends on the die, the direction card
  drawn and the maze's walls: not reachable simply, so the leaf is the progress alone.

The risk is counted only at a leaf where the game's main throw is due (not the
Labyrinth's free orbit die or a who-starts throw).
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Final

from companion.ai.evaluate import shares
from companion.rules import Action, Move, Phase, State
from companion.rules.labyrinth import LabyrinthState
from companion.rules.senet_sticks import SenetSticksState
from companion.rules.senet_tait import (
    ENTRY_WORTH,
    HOUSE_OF_REBIRTH,
    OFF,
    PIECES,
    SenetTaitState,
)

CAP_EXTRA_THROWS: Final = 2
"""Throws of my own searched after the first one before the reply (Senet's extra
throws, the Cretan Labyrinth's cards, the orbit's free die); a further one is a leaf."""

SLOW_BASELINE: Final = frozenset({"cretan-labyrinth"})
"""Games whose games against the baseline ``make bench``'s default runs leave out (and
say so): the baseline has no budget, and in the Cretan Labyrinth one decision can
search millions of positions (docs/ai.md: a Pegasus card, 2,749,556 positions, 78.6 CPU
s and 4.2 GB; one game's 30 decisions with a choice took 251.6 CPU s), so 300 games
would hold ``make bench`` for days. Named with ``--game``, they are played."""

RISK_WEIGHT: Final = 1.0
"""The weight of ``at_risk`` beside ``progress`` at a leaf: the expected progress lost
to the next throw's direct shots counts as progress already lost. Not tuned."""

Values = tuple[float, ...]

_MINE: Final = 0
_REPLY: Final = 1


# ---------------------------------------------------------------------- the leaf


def _hit_chance(state: State, shots: set[int], colour: str | None = None) -> float:
    """The probability that the throw due shows one of the values ``shots`` (with
    ``colour``: a value of a solid stick or of a stick of that colour)."""
    total = 0.0
    for throw, _p, w in state.chance_outcomes():
        if colour is None:
            shown = throw.values
        else:
            shown = tuple(v for v, c in zip(throw.values, throw.colours, strict=True)
                          if c is None or c == colour)
        if not shots.isdisjoint(shown):
            total += w
    return total


def _senet_tait_risk(state: SenetTaitState) -> list[float]:
    q = state.current_player
    p = 1 - q
    board = state.board
    entering = state.plinth[q] > 0
    scale = PIECES * (ENTRY_WORTH + OFF)
    risk = [0.0, 0.0]
    for s in state.squares[p]:
        if s == HOUSE_OF_REBIRTH:
            continue
        shots = {v for v in range(1, 7) if s - v >= 1 and board[s - v] == q}
        if entering and s in (4, 6):
            shots.add(s)
        if shots:
            chance = _hit_chance(state, shots)
            risk[p] += chance * (s + ENTRY_WORTH) / scale
    return risk


class _LabyrinthShots:
    """Where each count of one die value ends, per field, for one Labyrinth game object
    (360 entries, found once through ``count_end``)."""

    def __init__(self, state: LabyrinthState) -> None:
        game = state.game
        last = game.board.last
        self.ends: list[list[int]] = [[0] * 7 for _ in range(last)]
        for s in range(1, last):
            for v in range(1, 7):
                move = game.count_moves[s][v]
                end = game.count_end(move) if move is not None else None
                self.ends[s][v] = end if end is not None else 0

    def risk(self, state: LabyrinthState) -> list[float]:
        game = state.game
        last = game.board.last
        shared = game.shared
        worth = game.trap_worth
        q = state.current_player
        pos, trap = state.pos, state.trap
        n = 4
        # field -> {value: the field the count started from}
        shots: dict[int, dict[int, int]] = {}
        for k in range(q * n, (q + 1) * n):
            s = pos[k]
            if trap[k] or s == 0 or s >= last:
                continue
            for v in range(1, 7):
                end = self.ends[s][v]
                if end and not shared[end]:
                    starts = shots.setdefault(end, {})
                    starts[v] = min(s, starts.get(v, s))
        risk = [0.0] * state.players
        if not shots:
            return risk
        for k, f in enumerate(pos):
            p = k // n
            if p == q or f not in shots:
                continue
            here = worth[f] if trap[k] else f
            losses = {v: here - (worth[s] if trap[k] else s) for v, s in shots[f].items()}
            hitting = {v for v, lost in losses.items() if lost > 0}
            if not hitting:
                continue
            # the largest loss of the values that hit (a simple count, as the blot's)
            lost = max(losses[v] for v in hitting)
            chance = _hit_chance(state, hitting)
            risk[p] += chance * lost / (n * last)
        return risk


def _senet_sticks_risk(state: SenetSticksState) -> list[float]:
    game = state.game
    q = state.current_player
    p = 1 - q
    board = state.board
    land_on = game.land_on[q]
    safe = game.safe_from[q]
    opponent_home = game.in_opponent_home[q]
    river_to = game.river_to
    assert state.colours is not None
    mine = state.colours[q]
    top = len(land_on[0]) - 1
    shots: dict[int, set[int]] = {}
    for here in range(1, game.squares + 1):
        if board[here] != q or opponent_home[here]:
            continue
        for v in range(1, top + 1):
            t = land_on[here][v]
            if not t or board[t] == q:
                continue
            end = river_to[t] or t
            if board[end] == p and not safe[end] and (end == t or not safe[t]):
                shots.setdefault(end, set()).add(v)
    risk = [0.0, 0.0]
    if not shots:
        return risk
    n = game.squares
    start = PIECES * (PIECES + 1) // 2
    goal = PIECES * n - start + PIECES
    for t, values in shots.items():
        at = t if p == 0 else n + 1 - t
        risk[p] += _hit_chance(state, values, mine) * at / (goal - start)
    return risk


@dataclass
class Leaves:
    """The leaf evaluation of one game: progress less the pieces at risk, as win
    chances (see the module's docstring). Keeps the Labyrinth's table of counts per
    game object it met (one per game in a benchmark run)."""

    labyrinth: dict[int, _LabyrinthShots] = field(default_factory=dict)

    def at_risk(self, state: State) -> list[float]:
        """Each player's expected progress lost to the next throw's direct shots (0 for
        the player due to throw); all 0 where the game's main throw is not due."""
        none = [0.0] * state.players
        if state.phase is not Phase.THROW:
            return none
        if isinstance(state, SenetTaitState):
            return _senet_tait_risk(state)
        if isinstance(state, LabyrinthState):
            if state.throw_spec is not state.game.two_dice or state.throwing_for_start:
                return none
            shots = self.labyrinth.get(id(state.game))
            if shots is None:
                shots = self.labyrinth[id(state.game)] = _LabyrinthShots(state)
            return shots.risk(state)
        if isinstance(state, SenetSticksState):
            if state.throw_spec is not state.game.sticks or state.colours is None:
                return none
            return _senet_sticks_risk(state)
        return none

    def values(self, state: State) -> Values:
        """One win chance per player (sum 1)."""
        n = state.players
        outcome = state.outcome
        if outcome is not None:
            return shares(outcome, n)
        k = state.game.sharpness
        risk = self.at_risk(state)
        x = [state.progress(p) - RISK_WEIGHT * risk[p] for p in range(n)]
        top = max(x)
        weights = [math.exp(k * (v - top)) for v in x]
        total = sum(weights)
        return tuple(w / total for w in weights)


def leaf_values(state: State) -> Values:
    """The baseline's value of a leaf (a fresh :class:`Leaves`; see the docstring)."""
    return Leaves().values(state)


# --------------------------------------------------------------------- the search


@dataclass(frozen=True, slots=True)
class BaselineDecision:
    """The move chosen, its value for the player to act (0..1), the positions created
    (``nodes``) and the CPU seconds the decision took."""

    move: Move
    value: float
    nodes: int
    seconds: float


class Baseline:
    """The baseline player (see the module's docstring). ``memo=False`` searches every
    position again where it recurs (the same result, more work: for the test).

    Called as a :data:`companion.ai.player.Player`; each decision with more than one
    legal move appends its nodes and CPU seconds to :attr:`nodes` and :attr:`seconds`.
    """

    def __init__(self, memo: bool = True, cap: int = CAP_EXTRA_THROWS) -> None:
        self.memo = memo
        self.cap = cap
        self.leaves = Leaves()
        self.nodes: list[int] = []
        """Positions created by each decision with more than one legal move."""
        self.seconds: list[float] = []
        """CPU seconds of each such decision."""
        self._count = 0
        self._me = 0
        self._table: dict[Hashable, Values] = {}

    def __call__(self, state: State, rng: object = None) -> Move:
        decision = self.decide(state)
        if decision.nodes:
            self.nodes.append(decision.nodes)
            self.seconds.append(decision.seconds)
        return decision.move

    def decide(self, state: State) -> BaselineDecision:
        """The move with the best value for the player to act (the first of equal ones).

        :raises ValueError: when no decision is due.
        """
        if state.phase not in (Phase.MOVE, Phase.DECIDE):
            raise ValueError(f"no decision is due in {state.describe()}")
        start = time.process_time()
        moves = state.legal_moves()
        me = state.current_player
        if len(moves) == 1:
            return BaselineDecision(moves[0], math.nan, 0, time.process_time() - start)
        self._count = 0
        self._me = me
        self._table = {}
        best, best_value = moves[0], -1.0
        try:
            for move in moves:
                value = self._after(self._child(state, move), _MINE, 0)[me]
                if value > best_value:
                    best, best_value = move, value
        finally:
            self._table = {}  # freed also when the search runs out of memory
        return BaselineDecision(best, best_value, self._count, time.process_time() - start)

    def _child(self, state: State, action: Action) -> State:
        self._count += 1
        after = state.search_copy()
        after.play(action)
        return after

    def _leaf(self, state: State) -> Values:
        if not self.memo:
            return self.leaves.values(state)
        key = ("leaf", state.position_key())
        known = self._table.get(key)
        if known is None:
            known = self._table[key] = self.leaves.values(state)
        return known

    def _after(self, state: State, stage: int, extra: int) -> Values:
        """The value of ``state`` reached by a decision, in ``stage``."""
        phase = state.phase
        if phase is Phase.OVER:
            return self._leaf(state)
        if phase is not Phase.THROW:
            return self._decision(state, stage, extra)
        if stage == _REPLY or (state.current_player == self._me and extra >= self.cap):
            return self._leaf(state)
        return self._chance(state, extra)

    def _decision(self, state: State, stage: int, extra: int) -> Values:
        """Max-n: the player to act takes the child best for itself."""
        key = ("decide", state.position_key(), stage, extra if stage == _MINE else 0)
        if self.memo:
            known = self._table.get(key)
            if known is not None:
                return known
        actor = state.current_player
        best: Values | None = None
        for move in state.legal_moves():
            values = self._after(self._child(state, move), stage, extra)
            if best is None or values[actor] > best[actor]:
                best = values
        assert best is not None
        if self.memo:
            self._table[key] = best
        return best

    def _chance(self, state: State, extra: int) -> Values:
        """The weighted mean over the throw due (and the throws that follow it with no
        decision between); then my turn again (one more extra throw) or the reply."""
        key = ("chance", state.position_key(), extra)
        if self.memo:
            known = self._table.get(key)
            if known is not None:
                return known
        total = [0.0] * state.players
        for throw, _p, weight in state.chance_outcomes():
            child = self._child(state, throw)
            phase = child.phase
            if phase is Phase.THROW:
                values = self._chance(child, extra)
            elif phase is Phase.OVER:
                values = self._leaf(child)
            elif child.current_player == self._me:
                values = (self._leaf(child) if extra >= self.cap
                          else self._decision(child, _MINE, extra + 1))
            else:
                values = self._decision(child, _REPLY, 0)
            for i, v in enumerate(values):
                total[i] += weight * v
        result = tuple(total)
        if self.memo:
            self._table[key] = result
        return result
