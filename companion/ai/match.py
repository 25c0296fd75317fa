"""Matches between players: whole games with fair throws, win rates with a confidence
interval (for ``companion rules match`` and ``benchmarks/ai_strength.py``).

The entries of a match (``["strong", "random"]``: one per seat) take every seat in turn:
game ``i`` seats entry ``j`` at seat ``(i + j) mod n``, so no entry keeps the first
throw. A shared win (the Cretan Labyrinth's round limit, a blocked casting-stick Senet
board) counts ``1/k`` to each of the ``k`` winners. A win rate's 95% interval is
Wilson's score interval.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from companion.ai.player import Player, player
from companion.rules import Game, Phase

MAX_ACTIONS = 1_000_000
"""A game that has not ended after this many actions is a bug."""


@dataclass(frozen=True, slots=True)
class MatchResult:
    """``entries`` the players' names by entry; ``wins[j]`` the games entry ``j`` won
    (shared wins counted as fractions); ``games`` the games played."""

    entries: tuple[str, ...]
    wins: tuple[float, ...]
    games: int

    def rate(self, entry: int) -> float:
        """Entry ``entry``'s share of the games won, 0..1."""
        return self.wins[entry] / self.games if self.games else 0.0

    def interval(self, entry: int) -> tuple[float, float]:
        """The 95% Wilson score interval of entry ``entry``'s win rate."""
        return wilson(self.wins[entry], self.games)


def wilson(wins: float, games: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson's score interval for ``wins`` successes in ``games`` trials (default:
    95%, ``z`` = 1.96); ``(0, 1)`` for no games."""
    if games <= 0:
        return 0.0, 1.0
    p = wins / games
    centre = p + z * z / (2 * games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


def play_game(game: Game, seats: Sequence[Player], rng: random.Random) -> tuple[int, ...]:
    """One whole game: ``seats[k]`` plays seat ``k``; throws drawn from ``rng``, which
    also feeds the players' own randomness. Returns the winning seats.

    :raises RuntimeError: when the game does not end (a bug).
    """
    state = game.new_state(len(seats))
    randrange = rng.randrange
    for _ in range(MAX_ACTIONS):
        phase = state.phase
        if phase is Phase.OVER:
            outcome = state.outcome
            assert outcome is not None
            return outcome.winners
        if phase is Phase.THROW:
            spec = state.throw_spec
            assert spec is not None
            state.apply(spec.draw(randrange))
        else:
            state.apply(seats[state.current_player](state, rng))
    raise RuntimeError(f"{game.id}: no end after {MAX_ACTIONS} actions")


def match(
    game: Game, entries: Sequence[str], games: int, seed: int,
    players: Sequence[Player] | None = None,
) -> MatchResult:
    """``games`` games between ``entries`` (player names, one per seat; see
    :func:`companion.ai.player.player`), seats rotating, seeded with ``seed``.
    ``players`` (one per entry) plays instead of the named players, the names then
    only labelling them (the strength benchmark's variants).

    :raises ValueError: for an unknown player name or a number of players the game
        does not allow.
    """
    game.check_players(len(entries))
    if players is None:
        players = [player(name) for name in entries]
    elif len(players) != len(entries):
        raise ValueError(f"{len(players)} players for {len(entries)} entries")
    n = len(entries)
    wins = [0.0] * n
    for i in range(games):
        rng = random.Random(f"{seed}:{i}")
        seats = [players[(s - i) % n] for s in range(n)]  # entry j sits at seat (i + j) % n
        winners = play_game(game, seats, rng)
        for seat in winners:
            wins[(seat - i) % n] += 1.0 / len(winners)
    return MatchResult(tuple(entries), tuple(wins), games)
