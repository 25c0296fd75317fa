"""The search where a whole turn is one ply (casting-stick Senet, a game whose
``turn_is_one_ply``): depth 2 reaches the opponent's reply; and the learned feature
``at_risk`` there counts the hits of the next throw along each player's own path, by
one value or a combination of values (as the rules' moves take).

Positions are written in the engine's position format (``docs/rules/senet-sticks.md``:
Red travels 1 -> 30, Blue 30 -> 1; Sun squares 8, 13, 18, 23; the river on 6 leads to
15, the river on 25 to 16; Blue's sticks: the solid 2 or 4, a blue 3, a blue 2).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from types import ModuleType

import pytest
from benchmark_scripts import load_script

from companion.ai.evaluate import chances as progress_chances
from companion.ai.learned import FEATURES, features
from companion.ai.search import OutOfBudget, Search, Values, search
from companion.rules import Phase, State, get_game, random_action
from companion.rules.senet_sticks.state import SenetSticksState

AT_RISK = FEATURES.index("at_risk")
THREATS = FEATURES.index("threats")


def load_baseline() -> ModuleType:
    return load_script("baseline")


def position(red: Sequence[int], blue: Sequence[int], values: Sequence[int], to_act: int = 1) -> State:
    state = get_game("senet-sticks").state_from_dict({
        "format": "board-companion/position", "version": 1, "game": "senet-sticks",
        "stage": "play", "to_act": to_act, "values": list(values),
        "plinths": [list(red), list(blue)],
    })
    assert isinstance(state, SenetSticksState)
    return state


def river_shot() -> State:
    """Red to use a 2: ``13-15`` or ``16-18``, both two squares of progress. 15 is
    where the river on 6 ends, and Blue's plinth on 10 reaches 6 with the solid
    stick's 4 (one throw in two) and rides the river back to 15, taking Red's plinth
    there; 18 is a Sun square. Blue's other plinths stand in Red's Home Row, from where
    they cannot attack."""
    return position([13, 14, 16, 29, 30], [1, 2, 3, 4, 10], [2])


def test_casting_stick_senet_counts_a_turn_as_one_ply() -> None:
    assert get_game("senet-sticks").turn_is_one_ply
    assert not any(get_game(g).turn_is_one_ply for g in ("senet-tait", "labyrinth", "cretan-labyrinth"))


def test_at_two_plies_the_search_sees_the_reply_and_finds_the_only_safe_move() -> None:
    """With leaves valued by progress alone (no pieces at risk), one ply cannot tell
    the two moves apart and takes the first; two plies search Blue's throw and Blue's
    reply (a hit is the move that values best for Blue), and play the move Blue cannot
    hit."""
    state = river_shot()
    assert [m.notation for m in state.legal_moves()] == ["13-15", "16-18"]
    one, depth1, _ = search(state, 1, evaluation=progress_chances)
    assert depth1 == 1 and one[0].move.notation == "13-15"
    assert one[0].value == pytest.approx(one[1].value)
    two, depth2, _ = search(state, 2, evaluation=progress_chances)
    assert depth2 == 2
    assert two[0].move.notation == "16-18"
    assert two[0].value > two[1].value + 0.01


def reference(state: State, me: int, stage: int) -> Values:
    """Expectimax, written out: ``me``'s turn to its end, every sequence of its
    decisions (stage 0); Blue's throw; Blue's turn, the last ply, played one decision
    at a time, each the move whose position evaluates best for Blue (stage 1); then the
    progress evaluation."""
    if state.phase is Phase.OVER:
        return progress_chances(state)
    if state.phase is Phase.THROW:
        if stage == 1:
            return progress_chances(state)
        total = [0.0, 0.0]
        for throw, _p, w in state.chance_outcomes():
            child = state.search_copy()
            child.play(throw)
            for i, v in enumerate(reference(child, me, 1)):
                total[i] += w * v
        return (total[0], total[1])
    actor = state.current_player
    if stage == 1:
        options = []
        for move in state.legal_moves():
            child = state.search_copy()
            child.play(move)
            options.append(child)
        top = max(progress_chances(c)[actor] for c in options)
        chosen = next(c for c in options if progress_chances(c)[actor] == top)
        return reference(chosen, me, 1)
    best: Values | None = None
    for move in state.legal_moves():
        child = state.search_copy()
        child.play(move)
        values = reference(child, me, stage)
        if best is None or values[actor] > best[actor]:
            best = values
    assert best is not None
    return best


def test_a_value_at_two_plies_is_the_turn_the_throw_and_the_reply() -> None:
    """Red with a 2 and a 4 to use (two decisions of one turn): every move's value at
    two plies is the rest of Red's turn played best, the mean over Blue's throws of
    Blue's turn played out decision by decision, then the evaluation: nothing less,
    nothing more."""
    state = position([9, 11, 14, 16, 20], [12, 17, 22, 27, 30], [2, 4])
    ranking, depth, _ = search(state, 2, evaluation=progress_chances)
    assert depth == 2
    for ranked in ranking:
        after = state.search_copy()
        after.play(ranked.move)
        assert ranked.value == pytest.approx(reference(after, 0, 0)[0], abs=1e-12)


def test_a_turn_goes_on_without_spending_depth() -> None:
    """The same turn's next decision keeps the depth; the decision that ends the turn
    spends one ply, and the throw after it none."""
    state = position([9, 11, 14, 16, 20], [12, 17, 22, 27, 30], [2, 4])
    run = Search(evaluation=progress_chances, turns=True)
    move = state.legal_moves()[0]
    mid = run.child(state, move)
    assert mid.phase is Phase.MOVE and mid.current_player == 0
    assert run.depth_after(mid, 0, 2) == 2
    end = run.child(mid, mid.legal_moves()[0])
    assert end.phase is Phase.THROW
    assert run.depth_after(end, 0, 2) == 1
    flat = Search(evaluation=progress_chances)
    assert flat.depth_after(mid, 0, 2) == 1


def test_strong_at_its_budget_sees_the_reply_in_the_river_position() -> None:
    decision = search(river_shot(), 8, max_nodes=1000)
    assert decision[1] >= 2
    assert decision[0][0].move.notation == "16-18"


def test_at_risk_is_the_hit_of_the_next_throw_along_the_attackers_path() -> None:
    """After ``13-15`` Blue is due to throw: Red's plinth on 15 is hit by Blue's plinth
    on 10 reaching 6 and riding the river back to 15, with the solid 4 (one throw in
    two) or with the solid 2 and Blue's blue 2 played one after the other, 10-8-6 (one
    throw in four: a combination, which the baseline's direct shots do not count), and
    loses its 15 squares of the 125 its progress counts (0.75 * 0.12); Blue, due to
    throw, risks nothing. After ``16-18`` nothing is at risk. Blue's threats count Red's
    plinths 1 to 6 squares ahead of Blue's along Blue's path (downwards: 10 has none
    ahead of it above it)."""
    state = river_shot()
    exposed = state.search_copy()
    exposed.play(state.legal_moves()[0])
    rows = features(exposed)
    assert rows[0][AT_RISK] == pytest.approx(0.75 * 15 / 125)
    assert load_baseline().Leaves().at_risk(exposed)[0] == pytest.approx(0.5 * 15 / 125)
    assert rows[1][AT_RISK] == 0.0
    assert rows[1][THREATS] == 0.0
    safe = state.search_copy()
    safe.play(state.legal_moves()[1])
    assert features(safe)[0][AT_RISK] == 0.0


def test_a_blue_plinth_is_at_risk_from_red_below_it() -> None:
    """Red travels up: a Blue plinth on 12 with Red's on 10 two squares below it is
    hit by the solid 2 or Red's red 2 (3 throws in 4) when Red is due to throw; the
    same plinth with Red's above it is not at risk (the old feature counted squares
    behind along Red's path for both sides, so it said the opposite)."""
    below = position([10, 26, 27, 28, 29], [12, 1, 2, 3, 4], [])
    assert below.phase is Phase.THROW and below.current_player == 0
    assert features(below)[1][AT_RISK] == pytest.approx(0.75 * (31 - 12) / 125)
    above = position([14, 26, 27, 28, 29], [12, 1, 2, 3, 4], [])
    assert features(above)[1][AT_RISK] == 0.0


