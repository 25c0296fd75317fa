"""The Game of the Labyrinth: the board model and its OLED picture.

The board is the game's board data (seeds ``000_764640a44232cb09.txt`` and
``001_7445520b05b4b51e.txt``; ``companion/rules/data/labyrinth.toml`` or the player's
own file): fields 1 to 61 "on a spiral path" from the entrance to Elysium, with the
sanctuaries, the exact-count fields, the geese, the jumps and tunnels, the traps, the
Knight's Orbit and the Millstone it declares.

The model places the fields on a square spiral (field 1 at the top left corner,
clockwise inwards, Elysium in the centre), a schematic of the round board for the web
page. The OLED picture is a strip of the track that the players match by the field
numbers: rows of 8 fields read left to right (three rows on a 64-pixel panel, two on
a board page between its title and key line, with the numbers in small digits, one on
a 32-pixel panel) around the previewed move, or else the pieces of the player to act.
Each field shows its number (inverted on a sanctuary), its pieces as tokens with their
player's initial (dotted when trapped), or when empty what is special about it: an
arrow and the field a jump leads to, an hourglass and the turns a trap costs, the
geese, a knight for the Knight's Orbit, a diagonal and the field across the Millstone,
a star for Elysium. The bottom line counts the pieces outside and borne off.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from PIL import Image, ImageDraw

from companion.i18n import N_, pgettext
from companion.rules import Move, PieceZone
from companion.rules.core import Square
from companion.rules.labyrinth import COLOURS, LabyrinthState
from companion.rules.labyrinth_board import Board as FieldData
from companion.ui.font import draw_text, text_width

from . import model as m
from .model import Board, Cell, Highlight, Mark, Piece, Side
from .pixels import (
    ARROW_LEFT,
    ARROW_RIGHT,
    CROSSING,
    GEESE,
    HOURGLASS,
    KNIGHT,
    STAR,
    TOKEN_H,
    TOKEN_W,
    art_size,
    blit,
    cells_once,
    centred_text,
    highlighted_squares,
    invert,
    shown_pieces,
    tiny,
    tiny_width,
    token,
)

ZONE_WORDS = ((PieceZone.OUTSIDE, N_("outside")), (PieceZone.OFF, N_("borne off")))
"""'places them outside the entrance of the Labyrinth to await entry'; 'borne off'."""

CSS = {"Red": "red", "Blue": "royalblue", "Green": "green", "Yellow": "gold"}


def spiral(n: int) -> list[tuple[int, int]]:
    """The ``(row, col)`` squares of an ``n`` x ``n`` grid in spiral order: clockwise
    from the top left corner, inwards."""
    out: list[tuple[int, int]] = []
    top, left, bottom, right = 0, 0, n - 1, n - 1
    while top <= bottom and left <= right:
        out += [(top, c) for c in range(left, right + 1)]
        out += [(r, right) for r in range(top + 1, bottom + 1)]
        if top < bottom:
            out += [(bottom, c) for c in range(right - 1, left - 1, -1)]
        if left < right:
            out += [(r, left) for r in range(bottom - 1, top, -1)]
        top, left, bottom, right = top + 1, left + 1, bottom - 1, right - 1
    return out


def spiral_layout(last: int) -> tuple[int, list[tuple[int, int, int, int]]]:
    """``(side, places)``: the fields 1..``last`` on a ``side`` x ``side`` square spiral,
    ``places[f - 1] = (row, col, rows, cols)``. The last field (Elysium) also takes the
    squares left over in the centre when they make a rectangle (61 fields: an 8 x 8
    spiral of 60 fields around a 2 x 2 Elysium)."""
    side = 1
    while side * side < last:
        side += 1
    order = spiral(side)
    places = [(r, c, 1, 1) for r, c in order[: last - 1]]
    rest = order[last - 1:]
    rows = [r for r, _ in rest]
    cols = [c for _, c in rest]
    h, w = max(rows) - min(rows) + 1, max(cols) - min(cols) + 1
    if h * w == len(rest):
        places.append((min(rows), min(cols), h, w))
    else:
        places.append((*rest[0], 1, 1))
    return side, places


def _marks(data: FieldData, f: int) -> tuple[Mark, ...]:
    """What the board data says of field ``f``, most telling first."""
    marks: list[Mark] = []
    if f == data.last:
        marks.append(Mark(m.ELYSIUM, "Elysium: pieces are borne off"))
    if f in data.jumps:
        to = data.jumps[f]
        text = f"advance to {to}" if to > f else f"back through the tunnel to {to}"
        marks.append(Mark(m.JUMP, text, target=to))
    if f in data.traps:
        turns = data.traps[f]
        exit_to = data.trap_exits.get(f)
        text = f"lose {turns} turns" + (f", then the tunnel to {exit_to}" if exit_to else "")
        marks.append(Mark(m.TRAP, text, target=exit_to, turns=turns))
    if f in data.geese:
        marks.append(Mark(m.GOOSE, "the geese: the die counts again"))
    if f in data.orbit:
        marks.append(Mark(m.ORBIT, "Knight's Orbit"))
    if f in data.millstone:
        to = data.millstone[f]
        marks.append(Mark(m.MILLSTONE, f"the Millstone: cross to {to}", target=to))
    if f in data.sanctuaries:
        marks.append(Mark(m.SANCTUARY, "sanctuary: pieces may share it"))
    if f in data.exact_count:
        marks.append(Mark(m.EXACT_COUNT, "entered by exact count"))
    return tuple(marks)


def board_model(state: LabyrinthState, highlight: Move | None = None) -> Board:
    """The board of ``state``; ``highlight`` a legal move or decision to preview.

    :raises IllegalMoveError: when ``highlight`` is not one of ``state.legal_moves()``.
    """
    data = state.game.board
    side, places = spiral_layout(data.last)
    cells = cells_once(data, None, lambda: tuple(
        Cell(f, str(f), r, c, rows, cols, track=f, marks=_marks(data, f))
        for f, (r, c, rows, cols) in enumerate(places, start=1)
    ))
    trapped = {(p, f): t for p, f, t in state.trapped()}
    pieces = tuple(
        Piece(p.player, p.zone, p.square, trapped.get((p.player, p.square), 0))  # type: ignore[arg-type]
        for p in state.pieces()
    )
    sides = tuple(
        Side(p, COLOURS[p], COLOURS[p][0], filled=True, colour=CSS[COLOURS[p]])
        for p in range(state.players)
    )
    return Board(
        game=state.game.id,
        layout="track",
        grid=(side, side),
        cells=cells,
        pieces=pieces,
        sides=sides,
        to_act=state.current_player if state.outcome is None else None,
        zone_words=ZONE_WORDS,
        highlight=_highlight(state, highlight),
    )


def _highlight(state: LabyrinthState, move: Move | None) -> Highlight | None:
    if move is None:
        return None
    game = state.game
    last = game.board.last
    p = state.current_player
    kind, src = move.kind, move.src
    if kind == "enter" and isinstance(move.dst, int):
        return Highlight(move, p, None, PieceZone.OUTSIDE, (move.dst,), PieceZone.BOARD)
    if kind in ("move", "bear-off") and isinstance(src, int):
        end = game.count_end(move)
        path: tuple[Square, ...] = tuple(
            f for f in dict.fromkeys((move.dst if move.dst is not None else last, end))
            if f is not None
        )
        zone = PieceZone.OFF if path[-1] == last else PieceZone.BOARD
        return Highlight(move, p, src, PieceZone.BOARD, path, zone)
    if kind == "cross" and isinstance(src, int):
        across = game.board.millstone[src]
        return Highlight(move, p, src, PieceZone.BOARD, (across,), PieceZone.BOARD)
    if kind == "stay" and isinstance(src, int):
        return Highlight(move, p, src, PieceZone.BOARD, (src,), PieceZone.BOARD)
    if kind == "ride" and isinstance(src, int):
        return Highlight(move, p, src, PieceZone.BOARD, (), PieceZone.BOARD)
    return Highlight(move, p, None, PieceZone.BOARD, (), PieceZone.BOARD)


# ------------------------------------------------------------------------ picture

PER_ROW = 8
"""Fields in a row of the strip."""
PITCH_X = 16
PITCH_Y = 18
"""A row of the strip: the field's number in the font's 7-pixel glyphs, then a token."""
PITCH_Y_SMALL = 17
"""A row with the number in the 5-pixel digits: two rows and the counts on a board page
(44 pixels between a title and a key line), where rows of :data:`PITCH_Y` leave one."""
COUNT_H = 9
"""Pixels of the line of counts under the strip."""


def rows_of(height: int) -> tuple[int, int]:
    """``(rows, pitch_y)`` of the strip on a panel ``height`` pixels high (with the line
    of counts under it): up to three rows of :data:`PITCH_Y`, or of
    :data:`PITCH_Y_SMALL` when that gives more."""
    big = max(1, min(3, (height - COUNT_H) // PITCH_Y))
    small = max(1, min(3, (height - 1 - COUNT_H) // PITCH_Y_SMALL))
    return (small, PITCH_Y_SMALL) if small > big else (big, PITCH_Y)


def window(board: Board, fields: int) -> int:
    """The first field of the stretch of ``fields`` fields to draw: one that holds the
    previewed move (its piece and where it lands; where it ends when both do not fit,
    as for 40-42 to 56 on one row), else the most pieces of the player to act (then of
    everyone), starting on a row boundary (1, 9, 17, ...) when it can."""
    last = board.track_length
    aligned = list(range(1, last + 1, PER_ROW))
    h = board.highlight
    want: list[int] = []
    if h is not None:
        want = [s for s in (h.src, *h.path) if isinstance(s, int)]
    if want:
        lo, hi = min(want), max(want)
        for s in aligned:
            if s <= lo and hi < s + fields:
                return s
        if hi - lo >= fields:  # the piece's field cannot be shown with where it ends
            lo = hi = want[-1]
            for s in aligned:
                if s <= lo < s + fields:
                    return s
        return max(1, min(lo - (fields - (hi - lo + 1)) // 2, last - fields + 1))
    mine = Counter(p.square for p in board.pieces if p.zone is PieceZone.BOARD and p.player == board.to_act)
    every = Counter(p.square for p in board.pieces if p.zone is PieceZone.BOARD)

    def score(s: int) -> tuple[int, int, int]:
        span = range(s, s + fields)
        return (sum(mine[f] for f in span), sum(every[f] for f in span), -s)

    return max(aligned, key=score)


def draw(board: Board, size: tuple[int, int], blink: bool, canvas: Image.Image | None = None) -> Image.Image:
    """A strip of the track, 8 fields a row (see the module docstring). ``canvas``: draw into this
    image (at least ``size``) instead of a new one."""
    width, height = size
    image = canvas if canvas is not None else Image.new("1", size, 0)
    dr = ImageDraw.Draw(image)
    per_row = min(PER_ROW, width // PITCH_X)
    rows, pitch_y = rows_of(height)
    first = window(board, per_row * rows)
    pieces = shown_pieces(board, blink)
    last = board.track_length
    inverted = set(highlighted_squares(board))
    for i in range(per_row * rows):
        f = first + i
        if f > last:
            break
        row, col = divmod(i, per_row)
        x0, y0 = col * PITCH_X, row * pitch_y
        x1 = min(x0 + PITCH_X, width - 1)
        y1 = y0 + pitch_y
        dr.rectangle((x0, y0, x1, y1), outline=1)
        _field(image, board.cell(f), board, pieces, (x0 + 1, y0 + 1, x1 - 1, y1 - 1))
        if f in inverted:
            invert(image, (x0 + 1, y0 + 1, x1 - 1, y1 - 1))
    _counts(image, board, pieces, rows * pitch_y + 2, width)
    return image


def _field(image: Image.Image, cell: Cell, board: Board, pieces: list[Piece],
           inner: tuple[int, int, int, int]) -> None:
    """One field: its number (in the 5-pixel digits when the field is too low for the
    font's), then its pieces or its mark."""
    x0, y0, x1, y1 = inner
    dr = ImageDraw.Draw(image)
    band = 7 if y1 - y0 + 1 >= PITCH_Y - 1 else 6
    if cell.has(m.SANCTUARY):
        dr.rectangle((x0, y0, x1, y0 + band), fill=1)
    fill = 0 if cell.has(m.SANCTUARY) else 1
    if band == 7:
        centred_text(image, (x0, y0, x1, y0 + 7), cell.label, fill=fill)
    else:
        tiny(image, x0 + (x1 - x0 + 1 - tiny_width(cell.label)) // 2, y0 + 1, cell.label, fill=fill)
    ty = y1 - TOKEN_H + 1
    here = [p for p in pieces if p.zone is PieceZone.BOARD and p.square == cell.square]
    if here:
        _tokens(image, board, here, x0, x1, ty)
    elif cell.marks:
        _mark(image, cell, x0, x1, ty)


def _tokens(image: Image.Image, board: Board, here: list[Piece], x0: int, x1: int, y: int) -> None:
    """Up to two tokens; with more pieces than fit, the first player's token and ``+n``
    (the pieces not drawn) in small digits."""
    room = x1 - x0 + 1
    if len(here) <= room // TOKEN_W:
        x = x0 + (room - len(here) * TOKEN_W) // 2
        for p in here:
            token(image, x, y, board.sides[p.player].letter, solid=not p.trapped)
            x += TOKEN_W
        return
    first = here[0]
    token(image, x0, y, board.sides[first.player].letter, solid=not first.trapped)
    gap = 1 if room > TOKEN_W + tiny_width("+9") else 0  # the last column is a pixel narrower
    tiny(image, x0 + TOKEN_W + gap, y + 2, f"+{min(9, len(here) - 1)}")


_ART = {m.GOOSE: GEESE, m.ORBIT: KNIGHT, m.ELYSIUM: STAR}


def _mark(image: Image.Image, cell: Cell, x0: int, x1: int, y: int) -> None:
    """The first mark the field's empty token row can show."""
    room = x1 - x0 + 1
    for mark in cell.marks:
        art: Sequence[str] | None = None
        label = ""
        if mark.kind == m.JUMP and isinstance(mark.target, int) and isinstance(cell.square, int):
            art, label = (ARROW_RIGHT if mark.target > cell.square else ARROW_LEFT), str(mark.target)
        elif mark.kind == m.TRAP:
            art, label = HOURGLASS, str(mark.turns)
        elif mark.kind == m.MILLSTONE:
            art, label = CROSSING, str(mark.target)
        elif mark.kind in _ART:
            art = _ART[mark.kind]
        if art is None:
            continue
        aw, ah = art_size(art)
        w = aw + (1 + text_width(label) if label else 0)
        if w > room:
            continue
        x = x0 + (room - w) // 2
        blit(image, x, y + (TOKEN_H - ah) // 2, art)
        if label:
            draw_text(image, (x + aw + 1, y + 1), label)
        return


def _counts(image: Image.Image, board: Board, pieces: list[Piece], y: int, width: int) -> None:
    """``Out R4 B3  Off B1``: the pieces outside the entrance and borne off, per player
    (a count of 0 left out); spaces dropped when the line is too long. The count of the
    previewed move's piece (entering, or borne off) is inverted."""
    h = board.highlight

    def previewed(player: int, zone: PieceZone) -> bool:
        return h is not None and h.player == player and (
            (h.src is None and h.src_zone is zone) or h.dst_zone is zone
        )

    groups = []
    for zone, word in ((PieceZone.OUTSIDE, pgettext("pieces outside, short", "Out")),
                       (PieceZone.OFF, pgettext("pieces borne off, short", "Off"))):
        counts = Counter(p.player for p in pieces if p.zone is zone)
        entries = [(s.player, f"{s.letter}{counts[s.player]}") for s in board.sides if counts[s.player]]
        if entries:
            groups.append((zone, word, entries))
    segments: list[tuple[str, bool]] = []
    for spaced in (True, False):
        segments = []
        for g, (zone, word, entries) in enumerate(groups):
            if g:
                segments.append(("  " if spaced else " ", False))
            segments.append((word + (" " if spaced else ""), False))
            for k, (player, entry) in enumerate(entries):
                if k and spaced:
                    segments.append((" ", False))
                segments.append((entry, previewed(player, zone)))
        if text_width("".join(t for t, _ in segments)) <= width:
            break
    x = 0
    for text, inverted in segments:
        draw_text(image, (x, y), text)
        if inverted:
            invert(image, (x - 1, y - 1, x + len(text) * 6 - 1, y + 7))
        x += len(text) * 6
