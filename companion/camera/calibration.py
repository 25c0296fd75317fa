"""A board the player already owns, with no markers: its four corners, marked once.

A printed board (:mod:`.board`) carries four ArUco markers, and the reader finds the
board from them in every picture. A player's own board (bought, drawn) has none: the
camera must stay where it is, and the player marks the board's four corners once, on a
still of the **empty** board (``companion camera calibrate``; docs/camera.md). This
module turns that still and those corners into a :class:`Calibration`:

* the **corners**: the board's playing area's top left, top right, bottom right and
  bottom left, in pixels of the still (x to the right, y down); "top left" is the
  corner of the square drawn at the top left of the box's board picture (Tait's Senet:
  square 1). The homography from the corners to the reader's top view replaces the
  markers' (:meth:`Calibration.homography`);
* the **empty-board reference**: the still's top view at :data:`REFERENCE_PX` pixels a
  square, the light flattened over it (a smooth field fitted to its ground divided
  out) and its ground's median colour set to the printed board's sand
  (:data:`.board.BOARD_RGB`). The reader compares each picture with it as it compares
  with the drawing of a printed board; the piece colours it expects are the printed
  board's (:func:`.board.piece_rgb`) relative to that ground: a player's own pieces'
  colours are not measured (not built);
* what it is for: the game, its grid and its squares' labels; a calibration of
  another board is refused (:meth:`Calibration.check`).

It is saved as one JSON file per game in the state folder (:func:`path_for`: beside the
journals and ``settings.toml``), written atomically (a temporary file, fsync, rename,
fsync of the folder). A file that cannot be read is a :class:`CalibrationError` naming
it and what is wrong, and is left as it is.

Corners in the wrong order are refused (:func:`check_corners`): going round the
other way (a mirror: two neighbours swapped), crossing (two opposite corners
swapped), and, on a long board (Tait's Senet), turned by a quarter (its long side
given as its short one). A half turn (all four corners given from the bottom right),
or a quarter turn of a squarish board, cannot be told from the still of an empty
board: the board is then read turned, until :func:`.orient.orient` finds the turn
from a picture of the game's first position and :func:`turned` turns the calibration.
"""

from __future__ import annotations

import base64
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from companion.errors import CompanionError
from companion.rules.datafile import replace_atomically

from .board import BOARD_RGB, Layout, Pixels, SquarePlace

FORMAT = "board-companion camera calibration"
"""The ``format`` field of a calibration file."""
VERSION = 1
"""The version of the file's layout written (and the only one read)."""
REFERENCE_PX = 32
"""Pixels per square of the saved empty-board reference (the reader's default top view)."""
MIN_SQUARE_PX = 8.0
"""The fewest pixels a square may span on the still, on average along each side."""
QUARTER_TURN_SEEN = 2.0
"""A board whose long side is at least this many times its short one (Tait's Senet's
10 x 3) is checked for corners turned by a quarter: a squarer board (casting-stick
Senet's 5 x 6) may look either way round under a tilted camera."""
MIN_BRIGHTNESS = 24.0
"""The darkest a board's median may be on the still (0-255): below, no light to compare
with."""
GROUND_SPREAD = 0.25
"""A reference pixel is taken as the board's ground when its brightness is within this
share of the median's (lines, numbers and marks are not)."""


class CalibrationError(CompanionError, ValueError):
    """A calibration that cannot be made, read or used: the message names the file or
    the corners and what is wrong."""


def path_for(directory: Path, game: str) -> Path:
    """Where the calibration of ``game``'s board is kept in the state folder
    ``directory``: ``camera-calibration-GAME.json``."""
    return directory / f"camera-calibration-{game}.json"


def parse_corner(text: str) -> tuple[float, float]:
    """A corner given as ``X,Y`` (pixels, integers or decimals).

    :raises CalibrationError: not two numbers separated by a comma.
    """
    parts = text.replace(" ", "").split(",")
    try:
        if len(parts) != 2:
            raise ValueError(text)
        x, y = float(parts[0]), float(parts[1])
    except ValueError:
        raise CalibrationError(f"corner {text!r}: X,Y in pixels is wanted, e.g. 120,45") from None
    if not (math.isfinite(x) and math.isfinite(y)):
        raise CalibrationError(f"corner {text!r}: not a number")
    return x, y


