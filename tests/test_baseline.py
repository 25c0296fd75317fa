"""benchmarks/baseline.py, the baseline of the versus part: it searches the reply, its
look-ups of positions already valued change no result, and its leaf counts the pieces
at risk as its docstring says."""

from __future__ import annotations

import random
from types import ModuleType

import pytest
from benchmark_scripts import load_script

from companion.rules import Phase, State, get_game, random_action


def load() -> ModuleType:
    return load_script("baseline")


baseline = load()


def decisions(game_id: str, count: int, seed: int) -> list[State]:
    """``count`` positions with more than one legal move, from seeded random games."""
    rng = random.Random(seed)
    found: list[State] = []
    state = get_game(game_id).new_state()
    while len(found) < count:
        if state.phase is Phase.OVER:
            state = get_game(game_id).new_state()
        else:
            if state.phase is not Phase.THROW and len(state.legal_moves()) > 1 and rng.random() < 0.2:
                found.append(state.search_copy())
            state.apply(random_action(state, rng.randrange))
    return found


@pytest.mark.parametrize("game_id", ["senet-tait", "senet-sticks", "labyrinth"])
def test_looking_positions_up_changes_no_decision(game_id: str) -> None:
    """Not the Cretan Labyrinth: from the positions of random games its trees run to
    10^5 positions and more even with the look-ups (four took 100 s here)."""
    checked = 0
    for state in decisions(game_id, 8, 3):
        fast = baseline.Baseline().decide(state)
        if fast.nodes > 6000:
            continue  # searched again without the look-ups it would take too long here
        slow = baseline.Baseline(memo=False).decide(state)
        assert (slow.move, slow.value) == (fast.move, fast.value)
        assert slow.nodes >= fast.nodes
        checked += 1
    assert checked >= 2


def test_it_searches_the_reply() -> None:
    """Tait's Senet, Black to play a 1 with pieces on 3 and 10, White on 8: a one-turn
    search sees only its own move and the next throw; this one also creates White's
    replies: more positions than the moves and their throws."""
    game = get_game("senet-tait")
    state = game.state_from_dict({
        "format": "board-companion/position", "version": 1, "game": "senet-tait",
        "to_act": "black", "throw": 1,
        "pieces": {"black": [3, 10, "plinth", "plinth", "plinth"],
                   "white": [8, "plinth", "plinth", "plinth", "plinth"]},
    })
    decision = baseline.Baseline().decide(state)
    moves = len(state.legal_moves())
    throws = 5  # four sticks: 1, 2, 3, 4, 6
    assert decision.nodes > moves * (1 + throws)


def test_a_piece_in_direct_shot_counts_its_progress_times_the_chance() -> None:
    """White to throw, Black's piece on 10 with White's on 8: a 2 (6 throws in 16) bumps
    it, losing 10 + 16 of the 5 x 47 squares of progress; Black's piece on 15 (the House
    of Rebirth) with White's on 14 is safe."""
    game = get_game("senet-tait")
    state = game.state_from_dict({
        "format": "board-companion/position", "version": 1, "game": "senet-tait",
        "to_act": "white", "throw": None,
        "pieces": {"black": [10, 15, "plinth", "plinth", "plinth"],
                   "white": [8, 14, "plinth", "plinth", "plinth"]},
    })
    risk = baseline.Leaves().at_risk(state)
    assert risk[1] == 0.0
    assert risk[0] == pytest.approx(6 / 16 * (10 + 16) / (5 * 47))
