"""TD-leaf training of the Senets' evaluations (companion/ai/td_leaf.py): the same seed
gives the same weights, the value per square is read and weighed as the model file
says, and the shipped file says how it was made."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from importlib import resources
from typing import Any

import pytest

from companion.ai import learned, td_leaf, train
from companion.rules import Phase, State, get_game, random_action
from companion.rules.cretan_labyrinth import CretanLabyrinthState
from companion.rules.senet_sticks.state import SenetSticksState
from companion.rules.senet_tait import SenetTaitState


def test_td_leaf_is_reproducible_from_its_seed() -> None:
    """Two tiny runs (two games of the depth-1 search each) give the same weights bit
    for bit; another seed gives others."""
    start = learned.Model("senet-sticks", 2, (1.2, 2.6, 0.0, 0.0, 0.0, 0.0, -2.6, 0.0, 0.0, 0.0))
    first = td_leaf.td_leaf("senet-sticks", start, 7, 2)
    again = td_leaf.td_leaf("senet-sticks", start, 7, 2)
    other = td_leaf.td_leaf("senet-sticks", start, 8, 2)
    assert first == again
    assert first.model != other.model
    assert first.games == 2 and first.leaves > 0
    assert len(first.model.squares) == 30


def test_td_leaf_refuses_a_count_the_game_is_not_played_by() -> None:
    with pytest.raises(ValueError):
        td_leaf.td_leaf("senet-tait", learned.Model("senet-tait", 3, (0.0,) * len(learned.FEATURES)), 1, 1)
    with pytest.raises(ValueError):
        td_leaf.td_leaf("cretan-labyrinth", td_leaf.progress_start("cretan-labyrinth", 5), 1, 1)


def test_the_many_player_step_at_two_players_is_the_two_player_step() -> None:
    """The softmax's step over each player's own inputs (three and four players) is, at
    two players, the logistic step over their difference: the same weights after the
    same games, to the rounding of floats."""
    start = td_leaf.labyrinth_start(learned.Model("labyrinth", 2, (0.0,) * len(learned.FEATURES)))
    pair = td_leaf.td_leaf("labyrinth", start, 5, 3, alpha=0.05)
    many = td_leaf._td_many("labyrinth", start, 5, 3, 0.7, 0.05, 1, True, False)
    assert pair.games == many.games == 3 and pair.leaves == many.leaves
    assert many.model.weights == pytest.approx(pair.model.weights, abs=1e-9)
    assert many.model.squares == pytest.approx(pair.model.squares, abs=1e-9)
    assert pair.model != start  # it learned something, so the comparison says something


@pytest.mark.parametrize(("game_id", "players"), [("labyrinth", 3), ("labyrinth", 4),
                                                  ("cretan-labyrinth", 2),
                                                  ("cretan-labyrinth", 3),
                                                  ("cretan-labyrinth", 4)])
def test_td_leaf_at_every_count_starts_from_the_search_leaf_and_is_reproducible(
        game_id: str, players: int) -> None:
    """The start values every position as the search's leaf before did (the Labyrinth:
    progress less the pieces at risk; the Cretan Labyrinth: the progress heuristic), to
    the rounding of floats; two tiny runs give the same weights bit for bit, another
    seed others."""
    from companion.ai import evaluate, labyrinth_leaf

    if game_id == "labyrinth":
        start = td_leaf.labyrinth_start(learned.Model(game_id, players, (0.0,) * len(learned.FEATURES)))
        leaf = labyrinth_leaf.chances
    else:
        start = td_leaf.progress_start(game_id, players)
        leaf = evaluate.chances
    rng = random.Random(players)
    state = get_game(game_id).new_state(players)
    for _ in range(400):
        if state.phase is Phase.OVER:
            break
        assert learned.model_chances(start, learned.features(state), state) == pytest.approx(
            leaf(state), abs=1e-12)
        state.apply(random_action(state, rng.randrange))
    first = td_leaf.td_leaf(game_id, start, 7, 2)
    assert first == td_leaf.td_leaf(game_id, start, 7, 2)
    assert first.model != td_leaf.td_leaf(game_id, start, 8, 2).model
    assert first.games == 2 and first.leaves > 0 and first.model.players == players


def test_a_td_trained_model_is_the_search_leaf_in_the_cretan_labyrinth(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The Cretan Labyrinth's search values its leaves by the progress heuristic while
    its model is a Newton fit, and by the model itself once TD-leaf trained it (the
    file's entry has a ``td_loss``): one evaluation for play and for the chance."""
    from companion.ai import evaluate

    state = _cretan(3)
    rng = random.Random(3)
    while len(state.history) < 120:
        state.apply(random_action(state, rng.randrange))
    weights = (0.3, 1.9, 0.1, 0.0, 0.0, 0.0, 0.0, 0.0, 1.2, 0.8)
    for leaf in (False, True):
        model = learned.Model("cretan-labyrinth", 3, weights, (), leaf)
        monkeypatch.setattr(learned, "model_for", lambda game, n, model=model: model)
        mine = learned.model_chances(model, learned.features(state), state)
        assert mine != pytest.approx(evaluate.chances(state))
        assert learned.search_chances(state) == (mine if leaf else evaluate.chances(state))


