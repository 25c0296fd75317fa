"""The printable board: a game's squares at true size between four ArUco markers.

All lengths are millimetres on the paper, ``x`` to the right and ``y`` down from the
paper's top left corner. A :class:`Layout` says where every square and every marker
is; :func:`layout_for` makes one from a game's board model (the same cells, rows and
columns as the OLED picture, ``companion.ui.games.boards``). One list of shapes
(:func:`shapes`) is drawn both as a raster (:func:`render`: the PDF's page, the fake
camera's paper and the reader's empty-board reference) and as an SVG (:func:`svg`), so
the two cannot drift apart.

>>> from companion.rules import get_game
>>> layout = layout_for(get_game("senet-tait").new_state(), "A4")
>>> layout.paper, layout.grid, round(layout.square, 1)
((297.0, 210.0), (3, 10), 27.7)
>>> [m.id for m in layout.markers]
[0, 1, 2, 3]
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageColor, ImageDraw, ImageFont

from companion.rules import State
from companion.rules.core import Square
from companion.ui.games.boards import board_model
from companion.ui.games.boards import model as m

Pixels = NDArray[Any]
"""A NumPy array: a picture (height, width, channels) or points; each function's
docstring gives its shape, dtype and unit."""

PAPERS = {"A4": (210.0, 297.0), "A3": (297.0, 420.0)}
"""Paper sizes (short side, long side) in millimetres (ISO 216)."""

MARGIN = 10.0
"""Millimetres of paper left blank at every edge (a printer's unprintable border)."""
MARKER = 30.0
"""Side of a marker in millimetres, at most (its black border included)."""
GAP = 4.0
"""Millimetres between a marker and the board."""
MAX_SQUARE = 45.0
"""The largest square, in millimetres (a larger paper gives no larger squares)."""
DICTIONARY = cv2.aruco.DICT_4X4_50
"""The ArUco dictionary of the markers: 4 x 4 bits, ids 0-3 used."""
MARKER_CELLS = 6
"""Cells across a marker: its 4 bits and a black border cell on each side."""

PAPER_RGB = (255, 255, 255)
"""The paper around the board: white, the markers' quiet zone."""
BOARD_RGB = (206, 178, 130)
"""The squares' ground: sand, a middle tone that both dark and light pieces stand out
from (CIELAB L* about 74)."""
LINE_RGB = (96, 70, 40)
"""The lines between squares and the marks on them: dark brown."""
INK_RGB = (0, 0, 0)


@dataclass(frozen=True, slots=True)
class MarkerPlace:
    """Marker ``id`` with its top left corner at (``x``, ``y``) and side ``size`` (mm)."""

    id: int
    x: float
    y: float
    size: float

    def corners(self) -> Pixels:
        """The four corners in ``cv2.aruco``'s order (top left, top right, bottom right,
        bottom left), shape (4, 2), millimetres."""
        x, y, s = self.x, self.y, self.size
        return np.array([[x, y], [x + s, y], [x + s, y + s], [x, y + s]], np.float32)


@dataclass(frozen=True, slots=True)
class SquarePlace:
    """One square of the board: the engine's ``square``, its ``label``, its grid
    ``row`` and ``col`` (its top left grid square), its ``marks`` (kinds of
    :mod:`companion.ui.games.boards.model`) and the grid squares it spans, ``rows`` x
    ``cols`` (the Cretan palace and gateways and the Labyrinth's Elysium: 2 x 2)."""

    square: Square
    label: str
    row: int
    col: int
    marks: tuple[str, ...] = ()
    rows: int = 1
    cols: int = 1


@dataclass(frozen=True)
class Layout:
    """Where everything is on the printed page of ``game``.

    ``paper``: (width, height) in mm; ``origin``: the board's top left corner (mm);
    ``square``: a square's side (mm); ``grid``: (rows, columns); ``squares``: every
    square in the board model's order; ``markers``: ids 0-3 at the top left, top
    right, bottom right and bottom left of the board; ``colours``: each player's piece
    colour as RGB 0-255 (the board model's CSS colour); ``shared``: the squares on which
    several pieces may stand (:meth:`~companion.rules.State.may_share`), whose pieces the
    camera counts (:mod:`.read`): the Labyrinth's sanctuaries (docs/rules/labyrinth.md:
    "The following fields are the only ones that may be occupied by any number of
    Athenians at the same time: 1, 2, 3, 4, 5, 31 and 58."), every square of the Cretan
    Labyrinth (two players' pieces may share one: "the seed forbids nothing",
    docs/rules/cretan-labyrinth.md, D10); empty where no square holds more than one (the
    Senets).
    """

    game: str
    paper: tuple[float, float]
    origin: tuple[float, float]
    square: float
    grid: tuple[int, int]
    squares: tuple[SquarePlace, ...]
    markers: tuple[MarkerPlace, ...]
    colours: tuple[tuple[int, int, int], ...]
    shared: tuple[Square, ...] = ()

    @property
    def size(self) -> tuple[float, float]:
        """The board's (width, height) in mm."""
        return self.grid[1] * self.square, self.grid[0] * self.square

    def centre(self, place: SquarePlace) -> tuple[float, float]:
        """The centre of ``place`` on the paper, mm."""
        return (self.origin[0] + (place.col + place.cols / 2) * self.square,
                self.origin[1] + (place.row + place.rows / 2) * self.square)

    def place(self, square: Square) -> SquarePlace:
        """The place of ``square``. :raises KeyError: not a square of this board."""
        for p in self.squares:
            if p.square == square:
                return p
        raise KeyError(square)


def layout_for(state: State, paper: str = "A4") -> Layout:
    """The printed layout of ``state``'s game on ``paper`` (a key of :data:`PAPERS`):
    landscape or portrait, whichever gives the larger squares; squares as large as
    fit, at most :data:`MAX_SQUARE`; the markers above and below the board's corners.

    Every game's board is a grid of cells (the Labyrinth's track is laid on an 8 x 8
    grid); a cell may span several grid squares (2 x 2: the Cretan palace and
    gateways, the Labyrinth's Elysium), its piece at its centre.

    :raises ValueError: an unknown paper.
    """
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}: one of {', '.join(PAPERS)}")
    board = board_model(state)
    rows, cols = board.grid
    short, long = PAPERS[paper]
    marker = MARKER

    def side(width: float, height: float) -> float:
        return min(MAX_SQUARE, (width - 2 * MARGIN) / cols, (height - 2 * MARGIN - 2 * (marker + GAP)) / rows)

    # the way round that gives the larger squares (landscape for the Senets' 3 x 10)
    width, height = (long, short) if side(long, short) >= side(short, long) else (short, long)
    square = side(width, height)
    bw, bh = cols * square, rows * square
    x0 = (width - bw) / 2
    y0 = (height - bh) / 2
    marker = min(marker, bw / 3)
    top, bottom = y0 - GAP - marker, y0 + bh + GAP
    markers = (
        MarkerPlace(0, x0, top, marker),
        MarkerPlace(1, x0 + bw - marker, top, marker),
        MarkerPlace(2, x0 + bw - marker, bottom, marker),
        MarkerPlace(3, x0, bottom, marker),
    )
    squares = tuple(
        SquarePlace(c.square, c.label, c.row, c.col, tuple(k.kind for k in c.marks), c.rows, c.cols)
        for c in board.cells
    )
    colours = tuple(_rgb(s.colour) for s in board.sides)
    shared = tuple(c.square for c in board.cells if state.may_share(c.square)) if len(state.pieces()) > 1 else ()
    return Layout(board.game, (width, height), (x0, y0), square, (rows, cols), squares,
                  markers, colours, shared)


