"""The screens of a game in play: the throw (by a source or by hand), the moves, a
lost throw, what a move did, the end, the board; making an action and showing what
it did (:func:`act`). The computer's turn is in :mod:`.turn`."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from companion.app.events import ThrowReported
from companion.app.screens.base import IN_GAME, Message, Next, Page, Route, Screen, Seat, ToPause
from companion.app.screens.review import percent_sign
from companion.devices.events import SourceName
from companion.devices.sources import DRAWN_BY_SERVICE
from companion.i18n import N_, _
from companion.rules import PASS, Action, Move, Phase, RulesError, State
from companion.ui.font import wrap
from companion.ui.games.boards import board_model, board_or_none, board_preview, inventory_pages
from companion.ui.render import board_size
from companion.ui.review_words import move_words
from companion.ui.rules_words import say
from companion.ui.view import ThrowPicture, View, picture_of

SPOKEN_WIDTH = 200
"""Characters: a row said aloud is worded as on a panel this wide (no shorter form)."""

if TYPE_CHECKING:
    import threading
    from collections.abc import Mapping

SOURCE_PROMPTS = {
    SourceName.GPIO_SHAKER: N_("{player} to throw: shake!"),
    SourceName.SERIAL_SHAKER: N_("{player} to throw: shake!"),
    SourceName.BUTTON: N_("{player} to throw: press THROW"),
}
"""The throw screen's first line by source, in English (shown with :func:`_`)."""

@dataclass
class Throwing(Page):
    """A throw is due from a shaker or the THROW button."""

    kind = Screen.THROW
    shaking: bool = False

    def view(self, seat: Seat) -> View:
        state = seat.position
        spec = state.throw_spec
        assert spec is not None
        name = say(state.player_to_act_name)
        source = seat.source
        prompt = SOURCE_PROMPTS.get(source, N_("{player} to throw: shake!"))
        if source == SourceName.BUTTON and not seat.throw_button:
            prompt = N_("{player} to throw: press OK")
        lines = [_(prompt).format(player=name)]
        if self.shaking:
            # As many panel lines as the prompt took, so the lines under it stay where
            # they were: only the changed words go over the bus (issue 35), and nothing
            # on the panel jumps while the shaker is shaken.
            shaking = _("{player} is shaking...").format(player=name)
            width = seat.presenter.width
            lines = [shaking, *[""] * (len(wrap(lines[0], width)) - len(wrap(shaking, width)))]
        trouble = seat.source_trouble.get(source)
        if trouble:
            lines.append(trouble)
        lines += [f"({say(spec.describe())})", *seat.presenter.status_brief(state),
                  *seat.said]
        return View("throw", say(state.game.title), tuple(lines), scroll=self.scroll,
                    hint=_("hold BACK: undo"))

    def ok(self, seat: Seat) -> Next:
        if seat.source == SourceName.BUTTON and not seat.throw_button:
            return throw_drawn(seat)
        return None

    def back(self, seat: Seat) -> Next:
        return ToPause()

    def throw_pressed(self, seat: Seat) -> Next:
        return self.thrown(seat, "", button=True)

    def reported(self, seat: Seat, event: ThrowReported) -> Next:
        """A source that draws its own throws (the serial shaker) reports one: what to
        show next (a throw the game cannot use: a message, after which it is thrown
        again)."""
        spec = seat.position.throw_spec
        assert spec is not None
        try:
            if event.implement != spec.id:
                raise RulesError(f"it threw {event.implement}, the game needs {spec.describe()}")
            throw = spec.from_faces(event.faces)
        except RulesError as exc:
            return Message(title=_("Throw rejected"), lines=(str(exc), _("Throw again.")))
        return act(seat, throw)

    def thrown(self, seat: Seat, source: str, button: bool) -> Next:
        """The THROW button (``button``) or a shaker ``source`` says: throw now (when
        the source in use is that one); what to show next."""
        if (source == seat.source and not button) or (button and seat.source in DRAWN_BY_SERVICE):
            return throw_drawn(seat)
        return None


