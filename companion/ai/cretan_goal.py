"""A goal-seeking player for the Cretan Labyrinth: the stop nearest the goal, a missing
diamond's colour first; take the key, attack, avert a danger, show the first weapon.

Random choices almost never finish this game (docs/rules/cretan-labyrinth.md, D27); this
player heading for the next diamond, the palace and home does. It plays the end-to-end
test and reaches the positions of the reference screens.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from companion.rules import Move
from companion.rules.cretan_labyrinth import CretanLabyrinthState

PREFERRED: Final = ("take-key", "attack", "avert", "show")
"""Decisions the goal-seeking player takes whenever offered, in this order."""


def goal_seeking_choice(state: CretanLabyrinthState, moves: Sequence[Move]) -> int:
    """The index in ``moves`` (the legal moves, in order) of a plain player's choice:
    stop nearest the goal (the palace, then the own gateway; 'Your first goal is to
    reach the temple'), preferring a coloured space whose diamond is still missing by
    6 squares; take the key, attack, avert a danger, show the first weapon; otherwise
    the first choice. Deterministic (ties: the first).

    :raises ValueError: ``moves`` is empty.
    """
    if not moves:
        raise ValueError(f"no moves to choose from in {state.describe()}")
    board = state.game.board
    if moves[0].kind == "move" and moves[0].dst is not None:
        p = state.current_player
        goal = state.goal(p)

        def score(m: Move) -> int:
            assert isinstance(m.dst, str)
            n = board.node(m.dst)
            colour = board.colours[n]
            wanted = colour is not None and colour not in state.diamonds[p] and not state.keys[p]
            return board.gap(n, goal) - (6 if wanted else 0)

        scores = [score(m) for m in moves]
        return scores.index(min(scores))
    for kind in PREFERRED:
        for i, m in enumerate(moves):
            if m.kind == kind:
                return i
    return 0


__all__ = ["PREFERRED", "goal_seeking_choice"]
