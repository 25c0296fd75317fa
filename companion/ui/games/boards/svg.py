"""The board as SVG text, from the same model as the OLED picture (a sketch for the web
page of issue 15).

Every cell is drawn where the model places it (the Senet grids, the Labyrinth's
square spiral, the Cretan grid), with its label, a symbol for what is special about it
and a ``<title>`` in the game's words (a browser shows it on hover); the pieces are
circles in their player's colour with the player's letter; the previewed move's
cells carry the class ``highlight`` and its piece the class ``moving``; the counts
off the board are a line of text below. Each piece says whose it is and where it
stands in ``data-player`` (0-based seat) and ``data-square`` (the engine's square, as
:attr:`companion.rules.PieceAt.square`), so that a program reading the page (the
end-to-end browser test) can compare them with ``state.pieces()``. Pure: the same
board gives the same text.

The drawing has a ``viewBox`` and a width of 100%, no size in pixels: it fills the
width it is given (the page's CSS bounds it by the window), large on a desktop screen
and small on a phone.
"""

from __future__ import annotations

import html  # not xml.sax.saxutils: it imports urllib, http and email (the referee draws no SVG)
import textwrap

from companion.i18n import _
from companion.rules import PieceZone
from companion.ui.events import player_word

from . import model as m
from .model import Board, Cell, Piece, Side

CELL = 40
"""Size of one grid square, in SVG user units."""
LINE = 18
"""Height of a line of text below the board."""
CHAR = 7.5
"""Width of a character of the lines below the board (13-unit sans-serif, a wide
average), in SVG user units: the lines are wrapped to the board's width."""

_SYMBOLS = {
    m.HOUSE_OF_REBIRTH: "\u2625",  # ankh
    m.HOUSE_OF_BEAUTY: "\u25ce",  # circle with a dot
    m.HOUSE_OF_WATER: "\u2248",  # waves
    m.SUN: "\u2600",
    m.GOOSE: "\u00bb",
    m.ORBIT: "\u265e",  # knight
    m.ELYSIUM: "\u2605",
    m.PALACE: "\u265b",
    m.GATEWAY: "\u2229",  # arch
}
_WITH_TARGET = {m.RIVER: "~", m.JUMP: "\u2192", m.MILLSTONE: "\u2922"}
_TINT = {"red": "#f4b6b6", "green": "#b9e3b5", "blue": "#b5cdf0", "yellow": "#f5e79e"}


def _symbol(cell: Cell) -> str:
    for mark in cell.marks:
        if mark.kind in _SYMBOLS:
            return _SYMBOLS[mark.kind]
        if mark.kind in _WITH_TARGET and mark.target is not None:
            arrow = _WITH_TARGET[mark.kind]
            if mark.kind == m.JUMP and isinstance(mark.target, int) and isinstance(cell.square, int):
                arrow = "\u2192" if mark.target > cell.square else "\u2190"
            return f"{arrow}{mark.target}"
        if mark.kind == m.TRAP:
            return f"T{mark.turns}"  # a trap and its turns (an hourglass has no glyph in most fonts)
    return ""


def escape(text: str) -> str:
    """``text`` as XML character data (``&``, ``<`` and ``>`` escaped)."""
    return html.escape(text, quote=False)


def quoteattr(text: str) -> str:
    """``text`` as a double-quoted XML attribute value."""
    return '"' + html.escape(text, quote=True) + '"'


def holdings_in_words(side: Side) -> str:
    """What a Cretan player holds, as a sentence's object: ``"a blue diamond and the
    Mirror"``, ``"red and blue diamonds, a Magic Key and the Magic Sword"``; ``""``
    for nothing."""
    if not side.holdings:
        return ""
    from companion.rules.cretan_data import ITEM_NAMES  # only the Cretan game holds things

    by_word = {("Medusa-head" if item == "head" else item): name for item, name in ITEM_NAMES.items()}
    parts: list[str] = []
    diamonds = list(side.diamonds)
    if diamonds:
        parts.append(f"a {diamonds[0]} diamond" if len(diamonds) == 1
                     else f"{_and(diamonds)} diamonds")
    if side.key:
        parts.append("a Magic Key")
    parts += [f"the {by_word.get(word, word)}" for word in side.holdings
              if word not in side.diamonds and word != "key"]
    return _and(parts)