def _rgb(css: str) -> tuple[int, int, int]:
    r, g, b = ImageColor.getrgb(css)[:3]
    return r, g, b


# ------------------------------------------------------------------------ shapes


@dataclass(frozen=True, slots=True)
class Shape:
    """One thing printed: ``kind`` ``"rect"`` (``points``: top left, bottom right),
    ``"ellipse"`` (its bounding box), ``"line"`` (a polyline) or ``"text"`` (its
    centre; ``text``, ``size`` the letters' height), all in mm; ``fill`` and
    ``stroke`` RGB or ``None``; ``width`` the stroke's width in mm; ``marker``: see
    below."""

    kind: str
    points: tuple[tuple[float, float], ...]
    fill: tuple[int, int, int] | None = None
    stroke: tuple[int, int, int] | None = None
    width: float = 0.0
    text: str = ""
    size: float = 0.0
    marker: int | None = None
    """The id of the marker the shape is part of (the SVG groups them), or ``None``."""


def marker_bits(marker_id: int) -> Pixels:
    """The cells of marker ``marker_id``: shape (6, 6), 1 = black (border included)."""
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    image = cv2.aruco.generateImageMarker(dictionary, marker_id, MARKER_CELLS)
    return (image < 128).astype(np.uint8)


def _mark_shapes(kind: str, cx: float, cy: float, q: float) -> list[Shape]:
    r = 0.22 * q
    w = 0.035 * q
    ring = Shape("ellipse", ((cx - r, cy - r), (cx + r, cy + r)), stroke=LINE_RGB, width=w)
    if kind in (m.HOUSE_OF_BEAUTY, m.RESURRECTION):
        return [ring]
    if kind == m.HOUSE_OF_REBIRTH:  # an ankh: a loop above a cross
        loop = Shape("ellipse", ((cx - 0.09 * q, cy - 0.28 * q), (cx + 0.09 * q, cy - 0.06 * q)),
                     stroke=LINE_RGB, width=w)
        return [loop, Shape("line", ((cx, cy - 0.06 * q), (cx, cy + 0.28 * q)), stroke=LINE_RGB, width=w),
                Shape("line", ((cx - 0.16 * q, cy), (cx + 0.16 * q, cy)), stroke=LINE_RGB, width=w)]
    if kind in (m.HOUSE_OF_WATER, m.RIVER, m.RIVER_END):
        waves = 3 if kind != m.RIVER_END else 1
        out = []
        for i in range(waves):
            y = cy + (i - (waves - 1) / 2) * 0.14 * q
            pts = tuple((cx - r + j * r / 4, y + (0.04 * q if j % 2 else -0.04 * q)) for j in range(9))
            out.append(Shape("line", pts, stroke=LINE_RGB, width=w))
        return out
    if kind == m.SUN:
        rays = [Shape("line", ((cx + 0.12 * q * math.cos(a), cy + 0.12 * q * math.sin(a)),
                               (cx + r * math.cos(a), cy + r * math.sin(a))), stroke=LINE_RGB, width=w)
                for a in (k * math.pi / 4 for k in range(8))]
        disc = Shape("ellipse", ((cx - 0.09 * q, cy - 0.09 * q), (cx + 0.09 * q, cy + 0.09 * q)),
                     fill=LINE_RGB)
        return [disc, *rays]
    return []


