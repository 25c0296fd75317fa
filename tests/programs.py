"""Running a program from a test without letting the machine's load decide the verdict
(issue 30).

A test that runs a program states how long the program takes on an idle 2-core machine
(``idle``, wall seconds, measured with ``pytest --durations``). The time-out is then a
net for a program that hangs, never a judgement of its speed: ``SAFETY`` times ``idle``,
and at least ``FLOOR`` seconds, so the same program passes at load 30 on two cores. Where
the work is CPU-bound, ``cpu`` adds a CPU-time limit per process (``RLIMIT_CPU``, set on
the child at once and inherited by the processes it starts): that limit does not grow
with the machine's load, so it can be the tighter of the two.

The program runs in a process group of its own; on a time-out, and after it has exited,
the whole group is killed, so a benchmark's worker processes cannot outlive their test
(a timed-out ``ai_strength.py --quick`` once left a worker burning a core for 40 minutes).
"""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import subprocess
from collections.abc import Sequence
from typing import Any

import pytest

SAFETY = 20
"""The time-out over the idle time: load 4 on two cores costs 2-3x, load 30 about 15x."""

FLOOR = 60.0
"""Seconds: no program's net is tighter, whatever its idle time (starting Python under
load alone can take seconds)."""


def limit(idle: float) -> float:
    """The wall-clock net for a program that takes ``idle`` seconds on an idle machine."""
    return max(FLOOR, SAFETY * idle)


def run(args: Sequence[str], *, idle: float, cpu: float | None = None, check: bool = False,
        input: str | bytes | None = None, **popen: Any) -> subprocess.CompletedProcess[Any]:
    """Run ``args`` to its end, as :func:`subprocess.run` with its keyword arguments
    (``capture_output``, ``text``, ``env``, ``cwd``, ``stdin`` ...).

    :param idle: seconds the program takes on an idle machine; the wall-clock net is
        :func:`limit` of it.
    :param cpu: CPU seconds each process of the program may use (``RLIMIT_CPU``); past
        it the kernel ends the process with ``SIGXCPU``.
    :raises subprocess.CalledProcessError: with ``check`` and a non-zero exit.
    Fails the test (``pytest.fail``) naming the limit when the net or the CPU limit ends
    the program."""
    if popen.pop("capture_output", False):
        popen["stdout"] = popen["stderr"] = subprocess.PIPE
    if input is not None:
        popen["stdin"] = subprocess.PIPE
    wall = limit(idle)
    proc = subprocess.Popen(list(args), start_new_session=True, **popen)
    try:
        if cpu is not None:
            resource.prlimit(proc.pid, resource.RLIMIT_CPU, (int(cpu), int(cpu) + 1))
        try:
            out, err = proc.communicate(input, timeout=wall)
        except subprocess.TimeoutExpired:
            kill_group(proc.pid)
            out, err = proc.communicate()
            pytest.fail(f"{args[0]} still ran after {wall:.0f} s ({SAFETY}x its {idle} s on an "
                        f"idle machine): hung; it and its process group were killed\n"
                        f"{_tail(err)}")
    finally:
        kill_group(proc.pid)
    if proc.returncode == -signal.SIGXCPU:
        pytest.fail(f"{args[0]} used more than {cpu} CPU seconds (RLIMIT_CPU)\n{_tail(err)}")
    done = subprocess.CompletedProcess(list(args), proc.returncode, out, err)
    if check:
        done.check_returncode()
    return done


def kill_group(pgid: int) -> None:
    """SIGKILL every process left in the group ``pgid`` (none left is fine)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def _tail(err: str | bytes | None) -> str:
    if err is None:
        return ""
    text = err.decode(errors="replace") if isinstance(err, bytes) else err
    return text[-2000:]
