"""The exact table of Tait's Senet's endings (companion.ai.race): against the rules
engine itself, against brute-force expectimax, why there is no contact-free race, and
that the search, the hint and the review use it."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from companion.ai import race
from companion.ai.player import choose, hint
from companion.ai.review import move_values, review
from companion.ai.search import search
from companion.rules import Move, Phase, State, get_game, state_from_dict
from companion.rules.senet_tait import SenetTait, SenetTaitState

GAME = get_game("senet-tait")


def senet(black: list[Any], white: list[Any], throw: int | None = None, to_act: str = "black") -> State:
    """A position; each side's list is padded with 'off' to five entries."""
    return state_from_dict({
        "version": 1, "game": "senet-tait", "to_act": to_act, "throw": throw,
        "pieces": {"black": black + ["off"] * (5 - len(black)),
                   "white": white + ["off"] * (5 - len(white))},
    })


def config(state: SenetTaitState, p: int) -> race.Config:
    return (state.plinth[p], tuple(state.squares[p]))


def from_configs(mine: race.Config, theirs: race.Config, throw: int | None = None) -> SenetTaitState:
    """The position where Black holds ``mine`` and is to act, White ``theirs``."""
    state = senet(["plinth"] * mine[0] + list(mine[1]), ["plinth"] * theirs[0] + list(theirs[1]), throw)
    assert isinstance(state, SenetTaitState)
    return state


def shipped() -> race.RaceTable:
    table = race.table_for(GAME)
    assert table is not None, "companion/ai/data/race-senet-tait.f32.zlib ships"
    return table


# ---------------------------------------------------------- the build's move generator


def engine_outcomes(mine: race.Config, theirs: race.Config, v: int) -> set[race.Outcome]:
    """What the engine does with each legal action, as race.outcomes reports it."""
    state = from_configs(mine, theirs, v)
    out = set()
    for move in state.legal_moves():
        after = state.search_copy()
        after.play(move)
        assert isinstance(after, SenetTaitState)
        won = after.phase is Phase.OVER
        extra = not won and after.turn == 0
        out.add((extra, won, config(after, 0), config(after, 1)))
    return out


def test_the_builds_moves_are_the_engines() -> None:
    """race.outcomes (the build's rules on placements) gives exactly what the engine's
    legal moves give, for every score: all positions of one piece a side, and 3000
    drawn from the shipped layers."""
    domain = race.Domain(race.DEFAULT_LAYERS)
    positions = [(m, t) for _i, m, t in race.Domain([(1, 1)]).positions()]
    drawn = random.Random(7)
    everything = list(domain.positions())
    positions += [(m, t) for _i, m, t in drawn.sample(everything, 3000)]
    checked = 0
    for mine, theirs in positions:
        if set(mine[1]) & set(theirs[1]):
            continue
        for v in (1, 2, 3, 4, 6):
            assert set(race.outcomes(mine, theirs, v)) == engine_outcomes(mine, theirs, v), (mine, theirs, v)
            checked += 1
    assert checked > 10000


# ------------------------------------------------------------ against brute force


def engine_solve(layers: list[tuple[int, int]]) -> dict[tuple[race.Config, race.Config], float]:
    """The chance of the side to throw, for every position of ``layers``, by value
    iteration over the transitions the rules engine itself gives (search_copy, play;
    its own legal moves, throws and probabilities), independent of race.outcomes."""
    domain = race.Domain(layers)
    keys = [(m, t) for _i, m, t in domain.positions() if not set(m[1]) & set(t[1])]
    where = {k: i for i, k in enumerate(keys)}
    n = len(keys)
    weights: list[float] = []
    rows: list[list[list[int]]] = []
    for mine, theirs in keys:
        state = from_configs(mine, theirs)
        outcomes = state.chance_outcomes()
        weights = [weight for _t, _p, weight in outcomes]
        row = []
        for throw, _p, _w in outcomes:
            thrown = state.search_copy()
            thrown.play(throw)
            codes = []
            for move in thrown.legal_moves():
                after = thrown.search_copy()
                after.play(move)
                assert isinstance(after, SenetTaitState)
                if after.phase is Phase.OVER:
                    codes.append(2 * n)
                elif after.turn == 0:
                    codes.append(where[config(after, 0), config(after, 1)])
                else:
                    codes.append(n + where[config(after, 1), config(after, 0)])
            row.append(codes)
        rows.append(row)
    widest = max(len(c) for row in rows for c in row)
    table = np.array([[c + c[:1] * (widest - len(c)) for c in row] for row in rows])
    values = np.full(n, 0.5)
    ext = np.empty(2 * n + 1)
    ext[2 * n] = 1.0
    for _sweep in range(100_000):
        ext[:n] = values
        ext[n:2 * n] = 1 - values
        new = ext[table].max(axis=2) @ np.array(weights)
        done = np.abs(new - values).max() < 1e-13
        values = new
        if done:
            break
    return {k: float(values[i]) for i, k in enumerate(keys)}


