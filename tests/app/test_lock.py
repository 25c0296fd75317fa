"""One writer per state folder (issue 22 part 3), with real processes.

With the service running, a second ``companion run`` on the same journal folder offered
to resume the game in play and "New game" ended it as abandoned while the first kept
appending. Now the writer holds an advisory lock; a second one names the holder and
writes nothing; readers are unaffected; a killed holder leaves no stale lock.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import programs
import pytest
from ptyrun import exit_status, read_until, spawn_run

from companion.app.lock import LOCK_NAME, StateFolderInUseError, StateLock

HOLDER = """
import sys, time
from pathlib import Path
from companion.app.lock import StateLock
lock = StateLock(Path(sys.argv[1]))
lock.acquire()
print("held", flush=True)
time.sleep(120)
"""


def _end(pid: int, sig: int | None = signal.SIGKILL, timeout: float = 10) -> int | None:
    """Wait status of ``pid`` after ``sig`` (``None``: none sent), or ``None`` when it is
    still running after ``timeout`` seconds (it is killed then)."""
    if sig is not None:
        os.kill(pid, sig)
    return exit_status(pid, timeout)


@contextmanager
def _held(folder: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process holding ``folder``'s lock (it has said "held"); killed after."""
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(folder)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        yield holder
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()
        if holder.stdout is not None:
            holder.stdout.close()


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def test_a_second_companion_names_the_holder_and_writes_nothing(tmp_path: Path) -> None:
    first, fd = spawn_run(tmp_path, "--buttons.debounce", "0.005")
    try:
        assert b"q=quit" in read_until(fd, b"q=quit", 30)
        os.write(fd, b"\r\r\r")  # OK x3: splash, menu, setup: the game starts
        deadline = time.monotonic() + 15
        while not list(tmp_path.glob("*.journal")) and time.monotonic() < deadline:
            read_until(fd, b"\x00", 0.1)
        assert list(tmp_path.glob("*.journal"))
        read_until(fd, b"\x00", 0.5)
        before = _snapshot(tmp_path)

        second, fd2 = spawn_run(tmp_path, "--buttons.debounce", "0.005")
        try:
            said = read_until(fd2, b"in use", 30)
            status = _end(second, None, 15)  # it ends by itself
        finally:
            os.close(fd2)
        assert f"(process {first})".encode() in said and b"writes nothing" in said
        assert status is not None and os.waitstatus_to_exitcode(status) == 1

        # The systemd way (real hardware asked for): the same refusal, before any pin.
        done = programs.run([sys.executable, "-m", "companion", "run", "--hardware", "pi",
                               "--journal.dir", str(tmp_path)],
                            stdin=subprocess.DEVNULL, capture_output=True, text=True, idle=1)
        assert done.returncode == 1 and f"(process {first})" in done.stderr
        assert "cannot open the hardware" not in done.stderr

        # Reading is not writing: journal list, show and export work beside the writer.
        for action, expected in (("list", "unfinished"), ("show", "Senet"),
                                 ("export", '"format": "board-companion/record"')):
            read = programs.run(
                [sys.executable, "-m", "companion", "journal", action, "--dir", str(tmp_path),
                 *(["1"] if action != "list" else [])],
                capture_output=True, text=True, idle=1)
            assert read.returncode == 0 and expected in read.stdout, (action, read.stderr)
        assert _snapshot(tmp_path) == before
    finally:
        _end(first, signal.SIGKILL)
        os.close(fd)


def test_a_second_companion_leaves_a_bad_settings_file_of_the_holder_alone(tmp_path: Path) -> None:
    """Issue 35: a second copy read the saved settings before it tried the lock, and set
    a bad settings.toml aside (renamed it) in the folder the first copy holds. Now it
    is refused first and changes nothing there, the systemd way and in a terminal."""
    (tmp_path / "settings.toml").write_bytes(b"[display]\ncontrast = 999\n")
    with _held(tmp_path) as holder:
        before = _snapshot(tmp_path)
        done = programs.run([sys.executable, "-m", "companion", "run", "--hardware", "pi",
                             "--journal.dir", str(tmp_path)],
                            stdin=subprocess.DEVNULL, capture_output=True, text=True, idle=1)
        assert done.returncode == 1 and f"(process {holder.pid})" in done.stderr
        assert _snapshot(tmp_path) == before

        second, fd = spawn_run(tmp_path)
        try:
            said = read_until(fd, b"in use", 30)
            status = _end(second, None, 15)  # it ends by itself
        finally:
            os.close(fd)
        assert f"(process {holder.pid})".encode() in said
        assert status is not None and os.waitstatus_to_exitcode(status) == 1
        assert _snapshot(tmp_path) == before
        assert sorted(p.name for p in tmp_path.iterdir()) == [LOCK_NAME, "settings.toml"]


def test_a_killed_holder_leaves_the_folder_free(tmp_path: Path) -> None:
    with _held(tmp_path) as holder:
        with pytest.raises(StateFolderInUseError) as info:
            StateLock(tmp_path).acquire()
        assert info.value.pid == holder.pid and f"process {holder.pid}" in str(info.value)
        holder.send_signal(signal.SIGKILL)  # as a power cut or a crash: no clean-up runs
        holder.wait(10)
    lock = StateLock(tmp_path)
    lock.acquire()
    try:
        assert (tmp_path / LOCK_NAME).read_text() == f"{os.getpid()}\n"
    finally:
        lock.release()
    lock.release()  # twice is safe


def test_a_lock_file_that_is_no_regular_file_is_refused(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / LOCK_NAME)
    with pytest.raises(OSError, match="not a regular file"):
        StateLock(tmp_path).acquire()
