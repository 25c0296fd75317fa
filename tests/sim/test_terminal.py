"""The terminal simulator: its keys, typed fast or slowly, act in the order typed,
through the mock pins and the real debounce (no call into the controller); its help line
and when it draws with half blocks or Braille, as the README says."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from PIL import Image

from companion.app.events import Quit
from companion.app.service import Parts, build, mock_factory
from companion.devices.clock import ManualScheduler
from companion.sim.demo import demo_config, seeded_draw
from companion.sim.terminal import KEYS_HELP, KeyReader

DOWN, UP, ENTER = b"\x1b[B", b"\x1b[A", b"\r"


@contextmanager
def simulator(journal_dir: Path) -> Iterator[tuple[Parts, KeyReader, list[tuple[str, bytes]]]]:
    """The service on mock pins and a virtual clock, its key reader, and the frames
    drawn (screen name, pixels)."""
    frames: list[tuple[str, bytes]] = []
    holder: dict[str, Parts] = {}

    def frame(image: Image.Image) -> None:
        screen = holder["parts"].service.controller.screen.value if "parts" in holder else "start"
        frames.append((screen, image.tobytes()))

    parts = build(demo_config(journal_dir), pin_factory=mock_factory(),
                  scheduler=ManualScheduler(), draw=seeded_draw(3), on_frame=frame)
    holder["parts"] = parts
    loop = threading.Thread(target=parts.service.run, name="companion-loop")
    loop.start()
    with open(os.devnull, "rb") as stdin:
        reader = KeyReader(parts, stdin)
        try:
            assert parts.service.wait_idle(10)
            yield parts, reader, frames
        finally:
            parts.service.post(Quit("test over"))
            loop.join(timeout=10)
            parts.service.close()


def settle(parts: Parts, seconds: float = 3.0) -> None:
    """Let the virtual clock run (the presses happen) and the service handle them."""
    sched = parts.scheduler
    assert isinstance(sched, ManualScheduler)
    for _ in range(int(seconds / 0.05)):
        sched.advance(0.05)
        assert parts.service.wait_idle(10)


KEYS = {
    # on the menu, Down Down Enter: the third game (casting-stick Senet)
    "down-down-enter": [DOWN, DOWN, ENTER],
    # Senet begun, a shake (Black throws 4), enter 4, a hold of BACK (u), Enter, Up,
    # Down, BACK
    "shake-and-undo": [ENTER, ENTER, b"s", ENTER, b"u", ENTER, UP, DOWN, b"b"],
}
"""Keys typed once the menu is up (after the splash: Enter)."""


@pytest.mark.parametrize("name", sorted(KEYS))
def test_keys_typed_fast_give_the_same_screens_as_typed_slowly(tmp_path: Path, name: str) -> None:
    keys = KEYS[name]
    with simulator(tmp_path / "slow") as (parts, reader, slow):
        for key in [ENTER, *keys]:
            reader.feed(key)
            settle(parts)
        slow_screen = parts.service.controller.view()
    with simulator(tmp_path / "fast") as (parts, reader, fast):
        reader.feed(ENTER)
        settle(parts)
        reader.feed(b"".join(keys))  # one read from the terminal, as a fast typist gives
        settle(parts, 3.0 * len(keys))
        fast_screen = parts.service.controller.view()
    assert [s for s, _ in fast] == [s for s, _ in slow]
    assert fast == slow and fast_screen == slow_screen


def test_down_down_enter_opens_the_third_game(tmp_path: Path) -> None:
    with simulator(tmp_path) as (parts, reader, _):
        reader.feed(ENTER)
        settle(parts)
        reader.feed(b"".join(KEYS["down-down-enter"]))
        settle(parts)
        assert parts.service.controller.view().title == "Casting-stick Senet"


def test_an_arrow_split_across_two_reads_is_one_key(tmp_path: Path) -> None:
    with simulator(tmp_path) as (parts, reader, _):
        reader.feed(ENTER)
        settle(parts)
        for chunk in (b"\x1b", b"[B\x1b[", b"B", b"\x1bOB", b"\r"):
            reader.feed(chunk)
        settle(parts)
        assert parts.service.controller.view().title == "The Cretan Labyrinth"


def test_the_key_help_fits_80_columns() -> None:
    assert len(KEYS_HELP) <= 80


def test_the_shake_and_the_hold_go_through_the_queue_too(tmp_path: Path) -> None:
    with simulator(tmp_path) as (parts, reader, frames):
        reader.feed(ENTER)
        settle(parts)
        reader.feed(b"".join(KEYS["shake-and-undo"]))
        settle(parts, 30)
        screens = [s for s, _ in frames]
    # the throw is drawn (the shake's own screen, then the moves) before the Enter
    # after it chooses a move; u (a hold of BACK) takes that move back
    assert screens == ["splash", "menu", "setup", "throw", "throw", "moves", "throw",
                       "message", "moves", "pause"]


def test_the_readme_says_when_braille_and_when_half_blocks() -> None:
    import io

    from companion.sim.terminal import frame_printer
    from companion.ui.render import render
    from companion.ui.view import View

    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    said = " ".join(readme.split())
    assert "at least 130 columns and 36 rows" in said and "66 columns by 18 rows" in said
    image = render(View("menu", "Choose a game", items=("Senet",)))

    def drawn(cols: int, rows: int) -> list[str]:
        out = io.StringIO()
        frame_printer(out, lambda: (cols, rows))(image)
        return out.getvalue().split("\n")

    assert "▀" in "".join(drawn(130, 36)) or "▄" in "".join(drawn(130, 36))
    for small in ((129, 36), (130, 35)):
        assert not any(ch in "".join(drawn(*small)) for ch in "▀▄█")
    braille = drawn(80, 24)
    frame = [line for line in braille if line.startswith(("|", "+")) or "\x1b" in line]
    assert len(frame) == 18 and max(len(line.replace("\x1b[H\x1b[J", "")) for line in frame) == 66
    assert len(braille[18]) <= 80  # the keys' line
