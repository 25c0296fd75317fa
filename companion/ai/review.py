"""A game review, as GNU Backgammon analyses a match: each move's error, each throw's
luck, per player totals a player can read, the biggest swings in words.

**One judge.** Every position is valued as the computer plays: the search of
:mod:`companion.ai.search` (expectimax-n over the rules' chance nodes) with the
evaluation it plays by at its leaves (:func:`companion.ai.learned.search_chances`).
Every search the review makes (the moves', the throws', the graph's) counts plies as
the computer's (:meth:`~companion.ai.search.Search.for_game`: a whole casting-stick
Senet turn one ply, a throw at Tait's horizon a leaf, the Labyrinth's ride, crossing
and orbit die none), so a depth here is the computer's depth.

**Deeper than any level plays, with move filters** (as GNU Backgammon analyses a
match at a higher ply than it plays, looking deeper only at the moves its filters
keep): a decision is judged by :func:`judge`:

1. the moves are ranked by :data:`REVIEW_LEVEL`'s own search at its node budget (the
   hint's ranking at that level, :func:`companion.ai.player.hint`: the same moves,
   values and order, so at that depth the review never ranks a move above the hint's);
2. the *move filter* (:func:`move_filter`) keeps the ranking's first
   :data:`FILTER_KEPT`, up to :data:`FILTER_MOST` of those within
   :data:`FILTER_WINDOW` of the best (where a whole turn is one ply,
   :data:`TURN_FILTER_MOST`), and the move played;
3. those are searched :func:`deeper_depth` plies deep by the same search and evaluation
   (:func:`companion.ai.search.candidate_chances`, no budget but a cap of
   :data:`DEEPER_NODES` expansions): one ply deeper than the level's search finished
   there (Tait's Senet two: a throw at the horizon is a leaf, so a ply ending on a throw
   adds nothing; casting-stick Senet one whole turn, each candidate's best
   :data:`ENDS_KEPT` ends of its turn, and below them a filter at every ply: each
   turn's best :data:`TURN_ENDS_KEPT` ends by the evaluation searched on), and at least
   the game's :data:`REVIEW_DEPTHS`
   and the rest of the mover's turn and the throw after it
   (:func:`companion.ai.search.turn_plies` + 1), so a move is compared with the others
   **at the end of the mover's turn** (in the Labyrinth the first die's move with the
   best use of the second die);
4. a move's **error** is the best candidate's deeper value minus the played move's;
   each entry's ``depth`` is the deeper depth, ``hint_depth`` the ranking's. Over the
   node cap, the decision is valued at the ranking's depth (every move, the hint's
   values) and its ``depth`` says so: the level's own move then has no error.

**Exact endings.** From a position of a solved table's domain on (Tait's Senet's
endings, :mod:`companion.ai.race`; casting-stick Senet's, :mod:`companion.ai.race_sticks`)
every value is exact (the search takes it from the
table) and shown without the calibration map.

For the player ``p`` who acts:

* a **move**'s value is ``p``'s chance to win after it (0..1); ``best`` is the highest
  value of the filter's candidates, ``error = best - chosen``: 0 for the best move, at most
  1 (100 points of chance), as both are chances in [0, 1] (the review refuses an
  evaluation that gives a chance outside them: :class:`ValueError`). A **mistake** is
  an error of at least :data:`~companion.ui.review_words.MISTAKE` (2 points of chance);
  only decisions with more than one legal move are reviewed;
* a **throw**'s value is the thrower's chance after it, searched the game's
  :data:`LUCK_DEPTHS` plies from there (its best move included); its **luck** is that
  value minus the average of the values of every throw that could have come, weighted
  by their chances (the same search: a lucky throw is one better than the average);
* per player: the moves reviewed, the error in all and **per move** with its word
  (GNU Backgammon's error-rate words, :mod:`companion.ui.review_words`), the mistakes,
  the throws and the luck in all and **per throw**, all in the same units (a share of
  the chance to win; the words say it in points of chance, a share times 100).

:func:`review` takes the actions of a game (a journal's actions in force, undone ones
left out); :func:`review_journal` reads a journal file. :meth:`Review.headline` gives a
screen what it shows after a game in one call: the three biggest mistakes and each
player's luck. :func:`to_json` is the ``review`` block of ``companion journal export
--review``; :func:`text` what ``companion journal review`` prints.

CPU time per game: see ``benchmarks/review_speed.py`` and docs/ai.md. Run it in its
own process or thread, never in the service loop; ``progress`` reports each action
done; ``cancel`` (a :class:`threading.Event`), once set, ends it at the search's next
node expansion with :class:`~companion.ai.search.Cancelled` (the service stopping).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from companion.ai.calibrate import chance as shown_chance
from companion.ai.calibrate import chances as shown_chances
from companion.ai.learned import search_chances
from companion.ai.player import LEVELS
from companion.ai.race import covers
from companion.ai.search import (
    THROW_LEAF_GAMES,
    Cancelled,
    OutOfBudget,
    RankedMove,
    Search,
    Values,
    candidate_chances,
    collector_paused,
    move_chances,
    search,
    turn_plies,
)
from companion.rules import Action, Game, Move, Phase, State
from companion.ui.review_words import MISTAKE, TASKS, rating_key

REVIEW_DEPTHS: Final[dict[str, int]] = {
    "senet-tait": 5,
    "labyrinth": 4,
    "senet-sticks": 2,
    "cretan-labyrinth": 4,
}
"""The fewest plies the review searches a decision's candidates in each game, by game id;
:data:`DEFAULT_DEPTH` for a game not listed. In casting-stick Senet a ply is a whole
turn (:attr:`Game.turn_is_one_ply`, as the computer searches it): 2 is the mover's turn
and the opponent's throw and reply."""

