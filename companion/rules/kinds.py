"""The plain names of the rules that the screens name before any game is set up: the
event kinds used by more than one game and the face tokens of a casting stick.

They are held here, not in :mod:`companion.rules.core` and :mod:`companion.rules.throws`
(which give them too, as ever), so that a module that needs only these strings (the
presenters' routine kinds, the drawing of a stick's face) does not import the engine's
core and its implements with them: the start draws its first frame without the engine
(issue 35; tests/sim/test_start_imports.py).
"""

from __future__ import annotations

from typing import Final

# Event kinds used by more than one game. Games may add their own.
EV_THROWN: Final = "thrown"
EV_ENTERED: Final = "entered"
EV_MOVED: Final = "moved"
EV_BUMPED: Final = "bumped"
EV_SWAPPED: Final = "swapped"
EV_CAPTURED: Final = "captured"
EV_DROWNED: Final = "drowned"
EV_TRAPPED: Final = "trapped"
EV_EXTRA_THROW: Final = "extra-throw"
EV_BORNE_OFF: Final = "borne-off"
EV_CARD_DRAWN: Final = "card-drawn"
EV_THROW_LOST: Final = "throw-lost"
EV_VALUE_LOST: Final = "value-lost"
EV_TURN_PASSES: Final = "turn-passes"
EV_WON: Final = "won"

LIGHT: Final = "L"
"""Face token of a casting stick showing its light (flat, painted) side."""
DARK: Final = "D"
"""Face token of a casting stick showing its dark (round) side."""

__all__ = [
    "DARK",
    "EV_BORNE_OFF",
    "EV_BUMPED",
    "EV_CAPTURED",
    "EV_CARD_DRAWN",
    "EV_DROWNED",
    "EV_ENTERED",
    "EV_EXTRA_THROW",
    "EV_MOVED",
    "EV_SWAPPED",
    "EV_THROWN",
    "EV_THROW_LOST",
    "EV_TRAPPED",
    "EV_TURN_PASSES",
    "EV_VALUE_LOST",
    "EV_WON",
    "LIGHT",
]
