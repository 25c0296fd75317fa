"""``companion run`` (the terminal simulator) in a pseudo-terminal, for the tests that
need a whole process: the state-folder lock and the special files beside it."""

from __future__ import annotations

import os
import pty
import select
import signal
import sys
import time
from pathlib import Path


def read_until(fd: int, marker: bytes, timeout: float) -> bytes:
    """What the process wrote on the pseudo-terminal ``fd`` until ``marker`` appeared,
    the output ended, or ``timeout`` seconds passed."""
    seen = b""
    deadline = time.monotonic() + timeout
    while marker not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    return seen


def spawn_run(state: Path, *extra: str) -> tuple[int, int]:
    """``companion run --hardware mock`` on the state folder ``state`` in a 200x60
    pseudo-terminal, with ``extra`` arguments: (pid, the terminal's fd)."""
    pid, fd = pty.fork()
    if pid == 0:
        import fcntl
        import struct
        import termios

        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 60, 200, 0, 0))
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
        os.execve(sys.executable, [sys.executable, "-m", "companion", "run", "--hardware", "mock",
                                   "--journal.dir", str(state), *extra], env)
    return pid, fd


def exit_status(pid: int, timeout: float) -> int | None:
    """The wait status of ``pid``, or ``None`` when it is still running after ``timeout``
    seconds (it is killed then)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return None
