"""What every screen shares: the :class:`Screen` names, the :class:`Page` protocol of a
screen, and the :class:`Seat` a page sees of the companion.

A page never holds the controller: it is handed a :class:`Seat`, a narrow view of what
it may read (the table, the settings, the panel's size, the game's presenter, ...) and
the few things it may ask of the game (act, undo, begin, resume, end, change the
settings). A page never shows another screen by calling: its buttons (:meth:`Page.ok`,
:meth:`Page.back`, :meth:`Page.throw_pressed`, :meth:`Page.step`) return what is to be
shown next (:data:`Next`: a page, a :class:`Message` over one, :class:`Route`,
:class:`ToMenu`, :class:`ToPause`; ``None``: this page stays), and the controller shows
it, in one place. The one rule for asking: a seat call that changes the game never shows
anything itself; it returns what is to be shown because of it (:class:`Played` or the
refusal's :class:`Message` for an action, the message or the screen it leads to for the
others), and the page returns that (or, for a :class:`Played`, what follows from it).
mypy checks that pages use nothing else.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeAlias

from companion.app.settings import Prefs
from companion.devices.events import SourceName
from companion.devices.indicators import Cue
from companion.i18n import N_, _
from companion.journal.store import Loaded
from companion.ui.games import Presenter
from companion.ui.view import View

if TYPE_CHECKING:  # the game's table and the engine: imported with the first game, not at the start
    from companion.app.table import Table
    from companion.rules import Action, Move, State, Throw


class Screen(enum.Enum):
    """The screens; the value is the view's ``screen`` name (and the reference PNG's)."""

    SPLASH = "splash"
    RESUME = "resume"
    MENU = "menu"
    SETUP = "setup"
    THROW = "throw"
    MANUAL = "manual"
    MOVES = "moves"
    EVENTS = "events"
    LOST = "lost"
    OVER = "over"
    SETTINGS = "settings"
    SPEECH = "speech"
    OPTION = "option"
    BOARD = "board"
    COMPUTER = "computer"
    SEATS = "seats"
    WHO = "who"
    PAUSE = "pause"
    MESSAGE = "message"
    THINKING = "thinking"
    CONFIRM = "confirm"
    REVIEWING = "reviewing"
    REVIEW = "review"
    MISTAKES = "mistakes"
    LUCK = "luck"
    CHECKING = "checking"
    TUTOR = "tutor"
    BOARD_CHECK = "board-check"
    CALIBRATE = "calibrate"


IN_GAME = frozenset({
    Screen.THROW, Screen.MANUAL, Screen.MOVES, Screen.LOST, Screen.COMPUTER, Screen.THINKING,
})
"""Screens that follow from the position: leaving a message over one shows what the
position calls for now (:class:`Route`)."""

NO_UNDO = frozenset({
    Screen.MENU, Screen.SETUP, Screen.SPLASH, Screen.RESUME,
    Screen.REVIEWING, Screen.REVIEW, Screen.MISTAKES, Screen.LUCK, Screen.CALIBRATE,
})
"""Screens where holding BACK does not undo (no game is in play there, or the review of
a finished game is shown: BACK leaves it, a held one does not take the end back; the
camera's calibration: a BACK held a moment too long there would take a move of the
game in play back)."""

PAUSE_ITEMS = (N_("Continue"), N_("Undo last move"), N_("Settings"), N_("Game status"), N_("Board"),
               N_("End game"))
"""The pause menu's rows, in English (shown with :func:`~companion.i18n._`)."""

ERRORS = frozenset({
    N_("Not allowed"), N_("Cannot save"), N_("Cannot save games"), N_("Cannot save settings"),
    N_("Cannot start"), N_("Throw rejected"), N_("Throw source failed"), N_("Computer failed"),
    N_("Speech failed"), N_("Review failed"), N_("Tutor failed"), N_("Camera failed"),
})
"""Titles of the messages that say something was refused or failed (the error cue), in
English; a message's title is in the language in use (:func:`is_error`)."""


