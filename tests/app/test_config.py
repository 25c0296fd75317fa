"""One schema for the config file and the flags; defaults from the pin map."""

from __future__ import annotations

import argparse
import re
import tomllib
from pathlib import Path

import pytest

from companion.app import config as cfg

PINMAP = Path(__file__).resolve().parents[2] / "hardware" / "pinmap.toml"
BUILTIN_BOARD = Path(cfg.__file__).resolve().parents[1] / "rules" / "data" / "labyrinth.toml"


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


def test_a_file_with_several_mistakes_names_every_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 35: a bad config file reported only its first mistake, so a file with three
    took three starts to mend. Now every one is named, one per line, in the file's order,
    the good values of the file still checked; the command line prints them all."""
    conf = tmp_path / "companion.toml"
    conf.write_text('[display]\nheigth = 64\nrotate = 9\ncontrast = 128\n'
                    '[games.senet-tait]\nsticks = 7\nspeed = "fast"\n')
    with pytest.raises(cfg.ConfigErrors) as info:
        parse(["--config", str(conf)])
    lines = str(info.value).splitlines()
    assert [line.split(": ")[1] for line in lines] == [
        "games.senet-tait.sticks", "games.senet-tait.speed", "display.heigth", "display.rotate"]
    assert all(line.startswith(f"{conf}: ") for line in lines)
    assert "unknown key" in lines[2] and "must be at most 3" in lines[3]
    from companion.cli import main

    assert main(["run", "--config", str(conf), "--display.width", "7"]) == 2
    err = capsys.readouterr().err
    assert "display.heigth" in err and "display.rotate" in err and "games.senet-tait.speed" in err


def test_several_bad_flags_are_all_named() -> None:
    with pytest.raises(cfg.ConfigErrors) as info:
        parse(["--display.rotate", "5", "--display.height", "48"])
    assert [e.key for e in info.value.errors] == ["display.height", "display.rotate"]


def test_a_bad_flag_names_the_command_line() -> None:
    with pytest.raises(cfg.ConfigError, match=r"command line: display.rotate: must be at most 3"):
        parse(["--display.rotate", "5"])


def test_the_effective_configuration_lists_every_key() -> None:
    lines = cfg.describe(cfg.defaults())
    assert len(lines) == len(cfg.SCHEMA)
    assert "display.i2c_address = 0x3c" in lines


def test_printed_configuration_reads_back_to_the_same_values(tmp_path: Path) -> None:
    (tmp_path / "my board.toml").write_bytes(BUILTIN_BOARD.read_bytes())
    values = cfg.defaults()
    values.update({"buttons.throw": None, "display.driver": "sh1106", "journal.dir": 'C:\\a "b"',
                   "games": {"senet-tait": {"house-of-beauty": "from", "sticks": 5},
                             "labyrinth": {"board": str(tmp_path / "my board.toml")}}})
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


# --- bad files and bad numbers (issue 11) --------------------------------------

FLOAT_KEYS = [s.name for s in cfg.SCHEMA if s.kind == "float"]


@pytest.mark.parametrize("command", ["run", "doctor"])
def test_a_config_file_that_is_not_utf8_is_one_line_and_exit_2(
    tmp_path: Path, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Was: a UnicodeDecodeError traceback from `companion run` and `companion doctor`."""
    from companion.cli import main

    conf = tmp_path / "bad.toml"
    conf.write_bytes(b"[buttons]\n# caf\xe9\nup = 5\n")  # Latin-1, as an old editor saves it
    argv = [command, "--config", str(conf)] + (["--print-config"] if command == "run" else [])
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err == f"companion: error: {conf}: (file): not a UTF-8 text file\n"


@pytest.mark.parametrize("key", FLOAT_KEYS)
@pytest.mark.parametrize("text", ["nan", "inf", "-inf", "+nan"])
def test_a_non_finite_number_is_refused_in_the_file(tmp_path: Path, key: str, text: str) -> None:
    """Was: `hold = nan` passed every range check (a tap on BACK then undid a move)."""
    section, _, name = key.rpartition(".")
    conf = tmp_path / "companion.toml"
    conf.write_text(f"[{section}]\n{name} = {text}\n")
    with pytest.raises(cfg.ConfigError) as info:
        parse(["--config", str(conf)])
    assert str(info.value) == f"{conf}: {key}: expected a finite number, got {text.lstrip('+')}"


