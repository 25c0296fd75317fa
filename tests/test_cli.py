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
        {"move": "8-11", "events": ["White moves 8 to 11", "Black's piece on 11 is bumped back to its plinth"],
         "event_data": [{"kind": "moved", "player": 1, "src": 8, "dst": 11},
                        {"kind": "bumped", "player": 0, "src": 11}]},
        {"move": "25-28", "events": ["White moves 25 to 28"],
         "event_data": [{"kind": "moved", "player": 1, "src": 25, "dst": 28}]},
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
    assert [r["moves"] for r in answer["ranking"]] == [["8-11"], ["25-28"]]
    assert [r["rank"] for r in answer["ranking"]] == [1, 2] and answer["tie"] == []
    assert answer["summary"].startswith("White's best move is 8-11, a ")
    assert answer["value"] == answer["ranking"][0]["value"]
    assert 0 <= answer["ranking"][1]["value"] < answer["value"] <= 1
    assert 0 <= answer["estimate"] <= 1
    # issue 32: one search at one depth, and the computer's move first
    assert {r["depth"] for r in answer["ranking"]} == {answer["depth"]}
    assert answer["summary"].endswith("The computer at normal would play 8-11.")


ENDING = {
    "game": "senet-tait", "version": 1, "to_act": "white",
    "pieces": {"black": [22, 28, "off", "off", "off"], "white": [24, 26, "off", "off", "off"]},
}


