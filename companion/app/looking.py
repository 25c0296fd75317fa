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
one before let go, on the worker's thread with the next look (never on the loop's).
"""

from __future__ import annotations

import logging
import threading

from companion.app import screens as sc
from companion.app.camera import Camera, ChosenCamera, difference_lines, readable
from companion.app.events import CameraRead, WorkFailed
from companion.app.flow import Flow
from companion.app.worker import Worker
from companion.i18n import _
from companion.rules import Action

log = logging.getLogger(__name__)

Looked = tuple[str, tuple[Action, ...]]
"""A position the camera looked at: its game's journal and the actions made in it."""


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

    def _ticket(self) -> int:
        """The number of a new request to the worker (the controller's)."""
        raise NotImplementedError

    def _camera_awaits(self, ticket: int) -> bool:
        """Whether the worker's request ``ticket`` is the camera's look under way."""
        return self._look is not None and self._look[0] == ticket

    def _camera_done(self, event: CameraRead | WorkFailed) -> None:
        """The worker's answer to a look: applied if it is the look under way."""
        if self._camera_awaits(event.ticket):
            self._camera_read(event)
        else:
            log.info("the camera's look %d dropped: no longer awaited", event.ticket)

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

    def _camera_leave(self, page: object) -> None:
        """Stop the look under way when ``page`` (the screen about to be shown) is not
        its moves screen: a real camera watching the board lets the worker go."""
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
            lines = difference_lines(state, tuple((d.square, d.seen, d.expected)
                                                  for d in finding.differences))
            self.show(sc.message(_("Check the board"), lines, then=page))
            self.narration.camera_differs(lines)



__all__ = ["Looked", "Looking"]