@dataclass
class Manual(Page):
    """The players threw their own sticks or dice: each face is entered in turn
    (:meth:`~companion.rules.Implement.entry_slots`). Each slot starts with no value
    chosen (:data:`UNCHOSEN`): UP/DOWN choose one, and an OK before that records
    nothing but asks to choose (a stray OK never enters a 1)."""

    kind = Screen.MANUAL
    faces: list[int] = field(default_factory=list)
    """The face index chosen in each slot (:data:`UNCHOSEN`: none yet)."""
    slot: int = 0
    asked: bool = False
    """OK was pressed before a value was chosen: the screen asks to choose."""

    def view(self, seat: Seat) -> View:
        state = seat.position
        spec = state.throw_spec
        assert spec is not None
        slots = spec.entry_slots()
        faces = self._faces(len(slots))
        shown = tuple(
            slots[i][faces[i]] if i <= self.slot and faces[i] != UNCHOSEN else "?"
            for i in range(len(slots))
        )
        chosen = faces[self.slot] != UNCHOSEN
        kind = spec.kind
        face = shown[self.slot]
        hint = _("UP/DOWN set, OK next")
        if not chosen:
            hint = _("Choose with UP/DOWN.") if self.asked else _("UP/DOWN: choose")
        if not chosen:
            words = "?"
        elif kind == "card":  # a card by its name, not its deck key
            words = seat.presenter.face_words(state, face)
        else:
            words = say(spec.entry_words(face))
        picture: ThrowPicture | None
        if kind == "sticks":  # by score: the sticks of that score, the score in words
            if chosen:
                throw = spec.from_slots(faces)
                picture = ThrowPicture(kind, throw.faces, str(throw.values[0]))
                entry: tuple[str, ...] = (words, _("UP/DOWN set, OK enter"))
            else:
                picture = None
                entry = (_("Score: ?"), hint)
        else:
            if len(slots) == 1 and kind == "card":
                picture = ThrowPicture("card", (words,))
            elif len(slots) == 1 and kind == "faces":
                picture = ThrowPicture("faces", (shown[0],))
            else:
                picture = ThrowPicture(kind, shown, focus=self.slot)
            what = {"dice": N_("Die {slot} of {slots}: {face}"),
                    "coloured": N_("Stick {slot} of {slots}: {face}")}.get(
                kind, N_("Throw {slot} of {slots}: {face}"))
            entry = (_(what).format(slot=self.slot + 1, slots=len(slots), face=words), hint)
        return View("manual", _("{player}: enter throw").format(player=say(state.player_to_act_name)),
                    entry, picture=picture,
                    hint=_("BACK: previous") if self.slot else _("BACK: menu"))

    def _faces(self, n: int) -> list[int]:
        """:attr:`faces`, one per slot (a slot not set yet: :data:`UNCHOSEN`)."""
        if len(self.faces) != n:
            self.faces = [*self.faces[:n], *[UNCHOSEN] * (n - len(self.faces))]
        return self.faces

    def step(self, seat: Seat, delta: int, repeat: bool) -> Next:
        spec = seat.position.throw_spec
        assert spec is not None
        options = spec.entry_slots()[self.slot]
        faces = self._faces(len(spec.entry_slots()))
        if faces[self.slot] == UNCHOSEN:  # the first press: the first (or, UP, the last) value
            faces[self.slot] = 0 if delta > 0 else len(options) - 1
        else:
            faces[self.slot] = (faces[self.slot] + delta) % len(options)
        self.asked = False
        return None

    def ok(self, seat: Seat) -> Next:
        spec = seat.position.throw_spec
        if spec is None:
            return Route()
        faces = self._faces(len(spec.entry_slots()))
        if faces[self.slot] == UNCHOSEN:  # nothing chosen: nothing recorded, ask
            self.asked = True
        elif self.slot + 1 < len(spec.entry_slots()):
            self.slot += 1
        else:
            return act(seat, spec.from_slots(faces))
        return None

    def back(self, seat: Seat) -> Next:
        self.asked = False
        if self.slot > 0:
            self.slot -= 1
            return None
        return ToPause()