def test_two_pieces_against_one_equal_the_engines_solution() -> None:
    """Every position with one or two pieces left against one (on any squares or the
    plinth, either side to throw, 26,940 positions): the shipped table equals the
    solution over the engine's own moves."""
    table = shipped()
    for (mine, theirs), value in engine_solve([(1, 1), (1, 2), (2, 1)]).items():
        found = table.values(from_configs(mine, theirs))
        assert found is not None
        assert found[0] == pytest.approx(value, abs=1e-6), (mine, theirs)


def bounds(state: State, plies: int, memo: dict[Any, tuple[float, float]]) -> tuple[float, float]:
    """Brute-force expectimax over the engine, ``plies`` throws deep: Black's chance
    with every unfinished game counted lost (low) and won (high). The exact value lies
    between."""
    if state.phase is Phase.OVER:
        won = 1.0 if state.outcome is not None and state.outcome.winners == (0,) else 0.0
        return won, won
    if plies == 0:
        return 0.0, 1.0
    key = (state.position_key(), plies)
    if key in memo:
        return memo[key]
    low = high = 0.0
    for throw, _p, weight in state.chance_outcomes():
        thrown = state.search_copy()
        thrown.play(throw)
        options = []
        for move in thrown.legal_moves():
            after = thrown.search_copy()
            after.play(move)
            options.append(bounds(after, plies - 1, memo))
        pick: Callable[[list[float]], float] = max if thrown.current_player == 0 else min
        low += weight * pick([o[0] for o in options])
        high += weight * pick([o[1] for o in options])
    memo[key] = (low, high)
    return low, high


@pytest.mark.parametrize(("black", "white", "to_act"), [
    ([30], [29], "black"),
    ([29], [30], "white"),
    ([30], [28, 29], "black"),
])
def test_the_table_lies_within_brute_force_bounds(black: list[Any], white: list[Any], to_act: str) -> None:
    """Pieces on the last squares: the table's chance (the two pieces' layer included)
    lies between the brute-force expectimax's bounds over 24 throws, which are within
    0.05 of each other (bumps make games long: [28, 30] against [29] is still 0.17
    wide there)."""
    state = senet(black, white, to_act=to_act)
    found = shipped().values(state)
    assert found is not None
    low, high = bounds(state, 24, {})
    assert low - 1e-6 <= found[0] <= high + 1e-6
    assert high - low < 0.05


# ------------------------------------------------------------ contact never ends


def test_pieces_that_have_passed_still_meet() -> None:
    """Both sides run the same way: White's piece on 24, behind both of Black's, bumps
    Black's piece on 28 with a four ('if there is an opponent's piece on that square,
    then it will be bumped'). No contact-free race: the table holds contact."""
    state = senet([28, 30], [24], throw=4, to_act="white")
    assert "24-28" in {m.notation for m in state.legal_moves()}
    events = state.apply(next(m for m in state.legal_moves() if m.notation == "24-28"))
    assert "bumped" in {e.kind for e in events}
    assert race.covers(state)


def test_the_house_of_water_sends_a_leading_piece_behind() -> None:
    """Black's piece on 24, ahead of White's on 10, drowns with a three (no other
    move) and enters again on 4, behind White's piece, which it can then bump."""
    state = senet([24], [10], throw=3)
    assert [m.notation for m in state.legal_moves()] == ["24-27"]
    state.apply(state.legal_moves()[0])
    assert isinstance(state, SenetTaitState) and state.plinth[0] == 1
    state = senet(["plinth"], [10], throw=6)
    state.apply(state.legal_moves()[0])  # enter 6, behind White's piece on 10
    state.apply(GAME.sticks.parse("4"))  # type: ignore[attr-defined]  # the six's extra throw
    assert "6-10" in {m.notation for m in state.legal_moves()}
    assert race.covers(state)


def test_what_the_table_covers() -> None:
    """Each side's pieces left (on the board or the plinth) form a layer: 2 and 2, 3
    and 1, 1 and 3, the game over; not 3 and 2, not the start, not another game's
    options."""
    table = shipped()
    assert table.covers(senet(["plinth", 12], [29, "plinth"]))
    assert table.covers(senet([3, 5, 9], [20], to_act="white"))
    assert table.covers(senet([20], [3, 5, "plinth"], throw=2))
    assert not table.covers(senet([3, 5, 9], [20, 22]))
    assert not table.covers(GAME.new_state())
    assert race.table_for(get_game("senet-tait", sticks=5)) is None
    assert race.exact_for(get_game("labyrinth")) is None
    assert not race.covers(get_game("senet-tait", sticks=5).new_state())


def test_values_sum_to_one_and_a_move_is_the_best_of_its_moves() -> None:
    table = shipped()
    state = senet([12, 25], [29, "plinth"], throw=3)
    values = table.values(state)
    assert values is not None and sum(values) == pytest.approx(1.0)
    assert values[0] == max(v for _m, v in table.move_values(state))
    assert table.best_move(state) in state.legal_moves()


