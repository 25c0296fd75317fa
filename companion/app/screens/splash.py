"""The splash screen, the first frame, and the offer to resume the unfinished game it
leads to: in a module of their own, so that the start draws the splash without
importing the setup screens (:mod:`.start`, imported when first shown; issue 35,
tests/sim/test_start_imports.py)."""

from __future__ import annotations

from dataclasses import dataclass

from companion import __version__
from companion.app.screens.base import Confirm, Message, Next, Page, Screen, Seat, ToMenu
from companion.i18n import N_, _
from companion.ui.rules_words import say
from companion.ui.view import View

PHASE_WORDS = {"throw": N_("{player} to throw"), "move": N_("{player} to move"),
               "decide": N_("{player} to decide")}
"""What an unfinished game waits for, by the value of its phase
(:class:`companion.rules.Phase`; a game over is "over"). By value: the splash is drawn
without importing the engine (issue 35)."""


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
            return Resume()
        return ToMenu()


@dataclass
class Resume(Page):
    kind = Screen.RESUME

    def items(self, seat: Seat) -> tuple[str, ...]:
        return (_("Resume"), _("New game"))

    def view(self, seat: Seat) -> View:
        about: tuple[str, ...] = ()
        loaded = seat.pending
        if loaded is not None:
            from companion.rules import Phase  # imported with the game offered

            st = loaded.state
            doing = _("over") if st.phase is Phase.OVER else (
                _(PHASE_WORDS[st.phase.value]).format(player=say(st.player_to_act_name))
            )
            about = (say(loaded.game.title), doing)
        return View("resume", _("Unfinished game"), about, items=self.items(seat),
                    cursor=self.cursor, hint=_("OK: choose"))

    def ok(self, seat: Seat) -> Next:
        from companion.rules import Phase

        loaded = seat.pending
        if self.cursor == 0 or loaded is None or loaded.state.phase is Phase.OVER:
            return seat.resume(self.cursor == 0)
        # A new game over an unfinished one ends it: asked first, naming the game.
        return Confirm(title=_("New game?"),
                       lines=(_("End {game}?").format(game=say(loaded.game.title)),),
                       keep_label=N_("Keep it"), end_label=N_("End it"), then_end=_new_game,
                       keep=self)

    def back(self, seat: Seat) -> Next:
        return Splash()


def _new_game(seat: Seat) -> Next:
    """End the game offered for resuming and go to the menu (its "New game", confirmed)."""
    return seat.resume(False)
