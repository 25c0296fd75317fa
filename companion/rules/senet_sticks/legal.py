"""Casting-stick Senet's legal-move search (seed ``002_4a37d4d91a7a1598.txt``): every
move by one plinth with one value or an ordered combination of values.

'move plinths forward according to the exact values (or totals) and colors shown.
(Example: If a 2 and 2 and 2 are thrown, you can only move each of three plinths 2
spaces, or one plinth 4 spaces and another plinth 2 spaces, or one plinth 6 spaces. You
cannot move 1 plinth 5 spaces and another plinth 1 space, or two plinths 3 and 3.)'

The plinths in order along the player's path (one in the Abyss first), for each the
combinations of the values in :meth:`.tables.Combinations.of` order; a combination goes
on with a further value only when its values so far land (as
:meth:`.state.SenetSticksState._land` says).

Where a combination takes a plinth from a square depends only on the board's layout
(:func:`.tables.reach` and the rivers): those paths are found once per player, values and
square (:meth:`LegalMoves.paths`); the search then looks only at what stands on the
squares they reach.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Collection, Sequence
from typing import Any, Final

from companion.rules.core import Move
from companion.rules.senet_sticks.tables import EMPTY, FRESH, TOOK, Combinations, move
from companion.rules.senet_sticks_board import PLINTHS

TABLES_KEPT: Final = 1_000
"""Tables of paths kept per game object, one per player and values (the built-in sticks
make 19 in 2,000 random games, 45 with the extra stick)."""

STEPS_KEPT: Final = 100_000
"""Steps of paths kept per game object, about 150 bytes each (the built-in sticks make
about 2,000 in 2,000 random games, 10,000 with the extra stick: 0.5 and 1.7 MB); beyond,
a path is found anew each time (a board file with many sticks)."""

Path = tuple[int, int, int, int, bool, Move, bool, bool, bool, bool]
"""A step of :meth:`LegalMoves.paths`."""


class LegalMoves:
    """The legal-move search of one game object (its board, its options), with the
    paths it keeps per player, values and square."""

    __slots__ = (
        "_combinations", "_goal", "_land_on", "_mid_captures", "_opponent_home", "_quick", "_rise_at",
        "_river_to", "_safe", "_steps_kept", "_tables",
    )

    def __init__(
        self, *, combinations: Combinations, land_on: Sequence[Sequence[Sequence[int]]],
        river_to: Sequence[int], safe_from: Sequence[Sequence[bool]],
        in_opponent_home: Sequence[Sequence[bool]], resurrect_at: Sequence[int],
        homes: Sequence[Collection[int]], quick: bool, mid_captures: bool,
    ) -> None:
        """The game's tables and options (:class:`~.state.SenetSticks`'s attributes of
        the same names; ``quick``: quick mode; ``mid_captures``: option
        ``combination-captures``)."""
        self._combinations = combinations
        self._land_on, self._river_to, self._safe = land_on, river_to, safe_from
        self._opponent_home, self._rise_at = in_opponent_home, resurrect_at
        self._goal = (homes[1], homes[0])
        self._quick, self._mid_captures = quick, mid_captures
        self._tables: dict[tuple[int, tuple[int, ...]], tuple[int, list[tuple[Path, ...] | None]]] = {}
        """Per ``(player, values)``: the most steps a path can have (the entries of
        :meth:`.tables.Combinations.of`), and per square (0: the Abyss) its :meth:`paths`,
        ``None`` until asked for (or beyond :data:`STEPS_KEPT`)."""
        self._steps_kept = 0
        """The steps of all the paths kept."""

    def generate(
        self, p: int, values: Sequence[int], board: Sequence[int], abyss: Sequence[int], moved: dict[int, int],
    ) -> list[Move]:
        """The moves of player ``p`` with ``values`` (in the order thrown) on ``board``
        (the player on each square or -1), ``abyss`` (each player's plinths there) and
        this turn's ``moved`` marks (square -> ``FRESH | TOOK``): the plinths in order
        along the player's path (one in the Abyss first), each plinth's moves in
        :meth:`paths` order; ``[]`` when no value can be used.

        'Plinths can be moved over other plinths, but must land in an open space, or on
        an opponent that is not on a Safe space. Safe spaces are marked by the Sun.' 'Home
        Row is Safe for opponent's plinths that have gone all the way around the board and
        landed there, and they can not be attacked.' 'An opponent in the Home Row cannot
        attack a player, but can still move forward if spaces allow.' 'Rivers must be used
        immediately if landed on directly at the end of a move or in the middle of a
        combination move (as long as it is on a roll value)'. 'A plinth in the Abyss can
        only Resurrected into an open space in the Home Row (or space 6, taking the river
        if the end is open or occupied by the opponent).'
        """
        out: list[Move] = []
        if not values:
            return out
        vals = tuple(values)
        size, table = self._tables.get((p, vals)) or self._table(p, vals)
        exiled = abyss[1 - p]
        all_out = exiled == PLINTHS
        mid_captures, quick, goal = self._mid_captures, self._quick, self._goal[p]
        home = -1  # the player's plinths in the goal (the opponent's Home Row), counted when needed
        append = out.append
        # the player's plinths in the order of its path (one in the Abyss first)
        starts: list[int] = []
        at = 0
        index = board.index
        for _ in range(board.count(p)):
            at = index(p, at + 1)
            starts.append(at)
        if p:
            starts.reverse()
        if abyss[p]:
            starts.insert(0, 0)
        takens: list[tuple[int, ...]] = [()] * size
        for start in starts:
            if start:
                mark = moved.get(start, 0) if moved else 0
                if mark & TOOK:
                    # combination-captures=no: the value that took was the last of
                    # this plinth's combination.
                    continue
                fresh = bool(mark & FRESH)
            else:
                fresh = True  # out of the Abyss: every value lands on an open square
            steps = table[start]
            if steps is None:
                steps = self.paths(p, start, vals)
                if self._steps_kept + len(steps) <= STEPS_KEPT:
                    table[start] = steps
                    self._steps_kept += len(steps)
            last = len(steps)
            i = 0
            while i < last:
                t, end, parent, skip, more, made, no_take, not_rise, safe_end, in_goal = steps[i]
                taken = takens[parent] if parent >= 0 else ()
                caught: tuple[int, ...]
                if t == start or t in taken:
                    caught = ()
                else:
                    occupant = board[t]
                    if occupant == EMPTY:
                        caught = ()
                    # 'each value of a combination lands on an open space' (out of the Abyss)
                    elif occupant == p or fresh or no_take:
                        i += skip
                        continue
                    else:
                        caught = (t,)
                if end:
                    occupant = EMPTY if end == start or end in taken or end in caught else board[end]
                    if occupant != EMPTY:
                        if occupant == p or (fresh and not_rise) or safe_end:
                            i += skip
                            continue
                        caught = (*caught, end)
                    t = end
                append(made)
                # whether the plinth may go on with a further value of the combination
                if more and (mid_captures or not caught):
                    # not past a winning step, which needs a plinth in the goal or the
                    # opponent's last plinth taken (docs/rules/senet-sticks.md: 'Checked
                    # after every move; the win ends the turn at once', so a win in the
                    # middle of a combination ends the move there); as
                    # SenetSticksState._has_won would say of the position the step makes
                    if in_goal or all_out or ((taken or caught) and exiled + len(taken) + len(caught) == PLINTHS):
                        if exiled + len(taken) + len(caught) == PLINTHS:
                            i += skip
                            continue
                        if in_goal:
                            if quick:
                                i += skip
                                continue
                            if home < 0:
                                home = sum(1 for s in goal if board[s] == p)
                            # the plinths already there, this one not counted twice
                            if home - (start in goal) + 1 >= PLINTHS:
                                i += skip
                                continue
                    takens[i] = taken + caught if caught else taken
                    i += 1
                else:
                    i += skip
        return out

    def _table(self, p: int, values: tuple[int, ...]) -> tuple[int, list[tuple[Path, ...] | None]]:
        table: tuple[int, list[tuple[Path, ...] | None]] = (
            len(self._combinations.of(values)), [None] * len(self._river_to),
        )
        if len(self._tables) < TABLES_KEPT:
            self._tables[p, values] = table
        return table

    def paths(self, p: int, start: int, values: tuple[int, ...]) -> tuple[Path, ...]:
        """Player ``p``'s plinth on ``start`` (0: in the Abyss) with ``values`` (in the
        order thrown): the entries of :meth:`.tables.Combinations.of` that land on the
        board, as a tree in the same depth-first order (a value that cannot land cuts its
        subtree). Step ``i`` is ``(square the value lands on, the end of the river there or
        0, parent step or -1, steps in its subtree including itself, whether values remain,
        the move made by stopping here, an opponent on the square landed on cannot be
        taken (a Sun square, the player's own Home Row where the opponent has arrived, or
        the plinth attacks from the opponent's Home Row), the square landed on is not the
        resurrection square, an opponent at the river's end cannot be taken, the move
        ends in the opponent's Home Row)``."""
        plan = self._combinations.of(values)
        land_on, river_to, safe = self._land_on[p], self._river_to, self._safe[p]
        opponent_home, rise_at, goal = self._opponent_home[p], self._rise_at[p], self._goal[p]
        src = None if start == 0 else start
        kind = "resurrect" if src is None else "move"
        ends = [0] * len(plan)  # per entry of the plan: where its values so far leave the plinth
        at = [-1] * len(plan)  # per entry of the plan: its step
        steps: list[list[Any]] = []
        entries: list[int] = []  # per step: the entry of the plan it is
        i = 0
        while i < len(plan):
            v, parent, skip, played, more = plan[i]
            here = start if parent < 0 else ends[parent]
            t = land_on[here][v]
            if not t:
                i += skip
                continue
            end = river_to[t]
            ends[i] = end or t
            at[i] = len(steps)
            steps.append([
                t, end, at[parent] if parent >= 0 else -1, 0, more, move(kind, src, end or t, played),
                safe[t] or bool(here and opponent_home[here]), t != rise_at, bool(end) and safe[end],
                (end or t) in goal,
            ])
            entries.append(i)
            i += 1
        for j, entry in enumerate(entries):
            steps[j][3] = bisect_left(entries, entry + plan[entry][2], lo=j + 1) - j
        return tuple((t, e, pa, sk, mo, mv, nt, nr, se, ig) for t, e, pa, sk, mo, mv, nt, nr, se, ig in steps)


__all__ = ["STEPS_KEPT", "TABLES_KEPT", "LegalMoves", "Path"]
