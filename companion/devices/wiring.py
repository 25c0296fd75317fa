"""The wiring diagram, drawn from the pin map (``companion/devices/pinmap.toml``).

``python -m companion.devices.wiring hardware`` writes ``hardware/wiring.svg``,
``hardware/wiring.png`` and the wiring table between the markers in
``hardware/README.md``; ``--check`` only reports whether they are out of date (exit
status 1). A test runs the check, so the committed pictures are always the pin map's.

It also checks the pin map against the Raspberry Pi's 40-pin header: every ``bcm``
must sit at its ``header`` pin, ``vcc`` must be a 3.3 V pin (a module on 5 V would
put 5 V on a GPIO), ``gnd`` a ground pin, and no GPIO pin may carry two signals.
The diagram lives in the package, next to the pin map it reads, so ``make test``
lints and type-checks it like the rest, and an installed companion can redraw it.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from PIL import Image, ImageDraw, ImageFont

from companion.errors import CompanionError

__all__ = [
    "HEADER",
    "Connection",
    "PinMapError",
    "connections",
    "load_pinmap",
    "main",
    "render_png",
    "render_svg",
    "wiring_table",
]

# --- The Raspberry Pi 40-pin header (every model since the B+: Zero 2 W, 3, 4, 5) ---

_POWER_3V3 = (1, 17)
_POWER_5V = (2, 4)
_GROUND = (6, 9, 14, 20, 25, 30, 34, 39)
_BCM_AT = {
    3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23, 18: 24,
    19: 10, 21: 9, 22: 25, 23: 11, 24: 8, 26: 7, 27: 0, 28: 1, 29: 5, 31: 6, 32: 12,
    33: 13, 35: 19, 36: 16, 37: 26, 38: 20, 40: 21,
}  # fmt: skip
_SPECIAL = {2: "SDA", 3: "SCL", 14: "TXD", 15: "RXD", 0: "ID_SD", 1: "ID_SC"}


def _pin_name(header: int) -> str:
    if header in _POWER_3V3:
        return "3V3"
    if header in _POWER_5V:
        return "5V"
    if header in _GROUND:
        return "GND"
    bcm = _BCM_AT[header]
    special = _SPECIAL.get(bcm)
    return f"GPIO{bcm} {special}" if special else f"GPIO{bcm}"


HEADER: dict[int, str] = {pin: _pin_name(pin) for pin in range(1, 41)}
"""Header pin (1-40, physical numbering) -> its name: ``3V3``, ``5V``, ``GND``, ``GPIO17``."""

Role = Literal["signal", "power", "ground"]


class PinMapError(CompanionError, ValueError):
    """The pin map disagrees with the Pi's header; the message names the key and why."""


@dataclass(frozen=True, slots=True)
class Connection:
    """One wire: from a part's terminal to a header pin.

    ``part`` is what a person sees (``"OLED"``, ``"UP button"``); ``terminal`` the
    part's pin (``"SDA"``, ``"leg 1"``); ``header`` the Pi header pin (1-40);
    ``role`` whether it carries a signal, 3.3 V or ground; ``optional`` parts may be
    left out; ``note`` is extra advice for the wire (a resistor).
    """

    part: str
    terminal: str
    header: int
    role: Role
    optional: bool = False
    note: str = ""


def load_pinmap(text: str | None = None) -> dict[str, Any]:
    """The pin map as a dictionary: ``text`` if given, else the packaged file.

    :raises PinMapError: TOML syntax error (with its line).
    """
    if text is None:
        text = resources.files("companion.devices").joinpath("pinmap.toml").read_text("utf-8")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise PinMapError(f"pinmap.toml: {error}") from None


def _header(key: str, entry: Mapping[str, Any]) -> int:
    pin = entry.get("header")
    if not isinstance(pin, int) or isinstance(pin, bool) or not 1 <= pin <= 40:
        raise PinMapError(f"{key}.header: a header pin 1-40 is needed, got {pin!r}")
    return pin


def _gpio(key: str, entry: Mapping[str, Any]) -> int:
    pin = _header(key, entry)
    bcm = entry.get("bcm")
    if pin not in _BCM_AT:
        raise PinMapError(f"{key}.header: pin {pin} is {HEADER[pin]}, not a GPIO")
    if bcm != _BCM_AT[pin]:
        raise PinMapError(
            f"{key}: header pin {pin} is GPIO{_BCM_AT[pin]} (BCM {_BCM_AT[pin]}), but bcm = {bcm!r}"
        )
    return pin