# ------------------------------------------------------------ the search, the hint, the review


def decisions(count: int) -> list[State]:
    """Decisions with a choice of the table's domain, drawn at random."""
    drawn = random.Random(3)
    table = shipped()
    out: list[State] = []
    while len(out) < count:
        black = drawn.sample(["plinth", "plinth", *range(1, 27), 28, 29, 30], drawn.choice([1, 2]))
        white = drawn.sample([s for s in [*range(1, 27), 28, 29, 30] if s not in black] + ["plinth"],
                             drawn.choice([1, 2]))
        state = senet(black, white, throw=drawn.choice([1, 2, 3, 4, 6]),
                      to_act=drawn.choice(["black", "white"]))
        moves = table.move_values(state)
        top = sorted((v for _m, v in moves), reverse=True)
        if len(moves) > 1 and top[0] - top[1] > 1e-6:
            out.append(state)
    return out


def test_the_hint_names_the_tables_best_move_with_its_exact_chances(monkeypatch: pytest.MonkeyPatch) -> None:
    """In the table's domain the hint's first row is the table's best move and every
    row shows the table's value, not mapped, at every level (a map that would show
    0.123 for everything shows nothing: the shipped maps of Tait's Senet are all the
    identity since branch td7tait, which would not tell)."""
    import companion.ai.player as player_module

    monkeypatch.setattr(player_module, "chance", lambda *args: 0.123)
    table = shipped()
    for state in decisions(12):
        exact = dict(table.move_values(state))
        for level in ("easy", "normal", "strong"):
            shown = hint(state, level)
            assert shown.move == table.best_move(state)
            for row in shown.rows:
                assert row.value == pytest.approx(exact[row.move], abs=1e-9)
        assert choose(state, "strong").move == table.best_move(state)


def test_the_search_values_a_covered_position_with_few_nodes() -> None:
    state = decisions(1)[0]
    ranking, depth, nodes = search(state, 8, max_nodes=1000)
    assert depth == 8 and nodes == 8 * len(state.legal_moves())
    assert ranking[0].move == shipped().best_move(state)


def test_the_review_shows_exact_values_unmapped(monkeypatch: pytest.MonkeyPatch) -> None:
    """A review of a game's ending in the table's domain: every move's values are the
    table's, and the calibration map is not applied over them (a map that would show
    0.123 for everything shows nothing)."""
    import companion.ai.review as review_module

    monkeypatch.setattr(review_module, "shown_chance", lambda *args: 0.123)
    monkeypatch.setattr(review_module, "shown_chances", lambda game, level, values: (0.123, 0.877))
    start = senet([12, 25], [29, "plinth"])
    table = shipped()

    class FromHere(SenetTait):
        def new_state(self, players: int | None = None) -> SenetTaitState:
            copy = start.copy()
            assert isinstance(copy, SenetTaitState)
            return copy

    game = FromHere()
    state = start.copy()
    actions: list[Any] = []
    for throw in ("2", "3", "1", "4"):
        spec = state.throw_spec
        if spec is None:
            break
        t = spec.parse(throw)
        state.apply(t)
        actions.append(t)
        move = state.legal_moves()[-1]
        state.apply(move)
        actions.append(move)
    result = review(game, 2, actions)
    assert result.moves
    replay = start.copy()
    for number, action in enumerate(actions, start=1):
        found = [m for m in result.moves if m.number == number]
        if found:
            exact = dict(table.move_values(replay))
            assert found[0].chosen == pytest.approx(exact[action], abs=1e-9)
            assert found[0].best == pytest.approx(max(exact.values()), abs=1e-9)
        replay.apply(action)
    assert all(0.123 not in v for v in result.chances[1:])
    assert move_values(decisions(1)[0])  # the tutor's values come from the same search


def test_best_move_is_a_move() -> None:
    assert isinstance(shipped().best_move(senet([28, 29], [30], throw=1)), Move)


def test_calibration_fits_no_sample_from_a_solved_ending(monkeypatch: pytest.MonkeyPatch) -> None:
    """calibrate_fit's self-play records a sample for every decision with a choice except
    in the table's domain, whose values are shown unmapped (so a map fitted on them would
    be fitted to what it never maps). Fails if covered positions are sampled."""
    from companion.ai import calibrate_fit, player

    asked: list[bool] = []
    real = player.hint

    def watched(state: State, level: str, **kw: Any) -> Any:
        asked.append(race.covers(state))
        return real(state, level, **kw)

    monkeypatch.setattr(player, "hint", watched)
    records = calibrate_fit.selfplay("senet-tait", 2, "easy", "race-fit-test", 3)
    samples = sum(len(shown) for shown, _result in records)
    assert any(asked), "the games reach the table's domain"
    assert samples == asked.count(False) > 0
