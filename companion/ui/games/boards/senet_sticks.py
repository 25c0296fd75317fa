"""Casting-stick Senet: the board model and its OLED picture.

The board is the game's board data (seed ``002_4a37d4d91a7a1598.txt`` gives no
drawing; ``companion/rules/data/senet_sticks.toml`` or the player's own file): its
``rows`` x ``columns`` numbered boustrophedon from Player 1's Home Row, which is drawn
at the bottom ("Red sits at the bottom and travels up", ``docs/rules/senet-sticks.md``),
so Player 2's Home Row is the top row. The Sun squares, the rivers (with the square
each leads to), the Home Rows and the resurrection spaces are marked as the data
declares them. Player 1's plinths are drawn filled, Player 2's as rings; beside the
board each player's name at their end of it, and their plinths in the Abyss.
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from companion.i18n import N_, pgettext
from companion.rules import Move, PieceZone
from companion.rules.core import Square
from companion.rules.senet_sticks import SenetSticksState
from companion.rules.senet_sticks_board import BoardSpec
from companion.ui.font import clip, draw_text, text_width

from . import model as m
from .model import Board, Cell, Highlight, Mark, Piece, Side
from .pixels import (
    MARKER,
    SUN,
    WAVE,
    art_size,
    blit,
    disc,
    highlighted_squares,
    invert,
    shown_pieces,
    tiny,
    tiny_width,
)

ZONE_WORDS = ((PieceZone.HELD, N_("in the Abyss")),)
"""'the opponent's plinth is removed from the board and place in their Abyss'."""

CSS_COLOURS = frozenset({
    "black", "white", "red", "blue", "green", "yellow", "orange", "purple", "brown", "pink",
    "grey", "gray", "gold", "silver", "cyan", "magenta", "teal", "navy", "maroon", "olive",
    "lime", "violet", "indigo", "turquoise", "ivory", "tan",
})
"""Colour words of a board file that a web browser knows by name."""
_FALLBACK = ("firebrick", "royalblue")


def grid_of(square: int, rows: int, columns: int) -> tuple[int, int]:
    """``(row, column)`` of ``square`` on a ``rows`` x ``columns`` board drawn with
    square 1 at the bottom left, row 0 at the top."""
    up, k = divmod(square - 1, columns)
    return rows - 1 - up, (k if up % 2 == 0 else columns - 1 - k)


def _marks(spec: BoardSpec, square: int, names: list[str]) -> tuple[Mark, ...]:
    marks: list[Mark] = []
    if square in spec.rivers:
        to = spec.rivers[square]
        marks.append(Mark(m.RIVER, f"river to {to}", target=to))
    for src, to in spec.rivers.items():
        if to == square:
            marks.append(Mark(m.RIVER_END, f"end of the river from {src}", target=src))
    if square in spec.sun:
        marks.append(Mark(m.SUN, "Sun (safe)"))
    res = (spec.resurrection, spec.squares + 1 - spec.resurrection)
    for p in (0, 1):
        if square == res[p]:
            marks.append(Mark(m.RESURRECTION, f"{names[p]}'s space {spec.resurrection}", player=p))
    for p, home in enumerate(spec.home_rows):
        if square in home:
            marks.append(Mark(m.HOME_ROW, f"{names[p]}'s Home Row", player=p))
    return tuple(marks)


def board_model(state: SenetSticksState, highlight: Move | None = None) -> Board:
    """The board of ``state``; ``highlight`` a legal move to preview.

    :raises IllegalMoveError: when ``highlight`` is not one of ``state.legal_moves()``.
    """
    spec = state.game.spec
    names = [state.name(p) for p in range(state.players)]
    cells = []
    for s in range(1, spec.squares + 1):
        row, col = grid_of(s, spec.rows, spec.columns)
        cells.append(Cell(s, str(s), row, col, track=s, marks=_marks(spec, s, names)))
    colours = state.colours or spec.colours
    sides = tuple(
        Side(
            p, names[p], names[p][0].upper() if state.colours else str(p + 1), filled=p == 0,
            colour=colours[p] if colours[p] in CSS_COLOURS else _FALLBACK[p],
        )
        for p in range(state.players)
    )
    return Board(
        game=state.game.id,
        layout="grid",
        grid=(spec.rows, spec.columns),
        cells=tuple(cells),
        pieces=tuple(Piece(p.player, p.zone, p.square) for p in state.pieces()),
        sides=sides,
        to_act=state.current_player if state.outcome is None else None,
        zone_words=ZONE_WORDS,
        highlight=_highlight(state, highlight),
    )


