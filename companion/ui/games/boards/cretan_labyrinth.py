"""The Cretan Labyrinth: the board model, its OLED picture and the inventories page.

The board is the game's board data (seed ``004_fc892f1937d88e90.txt`` gives no
drawing; ``companion/rules/data/cretan_labyrinth.toml`` or the player's own file): a
grid seen from above, north at the top, columns lettered from the west (``a1`` is the
bottom left corner), with "the palace in the centre", a gateway on each side ("a large
colored square on each side of the board", 2 x 2 squares here), coloured spaces
(treasure chests) and walls.

The OLED picture shows the region of the grid around the player to act (or around the
previewed move), with the column letters above it and the row numbers beside it, as
the players name the squares: each player's piece is a token with the player's number,
an empty coloured space the capital initial of its colour, the palace its battlements,
a gateway an arch, a wall a hatch. Beside the region every player's square and who
holds the Magic Key. The inventories are a second page (:func:`draw_inventories`).
"""

from __future__ import annotations

from typing import Final

from PIL import Image, ImageDraw

from companion.i18n import _, ngettext
from companion.rules import Move, PieceZone
from companion.rules.core import Square
from companion.rules.cretan_data import ITEMS, square_name
from companion.rules.cretan_labyrinth import CretanLabyrinthState
from companion.ui.font import draw_text, text_width, wrap
from companion.ui.rules_words import say

from . import model as m
from .model import Board, Cell, Highlight, Mark, Piece, Side
from .pixels import (
    ARCH,
    KEY,
    MARKER,
    PALACE,
    art_size,
    blit,
    cells_once,
    hatch,
    highlighted_squares,
    invert,
    shown_pieces,
    tiny,
    token,
)

SHORT_ITEM_NAMES: Final = {i: ("Medusa-head" if i == "head" else i) for i in ITEMS}
"""One word per tool or weapon for the lists (C5: the Head of Medusa is ``Medusa-head``,
not ``Medusa``, which is also a creature on the cards)."""


def holdings(state: CretanLabyrinthState, p: int) -> list[str]:
    """What player ``p`` holds, one short word each, in a fixed order: the diamonds by
    colour (the deck file's order), ``key`` for a Magic Key, then the tools and weapons
    in the weapon table's order (``Medusa-head`` for the Head of Medusa). The board
    picture's inventories use the same words."""
    words = state.diamonds_held(p)
    if state.keys[p]:
        words.append("key")
    return words + [SHORT_ITEM_NAMES[i] for i in state.item_kinds(p)]


PALETTE = ("firebrick", "royalblue", "forestgreen", "goldenrod")
"""The web page's colours of Players 1-4 (the seed gives the players no colours)."""


def _cells(state: CretanLabyrinthState) -> tuple[Cell, ...]:
    """Every node of the board data (the palace and the gateways spanning their
    squares) and every wall square, row by row from the north."""
    game = state.game
    data = game.board
    seats = game.seats(state.players)
    cells: list[Cell] = []
    covered: set[tuple[int, int]] = set()
    for n, name in enumerate(data.names):
        rect = data.rects[n]
        marks: list[Mark] = []
        if n == data.palace:
            marks.append(Mark(m.PALACE, "the palace"))
        seat = data.gate_seat(n)
        if seat >= 0:
            if seat in seats:
                owner = seats.index(seat)
                marks.append(Mark(m.GATEWAY, f"{state.name(owner)}'s gateway", player=owner))
            else:
                marks.append(Mark(m.GATEWAY, f"gateway {seat + 1} (no player)"))
        colour = data.colours[n]
        if colour is not None:
            marks.append(Mark(m.COLOURED, f"{colour} space", colour=colour))
        cells.append(Cell(
            name, name, data.height - 1 - rect.r1, rect.c0,
            rect.r1 - rect.r0 + 1, rect.c1 - rect.c0 + 1, marks=tuple(marks),
        ))
        covered.update((c, r) for c in range(rect.c0, rect.c1 + 1) for r in range(rect.r0, rect.r1 + 1))
    for r in range(data.height):
        for c in range(data.width):
            if (c, r) not in covered:
                name = square_name(c, r)
                cells.append(Cell(name, name, data.height - 1 - r, c, marks=(Mark(m.WALL, "wall"),)))
    cells.sort(key=lambda cell: (cell.row, cell.col))
    return tuple(cells)


