"""`companion journal list / show / export`: saved games read for people, from real
journals written by the controller and the demo, never changing a file."""

from __future__ import annotations

import json
import shutil
import zlib
from pathlib import Path

import pytest
from controller_tools import BACK, DOWN, HOLD_BACK, OK, SHAKE, controller, send

from companion.app.screens import PAUSE_ITEMS
from companion.cli import main
from companion.journal import record
from companion.journal.store import encode
from companion.sim.demo import play

GOLDEN = Path(__file__).parent / "golden" / "journal-show-senet.txt"


def short_game(directory: Path) -> Path:
    """A short Senet game through the controller: a move taken back, then End game."""
    ctl = controller(directory, ["4", "2", "3", "4", "2"])
    send(ctl, OK, *[DOWN] * ctl.games.index("senet-tait"), OK, OK)  # splash, menu, setup
    send(ctl, SHAKE, OK)      # Black throws 4, enters on 4
    send(ctl, SHAKE, OK)      # White throws 2: lost
    send(ctl, SHAKE, OK)      # Black throws 3, 4-7
    send(ctl, HOLD_BACK, OK)  # 4-7 taken back
    send(ctl, OK)             # 4-7 again
    send(ctl, SHAKE, OK)      # White throws 4, enters on 4
    send(ctl, SHAKE)          # Black throws 2
    send(ctl, BACK, *[DOWN] * PAUSE_ITEMS.index("End game"), OK, DOWN, OK)  # confirmed
    (path,) = directory.glob("*.journal")
    return path


def unfinished_game(directory: Path) -> Path:
    """Black enters on 4, White's 2 is lost; the companion is switched off."""
    ctl = controller(directory, ["4", "2"])
    send(ctl, OK, *[DOWN] * ctl.games.index("senet-tait"), OK, OK)
    send(ctl, SHAKE, OK, SHAKE, OK)
    assert ctl.journal is not None
    path = ctl.journal.path
    ctl.close()
    return path


def snapshot(directory: Path) -> dict[str, tuple[bytes, int]]:
    """Every file in ``directory``: its bytes and its mtime in nanoseconds."""
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(directory.iterdir())}


