"""The exact table of casting-stick Senet's endings (companion.ai.race_sticks): a table
built on a small board against brute-force expectimax over the rules engine, the
shipped table against the engine's own turns, what it covers, and that the search, the
hint and the review use it."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.ai import race, race_sticks
from companion.ai.player import choose, hint
from companion.ai.review import move_values
from companion.ai.search import search
from companion.cli import main
from companion.rules import Phase, State, get_game
from companion.rules.senet_sticks import SenetSticks, SenetSticksState


def _default_game() -> SenetSticks:
    game = get_game("senet-sticks")
    assert isinstance(game, SenetSticks)
    return game


GAME = _default_game()

SMALL_BOARD = """
[board]
squares = 14
rows = 2
columns = 7
home_row = 5
resurrection = 6
sun = [7, 8]

[[board.river]]
from = 6
to = 8

[[board.river]]
from = 9
to = 7

[players]
colours = ["red", "blue"]

[sticks]
solid = [2, 4]
extra_solid = [2, 4]

[[sticks.coloured]]
faces = [{ value = 2, colour = "red" }, { value = 3, colour = "blue" }]

[[sticks.coloured]]
faces = [{ value = 3, colour = "red" }, { value = 2, colour = "blue" }]
"""
"""A board of 14 squares (the fewest a board file may have): two Home Rows of five, four
squares between them with a river each way and two Suns, the default sticks."""


def shipped() -> race_sticks.SticksTable:
    table = race_sticks.table_for(GAME)
    assert table is not None, "companion/ai/data/race-senet-sticks.f32.zlib ships"
    return table


def small_game(tmp: Path, text: str = SMALL_BOARD) -> SenetSticks:
    path = tmp / "small.toml"
    path.write_text(text)
    game = get_game("senet-sticks", board=str(path))
    assert isinstance(game, SenetSticks)
    return game


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> tuple[SenetSticks, race_sticks.SticksTable]:
    """The small board's game and its table of one plinth left a side (0.3 CPU s)."""
    game = small_game(tmp_path_factory.mktemp("board"))
    return game, race_sticks.build(None, game, [(1, 1)], log=lambda _line: None)


# ------------------------------------------------------------ against brute force


def bounds(state: State, turns: int, memo: dict[Any, tuple[float, float]]) -> tuple[float, float]:
    """Brute-force expectimax over the engine, move by move, ``turns`` throws deep:
    Red's chance with every unfinished game counted lost (low) and won (high). The
    exact value lies between."""
    if state.phase is Phase.OVER:
        outcome = state.outcome
        assert outcome is not None
        won = 1 / len(outcome.winners) if 0 in outcome.winners else 0.0  # a shared win: a half
        return won, won
    if turns == 0:
        return 0.0, 1.0
    key = (state.position_key(), turns)
    if key in memo:
        return memo[key]
    low = high = 0.0
    if state.phase is Phase.THROW:
        for throw, _p, weight in state.chance_outcomes():
            thrown = state.search_copy()
            thrown.play(throw)
            lo, hi = bounds(thrown, turns, memo)
            low += weight * lo
            high += weight * hi
    else:
        me = state.current_player
        options = []
        for move in state.legal_moves():
            after = state.search_copy()
            after.play(move)
            ended = after.phase is not Phase.MOVE or after.current_player != me
            options.append(bounds(after, turns - ended, memo))
        pick: Callable[[list[float]], float] = max if me == 0 else min
        low = pick([o[0] for o in options])
        high = pick([o[1] for o in options])
    memo[key] = (low, high)
    return low, high


def test_a_small_boards_table_lies_within_brute_force_bounds(
        small: tuple[SenetSticks, race_sticks.SticksTable]) -> None:
    """On the small board, 120 positions of one plinth left a side drawn among its 700
    (350 placements, either side to throw): where brute-force expectimax over 12 turns
    pins the value within 0.01, the table's chance lies between its bounds (all 376
    such positions of the 700 did when this was written: 17 CPU s). Positions where
    play can go on for ever (a plinth taking a river back and forth) keep wide bounds."""
    game, table = small
    checked = 0
    domain = table.domain
    everything = [(m, t, mover) for _i, m, t in domain.positions() if not domain.overlap(m, t) for mover in (0, 1)]
    for mine, theirs, mover in random.Random(2).sample(everything, 120):
        state = race_sticks.position(game, mine, theirs, mover)
        found = table.values(state)
        assert found is not None
        low, high = bounds(state, 12, {})
        if high - low < 0.01:
            assert low - 1e-6 <= found[0] <= high + 1e-6, (mine, theirs, mover)
            checked += 1
    assert checked > 50


