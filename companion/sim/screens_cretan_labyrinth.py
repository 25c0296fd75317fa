"""The screens particular to `cretan-labyrinth`, made by driving the real controller.

:func:`walk` yields ``(name, view)`` pairs; :mod:`companion.sim.screens` adds them to
the reference images (names start with the game id). Empty until the game's own
screens are written.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from companion.ui.view import View


def walk(workdir: Path) -> Iterator[tuple[str, View]]:
    """Every screen of this game worth a reference PNG; ``workdir`` is for journals."""
    yield from ()
