"""Every screen, pixel for pixel, against its reference PNG in tests/ui/reference/.

A difference fails with the screen's name and the number of pixels that differ. To
change a screen on purpose, regenerate the references (and the README's enlarged
copies in docs/screens/) and look at them before committing::

    UPDATE_REFERENCE=1 .venv/bin/python -m pytest tests/ui/test_reference.py
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops
from walkthroughs.screens import README_SCREENS, images

from companion.ui.font import glyph
from companion.ui.render import render
from companion.ui.view import View

REFERENCE = Path(__file__).parent / "reference"
README_COPIES = Path(__file__).parents[2] / "docs" / "screens"


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Image.Image]:
    screens = images(tmp_path_factory.mktemp("screens"))
    if os.environ.get("UPDATE_REFERENCE"):
        for old in REFERENCE.glob("*.png"):
            old.unlink()
        for name, image in screens.items():
            image.save(REFERENCE / f"{name}.png")
        for name in README_SCREENS:  # enlarged three times for the README
            image = screens[name]
            image.convert("L").resize(
                (image.width * 3, image.height * 3), Image.Resampling.NEAREST
            ).save(README_COPIES / f"{name}.png")
    return screens


def test_every_reference_is_still_made(made: dict[str, Image.Image]) -> None:
    on_disk = {p.stem for p in REFERENCE.glob("*.png")}
    assert on_disk == set(made), "regenerate the references (see this module's docstring)"


@pytest.mark.parametrize("name", sorted(p.stem for p in REFERENCE.glob("*.png")))
def test_screen_matches_its_reference(made: dict[str, Image.Image], name: str) -> None:
    expected = Image.open(REFERENCE / f"{name}.png").convert("1")
    actual = made[name]
    assert actual.size == expected.size
    diff = ImageChops.difference(actual.convert("L"), expected.convert("L"))
    changed = diff.histogram()[255] + sum(diff.histogram()[1:255])
    assert changed == 0, f"{name}: {changed} pixels differ from {REFERENCE / name}.png"


def test_frames_are_one_bit_with_no_grey() -> None:
    image = render(View("moves", "Black threw 3", items=("12-15", "enter 4")))
    assert image.mode == "1"
    histogram = image.convert("L").histogram()
    assert sum(histogram[1:255]) == 0


def test_glyphs_are_crisp_5x7() -> None:
    a = glyph("A")
    assert a.size == (5, 8)
    assert a.getbbox() == (0, 0, 5, 7)


def test_long_lists_scroll_to_keep_the_cursor_visible() -> None:
    items = tuple(f"{i}-{i + 3}" for i in range(1, 13))
    top = render(View("moves", "Black threw 3", items=items, cursor=0))
    bottom = render(View("moves", "Black threw 3", items=items, cursor=11))
    # the last item is drawn (inverted) only when the cursor is on it
    assert top.tobytes() != bottom.tobytes()
    last_row = bottom.crop((0, 50, 100, 56))
    assert last_row.getbbox() is not None


def test_wrap_breaks_at_spaces_and_cuts_only_words_too_long() -> None:
    from companion.ui.font import wrap

    assert wrap("Black's piece on 12 is bumped back to its plinth", 21) == [
        "Black's piece on 12", "is bumped back to its", "plinth"]
    # A word too long for a line breaks after a '/' (a path), else after a '-', else anywhere.
    assert wrap("20261120-215931-senet-tait", 10) == ["20261120-", "215931-", "senet-tait"]
    assert wrap("/var/lib/companion/x-y", 12) == ["/var/lib/", "companion/", "x-y"]
    assert wrap("abcdefghijklmnop", 10) == ["abcdefghij", "klmnop"]
    assert wrap("a\nb", 21) == ["a", "b"]


def test_characters_outside_the_font_show_a_question_mark() -> None:
    assert glyph("é").tobytes() == glyph("?").tobytes()


def test_the_letters_with_descenders_hang_below_the_line_and_g_is_not_9() -> None:
    """On a real panel the LCD font's ``g`` read as ``9``: g, j, p, q and y now use the
    cell's eighth row, and no other printable letter does."""
    for ch in "gjpqy":
        box = glyph(ch).getbbox()
        assert box is not None and box[3] == 8, ch
    assert glyph("g").tobytes() != glyph("9").tobytes()
    for ch in "abcdefhiklmnorstuvwxzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789":
        box = glyph(ch).getbbox()
        assert box is not None and box[3] <= 7, ch