def _and(words: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c`` (``""`` for none)."""
    if len(words) < 2:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _fill(cell: Cell) -> str:
    if cell.has(m.WALL):
        return "#555555"
    coloured = cell.mark(m.COLOURED)
    if coloured is not None and coloured.colour:
        return _TINT.get(coloured.colour, "#dddddd")
    if cell.has(m.SANCTUARY) or cell.has(m.HOME_ROW):
        return "#f3ead7"
    return "#fffaf0"


def _piece(board: Board, piece: Piece, cx: float, cy: float, r: float, moving: bool) -> str:
    side = board.sides[piece.player]
    classes = "piece moving" if moving else "piece"
    dash = ' stroke-dasharray="3 2"' if piece.trapped else ""
    title = (_("{player}, loses {turns}").format(player=player_word(side.name), turns=piece.trapped)
             if piece.trapped else player_word(side.name))
    ink = "#ffffff" if side.colour in ("black", "firebrick", "royalblue", "forestgreen", "green") else "#000000"
    return (
        f'<g class="{classes}" data-player="{piece.player}" '
        f'data-square={quoteattr(str(piece.square))}><title>{escape(title)}</title>'
        f'<circle cx="{cx:g}" cy="{cy:g}" r="{r:g}" fill={quoteattr(side.colour)} stroke="#000000"'
        f' stroke-width="1.5"{dash}/>'
        f'<text x="{cx:g}" y="{cy + 4:g}" font-size="11" text-anchor="middle" fill="{ink}">'
        f"{escape(side.letter)}</text></g>"
    )


def board_svg(board: Board) -> str:
    """The SVG document of ``board`` (see the module docstring), one element a line."""
    rows, cols = board.grid
    h = board.highlight
    lit = set()
    if h is not None:
        if h.src is not None:
            lit.add(h.src)
        lit.update(h.path)
    counts = []  # in the language in use (the pages word a request in its reader's)
    for side in board.sides:
        parts = [
            _("{count} {where}").format(count=board.count(side.player, zone), where=_(words))
            for zone, words in board.zone_words
        ]
        held = holdings_in_words(side)
        if held:
            parts.append("holds " + held)  # the Cretan holdings: English still (issue 31)
        if parts:
            counts.append(_("{player}: {what}").format(player=player_word(side.name),
                                                       what=", ".join(parts)))
    if board.to_act is not None:
        counts.append(_("To play: {player}").format(
            player=player_word(board.sides[board.to_act].name)))
    width = cols * CELL + 2
    chars = max(int((width - 8) / CHAR), 16)  # a long line goes on, indented, below
    counts = [part for line in counts
              for part in textwrap.wrap(line, chars, subsequent_indent="    ",
                                        break_on_hyphens=False)]
    height = rows * CELL + 2 + LINE * len(counts) + (6 if counts else 0)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board {board.game}" '
        f'viewBox="0 0 {width} {height}" width="100%" '
        'font-family="sans-serif">',
        f'<rect class="frame" x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>',
    ]
    pieces_at: dict[object, list[Piece]] = {}
    for piece in board.pieces:
        if piece.zone is PieceZone.BOARD:
            pieces_at.setdefault(piece.square, []).append(piece)
    for cell in board.cells:
        x, y = 1 + cell.col * CELL, 1 + cell.row * CELL
        w, hh = cell.cols * CELL, cell.rows * CELL
        classes = " ".join(["cell", *dict.fromkeys(mk.kind for mk in cell.marks)])
        if cell.square in lit:
            classes += " highlight"
        stroke = ' stroke="#444444" stroke-width="1"'
        title = cell.label + "".join(f"; {mk.text}" for mk in cell.marks)
        out.append(
            f'<g class="{classes}" data-square={quoteattr(str(cell.square))}><title>{escape(title)}</title>'
            f'<rect x="{x}" y="{y}" width="{w}" height="{hh}" fill="{_fill(cell)}"{stroke}/>'
        )
        if not cell.has(m.WALL):
            out.append(
                f'<text x="{x + 3}" y="{y + 11}" font-size="10" fill="#555555">{escape(cell.label)}</text>'
            )
            symbol = _symbol(cell)
            if symbol:
                out.append(
                    f'<text x="{x + w - 3}" y="{y + hh - 4}" font-size="11" text-anchor="end" '
                    f'fill="#8a5a00">{escape(symbol)}</text>'
                )
        here = pieces_at.get(cell.square, [])
        per_row = 2 if len(here) > 1 else 1
        r = 12 if len(here) == 1 else 8
        mover = -1
        if h is not None and h.src == cell.square:
            mover = next((k for k, p in enumerate(here) if p.player == h.player), -1)
        for k, piece in enumerate(here):
            row, col = divmod(k, per_row)
            across = min(len(here), per_row)
            cx = x + w / 2 + (col - (across - 1) / 2) * (2 * r + 2)
            down = (len(here) + per_row - 1) // per_row
            cy = y + hh / 2 + 3 + (row - (down - 1) / 2) * (2 * r + 2)
            out.append(_piece(board, piece, cx, cy, r, k == mover))
        out.append("</g>")
    for cell in board.cells:  # on top of every cell, so that no neighbour hides the frame
        if cell.square in lit:
            out.append(
                f'<rect class="highlight-frame" x="{3 + cell.col * CELL}" y="{3 + cell.row * CELL}" '
                f'width="{cell.cols * CELL - 4}" height="{cell.rows * CELL - 4}" fill="none" '
                'stroke="#e07000" stroke-width="4"/>'
            )
    y = rows * CELL + 2 + 6
    for line in counts:
        y += LINE
        indent = 4 + (len(line) - len(line.lstrip())) * CHAR  # a line that goes on: indented
        out.append(f'<text class="counts" x="{indent:g}" y="{y - 5}" font-size="13">{escape(line.lstrip())}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
