"""The rules API a search builds on, for every game and player count (hypothesis).

* ``legal_moves()`` is immutable: changing what it returned (or a list made from it)
  changes nothing in the state, in a copy, or in an earlier copy;
* ``position_key()``: keys are equal exactly when the positions' JSON forms are equal
  once the record-only keys are left out, and a position read back from its JSON form
  has the key it was written with;
* search mode (``search_copy`` + ``play``) reaches the same positions (keys) as
  ``apply``, and leaves the history alone;
* ``chance_outcomes()`` is ``throw_outcomes()`` with throws that differ only in the order
  of their dice or sticks merged: the same total probability per merged class, float
  weights equal to the fractions, and merged throws lead to the same play;
* ``progress()`` is between 0 and 1, and 1 for a winner.
"""

from __future__ import annotations

import contextlib
import random
from collections import defaultdict
from collections.abc import Hashable, Iterator
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import (
    PASS,
    Phase,
    State,
    Throw,
    game_class,
    game_ids,
    get_game,
    random_action,
)

GAMES_AND_PLAYERS = [
    (game_id, players)
    for game_id in game_ids()
    for players in range(game_class(game_id).min_players, game_class(game_id).max_players + 1)
]

MAX_ACTIONS = 20_000


def play_key(state: State) -> str:
    """The JSON form less the record-only keys, as one comparable string."""
    import json

    data = state.to_dict()
    for key in state.record_only_keys:
        data.pop(key, None)
    return json.dumps(data, sort_keys=True)


def random_game(game_id: str, players: int, seed: int) -> Iterator[State]:
    """Every position of one random game (the same state object, advanced)."""
    rng = random.Random(seed)
    state = get_game(game_id).new_state(players)
    for _ in range(MAX_ACTIONS):
        yield state
        phase = state.phase
        if phase is Phase.OVER:
            return
        state.apply(random_action(state, rng.randrange))
    raise AssertionError(f"{game_id} did not end in {MAX_ACTIONS} actions")


cases = st.sampled_from(GAMES_AND_PLAYERS)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


@settings(max_examples=12, deadline=None)
@given(case=cases, seed=seeds)
def test_legal_moves_cannot_be_changed_through_the_result(case: tuple[str, int], seed: int) -> None:
    """The senet-sticks aliasing: popping from the returned moves corrupted the state and
    an earlier copy (45 moves became 44)."""
    game_id, players = case
    for n, state in enumerate(random_game(game_id, players, seed)):
        if state.phase not in (Phase.MOVE, Phase.DECIDE) or n % 3:
            continue
        earlier = state.copy()
        before = list(state.legal_moves())
        moves = state.legal_moves()
        assert isinstance(moves, tuple)
        as_list = list(moves)
        as_list.pop()
        as_list.append(PASS)
        with pytest.raises((AttributeError, TypeError)):
            moves.pop()  # type: ignore[attr-defined]
        later = state.copy()
        assert list(state.legal_moves()) == before
        assert list(earlier.legal_moves()) == before
        assert list(later.legal_moves()) == before
        assert list(later.copy().legal_moves()) == before


@settings(max_examples=12, deadline=None)
@given(case=cases, seed=seeds)
def test_keys_are_equal_exactly_when_positions_are(case: tuple[str, int], seed: int) -> None:
    game_id, players = case
    game = get_game(game_id)
    by_key: dict[Hashable, str] = {}
    by_json: dict[str, Hashable] = {}
    for state in random_game(game_id, players, seed):
        key = state.position_key()
        hash(key)
        text = play_key(state)
        assert by_key.setdefault(key, text) == text, "one key for two positions"
        assert by_json.setdefault(text, key) == key, "two keys for one position"
        again = game.state_from_dict(state.to_dict())
        assert again.position_key() == key, "the position read back has another key"
        # a position and its copies keep their key
        assert state.search_copy().position_key() == key == state.copy().position_key()
    # a replay of the game's actions, in search mode, reaches the same key
    replay = game.new_state(players).search_copy()
    for action in state.history:
        replay.play(action)
    assert replay.position_key() == state.position_key()


def transpositions(state: State) -> Iterator[tuple[State, State]]:
    """Pairs of positions two moves on in the same turn (both moves by the player to
    act, no throw between), for the key test on positions that really transpose."""
    first = state.legal_moves()
    for a in first:
        after_a = state.search_copy()
        after_a.play(a)
        if after_a.phase not in (Phase.MOVE, Phase.DECIDE) or after_a.current_player != state.current_player:
            continue
        for b in after_a.legal_moves():
            after_ab = after_a.search_copy()
            after_ab.play(b)
            yield after_a, after_ab


@settings(max_examples=10, deadline=None)
@given(case=cases, seed=seeds)
def test_keys_of_move_orders_that_transpose(case: tuple[str, int], seed: int) -> None:
    """Within a turn, different orders of moves that reach the same position (labyrinth:
    either die first) give the same key, and different positions different keys."""
    game_id, players = case
    for n, state in enumerate(random_game(game_id, players, seed)):
        if n % 5 or state.phase is not Phase.MOVE:
            continue
        groups: dict[str, set[Hashable]] = defaultdict(set)
        keys: dict[Hashable, set[str]] = defaultdict(set)
        for _, end in transpositions(state):
            text = play_key(end)
            groups[text].add(end.position_key())
            keys[end.position_key()].add(text)
        assert all(len(k) == 1 for k in groups.values())
        assert all(len(t) == 1 for t in keys.values())


