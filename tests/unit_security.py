"""The offline `systemd-analyze security` score of one of the project's units, checked
against the score a document gives: one check for the referee's, the web page's, the
publisher's and the club's unit (tests/systemd, tests/club)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import programs
import pytest

SYSTEMD_ANALYZE = shutil.which("systemd-analyze")

needs_systemd_analyze = pytest.mark.skipif(
    SYSTEMD_ANALYZE is None or not Path("/usr/lib/systemd/system/sysinit.target").exists(),
    reason="systemd-analyze or the system's units are not installed",
)
"""Skip a test where systemd-analyze or the system's own units (which it reads) are missing."""

DOCUMENTED = re.compile(
    r"`systemd-analyze\s+security`(?:[^\n]*?|[^\n]*\n[^\n]*?)\*\*(\d+\.\d) ([A-Z]+)\*\*")
"""How a document states a unit's score: "`systemd-analyze security` ... **1.1 OK**"."""


def systemd_version() -> int:
    assert SYSTEMD_ANALYZE is not None
    out = subprocess.run([SYSTEMD_ANALYZE, "--version"], capture_output=True, text=True,
                         check=True).stdout
    return int(out.split()[1])


def exposure(unit: Path, root: Path) -> tuple[float, str]:
    """The overall exposure of ``unit`` (a unit file) and its label (``"OK"``), analysed
    offline in a root under ``root`` that holds the system's units, the unit and a
    stand-in for the venv's Python it starts."""
    assert SYSTEMD_ANALYZE is not None
    shutil.copytree("/usr/lib/systemd/system", root / "usr/lib/systemd/system", symlinks=True)
    (root / "etc/systemd/system").mkdir(parents=True)
    shutil.copy(unit, root / "etc/systemd/system")
    python = root / "opt/board-companion/venv/bin/python"
    python.parent.mkdir(parents=True)
    python.write_text("#!/bin/sh\n")
    python.chmod(0o755)
    result = programs.run(
        [SYSTEMD_ANALYZE, "security", "--offline=yes", f"--root={root}", "--no-pager", unit.name],
        capture_output=True, text=True, idle=1, check=False,
    )
    match = re.search(rf"Overall exposure level for {re.escape(unit.name)}: (\d+\.\d) ([A-Z]+)",
                      result.stdout)
    assert match, result.stdout + result.stderr
    return float(match[1]), match[2]


def assert_documented(score: tuple[float, str], doc: Path) -> None:
    """``score`` is the one ``doc`` gives, with systemd 252 (Bookworm's, which the docs
    were measured with); a newer systemd weighs more options, so there only the "safe"
    band (below 2.0) is required."""
    found = DOCUMENTED.search(doc.read_text())
    assert found, f"{doc} does not give the unit's systemd-analyze security score"
    if systemd_version() == 252:
        assert score == (float(found[1]), found[2]), doc
    else:
        assert score[0] < 2.0, f"{score} with systemd {systemd_version()}"
