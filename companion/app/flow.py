"""The game flow the screens see and ask for: the companion's side of the
:class:`~companion.app.screens.Seat`.

:class:`Flow` reads the game in play for the screens (the position, the settings, the
panel, what was said) and carries out what they ask: make an action (journalled, said
aloud through :mod:`companion.app.narration`), undo, begin, resume or end a game, change
the settings, the tutor's verdict on a move. Each of these returns what is to be shown
because of it and shows nothing itself; the page returns that, and :meth:`Flow.show`
shows what a page returned (the one place: a page never calls it). Showing a page is
:meth:`Flow.goto`, which the controller (:class:`~companion.app.controller.Controller`)
implements, with the dispatch of the loop's events and the computer's work handed to
the worker.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.app import screens as sc
from companion.app.events import Draw
from companion.app.narration import Narration, taken_back_words
from companion.app.screens import Screen
from companion.app.settings import Prefs, SavedSettings
from companion.app.tutoring import Tutor
from companion.devices.events import SourceName
from companion.devices.indicators import Cue
from companion.i18n import _, set_language
from companion.journal.store import Journal, JournalProblem, JournalStore, Loaded
from companion.rules.errors import RulesError
from companion.rules.registry import get_game
from companion.speech import Speaker
from companion.ui.games import Presenter, presenter_for
from companion.ui.games.boards import board_or_none
from companion.ui.render import columns, scroll_limit
from companion.ui.view import View

if TYPE_CHECKING:  # the game's table and the engine: imported with the first game, not at the start
    from companion.app.results import ComputerThrew, MovesValued, WorkFailed
    from companion.app.table import Table
    from companion.rules import Action, Game, Implement, Move, State, Throw

log = logging.getLogger(__name__)


class Flow:
    """The game flow (see the module). Its attributes are set by the controller's
    constructor (:class:`~companion.app.controller.Controller`, which documents them)."""

    store: JournalStore
    draw: Draw
    sources: list[SourceName]
    cameras: list[str]
    prefs: Prefs
    saved: SavedSettings | None
    wired: dict[str, bool]
    cue: Cue | None
    throw_button: bool
    games: list[str]
    size: tuple[int, int]
    page: sc.Page
    table: Table | None
    presenter: Presenter
    said: tuple[str, ...]
    """What the last action said, shown under the next throw (routine events)."""
    source_trouble: dict[str, str]
    """What is wrong with each throw source that reported trouble, in words."""
    pending: Loaded | None
    """The unfinished game offered for resuming (``None``: none)."""
    problems: list[JournalProblem]
    """Journals found damaged or unusable at the start, each said after the splash."""
    notices: list[str]
    boards: list[Path]
    game_options: dict[str, dict[str, object]]
    hints: bool
    computer_draws: bool
    narration: Narration
    """What is said aloud (:mod:`companion.app.narration`)."""
    tutor: Tutor
    """The tutor's values (:mod:`companion.app.tutoring`)."""
    roster_path: Path | None
    """The club's roster file (``roster.json``, written by the publisher); ``None``: no
    club."""

    def goto(self, page: sc.Page) -> None:
        """Show ``page`` (the controller's: it starts the work a page awaits)."""
        raise NotImplementedError

    def calibration_step(self, page: sc.Page) -> sc.Next:
        """See :meth:`~companion.app.screens.base.Seat.calibration_step` (the camera's:
        :class:`~companion.app.looking.Looking`)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ showing

    def show(self, shown: sc.Next) -> None:
        """Show what a page's button returned (:data:`~companion.app.screens.Next`), or
        what the flow itself has to show: a page; a :class:`~companion.app.screens.Message`
        (one that says something was refused or failed sounds the error cue and is said);
        :class:`~companion.app.screens.Route`, :class:`~companion.app.screens.ToMenu`,
        :class:`~companion.app.screens.ToPause`. ``None``: the page shown stays."""
        if shown is None:
            return
        if isinstance(shown, sc.Route):
            self.route()
        elif isinstance(shown, sc.ToMenu):
            self.goto(sc.Menu())
        elif isinstance(shown, sc.ToPause):
            self.goto(sc.Pause.opened(shown.after))
        else:
            if isinstance(shown, sc.Message) and sc.is_error(shown.title):
                self.cue = Cue.ERROR
                self.narration.trouble(shown.title)
            self.goto(shown)

    def route(self) -> None:
        """Show the screen the game's position calls for (the menu when none is in play);
        the computer's lost throw is passed at once (:meth:`_computer_lost`)."""
        table = self.table
        if table is None:
            self.goto(sc.Menu())
            return
        page = sc.for_position(table.state, table.seats, source=self.source,
                               computer_draws=self.computer_draws)
        if isinstance(page, sc.Lost) and table.state.current_player in table.seats:
            self._computer_lost(table)
            return
        self.goto(page)

    # ------------------------------------------------------------------ reading

    @property
    def speaker(self) -> Speaker:
        """What says the cues (the service replaces it when the speech settings change)."""
        return self.narration.speaker

    @speaker.setter
    def speaker(self, speaker: Speaker) -> None:
        self.narration.speaker = speaker

    @property
    def screen(self) -> Screen:
        """The screen shown."""
        return self.page.kind

    @property
    def source(self) -> SourceName:
        """The throw source in use."""
        return SourceName(self.prefs.source)

    @property
    def state(self) -> State | None:
        """The position of the game in play (``None``: no game is)."""
        return self.table.state if self.table is not None else None

    @property
    def position(self) -> State:
        """The game's position, for its screens. :raises RuntimeError: none in play."""
        if self.table is None:
            raise RuntimeError("no game is in play")
        return self.table.state

    @property
    def game(self) -> Game | None:
        return self.table.game if self.table is not None else None

    @property
    def journal(self) -> Journal | None:
        return self.table.journal if self.table is not None else None

    @property
    def actions(self) -> list[Action]:
        return list(self.table.actions) if self.table is not None else []

    @property
    def cursor(self) -> int:
        return self.page.cursor

    @property
    def scroll(self) -> int:
        return self.page.scroll

    @property
    def path(self) -> list[str]:
        """The steps chosen so far on the moves screen."""
        return list(self.page.path) if isinstance(self.page, sc.Moves) else []

    @property
    def message(self) -> sc.Message | None:
        return self.page if isinstance(self.page, sc.Message) else None

    @property
    def return_to(self) -> Screen | None:
        """Where leaving the message shown goes (``None``: the position decides)."""
        return self.message.under.kind if self.message and self.message.under else None

    @property
    def setup_options(self) -> dict[str, object]:
        """The options chosen so far on the setup screen (or an option's page)."""
        page = self.page.setup if isinstance(self.page, sc.OptionPage) else self.page
        return dict(page.options) if isinstance(page, sc.Setup) else {}

    def choices(self) -> list[tuple[str, Move | None]]:
        """The moves screen's items (see :meth:`companion.app.screens.Moves.choices`)."""
        return self.page.choices(self) if isinstance(self.page, sc.Moves) else []

    @property
    def due(self) -> Implement | None:
        """The implement a throw source should throw now, or ``None``."""
        if self.page.kind is Screen.THROW and self.table is not None:
            return self.table.state.throw_spec
        return None

    def view(self) -> View:
        """What the screen shows now."""
        return self.page.view(self)

    # ------------------------------------------------------------------ the tutor

    def tutor_loss(self, move: Move) -> float | None:
        """See :meth:`companion.app.tutoring.Tutor.loss`."""
        return self.tutor.loss(self.table, self.prefs.tutor, move)

    def _valued(self, event: MovesValued | WorkFailed) -> None:
        """The tutor's values came; a person waiting on the Checking screen for them is
        answered (the move played, or the question)."""
        from companion.app.results import WorkFailed

        key = self.tutor.valued(event)
        page = self.page
        if (key is not None and isinstance(page, sc.Checking) and page.move is not None
                and self.tutor.key(self.table, self.prefs.tutor) == key):
            back_to = page.back_to if page.back_to is not None else sc.Moves()
            if isinstance(event, WorkFailed):
                self.show(sc.message(_("Tutor failed"), (event.text,), then=back_to))
            else:
                self.show(sc.play_checked(self, page.move, back_to))

    # ------------------------------------------------------------------ asked for

    def _computer_lost(self, table: Table) -> None:
        """The computer's throw is lost: passed at once, with no OK of its own. What it
        said (the throw lost and why) is shown under the next throw; a lost throw that
        did more (a notable event) gets the events screen, the one OK the players give."""
        from companion.rules import PASS, Phase

        why = self.presenter.lost_reason(table.state)
        played = self.act(PASS)
        if isinstance(played, sc.Message):  # refused or not saved (leaving it tries again)
            self.show(played)
            return
        if played.notable and table.state.phase is not Phase.OVER:  # worth a screen
            self.goto(sc.Events(by=played.by, texts=(*played.texts, *([why] if why else []))))
            return
        if why:
            self.said = (*self.said, why)
        self.route()

    def _computer_threw(self, table: Table, event: ComputerThrew) -> None:
        """Make the computer's throw; a disk that cannot take it is said (the game is
        kept in memory as it was; leaving the message draws the throw anew)."""
        before = table.state
        try:
            acted = table.act(event.throw)
        except OSError as exc:
            self.show(sc.message(_("Cannot save"), (str(exc), _("The throw was not made.")),
                                 then=None))
            return
        except RulesError as exc:  # a draw the rules refuse: a bug, said, not looped on
            self.show(sc.message(_("Computer failed"), (str(exc),), then=sc.Pause()))
            return
        from companion.ui.events import words_for  # a game's words: imported with its first action

        self.said = words_for(table.state).all(acted.events)
        self.cue = Cue.THROW
        self.narration.acted(self.presenter, before, acted.action, acted.events, table.state,
                             announced=False)
        self.route()

    def roster(self) -> tuple[str, ...]:
        """The club's roster, read now from :attr:`roster_path` (``()``: none). A bounded
        read of a small local file (at most
        :data:`~companion.journal.roster.MAX_BYTES`, :data:`~companion.journal.roster.MAX_PEOPLE`
        names), done when the seats screen opens; missing or damaged: ``()``, logged."""
        from companion.journal.roster import load_roster  # the seats screen's, not the start's

        return load_roster(self.roster_path) if self.roster_path is not None else ()

    def clamp_scroll(self, view: View, scroll: int) -> int:
        """``scroll`` kept between the top of ``view``'s text and its last full page."""
        return min(max(0, scroll), scroll_limit(view, self.size))

    def play(self, table: Table, said: tuple[str, ...]) -> None:
        """Put ``table``'s game in play (after any other is closed); the caller says
        what to show first."""
        from companion.rules import Phase  # the engine: imported with the table

        if table is not self.table:
            self.close()
        self.table = table
        self.presenter = presenter_for(table.game.id, columns(self.size[0]))
        self.said = said
        self.narration.game(table.game.id)
        if table.state.phase is Phase.THROW:
            self.narration.turn(table.state)

    def take_notice(self) -> tuple[str, tuple[str, ...]] | None:
        """The next problem to say after the splash (title, lines), taken off its list:
        the configuration's problems together first, then each damaged journal."""
        if self.notices:
            notices, self.notices = self.notices, []
            return _("Settings set aside"), tuple(notices)
        if self.problems:  # one journal at a time, in its own words
            problem = self.problems.pop(0)
            return problem.said()
        return None

    def act(self, action: Action) -> sc.Played | sc.Message:
        """Make ``action`` in the game in play (:meth:`Table.act`, journalled): what it
        did, or, when the rules refuse it or the disk cannot take it, the message that
        says so, over the screen shown (the game is kept as it was; shown by the caller)."""
        from companion.rules import Phase

        assert self.table is not None
        position = self.table.state  # the table keeps a new object: this one stays as it was
        before = position.current_player
        try:
            acted = self.table.act(action)
        except RulesError as exc:
            return sc.message(_("Not allowed"), (str(exc),), then=self.page)
        except OSError as exc:
            return sc.message(_("Cannot save"), (str(exc), _("The action was not made.")),
                              then=self.page)
        after = self.table.state
        if after.phase is Phase.THROW and after.current_player != before:
            self.cue = Cue.TURN
        elif acted.implement is not None:
            self.cue = Cue.THROW
        from companion.ui.events import words_for  # a game's words: imported with its first action

        texts = words_for(after).all(acted.events)
        notable = any(not self.presenter.routine(e) for e in acted.events)
        self.said = () if notable and after.phase is not Phase.OVER else texts
        self.narration.acted(self.presenter, position, action, acted.events, after,
                             announced=before in self.table.seats)
        return sc.Played(acted.by, texts, self.cue, notable)

    def draw_throw(self) -> Throw | None:
        """A throw of the implement due, drawn with :attr:`draw` (``None``: none is due)."""
        table = self.table
        if table is None or table.state.throw_spec is None:
            return None
        return self.draw(table.state.throw_spec, len(table.actions))

    def undo(self, back_to: sc.Page) -> sc.Message:
        """Take back the last confirmed move (and any throw after it): the message that
        says what was taken back (leaving it: what the position calls for), or why
        nothing was (leaving it: ``back_to`` anew). Shown by the caller."""
        assert self.table is not None
        try:
            undone = self.table.undo()
        except OSError as exc:
            return sc.message(_("Cannot save"), (str(exc),), then=back_to)
        if undone is None:
            return sc.message(_("Nothing to undo"), (_("No move has been made yet."),), then=back_to)
        self.said = ()
        from companion.app.table import TakenBack  # with the first game, not at the start

        taken = undone.moves or (TakenBack(undone.by, undone.move, self.table.state),)
        lines = tuple(taken_back_words(t) for t in taken)
        self.narration.taken_back(taken)
        return sc.message(_("Undone"), (*lines, _("Put the pieces back as they were.")), then=None)

    def begin(self, game_id: str, players: int, options: Mapping[str, Any],
              seats: Mapping[int, str], *, setup: sc.Page,
              people: Mapping[int, str] | None = None) -> sc.Next:
        """Begin a new game of ``game_id`` (``people``: the roster's persons at human
        seats, kept in the journal and said aloud: "Anna plays Black."): what the
        position calls for; a game that cannot be made (a data file with a mistake: file,
        line and reason): the message that says so, leading back to its ``setup`` (a
        disk that refuses: to the menu)."""
        from companion.app.table import Table  # with the first game, not at the start

        try:
            table = Table.begin(self.store, get_game(game_id, **options), players, dict(seats),
                                people=people)
        except RulesError as exc:
            return sc.message(_("Cannot start"), (str(exc),), then=setup)
        except OSError as exc:
            return sc.message(_("Cannot save games"), (str(exc),), then=sc.Menu())
        self.narration.people(table.state, table.people)
        self.play(table, ())
        return sc.Route()

    def resume(self, resume: bool) -> sc.Next:
        """Resume the game offered at the start (``resume``: its board first where it has
        one, else what the position calls for), or end it (the menu); a disk that
        refuses: the message that says so, over the menu."""
        loaded, self.pending = self.pending, None
        if loaded is None:
            return sc.ToMenu()
        from companion.app.table import Table  # with the first game, not at the start

        try:
            table = Table.reopen(self.store, loaded)
        except OSError as exc:
            return sc.message(_("Cannot save games"), (str(exc),), then=sc.Menu())
        if not resume:
            table.end("abandoned")
            return sc.ToMenu()
        self.play(table, (_("Game resumed."),))
        # the position first: the players check their board against it
        return sc.BoardPage() if board_or_none(table.state) is not None else sc.Route()

    def end_game(self) -> sc.Next:
        """End the game in play (recorded as abandoned unless it is over): the menu, or
        the message that says the disk refused (over the menu)."""
        failed = self.table.end("abandoned") if self.table is not None else None
        self.close()
        if failed is not None:
            return sc.message(_("Cannot save"), (failed, _("The game is offered again at the next start.")),
                              then=sc.Menu())
        return sc.ToMenu()

    def change(self, prefs: Prefs) -> sc.Message | None:
        """Use ``prefs`` from now on and save them: ``None``, or the message that says
        the disk cannot take them, over the screen shown (the change still holds until
        the companion stops). A new language is used at once
        (:func:`companion.i18n.set_language`): the next view is drawn in it."""
        if prefs.language != self.prefs.language:
            set_language(prefs.language)
        self.prefs = prefs
        if self.saved is not None:
            try:
                self.saved.save(prefs)
            except OSError as exc:
                return sc.message(_("Cannot save settings"), (str(exc),), then=self.page)
        return None

    def close(self) -> None:
        """Close the journal of the game in play (everything in it is already on disk)."""
        if self.table is not None:
            self.table.close()
            self.table = None




__all__ = ["Flow"]
