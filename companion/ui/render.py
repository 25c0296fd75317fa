"""Draw a :class:`~companion.ui.view.View` as a 1-bit PIL image (128x64 or 128x32).

Layout on 128x64: an inverted title bar (9 pixels), then the throw picture if any
(16 pixels), then menu items or text in 8-pixel rows, then the hint line at the
bottom under a rule. On 128x32 the picture and the hint are left out and the rows
scroll. The selected menu item is drawn inverted; small arrows at the right edge
show that the list goes on above or below.

No text is cut without a sign that there is more: text lines wrap (a path after a
``/``) and scroll; a title, a key line or a menu row too long for the panel ends in
an ellipsis (:data:`~companion.ui.font.ELLIPSIS`), and the selected menu row shows its
whole text over as many rows as it needs (its last row clipped with the ellipsis when
even those are too few); the lines above a menu that do not fit end in the ellipsis.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from companion.ui.font import CELL_H, CELL_W, ELLIPSIS, clip, draw_text, text_width, wrap
from companion.ui.rules_words import say
from companion.ui.view import LIGHT, ThrowPicture, View

TITLE_H = 9
PICTURE_H = 16
HINT_Y_FROM_BOTTOM = 8


def columns(width: int) -> int:
    """Characters per row on a panel ``width`` pixels wide."""
    return (width + 1) // CELL_W


def layout(view: View, size: tuple[int, int]) -> tuple[int, int, bool]:
    """``(first row y, number of rows, hint shown)`` for ``view`` on a panel of ``size``."""
    _width, height = size
    tall = height >= 64
    y = TITLE_H + 1
    if view.picture is not None and tall:
        y += PICTURE_H + 2
    hint = bool(view.hint) and tall
    bottom = height - (HINT_Y_FROM_BOTTOM + 2 if hint else 0)
    return y, max(1, (bottom - y) // CELL_H), hint


def scroll_limit(view: View, size: tuple[int, int]) -> int:
    """The furthest a text screen scrolls on a panel of ``size`` pixels: the first line
    of its last full page (0 when the text fits). The controller keeps
    :attr:`View.scroll` within it; the renderer draws from ``view.scroll`` as given."""
    _, rows, _ = layout(view, size)
    return max(0, len(body_lines(view, size[0])) - rows)


def body_lines(view: View, width: int) -> list[str]:
    """The wrapped text lines of ``view`` for a panel ``width`` pixels wide."""
    out: list[str] = []
    for line in view.lines:
        out += wrap(line, columns(width))
    return out


def board_size(view: View, size: tuple[int, int]) -> tuple[int, int]:
    """The pixels a board view's picture gets on a panel of ``size``: between the title
    bar and the key line on a 64-pixel panel when the view has a title or a hint, else
    the whole panel (a 32-pixel panel has room for the board only)."""
    width, height = size
    if height >= 64 and (view.title or view.hint):
        return width, height - (TITLE_H + 1) - (HINT_Y_FROM_BOTTOM + 2)
    return size


def render(view: View, size: tuple[int, int] = (128, 64)) -> Image.Image:
    """The picture of ``view`` on a panel of ``size`` pixels (mode "1", lit = 1)."""
    if view.board is not None:
        return _board(view, size)
    width, height = size
    image = Image.new("1", size, 0)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width - 1, TITLE_H - 1), fill=1)
    draw_text(image, (1, 1), clip(view.title, columns(width - 2)), fill=0)
    y, rows, hint = layout(view, size)
    if view.picture is not None and height >= 64:
        _picture(image, draw, view.picture, TITLE_H + 2)
    cols = columns(width)
    if view.items:
        if view.lines:  # a few lines of text above the menu, at most half the rows
            text = body_lines(view, width)
            above = text[: max(1, rows // 2)]
            if len(above) < len(text):  # the rest is not shown: say so
                above[-1] = clip(above[-1] + " " + ELLIPSIS, cols)
            for i, line in enumerate(above):
                draw_text(image, (0, y + i * CELL_H), line)
            y += len(above) * CELL_H + 2
            rows = max(1, rows - len(above))
        # The selected row over as many rows as its text needs, the others clipped.
        spread = _spread(view.items[view.cursor], cols, rows) if 0 <= view.cursor < len(view.items) else [""]
        shown = max(1, rows - (len(spread) - 1))
        first = _window(view.cursor, len(view.items), shown)
        row_y = y
        for i, item in enumerate(view.items[first : first + shown]):
            selected = first + i == view.cursor
            # A whole row of text: the list's arrows keep to the last three columns.
            texts = spread if selected else [clip(item, cols)]
            if selected:
                draw.rectangle((0, row_y - 1, width - 4, row_y + len(texts) * CELL_H - 1), fill=1)
            for piece in texts:
                draw_text(image, (0, row_y), piece, fill=0 if selected else 1)
                row_y += CELL_H
        _arrows(draw, width, y, rows, first > 0, first + shown < len(view.items))
    else:
        lines = body_lines(view, width)
        top = view.scroll  # kept within scroll_limit() by the controller
        for i, line in enumerate(lines[top : top + rows]):
            draw_text(image, (0, y + i * CELL_H), line)
        _arrows(draw, width, y, rows, top > 0, top + rows < len(lines))
    if hint:
        hy = height - HINT_Y_FROM_BOTTOM
        draw.line((0, hy - 2, width - 1, hy - 2), fill=1)
        draw_text(image, (0, hy), clip(view.hint, cols))
    return image


def _board(view: View, size: tuple[int, int]) -> Image.Image:
    """A board view: the board (or an inventory page), with the title bar above and the
    key line below when :func:`board_size` leaves room for them."""
    from companion.ui.games.boards import draw_board, draw_inventories

    assert view.board is not None
    inner = board_size(view, size)
    if view.page > 0:
        picture = draw_inventories(view.board, inner, view.page - 1)
    else:
        picture = draw_board(view.board, inner)
    if inner == size:
        return picture
    width, height = size
    image = Image.new("1", size, 0)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width - 1, TITLE_H - 1), fill=1)
    draw_text(image, (1, 1), clip(view.title, columns(width - 2)), fill=0)
    image.paste(picture, (0, TITLE_H + 1))
    hy = height - HINT_Y_FROM_BOTTOM
    draw.line((0, hy - 2, width - 1, hy - 2), fill=1)
    draw_text(image, (0, hy), clip(view.hint, columns(width)))
    return image


def _spread(item: str, cols: int, rows: int) -> list[str]:
    """The selected menu row's text over at most ``rows`` rows of ``cols`` characters
    (one row when it fits); the last row ends in the ellipsis when even those are too few."""
    if len(item) <= cols:
        return [item]
    lines = wrap(item, cols)
    if len(lines) > rows:
        lines = lines[:rows]
        lines[-1] = clip(lines[-1] + " " + ELLIPSIS, cols)
    return lines


def _window(cursor: int, count: int, rows: int) -> int:
    """The first item shown so that ``cursor`` is visible, keeping one item of context."""
    if count <= rows:
        return 0
    first = min(max(0, cursor - rows + 2), count - rows)
    return max(0, min(first, cursor))


def _arrows(draw: ImageDraw.ImageDraw, width: int, y: int, rows: int, up: bool, down: bool) -> None:
    """Small arrows in the last three pixel columns (right of a 21-character row)."""
    x = width - 2
    if up:
        draw.polygon([(x - 1, y + 3), (x + 1, y + 3), (x, y + 1)], fill=1)
    if down:
        bottom = y + rows * CELL_H - 2
        draw.polygon([(x - 1, bottom - 2), (x + 1, bottom - 2), (x, bottom)], fill=1)


def _picture(image: Image.Image, draw: ImageDraw.ImageDraw, pic: ThrowPicture, top: int) -> None:
    x = 2
    for i, face in enumerate(pic.faces):
        if pic.kind == "sticks":
            w = 7
            box = (x, top, x + w - 1, top + PICTURE_H - 1)
            if face == "?":
                draw.rectangle(box, outline=1)
                draw_text(image, (x + 1, top + 4), "?")
            elif face == LIGHT:
                draw.rectangle(box, fill=1)  # the flat, light side: lit
            else:
                draw.rectangle(box, outline=1)  # the round, dark side: an outline
                draw.line((x + 3, top + 3, x + 3, top + PICTURE_H - 4), fill=1)
        elif pic.kind == "dice":
            w = PICTURE_H
            ink = _box(draw, (x, top, x + w - 1, top + w - 1), pic, i)
            if face.isdigit() and int(face) in _PIPS:
                _pips(draw, x, top, int(face), ink)
            else:
                draw_text(image, (x + 2, top + 4), face[:2], fill=ink)
        else:
            label = face if pic.kind == "card" else say(face.replace(":", " "))  # "2 red", "south"
            w = text_width(label) + 5
            ink = _box(draw, (x, top, x + w - 1, top + PICTURE_H - 1), pic, i)
            draw_text(image, (x + 3, top + 4), label, fill=ink)
            if i < len(pic.usable) and not pic.usable[i]:  # struck through
                draw.line((x + 2, top + 7, x + w - 3, top + 7), fill=1)
        if pic.focus == i:
            draw.line((x, top + PICTURE_H + 1, x + w - 1, top + PICTURE_H + 1), fill=1)
        x += w + 3
    if pic.caption:
        cap = "=" + pic.caption
        scale = 2 if x + text_width(cap, 2) + 4 <= image.width else 1
        cx = image.width - text_width(cap, scale) - 2
        cy = top + (PICTURE_H - CELL_H * scale) // 2 + (1 if scale == 2 else 0)
        if cx >= x:  # no room left by the faces: the title says the score anyway
            draw_text(image, (max(cx, x + 2), cy), cap, scale=scale)


def _box(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], pic: ThrowPicture, i: int) -> int:
    """Draw face ``i``'s frame as :attr:`ThrowPicture.usable` marks it; return the ink
    (0 or 1) for what is drawn inside: lit box for usable, dotted outline for not."""
    if i >= len(pic.usable):
        draw.rectangle(box, outline=1)
        return 1
    if pic.usable[i]:
        draw.rectangle(box, fill=1)
        return 0
    x0, y0, x1, y1 = box
    dots = [(px, y) for px in range(x0, x1 + 1, 2) for y in (y0, y1)]
    dots += [(x, py) for py in range(y0, y1 + 1, 2) for x in (x0, x1)]
    draw.point(dots, fill=1)
    return 1


_PIPS = {
    1: [(1, 1)],
    2: [(0, 0), (2, 2)],
    3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (2, 0), (0, 2), (2, 2)],
    5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
    6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
}


def _pips(draw: ImageDraw.ImageDraw, x: int, y: int, value: int, ink: int = 1) -> None:
    for col, row in _PIPS.get(value, []):
        px = x + 3 + col * 4
        py = y + 3 + row * 4
        draw.rectangle((px, py, px + 1, py + 1), fill=ink)
