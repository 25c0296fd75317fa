"""What casting-stick Senet shows on the companion (docs/rules/senet-sticks.md, "On the
companion"): the Abyss count, and a move chosen in steps -- the plinth, then each value
in the order played with where it lands."""

from __future__ import annotations

from typing import ClassVar

from PIL import Image

from companion.rules import Move, State
from companion.rules.senet_sticks import STAGE_PLAY, SenetSticksState
from companion.ui.games import Presenter, fit
from companion.ui.games.boards import senet_sticks as pictures
from companion.ui.games.boards.model import Board


def _sticks(state: State) -> SenetSticksState:
    if not isinstance(state, SenetSticksState):
        raise TypeError(f"expected a casting-stick Senet position, got {state!r}")
    return state


class SenetSticksPresenter(Presenter):
    """Casting-stick Senet on a panel :attr:`width` characters wide."""

    voice: ClassVar[str] = "companion.speech.games.senet_sticks:SenetSticksVoice"

    option_labels: ClassVar[dict[str, str]] = {
        "mode": "Mode",
        "extra-stick": "Extra stick",
        "colour-toss": "Colour toss",
        "combination-captures": "Combos capture",
        "board": "Board",
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
        return "No plinth can use these sticks."

    def status_lines(self, state: State) -> list[str]:
        """How many plinths each player has in the Abyss, ``["Abyss: Red 0, Blue 1"]``
        (one line per player, ``Red Abyss: 0``, when the colour names make the line
        longer than :attr:`width`); none before the game has started. Plinths on the
        board are on the real board."""
        st = _sticks(state)
        if st.stage != STAGE_PLAY:
            return []
        line = f"Abyss: {st.name(0)} {st.abyss_count(0)}, {st.name(1)} {st.abyss_count(1)}"
        if len(line) <= self.width:
            return [line]
        return self.fitted(f"{st.name(p)} Abyss: {st.abyss_count(p)}" for p in (0, 1))

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
            first = fit(room, "from the Abyss", "Abyss")
        else:
            first = fit(room, f"plinth on {src}", f"plinth {src}", f"on {src}")
        other = st.name(1 - st.current_player)
        steps = [first]
        for step in path:
            base = f"{step.value} to {step.square}"
            words: tuple[str, ...]
            if step.river is not None and step.takes:
                words = (f"{base} river, takes {other}", f"{base} river, takes", f"{base}, takes", base)
            elif step.river is not None:
                words = (f"{base} via river", f"{base} river", base)
            elif step.takes:
                words = (f"{base}, takes {other}", f"{base}, takes", base)
            else:
                words = (base,)
            steps.append(fit(room, *words))
        return tuple(steps)
