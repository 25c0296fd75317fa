"""A fake camera: seeded photos of the printed board with pieces on it.

The photo is made as a camera would see the page of :mod:`.board`: the page drawn at
:attr:`FakeCamera.px_per_mm`, pieces on their squares (discs in the players' colours,
shaded as domes lit from one side, each with a soft shadow), then seen by a pinhole
camera under a random pose (any rotation, tilt up to :data:`MAX_TILT`, distance) over a
wooden table, lit by a random light (exposure, warm or cold colour, a gradient, a lamp's
hot spot), with optionally a hand reaching over the board, then lens blur, sensor
noise and JPEG compression. Everything is drawn from ``numpy.random.default_rng(seed)``:
one seed, one photo, on every machine.

>>> from companion.rules import get_game
>>> from companion.camera.board import layout_for
>>> camera = FakeCamera(layout_for(get_game("senet-tait").new_state()))
>>> shot = camera.photo({1: 0, 2: 1}, seed=7)
>>> shot.image.shape, shot.image.dtype.name
((600, 800, 3), 'uint8')
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.rules.core import Square

from .board import (
    PAPER_RGB,
    PIECE_ALONE,
    SIDE_BY_SIDE,
    SIDE_BY_SIDE_RADIUS,
    Layout,
    Pixels,
    piece_rgb,
    render,
)

MAX_TILT = 35.0
"""The largest tilt of the camera from straight above the board, degrees."""
SKIN = ((0.93, 0.76, 0.64), (0.80, 0.60, 0.46), (0.55, 0.38, 0.27), (0.36, 0.24, 0.17))
"""Skin tones of the hand, RGB 0..1, light to dark."""
SLEEVES = ((0.20, 0.25, 0.45), (0.55, 0.10, 0.12), (0.30, 0.30, 0.30), (0.85, 0.85, 0.80))
"""Sleeve colours of the arm behind the hand, RGB 0..1."""


@dataclass(frozen=True)
class Photo:
    """One photo: ``image`` RGB, shape (height, width, 3), uint8; ``pieces`` the
    square -> player it shows (or the players of several pieces side by side: :data:`Pieces`); ``hand`` whether a hand reaches over the board;
    ``homography`` the 3 x 3 map from the paper (mm) to the image's pixels."""

    image: Pixels
    pieces: Pieces
    hand: bool
    homography: Pixels


Pieces = Mapping[Square, "int | tuple[int, ...]"]
"""What stands on the board: square -> the player (0-based) of the piece on it, or the
players of the pieces on it, one entry a piece (a :data:`companion.camera.find.Stack`:
two or more stand side by side, one alone is drawn as a player's number is)."""


def fake_camera(layout: Layout, *, markers: bool = True) -> FakeCamera:
    """The fake camera for ``layout``: 800 x 600 frames, or 1280 x 960 with the page
    drawn at 4.5 px/mm for a board of more than 10 squares a side (the Cretan
    Labyrinth's 12 x 12 squares of 15.8 mm on A4: at 800 x 600 a square is about 25
    pixels, too few; a real camera is asked for 1280 x 720). ``markers``: see
    :class:`FakeCamera`."""
    if max(layout.grid) > 10:
        return FakeCamera(layout, size=(1280, 960), px_per_mm=4.5, markers=markers)
    return FakeCamera(layout, markers=markers)