def test_train_td_counts_replaces_only_the_counts_it_trains() -> None:
    """``--method td-leaf --players 3`` (the Labyrinth) rewrites the three-player model
    only, from the search's leaf, and the entry names the command that wrote it."""
    base = json.loads(resources.files("companion.ai").joinpath("data", "labyrinth.json")
                      .read_text("utf-8"))
    made = train.train_td_counts("labyrinth", [3], 4, 1, 0.7, 0.01, 1, True, base)
    assert made["models"]["2"] == base["models"]["2"] and made["models"]["4"] == base["models"]["4"]
    entry = made["models"]["3"]
    assert entry["command"] == ("python -m companion.ai.train --game labyrinth --seed 4 "
                                "--method td-leaf --players 3 --td-games 1 --td-lambda 0.7 "
                                "--td-alpha 0.01 --td-depth 1")
    assert len(entry["squares"]) == 121 and "td_loss" in entry and entry["start"] == "labyrinth_leaf"
    again = train.train_td_counts("labyrinth", [3], 4, 1, 0.7, 0.01, 1, True, base)
    assert train.dumps(made) == train.dumps(again)
    with pytest.raises(ValueError):
        train.train_td_counts("senet-tait", [2], 4, 1, 0.7, 0.01, 1, True, base)


def test_the_value_per_square_is_each_plinths_square_along_its_own_path() -> None:
    """Player 1's square ``a`` is board square ``a``, Player 2's is ``31 - a``: a model
    whose only weight is its square table scores each side's plinths by their own path."""
    game = get_game("senet-sticks")
    state = game.new_state(2)
    rng = random.Random(4)
    while not (isinstance(state, SenetSticksState) and state.phase is Phase.THROW
               and state.throw_spec is state.game.sticks and len(state.history) > 30):
        state.apply(random_action(state, rng.randrange))
    assert isinstance(state, SenetSticksState)
    table = tuple(float(a) for a in range(1, 31))  # each square worth its number
    scores = learned.square_scores(state, table)
    for p in (0, 1):
        along = [s if p == 0 else 31 - s for s in range(1, 31) if state.board[s] == p]
        assert scores[p] == pytest.approx(sum(along))
    rows = learned.square_rows(state)
    assert [sum(r) for r in rows] == [5 - state.abyss[0], 5 - state.abyss[1]]
    zero = learned.Model("senet-sticks", 2, (0.0,) * len(learned.FEATURES), table)
    chances = learned.model_chances(zero, learned.features(state), state)
    assert chances == learned.softmax(scores)


def test_the_shipped_casting_stick_model_records_its_training() -> None:
    """The shipped file names the command that writes it; when it carries a value per
    square there is one per square of the default board's path."""
    text = resources.files("companion.ai").joinpath("data", "senet-sticks.json").read_text("utf-8")
    data = json.loads(text)
    assert data["training"]["command"].startswith("python -m companion.ai.train --game senet-sticks")
    model = learned.model_for("senet-sticks", 2)
    assert model is not None
    assert len(model.squares) in (0, 30)