def _supply(key: str, entry: Mapping[str, Any], role: Role) -> int:
    pin = _header(key, entry)
    allowed = _POWER_3V3 if role == "power" else _GROUND
    if pin not in allowed:
        wanted = "a 3.3 V pin (1 or 17)" if role == "power" else "a ground pin"
        raise PinMapError(f"{key}.header: pin {pin} is {HEADER[pin]}; {wanted} is needed")
    return pin


def connections(pinmap: Mapping[str, Any]) -> list[Connection]:
    """Every wire the pin map asks for, in the order a person builds the box.

    :raises PinMapError: a key missing, a ``bcm`` not at its ``header`` pin, ``vcc``
        not on 3.3 V, ``gnd`` not on ground, an amplifier's I2S signal off its fixed
        pin, or two signals on one GPIO pin.
    """
    wires: list[Connection] = []

    def table(key: str, parent: Mapping[str, Any]) -> Mapping[str, Any]:
        value = parent.get(key.rsplit(".", 1)[-1])
        if not isinstance(value, Mapping):
            raise PinMapError(f"{key}: missing from the pin map")
        return value

    oled = table("oled", pinmap)
    address = oled.get("address")
    label = f"OLED 0x{address:02X}" if isinstance(address, int) else "OLED"
    wires.append(
        Connection(label, "VCC", _supply("oled.vcc", table("oled.vcc", oled), "power"), "power")
    )
    wires.append(
        Connection(label, "GND", _supply("oled.gnd", table("oled.gnd", oled), "ground"), "ground")
    )
    for terminal, bcm in (("SCL", 3), ("SDA", 2)):
        key = f"oled.{terminal.lower()}"
        entry = table(key, oled)
        pin = _gpio(key, entry)
        if oled.get("bus", 1) == 1 and entry.get("bcm") != bcm:
            raise PinMapError(f"{key}: I2C bus 1's {terminal} is BCM {bcm}")
        wires.append(Connection(label, terminal, pin, "signal"))

    for name, button in table("buttons", pinmap).items():
        key = f"buttons.{name}"
        if not isinstance(button, Mapping):
            raise PinMapError(f"{key}: must be a table with bcm and header")
        optional = bool(button.get("optional", False))
        part = f"{name.upper()} button"
        wires.append(Connection(part, "leg 1", _gpio(key, button), "signal", optional))
        if "gnd" in button:
            gnd = _supply(f"{key}.gnd", table(f"{key}.gnd", button), "ground")
            wires.append(Connection(part, "leg 2", gnd, "ground", optional))

    extras = (
        ("shaker", "SW-420 shaker", "DO", "GND"),
        ("buzzer", "buzzer", "+", "-"),
        ("led", "LED", "anode", "cathode"),
    )
    for key, part, signal, ground in extras:
        extra = pinmap.get(key)
        if extra is None:
            continue
        if not isinstance(extra, Mapping):
            raise PinMapError(f"{key}: must be a table")
        optional = bool(extra.get("optional", False))
        if "vcc" in extra:
            vcc = _supply(f"{key}.vcc", table(f"{key}.vcc", extra), "power")
            wires.append(Connection(part, "VCC", vcc, "power", optional))
        if "gnd" in extra:
            gnd = _supply(f"{key}.gnd", table(f"{key}.gnd", extra), "ground")
            wires.append(Connection(part, ground, gnd, "ground", optional))
        ohms = extra.get("resistor_ohms")
        note = f"via {ohms} ohm" if ohms else ""
        wires.append(Connection(part, signal, _gpio(key, extra), "signal", optional, note))

    amplifier = pinmap.get("amplifier")
    if amplifier is not None:
        wires.extend(_amplifier(amplifier, table))

    used: dict[int, Connection] = {}
    for wire in wires:
        if wire.role != "signal":
            continue
        other = used.get(wire.header)
        if other is not None:
            raise PinMapError(
                f"header pin {wire.header} ({HEADER[wire.header]}) carries both "
                f"{other.part} {other.terminal} and {wire.part} {wire.terminal}"
            )
        used[wire.header] = wire
    return wires


_I2S = (("BCLK", "bclk", 18), ("LRC", "lrc", 19), ("DIN", "din", 21))
"""The I2S terminals of an amplifier board, their pin map keys and their fixed BCM pins
(the Pi's PCM_CLK, PCM_FS and PCM_DOUT)."""