DEFAULT_DEPTH: Final = 4

LUCK_DEPTHS: Final[dict[str, int]] = {
    "senet-tait": 5,
    "labyrinth": 3,
    "senet-sticks": 1,
    "cretan-labyrinth": 3,
}
"""The plies the review searches after each throw that could have come, to value the
throw's luck, by game id (:data:`DEFAULT_LUCK_DEPTH` for a game not listed), counted
as the computer counts them (:meth:`~companion.ai.search.Search.for_game`): the
thrower's turn (the Labyrinth's two dice, a ride free) and the next throw; in
casting-stick Senet, where a whole turn is one ply, the thrower's turn on the cast,
played out as the search plays its last ply (each decision the move whose position
the evaluation values best: :meth:`~companion.ai.search.Search.turn_played_out`).
Fewer than a decision's, as every outcome of every throw is searched: casting-stick
Senet's luck over the 48 casts of a 116-action game took 62 CPU s at 2 (the
thrower's every sequence of moves, the opponent's cast and reply), 0.5 s at 1; before
whole turns were its plies, at a decision's depth 26 s for 60 actions. The
Labyrinth's (21 outcomes) 10 s for 300 actions at 4 plies, 1.6 s at 3."""

DEFAULT_LUCK_DEPTH: Final = 3

REVIEW_LEVEL: Final = "strong"
"""The level whose ranking the review's move filter starts from and whose depth it
searches deeper than, in every position: the strongest of
:data:`companion.ai.player.LEVELS`."""

REVIEW_DEPTH: Final = DEFAULT_DEPTH
"""Kept for readers of the old constant: the default of :data:`REVIEW_DEPTHS`."""

FILTER_KEPT: Final = 2
"""The move filter (as GNU Backgammon's analysis filters the moves it looks at deeper):
the moves :data:`REVIEW_LEVEL`'s ranking puts first that are always searched deeper."""

FILTER_MOST: Final = 4
"""At most this many of the ranking's first moves are searched deeper (the played move
comes on top when it is not among them)..."""

FILTER_WINDOW: Final = 0.05
"""... those after the first :data:`FILTER_KEPT` only when their value is within this
share of the chance to win (5 points) of the best one's in the ranking."""

TURN_FILTER_MOST: Final = 2
"""Where a whole turn is one ply (casting-stick Senet), at most this many of the
ranking's first moves are searched deeper (the played move on top): one more turn
there is the opponent's cast and every sequence of its turn (before
:data:`TURN_ENDS_KEPT`, tens of thousands of expansions an end of the turn, about a
second here)."""

ENDS_KEPT: Final = 1
"""Where a whole turn is one ply, the ends of the turn a candidate reaches that are
searched deeper: its best ones at the ranking's depth (a move reaches tens of ends;
every end of up to three candidates took 142 s of deeper search in a 116-action game
here; two ends each and up to four candidates, 170 s for its whole review; one end
each and two candidates, 116 s; all before :data:`TURN_ENDS_KEPT`: see docs/ai.md)."""

