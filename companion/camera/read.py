"""Reading a position from a photo of the printed board.

The steps, for one RGB picture (shape (height, width, 3), uint8):

1. **markers**: the four ArUco markers of :mod:`.board` (``cv2.aruco.ArucoDetector``,
   their corners to a fraction of a pixel); a picture that does not show all four is
   refused (a hand, a sleeve, the board out of the frame);
2. **homography**: from their 16 corners to where they are on the paper
   (``cv2.findHomography``, least squares), the board warped to a **top view** of
   :attr:`Reader.px_per_square` pixels per square (``cv2.warpPerspective``). A
   player's own board with no markers: from the four corners of its calibration
   instead, against the still of the empty board (:mod:`.calibration`);
3. **light**: on each square, the paper in its four corners (outside any piece)
   compared with the same corners of the empty board drawn by :func:`.board.render`
   gives the light falling on that square, a gain per colour channel. A square whose
   corners do not agree with each other, whose light has another colour than the
   board's (skin, a sleeve: not the paper under a lamp), or whose edge band (outside
   its piece) departs from the empty board under that light -- and from the empty
   board a pixel around it too (two pixels, the paper's white margin, or a blend of
   the two, by the board's outer line: a line the homography puts a pixel off, mixed
   with the paper beyond it, is not a hand) -- is
   **covered** (an empty square's band where a neighbour's piece stands near, within
   :data:`NEIGHBOUR_REACH`, does not count: that piece's colour and shadow bleed into
   it); and the **paper around the board** (:data:`PAPER_RING`, warped with the top
   view), against the paper lit as its nearest square: a connected region that departs
   from it, of :data:`RING_AREA` of a square or more, is an arm reaching over the board
   (or anything laid on the paper by the board), and covers the squares nearest to it
   (not on a board of the player's own, whose surroundings are not known);
4. **content**: the middle of the square divided by that light, in CIELAB
   (``cv2.COLOR_RGB2Lab``), against the empty board's middle and each player's piece
   colour (:func:`.board.piece_rgb`): the nearest, by CIE76 colour difference, when
   it is near enough and clearly nearer than the second. A square that is neither is
   **unsure**.

A picture with a covered or unsure square is refused (:class:`PictureRefused`): a
doubt asks again, it never guesses. Each cell is read on a patch of the top view one
square across: its square, or the middle square of a cell spanning several (the
Cretan palace: its piece stands at its centre; :func:`.board.layout_for`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import cv2
import numpy as np

from companion.errors import CompanionError
from companion.rules.core import Square

from .board import (
    BOARD_RGB,
    DICTIONARY,
    PAPER_RGB,
    PIECE_ALONE,
    SIDE_BY_SIDE_RADIUS,
    Layout,
    Pixels,
    paper_points,
    piece_rgb,
    render,
)
from .find import Seen, Stack, stacks_of

if TYPE_CHECKING:
    from .calibration import Calibration

EMPTY_DISTANCE = 14.0
"""The largest CIE76 distance (Delta E) from a class at which a square is read as it."""
MARGIN = 8.0
"""How much nearer (Delta E) the nearest class must be than the second."""
LIGHT_HUE = 0.07
"""The largest departure of a square's light's colour (its gain's chromaticity) from
the board's median light."""
LIGHT_SPREAD = 0.22
"""The largest relative difference between a square's corner gains and their median
(two corners may differ: a piece's shadow darkens one)."""
FOREIGN_DISTANCE = 10.0
"""Delta E from the lit empty board above which a pixel of a square's edge band (the
paper between its piece and its neighbours') is foreign: a finger, a sleeve."""
SHADOW_HUE = 7.0
"""The largest change of a* b* (Delta E) of a darker pixel that may still be a shadow."""
FOREIGN_SHARE = 0.05
"""The share of foreign pixels in a square's edge band that makes it covered."""
FOREIGN_SHARE_PIECE = 0.25
"""The same for the band's corners on a square read as holding a piece: higher, for a
saturated piece's colour bleeds into the paper around it (JPEG's halved colour
resolution, lens blur)."""
PAPER_RING = (2.0, 8.0)
"""The paper around the board looked at for an arm, mm from the board's outer edge: from
2 (past the board's line and its sand's blur) to 8 (the printed page's edge is 10 mm off
on A4), and 2 mm or more away from the markers and from the page's edge."""
RING_DISTANCE = 12.0
"""Delta E from the lit paper above which a pixel of the ring is foreign: a hand, a
sleeve or their shadow (no piece stands there, so a darker pixel is not a piece's
shadow)."""
RING_AREA = 0.1
"""The area, in squares, of a connected foreign region of the ring that refuses the
picture: a hand over the board belongs to an arm that crosses the paper around it
(on the fake camera the smallest crossing is about 0.25 of a square, and a photo
without a hand has at most 0.03: a marker's or the line's blur, JPEG's colour blocks)."""
NEIGHBOUR_REACH = 0.66
"""How far (in squares, from a cell's middle) a piece's colour and shadow may bleed into
a neighbour's edge band: the band's pixels that near a neighbour read as holding a
piece do not count towards the neighbour's foreign share (a piece stands up to 0.38 of
a square from its middle, its shadow, blur and JPEG's colour blocks reach beyond); the
band's corners, farther, still do."""


PIECE_PIXEL = 45.0
"""On a square whose pieces are counted: the largest distance (CIELAB, L* weighted by
:data:`PIECE_LIGHTNESS`) of a pixel's colour from a player's piece colour at which it is
that piece's (and it must be nearer to it than to the empty board there)."""
PIECE_LIGHTNESS = 0.5
"""The weight of L* in that distance: a piece's dome is shaded and has a highlight, and a
shadow darkens the board, both mostly in lightness."""
ONE_PIECE = (0.4, 1.3)
"""The areas of a region of a piece's colour, in pieces' areas (:data:`~.board.SIDE_BY_SIDE_RADIUS`),
counted as one piece: lens blur and a dome's dark side leave a piece's region at 0.6-1.2
of its area on the fake camera (a blue piece's least), and pieces side by side stand
apart (a region of two that touch is twice the area; two of the smaller pieces of five
on a square, 1.3-1.7, are unsure: never one)."""
COUNT_SLACK = 0.35
"""How far a larger region may be from a whole number of pieces and still be counted;
farther (or a region between a speck and :data:`ONE_PIECE`): the square is unsure."""
MOST_COUNTED = 4
"""The most pieces counted on one square: five or more crowd together (they touch, and
regions of several would be miscounted), so a square with more, or whose regions
together are more than this and a half pieces' areas, is unsure (the picture refused:
a doubt asks)."""
SPECK = 0.25
"""Regions of a piece's colour smaller than this many pieces' areas are not counted (a
neighbour's colour bled in by lens blur or JPEG, noise)."""
GLANCE = 2
"""The step, in top-view pixels, of the first glance at a counted square: a square with
no piece's pixel among every second pixel each way holds no piece (a region counted, a
:data:`SPECK` or more of a piece's area, about 18 pixels, holds several such pixels)."""


class PictureRefused(CompanionError, ValueError):
    """The picture cannot be read: ``reason`` in words, ``squares`` the squares that
    were covered or unsure (empty when the markers were not all found)."""

    def __init__(self, reason: str, squares: tuple[Square, ...] = ()):
        super().__init__(reason)
        self.reason = reason
        self.squares = squares


@dataclass(frozen=True)
class Reading:
    """What a picture shows: ``squares`` maps every square of the board to the player
    (0-based) whose piece stands on it, or ``None`` when it is empty (on a square with
    pieces of several players, the highest-numbered, as
    :func:`~.find.seen_board`); on the squares where several pieces may stand
    (:attr:`~.board.Layout.shared`) it is a :class:`~.find.Seen` whose ``stacks``
    hold the pieces counted there (:attr:`stacks`); ``distance`` the Delta E of each
    square's reading to the class read (0 on a counted square); ``top`` the top view
    (RGB, uint8, rows x columns squares of :attr:`Reader.px_per_square` pixels)."""

    squares: Mapping[Square, int | None]
    distance: Mapping[Square, float] = field(default_factory=dict)
    top: Pixels | None = None

    @property
    def stacks(self) -> dict[Square, Stack]:
        """The counted squares: square -> the players of the pieces on it, sorted
        (``()``: empty); ``{}`` on a board where no square holds several pieces."""
        return stacks_of(self.squares)

    def occupied(self) -> dict[Square, int]:
        """The occupied squares: square -> player."""
        return {s: p for s, p in self.squares.items() if p is not None}


def _lab(rgb: Pixels) -> Pixels:
    """CIELAB of RGB in 0..1, any shape (..., 3)."""
    flat = np.ascontiguousarray(rgb.reshape(-1, 1, 3), np.float32)
    return cv2.cvtColor(np.clip(flat, 0, 1), cv2.COLOR_RGB2Lab).reshape(rgb.shape)


class Reader:
    """Reads pictures of the printed board of ``layout``.

    ``px_per_square``: the top view's resolution. The empty board's reference and the
    masks are made once, here (a few hundred kilobytes, held as long as the reader).
    ``calibration``: a board with no markers (a player's own, :mod:`.calibration`):
    the homography comes from its four corners and the empty-board reference from its
    still instead of the markers and the printed drawing; the rest is the same.
    """

    def __init__(self, layout: Layout, px_per_square: int = 32,
                 calibration: Calibration | None = None):
        self.layout = layout
        self.calibration = calibration
        self.px_per_square = p = px_per_square
        rows, cols = layout.grid
        self.scale = p / layout.square  # top-view pixels per mm
        x0, y0 = layout.origin
        # the top view's pixel (i, j) shows the paper at its centre, ((j + 0.5) / scale,
        # (i + 0.5) / scale) mm from the board's corner, as the reference drawn below does
        # (a pixel covers [i, i + 1)): OpenCV puts pixel centres at whole numbers
        self._target = ((paper_points(layout) - [x0, y0]) * self.scale - 0.5).reshape(-1, 2).astype(np.float32)
        self._size = (cols * p, rows * p)
        # the top view is warped with a margin of the paper around the board (none for a
        # board of the player's own: what lies around it is not known)
        self._margin = 0 if calibration is not None else int(np.ceil(PAPER_RING[1] * self.scale)) + 2
        if calibration is None:
            reference = render(layout, self.scale, window=(x0, y0, *layout.size))
            reference = cv2.resize(reference, self._size, interpolation=cv2.INTER_AREA)
        else:
            reference = calibration.reference_view(self._size)
        self.reference = reference
        ys, xs = (np.mgrid[0:p, 0:p] + 0.5) / p
        self._centre = np.hypot(xs - 0.5, ys - 0.5) < 0.22
        lo, hi = 0.05, 0.15
        self._corners = [
            (ys > a) & (ys < a + hi - lo) & (xs > b) & (xs < b + hi - lo)
            for a in (lo, 1 - hi) for b in (lo, 1 - hi)
        ]
        edge = np.maximum(np.abs(xs - 0.5), np.abs(ys - 0.5))
        self._band = (edge > 0.40) & (edge < 0.47)
        # the band's corners, beyond the reach of a piece, its shadow and its blur
        self._far = (np.hypot(xs - 0.5, ys - 0.5) > 0.52)[self._band]
        self._cells = [place.square for place in layout.squares]
        # each cell's patch of the top view, p x p pixels: its square, or the middle
        # square of a cell spanning several (where its piece stands)
        top_left = np.array([((place.row + (place.rows - 1) / 2) * p, (place.col + (place.cols - 1) / 2) * p)
                             for place in layout.squares]).round().astype(np.intp)
        span = np.arange(p)
        self._patch_y = top_left[:, 0, None, None] + span[None, :, None]
        self._patch_x = top_left[:, 1, None, None] + span[None, None, :]
        self._ref_band = self._cells_of(reference)[:, self._band]
        # where each pixel of each cell's band is in the top view (a line that the
        # homography puts a pixel off, about 0.5 mm on the Cretan board, is not a hand:
        # a pixel is foreign only when it departs from the board around it too)
        self._band_y = np.broadcast_to(self._patch_y, (len(self._cells), p, p))[:, self._band]
        self._band_x = np.broadcast_to(self._patch_x, (len(self._cells), p, p))[:, self._band]
        # the band's plain ground only: a number or a line shifted by a pixel is not a hand
        plain = np.all(np.abs(reference.astype(np.int16) - BOARD_RGB) < 12, axis=2).astype(np.uint8)
        plain = cv2.erode(plain, np.ones((3, 3), np.uint8), iterations=1)
        self._plain = self._cells_of(plain[..., None])[:, self._band, 0] > 0
        # for each band pixel, the other cell whose piece stands within NEIGHBOUR_REACH
        # of it (the nearest), else -1: its piece's bleed is not a hand
        middles = top_left + (p - 1) / 2  # (cells, 2): y, x of each cell's piece
        near = np.full(self._band_y.shape, -1, np.intp)
        for index in range(len(self._cells)):
            dist = np.hypot(self._band_y[index, :, None] - middles[None, :, 0],
                            self._band_x[index, :, None] - middles[None, :, 1])  # (band, cells)
            dist[:, index] = np.inf
            nearest = dist.argmin(axis=1)
            near[index] = np.where(dist[np.arange(len(nearest)), nearest] < NEIGHBOUR_REACH * p, nearest, -1)
        self._near_piece = near
        # the band's pixels by the board's outer line, farthest from the middle of the
        # markers (a homography two pixels off there) and beside the paper's white
        # margin: the board two pixels around, paper, or a blend of the two, is not a
        # hand there
        rim = np.ones(reference.shape[:2], np.uint8)
        edge = max(2, round(p / 16)) + 1
        rim[edge:-edge, edge:-edge] = 0
        self._rim = self._cells_of(rim[..., None])[:, self._band, 0] > 0
        self._ring_paper(layout)
        ref = self._stats(reference)
        self._ref_centre, self._ref_corners = ref
        # the squares whose pieces are counted, and the empty board there in CIELAB
        shared = set(layout.shared)
        self._shared = np.array([i for i, s in enumerate(self._cells) if s in shared], np.intp)
        self._shared_ref = _lab(self._cells_of(reference)[self._shared]) if len(self._shared) else None
        self._middle = np.hypot(xs - 0.5, ys - 0.5) < 0.1
        self._one_side = np.pi * (sum(SIDE_BY_SIDE_RADIUS) / 2 * p) ** 2  # a piece's area, px
        self._one_alone = np.pi * (PIECE_ALONE[0] * p) ** 2
        self._empty_lab = _lab(self._ref_centre)
        self._piece_lab = _lab(np.array([piece_rgb(layout, i) for i in range(len(layout.colours))],
                                        np.float32))
        parameters = cv2.aruco.DetectorParameters()
        # the markers' corners to a fraction of a pixel: the squares at the board's edge
        # are a marker's length from it, where a pixel off in a corner is a pixel or two
        parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        self._detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(DICTIONARY), parameters)

    def _ring_paper(self, layout: Layout) -> None:
        """The ring of paper around the board (:data:`PAPER_RING`) in the margin of the
        warped view: its pixels (``_ring_y``, ``_ring_x``), each one's nearest cell
        (``_ring_cell``, whose light it is lit by)."""
        m, p = self._margin, self.px_per_square
        if not m:
            self._ring_y = self._ring_x = self._ring_cell = np.zeros(0, np.intp)
            return
        rows, cols = layout.grid
        x0, y0 = layout.origin
        width, height = cols * p + 2 * m, rows * p + 2 * m
        mm = m / self.scale
        page = render(layout, self.scale * 4, window=(x0 - mm, y0 - mm, width / self.scale, height / self.scale))
        page = cv2.resize(page, (width, height), interpolation=cv2.INTER_AREA)
        paper = np.all(page >= 250, axis=2).astype(np.uint8)
        reach = max(1, round(PAPER_RING[0] * self.scale))
        paper = cv2.erode(paper, np.ones((2 * reach + 1, 2 * reach + 1), np.uint8)) > 0
        ys, xs = (np.mgrid[0:height, 0:width] + 0.5) / self.scale  # mm from the margin's corner
        out = np.maximum(np.maximum(mm - xs, xs - mm - cols * p / self.scale),
                         np.maximum(mm - ys, ys - mm - rows * p / self.scale))  # mm outside the board
        px, py = xs + x0 - mm, ys + y0 - mm  # on the page, mm
        on_page = ((px > PAPER_RING[0]) & (px < layout.paper[0] - PAPER_RING[0])
                   & (py > PAPER_RING[0]) & (py < layout.paper[1] - PAPER_RING[0]))
        ring_y, ring_x = np.nonzero(paper & on_page & (out < PAPER_RING[1]))
        middles = np.array([(m + (place.row + place.rows / 2) * p, m + (place.col + place.cols / 2) * p)
                            for place in layout.squares])
        cell = np.empty(len(ring_y), np.intp)
        for start in range(0, len(ring_y), 4096):
            chunk = slice(start, start + 4096)
            cell[chunk] = np.hypot(ring_y[chunk, None] + 0.5 - middles[None, :, 0],
                                   ring_x[chunk, None] + 0.5 - middles[None, :, 1]).argmin(axis=1)
        self._ring_y, self._ring_x, self._ring_cell = ring_y, ring_x, cell

    def _ring_covered(self, view: Pixels, gain: Pixels) -> list[Square]:
        """The cells nearest to a foreign region of the paper ring of ``view`` (the
        warped view with its margin) of at least :data:`RING_AREA` squares, in the
        layout's order; ``gain``: each cell's light (cells, 3)."""
        if not len(self._ring_y):
            return []
        seen = view[self._ring_y, self._ring_x].astype(np.float32) / 255
        lit = np.asarray(PAPER_RGB, np.float32) / 255 * gain[self._ring_cell]
        # the paper's light as the camera renders it against the squares' (one colour
        # cast for the whole ring: its median, which an arm across a part of it leaves)
        cast = np.median(seen / np.maximum(lit, 1e-3), axis=0)
        foreign = np.linalg.norm(_lab(seen) - _lab(lit * cast), axis=1) > RING_DISTANCE
        if not foreign.any():
            return []
        mask = np.zeros(view.shape[:2], np.uint8)
        mask[self._ring_y[foreign], self._ring_x[foreign]] = 1
        _count, labels, stats, _centroids = cv2.connectedComponentsWithStats(
            cv2.dilate(mask, np.ones((3, 3), np.uint8)), connectivity=8)
        large = np.flatnonzero(stats[:, cv2.CC_STAT_AREA] >= RING_AREA * self.px_per_square ** 2)
        large = large[large > 0]
        if not len(large):
            return []
        hit = foreign & np.isin(labels[self._ring_y, self._ring_x], large)
        return [self._cells[i] for i in np.unique(self._ring_cell[hit])]

    def _cells_of(self, top: Pixels) -> Pixels:
        """Each cell's patch of ``top`` (a top view, channels last), in the layout's
        order: shape (cells, p, p, channels), values 0..1."""
        return np.asarray(top[self._patch_y, self._patch_x], np.float32) / 255

    def _stats(self, top: Pixels) -> tuple[Pixels, Pixels]:
        """Per cell of ``top``: the mean colour of its middle, shape (cells, 3), and of
        each of its four corners, shape (cells, 4, 3); RGB 0..1."""
        cells = self._cells_of(top)
        centre = cells[:, self._centre].mean(axis=1)
        corners = np.stack([cells[:, c].mean(axis=1) for c in self._corners], axis=1)
        return centre, corners

    def _still_foreign(self, cell: Pixels, pixel: Pixels, band: Pixels, band_lab: Pixels,
                       gain: Pixels) -> Pixels:
        """Of the band's pixels found foreign (``cell`` and ``pixel``: their indices, in
        the order of ``np.nonzero``), those that depart from the lit empty board a pixel
        around them too -- and, by the board's outer line (``_rim``), from the board two
        pixels around, from the paper's white and from every **blend** of one of those
        pixels with the paper's white (a line the homography puts a pixel or two off,
        sharpened and in JPEG's colour blocks, mixes with the paper beyond it): shape
        (n,) bool. ``band``: the bands, RGB 0..1, ``band_lab``
        the same in CIELAB; ``gain``: each cell's light."""
        seen = band_lab[cell, pixel]
        rim = self._rim[cell, pixel]
        height, width = self.reference.shape[:2]
        ys, xs = self._band_y[cell, pixel], self._band_x[cell, pixel]
        still = np.ones(len(cell), bool)
        reach = 2 if rim.any() else 1
        # by the outer line: the lit paper, and each pixel's RGB for the blends
        on_rim = np.flatnonzero(rim)
        paper = np.asarray(PAPER_RGB, np.float32) / 255 * gain[cell[on_rim]]
        seen_rgb = band[cell[on_rim], pixel[on_rim]]
        for dy in range(-reach, reach + 1):
            for dx in range(-reach, reach + 1):
                if not (dy or dx):
                    continue
                near = self.reference[np.clip(ys + dy, 0, height - 1), np.clip(xs + dx, 0, width - 1)]
                lit = near.astype(np.float32) / 255 * gain[cell]
                matches = ~_foreign(seen - _lab(lit))
                still &= ~(matches & (rim | (max(abs(dy), abs(dx)) == 1)))
                if len(on_rim):
                    still[on_rim] &= _foreign(_off_blend(seen_rgb, lit[on_rim], paper))
        return still

    def homography(self, image: Pixels) -> Pixels:
        """The 3 x 3 map from ``image``'s pixels to the top view's.

        :raises PictureRefused: not all four markers found.
        :raises companion.camera.calibration.CalibrationError: (with a calibration) the
            picture's size is not the calibration still's in proportion.
        """
        if self.calibration is not None:
            return self.calibration.homography(image.shape, self._size)
        grey = cv2.cvtColor(image, cv2.COLOR_RGB2GRAY)
        corners, ids, _rejected = self._detector.detectMarkers(grey)
        found: dict[int, Pixels] = {}
        if ids is not None:
            for quad, marker_id in zip(corners, ids.ravel(), strict=True):
                if 0 <= marker_id < 4 and int(marker_id) not in found:
                    found[int(marker_id)] = quad.reshape(4, 2)
        missing = [i for i in range(4) if i not in found]
        if missing:
            raise PictureRefused(f"markers not seen: {', '.join(map(str, missing))}")
        source = np.concatenate([found[i] for i in range(4)]).astype(np.float32)
        matrix, _mask = cv2.findHomography(source, self._target, 0)
        if matrix is None:
            raise PictureRefused("the markers do not make a board")
        return np.asarray(matrix, np.float64)

    def top_view(self, image: Pixels, matrix: Pixels) -> Pixels:
        """``image`` warped by ``matrix`` (:meth:`homography`) to the top view."""
        m = self._margin
        width, height = self._size
        return self._warp(image, matrix)[m:m + height, m:m + width]

    def _warp(self, image: Pixels, matrix: Pixels) -> Pixels:
        """``image`` warped by ``matrix`` to the top view with the paper's margin around
        it (``_margin`` pixels each side)."""
        m = self._margin
        width, height = self._size
        shift = np.array([[1, 0, m], [0, 1, m], [0, 0, 1]], np.float64)
        return cv2.warpPerspective(image, shift @ matrix, (width + 2 * m, height + 2 * m),
                                   flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)

    def read(self, image: Pixels) -> Reading:
        """The position ``image`` shows (RGB, uint8, shape (h, w, 3)).

        :raises PictureRefused: markers missing, or a square covered or unsure (its
            ``squares`` name them, in the layout's order).
        """
        view = self._warp(image, self.homography(image))
        m = self._margin
        top = view[m:m + self._size[1], m:m + self._size[0]]
        centre, corners = self._stats(top)
        gains = corners / np.maximum(self._ref_corners, 1e-3)  # (cells, 4, 3)
        gain = np.median(gains, axis=1)  # (cells, 3)
        spread = np.abs(gains - gain[:, None, :]).max(axis=2) / np.maximum(gain.mean(axis=1), 1e-3)[:, None]
        uneven = (spread > LIGHT_SPREAD).sum(axis=1) > 2
        hue = gain / np.maximum(gain.mean(axis=1, keepdims=True), 1e-3)
        board_hue = np.median(hue, axis=0)
        off_hue = np.abs(hue - board_hue).max(axis=1) > LIGHT_HUE
        band = self._cells_of(top)[:, self._band]
        band_lab = _lab(band)
        foreign = _foreign(band_lab - _lab(self._ref_band * gain[:, None, :]))
        if foreign.any():
            cell, pixel = np.nonzero(foreign)
            foreign[foreign] = self._still_foreign(cell, pixel, band, band_lab, gain)
        far = self._plain & self._far
        far_share = (foreign & far).sum(axis=1) / np.maximum(far.sum(axis=1), 1)
        albedo = centre / np.maximum(gain, 1e-3)
        lab = _lab(albedo)
        classes = np.concatenate([self._empty_lab[:, None, :],
                                  np.broadcast_to(self._piece_lab, (lab.shape[0], *self._piece_lab.shape))],
                                 axis=1)  # (cells, 1 + players, 3)
        distances = np.linalg.norm(classes - lab[:, None, :], axis=2)
        order = np.sort(distances, axis=1)
        best = distances.argmin(axis=1)
        unsure = (order[:, 0] > EMPTY_DISTANCE) | (order[:, 1] - order[:, 0] < MARGIN)
        stacks: dict[Square, Stack] = {}
        if len(self._shared):  # counted squares: their pieces by regions of each colour
            for index, stack in zip(self._shared, self._count(top, gain), strict=True):
                unsure[index] = stack is None
                if stack is None:  # something stands there (its band: only the corners)
                    best[index] = max(int(best[index]), 1)
                else:
                    stacks[self._cells[index]] = stack
                    best[index] = max(stack) + 1 if stack else 0
                    order[index, 0] = 0.0
        # a square read empty: its whole band, but where a neighbour's piece bleeds into it
        bled = (self._near_piece >= 0) & (best != 0)[np.maximum(self._near_piece, 0)]
        counted = self._plain & ~bled
        share = (foreign & counted).sum(axis=1) / np.maximum(counted.sum(axis=1), 1)
        # the whole band of a square read empty; only its corners where a piece stands
        uneven |= np.where(best == 0, share > FOREIGN_SHARE, far_share > FOREIGN_SHARE_PIECE)
        squares: dict[Square, int | None] = {}
        distance: dict[Square, float] = {}
        covered: list[Square] = []
        doubtful: list[Square] = []
        for index, square in enumerate(self._cells):
            b = int(best[index])
            squares[square] = None if b == 0 else b - 1
            distance[square] = float(order[index, 0])
            if uneven[index] or off_hue[index]:
                covered.append(square)
            elif unsure[index]:
                doubtful.append(square)
        if covered:
            raise PictureRefused(f"something covers {_names(covered)}", tuple(covered + doubtful))
        beside = self._ring_covered(view, gain)
        if beside:
            raise PictureRefused(f"something covers the paper by {_names(beside)}",
                                 tuple(dict.fromkeys(beside + doubtful)))
        if doubtful:
            raise PictureRefused(f"cannot tell what stands on {_names(doubtful)}", tuple(doubtful))
        board: Mapping[Square, int | None] = Seen(squares, stacks) if len(self._shared) else squares
        return Reading(board, distance, np.ascontiguousarray(top))

    def _count(self, top: Pixels, gain: Pixels) -> list[Stack | None]:
        """The pieces on each counted square of ``top`` (``_shared``, in that order): a
        :data:`~.find.Stack`, or ``None`` when they cannot be counted (unsure).

        Each pixel, divided by its square's light (``gain``, (cells, 3)), is a player's
        piece when its colour is within :data:`PIECE_PIXEL` of that player's piece colour
        and nearer to it than to the empty board's pixel there; each player's pixels
        make regions (8-connected; specks under :data:`SPECK` of a piece left out). One
        region on the square, covering its middle, at least half a lone piece's area:
        one piece (a piece alone stands in the middle, :data:`~.board.PIECE_ALONE`).
        Otherwise each region of :data:`ONE_PIECE` is one piece standing side by side
        with others (:data:`~.board.SIDE_BY_SIDE_RADIUS`), a larger one as many as its
        area holds when that is within :data:`COUNT_SLACK` of a whole number (two pieces
        that touch make one region); else, or when more than :data:`MOST_COUNTED` pieces are
        counted or their regions hold more, the square is unsure. A first glance at
        every :data:`GLANCE`-th pixel each way finds the squares with any piece's pixel;
        only those are looked at whole (the Cretan board's 129 squares are all counted,
        and most are empty)."""
        shared = np.arange(len(self._shared))
        glance, _nearest = self._piece_pixels(top, gain, shared, GLANCE)
        looked = shared[glance.any(axis=(1, 2))]
        out: list[Stack | None] = [()] * len(shared)
        if not len(looked):
            return out
        piece, nearest = self._piece_pixels(top, gain, looked)
        for j, k in enumerate(looked):
            out[k] = self._stack(piece[j], nearest[j])
        return out

    def _piece_pixels(self, top: Pixels, gain: Pixels, shared: Pixels, step: int = 1) -> tuple[Pixels, Pixels]:
        """Which pixels of the counted squares ``shared`` (positions in ``_shared``) of
        ``top`` are a piece's (see :meth:`_count`), every ``step``-th pixel each way of
        their patches: a mask, shape (len(shared), p / step, p / step) bool, and each
        pixel's nearest player (0-based), the same shape."""
        assert self._shared_ref is not None
        cells = self._shared[shared]
        patches = top[self._patch_y[cells, ::step], self._patch_x[cells, :, ::step]].astype(np.float32) / 255
        lab = _lab(np.clip(patches / np.maximum(gain[cells], 1e-3)[:, None, None, :], 0, 1))
        weight = np.array([PIECE_LIGHTNESS, 1.0, 1.0], np.float32) ** 2
        to_empty = ((lab - self._shared_ref[shared, ::step, ::step]) ** 2 @ weight)  # squared distances
        to_piece = np.stack([(lab - colour) ** 2 @ weight for colour in self._piece_lab],
                            axis=-1)  # (shared, p, p, players)
        closest = to_piece.min(axis=-1)
        return (closest < PIECE_PIXEL ** 2) & (closest < to_empty), to_piece.argmin(axis=-1)

    def _stack(self, piece: Pixels, nearest: Pixels) -> Stack | None:
        """The pieces on one counted square, from its pixels that are a piece's
        (``piece``, (p, p) bool) and their nearest player (``nearest``): see :meth:`_count`."""
        if not piece.any():
            return ()
        regions: list[tuple[int, float, bool]] = []  # player, area (px), covers the middle
        for player in range(len(self._piece_lab)):
            mask = (piece & (nearest == player)).astype(np.uint8)
            if not mask.any():
                continue
            count, labels, stats, _centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
            for label in range(1, count):
                area = float(stats[label, cv2.CC_STAT_AREA])
                if area >= SPECK * self._one_side:
                    middle = float((labels[self._middle] == label).mean())
                    regions.append((player, area, middle > 0.8))
        if len(regions) == 1 and regions[0][2] and regions[0][1] >= 0.5 * self._one_alone:
            return (regions[0][0],)
        if sum(area for _player, area, _middle in regions) > (MOST_COUNTED + 0.5) * self._one_side:
            return None  # more than four, crowded: some may touch and make one region
        players: list[int] = []
        for player, area, _middle in regions:
            pieces = area / self._one_side
            whole = 1 if ONE_PIECE[0] <= pieces < ONE_PIECE[1] else round(pieces)
            if pieces < ONE_PIECE[0] or (whole > 1 and abs(pieces - whole) > COUNT_SLACK):
                return None
            players += [player] * whole
        return tuple(sorted(players)) if len(players) <= MOST_COUNTED else None