def _amplifier(
    amplifier: object, table: Callable[[str, Mapping[str, Any]], Mapping[str, Any]]
) -> list[Connection]:
    """The wires of the I2S amplifier (a MAX98357A board): VIN, GND, BCLK, LRC, DIN.

    :raises PinMapError: a key missing, or an I2S signal not on its fixed pin.
    """
    if not isinstance(amplifier, Mapping):
        raise PinMapError("amplifier: must be a table")
    part, optional = "MAX98357A", bool(amplifier.get("optional", False))
    vin = _supply("amplifier.vin", table("amplifier.vin", amplifier), "power")
    gnd = _supply("amplifier.gnd", table("amplifier.gnd", amplifier), "ground")
    wires = [Connection(part, "VIN", vin, "power", optional),
             Connection(part, "GND", gnd, "ground", optional)]
    for terminal, key, bcm in _I2S:
        entry = table(f"amplifier.{key}", amplifier)
        pin = _gpio(f"amplifier.{key}", entry)
        if entry.get("bcm") != bcm:
            raise PinMapError(f"amplifier.{key}: I2S's {terminal} is BCM {bcm}")
        wires.append(Connection(part, terminal, pin, "signal", optional))
    return wires


# --- Drawing -------------------------------------------------------------------------

_WIDTH = 1100
_ROW = 26
_TOP = 110
_PIN_X = (530, 582)  # odd pins (left), even pins (right)
_NAME_GAP = 22  # pin centre to its name
_WIRE = (140, 240)  # pin centre to the wire's near and far ends
_LEGEND_TOP = _TOP + 20 * _ROW + 24
_COLOURS = {"power": "#d62728", "ground": "#222222"}
_PART_COLOURS = {
    "OLED": "#1f77b4",
    "button": "#2ca02c",
    "shaker": "#ff7f0e",
    "buzzer": "#9467bd",
    "LED": "#e377c2",
    "MAX98357A": "#8c564b",
}
_UNUSED = "#b0b0b0"
_TITLE = "board-companion wiring: Raspberry Pi 40-pin header, seen from above"
_SUBTITLE = (
    "Pin 1 (square pad) is at the end of the header away from the USB ports.",
    "Odd pins are the inner row, even pins the row along the board's edge.",
)


def _colour(wire: Connection) -> str:
    if wire.role in _COLOURS:
        return _COLOURS[wire.role]
    for word, colour in _PART_COLOURS.items():
        if word in wire.part:
            return colour
    return "#17becf"


@dataclass(frozen=True, slots=True)
class _Line:
    x1: int
    y1: int
    x2: int
    y2: int
    colour: str
    width: int
    dashed: bool = False


@dataclass(frozen=True, slots=True)
class _Text:
    x: int
    y: int  # baseline-ish: the middle of the text line
    text: str
    colour: str
    anchor: Literal["start", "end", "middle"] = "start"
    size: int = 12


@dataclass(frozen=True, slots=True)
class _Circle:
    x: int
    y: int
    r: int
    fill: str
    outline: str


@dataclass(frozen=True, slots=True)
class _Rect:
    x1: int
    y1: int
    x2: int
    y2: int
    fill: str
    outline: str


def _legend(wires: Sequence[Connection]) -> list[str]:
    parts: dict[str, list[Connection]] = {}
    for wire in wires:
        parts.setdefault(wire.part, []).append(wire)
    lines = []
    for part, its in parts.items():
        pins = ", ".join(
            f"{w.terminal} -> pin {w.header}" + (f" ({w.note})" if w.note else "") for w in its
        )
        lines.append(f"{part}{' (optional)' if its[0].optional else ''}: {pins}")
    return lines


def _pin_label(its: Sequence[Connection]) -> str:
    """What a pin's wire goes to: one part's terminal, or several parts sharing the pin."""
    if len(its) > 1 and all(w.part.endswith(" button") for w in its):
        names = "/".join(w.part.removesuffix(" button") for w in its)
        label = f"{names} buttons, {its[0].terminal}"
    else:
        label = " + ".join(
            f"{w.part} {w.terminal}" + (f" ({w.note})" if w.note else "") for w in its
        )
    if all(w.optional for w in its):
        label += " (optional)"
    return label


