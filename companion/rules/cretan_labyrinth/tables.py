"""The board-geometry tables of a Cretan Labyrinth game, with their bounds.

A game object owns one :class:`BoardTables` for its board (no module-global cache):
the distance tables are built when the game is made, and the walks of a move (its stops
and legal moves) are kept as they are found, up to a stated number.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Final

from companion.rules.core import Move
from companion.rules.cretan_data import Board

WALKS_KEPT: Final = 40_000
"""The board's walks (stops and legal moves of one move) a game keeps: all of them for
four players on the default board (about 15,500, some 10 MB)."""

MET_WALKS_KEPT: Final = 4_000
"""Walks that meet the Magic Key's keeper a game keeps (they depend on where players
stand, and recur less)."""


class BoardTables:
    """What a board's geometry decides, owned by one game object and built when the game
    is made: tables of distances, gateways and the order of squares, and the walks found
    (the stops of a move depend on the board, the direction, the distance and where a
    keeper stands), each store with a stated bound (:data:`WALKS_KEPT`,
    :data:`MET_WALKS_KEPT`)."""

    def __init__(self, board: Board) -> None:
        nodes = range(len(board.names))
        self.gate_seat_of: tuple[int, ...] = tuple(board.gate_seat(n) for n in nodes)
        """The seat (0-based) whose gateway node ``n`` is, or -1."""
        self.reach_table: tuple[tuple[int, ...], ...] = tuple(
            tuple(board.reach(a, b) for b in nodes) for a in nodes
        )
        """``reach_table[a][b]`` is ``board.reach(a, b)`` (squares, diagonal steps counted)."""
        self.gap_table: tuple[tuple[int, ...], ...] = tuple(
            tuple(board.gap(a, b) for b in nodes) for a in nodes
        )
        """``gap_table[a][b]`` is ``board.gap(a, b)`` (squares, walls ignored)."""
        self.longest_gap: int = max(1, max(max(row) for row in self.gap_table))
        self.widest: int = max(max(r.c1 - r.c0, r.r1 - r.r0) + 1 for r in board.rects)
        """The most squares a node spans across (2: the palace and the gateways)."""
        ranked = sorted(nodes, key=node_order(board))
        self.node_rank: tuple[int, ...] = tuple(ranked.index(n) for n in nodes)
        """The place of each node in the order legal moves list their squares."""
        self.barred: dict[int, tuple[frozenset[int], ...]] = {}
        self.homes: dict[int, tuple[int, ...]] = {}
        self.ways: dict[
            tuple[int, int], tuple[tuple[tuple[tuple[int, ...], ...], ...], tuple[tuple[bool, ...], ...]]
        ] = {}
        self.walks: dict[tuple[Hashable, ...], tuple[dict[int, int], tuple[Move, ...]]] = {}
        """Stops and moves of walks already found (see CretanLabyrinthState._walk): at
        most :data:`WALKS_KEPT`, then forgotten all at once."""
        self.met_walks: dict[tuple[Hashable, ...], tuple[dict[int, int], tuple[Move, ...]]] = {}
        """Walks that meet the Magic Key's keeper: by where the players met stand."""
        self.blanks: dict[tuple[Hashable, ...], tuple[int, ...]] = {}
        """The blank squares a walk crosses, for a keeper within two spaces of them."""
        self.visited: dict[tuple[Hashable, ...], tuple[int, ...]] = {}
        """Every node a walk goes through: a keeper's walk meets nobody when none of
        them is within two spaces of another player."""
        self.prepared: set[int] = set()
        """The player counts whose walks are all found (see ``CretanLabyrinthRules.prepare``)."""
        self.flights: dict[tuple[int, int, int], tuple[Move, ...]] = {}
        """Pegasus's choices by (players, player, square): every square it may fly to."""


def node_order(board: Board) -> Callable[[int], tuple[int, int, int]]:
    """Sort key: palace and gateways first, then squares by column and row."""

    def key(n: int) -> tuple[int, int, int]:
        r = board.rects[n]
        return (0 if board.colours[n] is None and r.c0 != r.c1 else 1, r.c0, r.r0)

    return key


__all__ = ["MET_WALKS_KEPT", "WALKS_KEPT", "BoardTables", "node_order"]
