"""A learned evaluation: every player's chance to win, fitted to self-play outcomes.

Per game and number of players, a small model shipped as data
(``companion/ai/data/<game>.json``, written by :mod:`companion.ai.train`). Each player
``p`` gets a score, a weighted sum of its :func:`features` (read through the public
rules API: ``progress``, ``pieces``, the player to act, and in the Cretan Labyrinth
the escape and the tools and weapons held), and the win chances are the softmax of the scores::

    chance[p] = exp(score[p]) / sum over players q of exp(score[q])

(a conditional logit; with two players the logistic function of the difference of the
scores). The weights maximise the likelihood of the winners of self-play games (see
:mod:`companion.ai.train` and docs/ai.md); ``benchmarks/calibration.py`` measures how
well the chances match the outcomes of other games.

Casting-stick Senet's and Tait's Senet's models add to each player's score a value per
square of its own path (:attr:`Model.squares`, trained by TD-leaf:
:mod:`companion.ai.td_leaf`); the Labyrinth's models (at 2, 3 and 4 players) a value per
field, free and trapped, and a weight of the pieces at risk as
:mod:`companion.ai.labyrinth_leaf` counts them (:func:`labyrinth_rows`).

A finished game gives its winners equal shares. A game or player count without a
shipped model falls back to the progress heuristic of :mod:`companion.ai.evaluate`.
Plain Python: about 10 microseconds a position (the features read the pieces once).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

from companion.ai import evaluate, labyrinth_leaf
from companion.ai.shots import REACH, sticks_shots, tait_shots
from companion.errors import CompanionError
from companion.rules import Phase, PieceZone, State
from companion.rules.cretan_labyrinth import CretanLabyrinthState
from companion.rules.labyrinth import LabyrinthState
from companion.rules.senet_sticks.state import SenetSticksState
from companion.rules.senet_tait import HOUSE_OF_REBIRTH, SenetTaitState

FEATURES: Final = (
    "progress",
    "progress_squared",
    "to_act",
    "outside",
    "held",
    "off",
    "at_risk",
    "threats",
    "escape",
    "items",
)
"""The names of a player's features, in the order of :func:`features` and the weights."""



class ModelError(CompanionError):
    """A shipped model file is unreadable or does not fit :data:`FEATURES`."""


@dataclass(frozen=True, slots=True)
class Model:
    """The weights of one game at one number of players (one per :data:`FEATURES`)."""

    game: str
    players: int
    weights: tuple[float, ...]
    squares: tuple[float, ...] = ()
    """Casting-stick Senet and Tait's Senet: a value per square of a player's own path
    (index ``a - 1`` for its square ``a``, 1..30 along that path, not the board's number
    in casting-stick Senet; in Tait's Senet both sides run squares 1..30 alike), added to
    its score for each of its pieces there (a plinth in the Abyss, a piece on its plinth
    or borne off adds nothing). The Labyrinth at every count: :func:`labyrinth_rows`'s
    weights (a value per field for a free piece, one per field for a trapped piece, the
    weight of ``at_risk``). The Cretan Labyrinth may carry :func:`cretan_rows`'
    weights (the shipped models do not: with them the search played worse on the
    tuning seeds, docs/ai.md "The Cretan Labyrinth by TD-leaf"). Else empty. Trained
    by TD-leaf (:mod:`companion.ai.td_leaf`)."""
    leaf: bool = False
    """Whether the model was trained by TD-leaf with the search in the loop (its file
    entry has a ``td_loss``): then the search values its leaves with it in every game
    (:func:`search_chances`); a Newton fit is only the chance shown in the Cretan
    Labyrinth."""


