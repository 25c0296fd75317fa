"""Senet under John Tait's rules: what the companion shows beyond the rules' facts.

The board shows everything of a Senet position (no one is trapped, nothing is held),
so the default presenter's screens serve; only the options get their players' labels.
"""

from __future__ import annotations

from typing import ClassVar

from companion.rules import PieceZone, State, Throw
from companion.ui.games import Presenter


def _value_played(state: State) -> int:
    """The value of the throw being played (the last throw made)."""
    throw = next(a for a in reversed(state.history) if isinstance(a, Throw))
    return throw.values[0]


class SenetTaitPresenter(Presenter):
    """Senet (Tait): the default screens, the options by their names on the board."""

    option_labels: ClassVar[dict[str, str]] = {
        "sticks": "Sticks",
        "house-of-beauty": "House of Beauty",
        "six-after-lost-throw": "Unused 6 rethrow",
    }

    def lost_reason(self, state: State) -> str:
        """Tait: 'New pieces can be placed on the board on a throw of four or six'; a
        piece may not land on its own side or bump from the House of Rebirth, and
        bears off only on an exact throw."""
        value = _value_played(state)
        mine = [p for p in state.pieces() if p.player == state.current_player]
        on_board = any(p.zone is PieceZone.BOARD for p in mine)
        waiting = any(p.zone is PieceZone.OUTSIDE for p in mine)
        if waiting and value not in (4, 6):
            return ("A piece enters only on a 4 or a 6, and no piece on the board can move "
                    f"{value}.") if on_board else "A piece enters only on a 4 or a 6."
        return (f"No piece can move {value}: each would land on its own side or the "
                "House of Rebirth, or go past the end.")
