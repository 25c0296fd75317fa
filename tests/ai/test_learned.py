"""The learned evaluation: shipped for every game and player count, a chance that sums
to 1, and training that gives the same file from the same seed."""

from __future__ import annotations

import json
from importlib import resources

import pytest
from walkthroughs.review import cretan_key_offered

from companion.ai import learned, train
from companion.rules import Phase, game_class, game_ids, get_game, play_out, random_action
from companion.rules.cretan_labyrinth import CretanLabyrinthState
from companion.ui.review_words import MISTAKE


@pytest.mark.parametrize("game_id", game_ids())
def test_a_model_ships_for_every_player_count(game_id: str) -> None:
    cls = game_class(game_id)
    for players in range(cls.min_players, cls.max_players + 1):
        model = learned.model_for(game_id, players)
        assert model is not None and len(model.weights) == len(learned.FEATURES)
        assert any(model.weights), "an all-zero model says nothing"


@pytest.mark.parametrize("game_id", game_ids())
def test_chances_sum_to_one_along_a_game(game_id: str) -> None:
    import random

    game = get_game(game_id)
    rng = random.Random(3)
    state = game.new_state()
    for _ in range(120):
        if state.phase is Phase.OVER:
            break
        values = learned.chances(state)
        assert len(values) == state.players
        assert all(0.0 <= v <= 1.0 for v in values) and sum(values) == pytest.approx(1.0)
        state.apply(random_action(state, rng.randrange))


def test_a_finished_game_is_certain() -> None:
    import random

    state = play_out(get_game("senet-tait").new_state(), random.Random(5).randrange)
    assert state.outcome is not None
    winner = state.outcome.winners[0]
    assert learned.chances(state)[winner] == 1.0


def test_training_is_reproducible_from_its_seed() -> None:
    """A tiny training run twice: the same file, byte for byte; another seed differs."""
    first = train.dumps(train.train("senet-tait", 7, 3))
    again = train.dumps(train.train("senet-tait", 7, 3))
    other = train.dumps(train.train("senet-tait", 8, 3))
    assert first == again
    assert first != other


def test_the_shipped_files_say_how_they_were_made() -> None:
    for game_id in game_ids():
        text = resources.files("companion.ai").joinpath("data", f"{game_id}.json").read_text("utf-8")
        data = json.loads(text)
        assert data["features"] == list(learned.FEATURES)
        command = data["training"]["command"]
        assert command.startswith(f"python -m companion.ai.train --game {game_id} --seed ")


def test_the_shipped_senet_tait_model_starts_from_what_its_command_fits() -> None:
    """The shipped Tait's Senet file is written by TD-leaf (about 100 s of CPU, too long
    for a test; ``tests/ai/test_td_leaf.py`` checks tiny runs bit for bit): its Newton
    start, the quickest part (about 6 s of CPU), run again from the stored command's
    seed and games, is the ``start`` the file keeps, byte for byte; the command itself
    is the TD-leaf one."""
    shipped = resources.files("companion.ai").joinpath("data", "senet-tait.json").read_text("utf-8")
    data = json.loads(shipped)
    command = data["training"]["command"].split()
    assert command[:3] == ["python", "-m", "companion.ai.train"]
    assert command[command.index("--method") + 1] == "td-leaf"
    seed = int(command[command.index("--seed") + 1])
    games = int(command[command.index("--games") + 1])
    start = train.train("senet-tait", seed, games, players=[2])["models"]["2"]  # type: ignore[index]
    assert train.dumps(start) == train.dumps(data["models"]["2"]["start"])


def test_the_fit_finds_a_planted_weight() -> None:
    """Results drawn from a known model (progress weight 3) are fitted back near 3."""
    import random

    rng = random.Random(1)
    truth = learned.Model("", 2, (3.0,) + (0.0,) * (len(learned.FEATURES) - 1))
    data: list[train.Sample] = []
    for _ in range(4000):
        rows = [[rng.random()] + [0.0] * (len(learned.FEATURES) - 1) for _ in range(2)]
        p0 = learned.model_chances(truth, rows)[0]
        won = rng.random() < p0
        data.append((rows, (1.0, 0.0) if won else (0.0, 1.0)))
    weights = train.fit(data, ridge=0.01)
    assert weights[0] == pytest.approx(3.0, abs=0.4)


def test_estimate_is_the_learned_models_chance() -> None:
    """`rules hint`'s ``estimate`` (the chance before moving) reads `estimate`: it is
    the learned model's chance, not the progress softmax (they differ on a position in
    play). The hint's rows and the box's Hint show the searched values instead
    (tests/ai/test_hint.py)."""
    import random

    from companion.ai import evaluate, player

    rng = random.Random(9)
    state = get_game("labyrinth").new_state(3)
    differed = False
    for _ in range(60):
        if state.phase is Phase.THROW:
            state.apply(random_action(state, rng.randrange))
            continue
        for p in range(3):
            chance = learned.chances(state)[p]
            assert learned.estimate(state, p) == chance == player.estimate(state, p)
            differed |= abs(chance - evaluate.chances(state)[p]) > 1e-3
        state.apply(random_action(state, rng.randrange))
    assert differed


@pytest.mark.parametrize("players", [2, 3, 4])
def test_taking_the_magic_key_is_valued_at_least_as_keeping_the_diamonds(players: int) -> None:
    """The key is the way to escape. The model before (diamond and key features fitted
    negative beside the progress that already counts them) valued take-key about 6
    points of win chance below keep-diamonds: the hint's chance fell, the review called
    taking the key a mistake and the tutor asked to confirm it. The hint's chance
    (`estimate`, no look-ahead) must not fall when the key is taken."""
    for seed in range(5):
        state = cretan_key_offered(players, seed)
        me = state.current_player
        after: dict[str, float] = {}
        for move in state.legal_moves():
            copy = state.search_copy()
            copy.play(move)
            after[move.kind] = learned.estimate(copy, me)
        assert after["take-key"] >= after["keep-diamonds"], (seed, after)


