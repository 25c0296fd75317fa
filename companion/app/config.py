"""The service's configuration: ONE schema for the TOML file and the command line.

Every setting has a dotted name, ``section.key``: in the file it is ``key`` under
``[section]``; on the command line it is ``--section.key VALUE``. A flag overrides the
file, the file overrides the default. Default pins are read from the pin map
``companion/devices/pinmap.toml`` (the wiring diagram is made from the same file).

Validation happens once, at start: an unknown key, a wrong type, a value out of range
or two devices on one pin raise :class:`ConfigError` naming the file (or "command
line"), the key and the reason. :func:`describe` gives the effective configuration,
one ``key = value`` line each, for the log.
"""

from __future__ import annotations

import argparse
import copy
import functools
import math
import os
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from companion.devices.events import SourceName
from companion.errors import CompanionError
from companion.i18n import languages
from companion.rules.datafile import parse_toml, read_text
from companion.rules.errors import BoardDataError

PIN_RANGE = range(0, 28)
"""BCM GPIO numbers on the 40-pin header."""


class ConfigError(CompanionError, ValueError):
    """A configuration value that cannot be used; the message names where, the key and why."""

    def __init__(self, source: str, key: str, reason: str) -> None:
        self.source = source
        self.key = key
        self.reason = reason
        self.errors: tuple[ConfigError, ...] = (self,)
        """Every mistake this error names: itself (several in :class:`ConfigErrors`)."""
        super().__init__(f"{source}: {key}: {reason}")


class ConfigErrors(ConfigError):
    """Several values that cannot be used, every one named, one per line (issue 35: a
    file with three mistakes took three starts to mend). ``source``, ``key`` and
    ``reason`` are the first's; :attr:`errors` holds them all, in the file's order."""

    def __init__(self, errors: Sequence[ConfigError]) -> None:
        first = errors[0]
        super().__init__(first.source, first.key, first.reason)
        self.errors = tuple(errors)
        self.args = ("\n".join(str(e) for e in self.errors),)


def raise_all(errors: Sequence[ConfigError]) -> None:
    """Raise ``errors``: nothing when empty, the one error, or :class:`ConfigErrors`.

    :raises ConfigError: as said."""
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise ConfigErrors(errors)


@dataclass(frozen=True, slots=True)
class Setting:
    """One configuration key: its type, default, allowed values and help (with units)."""

    name: str
    kind: str
    """``"int"``, ``"float"``, ``"str"``, ``"bool"`` or ``"pin"`` (a BCM pin or none)."""
    default: Any
    help: str
    choices: tuple[Any, ...] = ()
    low: float | None = None
    high: float | None = None

    def parse(self, raw: object, source: str) -> Any:
        """The typed value of ``raw`` (a TOML value or a command-line string).

        :raises ConfigError: naming ``source``, the key and the reason.
        """
        value = _convert(self, raw, source)
        if value is None:
            return None
        if self.choices and value not in self.choices:
            allowed = ", ".join(map(str, self.choices))
            raise ConfigError(source, self.name, f"must be one of {allowed}, got {raw!r}")
        if isinstance(value, int | float) and not isinstance(value, bool):
            if self.low is not None and value < self.low:
                raise ConfigError(source, self.name, f"must be at least {self.low}, got {value}")
            if self.high is not None and value > self.high:
                raise ConfigError(source, self.name, f"must be at most {self.high}, got {value}")
        return value