@pytest.mark.parametrize("key", FLOAT_KEYS)
@pytest.mark.parametrize("text", ["nan", "NaN", "inf", "-Infinity", "1e999"])
def test_a_non_finite_number_is_refused_on_the_command_line(key: str, text: str) -> None:
    with pytest.raises(cfg.ConfigError) as info:
        parse([f"--{key}={text}"])
    assert str(info.value) == f"command line: {key}: expected a finite number, got {text!r}"


@pytest.mark.parametrize(
    ("flag", "text"),
    [("buttons.up", "\u00b2"), ("buttons.up", "\u0663"), ("display.contrast", "\u0663"),
     ("buttons.hold", "\u0661.\u0665")],
)
def test_digits_that_are_not_ascii_are_refused_on_the_command_line(flag: str, text: str) -> None:
    """Was: `--buttons.up ²` raised a ValueError traceback (str.isdigit is true for it)."""
    with pytest.raises(cfg.ConfigError, match=rf"command line: {flag}: (expected|BCM)"):
        parse([f"--{flag}", text])


@pytest.mark.parametrize(
    ("data", "key", "reason"),
    [
        (b"[display]\ncontrast = " + b"9" * 5000 + b"\n", "(syntax)", "a number with too many digits"),
        (b"x = " + b"[" * 5000 + b"]" * 5000 + b"\n", "(syntax)", "nested too deeply"),
        (b"x = " + b"{a=" * 2000 + b"1" + b"}" * 2000 + b"\n", "(syntax)", "nested too deeply"),
        (b"# " + b"x" * (2 << 20) + b"\n", "(file)", "larger than 1 MiB"),
        (b"\x00\x01\x02", "(syntax)", "line 1"),
    ],
    ids=["long-number", "deep-array", "deep-table", "huge", "binary"],
)
def test_a_file_no_config_can_be_is_one_clear_error(
    tmp_path: Path, data: bytes, key: str, reason: str
) -> None:
    """Was: a ValueError (over 4300 digits) or RecursionError traceback."""
    conf = tmp_path / "companion.toml"
    conf.write_bytes(data)
    with pytest.raises(cfg.ConfigError) as info:
        parse(["--config", str(conf)])
    assert str(info.value).startswith(f"{conf}: {key}: ") and reason in str(info.value)
    assert "\n" not in str(info.value)
    assert conf.read_bytes() == data  # nothing on disk changed


def test_a_utf8_file_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    """Windows Notepad saves UTF-8 with a BOM; TOML does not allow one, people do."""
    conf = tmp_path / "companion.toml"
    conf.write_bytes(b"\xef\xbb\xbf[buttons]\nhold = 1.5\n")
    assert parse(["--config", str(conf)])["buttons.hold"] == 1.5


def test_a_directory_or_a_device_as_config_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(cfg.ConfigError, match=r": \(file\): not a regular file \(a directory\)"):
        parse(["--config", str(tmp_path)])
    with pytest.raises(cfg.ConfigError,
                       match=r"/dev/zero: \(file\): not a regular file \(a character device\)"):
        parse(["--config", "/dev/zero"])


def test_each_game_starts_its_setup_from_the_config_file_and_the_option_flags(
    tmp_path: Path,
) -> None:
    (tmp_path / "boards").mkdir()
    (tmp_path / "boards" / "home.toml").write_bytes(BUILTIN_BOARD.read_bytes())
    conf = tmp_path / "config.toml"
    conf.write_text('[games.senet-tait]\nhouse-of-beauty = "from"\n'
                    '[games.labyrinth]\nboard = "boards/home.toml"\n')
    values = parse(["--config", str(conf), "--option", "senet-tait:sticks=5",
                    "--option", "six-after-lost-throw=no"])
    assert values["games"] == {
        "senet-tait": {"house-of-beauty": "from", "sticks": 5, "six-after-lost-throw": False},
        "labyrinth": {"board": str(tmp_path / "boards" / "home.toml")},  # from the file's folder
    }


