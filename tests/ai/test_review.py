"""The game review judges as the computer plays: its values are the search's at the
same depth, a random player carries the mistakes against ``strong``, a move onto a trap
is a mistake, the computer's own choice is none; errors stay within 0..100 points;
`companion journal review` / `export --review` and the page read a real journal."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from companion.ai import labyrinth_leaf, review
from companion.ai.learned import search_chances
from companion.ai.player import choose, hint, player
from companion.ai.search import RankedMove, Search, candidate_chances, move_chances, turn_plies
from companion.cli import main
from companion.i18n import set_language
from companion.journal.store import JournalStore
from companion.rules import Action, Move, Phase, State, game_ids, get_game, play_out, random_action
from companion.ui.review_words import (
    MISTAKE,
    RATINGS,
    move_words,
    points,
    rating_key,
    signed_points,
)


def position(game_id: str, seed: int, steps: int) -> State:
    """The position after ``steps`` random actions (or the end) of a seeded game."""
    state = get_game(game_id).new_state()
    return play_out(state, random.Random(seed).randrange, until=lambda s: len(s.history) >= steps)


def positions(game_id: str, seeds: range, steps: int = 60) -> list[State]:
    """Positions where a decision with a choice is due, one per seed: the first such
    after ``steps`` random actions of a seeded game."""
    found: list[State] = []
    for seed in seeds:
        state = position(game_id, seed, steps)
        rng = random.Random(seed)
        while state.phase is not Phase.OVER:
            if state.phase is not Phase.THROW and len(state.legal_moves()) > 1:
                found.append(state)
                break
            # the one legal move is taken as it is: random_action would spend a number on it
            forced = state.throw_spec is None
            state.apply(state.legal_moves()[0] if forced else random_action(state, rng.randrange))
    return found


@pytest.mark.parametrize("game_id", game_ids())
def test_the_review_ranks_as_the_hint_and_searches_its_candidates_deeper(game_id: str) -> None:
    """The review analyses deeper than ``strong`` plays, as GNU Backgammon with move
    filters: at ``strong``'s depth its ranking is the hint's at ``strong`` (the same
    search: the same moves, values and order, so it never ranks a move above the
    hint's at the same depth); the filter's candidates (the hint's first moves) are
    searched deeper by the same search, and that deeper depth is the one reported.
    (Before, the review searched every move at no more than the depth ``strong``
    finished, so ``strong``'s move had an error of 0 by construction where ``strong``
    finished the review's depth; casting-stick Senet was judged so until its deeper
    search filtered the turns below the candidates, ``review.TURN_ENDS_KEPT``.)"""
    game = get_game(game_id)
    for state in positions(game_id, range(3)):
        me = state.current_player
        judged = review.judge(state)
        found = hint(state, "strong", shown=False)
        assert judged.hint_depth == found.depth >= 1
        assert [(r.move, r.value) for r in judged.ranking] == [(r.move, r.value) for r in found.rows]
        assert judged.depth == review.deeper_depth(state, found.depth) == review.decision_depth(state)
        assert judged.depth > found.depth and judged.deeper
        rest = 1 if game.turn_is_one_ply else turn_plies(state) + 1
        assert judged.depth >= max(review.base_depth(game_id), rest)
        kept = [m for m, _v in judged.values]
        assert kept == review.move_filter(judged.ranking, turns=game.turn_is_one_ply)
        assert kept[0] == found.move and len(kept) >= 2
        if game.turn_is_one_ply:  # each candidate's best end, a filter at every turn below
            assert judged.values == tuple(candidate_chances(
                state, kept, judged.depth, None, search_chances, review.DEEPER_NODES,
                review.ENDS_KEPT, found.depth, review.TURN_ENDS_KEPT))
            continue
        run = Search.for_game(game)  # one search for the candidates, in the filter's order
        for move, values in judged.values:
            assert values == run.value(after(state, move), judged.depth - 1), move
        assert all(sum(v) == pytest.approx(1.0) for _m, v in judged.values)
        assert max(v[me] for _m, v in judged.values) >= 0.0


def test_the_move_filter_keeps_the_best_few_and_the_played_move() -> None:
    """The first two always, up to four within 5 points of the best (two where a whole
    turn is one ply), and the played move on top wherever it ranks."""
    state = next(s for s in positions("labyrinth", range(20)) if len(s.legal_moves()) >= 5)
    moves = state.legal_moves()
    ranked = [RankedMove(m, 0.6 - 0.02 * i, 1) for i, m in enumerate(moves)]
    assert review.move_filter(ranked) == list(moves[:3])  # 0.60, 0.58, 0.56 (0.54 is 6 below)
    assert review.move_filter(ranked, moves[4]) == [*moves[:3], moves[4]]
    assert review.move_filter(ranked, moves[4], turns=True) == [*moves[:2], moves[4]]
    close = [RankedMove(m, 0.6 - 0.001 * i, 1) for i, m in enumerate(moves)]
    assert review.move_filter(close) == list(moves[:4])


def test_over_its_node_cap_a_decision_is_valued_at_the_hints_depth(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The deeper search of one decision stops at ``DEEPER_NODES`` expansions (the same
    on every machine; it bounds memory too): the decision is then valued at the hint's
    depth with the search's values of that depth, and its depth says so."""
    state = positions("labyrinth", range(1))[0]
    monkeypatch.setattr(review, "DEEPER_NODES", 3)
    judged = review.judge(state)
    assert not judged.deeper and judged.depth == judged.hint_depth
    assert dict(judged.values) == dict(move_chances(state, judged.hint_depth))


def test_a_move_of_the_labyrinth_is_valued_at_the_end_of_the_movers_turn() -> None:
    """A turn of the Labyrinth is two decisions (a die each): the first die's move is
    valued with the best use of the second, never in the middle of the turn."""
    state = next(s for s in positions("labyrinth", range(20)) if turn_plies(s) == 2)
    me = state.current_player
    depth = review.decision_depth(state)
    assert depth >= 3
    for move, values in review.move_values(state):
        after = state.search_copy()
        after.play(move)
        if after.phase is Phase.MOVE and after.current_player == me and len(after.legal_moves()) > 1:
            second = move_chances(after, depth - 1)
            assert values[me] == max(v[me] for _m, v in second)


def strong_against_random(seed: int) -> tuple[list[Action], State]:
    """A seeded Labyrinth game: ``strong`` (Red, seat 0) against random moves (Blue)."""
    rng = random.Random(seed)
    state = get_game("labyrinth").new_state(2)
    actions: list[Action] = []
    while state.phase is not Phase.OVER and len(actions) < 2000:
        action: Action
        if state.phase is not Phase.THROW and state.current_player == 0:
            action = choose(state, "strong").move
        else:
            action = random_action(state, rng.randrange)
        state.apply(action)
        actions.append(action)
    return actions, state


def test_in_strong_against_random_the_random_player_carries_the_mistakes() -> None:
    """Measured from outside before: a seeded Labyrinth review of ``strong`` against
    random play put all five worst mistakes on the strong computer's moves. Now most of
    them are the random player's, its error per move is several times the computer's,
    and its word is worse."""
    actions, state = strong_against_random(11)  # 136 actions (seed 1: 267, twice the review)
    assert state.outcome is not None and state.outcome.winners == (0,)
    result = review.review(state.game, 2, actions)
    worst = result.worst(5)
    assert len(worst) == 5
    assert sum(1 for m in worst if m.player == 1) >= 4, [(m.player, m.move, m.error) for m in worst]
    strong, rand = result.players
    assert rand.error_per_move > 4 * strong.error_per_move
    assert rand.mistakes > 4 * strong.mistakes
    words = [word for _bound, word in RATINGS]
    assert words.index(rand.rating) > words.index(strong.rating)


def test_the_reviews_own_best_move_is_never_a_mistake() -> None:
    """A whole game of Tait's Senet where every seat plays the move the review values
    best (its filter's candidates searched deeper): no error at all, no mistake, the
    best rating. (Before, every seat played the search's first move at the review's
    depth, which the review searched every move to.)"""
    rng = random.Random(0)  # 380 actions, 94 choices (seed 3: 492, 141; 2/3 of the work)
    state = get_game("senet-tait").new_state()
    actions: list[Action] = []
    while state.phase is not Phase.OVER:
        action: Action
        if state.phase is Phase.THROW:
            action = random_action(state, rng.randrange)
        elif len(state.legal_moves()) > 1:
            me = state.current_player
            action = max(review.judge(state).values, key=lambda mv: mv[1][me])[0]
        else:
            action = state.legal_moves()[0]
        state.apply(action)
        actions.append(action)
    result = review.review(state.game, 2, actions)
    assert len(result.moves) > 20
    assert all(m.error == 0.0 for m in result.moves), [m for m in result.moves if m.error]
    assert all(m.depth > m.hint_depth for m in result.moves)
    assert result.worst() == ()
    assert [p.rating for p in result.players] == ["Supernatural", "Supernatural"]


@pytest.mark.parametrize("seed", [0, 1, 4])
def test_a_move_onto_the_trap_on_52_is_called_a_mistake(seed: int) -> None:
    """A deliberately bad move: in the Labyrinth a piece that lands on 52 loses two
    turns and then drops through the tunnel to 7 (45 fields back), where another move
    was legal. The review by progress less the pieces at risk (``labyrinth_leaf``, the
    search's leaf at two players until branch td7laby) calls it a mistake and names
    another move as the best. The shipped TD-leaf model (the two-player search's leaf
    since) also names another move and gives it an error, but of 0.6-1.1 points of
    chance in these three games, under the 2 points of a mistake: it learned that a
    piece on the fields before 52 is often sent back anyway (their values -0.1 to
    -0.23 beside progress) and values a piece trapped there +0.18 (docs/ai.md, "The
    sixth round")."""
    rng = random.Random(seed)
    state = get_game("labyrinth").new_state(2)
    actions: list[Action] = []
    bad: Move | None = None
    while bad is None:
        assert state.phase is not Phase.OVER
        if state.phase is not Phase.THROW:
            moves = state.legal_moves()
            trap = [m for m in moves if m.kind == "move" and m.dst == 52]
            if trap and len(trap) < len(moves):
                bad = trap[0]
                actions.append(bad)
                break
        action = random_action(state, rng.randrange)
        state.apply(action)
        actions.append(action)
    assert bad is not None
    result = review.review(state.game, 2, actions, evaluation=labyrinth_leaf.chances)
    last = result.moves[-1]
    assert last.number == len(actions) and last.move == bad.notation
    assert last.mistake and last.error >= MISTAKE, last
    assert last.best_move != last.move and last in result.worst(len(result.moves))
    shipped = review.review(state.game, 2, actions).moves[-1]
    assert shipped.move == bad.notation and shipped.best_move != shipped.move
    assert shipped.error > 0.005, shipped


def broken(state: State) -> tuple[float, ...]:
    """An evaluation that is not a chance: 1.64 for the first player."""
    return (1.64, -0.64) if state.outcome is None else (0.5, 0.5)


def test_a_chance_outside_zero_to_one_is_refused_not_shown() -> None:
    """Errors are 0..100 points because both values are chances in [0, 1]: an
    evaluation that gives 164% (casting-stick Senet once reported "Red lost 164%") is
    refused with the position named, never shown."""
    actions = played_randomly("senet-tait", 1, 40)
    with pytest.raises(ValueError, match=r"outside 0\.\.1 at"):
        review.review(get_game("senet-tait"), 2, actions, evaluation=broken)


@pytest.mark.parametrize("game_id", game_ids())
def test_errors_and_luck_stay_within_their_bounds_in_whole_games(game_id: str) -> None:
    """Every error is 0..1 (100 points), every luck -1..1, every chance 0..1 and each
    vector sums to 1, in the review of a random game's first 80 actions (casting-stick
    Senet, the slowest to review: 40)."""
    players = 2
    actions = played_randomly(game_id, 2, 40 if game_id == "senet-sticks" else 80)
    result = review.review(get_game(game_id), players, actions)
    assert result.moves and result.throws
    for m in result.moves:
        assert 0.0 <= m.chosen <= m.best <= 1.0 and 0.0 <= m.error <= 1.0, m
        # deeper than strong's search (the hint's depth), unless over the node cap
        assert (m.depth > m.hint_depth and m.depth >= review.base_depth(game_id)) or (
            m.depth == m.hint_depth), m
    assert all(-1.0 <= t.luck <= 1.0 and 0 <= t.after <= 1 for t in result.throws)
    assert all(sum(v) == pytest.approx(1.0) for v in result.chances)
    assert all(p.rating in [w for _b, w in RATINGS] for p in result.players)
    assert all(m.error >= MISTAKE for m in result.worst(len(result.moves)))


@pytest.mark.parametrize("game_id", game_ids())
def test_every_value_the_review_shows_is_the_computers_search_at_its_depth(game_id: str) -> None:
    """The review counts plies as the computer and the hint do (``Search.for_game``): a
    whole casting-stick Senet turn is one ply, a throw at the horizon of Tait's Senet a
    leaf, a ride, a crossing or the orbit's free die of the Labyrinth no ply. Every
    throw's value is the search's at :data:`~companion.ai.review.LUCK_DEPTHS`, its
    average the chance-weighted mean of every outcome's at that depth, and the chance
    after a forced move the search's at the game's review depth. (Before, the review's
    luck and graph were searched by a ``Search`` without the game's plies: a ride cost
    a ply, a cast's values were plies rather than its whole turn.) Raw values (the
    evaluation passed: no calibration map), so they compare exactly."""
    game = get_game(game_id)
    count = {"senet-sticks": 24, "labyrinth": 30}.get(game_id, 40)
    actions = played_randomly(game_id, 5, count)
    result = review.review(game, 2, actions, evaluation=search_chances)
    luck, base = review.luck_depth(game_id), review.base_depth(game_id)
    throws = {t.number: t for t in result.throws}
    reviewed = {m.number for m in result.moves}
    state = game.new_state(2)
    checked = 0
    for number, action in enumerate(actions, start=1):
        me = state.current_player
        if number in throws:
            run = Search.for_game(game)  # one search a throw, as the review's
            average = sum(w * run.value(after(state, t), luck)[me]
                          for t, _p, w in state.chance_outcomes())
            thrown = run.value(after(state, action), luck)[me]
            assert throws[number].after == pytest.approx(thrown, abs=1e-12), number
            assert throws[number].average == pytest.approx(average, abs=1e-12), number
            checked += 1
        elif number not in reviewed:  # a forced move: the graph's chance after it
            expected = Search.for_game(game).value(after(state, action), base)
            assert result.chances[number] == pytest.approx(expected, abs=1e-12), number
        state.apply(action)
    assert checked >= 5


def after(state: State, action: Action) -> State:
    """A copy of ``state`` with ``action`` played."""
    copy = state.search_copy()
    copy.play(action)
    return copy


def played_randomly(game_id: str, seed: int, count: int) -> list[Action]:
    """The first ``count`` actions of a seeded random game (fewer if it ends)."""
    state = get_game(game_id).new_state()
    return play_out(state, random.Random(seed).randrange, until=lambda s: len(s.history) >= count).history


def test_the_words_of_the_review() -> None:
    """GNU Backgammon's error-rate words, its thresholds halved (equity units to
    chance); points of chance never "-0"; a named decision in words."""
    assert [rating_key(x) for x in (0.0, 0.00099, 0.001, 0.0024, 0.005, 0.0089, 0.0174,
                                     0.0175, 0.5)] == [
        "Supernatural", "Supernatural", "World class", "World class", "Advanced",
        "Intermediate", "Beginner", "Awful!", "Awful!"]
    with pytest.raises(ValueError):
        rating_key(-0.01)
    assert points(-0.00001) == "0" and signed_points(-0.00001) == "0"
    assert (points(0.0234), signed_points(0.0234), points(0.164)) == ("2.3", "+2.3", "16")
    assert move_words("face-danger") == "face the danger" and move_words("12-16") == "12-16"
    set_language("de")
    try:
        assert move_words("face-danger") == "der Gefahr begegnen"
        assert rating_key(0.02) == "Awful!"
    finally:
        set_language("en")


def played(game_id: str, seed: int, pick_worst: int | None) -> tuple[list[Action], State]:
    """A whole game: every seat plays the greedy baseline's move (one ply), except
    ``pick_worst`` (a seat), which plays a random one (a journal to read)."""
    greedy = player("greedy")
    rng = random.Random(seed)
    state = get_game(game_id).new_state()
    actions: list[Action] = []
    while state.phase is not Phase.OVER and len(actions) < 3000:
        action: Action
        if state.phase is Phase.THROW or state.current_player == pick_worst:
            action = random_action(state, rng.randrange)
        else:
            action = greedy(state, rng)
        state.apply(action)
        actions.append(action)
    return actions, state


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
    path, count = write_journal(tmp_path, "labyrinth", 24)  # 90 actions (seed 14: 157)
    assert main(["journal", "review", str(path)]) == 0
    out, err = capsys.readouterr()
    assert "Red" in out and "Blue" in out and "Biggest swings:" in out
    assert "error/move" in out and "luck/throw" in out and "-0 " not in out
    assert f"reviewing: action {count} of {count}" in err


def test_export_with_review_adds_the_review_block(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, count = write_journal(tmp_path, "senet-tait", 5)
    assert main(["journal", "export", str(path)]) == 0
    plain = json.loads(capsys.readouterr()[0])
    assert "review" not in plain
    assert main(["journal", "export", str(path), "--review"]) == 0
    data = json.loads(capsys.readouterr()[0])
    block = data["review"]
    assert len(block["chances"]) == count + 1
    assert [p["name"] for p in block["players"]] == ["Black", "White"]
    assert all(0 <= m["error"] <= 1 for m in block["moves"])
    assert block["throws"] and all(-1 <= t["luck"] <= 1 for t in block["throws"])
    # the keys there were before, and the new ones
    assert {"depth", "evaluation", "players", "moves", "throws", "chances", "swings",
            "mistake"} <= set(block)
    assert {"name", "moves", "error", "error_per_move", "luck", "rating", "mistakes", "throws",
            "luck_per_throw"} <= set(block["players"][0])
    assert {"n", "by", "move", "chosen", "best", "best_move", "error", "worst", "mistake",
            "depth"} <= set(block["moves"][0])


def test_the_page_of_a_finished_game_shows_its_review(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from companion.web.app import create_app
    from companion.web.reviews import Reviews

    path, _count = write_journal(tmp_path, "senet-tait", 5)
    reviews = Reviews()
    c = TestClient(create_app(tmp_path, poll=0.01, stream_limit=1, reviews=reviews))
    assert c.get(f"/game/{path.name}").status_code == 200  # asks for the review
    assert reviews.wait()  # worked out in the background
    page = c.get(f"/game/{path.name}")
    assert page.status_code == 200
    html = page.text
    assert '<section class="review">' in html and 'class="chances"' in html
    assert html.count('<polyline class="line"') == 2  # a line per player (each on a dark edge)
    assert "Worst mistakes" in html and "Biggest swings" in html
