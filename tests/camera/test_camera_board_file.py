"""A player's own board file through the camera room (issue 34, docs/camera.md): `companion
board print GAME --board FILE` prints the squares the file defines, a bad file is refused
naming its line and writes nothing, and the camera reads that board -- from ``--board``,
``--option board=``, the config's ``[games.GAME] board`` and the box's fake camera alike.

The board file: casting-stick Senet's built-in ``companion/rules/data/senet_sticks.toml``
with 40 squares in 8 rows of 5 and its Suns on 9, 14, 27 and 32."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.camera.board import layout_for, svg
from companion.camera.find import seen_board
from companion.cli import main
from companion.rules import get_game, play_out

BUILT_IN = Path(__file__).resolve().parents[2] / "companion" / "rules" / "data" / "senet_sticks.toml"


def _own_board(tmp_path: Path, *, rows: int = 8) -> Path:
    """The built-in board file turned into a 40-square board of ``rows`` rows of 5."""
    text = BUILT_IN.read_text(encoding="utf-8")
    for old, new in (("squares = 30", "squares = 40"), ("rows = 6", f"rows = {rows}"),
                     ("sun = [8, 13, 18, 23]", "sun = [9, 14, 27, 32]")):
        assert old in text
        text = text.replace(old, new, 1)
    path = tmp_path / "long-board.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _labels(page: str) -> list[str]:
    return re.findall(r"<text [^>]*>([^<]*)</text>", page)


def test_board_print_with_a_board_file_prints_its_squares(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    own = _own_board(tmp_path)
    out = tmp_path / "mine"
    assert main(["board", "print", "senet-sticks", "--board", str(own), "--out", str(out)]) == 0
    assert capsys.readouterr().out.split() == [str(out.with_suffix(".pdf")), str(out.with_suffix(".svg"))]
    page = out.with_suffix(".svg").read_text(encoding="utf-8")
    # the file's 40 squares in 8 rows of 5, its Suns; not the built-in 30 in 6 rows
    layout = layout_for(get_game("senet-sticks", board=str(own)).new_state())
    assert layout.grid == (8, 5)
    assert page == svg(layout)
    assert sorted(_labels(page), key=int) == [str(n) for n in range(1, 41)]
    assert [p.label for p in layout.squares if "sun" in p.marks] == ["9", "14", "27", "32"]
    built_in = svg(layout_for(get_game("senet-sticks").new_state()))
    assert sorted(_labels(built_in), key=int) == [str(n) for n in range(1, 31)]
    assert out.with_suffix(".pdf").read_bytes().startswith(b"%PDF")
    # --option board= prints the same page
    again = tmp_path / "again"
    assert main(["board", "print", "senet-sticks", "--option", f"board={own}", "--out", str(again)]) == 0
    assert again.with_suffix(".svg").read_text(encoding="utf-8") == page


def test_the_default_file_name_names_the_board_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    own = _own_board(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["board", "print", "senet-sticks", "--board", str(own), "--paper", "A3"]) == 0
    assert capsys.readouterr().out.split() == ["senet-sticks-long-board-A3.pdf",
                                               "senet-sticks-long-board-A3.svg"]


def test_a_bad_board_file_is_refused_naming_its_line_and_nothing_is_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = _own_board(tmp_path, rows=7)  # 7 x 5 is not 40
    line = 1 + bad.read_text(encoding="utf-8").splitlines().index("rows = 7")
    out = tmp_path / "bad"
    assert main(["board", "print", "senet-sticks", "--board", str(bad), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}:{line}: rows x columns must equal squares (7 x 5 != 40)" in err
    assert "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["long-board.toml"]


@pytest.mark.parametrize(("argv", "words"), [
    (["senet-tait", "--board", "BOARD"], "--board: senet-tait takes no board file (the games that "
     "do: labyrinth, senet-sticks, cretan-labyrinth)"),
    (["senet-sticks", "--board", "BOARD", "--option", "board=other.toml"],
     "--board BOARD and --option board=other.toml name different files: give one"),
    (["senet-sticks", "--board", "missing.toml"], "missing.toml: cannot read"),
])
def test_board_refusals(argv: list[str], words: str, tmp_path: Path,
                        capsys: pytest.CaptureFixture[str]) -> None:
    own = str(_own_board(tmp_path))
    argv = [own if a == "BOARD" else a for a in argv]
    out = tmp_path / "refused"
    assert main(["board", "print", *argv, "--out", str(out)]) == 2
    assert words.replace("BOARD", own) in capsys.readouterr().err
    assert not out.with_suffix(".pdf").exists() and not out.with_suffix(".svg").exists()


def _read_rows(text: str) -> list[str]:
    return [line for line in text.splitlines() if re.fullmatch(r"[.RB](?: [.RB])*", line)]


@pytest.mark.parametrize("how", ["--board", "--option", "config"])
def test_a_photo_of_the_printed_board_file_reads_right(how: str, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """`camera check --fake` photographs the board file's printed page (the fake camera's
    `photo`) and reads it with the same geometry: every square as placed, the 8 rows of 5
    -- the board file given by --board, by --option board=, or by the config file (a
    path relative to it), as the box is given it."""
    own = _own_board(tmp_path)
    flags = {"--board": ["--board", str(own)], "--option": ["--option", f"board={own}"]}.get(how)
    if flags is None:
        config = tmp_path / "config.toml"
        config.write_text(f'[games.senet-sticks]\nboard = "{own.name}"\n', encoding="utf-8")
        flags = ["--config", str(config)]
    out = tmp_path / "check.png"
    assert main(["camera", "check", "--fake", "3", "senet-sticks", *flags, "--out", str(out),
                 "--dir", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert "squares read: 40, differing from the scene: none" in text
    rows = _read_rows(text)
    assert len(rows) == 8 and all(len(r.split()) == 5 for r in rows)


def test_the_box_reads_the_board_of_its_board_file(tmp_path: Path) -> None:
    """The box's camera takes the board's geometry from the game in play (the state its
    config's board file made): a fake photo of a position on that board reads right."""
    from companion.app.camera import FakeTableCamera

    state = get_game("senet-sticks", board=str(_own_board(tmp_path))).new_state()
    play_out(state, lambda n: 0, until=lambda s: len(s.history) >= 12)
    expected = dict(seen_board(state))
    assert any(int(s) > 30 for s in expected)  # squares the built-in board has not
    read = FakeTableCamera(seed=5).check(state, expected)
    assert len(read) == 40
    assert {s: p for s, p in read.items() if p is not None} == expected
