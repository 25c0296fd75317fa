"""The controller: the dispatch of events to the screen shown, fed one event at a time.

It is deterministic: the same events (and the same journal directory and throw draws)
give the same screens and the same journal. Three rooms, one each:

* the game in play is a :class:`~companion.app.table.Table` (position, actions,
  journal; begin, act, undo, end), which never chooses a screen;
* each screen is a small class in :mod:`companion.app.screens` that says what it shows
  and what OK, BACK and UP/DOWN do on it (each returns what is shown next), seeing the
  controller only as a :class:`~companion.app.screens.Seat` (what it may read and ask
  of the game);
* this module routes the events to the screen shown, shows what its buttons return
  (:meth:`~companion.app.flow.Flow.show`), keeps what lasts between
  screens (the throw source, the last events said, the game offered for resuming),
  carries out what the screens ask (act, undo, begin, resume, end, settings) and hands
  the computer's thinking to the worker (:mod:`companion.app.worker`).

Each :meth:`Controller.handle` returns one :class:`Reply` (the view to draw, the
implement due, the settings in force, a cue). Holding BACK undoes the last move.

What happens is also said (:mod:`companion.speech`): each action's cues (the throw, the
move and what it caused, the winner, the new turn; :func:`~companion.speech.cues.cues_for`),
the computer's move when it is shown, and the turn when a game begins or is resumed go
to the :attr:`Controller.speaker`, which returns at once. Holding OK says the last cues
again; with speech on, OK acts when released (as BACK does), so that a hold only repeats.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from companion.app import config as cfg
from companion.app import screens as sc
from companion.app.camera import Camera, ChosenCamera
from companion.app.events import (
    ButtonEvent,
    ButtonName,
    Draw,
    Press,
    Quit,
    Reply,
    Shaken,
    ShakeStarted,
    SourceFailed,
    SourceStatus,
    SpeechFailed,
    ThrowReported,
)
from companion.app.looking import Looking
from companion.app.narration import Narration
from companion.app.screens import PAUSE_ITEMS, Screen, Think
from companion.app.settings import Prefs, SavedSettings
from companion.app.tutoring import Tutor
from companion.app.worker import Worker
from companion.devices.events import SourceName
from companion.devices.indicators import Cue
from companion.i18n import _, language
from companion.journal.store import JournalProblem, JournalStore, Loaded
from companion.rules.registry import game_ids
from companion.speech import Speaker
from companion.ui.games import Presenter, presenter_for
from companion.ui.render import columns

if TYPE_CHECKING:  # the search is imported when a review is asked for, not at start
    from companion.ai.review import Review
    from companion.app.events import LoopEvent
    from companion.app.results import WorkDone
    from companion.app.table import Table

log = logging.getLogger(__name__)

class Controller(Looking):
    """The companion's screens: the dispatch of events to the screen shown, and the
    computer's work handed to the worker (the game flow the screens ask for is
    :class:`~companion.app.flow.Flow`'s).

    ``store``: where journals go; ``draw``: how a throw is drawn (see :data:`Draw`);
    ``sources``: the throw sources the settings screen offers; ``source``: the one in
    use; ``throw_button``: whether a THROW button is wired (else OK throws for the
    ``button`` source); ``games``: the game ids of the menu (default: all registered);
    ``size``: the panel in pixels (128x64 or 128x32); ``prefs``: the settings changeable
    on the box (default: the configuration's defaults with ``source``), saved to ``saved``
    when changed; ``buzzer`` / ``led``: whether they are wired (their settings offered);
    ``notices``: problems of the configuration to show after the splash screen;
    ``boards``: folders of board / deck files; ``game_options``: options by game id;
    ``think``: the computer's choice (:data:`~companion.app.screens.Think`); ``hints``:
    Hint offered; ``computer_draws``: the computer's throws drawn (else shaken for it);
    ``worker``: where the computer's throws are drawn and its searches run (default: at
    once, within the event that asks, see :class:`~companion.app.worker.Worker`);
    ``speaker``: what says the cues (default: :class:`~companion.speech.Silent`; the
    service replaces it when the speech settings change); ``camera``: the camera over
    the board of ``prefs.camera``, made at start (:mod:`companion.app.camera`;
    ``None``: none, ``camera.source = "off"``), looked through on a person's moves
    screen, and checking a resumed game's board and the computer's moves;
    ``camera_confirm``: the move it finds is highlighted for OK, else played at
    once (``prefs.camera_confirm`` when no ``prefs`` are given); ``cameras``: the values
    of ``camera.source`` the settings screen offers (its Camera row only when there is
    more than ``off``); ``make_camera``: makes the camera of another source chosen
    there, on the worker's thread with the next look
    (:class:`~companion.app.camera.ChosenCamera`; ``None``: no other is made);
    ``roster``: the club's roster file (``roster.json``,
    :mod:`companion.journal.roster`), read when the seats screen opens (``None``: no
    club; the seats are the game's colours).
    """

    def __init__(
        self,
        *,
        store: JournalStore,
        draw: Draw,
        sources: Sequence[str],
        source: str,
        throw_button: bool = True,
        games: Sequence[str] | None = None,
        size: tuple[int, int] = (128, 64),
        prefs: Prefs | None = None,
        saved: SavedSettings | None = None,
        buzzer: bool = False,
        led: bool = False,
        notices: Sequence[str] = (),
        boards: Sequence[Path] = (),
        game_options: Mapping[str, Mapping[str, object]] | None = None,
        think: Think | None = None,
        hints: bool = True,
        computer_draws: bool = True,
        worker: Worker | None = None,
        speaker: Speaker | None = None,
        camera: Camera | None = None,
        camera_confirm: bool = True,
        cameras: Sequence[str] = ("off",),
        make_camera: Callable[[str], Camera | None] | None = None,
        roster: Path | None = None,
    ) -> None:
        self.store = store
        self.draw = draw
        self.sources = [SourceName(s) for s in sources]
        base = prefs or Prefs.from_config({**cfg.defaults(), "throw.source": source,
                                           "camera.confirm": camera_confirm})
        if base.source not in self.sources:
            base = replace(base, source=self.sources[0])
        if base.language != language():  # the words are in the language in use (the
            base = replace(base, language=language())  # service sets the configured one)
        self.prefs = base
        self.saved = saved
        self.wired = {"buzzer": buzzer, "led": led}
        self.cue: Cue | None = None
        self.throw_button = throw_button
        self.games = list(games) if games is not None else game_ids()
        self.size = size
        self.page: sc.Page = sc.Splash()
        self.table: Table | None = None
        self.presenter: Presenter = presenter_for("", columns(size[0]))
        self.said: tuple[str, ...] = ()
        """What the last action said, shown under the next throw (routine events)."""
        self.source_trouble: dict[str, str] = {}
        """What is wrong with each throw source that reported trouble, in words."""
        self.pending: Loaded | None = None
        """The unfinished game offered for resuming (``None``: none)."""
        self.problems: list[JournalProblem] = []
        """Journals found damaged or unusable at the start, each said after the splash."""
        self.notices = list(notices)
        self.boards = list(boards)
        self.game_options = {g: dict(o) for g, o in (game_options or {}).items()}
        self.hints, self.computer_draws = hints, computer_draws
        self.worker = worker if worker is not None else Worker()
        # The default search stops with the worker (its cancel flag, set on SIGTERM);
        # a ``think`` given by a caller runs to its end. (The turn screens: imported at the first move.)
        self.think: Think = think or partial(lambda *a, **k: sc.computer_move(*a, **k),
                                             cancel=self.worker.cancel)
        self.narration = Narration(speaker)
        """What is said aloud (:mod:`companion.app.narration`)."""
        self._ok_waits = False
        """OK went down with speech on: it acts when released (not when held)."""
        self._tickets = 0
        """The number of the last request handed to the worker."""
        self.tutor = Tutor(self.worker, self._ticket)
        """The tutor's values (:mod:`companion.app.tutoring`)."""
        self._reviewed: tuple[Hashable, Review] | None = None
        """The last review shown and the game it is of (its journal and actions: a
        winning move undone and another played is reviewed anew)."""
        self._camera_setup(ChosenCamera(base.camera, camera, make_camera), cameras)
        self.roster_path = roster
        self.quit = False

    # ------------------------------------------------------------------ events

    def start(self) -> Reply:
        """Look for an unfinished game to offer; show the splash screen."""
        found = self.store.survey()
        self.pending, self.problems = found.pending, list(found.problems)
        self.page = sc.Splash()
        return self.reply()

    def reply(self) -> Reply:
        """The view, the implement due, the settings and the cue, as they are now."""
        trouble = bool(self.source_trouble.get(self.prefs.source))
        return Reply(self.view(), self.due, self.prefs, trouble, self.cue, self.quit)

    def handle(self, event: LoopEvent) -> Reply:
        """Apply one event; what it leaves (with the results of any work it asked for
        that the worker did at once)."""
        self.cue = None
        shown = self.narration.choice_shown(self.page)
        self._apply(event)
        for _n in range(10_000):  # a computer playing itself ends; the bound is a guard
            done = self.worker.collect()
            if not done:
                break
            for result in done:
                self._apply(result)
        if self.narration.choice_shown(self.page) not in (shown, None) and self.table is not None:
            self.narration.choice(self, self.page, self.table.state,
                                  arrived=shown is None or shown[0] != id(self.page))
        self.narration.flush()
        return self.reply()

    def _apply(self, event: LoopEvent) -> None:
        from companion.app.results import WorkDone  # with the first event, not at start

        page = self.page
        if isinstance(event, WorkDone):  # a union of the worker's events
            self._work_done(event)
        elif isinstance(event, Quit):
            self.quit = True
        elif isinstance(event, ButtonEvent):
            self._button(event.button, event.press)
        elif isinstance(event, ShakeStarted) and isinstance(page, sc.Throwing):
            page.shaking = page.shaking or event.source == self.source
        elif isinstance(event, Shaken) and isinstance(page, sc.Throwing):
            self.show(page.thrown(self, event.source, button=False))
        elif isinstance(event, ThrowReported):
            if isinstance(page, sc.Throwing) and event.source == self.source:
                self.show(page.reported(self, event))
            else:
                log.info("throw from %s ignored: no throw is due from it", event.source)
        elif isinstance(event, SourceStatus):
            if event.ok:
                self.source_trouble.pop(event.source, None)
            else:
                self.source_trouble[event.source] = event.text
        elif isinstance(event, SourceFailed):
            self.source_trouble[event.source] = event.text
            if event.source == self.source:
                fallback = SourceName.MANUAL if SourceName.MANUAL in self.sources else self.sources[0]
                self.show(sc.message(_("Throw source failed"),
                                     (event.text, _("Using {source} instead.").format(source=fallback)),
                                     then=self.page))
                self.show(self.change(replace(self.prefs, source=fallback)))
        elif isinstance(event, SpeechFailed):  # the game goes on silently
            self.show(sc.message(_("Speech failed"), (event.text,), then=self.page))

    def _button(self, button: ButtonName, press: Press) -> None:
        page = self.page
        if button is ButtonName.BACK:
            if press is Press.HELD:
                if page.kind not in sc.NO_UNDO and self.table is not None:
                    self.show(self.undo(page))
            elif press is Press.SHORT:
                self.show(page.back(self))
        elif button is ButtonName.OK and press is not Press.PRESSED:
            waiting, self._ok_waits = self._ok_waits, False
            if press is Press.HELD:
                self.narration.repeat()  # "say it again"
            elif press is Press.SHORT and waiting:
                self.show(page.ok(self))
        elif button is ButtonName.OK and self.prefs.speech:
            self._ok_waits = True  # with speech on OK acts when released: a hold only repeats
        elif press is Press.PRESSED or press is Press.REPEAT:
            if button is ButtonName.UP or button is ButtonName.DOWN:
                self.show(page.step(self, -1 if button is ButtonName.UP else +1,
                                    press is Press.REPEAT))
            elif press is Press.PRESSED and button is ButtonName.OK:
                self.show(page.ok(self))
            elif press is Press.PRESSED and button is ButtonName.THROW:
                self.show(page.throw_pressed(self))

    # ------------------------------------------------------------------ showing a page

    def goto(self, page: sc.Page) -> None:
        """Show ``page`` (a :class:`~companion.app.screens.Thinking` screen: its work is
        handed to the worker). What a page returns is shown through :meth:`show`."""
        self._camera_leave(page)
        self.page = page
        if isinstance(page, sc.Thinking):
            self._think(page)
        elif isinstance(page, sc.Reviewing):
            self._review(page)
        elif isinstance(page, sc.Moves):
            self.tutor.value(self.table, self.prefs.tutor)
            self._camera_look(page)
        elif isinstance(page, sc.BoardCheck | sc.ComputerMove):
            self._camera_check(page)

    # ------------------------------------------------------------------ the worker

    def _ticket(self) -> int:
        """The number of a new request to the worker."""
        self._tickets += 1
        return self._tickets

    def _think(self, page: sc.Thinking) -> None:
        """Hand ``page``'s work to the worker; its result comes back as an event."""
        from companion.app.results import ComputerChose, ComputerThrew, HintFound

        table = self.table
        if table is None:
            self.page = sc.Menu()
            return
        page.ticket = ticket = self._ticket()
        state = table.state.copy()  # the worker's own: the loop goes on with the table
        think = self.think
        if page.job == "throw":
            spec, draw, n = state.throw_spec, self.draw, len(table.actions)
            assert spec is not None
            self.worker.submit(ticket, lambda: ComputerThrew(ticket, draw(spec, n)))
        elif page.job == "hint":
            seats, cancel = dict(table.seats), self.worker.cancel
            self.worker.submit(ticket, lambda: HintFound(ticket, sc.hint_lines(state, seats, cancel)))
        else:
            level = table.seats.get(state.current_player, "normal")
            self.worker.submit(ticket, lambda: ComputerChose(ticket, think(state, level)))

    def _review(self, page: sc.Reviewing) -> None:
        """Hand the review of the game in play to the worker (a game already reviewed,
        unchanged since, is shown at once)."""
        table = self.table
        if table is None:
            self.page = sc.Menu()
            return
        key = (str(table.journal.path), tuple(table.actions))
        if self._reviewed is not None and self._reviewed[0] == key:
            self.page = sc.ReviewPage(review=self._reviewed[1], back_to=page.back_to)
            return
        from companion.ai.review import review
        from companion.app.results import ReviewDone

        page.ticket = ticket = self._ticket()
        game, players, actions = table.game, table.state.players, tuple(table.actions)
        cancel = self.worker.cancel  # set when the service stops: a long review ends then
        self.worker.submit(ticket, lambda: ReviewDone(ticket, review(game, players, actions,
                                                                     cancel=cancel)))

    # ------------------------------------------------------------------ results

    def _work_done(self, event: WorkDone) -> None:
        """Apply the worker's result if its screen still awaits it (else it is stale:
        the position changed, a move was undone, the game ended, the screen was left)."""
        from companion.app import results as rs

        if isinstance(event, rs.BoardChecked) or self._check_awaits(event.ticket):
            assert isinstance(event, rs.BoardChecked | rs.WorkFailed)
            self._check_done(event)
            return
        if isinstance(event, rs.CameraRead | rs.CalibrationLooked) or self._camera_awaits(event.ticket):
            assert isinstance(event, rs.CameraRead | rs.CalibrationLooked | rs.WorkFailed)
            self._camera_done(event)
            return
        if isinstance(event, rs.MovesValued) or self.tutor.awaits(event.ticket):
            assert isinstance(event, rs.MovesValued | rs.WorkFailed)
            self._valued(event)
            return
        page = self.page
        if isinstance(page, sc.Reviewing) and page.ticket == event.ticket and self.table is not None:
            if isinstance(event, rs.ReviewDone):
                self._reviewed = ((str(self.table.journal.path), tuple(self.table.actions)),
                                 event.review)
                self.goto(sc.ReviewPage(review=event.review, back_to=page.back_to))
            else:
                text = event.text if isinstance(event, rs.WorkFailed) else type(event).__name__
                self.show(sc.message(_("Review failed"), (text,), then=page.back_to))
            return
        if not (isinstance(page, sc.Thinking) and page.ticket == event.ticket
                and self.table is not None):
            log.info("the worker's result %d dropped: no longer awaited", event.ticket)
            return
        if isinstance(event, rs.ComputerThrew):
            self._computer_threw(self.table, event)
        elif isinstance(event, rs.ComputerChose):
            self.goto(sc.ComputerMove(move=event.move))
            self.narration.computer_move(self.table.state, event.move)
        elif isinstance(event, rs.HintFound):
            self.show(sc.message(_("Hint"), event.lines, then=page.back_to))
        elif isinstance(event, rs.WorkFailed):
            self.show(sc.message(_("Computer failed"), (event.text,), then=sc.Pause()))
        else:  # a review's result for a thinking screen: cannot be, the tickets differ
            log.info("the worker's result %d dropped: not this screen's", event.ticket)

__all__ = ["PAUSE_ITEMS", "Controller", "Draw", "Reply", "Screen"]
