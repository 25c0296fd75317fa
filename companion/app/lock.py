"""One writer per state folder: an advisory lock held by ``companion run``.

Two copies of the service on one journal folder damage the game in play (the second
offers to resume it, ends it as abandoned while the first keeps appending). The copy
that writes holds :data:`LOCK_NAME` in the folder with ``fcntl.flock`` for as long as it
runs; the kernel releases the lock when the process ends in any way (a crash, SIGKILL,
a power cut: the lock lives in the kernel, not in the file), so it never stays stuck.
The holder writes its process id into the file; a second writer reads it, says which
process holds the folder and writes nothing. Readers (``companion journal``, ``rules``,
``web``) never take the lock.
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat
from pathlib import Path
from typing import Final

from companion.errors import CompanionError

LOCK_NAME: Final = "companion.lock"
"""The lock file in the state folder (it holds the holder's process id and a newline)."""


class StateFolderInUseError(CompanionError, RuntimeError):
    """Another process holds the state folder's lock; :attr:`pid` is its process id
    (``None`` when it has not written it yet or the file holds something else)."""

    def __init__(self, directory: Path, pid: int | None) -> None:
        who = f"process {pid}" if pid is not None else "another process"
        super().__init__(
            f"{directory} is in use by another companion ({who}); this one writes nothing "
            "there: stop that one first (systemctl stop board-companion), or give this one "
            "another --journal.dir"
        )
        self.directory = directory
        self.pid = pid


class StateLock:
    """The advisory lock on one state folder (:data:`LOCK_NAME` in it).

    :meth:`acquire` takes it or raises; :meth:`release` (also on ``with`` exit) lets it
    go; the kernel lets it go anyway when the process ends.
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.path = directory / LOCK_NAME
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        """Whether this object holds the lock."""
        return self._fd is not None

    def acquire(self) -> None:
        """Take the lock without waiting (the folder is made when missing) and write
        this process's id into the lock file.

        :raises StateFolderInUseError: another process holds it (its id read from the
            file); nothing was written.
        :raises OSError: the folder or the lock file cannot be made or opened (a lock
            file that is not a regular file is refused with ``EINVAL``).
        """
        if self._fd is not None:
            return
        self.directory.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW
                     | os.O_NONBLOCK, 0o644)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise OSError(errno.EINVAL, "the lock file is not a regular file", str(self.path))
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise StateFolderInUseError(self.directory, _pid_in(fd)) from None
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd

    def release(self) -> None:
        """Let the lock go (safe twice). The file stays: removing it could let two
        processes lock two different files of the same name."""
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)  # closing the last descriptor releases the flock

    def __enter__(self) -> StateLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def holder(directory: Path, proc_locks: Path = Path("/proc/locks")) -> int | None:
    """The id of the process that holds ``directory``'s lock, or ``None`` when no process
    does (or there is no lock file). Read-only: the kernel's table of locks
    (``proc_locks``, Linux) is searched for the lock file's inode, so the lock is never
    taken, not even for a moment (a service starting at that instant is not refused).
    Where that table cannot be read, the lock is tried without waiting and let go at once,
    and the id is the one the holder wrote into the file."""
    path = directory / LOCK_NAME
    try:
        info = os.stat(path, follow_symlinks=False)
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode):
        return None
    device = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
    try:
        table = proc_locks.read_text(encoding="ascii", errors="replace")
    except OSError:
        return _tried(path)
    for line in table.splitlines():
        fields = line.split()  # "1: FLOCK  ADVISORY  WRITE 4242 08:01:1234 0 EOF"
        if len(fields) >= 6 and fields[1] == "FLOCK" and fields[5].lower() == device:
            return int(fields[4]) if fields[4].isdigit() else None
    return None


def _tried(path: Path) -> int | None:
    """The holder's id written in ``path`` if its lock cannot be taken now, else ``None``."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return _pid_in(fd)
        return None
    finally:
        os.close(fd)


def _pid_in(fd: int) -> int | None:
    """The process id written in the lock file, or ``None``."""
    try:
        text = os.pread(fd, 32, 0).decode("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() else None


__all__ = ["LOCK_NAME", "StateFolderInUseError", "StateLock", "holder"]
