"""The rules command line, as a player uses it to settle a dispute."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_games_lists_one_id_per_line_with_title(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "games")
    assert status == 0
    assert "senet-tait\tSenet (Tait's rules)" in out.splitlines()


def test_new_prints_the_starting_position(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "rules", "new", "senet-tait", "--option", "sticks=5")
    position = json.loads(out)
    assert status == 0
    assert position["to_act"] == "black"
    assert position["options"]["sticks"] == 5
    assert position["pieces"]["white"] == ["plinth"] * 5


def test_legal_answers_for_a_hand_written_position(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "board.json"
    path.write_text(
        json.dumps(
            {
                "game": "senet-tait",
                "version": 1,
                "to_act": "white",
                "pieces": {
                    "black": [11, 15, "plinth", "plinth", "off"],
                    "white": [8, 12, 25, "plinth", "plinth"],
                },
            }
        )
    )
    status, out, _ = run(
        capsys, "rules", "legal", "senet-tait", "--position", str(path), "--throw", "3"
    )
    answer = json.loads(out)
    assert status == 0
    assert answer["to_act"] == "White"
    assert answer["moves"] == [
        {"move": "8-11", "events": ["White moves 8 to 11", "Black's piece on 11 is bumped back to its plinth"]},
        {"move": "25-28", "events": ["White moves 25 to 28"]},
    ]  # 12-15 is barred: Black is safe in the House of Rebirth


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not JSON: Expecting property name enclosed in double quotes at line 1 column 2"),
        ('{"game": "senet-tait", "version": 1, "to_act": "red", "pieces": {}}', "to_act: expected one of Black, White, got 'red'"),
        ('{"game": "senet-tait", "version": 1, "to_act": "black"}', "pieces: missing"),
    ],
)
def test_malformed_position_exits_2_with_the_problem_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    status, out, err = run(capsys, "rules", "legal", "senet-tait", "--position", str(path), "--throw", "2")
    assert status == 2
    assert out == ""
    assert err == f"companion: error: {path}: {message}\n"


def test_missing_throw_is_explained(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "start.json"
    _, out, _ = run(capsys, "rules", "new", "senet-tait")
    path.write_text(out)
    status, _, err = run(capsys, "rules", "legal", "senet-tait", "--position", str(path))
    assert status == 2
    assert "waits for a throw of 4 casting sticks: give --throw" in err


def test_play_prints_a_whole_game_ending_with_the_winner(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "rules", "play", "senet-tait", "--seed", "7")
    lines = out.splitlines()
    assert status == 0
    assert lines[0].split()[:3] == ["1", "Black", "throw"]
    assert lines[-1] == "winner: White (all five pieces borne off)"
    again = run(capsys, "rules", "play", "senet-tait", "--seed", "7")[1]
    assert again == out  # same seed, same game


def test_console_script_reports_errors_without_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2")
    result = subprocess.run(
        [sys.executable, "-m", "companion", "rules", "legal", "senet-tait", "--position", str(bad), "--throw", "4"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("companion: error: ")


# ------------------------------------------------------------------ the computer player


def write_position(tmp_path: Path, position: dict[str, object]) -> str:
    path = tmp_path / "board.json"
    path.write_text(json.dumps(position))
    return str(path)


SENET = {
    "game": "senet-tait", "version": 1, "to_act": "white",
    "pieces": {"black": [11, 15, "plinth", "plinth", "off"], "white": [8, 12, 25, "plinth", "plinth"]},
}


def test_hint_prints_the_best_move_its_value_and_every_move_ranked(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write_position(tmp_path, SENET)
    status, out, err = run(capsys, "rules", "hint", "senet-tait", "--position", path, "--throw", "3")
    answer = json.loads(out)
    assert status == 0 and err == ""
    assert answer["to_act"] == "White" and answer["level"] == "normal"
    # bumping Black's piece on 11 back to its plinth beats 25-28
    assert answer["best"] == "8-11"
    assert [r["move"] for r in answer["ranking"]] == ["8-11", "25-28"]
    assert answer["value"] == answer["ranking"][0]["value"]
    assert 0 <= answer["ranking"][1]["value"] < answer["value"] <= 1
    assert 0 <= answer["estimate"] <= 1


def test_hint_is_the_same_twice(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write_position(tmp_path, SENET)
    first = run(capsys, "rules", "hint", "senet-tait", "--position", path, "--throw", "2", "--level", "easy")
    again = run(capsys, "rules", "hint", "senet-tait", "--position", path, "--throw", "2", "--level", "easy")
    assert first == again and first[0] == 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ((), "the position waits for a throw of 4 casting sticks: give --throw"),
        (("--throw", "3", "--level", "hard"), "unknown level 'hard'; levels: easy, normal, strong"),
        (("--throw", "5"), "4 sticks cannot score 5; possible scores: 1, 2, 3, 4, 6"),
    ],
)
def test_hint_bad_input_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: tuple[str, ...], message: str
) -> None:
    path = write_position(tmp_path, SENET)
    status, out, err = run(capsys, "rules", "hint", "senet-tait", "--position", path, *argv)
    assert status == 2 and out == ""
    assert err == f"companion: error: {message}\n"


def test_hint_of_a_finished_game_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    over = dict(SENET, pieces={"black": ["off"] * 5, "white": [8, 12, 25, "plinth", "plinth"]})
    status, out, err = run(capsys, "rules", "hint", "senet-tait", "--position", write_position(tmp_path, over))
    assert status == 2 and out == "" and err == "companion: error: the game is over: there is no move to hint\n"


def test_match_prints_win_rates_with_an_interval(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(
        capsys, "rules", "match", "senet-sticks", "--players", "greedy,random", "--games", "10", "--seed", "3"
    )
    lines = out.splitlines()
    assert status == 0 and err == ""
    assert lines[0] == "senet-sticks: 10 games of 2 players, seats rotating, seed 3"
    assert lines[1].startswith("1. greedy  won ") and "95% interval [" in lines[1]
    assert lines[2].startswith("2. random  won ")
    again = run(
        capsys, "rules", "match", "senet-sticks", "--players", "greedy,random", "--games", "10", "--seed", "3"
    )
    assert again[1] == out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("senet-tait", "--players", "strong,expert"),
         "unknown player 'expert'; players: easy, normal, strong, random, greedy"),
        (("senet-tait", "--players", "strong,random,random"), "senet-tait is played by 2 players, not 3"),
        (("senet-tait", "--players", "strong,random", "--games", "0"), "--games must be at least 1, got 0"),
        (("chess", "--players", "strong,random"), "unknown game 'chess'; games: senet-tait, labyrinth, senet-sticks, cretan-labyrinth"),
    ],
)
def test_match_bad_input_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    status, out, err = run(capsys, "rules", "match", *argv)
    assert status == 2 and out == ""
    assert err == f"companion: error: {message}\n"