def shapes(layout: Layout) -> list[Shape]:
    """Everything printed on the page of ``layout``, in drawing order: the board's
    ground, each square's outline, marks and number, then the four markers."""
    q = layout.square
    x0, y0 = layout.origin
    bw, bh = layout.size
    out = [Shape("rect", ((x0, y0), (x0 + bw, y0 + bh)), fill=BOARD_RGB)]
    for place in layout.squares:
        sx, sy = x0 + place.col * q, y0 + place.row * q
        out.append(Shape("rect", ((sx, sy), (sx + place.cols * q, sy + place.rows * q)),
                         stroke=LINE_RGB, width=0.6))
        cx, cy = layout.centre(place)
        for kind in place.marks:
            out += _mark_shapes(kind, cx, cy, q)
        # the number at the bottom edge, outside the piece's disc and the corners the
        # reader measures the light on
        out.append(Shape("text", ((cx, sy + (place.rows - 0.12) * q),), fill=LINE_RGB,
                         text=place.label, size=0.13 * q))
    for marker in layout.markers:
        # black, then its white cells: the black never shows seams between cells
        cell = marker.size / MARKER_CELLS
        bits = marker_bits(marker.id)
        out.append(Shape("rect", ((marker.x, marker.y), (marker.x + marker.size, marker.y + marker.size)),
                         fill=INK_RGB, marker=marker.id))
        for r, c in zip(*np.nonzero(bits == 0), strict=True):
            x, y = marker.x + c * cell, marker.y + r * cell
            out.append(Shape("rect", ((x, y), (x + cell, y + cell)), fill=PAPER_RGB, marker=marker.id))
    return out