def engine_value(table: race_sticks.SticksTable, state: State) -> float:
    """One step of the table's equation from the engine's own moves: the throws, every
    sequence of the player's legal moves to the end of the turn (move by move, not
    race_sticks.turn_ends), the table's values after it."""
    me = state.current_player

    def best(here: State) -> float:
        out = 0.0
        for move in here.legal_moves():
            after = here.search_copy()
            after.play(move)
            if after.phase is Phase.MOVE and after.current_player == me:
                out = max(out, best(after))
            else:
                found = table.values(after)
                assert found is not None
                out = max(out, found[me])
        return out

    total = 0.0
    for throw, _p, weight in state.chance_outcomes():
        thrown = state.search_copy()
        thrown.play(throw)
        total += weight * best(thrown)
    return total


def drawn_positions(table: race_sticks.SticksTable, count: int, seed: int) -> list[SenetSticksState]:
    """Positions of every layer, either side to throw, drawn at random."""
    drawn = random.Random(seed)
    domain = table.domain
    out: list[SenetSticksState] = []
    while len(out) < count:
        a, b = drawn.choice(domain.layers)
        mine = drawn.choice(domain.configs[a])
        theirs = drawn.choice(domain.configs[b])
        if not domain.overlap(mine, theirs):
            out.append(race_sticks.position(GAME, mine, theirs, drawn.choice([0, 1])))
    return out


def test_the_shipped_table_solves_its_equation_over_the_engines_turns() -> None:
    """300 drawn positions of the shipped table (each layer, each side to throw: Blue's
    are Red's mirrored in the table): the value equals one step of the equation over
    the engine's throws and moves with the table's values after the turn."""
    table = shipped()
    for state in drawn_positions(table, 300, 11):
        found = table.values(state)
        assert found is not None
        assert found[state.current_player] == pytest.approx(engine_value(table, state), abs=2e-6)


@pytest.mark.parametrize(("red", "blue", "to_act"), [
    ([24, 27, 28, 29, 30], [5, 3, 2, 1, "abyss"], 1),
    ([22, 26, 27, 28, 29], [1, 2, 3, 4, 9], 1),
    ([22, 26, 27, 28, 29], [1, 2, 3, 4, 11], 2),
    ([22, 24, 27, 28, 30], [1, 2, 3, 4, 7], 1),
])
def test_the_shipped_table_lies_within_brute_force_bounds(red: list[Any], blue: list[Any], to_act: int) -> None:
    """Plinths near their goal (one or two left against one): the table's chance lies
    within brute-force expectimax's bounds over the engine, 6 turns deep, which are
    within 0.02 of each other."""
    state = GAME.state_from_dict({
        "version": 1, "game": "senet-sticks", "stage": "play", "colours": ["red", "blue"],
        "start_casts": [None, None], "to_act": to_act, "values": [], "plinths": [red, blue],
    })
    found = shipped().values(state)
    assert found is not None
    low, high = bounds(state, 6, {})
    assert low - 1e-6 <= found[0] <= high + 1e-6
    assert high - low < 0.02


def test_a_board_not_the_same_for_both_colours_gets_no_table(tmp_path: Path) -> None:
    """The table keeps one entry for a position and its mirror image: a board whose Suns
    differ for the two colours is refused."""
    game = small_game(tmp_path, SMALL_BOARD.replace("sun = [7, 8]", "sun = [7]"))
    assert not race_sticks.mirrored(game)
    with pytest.raises(ValueError, match="no table"):
        race_sticks.build(None, game, [(1, 1)], log=lambda _line: None)


# ------------------------------------------------------------ what it covers


def test_what_the_table_covers() -> None:
    """Two plinths left against one, one against one, the game over: covered; two
    against two, the start, other options: not."""
    table = shipped()
    covered = race_sticks.position(GAME, (1, (20, 27, 28, 30)), (0, (20, 26, 27, 28, 29)))
    assert table.covers(covered) and race.covers(covered)
    assert table.covers(race_sticks.position(GAME, (0, (12, 26, 27, 28, 29)), (0, (9, 16, 26, 29, 30)), 1))
    assert not table.covers(race_sticks.position(GAME, (0, (12, 14, 27, 28, 29)), (0, (9, 16, 26, 29, 30))))
    assert not table.covers(GAME.new_state())
    for options in ({"extra-stick": True}, {"mode": "quick"}, {"combination-captures": False}):
        other = get_game("senet-sticks", **options)
        assert race_sticks.table_for(other) is None
        assert race.exact_for(other) is None
    exact = race.exact_for(GAME)
    assert exact is not None and exact(covered) == table.values(covered)