def board_model(state: CretanLabyrinthState, highlight: Move | None = None) -> Board:
    """The board of ``state``; ``highlight`` a legal move (a stop, a flight on
    Pegasus) or decision to preview.

    :raises IllegalMoveError: when ``highlight`` is not one of ``state.legal_moves()``.
    """
    game = state.game
    data = game.board
    cells = cells_once(data, state.players, lambda: _cells(state))
    colours = tuple(game.decks.colours)
    sides = []
    for p in range(state.players):
        held = tuple(holdings(state, p))
        sides.append(Side(
            p, state.name(p), str(p + 1), filled=True, colour=PALETTE[p % len(PALETTE)],
            holdings=held, diamonds=tuple(c for c in colours if c in held), diamond_colours=colours,
            key="key" in held, turns_lost=state.turns_to_lose(p),
            gateway=data.names[state.own_gateway(p)],
        ))
    return Board(
        game=game.id,
        layout="grid",
        grid=(data.height, data.width),
        cells=cells,
        pieces=tuple(Piece(p.player, p.zone, p.square) for p in state.pieces()),
        sides=tuple(sides),
        to_act=state.current_player if state.outcome is None else None,
        zone_words=(),
        highlight=_highlight(state, highlight),
    )


def _highlight(state: CretanLabyrinthState, move: Move | None) -> Highlight | None:
    if move is None:
        return None
    p = state.current_player
    if move.kind in ("move", "fly") and move.src is not None and move.dst is not None:
        return Highlight(move, p, move.src, PieceZone.BOARD, (move.dst,), PieceZone.BOARD)
    if move.kind == "swap":  # the unicorn: change places with the player named
        where = {q.player: q.square for q in state.pieces() if q.zone is PieceZone.BOARD and q.square is not None}
        other = next((q for q in range(state.players) if state.name(q) == move.label), None)
        if p in where and other in where:
            return Highlight(move, p, where[p], PieceZone.BOARD, (where[other],), PieceZone.BOARD)
    return Highlight(move, p, None, PieceZone.BOARD, (), PieceZone.BOARD)


# ------------------------------------------------------------------------ picture

PITCH = 8
"""Pixels from one grid line to the next: 7 x 7 inside, a token with a digit fills it."""
LABEL_W = 12
"""Pixels left of the region for the row numbers (up to two digits)."""
PANEL_W = 48
"""Pixels right of the region for every player's square."""


