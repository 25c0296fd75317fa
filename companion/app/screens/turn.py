"""Whose turn it is: the screen a position calls for (:func:`for_position`, a pure
choice), and the computer's turn: the :class:`Thinking` screen while the worker draws
its throw or searches (:mod:`companion.app.worker`), then its move shown
(:class:`ComputerMove`) for the table to make; the hint's search."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.app.screens.base import Next, Page, Screen, Seat, ToPause
from companion.app.screens.play import (
    UNCHOSEN,
    BoardPage,
    Lost,
    Manual,
    Moves,
    Over,
    Throwing,
    act,
    picture_marked,
    threw_title,
)
from companion.devices.events import SourceName
from companion.i18n import _
from companion.rules import PASS, Move, Phase, State
from companion.ui.games.boards import board_or_none
from companion.ui.rules_words import say
from companion.ui.view import View

if TYPE_CHECKING:
    import threading

WORKER_SLACK = 40
"""On the worker the computer's search may take this many times its level's time
budget (strong: 10 s instead of 250 ms): a safety net only, so that the node budget,
not the clock, ends the search and the same position gets the same move on every Pi
(a Pi Zero 2 W is 8-12x slower per core than a desktop). The buttons answer meanwhile."""


def computer_move(state: State, level: str, cancel: threading.Event | None = None) -> Move:
    """The computer's move (:func:`companion.ai.player.choose` at ``level``, within the
    level's node budget; the time budget stretched by :data:`WORKER_SLACK`). Work for
    the worker: it may take a second on a Pi Zero. ``cancel``: the worker's flag, set
    when the service stops.

    :raises ValueError: an unknown level.
    :raises Cancelled: when ``cancel`` is set before the search ends.
    """
    from companion.ai.player import choose, get_level

    budget = get_level(level).budget_s
    return choose(state, level, budget_s=None if budget is None else budget * WORKER_SLACK,
                  cancel=cancel).move


@dataclass
class ComputerMove(Page):
    """The computer's move or decision, for the players to make on the real board:
    OK once its pieces are moved plays it; THROW (or DOWN) shows it on the board. With
    a camera over the board, the move is played when the board shows it, and a board
    that shows something else is named (``lines``, set by the controller; issue 34),
    in place of the instruction (the panel has room for little below the throw)."""

    kind = Screen.COMPUTER
    move: Move | None = None
    lines: tuple[str, ...] = ()
    """What the camera found wrong on the board, in words (empty: nothing)."""

    def view(self, seat: Seat) -> View:
        assert self.move is not None
        return View("computer", threw_title(seat), (
            _("Computer: {move}").format(move=seat.presenter.move_words(seat.position, self.move)),
            *(self.lines or (_("Move its piece, then OK."),)),
        ), picture=picture_marked(seat), hint=_("OK: done THROW: board"))

    def ok(self, seat: Seat) -> Next:
        assert self.move is not None
        return act(seat, self.move)

    def step(self, seat: Seat, delta: int, repeat: bool) -> Next:
        return self.throw_pressed(seat)

    def throw_pressed(self, seat: Seat) -> Next:
        if board_or_none(seat.position) is None:
            return None
        return BoardPage(move=self.move, back_to=self, plays="done")

    def back(self, seat: Seat) -> Next:
        return ToPause(after=self)


@dataclass
class Thinking(Page):
    """The computer is at work (:mod:`companion.app.worker`): drawing its throw
    (``job`` ``throw``), choosing its move (``move``) or the hint (``hint``). The
    buttons still answer: BACK opens the pause menu (a result that comes back after the
    screen was left is dropped, and asked for again when the game is shown anew).
    ``ticket`` numbers the request whose result this screen awaits."""

    kind = Screen.THINKING
    job: str = "move"
    ticket: int = 0
    back_to: Page | None = None
    """The hint's: the pause menu it was asked from, where BACK and the hint's OK lead
    (its cursor still on "Hint"); ``None``: a new pause menu, and the hint leads to the
    game."""

    def view(self, seat: Seat) -> View:
        if self.job == "hint":
            return View("thinking", _("Hint"), (_("Thinking..."),), hint=_("BACK: menu"))
        state = seat.position
        doing = _("{player} (computer) throws...") if self.job == "throw" else _(
            "{player} (computer) is thinking...")
        return View("thinking", say(state.game.title),
                    (doing.format(player=say(state.player_to_act_name)),
                     *seat.said),
                    hint=_("BACK: menu"), scroll=self.scroll)

    def back(self, seat: Seat) -> Next:
        return self.back_to if self.back_to is not None else ToPause()


def for_position(state: State, seats: Mapping[int, str], *, source: str,
                 computer_draws: bool) -> Page:
    """The screen ``state`` calls for, with ``seats`` the computer plays (player index:
    level), ``source`` the throw source in use and ``computer_draws`` whether the
    computer's throws are drawn for it (else shaken for it). A pure choice: on the
    computer's turn it is a :class:`Thinking` screen, whose work the controller starts."""
    phase = state.phase
    computer = seats.get(state.current_player)
    if computer is not None and phase is Phase.THROW and computer_draws:
        return Thinking(job="throw")
    if (computer is not None and phase in (Phase.MOVE, Phase.DECIDE)
            and tuple(state.legal_moves()) != (PASS,)):
        return Thinking(job="move")
    if phase is Phase.OVER:
        return Over()
    if phase is Phase.THROW:
        if source == SourceName.MANUAL:
            spec = state.throw_spec
            assert spec is not None
            return Manual(faces=[UNCHOSEN] * len(spec.entry_slots()))
        return Throwing()
    if tuple(state.legal_moves()) == (PASS,):
        return Lost()
    return Moves()


def hint_lines(state: State, seats: Mapping[int, str],
               cancel: threading.Event | None = None) -> tuple[str, ...]:
    """The hint for the person to act in ``state``: the move the computer plays at the
    level of the game's computer seat (``seats``: player index to level; none:
    ``normal``; :func:`companion.ai.player.hint_level`) and the person's chance to win
    after it, that move's searched value (:func:`companion.ai.player.hint`: one search
    at one depth, the ranking the tutor uses too). Work for the worker: it searches.
    ``cancel``: the worker's flag, set when the service stops.

    :raises Cancelled: when ``cancel`` is set before the search ends.
    """
    from companion.ai.player import hint, hint_level

    found = hint(state, hint_level(seats), cancel)
    chance = round(100 * found.value)
    return (
        _("Best: {move}").format(move=say(found.move.notation)),
        _("{player}'s chance to win after it: about {percent}%").format(
            player=say(state.player_to_act_name), percent=chance),
    )


__all__ = ["WORKER_SLACK", "ComputerMove", "Thinking", "computer_move", "for_position", "hint_lines"]
