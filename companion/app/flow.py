"""The game flow the screens see and ask for: the companion's side of the
:class:`~companion.app.screens.Seat`.

:class:`Flow` reads the game in play for the screens (the position, the settings, the
panel, what was said) and carries out what they ask: make an action (journalled, said
aloud through :mod:`companion.app.narration`), undo, begin, resume or end a game, show a
message, change the settings, the tutor's verdict on a move. It shows pages through
:meth:`Flow.goto` and :meth:`Flow.route`, which the controller
(:class:`~companion.app.controller.Controller`) implements, with the dispatch of the
loop's events and the computer's work handed to the worker.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.app import screens as sc
from companion.app.events import ComputerThrew, Draw, MovesValued, WorkFailed
from companion.app.narration import Narration, taken_back_words
from companion.app.screens import PAUSE_ITEMS, Screen
from companion.app.settings import Prefs, SavedSettings
from companion.app.table import Table, TakenBack
from companion.app.tutoring import Tutor
from companion.devices.events import SourceName
from companion.devices.indicators import Cue
from companion.i18n import _, set_language
from companion.journal.store import Journal, JournalProblem, JournalStore, Loaded
from companion.rules import (
    PASS,
    Action,
    Game,
    Implement,
    Move,
    Phase,
    RulesError,
    State,
    Throw,
    get_game,
)
from companion.speech import Speaker
from companion.ui.events import words_for
from companion.ui.games import Presenter, presenter_for
from companion.ui.games.boards import board_or_none
from companion.ui.render import columns, scroll_limit
from companion.ui.view import View

log = logging.getLogger(__name__)


class Flow:
    """The game flow (see the module). Its attributes are set by the controller's
    constructor (:class:`~companion.app.controller.Controller`, which documents them)."""

    store: JournalStore
    draw: Draw
    sources: list[SourceName]
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

    def goto(self, page: sc.Page) -> None:
        """Show ``page`` (the controller's)."""
        raise NotImplementedError

    def route(self) -> None:
        """Show the screen the game's position calls for (the controller's)."""
        raise NotImplementedError

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
        key = self.tutor.valued(event)
        page = self.page
        if (key is not None and isinstance(page, sc.Checking) and page.move is not None
                and self.tutor.key(self.table, self.prefs.tutor) == key):
            back_to = page.back_to if page.back_to is not None else sc.Moves()
            if isinstance(event, WorkFailed):
                self.show_message(_("Tutor failed"), (event.text,), then=back_to)
            else:
                sc.play_checked(self, page.move, back_to)

    # ------------------------------------------------------------------ asked for

    def _computer_lost(self, table: Table) -> None:
        """The computer's throw is lost: passed at once, with no OK of its own. What it
        said (the throw lost and why) is shown under the next throw; a lost throw that
        did more (a notable event) gets the events screen, the one OK the players give."""
        why = self.presenter.lost_reason(table.state)
        played = self.act(PASS)
        if played is None:  # refused or not saved: said in a message (leaving it tries again)
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
            self.show_message(_("Cannot save"), (str(exc), _("The throw was not made.")), then=None)
            return
        except RulesError as exc:  # a draw the rules refuse: a bug, said, not looped on
            self.show_message(_("Computer failed"), (str(exc),), then=sc.Pause())
            return
        self.said = words_for(table.state).all(acted.events)
        self.cue = Cue.THROW
        self.narration.acted(self.presenter, before, acted.action, acted.events, table.state,
                             announced=False)
        self.route()

    def show_message(self, title: str, lines: tuple[str, ...], *, then: sc.Page | None) -> None:
        """Show a message; leaving it shows ``then`` anew (``None``: what the position
        calls for). Over another message, leaving goes where that one led."""
        if isinstance(then, sc.Message):
            then = then.under
        self.page = sc.Message(title=title, lines=lines, under=then)
        if sc.is_error(title):
            self.cue = Cue.ERROR
            self.narration.trouble(title)

    def clamp_scroll(self, view: View, scroll: int) -> int:
        """``scroll`` kept between the top of ``view``'s text and its last full page."""
        return min(max(0, scroll), scroll_limit(view, self.size))

    def play(self, table: Table, said: tuple[str, ...], first: sc.Page | None = None) -> None:
        """Put ``table``'s game in play (after any other is closed) and show ``first``
        (``None``: its position)."""
        if table is not self.table:
            self.close()
        self.table = table
        self.presenter = presenter_for(table.game.id, columns(self.size[0]))
        self.said = said
        self.narration.game(table.game.id)
        if table.state.phase is Phase.THROW:
            self.narration.turn(table.state)
        if first is None:
            self.route()
        else:
            self.goto(first)

    def menu(self) -> None:
        """Show the game menu."""
        self.goto(sc.Menu())

    def pause(self, after: sc.Page | None = None) -> None:
        """Show the pause menu, opened from ``after`` (a game's screen; from the game-over
        screen with the cursor on "Review")."""
        page = sc.Pause(after=after)
        if isinstance(after, sc.Over):
            page.cursor = len(PAUSE_ITEMS)
        self.goto(page)

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

    def act(self, action: Action) -> sc.Played | None:
        """Make ``action`` in the game in play (:meth:`Table.act`, journalled); ``None``
        when the rules refuse it or the disk cannot take it, said in a message over the
        screen shown (the game is kept as it was)."""
        assert self.table is not None
        position = self.table.state  # the table keeps a new object: this one stays as it was
        before = position.current_player
        try:
            acted = self.table.act(action)
        except RulesError as exc:
            self.show_message(_("Not allowed"), (str(exc),), then=self.page)
            return None
        except OSError as exc:
            self.show_message(_("Cannot save"), (str(exc), _("The action was not made.")),
                              then=self.page)
            return None
        after = self.table.state
        if after.phase is Phase.THROW and after.current_player != before:
            self.cue = Cue.TURN
        elif acted.implement is not None:
            self.cue = Cue.THROW
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

    def undo(self) -> None:
        """Take back the last confirmed move (and any throw after it); said in a message."""
        assert self.table is not None
        try:
            undone = self.table.undo()
        except OSError as exc:
            self.show_message(_("Cannot save"), (str(exc),), then=self.page)
            return
        if undone is None:
            self.show_message(_("Nothing to undo"), (_("No move has been made yet."),), then=self.page)
            return
        self.said = ()
        taken = undone.moves or (TakenBack(undone.by, undone.move, self.table.state),)
        lines = tuple(taken_back_words(t) for t in taken)
        self.show_message(_("Undone"), (*lines, _("Put the pieces back as they were.")), then=None)
        self.narration.taken_back(taken)

    def begin(self, game_id: str, players: int, options: Mapping[str, Any],
              seats: Mapping[int, str], *, setup: sc.Page,
              people: Mapping[int, str] | None = None) -> None:
        """Begin a new game of ``game_id``; a game that cannot be made (a data file with
        a mistake: file, line and reason) is said, and leads back to its ``setup``.
        ``people``: the persons of the club's roster at the human seats, by player index
        (:func:`companion.journal.roster.load_roster`), kept in the journal."""
        try:
            table = Table.begin(self.store, get_game(game_id, **options), players, dict(seats),
                                people=people)
        except RulesError as exc:
            self.show_message(_("Cannot start"), (str(exc),), then=setup)
            return
        except OSError as exc:
            self.show_message(_("Cannot save games"), (str(exc),), then=sc.Menu())
            return
        self.play(table, ())

    def resume(self, resume: bool) -> None:
        """Resume the game offered at the start (``resume``), or end it and go to the menu."""
        loaded, self.pending = self.pending, None
        if loaded is None:
            self.menu()
            return
        try:
            table = Table.reopen(self.store, loaded)
        except OSError as exc:
            self.show_message(_("Cannot save games"), (str(exc),), then=sc.Menu())
            return
        if not resume:
            table.end("abandoned")
            self.menu()
            return
        # the position first: the players check their board against it
        first = sc.BoardPage() if board_or_none(table.state) is not None else None
        self.play(table, (_("Game resumed."),), first=first)

    def end_game(self) -> None:
        """End the game in play (recorded as abandoned unless it is over)."""
        failed = self.table.end("abandoned") if self.table is not None else None
        self.close()
        self.menu()
        if failed is not None:
            self.show_message(_("Cannot save"), (failed, _("The game is offered again at the next start.")),
                              then=sc.Menu())

    def change(self, prefs: Prefs) -> None:
        """Use ``prefs`` from now on and save them (a disk that cannot take them is said;
        the change still holds until the companion stops). A new language is used at
        once (:func:`companion.i18n.set_language`): the next view is drawn in it."""
        if prefs.language != self.prefs.language:
            set_language(prefs.language)
        self.prefs = prefs
        if self.saved is not None:
            try:
                self.saved.save(prefs)
            except OSError as exc:
                self.show_message(_("Cannot save settings"), (str(exc),), then=self.page)

    def close(self) -> None:
        """Close the journal of the game in play (everything in it is already on disk)."""
        if self.table is not None:
            self.table.close()
            self.table = None




__all__ = ["Flow"]
