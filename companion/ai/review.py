"""A game review, as GNU Backgammon analyses a match: each move's error, each throw's
luck, per player totals, the biggest swings in words.

Every position is valued by the learned evaluation (:mod:`companion.ai.learned`)
searched :data:`REVIEW_DEPTH` plies beyond the action (expectimax-n, as
:mod:`companion.ai.search`, without a budget, so the review of a game is the same on
every machine). For the player ``p`` who acts:

* a **move**'s value is ``p``'s chance to win after it; ``best`` is the highest value
  of all the legal moves, ``error = best - chosen`` (>= 0; 0 for the best move);
* a **throw**'s value is the thrower's chance after it (with the best move that
  follows); its **luck** is that value minus the average of the values of every
  throw that could have come, weighted by their chances (so luck averages to 0 over
  the throws of a position: a lucky throw is one better than the average throw);
* per player: moves made, total error, error per move, total luck.

:func:`review` takes the actions of a game (a journal's actions in force, undone ones
left out); :func:`review_journal` reads a journal file. :meth:`Review.headline` gives a
screen what it shows after a game in one call: the three biggest mistakes and each
player's luck. :func:`to_json` is the ``review`` block of ``companion journal export
--review``; :func:`text` what ``companion journal review`` prints.

About 10-60 ms per action on the development machine (the Labyrinth's two dice, 21
outcomes, cost most); a Raspberry Pi is 8-12 times slower per core. Run it in its own
process or thread, never in the service loop; ``progress`` reports each action done;
``cancel`` (a :class:`threading.Event`), once set, ends it at the search's next node
expansion with :class:`~companion.ai.search.Cancelled` (the service stopping).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from companion.ai.learned import chances as learned_chances
from companion.ai.search import Search, Values
from companion.rules import Action, Game, Move, Phase, State

REVIEW_DEPTH: Final = 1
"""Plies searched beyond each move valued (1: the expectation over the next throw)."""

Progress = Callable[[int, int], None]
"""Called with (actions reviewed, actions in all) after each action."""


@dataclass(frozen=True, slots=True)
class MoveReview:
    """One move: ``number`` its action number (1 = the first action of the game),
    ``player`` the seat that made it, ``chosen`` and ``best`` the mover's win chance
    (0..1) after the move made and after the best legal move, ``error`` their
    difference (>= 0), ``best_move`` the best move's notation."""

    number: int
    player: int
    move: str
    chosen: float
    best: float
    best_move: str
    alternatives: int

    @property
    def error(self) -> float:
        """The win chance the move gave away, 0..1 (0: the best move)."""
        return max(0.0, self.best - self.chosen)


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
    luck (win chances, 0..1 per move or throw)."""

    name: str
    moves: int
    error: float
    luck: float

    @property
    def error_per_move(self) -> float:
        return self.error / self.moves if self.moves else 0.0


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
    vectors), for a graph."""

    game: str
    names: tuple[str, ...]
    moves: tuple[MoveReview, ...]
    throws: tuple[ThrowReview, ...]
    chances: tuple[Values, ...]
    players: tuple[PlayerReview, ...] = field(default=())

    def worst(self, count: int = 3) -> tuple[MoveReview, ...]:
        """The ``count`` moves with the biggest errors (largest first; ties: the
        earlier), those with an error above 0 only."""
        bad = sorted((m for m in self.moves if m.error > 0), key=lambda m: (-m.error, m.number))
        return tuple(bad[:count])

    def luckiest(self, count: int = 3) -> tuple[ThrowReview, ...]:
        """The ``count`` throws with the largest luck, good or bad (by its size)."""
        return tuple(sorted(self.throws, key=lambda t: (-abs(t.luck), t.number))[:count])

    def headline(self, count: int = 3) -> Headline:
        """The screen's summary in one call: :meth:`worst` and every player's luck."""
        return Headline(self.worst(count), tuple((p.name, p.luck) for p in self.players))

    def swings(self, count: int = 3, where: Callable[[int], str] | None = None) -> list[str]:
        """The biggest swings of the game, in words: the worst mistakes and the
        luckiest and unluckiest throws, the largest first. ``where`` says an action's
        number as the reader counts (default ``action 96``; the web page, which numbers
        turns, says ``turn 48``)."""
        at = where or _action_words
        items: list[tuple[float, str]] = []
        for m in self.worst(count):
            items.append((m.error, f"{at(m.number)}: {self.names[m.player]} played {m.move} "
                          f"and gave away {_pct(m.error)} of their chance to win "
                          f"({_pct(m.chosen)} instead of {_pct(m.best)} with {m.best_move})"))
        for t in self.luckiest(count):
            if abs(t.luck) < 0.005:
                continue
            word = "a lucky" if t.luck > 0 else "an unlucky"
            items.append((abs(t.luck), f"{at(t.number)}: {self.names[t.player]} had {word} "
                          f"{t.throw}: {_signed(t.luck)} against the average throw "
                          f"({_pct(t.after)} instead of {_pct(t.average)})"))
        items.sort(key=lambda i: -i[0])
        return [words for _size, words in items[:count]]


