"""The Game of the Labyrinth's game object: the rules of :mod:`.state` plus reading and
checking a position (:mod:`.position`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.rules.core import State
from companion.rules.labyrinth.position import read_state, validate
from companion.rules.labyrinth.state import LabyrinthRules, LabyrinthState


class Labyrinth(LabyrinthRules):
    __doc__ = LabyrinthRules.__doc__

    def _state_from_body(self, data: Mapping[str, Any], players: int) -> LabyrinthState:
        return read_state(self, data, players)

    def validate(self, state: State) -> None:
        """Check a Labyrinth position (see :func:`.position.validate`).

        :raises PositionError: naming the key and what is impossible.
        """
        assert isinstance(state, LabyrinthState)
        validate(state)


__all__ = ["Labyrinth"]