def _convert(setting: Setting, raw: object, source: str) -> Any:
    kind = setting.kind
    given = raw
    text = raw.strip() if isinstance(raw, str) else None

    def bad(expected: str) -> ConfigError:
        return ConfigError(source, setting.name, f"expected {expected}, got {given!r}")

    if kind == "pin":
        if raw is False or (text is not None and text.lower() in ("none", "off", "false", "")):
            return None
        if text is not None and text.isascii() and text.isdigit():
            raw = int(text)
        if not isinstance(raw, int) or isinstance(raw, bool):
            raise bad("a BCM pin number 0-27, or none / false when not wired")
        if raw not in PIN_RANGE:
            raise ConfigError(source, setting.name, f"BCM pin must be 0-27, got {raw}")
        return raw
    if kind == "bool":
        if isinstance(raw, bool):
            return raw
        if text is not None and text.lower() in ("1", "yes", "true", "on"):
            return True
        if text is not None and text.lower() in ("0", "no", "false", "off"):
            return False
        raise bad("true or false")
    if kind == "int":
        if text is not None:
            try:
                if not text.isascii():  # int() also reads other scripts' digits
                    raise ValueError(text)
                raw = int(text, 0)
            except ValueError:
                raise bad("a whole number") from None
        if not isinstance(raw, int) or isinstance(raw, bool):
            raise bad("a whole number")
        return raw
    if kind == "float":
        if text is not None:
            try:
                if not text.isascii():
                    raise ValueError(text)
                raw = float(text)
            except ValueError:
                raise bad("a number") from None
        if not isinstance(raw, int | float) or isinstance(raw, bool):
            raise bad("a number")
        try:
            value = float(raw)
        except OverflowError:  # an integer too big for a float
            value = math.inf
        if not math.isfinite(value):  # nan would pass every range check below
            raise bad("a finite number")
        return value
    if not isinstance(raw, str):
        raise bad("a string")
    return raw


def pinmap() -> dict[str, Any]:
    """The packaged pin map (``companion/devices/pinmap.toml``) as a dictionary (a copy
    of its one reading: the start reads it for the defaults and again for the checks)."""
    return copy.deepcopy(_pinmap_read())


@functools.cache
def _pinmap_read() -> dict[str, Any]:
    text = resources.files("companion.devices").joinpath("pinmap.toml").read_text("utf-8")
    return tomllib.loads(text)


def default_state_dir() -> str:
    """Where journals go by default: systemd's ``$STATE_DIRECTORY``, else
    ``$XDG_STATE_HOME/board-companion`` (``~/.local/state/board-companion``)."""
    state = os.environ.get("STATE_DIRECTORY")
    if state:
        return state.split(":")[0]
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return str(Path(base) / "board-companion")