def _action_words(number: int) -> str:
    return f"action {number}"


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def _signed(x: float) -> str:
    return f"{100 * x:+.0f}%"


def _throw_text(action: Action) -> str:
    """A throw in the journal's words: ``throw 4 (LLLL)``, ``card west``."""
    words = str(action)
    return words if getattr(action, "implement", "").startswith("deck:") else f"throw {words}"


def _after(state: State, action: Action) -> State:
    after = state.search_copy()
    after.play(action)
    return after


def move_values(state: State, cancel: threading.Event | None = None) -> list[tuple[Move, Values]]:
    """Every legal move of ``state`` (a decision is due) with the value vector after
    it (:data:`REVIEW_DEPTH` plies searched).

    :raises Cancelled: when ``cancel`` is set before the values are known.
    """
    run = Search(evaluation=learned_chances, cancel=cancel)
    return [(m, run.value(_after(state, m), REVIEW_DEPTH)) for m in state.legal_moves()]


def throw_values(state: State, cancel: threading.Event | None = None,
                 ) -> list[tuple[Action, float, Values]]:
    """Every throw that can come in ``state`` (a throw is due) with its chance (a
    float, summing to 1) and the value vector after it, its best move included.

    :raises Cancelled: when ``cancel`` is set before the values are known.
    """
    run = Search(evaluation=learned_chances, cancel=cancel)
    return [(t, w, run.value(_after(state, t), REVIEW_DEPTH + 1))
            for t, _p, w in state.chance_outcomes()]


def review(game: Game, players: int, actions: Sequence[Action],
           names: Sequence[str] | None = None, progress: Progress | None = None,
           cancel: threading.Event | None = None) -> Review:
    """The review of the game of ``game`` with ``players`` players made of ``actions``
    (every action checked as it is replayed); ``cancel``, once set, ends it.

    :raises RulesError: when an action does not fit its position.
    :raises Cancelled: when ``cancel`` is set before the review ends.
    """
    state = game.new_state(players)
    seats = tuple(names) if names else tuple(game.player_name(p, players) for p in range(players))
    moves: list[MoveReview] = []
    throws: list[ThrowReview] = []
    def run() -> Search:
        return Search(evaluation=learned_chances, cancel=cancel)

    start = run().value(state, REVIEW_DEPTH + 1 if state.phase is Phase.THROW else REVIEW_DEPTH)
    chances: list[Values] = [start]
    total = len(actions)
    for number, action in enumerate(actions, start=1):
        me = state.current_player
        if state.phase is Phase.THROW:
            outcomes = throw_values(state, cancel)
            average = sum(w * v[me] for _t, w, v in outcomes)
            key = _after(state, action).position_key()
            after_values = next((v for t, _w, v in outcomes if _after(state, t).position_key() == key),
                                None)
            if after_values is None:  # a throw the merged outcomes name another way
                after_values = run().value(_after(state, action), REVIEW_DEPTH + 1)
            throws.append(ThrowReview(number, me, _throw_text(action), after_values[me], average))
            chances.append(after_values)
        else:
            assert isinstance(action, Move)
            valued = move_values(state, cancel)
            chosen = next(v for m, v in valued if m == action) if any(m == action for m, _ in valued) \
                else run().value(_after(state, action), REVIEW_DEPTH)
            best_move, best = max(valued, key=lambda mv: mv[1][me])
            if len(valued) > 1:
                moves.append(MoveReview(number, me, action.notation, chosen[me], best[me],
                                        best_move.notation, len(valued)))
            chances.append(chosen)
        state.apply(action)
        if progress is not None:
            progress(number, total)
    summaries = tuple(
        PlayerReview(seats[p], sum(1 for m in moves if m.player == p),
                     sum(m.error for m in moves if m.player == p),
                     sum(t.luck for t in throws if t.player == p))
        for p in range(players)
    )
    return Review(game.id, seats, tuple(moves), tuple(throws), tuple(chances), summaries)


