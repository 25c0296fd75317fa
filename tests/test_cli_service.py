"""The `companion run` / `companion demo` commands, and the rules command line still
working where gpiozero, luma and pyserial are missing."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import programs

WITHOUT_HARDWARE_LIBS = """
import sys
for name in ("gpiozero", "luma", "luma.core", "luma.oled", "serial", "PIL"):
    sys.modules[name] = None  # importing them now fails
from companion.cli import main
assert main(["games"]) == 0
assert main(["rules", "play", "senet-tait", "--seed", "2"]) == 0
"""


def test_the_rules_command_line_needs_no_hardware_library() -> None:
    done = programs.run([sys.executable, "-c", WITHOUT_HARDWARE_LIBS],
                        capture_output=True, text=True, idle=1)
    assert done.returncode == 0, done.stderr
    assert "winner:" in done.stdout


def test_run_without_a_terminal_or_a_pi_says_what_to_do() -> None:
    done = programs.run([sys.executable, "-m", "companion", "run", "--hardware", "mock"],
                        stdin=subprocess.DEVNULL, capture_output=True, text=True, idle=1)
    assert done.returncode == 2
    assert "companion demo" in done.stderr


def test_run_rejects_a_bad_setting_naming_it() -> None:
    done = programs.run([sys.executable, "-m", "companion", "run", "--display.height", "48"],
                        stdin=subprocess.DEVNULL, capture_output=True, text=True, idle=1)
    assert done.returncode == 2
    assert "command line: display.height: must be one of 64, 32" in done.stderr


def test_demo_writes_frames_and_prints_the_record(tmp_path: Path) -> None:
    done = programs.run([sys.executable, "-m", "companion", "demo", "--seed", "4",
                           "--frames", str(tmp_path)], capture_output=True, text=True, idle=4)
    assert done.returncode == 0, done.stderr
    assert "winner:" in done.stdout
    pngs = sorted(tmp_path.glob("*.png"))
    assert pngs[0].name == "00001-splash.png" and pngs[-1].name.endswith("-over.png")
    from PIL import Image

    with Image.open(pngs[-1]) as last:
        assert last.size == (128, 64) and last.mode == "1"
    assert f"{len(pngs)} frames written" in done.stdout


def _read_until(fd: int, needle: bytes, timeout: float = 20) -> bytes:
    buf = b""
    end = time.monotonic() + timeout
    while needle not in buf and time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                buf += os.read(fd, 65536)
            except OSError:
                break
    return buf


def _wait(pid: int, timeout: float) -> int:
    """The exit code of ``pid``; killed (and -9 returned) if it has not ended in ``timeout`` s."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.05)
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    return -9


def test_run_in_a_terminal_draws_the_oled_and_takes_keys(tmp_path: Path) -> None:
    pid, fd = pty.fork()
    if pid == 0:  # the child: the companion in a pseudo-terminal of 200x60
        import fcntl
        import struct
        import termios

        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 60, 200, 0, 0))
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
        os.execve(sys.executable, [sys.executable, "-m", "companion", "run", "--hardware", "mock",
                                   "--journal.dir", str(tmp_path), "--buttons.debounce", "0.005"],
                  env)
    try:
        shown = _read_until(fd, b"q=quit")
        assert "▀".encode() in shown and b"q=quit" in shown
        os.write(fd, b"\r\r\r")              # OK x3: splash, menu, setup: the game starts
        deadline = time.monotonic() + 10
        while not list(tmp_path.glob("*.journal")) and time.monotonic() < deadline:
            _read_until(fd, b"\x00", 0.1)
        assert list(tmp_path.glob("*.journal"))
        os.write(fd, b"q")
        _read_until(fd, b"\x00", 3)
    finally:
        status = _wait(pid, 10)
        os.close(fd)
    assert status == 0


def test_small_terminals_get_braille_large_ones_half_blocks() -> None:
    import io

    from companion.sim.terminal import frame_printer
    from companion.ui.render import render
    from companion.ui.view import View

    image = render(View("menu", "Choose a game", items=("Senet",)))
    for size, width in (((200, 50), 128), ((80, 24), 64)):
        out = io.StringIO()
        frame_printer(out, lambda size=size: size)(image)  # type: ignore[misc]
        shown = re.sub(r"\x1b\[\d*m", "", out.getvalue())  # reverse video on / off
        rows = [line for line in shown.splitlines() if line.startswith("|")]
        assert all(len(row) == width + 2 for row in rows)
        assert len(rows) == (32 if width == 128 else 16)