def _schema() -> tuple[Setting, ...]:
    pins = pinmap()
    buttons = pins["buttons"]
    return (
        Setting("hardware", "str", "auto",
                "auto: the real backends on a Raspberry Pi, the mock ones elsewhere; "
                "pi or mock to force", ("auto", "pi", "mock")),
        Setting("display.driver", "str", "ssd1306", "OLED controller chip",
                ("ssd1306", "sh1106")),
        Setting("display.backend", "str", "auto",
                "auto: i2c on a Pi, else the real driver on luma's noop interface; "
                "or i2c, noop, dummy", ("auto", "i2c", "noop", "dummy")),
        Setting("display.width", "int", 128, "panel width in pixels", (128,)),
        Setting("display.height", "int", 64, "panel height in pixels", (64, 32)),
        Setting("display.rotate", "int", 0, "rotation in quarter turns (0-3)", low=0, high=3),
        Setting("display.contrast", "int", 255, "contrast 0-255", low=0, high=255),
        Setting("display.windowed", "bool", True,
                "send the panel only the pages and columns that changed (false: the whole "
                "1024-byte frame, 23 ms at 400 kHz I2C, every time)"),
        Setting("display.sleep_after", "float", 600.0,
                "seconds without a press or a throw after which the panel is switched off "
                "(the next press only wakes it); 0: never", low=0.0, high=86400.0),
        Setting("display.i2c_port", "int", int(pins["oled"]["bus"]), "I2C bus number",
                low=0, high=20),
        Setting("display.i2c_address", "int", int(pins["oled"]["address"]),
                "7-bit I2C address (0x3C or 0x3D)", low=0x03, high=0x77),
        Setting("display.language", "str", "en",
                "language of the screens and of speech (a catalogue in companion/locale; "
                "also in Settings)", languages()),
        *(
            Setting(f"buttons.{name}", "pin", int(buttons[name]["bcm"]),
                    f"BCM pin of the {name.upper()} button (false: not wired)")
            for name in ("up", "down", "ok", "back", "throw")
        ),
        Setting("buttons.debounce", "float", 0.02,
                "seconds: edges closer than this are contact bounce", low=0.0005, high=0.2),
        Setting("buttons.hold", "float", 1.0, "seconds a press lasts to count as a hold "
                "(hold BACK: undo)", low=0.2, high=10.0),
        Setting("buttons.repeat_delay", "float", 0.5,
                "seconds UP/DOWN is held before it repeats", low=0.05, high=5.0),
        Setting("buttons.repeat_interval", "float", 0.15,
                "seconds between repeats of a held UP/DOWN", low=0.02, high=5.0),
        Setting("shaker.pin", "pin", int(pins["shaker"]["bcm"]),
                "BCM pin of the vibration / tilt switch (false: not wired)"),
        Setting("shaker.quiet", "float", 0.4,
                "seconds without an edge that end a shake (the throw is drawn then)",
                low=0.01, high=5.0),
        Setting("shaker.min_edges", "int", 8,
                "edges a shake needs; fewer (a bumped table) do not throw", low=2, high=1000),
        Setting("throw.source", "str", SourceName.GPIO_SHAKER.value,
                "where throws come from: gpio-shaker, serial-shaker, button (THROW or OK) "
                "or manual (players enter their own throw)",
                tuple(name.value for name in SourceName)),
        Setting("buzzer.pin", "pin", int(pins["buzzer"]["bcm"]),
                "BCM pin of the buzzer (false: not wired)"),
        Setting("buzzer.kind", "str", "active",
                "active: a buzzer with its own oscillator (beeps of one pitch, told apart by "
                "their rhythm); passive: a piezo driven by PWM (tones of different pitch)",
                ("active", "passive")),
        Setting("buzzer.sound", "bool", True,
                "beep when a throw arrives, at each new turn and on an error (also in Settings)"),
        Setting("led.pin", "pin", int(pins["led"]["bcm"]), "BCM pin of the LED (false: not wired)"),
        Setting("led.enabled", "bool", True,
                "LED lit while a throw is awaited, blinking while the shaker is disconnected "
                "(also in Settings)"),
        Setting("speech.enabled", "bool", False,
                "say whose turn it is, the throws, the moves and the winner aloud (espeak-ng "
                "through ALSA; also in Settings)"),
        Setting("speech.voice", "str", "",
                "espeak-ng voice, e.g. en-gb or de (empty: the voice of display.language; "
                "also in Settings)"),
        Setting("speech.rate", "int", 160, "speaking rate in words per minute (also in Settings)",
                low=80, high=450),
        Setting("speech.volume", "int", 100,
                "loudness as espeak-ng's amplitude, 0-200 (also in Settings)", low=0, high=200),
        Setting("speech.device", "str", "",
                "ALSA output device for `aplay -D` (empty: the system default)"),
        Setting("camera.source", "str", "off",
                "the camera over the board (docs/camera.md): off; usb (a "
                "webcam through V4L2, camera.device); picamera (a Pi camera module through "
                "picamera2, apt install python3-picamera2); or fake (a seeded fake camera, to "
                "try it in the simulator and for tests); needs the camera extra (also in "
                "Settings)",
                ("off", "fake", "usb", "picamera")),
        Setting("camera.device", "str", "0",
                "usb: the webcam, a V4L2 index (0) or path (/dev/video0; another path is "
                "read as a video file); picamera: the camera module's number (0)"),
        Setting("camera.save_frames", "bool", False,
                "true: keep the frame each look of a real camera read or refused, as a JPEG "
                "in camera-frames/ under the state directory (the newest 200); false: no "
                "picture is stored"),
        Setting("camera.confirm", "bool", True,
                "true: the move the camera reads is highlighted on the moves screen and OK "
                "plays it; false: it is played at once (also in Settings)"),
        Setting("ai.throw", "str", "draw",
                "the computer's throws: draw (the companion draws them) or shake (the table "
                "shakes or throws for it, as for a person)", ("draw", "shake")),
        Setting("ai.hints", "bool", True,
                "offer Hint in the pause menu (the best move and a chance to win); false for "
                "tournaments"),
        Setting("ai.tutor", "bool", False,
                "tutor: before a move that loses more than ai.tutor_share of the mover's "
                "chance to win, ask to confirm it (also in Settings)"),
        Setting("ai.tutor_share", "float", 0.10,
                "share of the chance to win (0.01-0.5) a move must lose for the tutor to ask",
                low=0.01, high=0.5),
        Setting("serial.port", "str", "", "serial device of the Pico shaker (/dev/board-shaker with "
                "the udev rule); empty: find the Pico by its USB IDs 2E8A:0005"),
        Setting("serial.baud", "int", 115200, "baud rate of the Pico shaker", low=1200,
                high=4_000_000),
        Setting("journal.dir", "str", "", "directory of the game journals (empty: "
                "$STATE_DIRECTORY or ~/.local/state/board-companion)"),
        Setting("web.bind", "str", "127.0.0.1", "address `companion web` listens on "
                "(0.0.0.0: every IPv4 interface, the LAN too; :: also IPv6)"),
        Setting("web.port", "int", 8080, "TCP port of `companion web`", low=1, high=65535),
        Setting("club.broker", "str", "",
                "host name or address of the club's MQTT broker (empty: no club)"),
        Setting("club.port", "int", 1883,
                "TCP port of the club's broker (1883; 8883 is usual with TLS)", low=1, high=65535),
        Setting("club.table", "str", "",
                "this box's table in the club, 1-32 of a-z, 0-9 and '-' (also its broker "
                "user name unless club.username is set)"),
        Setting("club.topic", "str", "board-companion", "topic prefix the club's messages go under"),
        Setting("club.username", "str", "",
                "user name at the broker (empty: the table name)"),
        Setting("club.password_file", "str", "",
                "file holding the broker password on its first line (never the password itself "
                "in the config; empty: no password)"),
        Setting("club.tls_ca", "str", "",
                "CA certificate file (PEM) the broker's certificate must be signed by; empty: "
                "no TLS"),
        Setting("club.roster", "str", "",
                "the club's roster file the seat screen reads (roster.json, written by "
                "`companion publish`); empty: where the publisher keeps it by default "
                "(docs/club.md)"),
        Setting("club.publish", "bool", False,
                "publish this table's game and results to the club with `companion publish` "
                "(systemd/install.sh with its club option enables it)"),
        Setting("log.level", "str", "info", "log level",
                ("debug", "info", "warning", "error")),
    )


