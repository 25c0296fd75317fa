"""The board model: one game position as plain frozen data, for every picture of it.

A :class:`Board` is what the OLED picture (:func:`companion.ui.games.boards.draw_board`),
the words of "Game status" (:func:`~companion.ui.games.boards.pieces_in_words`) and the
web page's SVG (:func:`~companion.ui.games.boards.board_svg`) are all made from. It
holds no rules: it is read once from a position through the rules' public queries
(``state.pieces()``, the engines' board data) and then only looked at.

Positions on the board:

* every :class:`Cell` has a logical grid position, ``row`` 0 at the top as the picture
  is drawn and ``col`` 0 at the left, and spans ``rows`` x ``cols`` grid squares (the
  Cretan palace and gateways span 2 x 2);
* on a track game (both Senets, the Labyrinth) ``track`` is the cell's number along
  the track (1 .. ``Board.track_length``), the number the engine and the players use;
  on the Cretan grid it is ``None``;
* ``square`` is the engine's own name of the cell (``12``, ``"c4"``, ``"palace"``), the
  same value as :attr:`companion.rules.PieceAt.square` and :attr:`companion.rules.Move.src`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from companion.i18n import _
from companion.rules import Move, PieceZone
from companion.rules.core import Square

# Kinds of Mark (what is special about a cell), in the games' own words.
HOUSE_OF_REBIRTH = "house-of-rebirth"
"""Senet (Tait) 15: 'marked on our board with an Ankh', a safe square."""
HOUSE_OF_BEAUTY = "house-of-beauty"
"""Senet (Tait) 26: 'marked with a circle'."""
HOUSE_OF_WATER = "house-of-water"
"""Senet (Tait) 27: 'marked with water'."""
SUN = "sun"
"""Casting-stick Senet: a Sun square, safe."""
RIVER = "river"
"""Casting-stick Senet: a river; ``target`` is the square it carries a plinth to."""
RIVER_END = "river-end"
"""Casting-stick Senet: where a river ends; ``target`` is the river's square."""
HOME_ROW = "home-row"
"""Casting-stick Senet: a square of a Home Row; ``player`` is whose."""
RESURRECTION = "resurrection"
"""Casting-stick Senet: a player's space for resurrecting out of the Abyss; ``player``."""
SANCTUARY = "sanctuary"
"""Labyrinth: any number of Athenians may share the field."""
EXACT_COUNT = "exact-count"
"""Labyrinth: the field is entered by exact count (the surplus bounces back)."""
GOOSE = "goose"
"""Labyrinth: the 'Flock of Geese a-flying' arrows: the die counts again."""
JUMP = "jump"
"""Labyrinth: landing moves the piece on to ``target`` (forward, or back by a tunnel)."""
TRAP = "trap"
"""Labyrinth: landing traps the piece for ``turns`` turns; ``target``: the exit, if any."""
ORBIT = "orbit"
"""Labyrinth: a field of the Knight's Orbit."""
MILLSTONE = "millstone"
"""Labyrinth: the Millstone may be crossed to ``target``."""
ELYSIUM = "elysium"
"""Labyrinth: the last field, where pieces are borne off."""
PALACE = "palace"
"""Cretan Labyrinth: the palace at the centre (one square)."""
GATEWAY = "gateway"
"""Cretan Labyrinth: a gateway; ``player`` is whose own it is (-1 for a seat not used)."""
COLOURED = "coloured"
"""Cretan Labyrinth: a coloured space (a treasure chest); ``colour`` names it."""
WALL = "wall"
"""Cretan Labyrinth: a wall inside the board (no piece stands there)."""

MARK_KINDS = (
    HOUSE_OF_REBIRTH, HOUSE_OF_BEAUTY, HOUSE_OF_WATER, SUN, RIVER, RIVER_END, HOME_ROW,
    RESURRECTION, SANCTUARY, EXACT_COUNT, GOOSE, JUMP, TRAP, ORBIT, MILLSTONE, ELYSIUM,
    PALACE, GATEWAY, COLOURED, WALL,
)
"""Every kind of :class:`Mark`."""


@dataclass(frozen=True, slots=True)
class Mark:
    """One thing special about a cell: ``kind`` (one of :data:`MARK_KINDS`) and ``text``
    in the game's words (``"House of Beauty"``, ``"river to 15"``, ``"advance to 26"``).

    ``target``: the square a river, jump, tunnel, trap exit or Millstone crossing leads
    to; ``player``: whose Home Row, resurrection space or gateway (0-based); ``turns``:
    the turns a trap costs; ``colour``: a coloured space's colour (``"red"``).
    """

    kind: str
    text: str
    target: Square | None = None
    player: int | None = None
    turns: int = 0
    colour: str | None = None


@dataclass(frozen=True, slots=True)
class Cell:
    """A square or field of the board: see the module docstring for the coordinates.

    ``label`` is what the players read on it or call it (``"12"``, ``"c4"``,
    ``"palace"``); ``marks`` what is special about it, most telling first.
    """

    square: Square
    label: str
    row: int
    col: int
    rows: int = 1
    cols: int = 1
    track: int | None = None
    marks: tuple[Mark, ...] = ()

    def has(self, kind: str) -> bool:
        """Whether the cell carries a mark of ``kind``."""
        return any(m.kind == kind for m in self.marks)

    def mark(self, kind: str) -> Mark | None:
        """The cell's first mark of ``kind``, or ``None``."""
        for m in self.marks:
            if m.kind == kind:
                return m
        return None


@dataclass(frozen=True, slots=True)
class Piece:
    """One piece of player ``player`` (0-based): ``zone`` as the engine reports it,
    ``square`` when on the board; ``trapped`` the turns it still loses (Labyrinth; 0 when
    free)."""

    player: int
    zone: PieceZone
    square: Square | None = None
    trapped: int = 0


