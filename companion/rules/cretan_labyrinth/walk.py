"""Where a move may stop (rules 4-5, 8-13; the key rules 1-2 and 7): the board's walks
looked up, and those that meet the Magic Key's keeper found."""

from __future__ import annotations

from collections.abc import Hashable

from companion.rules.cretan_data import (
    DIRECTIONS,
)
from companion.rules.cretan_labyrinth.base import (
    _PASS_ONLY,
    STAGE_MOVE,
)
from companion.rules.cretan_labyrinth.core import PositionCore
from companion.rules.cretan_labyrinth.tables import (
    Walk,
)


class Walking(PositionCore):
    """A position with its moves' stops (:meth:`stops`)."""

    __slots__ = ()

    def passable(self, p: int, node: int) -> bool:
        """Whether player ``p`` may enter ``node``: not another player's gateway (rule 9)."""
        return node not in self.game.barred(self.players)[p]

    def stops(self) -> dict[int, int]:
        """Where the move of the player to move may stop: node -> the player it must
        battle there (-1 for none). A new dict on every call (the caller may change it).

        Rules 4-5 (blank/coloured spaces crossed), 8-9 (walls and other gateways end the
        move, with the option of going back to a coloured space crossed), 10 (passing
        through the own gateway), 11-13 (the palace is one square, may be stopped in),
        the key rules 1-2 (a player may stop on or within two spaces of the keeper even
        if the roll goes further) and 7 (a keeper passing within two spaces of another
        player must stop there and battle).
        """
        return dict(self._walk()[0])

    def _walk(self) -> Walk:
        """:meth:`stops` and the legal moves they make, found once per MOVE stage (the
        legal moves and the move played both need them) and kept; not to be changed.

        Every walk without a keeper near is the board's, looked up in the game's table of
        them (:meth:`CretanLabyrinthRules.prepare`): its stops without the key plus the
        blank squares crossed, which become stops within two spaces of another player
        holding the key. A walk of the keeper that comes within two spaces of another
        player (who stops it for a battle) is found and kept by where the players it can
        meet stand."""
        found = self._stops
        if found is not None:
            return found
        g = self.game
        p = self.turn
        pos = self.pos
        keys = self.keys
        table = g._free.get(self.players)
        if table is None:
            table = g.prepare(self.players)
        go = g._go_index[self.direction]
        found = table[p][pos[p]][go][self.distance]
        if True not in keys or not g.single_key:  # nobody holds the Magic Key
            if self.stage == STAGE_MOVE:
                self._stops = found
            return found
        keeper = keys.index(True)  # self.keeper()
        if keeper == p:
            # The keeper's walk is stopped for a battle as soon as it comes within two
            # spaces of another player; if no node it walks is that near anybody, it is
            # the board's walk. (Only players within reach matter: a step brings the
            # keeper at most as many spaces nearer as the node stepped onto is wide.)
            walked = found[3]
            near_to = g.tables.near
            out = self.out
            for q in range(self.players):
                if q != p and not out[q] and not near_to[pos[q]].isdisjoint(walked):
                    reach = g.reach_table[pos[p]]
                    near = self.distance * g.widest + 2
                    met = tuple(
                        q for q in range(self.players) if q != p and not out[q] and reach[pos[q]] <= near
                    )
                    if q not in met:
                        continue  # (out of reach: never so)
                    memo: tuple[Hashable, ...] = (
                        self.players, p, pos[p], go, self.distance, tuple(pos[q] for q in met), met
                    )
                    met_walk = g._met_walks.get(memo)
                    if met_walk is None:
                        met_walk = g.keep_walk(memo, self._walk_of(self._met_stops(go)))
                    found = met_walk
                    break
            if self.stage == STAGE_MOVE:
                self._stops = found
            return found
        blanks_crossed = found[2]
        # Mostly none is near the keeper: one set test then.
        if blanks_crossed and not g.tables.near[pos[keeper]].isdisjoint(blanks_crossed):
            keeper_reach = g.reach_table[pos[keeper]]
            extra = tuple(b for b in blanks_crossed if keeper_reach[b] <= 2)
            if extra:
                memo = (self.players, p, pos[p], go, self.distance, extra)
                with_extra = g._met_walks.get(memo)
                if with_extra is None:
                    stops = dict(found[0])
                    for b in extra:
                        stops[b] = -1
                    with_extra = g.keep_walk(memo, self._walk_of(stops))
                found = with_extra
        if self.stage == STAGE_MOVE:
            self._stops = found
        return found

    def _walk_of(
        self, stops: dict[int, int], blanks: tuple[int, ...] = (), visited: tuple[int, ...] = ()
    ) -> Walk:
        """The :data:`~.tables.Walk` of ``stops``: with the legal moves to them, in the
        board's order (``pass`` when none), and ``blanks`` and ``visited`` as given."""
        if not stops:
            return stops, _PASS_ONLY, blanks, visited
        g = self.game
        step = g.tables.step_moves[self.pos[self.turn]]
        return stops, tuple(map(step.__getitem__, sorted(stops, key=g.node_rank.__getitem__))), blanks, visited

    def _met_stops(self, go: int) -> dict[int, int]:
        """The stops of the walk of the Magic Key's keeper (the player to move), who must
        stop and battle as soon as they come within two spaces of another player (key
        rule 7): the board's walk (its :data:`~.tables.Trace` for each direction ``go``
        walks) cut short there, as :meth:`_find_stops` finds it step by step."""
        game = self.game
        p = self.turn
        pos = self.pos
        start = pos[p]
        distance = self.distance
        reach = game.reach_table
        near = distance * game.widest + 2
        start_reach = reach[start]
        # Clockwise from the keeper: the first of them to come within range is the attacker
        # (a player out of the game is nobody to meet).
        out = self.out
        others = [
            (q, reach[pos[q]])
            for q in ((p + i) % self.players for i in range(1, self.players))
            if start_reach[pos[q]] <= near and not out[q]
        ]
        stop_near_start = game.stop_near_start
        traces = self.game._traces[self.players][p][start]
        result: dict[int, int] = {}
        path = [start] * (distance + 1)  # the node walked at each step of the way there
        for visits, _ in (traces if go == len(traces) else (traces[go],)):
            skip = distance  # visits deeper than this are not walked
            for n, depth, crossed, ends, _goes_on in visits:
                if depth > skip:
                    continue  # past the throw, or on a way cut short for a battle
                skip = distance
                if depth:
                    last = path[depth - 1]
                    met = -1
                    for q, r in others:
                        if r[n] <= 2 and (r[last] > 2 or (stop_near_start and last == start)):
                            met = q
                            break
                    if met >= 0:
                        result[n] = met
                        skip = depth
                        continue
                path[depth] = n
                if depth == distance or ends:
                    if n != start:
                        result.setdefault(n, -1)
                    for c in crossed:
                        result.setdefault(c, -1)
        result.pop(start, None)
        return result

    def _find_stops(
        self, blanks: list[int] | None = None, visited: list[int] | None = None, free: bool = False
    ) -> dict[int, int]:
        """The walk of :meth:`stops`, step by step (what the board's tables hold and
        :meth:`_met_stops` finds along them; the tests check them against it). ``free``: as
        if nobody held the Magic Key, the blank squares crossed (other than the start)
        added to ``blanks``, every node walked (the start included) to ``visited``."""
        game = self.game
        board = game.board
        p = self.turn
        card = self.card(self.direction) if self.direction else None
        dirs = range(4) if card is None or card.go == "any" else (DIRECTIONS.index(card.go),)
        keeper = None if free else self.keeper()
        reach = game.reach_table
        # Within two spaces of the keeper a move may stop anywhere (key rules 1-2).
        near_keeper = reach[self.pos[keeper]] if keeper is not None and keeper != p else None
        # Clockwise from the keeper: the first of them to come within range is the attacker
        # (only those the walk can come near: see _walk).
        near = self.distance * game.widest + 2
        start_reach = reach[self.pos[p]]
        others = (
            [
                (q, reach[self.pos[q]])
                for q in ((p + i) % self.players for i in range(1, self.players))
                if start_reach[self.pos[q]] <= near and not self.out[q]
            ]
            if keeper == p else []
        )
        allowed, cut = game.ways(self.players, p)
        colours = board.colours
        palace = board.palace
        gate_seat = game.gate_seat_of
        start = self.pos[p]
        stop_near_start = game.stop_near_start
        result: dict[int, int] = {}

        def stoppable(n: int) -> bool:
            if colours[n] is not None or n == palace:
                return True
            if gate_seat[n] >= 0:
                return True  # own or unused gateway (others' cannot be entered)
            if blanks is not None:
                blanks.append(n)
            return near_keeper is not None and near_keeper[n] <= 2

        def end(n: int, crossed: tuple[int, ...]) -> None:
            if n != start:
                result.setdefault(n, -1)
            for c in crossed:
                result.setdefault(c, -1)

        def met(s: int, n: int) -> int:
            """'If the keeper of the Magic Key passes within two spaces of another player
            then [he] must stop and do battle ... as soon as [he] comes within range.'
            The player met stepping from ``n`` to ``s``, or -1."""
            for q, r in others:
                if r[s] <= 2 and (r[n] > 2 or (stop_near_start and n == start)):
                    return q
            return -1

        def walk(n: int, left: int, d: int, crossed: tuple[int, ...]) -> None:
            while True:
                if visited is not None:
                    visited.append(n)
                if left == 0:
                    end(n, crossed)
                    return
                nexts = allowed[n][d]
                if cut[n][d] or not nexts:
                    end(n, crossed)  # a wall or another's gateway ends this way out
                if len(nexts) == 1:
                    # one way on: walk on here rather than in a call
                    s = nexts[0]
                    if others:
                        q = met(s, n)
                        if q >= 0:
                            result[s] = q
                            return
                    if n != start and stoppable(n):
                        crossed = (*crossed, n)
                    n = s
                    left -= 1
                    continue
                for s in nexts:
                    if others:
                        q = met(s, n)
                        if q >= 0:
                            result[s] = q
                            continue
                    walk(s, left - 1, d, (*crossed, n) if n != start and stoppable(n) else crossed)  # noqa: F821 (the del below)
                return

        for d in dirs:
            walk(start, self.distance, d, ())
        # walk refers to itself through its closure: without this, every walk found
        # left a cycle (the functions, their cells, the lists) for the collector, 400,000
        # objects for the walks of a 4-player game.
        del walk
        result.pop(start, None)
        return result