SCHEMA: tuple[Setting, ...] = _schema()
"""Every setting, in the order of the help and the log."""
BY_NAME: dict[str, Setting] = {s.name: s for s in SCHEMA}

PIN_KEYS = tuple(s.name for s in SCHEMA if s.kind == "pin")


def defaults() -> dict[str, Any]:
    """Every setting at its default (pins from the pin map), and ``games``: each game's
    options for the setup screen (``[games.<game id>]`` tables; none by default)."""
    return {**{s.name: s.default for s in SCHEMA}, "games": {}}


def _flatten(data: Mapping[str, Any]) -> Iterable[tuple[str, Any]]:
    """``(section.key, value)`` of a file's top-level keys and its tables' keys; a
    table deeper than that is yielded whole (an unknown key), never walked."""
    for key, value in data.items():
        if isinstance(value, dict) and key not in BY_NAME:
            for inner, item in value.items():
                yield f"{key}.{inner}", item
        else:
            yield key, value


def load_file(path: Path) -> dict[str, Any]:
    """The settings in the TOML file ``path`` (only those it sets), typed and checked.

    The file is UTF-8 text of at most 1 MiB (a leading byte order mark is allowed).

    :raises ConfigError: a file that cannot be read, is over 1 MiB or is not UTF-8
        (key ``(file)``); TOML syntax, with its line (key ``(syntax)``); an unknown key;
        a bad value (``nan`` and ``inf`` included).
    """
    source = str(path)
    try:
        text = read_text(path)
    except BoardDataError as exc:
        raise ConfigError(source, "(file)", exc.reason) from None
    try:
        data = parse_toml(text, source)
    except BoardDataError as exc:
        where = f"line {exc.line}: " if exc.line is not None else ""
        raise ConfigError(source, "(syntax)", where + exc.reason.removeprefix("not valid TOML: ")) from None
    values: dict[str, Any] = {}
    errors: list[ConfigError] = []
    if "games" in data:
        try:
            values["games"] = game_options(data.pop("games"), source, base=path.parent)
        except ConfigError as exc:
            errors.extend(exc.errors)
    for name, raw in _flatten(data):
        try:
            setting = BY_NAME.get(name)
            if setting is None:
                raise ConfigError(source, name, "unknown key; see `companion run --help`")
            values[name] = setting.parse(raw, source)
        except ConfigError as exc:
            errors.extend(exc.errors)
    raise_all(errors)
    return values


