"""The shaker firmware, run on the real MicroPython (unix port) and compiled by mpy-cross.

What a player would notice: a shake gives exactly one throw, drawn when the shaking
stops; a knock on the table or tipping the cup does not throw; faces are fair; the
shaker keeps offering a throw until the companion acknowledges it; garbage on the
line is refused with an ERROR frame, never a crash.
"""

from __future__ import annotations

import json
import math
import subprocess
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from shaker_fw_tools import FIRMWARE, TRACES, VECTORS, run_mp, run_mp_json, tool

from companion.devices.shaker_codec import (
    Frame,
    crc16,
    format_frame,
    implement_from_fields,
    parse_frame,
    throw_from_frame,
)
from companion.rules.throws import Implement

FIRMWARE_FILES = sorted(p for p in FIRMWARE.rglob("*.py"))


# --- compiled as the Pico would ----------------------------------------------


@pytest.mark.parametrize("path", FIRMWARE_FILES, ids=lambda p: str(p.relative_to(FIRMWARE)))
def test_every_firmware_file_compiles_with_mpy_cross(path: Path, tmp_path: Path) -> None:
    out = tmp_path / (path.stem + ".mpy")
    done = subprocess.run(
        [tool("mpy-cross"), "-o", str(out), str(path)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert out.read_bytes()[:1] == b"M"  # the .mpy header


def test_mpy_cross_refuses_what_micropython_cannot_run(tmp_path: Path) -> None:
    source = tmp_path / "bad.py"
    source.write_text("def f(x):\n    match x:\n        case 1:\n            return 2\n")
    done = subprocess.run(
        [tool("mpy-cross"), "-o", str(tmp_path / "bad.mpy"), str(source)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode != 0


def test_the_firmware_files_a_hobbyist_copies_are_all_there() -> None:
    names = {p.name for p in FIRMWARE.glob("*.py")}
    assert {
        "main.py",
        "shaker_app.py",
        "shaker_config.py",
        "shaker_detect.py",
        "shaker_draw.py",
        "shaker_hw.py",
        "shaker_proto.py",
    } <= names


# --- shared test vectors -------------------------------------------------------


@pytest.fixture(scope="module")
def vectors() -> Any:
    return json.loads(VECTORS.read_text())


@pytest.fixture(scope="module")
def firmware_says(vectors: Any) -> Any:
    return run_mp_json("run_vectors.py", str(VECTORS))


def test_firmware_crc_matches_the_vectors(vectors: Any, firmware_says: Any) -> None:
    assert firmware_says["crc"] == [v["crc"] for v in vectors["crc"]]


def test_firmware_parses_every_valid_vector(vectors: Any, firmware_says: Any) -> None:
    for vector, got in zip(vectors["valid"], firmware_says["valid"], strict=True):
        expected = {k: vector[k] for k in ("type", "seq", "boot", "fields")}
        assert got == expected, vector["meaning"]


def test_firmware_formats_every_valid_vector_byte_for_byte(
    vectors: Any, firmware_says: Any
) -> None:
    for vector, got in zip(vectors["valid"], firmware_says["formatted"], strict=True):
        assert got == vector["line"] + "\r\n", vector["meaning"]


def test_firmware_refuses_every_invalid_vector_for_the_documented_reason(
    vectors: Any, firmware_says: Any
) -> None:
    for vector, got in zip(vectors["invalid"], firmware_says["invalid"], strict=True):
        assert got == {"reason": vector["reason"]}, vector["meaning"]


def test_firmware_and_companion_agree_on_configurations(
    vectors: Any, firmware_says: Any
) -> None:
    for vector, got in zip(vectors["configs"], firmware_says["configs"], strict=True):
        if vector["valid"]:
            assert "slots" in got, vector["meaning"]
            fields = dict(p.split("=", 1) for p in vector["fields"].split(" "))
            implement = implement_from_fields(fields)
            assert implement.id == vector["id"]
            # every face the firmware can draw is one the companion accepts
            if fields["kind"] == "sticks":
                assert all(slot == ["D", "L"] for slot in got["slots"])
            else:
                for faces in zip(*[slot[:2] for slot in got["slots"]], strict=True):
                    implement.from_faces(list(faces))
        else:
            assert got == {"reason": "bad-config"}, vector["meaning"]


def test_firmware_and_companion_agree_on_throws(vectors: Any, firmware_says: Any) -> None:
    """A THROW the companion applies is one the firmware can send for that CONFIG, and
    one the companion refuses (lower-case sticks, a die written 06, a colour in capitals,
    an impossible face, another implement) is one the firmware never sends."""
    for vector, could in zip(vectors["throws"], firmware_says["throws"], strict=True):
        assert could is vector["valid"], vector["meaning"]


# --- shake detection on recorded-style traces -----------------------------------


@pytest.fixture(scope="module")
def traces() -> dict[str, Any]:
    names = ["shake", "bump", "double_bump", "tilt"]
    out = run_mp("run_traces.py", *(str(TRACES / f"{n}.csv") for n in names))
    results = [json.loads(line) for line in out.splitlines()]
    return {Path(r["trace"]).stem: r for r in results}


def test_a_shake_gives_one_throw_when_the_shaking_stops(traces: dict[str, Any]) -> None:
    # shake.csv: still 0-500 ms, shaken 500-2000 ms, then held still
    events = traces["shake"]["events"]
    assert [e for _, e in events] == ["shaking", "thrown"]
    (started, _), (thrown, _) = events
    assert 500 < started < 1200  # noticed within the first swings
    assert 2000 < thrown <= 2000 + 700  # only once it stopped, within 0.7 s


def test_a_knock_on_the_table_is_not_a_shake(traces: dict[str, Any]) -> None:
    assert traces["bump"]["events"] == []
    assert traces["double_bump"]["events"] == []


def test_the_knock_is_seen_as_a_jolt_so_the_test_above_means_something() -> None:
    out = run_mp("run_traces.py", "--shake_jolts=1", str(TRACES / "bump.csv"))
    assert [e for _, e in json.loads(out)["events"]] == ["shaking", "thrown"]


def test_tipping_the_cup_slowly_is_not_a_shake(traces: dict[str, Any]) -> None:
    assert traces["tilt"]["events"] == []
    assert traces["tilt"]["states"] == ["idle"]


# --- fair faces ----------------------------------------------------------------


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with ``df`` degrees of freedom.

    The regularised upper incomplete gamma Q(df/2, x/2), by its series or its
    continued fraction (Numerical Recipes, 6.2).
    """
    a, z = df / 2, x / 2
    if z <= 0:
        return 1.0
    log_front = -z + a * math.log(z) - math.lgamma(a)
    if z < a + 1:
        term = total = 1 / a
        n = a
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= z / n
            total += term
        return 1 - total * math.exp(log_front)
    b = z + 1 - a
    c = 1 / 1e-300
    d = 1 / b
    h = d
    for i in range(1, 500):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return math.exp(log_front) * h


def test_chi2_sf_matches_known_critical_values() -> None:
    assert chi2_sf(10.828, 1) == pytest.approx(0.001, rel=1e-3)
    assert chi2_sf(20.515, 5) == pytest.approx(0.001, rel=1e-3)
    assert chi2_sf(66.619, 35) == pytest.approx(0.001, rel=1e-3)
    assert chi2_sf(3.0, 5) == pytest.approx(0.6999858, rel=1e-5)


ALPHA = 0.001
"""Significance of the fairness tests; the byte source is seeded, so a run repeats."""
DRAWS = 60_000

IMPLEMENTS = {
    "two dice": "kind=dice n=2 sides=6",
    "one five-sided die (not a power of two)": "kind=dice n=1 sides=5",
    "four casting sticks": "kind=sticks n=4",
    "coloured sticks": "kind=coloured sticks=1:red/2:red,3/4,5:blue/6:blue",
}


def _frame_for(config: str, faces: str) -> Frame:
    body = f"THROW 0 00000000 cfg=0 {config} faces={faces}"
    return parse_frame(f"{body} *{crc16(body.encode()):04X}".encode())


def _chi2(observed: Counter[Any], expected: dict[Any, float]) -> float:
    assert set(observed) <= set(expected), "a face that cannot be thrown was drawn"
    return sum((observed.get(k, 0) - e) ** 2 / e for k, e in expected.items())


@pytest.mark.parametrize("config", IMPLEMENTS.values(), ids=IMPLEMENTS.keys())
def test_faces_are_fair_over_60000_draws(config: str) -> None:
    drawn = run_mp_json("run_draw.py", config, str(DRAWS))["counts"]
    fields: dict[str, str] = dict(p.split("=", 1) for p in config.split(" "))
    implement: Implement = implement_from_fields(fields)
    # each die / stick independently uniform: every face combination equally likely
    slots = _combinations(fields)
    combos = Counter(drawn)
    assert len(combos) == slots
    stat = _chi2(combos, {k: DRAWS / slots for k in combos})
    assert chi2_sf(stat, slots - 1) > ALPHA, f"faces not uniform: chi2={stat:.1f}"
    # and the throws follow the implement's own exact distribution
    # (the values and colours the rules use; sticks are told apart by score only)
    throws: Counter[Any] = Counter()
    for faces, n in drawn.items():
        throw = throw_from_frame(_frame_for(config, faces), implement)
        throws[throw.values, throw.colours] += n
    expected: dict[Any, float] = {}
    for throw, p in implement.outcomes():
        key = (throw.values, throw.colours)
        expected[key] = expected.get(key, 0.0) + float(p) * DRAWS
    stat = _chi2(throws, expected)
    assert chi2_sf(stat, len(expected) - 1) > ALPHA, f"throws not as the rules expect: {stat:.1f}"


def _combinations(fields: dict[str, str]) -> int:
    """How many face combinations a CONFIG can show (each die or stick told apart)."""
    if fields["kind"] == "dice":
        per_slot, slots = int(fields["sides"]), int(fields["n"])
    elif fields["kind"] == "sticks":
        per_slot, slots = 2, int(fields["n"])
    else:
        per_slot, slots = 2, len(fields["sticks"].split(","))
    return math.prod([per_slot] * slots)


def test_rejection_sampling_throws_away_out_of_range_bytes() -> None:
    # a d6 takes 3 bits: 6 and 7 are refused, 255 & 7 = 7 is refused, 2 is face 3
    got = run_mp_json("run_draw.py", "kind=dice n=1 sides=6", "--bytes", "6,7,255,2")
    assert got == {"faces": ["3"], "bytes": 4}


def test_a_d100_uses_seven_bits_and_rejects_above_99() -> None:
    got = run_mp_json("run_draw.py", "kind=dice n=1 sides=100", "--bytes", "100,127,228,99")
    assert got == {"faces": ["100"], "bytes": 4}  # 228 & 127 = 100 refused; 99 -> face 100


# --- the shaker's behaviour over the protocol ----------------------------------


def drive(steps: list[dict[str, Any]], tmp_path: Path) -> list[tuple[int, Frame]]:
    """Run shaker_app.Shaker through ``steps`` (see drive_app.py); the frames it sent."""
    script = tmp_path / "steps.json"
    script.write_text(json.dumps(steps))
    out = []
    for line in run_mp("drive_app.py", str(script)).splitlines():
        t, text = json.loads(line)
        assert text.endswith("\r\n")
        out.append((t, parse_frame(text.encode())))  # every frame parses on the host side
    return out


def host(type: str, seq: int, **fields: str) -> str:
    return format_frame(type, seq, list(fields.items())).decode("ascii")


SHAKE = str(TRACES / "shake.csv")


def test_hello_then_a_throw_of_what_was_configured(tmp_path: Path) -> None:
    frames = drive(
        [
            {"t": 10, "rx": host("CONFIG", 1, kind="dice", n="2", sides="6")},
            {"t": 100, "trace": SHAKE},
        ],
        tmp_path,
    )
    types = [f.type for _, f in frames]
    assert types[:4] == ["HELLO", "STATUS", "SHAKING", "THROW"]
    hello, status = frames[0][1], frames[1][1]
    assert hello["hw"] == "sim" and hello["fw"]
    assert status["ref"] == "1" and status["armed"] == "1"
    throw = frames[3][1]
    assert throw.boot == hello.boot
    assert throw["cfg"] == "1"
    assert implement_from_fields({"kind": "dice", "n": "2", "sides": "6"}).from_faces(
        throw["faces"].split(",")
    )
    assert all(f.seq == i for i, (_, f) in enumerate(frames[:4]))


def test_an_unacknowledged_throw_is_resent_until_the_ack(tmp_path: Path) -> None:
    frames = drive(
        [
            {"t": 10, "rx": host("CONFIG", 1, kind="sticks", n="4")},
            {"t": 100, "trace": SHAKE},  # thrown at about 2600 ms
            {"t": 4000},
            {"t": 4500, "rx": "ACK 2 boot=00000000 ref=3\r\n"},  # bad CRC: ignored
            {"t": 5000},
            {"t": 6000},
        ],
        tmp_path,
    )
    throws = [(t, f) for t, f in frames if f.type == "THROW"]
    assert len(throws) >= 3
    assert len({(f.boot, f.seq, f["faces"]) for _, f in throws}) == 1  # the same throw
    boot, seq = throws[0][1].boot, throws[0][1].seq
    frames = drive(
        [
            {"t": 10, "rx": host("CONFIG", 1, kind="sticks", n="4")},
            {"t": 100, "trace": SHAKE},
            {"t": 3000, "rx": host("ACK", 2, boot="ffffffff", ref=str(seq))},  # other boot
            {"t": 3800},
            {"t": 3900, "rx": host("ACK", 3, boot=boot, ref=str(seq))},
            {"t": 5000},
            {"t": 7000},
        ],
        tmp_path,
    )
    times = [t for t, f in frames if f.type == "THROW"]
    assert len(times) == 2 and times[1] >= 3000  # resent once after the wrong ACK, then no more
    assert frames[-1][1].type == "HEARTBEAT"


def test_one_throw_per_configuration(tmp_path: Path) -> None:
    frames = drive(
        [
            {"t": 10, "rx": host("CONFIG", 1, kind="dice", n="1", sides="6")},
            {"t": 100, "trace": SHAKE},
            {"t": 3100, "trace": SHAKE},  # shaken again while the first throw waits
        ],
        tmp_path,
    )
    errors = [f["code"] for _, f in frames if f.type == "ERROR"]
    assert errors == ["unacked"]
    assert len({f.seq for _, f in frames if f.type == "THROW"}) == 1


def test_a_shake_without_a_configuration_is_refused(tmp_path: Path) -> None:
    frames = drive(
        [
            {"t": 10, "rx": host("CONFIG", 1, kind="dice", n="2", sides="6")},
            {"t": 20, "rx": host("CONFIG", 2, kind="none")},
            {"t": 100, "trace": SHAKE},
        ],
        tmp_path,
    )
    assert [f.type for _, f in frames if f.type in ("THROW", "ERROR")] == ["ERROR"]
    assert [f["code"] for _, f in frames if f.type == "ERROR"] == ["not-armed"]


def test_garbage_gets_an_error_frame_and_the_shaker_carries_on(tmp_path: Path) -> None:
    frames = drive(
        [
            {"t": 1, "rx": "hello there\r\n"},
            {"t": 2, "rx": "x" * 5000 + "\r\n"},
            {"t": 3, "rx": host("CONFIG", 1, kind="dice", n="2", sides="6")[:-6] + "0000\r\n"},
            {"t": 4, "rx": host("CONFIG", 2, kind="dice", n="9", sides="6")},
            {"t": 5, "rx": format_frame("HEARTBEAT", 0, [("state", "idle"), ("armed", "0")], "1a2b3c4d").decode()},
            {"t": 6, "rx": "\r\n\n\r"},  # empty lines are nothing
            {"t": 7, "rx": "QUERY 9 *" + f"{crc16(b'QUERY 9'):04X}" + "\n"},  # a bare LF ends a line too
        ],
        tmp_path,
    )
    replies = [(f.type, f.get("code"), f.get("ref")) for _, f in frames[1:]]
    assert replies == [
        ("ERROR", "no-crc", None),
        ("ERROR", "too-long", None),
        ("ERROR", "bad-crc", None),
        ("ERROR", "bad-config", "2"),
        ("ERROR", "bad-type", "0"),
        ("STATUS", None, "9"),
    ]


def test_heartbeats_every_two_seconds_when_nothing_happens(tmp_path: Path) -> None:
    frames = drive([{"t": t} for t in range(0, 7001, 500)], tmp_path)
    beats = [t for t, f in frames if f.type == "HEARTBEAT"]
    assert beats == [2000, 4000, 6000]
    assert [f["up"] for _, f in frames if f.type == "HEARTBEAT"] == ["2", "4", "6"]


# --- the thin hardware layer, against register maps -------------------------------


def test_sensor_drivers_set_up_the_chip_and_read_milli_g() -> None:
    got = run_mp_json("run_hw.py")
    # LIS3DH: CTRL_REG1 0x57 (100 Hz, X/Y/Z), CTRL_REG4 0x98 (block update, +-4 g, high resolution)
    assert got["lis3dh"]["writes"] == [[0x19, 0x20, 0x57], [0x19, 0x23, 0x98]]
    # MPU-6050: PWR_MGMT_1 0 (awake), ACCEL_CONFIG 0x08 (+-4 g)
    assert got["mpu6050"]["writes"] == [[0x68, 0x6B, 0x00], [0x68, 0x1C, 0x08]]
    for chip in ("lis3dh", "mpu6050"):
        assert got[chip]["mg"] == [1000, -500, 2000]
        assert got[chip]["activity"] == 1291  # |sqrt(1 + 0.25 + 4) g - 1 g|
    assert got["switch"] == [0, 1400, 0]  # edges since the last sample make a jolt
    assert got["found"] == "lis3dh"
    assert got["wdt"] == 8388  # clamped to what the RP2040 allows
