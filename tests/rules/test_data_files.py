"""Board and deck files a player edits: whatever is in them, one line naming the file.

Issue 11: a file that is not a board (not UTF-8, a huge number, arrays nested
thousands deep, a device) must give a :class:`BoardDataError` naming the file, never
a traceback, and leave the file as it was.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.rules import BoardDataError, cretan_data, labyrinth_board, senet_sticks_board

READERS: dict[str, Callable[[str], Any]] = {
    "labyrinth board": labyrinth_board.load_board,
    "senet-sticks board": senet_sticks_board.load_board,
    "cretan board": cretan_data.load_board,
    "cretan decks": cretan_data.load_decks,
}

BAD_FILES: dict[str, tuple[bytes, str]] = {
    "latin-1": (b"# caf\xe9\n", "not a UTF-8 text file"),
    "long-number": (b"fields = " + b"9" * 5000 + b"\n", ":1: not valid TOML: a number with too many digits"),
    "deep-array": (b"x = " + b"[" * 5000 + b"]" * 5000 + b"\n", "nested too deeply"),
    "deep-table": (b"x = " + b"{a=" * 2000 + b"1" + b"}" * 2000 + b"\n", "nested too deeply"),
    "huge": (b"# " + b"x" * (1 << 20) + b"\n", "larger than 1 MiB"),
}


@pytest.mark.parametrize("reader", READERS, ids=str)
@pytest.mark.parametrize("case", BAD_FILES, ids=str)
def test_a_file_that_is_no_board_is_one_line_naming_it(tmp_path: Path, reader: str, case: str) -> None:
    """Was (long-number, deep-*): a ValueError or RecursionError traceback."""
    data, reason = BAD_FILES[case]
    path = tmp_path / "mine.toml"
    path.write_bytes(data)
    with pytest.raises(BoardDataError) as info:
        READERS[reader](str(path))
    message = str(info.value)
    assert message.startswith(str(path)) and reason in message and "\n" not in message
    assert path.read_bytes() == data


@pytest.mark.parametrize("reader", READERS, ids=str)
def test_a_device_is_not_read_forever(reader: str) -> None:
    with pytest.raises(BoardDataError, match=r"^/dev/zero: not a regular file \(a character device\)$"):
        READERS[reader]("/dev/zero")


def test_a_board_saved_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    """Windows Notepad saves UTF-8 with a BOM; the board is the same board."""
    text = Path(labyrinth_board.__file__).with_name("data").joinpath("labyrinth.toml").read_bytes()
    path = tmp_path / "mine.toml"
    path.write_bytes(b"\xef\xbb\xbf" + text)
    mine, builtin = labyrinth_board.load_board(str(path)), labyrinth_board.load_board()
    for field in dataclasses.fields(mine):
        if field.name != "path":
            assert getattr(mine, field.name) == getattr(builtin, field.name), field.name


@pytest.mark.parametrize("key", ["\u00b2", "\u0663", "\uff13"])
def test_a_field_number_in_other_digits_is_refused(tmp_path: Path, key: str) -> None:
    """Was: a jump from field "²" raised a ValueError traceback (str.isdigit is true for
    it, int() refuses it); Arabic-Indic "٣" was read as field 3."""
    path = tmp_path / "mine.toml"
    path.write_text(f'fields = 63\n[jumps]\n"{key}" = 5\n', encoding="utf-8")
    with pytest.raises(BoardDataError, match=rf"mine.toml:3: \[jumps\]: '{key}' is not a field number"):
        labyrinth_board.load_board(str(path))


def test_the_command_line_says_it_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "mine.toml"
    path.write_bytes(BAD_FILES["deep-array"][0])
    assert main(["rules", "new", "labyrinth", "--option", f"board={path}"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(path) in err and "nested too deeply" in err


@pytest.mark.parametrize("value", ["{}", "[]", '["nothing"]'])
def test_a_card_effect_of_another_type_is_named(tmp_path: Path, value: str) -> None:
    """Was: `effect = {}` raised TypeError (unhashable dict) from the deck reader; found by
    tests/test_bad_files_property.py."""
    text = Path(cretan_data.data_path("cretan_decks.toml")).read_text(encoding="utf-8")
    mine = text.replace('effect = "pegasus"', f"effect = {value}", 1)
    assert mine != text
    path = tmp_path / "decks.toml"
    path.write_text(mine, encoding="utf-8")
    with pytest.raises(BoardDataError, match=r"decks.toml:\d+: .*effect must be one of"):
        cretan_data.load_decks(str(path))


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e999", "63.0"])
def test_a_number_that_is_not_a_whole_number_is_refused(tmp_path: Path, value: str) -> None:
    """Board numbers are whole numbers: nan and inf never reach a range check (this
    held before issue 11; kept so)."""
    path = tmp_path / "mine.toml"
    path.write_text(f"fields = {value}\n", encoding="utf-8")
    with pytest.raises(BoardDataError, match=r"mine.toml:1: fields: expected a whole number, got "):
        labyrinth_board.load_board(str(path))
