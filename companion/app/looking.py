"""The camera's looks at the board, for the controller: which position was looked at,
the look under way on the worker, and what its reading does on the moves screen
(issue 34; the camera itself is :mod:`companion.app.camera`).

:class:`Looking` is the controller's base (above :class:`~companion.app.flow.Flow`):
a person's moves screen shown in a position not yet looked at hands one look to the
worker; its :class:`~companion.app.events.CameraRead` comes back as an event. One move
found puts the cursor on it and says it (or plays it, ``camera.confirm`` off); none
names the squares that differ; several leave the cursor. A camera that fails or refuses
a picture is said once, and the buttons work as ever. The camera is the one of the source
chosen (``prefs.camera``, Settings' Camera row): another one chosen is made, and the
one before let go, on the worker's thread with the next look or check (never on the
loop's).

The board is also *checked* against the position where the box knows what it should
show: a resumed game (the :class:`~companion.app.screens.BoardCheck` screen, shown
instead of the board when a camera is on) and the computer's move
(:class:`~companion.app.screens.ComputerMove`). Each check is handed to the worker
(:meth:`~companion.app.camera.ChosenCamera.check`) and comes back as a
:class:`~companion.app.events.BoardChecked`: the board as expected, play goes on (the
computer's move made); else every differing square is named on the screen and aloud,
and the next check waits for the board to change again. A check that reads the same
board as the one before (a camera that does not wait, the fake) ends the checking; OK
goes on as without a camera.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, TypeAlias

from companion.app import screens as sc
from companion.app.camera import Camera, ChosenCamera, check_lines, difference_lines, readable
from companion.app.flow import Flow
from companion.app.settings import Prefs
from companion.app.worker import Worker
from companion.devices.indicators import Cue
from companion.i18n import _
from companion.rules.registry import game_title, get_game
from companion.ui.rules_words import say

if TYPE_CHECKING:  # the worker's results: imported with the first one, not at start
    from companion.app.results import BoardChecked, CalibrationLooked, CameraRead, WorkFailed
    from companion.rules import Action, State  # the engine: with the first game
    from companion.rules.core import Square

log = logging.getLogger(__name__)

Looked: TypeAlias = "tuple[str, tuple[Action, ...]]"
"""A position the camera looked at: its game's journal and the actions made in it."""

Checked: TypeAlias = "sc.BoardCheck | sc.ComputerMove"
"""A screen that waits for the board to show a position (:meth:`Looking._camera_check`);
named in a string, so that the play and turn screens are imported when first shown, not
at the start."""


def board_of(state: State) -> Mapping[Square, int]:
    """The board of ``state`` as the camera should see it: square -> player of the
    pieces on the board, with the pieces of each square
    (:func:`companion.camera.find.expected_board`; the camera room imported when a
    check is made, not at start)."""
    from companion.camera.find import expected_board

    return expected_board(state)