def game_options(
    raw: object, source: str, *, base: Path | None = None
) -> dict[str, dict[str, Any]]:
    """The ``[games.<game id>]`` tables of a config file (or the ``--option`` flags):
    each game's options as the setup screen starts them, typed and checked by the
    game's own option declarations. A relative board or deck path is taken from
    ``base`` (the config file's folder). A game given its own board or decks is built
    with them here, so a missing or broken file stops the start (as ``companion rules``
    refuses it), not the players' Begin.

    :raises ConfigError: an unknown game, an option the game does not have, a bad value,
        a board or deck file that cannot be used (its reason names the file and line).
    """
    from companion.rules import RulesError, game_class, game_ids, get_game

    if not isinstance(raw, dict):
        raise ConfigError(source, "games", "expected tables [games.<game id>]")
    out: dict[str, dict[str, Any]] = {}
    errors: list[ConfigError] = []
    for game_id, table in raw.items():
        key = f"games.{game_id}"
        if game_id not in game_ids():
            errors.append(ConfigError(source, key, f"no such game; games: {', '.join(game_ids())}"))
            continue
        if not isinstance(table, dict):
            errors.append(ConfigError(source, key, "expected a table of the game's options"))
            continue
        declared = {o.name: o for o in game_class(game_id).options}
        wrong = len(errors)
        for name, value in table.items():
            option = declared.get(name)
            if option is None:
                errors.append(ConfigError(source, f"{key}.{name}", "not an option of this game; "
                                          f"options: {', '.join(declared)}"))
                continue
            try:
                typed = option.parse(value)
            except RulesError as exc:
                errors.append(ConfigError(source, f"{key}.{name}", str(exc)))
                continue
            if option.names_file and typed and base is not None:
                typed = str(base / typed)
            out.setdefault(game_id, {})[name] = typed
        files = [name for name in ("board", "decks") if out.get(game_id, {}).get(name)]
        if files and len(errors) == wrong:  # the game is built only from good options
            try:
                get_game(game_id, **out[game_id])
            except RulesError as exc:  # BoardDataError: "FILE:LINE: reason"
                errors.append(ConfigError(
                    source, f"{key}.{files[0] if len(files) == 1 else '/'.join(files)}", str(exc)))
    raise_all(errors)
    return out


