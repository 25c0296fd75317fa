"""What casting-stick Senet shows on the companion (docs/rules/senet-sticks.md, "On the
companion"): the Abyss count, and a move chosen in steps -- the plinth, then each value
in the order played with where it lands."""

from __future__ import annotations

from typing import ClassVar

from PIL import Image

from companion.i18n import N_, _
from companion.rules import Move, State
from companion.rules.senet_sticks import STAGE_PLAY, SenetSticksState
from companion.ui.games import Presenter, fit
from companion.ui.games.boards import senet_sticks as pictures
from companion.ui.games.boards.model import Board
from companion.ui.rules_words import say


def _sticks(state: State) -> SenetSticksState:
    if not isinstance(state, SenetSticksState):
        raise TypeError(f"expected a casting-stick Senet position, got {state!r}")
    return state


class SenetSticksPresenter(Presenter):
    """Casting-stick Senet on a panel :attr:`width` characters wide."""

    voice: ClassVar[str] = "companion.speech.games.senet_sticks:SenetSticksVoice"

    option_labels: ClassVar[dict[str, str]] = {
        "mode": N_("Mode"),
        "extra-stick": N_("Extra stick"),
        "colour-toss": N_("Colour toss"),
        "combination-captures": N_("Combos capture"),
        "board": N_("Board"),
    }

    @classmethod
    def board_model(cls, state: State, highlight: Move | None) -> Board:
        """The board picture's model of the position (:mod:`companion.ui.games.boards.senet_sticks`)."""
        if not isinstance(state, SenetSticksState):
            raise TypeError(f"expected a casting-stick Senet position, got {state!r}")
        return pictures.board_model(state, highlight)

    @classmethod
    def draw(cls, board: Board, size: tuple[int, int], blink: bool) -> Image.Image:
        """The OLED picture of the board (:mod:`companion.ui.games.boards.senet_sticks`)."""
        return pictures.draw(board, size, blink)

    def lost_reason(self, state: State) -> str:
        """No plinth of the player's can move by any value of the sticks it may use
        (its own colour's and the solid ones)."""
        return _("No plinth can use these sticks.")

    def status_lines(self, state: State) -> list[str]:
        """How many plinths each player has in the Abyss, ``["Abyss: Red 0, Blue 1"]``
        (one line per player, ``Red Abyss: 0``, when the colour names make the line
        longer than :attr:`width`); none before the game has started. Plinths on the
        board are on the real board."""
        st = _sticks(state)
        if st.stage != STAGE_PLAY:
            return []
        line = _("Abyss: {first} {first_count}, {second} {second_count}").format(
            first=say(st.name(0)), first_count=st.abyss_count(0),
            second=say(st.name(1)), second_count=st.abyss_count(1))
        if len(line) <= self.width:
            return [line]
        return self.fitted(_("{player} Abyss: {count}").format(player=say(st.name(p)),
                                                               count=st.abyss_count(p))
                           for p in (0, 1))

    def choice_steps(self, state: State, move: Move) -> tuple[str, ...]:
        """The plinth first (``"plinth on 12"``, or ``"from the Abyss"``), then each value
        in the order played with where it lands (:meth:`SenetSticksState.path_of`):
        ``("plinth on 12", "2 to 14", "3 to 17, takes Blue")``. A value ending on a river
        says ``"2 to 15 via river"`` (the square the river leads to); one that takes an
        opponent there ``"3 to 16 river, takes"``. ``pass`` is one step. On a narrow
        panel the words after ``2 to 15`` go first (the value and the square alone tell
        the moves apart).

        :raises IllegalMoveError: ``move`` is not one of ``state.legal_moves()``.
        """
        st = _sticks(state)
        path = st.path_of(move)
        if not path:
            return (move.notation,)
        room = self.width - 1
        src = move.src
        if src is None:
            first = fit(room, _("from the Abyss"), _("Abyss"))
        else:
            first = fit(room, *(_(t).format(square=src) for t in (
                N_("plinth on {square}"), N_("plinth {square}"), N_("on {square}"))))
        other = say(st.name(1 - st.current_player))
        steps = [first]
        for step in path:
            base = _("{value} to {square}").format(value=step.value, square=step.square)
            forms: tuple[str, ...]
            if step.river is not None and step.takes:
                forms = (N_("{step} river, takes {other}"), N_("{step} river, takes"),
                         N_("{step}, takes"), "{step}")
            elif step.river is not None:
                forms = (N_("{step} via river"), N_("{step} river"), "{step}")
            elif step.takes:
                forms = (N_("{step}, takes {other}"), N_("{step}, takes"), "{step}")
            else:
                forms = ("{step}",)
            words = tuple(_(f).format(step=base, other=other) for f in forms)
            steps.append(fit(room, *words))
        return tuple(steps)
