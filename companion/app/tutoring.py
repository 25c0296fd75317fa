"""The tutor's bookkeeping: which position it values, the worker's request under way,
and each move's loss once the values came.

When a person opens the move list with the tutor on (:attr:`Prefs.tutor
<companion.app.settings.Prefs.tutor>`), the worker values every legal move once
(:func:`~companion.app.screens.tutor_losses`: the hint's ranking at the level of the
game's computer seat), so that OK finds the values ready; a
move that gives away much of the mover's chance is asked about before it is played
(:class:`~companion.app.screens.Checking`). Nothing here searches: it asks the worker
and keeps what came back, for the position it was asked about only.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING

from companion.app import screens as sc
from companion.app.worker import Worker

if TYPE_CHECKING:  # the game's table and the engine: imported with the first game, not at the start
    from companion.app.results import MovesValued, WorkFailed
    from companion.app.table import Table
    from companion.rules import Move

log = logging.getLogger(__name__)


class Tutor:
    """The tutor's values for the game on ``worker``; ``ticket`` gives the number of a
    new request to the worker (the controller's, shared by all its requests)."""

    def __init__(self, worker: Worker, ticket: Callable[[], int]) -> None:
        self.worker = worker
        self.ticket = ticket
        self._valuing: tuple[Hashable, int] | None = None
        """The request under way: the position it values and its ticket."""
        self._losses: tuple[Hashable, dict[str, float] | None] | None = None
        """The values of the last position valued: each move's loss by its notation
        (``None``: the valuation failed, the tutor does not ask there)."""

    @staticmethod
    def key(table: Table | None, on: bool) -> Hashable | None:
        """The position the tutor values: the game, its length and its position
        (``None``: the tutor has nothing to value: off, no game, the computer to move,
        no choice)."""
        if table is None or not on:
            return None
        from companion.rules import Phase

        state = table.state
        if (state.phase not in (Phase.MOVE, Phase.DECIDE) or state.current_player in table.seats
                or len(state.legal_moves()) < 2):
            return None
        return (str(table.journal.path), len(table.actions), state.position_key())

    def value(self, table: Table | None, on: bool) -> None:
        """The move list opened: have the worker value its moves (once a position)."""
        key = self.key(table, on)
        if key is None or (self._losses is not None and self._losses[0] == key) or (
                self._valuing is not None and self._valuing[0] == key):
            return
        assert table is not None
        from companion.app.results import MovesValued  # with the first job, not at start

        ticket = self.ticket()
        self._valuing = (key, ticket)
        state = table.state.copy()  # the worker's own: the loop goes on with the table
        cancel, seats = self.worker.cancel, dict(table.seats)
        self.worker.submit(ticket, lambda: MovesValued(ticket, sc.tutor_losses(state, cancel, seats)))

    def loss(self, table: Table | None, on: bool, move: Move) -> float | None:
        """The share of the mover's chance to win ``move`` gives away against the best
        move, 0..1 (0.0: the tutor is off, or has nothing to say); ``None`` while the
        worker values the moves (asked for now if it was not)."""
        key = self.key(table, on)
        if key is None:
            return 0.0
        if self._losses is not None and self._losses[0] == key:
            losses = self._losses[1]
            return 0.0 if losses is None else losses.get(move.notation, 0.0)
        self.value(table, on)  # switched on while the moves were shown: asked for now
        return None

    def awaits(self, ticket: int) -> bool:
        """Whether the request ``ticket`` is the tutor's, under way."""
        return self._valuing is not None and self._valuing[1] == ticket

    def valued(self, event: MovesValued | WorkFailed) -> Hashable | None:
        """The values came: kept for their position, which is returned (``None``: no
        longer awaited, dropped)."""
        from companion.app.results import WorkFailed

        valuing = self._valuing
        if valuing is None or valuing[1] != event.ticket:
            log.info("the tutor's values %d dropped: no longer awaited", event.ticket)
            return None
        self._valuing = None
        key = valuing[0]
        if isinstance(event, WorkFailed):
            log.warning("the tutor could not value the moves: %s", event.text)
            self._losses = (key, None)
        else:
            self._losses = (key, dict(event.losses))
        return key


__all__ = ["Tutor"]
