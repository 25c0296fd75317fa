"""Casting-stick Senet replayed: many seeded random games of every option, each step's
position, legal moves and events folded into one digest per option set, compared with
the digest the engine gave before its legal-move search was made faster (issue 35,
branch ``speed7``: taken on main at 3b23349). A change of speed must leave every
position, every legal move and its order, every event and every saved position as it
was; a change of rules shows up here as a new digest (then say why, and take it anew
with ``PRINT_DIGESTS=1``).

Per step the digest takes: the position key, the saved position (``to_dict``), the
legal moves in order (their fields), the usable values and faces, each legal move's
``path_of``, both players' ``progress``, then the action and its events. Alongside,
asserted at every step: the position read back from its saved form has the same key
and legal moves, and a search copy played along (``play``) has the same key.
"""

from __future__ import annotations

import hashlib
import json
import os
import random

import pytest

from companion.rules import Move, Phase, get_game, random_action
from companion.rules.senet_sticks import SenetSticksState, legal
from companion.rules.senet_sticks_board import DEFAULT_BOARD

MANY_STICKS = """
[sticks]
solid = [1, 4]
extra_solid = [2, 5]
[[sticks.coloured]]
faces = [{ value = 2, colour = "red" }, { value = 3, colour = "blue" }]
[[sticks.coloured]]
faces = [{ value = 3, colour = "red" }, { value = 1, colour = "blue" }]
[[sticks.coloured]]
faces = [{ value = 6, colour = "red" }, { value = 2, colour = "blue" }]
"""
"""Three dual-coloured sticks and two solid ones: up to five values a turn, so longer
combinations than the default board's three values."""

# option set -> (games, digest taken on main at 3b23349)
CASES: dict[str, tuple[int, str]] = {
    "default": (16,
        "dbfa3806d0c805f2d056bba3f1df045fc6a5881abd8a679eb9e7cd888efe06f9"),
    "extra-stick": (12,
        "13345b2833685771fc70020e4c55b11a22c7de57a14d61722d4f6cfe0f235936"),
    "quick": (30,
        "b03f429e431f91e644695fce8c2dd97604b1182ffaef02264b903e6d774a0d89"),
    "colour-toss": (10,
        "9e16ed1a0a0a84e995fdb77bc55482cbdae9ab76550ef806b2293ea9edbc8606"),
    "no-combination-captures": (10,
        "81de95f791d1f5bb4864d1943fbe785ac8c08086785cefe0ae2fac69025d6f64"),
    "many-sticks": (3,
        "b5e79c626c19cb6446b796fd1d4af2325bcaf1db1d50a510c31a52f5b70af4fc"),
    "many-sticks-no-captures": (3,
        "1d6c579d18066ad734b098920e50d519b1efeb61a69ef14a76561997e97af619"),
}


def options(case: str, board: str) -> dict[str, object]:
    table: dict[str, dict[str, object]] = {
        "default": {},
        "extra-stick": {"extra_stick": True},
        "quick": {"mode": "quick"},
        "colour-toss": {"colour_toss": True, "extra_stick": True},
        "no-combination-captures": {"combination_captures": False},
        "many-sticks": {"board": board, "extra_stick": True},
        "many-sticks-no-captures": {"board": board, "extra_stick": True, "combination_captures": False},
    }
    return table[case]


@pytest.fixture(scope="module")
def many_sticks_board(tmp_path_factory: pytest.TempPathFactory) -> str:
    text = DEFAULT_BOARD.read_text(encoding="utf-8")
    text = text[: text.index("[sticks]")] + MANY_STICKS
    path = tmp_path_factory.mktemp("board") / "many.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def fields(move: Move) -> str:
    return repr((move.kind, move.src, move.dst, move.values, move.label))


def replay(case: str, board: str) -> tuple[str, int]:
    """The digest of the case's games and the number of actions played."""
    games, _ = CASES[case]
    game = get_game("senet-sticks", **options(case, board))
    digest = hashlib.sha256()
    actions = 0

    def add(*parts: object) -> None:
        for part in parts:
            digest.update(str(part).encode())
            digest.update(b"\x00")

    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_state()
        assert isinstance(state, SenetSticksState)
        search = state.search_copy()
        while True:
            saved = state.to_dict()
            legal = state.legal_moves()
            # (the board file's path, which changes from run to run, left out)
            add(state.position_key(), json.dumps(saved, sort_keys=True).replace(board, "BOARD"),
                [fields(m) for m in legal],
                state.usable_values(), state.usable_faces(),
                [state.path_of(m) for m in legal], state.progress(0), state.progress(1))
            read = game.state_from_dict(saved)
            assert read.position_key() == state.position_key()
            assert read.legal_moves() == legal
            assert search.position_key() == state.position_key()
            if state.phase is Phase.OVER:
                outcome = state.outcome
                assert outcome is not None
                add("over", outcome.winners, outcome.reason)
                break
            action = random_action(state, rng.randrange)
            events = state.apply(action)
            search.play(action)
            actions += 1
            add(action, [json.dumps(e.to_json(), sort_keys=True) for e in events])
    return digest.hexdigest(), actions


@pytest.mark.parametrize("case", list(CASES))
def test_replayed_games_are_as_before(case: str, many_sticks_board: str) -> None:
    """Every step of the case's seeded random games is as the engine played it before."""
    digest, actions = replay(case, many_sticks_board)
    if os.environ.get("PRINT_DIGESTS"):
        print(f"\n{case}: {digest} ({actions} actions)")
    assert actions > 300
    assert digest == CASES[case][1]


def test_paths_found_anew_beyond_the_bound_play_the_same(
    many_sticks_board: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With nothing kept (a board file whose paths outgrow ``legal.STEPS_KEPT`` and
    ``legal.TABLES_KEPT``), each path is found anew and the games are the same."""
    monkeypatch.setattr(legal, "STEPS_KEPT", 0)
    monkeypatch.setattr(legal, "TABLES_KEPT", 0)
    for case in ("default", "many-sticks"):
        assert replay(case, many_sticks_board)[0] == CASES[case][1]