# ------------------------------------------------------------------------ drawing


def render(layout: Layout, px_per_mm: float,
           window: tuple[float, float, float, float] | None = None) -> Pixels:
    """The page of ``layout`` as an RGB picture at ``px_per_mm`` pixels per millimetre
    (300 dpi: 11.81), shape (height, width, 3); with ``window`` = (x, y, width, height)
    in mm only that part of the page (the reader's reference: the board alone)."""
    wx, wy, ww, wh = window if window is not None else (0.0, 0.0, *layout.paper)
    size = (round(ww * px_per_mm), round(wh * px_per_mm))
    image = Image.new("RGB", size, PAPER_RGB)
    draw = ImageDraw.Draw(image)

    def px(p: tuple[float, float]) -> tuple[float, float]:
        return ((p[0] - wx) * px_per_mm, (p[1] - wy) * px_per_mm)

    for s in shapes(layout):
        width = max(1, round(s.width * px_per_mm))
        if s.kind == "rect":
            (ax, ay), (bx, by) = px(s.points[0]), px(s.points[1])
            draw.rectangle((round(ax), round(ay), round(bx) - 1, round(by) - 1), fill=s.fill,
                           outline=s.stroke, width=width if s.stroke else 0)
        elif s.kind == "ellipse":
            (ax, ay), (bx, by) = px(s.points[0]), px(s.points[1])
            draw.ellipse((ax, ay, bx, by), fill=s.fill, outline=s.stroke, width=width)
        elif s.kind == "line":
            draw.line([px(p) for p in s.points], fill=s.stroke, width=width, joint="curve")
        elif s.kind == "text":
            font = ImageFont.load_default(size=max(6, round(s.size * px_per_mm)))
            draw.text(px(s.points[0]), s.text, fill=s.fill, font=font, anchor="mm")
    return np.asarray(image, np.uint8).copy()


def _hex(rgb: tuple[int, int, int] | None) -> str:
    return "none" if rgb is None else "#{:02x}{:02x}{:02x}".format(*rgb)


def svg(layout: Layout) -> str:
    """The page of ``layout`` as an SVG document at true size (``width``/``height`` in
    mm, the user unit one millimetre); each marker a ``<g class="marker">`` drawn with
    crisp edges."""
    w, h = layout.paper
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:g}mm" height="{h:g}mm" '
           f'viewBox="0 0 {w:g} {h:g}">',
           f'<title>{layout.game}: board for the camera</title>',
           f'<rect width="{w:g}" height="{h:g}" fill="{_hex(PAPER_RGB)}"/>']
    group: int | None = None
    for s in shapes(layout):
        if s.marker != group:
            if group is not None:
                out.append("</g>")
            if s.marker is not None:
                out.append(f'<g class="marker" id="marker-{s.marker}" shape-rendering="crispEdges">')
            group = s.marker
        paint = f'fill="{_hex(s.fill)}" stroke="{_hex(s.stroke)}" stroke-width="{s.width:.2f}"'
        if s.kind == "rect":
            (ax, ay), (bx, by) = s.points
            out.append(f'<rect x="{ax:.3f}" y="{ay:.3f}" width="{bx - ax:.3f}" '
                       f'height="{by - ay:.3f}" {paint}/>')
        elif s.kind == "ellipse":
            (ax, ay), (bx, by) = s.points
            out.append(f'<ellipse cx="{(ax + bx) / 2:.3f}" cy="{(ay + by) / 2:.3f}" '
                       f'rx="{(bx - ax) / 2:.3f}" ry="{(by - ay) / 2:.3f}" {paint}/>')
        elif s.kind == "line":
            pts = " ".join(f"{x:.3f},{y:.3f}" for x, y in s.points)
            out.append(f'<polyline points="{pts}" fill="none" stroke="{_hex(s.stroke)}" '
                       f'stroke-width="{s.width:.2f}" stroke-linecap="round"/>')
        elif s.kind == "text":
            (x, y), = s.points
            out.append(f'<text x="{x:.3f}" y="{y:.3f}" font-size="{s.size * 1.3:.2f}" '
                       f'font-family="sans-serif" text-anchor="middle" dominant-baseline="central" '
                       f'fill="{_hex(s.fill)}">{s.text}</text>')
    if group is not None:
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


