"""The search on small hand-made positions, its budget in nodes, and the levels.

No wall-clock assertions: budgets are checked in node expansions, or with a clock the
test drives itself.
"""

from __future__ import annotations

import itertools
import random
import threading
from typing import Any

import pytest
from walkthroughs.review import cretan_key_offered, random_actions

from companion.ai.learned import estimate
from companion.ai.learned import search_chances as chances
from companion.ai.player import LEVELS, choose, player
from companion.ai.review import move_values, review
from companion.ai.search import Cancelled, Search, candidate_chances, search
from companion.rules import IllegalMoveError, Phase, State, get_game, random_action, state_from_dict
from companion.rules.cretan_labyrinth import CretanLabyrinthState


def labyrinth(pieces: dict[str, list[Any]], dice: list[int], to_act: str = "red") -> State:
    return state_from_dict({
        "version": 1, "game": "labyrinth", "players": len(pieces), "stage": "play",
        "to_act": to_act, "dice": dice, "thrown": None, "pending": None,
        "entered_this_turn": False, "pieces": pieces,
    })


def senet(black: list[Any], white: list[Any], throw: int, to_act: str = "black") -> State:
    return state_from_dict({
        "version": 1, "game": "senet-tait", "to_act": to_act, "throw": throw,
        "pieces": {"black": black, "white": white},
    })


def frozen_clock() -> float:
    """A clock that never moves: only the node budget can end a search."""
    return 0.0


# --------------------------------------------------------------- the right moves


def test_the_winning_move_is_chosen_at_every_level() -> None:
    """Red has three pieces borne off and one on 58; the 3 bears it off (exact count
    into 61: the game is won), the 1 would take it to 59 and down the tunnel to 47."""
    state = labyrinth(
        {"red": ["off", "off", "off", 58], "blue": [30, 33, "outside", "outside"]}, [3, 1]
    )
    assert {m.notation for m in state.legal_moves()} == {"58-off", "58-59 to 47 with 1"}
    for name in LEVELS:
        decision = choose(state, name, random.Random(1), clock=frozen_clock)
        if name != "easy":  # easy may blur its choice, but knows the value
            assert decision.move.notation == "58-off"
        best = decision.ranking[0]
        assert best.move.notation == "58-off" and best.value == 1.0


def test_bumping_the_opponent_back_to_its_plinth_is_chosen() -> None:
    """Black's piece on 17 can land on White's on 20 (sending it back to its plinth)
    or Black moves 5 to 8."""
    state = senet([5, 17, "plinth", "plinth", "plinth"], [20, "plinth", "plinth", "plinth", "plinth"], 3)
    decision = choose(state, "normal", clock=frozen_clock)
    assert decision.move.notation == "17-20"
    assert decision.ranking[0].value > decision.ranking[1].value


def test_the_search_values_taking_the_magic_key_above_keeping_the_diamonds() -> None:
    """The key is the only way to escape. The learned model's negative diamond and key
    weights valued handing the diamonds in below keeping them, so ``strong`` never
    took the key and its games ran to the round limit; the search's leaves must rise
    when the key is taken."""
    for seed in range(3):
        state = cretan_key_offered(2, seed)
        me = state.current_player
        take = next(m for m in state.legal_moves() if m.kind == "take-key")
        keep = next(m for m in state.legal_moves() if m.kind == "keep-diamonds")
        taken, kept = state.search_copy(), state.search_copy()
        taken.play(take)
        kept.play(keep)
        assert isinstance(taken, CretanLabyrinthState) and isinstance(kept, CretanLabyrinthState)
        assert taken.keys[me] and not kept.keys[me]
        assert chances(taken)[me] > chances(kept)[me]


def test_strong_escapes_the_cretan_labyrinth_against_random_play() -> None:
    """Seeded games of ``strong`` against a random player (seats alternating) end with
    ``strong`` back at its gateway with the diamonds and the key, not by the round limit
    (with the learned model in the search they all ran to it). A round limit of 200
    keeps a regression cheap: these games end in 82 to 132 rounds.

    Since the search plays by its deepest finished iteration only (issue 32: one depth
    for the hint and the move), game 1 takes another course and ``strong`` keeps the
    diamonds at the palace once (action 251: at depths 1-4 ``take-key`` is ahead,
    0.569 against 0.558, at 5 and 6 ``keep-diamonds``, 0.558 against 0.531 and 0.556
    against 0.339: the progress leaves' flaw, docs/ai.md), takes the key on a later
    visit and wins at the round limit. So: ``strong`` wins every game, and at least
    three of the four by its escape."""
    game = get_game("cretan-labyrinth", round_limit=200)
    strong, other = player("strong"), player("random")
    escapes = 0
    for i in range(4):
        rng = random.Random(f"escape:{i}")
        seats = [strong, other] if i % 2 == 0 else [other, strong]
        state = game.new_state(2)
        while state.phase is not Phase.OVER:
            if state.phase is Phase.THROW:
                state.apply(random_action(state, rng.randrange))
            else:
                state.apply(seats[state.current_player](state, rng))
        assert state.outcome is not None
        assert state.outcome.winners == (i % 2,), state.outcome
        escapes += "round limit" not in state.outcome.reason
    assert escapes >= 3


