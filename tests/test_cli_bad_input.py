"""What a player gives `companion rules legal` (a position file, a throw): whatever is
in it, one line naming the problem and exit status 2, never a traceback (issue 11)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.rules import PositionError, get_game, state_from_dict
from companion.rules.datafile import JsonTextError, nests_deeper_than, parse_json


def legal(path: Path, capsys: pytest.CaptureFixture[str], game: str = "senet-tait") -> tuple[int, str]:
    status = main(["rules", "legal", game, "--position", str(path), "--throw", "2"])
    out, err = capsys.readouterr()
    assert out == ""
    return status, err


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b'{"game": "senet-tait", "note": "caf\xe9"}', "not a UTF-8 text file"),
        (b'{"players": ' + b"9" * 5000 + b"}", "a number with too many digits"),
        (b'{"a": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "nested over 32 deep"),
        (b'{"players": NaN}', "NaN is not allowed"),
        (b'{"players": -Infinity}', "-Infinity is not allowed"),
        (b'{"players": 1e999}', "1e999 is too large"),
        (b"[" + b"0," * (1 << 20) + b"0]", "larger than 1 MiB"),
    ],
    ids=["latin-1", "long-number", "deep", "nan", "-inf", "overflow", "huge"],
)
def test_a_file_that_is_no_position_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes, reason: str
) -> None:
    """Was: UnicodeDecodeError, ValueError (4300 digits) and RecursionError tracebacks;
    NaN and 1e999 were read as numbers."""
    path = tmp_path / "pos.json"
    path.write_bytes(data)
    status, err = legal(path, capsys)
    assert status == 2
    assert err.startswith(f"companion: error: {path}: ") and reason in err
    assert err.count("\n") == 1
    assert path.read_bytes() == data


def test_a_byte_order_mark_is_allowed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    start = get_game("senet-tait").new_state().to_dict()
    path = tmp_path / "pos.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(start).encode())
    assert main(["rules", "legal", "senet-tait", "--position", str(path), "--throw", "2"]) == 0
    capsys.readouterr()


@pytest.mark.parametrize(
    ("game", "key", "value"),
    [
        ("senet-sticks", "colours", ["red", {}]),
        ("labyrinth", "pending", {"what": {}, "field": 1}),
    ],
)
def test_a_value_of_an_unexpected_shape_is_a_position_error(game: str, key: str, value: object) -> None:
    """Was: TypeError ('<' between str and dict, unhashable dict) from the game's own
    reader; the boundary in Game.state_from_dict names it as a position error."""
    data = get_game(game).new_state().to_dict()
    data[key] = value
    if game == "labyrinth":
        data["stage"] = "play"
    with pytest.raises(PositionError):
        state_from_dict(data)


def test_strings_do_not_count_towards_the_depth() -> None:
    text = json.dumps({"a": ["[" * 100, {"b": "{{{", "c": "\\\"[[["}]})
    assert not nests_deeper_than(text, 3) and nests_deeper_than(text, 2)
    assert parse_json(text) == json.loads(text)
    with pytest.raises(JsonTextError, match="nested over 3 deep"):
        parse_json("[[[[1]]]]", max_depth=3)


@pytest.mark.parametrize(
    ("game", "throw"),
    [("senet-tait", "\u00b2"), ("senet-sticks", "\u0663"), ("cretan-labyrinth", "\u00b2")],
)
def test_a_throw_in_other_digits_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, throw: str
) -> None:
    """Was: `--throw ²` raised a ValueError traceback (str.isdigit is true for '²',
    int() refuses it); '٣' was read as 3."""
    path = tmp_path / "start.json"
    path.write_text(json.dumps(get_game(game).new_state().to_dict()))
    status = main(["rules", "legal", game, "--position", str(path), "--throw", throw])
    err = capsys.readouterr().err
    assert status == 2 and err.startswith("companion: error: ") and err.count("\n") == 1