class FakeCamera:
    """Photos of the page of ``layout``, ``size`` = (width, height) pixels each.

    ``px_per_mm``: the resolution the page is drawn at before it is photographed (the
    page is drawn once, here, and kept: about 0.5 MB at the default). ``markers``:
    ``False`` photographs the board as a player's own, bought or drawn, with no markers
    (their places left blank paper): a board read through a calibration of its four
    corners (:mod:`.calibration`), its corners on the photo at
    ``Photo.homography`` of the board's corners on the paper
    (:func:`~.calibration.board_corners_mm`).
    """

    def __init__(self, layout: Layout, size: tuple[int, int] = (800, 600), px_per_mm: float = 3.0,
                 *, markers: bool = True):
        self.layout = layout
        self.size = size
        self.px_per_mm = px_per_mm
        self.markers = markers
        page = render(layout, px_per_mm)
        if not markers:
            for marker in layout.markers:
                x0, y0 = (round(v * px_per_mm) for v in (marker.x, marker.y))
                x1, y1 = (round((v + marker.size) * px_per_mm) for v in (marker.x, marker.y))
                page[max(0, y0 - 2):y1 + 2, max(0, x0 - 2):x1 + 2] = PAPER_RGB
        self._page = page.astype(np.float32) / 255.0
        self._mount: int | None = None
        """The mount being photographed (:meth:`mounted`), else ``None``."""
        self._memo: dict[str, tuple[int, Pixels]] = {}
        """The table and the light of the last mount photographed (one of each: a few
        megabytes)."""

    def photo(self, pieces: Pieces, seed: int, *, hand: bool = False,
              pose: int | None = None) -> Photo:
        """A photo of the board with ``pieces`` (square -> player, 0-based, or the
        players of several pieces side by side: :data:`Pieces`) on it.
        ``pose``: the seed of the camera's pose and the table under it (default:
        ``seed``); photos with one ``pose`` are taken by a camera that stays where it
        is (a calibrated camera), each with the light, pieces' jitter, blur and noise
        of its own ``seed``.

        :raises KeyError: a square not on the board.
        """
        rng = np.random.default_rng(seed)
        image, homography = self._scene(pieces, rng, pose)
        if hand:
            self._hand(image, homography, rng)
        return Photo(self._expose(image, rng), dict(pieces), hand, homography)

    def frames(self, pieces: Pieces, seed: int,
               hands: Sequence[float | None], *, pose: int | None = None) -> list[Photo]:
        """A still camera's consecutive frames of one scene (the pose, the light, the
        blur and the JPEG quality of ``seed``; fresh sensor noise in each frame), one a
        value of ``hands``: ``None``, no hand; a number, the same hand (drawn from
        ``seed``) with its fingertips that many squares back from the square it
        reaches for, along its arm (0: over the square; 3 or more: off the board). A
        hand that moves changes between frames; a hand held still does not.

        Not the frames of :meth:`photo` (the hand is drawn apart from the scene).
        ``pose``: as :meth:`photo`.

        :raises KeyError: a square not on the board.
        """
        rng = np.random.default_rng(seed)
        scene, homography = self._scene(pieces, rng, pose)
        state = rng.bit_generator.state
        out = []
        for index, away in enumerate(hands):
            image = scene.copy()
            if away is not None:
                self._hand(image, homography, np.random.default_rng([seed, 1]), away=away)
            rng.bit_generator.state = state  # the same light, blur and quality each frame
            noise = np.random.default_rng([seed, 2, index])
            out.append(Photo(self._expose(image, rng, noise), dict(pieces), away is not None, homography))
        return out

    def mounted(self, pieces: Pieces, mount: int, scene: int, frame: int = 0, *,
                hand: bool = False) -> Photo:
        """A frame of a camera mounted over the table for a whole game: the pose, the
        table, the light, the lens blur and the JPEG quality are those of ``mount`` in
        every frame (a mounted camera and its lamp do not move); where the pieces lie on
        their squares (their small jitter) and the hand (``hand``: one reaching over
        the board) are those of ``scene`` (one position on the board); the sensor's
        noise is fresh in each ``frame`` of a scene. Not the photos of :meth:`photo`.

        :raises KeyError: a square not on the board.
        """
        fixed = np.random.default_rng([mount, 0])
        self._mount = mount
        try:
            image, homography = self._scene(pieces, fixed,
                                           placing=np.random.default_rng([mount, 1, scene]))
            if hand:
                self._hand(image, homography, np.random.default_rng([mount, 2, scene]))
            noise = np.random.default_rng([mount, 3, scene, frame])
            return Photo(self._expose(image, fixed, noise), dict(pieces), hand, homography)
        finally:
            self._mount = None

    def _scene(self, pieces: Pieces, rng: np.random.Generator,
               pose: int | None = None, placing: np.random.Generator | None = None,
               ) -> tuple[Pixels, Pixels]:
        """The page with ``pieces`` seen by a random pose (drawn from ``rng``, or from
        the seed ``pose``) over the table, before the light, float32 RGB 0..1 (h, w, 3),
        and the pose's homography paper (mm) -> image (px). ``placing``: where the
        pieces' jitter is drawn from (default ``rng``)."""
        page = self._page.copy()
        light_angle = rng.uniform(0, 2 * math.pi)
        for square, players in pieces.items():
            if isinstance(players, int) or len(players) == 1:
                self._piece(page, square, players if isinstance(players, int) else players[0],
                            light_angle, placing or rng)
            elif players:
                self._side_by_side(page, square, players, light_angle, placing or rng)
        homography = self._pose(rng)  # drawn either way: the rest of the photo stays the same
        table_rng = rng
        if pose is not None:  # the camera stays: the same pose, the same table under it
            table_rng = np.random.default_rng(pose)
            homography = self._pose(table_rng)
        to_image = homography @ np.diag([1 / self.px_per_mm, 1 / self.px_per_mm, 1.0])
        w, h = self.size
        warped = cv2.warpPerspective(page, to_image, (w, h), flags=cv2.INTER_LINEAR)
        cover = cv2.warpPerspective(np.ones(page.shape[:2], np.float32), to_image, (w, h))
        table = self._table(rng)
        if table_rng is not rng:
            table = self._table(table_rng)
        image = cover[..., None] * warped + (1 - cover[..., None]) * table
        return np.asarray(image, np.float32), homography

    def _expose(self, image: Pixels, rng: np.random.Generator,
                noise: np.random.Generator | None = None) -> Pixels:
        """``image`` (float32 RGB 0..1, changed in place) under a random light, auto
        exposure, lens blur, sensor noise (drawn from ``noise``, default ``rng``) and
        JPEG: the photo, RGB uint8 (h, w, 3)."""
        image *= self._light(rng)
        # the camera's auto exposure: the brightest part of the frame just below white
        image *= min(1.0, 0.96 / max(float(np.percentile(image[::4, ::4], 99.5)), 1e-3))
        sigma = rng.uniform(0.0, 1.3)
        if sigma > 0.3:
            image = np.asarray(cv2.GaussianBlur(image, (0, 0), sigma), np.float32)
        level = rng.uniform(0.004, 0.02)
        image += (noise or rng).normal(0.0, level, image.shape).astype(np.float32)
        out = np.clip(image * 255 + 0.5, 0, 255).astype(np.uint8)
        quality = int(rng.integers(60, 96))
        ok, jpeg = cv2.imencode(".jpg", cv2.cvtColor(out, cv2.COLOR_RGB2BGR),
                                [cv2.IMWRITE_JPEG_QUALITY, quality])
        assert ok
        decoded = np.asarray(cv2.imdecode(jpeg, cv2.IMREAD_COLOR), np.uint8)
        return np.asarray(cv2.cvtColor(decoded, cv2.COLOR_BGR2RGB), np.uint8)

    # ------------------------------------------------------------------ the parts

    def _piece(self, page: Pixels, square: Square, player: int,
               light_angle: float, rng: np.random.Generator) -> None:
        """Paint one piece, alone on its square, and its shadow onto ``page`` (in
        place): near the square's middle, :data:`~.board.PIECE_ALONE` of a square in
        radius."""
        q = self.layout.square
        cx, cy = self.layout.centre(self.layout.place(square))
        cx += rng.uniform(-0.04, 0.04) * q
        cy += rng.uniform(-0.04, 0.04) * q
        r = rng.uniform(*PIECE_ALONE) * q
        self._disc(page, (cx, cy), r, player, light_angle)

    def _side_by_side(self, page: Pixels, square: Square, players: Sequence[int],
                      light_angle: float, rng: np.random.Generator) -> None:
        """Paint several pieces standing side by side on one square (``players``: one
        entry a piece; a field that several pieces share, :attr:`Layout.shared`), each
        with its shading and shadow (in place): evenly round the square's middle,
        :data:`~.board.SIDE_BY_SIDE` of a square from it (the ring turned at random),
        each :data:`~.board.SIDE_BY_SIDE_RADIUS` of a square in radius (five or more crowd:
        they touch, six or more overlap), with a small jitter; which piece stands where
        is drawn too."""
        q = self.layout.square
        cx, cy = self.layout.centre(self.layout.place(square))
        n = len(players)
        turn = rng.uniform(0, 2 * math.pi)
        order = rng.permutation(n)
        ring = rng.uniform(*SIDE_BY_SIDE)
        for slot, index in enumerate(order):
            angle = turn + 2 * math.pi * slot / n
            r = rng.uniform(*SIDE_BY_SIDE_RADIUS) * q
            x = cx + (ring * math.cos(angle) + rng.uniform(-0.02, 0.02)) * q
            y = cy + (ring * math.sin(angle) + rng.uniform(-0.02, 0.02)) * q
            self._disc(page, (x, y), r, int(players[int(index)]), light_angle)

    def _disc(self, page: Pixels, centre: tuple[float, float], radius: float, player: int,
              light_angle: float) -> None:
        """Paint a piece of ``player`` at ``centre`` (mm on the page), ``radius`` mm,
        and its shadow onto ``page`` (in place)."""
        k = self.px_per_mm
        q = self.layout.square
        cx, cy = centre
        r = radius * k
        px, py = cx * k, cy * k
        lx, ly = math.cos(light_angle), math.sin(light_angle)
        half = int(r * 1.5) + 3
        x0, y0 = int(px) - half, int(py) - half
        ys, xs = np.mgrid[y0:y0 + 2 * half, x0:x0 + 2 * half].astype(np.float32)
        ys_c = np.clip(ys, 0, page.shape[0] - 1).astype(int)
        xs_c = np.clip(xs, 0, page.shape[1] - 1).astype(int)
        region = page[ys_c, xs_c]
        # the shadow, cast away from the light
        sx, sy = px - lx * 0.07 * q * k, py - ly * 0.07 * q * k
        shadow = np.clip(r - np.hypot(xs - sx, ys - sy), 0, None)
        shadow = np.clip(shadow / (0.12 * r), 0, 1) * 0.45
        region *= 1 - shadow[..., None]
        # the piece: a low dome, lit from the light's side, with a small highlight
        dx, dy = (xs - px) / r, (ys - py) / r
        d2 = dx * dx + dy * dy
        alpha = np.clip(r * (1 - np.sqrt(d2)) + 0.5, 0, 1)
        nz = np.sqrt(np.clip(1 - 0.5 * d2, 0.05, None))
        lit = (0.5 * (dx * lx + dy * ly) + 0.8 * nz) / math.sqrt(0.25 + 0.64)
        base = np.array(piece_rgb(self.layout, player), np.float32)
        shade = (0.8 + 0.25 * lit)[..., None] * base
        shine = 0.25 * np.exp(-((dx - 0.35 * lx) ** 2 + (dy - 0.35 * ly) ** 2) / 0.02)
        colour = np.clip(shade + shine[..., None], 0, 1)
        region = alpha[..., None] * colour + (1 - alpha[..., None]) * region
        inside = (ys >= 0) & (ys < page.shape[0]) & (xs >= 0) & (xs < page.shape[1])
        page[ys_c[inside], xs_c[inside]] = region[inside]

    def _pose(self, rng: np.random.Generator) -> Pixels:
        """The homography paper (mm) -> image (px) of a random pinhole camera pose."""
        pw, ph = self.layout.paper
        corners = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], np.float64)
        centred = np.c_[corners - [pw / 2, ph / 2], np.zeros(4)]
        roll = rng.uniform(0, 2 * math.pi)
        tilt = math.radians(rng.uniform(0, MAX_TILT))
        azimuth = rng.uniform(0, 2 * math.pi)
        rz = np.array([[math.cos(roll), -math.sin(roll), 0], [math.sin(roll), math.cos(roll), 0], [0, 0, 1]])
        axis = np.array([math.cos(azimuth), math.sin(azimuth), 0.0])
        rt = cv2.Rodrigues(axis * tilt)[0]
        points = centred @ (rt @ rz).T
        distance = math.hypot(pw, ph) * rng.uniform(1.0, 2.2)
        z = points[:, 2] + distance
        projected = points[:, :2] / z[:, None]
        w, h = self.size
        fill = rng.uniform(0.72, 0.95)
        span = projected.max(0) - projected.min(0)
        scale = fill * min(w / span[0], h / span[1])
        image_pts = (projected - projected.min(0)) * scale
        room = np.array([w, h]) - (image_pts.max(0))
        image_pts += rng.uniform(0, 1, 2) * room
        return cv2.getPerspectiveTransform(corners.astype(np.float32), image_pts.astype(np.float32))

    def _table(self, rng: np.random.Generator) -> Pixels:
        """A wooden table top filling the frame: a brown with streaks of grain."""
        w, h = self.size
        base = np.array([rng.uniform(0.35, 0.6), rng.uniform(0.22, 0.4), rng.uniform(0.12, 0.25)], np.float32)
        grain = rng.normal(0, 1, (1, w)).astype(np.float32)
        kept = self._kept("table")
        if kept is not None:
            return kept
        grain = cv2.GaussianBlur(grain, (0, 0), 3).repeat(h, 0) * 0.05
        return self._keep("table", np.asarray(np.clip(base[None, None, :] * (1 + grain[..., None]), 0, 1),
                                              np.float32))

    def _kept(self, kind: str) -> Pixels | None:
        """The table or the light (``kind``) made for the mount being photographed
        (:meth:`mounted`: the same draws, the same picture), or ``None``."""
        kept = self._memo.get(kind)
        return kept[1] if kept is not None and self._mount is not None and kept[0] == self._mount else None

    def _keep(self, kind: str, picture: Pixels) -> Pixels:
        if self._mount is not None:
            self._memo[kind] = (self._mount, picture)
        return picture

    def _light(self, rng: np.random.Generator) -> Pixels:
        """The light over the frame, a gain per pixel and channel, shape (h, w, 3):
        exposure x colour temperature x (gradient + a lamp's hot spot)."""
        w, h = self.size
        exposure = rng.uniform(0.75, 1.05)
        warmth = rng.uniform(-1, 1)  # -1 cold (bluish), +1 warm (tungsten)
        tint = np.array([1 + 0.08 * warmth, 1.0, 1 - 0.14 * warmth], np.float32)
        gx, gy = rng.uniform(-0.25, 0.25, 2)
        hx, hy = rng.uniform(0, w), rng.uniform(0, h)
        sigma = rng.uniform(0.15, 0.4) * w
        spot = rng.uniform(0, 0.3)
        kept = self._kept("light")
        if kept is not None:
            return kept
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        field = 1 + gx * (xs / w - 0.5) * 2 + gy * (ys / h - 0.5) * 2
        field += spot * np.exp(-((xs - hx) ** 2 + (ys - hy) ** 2) / (2 * sigma**2))
        return self._keep("light", np.asarray((exposure * field)[..., None] * tint[None, None, :], np.float32))

    def _hand(self, image: Pixels, homography: Pixels,
              rng: np.random.Generator, away: float = 0.0) -> None:
        """Paint a hand and arm reaching over a random square of the board, with its
        shadow (in place, before the light: the hand is lit as the board is); ``away``:
        the fingertips that many squares back from the square, along the arm."""
        h, w = image.shape[:2]
        place = self.layout.squares[int(rng.integers(len(self.layout.squares)))]
        cx, cy = self.layout.centre(place)
        tip = cv2.perspectiveTransform(np.array([[[cx, cy]]], np.float64), homography)[0, 0]
        q = self.layout.square
        edge = cv2.perspectiveTransform(np.array([[[cx + q, cy]]], np.float64), homography)[0, 0]
        sq = float(np.hypot(*(edge - tip)))  # a square's side in pixels, here
        angle = rng.uniform(0, 2 * math.pi)
        ux, uy = math.cos(angle), math.sin(angle)  # from the fingertips towards the arm
        tip = tip + np.array([ux, uy]) * away * sq
        palm = (tip[0] + ux * 1.9 * sq, tip[1] + uy * 1.9 * sq)
        mask = np.zeros((h, w), np.float32)
        sleeve = np.zeros((h, w), np.float32)
        deg = math.degrees(angle)
        cv2.ellipse(mask, (int(palm[0]), int(palm[1])), (int(1.1 * sq), int(0.9 * sq)), deg, 0, 360, 1.0, -1,
                    cv2.LINE_AA)
        for i in range(4):
            off = (i - 1.5) * 0.32 * sq
            bx, by = palm[0] - uy * off, palm[1] + ux * off
            length = sq * (1.7 - 0.25 * abs(i - 1.5))
            fx, fy = bx - ux * length, by - uy * length
            cv2.line(mask, (int(bx), int(by)), (int(fx), int(fy)), 1.0, max(2, int(0.26 * sq)), cv2.LINE_AA)
        far = (palm[0] + ux * 4 * max(w, h), palm[1] + uy * 4 * max(w, h))
        cv2.line(mask, (int(palm[0]), int(palm[1])), (int(far[0]), int(far[1])), 1.0, int(1.2 * sq), cv2.LINE_AA)
        wrist = (palm[0] + ux * 1.4 * sq, palm[1] + uy * 1.4 * sq)
        cv2.line(sleeve, (int(wrist[0]), int(wrist[1])), (int(far[0]), int(far[1])), 1.0, int(1.5 * sq),
                 cv2.LINE_AA)
        shift = np.array([[1, 0, 0.25 * sq], [0, 1, 0.25 * sq]], np.float32)
        shadow = cv2.GaussianBlur(cv2.warpAffine(mask, shift, (w, h)), (0, 0), 0.2 * sq)
        image *= (1 - 0.5 * shadow)[..., None]
        skin = np.array(SKIN[int(rng.integers(len(SKIN)))], np.float32) * rng.uniform(0.9, 1.05)
        cloth = np.array(SLEEVES[int(rng.integers(len(SLEEVES)))], np.float32)
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        shade = 0.9 + 0.1 * np.sin((xs * uy - ys * ux) / max(sq, 1.0) * 2.0)
        colour = np.where(sleeve[..., None] > 0.5, cloth, skin) * shade[..., None]
        image[:] = mask[..., None] * colour + (1 - mask[..., None]) * image


__all__ = ["MAX_TILT", "FakeCamera", "Photo", "Pieces", "fake_camera"]
