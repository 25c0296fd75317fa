"""The Cretan Labyrinth's game object: the options and tables of :mod:`.base` with its
positions (:mod:`.state`), read and checked by :mod:`.position`.

(The options and tables are a class of their own, :class:`~.base.CretanLabyrinthRules`,
because every module of a position names its game's type, and this class names the
position's: one class would close an import circle.)"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.rules.core import State
from companion.rules.cretan_labyrinth.base import CretanLabyrinthRules
from companion.rules.cretan_labyrinth.position import read_state, validate
from companion.rules.cretan_labyrinth.state import CretanLabyrinthState


class CretanLabyrinth(CretanLabyrinthRules):
    __doc__ = CretanLabyrinthRules.__doc__

    def new_state(self, players: int | None = None) -> CretanLabyrinthState:
        n = self.check_players(players)
        self.prepare(n)
        return CretanLabyrinthState(self, n)

    def _state_from_body(self, data: Mapping[str, Any], players: int) -> CretanLabyrinthState:
        return read_state(self, data, players)

    def validate(self, state: State) -> None:
        """Check a Cretan Labyrinth position (see :func:`.position.validate`).

        :raises PositionError: naming the key and what is impossible.
        """
        assert isinstance(state, CretanLabyrinthState)
        validate(state)


__all__ = ["CretanLabyrinth"]