DEEPER_NODES: Final = 200_000
"""The node expansions the deeper search of one decision may make (some seconds here,
8-12 times that on a Pi). Over it, the decision is valued at the ranking's depth (the hint's at
:data:`REVIEW_LEVEL`), and its ``depth`` says so: a budget of nodes, not of time, so the
review is the same on every machine; it also bounds the memory of one decision's
transposition table (the Cretan Labyrinth's unbudgeted review once grew to 23 GB)."""

TURN_ENDS_KEPT: Final = 2
"""Where a whole turn is one ply (casting-stick Senet), the move filter *inside* the
deeper search, at every ply (as GNU Backgammon's analysis filters the moves of each
roll at every ply it looks ahead, not only at the root): at each turn below the
candidates' ends searched two plies or more (the opponent's reply, ...), every end
of that turn is reached and valued by the evaluation, and only its best
``TURN_ENDS_KEPT`` for the mover are searched on
(:meth:`~companion.ai.search.Search.turn_filtered`). Without it one more turn cost
every end of the opponent's every cast searched on, about a second a decision here
(a 116-action game's review 116 CPU s; measured 2026-11-29, branch review6). On that
game's 37 decisions searched three turns deep (``review_speed.py``'s ``review:1:0``),
keeping 1, 2 or 3 ends moved the errors from every end's by at most 1.5, 1.1 and 1.0
points of chance (0.33, 0.18 and 0.14 on average; no mistake of 2 points or more
called or lost at 2 and 3) and cost 10.4, 17.0 and 22.7 CPU s against 122.7 (docs/ai.md,
"The deeper review's time")."""

Evaluation = Callable[[State], Values]
"""A leaf's win chances, one per player (the search's evaluation by default)."""

Progress = Callable[[int, int], None]
"""Called with (actions reviewed, actions in all) after each action."""

_SLACK: Final = 1e-9
"""How far a chance backed up as a weighted sum of floats may stray from [0, 1]."""


def base_depth(game_id: str) -> int:
    """The game's :data:`REVIEW_DEPTHS` (:data:`DEFAULT_DEPTH` if not listed)."""
    return REVIEW_DEPTHS.get(game_id, DEFAULT_DEPTH)


def luck_depth(game_id: str) -> int:
    """The game's :data:`LUCK_DEPTHS` (:data:`DEFAULT_LUCK_DEPTH` if not listed)."""
    return LUCK_DEPTHS.get(game_id, DEFAULT_LUCK_DEPTH)


@dataclass(frozen=True, slots=True)
class MoveReview:
    """One decision with a choice: ``number`` its action number (1 = the first action
    of the game), ``player`` the seat that made it, ``chosen`` and ``best`` the mover's
    win chance (0..1) after the move made and after the best legal move, ``best_move``
    the best move's notation, ``alternatives`` the legal moves, ``depth`` the plies
    ``chosen`` and ``best`` were searched (0: not known, a review made before depths
    were kept), ``hint_depth`` the plies of :data:`REVIEW_LEVEL`'s own search there
    (the hint's ranking at that level, which the move filter takes its candidates
    from; ``depth`` is deeper unless the deeper search was over :data:`DEEPER_NODES`;
    0: not known)."""

    number: int
    player: int
    move: str
    chosen: float
    best: float
    best_move: str
    alternatives: int
    depth: int = 0
    hint_depth: int = 0

    @property
    def error(self) -> float:
        """The win chance the move gave away: ``best - chosen``, 0..1 (0: the best
        move; :func:`review` checks both are chances and ``chosen <= best``)."""
        return self.best - self.chosen

    @property
    def mistake(self) -> bool:
        """Whether the error is at least :data:`~companion.ui.review_words.MISTAKE`."""
        return self.error >= MISTAKE


@dataclass(frozen=True, slots=True)
class ThrowReview:
    """One throw: ``number`` its action number, ``player`` the thrower, ``throw`` its
    notation, ``after`` the thrower's win chance after it, ``average`` the chance
    averaged over every throw that could have come (weighted by their chances),
    ``luck = after - average`` (-1..1)."""

    number: int
    player: int
    throw: str
    after: float
    average: float

    @property
    def luck(self) -> float:
        """How much better than the average throw this one was, in win chance."""
        return self.after - self.average