@dataclass(frozen=True, slots=True)
class Side:
    """A player: ``name`` as the game calls them (``"Black"``, ``"Red"``, ``"Player 1"``),
    ``letter`` the one character their pieces carry in a picture (``"R"``, ``"1"``;
    empty in the Senets, whose pieces are drawn ``filled`` or outlined), ``colour`` a
    CSS colour for the web page.

    ``holdings``: what the player holds, one short word each (Cretan Labyrinth:
    diamond colours, ``key``, tools and weapons; empty elsewhere); ``diamonds``: the
    diamond colours held, of ``diamond_colours``, the colours to collect (in the deck
    file's order); ``key``: holds a Magic Key; ``turns_lost``: turns the player
    still loses (Cretan Labyrinth); ``gateway``: the square of the player's own gateway
    (Cretan Labyrinth) or ``None``.
    """

    player: int
    name: str
    letter: str
    filled: bool
    colour: str
    holdings: tuple[str, ...] = ()
    diamonds: tuple[str, ...] = ()
    diamond_colours: tuple[str, ...] = ()
    key: bool = False
    turns_lost: int = 0
    gateway: Square | None = None


@dataclass(frozen=True, slots=True)
class Highlight:
    """A move to preview: which piece moves and where it lands.

    ``player`` moves the piece on ``src`` (``None``: a piece from ``src_zone``, the
    plinth, the entrance or the Abyss; ``None`` with ``src_zone`` BOARD: the move moves
    no piece, as ``pass`` or a yes/no answer). ``path`` are the squares where it lands, in
    order: the end of the count, then where a jump, tunnel, river or Millstone carries
    it (empty when the landing is not known yet, as for a ride on the Knight's Orbit
    whose free die is still to be thrown, or for a choice that moves nothing).
    ``dst_zone`` is where the piece ends: ``BOARD``, ``OFF`` (borne off) or ``OUTSIDE``
    (Senet's House of Water sends it back to its plinth).
    """

    move: Move
    player: int
    src: Square | None
    src_zone: PieceZone
    path: tuple[Square, ...]
    dst_zone: PieceZone

    @property
    def lands(self) -> Square | None:
        """The last square of :attr:`path` (where the piece stays), or ``None``."""
        return self.path[-1] if self.path else None


@dataclass(frozen=True)
class Board:
    """One position of one game, ready to be drawn (see the module docstring).

    ``game``: the game id (``"senet-tait"``); ``layout``: ``"grid"`` (the picture draws
    the cells where they stand) or ``"track"`` (the picture may draw any stretch of the
    track; the Labyrinth's 61 fields); ``grid``: (rows, columns) of the logical grid;
    ``cells``: in track order, or row by row for the Cretan grid; ``pieces``: every
    piece :meth:`companion.rules.State.pieces` reports, in its order; ``sides``: the
    players; ``to_act``: the player to throw, move or decide (``None`` once the game is
    over); ``zone_words``: how the game says where a piece off the board is, as
    ``(zone, words)`` pairs (``((OUTSIDE, "on the plinth"), (OFF, "off"))``; see
    :meth:`zone_word`). A board is hashable, so that its pictures can be cached.
    """

    game: str
    layout: str
    grid: tuple[int, int]
    cells: tuple[Cell, ...]
    pieces: tuple[Piece, ...]
    sides: tuple[Side, ...]
    to_act: int | None
    zone_words: tuple[tuple[PieceZone, str], ...]
    highlight: Highlight | None = None

    @functools.cached_property
    def _index(self) -> dict[Square, Cell]:
        return {c.square: c for c in self.cells}

    def zone_word(self, zone: PieceZone) -> str | None:
        """How the game says a piece is in ``zone`` (``"in the Abyss"``), in the language
        in use, or ``None`` for a zone the game's pieces never are in."""
        words = next((words for z, words in self.zone_words if z is zone), None)
        return None if words is None else _(words)

    @property
    def track_length(self) -> int:
        """The number of cells on the track (0 on the Cretan grid)."""
        return sum(1 for c in self.cells if c.track is not None)

    def cell(self, square: Square) -> Cell:
        """The cell of ``square``. :raises KeyError: for a square not on this board."""
        return self._index[square]

    def at(self, square: Square) -> list[Piece]:
        """The pieces on ``square``, in the order of :attr:`pieces`."""
        return [p for p in self.pieces if p.zone is PieceZone.BOARD and p.square == square]

    def count(self, player: int, zone: PieceZone) -> int:
        """How many of ``player``'s pieces are in ``zone``."""
        return sum(1 for p in self.pieces if p.player == player and p.zone is zone)

    def squares_of(self, player: int) -> list[Square]:
        """The squares of ``player``'s pieces on the board, in track (or grid) order."""
        order = {c.square: i for i, c in enumerate(self.cells)}
        found = [p.square for p in self.pieces if p.player == player and p.zone is PieceZone.BOARD]
        return sorted((s for s in found if s is not None), key=lambda s: order.get(s, len(order)))


__all__ = [
    "COLOURED",
    "ELYSIUM",
    "EXACT_COUNT",
    "GATEWAY",
    "GOOSE",
    "HOME_ROW",
    "HOUSE_OF_BEAUTY",
    "HOUSE_OF_REBIRTH",
    "HOUSE_OF_WATER",
    "JUMP",
    "MARK_KINDS",
    "MILLSTONE",
    "ORBIT",
    "PALACE",
    "RESURRECTION",
    "RIVER",
    "RIVER_END",
    "SANCTUARY",
    "SUN",
    "TRAP",
    "WALL",
    "Board",
    "Cell",
    "Highlight",
    "Mark",
    "Piece",
    "Side",
]
