"""`companion board print`: a PDF and an SVG of the board at true size with four ArUco
markers that OpenCV finds again (issue 34)."""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import cv2
import numpy as np
import programs
import pytest
from PIL import Image
from scenes import GAMES

from companion.camera.board import DICTIONARY, PAPERS, layout_for, render, svg
from companion.cli import main
from companion.rules import get_game


def _ids(picture: np.ndarray) -> list[int]:
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(DICTIONARY),
                                       cv2.aruco.DetectorParameters())
    _corners, ids, _rejected = detector.detectMarkers(cv2.cvtColor(picture, cv2.COLOR_RGB2GRAY))
    return sorted(int(i) for i in ids.ravel()) if ids is not None else []


@pytest.mark.parametrize("paper", sorted(PAPERS))
@pytest.mark.parametrize("game", GAMES)
def test_board_print_writes_a_pdf_and_an_svg_at_true_size(game: str, paper: str, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "board"
    assert main(["board", "print", game, "--paper", paper, "--out", str(out)]) == 0
    assert capsys.readouterr().out.split() == [str(out.with_suffix(".pdf")), str(out.with_suffix(".svg"))]
    layout = layout_for(get_game(game).new_state(), paper)
    # the PDF: one page whose MediaBox is the paper in points (1/72 inch)
    pdf = out.with_suffix(".pdf").read_bytes()
    assert pdf.startswith(b"%PDF")
    box = re.search(rb"/MediaBox \[ ?0 0 ([\d.]+) ([\d.]+) ?\]", pdf)
    assert box is not None
    width, height = (float(v) * 25.4 / 72 for v in box.groups())
    assert (width, height) == pytest.approx(layout.paper, abs=0.5)
    # its picture: the four markers found again
    with Image.open(_first_image(pdf)) as page:
        assert _ids(np.asarray(page.convert("RGB"))) == [0, 1, 2, 3]
    # the SVG: true size, four markers
    svg = out.with_suffix(".svg").read_text()
    assert f'width="{layout.paper[0]:g}mm" height="{layout.paper[1]:g}mm"' in svg
    assert [f'id="marker-{i}"' in svg for i in range(4)] == [True] * 4
    assert svg.count('class="marker"') == 4


def _first_image(pdf: bytes) -> io.BytesIO:
    """The JPEG stream of the PDF's page (Pillow writes an RGB page as DCTDecode)."""
    start = pdf.index(b"\xff\xd8")
    end = pdf.index(b"\xff\xd9", start) + 2
    return io.BytesIO(pdf[start:end])


@pytest.mark.parametrize("game", GAMES)
def test_the_markers_of_the_svg_drawing_are_found_by_opencv(game: str) -> None:
    """The shapes the SVG is written from, drawn at 4 px/mm (an SVG renderer is not
    among the test tools): OpenCV finds the four markers with their ids."""
    layout = layout_for(get_game(game).new_state())
    assert _ids(render(layout, 4.0)) == [0, 1, 2, 3]


def test_a_board_is_printed_the_way_round_that_gives_the_larger_squares() -> None:
    """Tait's Senet's 3 x 10 landscape; casting-stick Senet's 6 x 5, the Labyrinth's 8 x 8
    and the Cretan 12 x 12 portrait; a cell of 2 x 2 squares (the Cretan palace) has its centre between them."""
    sizes = {game: layout_for(get_game(game).new_state()) for game in GAMES}
    assert [sizes[g].grid for g in GAMES] == [(3, 10), (6, 5), (8, 8), (12, 12)]
    assert [sizes[g].paper for g in GAMES] == [(297.0, 210.0), (210.0, 297.0), (210.0, 297.0), (210.0, 297.0)]
    assert [round(sizes[g].square, 1) for g in GAMES] == [27.7, 34.8, 23.8, 15.8]
    cretan = sizes["cretan-labyrinth"]
    palace = cretan.place("palace")
    assert (palace.rows, palace.cols) == (2, 2)
    x0, y0 = cretan.origin
    assert cretan.centre(palace) == pytest.approx((x0 + (palace.col + 1) * cretan.square,
                                                   y0 + (palace.row + 1) * cretan.square))


def test_camera_check_prints_the_board_and_writes_the_overlay(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "check.png"
    assert main(["camera", "check", "--fake", "3", "senet-tait", "--out", str(out),
                 "--dir", str(tmp_path)]) == 0  # --dir: no calibration of the machine's
    lines = capsys.readouterr().out.splitlines()
    assert len(lines[0].split()) == 10 and len(lines) == 5
    assert "differing from the scene: none" in lines[3]
    assert Image.open(out).size == (2 * 10 * 32, 2 * 3 * 32)
    assert (tmp_path / "check-photo.png").exists()


CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium: `make test` installs Debian's chromium "
                    "when apt-get can be used as root; here it cannot")
def test_the_svg_as_a_browser_draws_it_shows_the_four_markers(tmp_path: Path) -> None:
    """The SVG itself, drawn by Chromium at about 3.8 px/mm (A4 landscape in 1123 x 794):
    OpenCV finds the four markers (each marker drawn with crisp edges: no seams)."""
    assert CHROMIUM is not None
    layout = layout_for(get_game("senet-tait").new_state())
    page = tmp_path / "board.svg"
    page.write_text(svg(layout), encoding="utf-8")
    shot = tmp_path / "shot.png"
    done = programs.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                         "--disable-background-networking", "--disable-component-update",
                         "--hide-scrollbars", "--window-size=1123,794", f"--user-data-dir={tmp_path / 'p'}",
                         f"--screenshot={shot}", page.as_uri()], capture_output=True, text=True, idle=5)
    # Chromium's own words when it wrote no picture (it did so once under load, and
    # under a 5 GB address-space limit), as the spectator page's screenshot tests say
    assert done.returncode == 0 and shot.exists(), done.stderr[-2000:]
    with Image.open(shot) as picture:
        assert _ids(np.asarray(picture.convert("RGB"))) == [0, 1, 2, 3]
