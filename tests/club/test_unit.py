"""systemd/board-companion-club.service: off by default, runs `companion club` as
docs/club.md says, and its `systemd-analyze security` score is the one docs/club.md
gives."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from companion.cli import build_parser

REPO = Path(__file__).resolve().parents[2]
UNIT = REPO / "systemd" / "board-companion-club.service"
SYSTEMD_ANALYZE = shutil.which("systemd-analyze")


def test_the_unit_runs_companion_club_with_its_arguments_from_the_env_file() -> None:
    text = UNIT.read_text()
    [exec_start] = re.findall(r"^ExecStart=(.*)$", text, re.M)
    assert exec_start.split()[1:4] == ["-m", "companion", "club"]
    assert "EnvironmentFile=-/etc/board-companion/club.env" in text
    assert "LoadCredential=club-password:" in text
    assert "StateDirectory=board-companion-club" in text
    # the arguments docs/club.md puts in club.env are ones `companion club` takes
    doc = (REPO / "docs" / "club.md").read_text()
    [example] = re.findall(r"CLUB_ARGS=([^']*)'", doc)
    args = build_parser().parse_args(["club", *example.split()])
    assert (args.broker, args.user, args.bind) == ("club.local", "club", "0.0.0.0")


@pytest.mark.skipif(
    SYSTEMD_ANALYZE is None or not Path("/usr/lib/systemd/system/sysinit.target").exists(),
    reason="systemd-analyze or the system's units are not installed",
)
def test_the_units_security_score_is_the_one_docs_club_gives(tmp_path: Path) -> None:
    assert SYSTEMD_ANALYZE is not None
    shutil.copytree("/usr/lib/systemd/system", tmp_path / "usr/lib/systemd/system", symlinks=True)
    (tmp_path / "etc/systemd/system").mkdir(parents=True)
    shutil.copy(UNIT, tmp_path / "etc/systemd/system")
    python = tmp_path / "opt/board-companion/venv/bin/python"
    python.parent.mkdir(parents=True)
    python.write_text("#!/bin/sh\n")
    python.chmod(0o755)
    result = subprocess.run(
        [SYSTEMD_ANALYZE, "security", "--offline=yes", f"--root={tmp_path}", "--no-pager",
         UNIT.name], capture_output=True, text=True, timeout=60, check=False)
    match = re.search(rf"Overall exposure level for {UNIT.name}: (\d+\.\d) ([A-Z]+)",
                      result.stdout)
    assert match, result.stdout + result.stderr
    doc = re.search(r"`systemd-analyze\s+security`[^\n]*\n?[^\n]*?\*\*(\d+\.\d) ([A-Z]+)\*\*",
                    (REPO / "docs" / "club.md").read_text())
    assert doc, "docs/club.md does not give the club unit's systemd-analyze security score"
    version = int(subprocess.run([SYSTEMD_ANALYZE, "--version"], capture_output=True,
                                 text=True, check=True).stdout.split()[1])
    if version == 252:  # the version docs/club.md measured with (Bookworm's)
        assert (float(match[1]), match[2]) == (float(doc[1]), doc[2])
    else:
        assert float(match[1]) < 2.0
