"""The companion's screens: one small class each, behind one protocol.

A screen keeps its own cursor and scroll and knows what it shows (:meth:`Page.view`)
and what OK, a short BACK and UP/DOWN do on it (:meth:`Page.ok`, :meth:`Page.back`,
:meth:`Page.step`). It acts through the :class:`~companion.app.controller.Controller`
it is given (``nav``): going to another screen, showing a message, applying an action
to the :class:`~companion.app.table.Table`. A new screen is one class here and the
places that lead to it; the dispatch in the controller does not change.

Game-specific words (status lines, prompts, the steps of a choice, which events are
routine) come from the game's presenter (:mod:`companion.ui.games`).
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from companion import __version__
from companion.app.events import ThrowReported
from companion.app.settings import Prefs
from companion.app.table import Table
from companion.devices.events import SourceName
from companion.devices.indicators import Cue
from companion.devices.sources import DRAWN_BY_SERVICE
from companion.rules import (
    PASS,
    Action,
    Game,
    Move,
    Option,
    Phase,
    RulesError,
    State,
    game_class,
    game_title,
    get_game,
)
from companion.ui.games import presenter_for
from companion.ui.games.boards import board_model, inventory_pages, pieces_in_words
from companion.ui.render import columns
from companion.ui.view import ThrowPicture, View, picture_of

if TYPE_CHECKING:
    from companion.app.controller import Controller


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
    OPTION = "option"
    BOARD = "board"
    COMPUTER = "computer"
    SEATS = "seats"
    PAUSE = "pause"
    MESSAGE = "message"


IN_GAME = frozenset({Screen.THROW, Screen.MANUAL, Screen.MOVES, Screen.LOST, Screen.COMPUTER})
"""Screens that follow from the position: leaving a message over one shows what the
position calls for now (:meth:`Controller.route`)."""

NO_UNDO = frozenset({Screen.MENU, Screen.SETUP, Screen.SPLASH, Screen.RESUME})
"""Screens where holding BACK does not undo (no game is in play there)."""

SOURCE_PROMPTS = {
    SourceName.GPIO_SHAKER: "shake!",
    SourceName.SERIAL_SHAKER: "shake!",
    SourceName.BUTTON: "press THROW",
}

PAUSE_ITEMS = ("Continue", "Undo last move", "Settings", "Game status", "Board", "End game")

Think = Callable[[State, str], Move]
"""How the computer chooses: a move of ``state.legal_moves()`` at a level (``easy``,
``normal``, ``strong``; :mod:`companion.ai.player`)."""

SEAT_CHOICES = ("person", "easy", "normal", "strong")
"""Who plays a seat: a person, or the computer at a level."""


@functools.lru_cache(maxsize=16)
def _default_game(game_id: str) -> Game:
    """The game with its default options (for its players' names on the setup screen)."""
    return get_game(game_id)


def computer_move(state: State, level: str) -> Move:
    """The computer's move (:func:`companion.ai.player.choose` at ``level``, within the
    level's time and node budget)."""
    from companion.ai.player import choose

    return choose(state, level).move


ERRORS = frozenset({
    "Not allowed", "Cannot save", "Cannot save games", "Cannot save settings", "Cannot start",
    "Throw rejected", "Throw source failed",
})
"""Titles of the messages that say something was refused or failed (the error cue)."""


@dataclass
class Page:
    """A screen: its kind, cursor (menus) and scroll (text, in lines)."""

    kind: ClassVar[Screen]
    cursor: int = field(default=0, kw_only=True)
    scroll: int = field(default=0, kw_only=True)

    def view(self, nav: Controller) -> View:
        """What the screen shows now."""
        raise NotImplementedError

    def items(self, nav: Controller) -> tuple[str, ...]:
        """The menu's rows (none: a text screen that UP/DOWN scroll)."""
        return ()

    def ok(self, nav: Controller) -> None:
        """OK was pressed."""

    def back(self, nav: Controller) -> None:
        """BACK was pressed briefly."""

    def throw_pressed(self, nav: Controller) -> None:
        """The THROW button was pressed (a screen that has no use for it ignores it)."""

    def step(self, nav: Controller, delta: int, repeat: bool) -> None:
        """UP (``delta`` -1) or DOWN (+1); ``repeat`` when the button is held. A menu's
        cursor wraps round on a press and stops at the ends while repeating; a text
        scrolls no further than its end."""
        items = self.items(nav)
        if items:
            n = len(items)
            target = self.cursor + delta
            self.cursor = min(max(target, 0), n - 1) if repeat else target % n
        else:
            self.scroll = nav.clamp_scroll(self.view(nav), self.scroll + delta)

    def again(self) -> Page:
        """This screen shown anew (cursor and scroll at the top), as after a message."""
        return replace(self, cursor=0, scroll=0)


# ---------------------------------------------------------------------- no game yet


@dataclass
class Splash(Page):
    kind = Screen.SPLASH

    def view(self, nav: Controller) -> View:
        return View("splash", "board companion", (
            "A referee for Senet and the labyrinth games.", f"version {__version__}",
        ), hint="OK: start", scroll=self.scroll)

    def ok(self, nav: Controller) -> None:
        if nav.notices:
            notices, nav.notices = nav.notices, []
            nav.show_message("Settings set aside", tuple(notices), then=self)
        elif nav.problems:  # one journal at a time, in its own words
            problem = nav.problems.pop(0)
            nav.show_message(problem.title, problem.lines, then=self)
        elif nav.pending is not None:
            nav.goto(Resume())
        else:
            nav.goto(Menu())


@dataclass
class Resume(Page):
    kind = Screen.RESUME

    def items(self, nav: Controller) -> tuple[str, ...]:
        return ("Resume", "New game")

    def view(self, nav: Controller) -> View:
        about: tuple[str, ...] = ()
        loaded = nav.pending
        if loaded is not None:
            st = loaded.state
            doing = "over" if st.phase is Phase.OVER else (
                f"{st.player_to_act_name} to {st.phase.value}"
            )
            about = (loaded.game.title, doing)
        return View("resume", "Unfinished game", about, items=self.items(nav),
                    cursor=self.cursor, hint="OK: choose")

    def ok(self, nav: Controller) -> None:
        resume_choice(nav, self.cursor == 0)

    def back(self, nav: Controller) -> None:
        nav.goto(Splash())


@dataclass
class Menu(Page):
    kind = Screen.MENU

    def items(self, nav: Controller) -> tuple[str, ...]:
        return (*(game_title(g) for g in nav.games), "Settings")

    def view(self, nav: Controller) -> View:
        return View("menu", "Choose a game", items=self.items(nav), cursor=self.cursor,
                    hint="OK: choose")

    def ok(self, nav: Controller) -> None:
        if self.cursor < len(nav.games):
            gid = nav.games[self.cursor]
            setup = Setup(gid, game_class(gid).default_players, dict(nav.game_options.get(gid, {})))
            setup.cursor = len(setup.rows(nav)) - 1  # on "Begin"
            nav.goto(setup)
        else:
            nav.goto(Settings(back_to=self))


@dataclass
class Setup(Page):
    """A game's setup: the number of players and the options a player may change, each
    row its short label and whole value (``House of Beauty: onto 26``); OK on an option
    opens its explanation, where OK changes it."""

    kind = Screen.SETUP
    game_id: str = ""
    players: int = 2
    options: dict[str, Any] = field(default_factory=dict)
    seats: dict[int, str] = field(default_factory=dict)
    """The players the computer plays, by player index, with their level."""

    def rows(self, nav: Controller) -> list[tuple[str, str]]:
        """The rows: ``(key, label)``; key ``players``, an option name, or ``begin``."""
        cls = game_class(self.game_id)
        presenter = presenter_for(self.game_id, columns(nav.size[0]))
        rows: list[tuple[str, str]] = []
        if cls.max_players > cls.min_players:
            rows.append(("players", f"Players: {self.players}"))
        for option in cls.options:
            if option_choices(nav, self.game_id, option):
                value = self.options.get(option.name, option.default)
                rows.append((option.name, f"{presenter.option_label(option)}: "
                                          f"{presenter.option_value(option, value)}"))
        computer = ", ".join(_default_game(self.game_id).player_name(p, self.players)
                             for p in sorted(self.seats)) or "nobody"
        rows.append(("seats", f"Computer: {computer}"))
        rows.append(("begin", "Begin"))
        return rows

    def items(self, nav: Controller) -> tuple[str, ...]:
        return tuple(label for _, label in self.rows(nav))

    def view(self, nav: Controller) -> View:
        cls = game_class(self.game_id)
        rows = self.rows(nav)
        key, label = rows[min(self.cursor, len(rows) - 1)]
        hint = "OK: begin" if key == "begin" else "OK: change"
        try:
            game = get_game(self.game_id, **self.options)
        except RulesError as exc:  # a data file that cannot be used: said, not begun
            about = f"Cannot begin: {exc}"
        else:
            # "throws first", not "starts": in most games the first throws decide who starts.
            about = f"{game.new_state(self.players).player_to_act_name} throws first."
            if key == "players":  # who plays, by the names the game gives them (colours)
                about = ", ".join(game.player_name(p, self.players) for p in range(self.players))
            elif key != "begin":  # the whole row, which the menu may cut
                about = label
        return View("setup", cls.title, (about,), items=tuple(label for _, label in rows),
                    cursor=self.cursor, hint=hint)

    def ok(self, nav: Controller) -> None:
        key = self.rows(nav)[self.cursor][0]
        cls = game_class(self.game_id)
        if key == "begin":
            begin(nav, self.game_id, self.players, self.options, setup=self, seats=self.seats)
        elif key == "players":
            span = cls.max_players - cls.min_players + 1
            self.players = cls.min_players + (self.players - cls.min_players + 1) % span
            self.seats = {p: lv for p, lv in self.seats.items() if p < self.players}
        elif key == "seats":
            nav.goto(Seats(setup=self))
        else:
            option = next(o for o in cls.options if o.name == key)
            nav.goto(OptionPage(setup=self, option=option))

    def back(self, nav: Controller) -> None:
        nav.goto(Menu())

    def again(self) -> Page:
        return replace(self, cursor=0, scroll=0, options=dict(self.options), seats=dict(self.seats))


@dataclass
class Seats(Page):
    """Who plays each seat: a person, or the computer at a level; OK on a seat
    changes it, BACK goes back to the setup."""

    kind = Screen.SEATS
    setup: Setup | None = None

    def items(self, nav: Controller) -> tuple[str, ...]:
        assert self.setup is not None
        setup = self.setup
        named = _default_game(setup.game_id)
        return (*(f"{named.player_name(p, setup.players)}: "
                  + (f"computer {setup.seats[p]}" if p in setup.seats else "person")
                  for p in range(setup.players)), "Back")

    def view(self, nav: Controller) -> View:
        return View("seats", "Who plays", ("OK: a person or the computer at a level.",),
                    items=self.items(nav), cursor=self.cursor, hint="OK: change")

    def ok(self, nav: Controller) -> None:
        assert self.setup is not None
        seats = self.setup.seats
        p = self.cursor
        if p >= self.setup.players:
            self.back(nav)
            return
        who = SEAT_CHOICES[(SEAT_CHOICES.index(seats.get(p, "person")) + 1) % len(SEAT_CHOICES)]
        seats.pop(p, None)
        if who != "person":
            seats[p] = who

    def back(self, nav: Controller) -> None:
        assert self.setup is not None
        nav.goto(self.setup)


@dataclass
class OptionPage(Page):
    """One option of a game's setup: what it does (the option's own description), its
    value now; OK changes the value, BACK goes back to the setup."""

    kind = Screen.OPTION
    setup: Setup | None = None
    option: Option | None = None

    def view(self, nav: Controller) -> View:
        assert self.setup is not None and self.option is not None
        option, setup = self.option, self.setup
        presenter = presenter_for(setup.game_id, columns(nav.size[0]))
        value = setup.options.get(option.name, option.default)
        lines = [option.help[:1].upper() + option.help[1:] + ".",
                 f"Now: {presenter.option_value(option, value)}"]
        if isinstance(value, str) and value and option.names_file:
            lines.append(value)  # the whole path of a data file
        return View("option", presenter.option_label(option), tuple(lines), scroll=self.scroll,
                    hint="OK: change BACK: done")

    def ok(self, nav: Controller) -> None:
        assert self.setup is not None and self.option is not None
        option, options = self.option, self.setup.options
        choices = option_choices(nav, self.setup.game_id, option)
        value = options.get(option.name, option.default)
        i = choices.index(value) if value in choices else -1
        options[option.name] = choices[(i + 1) % len(choices)]

    def back(self, nav: Controller) -> None:
        assert self.setup is not None
        nav.goto(self.setup)


SLEEP_CHOICES = (60.0, 300.0, 600.0, 1800.0, 3600.0, 0.0)
"""Display sleep times offered in Settings, in seconds (0: never)."""
CONTRAST_CHOICES = (64, 128, 191, 255)
"""Contrast levels offered in Settings (0-255), shown as 25% to 100%."""


def _sleep_words(seconds: float) -> str:
    if seconds <= 0:
        return "never"
    if seconds >= 60 and seconds % 60 == 0:
        return f"{int(seconds // 60)} min"
    return f"{seconds:g} s"


def _next(choices: Sequence[Any], value: Any) -> Any:
    """The choice after ``value`` in the cycle ``choices``; for a value not offered (set
    in the config file), the first choice larger than it, else the last choice."""
    if value in choices:
        return choices[(list(choices).index(value) + 1) % len(choices)]
    larger = [c for c in choices if c > value]
    return larger[0] if larger else choices[-1]


@dataclass
class Settings(Page):
    """The settings changeable at the table, each row showing its value; OK on a row
    changes it (saved at once, restored at the next start). Leaving goes back to where
    they were opened (the menu, or the pause menu of a game in play, which returns to
    the game)."""

    kind = Screen.SETTINGS
    back_to: Page | None = None

    def rows(self, nav: Controller) -> list[tuple[str, str]]:
        """``(key, label)`` per row; the sound and the light only when wired."""
        prefs = nav.prefs
        rows = [
            ("source", f"Throw: {prefs.source}"),
            ("sleep", f"Sleep: {_sleep_words(prefs.sleep_after)}"),
            ("contrast", f"Contrast: {round(prefs.contrast * 100 / 255)}%"),
        ]
        if nav.wired["buzzer"]:
            rows.append(("sound", f"Sound: {'on' if prefs.sound else 'off'}"))
        if nav.wired["led"]:
            rows.append(("light", f"Light: {'on' if prefs.light else 'off'}"))
        return [*rows, ("back", "Back")]

    def items(self, nav: Controller) -> tuple[str, ...]:
        return tuple(label for _, label in self.rows(nav))

    def view(self, nav: Controller) -> View:
        return View("settings", "Settings", items=self.items(nav), cursor=self.cursor,
                    hint="OK: change")

    def ok(self, nav: Controller) -> None:
        key = self.rows(nav)[self.cursor][0]
        prefs = nav.prefs
        if key == "source":
            new = replace(prefs, source=_next(nav.sources, prefs.source))
        elif key == "sleep":
            new = replace(prefs, sleep_after=_next(SLEEP_CHOICES, prefs.sleep_after))
        elif key == "contrast":
            new = replace(prefs, contrast=_next(CONTRAST_CHOICES, prefs.contrast))
        elif key == "sound":
            new = replace(prefs, sound=not prefs.sound)
        elif key == "light":
            new = replace(prefs, light=not prefs.light)
        else:
            self.back(nav)
            return
        change(nav, new)

    def back(self, nav: Controller) -> None:
        if isinstance(self.back_to, Pause) and nav.table is not None:
            nav.route()
        else:
            nav.goto(Menu())


@dataclass
class Message(Page):
    """A message over another screen; OK or BACK leads back to it."""

    kind = Screen.MESSAGE
    title: str = ""
    lines: tuple[str, ...] = ()
    under: Page | None = None
    """The screen the message came over (``None``: what the position calls for)."""

    def view(self, nav: Controller) -> View:
        return View("message", self.title, self.lines, scroll=self.scroll, hint="OK")

    def ok(self, nav: Controller) -> None:
        under = self.under
        if under is None or under.kind in IN_GAME:
            nav.route()
        else:  # the events the message came over are still unread, and so on
            nav.goto(under.again())

    back = ok


# ---------------------------------------------------------------------- in a game


@dataclass
class Throwing(Page):
    """A throw is due from a shaker or the THROW button."""

    kind = Screen.THROW
    shaking: bool = False

    def view(self, nav: Controller) -> View:
        state = nav.position
        spec = state.throw_spec
        assert spec is not None
        name = state.player_to_act_name
        source = nav.source
        prompt = SOURCE_PROMPTS.get(source, "shake!")
        if source == SourceName.BUTTON and not nav.throw_button:
            prompt = "press OK"
        lines = [f"{name} to throw: {prompt}"]
        if self.shaking:
            lines = [f"{name} is shaking..."]
        trouble = nav.source_trouble.get(source)
        if trouble:
            lines.append(trouble)
        lines += [f"({spec.describe()})", *nav.presenter.status_brief(state), *nav.said]
        return View("throw", state.game.title, tuple(lines), scroll=self.scroll,
                    hint="hold BACK: undo")

    def ok(self, nav: Controller) -> None:
        if nav.source == SourceName.BUTTON and not nav.throw_button:
            throw_drawn(nav)

    def back(self, nav: Controller) -> None:
        nav.goto(Pause())

    def throw_pressed(self, nav: Controller) -> None:
        self.thrown(nav, "", button=True)

    def reported(self, nav: Controller, event: ThrowReported) -> None:
        """A source that draws its own throws (the serial shaker) reports one."""
        spec = nav.position.throw_spec
        assert spec is not None
        try:
            if event.implement != spec.id:
                raise RulesError(f"it threw {event.implement}, the game needs {spec.describe()}")
            throw = spec.from_faces(event.faces)
        except RulesError as exc:
            nav.show_message("Throw rejected", (str(exc), "Throw again."), then=None)
            return
        act(nav, throw)

    def thrown(self, nav: Controller, source: str, button: bool) -> None:
        """The THROW button (``button``) or a shaker ``source`` says: throw now."""
        if (source == nav.source and not button) or (button and nav.source in DRAWN_BY_SERVICE):
            throw_drawn(nav)


@dataclass
class Manual(Page):
    """The players threw their own sticks or dice: each face is entered in turn
    (:meth:`~companion.rules.Implement.entry_slots`)."""

    kind = Screen.MANUAL
    faces: list[int] = field(default_factory=list)
    slot: int = 0

    def view(self, nav: Controller) -> View:
        state = nav.position
        spec = state.throw_spec
        assert spec is not None
        slots = spec.entry_slots()
        shown = tuple(
            slots[i][self.faces[i]] if i <= self.slot else "?" for i in range(len(slots))
        )
        kind = spec.kind
        face = shown[self.slot]
        hint = "UP/DOWN set, OK next"
        if kind == "sticks":  # by score: the sticks of that score, the score in words
            throw = spec.from_slots(self.faces)
            picture = ThrowPicture(kind, throw.faces, str(throw.values[0]))
            entry: tuple[str, ...] = (spec.entry_words(face), "UP/DOWN set, OK enter")
        else:
            if len(slots) == 1 and kind in ("card", "faces"):
                picture = ThrowPicture("faces", (shown[0],))
            else:
                picture = ThrowPicture(kind, shown, focus=self.slot)
            what = {"dice": "Die", "coloured": "Stick"}.get(kind, "Throw")
            entry = (f"{what} {self.slot + 1} of {len(slots)}: {spec.entry_words(face)}", hint)
        return View("manual", f"{state.player_to_act_name}: enter throw", entry,
                    picture=picture, hint="BACK: previous" if self.slot else "BACK: menu")

    def step(self, nav: Controller, delta: int, repeat: bool) -> None:
        spec = nav.position.throw_spec
        assert spec is not None
        options = spec.entry_slots()[self.slot]
        self.faces[self.slot] = (self.faces[self.slot] + delta) % len(options)

    def ok(self, nav: Controller) -> None:
        spec = nav.position.throw_spec
        if spec is None:
            nav.route()
        elif self.slot + 1 < len(spec.entry_slots()):
            self.slot += 1
        else:
            act(nav, spec.from_slots(self.faces))

    def back(self, nav: Controller) -> None:
        if self.slot > 0:
            self.slot -= 1
        else:
            nav.goto(Pause())


@dataclass
class Moves(Page):
    """The legal moves, chosen in the steps the game's presenter gives
    (:meth:`~companion.ui.games.Presenter.choice_steps`): each OK narrows the legal
    moves by one step, a short BACK takes one step back, and a move is played when its
    steps are all chosen."""

    kind = Screen.MOVES
    path: list[str] = field(default_factory=list)
    """The step labels chosen so far."""
    path_cursors: list[int] = field(default_factory=list)
    """The cursor at each step of :attr:`path`, restored when BACK steps back."""

    def choices(self, nav: Controller) -> list[tuple[str, Move | None]]:
        """The items at the current step: ``(label, move)``, where OK plays ``move``,
        or goes one step further when it is ``None``.

        The legal moves whose steps begin with :attr:`path` are grouped by their next
        label, in the order of :meth:`~companion.rules.State.legal_moves`. A label that
        only one move has and that is its last plays that move. A move whose steps end
        at :attr:`path` (it is also the beginning of longer moves) is offered first as
        ``play <notation>``. With one step per move this is the flat list of notations.
        """
        state = nav.position
        presenter = nav.presenter
        depth = len(self.path)
        prefix = tuple(self.path)
        here: Move | None = None
        groups: dict[str, list[Move]] = {}
        ends: dict[str, Move] = {}
        for move in state.legal_moves():
            steps = presenter.choice_steps(state, move)
            if steps[:depth] != prefix:
                continue
            if len(steps) == depth:
                here = here or move
                continue
            label = steps[depth]
            groups.setdefault(label, []).append(move)
            if len(steps) == depth + 1:
                ends.setdefault(label, move)
        items: list[tuple[str, Move | None]] = []
        if here is not None:
            items.append((f"play {here.notation}", here))
        for label, moves in groups.items():
            items.append((label, moves[0] if len(moves) == 1 and label in ends else None))
        return items

    def items(self, nav: Controller) -> tuple[str, ...]:
        return tuple(label for label, _ in self.choices(nav))

    def view(self, nav: Controller) -> View:
        state = nav.position
        name = state.player_to_act_name
        title = f"{name} threw{caption(nav)}" if state.phase is Phase.MOVE else f"{name} decides"
        items = self.items(nav)
        if self.path:
            # A step further: the steps chosen so far above the next choices (the
            # first and the last when there are more), no picture, to leave rows for them.
            path = self.path if len(self.path) <= 2 else [self.path[0], "...", self.path[-1]]
            return View("moves", title, (", ".join(path) + ":",), items=items,
                        cursor=self.cursor, hint="OK: choose BACK: back")
        question = nav.presenter.prompt(state)
        return View("moves", title, (question,) if question else (), items=items,
                    cursor=self.cursor, picture=picture_marked(nav),
                    hint="OK: move  BACK: menu")

    def ok(self, nav: Controller) -> None:
        items = self.choices(nav)
        if 0 <= self.cursor < len(items):
            label, move = items[self.cursor]
            if move is not None:
                act(nav, move)
            else:  # one step further: the moves that go on with this label
                self.path.append(label)
                self.path_cursors.append(self.cursor)
                self.cursor = 0

    def back(self, nav: Controller) -> None:
        if self.path:
            self.path.pop()
            self.cursor = self.path_cursors.pop()
        else:
            nav.goto(Pause(after=self))

    def highlighted(self, nav: Controller) -> Move | None:
        """The move under the cursor when the cursor's row plays one (else ``None``)."""
        items = self.choices(nav)
        return items[self.cursor][1] if 0 <= self.cursor < len(items) else None

    def throw_pressed(self, nav: Controller) -> None:
        """THROW on the moves screen: the board with the highlighted move's piece and
        where it lands (OK there plays it, BACK comes back here)."""
        try:
            board_model(nav.position)
        except ValueError:  # a game without a board picture (none of the four)
            return
        nav.goto(BoardPage(move=self.highlighted(nav), back_to=self))


@dataclass
class Lost(Page):
    """No legal move: the throw is lost."""

    kind = Screen.LOST

    def view(self, nav: Controller) -> View:
        name = nav.position.player_to_act_name
        why = nav.presenter.lost_reason(nav.position)
        lines = ("The throw is lost:", why) if why else ("No legal move:", "the throw is lost.")
        return View("lost", f"{name} threw{caption(nav)}", lines,
                    picture=picture_marked(nav), hint="OK: next", scroll=self.scroll)

    def ok(self, nav: Controller) -> None:
        act(nav, PASS)

    def back(self, nav: Controller) -> None:
        nav.goto(Pause())


@dataclass
class Events(Page):
    """What a move did, in words, when something beyond the routine happened."""

    kind = Screen.EVENTS
    by: str = ""
    texts: tuple[str, ...] = ()

    def view(self, nav: Controller) -> View:
        return View("events", f"{self.by}'s move", self.texts, scroll=self.scroll,
                    hint="OK: next")

    def ok(self, nav: Controller) -> None:
        nav.route()

    def back(self, nav: Controller) -> None:
        nav.goto(Pause())


@dataclass
class Over(Page):
    kind = Screen.OVER

    def view(self, nav: Controller) -> View:
        state = nav.position
        assert state.outcome is not None
        winners = " and ".join(state.game.player_name(w, state.players)
                               for w in state.outcome.winners)
        return View("over", "Game over", (f"{winners} wins!", state.outcome.reason, *nav.said),
                    hint="OK: new game", scroll=self.scroll)

    def ok(self, nav: Controller) -> None:
        nav.close()
        nav.goto(Menu())

    def back(self, nav: Controller) -> None:
        nav.goto(Pause())


@dataclass
class Pause(Page):
    """The pause menu of a game in play."""

    kind = Screen.PAUSE
    after: Page | None = None
    """The game's screen the pause menu was opened from (the moves screen's highlighted
    move is previewed by "Board")."""

    def items(self, nav: Controller) -> tuple[str, ...]:
        return (*PAUSE_ITEMS, "Hint") if self._hint_move(nav) else PAUSE_ITEMS

    def _hint_move(self, nav: Controller) -> bool:
        """A hint is offered when enabled and a person is to move or decide."""
        table = nav.table
        return bool(nav.hints and table is not None and table.state.current_player not in
                    table.seats and table.state.phase in (Phase.MOVE, Phase.DECIDE)
                    and tuple(table.state.legal_moves()) != (PASS,))

    def view(self, nav: Controller) -> View:
        return View("pause", "Paused", items=self.items(nav), cursor=self.cursor,
                    hint="OK: choose")

    def ok(self, nav: Controller) -> None:
        items = self.items(nav)
        choice = items[self.cursor % len(items)]
        if choice == "Continue":
            nav.route()
        elif choice == "Undo last move":
            undo(nav)
        elif choice == "Game status":
            self._status(nav)
        elif choice == "Settings":
            nav.goto(Settings(back_to=self))
        elif choice == "Hint":
            hint(nav)
        elif choice == "Board":
            move = self.after.highlighted(nav) if isinstance(self.after, Moves) else None
            try:
                board_model(nav.position)
            except ValueError as exc:  # a game without a board picture (none of the four)
                nav.show_message("Board", (str(exc),), then=self)
                return
            nav.goto(BoardPage(move=move, back_to=self))
        else:
            end_game(nav)

    def back(self, nav: Controller) -> None:
        nav.route()

    def _status(self, nav: Controller) -> None:
        """Where every piece is, in words, then what the board does not show (the
        presenter's status lines); UP/DOWN page through it."""
        if nav.table is None:
            nav.route()
            return
        state = nav.position
        try:
            places = pieces_in_words(state, columns(nav.size[0]))
        except ValueError:  # a game without a board picture (none of the four)
            places = []
        lines = (*places, *nav.presenter.status_lines(state)) or ("Nothing to say.",)
        nav.show_message(state.game.title, lines, then=self)


@dataclass
class BoardPage(Page):
    """The position as a board picture (:mod:`companion.ui.games.boards`), with a move's
    piece and where it lands inverted when ``move`` is given: OK plays that move, BACK
    goes back to ``back_to`` (``None``: what the position calls for). UP/DOWN turn to
    the inventories where a game has them (the Cretan Labyrinth)."""

    kind = Screen.BOARD
    move: Move | None = None
    back_to: Page | None = None

    def view(self, nav: Controller) -> View:
        state = nav.position
        board = board_model(state, highlight=self.move)
        return View("board", state.game.title, board=board, page=self.scroll)

    def step(self, nav: Controller, delta: int, repeat: bool) -> None:
        pages = 1 + inventory_pages(board_model(nav.position), nav.size)
        self.scroll = (self.scroll + delta) % pages

    def ok(self, nav: Controller) -> None:
        if self.move is not None:
            act(nav, self.move)
        else:
            self.back(nav)

    def back(self, nav: Controller) -> None:
        if self.back_to is None:
            nav.route()
        elif self.back_to.kind in IN_GAME:  # the same screen, its cursor kept
            nav.goto(self.back_to)
        else:
            nav.goto(self.back_to.again())


@dataclass
class ComputerMove(Page):
    """The computer's move or decision, for the players to make on the real board:
    OK once its pieces are moved plays it; THROW (or DOWN) shows it on the board."""

    kind = Screen.COMPUTER
    move: Move | None = None

    def view(self, nav: Controller) -> View:
        assert self.move is not None
        state = nav.position
        name = state.player_to_act_name
        did = "threw" + caption(nav) if state.phase is Phase.MOVE else "decides"
        return View("computer", f"{name} {did}", (
            f"Computer: {self.move.notation}", "Move its piece, then OK.",
        ), picture=picture_marked(nav), hint="OK: done THROW: board")

    def ok(self, nav: Controller) -> None:
        assert self.move is not None
        act(nav, self.move)

    def step(self, nav: Controller, delta: int, repeat: bool) -> None:
        self.throw_pressed(nav)

    def throw_pressed(self, nav: Controller) -> None:
        try:
            board_model(nav.position)
        except ValueError:  # a game without a board picture (none of the four)
            return
        nav.goto(BoardPage(move=self.move, back_to=self))

    def back(self, nav: Controller) -> None:
        nav.goto(Pause(after=self))


def for_position(nav: Controller) -> Page:
    """The screen the game's position calls for. On the computer's turn its throw is
    drawn at once (unless the table shakes for it) and its choice shown."""
    state = nav.position
    phase = state.phase
    table = nav.table
    computer = table.seats.get(state.current_player) if table is not None else None
    if computer is not None and phase is Phase.THROW and nav.computer_draws:
        spec = state.throw_spec
        assert spec is not None and table is not None
        acted = table.act(nav.draw(spec, len(table.actions)))
        nav.said = tuple(e.text for e in acted.events)
        nav.cue = Cue.THROW
        return for_position(nav)
    if computer is not None and phase in (Phase.MOVE, Phase.DECIDE):
        moves = state.legal_moves()
        if tuple(moves) != (PASS,):
            return ComputerMove(move=nav.think(state, computer))
    if phase is Phase.OVER:
        return Over()
    if phase is Phase.THROW:
        if nav.source == SourceName.MANUAL:
            spec = state.throw_spec
            assert spec is not None
            return Manual(faces=[0] * len(spec.entry_slots()))
        return Throwing()
    if tuple(state.legal_moves()) == (PASS,):
        return Lost()
    return Moves()


def picture_marked(nav: Controller) -> ThrowPicture | None:
    """The last throw's picture with the faces the player may still use marked
    (:meth:`~companion.rules.State.usable_faces`) while a throw is being played."""
    table = nav.table
    if table is None or table.last_throw is None:
        return None
    picture = picture_of(*table.last_throw)
    if table.state.phase is not Phase.MOVE:
        return picture
    usable = table.state.usable_faces()
    if len(usable) != len(picture.faces):
        return picture
    return replace(picture, usable=usable)


# ---------------------------------------------------------------------- the game's flow


def begin(
    nav: Controller, game_id: str, players: int, options: dict[str, Any], *, setup: Setup,
    seats: dict[int, str] | None = None,
) -> None:
    """Begin a new game of ``game_id``; a game that cannot be made (a data file with a
    mistake: file, line and reason) is said, and leads back to its ``setup``."""
    try:
        table = Table.begin(nav.store, get_game(game_id, **options), players, seats)
    except RulesError as exc:
        nav.show_message("Cannot start", (str(exc),), then=setup)
        return
    except OSError as exc:
        nav.show_message("Cannot save games", (str(exc),), then=Menu())
        return
    nav.play(table, ())


def resume_choice(nav: Controller, resume: bool) -> None:
    """Resume the game offered at the start (``resume``), or end it and go to the menu."""
    loaded, nav.pending = nav.pending, None
    if loaded is None:
        nav.goto(Menu())
        return
    try:
        table = Table.reopen(nav.store, loaded)
    except OSError as exc:
        nav.show_message("Cannot save games", (str(exc),), then=Menu())
        return
    if not resume:
        table.end("abandoned")
        nav.goto(Menu())
        return
    nav.play(table, ("Game resumed.",))
    try:  # the position first: the players check their board against it
        board_model(table.state)
    except ValueError:  # a game without a board picture (none of the four)
        return
    nav.goto(BoardPage())


def throw_drawn(nav: Controller) -> None:
    """Draw a throw of the implement due and apply it."""
    table = nav.table
    if table is None or table.state.throw_spec is None:
        return
    act(nav, nav.draw(table.state.throw_spec, len(table.actions)))


def act(nav: Controller, action: Action) -> None:
    """Apply ``action`` to the game in play; show what it did, or the position next."""
    assert nav.table is not None
    before = nav.table.state.current_player
    try:
        acted = nav.table.act(action)
    except RulesError as exc:
        nav.show_message("Not allowed", (str(exc),), then=nav.page)
        return
    except OSError as exc:
        nav.show_message("Cannot save", (str(exc), "The action was not made."), then=nav.page)
        return
    after = nav.position
    if after.phase is Phase.THROW and after.current_player != before:
        nav.cue = Cue.TURN
    elif acted.implement is not None:
        nav.cue = Cue.THROW
    presenter = nav.presenter
    notable = [e for e in acted.events if not presenter.routine(e)]
    texts = tuple(e.text for e in acted.events)
    if notable and nav.position.phase is not Phase.OVER:
        nav.said = ()
        nav.goto(Events(by=acted.by, texts=texts))
    else:
        nav.said = texts
        nav.route()


def undo(nav: Controller) -> None:
    """Take back the last confirmed move (and any throw after it)."""
    assert nav.table is not None
    try:
        undone = nav.table.undo()
    except OSError as exc:
        nav.show_message("Cannot save", (str(exc),), then=nav.page)
        return
    if undone is None:
        nav.show_message("Nothing to undo", ("No move has been made yet.",), then=nav.page)
        return
    nav.said = ()
    nav.show_message("Undone", (f"{undone.by}'s move {undone.move.notation} is taken back.",
                                "Put the pieces back as they were."), then=None)


def end_game(nav: Controller) -> None:
    """End the game in play (recorded as abandoned unless it is over)."""
    failed = nav.table.end("abandoned") if nav.table is not None else None
    nav.close()
    nav.goto(Menu())
    if failed is not None:
        nav.show_message("Cannot save", (failed, "The game is offered again at the next start."),
                         then=Menu())


def hint(nav: Controller) -> None:
    """The best move for the person to act (the computer's ``strong`` search) and their
    chance to win from here (the evaluation: pieces' progress, no look-ahead); OK
    shows the moves again."""
    from companion.ai.evaluate import estimate

    state = nav.position
    best = nav.think(state, "strong")
    chance = round(100 * estimate(state, state.current_player))
    nav.show_message("Hint", (
        f"Best: {best.notation}",
        f"{state.player_to_act_name}'s chance to win: about {chance}% (from the "
        "position of the pieces)",
    ), then=None)


def change(nav: Controller, prefs: Prefs) -> None:
    """Use ``prefs`` from now on and save them (a disk that cannot take them is said;
    the change still holds until the companion stops)."""
    nav.prefs = prefs
    if nav.saved is not None:
        try:
            nav.saved.save(prefs)
        except OSError as exc:
            nav.show_message("Cannot save settings", (str(exc),), then=nav.page)


def caption(nav: Controller) -> str:
    """The last throw's score for a title (``" 2+3"``), or ``""``."""
    picture = picture_marked(nav)
    return f" {picture.caption}" if picture and picture.caption else ""


def data_files(directories: Sequence[Path], game_id: str, option: str) -> list[str]:
    """The data files offered for ``option`` of ``game_id``: in each of ``directories``
    (in order), the files ``<game id>*.toml`` -- those with ``decks`` in their name for
    the ``decks`` option, the others for ``board`` -- sorted by name. A folder that is
    missing or unreadable offers nothing."""
    found: list[str] = []
    for directory in directories:
        try:
            names = sorted(p for p in directory.glob(f"{game_id}*.toml") if p.is_file())
        except OSError:
            continue
        found += [str(p) for p in names if ("decks" in p.name) == (option == "decks")]
    return found


def option_choices(nav: Controller, game_id: str, option: Option) -> tuple[Any, ...]:
    """The values the setup offers for ``option`` (none: not offered): its choices, yes
    and no, or, for a data file, the bundled default first, then the files found in the
    boards folders (:func:`data_files`), when there are any."""
    if option.choices:
        return option.choices
    if isinstance(option.default, bool):
        return (True, False)
    if option.names_file:  # a FileOption: offered once there is a file to choose
        files = data_files(nav.boards, game_id, option.name)
        return ("", *files) if files else ()
    return ()


__all__: Sequence[str] = [
    "IN_GAME",
    "NO_UNDO",
    "PAUSE_ITEMS",
    "Events",
    "Lost",
    "Manual",
    "Menu",
    "Message",
    "Moves",
    "OptionPage",
    "Over",
    "Page",
    "Pause",
    "Resume",
    "Screen",
    "Settings",
    "Setup",
    "Splash",
    "Throwing",
    "act",
    "begin",
    "data_files",
    "end_game",
    "for_position",
    "option_choices",
    "picture_marked",
    "resume_choice",
    "throw_drawn",
    "undo",
]