def is_error(title: str) -> bool:
    """Whether a message titled ``title`` (in the language in use) says something was
    refused or failed (:data:`ERRORS`)."""
    return title in ERRORS or any(_(e) == title for e in ERRORS)

Think: TypeAlias = "Callable[[State, str], Move]"
"""How the computer chooses: a move of ``state.legal_moves()`` at a level (``easy``,
``normal``, ``strong``; :mod:`companion.ai.player`)."""


@dataclass(frozen=True, slots=True)
class Played:
    """What an action made through :meth:`Seat.act` did: who made it (``by``, the
    player's name), the words of its events (``texts``), the ``cue`` sounded and
    whether something beyond the routine happened (``notable``: its events are worth a
    screen of their own)."""

    by: str
    texts: tuple[str, ...]
    cue: Cue | None
    notable: bool


@dataclass(frozen=True, slots=True)
class Route:
    """What a page returns for "show the screen the position calls for" (the menu when
    no game is in play): the position decides, through
    :func:`~companion.app.screens.turn.for_position`."""


@dataclass(frozen=True, slots=True)
class ToMenu:
    """What a page returns for "show the game menu" (a page of :mod:`.start`,
    :mod:`.play` or :mod:`.turn` cannot name :class:`~companion.app.screens.menus.Menu`:
    the menus import them)."""


@dataclass(frozen=True, slots=True)
class ToPause:
    """What a page returns for "show the pause menu", opened from ``after`` (a game's
    screen: the moves screen's highlighted move is previewed by its "Board"; from the
    game-over screen its cursor is on "Review"; ``None``: none in particular)."""

    after: Page | None = None