def check_corners(corners: Sequence[tuple[float, float]], still: tuple[int, int],
                  layout: Layout) -> Pixels:
    """The four ``corners`` (top left, top right, bottom right, bottom left, pixels of a
    still of ``still`` = (width, height)) as a (4, 2) float32 array, once checked.

    :raises CalibrationError: not four; outside the still; going round the other way
        (counter-clockwise on the picture: a mirror, two neighbours swapped); crossing
        or not convex (two opposite corners swapped); too small (fewer than
        :data:`MIN_SQUARE_PX` pixels a square); on a long board
        (:data:`QUARTER_TURN_SEEN`), turned by a quarter (the long side given as the
        short one).
    """
    if len(corners) != 4:
        raise CalibrationError(f"four corners are wanted (top left, top right, bottom right, "
                               f"bottom left), not {len(corners)}")
    points = np.array(corners, np.float64).reshape(4, 2)
    width, height = still
    for name, (x, y) in zip(CORNER_NAMES, points, strict=True):
        if not (0 <= x <= width and 0 <= y <= height):
            raise CalibrationError(f"the {name} corner {x:g},{y:g} is outside the still "
                                   f"({width} x {height} pixels)")
    edges = np.roll(points, -1, axis=0) - points
    turns = edges[:, 0] * np.roll(edges, -1, axis=0)[:, 1] - edges[:, 1] * np.roll(edges, -1, axis=0)[:, 0]
    if np.all(turns < 0):
        raise CalibrationError("the corners go round the wrong way (a mirror): give them "
                               "clockwise as seen on the still: top left, top right, bottom "
                               "right, bottom left")
    if not np.all(turns > 0):
        raise CalibrationError("the corners cross or bend inwards (two of them swapped?): "
                               "give them in order: top left, top right, bottom right, "
                               "bottom left")
    sides = np.hypot(edges[:, 0], edges[:, 1])  # top, right, bottom, left
    rows, cols = layout.grid
    across, down = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    if across / cols < MIN_SQUARE_PX or down / rows < MIN_SQUARE_PX:
        raise CalibrationError(f"the board is too small on the still: a square must span at "
                               f"least {MIN_SQUARE_PX:g} pixels (move the camera nearer)")
    if max(rows, cols) >= QUARTER_TURN_SEEN * min(rows, cols):
        seen, meant = math.log(across / down), math.log(cols / rows)
        if abs(seen + meant) < abs(seen - meant):
            raise CalibrationError(
                f"the corners are turned by a quarter: the board is {cols} squares across "
                f"and {rows} down; start at the top left of the board as the box draws it")
    return points.astype(np.float32)


CORNER_NAMES = ("top left", "top right", "bottom right", "bottom left")
"""The corners in the order they are given."""


def _top_corners(size: tuple[int, int]) -> Pixels:
    w, h = size
    return np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)


