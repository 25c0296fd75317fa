"""One schema for the config file and the flags; defaults from the pin map."""

from __future__ import annotations

import argparse
import tomllib
from pathlib import Path

import pytest

from companion.app import config as cfg

PINMAP = Path(__file__).resolve().parents[2] / "hardware" / "pinmap.toml"


def parse(argv: list[str]) -> dict[str, object]:
    parser = argparse.ArgumentParser()
    cfg.add_arguments(parser)
    return cfg.from_args(parser.parse_args(argv))


def test_default_pins_are_the_pin_map_of_the_wiring_diagram() -> None:
    """hardware/pinmap.toml (what the person wiring reads) and the defaults agree."""
    wiring = tomllib.loads(PINMAP.read_text())
    values = cfg.defaults()
    for name in ("up", "down", "ok", "back", "throw"):
        assert values[f"buttons.{name}"] == wiring["buttons"][name]["bcm"]
    assert values["shaker.pin"] == wiring["shaker"]["bcm"]
    assert values["display.i2c_address"] == wiring["oled"]["address"]
    assert values["display.i2c_port"] == wiring["oled"]["bus"]


def test_file_then_flags(tmp_path: Path) -> None:
    conf = tmp_path / "companion.toml"
    conf.write_text('[display]\ndriver = "sh1106"\nheight = 32\n[buttons]\nthrow = false\nhold = 1.5\n')
    values = parse(["--config", str(conf), "--display.height", "64", "--buttons.ok", "12"])
    assert values["display.driver"] == "sh1106"
    assert values["display.height"] == 64  # the flag wins
    assert values["buttons.throw"] is None
    assert values["buttons.hold"] == 1.5
    assert values["buttons.ok"] == 12


@pytest.mark.parametrize(
    ("text", "key", "reason"),
    [
        ('[display]\ndriver = "ssd1305"\n', "display.driver", "must be one of ssd1306, sh1106"),
        ("[buttons]\nup = 40\n", "buttons.up", "BCM pin must be 0-27"),
        ('[buttons]\nhold = "long"\n', "buttons.hold", "expected a number"),
        ("[shaker]\nquiet = 9.0\n", "shaker.quiet", "at most 5.0"),
        ("[display]\nbrightness = 3\n", "display.brightness", "unknown key"),
        ("[buttons]\nup = 6\n", "buttons.down", "BCM pin 6 is already used by buttons.up"),
        ("[buttons]\nok = 2\n", "buttons.ok", "already used by I2C SDA"),
        ("[display\n", "(syntax)", "line 1"),
    ],
)
def test_a_bad_file_names_the_file_the_key_and_the_reason(
    tmp_path: Path, text: str, key: str, reason: str
) -> None:
    conf = tmp_path / "companion.toml"
    conf.write_text(text)
    with pytest.raises(cfg.ConfigError) as info:
        parse(["--config", str(conf)])
    message = str(info.value)
    assert str(conf) in message and key in message and reason in message


def test_a_bad_flag_names_the_command_line() -> None:
    with pytest.raises(cfg.ConfigError, match=r"command line: display.rotate: must be at most 3"):
        parse(["--display.rotate", "5"])


def test_the_effective_configuration_lists_every_key() -> None:
    lines = cfg.describe(cfg.defaults())
    assert len(lines) == len(cfg.SCHEMA)
    assert "display.i2c_address = 0x3c" in lines


def test_printed_configuration_reads_back_to_the_same_values(tmp_path: Path) -> None:
    values = cfg.defaults()
    values.update({"buttons.throw": None, "display.driver": "sh1106", "journal.dir": 'C:\\a "b"'})
    conf = tmp_path / "printed.toml"
    conf.write_text(cfg.to_toml(values))
    assert parse(["--config", str(conf)]) == values


@pytest.mark.parametrize(
    ("short", "source"),
    [("serial", "serial-shaker"), ("gpio", "gpio-shaker"), ("manual", "manual")],
)
def test_throw_source_has_a_short_flag(short: str, source: str) -> None:
    """`companion run --throw-source serial` is `--throw.source serial-shaker`."""
    assert parse(["--throw-source", short])["throw.source"] == source


def test_a_bad_short_throw_source_is_named() -> None:
    with pytest.raises(cfg.ConfigError, match=r"command line: throw.source"):
        parse(["--throw-source", "wifi"])
