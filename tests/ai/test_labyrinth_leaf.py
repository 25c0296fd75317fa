"""The Labyrinth's search (issue 32, fourth round): its leaf is progress less the pieces
at risk (the baseline's where the two dice are due, and the hits of the dice in hand
elsewhere), and a question inside a turn (a ride, a crossing, the orbit's free die)
costs no ply."""

from __future__ import annotations

import random
from types import ModuleType

from benchmark_scripts import load_script

from companion.ai import evaluate, labyrinth_leaf, learned
from companion.ai.learned import search_chances
from companion.ai.search import search, turn_plies
from companion.rules import Phase, State, get_game, random_action, state_from_dict
from companion.rules.labyrinth import LabyrinthState


def baseline() -> ModuleType:
    return load_script("baseline")


def positions(games: range) -> list[LabyrinthState]:
    """Every position of seeded random two-player games."""
    game = get_game("labyrinth")
    found: list[LabyrinthState] = []
    for seed in games:
        rng = random.Random(f"labyrinth-leaf:{seed}")
        state = game.new_state(2)
        while state.phase is not Phase.OVER:
            assert isinstance(state, LabyrinthState)
            found.append(state.search_copy())  # type: ignore[arg-type]
            state.apply(random_action(state, rng.randrange))
    return found


def labyrinth(pieces: dict[str, list[object]], dice: list[int], pending: object = None) -> State:
    return state_from_dict({
        "version": 1, "game": "labyrinth", "players": len(pieces), "stage": "play",
        "to_act": "red", "dice": dice, "thrown": None, "pending": pending,
        "entered_this_turn": False, "pieces": pieces,
    })


def test_the_leaf_is_the_baselines_where_the_two_dice_are_due() -> None:
    """Where the two dice are due, the leaf is the baseline's hand-written one (progress
    less the expected fields lost to direct hits), to rounding; the search values its
    leaves by it."""
    leaves = baseline().Leaves()
    due = 0
    for state in positions(range(4)):
        mine = labyrinth_leaf.chances(state)
        # the search takes the TD-leaf model (one evaluation with the chance shown),
        # which started from this leaf: at 2 players since td7laby, at 3 and 4 since lab10
        assert search_chances(state) == learned.chances(state)
        if state.phase is Phase.THROW:
            due += 1
            assert all(abs(a - b) < 1e-12 for a, b in zip(mine, leaves.values(state), strict=True))
    assert due > 100


def test_a_value_in_hand_that_hits_costs_the_piece_hit_its_fields() -> None:
    """Red holds a 4 and a 2 with a piece on 10, Blue has a piece on 14: the 4 reaches
    it, and the hit sends it back to 10 (4 fields lost, chance 1). With a 5 and a 2 in
    hand nothing reaches it: no risk, and the leaf is the progress heuristic."""
    hit = labyrinth({"red": [10, "outside", "outside", "outside"], "blue": [14, "outside", "outside", "outside"]}, [4, 2])
    assert isinstance(hit, LabyrinthState)
    last = hit.game.board.last
    assert labyrinth_leaf.at_risk(hit) == [0.0, 4 / (4 * last)]
    assert labyrinth_leaf.chances(hit)[1] < evaluate.chances(hit)[1]
    miss = labyrinth({"red": [10, "outside", "outside", "outside"], "blue": [14, "outside", "outside", "outside"]}, [5, 2])
    assert isinstance(miss, LabyrinthState)
    assert labyrinth_leaf.at_risk(miss) == [0.0, 0.0]
    assert labyrinth_leaf.chances(miss) == evaluate.chances(miss)


def test_a_ride_at_the_horizon_is_thrown_not_valued() -> None:
    """A ride offered on 7 costs no ply: at depth 1 the ride is valued over the six
    outcomes of its free die (the piece on 46, 49, ... with the die still in hand), not
    as the piece standing on 7."""
    state = labyrinth({"red": [7, 20, "outside", "outside"], "blue": [30, "outside", "outside", "outside"]}, [3], pending={"what": "ride", "field": 7})
    me = state.current_player
    ranking, depth, _nodes = search(state, 1, evaluation=labyrinth_leaf.chances)
    assert depth == 1
    values = {r.move.kind: r.value for r in ranking}
    ride = state.search_copy()
    ride.play(next(m for m in state.legal_moves() if m.kind == "ride"))
    assert ride.phase is Phase.THROW
    expected = 0.0
    for throw, _p, weight in ride.chance_outcomes():
        after = ride.search_copy()
        after.play(throw)
        expected += weight * labyrinth_leaf.chances(after)[me]
    assert abs(values["ride"] - expected) < 1e-12
    stay = state.search_copy()
    stay.play(next(m for m in state.legal_moves() if m.kind == "stay"))
    assert values["stay"] == labyrinth_leaf.chances(stay)[me]
    assert values["ride"] > values["stay"]  # 7 rides towards 34: most throws gain
    # Below the root too: a first die landing on 7 and the second die are two plies
    # (three when the question was a ply of its own).
    first = labyrinth({"red": [1, 20, "outside", "outside"], "blue": [30, "outside", "outside", "outside"]},
                      [6, 2])
    assert any(m.src == 1 and m.dst == 7 for m in first.legal_moves())
    assert turn_plies(first) == 2