@dataclass(frozen=True, eq=False)
class Calibration:
    """A board without markers, as the player marked it.

    ``game``: the game id; ``grid``: (rows, columns) of the board; ``labels``: its
    squares' labels in the board model's order (a board file's other board is another
    board); ``corners``: (4, 2) float32, pixels of the still (see the module);
    ``still``: the still's (width, height); ``reference``: the empty board's top
    view, RGB uint8, :data:`REFERENCE_PX` pixels a square, light flattened; ``camera``:
    which camera took the still, in words (for the player; not checked).
    """

    game: str
    grid: tuple[int, int]
    labels: tuple[str, ...]
    corners: Pixels
    still: tuple[int, int]
    reference: Pixels
    camera: str = ""

    def check(self, layout: Layout) -> None:
        """:raises CalibrationError: this calibration is of another board than
        ``layout``'s (another game, grid or squares)."""
        labels = tuple(p.label for p in layout.squares)
        if (self.game, self.grid, self.labels) != (layout.game, layout.grid, labels):
            raise CalibrationError(
                f"the calibration is of {self.game}'s board ({self.grid[0]} x {self.grid[1]} "
                f"squares), not of this {layout.game} board ({layout.grid[0]} x "
                f"{layout.grid[1]}): calibrate again")

    def homography(self, frame: tuple[int, ...], top: tuple[int, int]) -> Pixels:
        """The 3 x 3 map from a frame's pixels (``frame``: its shape, (height, width,
        ...)) to a top view of ``top`` = (width, height) pixels: the corners scaled from
        the still's size to the frame's.

        :raises CalibrationError: the frame's shape is not the still's in proportion
            (another camera, or another resolution asked).
        """
        height, width = frame[:2]
        sw, sh = self.still
        if abs(width * sh - height * sw) > max(sw, sh):
            raise CalibrationError(f"the camera gives {width} x {height} pictures, the "
                                   f"calibration was made on {sw} x {sh}: calibrate again")
        corners = self.corners * np.array([width / sw, height / sh], np.float32)
        return np.asarray(cv2.getPerspectiveTransform(corners, _top_corners(top)), np.float64)

    def reference_view(self, top: tuple[int, int]) -> Pixels:
        """The empty-board reference at ``top`` = (width, height) pixels, RGB uint8."""
        if (self.reference.shape[1], self.reference.shape[0]) == top:
            return self.reference
        return np.asarray(cv2.resize(self.reference, top, interpolation=cv2.INTER_AREA), np.uint8)

    # ------------------------------------------------------------------ the file

    def to_json(self) -> str:
        """The calibration as the text of its file (the reference a base64 PNG)."""
        ok, png = cv2.imencode(".png", cv2.cvtColor(self.reference, cv2.COLOR_RGB2BGR))
        if not ok:
            raise CalibrationError("the reference could not be encoded")
        data = {
            "format": FORMAT, "version": VERSION, "game": self.game, "grid": list(self.grid),
            "labels": list(self.labels),
            "corners": [[round(float(x), 2), round(float(y), 2)] for x, y in self.corners],
            "still": list(self.still), "camera": self.camera,
            "reference": base64.b64encode(png.tobytes()).decode("ascii"),
        }
        return json.dumps(data, indent=1) + "\n"

    @classmethod
    def from_json(cls, text: str, where: str = "the calibration") -> Calibration:
        """The calibration in ``text`` (a file's content; ``where`` names it in errors).

        :raises CalibrationError: not JSON, not a calibration, another version, a
            field missing or of the wrong kind, a reference that is not a picture of
            the board's grid.
        """
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise CalibrationError(f"{where}: not a calibration file (not JSON: {exc})") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise CalibrationError(f"{where}: not a calibration file")
        if data.get("version") != VERSION:
            raise CalibrationError(f"{where}: calibration version {data.get('version')!r}, "
                                   f"this companion reads {VERSION}: calibrate again")
        try:
            rows, cols = (int(v) for v in data["grid"])
            still = tuple(int(v) for v in data["still"])
            corners = np.array(data["corners"], np.float32)
            labels = tuple(str(v) for v in data["labels"])
            png = np.frombuffer(base64.b64decode(data["reference"], validate=True), np.uint8)
            game, camera = str(data["game"]), str(data.get("camera", ""))
        except (KeyError, TypeError, ValueError) as exc:
            raise CalibrationError(f"{where}: damaged ({type(exc).__name__}: {exc}): calibrate "
                                   "again") from None
        image = cv2.imdecode(png, cv2.IMREAD_COLOR) if png.size else None
        if (image is None or corners.shape != (4, 2) or len(still) != 2
                or image.shape[:2] != (rows * REFERENCE_PX, cols * REFERENCE_PX)
                or not np.all(np.isfinite(corners))):
            raise CalibrationError(f"{where}: damaged (its corners or its reference do not fit "
                                   "the board): calibrate again")
        reference = np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2RGB), np.uint8)
        return cls(game, (rows, cols), labels, corners, (still[0], still[1]), reference, camera)


def calibrate(layout: Layout, still: Pixels, corners: Sequence[tuple[float, float]],
              camera: str = "") -> Calibration:
    """The calibration of ``layout``'s board from ``still`` (RGB uint8 (h, w, 3), a
    picture of the EMPTY board) and its four ``corners`` (see :func:`check_corners`).

    :raises CalibrationError: as :func:`check_corners`; the board too dark on the
        still (:data:`MIN_BRIGHTNESS`).
    """
    height, width = still.shape[:2]
    points = check_corners(corners, (width, height), layout)
    rows, cols = layout.grid
    top = (cols * REFERENCE_PX, rows * REFERENCE_PX)
    matrix = cv2.getPerspectiveTransform(points, _top_corners(top))
    view = cv2.warpPerspective(still, matrix, top, flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REPLICATE)
    if float(np.median(view)) < MIN_BRIGHTNESS:
        raise CalibrationError("the board is too dark on the still (the camera covered, the "
                               "light off?): light it and take the still again")
    return Calibration(layout.game, layout.grid, tuple(p.label for p in layout.squares),
                       points, (width, height), flatten(view), camera)