@dataclass(frozen=True, slots=True)
class PlayerReview:
    """One player's totals: ``moves`` the decisions with a choice (more than one legal
    move), ``error`` the sum of their errors, ``luck`` the sum of the player's throws'
    luck, ``throws`` the throws, ``mistakes`` the moves with an error of at least
    :data:`~companion.ui.review_words.MISTAKE` (win chances, 0..1 per move or throw)."""

    name: str
    moves: int
    error: float
    luck: float
    throws: int = 0
    mistakes: int = 0

    @property
    def error_per_move(self) -> float:
        """The average error of the player's moves, 0..1 (0 with no move)."""
        return self.error / self.moves if self.moves else 0.0

    @property
    def luck_per_throw(self) -> float:
        """The average luck of the player's throws, -1..1 (0 with no throw)."""
        return self.luck / self.throws if self.throws else 0.0

    @property
    def rating(self) -> str:
        """The English word for :attr:`error_per_move`
        (:func:`companion.ui.review_words.rating_key`)."""
        return rating_key(self.error_per_move)


@dataclass(frozen=True, slots=True)
class Headline:
    """What a screen shows after a game: the (up to) three biggest mistakes and each
    player's total luck, by seat."""

    mistakes: tuple[MoveReview, ...]
    luck: tuple[tuple[str, float], ...]


@dataclass(frozen=True)
class Review:
    """A whole game reviewed (see the module's docstring). ``chances`` holds every
    player's win chance from the start and after each action (``actions + 1``
    vectors), for a graph; ``depth`` the game's :data:`REVIEW_DEPTHS`."""

    game: str
    names: tuple[str, ...]
    moves: tuple[MoveReview, ...]
    throws: tuple[ThrowReview, ...]
    chances: tuple[Values, ...]
    players: tuple[PlayerReview, ...] = field(default=())
    depth: int = DEFAULT_DEPTH

    def worst(self, count: int = 3) -> tuple[MoveReview, ...]:
        """The ``count`` biggest mistakes (errors of at least
        :data:`~companion.ui.review_words.MISTAKE`), largest first; ties: the earlier."""
        bad = sorted((m for m in self.moves if m.mistake), key=lambda m: (-m.error, m.number))
        return tuple(bad[:count])

    def luckiest(self, count: int = 3) -> tuple[ThrowReview, ...]:
        """The ``count`` throws with the largest luck, good or bad (by its size)."""
        return tuple(sorted(self.throws, key=lambda t: (-abs(t.luck), t.number))[:count])

    def headline(self, count: int = 3) -> Headline:
        """The screen's summary in one call: :meth:`worst` and every player's luck."""
        return Headline(self.worst(count), tuple((p.name, p.luck) for p in self.players))

    def swings(self, count: int = 3, where: Callable[[int], str] | None = None) -> list[str]:
        """The biggest swings of the game, in English words: the worst mistakes and the
        luckiest and unluckiest throws (of 2 points of chance or more), the largest
        first. ``where`` says an action's number as the reader counts (default
        ``action 96``; the web page, which numbers turns, says ``turn 48``)."""
        at = where or _action_words
        items: list[tuple[float, str]] = []
        for m in self.worst(count):
            items.append((m.error, f"{at(m.number)}: {self.names[m.player]} played "
                          f"{move_text(m.move)} and gave away {_points(m.error)} points of "
                          f"chance to win ({_pct(m.chosen)} instead of {_pct(m.best)} with "
                          f"{move_text(m.best_move)})"))
        for t in self.luckiest(count):
            if abs(t.luck) < MISTAKE:
                continue
            word = "a lucky" if t.luck > 0 else "an unlucky"
            items.append((abs(t.luck), f"{at(t.number)}: {self.names[t.player]} had {word} "
                          f"{t.throw}: {_signed_points(t.luck)} points against the average "
                          f"throw ({_pct(t.after)} instead of {_pct(t.average)})"))
        items.sort(key=lambda i: -i[0])
        return [words for _size, words in items[:count]]


def move_text(notation: str) -> str:
    """A move's notation in English words for the command line and the page: a named
    decision worded (``face-danger``: "face the danger"), squares as they are."""
    return TASKS.get(notation, notation)


def _action_words(number: int) -> str:
    return f"action {number}"


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def _points(x: float) -> str:
    value = 100 * x
    text = f"{value:.1f}" if abs(value) < 9.95 else f"{value:.0f}"
    return "0" if text in ("0.0", "-0.0") else text


def _signed_points(x: float) -> str:
    text = _points(x)
    return text if text == "0" or text.startswith("-") else "+" + text


def _throw_text(action: Action) -> str:
    """A throw in the journal's words: ``throw 4 (LLLL)``, ``card west``."""
    words = str(action)
    return words if getattr(action, "implement", "").startswith("deck:") else f"throw {words}"