def _foreign(diff: Pixels) -> Pixels:
    """Which pixels of ``diff`` (CIELAB differences from the lit empty board, (..., 3))
    are foreign: a piece's shadow only darkens the paper (L* down, a* b* nearly kept),
    so foreign is a large difference that also changes the colour, or brightens."""
    return np.asarray((np.linalg.norm(diff, axis=-1) > FOREIGN_DISTANCE)
                      & ((np.linalg.norm(diff[..., 1:], axis=-1) > SHADOW_HUE) | (diff[..., 0] > 0)))


def _off_blend(seen: Pixels, board: Pixels, paper: Pixels) -> Pixels:
    """The CIELAB difference of each pixel ``seen`` (RGB 0..1, (n, 3)) from the nearest
    blend (in RGB) of ``board`` and ``paper`` (the lit empty board near it and the lit
    paper, (n, 3) each): what :func:`_foreign` is asked of by the board's outer line,
    where the view mixes the line with the paper beyond it."""
    span = paper - board
    t = np.clip(((seen - board) * span).sum(axis=1) / np.maximum((span * span).sum(axis=1), 1e-6), 0, 1)
    return np.asarray(_lab(seen) - _lab(board + t[:, None] * span))


def _names(squares: list[Square]) -> str:
    return ", ".join(str(s) for s in squares)


