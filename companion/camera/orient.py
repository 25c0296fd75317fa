"""Which way round a board without markers lies: corners given from another corner.

The player gives a board's four corners on a still of the **empty** board
(:mod:`.calibration`), starting at its top left as the box draws it. A half turn (the
corners given from the bottom right), or a quarter turn of a board about as long as
it is wide, looks the same on an empty board, and the board is then read turned. With
the game's first position set up (``companion camera calibrate GAME --orient``;
docs/camera.md 2b), :func:`orient` reads the picture under each turn the corners may
be off by (:func:`.calibration.turns`) and keeps the one that reads the pieces where
they stand (:func:`.calibration.turned`).
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.rules.core import Square

from .board import Layout, Pixels
from .calibration import TURN_WORDS, Calibration, CalibrationError, turned, turns
from .read import PictureRefused, Reader


def orient(layout: Layout, calibration: Calibration, picture: Pixels,
           expected: Mapping[Square, int]) -> tuple[int, Calibration]:
    """Which of :func:`.calibration.turns` of ``calibration`` reads ``picture`` (RGB uint8, from the
    calibration's camera, not moved) as ``expected`` (the occupied squares the player
    set up: square -> player, 0-based; every other square empty): the quarter turns
    and the calibration turned by them (:func:`.calibration.turned`).

    :raises CalibrationError: no turn reads the set-up (each turn's reading, or its
        refusal, in words), or more than one does (a set-up that looks the same turned:
        the turn cannot be told); the picture is of another shape than the still.
    """
    want = dict(expected)
    found: list[tuple[int, Calibration]] = []
    seen: list[str] = []
    for quarters in turns(layout):
        candidate = turned(calibration, quarters)
        try:
            read = Reader(layout, calibration=candidate).read(picture).occupied()
        except PictureRefused as exc:
            seen.append(f"{TURN_WORDS[quarters]}, refused ({exc.reason})")
            continue
        if read == want:
            found.append((quarters, candidate))
            continue
        wrong = [p.label for p in layout.squares
                 if read.get(p.square) != want.get(p.square)]
        shown = ", ".join(wrong[:6]) + (" ..." if len(wrong) > 6 else "")
        seen.append(f"{TURN_WORDS[quarters]}, {len(wrong)} square{'s' if len(wrong) != 1 else ''} "
                    f"otherwise ({shown})")
    if len(found) == 1:
        return found[0]
    if found:
        raise CalibrationError("the set-up reads the same " + " and ".join(TURN_WORDS[q] for q, _ in found)
                               + ": the turn cannot be told from it")
    raise CalibrationError("no turn of the corners reads the pieces as set up: " + "; ".join(seen)
                           + " (is every piece on its square, nothing else on the board?)")


__all__ = ["orient"]