@settings(max_examples=12, deadline=None)
@given(case=cases, seed=seeds)
def test_search_mode_reaches_the_same_positions_as_apply(case: tuple[str, int], seed: int) -> None:
    game_id, players = case
    rng = random.Random(seed)
    state = get_game(game_id).new_state(players)
    shadow = state.search_copy()
    for _ in range(MAX_ACTIONS):
        assert shadow.position_key() == state.position_key()
        assert shadow.phase is state.phase
        assert shadow.history == []
        if state.phase is Phase.OVER:
            assert shadow.outcome == state.outcome
            return
        assert shadow.legal_moves() == state.legal_moves()
        action = random_action(state, rng.randrange)
        # every alternative, in search mode, from a search copy: the same key as apply
        if rng.randrange(4) == 0:
            for other in state.legal_moves():
                a = state.copy()
                a.apply(other)
                b = state.search_copy()
                b.play(other)
                assert a.position_key() == b.position_key()
        history = list(state.history)
        state.apply(action)
        assert state.history == [*history, action]
        shadow.play(action)
    raise AssertionError(f"{game_id} did not end in {MAX_ACTIONS} actions")


@settings(max_examples=10, deadline=None)
@given(case=cases, seed=seeds)
def test_chance_outcomes_are_the_exact_outcomes_merged(case: tuple[str, int], seed: int) -> None:
    game_id, players = case
    for n, state in enumerate(random_game(game_id, players, seed)):
        if state.phase is not Phase.THROW or n % 3:
            continue
        spec = state.throw_spec
        assert spec is not None
        exact = state.throw_outcomes()
        merged = state.chance_outcomes()
        assert merged is state.chance_outcomes(), "cached per implement"
        assert sum((o.probability for o in merged), Fraction(0)) == 1
        assert all(o.weight == float(o.probability) for o in merged)
        # each exact throw falls in exactly one merged class, with the class's total
        total: dict[Hashable, Fraction] = defaultdict(Fraction)
        members: dict[Hashable, list[Throw]] = defaultdict(list)
        for throw, p in exact:
            total[spec.order_free_key(throw)] += p
            members[spec.order_free_key(throw)].append(throw)
        assert {spec.order_free_key(o.throw): o.probability for o in merged} == dict(total)
        assert len({spec.order_free_key(o.throw) for o in merged}) == len(merged)
        assert all(o.throw in members[spec.order_free_key(o.throw)] for o in merged)
        # throws of one class lead to the same play: the same moves, as sets
        for throws in members.values():
            outcomes = []
            for throw in throws:
                after = state.search_copy()
                after.play(throw)
                outcomes.append((after.phase, frozenset(after.legal_moves()), after.current_player))
            assert len(set(outcomes)) == 1


def test_two_dice_give_21_unordered_outcomes() -> None:
    state = get_game("labyrinth").new_state(2)
    state.apply(state.throw_spec.parse("3"))  # type: ignore[union-attr]
    state.apply(state.throw_spec.parse("5"))  # type: ignore[union-attr]
    outcomes = state.chance_outcomes()
    assert len(state.throw_outcomes()) == 36 and len(outcomes) == 21
    weights = sorted(o.probability for o in outcomes)
    assert weights == [Fraction(1, 36)] * 6 + [Fraction(1, 18)] * 15


@settings(max_examples=10, deadline=None)
@given(case=cases, seed=seeds)
def test_progress_is_between_0_and_1_and_1_for_the_winner(case: tuple[str, int], seed: int) -> None:
    game_id, players = case
    last: Any = None
    for state in random_game(game_id, players, seed):
        for p in range(players):
            assert 0.0 <= state.progress(p) <= 1.0
        last = state
    outcome = last.outcome
    assert outcome is not None
    if len(outcome.winners) == 1 and "limit" not in outcome.reason and "blocked" not in outcome.reason:
        assert last.progress(outcome.winners[0]) == 1.0


def test_senet_sticks_moves_taken_from_the_result_stay_in_the_state_and_its_copies() -> None:
    """The bug found by a search prototype: ``legal_moves()`` returned the state's own
    cached list, shared with copies; popping from it changed both."""
    state = get_game("senet-sticks").new_state()
    rng = random.Random(5)
    while state.phase is not Phase.MOVE or len(state.legal_moves()) < 3:
        if state.phase is Phase.THROW:
            state.apply(random_action(state, rng.randrange))
        else:
            state.apply(state.legal_moves()[0])
    earlier = state.copy()
    count = len(state.legal_moves())
    moves: Any = state.legal_moves()
    with contextlib.suppress(AttributeError):  # immutable: nothing to take
        moves.pop()
    assert len(state.legal_moves()) == count
    assert len(earlier.legal_moves()) == count
