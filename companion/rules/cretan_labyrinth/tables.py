"""The board-geometry tables of a Cretan Labyrinth board, with their bounds.

What a board's geometry decides does not change while a process runs: the distance
tables and every walk a move can make (its stops and legal moves, for every player,
square, direction card and distance). :func:`board_tables` builds them once per board
and shares them, immutable, between the game objects of one process that use that
board (the service's game, a journal read back by the publisher or the spectator page,
a search's copies): a second game of the same board costs nothing. At most
:data:`BOARDS_KEPT` boards are kept. What depends on a game's options or on where the
players stand (walks that meet the Magic Key's keeper, recurring events) stays with the
game object, each store with a stated bound.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import fields
from typing import Final, TypeAlias

from companion.rules.core import PASS, Move, Square
from companion.rules.cretan_data import DIRECTIONS, Board

Walk: TypeAlias = tuple[dict[int, int], tuple[Move, ...], tuple[int, ...], tuple[int, ...]]
"""A walk found (see ``CretanLabyrinthState._walk``): its stops (node -> the player to
battle there, -1 for none), the legal moves to them, the blank squares it crosses that
are not stops (they become stops near another player holding the Magic Key) and every
node it goes through (the start included; empty for a walk that met a keeper). Never
changed once made: states, copies and games share them."""

WalkTable: TypeAlias = tuple[tuple[tuple[tuple[Walk, ...], ...], ...], ...]
"""Every walk of one player count without a keeper near: ``table[p][node][go][distance]``
(``go`` an index of :data:`GO_INDEX`, ``distance`` 0 to the longest throw)."""

GO_INDEX: Final = {**{d: i for i, d in enumerate(DIRECTIONS)}, "any": len(DIRECTIONS)}
"""The index in a :data:`WalkTable` of where a direction card sends a move."""

BOARDS_KEPT: Final = 4
"""Boards whose tables a process keeps (the default board and a few of a user's own):
past that, the board used longest ago is forgotten (games using it keep theirs)."""

MET_WALKS_KEPT: Final = 4_000
"""Walks that meet the Magic Key's keeper a game keeps (they depend on where players
stand, and recur less)."""

Trace: TypeAlias = tuple[tuple[tuple[int, int, tuple[int, ...], bool, bool], ...], int]
"""The walk from one node in one direction to the longest distance: every visit in the
order the walk makes them, as (node, steps from the start, stoppable nodes crossed on
the way there, whether the way out ends there (a wall or another's gateway), whether it
goes on), and the most steps any visit is from the start."""

TraceTable: TypeAlias = tuple[tuple[tuple[Trace, ...], ...], ...]
"""The :data:`Trace` of every walk of one player count: ``table[p][node][direction]``."""


class BoardTables:
    """What one board's geometry decides, immutable once built (see :func:`board_tables`):
    tables of distances, gateways and the order of squares; the legal moves on it
    (interned); and, per player count and longest throw, every walk (:meth:`walks`).
    Not to be changed by its users."""

    def __init__(self, board: Board) -> None:
        self.board = board
        names = board.names
        nodes = range(len(names))
        self.gate_seat_of: tuple[int, ...] = tuple(board.gate_seat(n) for n in nodes)
        """The seat (0-based) whose gateway node ``n`` is, or -1."""
        rects = board.rects
        c0 = [r.c0 for r in rects]
        c1 = [r.c1 for r in rects]
        r0 = [r.r0 for r in rects]
        r1 = [r.r1 for r in rects]
        reach: list[tuple[int, ...]] = []
        gap: list[tuple[int, ...]] = []
        for a in nodes:  # board.reach and board.gap for every pair, without the calls
            ac0, ac1, ar0, ar1 = c0[a], c1[a], r0[a], r1[a]
            dxs = [max(0, ac0 - bc1, bc0 - ac1) for bc0, bc1 in zip(c0, c1, strict=True)]
            dys = [max(0, ar0 - br1, br0 - ar1) for br0, br1 in zip(r0, r1, strict=True)]
            reach.append(tuple(map(max, dxs, dys)))
            gap.append(tuple(dx + dy for dx, dy in zip(dxs, dys, strict=True)))
        self.reach_table: tuple[tuple[int, ...], ...] = tuple(reach)
        """``reach_table[a][b]`` is ``board.reach(a, b)`` (squares, diagonal steps counted)."""
        self.gap_table: tuple[tuple[int, ...], ...] = tuple(gap)
        """``gap_table[a][b]`` is ``board.gap(a, b)`` (squares, walls ignored)."""
        self.longest_gap: int = max(1, max(max(row) for row in self.gap_table))
        self.widest: int = max(max(r.c1 - r.c0, r.r1 - r.r0) + 1 for r in board.rects)
        """The most squares a node spans across (2: the palace and the gateways)."""
        ranked = sorted(nodes, key=node_order(board))
        rank = [0] * len(names)
        for i, n in enumerate(ranked):
            rank[n] = i
        self.node_rank: tuple[int, ...] = tuple(rank)
        """The place of each node in the order legal moves list their squares."""
        self.near: tuple[frozenset[int], ...] = tuple(
            frozenset(b for b in nodes if row[b] <= 2) for row in self.reach_table
        )
        """``near[a]``: the nodes within two spaces of ``a`` (``reach_table[a][b] <= 2``):
        where the Magic Key's keeper must stop for a battle with a player on ``a``."""
        self.stoppable: tuple[bool, ...] = tuple(
            board.colours[n] is not None or n == board.palace or self.gate_seat_of[n] >= 0 for n in nodes
        )
        """Whether a move may stop on node ``n`` as it crosses it: a coloured space, the
        palace or a gateway (rules 4-5, 10-13); not a blank square."""
        self.moves: dict[tuple[str, Square | None, Square | None, str], Move] = {}
        """Every :class:`Move` made on this board, interned (see ``CretanLabyrinthRules.move``):
        at most its kinds x its squares x its squares and labels."""
        self.step_moves: tuple[_StepMoves, ...] = tuple(_StepMoves(self.moves, names, a) for a in nodes)
        """``step_moves[a][b]``: the move from node ``a`` to node ``b`` (``a1-b3``),
        interned; made when first asked for."""
        self._walks: dict[tuple[tuple[int, ...], int], tuple[WalkTable, TraceTable]] = {}
        self._flights: dict[int, tuple[tuple[int, Move], ...]] = {}
        self._traces: dict[tuple[int, int, frozenset[int], int], Trace] = {}
        self._made: dict[tuple[int, ...], Walk] = {}
        self._moves_to: dict[tuple[int, tuple[int, ...]], tuple[Move, ...]] = {}
        self.walks_made = 0
        """How many distinct walks :meth:`walks` has built (a walk shared by several
        players, squares or distances counts once)."""

    def barred(self, seats: tuple[int, ...]) -> tuple[frozenset[int], ...]:
        """Per player (one per seat of ``seats``), the nodes it may not enter: the other
        players' gateways (rule 9)."""
        gates = self.board.gateways
        return tuple(
            frozenset(gates[s] for i, s in enumerate(seats) if i != p) for p in range(len(seats))
        )

    def ways(
        self, barred: frozenset[int]
    ) -> tuple[tuple[tuple[tuple[int, ...], ...], ...], tuple[tuple[bool, ...], ...]]:
        """For a player barred from ``barred``: the nodes one step from each node in each
        direction that it may enter (``[node][direction]``), and whether another
        player's gateway was left out there (rule 9 ends the way out)."""
        succ = self.board.succ
        allowed = tuple(tuple(tuple(s for s in way if s not in barred) for way in node) for node in succ)
        cut = tuple(
            tuple(len(a) < len(way) for a, way in zip(node_allowed, node, strict=True))
            for node_allowed, node in zip(allowed, succ, strict=True)
        )
        return allowed, cut

    def walks(self, seats: tuple[int, ...], longest: int) -> WalkTable:
        """Every walk for the players of ``seats`` (gateway seats, 0-based, one per
        player) and distances up to ``longest``, built on the first call (about 5,000
        distinct walks for 2, 3 and 4 players together on the default board, most of
        them shared: a walk that passes no gateway is the same for every player).

        A walk, as ``CretanLabyrinthState._find_stops(free=True)`` finds it: from the
        node, ``distance`` steps in the direction (each of the four for ``any``),
        branching where a way out leads to several nodes; it may stop where a way ends
        (after ``distance`` steps, at a wall, before another player's gateway) and on
        every coloured space, palace or gateway crossed on the way there.
        """
        return self._built(seats, longest)[0]

    def traces(self, seats: tuple[int, ...], longest: int) -> TraceTable:
        """The :data:`Trace` of every walk of :meth:`walks` (the walks that meet the
        Magic Key's keeper are found along them)."""
        return self._built(seats, longest)[1]

    def _built(self, seats: tuple[int, ...], longest: int) -> tuple[WalkTable, TraceTable]:
        key = (seats, longest)
        found = self._walks.get(key)
        if found is None:
            found = self._walks[key] = self._build_walks(seats, longest)
        return found

    def _build_walks(self, seats: tuple[int, ...], longest: int) -> tuple[WalkTable, TraceTable]:
        board = self.board
        names = board.names
        nodes = range(len(names))
        directions = range(len(DIRECTIONS))
        succ = board.succ
        free_ways = self.ways(frozenset())
        # Kept from one player count's build to the next: most walks are the same.
        traces = self._traces
        made = self._made
        moves_to = self._moves_to
        rank = self.node_rank.__getitem__
        table = []
        trace_table = []
        for barred in self.barred(seats):
            ways = self.ways(barred)
            rows = []
            trace_rows = []
            for start in nodes:
                src = names[start]
                per_dir = []
                for d in directions:
                    trace = traces.get((start, d, frozenset(), longest))
                    if trace is None:
                        trace = traces[start, d, frozenset(), longest] = self._trace(start, d, longest, *free_ways)
                    if barred and any(
                        not barred.isdisjoint(succ[n][d]) for n, depth, *_ in trace[0] if depth < longest
                    ):
                        # The free trace steps into a gateway barred to this player: theirs differs.
                        trace = traces.get((start, d, barred, longest))
                        if trace is None:
                            trace = traces[start, d, barred, longest] = self._trace(start, d, longest, *ways)
                    per_dir.append(trace)
                trace_rows.append(tuple(per_dir))
                row = []
                for go in (*((t,) for t in per_dir), tuple(per_dir)):
                    deepest = max(t[1] for t in go)
                    ids = tuple(id(t) for t in go)
                    walks = []
                    for distance in range(longest + 1):
                        # Past the deepest visit, a longer throw walks the same walk.
                        memo = (*ids, min(distance, deepest))
                        walk = made.get(memo)
                        if walk is None:
                            stops, blanks, visited = self._walk(start, go, distance)
                            order = tuple(sorted(stops, key=rank))
                            moves = moves_to.get((start, order))
                            if moves is None:
                                moves = moves_to[start, order] = (
                                    tuple(self.move("move", src, names[n]) for n in order) if order else (PASS,)
                                )
                            walk = made[memo] = (stops, moves, blanks, visited)
                            self.walks_made += 1
                        walks.append(walk)
                    row.append(tuple(walks))
                rows.append(tuple(row))
            table.append(tuple(rows))
            trace_table.append(tuple(trace_rows))
        return tuple(table), tuple(trace_table)

    def _trace(
        self,
        start: int,
        d: int,
        longest: int,
        allowed: tuple[tuple[tuple[int, ...], ...], ...],
        cut: tuple[tuple[bool, ...], ...],
    ) -> Trace:
        """The :data:`Trace` of the walk from ``start`` in direction ``d``."""
        stoppable = self.stoppable
        visits = []
        deepest = 0
        todo: list[tuple[int, int, tuple[int, ...]]] = [(start, 0, ())]
        while todo:
            n, depth, crossed = todo.pop()
            nexts = allowed[n][d]
            visits.append((n, depth, crossed, cut[n][d] or not nexts, bool(nexts)))
            deepest = max(deepest, depth)
            if depth == longest:
                continue
            on = (*crossed, n) if n != start and stoppable[n] else crossed
            todo.extend((s, depth + 1, on) for s in reversed(nexts))
        return tuple(visits), deepest

    def _walk(
        self, start: int, traces: tuple[Trace, ...], distance: int
    ) -> tuple[dict[int, int], tuple[int, ...], tuple[int, ...]]:
        """The stops, blank squares crossed and nodes visited of the walk of ``distance``
        steps along ``traces`` (one per direction walked), in the order the walk finds
        them."""
        stoppable = self.stoppable
        stops: dict[int, int] = {}
        blanks: list[int] = []
        visited: list[int] = []
        for visits, _ in traces:
            for n, depth, crossed, ends, goes_on in visits:
                if depth > distance:
                    continue
                visited.append(n)
                if depth == distance or ends:
                    if n != start:
                        stops.setdefault(n, -1)
                    for c in crossed:
                        stops.setdefault(c, -1)
                if depth < distance and goes_on and n != start and not stoppable[n]:
                    blanks.append(n)
        stops.pop(start, None)
        return (
            stops,
            tuple(b for b in dict.fromkeys(blanks) if b not in stops),
            tuple(dict.fromkeys(visited)),
        )

    def fly_moves(self, start: int) -> tuple[tuple[int, Move], ...]:
        """Every node but ``start`` with the move flying there from ``start`` (``fly``, on
        Pegasus), in the order legal moves list their squares; made once per node (a
        player's choices leave out the others' gateways)."""
        found = self._flights.get(start)
        if found is None:
            names = self.board.names
            src = names[start]
            moves = self.moves
            made = []
            for n in sorted(range(len(names)), key=self.node_rank.__getitem__):
                if n == start:
                    continue
                key = ("fly", src, names[n], "")
                move = moves.get(key)
                if move is None:
                    move = moves[key] = _new_move("fly", src, names[n])
                made.append((n, move))
            found = self._flights[start] = tuple(made)
        return found

    def move(self, kind: str, src: Square | None = None, dst: Square | None = None, label: str = "") -> Move:
        """The interned :class:`Move` with these fields."""
        key = (kind, src, dst, label)
        found = self.moves.get(key)
        if found is None:
            found = self.moves[key] = Move(kind, src, dst, (), label)
        return found


_MOVE_FIELDS: Final = ("kind", "src", "dst", "values", "label")
assert tuple(f.name for f in fields(Move)) == _MOVE_FIELDS, "Move's fields changed: see _new_move"
_move_set_kind, _move_set_src, _move_set_dst, _move_set_values, _move_set_label = (
    Move.__dict__[f].__set__ for f in _MOVE_FIELDS
)


def _new_move(kind: str, src: Square, dst: Square) -> Move:
    """``Move(kind, src, dst)``, equal and alike, made in a third of the time: its slots set
    directly, not through the frozen dataclass's ``__init__`` (a Pegasus card makes a move
    to every square of the board)."""
    move = object.__new__(Move)
    _move_set_kind(move, kind)
    _move_set_src(move, src)
    _move_set_dst(move, dst)
    _move_set_values(move, ())
    _move_set_label(move, "")
    return move


class _StepMoves(dict[int, Move]):
    """The moves from one node to others, by the node moved to: each made once (see
    :attr:`BoardTables.step_moves`)."""

    def __init__(
        self, moves: dict[tuple[str, Square | None, Square | None, str], Move], names: tuple[str, ...], start: int
    ) -> None:
        super().__init__()
        self.moves = moves  # the board's interned moves (not the tables: no reference cycle)
        self.names = names
        self.start = start

    def __missing__(self, node: int) -> Move:
        key = ("move", self.names[self.start], self.names[node], "")
        move = self.moves.get(key)
        if move is None:
            move = self.moves[key] = _new_move("move", key[1], key[2])
        self[node] = move
        return move


def board_key(board: Board) -> tuple[Hashable, ...]:
    """What of ``board`` its tables depend on (two boards read from equal files are equal)."""
    return (board.names, board.rects, board.colours, board.palace, board.gateways, board.succ)


class _Kept:
    """The boards' tables of this process: at most :data:`BOARDS_KEPT`, the board used
    longest ago forgotten first."""

    def __init__(self) -> None:
        self.tables: dict[tuple[Hashable, ...], BoardTables] = {}

    def get(self, board: Board) -> BoardTables:
        key = board_key(board)
        found = self.tables.pop(key, None)
        if found is None:
            found = BoardTables(board)
            while len(self.tables) >= BOARDS_KEPT:
                del self.tables[next(iter(self.tables))]
        self.tables[key] = found  # the most recently used last
        return found


_KEPT = _Kept()


def board_tables(board: Board) -> BoardTables:
    """The tables of ``board``, shared by every game object of this process that uses an
    equal board (built now for a board not seen yet, or forgotten)."""
    return _KEPT.get(board)


def node_order(board: Board) -> Callable[[int], tuple[int, int, int]]:
    """Sort key: palace and gateways first, then squares by column and row."""

    def key(n: int) -> tuple[int, int, int]:
        r = board.rects[n]
        return (0 if board.colours[n] is None and r.c0 != r.c1 else 1, r.c0, r.r0)

    return key


__all__ = [
    "BOARDS_KEPT",
    "GO_INDEX",
    "MET_WALKS_KEPT",
    "BoardTables",
    "Trace",
    "TraceTable",
    "Walk",
    "WalkTable",
    "board_key",
    "board_tables",
    "node_order",
]
