"""Casting-stick Senet (seed ``002_4a37d4d91a7a1598.txt``): plinths, coloured casting
sticks, rivers, the Abyss, Home Rows and Sun squares.

Two players, five plinths each. The board and the stick faces are data
(:mod:`companion.rules.senet_sticks_board`; default
``companion/rules/data/senet_sticks.toml``, option ``board=PATH`` for a player's
own set). Squares are numbered along Player 1's path; Player 2 travels the other
way. Every decision the seed leaves open is written in ``docs/rules/senet-sticks.md``.

A game runs in three stages:

1. ``colour-toss`` (only with option ``colour-toss``): "one player tosses a colored
   stick and takes the color shown" -- Player 1 throws one dual-coloured stick;
2. ``who-starts``: "Each player casts a solid color stick. The player with the
   highest value goes first." -- two throws of one solid stick, a tie casts again;
3. ``play``: a turn is one throw of the casting sticks, then moves until every
   usable value is used or lost. A :class:`~companion.rules.core.Move` moves ONE
   plinth by one value or by a combination of values; ``Move.values`` lists them in
   the order played (``12-17 [2+3]``); ``resurrect 4 [2+2]`` brings a plinth out of
   the Abyss. A value that can no longer be used in any order is discarded with an
   ``value-lost`` event; when no remaining value can be used the only move is an
   explicit ``pass`` whose event names the values lost. A plinth moved again later in
   the same turn continues its combination: one resurrected this turn lands only on
   open squares (``resurrected`` in the position), and with
   ``combination-captures=no`` one that took moves no more (``took``).

The package: :mod:`.state` the rules (the game and its positions), :mod:`.legal` the
legal-move search (with the paths of each combination of values, found once),
:mod:`.tables` the static tables (stages, marks, interned moves, what the board file
makes of the board, the ordered combinations of a throw), :mod:`.events` the events as
data, :mod:`.position` reading a position file's keys.
"""

from companion.rules.senet_sticks.events import (
    EV_CAST,
    EV_CAST_AGAIN,
    EV_COLOURS,
    EV_GOES_FIRST,
    EV_RESURRECTED,
    EV_RIVER,
    REASON_ABYSS,
    REASON_BLOCKED,
    REASON_HOME,
    REASON_QUICK,
    SOLID,
)
from companion.rules.senet_sticks.state import SenetSticks, SenetSticksState
from companion.rules.senet_sticks.tables import (
    ABYSS,
    EMPTY,
    FRESH,
    STAGE_PLAY,
    STAGE_START,
    STAGE_TOSS,
    TOOK,
    Step,
)

__all__ = [
    "ABYSS",
    "EMPTY",
    "EV_CAST",
    "EV_CAST_AGAIN",
    "EV_COLOURS",
    "EV_GOES_FIRST",
    "EV_RESURRECTED",
    "EV_RIVER",
    "FRESH",
    "REASON_ABYSS",
    "REASON_BLOCKED",
    "REASON_HOME",
    "REASON_QUICK",
    "SOLID",
    "STAGE_PLAY",
    "STAGE_START",
    "STAGE_TOSS",
    "TOOK",
    "SenetSticks",
    "SenetSticksState",
    "Step",
]
