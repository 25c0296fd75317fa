"""The controller: the dispatch of events to the screen shown, fed one event at a time.

It is deterministic: the same events (and the same journal directory and throw draws)
give the same screens and the same journal. Three rooms, one each:

* the game in play is a :class:`~companion.app.table.Table` (position, actions,
  journal; begin, act, undo, end), which never chooses a screen;
* each screen is a small class in :mod:`companion.app.screens` that says what it shows
  and what OK, BACK and UP/DOWN do on it, seeing the controller only as a
  :class:`~companion.app.screens.Seat` (what it may read and ask for);
* this module routes the events to the screen shown, keeps what lasts between
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
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.app import config as cfg
from companion.app import screens as sc
from companion.app.events import (
    ButtonEvent,
    ButtonName,
    ComputerChose,
    ComputerThrew,
    Draw,
    HintFound,
    LoopEvent,
    MovesValued,
    Press,
    Quit,
    Reply,
    ReviewDone,
    Shaken,
    ShakeStarted,
    SourceFailed,
    SourceStatus,
    SpeechFailed,
    ThrowReported,
    WorkDone,
    WorkFailed,
)
from companion.app.journal import Journal, JournalProblem, JournalStore, Loaded
from companion.app.screens import PAUSE_ITEMS, Screen, Think
from companion.app.settings import Prefs, SavedSettings
from companion.app.table import Table, TakenBack
from companion.app.worker import Worker
from companion.devices.events import SourceName
from companion.devices.indicators import Cue
from companion.i18n import _, language, set_language
from companion.rules import (
    PASS,
    Action,
    Event,
    Game,
    Implement,
    Move,
    Phase,
    PieceZone,
    RulesError,
    State,
    Throw,
    game_ids,
    get_game,
)
from companion.speech import Cue as Spoken
from companion.speech import CueKind, Silent, Speaker
from companion.speech.cues import Voice, cues_for, voice_for
from companion.ui.events import words_for
from companion.ui.games import Presenter, presenter_for
from companion.ui.games.boards import board_model
from companion.ui.render import columns, scroll_limit
from companion.ui.rules_words import say
from companion.ui.view import View

if TYPE_CHECKING:  # the search is imported when a review is asked for, not at start
    from companion.ai.review import Review

log = logging.getLogger(__name__)


class Controller:
    """The companion's screens and game flow.

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
    service replaces it when the speech settings change).
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
    ) -> None:
        self.store = store
        self.draw = draw
        self.sources = [SourceName(s) for s in sources]
        base = prefs or Prefs.from_config({**cfg.defaults(), "throw.source": source})
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
        # a ``think`` given by a caller runs to its end.
        self.think: Think = think or partial(sc.computer_move, cancel=self.worker.cancel)
        self.speaker: Speaker = speaker if speaker is not None else Silent()
        self.voice: Voice = Voice()
        self._ok_waits = False
        self._unsaid: list[Spoken] = []
        """What the event being handled has said so far (see :meth:`speak`)."""
        """OK went down with speech on: it acts when released (not when held)."""
        """The game's sentences for the ear (:func:`~companion.speech.cues.voice_for`)."""
        self._tickets = 0
        """The number of the last request handed to the worker."""
        self._valuing: tuple[Hashable, int] | None = None
        """The tutor's request under way: the position it values and its ticket."""
        self._losses: tuple[Hashable, dict[str, float] | None] | None = None
        """The tutor's values of the last position valued: each move's loss by its
        notation (``None``: the valuation failed, the tutor does not ask there)."""
        self._reviewed: tuple[Hashable, Review] | None = None
        """The last review shown and the game it is of (its journal and actions: a
        winning move undone and another played is reviewed anew)."""
        self.quit = False

    # ------------------------------------------------------------------ reading

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
        shown = self._choice_shown()
        self._apply(event)
        for _n in range(10_000):  # a computer playing itself ends; the bound is a guard
            done = self.worker.collect()
            if not done:
                break
            for result in done:
                self._apply(result)
        if self._choice_shown() not in (shown, None):
            self._say_choice(arrived=shown is None or shown[0] != id(self.page))
        self._flush_speech()
        return self.reply()

    def _choice_shown(self) -> tuple[int, int, int] | None:
        """Which row of which moves screen is highlighted (``None``: no moves screen)."""
        page = self.page
        if not isinstance(page, sc.Moves):
            return None
        return id(page), page.cursor, len(page.path)

    def _say_choice(self, *, arrived: bool) -> None:
        """Say the highlighted choice of the moves screen: a move as an instruction
        ("move the piece on 4 to 10"), a step by its row; on arriving, as a question."""
        page, table = self.page, self.table
        if not isinstance(page, sc.Moves) or table is None:
            return
        rows = page.choices(self)
        if not rows:
            return
        row = page.cursor % len(rows)
        move = rows[row][1]
        choice = (self.voice.move_words(table.state, move) if move is not None
                  else page.spoken(self, row))
        said = self.voice.choice(choice, asked=arrived, number=row + 1, count=len(rows))
        self.speak([Spoken(said, CueKind.MESSAGE)])

    def _apply(self, event: LoopEvent) -> None:
        page = self.page
        if isinstance(event, ComputerThrew | ComputerChose | HintFound | ReviewDone | MovesValued
                      | WorkFailed):
            self._work_done(event)
        elif isinstance(event, Quit):
            self.quit = True
        elif isinstance(event, ButtonEvent):
            self._button(event.button, event.press)
        elif isinstance(event, ShakeStarted) and isinstance(page, sc.Throwing):
            page.shaking = page.shaking or event.source == self.source
        elif isinstance(event, Shaken) and isinstance(page, sc.Throwing):
            page.thrown(self, event.source, button=False)
        elif isinstance(event, ThrowReported):
            if isinstance(page, sc.Throwing) and event.source == self.source:
                page.reported(self, event)
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
                self.show_message(_("Throw source failed"),
                                  (event.text, _("Using {source} instead.").format(source=fallback)),
                                  then=self.page)
                self.change(replace(self.prefs, source=fallback))
        elif isinstance(event, SpeechFailed):  # the game goes on silently
            self.show_message(_("Speech failed"), (event.text,), then=self.page)

    def _button(self, button: ButtonName, press: Press) -> None:
        page = self.page
        if button is ButtonName.BACK:
            if press is Press.HELD:
                if page.kind not in sc.NO_UNDO and self.table is not None:
                    self.undo()
            elif press is Press.SHORT:
                page.back(self)
        elif button is ButtonName.OK and press is not Press.PRESSED:
            waiting, self._ok_waits = self._ok_waits, False
            if press is Press.HELD:
                self.speaker.repeat()  # "say it again"
            elif press is Press.SHORT and waiting:
                page.ok(self)
        elif button is ButtonName.OK and self.prefs.speech:
            self._ok_waits = True  # with speech on OK acts when released: a hold only repeats
        elif press is Press.PRESSED or press is Press.REPEAT:
            if button is ButtonName.UP or button is ButtonName.DOWN:
                page.step(self, -1 if button is ButtonName.UP else +1, press is Press.REPEAT)
            elif press is Press.PRESSED and button is ButtonName.OK:
                page.ok(self)
            elif press is Press.PRESSED and button is ButtonName.THROW:
                page.throw_pressed(self)

    # ------------------------------------------------------------------ for the screens

    def goto(self, page: sc.Page) -> None:
        """Show ``page`` (a :class:`~companion.app.screens.Thinking` screen: its work is
        handed to the worker)."""
        self.page = page
        if isinstance(page, sc.Thinking):
            self._think(page)
        elif isinstance(page, sc.Reviewing):
            self._review(page)
        elif isinstance(page, sc.Moves):
            self._value_moves()

    def route(self) -> None:
        """Show the screen the game's position calls for (the menu when none is in play)."""
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

    # ------------------------------------------------------------------ the worker

    def _think(self, page: sc.Thinking) -> None:
        """Hand ``page``'s work to the worker; its result comes back as an event."""
        table = self.table
        if table is None:
            self.page = sc.Menu()
            return
        self._tickets += 1
        page.ticket = ticket = self._tickets
        state = table.state.copy()  # the worker's own: the loop goes on with the table
        think = self.think
        if page.job == "throw":
            spec, draw, n = state.throw_spec, self.draw, len(table.actions)
            assert spec is not None
            self.worker.submit(ticket, lambda: ComputerThrew(ticket, draw(spec, n)))
        elif page.job == "hint":
            self.worker.submit(ticket, lambda: HintFound(ticket, sc.hint_lines(state, think)))
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

        self._tickets += 1
        page.ticket = ticket = self._tickets
        game, players, actions = table.game, table.state.players, tuple(table.actions)
        cancel = self.worker.cancel  # set when the service stops: a long review ends then
        self.worker.submit(ticket, lambda: ReviewDone(ticket, review(game, players, actions,
                                                                     cancel=cancel)))

    # ------------------------------------------------------------------ the tutor

    def _tutor_key(self) -> Hashable | None:
        """The position the tutor values: the game, its length and its position
        (``None``: the tutor has nothing to value: off, no game, the computer to move,
        no choice)."""
        table = self.table
        if table is None or not self.prefs.tutor:
            return None
        state = table.state
        if (state.phase not in (Phase.MOVE, Phase.DECIDE) or state.current_player in table.seats
                or len(state.legal_moves()) < 2):
            return None
        return (str(table.journal.path), len(table.actions), state.position_key())

    def _value_moves(self) -> None:
        """The move list opened: have the worker value its moves for the tutor (once a
        position), so that OK finds the values ready."""
        key = self._tutor_key()
        if key is None or (self._losses is not None and self._losses[0] == key) or (
                self._valuing is not None and self._valuing[0] == key):
            return
        assert self.table is not None
        self._tickets += 1
        ticket = self._tickets
        self._valuing = (key, ticket)
        state = self.table.state.copy()
        cancel = self.worker.cancel
        self.worker.submit(ticket, lambda: MovesValued(ticket, sc.tutor_losses(state, cancel)))

    def tutor_loss(self, move: Move) -> float | None:
        """The share of the mover's chance to win ``move`` gives away against the best
        move, 0..1 (0.0: the tutor is off, or has nothing to say); ``None`` while the
        worker values the moves."""
        key = self._tutor_key()
        if key is None:
            return 0.0
        if self._losses is not None and self._losses[0] == key:
            losses = self._losses[1]
            return 0.0 if losses is None else losses.get(move.notation, 0.0)
        self._value_moves()  # switched on while the moves were shown: asked for now
        return None

    def _valued(self, event: MovesValued | WorkFailed) -> None:
        """The tutor's values came: kept for the position; a person waiting on the
        Checking screen for them is answered (the move played, or the question)."""
        valuing = self._valuing
        if valuing is None or valuing[1] != event.ticket:
            log.info("the tutor's values %d dropped: no longer awaited", event.ticket)
            return
        self._valuing = None
        key = valuing[0]
        if isinstance(event, WorkFailed):
            log.warning("the tutor could not value the moves: %s", event.text)
            self._losses = (key, None)
        else:
            self._losses = (key, dict(event.losses))
        page = self.page
        if isinstance(page, sc.Checking) and page.move is not None and self._tutor_key() == key:
            back_to = page.back_to if page.back_to is not None else sc.Moves()
            if isinstance(event, WorkFailed):
                self.show_message(_("Tutor failed"), (event.text,), then=back_to)
            else:
                sc.play_checked(self, page.move, back_to)

    # ------------------------------------------------------------------ results

    def _work_done(self, event: WorkDone) -> None:
        """Apply the worker's result if its screen still awaits it (else it is stale:
        the position changed, a move was undone, the game ended, the screen was left)."""
        if isinstance(event, MovesValued) or (
                self._valuing is not None and event.ticket == self._valuing[1]):
            assert isinstance(event, MovesValued | WorkFailed)
            self._valued(event)
            return
        page = self.page
        if isinstance(page, sc.Reviewing) and page.ticket == event.ticket and self.table is not None:
            if isinstance(event, ReviewDone):
                self._reviewed = ((str(self.table.journal.path), tuple(self.table.actions)),
                                 event.review)
                self.goto(sc.ReviewPage(review=event.review, back_to=page.back_to))
            else:
                text = event.text if isinstance(event, WorkFailed) else type(event).__name__
                self.show_message(_("Review failed"), (text,), then=page.back_to)
            return
        if not (isinstance(page, sc.Thinking) and page.ticket == event.ticket
                and self.table is not None):
            log.info("the worker's result %d dropped: no longer awaited", event.ticket)
            return
        if isinstance(event, ComputerThrew):
            self._computer_threw(self.table, event)
        elif isinstance(event, ComputerChose):
            self.goto(sc.ComputerMove(move=event.move))
            self.speak([Spoken(self.voice.computer_move(self.table.state, event.move), CueKind.MOVE)])
        elif isinstance(event, HintFound):
            self.show_message(_("Hint"), event.lines, then=page.back_to)
        elif isinstance(event, WorkFailed):
            self.show_message(_("Computer failed"), (event.text,), then=sc.Pause())
        else:  # a review's result for a thinking screen: cannot be, the tickets differ
            log.info("the worker's result %d dropped: not this screen's", event.ticket)

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
        self._say_acted(before, acted.action, acted.events, announced=False)
        self.route()

    def show_message(self, title: str, lines: tuple[str, ...], *, then: sc.Page | None) -> None:
        """Show a message; leaving it shows ``then`` anew (``None``: what the position
        calls for). Over another message, leaving goes where that one led."""
        if isinstance(then, sc.Message):
            then = then.under
        self.page = sc.Message(title=title, lines=lines, under=then)
        if sc.is_error(title):
            self.cue = Cue.ERROR
            self.speak([Spoken(self.voice.trouble(title), CueKind.MESSAGE)])

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
        self.voice = voice_for(table.game.id)
        if table.state.phase is Phase.THROW:
            self.speak([Spoken(self.voice.turn(table.state), CueKind.TURN)])
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
        self._say_acted(position, action, acted.events, announced=before in self.table.seats)
        return sc.Played(acted.by, texts, self.cue, notable)

    def _say_acted(self, before: State, action: Action, events: Sequence[Event], *,
                   announced: bool) -> None:
        """Say what ``action``, made in ``before``, did (``announced``: the move was said
        when it was shown, the computer's)."""
        table = self.table
        assert table is not None
        after = table.state
        why = ""
        if after.phase is Phase.MOVE and tuple(after.legal_moves()) == (PASS,):
            why = self.presenter.lost_reason(after)
        self.speak(cues_for(self.voice, before, action, events, after, why=why, announced=announced))

    def speak(self, cues: list[Spoken]) -> None:
        """Say ``cues`` after what the event being handled has said so far: the cues of
        one event go to the speaker together when it is handled (one ``say``, so that
        "say it again" repeats all of them)."""
        self._unsaid += cues

    def _flush_speech(self) -> None:
        """Hand what the event said to the speaker (it returns at once; a speaker that
        fails is logged and the game goes on)."""
        cues, self._unsaid = self._unsaid, []
        if not cues:
            return
        try:
            self.speaker.say(cues)
        except Exception:  # the speaker's own trouble never stops the game
            log.exception("the speaker failed; the game goes on")

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
        self.speak([Spoken(self.voice.taken_back(t.before, t.move), CueKind.MESSAGE) for t in taken])

    def begin(self, game_id: str, players: int, options: Mapping[str, Any],
              seats: Mapping[int, str], *, setup: sc.Page) -> None:
        """Begin a new game of ``game_id``; a game that cannot be made (a data file with
        a mistake: file, line and reason) is said, and leads back to its ``setup``."""
        try:
            table = Table.begin(self.store, get_game(game_id, **options), players, dict(seats))
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
        try:  # the position first: the players check their board against it
            board_model(table.state)
        except ValueError:  # a game without a board picture (none of the four)
            self.play(table, (_("Game resumed."),))
        else:
            self.play(table, (_("Game resumed."),), first=sc.BoardPage())

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