def test_values_sum_to_one_and_a_move_is_the_best_of_its_moves() -> None:
    table = shipped()
    state = race_sticks.position(GAME, (1, (20, 27, 28, 30)), (0, (20, 26, 27, 28, 29)))
    state.apply(GAME.sticks.parse("2:red 3:red 4"))
    values = table.values(state)
    assert values is not None and sum(values) == pytest.approx(1.0)
    assert values[0] == max(v for _m, v in table.move_values(state))
    assert table.best_move(state) in state.legal_moves()


# ------------------------------------------------------------ the search, the hint, the review


def decisions(count: int) -> list[State]:
    """Decisions with a choice of the table's domain whose best move is clear by 1e-6,
    drawn at random."""
    drawn = random.Random(3)
    table = shipped()
    out: list[State] = []
    for state in drawn_positions(table, 400, 5):
        throws = state.chance_outcomes()
        state.apply(throws[drawn.randrange(len(throws))].throw)
        if state.phase is not Phase.MOVE:
            continue
        moves = table.move_values(state)
        top = sorted((v for _m, v in moves), reverse=True)
        if len(moves) > 1 and top[0] - top[1] > 1e-6:
            out.append(state)
            if len(out) == count:
                break
    assert len(out) == count
    return out


def test_the_hint_names_the_tables_best_move_with_its_exact_chances(monkeypatch: pytest.MonkeyPatch) -> None:
    """In the table's domain the hint's first row is the table's best move and every
    row shows the table's value, not mapped, at every level (a map that would show
    0.123 for everything shows nothing); the computer plays that move."""
    import companion.ai.player as player_module

    monkeypatch.setattr(player_module, "chance", lambda *args: 0.123)
    table = shipped()
    for state in decisions(8):
        exact = dict(table.move_values(state))
        for level in ("easy", "normal", "strong"):
            shown = hint(state, level)
            assert shown.move == table.best_move(state)
            for row in shown.rows:
                assert row.value == pytest.approx(exact[row.move], abs=1e-9)
        assert choose(state, "strong").move == table.best_move(state)


def test_the_search_values_a_covered_position_with_few_nodes() -> None:
    """A whole turn is one ply here: depth 1 walks the turn's ends and takes each one's
    value from the table, so the deeper iterations expand nothing more, and every depth
    ranks the table's best move first with its exact value."""
    table = shipped()
    for state in decisions(4):
        best = table.best_move(state)
        exact = dict(table.move_values(state))
        _ranking, _depth, walked = search(state, 1)
        for depth in (1, 2, 4):
            ranking, reached, nodes = search(state, depth, max_nodes=10_000)
            assert reached == depth and nodes == walked
            assert ranking[0].move == best
            assert ranking[0].value == pytest.approx(exact[best], abs=1e-9)


def test_the_review_values_are_the_tables() -> None:
    """The review's and the tutor's values of a covered decision are the table's."""
    table = shipped()
    state = decisions(1)[0]
    exact = dict(table.move_values(state))
    me = state.current_player
    for move, values in move_values(state):
        assert values[me] == pytest.approx(exact[move], abs=1e-9)


def test_rules_hint_says_a_covered_chance_is_exact(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`companion rules hint` in a covered decision: the summary says the chance is exact,
    the chance before moving is the table's, the best move is the table's."""
    state = decisions(1)[0]
    path = tmp_path / "ending.json"
    path.write_text(json.dumps(state.to_dict()))
    status = main(["rules", "hint", "senet-sticks", "--position", str(path)])
    out, err = capsys.readouterr()
    answer = json.loads(out)
    assert status == 0 and err == ""
    assert answer["exact"] is True and "exact: this ending is solved to the end" in answer["summary"]
    table = shipped()
    values = table.values(state)
    assert values is not None
    assert answer["estimate"] == round(values[state.current_player], 4)
    assert answer["best"] == table.best_move(state).notation