def _option_flags(pairs: Iterable[str]) -> dict[str, dict[str, Any]]:
    """``--option [GAME:]KEY=VALUE`` flags as ``[games.<id>]`` tables: with a game, for
    that game; without, for every game that has the option.

    :raises ConfigError: a flag not of that form, or an option no game has.
    """
    from companion.rules import game_class, game_ids

    tables: dict[str, dict[str, str]] = {}
    for pair in pairs:
        target, sep, value = pair.partition("=")
        game_id, colon, name = target.rpartition(":")
        name = name.strip()
        if not sep or not name:
            raise ConfigError("command line", "--option", f"takes [GAME:]KEY=VALUE, got {pair!r}")
        games = [game_id.strip()] if colon else [
            g for g in game_ids() if any(o.name == name for o in game_class(g).options)
        ]
        if not games:
            raise ConfigError("command line", "--option", f"no game has an option {name!r}")
        for g in games:
            tables.setdefault(g, {})[name] = value.strip()
    return game_options(tables, "command line", base=Path.cwd())


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--config`` and one ``--section.key`` flag per setting to ``parser``."""
    parser.add_argument(
        "--config", metavar="FILE", default=os.environ.get("COMPANION_CONFIG"),
        help="TOML configuration file (default: $COMPANION_CONFIG, else "
        "/etc/board-companion/config.toml if it exists); flags override it",
    )
    group = parser.add_argument_group("settings (also keys of the config file)")
    for s in SCHEMA:
        extra = f" (choices: {', '.join(map(str, s.choices))})" if s.choices else ""
        group.add_argument(
            f"--{s.name}", dest=f"cfg:{s.name}", metavar="VALUE", default=None,
            help=f"{s.help}{extra}; default {toml_text(s, s.default)}",
        )
    parser.add_argument(
        "--throw-source", dest="throw_source", metavar="SOURCE", default=None,
        help="short for --throw.source: gpio, serial, button or manual",
    )
    parser.add_argument(
        "--option", dest="cfg_options", action="append", default=[],
        metavar="[GAME:]KEY=VALUE",
        help="a game option as the setup screen starts it (as in `companion rules`; e.g. "
        "labyrinth:board=/home/pi/boards/my-board.toml, or house-of-beauty=from for every "
        "game that has it); may be repeated; over the config file's [games.<id>] tables",
    )


THROW_SOURCE_SHORT = {"gpio": SourceName.GPIO_SHAKER.value, "serial": SourceName.SERIAL_SHAKER.value}
"""``--throw-source serial`` is ``--throw.source serial-shaker``."""


DEFAULT_FILE = Path("/etc/board-companion/config.toml")


SavedLoader = Callable[[Path], tuple[Mapping[str, Any], str | None]]
"""Reads the settings saved in a state directory: the values (typed and checked) and
what was wrong with the file in words (``None``: nothing)."""


@dataclass
class Resolved:
    """The effective configuration, where each value came from (``"default"``, the
    config file's path, ``"saved setting"``, ``"command line"``, or ``"caller"``), and
    the problems met on the way that did not stop the start (in words)."""

    values: dict[str, Any]
    origins: dict[str, str]
    problems: list[str]


def resolve(
    args: argparse.Namespace,
    *,
    overrides: Mapping[str, Any] | None = None,
    saved: SavedLoader | None = None,
) -> Resolved:
    """The effective configuration, in layers: defaults, then the config file, then
    the settings saved on the box in the state directory, read by ``saved``
    (:func:`companion.app.settings.load_saved`; ``None``: not read), then the flags,
    then ``overrides`` (typed values from a caller such as the demo).

    :raises ConfigError: for any bad value of the file or the flags, naming where it
        came from (a bad saved settings file is set aside and reported in
        :attr:`Resolved.problems` instead: the players did not write it by hand).
    """
    values = defaults()
    origins = dict.fromkeys((s.name for s in SCHEMA), "default")
    problems: list[str] = []

    def layer(new: Mapping[str, Any], origin: str) -> None:
        values.update(new)
        origins.update(dict.fromkeys(new, origin))

    path: Path | None = Path(args.config) if getattr(args, "config", None) else None
    if path is None and DEFAULT_FILE.exists():
        path = DEFAULT_FILE
    if path is not None:
        layer(load_file(path), str(path))
    games: dict[str, dict[str, Any]] = values.pop("games", {})
    where = origins.pop("games", "")
    origins.update({f"games.{g}.{k}": where for g, t in games.items() for k in t})
    for game_id, table in _option_flags(getattr(args, "cfg_options", None) or []).items():
        games.setdefault(game_id, {}).update(table)
        origins.update({f"games.{game_id}.{k}": "command line" for k in table})
    short = getattr(args, "throw_source", None)
    if short is not None and getattr(args, "cfg:throw.source", None) is None:
        setattr(args, "cfg:throw.source", THROW_SOURCE_SHORT.get(short, short))
    flags = {}
    errors: list[ConfigError] = []
    for s in SCHEMA:
        raw = getattr(args, f"cfg:{s.name}", None)
        if raw is not None:
            try:
                flags[s.name] = s.parse(raw, "command line")
            except ConfigError as exc:
                errors.append(exc)
    raise_all(errors)
    if saved is not None:
        state_dir = flags.get("journal.dir") or values["journal.dir"] or default_state_dir()
        kept, problem = saved(Path(state_dir))
        layer(kept, "saved setting")
        if problem:
            problems.append(problem)
    layer(flags, "command line")
    if overrides:
        layer(overrides, "caller")
    values["games"] = games
    check(values, str(path) if path else "command line")
    return Resolved(values, origins, problems)


def from_args(
    args: argparse.Namespace, *, overrides: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The effective configuration: defaults, then the file, then the flags, then
    ``overrides`` (see :func:`resolve`, which also says where each value came from).

    :raises ConfigError: for any bad value, naming where it came from.
    """
    return resolve(args, overrides=overrides).values


def check(values: Mapping[str, Any], source: str) -> None:
    """Checks across keys: no two devices on one BCM pin, no pin of the I2C bus.

    :raises ConfigError: naming the second key that uses a pin.
    """
    table = values.get("club.table")
    if table and not re.fullmatch(r"[a-z0-9-]{1,32}", str(table)):
        raise ConfigError(source, "club.table",
                          f"1 to 32 of a-z, 0-9 and '-' expected, got {table!r}")
    prefix = values.get("club.topic")
    if prefix is not None and (not prefix or any(c in prefix for c in "+#\0")
                               or prefix.startswith("/") or prefix.endswith("/")):
        raise ConfigError(source, "club.topic",
                          f"a topic prefix without '+', '#' or a leading or trailing '/', "
                          f"got {prefix!r}")
    bus = pinmap()["oled"]
    i2c_pins = {int(bus["sda"]["bcm"]): "I2C SDA", int(bus["scl"]["bcm"]): "I2C SCL"}
    seen: dict[int, str] = dict(i2c_pins)
    for key in PIN_KEYS:
        pin = values.get(key)
        if pin is None:
            continue
        if pin in seen:
            raise ConfigError(source, key, f"BCM pin {pin} is already used by {seen[pin]}")
        seen[pin] = key


def to_toml(
    values: Mapping[str, Any], *, keys: Iterable[str] | None = None, comments: bool = True
) -> str:
    """``values`` as a TOML config file (with each key's help as a comment), which
    :func:`load_file` reads back to the same values. A pin that is not wired is
    written as ``false``. ``keys``: only these (default: every setting)."""
    out: list[str] = ["# board-companion configuration (companion run --print-config)"]
    section = ""
    wanted = set(keys) if keys is not None else None
    for s in SCHEMA:
        if wanted is not None and s.name not in wanted:
            continue
        head, _, key = s.name.rpartition(".")
        if head != section:
            section = head
            out += ["", f"[{head}]"]
        text = toml_text(s, values.get(s.name))
        if comments:
            out.append(f"# {s.help}")
        out.append(f"{key} = {text}")
    for game_id, table in sorted(values.get("games", {}).items()):
        out += ["", f"[games.{game_id}]"]
        for name, value in table.items():
            out.append(f"{name} = {_toml_value(value)}")
    return "\n".join(out) + "\n"


def toml_text(setting: Setting, value: object) -> str:
    """``value`` of ``setting`` as the config file writes it (and the help shows it):
    ``false`` for a pin not wired, ``true`` / ``false``, a quoted string, the I2C
    address in hexadecimal (``0x3C``), else the number."""
    if value is None:
        return "false"
    if setting.name == "display.i2c_address" and isinstance(value, int):
        return f"0x{value:02X}"
    return _toml_value(value)


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return repr(value)


def describe(values: Mapping[str, Any], origins: Mapping[str, str] | None = None) -> list[str]:
    """The effective configuration, one ``key = value`` line per setting, for the log;
    with ``origins`` (:attr:`Resolved.origins`) each line says where the value came from:
    ``display.contrast = 128  (saved setting)``."""
    out = []
    for s in SCHEMA:
        value = values.get(s.name)
        shown = "none" if value is None else (
            hex(value) if s.name == "display.i2c_address" else repr(value)
        )
        where = f"  ({origins[s.name]})" if origins and s.name in origins else ""
        out.append(f"{s.name} = {shown}{where}")
    for game_id, table in sorted(values.get("games", {}).items()):
        for name, value in table.items():
            key = f"games.{game_id}.{name}"
            where = f"  ({origins[key]})" if origins and key in origins else ""
            out.append(f"{key} = {value!r}{where}")
    return out