def hits_by_the_rules(state: State) -> float:
    """The expected loss ``at_risk`` stands for, found through the rules' own moves: for
    each outcome of the throw due, the thrower's legal moves of its first decision (one
    plinth, one value or an ordered combination), the largest progress share (the
    square along the victim's path over 125) of an opponent's plinth one of them
    takes; weighted by the outcome's chance."""
    q = state.current_player
    n = 30
    total = 0.0
    for throw, _p, weight in state.chance_outcomes():
        thrown = state.search_copy()
        thrown.play(throw)
        before = thrown.board  # type: ignore[attr-defined]
        worst = 0.0
        if thrown.phase is Phase.MOVE and thrown.current_player == q:
            for move in thrown.legal_moves():
                after = thrown.search_copy()
                after.play(move)
                for square in range(1, n + 1):
                    if before[square] == 1 - q and after.board[square] != 1 - q:  # type: ignore[attr-defined]
                        worst = max(worst, (square if q == 1 else n + 1 - square) / 125)
        total += weight * worst
    return total


def test_at_risk_is_the_loss_the_rules_moves_can_inflict() -> None:
    """Along random games, at every throw of the casting sticks: the feature of the
    player not due to throw equals the expected loss found through the rules' legal
    moves (``hits_by_the_rules``), the thrower's is 0, and in many positions it is
    above the baseline's direct shots (the hits by combinations of values)."""
    leaves = load_baseline().Leaves()
    game = get_game("senet-sticks")
    checked = combinations = 0
    for seed in range(4):
        rng = random.Random(seed)
        state = game.new_state()
        while state.phase is not Phase.OVER:
            if state.phase is Phase.THROW and state.throw_spec is game.sticks:  # type: ignore[attr-defined]
                q = state.current_player
                rows = features(state)
                assert rows[q][AT_RISK] == 0.0
                assert rows[1 - q][AT_RISK] == pytest.approx(hits_by_the_rules(state))
                direct = leaves.at_risk(state)[1 - q]
                combinations += rows[1 - q][AT_RISK] > direct + 1e-9
                checked += 1
            state.play(random_action(state, rng.randrange))
    assert checked > 100
    assert combinations > 10