UNCHOSEN = -1
"""A slot of :class:`Manual` whose value is not chosen yet."""


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

    def spoken(self, seat: Seat, row: int) -> str:
        """Row ``row``'s label for the ear: worded as on a panel :data:`SPOKEN_WIDTH`
        characters wide, so nothing is left out for room (issue 35: "2 to 15 river,
        takes" lost whom it takes); the shown label where the row plays a move (the
        voice says the move) or has no step words."""
        label, move, moves = self.rows(seat)[row]
        if move is not None or not moves:
            return label
        steps = type(seat.presenter)(SPOKEN_WIDTH).choice_steps(seat.position, moves[0])
        depth = len(self.path)
        return steps[depth] if depth < len(steps) else label

    def choices(self, seat: Seat) -> list[tuple[str, Move | None]]:
        """Each row's label and the move it plays (``None``: it narrows the choice; see
        :meth:`rows`)."""
        return [(label, move) for label, move, _ in self.rows(seat)]

    def rows(self, seat: Seat) -> list[tuple[str, Move | None, tuple[Move, ...]]]:
        """The items at the current step: ``(label, move, moves)``, where OK plays
        ``move``, or goes one step further when it is ``None``; ``moves`` are the legal
        moves the row leads to (what THROW previews).

        The legal moves whose steps begin with :attr:`path` are grouped by their next
        label, in the order of :meth:`~companion.rules.State.legal_moves`. A label that
        only one move has and that is its last plays that move. A move whose steps end
        at :attr:`path` (it is also the beginning of longer moves) is offered first as
        ``play <notation>``. With one step per move this is the flat list of notations.
        """
        state = seat.position
        presenter = seat.presenter
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
        items: list[tuple[str, Move | None, tuple[Move, ...]]] = []
        if here is not None:
            items.append((_("play {move}").format(move=say(here.notation)), here, (here,)))
        for label, moves in groups.items():
            items.append((label, moves[0] if len(moves) == 1 and label in ends else None, tuple(moves)))
        return items

    def items(self, seat: Seat) -> tuple[str, ...]:
        return tuple(label for label, _ in self.choices(seat))

    def view(self, seat: Seat) -> View:
        state = seat.position
        title = threw_title(seat)
        items = self.items(seat)
        if self.path:
            # A step further: the steps chosen so far above the next choices (the
            # first and the last when there are more), no picture, to leave rows for them.
            path = self.path if len(self.path) <= 2 else [self.path[0], "...", self.path[-1]]
            return View("moves", title, (", ".join(path) + ":",), items=items,
                        cursor=self.cursor, hint=_("OK: choose BACK: back"))
        question = seat.presenter.prompt(state)
        return View("moves", title, (question,) if question else (), items=items,
                    cursor=self.cursor, picture=picture_marked(seat),
                    hint=_("OK: choose BACK: menu"))

    def ok(self, seat: Seat) -> Next:
        items = self.choices(seat)
        if 0 <= self.cursor < len(items):
            label, move = items[self.cursor]
            if move is not None:
                return play_checked(seat, move, self)
            # one step further: the moves that go on with this label
            self.path.append(label)
            self.path_cursors.append(self.cursor)
            self.cursor = 0
        return None

    def back(self, seat: Seat) -> Next:
        if self.path:
            self.path.pop()
            self.cursor = self.path_cursors.pop()
            return None
        return ToPause(after=self)

    def point_at(self, seat: Seat, move: Move) -> bool:
        """Put the cursor on the row that plays ``move``, the steps before it chosen
        (the camera found it, issue 34); ``False`` (nothing changed) when no row leads to
        it."""
        path: list[str] = []
        cursors: list[int] = []
        saved = (self.path, self.path_cursors, self.cursor)
        self.path, self.path_cursors = path, cursors
        for _depth in range(64):  # a move has a few steps; the bound is a guard
            rows = self.rows(seat)
            row = next((i for i, (_l, m, ms) in enumerate(rows) if m == move), None)
            if row is not None:
                self.cursor = row
                return True
            row = next((i for i, (_l, m, ms) in enumerate(rows) if m is None and move in ms), None)
            if row is None:
                break
            path.append(rows[row][0])
            cursors.append(row)
        self.path, self.path_cursors, self.cursor = saved
        return False

    def highlighted(self, seat: Seat) -> Move | None:
        """The move under the cursor when the cursor's row plays one (else ``None``)."""
        items = self.choices(seat)
        return items[self.cursor][1] if 0 <= self.cursor < len(items) else None

    def throw_pressed(self, seat: Seat) -> Next:
        """THROW on the moves screen: the board with the piece and the landings of the
        moves the cursor's row leads to (OK there plays the row's move when it plays
        one, as its key line says; BACK comes back here)."""
        if board_or_none(seat.position) is None:
            return None
        move = self.highlighted(seat)
        rows = self.rows(seat)
        moves = rows[self.cursor][2] if 0 <= self.cursor < len(rows) else ()
        return BoardPage(move=move, back_to=self, moves=moves,
                         plays="play" if move is not None else "")


