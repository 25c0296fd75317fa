"""A handful of screens in German, pixel for pixel, against reference PNGs in
tests/ui/reference-de/ (issue 20: the start, a move list of each game, the settings,
a game's events and end). The same walks as the English references
(:mod:`walkthroughs.screens`), run with the German catalogue. To change them on
purpose, regenerate them and look at them before committing::

    UPDATE_REFERENCE=1 .venv/bin/python -m pytest tests/ui/test_reference_de.py
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageChops
from walkthroughs.screens import images

from companion.i18n import set_language

REFERENCE = Path(__file__).parent / "reference-de"
GERMAN_SCREENS = (
    "splash", "menu", "settings", "setup", "throw", "moves", "events", "over", "pause",
    "senet-sticks-moves", "labyrinth-moves-jump", "cretan-labyrinth-stops",
    "cretan-labyrinth-card", "seats-person", "who", "settings-camera", "calibrate-game",
    "calibrate-empty", "calibrate-corner",
)
"""The screens kept in German."""


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Image.Image]]:
    set_language("de")
    try:
        screens = {name: image for name, image in images(tmp_path_factory.mktemp("de")).items()
                   if name in GERMAN_SCREENS}
    finally:
        set_language("en")
    if os.environ.get("UPDATE_REFERENCE"):
        REFERENCE.mkdir(exist_ok=True)
        for old in REFERENCE.glob("*.png"):
            old.unlink()
        for name, image in screens.items():
            image.save(REFERENCE / f"{name}.png")
    yield screens


def test_every_german_reference_is_made(made: dict[str, Image.Image]) -> None:
    assert set(made) == set(GERMAN_SCREENS)
    assert {p.stem for p in REFERENCE.glob("*.png")} == set(GERMAN_SCREENS)


@pytest.mark.parametrize("name", GERMAN_SCREENS)
def test_german_screen_matches_its_reference(made: dict[str, Image.Image], name: str) -> None:
    expected = Image.open(REFERENCE / f"{name}.png").convert("1")
    actual = made[name]
    assert actual.size == expected.size
    diff = ImageChops.difference(actual.convert("L"), expected.convert("L"))
    changed = sum(diff.histogram()[1:])
    assert changed == 0, f"{name}: {changed} pixels differ from {REFERENCE / name}.png"


def test_the_german_screens_differ_from_the_english_ones(made: dict[str, Image.Image]) -> None:
    """Each German reference shows other words than its English one (no screen was
    left in English)."""
    english = Path(__file__).parent / "reference"
    for name in GERMAN_SCREENS:
        other = Image.open(english / f"{name}.png").convert("1")
        assert made[name].tobytes() != other.tobytes(), f"{name} is the same in English"
