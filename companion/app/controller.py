"""The controller: a state machine over screens, fed one event at a time.

It is deterministic: the same events (and the same journal directory and throw draws)
give the same screens and the same journal. It knows games only through the rules
core (phases THROW / MOVE / DECIDE / OVER, ``throw_spec``, ``legal_moves`` with their
notations, events with their texts, ``PASS``), so every registered game plays here.

Buttons: UP / DOWN move a cursor (and repeat when held), OK chooses, a short BACK
goes back (in a game: the pause menu), holding BACK undoes the last confirmed move
(players misread a screen; they then put the pieces back as the screen says).

The moves screen picks a move in the steps a game's presenter gives with
:meth:`~companion.ui.games.Presenter.choice_steps` (default: one step, the flat list of
notations): each OK narrows the legal moves by one step, a short BACK takes one step
back, and a move is played when its steps are all chosen.
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion import __version__
from companion.app.events import (
    ButtonEvent,
    ButtonName,
    Event,
    Press,
    Quit,
    Shaken,
    ShakeStarted,
    SourceFailed,
    SourceStatus,
    ThrowReported,
)
from companion.app.journal import Journal, JournalStore, Loaded
from companion.devices.sources import DRAWN_BY_SERVICE
from companion.rules import (
    PASS,
    Action,
    Game,
    Implement,
    Move,
    Option,
    Phase,
    RulesError,
    State,
    Throw,
    game_class,
    game_ids,
    game_title,
    get_game,
)
from companion.rules import (
    Event as GameEvent,
)
from companion.ui.games import Presenter, presenter_for
from companion.ui.render import body_lines, columns, layout
from companion.ui.view import ThrowPicture, View, kind_of, picture_of

log = logging.getLogger(__name__)

Draw = Callable[[Implement, int], Throw]
"""Draws a throw of an implement; the int is the number of actions so far (a seeded
demo uses it to make every throw reproducible; the service ignores it and uses
:func:`secrets.randbelow`)."""

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
    PAUSE = "pause"
    MESSAGE = "message"


SOURCE_PROMPTS = {
    "gpio-shaker": "shake!",
    "serial-shaker": "shake!",
    "button": "press THROW",
}

PAUSE_ITEMS = ("Continue", "Undo last move", "Settings", "Game status", "End game")


@dataclass
class _Message:
    title: str
    lines: tuple[str, ...]


class Controller:
    """The companion's screens and game flow.

    ``store``: where journals go; ``draw``: how a throw is drawn (see :data:`Draw`);
    ``sources``: the throw sources the settings screen offers; ``source``: the one in
    use; ``throw_button``: whether a THROW button is wired (else OK throws for the
    ``button`` source); ``games``: the game ids of the menu (default: all registered);
    ``size``: the panel in pixels (128x64 or 128x32).
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
    ) -> None:
        self.store = store
        self.draw = draw
        self.sources = list(sources)
        self.source = source if source in self.sources else self.sources[0]
        self.throw_button = throw_button
        self.games = list(games) if games is not None else game_ids()
        self.size = size
        """The panel's size in pixels (text screens scroll no further than their end)."""
        self.screen = Screen.SPLASH
        self.cursor = 0
        self.scroll = 0
        self.quit = False
        self.setup_game: str | None = None
        self.setup_players = 2
        self.setup_options: dict[str, Any] = {}
        self.game: Game | None = None
        self.state: State | None = None
        self.actions: list[Action] = []
        self.journal: Journal | None = None
        self.picture: ThrowPicture | None = None
        self.path: list[str] = []
        """The step labels chosen so far on the moves screen (see :meth:`choices`)."""
        self.path_cursors: list[int] = []
        """The cursor at each step of :attr:`path`, restored when BACK steps back."""
        self.last_said: tuple[str, ...] = ()
        self.events_shown: tuple[str, ...] = ()
        self.events_by = ""
        self.shaking = False
        self.source_trouble: dict[str, str] = {}
        self.manual_faces: list[int] = []
        self.manual_slot = 0
        self.message: _Message | None = None
        self.return_to = Screen.MENU
        """Where leaving the message screen goes (never the message screen itself)."""
        self.settings_from = Screen.MENU
        """Where leaving the settings screen goes: the menu, or the pause menu of a game."""
        self.pending: Loaded | None = None
        self.problems: list[str] = []
        self._presenter: tuple[Game, Presenter] | None = None
        """The presenter of the game in play, built once per game (see :meth:`_shown`)."""

    # ------------------------------------------------------------------ start / stop

    def start(self) -> None:
        """Look for an unfinished game to offer; show the splash screen."""
        self.pending, self.problems = self.store.unfinished()
        self.screen = Screen.SPLASH

    def close(self) -> None:
        """Close the journal (everything in it is already on disk)."""
        if self.journal is not None:
            self.journal.close()
            self.journal = None

    @property
    def due(self) -> Implement | None:
        """The implement a throw source should throw now, or ``None``."""
        if self.screen is Screen.THROW and self.state is not None:
            return self.state.throw_spec
        return None

    # ------------------------------------------------------------------ events

    def handle(self, event: Event) -> None:
        """Apply one event."""
        if isinstance(event, Quit):
            self.quit = True
        elif isinstance(event, ButtonEvent):
            self._button(event.button, event.press)
        elif isinstance(event, ShakeStarted):
            if self.screen is Screen.THROW and event.source == self.source:
                self.shaking = True
        elif isinstance(event, Shaken):
            if self.screen is Screen.THROW and event.source == self.source:
                self._throw_drawn()
        elif isinstance(event, ThrowReported):
            self._throw_reported(event)
        elif isinstance(event, SourceStatus):
            if event.ok:
                self.source_trouble.pop(event.source, None)
            else:
                self.source_trouble[event.source] = event.text
        elif isinstance(event, SourceFailed):
            self.source_trouble[event.source] = event.text
            if event.source == self.source:
                fallback = "manual" if "manual" in self.sources else self.sources[0]
                self._show_message(
                    "Throw source failed", (event.text, f"Using {fallback} instead."), self.screen
                )
                self.source = fallback

    def _button(self, button: ButtonName, press: Press) -> None:
        if button is ButtonName.BACK:
            if press is Press.HELD:
                self._undo()
            elif press is Press.SHORT:
                self._back()
            return
        if press is Press.SHORT or press is Press.HELD:
            return
        if button is ButtonName.UP:
            self._step(-1, press is Press.REPEAT)
        elif button is ButtonName.DOWN:
            self._step(+1, press is Press.REPEAT)
        elif press is Press.PRESSED and button is ButtonName.OK:
            self._ok()
        elif (
            press is Press.PRESSED
            and button is ButtonName.THROW
            and self.screen is Screen.THROW
            and self.source in DRAWN_BY_SERVICE
        ):
            self._throw_drawn()

    # ------------------------------------------------------------------ navigation

    def _items(self) -> tuple[str, ...]:
        return self.view().items

    def _step(self, delta: int, repeat: bool) -> None:
        screen = self.screen
        if screen is Screen.MANUAL:
            self._manual_step(delta)
            return
        items = self._items()
        if items:
            n = len(items)
            target = self.cursor + delta
            self.cursor = min(max(target, 0), n - 1) if repeat else target % n
        else:
            view = self.view()
            _, rows, _ = layout(view, self.size)
            last = max(0, len(body_lines(view, self.size[0])) - rows)
            self.scroll = min(max(0, self.scroll + delta), last)

    def _goto(self, screen: Screen) -> None:
        self.screen = screen
        self.cursor = 0
        self.scroll = 0
        self.path = []
        self.path_cursors = []

    def _show_message(self, title: str, lines: tuple[str, ...], then: Screen) -> None:
        if then is Screen.MESSAGE:  # over another message: leaving goes where that one led
            then = self.return_to
        self.message = _Message(title, lines)
        self.return_to = then
        self._goto(Screen.MESSAGE)

    def _ok(self) -> None:
        screen = self.screen
        if screen is Screen.SPLASH:
            if self.problems:
                problems, self.problems = self.problems, []
                self._show_message("Journal repaired", tuple(problems), Screen.SPLASH)
            elif self.pending is not None:
                self._goto(Screen.RESUME)
            else:
                self._goto(Screen.MENU)
        elif screen is Screen.RESUME:
            self._resume_choice(self.cursor == 0)
        elif screen is Screen.MENU:
            if self.cursor < len(self.games):
                gid = self.games[self.cursor]
                self.setup_game = gid
                self.setup_players = game_class(gid).default_players
                self.setup_options = {}
                self._goto(Screen.SETUP)
                self.cursor = len(self._setup_items()) - 1  # on "Begin"
            else:
                self.settings_from = Screen.MENU
                self._goto(Screen.SETTINGS)
        elif screen is Screen.SETUP:
            self._setup_ok()
        elif screen is Screen.THROW:
            if self.source == "button" and not self.throw_button:
                self._throw_drawn()
        elif screen is Screen.MANUAL:
            self._manual_ok()
        elif screen is Screen.MOVES:
            items = self.choices()
            if 0 <= self.cursor < len(items):
                label, move = items[self.cursor]
                if move is not None:
                    self._act(move)
                else:  # one step further: the moves that go on with this label
                    self.path.append(label)
                    self.path_cursors.append(self.cursor)
                    self.cursor = 0
        elif screen is Screen.LOST:
            self._act(PASS)
        elif screen is Screen.EVENTS:
            self._route()
        elif screen is Screen.OVER:
            self.close()
            self.game = self.state = None
            self._goto(Screen.MENU)
        elif screen is Screen.SETTINGS:
            if self.cursor == 0:
                i = self.sources.index(self.source) if self.source in self.sources else -1
                self.source = self.sources[(i + 1) % len(self.sources)]
            else:
                self._leave_settings()
        elif screen is Screen.PAUSE:
            choice = PAUSE_ITEMS[self.cursor % len(PAUSE_ITEMS)]
            if choice == "Continue":
                self._route()
            elif choice == "Undo last move":
                self._undo()
            elif choice == "Game status":
                self._show_status()
            elif choice == "Settings":
                self.settings_from = Screen.PAUSE
                self._goto(Screen.SETTINGS)
            else:
                self._end_game()
        elif screen is Screen.MESSAGE:
            self._leave_message()

    def _back(self) -> None:
        screen = self.screen
        if screen is Screen.MOVES and self.path:
            self.path.pop()
            self.cursor = self.path_cursors.pop()
        elif screen in (Screen.THROW, Screen.MOVES, Screen.LOST, Screen.EVENTS, Screen.OVER):
            self._goto(Screen.PAUSE)
        elif screen is Screen.MANUAL:
            if self.manual_slot > 0:
                self.manual_slot -= 1
            else:
                self._goto(Screen.PAUSE)
        elif screen is Screen.PAUSE:
            self._route()
        elif screen is Screen.SETUP:
            self._goto(Screen.MENU)
        elif screen is Screen.SETTINGS:
            self._leave_settings()
        elif screen is Screen.MESSAGE:
            self._leave_message()
        elif screen is Screen.RESUME:
            self._goto(Screen.SPLASH)

    def _leave_settings(self) -> None:
        if self.settings_from is Screen.PAUSE and self.state is not None:
            self._route()
        else:
            self._goto(Screen.MENU)

    def _shown(self, state: State) -> Presenter:
        """The presenter of ``state``'s game for this panel's width (built once per game)."""
        if self._presenter is None or self._presenter[0] is not state.game:
            self._presenter = (state.game, presenter_for(state.game.id, columns(self.size[0])))
        return self._presenter[1]

    def _show_status(self) -> None:
        """The presenter's :meth:`~companion.ui.games.Presenter.status_lines` in full, on demand."""
        state = self.state
        if state is None:
            self._route()
            return
        lines = tuple(self._shown(state).status_lines(state)) or ("Nothing beyond what the board shows.",)
        self._show_message(f"{state.game.title}", lines, Screen.PAUSE)

    def _leave_message(self) -> None:
        self.message = None
        if self.return_to is Screen.EVENTS and self.events_shown:
            self._goto(Screen.EVENTS)  # the events the message came over are still unread
        elif self.return_to in (Screen.THROW, Screen.MOVES, Screen.LOST, Screen.MANUAL, Screen.EVENTS):
            self._route()
        else:
            self._goto(self.return_to)

    # ------------------------------------------------------------------ games

    def _resume_choice(self, resume: bool) -> None:
        loaded = self.pending
        self.pending = None
        if loaded is None:
            self._goto(Screen.MENU)
            return
        try:
            journal = self.store.reopen(loaded)
        except OSError as exc:
            self._show_message("Cannot save games", (str(exc),), Screen.MENU)
            return
        outcome = loaded.state.outcome
        if outcome is not None:  # the winning move was saved, the power went before its end
            names = [loaded.game.player_name(w, loaded.players) for w in outcome.winners]
            _end(journal, "won", names)
        if not resume:
            if outcome is None:
                _end(journal, "abandoned", [])
            journal.close()
            self._goto(Screen.MENU)
            return
        self.game = loaded.game
        self.setup_players = loaded.players
        self.journal = journal
        self.actions = list(loaded.actions)
        self._rebuild()
        self.last_said = ("Game resumed.",)
        self._route()

    def _begin(self) -> None:
        assert self.setup_game is not None
        try:
            game = get_game(self.setup_game, **self.setup_options)
            journal = self.store.begin(game, self.setup_players)
        except RulesError as exc:
            self._show_message("Cannot start", (str(exc),), Screen.MENU)
            return
        except OSError as exc:
            self._show_message("Cannot save games", (str(exc),), Screen.MENU)
            return
        self.close()
        self.game = game
        self.journal = journal
        self.actions = []
        self._rebuild()
        self.last_said = ()
        self._route()

    def _setup_items(self) -> list[tuple[str, str]]:
        """The setup screen's rows: ``(key, label)``; key ``players``, an option name, ``begin``."""
        assert self.setup_game is not None
        cls = game_class(self.setup_game)
        rows: list[tuple[str, str]] = []
        if cls.max_players > cls.min_players:
            rows.append(("players", f"Players: {self.setup_players}"))
        for option in cls.options:
            if _choices(option):
                value = self.setup_options.get(option.name, option.default)
                rows.append((option.name, f"{option.name}: {_word(value)}"))
        rows.append(("begin", "Begin"))
        return rows

    def _setup_ok(self) -> None:
        assert self.setup_game is not None
        key = self._setup_items()[self.cursor][0]
        cls = game_class(self.setup_game)
        if key == "begin":
            self._begin()
        elif key == "players":
            span = cls.max_players - cls.min_players + 1
            self.setup_players = cls.min_players + (self.setup_players - cls.min_players + 1) % span
        else:
            option = next(o for o in cls.options if o.name == key)
            choices = _choices(option)
            value = self.setup_options.get(key, option.default)
            self.setup_options[key] = choices[(choices.index(value) + 1) % len(choices)]

    def _rebuild(self) -> None:
        """Replay :attr:`actions` from the start; remember the last throw's picture."""
        assert self.game is not None
        state = self.game.new_state(self.setup_players)
        picture = None
        for action in self.actions:
            if isinstance(action, Throw):
                spec = state.throw_spec
                assert spec is not None
                picture = picture_of(action, spec)
            state.apply(action)
        self.state = state
        self.picture = picture

    def _route(self) -> None:
        """Show the screen the game's position calls for."""
        state = self.state
        self.shaking = False
        if state is None:
            self._goto(Screen.MENU)
            return
        phase = state.phase
        if phase is Phase.OVER:
            self._goto(Screen.OVER)
        elif phase is Phase.THROW:
            if self.source == "manual":
                spec = state.throw_spec
                assert spec is not None
                self.manual_faces = [0] * len(_slots(spec))
                self.manual_slot = 0
                self._goto(Screen.MANUAL)
            else:
                self._goto(Screen.THROW)
        elif state.legal_moves() == [PASS]:
            self._goto(Screen.LOST)
        else:
            self._goto(Screen.MOVES)

    def _throw_drawn(self) -> None:
        state = self.state
        if state is None or state.throw_spec is None:
            return
        self._act(self.draw(state.throw_spec, len(self.actions)))

    def _throw_reported(self, event: ThrowReported) -> None:
        state = self.state
        if self.screen is not Screen.THROW or event.source != self.source or state is None:
            log.info("throw from %s ignored: no throw is due from it", event.source)
            return
        spec = state.throw_spec
        assert spec is not None
        try:
            if event.implement != spec.id:
                raise RulesError(f"it threw {event.implement}, the game needs {spec.describe()}")
            throw = spec.from_faces(event.faces)
        except RulesError as exc:
            self._show_message("Throw rejected", (str(exc), "Throw again."), Screen.THROW)
            return
        self._act(throw)

    def _act(self, action: Action) -> None:
        """Apply ``action``: on a copy first, then journal it (fsync), then keep it."""
        state = self.state
        assert state is not None and self.journal is not None
        by = state.player_to_act_name
        spec = state.throw_spec
        after = state.copy()
        try:
            events = after.apply(action)
        except RulesError as exc:
            self._show_message("Not allowed", (str(exc),), self.screen)
            return
        try:
            self.journal.append(by, action, events)
        except OSError as exc:
            self._show_message("Cannot save", (str(exc), "The action was not made."), self.screen)
            return
        self.state = after
        self.actions.append(action)
        if isinstance(action, Throw):
            assert spec is not None
            self.picture = picture_of(action, spec)
        outcome = after.outcome
        if outcome is not None:
            names = [after.game.player_name(w, after.players) for w in outcome.winners]
            _end(self.journal, "won", names)  # when it fails: added when next offered
        self._said(by, events)

    def _said(self, by: str, events: list[GameEvent]) -> None:
        texts = tuple(e.text for e in events)
        state = self.state
        if (
            state is not None
            and state.phase is not Phase.OVER
            and not all(self._shown(state).routine(e) for e in events)
        ):
            self.events_shown = texts
            self.events_by = by
            self.last_said = ()
            self._goto(Screen.EVENTS)
            return
        self.last_said = texts
        self._route()

    def _undo(self) -> None:
        if self.state is None or self.journal is None or self.screen in (
            Screen.MENU, Screen.SETUP, Screen.SPLASH, Screen.RESUME
        ):
            return
        # A throw alone is never taken back (that would be a free re-throw): only the
        # last confirmed move, with any throw made after it.
        moves = [i for i, a in enumerate(self.actions) if isinstance(a, Move)]
        keep = moves[-1] if moves else len(self.actions)
        count = len(self.actions) - keep
        if count == 0:
            self._show_message("Nothing to undo", ("No move has been made yet.",), self.screen)
            return
        undone = self.journal.records[-count:]
        try:
            self.journal.undo(count)
        except OSError as exc:
            self._show_message("Cannot save", (str(exc),), self.screen)
            return
        del self.actions[keep:]
        self._rebuild()
        first = undone[0]
        what = f"move {first['move']}" if "move" in first else "throw"
        self.last_said = ()
        self._show_message(
            "Undone",
            (f"{first.get('by', '')}'s {what} is taken back.",
             "Put the pieces back as they were."),
            Screen.MOVES,
        )

    def _end_game(self) -> None:
        over = self.state is not None and self.state.phase is Phase.OVER
        failed = None
        if self.journal is not None and not over:
            failed = _end(self.journal, "abandoned", [])
        self.close()
        self.game = self.state = None
        self._goto(Screen.MENU)
        if failed is not None:
            self._show_message("Cannot save", (failed, "The game is offered again at the next start."),
                               Screen.MENU)

    # ------------------------------------------------------------------ step by step

    def choices(self) -> list[tuple[str, Move | None]]:
        """The moves screen's items at the current step: ``(label, move)``, where OK
        plays ``move``, or goes one step further when it is ``None``.

        The legal moves whose :meth:`~companion.ui.games.Presenter.choice_steps` begin with
        :attr:`path` are grouped by their next label, in the order of
        :meth:`~companion.rules.State.legal_moves`. A label that only one move has and
        that is its last plays that move. A move whose steps end at :attr:`path` (it is
        also the beginning of longer moves) is offered first as ``play <notation>``.
        With the default one step per move this is the flat list of notations.
        """
        state = self.state
        if state is None:
            return []
        depth = len(self.path)
        prefix = tuple(self.path)
        here: Move | None = None
        groups: dict[str, list[Move]] = {}
        ends: dict[str, Move] = {}
        shown = self._shown(state)
        for move in state.legal_moves():
            steps = shown.choice_steps(state, move)
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

    # ------------------------------------------------------------------ manual entry

    def _manual_step(self, delta: int) -> None:
        assert self.state is not None and self.state.throw_spec is not None
        options = _slots(self.state.throw_spec)[self.manual_slot]
        self.manual_faces[self.manual_slot] = (self.manual_faces[self.manual_slot] + delta) % len(
            options
        )

    def _manual_ok(self) -> None:
        state = self.state
        assert state is not None
        spec = state.throw_spec
        if spec is None:
            self._route()
            return
        slots = _slots(spec)
        if self.manual_slot + 1 < len(slots):
            self.manual_slot += 1
            return
        throw = _assemble(spec, self.manual_faces)
        self._act(throw)

    # ------------------------------------------------------------------ the view

    def view(self) -> View:
        """What the screen shows now."""
        state = self.state
        name = state.player_to_act_name if state is not None else ""
        method: Callable[[State | None, str], View] = getattr(self, f"_view_{self.screen.value}")
        return method(state, name)

    def _view_splash(self, state: State | None, name: str) -> View:
        return View("splash", "board companion", (
            "A referee for Senet and the labyrinth games.", f"version {__version__}",
        ), hint="OK: start")

    def _view_resume(self, state: State | None, name: str) -> View:
        loaded = self.pending
        about: tuple[str, ...] = ()
        if loaded is not None:
            st = loaded.state
            doing = "over" if st.phase is Phase.OVER else (
                f"{st.player_to_act_name} to {st.phase.value}"
            )
            about = (loaded.game.title, doing)
        return View("resume", "Unfinished game", about, items=("Resume", "New game"),
                    cursor=self.cursor, hint="OK: choose")

    def _view_menu(self, state: State | None, name: str) -> View:
        titles = tuple(game_title(g) for g in self.games)
        return View("menu", "Choose a game", items=(*titles, "Settings"),
                    cursor=self.cursor, hint="OK: choose")

    def _view_setup(self, state: State | None, name: str) -> View:
        assert self.setup_game is not None
        cls = game_class(self.setup_game)
        game = get_game(self.setup_game, **self.setup_options)
        first = game.new_state(self.setup_players).player_to_act_name
        rows = self._setup_items()
        key = rows[min(self.cursor, len(rows) - 1)][0]
        hint = "OK: begin" if key == "begin" else "OK: change"
        # "throws first", not "starts": in most games the first throws decide who starts.
        about = f"{first} throws first."
        if key == "players":  # who plays, by the names the game gives them (colours)
            about = ", ".join(game.player_name(p, self.setup_players)
                              for p in range(self.setup_players))
        elif key != "begin":  # the whole name, which the row may cut
            about = f"{key} = {_word(self.setup_options.get(key, game.option(key)))}"
        return View("setup", cls.title, (about,),
                    items=tuple(label for _, label in rows), cursor=self.cursor, hint=hint)

    def _view_throw(self, state: State | None, name: str) -> View:
        assert state is not None and state.throw_spec is not None
        prompt = SOURCE_PROMPTS.get(self.source, "shake!")
        if self.source == "button" and not self.throw_button:
            prompt = "press OK"
        lines = [f"{name} to throw: {prompt}"]
        if self.shaking:
            lines = [f"{name} is shaking..."]
        trouble = self.source_trouble.get(self.source)
        if trouble:
            lines.append(trouble)
        lines += [f"({state.throw_spec.describe()})", *self._shown(state).status_brief(state), *self.last_said]
        return View("throw", state.game.title, tuple(lines), scroll=self.scroll,
                    hint="hold BACK: undo")

    def _view_manual(self, state: State | None, name: str) -> View:
        assert state is not None and state.throw_spec is not None
        spec = state.throw_spec
        slots = _slots(spec)
        shown = tuple(
            slots[i][self.manual_faces[i]] if i <= self.manual_slot else "?"
            for i in range(len(slots))
        )
        kind = kind_of(spec)
        if len(slots) == 1 and kind in ("card", "faces"):
            picture = ThrowPicture("faces", (shown[0],))
        else:
            picture = ThrowPicture(kind, shown, focus=self.manual_slot)
        what = {"sticks": "Stick", "dice": "Die", "coloured": "Stick"}.get(kind, "Throw")
        face = shown[self.manual_slot]
        word = {"L": "light", "D": "dark"}.get(face, face)
        entry = (f"{what} {self.manual_slot + 1} of {len(slots)}: {word}",
                 "UP/DOWN set, OK next")
        return View("manual", f"{name}: enter throw", entry, picture=picture,
                    hint="BACK: previous")

    def _marked(self, state: State | None) -> ThrowPicture | None:
        """The throw's picture with the faces the player may still use marked
        (:meth:`~companion.rules.State.usable_faces`)."""
        picture = self.picture
        if picture is None or state is None or state.phase is not Phase.MOVE:
            return picture
        usable = state.usable_faces()
        if len(usable) != len(picture.faces):
            return picture
        return replace(picture, usable=usable)

    def _view_moves(self, state: State | None, name: str) -> View:
        assert state is not None
        items = tuple(label for label, _ in self.choices())
        cap = f" {self.picture.caption}" if self.picture and self.picture.caption else ""
        title = f"{name} threw{cap}" if state.phase is Phase.MOVE else f"{name} decides"
        if self.path:
            # A step further: the steps chosen so far above the next choices (the
            # first and the last when there are more), no picture, to leave rows for them.
            path = self.path if len(self.path) <= 2 else [self.path[0], "...", self.path[-1]]
            return View("moves", title, (", ".join(path) + ":",), items=items,
                        cursor=self.cursor, hint="OK: choose BACK: back")
        question = self._shown(state).prompt(state)
        return View("moves", title, (question,) if question else (),
                    items=items,
                    cursor=self.cursor, picture=self._marked(state), hint="OK: move  BACK: menu")

    def _view_lost(self, state: State | None, name: str) -> View:
        cap = f" {self.picture.caption}" if self.picture and self.picture.caption else ""
        return View("lost", f"{name} threw{cap}",
                    ("No legal move:", "the throw is lost."),
                    picture=self._marked(state), hint="OK: next")

    def _view_events(self, state: State | None, name: str) -> View:
        return View("events", f"{self.events_by}'s move", self.events_shown, scroll=self.scroll,
                    hint="OK: next")

    def _view_over(self, state: State | None, name: str) -> View:
        assert state is not None and state.outcome is not None
        winners = " and ".join(state.game.player_name(w, state.players)
                               for w in state.outcome.winners)
        return View("over", "Game over", (f"{winners} wins!", state.outcome.reason,
                                          *self.last_said),
                    hint="OK: new game")

    def _view_settings(self, state: State | None, name: str) -> View:
        return View("settings", "Settings", items=(f"Throw: {self.source}", "Back"),
                    cursor=self.cursor, hint="OK: change")

    def _view_pause(self, state: State | None, name: str) -> View:
        return View("pause", "Paused", items=PAUSE_ITEMS, cursor=self.cursor,
                    hint="OK: choose")

    def _view_message(self, state: State | None, name: str) -> View:
        message = self.message or _Message("", ())
        return View("message", message.title, message.lines, scroll=self.scroll, hint="OK")


