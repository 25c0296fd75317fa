"""The board-geometry tables of a Cretan Labyrinth game, with their bounds.

A game object owns one :class:`BoardTables` for its board (no module-global cache):
the distance tables are built when the game is made, and the walks of a move (its stops
and legal moves) are kept as they are found, up to a stated number.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Final, TypeAlias

from companion.rules.core import Move
from companion.rules.cretan_data import Board

Walk: TypeAlias = tuple[dict[int, int], tuple[Move, ...], tuple[int, ...], tuple[int, ...]]
"""A walk found (see ``CretanLabyrinthState._walk``): its stops (node -> the player to
battle there, -1 for none), the legal moves to them, the blank squares it crosses that
are not stops (they become stops near another player holding the Magic Key) and every
node it goes through (the start included; empty for a walk that met a keeper). One
tuple per walk, in one store: the walks are frozen out of the collector's sight when a
game begins, and a store of its own for the crossings, re-tracked by the collector when
a walk is added in play, was walked by every full collection (benchmarks/gc_pauses.py)."""

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
        self.walks: dict[tuple[Hashable, ...], Walk] = {}
        """Walks already found (see CretanLabyrinthState._walk), as if nobody held the
        Magic Key: at most :data:`WALKS_KEPT`, then forgotten all at once."""
        self.met_walks: dict[tuple[Hashable, ...], Walk] = {}
        """Walks that meet the Magic Key's keeper: by where the players met stand."""
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


__all__ = ["MET_WALKS_KEPT", "WALKS_KEPT", "BoardTables", "Walk", "node_order"]