def overlay(reader: Reader, reading: Reading) -> Pixels:
    """The top view of ``reading`` with each square's reading drawn on it: a ring and a
    dot in the player's colour on an occupied square (on a square whose pieces were
    counted, a smaller dot a piece, in a row), a small grey dot on an empty one; RGB,
    uint8, the top view at twice its size.

    :raises ValueError: ``reading`` has no top view.
    """
    if reading.top is None:
        raise ValueError("the reading has no top view")
    out = np.asarray(cv2.resize(reading.top, None, fx=2, fy=2, interpolation=cv2.INTER_LINEAR), np.uint8)
    p = 2 * reader.px_per_square
    for place in reader.layout.squares:
        centre = (int((place.col + place.cols / 2) * p), int((place.row + place.rows / 2) * p))
        player = reading.squares.get(place.square)
        if player is None:
            cv2.circle(out, centre, max(2, p // 12), (128, 128, 128), -1, cv2.LINE_AA)
        else:
            cv2.circle(out, centre, int(0.42 * p), (0, 255, 0), max(1, p // 16), cv2.LINE_AA)
            stack = reading.stacks.get(place.square, (player,))
            for index, each in enumerate(stack):  # several counted: a dot each, in a row
                rgb = tuple(int(255 * c) for c in piece_rgb(reader.layout, each))
                x = centre[0] + round((index - (len(stack) - 1) / 2) * 0.2 * p)
                cv2.circle(out, (x, centre[1]), int((0.15 if len(stack) == 1 else 0.08) * p), rgb, -1,
                           cv2.LINE_AA)
    return out


def board_text(layout: Layout, reading: Reading, names: tuple[str, ...] = ()) -> str:
    """The reading as text, the board's rows as printed: ``.`` an empty square, the
    player's number (1-based) or the first letter of ``names`` on an occupied one; on a
    square whose pieces were counted with several there, a letter a piece (``RRB``: two
    of Red's and one of Blue's), every column as wide as its widest square."""
    def letter(player: int) -> str:
        return names[player][0] if player < len(names) else str(player + 1)

    rows, cols = layout.grid
    grid = [["."] * cols for _ in range(rows)]
    stacks = reading.stacks
    for place in layout.squares:
        player = reading.squares.get(place.square)
        if player is not None:
            grid[place.row][place.col] = "".join(letter(p) for p in stacks.get(place.square, (player,)))
    widths = [max(len(row[c]) for row in grid) for c in range(cols)]
    return "\n".join(" ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
                     for row in grid)


__all__ = ["PictureRefused", "Reader", "Reading", "board_text", "overlay"]