def test_train_writes_a_td_leaf_file_from_its_command() -> None:
    """``--method td-leaf`` writes a file whose stored command is the one that wrote it,
    with the value per square beside the weights (a tiny run)."""
    data = train.train_td("senet-sticks", 3, 2, 2, 0.7, 0.01, 1, True)
    entry = data["models"]["2"]  # type: ignore[index]
    assert len(entry["squares"]) == 30 and len(entry["weights"]) == len(learned.FEATURES)
    command = data["training"]["command"]  # type: ignore[index]
    assert command == ("python -m companion.ai.train --game senet-sticks --seed 3 --games 2 "
                       "--method td-leaf --td-games 2 --td-lambda 0.7 --td-alpha 0.01 --td-depth 1")
    assert train.dumps(data) == train.dumps(train.train_td("senet-sticks", 3, 2, 2, 0.7, 0.01, 1, True))


def test_labyrinth_td_leaf_is_reproducible_and_starts_from_the_search_leaf() -> None:
    """The Labyrinth's start model values every position as labyrinth_leaf does (to the
    rounding of floats); two tiny runs from it give the same weights bit for bit."""
    from companion.ai import labyrinth_leaf

    fitted = learned.Model("labyrinth", 2, (0.5,) * len(learned.FEATURES))
    start = td_leaf.labyrinth_start(fitted)
    game = get_game("labyrinth")
    rng = random.Random(5)
    for _ in range(3):
        state = game.new_state(2)
        while state.phase is not Phase.OVER:
            mine = learned.model_chances(start, learned.features(state), state)
            assert mine == pytest.approx(labyrinth_leaf.chances(state), abs=1e-12)
            state.apply(random_action(state, rng.randrange))
    first = td_leaf.td_leaf("labyrinth", start, 7, 2, depth=2)
    again = td_leaf.td_leaf("labyrinth", start, 7, 2, depth=2)
    assert first == again and first.games == 2 and first.leaves > 0
    assert len(first.model.squares) == 2 * 60 + 1
    assert first.model != start


def test_labyrinth_rows_count_free_and_trapped_pieces_per_field() -> None:
    """Free pieces count at ``[f - 1]``, trapped ones at ``[60 + f - 1]``; the last
    input is labyrinth_leaf's at-risk."""
    from companion.ai import labyrinth_leaf
    from companion.rules.labyrinth import LabyrinthState

    game = get_game("labyrinth")
    rng = random.Random(11)
    seen_trap = False
    for _ in range(5):
        state = game.new_state(2)
        while state.phase is not Phase.OVER:
            assert isinstance(state, LabyrinthState)
            rows = learned.labyrinth_rows(state)
            for p in (0, 1):
                pieces = range(4 * p, 4 * p + 4)
                free = [state.pos[k] for k in pieces if 0 < state.pos[k] < 61 and not state.trap[k]]
                trapped = [state.pos[k] for k in pieces if 0 < state.pos[k] < 61 and state.trap[k]]
                seen_trap = seen_trap or bool(trapped)
                assert rows[p][:60] == [float(free.count(f)) for f in range(1, 61)]
                assert rows[p][60:120] == [float(trapped.count(f)) for f in range(1, 61)]
                assert rows[p][120] == labyrinth_leaf.at_risk(state)[p]
            state.apply(random_action(state, rng.randrange))
    assert seen_trap


def test_the_labyrinth_td_file_keeps_the_newton_fits_of_three_and_four_players() -> None:
    """``--method td-leaf`` for the Labyrinth replaces the two-player model only."""
    data = train.train_td("labyrinth", 3, 2, 1, 0.7, 0.01, 2, True)
    models: Any = data["models"]
    assert sorted(models) == ["2", "3", "4"]
    assert len(models["2"]["squares"]) == 121
    plain: Any = train.train("labyrinth", 3, 2)["models"]
    assert models["3"] == plain["3"] and models["4"] == plain["4"]


