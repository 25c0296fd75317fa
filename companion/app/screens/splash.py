"""The splash screen, the first frame: in a module of its own, so that the start draws it
without importing the screens before a game (:mod:`.start`, imported at the first OK;
issue 35, tests/sim/test_start_imports.py)."""

from __future__ import annotations

from dataclasses import dataclass

from companion import __version__
from companion.app.screens.base import Message, Next, Page, Screen, Seat, ToMenu
from companion.i18n import _
from companion.ui.view import View


@dataclass
class Splash(Page):
    """The first frame: the title, a line, the version and "OK: start"; OK shows the
    notices of the start, then the offer to resume an unfinished game, then the menu."""

    kind = Screen.SPLASH

    def view(self, seat: Seat) -> View:
        return View("splash", "board companion", (
            _("A referee for Senet and the labyrinth games."),
            _("version {version}").format(version=__version__),
        ), hint=_("OK: start"), scroll=self.scroll)

    def ok(self, seat: Seat) -> Next:
        notice = seat.take_notice()
        if notice is not None:
            title, lines = notice
            return Message(title=title, lines=lines, under=self)
        if seat.pending is not None:
            from companion.app.screens.start import Resume  # the setup screens: after the splash

            return Resume()
        return ToMenu()
