"""What casting-stick Senet's presenter shows (``status_lines``, ``choice_steps``), and
random games in both modes and with the extra stick keeping every invariant of
``test_properties`` plus the step contract: distinct legal moves are chosen by distinct
steps, each short enough for one OLED row."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import PASS, Move, Phase, State, Throw, game_ids, get_game, random_action
from companion.rules.senet_sticks import SenetSticksState
from companion.rules.senet_sticks_board import DEFAULT_BOARD
from companion.ui.games import presenter_for
from companion.ui.render import columns

LINE = columns(128)
"""Characters a line on the 128-pixel OLED (21)."""
LABEL_MAX = LINE - 1
"""Characters of one menu row on the 128-pixel OLED (21 columns less the cursor's)."""
SHOWN = presenter_for("senet-sticks", LINE)


def check_steps(state: State) -> None:
    """The contract of ``Presenter.choice_steps`` for the legal moves of ``state``."""
    moves = state.legal_moves()
    shown = presenter_for(state.game.id, LINE)
    steps = [shown.choice_steps(state, m) for m in moves]
    assert len(set(steps)) == len(steps), "two moves are chosen by the same steps"
    for move, labels in zip(moves, steps, strict=True):
        assert labels, f"{move} has no step"
        assert all(0 < len(label) <= LABEL_MAX for label in labels), labels


def play(state: State, seed: int) -> State:
    """A random game to its end, checking the screens' hooks at every position."""
    rng = random.Random(seed)
    per_player = Counter(p.player for p in state.pieces())
    for _ in range(20_000):
        assert Counter(p.player for p in state.pieces()) == per_player
        phase = state.phase
        if phase is Phase.OVER:
            assert state.outcome is not None
            return state
        if phase is Phase.THROW:
            state.apply(random_action(state, rng.randrange))
            continue
        check_steps(state)
        if isinstance(state, SenetSticksState):
            throw = next(a for a in reversed(state.history) if isinstance(a, Throw))
            usable = state.usable_faces()
            assert len(usable) == len(throw.faces)
            assert sum(usable) == (0 if state.legal_moves() == (PASS,) else len(state.values))
            assert all(len(line) <= LINE for line in SHOWN.status_lines(state))
        state.apply(random_action(state, rng.randrange))
    raise AssertionError("the game did not end")


@settings(max_examples=12, deadline=None)
@given(
    mode=st.sampled_from(["normal", "quick"]),
    extra=st.booleans(),
    toss=st.booleans(),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
)
def test_random_games_in_both_modes_and_with_the_extra_stick(mode: str, extra: bool, toss: bool, seed: int) -> None:
    game = get_game("senet-sticks", mode=mode, extra_stick=extra, colour_toss=toss)
    state = play(game.new_state(), seed)
    outcome = state.outcome
    assert outcome is not None
    if mode == "quick":
        assert "quick mode" in outcome.reason or "Abyss" in outcome.reason or "blocked" in outcome.reason
    else:
        assert "quick" not in outcome.reason


def test_every_game_keeps_the_step_contract() -> None:
    """Every registered game (most keep the default: one step, the notation)."""
    for game_id in game_ids():
        play(get_game(game_id).new_state(), seed=1)


def test_the_default_step_is_the_notation() -> None:
    state = get_game("senet-tait").new_state()
    state.apply(state.throw_outcomes()[0][0])
    for move in state.legal_moves():
        assert presenter_for("senet-tait", LINE).choice_steps(state, move) == (move.notation,)


# ------------------------------------------------------------ the hooks, one by one


def in_play(red: list[int | str], blue: list[int | str], values: list[int], board: str = "") -> SenetSticksState:
    state = get_game("senet-sticks", board=board).state_from_dict({
        "format": "board-companion/position", "version": 1, "game": "senet-sticks",
        "stage": "play", "to_act": 1, "values": values, "plinths": [red, blue],
    })
    assert isinstance(state, SenetSticksState)
    return state


def test_status_lines_count_each_players_plinths_in_the_abyss() -> None:
    state = in_play([1, 2, 3, "abyss", "abyss"], [26, 27, 28, 29, "abyss"], [2])
    assert SHOWN.status_lines(state) == ["Abyss: Red 2, Blue 1"]
    assert SHOWN.status_lines(get_game("senet-sticks").new_state()) == []  # before who starts is cast


def test_status_lines_split_when_the_colour_names_are_long(tmp_path: Path) -> None:
    text = DEFAULT_BOARD.read_text(encoding="utf-8").replace('"red"', '"yellow"').replace('"blue"', '"purple"')
    board = tmp_path / "long.toml"
    board.write_text(text, encoding="utf-8")
    state = in_play([1, 2, 3, 4, "abyss"], [26, 27, 28, 29, 30], [2], board=str(board))
    assert SHOWN.status_lines(state) == ["Yellow Abyss: 1", "Purple Abyss: 0"]


def test_steps_name_the_plinth_then_each_value_where_it_lands() -> None:
    state = in_play([1, 2, 3, 4, 12], [26, 27, 28, 29, 30], [2, 3])
    move = Move("move", 12, 17, (2, 3))
    assert move in state.legal_moves()
    assert SHOWN.choice_steps(state, move) == ("plinth on 12", "2 to 14", "3 to 17")


def test_steps_name_a_river_a_capture_and_the_abyss() -> None:
    state = in_play([1, 2, 3, 4, "abyss"], [26, 27, 28, 29, 17], [2, 3])
    river = Move("move", 4, 15, (2,))          # 4 + 2 = 6, the river to 15
    assert SHOWN.choice_steps(state, river) == ("plinth on 4", "2 to 15 via river")
    both = Move("move", 4, 18, (2, 3))
    assert both in state.legal_moves()
    assert SHOWN.choice_steps(state, both) == ("plinth on 4", "2 to 15 via river", "3 to 18")
    capture = Move("move", 15, 17, (2,))
    state2 = in_play([1, 2, 3, 15, "abyss"], [26, 27, 28, 29, 17], [2])
    assert capture in state2.legal_moves()
    assert SHOWN.choice_steps(state2, capture) == ("plinth on 15", "2 to 17, takes Blue")
    out = Move("resurrect", None, 5, (2, 3))
    state3 = in_play([1, 3, 4, 12, "abyss"], [26, 27, 28, 29, 30], [2, 3])
    assert out in state3.legal_moves()
    assert SHOWN.choice_steps(state3, out) == ("from the Abyss", "2 to 2", "3 to 5")
    assert SHOWN.choice_steps(state3, PASS) == ("pass",)