class Looking(Flow):
    """The camera's bookkeeping (see the module); its attributes are set by the
    controller's constructor."""

    camera: Camera | None
    chosen_camera: ChosenCamera
    """The camera of the source chosen (``prefs.camera``), changed on the worker."""
    worker: Worker
    _look: tuple[int, Looked] | None
    """The camera's look under way: its ticket and the position it is of."""
    _look_cancel: threading.Event
    """Made with each look (read only while :attr:`_look` is set); set when the look
    under way is no longer wanted (a camera that watches the board,
    :class:`~companion.app.camera.LiveCamera`, then ends it at its next frame)."""
    _looked: set[Looked]
    """The positions of the game in play whose look was applied (each looked at once:
    the moves screen an undo goes back to is not looked at again)."""
    _camera_said: bool
    """A camera trouble was said (once, until a picture is read again)."""
    _check: tuple[int, Checked, threading.Event, Mapping[Square, int] | None] | None = None
    """The camera's check under way: its ticket, the screen that awaits it, the flag set
    when it is no longer wanted, and the board it waits to change from."""
    _calibration: tuple[int, sc.Calibrating] | None = None
    """The calibration's look under way: its ticket and the step's screen."""
    _checked: tuple[Checked, Mapping[Square, int]] | None = None
    """The screen last checked and the board its last check read (the next check waits
    for the board to change from it)."""

    def _camera_setup(self, chosen: ChosenCamera, cameras: Sequence[str]) -> None:
        """The camera's bookkeeping at the start (the controller's constructor):
        ``chosen`` holds the camera made at start; ``cameras``: the values of
        ``camera.source`` the Settings screen offers."""
        self.chosen_camera = chosen
        self.camera = chosen.start_camera
        self.cameras = list(cameras)
        self._look = None
        self._looked = set()
        self._camera_said = False

    @property
    def camera_confirm(self) -> bool:
        """Whether the move the camera reads waits for OK (``prefs.camera_confirm``)."""
        return self.prefs.camera_confirm

    def change(self, prefs: Prefs) -> sc.Message | None:
        """See :meth:`Flow.change`; a camera turned off in Settings is let go at once, on
        the worker's thread (another one chosen is made with the next look)."""
        before = self.prefs.camera
        said = super().change(prefs)
        chosen = self.chosen_camera
        if prefs.camera != before and not chosen.looks(prefs.camera):
            from companion.app.results import CameraRead

            ticket, wanted = self._ticket(), prefs.camera

            def release() -> CameraRead:
                chosen.for_source(wanted)  # no camera: the one in use closed
                return CameraRead(ticket, None, refused="")  # awaited by none: dropped

            self.worker.submit(ticket, release)
        return said

    def _ticket(self) -> int:
        """The number of a new request to the worker (the controller's)."""
        raise NotImplementedError

    def _camera_awaits(self, ticket: int) -> bool:
        """Whether the worker's request ``ticket`` is the camera's look under way (at
        the board in play, or for a calibration's step)."""
        if self._calibration is not None and self._calibration[0] == ticket:
            return True
        return self._look is not None and self._look[0] == ticket

    def _camera_done(self, event: CameraRead | CalibrationLooked | WorkFailed) -> None:
        """The worker's answer to a look: applied if it is the look under way."""
        from companion.app.results import CalibrationLooked, CameraRead

        if isinstance(event, CalibrationLooked) or (
                self._calibration is not None and self._calibration[0] == event.ticket):
            assert not isinstance(event, CameraRead)
            self._calibration_done(event)
        elif isinstance(event, CameraRead) or self._camera_awaits(event.ticket):
            self._camera_read(event)
        else:
            log.info("the camera's look %d dropped: no longer awaited", event.ticket)

    # ------------------------------------------------------------------ calibrating

    def calibration_step(self, page: sc.Page) -> sc.Next:
        """See :meth:`~companion.app.screens.base.Seat.calibration_step`: a step's job
        (:func:`~companion.app.calibrating.calibration_job`) is handed to the worker,
        with the camera of the source chosen (made there if it is another)."""
        from companion.app.calibrating import calibration_job

        assert isinstance(page, sc.Calibrating)
        chosen, wanted = self.chosen_camera, self.prefs.camera
        if page.worker_state is None:  # begun
            if not chosen.looks(wanted):
                return sc.message(_("Camera failed"), (_("No camera is chosen."),), then=page.back_to)
            table = self.table
            page.worker_state = (table.state.copy() if table is not None and table.game.id == page.game
                                 else get_game(page.game).new_state())
            self.narration.instruction(page.instruction())
            return page
        ticket = self._ticket()
        page.ticket = ticket
        self._calibration = (ticket, page)
        state, stage, empty, centres = page.worker_state.copy(), page.stage, page.still, page.centres
        self.worker.submit(ticket, lambda: calibration_job(
            ticket, chosen.for_source(wanted), state, stage, empty, centres))
        return None

    def _calibration_done(self, event: CalibrationLooked | WorkFailed) -> None:
        """The worker's answer to a calibration's step, applied if its screen is still
        shown: the next step asked for (on the screen and aloud); after the fourth
        corner the calibration saved and said; a step refused says why and asks again; a
        camera that fails says so and OK tries again (the buttons work as ever)."""
        from companion.app.results import WorkFailed

        awaited = self._calibration
        if awaited is None or awaited[0] != event.ticket:
            log.info("the calibration's look %d dropped: no longer awaited", event.ticket)
            return
        self._calibration = None
        page = awaited[1]
        if self.page is not page:
            log.info("the calibration's look %d dropped: its screen is gone", event.ticket)
            return
        page.ticket = None
        if isinstance(event, WorkFailed):
            log.warning("camera: %s", event.text)
            page.problem = (_("Camera failed"), event.text)
            self.cue = Cue.ERROR
            self.narration.trouble(_("Camera failed"))
            return
        found = event.found
        if found is None:
            page.problem = (event.refused,)
            page.stage = event.again
            if event.again <= 1:
                page.centres = ()
            self.cue = Cue.ERROR
            self.narration.instruction(page.lines())
            return
        page.problem = ()
        if found.step == 0:
            page.still, page.labels, page.directory = found.still, found.labels, found.directory
            page.centres = ()
        elif found.centre is not None:
            page.centres = (*page.centres, found.centre)
        if found.calibration is None:
            page.stage = found.step + 1
            self.narration.instruction(page.lines())
            return
        self._calibration_save(page, found.calibration)

    def _calibration_save(self, page: sc.Calibrating, calibration: object) -> None:
        """Save the calibration made on ``page``'s last step in the camera's state folder
        and say so (or that the disk refused; nothing is left half written)."""
        from companion.camera.calibration import Calibration, save

        assert isinstance(calibration, Calibration)
        try:
            path = save(calibration, page.directory)
        except OSError as exc:
            log.warning("camera: cannot save the calibration: %s", exc)
            self.show(sc.message(_("Cannot save"), (exc.strerror or str(exc),), then=page.back_to))
            return
        log.info("camera: calibration saved: %s", path)
        lines = (_("The camera now reads the {game} board without markers.").format(
            game=say(game_title(page.game))),)
        self.show(sc.message(_("Calibration saved"), lines, then=page.back_to))
        self.narration.instruction((_("Calibration saved"), *lines))

    def _camera_key(self) -> Looked | None:
        """The position the camera looks at: the game's journal and its actions (all of
        them: a throw undone and made anew is another position at the same length)."""
        table = self.table
        return None if table is None else (str(table.journal.path), tuple(table.actions))

    def _camera_look(self, page: sc.Moves) -> None:
        """Hand a look at the board to the worker when ``page`` (a person's moves screen)
        is shown in a position not yet looked at, with no step chosen (issue 34)."""
        table, wanted, chosen = self.table, self.prefs.camera, self.chosen_camera
        if not chosen.looks(wanted) or table is None or page.path:
            return
        key = self._camera_key()
        if key is None or key in self._looked:
            return
        if self._look is not None and self._look[1] == key and not self._look_cancel.is_set():
            return  # its look is under way (a look stopped when its screen was left: anew)
        if not readable(table.state):
            return
        ticket = self._ticket()
        self._look = (ticket, key)
        self._look_cancel = cancel = threading.Event()
        state = table.state.copy()  # the worker's own
        self.worker.submit(ticket, lambda: chosen.look(ticket, wanted, state, cancel))

    def resume(self, resume: bool) -> sc.Next:
        """See :meth:`Flow.resume`; with a camera on, a resumed game's board is checked
        against the position first (:class:`~companion.app.screens.BoardCheck`), instead
        of the board shown for the players to check."""
        from companion.rules import Phase

        shown = super().resume(resume)
        table = self.table
        if (resume and self.chosen_camera.looks(self.prefs.camera) and table is not None
                and isinstance(shown, sc.BoardPage | sc.Route)
                and table.state.phase is not Phase.OVER and readable(table.state)):
            return sc.BoardCheck()
        return shown

    def _camera_check(self, page: Checked) -> None:
        """Hand a check of the board to the worker when ``page`` is shown (a resumed
        game's :class:`~companion.app.screens.BoardCheck`: the board of the position;
        the computer's move: the board it leaves), unless its check is under way."""
        table, wanted, chosen = self.table, self.prefs.camera, self.chosen_camera
        if not chosen.looks(wanted) or table is None or not readable(table.state):
            return
        check = self._check
        if check is not None and check[1] is page and not check[2].is_set():
            return  # under way (a check stopped when its screen was left: anew)
        state = table.state.copy()  # the worker's own
        before: Mapping[Square, int] | None = None
        if isinstance(page, sc.ComputerMove):
            if page.move is None:
                return
            after = state.copy()
            after.apply(page.move)
            expected, before = board_of(after), board_of(state)
        else:
            expected = board_of(state)
        if self._checked is not None and self._checked[0] is page:
            before = self._checked[1]  # the board named last: the next check waits for a change
        ticket = self._ticket()
        cancel = threading.Event()
        self._check = (ticket, page, cancel, before)
        self.worker.submit(ticket, lambda: chosen.check(ticket, wanted, state, expected, before, cancel))

    def _check_awaits(self, ticket: int) -> bool:
        """Whether the worker's request ``ticket`` is the camera's check under way."""
        return self._check is not None and self._check[0] == ticket

    def _check_done(self, event: BoardChecked | WorkFailed) -> None:
        """The worker's answer to a check, applied if its screen is still shown: the
        board as expected, play goes on (``page.ok``: the computer's move made, or the
        resumed game's position); else the differing squares named on the screen and
        aloud, and the board checked again (unless this check read the board it waited
        to change from: nothing new). A camera that fails or refuses is said once (on
        the screen, the error cue and its title aloud); OK goes on as ever."""
        from companion.app.results import WorkFailed

        check = self._check
        if check is None or check[0] != event.ticket:
            log.info("the camera's check %d dropped: no longer awaited", event.ticket)
            return
        self._check = None
        _ticket, page, _cancel, before = check
        table = self.table
        if self.page is not page or table is None:
            log.info("the camera's check %d dropped: its screen is gone", event.ticket)
            return
        if isinstance(event, WorkFailed) or event.seen is None:
            text = event.text if isinstance(event, WorkFailed) else event.refused
            log.warning("camera: %s", text)
            page.lines = (_("Camera failed"), text)
            if not self._camera_said:
                self._camera_said = True
                self.cue = Cue.ERROR
                self.narration.trouble(_("Camera failed"))
            return
        self._camera_said = False
        if not event.differences:
            self._checked = None
            if isinstance(page, sc.BoardCheck):
                self.narration.board_matches()
            self.show(page.ok(self))
            return
        from companion.camera.find import same_board

        seen = event.seen
        if before is not None and same_board(seen, before):
            return  # nothing new on the board (its counts too): the screen says what to do, OK goes on
        self._checked = (page, seen)
        lines = check_lines(table.state, event.differences)
        page.lines = lines
        self.narration.camera_differs(lines)
        self._camera_check(page)  # the next check waits for the board to change

    def _camera_leave(self, page: object) -> None:
        """Stop the look or check under way when ``page`` (the screen about to be shown)
        is not the screen that awaits it: a real camera watching the board lets the
        worker go."""
        if self._check is not None and self._check[1] is not page:
            self._check[2].set()
        if self._look is None or self._look_cancel.is_set():
            return
        if isinstance(page, sc.Moves) and self._look[1] == self._camera_key():
            return
        self._look_cancel.set()

    def _camera_read(self, event: CameraRead | WorkFailed) -> None:
        """Apply the camera's look (or its failure) if the moves screen of its position is
        still shown: one move found, the cursor on it and said (or the move played, with
        ``prefs.camera_confirm`` off); none, the squares that differ said; several, nothing. A
        camera that fails or refuses a picture is said once; the buttons work as ever."""
        from companion.app.results import WorkFailed

        key = self._look[1] if self._look is not None else None
        self._look = None
        page, table = self.page, self.table
        if (not isinstance(page, sc.Moves) or table is None or key is None
                or key != self._camera_key()):
            log.info("the camera's look %d dropped: its moves screen is gone", event.ticket)
            return
        if not any(k[0] == key[0] for k in self._looked):
            self._looked.clear()  # another game: its positions only
        self._looked.add(key)
        if isinstance(event, WorkFailed) or event.finding is None:
            text = event.text if isinstance(event, WorkFailed) else event.refused
            log.warning("camera: %s", text)
            if not self._camera_said:
                self._camera_said = True
                self.show(sc.message(_("Camera failed"),
                                     (text, _("Choose the move with the buttons.")), then=page))
            return
        self._camera_said = False
        finding, state = event.finding, table.state
        move = finding.move
        if move is not None:
            if not self.prefs.camera_confirm:
                self.show(sc.play_checked(self, move, page))
            elif page.point_at(self, move):
                self.narration.camera_found(state, move)
        elif finding.kind == "none" and finding.differences:
            lines = difference_lines(state, finding.differences)
            self.show(sc.message(_("Check the board"), lines, then=page))
            self.narration.camera_differs(lines)



__all__ = ["Looked", "Looking"]