def _end(journal: Journal, reason: str, winners: list[str]) -> str | None:
    """Write ``journal``'s end record; the disk's error in words when it cannot (the
    game then stays unfinished in the journal, which loses nothing)."""
    try:
        journal.end(reason, winners)
    except OSError as exc:
        log.warning("journal %s: cannot record its end: %s", journal.path, exc)
        return str(exc)
    return None


def _choices(option: Option) -> tuple[Any, ...]:
    """The values the setup screen cycles through for ``option`` (none: not offered)."""
    if option.choices:
        return option.choices
    if isinstance(option.default, bool):
        return (True, False)
    return ()


def _word(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _slots(spec: Implement) -> list[list[str]]:
    """The values a person sets one after the other to enter a throw of ``spec``."""
    from companion.rules.throws import BinarySticks, ColouredSticks, Dice

    if isinstance(spec, BinarySticks):
        return [["L", "D"] for _ in range(spec.count)]
    if isinstance(spec, Dice):
        return [[str(v) for v in range(1, spec.sides + 1)] for _ in range(spec.count)]
    if isinstance(spec, ColouredSticks):
        return [[pair[0].token, pair[1].token] for pair in spec.sticks]
    return [[" ".join(t.faces) for t, _ in spec.outcomes()]]


def _assemble(spec: Implement, chosen: list[int]) -> Throw:
    slots = _slots(spec)
    kind = kind_of(spec)
    if kind in ("sticks", "dice", "coloured"):
        return spec.from_faces([slots[i][c] for i, c in enumerate(chosen)])
    return spec.outcomes()[chosen[0]][0]