def test_hint_in_a_solved_ending_gives_the_exact_chance_not_a_depth(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Two pieces a side (in companion.ai.race's table): the summary says the chance is
    exact instead of "looking N moves ahead", and the chance before moving is the
    table's (the best move's), not the learned estimate from the pieces alone."""
    from companion.ai import race
    from companion.rules import state_from_dict

    path = write_position(tmp_path, ENDING)
    status, out, err = run(capsys, "rules", "hint", "senet-tait", "--position", path, "--throw", "3")
    answer = json.loads(out)
    assert status == 0 and err == ""
    assert answer["exact"] is True
    assert "exact: this ending is solved to the end" in answer["summary"]
    assert "looking" not in answer["summary"]
    state = state_from_dict(dict(ENDING, throw=3))
    table = race.table_for(state.game)
    assert table is not None
    values = table.values(state)
    assert values is not None
    assert answer["estimate"] == round(values[1], 4) == answer["value"]
    assert answer["best"] == table.best_move(state).notation
    far = json.loads(run(capsys, "rules", "hint", "senet-tait", "--position",
                         write_position(tmp_path, SENET), "--throw", "3")[1])
    assert far["exact"] is False and "looking" in far["summary"]


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


def _sticks_with_extra_stick_to_move() -> tuple[dict[str, object], str]:
    """A position of casting-stick Senet with the extra stick (seeded random play) and
    the throw that allows the most moves there: many the same squares in another order."""
    import random

    from companion.rules import Phase, get_game, play_out

    game = get_game("senet-sticks", **{"extra-stick": "yes"})
    state, rng = game.new_state(), random.Random(7)
    steps = rng.randrange(10, 60)
    play_out(state, rng.randrange, until=lambda s: len(s.history) >= steps)
    assert state.phase is Phase.THROW
    most, throw = 0, ""
    for option, _ in state.throw_outcomes():
        after = state.copy()
        after.apply(option)
        if after.phase is Phase.MOVE and len(after.legal_moves()) > most:
            most, throw = len(after.legal_moves()), str(option)
    return state.to_dict(), throw


def test_hint_merges_moves_with_the_same_result_and_explains_its_fields(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Was: an extra-stick throw ranked 119 entries, many of them the same squares in
    another order, with unexplained fields (issue 23, item 9)."""
    from companion.rules import state_from_dict

    position, throw = _sticks_with_extra_stick_to_move()
    path = write_position(tmp_path, position)
    status, out, _ = run(capsys, "rules", "hint", "senet-sticks", "--position", path, "--throw", throw)
    answer = json.loads(out)
    assert status == 0
    state = state_from_dict(position)
    state.apply(state.throw_spec.parse(throw))  # type: ignore[union-attr]
    keys = []
    for result in answer["ranking"]:
        reached = set()
        for notation in result["moves"]:
            after = state.copy()
            after.apply(state.parse_move(notation))
            reached.add(after.position_key())
        assert len(reached) == 1, result  # one result: one position
        keys.append(reached.pop())
    assert len(set(keys)) == len(keys) == answer["results"]  # each result once
    moves = [m for r in answer["ranking"] for m in r["moves"]]
    assert sorted(moves) == sorted(m.notation for m in state.legal_moves())
    assert answer["legal_moves"] == len(moves) > answer["results"]  # some were merged
    assert answer["depth"] == answer["ranking"][0]["depth"]
    assert answer["value"] == answer["ranking"][0]["value"]
    fields = set(answer) - {"game", "throw", "throw_events", "to_act", "level", "summary", "about"}
    assert fields == set(answer["about"])  # every field said in words
    assert "Red" in answer["about"]["estimate"] or "Blue" in answer["about"]["estimate"]


def test_hint_says_a_tie_and_the_depth_of_its_values() -> None:
    """Was: all 8 Cretan moves at 0.3354 and the first called "best"; `depth` the
    deepest finished iteration while the entries showed one more."""
    from companion.ai.search import Decision, RankedMove
    from companion.cli import hint_answer
    from companion.rules import state_from_dict

    state = state_from_dict(SENET)
    state.apply(state.throw_spec.parse("3"))  # type: ignore[union-attr]
    moves = state.legal_moves()
    assert len(moves) >= 2
    ranked = tuple(RankedMove(m, 0.33541 if i < 2 else 0.2, 2) for i, m in enumerate(moves))
    answer = hint_answer(state, "normal", 0.5, Decision(moves[0], 0.33541, ranked, 1, 10, 0.0))
    assert answer["tie"] == [moves[0].notation, moves[1].notation]
    assert [r["rank"] for r in answer["ranking"]][:2] == [1, 1]
    assert answer["summary"].startswith(f"A tie: 2 moves are as good for {state.player_to_act_name} ")
    assert answer["depth"] == 2 == answer["ranking"][0]["depth"]
    alone = hint_answer(state, "normal", 0.5, Decision(moves[0], 0.4, (RankedMove(moves[0], 0.4, 3),
                        *ranked[1:]), 2, 10, 0.0))
    assert alone["tie"] == [] and alone["summary"].startswith(
        f"{state.player_to_act_name}'s best move is {moves[0].notation}, a 40.0% chance")


def test_a_command_line_naming_a_command_gets_that_command_s_parser_alone() -> None:
    """`companion run` builds the parser of `run` only (the box's start: the whole parser
    cost about as much CPU as the first frame); what it parses is the same."""
    import argparse

    from companion.cli import COMMANDS, build_parser

    whole = build_parser()
    sub = next(a for a in whole._actions if isinstance(a, argparse._SubParsersAction))
    assert tuple(sub.choices) == COMMANDS
    lines = [
        ["run", "--journal.dir", "/tmp/x", "--print-config"], ["demo", "--game", "labyrinth"],
        ["doctor", "--config", "c.toml"], ["games"], ["rules", "new", "senet-tait"],
        ["journal", "show", "1", "--dir", "d"], ["web", "--port", "9"], ["publish"],
        ["club", "--broker", "example.org"],
    ]
    for words in lines:
        assert words[0] in COMMANDS
        alone = build_parser(words[0])
        one = alone.parse_args(words)
        assert vars(one) == vars(whole.parse_args(words)), words
        only = next(a for a in alone._actions if isinstance(a, argparse._SubParsersAction))
        assert set(only.choices) == {words[0]}


def test_run_holds_the_garbage_collector_only_until_it_returns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`companion run` holds the collector during start-up (the service lets it run
    after the first frame); a run that ends before that (here --print-config) lets it
    run again, so an in-process caller is not left without one."""
    import gc

    from companion.cli import main

    assert gc.isenabled()
    assert main(["run", "--print-config", "--journal.dir", str(tmp_path)]) == 0
    assert "[journal]" in capsys.readouterr().out
    assert gc.isenabled()


COMMAND_LINES = [
    [command] for command in ("games", "rules", "run", "demo", "doctor", "journal", "club",
                              "web", "publish")
] + [["rules", action] for action in ("new", "legal", "hint", "match", "play")] + [
    ["journal", action] for action in ("list", "show", "export", "review")]


@pytest.mark.parametrize("words", COMMAND_LINES, ids=" ".join)
def test_every_command_s_help_says_what_it_does(
    words: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 35: `games`, `rules`, `run`, `demo` and `doctor` printed their usage and
    options but no description. Each --help now has one: the command's summary from
    `companion --help` as a sentence, above the options."""
    with pytest.raises(SystemExit) as done:
        main([*words, "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    description = out.split("\n\n")[1]
    assert not description.startswith(("options:", "positional arguments:")), out
    assert description[0].isupper() and description.rstrip().endswith("."), description
    assert "%%" not in description
