"""What the Game of the Labyrinth shows on the companion (docs/rules/labyrinth.md, "On the
companion"): who starts so far, the free orbit die, the dice still to use, trapped
pieces and pieces borne off; the questions of the Knight's Orbit and the Millstone; the
start throws as routine events."""

from __future__ import annotations

import functools
from collections import Counter
from typing import ClassVar

from PIL import Image

from companion.i18n import N_, _
from companion.rules import Event, Move, PieceZone, State
from companion.rules.labyrinth import EV_START_THROW, LabyrinthState
from companion.ui.games import Presenter, fit, wording
from companion.ui.games.boards import labyrinth as pictures
from companion.ui.games.boards.model import Board
from companion.ui.rules_words import say


def _labyrinth(state: State) -> LabyrinthState:
    if not isinstance(state, LabyrinthState):
        raise TypeError(f"expected a Labyrinth position, got {state!r}")
    return state


class LabyrinthPresenter(Presenter):
    """The Game of the Labyrinth on a panel :attr:`width` characters wide."""

    voice: ClassVar[str] = "companion.speech.games.labyrinth:LabyrinthVoice"

    option_labels: ClassVar[dict[str, str]] = {
        "board": N_("Board"),
        "double-one-enters-two": N_("1+1 enters two"),
        "ride-after-tunnel": N_("Tunnel then ride"),
        "field-52": N_("At 52"),
        "ride-to-52": N_("Ride ends 52"),
    }

    @classmethod
    def board_model(cls, state: State, highlight: Move | None) -> Board:
        """The board picture's model of the position (:mod:`companion.ui.games.boards.labyrinth`)."""
        if not isinstance(state, LabyrinthState):
            raise TypeError(f"expected a Labyrinth position, got {state!r}")
        return pictures.board_model(state, highlight)

    @classmethod
    def draw(cls, board: Board, size: tuple[int, int], blink: bool) -> Image.Image:
        """The OLED picture of the board (:mod:`companion.ui.games.boards.labyrinth`)."""
        return pictures.draw(board, size, blink)

    def lost_reason(self, state: State) -> str:
        """Seed 000: a piece enters only on the entry value (a 1 on the default board);
        trapped pieces do not move; otherwise no piece can use either die."""
        assert isinstance(state, LabyrinthState)
        me = state.current_player
        mine = [p for p in state.pieces() if p.player == me]
        entry = state.game.board.entry_value
        if mine and all(p.zone is PieceZone.OUTSIDE for p in mine):
            return _("A piece enters only on a {value}.").format(value=entry)
        if any(player == me for player, _f, _t in state.trapped()):
            return _("The pieces on the board are trapped, and no piece can use this throw.")
        return _("No piece can use either die.")
    value_words: ClassVar[dict[str, str]] = {
        "trap-then-tunnel": N_("trap first"),
        "tunnel-then-trap": N_("tunnel first"),
    }

    def status_lines(self, state: State) -> list[str]:
        """What the board does not show. While who starts is thrown: the throws so far
        (``Red 3/Blue 5/Green 5``), or ``Highest die starts.`` / ``Tie: throw again.``
        before the first of a round. In play: the free orbit die when it is due
        (``Free die for a ride``, ``on the Orbit from 7``), the question being asked,
        the dice still to use (``Still to use: 4``), every trapped piece with the turns
        it still loses (``Red on 13 loses 2``), the pieces each player has borne off
        (``Off: Red 3, Blue 1``). Empty when there is nothing to say."""
        st = _labyrinth(state)
        w = self.width
        names = [say(st.game.player_name(p, st.players)) for p in range(st.players)]
        lines: list[str] = []
        if st.throwing_for_start:
            if not st.start_throws():
                lines.append(
                    wording(w, _("Tie: throw again."), _("Tie: again."))
                    if st.start_rethrow()
                    else wording(w, _("Highest die starts."), _("Highest starts."))
                )
            lines += _packed([f"{names[p]} {v}" for p, v in st.start_throws()], "/", w)
            return self.fitted(lines)
        waiting = st.waiting_for()
        if waiting is not None:
            what, f = waiting
            if what == "orbit-die":
                lines += [wording(w, _("Free die for a ride"), _("Free die: ride")),
                          wording(w, _("on the Orbit from {square}").format(square=f),
                                  _("Orbit from {square}").format(square=f))]
            elif what == "ride":
                lines.append(wording(w, _("Orbit ride from {square}?").format(square=f),
                                     _("Ride from {square}?").format(square=f)))
            else:
                lines.append(wording(w, _("Cross the Millstone?"), _("Cross Millstone?"), _("Cross?")))
        if st.values:
            dice = functools.reduce(lambda a, b: _("{first} and {last}").format(first=a, last=b),
                                    map(str, st.values))
            lines.append(wording(w, _("Still to use: {dice}").format(dice=dice),
                                 _("To use: {dice}").format(dice=dice)))
        # 'lose 2 turns': the turns a trapped piece still loses.
        lines += [wording(w, _("{player} on {square} loses {turns}").format(
                              player=names[p], square=f, turns=t),
                          _("{player} {square} loses {turns}").format(
                              player=names[p], square=f, turns=t))
                  for p, f, t in st.trapped()]
        off = Counter(piece.player for piece in st.pieces() if piece.zone is PieceZone.OFF)
        entries = [f"{names[p]} {off[p]}" for p in range(st.players) if off[p]]
        if entries:  # "Off: Red 3, Green 1," / "Yellow 1"
            commas = [e + "," for e in entries[:-1]] + entries[-1:]
            lines += _packed(commas, " ", w, head=_("Off:"))
        return self.fitted(lines)

    def prompt(self, state: State) -> str:
        """The question of a DECIDE: ``Ride Knight's Orbit?`` (answers ``ride from 7`` /
        ``stay on 7``) or ``Cross the Millstone?`` (answers ``cross to 50`` / ``stay on
        44``); ``""`` in any other phase."""
        st = _labyrinth(state)
        waiting = st.waiting_for()
        if waiting is None or waiting[0] == "orbit-die":
            return ""
        if waiting[0] == "ride":
            return fit(self.width, _("Ride Knight's Orbit?"), _("Ride the Orbit?"), _("Ride?"))
        return fit(self.width, _("Cross the Millstone?"), _("Cross Millstone?"), _("Cross?"))

    def routine(self, event: Event) -> bool:
        """The default's, and a throw for who starts (docs/rules/labyrinth.md: it is
        shown on the next throw screen instead of stopping the game); a tie and the
        starter do stop."""
        return event.kind == EV_START_THROW or super().routine(event)


def _packed(entries: list[str], joiner: str, width: int, head: str = "") -> list[str]:
    """``entries`` after ``head``, joined by ``joiner``, on as few lines of at most
    ``width`` characters as they go (``Red 3/Blue 5/Green 5``; ``Off: Red 3, Green 1,``
    then ``Yellow 1``)."""
    lines: list[str] = []
    line = head
    for entry in entries:
        if not line:
            line = entry
        elif len(line) + len(joiner) + len(entry) > width:
            lines.append(line)
            line = entry
        else:
            line += joiner + entry
    if line:
        lines.append(line)
    return lines