@pytest.mark.parametrize("budget", [1, 2, 7, 40, 300, 1000])
def test_the_node_budget_holds_and_every_move_is_ranked(budget: int) -> None:
    """Whatever the budget cuts (the reply of some of the turn's ends), the search makes
    at most its expansions or those of depth 1 (every end of the turn, which the node
    budget does not cut: issue 32), ranks every legal move once, all at one depth."""
    state = position([9, 11, 14, 16, 20], [12, 17, 22, 27, 30], [2, 4])
    _one, _depth, ends = search(state, 1)
    ranking, depth, nodes = search(state, 8, max_nodes=budget)
    assert nodes <= max(budget, ends)
    assert depth >= 1
    assert sorted(m.notation for m in state.legal_moves()) == sorted(r.move.notation for r in ranking)
    assert {r.depth for r in ranking} == {depth}


def test_an_unfinished_reply_iteration_is_dropped() -> None:
    """With the budget for the turn's ends and 300 expansions more, depth 2 is not
    finished: the ranking stays depth 1's, every value of one depth (issue 32)."""
    state = position([9, 11, 14, 16, 20], [12, 17, 22, 27, 30], [2, 4])
    one, depth, ends = search(state, 1)
    assert depth == 1
    ranking, depth, _ = search(state, 2, max_nodes=ends + 300)
    assert depth == 1
    assert ranking == one


def test_tait_s_at_risk_counts_what_the_baselines_leaf_counts() -> None:
    """Tait's Senet's exact ``at_risk`` (``shots.tait_shots``): along random games, at
    every throw, the feature equals the baseline's direct-shot term, and the features
    give no weight to pieces waiting on the plinth (``outside`` is 0: progress counts a
    bumped piece's loss)."""
    leaves = load_baseline().Leaves()
    game = get_game("senet-tait")
    outside = FEATURES.index("outside")
    checked = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = game.new_state()
        while state.phase is not Phase.OVER:
            rows = features(state)
            assert rows[0][outside] == rows[1][outside] == 0.0
            if state.phase is Phase.THROW:
                assert [rows[p][AT_RISK] for p in (0, 1)] == pytest.approx(leaves.at_risk(state))
                checked += 1
            state.play(random_action(state, rng.randrange))
    assert checked > 100


def turn_ends(state: State) -> list[State]:
    """Every end of the mover's turn from ``state`` (every sequence of its decisions),
    each position once, in the order a walk of the legal moves first reaches them."""
    me = state.current_player
    found: dict[object, State] = {}

    def walk(here: State) -> None:
        if here.phase in (Phase.MOVE, Phase.DECIDE) and here.current_player == me:
            for move in here.legal_moves():
                child = here.search_copy()
                child.play(move)
                walk(child)
        else:
            found.setdefault(here.position_key(), here)

    walk(state)
    return list(found.values())


@pytest.mark.parametrize("kept", [1, 2])
def test_a_filtered_turn_searches_on_only_its_best_ends_by_the_evaluation(kept: int) -> None:
    """The review's move filter at every ply (``turn_ends_kept``, as GNU Backgammon's):
    Red's turn of two decisions, searched two plies, is worth the best for Red of its
    ``kept`` ends that the evaluation values best, each searched one ply on (Blue's
    throw and reply) as the plain search does; with every end kept, the plain search's
    value. The filtered search of three plies expands far fewer positions (the review's
    deeper search in casting-stick Senet: 116 CPU s a game without it)."""
    state = position([9, 11, 14, 16, 20], [12, 17, 22, 27, 30], [2, 4])
    ends = turn_ends(state)
    assert len(ends) > 3
    plain = Search.for_game(state.game)
    first = sorted(ends, key=lambda end: -plain.evaluation(end)[0])
    expected = max((plain.value(end, 1) for end in first[:kept]), key=lambda v: v[0])
    filtered = Search.for_game(state.game, turn_ends_kept=kept)
    assert filtered.value(state, 2) == expected
    everything = Search.for_game(state.game, turn_ends_kept=len(ends))
    assert everything.value(state, 2) == Search.for_game(state.game).value(state, 2)
    deep = Search.for_game(state.game, turn_ends_kept=kept)
    deep.value(state, 3)
    with pytest.raises(OutOfBudget):  # the plain search needs more than twice as many
        Search.for_game(state.game, max_nodes=2 * deep.nodes).value(state, 3)