def _after(state: State, action: Action) -> State:
    after = state.search_copy()
    after.play(action)
    return after


def _checked(values: Values, where: str) -> Values:
    """``values`` if every one is a chance (0..1, within float rounding), else
    :class:`ValueError`: an error or a luck out of [-1, 1] is never shown."""
    if not all(-_SLACK <= v <= 1 + _SLACK for v in values):
        raise ValueError(f"the evaluation gave chances outside 0..1 {where}: {values}")
    return tuple(min(1.0, max(0.0, v)) for v in values)


def deeper_depth(state: State, reached: int) -> int:
    """The plies the review searches the candidates of the decision due in ``state``
    when :data:`REVIEW_LEVEL`'s search finished ``reached`` plies there: one ply deeper
    (in a game of :data:`~companion.ai.search.THROW_LEAF_GAMES` two: a throw at the
    horizon is a leaf, so a ply that ends on a throw adds nothing; where a whole turn
    is one ply, one turn), and at least the game's :data:`REVIEW_DEPTHS` and the rest of
    the mover's turn and the throw after it (:func:`~companion.ai.search.turn_plies` +
    1; 1 where a whole turn is one ply)."""
    step = 2 if state.game.id in THROW_LEAF_GAMES else 1
    rest = 1 if state.game.turn_is_one_ply else turn_plies(state) + 1
    return max(max(1, reached) + step, base_depth(state.game.id), rest)


def _level_ranking(state: State, cancel: threading.Event | None,
                   evaluation: Evaluation) -> tuple[list[RankedMove], int]:
    """:data:`REVIEW_LEVEL`'s ranking of the moves of ``state`` and the depth of its
    values: its own search at its node budget (the hint's at that level); where that
    search did not finish one ply, every move at one ply."""
    level = LEVELS[REVIEW_LEVEL]
    ranking, reached, _nodes = search(state, level.max_depth, None, level.max_nodes,
                                      evaluation=evaluation, cancel=cancel)
    if reached >= 1:
        return ranking, reached
    me = state.current_player
    valued = move_chances(state, 1, cancel, evaluation)
    return sorted((RankedMove(m, v[me], 1) for m, v in valued), key=lambda r: -r.value), 1


def move_filter(ranking: Sequence[RankedMove], played: Move | None = None,
                turns: bool = False) -> list[Move]:
    """The moves the review searches deeper, from a ranking best first: the first
    :data:`FILTER_KEPT`, then up to :data:`FILTER_MOST` in all (``turns``, a game whose
    whole turn is one ply: :data:`TURN_FILTER_MOST`) of those within
    :data:`FILTER_WINDOW` of the first's value, then ``played`` if it is not among them
    (a move not in the ranking is left out)."""
    if not ranking:
        return []
    top = ranking[0].value
    most = TURN_FILTER_MOST if turns else FILTER_MOST
    kept = [r.move for i, r in enumerate(ranking)
            if i < FILTER_KEPT or (i < most and r.value >= top - FILTER_WINDOW)]
    if played is not None and played not in kept and any(r.move == played for r in ranking):
        kept.append(played)
    return kept


@dataclass(frozen=True, slots=True)
class Judgement:
    """One decision judged (:func:`judge`): ``ranking`` every legal move ranked by
    :data:`REVIEW_LEVEL`'s own search at ``hint_depth`` plies (the hint's at that level:
    its first move is the one that level plays); ``values`` the filter's candidates
    (:func:`move_filter`, the played move included) with their value vectors searched
    ``depth`` plies deep, in the filter's order. ``depth > hint_depth`` unless the
    deeper search was over :data:`DEEPER_NODES`: then ``values`` are every legal move's
    at ``hint_depth`` (the hint's values, :func:`~companion.ai.search.move_chances`)."""

    ranking: tuple[RankedMove, ...]
    hint_depth: int
    values: tuple[tuple[Move, Values], ...]
    depth: int

    @property
    def deeper(self) -> bool:
        """Whether the candidates were searched deeper than the ranking."""
        return self.depth > self.hint_depth


