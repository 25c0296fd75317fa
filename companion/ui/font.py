"""A crisp 5x7 bitmap font for the OLED: no anti-aliasing, every pixel on or off.

The glyphs are ``LCD_FONT`` from ``luma.core.legacy.font`` (luma.core, MIT licence):
the classic HD44780 character-LCD font, 5 columns by 7 rows, ASCII 0x20-0x7E. That
font squeezes the descenders of ``g j p q y`` into the 7 rows, so that on a real panel
``g`` reads as ``9`` and ``p`` as a raised ``P``; those five letters are drawn here
with true descenders into the cell's eighth row (:data:`DESCENDERS`, this project's
own pixels). Each glyph is turned once into a 1-bit PIL mask and text is pasted glyph
by glyph, so a whole screen draws in well under a millisecond. The cell is 6x8 pixels
(one column of spacing; the eighth row holds the descenders and otherwise spaces the
lines): 21 characters across a 128-pixel panel, 8 rows on 64 pixels.
"""

from __future__ import annotations

import functools

from PIL import Image

CELL_W = 6
"""Advance per character in pixels."""
CELL_H = 8
"""Line height in pixels."""

DESCENDERS: dict[str, tuple[str, ...]] = {
    # 5 columns x 8 rows; the x-height of the LCD font's lower case is rows 2-6, its
    # baseline row 6: these letters sit on it and hang into row 7.
    "g": (".....", ".....", ".XXXX", "X...X", "X...X", ".XXXX", "....X", ".XXX."),
    "j": ("...X.", ".....", "..XX.", "...X.", "...X.", "...X.", "X..X.", ".XX.."),
    "p": (".....", ".....", "XXXX.", "X...X", "X...X", "XXXX.", "X....", "X...."),
    "q": (".....", ".....", ".XXXX", "X...X", "X...X", ".XXXX", "....X", "....X"),
    "y": (".....", ".....", "X...X", "X...X", "X...X", ".XXXX", "....X", ".XXX."),
}
"""The lower-case letters with descenders, drawn into the cell's eighth row."""

ELLIPSIS = "\u2026"
"""The sign that a text goes on beyond what is shown (three dots on the baseline);
this project's own glyph, the LCD font has none."""

EXTRA: dict[str, tuple[str, ...]] = {
    ELLIPSIS: (".....", ".....", ".....", ".....", ".....", ".....", "X.X.X", "....."),
    # German (companion/locale/de): the LCD font's a o u with two dots above their
    # x-height; the capitals are a row shorter to make room for the dots in the cell.
    "\u00e4": (".X.X.", ".....", ".XXX.", "....X", ".XXXX", "X...X", ".XXXX", "....."),
    "\u00f6": (".X.X.", ".....", ".XXX.", "X...X", "X...X", "X...X", ".XXX.", "....."),
    "\u00fc": (".X.X.", ".....", "X...X", "X...X", "X...X", "X..XX", ".XX.X", "....."),
    "\u00c4": (".X.X.", ".....", ".XXX.", "X...X", "XXXXX", "X...X", "X...X", "....."),
    "\u00d6": (".X.X.", ".....", ".XXX.", "X...X", "X...X", "X...X", ".XXX.", "....."),
    "\u00dc": (".X.X.", ".....", "X...X", "X...X", "X...X", "X...X", ".XXX.", "....."),
    "\u00df": (".XX..", "X..X.", "X..X.", "XXX..", "X..X.", "X..X.", "XXX..", "X...."),
}
"""Characters beyond ASCII that the panel draws, 5 columns x 8 rows: the ellipsis, and
the German umlauts and sharp s (``ä ö ü Ä Ö Ü ß``)."""


@functools.lru_cache(maxsize=512)
def glyph(ch: str, scale: int = 1) -> Image.Image:
    """The mask (mode "1", ``5*scale`` x ``8*scale``) of ``ch``; unknown characters show ``?``."""
    from luma.core.legacy.font import LCD_FONT

    code = ord(ch) if " " <= ch <= "~" else ord("?")  # EXTRA's own, else "?"
    img = Image.new("1", (5, 8), 0)
    px = img.load()
    assert px is not None
    own = DESCENDERS.get(ch) or EXTRA.get(ch)
    if own is not None:
        for y, row in enumerate(own):
            for x, dot in enumerate(row):
                if dot == "X":
                    px[x, y] = 1
    else:
        for x, bits in enumerate(LCD_FONT[code][:5]):
            for y in range(8):
                if bits >> y & 1:
                    px[x, y] = 1
    if scale != 1:
        img = img.resize((5 * scale, 8 * scale), Image.Resampling.NEAREST)
    return img


def text_width(text: str, scale: int = 1) -> int:
    """Width in pixels of ``text`` (no trailing spacing column)."""
    return max(0, len(text) * CELL_W * scale - scale)


def draw_text(image: Image.Image, xy: tuple[int, int], text: str, fill: int = 1, scale: int = 1) -> None:
    """Draw ``text`` with its top-left cell corner at ``xy`` (pixels); ``fill`` 1 = lit."""
    x, y = xy
    for ch in text:
        if ch != " ":
            image.paste(fill, (x, y), glyph(ch, scale))
        x += CELL_W * scale


def clip(text: str, columns: int) -> str:
    """``text`` if it fits in ``columns`` characters, else its beginning and
    :data:`ELLIPSIS` in ``columns`` characters: never cut without the sign."""
    if len(text) <= columns:
        return text
    return text[: max(0, columns - 1)] + ELLIPSIS


def wrap(text: str, columns: int) -> list[str]:
    """``text`` broken into lines of at most ``columns`` characters, at spaces where
    possible; a longer word (a path) is broken after a ``/`` where one falls in the line,
    else after a ``-``, else cut: its rest goes on in the next line, nothing is lost."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            while len(word) > columns:
                if line:
                    lines.append(line)
                    line = ""
                cut = word.rfind("/", 0, columns) + 1 or word.rfind("-", 0, columns) + 1 or columns
                lines.append(word[:cut])
                word = word[cut:]
            candidate = f"{line} {word}" if line else word
            if len(candidate) <= columns:
                line = candidate
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines
