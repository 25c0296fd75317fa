"""Seeded whole games for the playout benchmarks (``*_playouts.py``): what the rules do
over many games (how games end, how long they last), not how fast.

The figures depend only on the seeds, so every run prints the same; docs/rules quote them.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from companion.rules import Move, Phase, State, random_action

Chooser = Callable[[State, Sequence[Move], random.Random], int]
"""Picks the index of a move among the legal ones."""


def random_choice(state: State, moves: Sequence[Move], rng: random.Random) -> int:
    """A uniformly random legal move."""
    return rng.randrange(len(moves))


@dataclass(frozen=True)
class Played:
    """One whole game: the final position, the moves made (passes included) and the
    kinds of every event."""

    state: State
    moves: int
    events: frozenset[str]


def play_out(state: State, rng: random.Random, choose: Chooser = random_choice) -> Played:
    """Play ``state`` to the end with fair throws from ``rng`` and ``choose``'s moves,
    through the checked ``apply``."""
    moves = 0
    kinds: set[str] = set()
    while state.phase is not Phase.OVER:
        if state.phase is Phase.THROW:
            events = state.apply(random_action(state, rng.randrange))
        else:
            legal = state.legal_moves()
            events = state.apply(legal[choose(state, legal, rng)])
            moves += 1
        kinds.update(event.kind for event in events)
    return Played(state, moves, frozenset(kinds))


def spread(values: Sequence[float]) -> str:
    """``median M (IQR a-b, range lo-hi)`` of ``values``."""
    ordered = sorted(values)
    q1, _, q3 = statistics.quantiles(ordered, n=4, method="inclusive") if len(ordered) > 1 else (ordered[0],) * 3
    return (f"median {statistics.median(ordered):g} (IQR {q1:g}-{q3:g}, "
            f"range {ordered[0]:g}-{ordered[-1]:g})")