def judge(state: State, played: Move | None = None, cancel: threading.Event | None = None,
          evaluation: Evaluation | None = None) -> Judgement:
    """The decision due in ``state`` judged as GNU Backgammon analyses a move with its
    move filters: the moves ranked by :data:`REVIEW_LEVEL`'s search (the hint's ranking
    at that level), the best few and ``played`` kept (:func:`move_filter`), those
    searched :func:`deeper_depth` plies deep by the same search and evaluation
    (:func:`~companion.ai.search.candidate_chances`; where a whole turn is one ply,
    each candidate's best :data:`ENDS_KEPT` ends of the turn, and at every turn below
    them the best :data:`TURN_ENDS_KEPT` ends by the evaluation), within
    :data:`DEEPER_NODES` expansions (over them: every move at the ranking's depth).

    :raises IllegalMoveError: when no decision is due.
    :raises Cancelled: when ``cancel`` is set before it is judged.
    """
    evaluation = evaluation or search_chances
    ranking, reached = _level_ranking(state, cancel, evaluation)
    candidates = move_filter(ranking, played, state.game.turn_is_one_ply)
    depth = deeper_depth(state, reached)
    ends = ENDS_KEPT if state.game.turn_is_one_ply else None
    try:
        values = candidate_chances(state, candidates, depth, cancel, evaluation, DEEPER_NODES,
                                   ends, reached, TURN_ENDS_KEPT if ends else None)
    except Cancelled:
        raise
    except OutOfBudget:
        values, depth = move_chances(state, reached, cancel, evaluation), reached
    return Judgement(tuple(ranking), reached, tuple(values), depth)


def decision_depth(state: State, cancel: threading.Event | None = None,
                   evaluation: Evaluation | None = None) -> int:
    """The plies the review searches the candidates of the decision due in ``state``
    (:func:`deeper_depth` of the depth :data:`REVIEW_LEVEL`'s own search finishes
    there, at its node budget): deeper than that level plays.

    :raises IllegalMoveError: when no decision is due.
    :raises Cancelled: when ``cancel`` is set before it is known.
    """
    _ranking, reached = _level_ranking(state, cancel, evaluation or search_chances)
    return deeper_depth(state, reached)


def move_values(state: State, cancel: threading.Event | None = None,
                evaluation: Evaluation | None = None) -> list[tuple[Move, Values]]:
    """Every legal move of ``state`` (a decision is due) with the value vector after
    it, searched :func:`decision_depth` plies deep with no filter
    (:func:`companion.ai.search.move_chances`: the search's values of that iteration).
    The review itself searches only the filter's candidates so deep (:func:`judge`).

    :raises Cancelled: when ``cancel`` is set before the values are known.
    """
    evaluation = evaluation or search_chances
    return move_chances(state, decision_depth(state, cancel, evaluation), cancel, evaluation)


def throw_values(state: State, cancel: threading.Event | None = None,
                 evaluation: Evaluation | None = None) -> list[tuple[Action, float, Values]]:
    """Every throw that can come in ``state`` (a throw is due) with its chance (a
    float, summing to 1) and the value vector after it, searched the game's
    :data:`LUCK_DEPTHS` plies from there (its best move included).

    :raises Cancelled: when ``cancel`` is set before the values are known.
    """
    run = Search.for_game(state.game, evaluation=evaluation or search_chances, cancel=cancel)
    depth = luck_depth(state.game.id)
    return [(t, w, run.value(_after(state, t), depth)) for t, _p, w in state.chance_outcomes()]


def _mean_after_throw(run: Search, state: State, depth: int) -> Values:
    """The value vectors after every throw that can come in ``state`` (a throw is due),
    each searched ``depth`` plies by ``run``, weighted by their chances: the average
    a throw's value is set against. (Not ``run.value(state, depth + 1)``: whether a
    throw costs a ply depends on the game, :meth:`Search.for_game`.)"""
    total = [0.0] * state.players
    for throw, _p, weight in state.chance_outcomes():
        for i, v in enumerate(run.value(_after(state, throw), depth)):
            total[i] += weight * v
    return tuple(total)


def review(game: Game, players: int, actions: Sequence[Action],
           names: Sequence[str] | None = None, progress: Progress | None = None,
           cancel: threading.Event | None = None,
           evaluation: Evaluation | None = None) -> Review:
    """The review of the game of ``game`` with ``players`` players made of ``actions``
    (every action checked as it is replayed); ``cancel``, once set, ends it;
    ``evaluation`` values the search's leaves (``None``: the computer's,
    :func:`companion.ai.learned.search_chances`, looked up when called).

    :raises RulesError: when an action does not fit its position.
    :raises ValueError: when ``evaluation`` gives a chance outside 0..1.
    :raises Cancelled: when ``cancel`` is set before the review ends.
    """
    with collector_paused():  # as in a search: a full collection costs more than the values
        return _review(game, players, actions, names, progress, cancel,
                       evaluation or search_chances, evaluation is None)


