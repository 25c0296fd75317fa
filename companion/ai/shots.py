"""The Senets' shots: what the next throw can take, for the learned evaluation's
``at_risk`` and ``threats`` (:func:`companion.ai.learned.features`).

Casting-stick Senet's counts along each player's own path (:func:`sticks_shots`, its
hits by one value or a combination: :func:`sticks_hits`) and Tait's Senet's direct
shots (:func:`tait_shots`). Read from the pieces through the rules' state; plain Python.
"""

from __future__ import annotations

from typing import Any, Final

from companion.rules import Phase
from companion.rules.senet_sticks.state import SenetSticksState
from companion.rules.senet_sticks.tables import EMPTY
from companion.rules.senet_sticks_board import PLINTHS
from companion.rules.senet_tait import ENTRY_WORTH, HOUSE_OF_REBIRTH, OFF, PIECES, SenetTaitState

REACH: Final = 6
"""How far behind (in squares along a numbered track) a piece threatens another one."""


def sticks_shots(state: SenetSticksState) -> tuple[list[float], list[int]]:
    """Casting-stick Senet's ``at_risk`` and ``threats`` counts: per player, the
    expected progress (in the units of :meth:`State.progress`) its plinths lose to the
    shots of the throw due next, 0 for the player due to throw and everywhere unless
    the casting sticks are due; and the count of the opponent's plinths 1 to
    :data:`REACH` squares ahead of one of its own along its own path (not on a Sun
    square, nor safe in its Home Row).

    A shot: "If a player lands on an opponent that is not on a Safe space, the
    opponent's plinth is removed from the board and place in their Abyss" (seed 002),
    by one plinth of the thrower with the values of the throw it may use (its colour's
    and the solid stick's): one value, or an ordered combination of them played by
    that plinth ("move plinths forward according to the exact values (or totals)"),
    each value landing as the rules let it (:func:`sticks_hits`: directly or by the
    river it lands on, a plinth rising from the Abyss included). For each outcome of
    the throw the largest loss among the plinths it can take counts (the square's
    number along the victim's path), weighted by the outcome's chance. The baseline's
    hand-written leaf (``benchmarks/baseline.py``) counts single values only (direct
    shots); with a throw of two or three values a combination reaches 4 to 9 squares,
    and the search's depth-1 ends (``strong``'s move where its budget does not reach
    the reply) walked into those shots.
    """
    game = state.game
    board = state.board
    n = game.squares
    risk = [0.0, 0.0]
    threats = [0, 0]
    for p in (0, 1):
        path_sign = 1 if p == 0 else -1
        safe = game.safe_from[p]
        for s in range(1, n + 1):
            if board[s] != 1 - p or safe[s]:
                continue
            if any(0 <= s - path_sign * d <= n and board[s - path_sign * d] == p
                   for d in range(1, REACH + 1)):
                threats[p] += 1
    if (state.phase is not Phase.THROW or state.throw_spec is not game.sticks
            or state.colours is None):
        return risk, threats
    q = state.current_player
    p = 1 - q
    safe = game.safe_from[q]
    start = PLINTHS * (PLINTHS + 1) // 2  # the starting squares count 0
    scale = PLINTHS * n - 2 * start + PLINTHS
    loss = {s: (s if p == 0 else n + 1 - s) / scale
            for s in range(1, n + 1) if board[s] == p and not safe[s]}
    if not loss:
        return risk, threats
    opponent_home = game.in_opponent_home[q]
    sources = [s for s in range(1, n + 1) if board[s] == q and not opponent_home[s]]
    if state.abyss[q]:
        sources.append(0)
    if not sources:
        return risk, threats
    mine = state.colours[q]
    usable = game.usable
    total = 0.0
    for throw, _p, w in state.chance_outcomes():
        known = usable.get((throw, mine, q))
        values = known[0] if known is not None else tuple(
            v for v, c in zip(throw.values, throw.colours, strict=True) if c is None or c == mine)
        if not values:
            continue
        # only the plinths that could reach a plinth at risk on an empty board with
        # these values (the others cannot take it): the same result, less work
        reach = sticks_reach(game, q, tuple(values))
        near = [s for s in sources if not reach[s].isdisjoint(loss)]
        if near:
            worst = max((loss[t] for t in sticks_hits(state, q, tuple(values), near)),
                        default=0.0)
            total += w * worst
    risk[p] = total
    return risk, threats


_REACHES: dict[int, tuple[object, dict[tuple[int, tuple[int, ...]], list[frozenset[int]]]]] = {}
""":func:`sticks_reach`'s tables per game object (by ``id``, the game kept beside them)."""


