"""The box's calibration of a board without markers, the worker's half (issue 34; the
screens are :mod:`companion.app.screens.calibrate`, the loop's half
:class:`~companion.app.looking.Looking`).

The player calibrates from Settings' Calibrate camera row as ``companion camera
calibrate GAME --pieces`` does on the command line (docs/camera.md, 2b): a still of the
empty board, then one piece on each corner square in turn
(:func:`companion.camera.calibration.corner_squares`), each found against the empty
board (:func:`~companion.camera.calibration.find_piece`); the four make the board's
corners (:func:`~companion.camera.calibration.corners_from_pieces`) and the
calibration (:func:`~companion.camera.calibration.calibrate`). Each step is one job
on the worker's thread (:func:`calibration_job`: the camera's pictures and the
corner-finding never run on the loop's); the loop saves the calibration only when the
last step comes back and its screen is still shown (BACK on any step saves nothing).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from companion.app.results import CalibrationLooked, Found
from companion.rules import State

if TYPE_CHECKING:
    from companion.app.camera import Camera
    from companion.camera.board import Pixels

STILL_AVERAGE = 8
"""The still of the empty board: the mean of this many frames (as the command line's
``companion camera calibrate``)."""
PIECE_AVERAGE = 2
"""A still with a piece on a corner square: the mean of this many frames (as the
command line's ``--pieces``)."""
CORNERS = 4
"""The steps after the empty board: one piece on each corner square."""


def calibration_job(ticket: int, camera: Camera | None, state: State, step: int,
                    empty: Pixels | None = None,
                    centres: Sequence[tuple[float, float]] = ()) -> CalibrationLooked:
    """The worker's job for step ``step`` of calibrating ``state``'s board (its game and
    board: the worker's own copy) with ``camera``: 0, the still of the empty board;
    1-4, the still with a piece on the ``step``-th corner square, compared with
    ``empty``; the fourth, with ``centres`` (the first three pieces'), also makes the
    calibration. A step the player can put right (no piece found, more than a piece
    changed, corners that make no board, the board too dark) comes back refused with
    the step to ask for again.

    :raises RuntimeError: no camera, or one that takes no still pictures (the fake
        table camera), or no state folder to keep the calibration in.
    :raises companion.camera.sources.CameraError: the camera cannot be opened or gave
        no frame (the worker hands it back as a failure: "Camera failed").
    """
    from companion.camera import calibration as cal
    from companion.camera.board import layout_for

    still = getattr(camera, "still", None)
    directory = getattr(camera, "calibrations", None)
    if camera is None or still is None:
        raise RuntimeError("this camera takes no still pictures: choose a USB or Pi camera")
    if not isinstance(directory, Path):
        raise RuntimeError("the camera has no state folder to keep a calibration in")
    layout = layout_for(state)
    try:
        places = cal.corner_squares(layout)
    except cal.CalibrationError as exc:
        return CalibrationLooked(ticket, None, refused=str(exc), again=0)
    if step == 0:
        return CalibrationLooked(ticket, Found(0, still=still(STILL_AVERAGE),
                                               labels=tuple(p.label for p in places),
                                               directory=directory))
    assert empty is not None and 1 <= step <= CORNERS
    shot = still(PIECE_AVERAGE)
    try:
        centre = cal.find_piece(empty, shot)
    except cal.CalibrationError as exc:
        return CalibrationLooked(ticket, None, refused=str(exc), again=step)
    if step < CORNERS:
        return CalibrationLooked(ticket, Found(step, centre=centre))
    try:
        corners = cal.corners_from_pieces(layout, [*centres, centre])
        made = cal.calibrate(layout, empty, [(float(x), float(y)) for x, y in corners],
                             "the box's camera")
    except cal.CalibrationError as exc:  # the four pieces again
        return CalibrationLooked(ticket, None, refused=str(exc), again=1)
    return CalibrationLooked(ticket, Found(step, centre=centre, calibration=made))


__all__ = ["CORNERS", "PIECE_AVERAGE", "STILL_AVERAGE", "calibration_job"]
