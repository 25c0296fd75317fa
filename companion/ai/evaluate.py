"""How likely each player is to win from a position, without looking ahead.

Each game's engine measures every player's progress towards winning
(:meth:`~companion.rules.State.progress`: 0.0 at the start, 1.0 for a winner; the
race run in Senet, the way to Elysium in the Labyrinth, the diamonds, the key and the
way home in the Cretan Labyrinth). The win chances are a softmax of the progresses:

    chance[p] = exp(k * progress[p]) / sum over players q of exp(k * progress[q])

With two players that is the logistic function of ``k`` times the difference of the
progresses. ``k``, the game's ``sharpness`` (a fact of its :class:`~companion.rules.Game`
class), says how much a lead in progress is
worth: it was fitted to the outcomes of whole games (the logistic regression of the
winner on the progress difference, at every fifth decision of 100 two-player games
between players of the default level: ``python benchmarks/ai_strength.py --calibrate
100``), so that an estimate of 0.7 wins about 7 games in 10. The Cretan Labyrinth's is
the flattest (0.9): keys are taken in battles and diamonds lost to cards, so a lead
says little until late. In a finished game the winners share 1 equally.

The chances sum to 1: a search backs them up as vectors (see :mod:`companion.ai.search`).
"""

from __future__ import annotations

import math

from companion.rules import Outcome, State


def shares(outcome: Outcome, players: int) -> tuple[float, ...]:
    """A finished game's value: the winners share 1 equally, the others 0 (one float per
    player)."""
    share = 1.0 / len(outcome.winners)
    return tuple(share if p in outcome.winners else 0.0 for p in range(players))


def chances(state: State) -> tuple[float, ...]:
    """Every player's chance to win from ``state`` (one float per player, 0..1, sum 1):
    the winners' shares in a finished game, else the softmax of the players' progress
    (see the module's docstring)."""
    n = state.players
    outcome = state.outcome
    if outcome is not None:
        return shares(outcome, n)
    k = state.game.sharpness
    if n == 2:
        x = k * (state.progress(0) - state.progress(1))
        first = 1.0 / (1.0 + math.exp(-x)) if x > -700 else 0.0
        return (first, 1.0 - first)
    weights = [math.exp(k * state.progress(p)) for p in range(n)]
    total = sum(weights)
    return tuple(w / total for w in weights)