@dataclass
class Lost(Page):
    """No legal move: the throw is lost."""

    kind = Screen.LOST

    def view(self, seat: Seat) -> View:
        why = seat.presenter.lost_reason(seat.position)
        lines = (_("The throw is lost:"), why) if why else (_("No legal move:"), _("the throw is lost."))
        title = _("{player} threw{score}").format(player=say(seat.position.player_to_act_name),
                                                  score=caption(seat))
        return View("lost", title, lines,
                    picture=picture_marked(seat), hint=_("OK: next"), scroll=self.scroll)

    def ok(self, seat: Seat) -> Next:
        return act(seat, PASS)

    def back(self, seat: Seat) -> Next:
        return ToPause()


@dataclass
class Events(Page):
    """What a move did, in words, when something beyond the routine happened."""

    kind = Screen.EVENTS
    by: str = ""
    texts: tuple[str, ...] = ()

    def view(self, seat: Seat) -> View:
        return View("events", _("{player}'s move").format(player=say(self.by)),
                    self.texts, scroll=self.scroll, hint=_("OK: next"))

    def ok(self, seat: Seat) -> Next:
        return Route()

    def back(self, seat: Seat) -> Next:
        return ToPause()


@dataclass
class Over(Page):
    """The end of a game: who won and why. OK begins anew; BACK opens the pause menu with
    its cursor on "Review" (the game reviewed on the worker, :class:`Reviewing`), where
    the winning move can also be taken back."""

    kind = Screen.OVER

    def view(self, seat: Seat) -> View:
        state = seat.position
        assert state.outcome is not None
        names = [say(state.game.player_name(w, state.players)) for w in state.outcome.winners]
        if len(names) == 1:
            won = _("{player} wins!").format(player=names[0])
        else:
            won = _("{players} win!").format(players=_("{first} and {last}").format(
                first=", ".join(names[:-1]), last=names[-1]))
        return View("over", _("Game over"), (won, say(state.outcome.reason),
                                            *seat.said),
                    hint=_("OK: new  BACK: review"), scroll=self.scroll)

    def ok(self, seat: Seat) -> Next:
        return seat.end_game()

    def back(self, seat: Seat) -> Next:
        return ToPause(after=self)


