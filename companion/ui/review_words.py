"""The review's words (:mod:`companion.ai.review`), for the box, the terminal and speech:
chances given away as points of chance, a player's error per move as a word, a move's
notation in words.

**Points of chance**: a share of the chance to win (0..1) times 100: a move that takes
a player's chance from 40% to 37% gives away 3 points. A move's error is 0 to 100
points (both values are chances in [0, 1]); a player's luck per throw -100 to +100.

**A mistake** is a move that gives away at least :data:`MISTAKE` (2 points of chance):
a smaller error is listed nowhere as a mistake (there is no "-0%" mistake).

**The error-rate words** are GNU Backgammon's ("Overall rating", analysis.c
``arThrsRating``): a player's error per move (per decision with a choice) below 0.002
of an equity unit is Supernatural, below 0.005 World class, 0.008 Expert, 0.012
Advanced, 0.018 Intermediate, 0.026 Casual player, 0.035 Beginner, and Awful! above.
An equity unit runs from -1 (a sure loss) to +1 (a sure win): in a game with no doubled
stakes, equity is ``2 * chance - 1``, so an error of ``x`` equity units is ``x / 2`` of
the chance to win. The thresholds here are GNU Backgammon's halved
(:data:`RATINGS`): Supernatural below 0.1 points of chance a move, World class below
0.25, Expert 0.4, Advanced 0.6, Intermediate 0.9, Casual player 1.3, Beginner 1.75,
Awful! from 1.75. These games have more luck and fewer choices than backgammon, and the
evaluation is cruder than GNU Backgammon's network: the words compare a player with the
computer's search at the review's depth, not with a backgammon player.

Nothing here imports the search: the numbers come in, words go out.
"""

from __future__ import annotations

from typing import Final

from companion.i18n import N_, _
from companion.ui.rules_words import say

MISTAKE: Final = 0.02
"""The smallest error (a share of the chance to win, 0..1) called a mistake: 2 points."""

RATINGS: Final[tuple[tuple[float, str], ...]] = (
    (0.001, N_("Supernatural")),
    (0.0025, N_("World class")),
    (0.004, N_("Expert")),
    (0.006, N_("Advanced")),
    (0.009, N_("Intermediate")),
    (0.013, N_("Casual player")),
    (0.0175, N_("Beginner")),
    (float("inf"), N_("Awful!")),
)
"""GNU Backgammon's error-rate words with their upper bounds (exclusive) in chance to
win per move: its thresholds in equity units, halved (see the module's docstring)."""

TASKS: Final[dict[str, str]] = {
    "face-danger": N_("face the danger"),
    "take-key": N_("take the Magic Key"),
    "keep-diamonds": N_("keep the diamonds"),
    "no-attack": N_("do not attack"),
    "pass": N_("pass"),
}
"""The moves whose notation is a name, not squares (the Cretan Labyrinth's decisions,
a pass), in words."""


def rating_key(error_per_move: float) -> str:
    """The English error-rate word for ``error_per_move`` (a share of the chance to
    win, 0..1): the key of :data:`RATINGS` (for JSON and the logs).

    :raises ValueError: for a negative or not-a-number error.
    """
    if not error_per_move >= 0.0:
        raise ValueError(f"an error per move is at least 0, got {error_per_move}")
    return next(word for bound, word in RATINGS if error_per_move < bound)


def rating(error_per_move: float) -> str:
    """:func:`rating_key` in the language in use."""
    return _(rating_key(error_per_move))


def points(share: float) -> str:
    """A share of the chance to win (-1..1) in points of chance: one decimal below 10
    points (``"2.3"``, ``"0.4"``, ``"-1.5"``), whole above (``"12"``); ``"0"`` for
    nothing (never ``"-0"``)."""
    value = 100 * share
    text = f"{value:.1f}" if abs(value) < 9.95 else f"{value:.0f}"
    return "0" if text in ("0.0", "-0.0") else text


def signed_points(share: float) -> str:
    """:func:`points` with its sign (``"+2.3"``, ``"-12"``, ``"0"``)."""
    text = points(share)
    return text if text == "0" or text.startswith("-") else "+" + text


def move_words(notation: str) -> str:
    """A move's notation as the review says it: a named decision in words
    (:data:`TASKS`: ``face-danger`` is "face the danger"), anything else as the move
    lists say it (:func:`companion.ui.rules_words.say`: squares as they are)."""
    task = TASKS.get(notation)
    return _(task) if task is not None else say(notation)


__all__ = ["MISTAKE", "RATINGS", "TASKS", "move_words", "points", "rating", "rating_key",
           "signed_points"]
