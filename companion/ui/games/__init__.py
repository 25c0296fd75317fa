"""Per-game presenters (placeholder until the presenters land): delegates to the
rules' hooks."""

from __future__ import annotations

from companion.rules import Event as GameEvent
from companion.rules import Move, State
from companion.rules.core import EV_ENTERED, EV_MOVED, EV_THROW_LOST, EV_THROWN, EV_TURN_PASSES

ROUTINE = frozenset({EV_MOVED, EV_ENTERED, EV_THROWN, EV_THROW_LOST, EV_TURN_PASSES})


class Presenter:
    def __init__(self, width: int) -> None:
        self.width = width

    def status_lines(self, state: State) -> list[str]:
        return state.status_lines()

    def status_brief(self, state: State) -> list[str]:
        return state.status_brief()

    def prompt(self, state: State) -> str:
        return state.prompt()

    def choice_steps(self, state: State, move: Move) -> tuple[str, ...]:
        return state.choice_steps(move)

    def routine(self, event: GameEvent) -> bool:
        return event.kind in ROUTINE


def presenter_for(game_id: str, width: int) -> Presenter:
    return Presenter(width)