def features(state: State) -> list[list[float]]:
    """Every player's features (one list per player, in :data:`FEATURES` order):

    * ``progress``, ``progress_squared``: :meth:`State.progress` (0..1) and its square;
    * ``to_act``: 1 for the player to act (the tempo), else 0;
    * ``outside``, ``held``, ``off``: the share of the player's pieces waiting to
      enter, held off the track, borne off. Where a hit piece goes back there, the
      feature is 0: ``outside`` in Tait's Senet (bumped to the plinth), ``held`` in
      casting-stick Senet (taken to the Abyss). ``progress`` already counts the loss
      (the piece's squares), and beside it these features were fitted *positive*
      (Tait +0.94, casting-stick +0.30, on the one-ply self-play's games), which
      gave much of the loss back: being hit cost the side hit little, and hitting
      gained little, so the search with those models walked into shots and let
      them pass (against the baseline on the tuning seeds ``tune3:PAIR``:
      casting-stick Senet 27.5% of 20 games, 45% with ``held``'s weight set to 0;
      Tait's Senet 46% of 100 games, 52% by progress alone);
    * ``at_risk``: the share of its pieces on a numbered square with an opponent's
      piece 1 to :data:`REACH` squares behind; ``threats``: the share of the
      opponents' pieces it has 1 to :data:`REACH` squares ahead of its own (a shared,
      numbered track: Senet; elsewhere these measure little and the fit says so); in
      casting-stick Senet, whose sides travel head-on, ``at_risk`` is the expected
      progress lost to the next throw's shots (one value or a combination of values
      on one plinth) and ``threats`` is counted along each player's own path
      (:func:`companion.ai.shots.sticks_shots`);
    * ``escape``: in the Cretan Labyrinth 1 while the player holds the Magic Key and
      a diamond of every colour (only the walk home is left), else 0; ``items``: the
      tools and weapons it holds, over 4 (at most 1); 0 in the other games. Neither
      counts the diamonds or the key on their own: ``progress`` already does (a
      diamond 0.1 before the key, 0.075 after it; the key +0.05 for the four diamonds
      handed in), and features that did (the model before) were fitted negative
      beside it, so taking the key lowered the chance. Taking the key changes neither
      feature and raises ``progress`` from 0.5 to 0.55.
    """
    n = state.players
    sticks = isinstance(state, SenetSticksState)
    tait = isinstance(state, SenetTaitState)
    pieces = state.pieces()
    count = [0] * n
    zones = [[0, 0, 0] for _ in range(n)]
    squares: list[list[int]] = [[] for _ in range(n)]
    for piece in pieces:
        p = piece.player
        count[p] += 1
        zone = piece.zone
        if zone is PieceZone.BOARD:
            if isinstance(piece.square, int):
                squares[p].append(piece.square)
        elif zone is PieceZone.OUTSIDE:
            if not tait:  # Tait's plinth: left to progress (see above)
                zones[p][0] += 1
        elif zone is PieceZone.HELD:
            if not sticks:  # casting-stick Senet's Abyss: left to progress (see above)
                zones[p][1] += 1
        else:
            zones[p][2] += 1
    over = state.outcome is not None
    acting = -1 if over else state.current_player
    escape = [0.0] * n
    items = [0.0] * n
    diamonds = getattr(state, "diamonds", None)
    keys = getattr(state, "keys", None)
    tools = getattr(state, "items", None)
    if isinstance(diamonds, list) and isinstance(keys, list) and isinstance(tools, list):
        game: Any = state.game  # the Cretan Labyrinth's: its decks name the colours
        colours = len(game.decks.colours)
        escape = [1.0 if keys[p] and len(diamonds[p]) >= colours else 0.0 for p in range(n)]
        items = [min(len(tools[p]), 4) / 4 for p in range(n)]
    shots = sticks_shots(state) if isinstance(state, SenetSticksState) else None
    bumps = tait_shots(state) if isinstance(state, SenetTaitState) else None
    rows: list[list[float]] = []
    for p in range(n):
        total = count[p] or 1
        others = [s for q in range(n) if q != p for s in squares[q]]
        if shots is None:
            risk: float = sum(1 for s in squares[p] if any(0 < s - o <= REACH for o in others))
            threat = sum(1 for o in others if any(0 < o - s <= REACH for s in squares[p]))
            if bumps is not None:
                # Tait's Senet: the expected progress lost to the next throw's direct
                # shots (see companion.ai.shots.tait_shots), times the count the row divides by.
                risk = bumps[p] * total
        else:
            # Casting-stick Senet: the two sides travel head-on, so "behind" and "ahead"
            # are along each player's own path; at_risk is the expected progress lost
            # to the next throw's shots (see companion.ai.shots.sticks_shots), times the count of pieces,
            # which the row below divides by.
            risk = shots[0][p] * total
            threat = shots[1][p]
        progress = state.progress(p)
        rows.append([
            progress,
            progress * progress,
            1.0 if p == acting else 0.0,
            zones[p][0] / total,
            zones[p][1] / total,
            zones[p][2] / total,
            risk / total,
            threat / max(1, len(others)),
            escape[p],
            items[p],
        ])
    return rows