def test_the_labyrinths_quick_scores_are_the_models_scores() -> None:
    """``labyrinth_scores`` (the search's path) gives the scores of ``model_chances``
    over ``features`` and ``labyrinth_rows`` (to the order of the float sums), for a
    model with every weight set."""
    rng = random.Random(2)
    weights = tuple(rng.uniform(-2, 2) for _ in learned.FEATURES)
    squares = tuple(rng.uniform(-1, 1) for _ in range(121))
    model = learned.Model("labyrinth", 2, weights, squares)
    game = get_game("labyrinth")
    for _ in range(3):
        state = game.new_state(2)
        while state.phase is not Phase.OVER:
            quick = learned.softmax(learned.labyrinth_scores(model, state))  # type: ignore[arg-type]
            slow = learned.model_chances(model, learned.features(state), state)
            assert quick == pytest.approx(slow, abs=1e-12)
            state.apply(random_action(state, rng.randrange))


def test_td_leaf_on_taits_senet_is_reproducible_from_its_seed() -> None:
    """Tait's Senet: two tiny runs give the same weights bit for bit, another seed
    others; a value per square of the 30."""
    start = learned.Model("senet-tait", 2, (0.6, 2.1, 0.0, 0.0, 0.0, 0.6, -1.9, 0.1, 0.0, 0.0))
    first = td_leaf.td_leaf("senet-tait", start, 7, 3)
    again = td_leaf.td_leaf("senet-tait", start, 7, 3)
    other = td_leaf.td_leaf("senet-tait", start, 8, 3)
    assert first == again
    assert first.model != other.model
    assert first.games == 3 and first.leaves > 0
    assert len(first.model.squares) == 30


def _tait_midgame(seed: int) -> SenetTaitState:
    state = get_game("senet-tait").new_state(2)
    rng = random.Random(seed)
    while not (state.phase is Phase.THROW and len(state.history) > 60):
        state.apply(random_action(state, rng.randrange))
    assert isinstance(state, SenetTaitState)
    return state


def test_taits_value_per_square_is_each_pieces_square() -> None:
    """Tait's Senet: both sides run squares 1..30, so a model whose only weight is its
    square table scores each side's pieces on the board by their squares' entries."""
    state = _tait_midgame(4)
    table = tuple(float(a) for a in range(1, 31))  # each square worth its number
    rows = learned.tait_square_rows(state)
    for p in (0, 1):
        assert [i + 1 for i, c in enumerate(rows[p]) if c] == state.squares[p]
        assert sum(rows[p]) == 5 - state.plinth[p] - state.off[p]
    zero = learned.Model("senet-tait", 2, (0.0,) * len(learned.FEATURES), table)
    chances = learned.model_chances(zero, learned.features(state), state)
    assert chances == learned.softmax([float(sum(state.squares[0])), float(sum(state.squares[1]))])
    x = td_leaf.inputs(state, True)
    assert x[len(learned.FEATURES):] == [a - b for a, b in zip(rows[0], rows[1], strict=True)]


def test_taits_self_play_stops_at_the_solved_endings() -> None:
    """A self-play game of Tait's Senet that reaches an ending of the exact table stops
    there with its exact chance as the result (not 0 or 1), the leaves before it the
    inputs (ten features and 30 squares)."""
    model = learned.Model("senet-tait", 2, (0.6, 2.1, 0.0, 0.0, 0.0, 0.6, -1.9, 0.1, 0.0, 0.0))
    results = []
    for i in range(4):
        played = td_leaf.selfplay_leaves(model, "senet-tait", f"td:3:{i}", 1, True)
        assert played is not None
        leaves, result = played
        assert leaves and 0.0 <= result <= 1.0
        assert {len(x) for x in leaves} == {len(learned.FEATURES) + 30}
        results.append(result)
    assert any(0.0 < r < 1.0 for r in results)


def test_train_writes_a_tait_td_leaf_file_from_its_command() -> None:
    data = train.train_td("senet-tait", 3, 2, 2, 0.7, 0.01, 1, True)
    entry = data["models"]["2"]  # type: ignore[index]
    assert len(entry["squares"]) == 30 and len(entry["weights"]) == len(learned.FEATURES)
    command = data["training"]["command"]  # type: ignore[index]
    assert command.startswith("python -m companion.ai.train --game senet-tait --seed 3 --games 2 "
                              "--method td-leaf --td-games 2")
    assert train.dumps(data) == train.dumps(train.train_td("senet-tait", 3, 2, 2, 0.7, 0.01, 1, True))