def _region(board: Board, rows: int, cols: int) -> tuple[int, int]:
    """``(first row, first column)`` of the ``rows`` x ``cols`` region to draw: around
    the previewed move (its square and where it lands; only where it lands when both
    do not fit, as for a long flight on Pegasus), else the player to act."""
    h = board.highlight
    focus = [s for s in ((h.src, *h.path) if h is not None else ()) if s is not None]
    if not focus and board.to_act is not None:
        focus = board.squares_of(board.to_act)
    if not focus:
        focus = [board.pieces[0].square] if board.pieces and board.pieces[0].square is not None else []
    height, width = board.grid
    if not focus:
        return max(0, (height - rows) // 2), max(0, (width - cols) // 2)
    def span(squares: list[Square]) -> tuple[int, int, int, int]:
        boxes = [board.cell(s) for s in squares]
        return (
            min(c.row for c in boxes), max(c.row + c.rows - 1 for c in boxes),
            min(c.col for c in boxes), max(c.col + c.cols - 1 for c in boxes),
        )

    r0, r1, c0, c1 = span(focus)
    if (r1 - r0 >= rows or c1 - c0 >= cols) and h is not None and h.path:
        r0, r1, c0, c1 = span([h.path[-1]])
    top = (r0 + r1 + 1 - rows) // 2
    left = (c0 + c1 + 1 - cols) // 2
    return max(0, min(top, height - rows)), max(0, min(left, width - cols))


LETTERED_ROWS = 4
"""The fewest rows drawn under the column letters: a panel lower than that shows the
rows without the letters (a 32-pixel panel: three rows)."""


def lettered(height: int) -> bool:
    """Whether a picture ``height`` pixels high has the column letters above the region:
    on a 64-pixel panel and on a board page (44 pixels between its title and key line:
    four rows under the letters, the players' squares beside them say ``e9``)."""
    return (height - PITCH - 1) // PITCH >= LETTERED_ROWS


def draw(board: Board, size: tuple[int, int], blink: bool, canvas: Image.Image | None = None) -> Image.Image:
    """The region around the player to act (or the previewed move), its column letters
    and row numbers, and every player's square (see the module docstring). On a
    32-pixel panel: three rows, no column letters, no key line. ``canvas``: draw into this
    image (at least ``size``) instead of a new one."""
    width, height = size
    image = canvas if canvas is not None else Image.new("1", size, 0)
    dr = ImageDraw.Draw(image)
    tall = lettered(height)
    gx, gy = LABEL_W, (PITCH if tall else 0)
    grid_h, grid_w = board.grid
    cols = max(1, min(grid_w, (width - PANEL_W - gx - 2) // PITCH))
    rows = max(1, min(grid_h, (height - gy - 1) // PITCH))
    top, left = _region(board, rows, cols)
    pieces = shown_pieces(board, blink)
    inverted = set(highlighted_squares(board))
    right, bottom = gx + cols * PITCH, gy + rows * PITCH
    for cell in board.cells:
        if cell.row + cell.rows <= top or cell.row >= top + rows:
            continue
        if cell.col + cell.cols <= left or cell.col >= left + cols:
            continue
        x = gx + (cell.col - left) * PITCH
        y = gy + (cell.row - top) * PITCH
        # A palace or gateway partly in the region is cut at the region's edge.
        box = (max(x, gx), max(y, gy), min(x + cell.cols * PITCH, right), min(y + cell.rows * PITCH, bottom))
        dr.rectangle(box, outline=1)
        inner = (box[0] + 1, box[1] + 1, box[2] - 1, box[3] - 1)
        whole = box == (x, y, x + cell.cols * PITCH, y + cell.rows * PITCH)
        _cell(image, board, cell, pieces, inner, whole)
        if cell.square in inverted:
            invert(image, inner)
    for i in range(rows):
        label = str(grid_h - (top + i))
        draw_text(image, (gx - 1 - text_width(label), gy + i * PITCH + 1), label)
    if tall:
        for i in range(cols):
            draw_text(image, (gx + i * PITCH + 2, 0), chr(ord("a") + left + i))
    _panel(image, board, pieces, right + 4, size)
    return image


def _cell(image: Image.Image, board: Board, cell: Cell, pieces: list[Piece],
          inner: tuple[int, int, int, int], whole: bool) -> None:
    """One cell: its players' tokens, else its pictogram (only when the whole cell is in
    the region) or its colour's initial; a wall is hatched."""
    x0, y0, x1, y1 = inner
    here = sorted({p.player for p in pieces if p.zone is PieceZone.BOARD and p.square == cell.square})
    if cell.has(m.WALL):
        hatch(image, inner)
        return
    iw, ih = x1 - x0 + 1, y1 - y0 + 1
    if here:
        per_row = max(1, iw // 7)
        if len(here) <= per_row * max(1, ih // 7):
            across = min(len(here), per_row)
            down = (len(here) + per_row - 1) // per_row
            left = x0 + (iw - across * 7) // 2
            top = y0 + (ih - down * 7) // 2
            for k, p in enumerate(here):
                r, c = divmod(k, per_row)
                token(image, left + c * 7, top + r * 7, board.sides[p].letter, w=7, h=7)
        else:  # more players than tokens fit on one square: the panel says who
            token(image, x0, y0, "*", w=7, h=7)
        return
    art = PALACE if cell.has(m.PALACE) else ARCH if cell.has(m.GATEWAY) else None
    if art is not None:
        aw, ah = art_size(art)
        if aw <= iw and ah <= ih and whole:
            blit(image, x0 + (iw - aw) // 2, y0 + (ih - ah) // 2, art)
        return
    mark = cell.mark(m.COLOURED)
    if mark is not None and mark.colour:
        tiny(image, x0 + 2, y0 + 1, mark.colour[0].upper())


def _where(pieces: list[Piece] | tuple[Piece, ...], player: int) -> str:
    """The square of ``player``'s piece, ``out`` when it has left the board (option
    ``minotaur=out``, D30), ``""`` when it is not among ``pieces``."""
    for piece in pieces:
        if piece.player == player:
            if piece.square is not None:
                return str(piece.square)
            if piece.zone is PieceZone.OFF:
                return "out"
    return ""


def _panel(image: Image.Image, board: Board, pieces: list[Piece], left: int, size: tuple[int, int]) -> None:
    """Every player's token and square (``out`` for a player out of the game), the
    player to act pointed at; below (on a 64-pixel panel) who holds the Magic Key."""
    width, height = size
    y = 0
    for side in board.sides:
        if board.to_act == side.player:
            blit(image, left, y + 1, MARKER)
        token(image, left + 4, y, side.letter, w=7, h=7)
        draw_text(image, (left + 13, y), _where(pieces, side.player)[: (width - left - 13 + 1) // 6])
        y += PITCH
    if y + 2 + 7 <= height:
        holders = [s.letter for s in board.sides if s.key]
        y += 2
        blit(image, left + 1, y + 2, KEY)
        draw_text(image, (left + 13, y), " ".join(holders) if holders else _("palace"))


# --------------------------------------------------------------- inventories page

_LINE = 8
"""Pixels per line of the inventories page (a token there is 7 x 7, like on the board)."""


def _blocks(board: Board, width: int) -> list[list[tuple[str, Side]]]:
    """Per player the rows of their block: ``("head", side)`` (token, square, diamonds,
    key) then the text lines (tools and weapons, turns lost)."""
    chars = (width + 1) // 6
    blocks = []
    for side in board.sides:
        rows: list[tuple[str, Side]] = [("head", side)]
        diamonds = set(side.diamond_colours)
        tools = [say(w) for w in side.holdings if w not in diamonds and w != "key"]  # "Seil", not "rope"
        words = []
        if tools:
            words.append(" ".join(tools))
        if side.turns_lost:
            words.append(ngettext("loses {count} turn", "loses {count} turns", side.turns_lost).format(
                count=side.turns_lost))
        for line in wrap("; ".join(words), chars - 2) if words else []:
            rows.append(("  " + line, side))
        blocks.append(rows)
    return blocks


def _pages(board: Board, size: tuple[int, int]) -> list[list[tuple[str, Side]]]:
    width, height = size
    per_page = max(1, height // _LINE)
    pages: list[list[tuple[str, Side]]] = [[]]
    for block in _blocks(board, width):
        if pages[-1] and len(pages[-1]) + len(block) > per_page:
            pages.append([])
        for row in block:
            if len(pages[-1]) == per_page:
                pages.append([])
            pages[-1].append(row)
    return pages


def inventory_pages(board: Board, size: tuple[int, int]) -> int:
    """Pages of :func:`draw_inventories` on a panel of ``size`` pixels (at least 1)."""
    return len(_pages(board, size))


def draw_inventories(board: Board, size: tuple[int, int], page: int,
                     canvas: Image.Image | None = None) -> Image.Image:
    """Per player: their token and square (``out`` and nothing more for a player out of
    the game), the diamonds (found: lit; still to find:
    dotted, each with its colour's initial), a key when they hold a Magic Key, then
    their tools and weapons and the turns they still lose. A player's block is not split
    between pages unless it is longer than a page.

    :raises ValueError: ``page`` outside ``0 .. inventory_pages() - 1``.
    """
    pages = _pages(board, size)
    if not 0 <= page < len(pages):
        raise ValueError(f"inventory page {page} does not exist (pages 0 to {len(pages) - 1})")
    image = canvas if canvas is not None else Image.new("1", size, 0)
    for i, (kind, side) in enumerate(pages[page]):
        y = i * _LINE
        if kind != "head":
            draw_text(image, (0, y), kind)
            continue
        if board.to_act == side.player:
            blit(image, 0, y + 1, MARKER)
        token(image, 4, y, side.letter, w=7, h=7)
        where = _where(board.pieces, side.player)
        draw_text(image, (13, y), where[:6])
        if where == "out":
            continue  # nothing left to collect, nothing held
        x = 13 + 6 * 6 + 2
        for colour in side.diamond_colours:
            if x + 7 > size[0]:
                break
            if colour in side.diamonds:
                token(image, x, y, colour[:1].upper(), w=7, h=7)
            else:
                draw_text(image, (x + 1, y), colour[:1].upper())
            x += 8
        if side.key and x + art_size(KEY)[0] <= size[0]:
            blit(image, x + 1, y + 2, KEY)
    return image


def place_words(board: Board, side: Side) -> str:
    """Where a player stands, in words: ``in the palace``, ``on gate1, own gateway``, ``on d4``."""
    squares = board.squares_of(side.player)
    if not squares:
        return _("not on the board")
    cell = board.cell(squares[0])
    if cell.has(m.PALACE):
        return _("in the palace")
    gate = cell.mark(m.GATEWAY)
    if gate is not None and gate.player == side.player:
        return _("on {square}, own gateway").format(square=cell.label)
    return _("on {square}").format(square=cell.label)
