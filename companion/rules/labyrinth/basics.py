"""The Game of the Labyrinth's fixed facts, shared by the rules (:mod:`.state`) and the
position reader (:mod:`.position`): pieces and colours, and the codes a position keeps
for its stage and for what a move waits for (their words are the position file's)."""

from __future__ import annotations

from typing import Final

PIECES: Final = 4
"""'each traveling with four game pieces'."""
COLOURS: Final = ("Red", "Blue", "Green", "Yellow")
"""The players' colours, in seating (clockwise) order: 'a group of four playing pieces
of a distinct color'."""
OUTSIDE: Final = 0
"""The position of a piece waiting outside the entrance."""
NO_PIECE: Final = -1
"""No piece: an empty field in ``LabyrinthState.occ``, no winner yet."""

# The stage of a game (LabyrinthState.stage), by its name in the position file.
STAGE_START: Final = 0
"""The players throw one die each for who starts."""
STAGE_PLAY: Final = 1
STAGE_OVER: Final = 2
STAGE_NAMES: Final = ("start", "play", "over")
"""The stages' words in the position file (``stage``), by code."""

# What a move waits for in the middle (LabyrinthState.pending[0]).
ASK_RIDE: Final = 1
"""Ride the Knight's Orbit from the field? (a decision)"""
ASK_CROSS: Final = 2
"""Cross the Millstone from the field? (a decision)"""
RIDE_DIE: Final = 3
"""The free die of a ride taken (a throw)."""
WAIT_WORDS: Final = {ASK_RIDE: "ride", ASK_CROSS: "cross", RIDE_DIE: "orbit-die"}
"""What a move waits for, in the position file's words (``pending.what``)."""

__all__ = [
    "ASK_CROSS",
    "ASK_RIDE",
    "COLOURS",
    "NO_PIECE",
    "OUTSIDE",
    "PIECES",
    "RIDE_DIE",
    "STAGE_NAMES",
    "STAGE_OVER",
    "STAGE_PLAY",
    "STAGE_START",
    "WAIT_WORDS",
]