def _review(game: Game, players: int, actions: Sequence[Action], names: Sequence[str] | None,
            progress: Progress | None, cancel: threading.Event | None,
            evaluation: Evaluation, calibrated: bool) -> Review:
    """:func:`review`, the collector paused; ``calibrated``: the values shown through
    the map (the computer's evaluation; another one shows its own values)."""
    state = game.new_state(players)
    seats = tuple(names) if names else tuple(game.player_name(p, players) for p in range(players))
    base = base_depth(game.id)
    lucky = luck_depth(game.id)
    moves: list[MoveReview] = []
    throws: list[ThrowReview] = []

    def run() -> Search:
        # The game's plies, as the computer and the hint count them (a whole turn of
        # casting-stick Senet one ply, a throw at Tait's horizon a leaf, a ride of the
        # Labyrinth free): the values of one depth are the search's values of it.
        return Search.for_game(game, evaluation=evaluation, cancel=cancel)

    # The chances shown: each searched value through the map of REVIEW_LEVEL, whose
    # depth the review searches at least (companion.ai.calibrate: the one place a
    # searched value becomes a chance shown).
    # In an ending of a solved table (companion.ai.race) every value is exact, from the
    # position before the action on (the table's domain is closed under play): shown
    # as it is, an exact chance needs no map.
    exact = covers(state)

    def one(value: float) -> float:
        return shown_chance(game.id, players, REVIEW_LEVEL, value) if calibrated and not exact else value

    def vector(values: Values) -> Values:
        return shown_chances(game.id, REVIEW_LEVEL, values) if calibrated and not exact else values

    start = (_mean_after_throw(run(), state, lucky) if state.phase is Phase.THROW
             else run().value(state, base))
    chances: list[Values] = [vector(_checked(start, "at the start"))]
    total = len(actions)
    for number, action in enumerate(actions, start=1):
        me = state.current_player
        where = f"at action {number}"
        exact = covers(state)
        if state.phase is Phase.THROW:
            search_run = run()
            average = _checked(_mean_after_throw(search_run, state, lucky), where)
            after = _checked(search_run.value(_after(state, action), lucky), where)
            throws.append(ThrowReview(number, me, _throw_text(action), one(after[me]),
                                      one(average[me])))
            chances.append(vector(after))
        else:
            assert isinstance(action, Move)
            legal = state.legal_moves()
            if len(legal) == 1:
                chances.append(vector(_checked(run().value(_after(state, action), base), where)))
            else:
                judged = judge(state, action, cancel, evaluation)
                depth = judged.depth
                valued = [(m, _checked(v, where)) for m, v in judged.values]
                found = [v for m, v in valued if m == action]
                chosen = found[0] if found else _checked(  # not legal: apply() below says why
                    run().value(_after(state, action), depth - 1), where)
                best_move, best = max(valued, key=lambda mv: mv[1][me])
                moves.append(MoveReview(number, me, action.notation, one(chosen[me]),
                                        one(best[me]), best_move.notation, len(legal), depth,
                                        judged.hint_depth))
                chances.append(vector(chosen))
        state.apply(action)
        if progress is not None:
            progress(number, total)
    summaries = tuple(
        PlayerReview(seats[p], sum(1 for m in moves if m.player == p),
                     sum(m.error for m in moves if m.player == p),
                     sum(t.luck for t in throws if t.player == p),
                     sum(1 for t in throws if t.player == p),
                     sum(1 for m in moves if m.player == p and m.mistake))
        for p in range(players)
    )
    return Review(game.id, seats, tuple(moves), tuple(throws), tuple(chances), summaries, base)


def review_journal(path: Path, progress: Progress | None = None) -> Review:
    """The review of the journal ``path``: its actions in force (undone ones left out,
    a damaged tail not read), never writing to it.

    :raises JournalError: when the file has no usable first record.
    :raises OSError: when it cannot be read.
    """
    from companion.journal.store import load

    loaded = load(path, repair=False)
    names = tuple(loaded.game.player_name(p, loaded.players) for p in range(loaded.players))
    return review(loaded.game, loaded.players, loaded.actions, names, progress)