def flatten(view: Pixels) -> Pixels:
    """``view`` (a top view of the empty board, RGB uint8) with its light made even and
    its ground (the pixels near the median's brightness: not lines, numbers or marks)
    at :data:`.board.BOARD_RGB`: a smooth field (a quadratic in x and y, per colour
    channel, fitted by least squares to the ground) divided out."""
    rgb = view.astype(np.float64)
    h, w = rgb.shape[:2]
    brightness = rgb.mean(axis=2)
    ground = np.abs(brightness - np.median(brightness)) < GROUND_SPREAD * np.median(brightness)
    ys, xs = np.mgrid[0:h, 0:w]
    x, y = xs / max(w, 1) - 0.5, ys / max(h, 1) - 0.5
    basis = np.stack([np.ones_like(x), x, y, x * x, x * y, y * y], axis=-1)
    coeffs, *_ = np.linalg.lstsq(basis[ground], rgb[ground], rcond=None)
    field = np.maximum(basis @ coeffs, 1.0)  # (h, w, 3): the ground's colour under the light
    out = rgb / field * np.array(BOARD_RGB, np.float64)
    return np.asarray(np.clip(out + 0.5, 0, 255), np.uint8)


# ---------------------------------------------------------------------- by pieces

PIECE_CHANGE = 0.4
"""How much a pixel's colour, relative to the light around it, must change between the
empty board and the board with one piece on it to be part of the piece (the sum over
R, G, B of the change of each channel's share of its surroundings' light)."""
PIECE_AREA = (40, 0.02)
"""The least area of a piece found, in pixels (a piece about 7 pixels across), and the
most, as a share of the frame (more changed than a piece: a hand, the board or the
camera moved)."""
PIECE_ALONE = 3.0
"""The piece's region must be this many times the next largest change's area (one
piece put down, nothing else moved)."""


def corner_squares(layout: Layout) -> tuple[SquarePlace, ...]:
    """The squares at the board's four corners, top left, top right, bottom right,
    bottom left (Tait's Senet: 1, 10, 30, 21): where the player puts a piece to mark a
    corner (:func:`corners_from_pieces`).

    :raises CalibrationError: a corner of the grid that is no square's.
    """
    rows, cols = layout.grid
    found = []
    for name, (r, c) in zip(CORNER_NAMES, ((0, 0), (0, cols - 1), (rows - 1, cols - 1), (rows - 1, 0)),
                            strict=True):
        place = next((p for p in layout.squares
                      if p.row <= r < p.row + p.rows and p.col <= c < p.col + p.cols), None)
        if place is None:
            raise CalibrationError(f"the board's {name} corner is no square: give --corners")
        found.append(place)
    return tuple(found)


def _light_shares(image: Pixels) -> Pixels:
    """``image`` (RGB uint8), thin lines and noise taken out (a 5 x 5 median: a board's
    lines and numbers, and a camera's blur of them, are not pieces), divided by the
    light around each pixel (a wide blur), float."""
    rgb = cv2.medianBlur(np.ascontiguousarray(image), 5).astype(np.float32) + 8.0
    sigma = max(image.shape[:2]) / 25
    return np.asarray(rgb / cv2.GaussianBlur(rgb, (0, 0), sigma), np.float32)


def find_piece(empty: Pixels, with_piece: Pixels) -> tuple[float, float]:
    """Where the one piece put on the board stands in ``with_piece`` (a picture of the
    board as ``empty`` with one piece added, the camera not moved; both RGB uint8 of one
    size): the centre (x, y, pixels) of the largest region whose colour, each picture
    taken relative to its own light (a lamp changed, the camera's exposure), changed by
    more than :data:`PIECE_CHANGE`.

    :raises CalibrationError: the pictures' sizes differ; no piece found; more changed
        than a piece (:data:`PIECE_AREA`), or something else changed as well
        (:data:`PIECE_ALONE`).
    """
    if empty.shape != with_piece.shape:
        raise CalibrationError("the pictures have different sizes: the camera changed")
    change = np.abs(_light_shares(with_piece) - _light_shares(empty)).sum(axis=2)
    mask = (change > PIECE_CHANGE).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))
    count, _labels, stats, centres = cv2.connectedComponentsWithStats(mask)
    if count < 2:
        raise CalibrationError("no piece found: put one piece on the square (nothing else)")
    areas = stats[1:, cv2.CC_STAT_AREA]
    biggest = 1 + int(np.argmax(areas))
    area = int(stats[biggest, cv2.CC_STAT_AREA])
    least, most = PIECE_AREA
    if area < least:
        raise CalibrationError("no piece found: put one piece on the square (nothing else)")
    if area > most * empty.shape[0] * empty.shape[1] or (
            len(areas) > 1 and np.sort(areas)[-2] * PIECE_ALONE > area):
        raise CalibrationError("more than a piece changed (a hand over the board? did the "
                               "camera or the board move?)")
    x, y = centres[biggest]
    return float(x), float(y)