def _highlight(state: SenetSticksState, move: Move | None) -> Highlight | None:
    if move is None:
        return None
    p = state.current_player
    if move.kind in ("move", "resurrect") and move.dst is not None:
        # Every value's landing in the order played (a river's square, then its end),
        # so that a row naming one value ("4 to 16 via river") has its square marked.
        path: list[Square] = []
        for step in state.path_of(move):
            for square in (step.river, step.square):
                if square is not None and square not in path:
                    path.append(square)
        if move.dst in path:
            path.remove(move.dst)
        path.append(move.dst)
        src_zone = PieceZone.BOARD if move.kind == "move" else PieceZone.HELD
        return Highlight(move, p, move.src, src_zone, tuple(path), PieceZone.BOARD)
    return Highlight(move, p, None, PieceZone.BOARD, (), PieceZone.BOARD)


# ------------------------------------------------------------------------ picture

PANEL_W = 44
"""Pixels right of the board for the players' names and Abyss counts."""


Spot = tuple[int, int] | None
"""Where a square is drawn (row, column), or ``None`` when it is not in the picture."""
MIN_PITCH = 6
"""The smallest square drawn (5 x 5 inside: a plinth of 3 x 3, filled or hollow)."""


def _geometry(board: Board, size: tuple[int, int]) -> tuple[int, int, int, int, list[Spot]]:
    """``(pitch_x, pitch_y, rows, columns, spots)``: ``spots[i]`` is the drawn (row,
    column) of track square i+1. The data's grid as it is, or turned a quarter
    (Player 1's Home Row at the left) when that gives bigger squares (a 6 x 5 board on
    a 32-pixel panel). A board whose squares would be under :data:`MIN_PITCH` pixels is
    folded boustrophedon into as many rows as fit; when even those are too few, the
    rows around the previewed move (or the player to act's first plinth) are drawn."""
    width, height = size
    rows, cols = board.grid
    room_w, room_h = width - PANEL_W - 2, height - 1
    top_y = 10 if height >= 64 else room_h
    px, py = min(16, room_w // cols), min(top_y, room_h // rows)
    tx, ty = min(16, room_w // rows), min(top_y, room_h // cols)
    if min(tx, ty) > min(px, py) and min(tx, ty) >= MIN_PITCH:
        return tx, ty, cols, rows, [(c.col, rows - 1 - c.row) for c in board.cells]
    if min(px, py) >= MIN_PITCH:
        return px, py, rows, cols, [(c.row, c.col) for c in board.cells]
    n = len(board.cells)
    pitch = next(
        (p for p in range(12, MIN_PITCH - 1, -1) if math.ceil(n / (room_w // p)) * p <= room_h), MIN_PITCH
    )
    cols = room_w // pitch
    total = math.ceil(n / cols)
    shown = min(total, room_h // pitch)
    h = board.highlight
    focus = [s for s in ((h.src, h.lands) if h is not None else ()) if isinstance(s, int)]
    if not focus and board.to_act is not None:
        focus = [s for s in board.squares_of(board.to_act) if isinstance(s, int)][:1]
    focus_row = (focus[0] - 1) // cols if focus else 0
    first = max(0, min(focus_row - shown // 2, total - shown))
    spots: list[Spot] = []
    for i in range(n):
        up, k = divmod(i, cols)
        if first <= up < first + shown:
            spots.append((shown - 1 - (up - first), k if up % 2 == 0 else cols - 1 - k))
        else:
            spots.append(None)
    return pitch, pitch, shown, cols, spots


def draw(board: Board, size: tuple[int, int], blink: bool, canvas: Image.Image | None = None) -> Image.Image:
    """The board as its data draws it (see the module docstring). On a 32-pixel panel a
    board taller than wide is turned a quarter, Player 1's Home Row at the left; squares
    under 8 pixels (a 32-pixel panel) show the plinths but no numbers nor marks. ``canvas``: draw into this
    image (at least ``size``) instead of a new one."""
    height = size[1]
    image = canvas if canvas is not None else Image.new("1", size, 0)
    dr = ImageDraw.Draw(image)
    px, py, rows, cols, spots = _geometry(board, size)
    pieces = shown_pieces(board, blink)
    on = {p.square: p for p in pieces if p.zone is PieceZone.BOARD}
    top = (height - (rows * py + 1)) // 2
    boxes = {}
    for cell, spot in zip(board.cells, spots, strict=True):
        if spot is None:
            continue
        row, col = spot
        bx, by = col * px, top + row * py
        dr.rectangle((bx, by, bx + px, by + py), outline=1)
        inner = (bx + 1, by + 1, bx + px - 1, by + py - 1)
        boxes[cell.square] = inner
        piece = on.get(cell.square)
        if piece is not None:
            x0, y0, x1, y1 = inner
            d = min(x1 - x0, y1 - y0) - (1 if min(px, py) >= 8 else 2)
            cx, cy = x0 + (x1 - x0 - d + 1) // 2, y0 + (y1 - y0 - d + 1) // 2
            disc(dr, (cx, cy, cx + d, cy + d), board.sides[piece.player].filled)
        elif min(px, py) >= 8:  # 7 pixels inside: the 5-pixel digits with a pixel above and below
            _mark_or_number(image, cell, inner)
    for square in highlighted_squares(board):
        if square in boxes:
            invert(image, boxes[square])
    _panel(image, board, pieces, cols * px + 3, top, rows * py, size)
    return image


def _mark_or_number(image: Image.Image, cell: Cell, inner: tuple[int, int, int, int]) -> None:
    """An empty square: a Sun, a river with the square it leads to, or the number."""
    x0, y0, x1, y1 = inner
    iw, ih = x1 - x0 + 1, y1 - y0 + 1
    river = cell.mark(m.RIVER)
    ty = y0 + (ih - 5 + 1) // 2
    if river is not None:
        label = str(river.target)
        w = art_size(WAVE)[0] + 1 + tiny_width(label)
        if w <= iw:
            x = x0 + (iw - w) // 2
            blit(image, x, ty + 1, WAVE)
            tiny(image, x + art_size(WAVE)[0] + 1, ty, label)
            return
    if cell.has(m.SUN):
        aw, ah = art_size(SUN)
        if aw <= iw and ah <= ih:
            blit(image, x0 + (iw - aw) // 2, y0 + (ih - ah) // 2, SUN)
            return
    if tiny_width(cell.label) <= iw:
        tiny(image, x0 + (iw - tiny_width(cell.label)) // 2, ty, cell.label)


def _panel(image: Image.Image, board: Board, pieces: list[Piece], left: int, top: int, tall: int,
           size: tuple[int, int]) -> None:
    """Player 2's name and Abyss at the top (their end of the board), Player 1's at the
    bottom; the player to act pointed at; the Abyss count inverted when the previewed
    move brings a plinth out of it."""
    width = size[0]
    dr = ImageDraw.Draw(image)
    h = board.highlight
    chars = (width - left - 12 + 1) // 6
    for side in board.sides:
        y = top if side.player == 1 else min(size[1] - 16, max(top + 16, top + tall - 16))
        if board.to_act == side.player:
            blit(image, left, y + 1, MARKER)
        disc(dr, (left + 4, y, left + 10, y + 6), side.filled)
        draw_text(image, (left + 12, y), clip(side.name, chars))
        held = sum(1 for p in pieces if p.player == side.player and p.zone is PieceZone.HELD)
        text = pgettext("pieces in the Abyss", "Abyss {count}").format(count=held)
        if text_width(text) > width - left - 2:
            text = pgettext("pieces in the Abyss, short", "A {count}").format(count=held)
        draw_text(image, (left + 2, y + 8), text)
        if h is not None and h.player == side.player and h.src_zone is PieceZone.HELD:
            invert(image, (left + 1, y + 7, left + 2 + text_width(text), y + 15))
