"""The terminal simulator: its keys, typed fast or slowly, act in the order typed,
through the mock pins and the real debounce (no call into the controller); its help line
and when it draws with half blocks or Braille, as the README says."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import programs
import pytest
from PIL import Image, ImageChops

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
        return re.sub(r"\x1b\[\d*m", "", out.getvalue()).split("\n")  # no reverse video

    assert "▀" in "".join(drawn(130, 36)) or "▄" in "".join(drawn(130, 36))
    for small in ((129, 36), (130, 35)):
        assert not any(ch in "".join(drawn(*small)) for ch in "▀▄█")
    braille = drawn(80, 24)
    frame = [line for line in braille if line.startswith(("|", "+")) or "\x1b" in line]
    assert len(frame) == 18 and max(len(line.replace("\x1b[H\x1b[J", "")) for line in frame) == 66
    assert len(braille[18]) <= 80  # the keys' line


# --- Braille at 80x24: highlighted rows in reverse video; a small window; a resize ----


def _decode(lines: list[str], size: tuple[int, int]) -> tuple[Image.Image, list[list[bool]]]:
    """The panel a terminal shows for ``lines`` of :func:`to_braille` (a dot of a normal
    cell is lit, a dot of a reversed cell is dark), and which cells were reversed."""
    from companion.sim.terminal import NORMAL, REVERSE

    dots = ((0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (1, 0, 0x08), (1, 1, 0x10),
            (1, 2, 0x20), (0, 3, 0x40), (1, 3, 0x80))
    image = Image.new("1", size)
    reversed_cells: list[list[bool]] = []
    for row, line in enumerate(lines):
        reverse, col, flags = False, 0, []
        for token in re.findall(r"\x1b\[\d*m|.", line):
            if token in (REVERSE, NORMAL):
                reverse = token == REVERSE
                continue
            bits = ord(token) - 0x2800
            for dx, dy, bit in dots:
                x, y = 2 * col + dx, 4 * row + dy
                if x < size[0] and y < size[1]:
                    image.putpixel((x, y), int(bool(bits & bit) != reverse))
            flags.append(reverse)
            col += 1
        reversed_cells.append(flags)
    return image, reversed_cells


def _frames() -> list[Image.Image]:
    from companion.ui.render import render
    from companion.ui.view import View

    return [
        render(View("menu", "Choose a game", items=("Senet (Tait)", "Labyrinth", "Cretan"),
                    cursor=1)),
        render(View("menu", "Choose a game", items=("Senet (Tait)", "Labyrinth"), cursor=0),
               (128, 32)),
    ]


@pytest.mark.parametrize("frame", range(2))
def test_braille_draws_highlighted_rows_in_reverse_video_and_gives_back_the_panel(frame: int) -> None:
    """Was: at 80x24 the title, the selected row and the throw line were inverted
    Braille dots, which do not read (issue 23, item 6). Now a highlighted band is in
    the terminal's reverse video with its text as the dots; every pixel is kept."""
    from companion.sim.terminal import braille_cells, to_braille

    image = _frames()[frame].convert("1")
    shown, reversed_cells = _decode(to_braille(image), image.size)
    assert ImageChops.difference(shown, image).getbbox() is None  # the panel, pixel for pixel
    assert all(reversed_cells[0]) and all(reversed_cells[1])  # the title bar (rows 0-7)
    cells = braille_cells(image)
    flipped = [bits.bit_count() for row in cells for bits, reverse in row if reverse]
    assert sum(flipped) <= 0.4 * 8 * len(flipped)  # reversed cells' dots: their text
    ink = [bits.bit_count() for row in cells[:2] for bits, _ in row]
    assert sum(ink) < 0.3 * 8 * len(ink)  # the title reads as text, not as a lit bar


def test_a_terminal_too_small_for_the_panel_says_the_size_it_needs() -> None:
    """Was: a 60x20 terminal drew a garbled panel with no word about the size."""
    import io

    from companion.sim.terminal import frame_printer

    image = _frames()[0]
    out = io.StringIO()
    printer = frame_printer(out, lambda: (60, 20))
    printer(image)
    assert out.getvalue() == "\x1b[H\x1b[Jmake the window at least 66x19 (it is 60x20)"
    for size in ((66, 19), (80, 24)):
        out = io.StringIO()
        frame_printer(out, lambda size=size: size)(image)  # type: ignore[misc]
        lines = re.sub(r"\x1b\[\d*m", "", out.getvalue().removeprefix("\x1b[H\x1b[J")).split("\n")
        assert len(lines) <= size[1] and max(map(len, lines)) <= size[0]


TMUX = shutil.which("tmux")


@pytest.mark.skipif(TMUX is None, reason="no tmux to run `companion run` in (apt-get install tmux)")
def test_companion_run_in_tmux_reverse_video_small_window_and_resize(tmp_path: Path) -> None:
    """`companion run` in a real terminal (tmux, 80x24): the splash's title in reverse
    video; shrunk to 60x20, one line with the size to make it; back to 80x24, the panel
    again at once, with no key typed (SIGWINCH)."""
    assert TMUX is not None
    socket = f"companion-test-{os.getpid()}"
    # pytest-xdist's workers export COLUMNS=80 and LINES=24 (so may a user's shell): the
    # window's size must still come from the terminal
    env = {k: v for k, v in os.environ.items() if k not in ("TMUX", "COMPANION_CONFIG")}
    env.update(COLUMNS="80", LINES="24")
    env.update(XDG_STATE_HOME=str(tmp_path), TERM="xterm")
    command = f"{sys.executable} -m companion run --journal.dir {tmp_path / 'journal'}"

    def tmux(*args: str) -> str:
        done = programs.run([TMUX, "-L", socket, "-f", "/dev/null", *args], env=env,
                            capture_output=True, text=True, idle=1, check=True)
        return str(done.stdout)

    def screen(escapes: bool = False) -> str:
        return tmux("capture-pane", "-p", "-t", "t", *(["-e"] if escapes else []))

    def wait_for(test: Callable[[str], bool], escapes: bool = False) -> str:
        # a net, not a verdict: on an idle machine the screen changes within a second;
        # with the suite's other worker and a neighbour busy, 30 s once ran out
        deadline = time.monotonic() + programs.limit(6)
        while True:
            shown = screen(escapes)
            if test(shown) or time.monotonic() > deadline:
                return shown
            time.sleep(0.1)

    tmux("new-session", "-d", "-x", "80", "-y", "24", "-s", "t", command)
    try:
        shown = wait_for(lambda s: "Up/Down" in s, escapes=True)
        lines = shown.splitlines()
        assert lines[0].startswith("+-") and "q=quit" in lines[18], shown
        assert "\x1b[7m" in lines[1] and "\x1b[7m" in lines[2]  # the title: reverse video
        tmux("resize-window", "-t", "t", "-x", "60", "-y", "20")
        shown = wait_for(lambda s: "make the window" in s)
        assert shown.splitlines()[0] == "make the window at least 66x19 (it is 60x20)", shown
        tmux("resize-window", "-t", "t", "-x", "80", "-y", "24")
        shown = wait_for(lambda s: "Up/Down" in s)
        assert "make the window" not in shown and shown.splitlines()[0].startswith("+-"), shown
        tmux("send-keys", "-t", "t", "q")
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if subprocess.run([TMUX, "-L", socket, "has-session", "-t", "t"], env=env,
                              capture_output=True, check=False).returncode != 0:
                break
            time.sleep(0.1)
    finally:
        subprocess.run([TMUX, "-L", socket, "kill-server"], env=env, capture_output=True,
                       check=False)