class Seat(Protocol):
    """What a page sees of the companion: what it may read, what it may ask for.

    Read-only (a page cannot assign them): the game in play, the settings, the panel,
    the presenter of the game, what the box offers.
    """

    @property
    def table(self) -> Table | None:
        """The game in play (``None``: none)."""

    @property
    def position(self) -> State:
        """The position of the game in play. :raises RuntimeError: none is in play."""

    @property
    def prefs(self) -> Prefs:
        """The settings in force."""

    @property
    def size(self) -> tuple[int, int]:
        """The panel's size in pixels."""

    @property
    def presenter(self) -> Presenter:
        """The game's words and pictures (:mod:`companion.ui.games`)."""

    @property
    def said(self) -> tuple[str, ...]:
        """What the last action said, shown under the next throw (routine events)."""

    @property
    def source(self) -> SourceName:
        """The throw source in use."""

    @property
    def source_trouble(self) -> Mapping[str, str]:
        """What is wrong with each throw source that reported trouble, in words."""

    @property
    def sources(self) -> Sequence[SourceName]:
        """The throw sources the settings offer."""

    @property
    def cameras(self) -> Sequence[str]:
        """The camera sources the settings offer (``camera.source`` values; ``off``
        first)."""

    @property
    def throw_button(self) -> bool:
        """Whether a THROW button is wired (else OK throws for the ``button`` source)."""

    @property
    def wired(self) -> Mapping[str, bool]:
        """Whether the ``buzzer`` and the ``led`` are wired."""

    @property
    def games(self) -> Sequence[str]:
        """The game ids of the menu."""

    @property
    def game_options(self) -> Mapping[str, Mapping[str, object]]:
        """The configured options, by game id."""

    @property
    def boards(self) -> Sequence[Path]:
        """The folders of board and deck files offered on the setup screen."""

    @property
    def hints(self) -> bool:
        """Whether the pause menu offers a hint."""

    @property
    def pending(self) -> Loaded | None:
        """The unfinished game offered for resuming (``None``: none)."""

    def clamp_scroll(self, view: View, scroll: int) -> int:
        """``scroll`` (in lines) kept between the top of ``view``'s text and its last page."""

    def roster(self) -> tuple[str, ...]:
        """The club's roster, read now: the people who may take a seat, cleaned names in
        the club's order (``()``: no club, or its file missing or damaged; a bounded
        read of a small local file, :func:`companion.journal.roster.load_roster`)."""

    # ------------------------------------------------------------------ asking
    # Each call that changes something returns what is to be shown because of it and
    # shows nothing itself (the module's rule): the page returns it.

    def act(self, action: Action) -> Played | Message:
        """Make ``action`` in the game in play (journalled): what it did, or the message
        that says why it was not made (the rules refuse it, the disk cannot take it; over
        the screen shown: leaving it shows that screen anew). The game is kept as it was."""

    def draw_throw(self) -> Throw | None:
        """A throw of the implement due, drawn by the service (``None``: none is due)."""

    def undo(self, back_to: Page) -> Message:
        """Take back the last move (and any throw after it): the message that says what
        was taken back (leaving it shows what the position calls for), or why nothing
        was (nothing to undo, the disk refused; leaving it shows ``back_to`` anew)."""

    def begin(self, game_id: str, players: int, options: Mapping[str, Any],
              seats: Mapping[int, str], *, setup: Page,
              people: Mapping[int, str] | None = None) -> Next:
        """Begin a new game (``seats``: the computer's players and levels; ``people``:
        the persons of the roster at human seats, by player index): what to show now
        (:class:`Route`), or the message that says why it cannot be made (leading back
        to ``setup``, or to the menu when the disk refuses)."""

    def resume(self, resume: bool) -> Next:
        """Resume the game offered at the start (``resume``: its board first, or what the
        position calls for), or end it (the menu); a disk that refuses: the message."""

    def end_game(self) -> Next:
        """End the game in play (recorded as abandoned unless it is over): the menu, or
        the message that says the disk refused (over the menu)."""

    def change(self, prefs: Prefs) -> Message | None:
        """Use ``prefs`` from now on and save them: ``None``, or the message that says the
        disk refused them (over the screen shown; the change holds until the companion
        stops)."""

    def calibration_step(self, page: Page) -> Next:
        """The camera's calibration of a board without markers (issue 34): ``page`` (a
        :class:`~companion.app.screens.calibrate.Calibrating` step) not
        begun (no position yet) is begun (its game's board: the game in play's when it
        is that game) and its first step said aloud: ``page``, or the message that says
        why not (no camera chosen); else the camera's look for its step is handed to the
        worker (its answer moves ``page`` on): ``None``, ``page`` stays, looking."""

    def tutor_loss(self, move: Move) -> float | None:
        """The share of the mover's chance to win (0..1) that ``move`` gives away against
        the best legal move, as the tutor sees it (:attr:`Prefs.tutor`); 0.0 when the
        tutor is off, the computer moves or there is no choice; ``None`` while the
        worker is still valuing the moves (asked for when the move list opened)."""

    def take_notice(self) -> tuple[str, tuple[str, ...]] | None:
        """The next problem to say after the splash (title, lines), taken from the
        list: the configuration's first, then each damaged journal; ``None``: none."""


@dataclass
class Page:
    """A screen: its kind, cursor (menus) and scroll (text, in lines)."""

    kind: ClassVar[Screen]
    cursor: int = field(default=0, kw_only=True)
    scroll: int = field(default=0, kw_only=True)

    def view(self, seat: Seat) -> View:
        """What the screen shows now."""
        raise NotImplementedError

    def items(self, seat: Seat) -> tuple[str, ...]:
        """The menu's rows (none: a text screen that UP/DOWN scroll)."""
        return ()

    def ok(self, seat: Seat) -> Next:
        """OK was pressed: what to show next (``None``: this page, as it is now)."""
        return None

    def back(self, seat: Seat) -> Next:
        """BACK was pressed briefly: what to show next (``None``: this page)."""
        return None

    def throw_pressed(self, seat: Seat) -> Next:
        """The THROW button was pressed (a screen that has no use for it ignores it):
        what to show next (``None``: this page)."""
        return None

    def step(self, seat: Seat, delta: int, repeat: bool) -> Next:
        """UP (``delta`` -1) or DOWN (+1); ``repeat`` when the button is held. A menu's
        cursor wraps round on a press and stops at the ends while repeating; a text
        scrolls no further than its end. What to show next (``None``: this page)."""
        items = self.items(seat)
        if items:
            n = len(items)
            target = self.cursor + delta
            self.cursor = min(max(target, 0), n - 1) if repeat else target % n
        else:
            self.scroll = seat.clamp_scroll(self.view(seat), self.scroll + delta)
        return None

    def again(self) -> Page:
        """This screen shown anew (cursor and scroll at the top), as after a message."""
        return replace(self, cursor=0, scroll=0)


