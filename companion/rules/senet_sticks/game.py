"""Casting-stick Senet's game object: the rules of :mod:`.state` plus reading a position
(:mod:`.position`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.rules.senet_sticks.position import read_state
from companion.rules.senet_sticks.state import SenetSticksRules, SenetSticksState


class SenetSticks(SenetSticksRules):
    __doc__ = SenetSticksRules.__doc__

    def _state_from_body(self, data: Mapping[str, Any], players: int) -> SenetSticksState:
        return read_state(self, data, players)


__all__ = ["SenetSticks"]
