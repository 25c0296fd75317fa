"""systemd/board-companion-club.service: off by default, runs `companion club` as
docs/club.md says, and its `systemd-analyze security` score is the one docs/club.md
gives."""

from __future__ import annotations

import re
from pathlib import Path

from unit_security import assert_documented, exposure, needs_systemd_analyze

from companion.cli import build_parser

REPO = Path(__file__).resolve().parents[2]
UNIT = REPO / "systemd" / "board-companion-club.service"


def test_the_unit_runs_companion_club_with_its_arguments_from_the_env_file() -> None:
    text = UNIT.read_text()
    [exec_start] = re.findall(r"^ExecStart=(.*)$", text, re.M)
    assert exec_start.split()[1:4] == ["-m", "companion", "club"]
    assert "EnvironmentFile=-/etc/board-companion/club.env" in text
    assert "LoadCredential=club-password:" in text
    assert "StateDirectory=board-companion-club" in text
    # the arguments docs/club.md says install.sh --club-page puts in club.env are the
    # script's, and ones `companion club` takes
    doc = (REPO / "docs" / "club.md").read_text()
    [example] = re.findall(r"^ +CLUB_ARGS=(.*)$", doc, re.M)
    script = (REPO / "systemd" / "install.sh").read_text()
    assert f'readonly PAGE_ARGS="{example}"' in script
    args = build_parser().parse_args(["club", *example.split()])
    assert (args.broker, args.user, args.bind) == ("club.local", "club", "0.0.0.0")


@needs_systemd_analyze
def test_the_units_security_score_is_the_one_docs_club_gives(tmp_path: Path) -> None:
    assert_documented(exposure(UNIT, tmp_path), REPO / "docs" / "club.md")