def journal(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``companion journal ARGV``: (exit status, stdout, stderr)."""
    status = main(["journal", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def without_time(text: str, path: Path) -> str:
    """``text`` with the journal's name and start time (they change every run) as
    placeholders."""
    rec = record.read(path)
    return text.replace(path.name, "<file>").replace(record.when_text(rec), "<started>")


def test_show_tells_the_whole_short_game_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = short_game(tmp_path)
    status, out, err = journal(capsys, "show", str(path))
    assert status == 0 and err == ""
    assert without_time(out, path) == GOLDEN.read_text(encoding="utf-8")


def test_list_gives_each_game_its_state_and_changes_no_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    won = play(tmp_path / "won", seed=3).journal  # a whole demo game through the pins
    assert won is not None
    games = tmp_path / "games"
    games.mkdir()
    shutil.copy(won, games / "20250101-100000-senet-tait.journal")
    abandoned = short_game(tmp_path / "short")
    shutil.copy(abandoned, games / "20250102-100000-senet-tait.journal")
    unfinished = unfinished_game(tmp_path / "open")
    shutil.copy(unfinished, games / "20250103-100000-senet-tait.journal")
    damaged = bytearray(won.read_bytes())
    cut = damaged.index(b"\n", len(damaged) // 2) + 5  # inside a line in the middle
    damaged[cut] ^= 0x01
    (games / "20250104-100000-senet-tait.journal").write_bytes(damaged)
    (games / "20250105-100000-senet-tait.journal").write_bytes(b"hello\n")
    no_end = won.read_bytes().splitlines(keepends=True)[:-1]  # a power cut took the end record
    (games / "20250106-100000-senet-tait.journal").write_bytes(b"".join(no_end))
    (games / "20250105-100000-senet-tait.journal.damaged").write_bytes(b"an old copy\n")
    before = snapshot(games)

    status, out, err = journal(capsys, "list", "--dir", str(games))
    assert status == 0 and err == ""
    head, *rows, blank, aside, copy = out.splitlines()
    assert head.split() == ["#", "started", "game", "players", "state"]
    states = [row[head.index("state"):] for row in rows]
    line = damaged[:cut].count(b"\n") + 1
    assert states[1].startswith("unusable: ") and "line 1" in states[1]
    assert [states[0], *states[2:]] == [
        "won by Black",  # the rules say so, though the end record was lost
        f"damaged: line {line}: checksum mismatch", "unfinished", "abandoned", "won by Black",
    ]
    assert [row.split()[0] for row in rows] == ["1", "2", "3", "4", "5", "6"]
    assert "Senet (Tait's rules)" in rows[2]
    assert blank == "" and "set aside" in aside and copy.endswith(".journal.damaged")

    for which in ("1", "2", "3", "4", "5", "6"):
        journal(capsys, "show", which, "--dir", str(games))
        journal(capsys, "export", which, "--dir", str(games))
    assert snapshot(games) == before  # not a byte, not a time stamp, not a new file


def test_a_damaged_journal_shows_what_was_readable_and_where_the_damage_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = short_game(tmp_path)
    lines = path.read_bytes().splitlines(keepends=True)
    lines[6] = lines[6].replace(b"4-7", b"4-8")  # line 7 (Black's first 4-7) fails its checksum
    path.write_bytes(b"".join(lines))
    status, out, _ = journal(capsys, "list", "--dir", str(tmp_path))
    assert status == 0 and "damaged: line 7: checksum mismatch" in out
    status, out, err = journal(capsys, "show", "1", "--dir", str(tmp_path))
    assert status == 0 and err == ""
    assert "  state    damaged at line 7; what was read: unfinished: Black to move" in out
    assert "     5  throw 3 (LLLD)" in out and "     6  4-" not in out.split("!!")[0]
    assert "!! Damaged at line 7: checksum mismatch." in out
    after = out.split("After the damage (read, but not checked against the rules):\n")[1]
    # the undo (line 8) is not an action; line 9 on are readable
    assert after.splitlines()[0].split() == ["L9", "4-7", "by", "Black"]


def test_a_line_cut_short_by_a_power_cut(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = unfinished_game(tmp_path)
    data = path.read_bytes()
    path.write_bytes(data[:-9])
    status, out, _ = journal(capsys, "show", str(path))
    assert status == 0
    assert "!! Damaged at line 5: the line was cut short" in " ".join(out.split())
    assert "     3  throw 2 (LLDD)" in out and "     4  pass" not in out


def test_export_json_has_every_step_and_text_is_what_show_prints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = short_game(tmp_path)
    status, out, _ = journal(capsys, "export", str(path), "--format", "json")
    assert status == 0
    data = json.loads(out)
    assert data["format"] == "board-companion/record" and data["version"] == 1
    assert data["game"] == "senet-tait" and data["players"] == ["Black", "White"]
    assert data["state"] == "abandoned" and data["damage"] is None and data["actions"] == 9
    steps = [s for t in data["turns"] for s in t["steps"]]
    assert [(s["n"], s["kind"], s["text"], s["taken_back"]) for s in steps[4:8]] == [
        (5, "throw", "throw 3 (LLLD)", False),
        (6, "move", "4-7", True),
        (None, "undo", "takes back action 6 (Black: 4-7)", False),
        (6, "move", "4-7", False),
    ]
    assert steps[0]["by"] == "Black" and steps[0]["events"] == ["Black throws 4"]
    _, shown, _ = journal(capsys, "show", str(path))
    target = tmp_path / "game.txt"
    status, out, _ = journal(capsys, "export", str(path), "--format", "text", "-o", str(target))
    assert status == 0 and out == "" and target.read_text(encoding="utf-8") == shown


def test_export_never_writes_over_the_journal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = unfinished_game(tmp_path)
    before = snapshot(tmp_path)
    status, _, err = journal(capsys, "export", str(path), "-o", str(path))
    assert status == 2 and "that is the journal itself" in err
    assert snapshot(tmp_path) == before


def test_the_directory_comes_from_dir_then_the_config_file_then_the_state_dir(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    games = tmp_path / "games"
    unfinished_game(games)
    conf = tmp_path / "config.toml"
    conf.write_text(f'[journal]\ndir = "{games}"\n', encoding="utf-8")
    _, by_config, _ = journal(capsys, "list", "--config", str(conf))
    _, by_flag, _ = journal(capsys, "list", "--dir", str(games))
    monkeypatch.setenv("STATE_DIRECTORY", str(games))
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    monkeypatch.setattr("companion.app.config.DEFAULT_FILE", tmp_path / "none.toml")
    _, by_state, _ = journal(capsys, "list")
    assert "unfinished" in by_flag and by_flag == by_config == by_state
    empty = tmp_path / "nothing"
    status, out, _ = journal(capsys, "list", "--dir", str(empty))
    assert status == 0 and out == f"no saved games in {empty}\n" and not empty.exists()


@pytest.mark.parametrize(("argv", "message"), [
    (["show", "7"], "no journal 7 in "),
    (["show", "0"], "no journal 0 in "),
    (["export", "{missing}"], "cannot read: No such file or directory"),
    (["show", "{notjournal}"], "not a board-companion/journal version 1 file"),
])
def test_bad_input_is_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    unfinished_game(tmp_path)
    (tmp_path / "notes.txt").write_bytes(encode({"hello": 1}))
    names = {"missing": str(tmp_path / "gone.journal"), "notjournal": str(tmp_path / "notes.txt")}
    argv = [a.format(**names) for a in argv]
    status, out, err = journal(capsys, *argv, "--dir", str(tmp_path))
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_turns_group_a_players_actions_and_keep_the_undo_in_its_turn() -> None:
    steps = [record.Step(2, 1, "Black", "throw", "throw 4"),
             record.Step(3, 2, "Black", "move", "enter 4"),
             record.Step(4, None, "", "undo", "takes back action 2"),
             record.Step(5, 2, "Black", "move", "enter 4"),
             record.Step(6, 3, "White", "throw", "throw 2")]
    turns = record.turns(steps)
    assert [(t.number, t.by, len(t.steps)) for t in turns] == [(1, "Black", 4), (2, "White", 1)]


def test_files_the_loader_cannot_take_are_listed_with_their_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    head = unfinished_game(tmp_path / "good").read_bytes().split(b"\n", 1)[0] + b"\n"
    deep = b'{"x":' * 50_000 + b"1" + b"}" * 50_000
    files = {
        "empty": b"",
        "cut-first-line": head[:20],
        "not-json": b"00000000 hello\n",
        "deep-first-line": b"%08x %s\n" % (zlib.crc32(b"[" * 50_000), b"[" * 50_000),
        "deep-second-line": head + b"%08x %s\n" % (zlib.crc32(deep), deep),
        "unknown-game": encode({"format": "board-companion/journal", "version": 1,
                                "game": "chess", "options": {}, "players": 2}),
    }
    bad = tmp_path / "bad"
    bad.mkdir()
    for i, (name, data) in enumerate(files.items()):
        (bad / f"2025010{i}-000000-{name}.journal").write_bytes(data)
    before = snapshot(bad)
    status, out, err = journal(capsys, "list", "--dir", str(bad))
    assert status == 0 and err == ""
    rows = out.splitlines()[1:]
    assert len(rows) == len(files)
    state = dict(zip(reversed(list(files)), rows, strict=True))  # newest first
    # the loader's own reason (it bounds a line's length and depth since issue 11)
    assert state["deep-second-line"].endswith(
        "damaged: line 2: a line of 300010 bytes (at most 65536 are written)"
    )
    for name in set(files) - {"deep-second-line"}:
        assert "unusable: " in state[name], name
    assert "chess" in state["unknown-game"]
    assert snapshot(bad) == before


@pytest.mark.parametrize("command", ["show", "export"])
def test_the_help_says_how_undone_actions_are_shown(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main(["journal", command, "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert "Actions taken back with undo are shown where they were made, marked '(taken back)'" in said


def test_show_list_and_export_say_which_seat_the_computer_played(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Was: a game against the computer read as one between two people in `journal
    show`, `journal list` and the JSON export (issue 23, item 7)."""
    from companion.journal.store import JournalStore
    from companion.rules import get_game

    game = get_game("senet-tait")
    store = JournalStore(tmp_path)
    store.begin(game, 2, seats={1: "normal"}).close()
    store.begin(game, 2).close()
    _, shown, _ = journal(capsys, "show", "2", "--dir", str(tmp_path))
    assert "  players  Black, White (computer, normal)" in shown.splitlines()
    _, out, _ = journal(capsys, "export", "2", "--dir", str(tmp_path))
    data = json.loads(out)
    assert data["players"] == ["Black", "White"] and data["computer"] == {"White": "normal"}
    _, listed, _ = journal(capsys, "list", "--dir", str(tmp_path))
    rows = listed.splitlines()
    assert "Black, White (computer, normal)" in rows[2] and "computer" not in rows[1]
    _, out, _ = journal(capsys, "export", "1", "--dir", str(tmp_path))
    assert json.loads(out)["computer"] == {}
