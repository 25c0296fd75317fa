"""Senet under John Tait's rules: what the companion shows beyond the rules' facts.

The board shows everything of a Senet position (no one is trapped, nothing is held),
so the default presenter's screens serve; only the options get their players' labels.
"""

from __future__ import annotations

from typing import ClassVar

from PIL import Image

from companion.i18n import N_, _
from companion.rules import Move, PieceZone, State, Throw
from companion.rules.senet_tait import SenetTaitState
from companion.ui.games import Presenter
from companion.ui.games.boards import senet_tait as pictures
from companion.ui.games.boards.model import Board


def _value_played(state: State) -> int:
    """The value of the throw being played (the last throw made)."""
    throw = next(a for a in reversed(state.history) if isinstance(a, Throw))
    return throw.values[0]


class SenetTaitPresenter(Presenter):
    """Senet (Tait): the default screens, the options by their names on the board."""

    voice: ClassVar[str] = "companion.speech.games.senet_tait:SenetTaitVoice"

    option_labels: ClassVar[dict[str, str]] = {
        "sticks": N_("Sticks"),
        "house-of-beauty": N_("House of Beauty"),
        "six-after-lost-throw": N_("Unused 6 rethrow"),
    }

    @classmethod
    def board_model(cls, state: State, highlight: Move | None) -> Board:
        """The board picture's model of the position (:mod:`companion.ui.games.boards.senet_tait`)."""
        if not isinstance(state, SenetTaitState):
            raise TypeError(f"expected a Senet (Tait) position, got {state!r}")
        return pictures.board_model(state, highlight)

    @classmethod
    def draw(cls, board: Board, size: tuple[int, int], blink: bool) -> Image.Image:
        """The OLED picture of the board (:mod:`companion.ui.games.boards.senet_tait`)."""
        return pictures.draw(board, size, blink)

    def lost_reason(self, state: State) -> str:
        """Tait: 'New pieces can be placed on the board on a throw of four or six'; a
        piece may not land on its own side or bump from the House of Rebirth, and
        bears off only on an exact throw."""
        value = _value_played(state)
        mine = [p for p in state.pieces() if p.player == state.current_player]
        on_board = any(p.zone is PieceZone.BOARD for p in mine)
        waiting = any(p.zone is PieceZone.OUTSIDE for p in mine)
        if waiting and value not in (4, 6):
            return _("A piece enters only on a 4 or a 6, and no piece on the board can move "
                     "{value}.").format(value=value) if on_board else _(
                "A piece enters only on a 4 or a 6.")
        return _("No piece can move {value}: each would land on its own side or the "
                 "House of Rebirth, or go past the end.").format(value=value)