def _tait_position(plinth: tuple[int, int], mine: list[int], theirs: list[int],
                   thrower: int) -> SenetTaitState:
    """A Tait's Senet position waiting for ``thrower``'s throw: Player 1's pieces on
    ``mine``, Player 2's on ``theirs``, the rest borne off but for ``plinth``."""
    state = get_game("senet-tait").new_state(2)
    assert isinstance(state, SenetTaitState)
    state.board = [-1] * len(state.board)
    state.squares = [sorted(mine), sorted(theirs)]
    for p, on in enumerate(state.squares):
        for s in on:
            state.board[s] = p
    state.plinth = list(plinth)
    state.off = [5 - plinth[p] - len(state.squares[p]) for p in (0, 1)]
    state.turn = thrower
    assert state.phase is Phase.THROW and state.current_player == thrower
    return state


def test_taits_extra_inputs_read_the_plinth_the_exposed_pieces_and_the_passed_ones() -> None:
    """``tait_extra_rows``: the plinth's steps, the thrower's pieces with an opponent's
    piece d squares behind (not on the House of Rebirth, 15), its pieces on an entry
    square while the opponent can enter, and the pieces no opponent's piece can reach."""
    names = learned.TAIT_EXTRAS
    # Player 1 throws; its 6 has White's 5 and 2 behind (d = 1, 4) and White's plinth
    # able to enter on it, its 10 White's 5 (d = 5), its 15 is safe.
    state = _tait_position((2, 1), [6, 10, 15], [2, 5, 12], thrower=0)
    black, white = (dict(zip(names, row, strict=True)) for row in learned.tait_extra_rows(state))
    assert (black["plinth_1"], black["plinth_2"], black["plinth_3"]) == (1.0, 1.0, 0.0)
    assert (white["plinth_1"], white["plinth_2"], white["plinth_3"]) == (1.0, 0.0, 0.0)
    assert [black[f"exposed_{d}"] for d in range(1, 7)] == [1.0, 0.0, 0.0, 1.0, 1.0, 0.0]
    assert black["exposed_entry"] == 1.0
    assert all(white[f"exposed_{d}"] == 0.0 for d in range(1, 7))  # not the thrower
    assert black["passed"] == 0.0 and white["passed"] == 0.0  # each has a piece on the plinth
    # No plinth left: Black's 20 and 25 are ahead of White's every piece; White's none.
    ahead = _tait_position((0, 0), [3, 20, 25], [8, 12], thrower=1)
    black, white = (dict(zip(names, row, strict=True)) for row in learned.tait_extra_rows(ahead))
    assert black["passed"] == 2.0 and white["passed"] == 0.0
    assert [white[f"exposed_{d}"] for d in range(1, 7)] == [0.0, 0.0, 0.0, 0.0, 1.0, 0.0]  # 8 over 3
    assert black["exposed_5"] == 0.0  # Black does not throw


def test_a_tait_model_with_extra_inputs_weighs_them_after_the_squares() -> None:
    """A model of 30 + len(TAIT_EXTRAS) values adds each side's extra inputs, weighed,
    to the squares' sum; TD-leaf with ``extras`` trains exactly those inputs, and is
    reproducible from its seed."""
    state = _tait_midgame(4)
    extra = learned.tait_extra_rows(state)
    weights = tuple(0.1 * (k + 1) for k in range(len(learned.TAIT_EXTRAS)))
    table = tuple(float(a) for a in range(1, 31)) + weights
    zero = learned.Model("senet-tait", 2, (0.0,) * len(learned.FEATURES), table)
    scores = [sum(state.squares[p]) + sum(w * x for w, x in zip(weights, extra[p], strict=True))
              for p in (0, 1)]
    assert learned.model_chances(zero, learned.features(state), state) == pytest.approx(
        learned.softmax(scores), abs=1e-12)
    x = td_leaf.inputs(state, True, extras=True)
    assert x[len(learned.FEATURES) + 30:] == [a - b for a, b in zip(*extra, strict=True)]
    start = learned.Model("senet-tait", 2, (0.6, 2.1, 0.0, 0.0, 0.0, 0.6, -1.9, 0.1, 0.0, 0.0))
    first = td_leaf.td_leaf("senet-tait", start, 7, 2, extras=True)
    assert first == td_leaf.td_leaf("senet-tait", start, 7, 2, extras=True)
    assert len(first.model.squares) == 30 + len(learned.TAIT_EXTRAS)