DPI = 300
"""Dots per inch of the PDF's page."""


def pdf(layout: Layout, dpi: int = DPI) -> bytes:
    """The page of ``layout`` as a one-page PDF at true size: the raster of
    :func:`render` at ``dpi`` (Pillow's PDF writer; no other dependency)."""
    image = Image.fromarray(render(layout, dpi / 25.4))
    buffer = io.BytesIO()
    image.save(buffer, "PDF", resolution=float(dpi))
    return buffer.getvalue()


PIECE_ALONE = (0.30, 0.34)
"""The radius of a piece alone on its square, a fraction of the square's side: what the
fake camera draws (:mod:`.fake`), near the square's middle, and what the reader expects
of it when it counts a square's pieces (:mod:`.read`)."""
SIDE_BY_SIDE = (0.27, 0.29)
"""How far from its square's middle each of several pieces sharing a square stands, a
fraction of the square's side: a ring that keeps them clear of each other and of the
square's corners, where the reader measures the light."""
SIDE_BY_SIDE_RADIUS = (0.145, 0.155)
"""The radius of each of several pieces sharing a square, a fraction of the square's
side: pieces small enough for four to stand side by side on the ring of
:data:`SIDE_BY_SIDE` (five touch, more overlap: the reader refuses more than four). The fake camera's pieces
are not one size (one alone is :data:`PIECE_ALONE`); a real set's are, and a board
printed larger (A3) gives them the room: measuring a real set's pieces is not built."""


def piece_rgb(layout: Layout, player: int) -> tuple[float, float, float]:
    """The colour of ``player``'s pieces as RGB in 0..1: the board model's colour,
    15 % of the way to a middle grey (painted wood is never pure black, white or red).
    What the fake camera paints and what the reader expects, until a calibration of
    the player's own pieces (not built) measures them."""
    r, g, b = (c / 255 for c in layout.colours[player])
    return (0.85 * r + 0.075, 0.85 * g + 0.075, 0.85 * b + 0.075)


def write_print(state: State, paper: str, out: Path) -> tuple[Path, Path]:
    """Write the printable board of ``state``'s game: ``out`` with suffix ``.pdf`` and
    ``.svg``; returns both paths.

    :raises ValueError: see :func:`layout_for`.
    :raises OSError: a file cannot be written.
    """
    layout = layout_for(state, paper)
    pdf_path, svg_path = out.with_suffix(".pdf"), out.with_suffix(".svg")
    pdf_path.write_bytes(pdf(layout))
    svg_path.write_text(svg(layout), encoding="utf-8")
    return pdf_path, svg_path


def paper_points(layout: Layout) -> Pixels:
    """The markers' corners on the paper, shape (4 markers, 4 corners, 2), mm."""
    return np.stack([mk.corners() for mk in layout.markers])


def square_centres(layout: Layout, squares: Sequence[SquarePlace] | None = None) -> Pixels:
    """The centres of ``squares`` (default: all) on the paper, shape (n, 2), mm."""
    places = layout.squares if squares is None else squares
    return np.array([layout.centre(p) for p in places], np.float32)


__all__ = [
    "DICTIONARY",
    "PAPERS",
    "Layout",
    "MarkerPlace",
    "Pixels",
    "Shape",
    "SquarePlace",
    "layout_for",
    "marker_bits",
    "paper_points",
    "pdf",
    "piece_rgb",
    "render",
    "shapes",
    "square_centres",
    "svg",
    "write_print",
]