def review_journal(path: Path, progress: Progress | None = None) -> Review:
    """The review of the journal ``path``: its actions in force (undone ones left out,
    a damaged tail not read), never writing to it.

    :raises JournalError: when the file has no usable first record.
    :raises OSError: when it cannot be read.
    """
    from companion.app.journal import load

    loaded = load(path, repair=False)
    names = tuple(loaded.game.player_name(p, loaded.players) for p in range(loaded.players))
    return review(loaded.game, loaded.players, loaded.actions, names, progress)


def to_json(result: Review) -> dict[str, Any]:
    """The review as a JSON-ready dictionary: ``players`` (each ``name``, ``moves``,
    ``error``, ``error_per_move``, ``luck``), ``moves`` (each ``n``, ``by``, ``move``,
    ``chosen``, ``best``, ``best_move``, ``error``, ``worst``: one of the three biggest
    mistakes), ``throws`` (each ``n``, ``by``, ``throw``, ``after``, ``average``,
    ``luck``), ``chances`` (every player's win chance from the start and after each
    action) and ``swings`` (the biggest, in words). Chances are 0..1, rounded to 4
    places."""
    worst = {m.number for m in result.worst()}

    def r(x: float) -> float:
        return round(x, 4)

    return {
        "depth": REVIEW_DEPTH,
        "evaluation": "learned",
        "players": [{"name": p.name, "moves": p.moves, "error": r(p.error),
                     "error_per_move": r(p.error_per_move), "luck": r(p.luck)}
                    for p in result.players],
        "moves": [{"n": m.number, "by": result.names[m.player], "move": m.move,
                   "chosen": r(m.chosen), "best": r(m.best), "best_move": m.best_move,
                   "error": r(m.error), "worst": m.number in worst} for m in result.moves],
        "throws": [{"n": t.number, "by": result.names[t.player], "throw": t.throw,
                    "after": r(t.after), "average": r(t.average), "luck": r(t.luck)}
                   for t in result.throws],
        "chances": [[r(x) for x in v] for v in result.chances],
        "swings": result.swings(),
    }


def text(result: Review) -> str:
    """The review for people: per player the totals, the biggest swings, the worst
    mistakes."""
    lines = [f"Review of a game of {result.game} (win chances from the learned evaluation, "
             f"{REVIEW_DEPTH} ply ahead)", ""]
    width = max(len(p.name) for p in result.players)
    lines.append(f"{'player':<{width}}  moves  total error  error/move  luck")
    for p in result.players:
        lines.append(f"{p.name:<{width}}  {p.moves:>5}  {_pct(p.error):>11}  "
                     f"{100 * p.error_per_move:>9.1f}%  {_signed(p.luck):>4}")
    lines += ["", "Biggest swings:"]
    lines += [f"  {s}" for s in result.swings()] or ["  none"]
    lines += ["", "Worst mistakes:"]
    for m in result.worst(5):
        lines.append(f"  action {m.number}: {result.names[m.player]} {m.move}: -{_pct(m.error)} "
                     f"(best {m.best_move})")
    if not result.worst(5):
        lines.append("  none: every move was the best one")
    return "\n".join(lines) + "\n"


__all__ = ["REVIEW_DEPTH", "Headline", "MoveReview", "PlayerReview", "Progress", "Review",
           "ThrowReview", "move_values", "review", "review_journal", "text", "throw_values",
           "to_json"]
