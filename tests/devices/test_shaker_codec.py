"""The companion's side of the shaker line protocol, against the shared test vectors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.devices.shaker_codec import (
    DEVICE_TYPES,
    HOST_TYPES,
    MAX_LINE,
    FrameError,
    ShakerProtocolError,
    crc16,
    format_frame,
    implement_fields,
    implement_from_fields,
    parse_frame,
    throw_from_frame,
)
from companion.rules.errors import InvalidThrowError
from companion.rules.throws import BinarySticks, ColouredSticks, Deck, Dice, StickFace

VECTORS: Any = json.loads(
    (Path(__file__).resolve().parents[1] / "vectors" / "shaker_frames.json").read_text()
)


def _fields(text: str) -> dict[str, str]:
    return dict(p.split("=", 1) for p in text.split(" "))


@pytest.mark.parametrize("vector", VECTORS["crc"], ids=lambda v: v["data"] or "empty")
def test_crc_check_values(vector: Any) -> None:
    assert f"{crc16(vector['data'].encode()):04X}" == vector["crc"]


@pytest.mark.parametrize("vector", VECTORS["valid"], ids=lambda v: v["meaning"])
def test_valid_vectors_parse_and_format_back_byte_for_byte(vector: Any) -> None:
    line = vector["line"].encode() + b"\r\n"
    frame = parse_frame(line)
    assert (frame.type, frame.seq, frame.boot) == (vector["type"], vector["seq"], vector["boot"])
    assert [list(p) for p in frame.fields] == vector["fields"]
    assert format_frame(frame.type, frame.seq, frame.fields, frame.boot) == line


@pytest.mark.parametrize("vector", VECTORS["invalid"], ids=lambda v: v["meaning"])
def test_invalid_vectors_are_refused_for_the_documented_reason(vector: Any) -> None:
    with pytest.raises(FrameError) as caught:
        parse_frame(vector["line"].encode() + b"\r\n")
    assert caught.value.reason == vector["reason"]


@pytest.mark.parametrize("vector", VECTORS["configs"], ids=lambda v: v["meaning"])
def test_configurations_the_shaker_takes_are_the_ones_the_companion_reads(vector: Any) -> None:
    fields = _fields(vector["fields"])
    if vector["valid"]:
        implement = implement_from_fields(fields)
        assert implement.id == vector["id"]
        assert dict(implement_fields(implement)) == fields  # and back to the same fields
    else:
        with pytest.raises(InvalidThrowError):
            implement_from_fields(fields)


@pytest.mark.parametrize("vector", VECTORS["throws"], ids=lambda v: v["meaning"])
def test_throw_frames_become_throws_of_the_requested_implement(vector: Any) -> None:
    implement = implement_from_fields(_fields(vector["config"]))
    frame = parse_frame(vector["line"].encode())
    if vector["valid"]:
        throw = throw_from_frame(frame, implement)
        assert throw.implement == implement.id
        assert list(throw.faces) == vector["faces"]
        assert list(throw.values) == vector["values"]
        assert list(throw.colours) == vector["colours"]
        implement.check(throw)
    else:
        with pytest.raises(InvalidThrowError):
            throw_from_frame(frame, implement)


def test_host_frames_never_carry_ctrl_c_or_ctrl_d() -> None:
    for bad in ("\x03", "\x04", "a b", "a*b", ""):
        with pytest.raises(FrameError):
            format_frame("CONFIG", 1, [("kind", bad)])


def test_a_deck_cannot_be_thrown_by_the_shaker() -> None:
    with pytest.raises(ShakerProtocolError, match="cannot throw"):
        implement_fields(Deck("direction", ("N", "S")))


def test_a_colour_the_protocol_cannot_carry_is_refused() -> None:
    sticks = ColouredSticks(((StickFace(1, "dark red"), StickFace(2, "red")),))
    with pytest.raises(ShakerProtocolError, match="colour"):
        implement_fields(sticks)


def test_coloured_sticks_too_big_for_a_frame_are_refused_when_asked_for() -> None:
    colour = "x" * 16
    sticks = ColouredSticks(
        tuple((StickFace(998, colour), StickFace(999, colour)) for _ in range(8))
    )
    with pytest.raises(ShakerProtocolError, match="over the shaker's 240"):
        implement_fields(sticks)


def test_coloured_sticks_of_a_real_game_fit_with_room_to_spare() -> None:
    pair = (StickFace(1, "black"), StickFace(2, "white"))
    sticks = ColouredSticks((pair, pair, pair, (StickFace(3), StickFace(4))))
    fields = implement_fields(sticks)
    faces = ",".join(["2:white"] * 3 + ["4"])
    line = format_frame("THROW", 65535, [("cfg", "65535"), *fields, ("faces", faces)], "ffffffff")
    assert len(line) < MAX_LINE


_value = st.text(
    alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E, exclude_characters="*"),
    min_size=1,
    max_size=12,
)
_key = st.from_regex(r"[a-z][a-z0-9]{0,5}", fullmatch=True)


@settings(max_examples=300, deadline=None)
@given(
    type=st.sampled_from(sorted(DEVICE_TYPES | HOST_TYPES)),
    seq=st.integers(0, 65535),
    boot=st.from_regex(r"[0-9a-f]{8}", fullmatch=True),
    extra=st.dictionaries(_key, _value, max_size=4),
)
def test_any_well_formed_frame_round_trips(
    type: str, seq: int, boot: str, extra: dict[str, str]
) -> None:
    required = {
        "HELLO": ["fw", "hw", "caps"],
        "THROW": ["cfg", "kind", "faces"],
        "ERROR": ["code"],
        "HEARTBEAT": ["state", "armed"],
        "STATUS": ["ref", "state", "armed"],
        "CONFIG": ["kind"],
        "ACK": ["boot", "ref"],
    }.get(type, [])
    fields = [(k, "1") for k in required] + [(k, v) for k, v in extra.items() if k not in required]
    device = type in DEVICE_TYPES
    line = format_frame(type, seq, fields, boot if device else "")
    frame = parse_frame(line)
    assert (frame.type, frame.seq, list(frame.fields)) == (type, seq, fields)
    assert frame.boot == (boot if device else "")
    assert b"\x03" not in line and b"\x04" not in line


@settings(max_examples=300, deadline=None)
@given(
    count=st.integers(1, 8),
    sides=st.integers(2, 100),
    data=st.data(),
)
def test_every_die_the_companion_asks_for_reads_back(count: int, sides: int, data: Any) -> None:
    dice = Dice(count, sides)
    faces = data.draw(st.lists(st.integers(1, sides), min_size=count, max_size=count))
    fields = implement_fields(dice)
    body = f"THROW 1 0badcafe cfg=2 {' '.join(f'{k}={v}' for k, v in fields)} faces={','.join(map(str, faces))}"
    frame = parse_frame(f"{body} *{crc16(body.encode()):04X}".encode())
    assert throw_from_frame(frame, dice).values == tuple(faces)
    assert implement_from_fields(dict(fields)) == dice


def test_binary_sticks_with_other_scores_are_still_four_sticks() -> None:
    # the scores stay with the companion: the shaker only reports light and dark
    sticks = BinarySticks(4, (5, 1, 2, 3, 4))
    body = "THROW 1 0badcafe cfg=2 kind=sticks n=4 faces=DDDD"
    frame = parse_frame(f"{body} *{crc16(body.encode()):04X}".encode())
    assert throw_from_frame(frame, sticks).values == (5,)