def test_a_value_at_two_plies_is_the_exact_expectation_over_the_next_throw() -> None:
    """Red's last die (3) moves 8-11 or 24-27 and ends the turn; at two plies each
    move's value is Red's evaluation averaged over Blue's 36 equally likely throws of
    two dice (computed here from the exact, unmerged outcomes and ``apply``)."""
    state = labyrinth({"red": [8, 24, "outside", "outside"], "blue": [30, 33, "outside", "outside"]}, [3])
    ranking, depth, _nodes = search(state, 2)
    assert depth == 2
    for ranked in ranking:
        after = state.copy()
        after.apply(ranked.move)
        assert after.phase is Phase.THROW and after.current_player == 1
        expected = 0.0
        for throw, p in after.throw_outcomes():
            assert p == pytest.approx(1 / 36)
            leaf = after.copy()
            leaf.apply(throw)
            expected += float(p) * chances(leaf)[0]
        assert ranked.value == pytest.approx(expected, abs=1e-12)


def test_a_value_at_one_ply_is_the_evaluation_after_the_move() -> None:
    state = senet([5, 17, "plinth", "plinth", "plinth"], [20, "plinth", "plinth", "plinth", "plinth"], 3)
    ranking, depth, _ = search(state, 1)
    assert depth == 1
    for ranked in ranking:
        after = state.copy()
        after.apply(ranked.move)
        assert ranked.value == chances(after)[0]


def test_three_players_each_play_for_their_own_chance() -> None:
    """Max-n: at one ply the player to act (Blue, of three) takes the move after which
    its own chance is highest, whatever that does to Red and Green."""
    state = labyrinth(
        {"red": [20, 22, "outside", "outside"], "blue": [9, 17, "outside", "outside"],
         "green": [25, 35, "outside", "outside"]},
        [4], to_act="blue",
    )
    ranking, _, _ = search(state, 1)
    values = {}
    for move in state.legal_moves():
        after = state.copy()
        after.apply(move)
        values[move] = chances(after)[1]
        assert sum(chances(after)) == pytest.approx(1.0)
    assert ranking[0].move == max(values, key=lambda m: values[m])
    assert [r.value for r in ranking] == sorted(values.values(), reverse=True)


def test_transpositions_are_searched_once() -> None:
    """Red's two dice used either way round reach the same positions (8-11 then
    20-25, or 20-25 then 8-11): with the table, the throw of Blue that follows such a
    position is expanded once (21 outcomes), not once per path."""
    state = labyrinth({"red": [8, 20, 24, "outside"], "blue": [30, 33, "outside", "outside"]}, [3, 5])
    run = Search()
    for move in state.legal_moves():
        run.value(run.child(state, move), 2)
    firsts = len(state.legal_moves())
    seconds = 0
    ends = set()
    for first in state.legal_moves():
        after = state.copy()
        after.apply(first)
        for second in after.legal_moves():
            seconds += 1
            end = after.copy()
            end.apply(second)
            assert end.phase is Phase.THROW and len(end.chance_outcomes()) == 21
            ends.add(end.position_key())
    assert len(ends) < seconds  # there are transpositions
    assert run.nodes == firsts + seconds + 21 * len(ends)  # not + 21 * seconds


# --------------------------------------------------------------------- budgets


@pytest.mark.parametrize("budget", [1, 2, 7, 40, 300])
def test_the_node_budget_is_never_exceeded(budget: int) -> None:
    state = labyrinth({"red": [8, 20, 24, "outside"], "blue": [30, 33, "outside", "outside"]}, [3, 5])
    decision = choose(state, "strong", max_nodes=budget, clock=frozen_clock)
    assert decision.nodes <= budget
    assert {r.move for r in decision.ranking} == set(state.legal_moves())
    assert decision.move in state.legal_moves()


