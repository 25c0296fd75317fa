"""tests/programs.py, the way tests run programs (issue 30): a hung program and every
process it started are killed when the net runs out, and a CPU-bound loop is ended by
its CPU time, not by the clock."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import programs
import pytest

GRANDCHILD = """
import subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1000)"])
open(sys.argv[1], "w").write(str(child.pid))
time.sleep(1000)
"""
"""A program that starts a child, writes its pid to ``argv[1]`` and sleeps."""

LEAVES_CHILD = GRANDCHILD.rsplit("time.sleep(1000)", 1)[0]
"""The same program, ending at once: its child left behind in its process group."""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().split(") ")[1].startswith("Z"))


def test_a_hung_program_and_its_children_are_killed(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(programs, "FLOOR", 1.0)
    monkeypatch.setattr(programs, "SAFETY", 1)
    pid_file = tmp_path / "grandchild"
    with pytest.raises(pytest.fail.Exception, match="hung; it and its process group were killed"):
        programs.run([sys.executable, "-c", GRANDCHILD, str(pid_file)], idle=1)
    grandchild = int(pid_file.read_text())
    deadline = time.monotonic() + 30  # the kill is sent; the kernel ends it soon after
    while alive(grandchild) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(grandchild), "the program's own child outlived the test"


def test_a_program_that_ends_leaves_no_process_behind(tmp_path: Path) -> None:
    pid_file = tmp_path / "grandchild"
    done = programs.run([sys.executable, "-c", LEAVES_CHILD, str(pid_file)], idle=1)
    assert done.returncode == 0
    grandchild = int(pid_file.read_text())
    deadline = time.monotonic() + 30
    while alive(grandchild) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(grandchild)


def test_a_busy_loop_is_ended_by_its_cpu_time() -> None:
    with pytest.raises(pytest.fail.Exception, match=r"more than 1 CPU seconds \(RLIMIT_CPU\)"):
        programs.run([sys.executable, "-c", "while True: pass"], idle=1, cpu=1)


def test_the_net_is_twenty_times_the_idle_time_and_never_under_a_minute() -> None:
    assert programs.limit(0.5) == 60
    assert programs.limit(30) == 600


def test_output_and_check_behave_as_subprocess_run() -> None:
    done = programs.run([sys.executable, "-c", "import sys; print(input()); sys.exit(3)"],
                        input="hello", capture_output=True, text=True, idle=1)
    assert (done.returncode, done.stdout) == (3, "hello\n")
    with pytest.raises(Exception, match="returned non-zero exit status 3"):
        programs.run([sys.executable, "-c", "raise SystemExit(3)"], idle=1, check=True)