def _scene(wires: Sequence[Connection]) -> tuple[int, list[_Rect | _Line | _Circle | _Text]]:
    """The drawing as primitives both renderers share: (height, shapes)."""
    legend = _legend(wires)
    height = _LEGEND_TOP + 22 + 18 * len(legend) + 16
    middle = (_PIN_X[0] + _PIN_X[1]) // 2
    shapes: list[_Rect | _Line | _Circle | _Text] = [
        _Rect(0, 0, _WIDTH - 1, height - 1, "#ffffff", "#ffffff"),
        _Text(middle, 28, _TITLE, "#000000", "middle", 16),
        _Text(middle, 56, _SUBTITLE[0], "#444444", "middle", 12),
        _Text(middle, 74, _SUBTITLE[1], "#444444", "middle", 12),
        _Rect(
            _PIN_X[0] - 15, _TOP - 16, _PIN_X[1] + 15, _TOP + 19 * _ROW + 16, "#1b5e20", "#0b3d0b"
        ),
    ]
    by_pin: dict[int, list[Connection]] = {}
    for wire in wires:
        by_pin.setdefault(wire.header, []).append(wire)
    for pin in range(1, 41):
        left = pin % 2 == 1
        x = _PIN_X[0] if left else _PIN_X[1]
        sign = -1 if left else 1
        y = _TOP + (pin - 1) // 2 * _ROW
        its = by_pin.get(pin, [])
        colour = _colour(its[0]) if its else "#e0e0e0"
        shapes.append(_Circle(x, y, 8, colour, "#ffffff" if its else "#9e9e9e"))
        anchor: Literal["start", "end"] = "end" if left else "start"
        name = f"{HEADER[pin]} {pin:>2}" if left else f"{pin:>2} {HEADER[pin]}"
        shapes.append(_Text(x + sign * _NAME_GAP, y, name, "#000000" if its else _UNUSED, anchor))
        if not its:
            continue
        near, far = x + sign * _WIRE[0], x + sign * _WIRE[1]
        dashed = all(w.optional for w in its)
        shapes.append(_Line(near, y, far, y, colour, 3, dashed))
        text_colour = colour if its[0].role == "signal" else "#000000"
        shapes.append(_Text(far + sign * 8, y, _pin_label(its), text_colour, anchor))
    shapes.append(
        _Text(40, _LEGEND_TOP, "Parts (each part's pin -> Pi header pin):", "#000000", "start", 13)
    )
    for i, line in enumerate(legend):
        shapes.append(_Text(40, _LEGEND_TOP + 22 + 18 * i, line, "#222222", "start", 12))
    return height, shapes


