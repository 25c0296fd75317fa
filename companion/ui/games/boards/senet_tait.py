"""Senet under Tait's rules: the board model and its OLED picture.

The board (seed ``003_30ab1187949567ae.txt``): 30 squares in 3 rows of 10 along the
boustrophedon path, as ``docs/rules/senet-tait.md`` ("The board picture") draws it:
row 1 is squares 1-10 from left to right, row 2 squares 11-20 from right to left, row
3 squares 21-30 from left to right. "Square 15 is the House of Rebirth, marked on our
board with an Ankh. Square 26 is the House of Beauty, marked with a circle. Square 27
is the House of Water, marked with water." Black's pieces are drawn filled, White's
as rings.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from companion.i18n import N_, _, pgettext
from companion.rules import Move, PieceZone
from companion.rules.senet_tait import (
    HOUSE_OF_BEAUTY,
    HOUSE_OF_REBIRTH,
    HOUSE_OF_WATER,
    SQUARES,
    SenetTaitState,
)
from companion.ui.font import CELL_W, clip, draw_text, text_width

from . import model as m
from .model import Board, Cell, Highlight, Mark, Piece, Side
from .pixels import (
    ANKH,
    CIRCLE,
    MARKER,
    WATER,
    art_size,
    blit,
    disc,
    highlighted_squares,
    invert,
    shown_pieces,
    tiny,
    tiny_width,
)

COLUMNS = 10
"""Squares in a row of the board."""

ZONE_WORDS = ((PieceZone.OUTSIDE, N_("on the plinth")), (PieceZone.OFF, N_("off")))
"""'A new piece can be moved from the plinth to the board'; 'borne off the board'."""

_MARKS = {
    HOUSE_OF_REBIRTH: Mark(m.HOUSE_OF_REBIRTH, "House of Rebirth (safe)"),
    HOUSE_OF_BEAUTY: Mark(m.HOUSE_OF_BEAUTY, "House of Beauty"),
    HOUSE_OF_WATER: Mark(m.HOUSE_OF_WATER, "House of Water"),
}
_ART = {
    m.HOUSE_OF_REBIRTH: ANKH,
    m.HOUSE_OF_BEAUTY: CIRCLE,
    m.HOUSE_OF_WATER: WATER,
}


def grid_of(square: int) -> tuple[int, int]:
    """``(row, column)`` of ``square`` (1..30) on the drawn board, row 0 at the top."""
    row, k = divmod(square - 1, COLUMNS)
    return row, (k if row % 2 == 0 else COLUMNS - 1 - k)


def board_model(state: SenetTaitState, highlight: Move | None = None) -> Board:
    """The board of ``state``; ``highlight`` a legal move to preview.

    :raises IllegalMoveError: when ``highlight`` is not one of ``state.legal_moves()``.
    """
    cells = []
    for s in range(1, SQUARES + 1):
        row, col = grid_of(s)
        mark = _MARKS.get(s)
        cells.append(Cell(s, str(s), row, col, track=s, marks=(mark,) if mark else ()))
    names = [state.game.player_name(p, state.players) for p in range(state.players)]
    sides = tuple(
        Side(p, names[p], names[p][0], filled=p == 0, colour=("black", "white")[p])
        for p in range(state.players)
    )
    pieces = tuple(Piece(p.player, p.zone, p.square) for p in state.pieces())
    return Board(
        game=state.game.id,
        layout="grid",
        grid=(SQUARES // COLUMNS, COLUMNS),
        cells=tuple(cells),
        pieces=pieces,
        sides=sides,
        to_act=state.current_player if state.outcome is None else None,
        zone_words=ZONE_WORDS,
        highlight=_highlight(state, highlight),
    )


def _highlight(state: SenetTaitState, move: Move | None) -> Highlight | None:
    if move is None:
        return None
    p = state.current_player
    if move.kind == "enter":
        assert isinstance(move.dst, int)
        return Highlight(move, p, None, PieceZone.OUTSIDE, (move.dst,), PieceZone.BOARD)
    if move.kind == "move":
        assert isinstance(move.dst, int)
        # 'A piece landing on The House Of Water will be removed immediately from the
        # board, and put back on its plinth.'
        end = PieceZone.OUTSIDE if move.dst == HOUSE_OF_WATER else PieceZone.BOARD
        return Highlight(move, p, move.src, PieceZone.BOARD, (move.dst,), end)
    if move.kind == "bear-off":
        return Highlight(move, p, move.src, PieceZone.BOARD, (), PieceZone.OFF)
    return Highlight(move, p, None, PieceZone.BOARD, (), PieceZone.BOARD)


# ------------------------------------------------------------------------ picture


COUNT_LINE = 9
"""Pixels of the line of counts below the board: the 7-pixel glyphs and a gap above."""
PITCH_MIN = 11
"""The smallest pitch beside a line of counts: squares 10 pixels high inside (the Ankh is 9)."""


def _layout(height: int) -> tuple[int, int]:
    """``(pitch_y, count lines)`` on a panel ``height`` pixels high: on 64 pixels and more
    13-pixel rows and a line of counts per side; on a board page (44 pixels between a
    title and a key line) rows of :data:`PITCH_MIN` and one line of counts for both;
    on less, the rows alone."""
    if height >= 64:
        return 13, 2
    if height >= 3 * PITCH_MIN + 1 + COUNT_LINE + 1:
        return min(13, (height - 1 - COUNT_LINE - 1) // 3), 1
    return (height - 1) // 3, 0


def _pitches(size: tuple[int, int]) -> tuple[int, int, int]:
    """``(pitch_x, pitch_y, left)``: pixels from one grid line to the next, and the x of
    the board's left edge (the board is centred)."""
    width, height = size
    pitch_y = _layout(height)[0]
    pitch_x = min(12, (width - 1) // COLUMNS)
    return pitch_x, pitch_y, (width - (pitch_x * COLUMNS + 1)) // 2


def square_box(square: int, size: tuple[int, int]) -> tuple[int, int, int, int]:
    """The inside of ``square``'s box on a panel of ``size`` pixels (corners inclusive)."""
    pitch_x, pitch_y, left = _pitches(size)
    row, col = grid_of(square)
    x, y = left + col * pitch_x, row * pitch_y
    return x + 1, y + 1, x + pitch_x - 1, y + pitch_y - 1


def draw(board: Board, size: tuple[int, int], blink: bool, canvas: Image.Image | None = None) -> Image.Image:
    """The 3 x 10 board; below it how many pieces of each side are on the plinth and
    off: on a panel 64 pixels high or more a line per side, the side to act pointed at;
    on a board page (44 pixels high) one line for both, ``plinth ●5 ○3  off ●0 ○2``;
    under that, none. Empty squares show their number in small digits, the three Houses
    their pictures. ``canvas``: draw into this image (at least ``size``) instead of a
    new one."""
    height = size[1]
    image = canvas if canvas is not None else Image.new("1", size, 0)
    dr = ImageDraw.Draw(image)
    _, pitch_y, left = _pitches(size)
    pieces = shown_pieces(board, blink)
    on = {p.square: p for p in pieces if p.zone is PieceZone.BOARD}
    for cell in board.cells:
        assert isinstance(cell.square, int)
        inner = square_box(cell.square, size)
        dr.rectangle((inner[0] - 1, inner[1] - 1, inner[2] + 1, inner[3] + 1), outline=1)
        iw, ih = inner[2] - inner[0] + 1, inner[3] - inner[1] + 1
        piece = on.get(cell.square)
        if piece is not None:
            _piece(dr, inner, board.sides[piece.player].filled)
        elif cell.marks:
            art = _ART[cell.marks[0].kind]
            aw, ah = art_size(art)
            if aw <= iw and ah <= ih:
                blit(image, inner[0] + (iw - aw) // 2, inner[1] + (ih - ah) // 2, art)
        else:
            w = tiny_width(cell.label)
            tiny(image, inner[0] + (iw - w) // 2, inner[1] + (ih - 5 + 1) // 2, cell.label)
    for square in highlighted_squares(board):
        assert isinstance(square, int)
        invert(image, square_box(square, size))
    lines = _layout(height)[1]
    if lines == 2:
        _counts(image, board, pieces, board.grid[0] * pitch_y + 3, left)
    elif lines == 1:
        _count_line(image, board, pieces, board.grid[0] * pitch_y + 2, size[0])
    return image


def _piece(dr: ImageDraw.ImageDraw, inner: tuple[int, int, int, int], filled: bool) -> None:
    x0, y0, x1, y1 = inner
    d = min(x1 - x0, y1 - y0) - 1
    cx = x0 + (x1 - x0 - d) // 2
    cy = y0 + (y1 - y0 - d + 1) // 2
    disc(dr, (cx, cy, cx + d, cy + d), filled)


def _counts(image: Image.Image, board: Board, pieces: list[Piece], top: int, left: int) -> None:
    """One line per side: its piece, then ``plinth 3  off 0``; the plinth or the off
    count inverted when the previewed move takes a piece from the plinth or bears one off."""
    dr = ImageDraw.Draw(image)
    for side in board.sides:
        y = top + side.player * 10
        if board.to_act == side.player:
            blit(image, left, y + 1, MARKER)
        _piece(dr, (left + 4, y - 1, left + 14, y + 8), side.filled)
        plinth = sum(1 for p in pieces if p.player == side.player and p.zone is PieceZone.OUTSIDE)
        off = sum(1 for p in pieces if p.player == side.player and p.zone is PieceZone.OFF)
        parts = [(_("plinth"), plinth, PieceZone.OUTSIDE), (pgettext("pieces borne off, short", "off"), off, PieceZone.OFF)]
        x = left + 19
        for word, n, zone in parts:
            text = f"{word} {n}"
            draw_text(image, (x, y), text)
            if _previewed(board, side.player, zone):
                invert(image, (x - 1, y - 1, x + len(text) * 6 - 1, y + 7))
            x += (len(text) + 2) * 6


def _previewed(board: Board, player: int, zone: PieceZone) -> bool:
    """Whether the previewed move takes ``player``'s piece from ``zone`` or puts it there."""
    h = board.highlight
    return h is not None and h.player == player and (
        (h.src is None and h.src_zone is zone) or h.dst_zone is zone
    )


SMALL_DISC = 7
"""Pixels across a side's piece in the line of counts."""


def _count_line(image: Image.Image, board: Board, pieces: list[Piece], y: int, width: int) -> None:
    """One line under the board, ``plinth ●5 ○3  off ●0 ○2``: each zone's word, then per
    side its piece and how many of its pieces are there; a count inverted when the
    previewed move takes a piece from the plinth or bears one off. The gaps shrink when a
    language's words are long; a word that still does not fit ends in the ellipsis."""
    dr = ImageDraw.Draw(image)
    groups = [(_("plinth"), PieceZone.OUTSIDE), (pgettext("pieces borne off, short", "off"), PieceZone.OFF)]
    counts = {
        (side.player, zone): str(sum(1 for p in pieces if p.player == side.player and p.zone is zone))
        for side in board.sides for _w, zone in groups
    }
    pair = sum(SMALL_DISC + 1 + text_width(counts[side.player, zone])
               for side in board.sides for _w, zone in groups)
    words = [w for w, _z in groups]
    for gap, between in ((4, 7), (3, 5), (2, 3)):
        need = sum(text_width(w) for w in words) + pair + gap * len(board.sides) * 2 + between
        if need <= width:
            break
    else:  # still too long: the words share what is left, each clipped with the ellipsis
        room = width - (pair + gap * len(board.sides) * 2 + between)
        words = [clip(w, max(1, (room // 2 + 1) // CELL_W)) for w in words]
    x = 0
    for g, ((_w, zone), word) in enumerate(zip(groups, words, strict=True)):
        if g:
            x += between
        draw_text(image, (x, y), word)
        x += text_width(word)
        for side in board.sides:
            x += gap
            box = (x, y, x + SMALL_DISC - 1, y + SMALL_DISC - 1)
            if side.filled:
                disc(dr, box, True)
            else:  # a thick ring, as the board's double ring: a thin one reads as the letter O
                dr.ellipse(box, outline=1, width=2)
            text = counts[side.player, zone]
            draw_text(image, (x + SMALL_DISC + 1, y), text)
            end = x + SMALL_DISC + 1 + text_width(text)
            if _previewed(board, side.player, zone):
                invert(image, (x - 1, y - 1, end, y + 7))
            x = end