def corners_from_pieces(layout: Layout, centres: Sequence[tuple[float, float]]) -> Pixels:
    """The board's four corners on the picture (as :func:`check_corners` takes them)
    from where a piece stood on each of its corner squares (:func:`corner_squares`, in
    their order; pixels): the homography from the squares' centres on the board to
    ``centres``, applied to the board's corners. Shape (4, 2), float64.

    :raises CalibrationError: not four centres, or they make no board (three in a line).
    """
    if len(centres) != 4:
        raise CalibrationError(f"four pieces are wanted, not {len(centres)}")
    places = corner_squares(layout)
    board = np.array([(p.col + p.cols / 2, p.row + p.rows / 2) for p in places], np.float32)
    seen = np.array(centres, np.float32).reshape(4, 2)
    edges = np.roll(seen, -1, axis=0) - seen
    turns = edges[:, 0] * np.roll(edges, -1, axis=0)[:, 1] - edges[:, 1] * np.roll(edges, -1, axis=0)[:, 0]
    if not (np.all(turns > 0) or np.all(turns < 0)):
        raise CalibrationError("the pieces do not make a board's corners: "
                               + ", ".join(f"{p.label} at {x:.0f},{y:.0f}" for p, (x, y) in zip(places, seen,
                                                                                                   strict=True)))
    matrix = cv2.getPerspectiveTransform(board, seen)
    rows, cols = layout.grid
    outer = np.array([[[0, 0], [cols, 0], [cols, rows], [0, rows]]], np.float64)
    return np.asarray(cv2.perspectiveTransform(outer, matrix)[0], np.float64)


# ---------------------------------------------------------------------- the turn

TURN_WORDS = ("as given", "a quarter turn", "a half turn", "three quarter turns")
""":func:`turned`'s ``quarters`` in words."""


def turns(layout: Layout) -> tuple[int, ...]:
    """The quarter turns a calibration's corners may be off by that the still of an
    empty board cannot tell (:func:`check_corners` takes them): 0 and 2 (a half turn)
    on every board; 1 and 3 too on a board less than :data:`QUARTER_TURN_SEEN` times as
    long as it is wide (casting-stick Senet's 5 x 6, the Labyrinths' 8 x 8 and 12 x 12)."""
    rows, cols = layout.grid
    return (0, 2) if max(rows, cols) >= QUARTER_TURN_SEEN * min(rows, cols) else (0, 1, 2, 3)


def turned(calibration: Calibration, quarters: int) -> Calibration:
    """``calibration`` with the board's top left at the corner given as
    ``CORNER_NAMES[quarters]`` (``quarters`` 0-3, clockwise: 2, the corners were given
    from the bottom right, a half turn): the corners taken round by ``quarters`` and the
    empty-board reference turned with them (an affine warp of the saved reference, no
    still needed; on a board that is not square a quarter turn also stretches it back to
    the board's rows and columns). The same board, game and still; 0: ``calibration``."""
    quarters %= 4
    if quarters == 0:
        return calibration
    reference = calibration.reference
    h, w = reference.shape[:2]
    top = _top_corners((w, h))
    # the turned view's corner i is where the old view's corner (i + quarters) % 4 is:
    # the map from a turned pixel to the old view's (pixels at integer coordinates, as
    # :func:`calibrate`'s warp made them)
    matrix = cv2.getAffineTransform(top[:3], np.roll(top, -quarters, axis=0)[:3])
    view = cv2.warpAffine(reference, matrix, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                          borderMode=cv2.BORDER_REPLICATE)
    return replace(calibration, corners=np.roll(calibration.corners, -quarters, axis=0),
                   reference=np.asarray(view, np.uint8))


# ---------------------------------------------------------------------- the folder


