"""The game review: a move's error is never negative, a throw's luck averages to zero
over the throws of its position, and `companion journal review` / `export --review`
read a real journal."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.ai import review
from companion.app.journal import JournalStore
from companion.cli import main
from companion.rules import Action, Phase, State, game_ids, get_game


def position(game_id: str, seed: int, steps: int) -> State:
    """The position after ``steps`` random actions (or the end) of a seeded game."""
    rng = random.Random(seed)
    state = get_game(game_id).new_state()
    for _ in range(steps):
        if state.phase is Phase.OVER:
            break
        if state.phase is Phase.THROW:
            spec = state.throw_spec
            assert spec is not None
            state.apply(spec.draw(rng.randrange))
        else:
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
    return state


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(game_ids()), st.integers(0, 10_000), st.integers(0, 120))
def test_errors_are_never_negative_and_luck_averages_to_zero(
    game_id: str, seed: int, steps: int
) -> None:
    state = position(game_id, seed, steps)
    if state.phase is Phase.OVER:
        return
    me = state.current_player
    if state.phase is Phase.THROW:
        outcomes = review.throw_values(state)
        exact = sum((p for _t, p, _w in state.chance_outcomes()), Fraction(0))
        assert exact == 1
        average = sum(w * v[me] for _t, w, v in outcomes)
        luck = [v[me] - average for _t, _w, v in outcomes]
        assert abs(sum(w * x for (_t, w, _v), x in zip(outcomes, luck, strict=True))) < 1e-12
        assert all(0.0 <= v[me] <= 1.0 for _t, _w, v in outcomes)
    else:
        valued = review.move_values(state)
        best = max(v[me] for _m, v in valued)
        for move, values in valued:
            error = review.MoveReview(1, me, move.notation, values[me], best, "", len(valued)).error
            assert error >= 0.0
            assert sum(values) == pytest.approx(1.0)


def played(game_id: str, seed: int, pick_worst: int | None) -> tuple[list[Action], State]:
    """A whole game: every seat plays the best move by the review's values, except
    ``pick_worst`` (a seat), which plays the worst."""
    rng = random.Random(seed)
    state = get_game(game_id).new_state()
    actions: list[Action] = []
    while state.phase is not Phase.OVER and len(actions) < 3000:
        action: Action
        if state.phase is Phase.THROW:
            spec = state.throw_spec
            assert spec is not None
            action = spec.draw(rng.randrange)
        else:
            me = state.current_player
            valued = review.move_values(state)
            choose = min if me == pick_worst else max
            action = choose(valued, key=lambda mv: mv[1][me])[0]
        state.apply(action)
        actions.append(action)
    return actions, state


def test_the_player_who_plays_the_worst_moves_carries_the_error() -> None:
    actions, state = played("senet-tait", 2, pick_worst=1)
    result = review.review(state.game, state.players, actions)
    best_player, worst_player = result.players
    assert best_player.error == pytest.approx(0.0, abs=1e-12)
    assert worst_player.error > 0.1 and worst_player.moves > 0
    assert all(m.player == 1 for m in result.worst())
    assert len(result.chances) == len(actions) + 1
    headline = result.headline()
    assert len(headline.mistakes) == 3 and [n for n, _ in headline.luck] == ["Black", "White"]
    assert all(m.player == 1 for m in headline.mistakes)
    swings = result.swings()
    assert 1 <= len(swings) <= 3 and all(s.startswith("action ") for s in swings)
    said = result.swings(where=lambda n: f"move {n} of the record")  # as a reader counts
    assert [s.removeprefix("move ") for s in said] == [
        s.removeprefix("action ").replace(":", " of the record:", 1) for s in swings]


def write_journal(directory: Path, game_id: str, seed: int) -> tuple[Path, int]:
    actions, state = played(game_id, seed, pick_worst=None)
    game = get_game(game_id)
    journal = JournalStore(directory).begin(game, state.players)
    replay = game.new_state(state.players)
    for action in actions:
        by = replay.player_to_act_name
        events = replay.apply(action)
        journal.append(by, action, events)
    outcome = replay.outcome
    if outcome is not None:
        names = [game.player_name(p, replay.players) for p in outcome.winners]
        journal.end(outcome.reason, names)
    journal.close()
    return journal.path, len(actions)


def test_journal_review_prints_the_totals_and_a_progress_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, count = write_journal(tmp_path, "labyrinth", 3)
    assert main(["journal", "review", str(path)]) == 0
    out, err = capsys.readouterr()
    assert "Red" in out and "Blue" in out and "Biggest swings:" in out
    assert f"reviewing: action {count} of {count}" in err


def test_export_with_review_adds_the_review_block(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, count = write_journal(tmp_path, "senet-tait", 4)
    assert main(["journal", "export", str(path)]) == 0
    plain = json.loads(capsys.readouterr()[0])
    assert "review" not in plain
    assert main(["journal", "export", str(path), "--review"]) == 0
    data = json.loads(capsys.readouterr()[0])
    block = data["review"]
    assert len(block["chances"]) == count + 1
    assert [p["name"] for p in block["players"]] == ["Black", "White"]
    assert all(m["error"] >= 0 for m in block["moves"])
    assert block["throws"] and all(-1 <= t["luck"] <= 1 for t in block["throws"])


def test_the_page_of_a_finished_game_shows_its_review(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from companion.web.app import create_app

    path, _count = write_journal(tmp_path, "senet-tait", 5)
    page = TestClient(create_app(tmp_path, poll=0.01, stream_limit=1)).get(f"/game/{path.name}")
    assert page.status_code == 200
    html = page.text
    assert '<section class="review">' in html and 'class="chances"' in html
    assert html.count('<polyline class="line"') == 2  # a line per player (each on a dark edge)
    assert "Worst mistakes" in html and "Biggest swings" in html