@pytest.mark.parametrize(("text", "flags", "message"), [
    ('[games.chess]\nboard = "x"\n', [], "games.chess: no such game"),
    ('[games.senet-tait]\nsticks = 7\n', [], "games.senet-tait.sticks: option sticks=7"),
    ('[games.senet-tait]\nboard = "x"\n', [], "games.senet-tait.board: not an option"),
    ("", ["--option", "colour=red"], "--option: no game has an option 'colour'"),
    ("", ["--option", "sticks"], "--option: takes [GAME:]KEY=VALUE"),
])
def test_a_bad_game_option_names_the_file_the_key_and_why(
    tmp_path: Path, text: str, flags: list[str], message: str
) -> None:
    conf = tmp_path / "config.toml"
    conf.write_text(text)
    with pytest.raises(cfg.ConfigError, match=re.escape(message)):
        parse(["--config", str(conf), *flags])


def test_run_help_gives_each_default_as_print_config_writes_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Was: `run --help` said the I2C address default was "60" and a pin "none: not
    wired", where --print-config writes 0x3C and `throw = false` (issue 23, item 8)."""
    from companion.cli import main

    with pytest.raises(SystemExit):
        main(["run", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert main(["run", "--print-config", "--buttons.throw", "false"]) == 0
    written = capsys.readouterr().out
    assert "throw = false" in written.splitlines()
    assert "# BCM pin of the THROW button (false: not wired)" in written.splitlines()
    defaults, section = {}, ""
    for line in cfg.to_toml(cfg.defaults(), comments=False).splitlines():
        if line.startswith("["):
            section = line.strip("[]") + "."
        elif " = " in line:
            key, text = line.split(" = ", 1)
            defaults[section + key] = text
    for s in cfg.SCHEMA:
        entry = shown.split(f"--{s.name} VALUE ")[-1].split(" --")[0]
        assert entry.startswith(" ".join(s.help.split()))
        assert entry.endswith(f"; default {defaults[s.name]}"), entry
    assert shown.split("--display.i2c_address VALUE ")[-1].split(" --")[0].endswith("default 0x3C")
    assert "none: not wired" not in shown


@pytest.mark.parametrize("where", ["flag", "file"])
def test_an_own_board_is_checked_at_start_as_companion_rules_checks_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    """Was: `run --option labyrinth:board=FILE` (or the config file's board) with a
    missing or broken file started, `--print-config` exited 0, and only Begin refused
    it (issue 23, item 5). Now the start stops with the file, the line and the reason,
    the same words `companion rules` uses."""
    from companion.cli import main

    broken = tmp_path / "mine.toml"
    broken.write_text("fields = 63\n[jumps]\n6 = 99\n", encoding="utf-8")
    assert main(["rules", "new", "labyrinth", "--option", f"board={broken}"]) == 2
    rules_says = capsys.readouterr().err.removeprefix("companion: error: ").strip()
    assert rules_says.startswith(f"{broken}:3: ")
    missing = tmp_path / "gone.toml"
    for path, reason in ((broken, rules_says), (missing, f"{missing}: cannot read the file")):
        if where == "flag":
            argv = ["run", "--print-config", "--option", f"labyrinth:board={path}"]
            source = "command line"
        else:
            conf = tmp_path / "config.toml"
            conf.write_text(f'[games.labyrinth]\nboard = "{path.name}"\n', encoding="utf-8")
            argv = ["run", "--print-config", "--config", str(conf)]
            source = str(conf)
        assert main(argv) == 2
        out, err = capsys.readouterr()
        assert out == ""
        assert err.startswith(f"companion: error: {source}: games.labyrinth.board: {reason}")
        assert err.count("\n") == 1
    good = tmp_path / "good.toml"
    good.write_bytes(BUILTIN_BOARD.read_bytes())
    assert main(["run", "--print-config", "--option", f"labyrinth:board={good}"]) == 0
    assert f'board = "{good}"' in capsys.readouterr().out