def save(calibration: Calibration, directory: Path) -> Path:
    """Write ``calibration`` to :func:`path_for` in ``directory`` (made if missing),
    atomically: a temporary file, fsync, rename over the old one, fsync of the folder
    (a power cut leaves the old calibration or the new, never half of one).

    :raises OSError: the folder cannot be written (the old file stays as it was).
    """
    directory.mkdir(parents=True, exist_ok=True)
    path = path_for(directory, calibration.game)
    replace_atomically(path, calibration.to_json().encode("utf-8"))
    return path


def load(directory: Path, layout: Layout) -> Calibration | None:
    """The calibration saved in ``directory`` for ``layout``'s game, ``None`` when none
    is saved. The file is only read, never changed.

    :raises CalibrationError: the file cannot be read, is damaged, or is of another
        board (:meth:`Calibration.check`); the message names the file.
    """
    path = path_for(directory, layout.game)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise CalibrationError(f"{path}: cannot be read: {exc}") from None
    calibration = Calibration.from_json(text, str(path))
    try:
        calibration.check(layout)
    except CalibrationError as exc:
        raise CalibrationError(f"{path}: {exc}") from None
    return calibration


def forget(directory: Path, game: str) -> Path | None:
    """Remove the calibration of ``game`` from ``directory`` (the printed board's
    markers are used again); its path, or ``None`` when there was none.

    :raises OSError: it cannot be removed."""
    path = path_for(directory, game)
    try:
        path.unlink()
    except FileNotFoundError:
        return None
    return path


# ---------------------------------------------------------------------- the still


def grid_picture(still: Pixels, step: int | None = None) -> Pixels:
    """``still`` (RGB uint8 (h, w, 3)) with a pixel grid drawn on it: a thin line every
    ``step`` pixels (default: 50 below 1000 pixels wide, else 100), each labelled with
    its coordinate along the top and the left edge, and a finer tick every fifth of a
    step: the player reads the board's corners off it (x across, y down). RGB uint8,
    the still's size."""
    out = np.ascontiguousarray(still.copy())
    h, w = out.shape[:2]
    step = step or (50 if w < 1000 else 100)
    scale = max(0.35, min(w, h) / 1600)
    for x in range(0, w, step):
        cv2.line(out, (x, 0), (x, h - 1), (255, 0, 255), 1)
    for y in range(0, h, step):
        cv2.line(out, (0, y), (w - 1, y), (255, 0, 255), 1)
    fine = max(2, step // 5)
    for x in range(0, w, fine):
        cv2.line(out, (x, 0), (x, 4), (255, 0, 255), 1)
    for y in range(0, h, fine):
        cv2.line(out, (0, y), (4, y), (255, 0, 255), 1)

    def label(text: str, at: tuple[int, int]) -> None:
        cv2.putText(out, text, at, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), 3, cv2.LINE_AA)
        cv2.putText(out, text, at, cv2.FONT_HERSHEY_SIMPLEX, scale, (255, 255, 0), 1, cv2.LINE_AA)

    for x in range(step, w, step):
        label(str(x), (x + 2, 16))
    for y in range(step, h, step):
        label(str(y), (6, y - 3))
    return out


def board_corners_mm(layout: Layout) -> Pixels:
    """The board's four corners on the printed page (top left, top right, bottom right,
    bottom left), shape (4, 2), mm: where a fake photo's true corners are
    (``Photo.homography``)."""
    x0, y0 = layout.origin
    bw, bh = layout.size
    return np.array([[x0, y0], [x0 + bw, y0], [x0 + bw, y0 + bh], [x0, y0 + bh]], np.float64)


def corners_on(layout: Layout, homography: Pixels) -> Pixels:
    """The board's corners on a picture whose map from the paper (mm) is ``homography``
    (a fake photo's), shape (4, 2), pixels."""
    points = board_corners_mm(layout).reshape(1, 4, 2)
    return np.asarray(cv2.perspectiveTransform(points, homography)[0], np.float64)


__all__ = ["CORNER_NAMES", "FORMAT", "REFERENCE_PX", "TURN_WORDS", "VERSION", "Calibration", "CalibrationError",
           "board_corners_mm", "calibrate", "check_corners", "corner_squares", "corners_from_pieces", "corners_on",
           "find_piece", "flatten", "forget", "grid_picture", "load", "parse_corner", "path_for", "save",
           "turned", "turns"]