def test_a_time_budget_stops_within_one_expansion_of_its_end() -> None:
    """A clock that moves one tick per reading: the search reads it before every
    expansion and makes none once the budget of 30 ticks is spent."""
    ticks = itertools.count()

    def clock() -> float:
        return float(next(ticks))

    state = labyrinth({"red": [8, 20, 24, "outside"], "blue": [30, 33, "outside", "outside"]}, [3, 5])
    run = Search(budget_s=30, clock=clock)
    with pytest.raises(Exception) as stopped:
        for depth in range(1, 20):
            for move in state.legal_moves():
                run.value(run.child(state, move), depth)
    assert type(stopped.value).__name__ == "OutOfBudget"
    # one reading at the start, one per expansion: 30 ticks allow 29 expansions
    assert run.nodes == 29


def test_a_set_cancel_flag_ends_a_search_and_a_review_at_the_next_expansion() -> None:
    """The service's worker sets the flag when it stops (issue 35): the search makes no
    expansion after it is seen, and does not answer as a spent budget would (depth 1
    answers even when cut short, a cancelled search has no answer)."""
    state = labyrinth({"red": [8, 20, 24, "outside"], "blue": [30, 33, "outside", "outside"]}, [3, 5])
    flag = threading.Event()
    # Not set: the same decision as without a flag (node budget, no clock).
    assert choose(state, "strong", clock=frozen_clock, cancel=flag) == choose(
        state, "strong", clock=frozen_clock)

    ticks = 0

    def clock() -> float:  # read at the start and before every expansion
        nonlocal ticks
        ticks += 1
        if ticks > 10:
            flag.set()
        return 0.0

    with pytest.raises(Cancelled):
        search(state, 8, clock=clock, cancel=flag)
    assert ticks == 11  # the start, nine expansions, the tenth refused: no reading after
    with pytest.raises(Cancelled):
        review(get_game("senet-tait"), 2, random_actions(7), cancel=flag)
    with pytest.raises(Cancelled):
        move_values(state, flag)
    with pytest.raises(Cancelled):  # the review's deeper search of its candidates
        candidate_chances(state, state.legal_moves()[:2], 5, flag)


def test_depth_one_answers_even_when_the_budget_ends_inside_it() -> None:
    state = labyrinth({"red": [8, 20, 24, "outside"], "blue": [30, 33, "outside", "outside"]}, [3, 5])
    ranking, depth, nodes = search(state, 4, max_nodes=2)
    assert depth == 0 and nodes == 2
    assert [r.depth for r in ranking].count(1) == 2
    assert len(ranking) == len(state.legal_moves())


def test_an_unfinished_iteration_is_dropped_so_the_ranking_is_of_one_depth() -> None:
    """Issue 32: the ranking (the hint, the move played) is the deepest finished
    iteration's, every value of one depth; before, the moves an unfinished iteration
    reached ranked first by their deeper values, mixing two depths."""
    state = labyrinth({"red": [8, 20, 24, "outside"], "blue": [30, 33, "outside", "outside"]}, [3, 5])
    full, _, one_ply = search(state, 1)
    best = state.copy()
    best.apply(full[0].move)
    # depth 2 of the best move: the move, then each second move; one node more
    ranking, depth, _ = search(state, 3, max_nodes=one_ply + 1 + len(best.legal_moves()) + 1)
    assert depth == 1
    assert [r.depth for r in ranking] == [1] * len(ranking)
    assert ranking == full


def test_one_legal_move_needs_no_search() -> None:
    state = senet(["plinth"] * 5, [20, "plinth", "plinth", "plinth", "plinth"], 2)
    decision = choose(state, "strong")
    assert decision.move.notation == "pass" and decision.nodes == 0


def test_no_decision_no_search() -> None:
    state = get_game("senet-tait").new_state()
    with pytest.raises(IllegalMoveError, match="no decision is due"):
        choose(state)


# ---------------------------------------------------------------------- levels


def midgame(game_id: str, players: int, seed: int) -> State:
    """A position some 40 actions into a random game, with a choice to make."""
    rng = random.Random(seed)
    state = get_game(game_id).new_state(players)
    actions = 0
    while True:
        if state.phase is Phase.OVER:
            state = get_game(game_id).new_state(players)
        else:
            if state.phase is not Phase.THROW and actions > 40 and len(state.legal_moves()) > 2:
                return state
            state.apply(random_action(state, rng.randrange))
        actions += 1


@pytest.mark.parametrize("game_id", ["senet-tait", "labyrinth", "senet-sticks", "cretan-labyrinth"])
def test_levels_are_reproducible_with_a_seed(game_id: str) -> None:
    state = midgame(game_id, 2, 3)
    for name in LEVELS:
        first = choose(state, name, random.Random(11), clock=frozen_clock)
        again = choose(state, name, random.Random(11), clock=frozen_clock)
        assert (first.move, first.ranking, first.nodes) == (again.move, again.ranking, again.nodes)


