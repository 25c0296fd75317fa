"""Pixel art shared by the board pictures: tokens, discs, small pictograms, tiny digits.

Everything draws into a mode "1" PIL image (1 = lit). Pictograms are strings of ``#``
(lit) and ``.`` (dark), one string per pixel row, so that each can be read here as the
picture it is. Sizes are in pixels.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PIL import Image, ImageChops, ImageDraw

from companion.rules import PieceZone
from companion.rules.core import Square
from companion.ui.font import draw_text, text_width

from .model import Board, Cell, Piece

Box = tuple[int, int, int, int]
"""``(x0, y0, x1, y1)``, both corners inclusive, in pixels."""

TOKEN_W = 7
"""Width of a lettered token (a piece that carries its player's letter)."""
TOKEN_H = 9
"""Height of a lettered token."""


def blit(image: Image.Image, x: int, y: int, art: Sequence[str], fill: int = 1) -> None:
    """Draw pictogram ``art`` (rows of ``#``/``.``) with its top-left corner at ``(x, y)``;
    pixels outside the image are skipped."""
    width, height = image.size
    px = image.load()
    assert px is not None
    for dy, row in enumerate(art):
        for dx, ch in enumerate(row):
            if ch == "#" and 0 <= x + dx < width and 0 <= y + dy < height:
                px[x + dx, y + dy] = fill


def art_size(art: Sequence[str]) -> tuple[int, int]:
    """``(width, height)`` of a pictogram."""
    return (max((len(r) for r in art), default=0), len(art))


def invert(image: Image.Image, box: Box) -> None:
    """Invert the pixels of ``box`` (clipped to the image)."""
    x0, y0, x1, y1 = box
    x0, y0 = max(0, x0), max(0, y0)
    x1, y1 = min(image.width - 1, x1), min(image.height - 1, y1)
    if x1 < x0 or y1 < y0:
        return
    region = image.crop((x0, y0, x1 + 1, y1 + 1))
    # ImageChops.invert() gives 254/255 on mode "1"; an exclusive or with lit is exact.
    image.paste(ImageChops.logical_xor(region, Image.new("1", region.size, 1)), (x0, y0))


def dotted_box(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """The outline of ``box`` drawn with every other pixel lit."""
    x0, y0, x1, y1 = box
    dots = [(x, y) for x in range(x0, x1 + 1, 2) for y in (y0, y1)]
    dots += [(x, y) for y in range(y0, y1 + 1, 2) for x in (x0, x1)]
    draw.point(dots, fill=1)


def token(image: Image.Image, x: int, y: int, letter: str, *, solid: bool = True,
          w: int = TOKEN_W, h: int = TOKEN_H) -> None:
    """A piece carrying ``letter`` in a ``w`` x ``h`` box at ``(x, y)``: ``solid`` is a lit
    box with the letter dark (a piece), otherwise an outline with the letter lit (a
    trapped piece, a diamond not yet found)."""
    draw = ImageDraw.Draw(image)
    box = (x, y, x + w - 1, y + h - 1)
    if solid:
        draw.rectangle(box, fill=1)
    else:
        dotted_box(draw, box)
    gx = x + (w - 5) // 2
    gy = y + max(0, (h - 8) // 2 + (1 if h >= 9 else 0))
    draw_text(image, (gx, gy), letter[:1], fill=0 if solid else 1)


def disc(draw: ImageDraw.ImageDraw, box: Box, filled: bool) -> None:
    """A Senet piece in ``box``: filled (Player 1) or a ring (Player 2). Boxes under 5
    pixels are drawn as squares, which read better than blurred circles."""
    x0, y0, x1, y1 = box
    if x1 - x0 < 4 or y1 - y0 < 4:
        draw.rectangle(box, fill=1 if filled else 0, outline=1)
        return
    draw.ellipse(box, fill=1 if filled else 0, outline=1)
    if not filled and x1 - x0 >= 8:
        draw.ellipse((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=1)


def centred_text(image: Image.Image, box: Box, text: str, fill: int = 1) -> None:
    """``text`` in the project font, centred in ``box`` (the 7-pixel glyphs, top aligned
    when the box is shorter than a cell)."""
    x0, y0, x1, y1 = box
    x = x0 + (x1 - x0 + 1 - text_width(text)) // 2
    y = y0 + max(0, (y1 - y0 + 1 - 7) // 2)
    draw_text(image, (x, y), text, fill=fill)


# ---------------------------------------------------------------- tiny digits (3x5)

TINY: dict[str, tuple[str, ...]] = {
    "0": ("###", "#.#", "#.#", "#.#", "###"),
    "1": (".#.", "##.", ".#.", ".#.", "###"),
    "2": ("##.", "..#", ".#.", "#..", "###"),
    "3": ("##.", "..#", ".#.", "..#", "##."),
    "4": ("#.#", "#.#", "###", "..#", "..#"),
    "5": ("###", "#..", "##.", "..#", "##."),
    "6": (".##", "#..", "###", "#.#", "###"),
    "7": ("###", "..#", ".#.", ".#.", ".#."),
    "8": ("###", "#.#", "###", "#.#", "###"),
    "9": ("###", "#.#", "###", "..#", "##."),
    "+": ("...", ".#.", "###", ".#.", "..."),
    "A": (".#.", "#.#", "###", "#.#", "#.#"),
    "B": ("##.", "#.#", "##.", "#.#", "##."),
    "C": (".##", "#..", "#..", "#..", ".##"),
    "D": ("##.", "#.#", "#.#", "#.#", "##."),
    "E": ("###", "#..", "##.", "#..", "###"),
    "F": ("###", "#..", "##.", "#..", "#.."),
    "G": (".##", "#..", "#.#", "#.#", ".##"),
    "H": ("#.#", "#.#", "###", "#.#", "#.#"),
    "I": ("###", ".#.", ".#.", ".#.", "###"),
    "J": ("..#", "..#", "..#", "#.#", ".#."),
    "K": ("#.#", "#.#", "##.", "#.#", "#.#"),
    "L": ("#..", "#..", "#..", "#..", "###"),
    "M": ("#.#", "###", "###", "#.#", "#.#"),
    "N": ("##.", "#.#", "#.#", "#.#", "#.#"),
    "O": (".#.", "#.#", "#.#", "#.#", ".#."),
    "P": ("##.", "#.#", "##.", "#..", "#.."),
    "Q": (".#.", "#.#", "#.#", "##.", ".##"),
    "R": ("##.", "#.#", "##.", "#.#", "#.#"),
    "S": (".##", "#..", ".#.", "..#", "##."),
    "T": ("###", ".#.", ".#.", ".#.", ".#."),
    "U": ("#.#", "#.#", "#.#", "#.#", "###"),
    "V": ("#.#", "#.#", "#.#", "#.#", ".#."),
    "W": ("#.#", "#.#", "###", "###", "#.#"),
    "X": ("#.#", "#.#", ".#.", "#.#", "#.#"),
    "Y": ("#.#", "#.#", ".#.", ".#.", ".#."),
    "Z": ("###", "..#", ".#.", "#..", "###"),
}
"""Digits, ``+`` and capitals 3 pixels wide, 5 high: for what must be small beside the
pieces (the numbers of Senet's squares, a count beside a token, a coloured space)."""


def tiny_width(text: str) -> int:
    """Width in pixels of ``text`` in the 3x5 digits."""
    return max(0, 4 * len(text) - 1)


def tiny(image: Image.Image, x: int, y: int, text: str, fill: int = 1) -> int:
    """Draw ``text`` (digits, ``+``, capitals; anything else is left blank) in the 3x5
    glyphs; returns the width drawn."""
    for i, ch in enumerate(text.upper()):
        blit(image, x + 4 * i, y, TINY.get(ch, ()), fill)
    return max(0, 4 * len(text) - 1)


# ----------------------------------------------------------------------- pictograms

ANKH = (
    "..###..",
    ".#...#.",
    ".#...#.",
    "..#.#..",
    "#######",
    "...#...",
    "...#...",
    "...#...",
    "...#...",
)
"""Senet's square 15, the House of Rebirth: 'marked on our board with an Ankh'."""

CIRCLE = (
    "..###..",
    ".#...#.",
    "#.....#",
    "#..#..#",
    "#.....#",
    ".#...#.",
    "..###..",
)
"""Senet's square 26, the House of Beauty: 'marked with a circle' (with a dot, so that it
is not taken for a piece)."""

WATER = (
    ".#...#...",
    "#.#.#.#.#",
    "...#...#.",
    ".........",
    ".#...#...",
    "#.#.#.#.#",
    "...#...#.",
)
"""Senet's square 27, the House of Water: 'marked with water' (the hieroglyph's waves)."""

SUN = (
    "#..#..#",
    ".#...#.",
    "..###..",
    "#.###.#",
    "..###..",
    ".#...#.",
    "#..#..#",
)
"""A Sun square of casting-stick Senet (safe)."""

WAVE = (
    ".#..",
    "#.#.",
    "...#",
)
"""A river (drawn before the number of the square it leads to)."""

ARROW_RIGHT = (
    "#..",
    "##.",
    "###",
    "##.",
    "#..",
)
ARROW_LEFT = (
    "..#",
    ".##",
    "###",
    ".##",
    "..#",
)
CROSSING = (
    "..#",
    "..#",
    ".#.",
    "#..",
    "#..",
)
"""The Millstone: crossed diagonally (drawn before the number of the field across)."""

HOURGLASS = (
    "#####",
    "#...#",
    ".#.#.",
    "..#..",
    ".#.#.",
    "#...#",
    "#####",
)
"""A trap: turns are lost (drawn before the number of turns)."""

GEESE = (
    "#..#...",
    ".#..#..",
    "..#..#.",
    ".#..#..",
    "#..#...",
)
"""The 'Flock of Geese a-flying' arrows."""

KNIGHT = (
    "..##..",
    ".####.",
    "##.##.",
    "...##.",
    "..###.",
    ".####.",
    "######",
)
"""A field of the Knight's Orbit (a chess knight: the fields link like a knight's moves)."""

STAR = (
    "...#...",
    "...#...",
    "#######",
    ".#####.",
    "..###..",
    ".##.##.",
    "##...##",
)
"""Elysium, where pieces are borne off."""

PALACE = (
    "#.#.#.#.#",
    "#########",
    ".#######.",
    ".##...##.",
    ".##.#.##.",
    ".##.#.##.",
    ".#######.",
)
"""The Cretan palace (battlements and a door)."""

ARCH = (
    ".#####.",
    "##...##",
    "#.....#",
    "#.....#",
    "#.....#",
)
"""A Cretan gateway (an arch)."""

KEY = (
    ".##......",
    "#..######",
    "#..#..#.#",
    ".##......",
)
"""The Magic Key."""

MARKER = (
    "#..",
    "##.",
    "###",
    "##.",
    "#..",
)
"""Points at the player to act."""


def hatch(image: Image.Image, box: Box) -> None:
    """Fill ``box`` with a diagonal hatch (a wall)."""
    x0, y0, x1, y1 = box
    px = image.load()
    assert px is not None
    for y in range(max(0, y0), min(image.height, y1 + 1)):
        for x in range(max(0, x0), min(image.width, x1 + 1)):
            if (x + y) % 3 == 0:
                px[x, y] = 1


# ------------------------------------------------------------ cells made once a board

_CELLS: dict[tuple[int, object], tuple[object, tuple[Cell, ...]]] = {}


def cells_once(data: object, extra: object, build: Callable[[], tuple[Cell, ...]]) -> tuple[Cell, ...]:
    """The cells of a game's board data ``data`` (an immutable object the engine keeps
    for the whole game) with ``extra`` (what else they depend on, e.g. the players'
    seats), built by ``build`` the first time only: a board picture is redrawn on every
    press of the move preview."""
    key = (id(data), extra)
    found = _CELLS.get(key)
    if found is not None and found[0] is data:
        return found[1]
    if len(_CELLS) > 32:
        _CELLS.clear()
    cells = build()
    _CELLS[key] = (data, cells)
    return cells


# ------------------------------------------------------------ the frame shown moved


def shown_pieces(board: Board, blink: bool) -> list[Piece]:
    """The pieces to draw: :attr:`Board.pieces`, or with ``blink`` and a highlight, the
    moving piece taken from where it stands and put where the move leaves it (the
    second frame of a blinking preview)."""
    pieces = list(board.pieces)
    h = board.highlight
    if not blink or h is None or (h.src is None and h.src_zone is PieceZone.BOARD):
        return pieces
    for i, p in enumerate(pieces):
        if p.player == h.player and p.zone is h.src_zone and p.square == h.src:
            del pieces[i]
            break
    else:
        return list(board.pieces)
    where = h.lands
    if h.dst_zone is PieceZone.BOARD and where is not None:
        pieces.append(Piece(h.player, PieceZone.BOARD, where))
    elif h.dst_zone is PieceZone.OUTSIDE and where is not None:
        pieces.append(Piece(h.player, PieceZone.BOARD, where))  # seen landing on the water
    elif h.dst_zone is PieceZone.OFF:
        pieces.append(Piece(h.player, PieceZone.OFF))
    elif h.src_zone is not PieceZone.BOARD or h.src is not None:
        pieces.append(Piece(h.player, h.src_zone, h.src))  # a ride: where is not known yet
    return pieces


def highlighted_squares(board: Board) -> list[Square]:
    """The squares drawn inverted for a highlight: where the moving piece stands and
    every square of its path."""
    h = board.highlight
    if h is None:
        return []
    out: list[Square] = []
    if h.src is not None:
        out.append(h.src)
    out += [s for s in h.path if s not in out]
    return out


def check_size(size: tuple[int, int]) -> tuple[int, int]:
    """``size`` as ``(width, height)`` if a board can be drawn on it.

    :raises ValueError: for a panel under 64 x 32 pixels.
    """
    width, height = size
    if width < 64 or height < 32:
        raise ValueError(f"a board picture needs at least 64 x 32 pixels, not {width} x {height}")
    return width, height