def test_td_leaf_can_go_on_from_a_model_file(tmp_path: Any) -> None:
    """``--td-start FILE``: TD-leaf starts from that file's two-player model (here one
    whose every weight is 0, so a run of no game gives it back), its missing extra
    inputs at 0, and the file's command says where it started."""
    text = resources.files("companion.ai").joinpath("data", "senet-tait.json").read_text("utf-8")
    data = json.loads(text)
    entry = data["models"]["2"]
    entry["weights"] = [0.0] * len(entry["weights"])
    entry["squares"] = [0.25] * 30
    path = tmp_path / "start.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    made = train.train_td("senet-tait", 3, 2, 0, 0.7, 0.01, 1, True, extras=True,
                          start_from=str(path))
    out = made["models"]["2"]  # type: ignore[index]
    assert out["weights"] == [0.0] * len(learned.FEATURES)
    assert out["squares"] == [0.25] * 30 + [0.0] * len(learned.TAIT_EXTRAS)
    assert made["training"]["command"].endswith(f"--td-extras --td-start {path}")  # type: ignore[index]


def _shipped_td_entry(game_id: str, players: int, start: str, flags: str = "") -> dict[str, Any]:
    """The shipped model entry of ``game_id`` at ``players``, checked to be TD-leaf's from
    ``start``, written by the command it names, and the search's leaf (:attr:`Model.leaf`)."""
    data = json.loads(resources.files("companion.ai").joinpath("data", f"{game_id}.json")
                      .read_text("utf-8"))
    entry: dict[str, Any] = data["models"][str(players)]
    assert entry["start"] == start and "td_loss" in entry
    assert entry["command"] == (
        f"python -m companion.ai.train --game {game_id} --seed 1 --method td-leaf --players "
        f"{players} --td-games {entry['td_games']} --td-lambda {entry['td_lambda']} "
        f"--td-alpha {entry['td_alpha']} --td-depth {entry['td_depth']}{flags}")
    model = learned.model_for(game_id, players)
    assert model is not None and model.leaf
    return entry


def _leaf_apart_from(state: State, other: Callable[[State], tuple[float, ...]], seed: str,
                     limit: int = 10_000) -> int:
    """Along a random game from ``state`` (at most ``limit`` actions): checks that the
    search's leaf is the model's chance at every position, and counts the positions where
    it is more than 0.01 from ``other``'s."""
    rng = random.Random(seed)
    apart = 0
    while state.phase is not Phase.OVER and len(state.history) < limit:
        assert learned.search_chances(state) == learned.chances(state)
        if state.outcome is None and max(
                abs(a - b) for a, b in zip(learned.chances(state), other(state), strict=True)) > 0.01:
            apart += 1
        state.apply(random_action(state, rng.randrange))
    return apart


@pytest.mark.parametrize("players", [3, 4])
def test_the_labyrinths_three_and_four_player_models_are_the_search_leaf(players: int) -> None:
    """At 3 and 4 players the shipped Labyrinth models are TD-leaf's, started from
    ``labyrinth_leaf`` (branch lab10; the command in the entry writes them), so the
    search's leaf is the model whose chance the hint shows: along a random game
    ``search_chances`` is ``chances``, and it is not ``labyrinth_leaf`` any more."""
    from companion.ai import labyrinth_leaf

    entry = _shipped_td_entry("labyrinth", players, "labyrinth_leaf")
    assert len(entry["squares"]) == 121
    model = learned.model_for("labyrinth", players)
    assert model is not None
    # the learned at-risk weight still costs the player its pieces at risk
    assert model.squares[-1] < -3.0 and model.weights[0] > 3.0
    state = get_game("labyrinth").new_state(players)
    assert _leaf_apart_from(state, labyrinth_leaf.chances, f"lab10:{players}") > 20


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_cretan_models_are_the_search_leaf_at_every_count(players: int) -> None:
    """Every shipped Cretan Labyrinth model is TD-leaf's on the ten features, started
    from the progress heuristic (2 and 3 players: branch cretan10; 4: 2026-11-30; the
    command in the entry writes it), so the search's leaf is the model whose chance the
    hint shows: along a random game ``search_chances`` is ``chances``, not progress."""
    from companion.ai import evaluate

    entry = _shipped_td_entry("cretan-labyrinth", players, "progress", " --no-squares")
    assert "squares" not in entry
    assert _leaf_apart_from(_cretan(players), evaluate.chances, f"cretan-leaf:{players}", 600) > 20