def test_easy_blurs_its_choice_and_the_seed_decides_how() -> None:
    state = midgame("labyrinth", 2, 5)
    picks = {choose(state, "easy", random.Random(seed), clock=frozen_clock).move for seed in range(40)}
    best = choose(state, "normal", clock=frozen_clock).ranking
    assert len(picks) > 1  # not always the best
    assert picks <= {r.move for r in best}


def test_strong_searches_deeper_than_normal() -> None:
    state = midgame("senet-tait", 2, 8)
    normal = choose(state, "normal", clock=frozen_clock)
    strong = choose(state, "strong", clock=frozen_clock)
    assert strong.depth >= normal.depth and strong.nodes > normal.nodes


def test_unknown_levels_and_players_are_named() -> None:
    state = midgame("senet-tait", 2, 8)
    with pytest.raises(ValueError, match="levels: easy, normal, strong"):
        choose(state, "expert")
    with pytest.raises(ValueError, match="players: easy, normal, strong, random, greedy"):
        player("expert")


# ------------------------------------------------------------------- estimate


def test_estimate_is_a_chance_and_the_chances_sum_to_one() -> None:
    for game_id, players in (("labyrinth", 4), ("cretan-labyrinth", 3), ("senet-sticks", 2)):
        state = midgame(game_id, players, 2)
        values = [estimate(state, p) for p in range(players)]
        assert all(0.0 <= v <= 1.0 for v in values)
        assert sum(values) == pytest.approx(1.0)
    with pytest.raises(IndexError):
        estimate(state, 2)


def test_estimate_of_a_finished_game_is_certain() -> None:
    state = labyrinth({"red": ["off", "off", "off", 58], "blue": [30, 33, "outside", "outside"]}, [3, 1])
    state.apply(state.parse_move("58-off"))
    assert state.phase is Phase.OVER
    assert (estimate(state, 0), estimate(state, 1)) == (1.0, 0.0)


def test_the_garbage_collector_is_paused_only_during_a_search() -> None:
    import gc

    state = midgame("labyrinth", 2, 4)
    paused: list[bool] = []

    def clock() -> float:
        paused.append(not gc.isenabled())
        return 0.0

    assert gc.isenabled()
    choose(state, "normal", clock=clock)
    assert gc.isenabled() and any(paused)
    gc.disable()
    try:
        choose(state, "normal", clock=frozen_clock)
        assert not gc.isenabled()  # left as it was found
    finally:
        gc.enable()


@pytest.mark.parametrize("game_id", ["senet-tait", "labyrinth", "senet-sticks", "cretan-labyrinth"])
def test_the_levels_decide_by_nodes_not_by_the_clock(game_id: str) -> None:
    """The same position gets the same move whether the clock seems to stand still or
    to run ten seconds between two looks (a very fast or a very slow machine)."""
    rng = random.Random(11)
    state = get_game(game_id).new_state()
    checked = 0
    while state.phase is not Phase.OVER and checked < 4:
        if state.phase is Phase.THROW:
            state.apply(random_action(state, rng.randrange))
            continue
        moves = state.legal_moves()
        if len(moves) > 1:
            for level in ("normal", "strong"):
                ticks = itertools.count(0.0, 10.0)
                still = choose(state, level, clock=frozen_clock)
                slow = choose(state, level, clock=ticks.__next__)
                assert slow.move == still.move and slow.nodes == still.nodes
            checked += 1
        state.apply(random_action(state, rng.randrange))


def test_in_tait_s_senet_a_throw_at_the_horizon_is_a_leaf() -> None:
    """Tait's Senet (``THROW_LEAF_GAMES``): at two plies the throw after each move is not
    expanded; each move's value is the evaluation of the position where it is due, and
    one ply deeper that position's value is the exact expectation over the throw's
    outcomes of their values one ply shallower."""
    state = get_game("senet-tait").new_state()
    rng = random.Random(3)
    while state.phase is Phase.THROW or len(state.legal_moves()) < 2 or len(state.history) < 30:
        state.apply(random_action(state, rng.randrange))
    ranking, depth, _nodes = search(state, 2)
    assert depth == 2
    me = state.current_player
    for ranked in ranking:
        after = state.copy()
        after.apply(ranked.move)
        if after.phase is not Phase.THROW:
            continue
        assert ranked.value == pytest.approx(chances(after)[me], abs=1e-12)
        expected = 0.0
        for throw, _p, weight in after.chance_outcomes():
            leaf = after.search_copy()
            leaf.play(throw)
            expected += weight * Search(throw_leaf=True).value(leaf, 1)[me]
        assert Search(throw_leaf=True).value(after, 2)[me] == pytest.approx(expected, abs=1e-12)