def sticks_reach(game: Any, q: int, values: tuple[int, ...]) -> list[frozenset[int]]:
    """Per square (0: the Abyss), every square player ``q``'s plinth there could land
    on (or be carried to by a river) with one of ``values`` or an ordered combination
    of them, on an empty board: a superset of what it can take in any position
    (:func:`sticks_hits`, where the board's plinths only forbid more). Found once per
    game object, player and values."""
    kept = _REACHES.get(id(game))
    if kept is None or kept[0] is not game:
        kept = _REACHES[id(game)] = (game, {})
    tables = kept[1]
    found_before = tables.get((q, values))
    if found_before is not None:
        return found_before
    land_on = game.land_on[q]
    river_to = game.river_to
    per: list[frozenset[int]] = []
    for here in range(game.squares + 1):
        found: set[int] = set()

        def walk(at: int, left: tuple[int, ...], found: set[int] = found) -> None:
            for i, v in enumerate(left):
                t = land_on[at][v]
                if t:
                    end = river_to[t] or t
                    found.add(t)
                    found.add(end)
                    walk(end, left[:i] + left[i + 1:])

        walk(here, values)
        per.append(frozenset(found))
    tables[q, values] = per
    return per


def sticks_hits(state: SenetSticksState, q: int, values: tuple[int, ...],
                 sources: list[int]) -> set[int]:
    """The squares of the opponent's plinths that player ``q``'s plinths on ``sources``
    (0: one in the Abyss) can take with ``values``: one value or an ordered combination
    played by one plinth, each value landing as the rules' moves land
    (``SenetSticksState._generate``: not on its own plinth, nor on an opponent safe
    from it, nor from the opponent's Home Row; a river taken where a value ends on it;
    out of the Abyss onto an open square, or by the resurrection square's river onto
    anything but its own plinth; with ``combination-captures=no`` no further value
    after a taking one). A win in the middle of a combination, which ends the move, is
    not looked for (the position is then lost anyway)."""
    game = state.game
    board = state.board
    land_on = game.land_on[q]
    safe = game.safe_from[q]
    opponent_home = game.in_opponent_home[q]
    river_to = game.river_to
    rise_at = game.resurrect_at[q]
    mid_captures = game.mid_captures
    plan = game.combinations.of(values)
    size = len(plan)
    heres = [0] * size
    takens: list[tuple[int, ...]] = [()] * size
    hits: set[int] = set()
    for src in sources:
        fresh = src == 0
        i = 0
        while i < size:
            v, parent, skip, _played, more = plan[i]
            taken: tuple[int, ...]
            if parent < 0:
                here, taken = src, ()
            else:
                here, taken = heres[parent], takens[parent]
            t = land_on[here][v]
            if not t:
                i += skip
                continue
            occupant = EMPTY if t == src or t in taken else board[t]
            caught: tuple[int, ...]
            if occupant == EMPTY:
                caught = ()
            elif occupant == q or fresh or safe[t] or (here and opponent_home[here]):
                i += skip
                continue
            else:
                caught = (t,)
            end = river_to[t]
            if end:
                occupant = EMPTY if end == src or end in taken or end in caught else board[end]
                if occupant != EMPTY:
                    if occupant == q or (fresh and t != rise_at) or safe[end]:
                        i += skip
                        continue
                    caught = (*caught, end)
                t = end
            hits.update(caught)
            if more and (mid_captures or not caught):
                heres[i] = t
                takens[i] = taken + caught if caught else taken
                i += 1
            else:
                i += skip
    return hits


def tait_shots(state: SenetTaitState) -> list[float]:
    """Tait's Senet's ``at_risk``: per player, the expected progress (in the units of
    :meth:`State.progress`) its pieces lose to the direct shots of the throw due next;
    0 for the player due to throw and everywhere unless a throw is due (the term of the
    baseline's hand-written leaf, ``benchmarks/baseline.py``).

    A shot: a piece of the thrower on the square ``v`` behind the piece, or, from the
    plinth, an entry on 4 or 6 with a throw of that value; the piece hit goes back to
    its plinth and loses its square plus ``ENTRY_WORTH``. "A piece cannot be bumped from
    The House of Rebirth" (square 15, seed 003).
    """
    risk = [0.0, 0.0]
    if state.phase is not Phase.THROW or state.players != 2:
        return risk
    q = state.current_player
    p = 1 - q
    board = state.board
    entering = state.plinth[q] > 0
    scale = PIECES * (ENTRY_WORTH + OFF)
    outcomes = None
    for s in state.squares[p]:
        if s == HOUSE_OF_REBIRTH:
            continue
        shots = {v for v in range(1, 7) if s - v >= 1 and board[s - v] == q}
        if entering and s in (4, 6):
            shots.add(s)
        if shots:
            if outcomes is None:
                outcomes = state.chance_outcomes()
            chance = sum(w for throw, _p, w in outcomes if not shots.isdisjoint(throw.values))
            risk[p] += chance * (s + ENTRY_WORTH) / scale
    return risk


__all__ = ["REACH", "sticks_hits", "sticks_reach", "sticks_shots", "tait_shots"]
