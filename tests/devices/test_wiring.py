"""The wiring diagram is the pin map's: committed pictures current, pin map checked."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from companion.devices.wiring import (
    HEADER,
    PinMapError,
    connections,
    load_pinmap,
    main,
    render_png,
    render_svg,
    wiring_table,
)

REPO = Path(__file__).resolve().parents[2]
HARDWARE = REPO / "hardware"


def test_committed_diagram_and_table_are_what_the_pin_map_makes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--check", str(HARDWARE)]) == 0, capsys.readouterr().out


def test_check_names_a_stale_picture_and_a_run_fixes_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copy = tmp_path / "hardware"
    copy.mkdir()
    for name in ("README.md", "wiring.svg", "wiring.png"):
        shutil.copy(HARDWARE / name, copy / name)
    svg = copy / "wiring.svg"
    svg.write_text(svg.read_text().replace("GPIO17", "GPIO71"))  # someone edited it by hand
    assert main(["--check", str(copy)]) == 1
    assert str(svg) in capsys.readouterr().out
    assert main([str(copy)]) == 0
    assert main(["--check", str(copy)]) == 0
    assert svg.read_bytes() == (HARDWARE / "wiring.svg").read_bytes()


def test_the_pin_map_keeps_the_keys_the_service_reads() -> None:
    pins = load_pinmap()
    assert pins["oled"]["bus"] == 1 and pins["oled"]["address"] == 0x3C
    assert set(pins["buttons"]) == {"up", "down", "ok", "back", "throw"}
    for button in pins["buttons"].values():
        assert isinstance(button["bcm"], int) and isinstance(button["header"], int)
    assert isinstance(pins["shaker"]["bcm"], int)


def test_every_wire_of_the_box_is_in_the_table_and_the_diagram() -> None:
    wires = connections(load_pinmap())
    table, svg = wiring_table(wires), render_svg(wires)
    assert "| OLED 0x3C | SDA | 3 | GPIO2 SDA |  |" in table
    assert "| UP button | leg 1 | 29 | GPIO5 |  |" in table
    assert "| SW-420 shaker | VCC | 17 | 3V3 | optional |" in table
    assert "| LED | anode | 13 | GPIO27 | via 330 ohm; optional |" in table
    assert "UP/DOWN/OK/BACK/THROW buttons, leg 2" in svg  # the shared ground wire
    assert len(table.splitlines()) == len(wires) + 2
    assert not any(w.header in (2, 4) for w in wires)  # nothing on 5 V


def test_moving_a_button_moves_it_in_the_pictures() -> None:
    text = (REPO / "companion" / "devices" / "pinmap.toml").read_text()
    moved = text.replace(
        "[buttons.up]\nbcm = 5\nheader = 29", "[buttons.up]\nbcm = 12\nheader = 32"
    )
    assert moved != text
    wires = connections(load_pinmap(moved))
    assert "| UP button | leg 1 | 32 | GPIO12 |  |" in wiring_table(wires)
    before = render_png(connections(load_pinmap()))
    after = render_png(wires)
    assert before.size == after.size and before.tobytes() != after.tobytes()


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("bcm = 5\nheader = 29", "bcm = 5\nheader = 30", "pin 30 is GND, not a GPIO"),
        (
            "bcm = 5\nheader = 29",
            "bcm = 5\nheader = 31",
            "header pin 31 is GPIO6 (BCM 6), but bcm = 5",
        ),
        (
            "vcc = { header = 17 }",
            "vcc = { header = 2 }",
            "pin 2 is 5V; a 3.3 V pin (1 or 17) is needed",
        ),
        (
            "gnd = { header = 25 }",
            "gnd = { header = 27 }",
            "pin 27 is GPIO0 ID_SD; a ground pin is needed",
        ),
        ("bcm = 27\nheader = 13", "bcm = 17\nheader = 11", "header pin 11 (GPIO17) carries both"),
        (
            "sda = { bcm = 2, header = 3 }",
            "sda = { bcm = 4, header = 7 }",
            "I2C bus 1's SDA is BCM 2",
        ),
        ("[buttons.up]\nbcm = 5\nheader = 29", "[buttons.up]\nbcm = 5", "buttons.up.header"),
    ],
)
def test_a_pin_map_that_disagrees_with_the_header_is_refused(
    old: str, new: str, message: str
) -> None:
    text = (REPO / "companion" / "devices" / "pinmap.toml").read_text()
    assert old in text
    with pytest.raises(PinMapError, match=message.replace("(", r"\(").replace(")", r"\)")):
        connections(load_pinmap(text.replace(old, new, 1)))


def test_toml_syntax_error_is_a_pin_map_error() -> None:
    with pytest.raises(PinMapError, match=r"pinmap\.toml"):
        load_pinmap("[oled\n")


def test_header_names() -> None:
    assert [HEADER[p] for p in (1, 2, 3, 6, 11, 27, 40)] == [
        "3V3", "5V", "GPIO2 SDA", "GND", "GPIO17", "GPIO0 ID_SD", "GPIO21",
    ]  # fmt: skip
    assert sum(name.startswith("GPIO") for name in HEADER.values()) == 28


def test_the_i2s_amplifier_is_wired_on_the_pis_fixed_i2s_pins_beside_everything_else() -> None:
    wires = connections(load_pinmap())
    table = wiring_table(wires)
    for row in ("| MAX98357A | BCLK | 12 | GPIO18 | optional |",
                "| MAX98357A | LRC | 35 | GPIO19 | optional |",
                "| MAX98357A | DIN | 40 | GPIO21 | optional |",
                "| MAX98357A | VIN | 1 | 3V3 | optional |"):
        assert row in table
    # the buttons and the buzzer keep clear of the I2S pins (connections() refuses a
    # pin carrying two signals; here: none of theirs is an I2S pin)
    i2s = {12, 35, 40}
    assert not any(w.header in i2s for w in wires if w.part != "MAX98357A")
    text = (REPO / "companion" / "devices" / "pinmap.toml").read_text()
    moved = text.replace("din = { bcm = 21, header = 40 }", "din = { bcm = 22, header = 15 }")
    assert moved != text
    with pytest.raises(PinMapError, match=r"amplifier\.din: I2S's DIN is BCM 21"):
        connections(load_pinmap(moved))
    back = text.replace("bcm = 16\nheader = 36", "bcm = 19\nheader = 35")  # BACK's old pin
    assert back != text
    with pytest.raises(PinMapError, match=r"header pin 35 \(GPIO19\) carries both"):
        connections(load_pinmap(back))