@dataclass
class BoardPage(Page):
    """The position as a board picture (:mod:`companion.ui.games.boards`) under a title,
    with a key line; a move's piece and where it lands inverted when ``move`` is given.

    An information page (``plays`` empty: the pause menu's "Board", the board shown on
    resuming) never acts: OK and BACK close it. A preview that may play (``plays``, the
    key's word: ``"play"`` from the moves screen, ``"done"`` for the computer's move)
    plays ``move`` on OK and says so on its key line. BACK goes back to ``back_to``
    (``None``: what the position calls for). UP/DOWN turn to the inventories where a
    game has them (the Cretan Labyrinth)."""

    kind = Screen.BOARD
    move: Move | None = None
    back_to: Page | None = None
    plays: str = ""
    """The word for what OK does ("play"): empty for an information page, whose OK
    only closes it."""
    moves: tuple[Move, ...] = ()
    """The moves a row of the moves screen leads to, previewed (not played) together."""

    def view(self, seat: Seat) -> View:
        state = seat.position
        if self.moves:
            board = board_preview(state, self.moves)
        else:
            board = board_model(state, highlight=self.move)
        title = say(state.game.title)
        if self.move is not None:
            title = _("{player}: {move}").format(player=say(state.player_to_act_name),
                                                 move=say(self.move.notation))
        if self.plays and self.move is not None:
            hint = _(PLAYS_KEYS.get(self.plays, "OK: {plays}  BACK: back")).format(plays=self.plays)
        elif self._pages(seat) > 1:
            hint = _("OK: back  DOWN: more")
        else:
            hint = _("OK: back") if self.back_to is not None else _("OK: go on")
        return View("board", title, board=board, page=self.scroll, hint=hint)

    def _pages(self, seat: Seat) -> int:
        """The board and its inventory pages (1: the board alone)."""
        probe = View("board", "board", hint="keys")  # the room a board view leaves
        return 1 + inventory_pages(board_model(seat.position), board_size(probe, seat.size))

    def step(self, seat: Seat, delta: int, repeat: bool) -> Next:
        self.scroll = (self.scroll + delta) % self._pages(seat)
        return None

    def ok(self, seat: Seat) -> Next:
        if self.plays == "play" and self.move is not None:  # a person's move: the tutor may ask
            return play_checked(seat, self.move,
                                self.back_to if isinstance(self.back_to, Moves) else self)
        if self.plays and self.move is not None:
            return act(seat, self.move)
        return self.back(seat)  # an information page never acts

    def back(self, seat: Seat) -> Next:
        if self.back_to is None:
            return Route()
        if self.back_to.kind in IN_GAME:  # the same screen, its cursor kept
            return self.back_to
        return self.back_to.again()


@dataclass
class BoardCheck(Page):
    """A resumed game's board checked by the camera over it (issue 34): the camera looks
    (on the worker) until the board shows the journal's position, and every square that
    differs is named (``lines``, set by the controller from the camera's last look, and
    said aloud); the board matching, play goes on. OK goes on anyway; BACK opens the
    pause menu (its "Board" shows the position)."""

    kind = Screen.BOARD_CHECK
    lines: tuple[str, ...] = ()
    """What the camera's last look found wrong, in words (empty: nothing read yet)."""

    def view(self, seat: Seat) -> View:
        return View("board-check", _("Check the board"),
                    self.lines or (_("Looking at the board..."),), scroll=self.scroll,
                    hint=_("OK: go on BACK: menu"))

    def ok(self, seat: Seat) -> Next:
        return Route()

    def back(self, seat: Seat) -> Next:
        return ToPause(after=self)


def picture_marked(seat: Seat) -> ThrowPicture | None:
    """The last throw's picture with the faces the player may still use marked
    (:meth:`~companion.rules.State.usable_faces`) while a throw is being played."""
    table = seat.table
    if table is None or table.last_throw is None:
        return None
    picture = picture_of(*table.last_throw)
    if picture.kind == "card":  # a card by its name, not its deck key
        picture = replace(picture, faces=tuple(seat.presenter.face_words(table.state, f) for f in picture.faces))
    if table.state.phase is not Phase.MOVE:
        return picture
    usable = table.state.usable_faces()
    if len(usable) != len(picture.faces):
        return picture
    return replace(picture, usable=usable)


# ---------------------------------------------------------------------- the game's flow


def throw_drawn(seat: Seat) -> Next:
    """Draw a throw of the implement due and make it (:func:`act`); none due: ``None``."""
    throw = seat.draw_throw()
    return act(seat, throw) if throw is not None else None


def act(seat: Seat, action: Action) -> Next:
    """Make ``action`` in the game in play; what to show then: what it did when something
    notable happened (and the game goes on), else what the position calls for. Refused
    (or not saved): the message that says so."""
    played = seat.act(action)
    if isinstance(played, Message):
        return played
    if played.notable and seat.position.phase is not Phase.OVER:
        return Events(by=played.by, texts=played.texts)
    return Route()


PLAYS_KEYS = {"play": N_("OK: play  BACK: back"), "done": N_("OK: done  BACK: back")}
"""The board preview's key line by what its OK does (:attr:`BoardPage.plays`)."""