@pytest.mark.parametrize("players", [
    2,
    pytest.param(3, marks=pytest.mark.xfail(strict=True, reason=(
        "the computer's search (its TD-leaf model at the leaves) values keep-diamonds "
        "3.4-7.9 points above take-key in 3 of the 5 positions at 3 players, 5.1-6.0 in "
        "3 of 5 at 4 (11-15 by the progress heuristic before), and the review says what "
        "the computer believes. Played out (benchmarks/magic_key.py, 100 games a choice "
        "at normal) keeping is no worse at 3 players (-3.4 points [-8.8, +1.6] for "
        "taking), so the premise may be what is wrong there; at 4 taking leans better "
        "(+1.6 [-3.6, +7.0]): undecided (docs/ai.md, 'The Cretan Labyrinth at 4 players')"))),
    pytest.param(4, marks=pytest.mark.xfail(strict=True, reason="as at 3 players")),
])
def test_the_review_never_calls_taking_the_magic_key_a_mistake(players: int) -> None:
    """The review's and the tutor's values are the computer's search's (its evaluation,
    at least the strong level's depth): taking the key must not give away 2 points."""
    from companion.ai import review

    for seed in range(5):
        state = cretan_key_offered(players, seed)
        me = state.current_player
        valued = {m.kind: v[me] for m, v in review.move_values(state)}
        assert valued["take-key"] > valued["keep-diamonds"] - MISTAKE, (seed, valued)


def test_the_review_does_not_call_taking_the_key_a_mistake() -> None:
    """A game where the key is taken, reviewed: taking it gives nothing away."""
    from companion.ai import review

    state = cretan_key_offered(2, 0)
    take = next(m for m in state.legal_moves() if m.kind == "take-key")
    state.apply(take)
    actions = list(state.history)
    result = review.review(state.game, 2, actions)
    taken = [m for m in result.moves if m.move == take.notation]
    assert taken and not any(m.mistake for m in taken), taken
    assert take.notation not in {m.move for m in result.headline().mistakes}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_more_progress_never_lowers_the_cretan_chance(players: int) -> None:
    """Taking the key raises ``progress`` (0.5 to 0.55) and changes no other feature of
    the model, so a score that never falls as progress rises keeps it worth taking for
    any shipped weights (a retrain that breaks this fails here)."""
    model = learned.model_for("cretan-labyrinth", players)
    assert model is not None
    w_progress, w_squared = model.weights[0], model.weights[1]
    assert w_progress >= 0 and w_progress + 2 * w_squared >= 0, model.weights


def test_the_cretan_rows_read_the_stage_and_the_walks() -> None:
    """At the start every player holds nothing (stage 0) and has the nearest coloured
    space ahead; with every diamond at the palace the goal is reached (goal_near 1),
    and with the key too the stage is the key's with none, the walk to a colour again."""
    state = _cretan(3)
    wanted = len(state.game.decks.colours)
    base = 2 * (wanted + 1)
    for row in learned.cretan_rows(state):
        assert len(row) == learned.cretan_inputs(state) == base + len(learned.CRETAN_WALKS)
        assert row[0] == 1.0 and sum(row[:base]) == 1.0
        assert row[base] == 0.0 and 0.0 < row[base + 1] < 1.0
        assert row[base + 2] == 0.0 and row[base + 3] == 0.0
    state = cretan_key_offered(3, 0)
    me = state.current_player
    row = learned.cretan_rows(state)[me]
    assert row[wanted] == 1.0 and row[base] == 1.0 and row[base + 1] == 0.0
    take = next(m for m in state.legal_moves() if m.kind == "take-key")
    state.play(take)
    row = learned.cretan_rows(state)[me]
    assert row[wanted + 1] == 1.0 and row[base] == 0.0 and 0.0 < row[base + 1] < 1.0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_cretan_scores_are_the_model_chances(players: int) -> None:
    """The search's fast path (cretan_scores, read from the pieces) gives the chances
    of model_chances over features and cretan_rows, with the rows and without, in
    positions of random games (a player out of the game among them: minotaur=out)."""
    import random

    rng = random.Random(players)
    state0 = _cretan(players)
    size = learned.cretan_inputs(state0)
    seen = 0
    for g in range(4):
        game = get_game("cretan-labyrinth", **({"minotaur": "out"} if g % 2 else {}))
        state = game.new_state(players)
        assert isinstance(state, CretanLabyrinthState)
        while state.outcome is None and len(state.history) < 400:
            state.apply(random_action(state, rng.randrange))
            if len(state.history) % 17:
                continue
            weights = tuple(rng.uniform(-2, 2) for _ in learned.FEATURES)
            for squares in ((), tuple(rng.uniform(-2, 2) for _ in range(size))):
                model = learned.Model("cretan-labyrinth", players, weights, squares, True)
                fast = learned.softmax(learned.cretan_scores(model, state))
                assert fast == pytest.approx(learned.model_chances(model, learned.features(state), state), abs=1e-12)
                seen += 1
    assert seen > 20


def _cretan(players: int) -> CretanLabyrinthState:
    state = get_game("cretan-labyrinth").new_state(players)
    assert isinstance(state, CretanLabyrinthState)
    return state
