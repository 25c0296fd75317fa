"""The worker's results: what a job handed to :mod:`companion.app.worker` gives back to
the loop (the computer's throw and move, a hint, a review, the tutor's values, the
camera's looks and checks, a failure), as events through the service's queue.

Imported with the worker's first job or the first event the loop handles, not with
the service: nothing before the first frame needs them (issue 35, start to first frame;
tests/sim/test_start_imports.py). :mod:`companion.app.events` gives these names too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:  # the search and the camera are imported when asked for, not at start
    from pathlib import Path

    from companion.ai.review import Review
    from companion.camera.board import Pixels
    from companion.camera.calibration import Calibration
    from companion.camera.find import Difference, Finding
    from companion.rules import Move, Throw
    from companion.rules.core import Square


@dataclass(frozen=True, slots=True)
class ComputerThrew:
    """The worker drew the computer's throw for the request numbered ``ticket``."""

    ticket: int
    throw: Throw


@dataclass(frozen=True, slots=True)
class ComputerChose:
    """The worker's search chose the computer's ``move`` for the request ``ticket``."""

    ticket: int
    move: Move


@dataclass(frozen=True, slots=True)
class HintFound:
    """The worker's search found the hint for the request ``ticket``: its ``lines``."""

    ticket: int
    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ReviewDone:
    """The worker reviewed the game for the request ``ticket``
    (:func:`companion.ai.review.review`): its ``review``."""

    ticket: int
    review: Review


@dataclass(frozen=True, slots=True)
class MovesValued:
    """The worker valued every legal move of a person's position for the tutor, for the
    request ``ticket``: ``losses`` maps each move's notation to the share of the mover's
    chance to win it gives away against the best move (0..1; 0 for the best)."""

    ticket: int
    losses: tuple[tuple[str, float], ...]


@dataclass(frozen=True, slots=True)
class WorkFailed:
    """The worker's job for the request ``ticket`` raised: ``text`` says what (a bug;
    the game is kept and the players are told)."""

    ticket: int
    text: str


@dataclass(frozen=True, slots=True)
class CameraRead:
    """The camera looked at the board for the request ``ticket`` (issue 34,
    :mod:`companion.app.camera`): ``finding`` the move it shows
    (:func:`companion.camera.find.find_move`), or ``None`` with ``refused`` saying why
    the picture could not be read (a hand over the board, a square unsure)."""

    ticket: int
    finding: Finding | None
    refused: str = ""


@dataclass(frozen=True, slots=True)
class BoardChecked:
    """The camera compared the board with the one expected for the request ``ticket``
    (issue 34: a resumed game's position, the computer's move made;
    :func:`companion.app.camera.check_job`): ``seen`` the occupied squares read (square
    -> player, 0-based, with the pieces of each: :func:`companion.camera.find.occupied_board`)
    and ``differences`` the squares where they differ from the board expected, counts
    included (none: the board shows it); or ``seen`` ``None`` with ``refused`` saying
    why no picture could be read."""

    ticket: int
    seen: Mapping[Square, int] | None
    differences: tuple[Difference, ...] = ()
    refused: str = ""


@dataclass(frozen=True, eq=False)
class Found:
    """What one step of the box's calibration gave (:mod:`companion.app.calibrating`):
    ``step`` 0, the ``still`` of the empty board (RGB uint8), the ``labels`` of the four
    corner squares in the order they are asked for, and the state folder the
    calibration is kept in (``directory``: where the camera reads it); steps 1-4, the
    ``centre`` (x, y, pixels of the still) of the piece on that corner square; step 4
    also the ``calibration`` made from the four."""

    step: int
    still: Pixels | None = None
    labels: tuple[str, ...] = ()
    directory: Path | None = None
    centre: tuple[float, float] | None = None
    calibration: Calibration | None = None


@dataclass(frozen=True, slots=True)
class CalibrationLooked:
    """The camera's look for one step of the box's calibration of a board without
    markers (issue 34, :mod:`companion.app.calibrating`) for the request ``ticket``:
    ``found`` what it gave (the still of the empty board, or where the piece put on a
    corner square stands), or ``None`` with ``refused`` saying why (no piece found, more
    than a piece changed, corners that make no board) and ``again`` the step to ask for
    again (0: the empty board, 1-4: a corner square)."""

    ticket: int
    found: Found | None
    refused: str = ""
    again: int = 0


WorkDone: TypeAlias = (ComputerThrew | ComputerChose | HintFound | ReviewDone | MovesValued
                       | CameraRead | BoardChecked | CalibrationLooked | WorkFailed)
"""What the worker hands back to the loop (:mod:`companion.app.worker`), as events
through the same queue as the devices' (like :class:`SourceFailed`). A result whose
``ticket`` is no longer awaited (the position changed, undo, a new game) is dropped."""

__all__ = [
    "BoardChecked",
    "CalibrationLooked",
    "CameraRead",
    "ComputerChose",
    "ComputerThrew",
    "Found",
    "HintFound",
    "MovesValued",
    "ReviewDone",
    "WorkDone",
    "WorkFailed",
]