def softmax(scores: Sequence[float]) -> tuple[float, ...]:
    """``exp(s) / sum(exp)`` of each score, computed without overflow."""
    top = max(scores)
    weights = [math.exp(s - top) for s in scores]
    total = sum(weights)
    return tuple(w / total for w in weights)


def model_chances(model: Model, rows: Sequence[Sequence[float]],
                  state: State | None = None) -> tuple[float, ...]:
    """The win chances the model gives players with these feature ``rows`` (those of
    ``state``; needed only by a model with :attr:`Model.squares`)."""
    w = model.weights
    scores = [sum(wi * xi for wi, xi in zip(w, row, strict=True)) for row in rows]
    if model.squares and isinstance(state, SenetSticksState) and len(model.squares) == len(state.board) - 1:
        # (a board of another length, from a board file, is valued without them)
        for p, extra in enumerate(square_scores(state, model.squares)):
            scores[p] += extra
    elif (model.squares and isinstance(state, LabyrinthState)
          and len(model.squares) == labyrinth_inputs(state)):
        table = model.squares
        for p, row in enumerate(labyrinth_rows(state)):
            scores[p] += sum(wi * xi for wi, xi in zip(table, row, strict=True) if xi)
    elif (model.squares and isinstance(state, CretanLabyrinthState)
          and len(model.squares) == cretan_inputs(state)):
        table = model.squares
        for p, row in enumerate(cretan_rows(state)):
            scores[p] += sum(wi * xi for wi, xi in zip(table, row, strict=True) if xi)
    elif model.squares and isinstance(state, SenetTaitState):
        table = model.squares
        n = len(state.board) - 1
        if len(table) == n + len(TAIT_EXTRAS):
            for p, row in enumerate(tait_extra_rows(state)):
                scores[p] += sum(wi * xi for wi, xi in zip(table[n:], row, strict=True) if xi)
        elif len(table) != n:
            return softmax(scores)  # (a table of another size: valued without it)
        for p, on in enumerate(state.squares):
            scores[p] += sum(table[s - 1] for s in on)
    return softmax(scores)


def labyrinth_scores(model: Model, state: LabyrinthState) -> list[float]:
    """Each player's score by ``model`` (a Labyrinth model with :func:`labyrinth_rows`'s
    weights in :attr:`Model.squares`), computed from the pieces at once: the score of
    :func:`model_chances` over :func:`features` and :func:`labyrinth_rows` (equal up to
    the order of the float sums), at a fifth of its cost (about 8 microseconds a
    position here against 37: the search's leaves)."""
    w = model.weights
    table = model.squares
    n = state.players
    last = state.game.board.last
    trapped = last - 1
    pos, trap = state.pos, state.trap
    per = len(pos) // n
    acting = -1 if state.outcome is not None else state.current_player
    risk = labyrinth_leaf.at_risk(state)
    fields: list[list[int]] = [[] for _ in range(n)]
    extra = [0.0] * n
    outside = [0] * n
    off = [0] * n
    for k, f in enumerate(pos):
        p = k // per
        if f == 0:
            outside[p] += 1
        elif f == last:
            off[p] += 1
        else:
            fields[p].append(f)
            extra[p] += table[f - 1 + trapped] if trap[k] else table[f - 1]
    scores = []
    for p in range(n):
        mine = fields[p]
        others = [s for q in range(n) if q != p for s in fields[q]]
        at_risk = sum(1 for s in mine if any(0 < s - o <= REACH for o in others))
        threats = sum(1 for o in others if any(0 < o - s <= REACH for s in mine))
        progress = state.progress(p)
        scores.append(w[0] * progress + w[1] * progress * progress
                      + (w[2] if p == acting else 0.0) + w[3] * outside[p] / per
                      + w[5] * off[p] / per + w[6] * at_risk / per
                      + w[7] * threats / max(1, len(others))
                      + extra[p] + table[-1] * risk[p])
    return scores


