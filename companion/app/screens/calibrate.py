"""The box's calibration of a board without markers (issue 34; docs/camera.md, 2b):
Settings' Calibrate camera row (shown when a camera is chosen) opens
:class:`CalibrateGame` (which game's board: the game in play first), then
:class:`Calibrating` walks the player through the steps the command line's
``companion camera calibrate GAME --pieces`` takes: "Clear the board, then OK", then
"Put a piece on square N, then OK" for each corner square in turn. OK on a step asks
the seat for the camera's look (:meth:`~companion.app.screens.base.Seat.calibration_step`:
on the worker's thread); its answer moves the page on, or says why and asks again
(:class:`~companion.app.looking.Looking`). BACK on any step goes back to the settings,
and nothing is saved."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.app.screens.base import Next, Page, Screen, Seat
from companion.i18n import _
from companion.rules import game_title
from companion.ui.rules_words import say
from companion.ui.view import View


@dataclass
class CalibrateGame(Page):
    """Which game's board to calibrate: the menu's games, the cursor on the game in play
    (when one is); OK begins (:meth:`~companion.app.screens.base.Seat.calibration_step`),
    BACK goes back to the settings."""

    kind = Screen.CALIBRATE
    back_to: Page | None = None

    def items(self, seat: Seat) -> tuple[str, ...]:
        return tuple(say(game_title(g)) for g in seat.games)

    def view(self, seat: Seat) -> View:
        return View("calibrate", _("Calibrate camera"), (_("Which board?"),),
                    items=self.items(seat), cursor=self.cursor, hint=_("OK: choose"))

    def ok(self, seat: Seat) -> Next:
        game = seat.games[self.cursor % len(seat.games)]
        return seat.calibration_step(Calibrating(game=game, back_to=self.back_to))

    def back(self, seat: Seat) -> Next:
        return self.back_to


def corner_words(index: int) -> str:
    """The ``index``-th corner (0: top left, clockwise, as
    :data:`companion.camera.calibration.CORNER_NAMES`) in the language in use."""
    return {0: _("top left"), 1: _("top right"), 2: _("bottom right"),
            3: _("bottom left")}[index]


@dataclass
class Calibrating(Page):
    """One step of calibrating ``game``'s board: ``stage`` 0, the empty board; 1-4, a
    piece on the corner square ``labels[stage - 1]``. While the camera looks
    (``ticket`` set) OK does nothing; ``problem``: why the last look failed (shown
    and said under the step asked again). What the looks found so far (``still``, ``centres``,
    ``directory``) is kept here and lost with the page (BACK: nothing saved)."""

    kind = Screen.CALIBRATE
    game: str = ""
    back_to: Page | None = None
    stage: int = 0
    labels: tuple[str, ...] = ()
    ticket: int | None = None
    problem: tuple[str, ...] = ()
    still: Any = None
    """The still of the empty board (RGB uint8; NumPy, not imported here)."""
    centres: tuple[tuple[float, float], ...] = ()
    directory: Any = None
    """The state folder the calibration is saved in (a :class:`pathlib.Path`)."""
    worker_state: Any = field(default=None, repr=False)
    """The game's position whose board is calibrated (the worker's copy is made of it;
    ``None``: the calibration not begun)."""

    def instruction(self) -> tuple[str, ...]:
        """What the player is to do now, each line a sentence (shown and said)."""
        if self.stage == 0:
            return (_("Clear the board, then OK."),)
        return (_("Put a piece on square {square} ({corner}), then OK.").format(
            square=self.labels[self.stage - 1], corner=corner_words(self.stage - 1)),)

    def lines(self) -> tuple[str, ...]:
        """The screen's lines: the step, the problem of the last look, the camera at work."""
        looking = (_("The camera is looking ..."),) if self.ticket is not None else ()
        return (*self.instruction(), *self.problem, *looking)

    def view(self, seat: Seat) -> View:
        title = _("Corner {n} of 4").format(n=self.stage) if self.stage else _("Calibrate camera")
        return View("calibrate", title, self.lines(), scroll=self.scroll, hint=_("BACK: cancel"))

    def ok(self, seat: Seat) -> Next:
        if self.ticket is not None:
            return None  # the camera is looking
        return seat.calibration_step(self)

    def back(self, seat: Seat) -> Next:
        return self.back_to


__all__ = ["CalibrateGame", "Calibrating", "corner_words"]