def to_json(result: Review) -> dict[str, Any]:
    """The review as a JSON-ready dictionary: ``depth`` (the game's
    :data:`REVIEW_DEPTHS`), ``evaluation`` (``"search"``: the computer's), ``mistake``
    (the smallest error called a mistake), ``players`` (each ``name``, ``moves``,
    ``error``, ``error_per_move``, ``rating`` (the English error-rate word),
    ``mistakes``, ``throws``, ``luck``, ``luck_per_throw``), ``moves`` (each ``n``,
    ``by``, ``move``, ``chosen``, ``best``, ``best_move``, ``error``, ``worst``: one of
    the three biggest mistakes, ``mistake``, ``depth``: the plies searched,
    ``hint_depth``: those of the ranking the filter took the move from), ``throws``
    (each ``n``, ``by``, ``throw``, ``after``, ``average``, ``luck``), ``chances``
    (every player's win chance from the start and after each action) and ``swings``
    (the biggest, in words). Chances, errors and luck are shares of the chance to win
    (0..1, luck -1..1), rounded to 4 places."""
    worst = {m.number for m in result.worst()}

    def r(x: float) -> float:
        return round(x, 4)

    return {
        "depth": result.depth,
        "evaluation": "search",
        "mistake": MISTAKE,
        "players": [{"name": p.name, "moves": p.moves, "error": r(p.error),
                     "error_per_move": r(p.error_per_move), "rating": p.rating,
                     "mistakes": p.mistakes, "throws": p.throws, "luck": r(p.luck),
                     "luck_per_throw": r(p.luck_per_throw)}
                    for p in result.players],
        "moves": [{"n": m.number, "by": result.names[m.player], "move": m.move,
                   "chosen": r(m.chosen), "best": r(m.best), "best_move": m.best_move,
                   "error": r(m.error), "worst": m.number in worst, "mistake": m.mistake,
                   "depth": m.depth, "hint_depth": m.hint_depth} for m in result.moves],
        "throws": [{"n": t.number, "by": result.names[t.player], "throw": t.throw,
                    "after": r(t.after), "average": r(t.average), "luck": r(t.luck)}
                   for t in result.throws],
        "chances": [[r(x) for x in v] for v in result.chances],
        "swings": result.swings(),
    }


def text(result: Review) -> str:
    """The review for people: per player the error per move and its word, the
    mistakes, the luck per throw; the biggest swings; the worst mistakes. In points of
    chance (a share of the chance to win times 100)."""
    lines = [f"Review of a game of {result.game}: each move valued by the computer's own search, "
             f"the {REVIEW_LEVEL} level's best moves and the one played searched deeper than "
             f"that level plays (at least {result.depth} plies); in points of chance to win.",
             ""]
    width = max(4, *(len(p.name) for p in result.players))
    lines.append(f"{'player':<{width}}  moves  error/move  rating          mistakes  throws  "
                 "luck/throw")
    for p in result.players:
        lines.append(f"{p.name:<{width}}  {p.moves:>5}  {_points(p.error_per_move):>10}  "
                     f"{p.rating:<14}  {p.mistakes:>8}  {p.throws:>6}  "
                     f"{_signed_points(p.luck_per_throw):>10}")
    lines += ["", f"A mistake gives away {_points(MISTAKE)} points or more.", "",
              "Biggest swings:"]
    lines += [f"  {s}" for s in result.swings()] or ["  none"]
    lines += ["", "Worst mistakes:"]
    for m in result.worst(5):
        lines.append(f"  action {m.number}: {result.names[m.player]} {move_text(m.move)}: "
                     f"-{_points(m.error)} points (best {move_text(m.best_move)})")
    if not result.worst(5):
        lines.append(f"  none: no move gave away {_points(MISTAKE)} points or more")
    return "\n".join(lines) + "\n"


__all__ = [
    "DEEPER_NODES",
    "DEFAULT_DEPTH",
    "DEFAULT_LUCK_DEPTH",
    "ENDS_KEPT",
    "FILTER_KEPT",
    "FILTER_MOST",
    "FILTER_WINDOW",
    "LUCK_DEPTHS",
    "REVIEW_DEPTH",
    "REVIEW_DEPTHS",
    "REVIEW_LEVEL",
    "TURN_ENDS_KEPT",
    "TURN_FILTER_MOST",
    "Evaluation",
    "Headline",
    "Judgement",
    "MoveReview",
    "PlayerReview",
    "Progress",
    "Review",
    "ThrowReview",
    "base_depth",
    "decision_depth",
    "deeper_depth",
    "judge",
    "luck_depth",
    "move_filter",
    "move_text",
    "move_values",
    "review",
    "review_journal",
    "text",
    "throw_values",
    "to_json",
]
