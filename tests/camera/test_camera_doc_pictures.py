"""docs/camera.md's set-up pictures can be made again (issue 34): docs/camera/pictures.py
writes every one of them, and the drawn ones (the mount, the printed page: Pillow only)
are the bytes committed. The photo and the overlay go through OpenCV and are only
checked to be made: to change them on purpose, run the script and look at them.

    .venv/bin/python docs/camera/pictures.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import programs
from PIL import Image

DOCS = Path(__file__).resolve().parents[2] / "docs"
SCRIPT = DOCS / "camera" / "pictures.py"
PICTURES = ("mount.png", "senet-tait-page.png", "senet-tait-overlay.png",
            "senet-tait-photo.jpg", "senet-sticks-hand.jpg", "labyrinth-shared-photo.jpg",
            "labyrinth-shared-overlay.png")


def test_the_script_makes_every_picture_the_doc_shows(tmp_path: Path) -> None:
    done = programs.run([sys.executable, str(SCRIPT), "--out", str(tmp_path)],
                        capture_output=True, text=True, idle=1, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    doc = (DOCS / "camera.md").read_text()
    for name in PICTURES:
        assert f"(camera/{name})" in doc, f"docs/camera.md does not show {name}"
        made = Image.open(tmp_path / name)
        assert made.size == Image.open(DOCS / "camera" / name).size, name
    for name in ("mount.png", "senet-tait-page.png"):  # drawn: the same bytes
        assert (tmp_path / name).read_bytes() == (DOCS / "camera" / name).read_bytes(), (
            f"docs/camera/{name} is not what {SCRIPT.name} draws: run it and look")