def taken_back_words(taken: TakenBack) -> str:
    """One move taken back, in words, with where its piece goes back to: ``Black's move
    11-13 is taken back: back to 11.``, ``White's move enter 6 is taken back: back on
    the plinth.``; a move that moved no piece (a pass, an answer) only by its name."""
    by = say(taken.by)
    if taken.move == PASS:
        return _("{player}'s lost throw is taken back.").format(player=by)
    notation = say(taken.move.notation)
    try:
        highlight = board_model(taken.before, highlight=taken.move).highlight
    except ValueError:  # a game without a board picture (none of the four)
        highlight = None
    if highlight is None:
        src = taken.move.src
        if src is None:
            return _("{player}'s move {move} is taken back.").format(player=by, move=notation)
        return _("{player}'s move {move} is taken back: back to {square}.").format(
            player=by, move=notation, square=src)
    if highlight.src is not None:
        return _("{player}'s move {move} is taken back: back to {square}.").format(
            player=by, move=notation, square=highlight.src)
    if highlight.src_zone is PieceZone.BOARD:  # no piece moved
        return _("{player}'s move {move} is taken back.").format(player=by, move=notation)
    board = board_model(taken.before)
    where = board.zone_word(highlight.src_zone) or highlight.src_zone.value
    return _("{player}'s move {move} is taken back: back {where}.").format(
        player=by, move=notation, where=where)


__all__ = ["PAUSE_ITEMS", "Controller", "Draw", "Reply", "Screen", "taken_back_words"]
