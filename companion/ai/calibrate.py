"""The chance shown: one monotone map from the searched value to a win chance.

The search's values (:mod:`companion.ai.search`: the expectimax-n backup of its leaves'
evaluation) rank the moves well but are not win chances: in Tait's Senet at ``normal``
a searched 26% won 10% of held-out self-play games, a 75% won 86% (docs/ai.md, issue
32). This module maps a searched value ``v`` (one player's, 0..1) to the chance shown,
per game, number of players and level::

    shown = f(v)    f strictly increasing, f(0) = 0, f(1) = 1

``f`` is a piecewise-linear function through knots stored in
``companion/ai/data/calibration-<game>.json`` (written by :mod:`companion.ai.calibrate_fit`),
fitted to the results of self-play games: **Platt scaling on the logit** (``f(v) =
sigmoid(a logit(v) + b)``, sampled on a grid) or **isotonic regression**
(pool-adjacent-violators, its blocks' centres joined by straight lines and blended
with 1% of the identity so that it rises strictly), each fitted to the games of that
level or to those of all three levels pooled (one map for every level), or the
identity: whichever gave the lowest Brier score on held-out folds of that level's
training games (five folds by game; :func:`choose_map`). With two
players the fit sees every decision from both sides (``v`` with the mover's result,
``1 - v`` with the opponent's), so ``f(1 - v) = 1 - f(v)`` and the two players'
chances of a position still sum to 1.

**Where it applies: here, once.** Every surface that shows a chance takes it from
:func:`chance` (one player's value: the hint's rows, so the tutor's losses and ``rules
hint``, and the review's move values, errors and luck) or :func:`chances` (a position's
vector: the review's graph on the box's review screen, ``companion journal review`` and
the spectator page); :func:`companion.ai.player.hint` and
:func:`companion.ai.review.review` are the two callers. The search itself, the levels'
choices and ``easy``'s noise see the raw values, so the map changes **no move the
computer plays**; being strictly increasing per player it changes no ranking either
(``tests/ai/test_calibrate.py`` checks both on a few hundred positions of each game).

**More than two players**: :func:`chances` maps every player's value and divides by
their sum, so that a position's chances still sum to 1; :func:`chance` (one player's
value, compared across moves) is ``f`` alone, so a ranking of moves cannot change.
The two differ by the renormalisation only (its size is not measured).

A game, player count or level without a fitted map shows the raw value (the identity).

**Not over an exact value**: where the position a hint or a review values is in a
solved table's domain (:func:`companion.ai.race.covers`: both Senets' endings), every
value is the exact chance and is shown as it is; the callers skip the map there.

The maps are fitted by :mod:`companion.ai.calibrate_fit` (one command per game:
``python -m companion.ai.calibrate_fit --game GAME``). This module imports nothing of
the computer player: :mod:`companion.ai.player` and :mod:`companion.ai.review` import it.
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from itertools import pairwise
from typing import Final

from companion.errors import CompanionError

LEVEL_NAMES: Final = ("easy", "normal", "strong")
"""The levels a map is fitted for (:data:`companion.ai.player.LEVELS`' names)."""


class CalibrationError(CompanionError):
    """A calibration file is unreadable, or a map is not increasing within [0, 1]."""


@dataclass(frozen=True, slots=True)
class Map:
    """A strictly increasing piecewise-linear map of [0, 1] onto [0, 1]: through the
    knots ``(xs[i], ys[i])``, ``xs`` from 0 to 1, ``ys`` from 0 to 1, both strictly
    increasing. ``method``: how it was fitted (``"identity"``, ``"platt"``,
    ``"isotonic"``, ``"platt-pooled"``, ``"isotonic-pooled"``).

    :raises CalibrationError: when the knots are not so.
    """

    xs: tuple[float, ...]
    ys: tuple[float, ...]
    method: str = "identity"

    def __post_init__(self) -> None:
        xs, ys = self.xs, self.ys
        if len(xs) != len(ys) or len(xs) < 2:
            raise CalibrationError(f"a map needs at least 2 knots of (x, y), got {len(xs)}, {len(ys)}")
        if xs[0] != 0.0 or xs[-1] != 1.0 or ys[0] != 0.0 or ys[-1] != 1.0:
            raise CalibrationError("a map must run from (0, 0) to (1, 1)")
        if any(b <= a for a, b in pairwise(xs)) or any(b <= a for a, b in pairwise(ys)):
            raise CalibrationError("a map's knots must rise strictly")

    def __call__(self, v: float) -> float:
        """The chance shown for the searched value ``v`` (clamped to [0, 1] first)."""
        if v <= 0.0:
            return 0.0
        if v >= 1.0:
            return 1.0
        xs, ys = self.xs, self.ys
        i = bisect.bisect_right(xs, v) - 1
        t = (v - xs[i]) / (xs[i + 1] - xs[i])
        return ys[i] + t * (ys[i + 1] - ys[i])


IDENTITY: Final = Map((0.0, 1.0), (0.0, 1.0))


@cache
def _maps(game_id: str) -> dict[tuple[int, str], Map]:
    """The fitted maps of ``game_id`` by (players, level); {} when no file ships.

    :raises CalibrationError: when the file is there but unusable.
    """
    try:
        text = resources.files("companion.ai").joinpath("data", f"calibration-{game_id}.json").read_text("utf-8")
    except (FileNotFoundError, OSError):
        return {}
    try:
        data = json.loads(text)
        out = {}
        for players, levels in data["maps"].items():
            for level, entry in levels.items():
                out[int(players), str(level)] = Map(tuple(float(x) for x in entry["x"]),
                                                    tuple(float(y) for y in entry["y"]),
                                                    str(entry["method"]))
        return out
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise CalibrationError(f"companion/ai/data/calibration-{game_id}.json: {exc}") from None


def map_for(game_id: str, players: int, level: str) -> Map:
    """The map of ``game_id`` at ``players`` players and ``level`` (:data:`IDENTITY`
    when none is fitted).

    :raises CalibrationError: when the game's calibration file is unusable.
    """
    return _maps(game_id).get((players, level), IDENTITY)


def chance(game_id: str, players: int, level: str, value: float) -> float:
    """The chance shown for one player's searched ``value`` (0..1) in a game of
    ``game_id`` with ``players`` players, searched as ``level`` searches: ``f(value)``,
    0..1, strictly increasing in ``value`` (so a ranking of moves by it is the
    search's).

    :raises CalibrationError: when the game's calibration file is unusable.
    """
    return map_for(game_id, players, level)(value)


def chances(game_id: str, level: str, values: Sequence[float]) -> tuple[float, ...]:
    """A position's chances shown, one per player (``len(values)`` players), summing to
    1: each player's value mapped (:func:`chance`), then divided by their sum (with two
    players the sum is already 1, up to rounding; with more, see the module's
    docstring). A vector whose mapped values are all 0 is returned as it is.

    :raises CalibrationError: when the game's calibration file is unusable.
    """
    f = map_for(game_id, len(values), level)
    mapped = [f(v) for v in values]
    total = sum(mapped)
    if total <= 0.0:
        return tuple(values)
    return tuple(m / total for m in mapped)


