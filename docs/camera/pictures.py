"""Make docs/camera.md's set-up pictures again (issue 34): the mount, the printed page,
a fake photo as the camera sees it, its overlay, and a photo with a hand over the board.

    .venv/bin/python docs/camera/pictures.py [--out DIR]      (default: docs/camera/)

Needs the camera extra (OpenCV, NumPy) and the ``companion`` command of the same
interpreter. What each file is and the command behind it:

* ``mount.png``: a drawing (Pillow only): the camera above the table, side view and
  top view, with the distances the fake camera is tested over;
* ``senet-tait-page.png``: the page ``companion board print senet-tait --paper A4``
  prints, drawn by the same function its PDF is made of
  (:func:`companion.camera.board.render`), at 2 pixels per mm instead of 300 dpi;
* ``senet-tait-overlay.png`` and ``senet-tait-photo.jpg``: ``companion camera check
  --fake 3 senet-tait`` (its overlay PNG, and its photo as a JPEG: the fake camera's
  photos are JPEGs of quality 60-95 anyway, and a PNG of sensor noise is ten times
  larger);
* ``senet-sticks-hand.jpg``: ``companion camera check --fake 8 senet-sticks --hand``,
  which refuses the photo and writes it;
* ``labyrinth-shared-photo.jpg`` and ``labyrinth-shared-overlay.png``: the fake camera's
  photo (seed 5) of the Labyrinth with two, three and four pieces and one of each
  player on its sanctuaries, and the reader's overlay of it (the pieces counted).

Each is deterministic for the same Pillow, OpenCV and NumPy (the dev lock's): running
it again on an unchanged checkout rewrites the same bytes.
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

HERE = Path(__file__).resolve().parent
COMPANION = [sys.executable, "-m", "companion"]

INK = (40, 40, 40)
GREY = (150, 150, 150)
SAND = (214, 188, 140)
WOOD = (176, 132, 88)
BLUE = (40, 90, 170)


def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def dashed(draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float],
           fill: tuple[int, int, int], dash: float = 8) -> None:
    """A dashed line from ``a`` to ``b``."""
    length = math.dist(a, b)
    steps = max(1, int(length // dash))
    for i in range(0, steps, 2):
        t0, t1 = i / steps, min(1.0, (i + 1) / steps)
        draw.line([(a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0),
                   (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1)], fill=fill, width=2)


def camera_body(draw: ImageDraw.ImageDraw, x: float, y: float, angle: float) -> None:
    """A small camera at (x, y) looking along ``angle`` degrees from straight down."""
    a = math.radians(angle)
    # a box 34 x 20 turned by angle, the lens at its lower side
    corners = [(-17, -10), (17, -10), (17, 10), (-17, 10)]
    turned = [(x + cx * math.cos(a) - cy * math.sin(a), y + cx * math.sin(a) + cy * math.cos(a))
              for cx, cy in corners]
    draw.polygon(turned, fill=INK)
    lx, ly = x - 14 * math.sin(a), y + 14 * math.cos(a)
    draw.ellipse((lx - 6, ly - 6, lx + 6, ly + 6), fill=BLUE)


def mount(out: Path) -> None:
    """The drawing of the mount: side view (left), top view (right)."""
    image = Image.new("RGB", (940, 440), "white")
    draw = ImageDraw.Draw(image)
    title, small = font(17), font(13)

    # ---- side view: 1 pixel = 2 mm; the table at y = 370
    draw.text((20, 12), "Side view", fill=INK, font=title)
    table_y, board_x0, board_x1 = 370, 160, 308  # A4 landscape, 297 mm wide
    draw.rectangle((20, table_y, 470, table_y + 14), fill=WOOD)
    draw.rectangle((board_x0, table_y - 3, board_x1, table_y), fill=SAND, outline=INK)
    # a clamp lamp arm: a post at the table's edge and an arm over the board
    cam_x, cam_y = (board_x0 + board_x1) / 2, table_y - 250  # 500 mm above the board
    draw.rectangle((440, cam_y - 20, 448, table_y), fill=GREY)
    draw.line([(444, cam_y - 16), (cam_x + 10, cam_y - 16)], fill=GREY, width=6)
    camera_body(draw, cam_x, cam_y, 0)
    for edge in (board_x0 - 20, board_x1 + 20):  # the field of view, with a margin
        dashed(draw, (cam_x, cam_y + 14), (edge, table_y - 3), BLUE)
    # the distance
    draw.line([(30, cam_y), (30, table_y - 3)], fill=INK, width=1)
    for y in (cam_y, table_y - 3):
        draw.line([(24, y), (36, y)], fill=INK, width=1)
    draw.text((38, cam_y - 8), "about 50 cm\nabove the board\n(36-80 cm on A4)", fill=INK, font=small)
    # a tilted camera: read too, up to 35 degrees from straight down
    tx, ty = cam_x - 105, cam_y + 95
    camera_body(draw, tx, ty, -35)
    dashed(draw, (tx + 8, ty + 12), (cam_x, table_y - 3), GREY)
    draw.text((38, ty + 30), "or tilted up to 35°", fill=INK, font=small)
    draw.text((board_x0 - 20, table_y + 18), "the printed board on the table", fill=INK, font=small)

    # ---- top view: the page as the camera should see it
    draw.text((500, 12), "Top view: what the camera must see", fill=INK, font=title)
    page = render_page(1.0)  # A4 landscape at 1 px/mm: 297 x 210
    px, py = 565, 105
    image.paste(page, (px, py))
    draw.rectangle((px - 1, py - 1, px + page.width, py + page.height), outline=GREY)
    # the camera's frame (4:3), turned a little: every marker inside it
    cx, cy, w, h, turn = px + page.width / 2, py + page.height / 2, 352, 264, math.radians(-7)
    frame = [(cx + dx * math.cos(turn) - dy * math.sin(turn),
              cy + dx * math.sin(turn) + dy * math.cos(turn))
             for dx, dy in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2))]
    for a, b in zip(frame, frame[1:] + frame[:1], strict=True):
        dashed(draw, a, b, BLUE)
    draw.text((500, 395), "The camera's picture (dashed) holds all four markers, uncovered;\n"
                          "the board may lie at any rotation in it.", fill=INK, font=small)
    image.save(out, optimize=True)


def render_page(px_per_mm: float) -> Image.Image:
    """Tait's Senet's A4 page as ``companion board print`` draws it."""
    from companion.camera.board import layout_for, render
    from companion.rules import get_game

    layout = layout_for(get_game("senet-tait").new_state(), "A4")
    return Image.fromarray(render(layout, px_per_mm))


def check_pictures(out: Path) -> None:
    """The overlay and the photos, through ``companion camera check``."""
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        subprocess.run([*COMPANION, "camera", "check", "--fake", "3", "senet-tait",
                        "--out", str(work / "overlay.png")], check=True, stdout=subprocess.DEVNULL)
        (out / "senet-tait-overlay.png").write_bytes((work / "overlay.png").read_bytes())
        Image.open(work / "overlay-photo.png").save(out / "senet-tait-photo.jpg", quality=85)
        # refused (a hand over the board): exit 1, the photo written
        done = subprocess.run([*COMPANION, "camera", "check", "--fake", "8", "senet-sticks",
                               "--hand", "--out", str(work / "hand.png")],
                              check=False, stdout=subprocess.PIPE, text=True)
        assert done.returncode == 1 and done.stdout.startswith("refused:"), done.stdout
        Image.open(work / "hand.png").save(out / "senet-sticks-hand.jpg", quality=85)


SHARED = {1: (0, 0), 2: (0, 1, 1), 3: (1, 1, 1, 1), 5: 0, 31: (0, 0, 0), 40: 1, 58: (0, 1)}
"""The Labyrinth's board of ``labyrinth-shared-*``: sanctuaries holding several pieces."""


def shared_pictures(out: Path) -> None:
    """Several pieces on the Labyrinth's sanctuaries: the photo and the overlay."""
    from companion.camera.board import layout_for
    from companion.camera.fake import fake_camera
    from companion.camera.read import Reader, overlay
    from companion.rules import get_game

    layout = layout_for(get_game("labyrinth").new_state(), "A4")
    photo = fake_camera(layout).photo(SHARED, 5)
    reader = Reader(layout)
    Image.fromarray(photo.image).save(out / "labyrinth-shared-photo.jpg", quality=85)
    Image.fromarray(overlay(reader, reader.read(photo.image))).save(out / "labyrinth-shared-overlay.png",
                                                                   optimize=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--out", type=Path, default=HERE, help="where to write (default: here)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    mount(args.out / "mount.png")
    render_page(2.0).save(args.out / "senet-tait-page.png", optimize=True)
    check_pictures(args.out)
    shared_pictures(args.out)
    for name in ("mount.png", "senet-tait-page.png", "senet-tait-overlay.png",
                 "senet-tait-photo.jpg", "senet-sticks-hand.jpg", "labyrinth-shared-photo.jpg",
                 "labyrinth-shared-overlay.png"):
        print(args.out / name)


if __name__ == "__main__":
    main()