def labyrinth_inputs(state: LabyrinthState) -> int:
    """How many inputs :func:`labyrinth_rows` gives a player of ``state``'s board: two
    per field 1..last-1, and one."""
    return 2 * (state.game.board.last - 1) + 1


def labyrinth_rows(state: LabyrinthState) -> list[list[float]]:
    """Each player's inputs of the Labyrinth's :attr:`Model.squares` (one list per
    player, :func:`labyrinth_inputs` long): at ``[f - 1]`` the count of its free pieces
    on field ``f`` (1..last-1; outside and borne off count nowhere: ``progress`` and
    ``off`` say it), at ``[last - 1 + f - 1]`` the count of its pieces trapped on ``f``,
    and last its expected progress lost to the next hits
    (:func:`companion.ai.labyrinth_leaf.at_risk`, in the units of ``progress``). With
    ``progress`` weighted ``k`` (the game's sharpness), the at-risk input ``-k`` and
    nothing else, the model is :func:`companion.ai.labyrinth_leaf.chances`."""
    last = state.game.board.last
    rows = [[0.0] * labyrinth_inputs(state) for _ in range(state.players)]
    pos, trap = state.pos, state.trap
    pieces = len(pos) // state.players
    for k, f in enumerate(pos):
        if 0 < f < last:
            rows[k // pieces][f - 1 + (last - 1 if trap[k] else 0)] += 1.0
    for p, risk in enumerate(labyrinth_leaf.at_risk(state)):
        rows[p][-1] = risk
    return rows


CRETAN_WALKS: Final = ("goal_near", "colour_near", "lost_turns", "out")
"""The Cretan Labyrinth: the names of :func:`cretan_rows`' inputs after the stages."""


def cretan_inputs(state: CretanLabyrinthState) -> int:
    """How many inputs :func:`cretan_rows` gives a player: a stage per count of
    diamonds (0..the colours) without and with the Magic Key, and
    :data:`CRETAN_WALKS`."""
    return 2 * (len(state.game.decks.colours) + 1) + len(CRETAN_WALKS)


_COLOUR_GAPS: dict[int, tuple[object, dict[str, tuple[int, ...]]]] = {}
""":func:`_colour_gaps`' tables per game object (by ``id``, the game kept beside them)."""


def _colour_gaps(game: Any) -> dict[str, tuple[int, ...]]:
    """Per colour, per node: the squares (Manhattan, walls ignored, as
    :meth:`State.progress` counts a walk) to the nearest coloured space of that colour."""
    kept = _COLOUR_GAPS.get(id(game))
    if kept is None or kept[0] is not game:
        colours = game.board.colours
        gaps = game.gap_table
        table = {c: tuple(min(row[n] for n, col in enumerate(colours) if col == c) for row in gaps)
                 for c in game.decks.colours}
        kept = _COLOUR_GAPS[id(game)] = (game, table)
    return kept[1]


def cretan_rows(state: CretanLabyrinthState) -> list[list[float]]:
    """The Cretan Labyrinth: each player's inputs of :attr:`Model.squares` (one list per
    player, :func:`cretan_inputs` long), read from the pieces:

    * the stage, one-hot: at ``[k]`` 1 while the player holds ``k`` diamonds and no Magic
      Key, at ``[colours + 1 + k]`` while it holds ``k`` and the key (``progress`` is
      linear in them; the stages let each count be worth what play makes it);
    * ``goal_near``: while it holds a diamond of every colour, 1 less the squares to its
      goal (the palace; with the key its own gateway) over the board's longest such
      walk (``progress``'s walk, given its own weight), else 0;
    * ``colour_near``: while a colour is missing, 1 less the squares to the nearest
      coloured space of a missing colour over that longest walk (``progress`` does not
      see the way to the next diamond), else 0;
    * ``lost_turns``: the turns it still loses; ``out``: 1 once out of the game.

    Taking the key at the palace changes the stage (no key and every diamond, to the
    key and none), ``goal_near`` (1 to 0), ``colour_near`` (0 to the palace's) and
    ``progress`` (0.5 to 0.55), and nothing else: :func:`cretan_key_gain`."""
    return [_cretan_row(state, p) for p in range(state.players)]


def _cretan_row(state: CretanLabyrinthState, p: int) -> list[float]:
    """Player ``p``'s row of :func:`cretan_rows`."""
    game = state.game
    colours = game.decks.colours
    wanted = len(colours)
    row = [0.0] * (2 * (wanted + 1) + len(CRETAN_WALKS))
    if state.out[p]:
        row[-1] = 1.0
        return row
    longest = game.longest_gap
    held = state.diamonds[p]
    count = len(held)
    key = state.keys[p]
    row[count + (wanted + 1 if key else 0)] = 1.0
    here = state.pos[p]
    base = 2 * (wanted + 1)
    if count >= wanted:
        goal = game.homes(state.players)[p] if key else game.board.palace
        row[base] = 1.0 - game.gap_table[here][goal] / longest
    else:
        near = _colour_gaps(game)
        row[base + 1] = 1.0 - min(near[c][here] for c in colours if c not in held) / longest
    row[base + 2] = float(state.lost[p])
    return row


def cretan_scores(model: Model, state: CretanLabyrinthState) -> list[float]:
    """Each player's score by ``model`` (the Cretan Labyrinth's, with or without
    :func:`cretan_rows`' weights in :attr:`Model.squares`), read from the pieces at
    once: the score of :func:`model_chances` over :func:`features` and
    :func:`cretan_rows` (equal up to the order of the float sums; the search's leaves).
    Of the ten features only ``progress``, its square, ``to_act``, ``off`` (out of the
    game), ``escape`` and ``items`` are ever non-zero here (a piece's square is a name,
    not a number on a track)."""
    w = model.weights
    table = model.squares
    game = state.game
    colours = game.decks.colours
    wanted = len(colours)
    rows = len(table) == cretan_inputs(state)
    acting = -1 if state.outcome is not None else state.current_player
    scores = []
    for p in range(state.players):
        progress = state.progress(p)
        held = state.diamonds[p]
        key = state.keys[p]
        out = state.out[p]
        items = len(state.items[p])
        score = (w[0] * progress + w[1] * progress * progress
                 + (w[2] if p == acting else 0.0) + (w[5] if out else 0.0)
                 + (w[8] if key and len(held) >= wanted else 0.0)
                 + w[9] * (items if items < 4 else 4) / 4)
        if rows:
            score += sum(wi * xi for wi, xi in zip(table, _cretan_row(state, p), strict=True) if xi)
        scores.append(score)
    return scores


def cretan_key_gain(model: Model, state: CretanLabyrinthState, items: int | None = None) -> float:
    """How much taking the Magic Key at the palace changes a player's score by
    ``model`` (the Cretan Labyrinth's, with :func:`cretan_rows`' weights in
    :attr:`Model.squares`) for a taker holding ``items`` tools and weapons: the same
    for every player and every position where it is offered (:func:`cretan_rows`; the
    taker is on turn, so it has no turns to lose, and its progress is 0.5 and 0.01 an
    item, up to 4). ``items`` ``None``: the least over 0 to 4 (the change is linear in
    them), so that ``>= 0`` is taking the key never lowering the chance."""
    if items is None:
        return min(cretan_key_gain(model, state, 0), cretan_key_gain(model, state, 4))
    game = state.game
    wanted = len(game.decks.colours)
    table = model.squares
    w = model.weights
    palace = game.board.palace
    base = 2 * (wanted + 1)
    colour_near = 1.0 - min(_colour_gaps(game)[c][palace] for c in game.decks.colours) / game.longest_gap
    # State.progress at the palace with every diamond; with the key and none
    before = 0.5 + 0.01 * min(items, 4)
    after = before + 0.05
    return (w[0] * (after - before) + w[1] * (after * after - before * before)
            + table[wanted + 1] - table[wanted] - table[base] + table[base + 1] * colour_near)


def square_scores(state: SenetSticksState, squares: Sequence[float]) -> list[float]:
    """Each player's sum of ``squares[a - 1]`` over its plinths on the board, ``a`` the
    plinth's square along that player's own path (1..n): :attr:`Model.squares`'s term.

    :raises IndexError: when ``squares`` has fewer entries than the board has squares.
    """
    board = state.board
    n = len(board) - 1
    first = second = 0.0
    for s in range(1, n + 1):
        owner = board[s]
        if owner == 0:
            first += squares[s - 1]
        elif owner == 1:
            second += squares[n - s]
    return [first, second]


def square_rows(state: SenetSticksState) -> list[list[float]]:
    """Each player's count of plinths on each square of its own path (``[p][a - 1]``
    for square ``a``, 1..n): the inputs :attr:`Model.squares` weighs."""
    board = state.board
    n = len(board) - 1
    rows = [[0.0] * n, [0.0] * n]
    for s in range(1, n + 1):
        owner = board[s]
        if owner == 0:
            rows[0][s - 1] += 1.0
        elif owner == 1:
            rows[1][n - s] += 1.0
    return rows


def tait_square_rows(state: SenetTaitState) -> list[list[float]]:
    """Tait's Senet: each player's count of pieces on each square (``[p][s - 1]`` for
    square ``s``, 1..30; both sides run the same path): the inputs
    :attr:`Model.squares` weighs there."""
    n = len(state.board) - 1
    rows = [[0.0] * n, [0.0] * n]
    for p, on in enumerate(state.squares):
        for s in on:
            rows[p][s - 1] += 1.0
    return rows


TAIT_EXTRAS: Final = (
    "plinth_1",
    "plinth_2",
    "plinth_3",
    "exposed_1",
    "exposed_2",
    "exposed_3",
    "exposed_4",
    "exposed_5",
    "exposed_6",
    "exposed_entry",
    "passed",
)
"""Tait's Senet: the names of :func:`tait_extra_rows`' inputs, weighed after the 30
values per square in :attr:`Model.squares` (a model with 30 values has none)."""


def tait_extra_rows(state: SenetTaitState) -> list[list[float]]:
    """Tait's Senet: each player's inputs beyond one value per square (one list per
    player, :data:`TAIT_EXTRAS` in order), read from the pieces:

    * ``plinth_1``..``plinth_3``: 1 while at least 1, 2, 3 of its pieces wait on the
      plinth (entering needs a four or a six, 2 throws in 16, and one throw enters one
      piece: the cost of the plinth grows less than in proportion; its linear part is
      already ``progress`` and the values per square);
    * ``exposed_d`` (d = 1..6): where a throw is due and the player is the thrower, the
      count of its pieces (not on the House of Rebirth, square 15, "A piece cannot be
      bumped from The House of Rebirth") with an opponent's piece exactly ``d`` squares
      behind: the shots it may face after its own move (the other side's pieces at
      risk to the throw due are ``at_risk``); 0 otherwise;
    * ``exposed_entry``: likewise, its pieces on 4 or 6 (the entry squares) while the
      opponent has a piece on the plinth;
    * ``passed``: its pieces on the board ahead of every opponent's piece while the
      opponent has none on the plinth: out of reach of a bump (seed 003: a piece moves
      forward only; one could still drown on 27 and enter behind).
    """
    plinth = state.plinth
    squares = state.squares
    board = state.board
    thrower = state.current_player if state.phase is Phase.THROW and state.outcome is None else -1
    rows: list[list[float]] = []
    for p in (0, 1):
        o = 1 - p
        row = [0.0] * len(TAIT_EXTRAS)
        for i in range(min(plinth[p], 3)):  # plinth_1..plinth_3
            row[i] = 1.0
        mine = squares[p]
        if p == thrower:
            entering = plinth[o] > 0
            for s in mine:
                if s == HOUSE_OF_REBIRTH:
                    continue
                for d in range(1, 7):
                    if s - d >= 1 and board[s - d] == o:
                        row[2 + d] += 1.0
                if entering and (s == 4 or s == 6):
                    row[9] += 1.0
        if not plinth[o] and mine:
            theirs = squares[o]
            top = theirs[-1] if theirs else 0
            row[10] = float(sum(1 for s in mine if s > top))
        rows.append(row)
    return rows


@cache
def _models(game_id: str) -> dict[int, Model]:
    """The shipped models of ``game_id`` by number of players ({} when none ships).

    :raises ModelError: when the file is there but unusable.
    """
    try:
        text = resources.files("companion.ai").joinpath("data", f"{game_id}.json").read_text("utf-8")
    except (FileNotFoundError, OSError):
        return {}
    try:
        data = json.loads(text)
        if list(data["features"]) != list(FEATURES):
            raise ValueError(f"features {data['features']} are not {list(FEATURES)}")
        return {
            int(players): Model(game_id, int(players), tuple(float(x) for x in entry["weights"]),
                                tuple(float(x) for x in entry.get("squares", ())),
                                "td_loss" in entry)
            for players, entry in data["models"].items()
        }
    except (ValueError, KeyError, TypeError) as exc:
        raise ModelError(f"companion/ai/data/{game_id}.json: {exc}") from None


def model_for(game_id: str, players: int) -> Model | None:
    """The shipped model of ``game_id`` at ``players`` players, or ``None``.

    :raises ModelError: when the game's model file is unusable.
    """
    return _models(game_id).get(players)


def chances(state: State) -> tuple[float, ...]:
    """Every player's chance to win from ``state`` (one float per player, 0..1, sum 1):
    the winners' shares in a finished game, else the learned model's softmax, else (no
    model for this game and player count) :func:`companion.ai.evaluate.chances`.

    :raises ModelError: when the game's model file is unusable.
    """
    outcome = state.outcome
    if outcome is not None:
        return evaluate.shares(outcome, state.players)
    model = model_for(state.game.id, state.players)
    if model is None:
        return evaluate.chances(state)
    if (model.squares and isinstance(state, LabyrinthState)
            and len(model.squares) == labyrinth_inputs(state)):
        return softmax(labyrinth_scores(model, state))
    if isinstance(state, CretanLabyrinthState):
        return softmax(cretan_scores(model, state))
    return model_chances(model, features(state), state)


SEARCH_BY_PROGRESS: Final = frozenset({"cretan-labyrinth"})
"""Games whose search values its leaves by the progress heuristic, not the model, at
every player count whose model was not trained by TD-leaf (:attr:`Model.leaf`): the
Cretan Labyrinth, which ships a TD-leaf model at every count (2 and 3 players since
branch ``cretan10``, 4 since 2026-11-30: docs/ai.md, "The Cretan Labyrinth by TD-leaf"
and "The Cretan Labyrinth at 4 players"), so its search values them by that model; each
played as well as progress head to head (``benchmarks/ai_strength.py --search-eval
learned --versus-opponent strong-progress``). The fallback stays for a model file
without a TD-leaf entry (a Newton fit from ``--method newton``).
The Labyrinth's search values them by its model at every count of players, trained by
TD-leaf (:mod:`companion.ai.td_leaf`) from progress less the pieces at risk
(:mod:`companion.ai.labyrinth_leaf`, the leaf before: at 2 players until branch
td7laby, at 3 and 4 until branch lab10).

* Tait's Senet is no longer one: its model (exact direct shots as ``at_risk``, no
  ``outside``; see :func:`features`) plays as well as progress against the depth-2
  baseline on the tuning seeds ``tune3:PAIR`` (53% and 52% of 100 games), where the
  model before (a proximity count as ``at_risk``, ``outside`` fitted +0.94) won 46%.

* The Labyrinth (searched by progress until issue 32's fourth round, then by
  :func:`companion.ai.labyrinth_leaf.chances`, since branch td7laby at 2 players and
  branch lab10 at 3 and 4 by the TD-leaf models): ``strong`` with the Newton-fitted model won
  30.5% of 200 games against the one-turn expectimax (the model is calibrated but flat;
  it ranks the moves of a turn worse than the progress it is fitted on: its ``at_risk``
  is a count of pieces with an opponent 1-6 fields behind, not the fields a hit costs,
  and it has no feature for traps or rides).
* The Cretan Labyrinth: the model before had ``diamonds`` and ``key`` features, fitted
  negative (they corrected the jumps of the progress beside them), so it valued handing
  in the four diamonds for the Magic Key *below* keeping them (two players: a score of
  0.37 before, 0.12 after). A search on it never took the key, and so never escaped:
  ``strong`` won 78.2% of 200 games against random play, most of them shared at the
  round limit, against 100% by progress. The model's features now leave the key to
  ``progress`` (see :func:`features`), and since issue 32's fifth round the two- and
  three-player models are TD-leaf's, trained with the search in the loop from the
  progress heuristic and kept by the training's guard from valuing progress or the
  key lower (:func:`companion.ai.td_leaf.cretan_constrained`).

The hint, the tutor (:func:`companion.ai.player.hint`) and the review
(:func:`companion.ai.search.move_chances`) value moves with the search's own evaluation
(:func:`search_chances`); the model's raw chance (:func:`estimate`) is only ``rules
hint``'s chance before moving."""


def search_chances(state: State) -> tuple[float, ...]:
    """The values of a search's leaf: :func:`chances`, the one evaluation of play and
    of the chance shown, where the game's model at this player count was trained by
    TD-leaf (:attr:`Model.leaf`) or the game is a Senet; else the progress heuristic's
    (:func:`companion.ai.evaluate.chances`) for a game of :data:`SEARCH_BY_PROGRESS`,
    or in the Labyrinth progress less the pieces at risk
    (:func:`companion.ai.labyrinth_leaf.chances`).

    :raises ModelError: when the game's model file is unusable.
    """
    game_id = state.game.id
    if game_id == "labyrinth" or game_id in SEARCH_BY_PROGRESS:
        model = model_for(game_id, state.players)
        if model is None or not model.leaf:
            if game_id == "labyrinth":
                return labyrinth_leaf.chances(state)
            return evaluate.chances(state)
    return chances(state)


def estimate(state: State, player: int) -> float:
    """``player``'s chance to win from ``state``, 0..1: :func:`chances` of that player.

    :raises IndexError: for a player the game does not have.
    :raises ModelError: when the game's model file is unusable.
    """
    if not 0 <= player < state.players:
        raise IndexError(f"player {player} of {state.players}")
    return chances(state)[player]


__all__ = [
    "CRETAN_WALKS",
    "FEATURES",
    "SEARCH_BY_PROGRESS",
    "TAIT_EXTRAS",
    "Model",
    "ModelError",
    "chances",
    "cretan_inputs",
    "cretan_key_gain",
    "cretan_rows",
    "cretan_scores",
    "estimate",
    "features",
    "labyrinth_inputs",
    "labyrinth_rows",
    "labyrinth_scores",
    "model_chances",
    "model_for",
    "search_chances",
    "softmax",
    "square_rows",
    "square_scores",
    "tait_extra_rows",
    "tait_square_rows",
]