def _cretan_model(players: int, rng: random.Random) -> learned.Model:
    state = _cretan(players)
    weights = tuple(rng.uniform(-2, 2) for _ in learned.FEATURES)
    squares = tuple(rng.uniform(-2, 2) for _ in range(learned.cretan_inputs(state)))
    return learned.Model("cretan-labyrinth", players, weights, squares, True)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_cretan_key_gain_is_what_taking_the_key_does_to_the_score(players: int) -> None:
    """cretan_key_gain (the training's guard) is the change of the taker's score that
    taking the key makes, in every position where it is offered: the other players'
    scores stay, so it is the change of log(chance of the taker / chance of another)."""
    import math

    from walkthroughs.review import cretan_key_offered

    rng = random.Random(players)
    for seed in range(3):
        state = cretan_key_offered(players, seed)
        me = state.current_player
        other = (me + 1) % players
        model = _cretan_model(players, rng)
        ratio = {}
        for move in state.legal_moves():
            copy = state.search_copy()
            copy.play(move)
            c = learned.model_chances(model, learned.features(copy), copy)
            ratio[move.kind] = math.log(c[me] / c[other])
        gain = learned.cretan_key_gain(model, state, len(state.items[me]))
        assert gain >= learned.cretan_key_gain(model, state)
        assert ratio["take-key"] - ratio["keep-diamonds"] == pytest.approx(gain, abs=1e-9)


@pytest.mark.parametrize("players", [2, 4])
def test_the_cretan_guard_moves_only_weights_that_break_it(players: int) -> None:
    """cretan_constrained leaves weights that keep progress and the key worth having as
    they are, and moves others until they do (the progress weights, the key stage)."""
    state = _cretan(players)
    base = len(learned.FEATURES)
    rng = random.Random(5)
    kept = moved = 0
    for _ in range(40):
        model = _cretan_model(players, rng)
        w = list(model.weights) + list(model.squares)
        fixed = td_leaf.cretan_constrained(w, base, players)
        after = learned.Model("cretan-labyrinth", players, tuple(fixed[:base]), tuple(fixed[base:]))
        assert fixed[0] >= 0 and fixed[0] + 2 * fixed[1] >= -1e-12
        assert learned.cretan_key_gain(after, state) >= -1e-9
        ok = (w[0] >= 0 and w[0] + 2 * w[1] >= 0 and learned.cretan_key_gain(model, state) >= 0)
        if ok:
            assert fixed == w
            kept += 1
        else:
            moved += 1
    assert kept and moved


def test_td_leaf_learns_the_cretan_rows() -> None:
    """Two games of the Cretan Labyrinth's TD-leaf with the rows: a weight for each of
    cretan_rows' inputs, the guard holding."""
    start = td_leaf.progress_start("cretan-labyrinth", 3)
    result = td_leaf.td_leaf("cretan-labyrinth", start, 2, 2)
    state = _cretan(3)
    assert len(result.model.squares) == learned.cretan_inputs(state)
    assert result.model.squares != (0.0,) * learned.cretan_inputs(state)
    assert learned.cretan_key_gain(result.model, state) >= -1e-9


def _cretan(players: int) -> CretanLabyrinthState:
    state = get_game("cretan-labyrinth").new_state(players)
    assert isinstance(state, CretanLabyrinthState)
    return state