Next = Page | Route | ToMenu | ToPause | None
"""What a page's button returns, for the controller to show: a page (a new one, or one
kept, such as the screen a message came over), :class:`Route`, :class:`ToMenu`,
:class:`ToPause`; ``None``: the page shown stays (its cursor or scroll may have moved)."""


@dataclass
class Message(Page):
    """A message over another screen; OK or BACK leads back to it."""

    kind = Screen.MESSAGE
    title: str = ""
    lines: tuple[str, ...] = ()
    under: Page | None = None
    """The screen the message came over (``None``: what the position calls for)."""

    def view(self, seat: Seat) -> View:
        return View("message", self.title, self.lines, scroll=self.scroll, hint=_("OK"))

    def ok(self, seat: Seat) -> Next:
        under = self.under
        if under is None or under.kind in IN_GAME:
            return Route()
        return under.again()  # the events the message came over are still unread, and so on

    back = ok


def message(title: str, lines: tuple[str, ...], *, then: Page | None) -> Message:
    """A message titled ``title``; leaving it shows ``then`` anew (``None``: what the
    position calls for). Over another message, leaving goes where that one led."""
    if isinstance(then, Message):
        then = then.under
    return Message(title=title, lines=lines, under=then)


@dataclass
class Confirm(Page):
    """A question before something that cannot be taken back (ending a game): two rows,
    the cursor on keeping (:attr:`keep_label`), so a stray or doubled OK keeps; OK on
    :attr:`end_label` does :attr:`then_end`; BACK keeps. Keeping shows :attr:`keep`
    anew (``None``: what the position calls for)."""

    kind = Screen.CONFIRM
    title: str = ""
    lines: tuple[str, ...] = ()
    keep_label: str = N_("Keep playing")
    end_label: str = N_("End game")
    """The two rows, in English (shown in the language in use)."""
    end_hint: str = N_("OK: end  BACK: keep")
    """The key line with the cursor on :attr:`end_label`, in English."""
    then_end: Callable[[Seat], Next] | None = None
    """What OK on :attr:`end_label` does, and what it shows then."""
    keep: Page | None = None

    def items(self, seat: Seat) -> tuple[str, ...]:
        return (_(self.keep_label), _(self.end_label))

    def view(self, seat: Seat) -> View:
        hint = _(self.end_hint) if self.cursor % 2 else _("OK/BACK: keep")
        return View("confirm", self.title, self.lines, items=self.items(seat),
                    cursor=self.cursor, hint=hint)

    def ok(self, seat: Seat) -> Next:
        if self.cursor % 2 and self.then_end is not None:
            return self.then_end(seat)
        return self.back(seat)

    def back(self, seat: Seat) -> Next:
        return Route() if self.keep is None else self.keep.again()


__all__ = [
    "ERRORS",
    "IN_GAME",
    "NO_UNDO",
    "PAUSE_ITEMS",
    "Confirm",
    "Message",
    "Next",
    "Page",
    "Played",
    "Route",
    "Screen",
    "Seat",
    "Think",
    "ToMenu",
    "ToPause",
    "is_error",
    "message",
]