def threw_title(seat: Seat) -> str:
    """The title of a move's screen: who threw what (``Black threw 4``), or who
    decides."""
    name = say(seat.position.player_to_act_name)
    if seat.position.phase is Phase.MOVE:
        return _("{player} threw{score}").format(player=name, score=caption(seat))
    return _("{player} decides").format(player=name)


# ---------------------------------------------------------------------- the tutor


def play_checked(seat: Seat, move: Move, back_to: Page) -> Next:
    """Play a person's ``move``, unless the tutor (:attr:`~companion.app.settings.Prefs.tutor`)
    asks first: when it gives away more than ``tutor_share`` of the mover's chance to
    win against the best move, :class:`TutorConfirm` asks; while the worker is still
    valuing the moves, :class:`Checking` waits for it. ``back_to``: the page a "No" or
    BACK returns to (the moves). What to show next."""
    loss = seat.tutor_loss(move)
    if loss is None:
        return Checking(move=move, back_to=back_to)
    if loss > seat.prefs.tutor_share:
        return TutorConfirm(move=move, loss=loss, back_to=back_to)
    return act(seat, move)


def tutor_losses(state: State, cancel: threading.Event | None = None,
                 seats: Mapping[int, str] | None = None) -> tuple[tuple[str, float], ...]:
    """Every legal move's notation with the share of the mover's chance to win (0..1)
    it gives away against the best move, by the hint's ranking
    (:func:`companion.ai.player.hint` at the level of the game's computer seat in
    ``seats``, else ``normal``): the move the hint names loses 0. Work for the worker:
    milliseconds here (casting-stick Senet: up to some tens), up to a second on a Pi
    Zero. ``cancel``: the worker's flag, set when the service stops
    (:class:`~companion.ai.search.Cancelled`)."""
    from companion.ai.player import hint, hint_level

    return tuple(hint(state, hint_level(seats or {}), cancel).losses().items())


@dataclass
class _TutorPage(Page):
    """A tutor's page about a person's ``move``; BACK returns to ``back_to`` (the
    moves), or to what the position calls for."""

    move: Move | None = None
    back_to: Page | None = None

    def back(self, seat: Seat) -> Next:
        return Route() if self.back_to is None else self.back_to


@dataclass
class Checking(_TutorPage):
    """OK chose a person's move before the worker finished valuing the moves for the
    tutor: a short wait; the controller goes on (plays it or asks) when the values come.
    BACK returns to the moves (``back_to``)."""

    kind = Screen.CHECKING

    def view(self, seat: Seat) -> View:
        return View("checking", _("Tutor"), (_("Checking..."),), hint=_("BACK: moves"))


@dataclass
class TutorConfirm(_TutorPage):
    """The tutor asks before a move that gives away more than the set share of the
    chance to win: "No" (the cursor's place: a stray OK keeps the choice open) returns
    to the moves, "Yes" plays it; BACK is "No"."""

    kind = Screen.TUTOR
    loss: float = 0.0
    """The share of the mover's chance to win the move gives away, 0..1."""

    def items(self, seat: Seat) -> tuple[str, ...]:
        return (_("No, choose again"), _("Yes, play it"))

    def view(self, seat: Seat) -> View:
        assert self.move is not None
        return View("tutor", _("Tutor: {move}").format(move=move_words(self.move.notation)),
                    (_("It loses {lost} chance to win. Play it?").format(lost=percent_sign(self.loss)),),
                    items=self.items(seat), cursor=self.cursor, hint=_("OK: choose"))

    def ok(self, seat: Seat) -> Next:
        if self.cursor % 2 and self.move is not None:
            return act(seat, self.move)
        return self.back(seat)


def caption(seat: Seat) -> str:
    """The last throw's score for a title (``" 2+3"``), or ``""``."""
    picture = picture_marked(seat)
    return f" {picture.caption}" if picture and picture.caption else ""


__all__ = [
    "SOURCE_PROMPTS", "UNCHOSEN", "BoardCheck", "BoardPage", "Checking", "Events", "Lost", "Manual", "Moves", "Over",
    "Throwing", "TutorConfirm", "act", "caption", "picture_marked", "play_checked", "threw_title",
    "throw_drawn", "tutor_losses",
]