def render_svg(wires: Sequence[Connection]) -> str:
    """The diagram as SVG text (deterministic: the same wires give the same bytes)."""
    height, shapes = _scene(wires)
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_WIDTH}" height="{height}" '
        f'viewBox="0 0 {_WIDTH} {height}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace">',
    ]
    for shape in shapes:
        if isinstance(shape, _Rect):
            out.append(
                f'<rect x="{shape.x1}" y="{shape.y1}" width="{shape.x2 - shape.x1}" '
                f'height="{shape.y2 - shape.y1}" fill="{shape.fill}" stroke="{shape.outline}"/>'
            )
        elif isinstance(shape, _Line):
            dash = ' stroke-dasharray="8 5"' if shape.dashed else ""
            out.append(
                f'<line x1="{shape.x1}" y1="{shape.y1}" x2="{shape.x2}" y2="{shape.y2}" '
                f'stroke="{shape.colour}" stroke-width="{shape.width}"{dash}/>'
            )
        elif isinstance(shape, _Circle):
            out.append(
                f'<circle cx="{shape.x}" cy="{shape.y}" r="{shape.r}" fill="{shape.fill}" '
                f'stroke="{shape.outline}" stroke-width="2"/>'
            )
        else:
            text = shape.text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            out.append(
                f'<text x="{shape.x}" y="{shape.y}" font-size="{shape.size}" fill="{shape.colour}" '
                f'text-anchor="{shape.anchor}" dominant-baseline="central" xml:space="preserve">{text}</text>'
            )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def render_png(wires: Sequence[Connection]) -> Image.Image:
    """The same diagram as an RGB image (Pillow's built-in bitmap font: the same pixels
    on every machine, no font files needed)."""
    height, shapes = _scene(wires)
    image = Image.new("RGB", (_WIDTH, height), "#ffffff")
    draw = ImageDraw.Draw(image)
    load_bitmap = getattr(ImageFont, "load_default_imagefont", ImageFont.load_default)
    font = load_bitmap()
    line_height = font.getbbox("Ag")[3]
    for shape in shapes:
        if isinstance(shape, _Rect):
            draw.rectangle((shape.x1, shape.y1, shape.x2, shape.y2), shape.fill, shape.outline)
        elif isinstance(shape, _Line):
            if not shape.dashed:
                draw.line((shape.x1, shape.y1, shape.x2, shape.y2), shape.colour, shape.width)
                continue
            step = 1 if shape.x2 >= shape.x1 else -1
            for start in range(shape.x1, shape.x2, 13 * step):
                end = start + 8 * step
                if (end - shape.x2) * step > 0:
                    end = shape.x2
                draw.line((start, shape.y1, end, shape.y2), shape.colour, shape.width)
        elif isinstance(shape, _Circle):
            box = (shape.x - shape.r, shape.y - shape.r, shape.x + shape.r, shape.y + shape.r)
            draw.ellipse(box, shape.fill, shape.outline, 2)
        else:
            # Bitmap fonts take no anchor: place the text's top-left corner by hand.
            width = draw.textlength(shape.text, font=font)
            shift = {"start": 0.0, "end": width, "middle": width / 2}[shape.anchor]
            draw.text(
                (round(shape.x - shift), shape.y - line_height // 2), shape.text, shape.colour, font
            )
    return image


TABLE_BEGIN = "<!-- wiring table: generated by python -m companion.devices.wiring -->"
TABLE_END = "<!-- end of wiring table -->"


def wiring_table(wires: Sequence[Connection]) -> str:
    """The wires as a Markdown table (part, its pin, Pi header pin, the pin's name)."""
    rows = [
        "| Part | Its pin | Pi header pin | Pi pin name | |",
        "|---|---|---|---|---|",
    ]
    for w in wires:
        extra = "; ".join(x for x in (w.note, "optional" if w.optional else "") if x)
        rows.append(f"| {w.part} | {w.terminal} | {w.header} | {HEADER[w.header]} | {extra} |")
    return "\n".join(rows)


def _with_table(readme: str, table: str) -> str:
    begin, end = readme.find(TABLE_BEGIN), readme.find(TABLE_END)
    if begin < 0 or end < begin:
        raise PinMapError(f"README has no {TABLE_BEGIN!r} ... {TABLE_END!r} markers")
    return readme[: begin + len(TABLE_BEGIN)] + "\n" + table + "\n" + readme[end:]


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m companion.devices.wiring [--check] [DIR]`` (DIR: ``hardware``)."""
    parser = argparse.ArgumentParser(
        prog="python -m companion.devices.wiring",
        description="Draw hardware/wiring.svg and wiring.png and the README's wiring "
        "table from the pin map.",
    )
    parser.add_argument("directory", nargs="?", default="hardware", type=Path)
    parser.add_argument(
        "--check", action="store_true", help="only report stale files (exit status 1)"
    )
    args = parser.parse_args(argv)
    try:
        wires = connections(load_pinmap())
        directory: Path = args.directory
        readme_path = directory / "README.md"
        readme = readme_path.read_text("utf-8") if readme_path.exists() else ""
        wanted_readme = _with_table(readme, wiring_table(wires))
    except (PinMapError, OSError) as error:
        print(f"wiring: {error}", file=sys.stderr)
        return 2
    svg, png = render_svg(wires), render_png(wires)
    svg_path, png_path = directory / "wiring.svg", directory / "wiring.png"
    stale = []
    if not svg_path.exists() or svg_path.read_text("utf-8") != svg:
        stale.append(svg_path)
    if not png_path.exists() or not _same_pixels(png_path, png):
        stale.append(png_path)
    if readme != wanted_readme:
        stale.append(readme_path)
    if args.check:
        for path in stale:
            print(f"{path} is not what the pin map makes: run python -m companion.devices.wiring")
        return 1 if stale else 0
    svg_path.write_text(svg, "utf-8")
    png.save(png_path, optimize=True)
    readme_path.write_text(wanted_readme, "utf-8")
    for path in stale:
        print(f"wrote {path}")
    return 0


def _same_pixels(path: Path, image: Image.Image) -> bool:
    with Image.open(path) as saved:
        return (
            saved.mode == image.mode
            and saved.size == image.size
            and saved.tobytes() == image.tobytes()
        )


if __name__ == "__main__":
    raise SystemExit(main())
