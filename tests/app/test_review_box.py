"""After a game the box offers its review (worked out on the worker, BACK leaves the
wait and the late result is dropped); the tutor asks before a costly move and not
before the best one; both tutor settings are on the settings screen and saved."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from controller_tools import BACK, DOWN, OK, UP, on, send
from walkthroughs import scripted_draw
from walkthroughs.review import HeldExecutor, kept_review, random_actions, reviews_kept

from companion.app import config as cfg
from companion.app.controller import Controller, Screen
from companion.app.events import MovesValued, ReviewDone, WorkDone
from companion.app.screens import tutor_losses
from companion.app.settings import Prefs, SavedSettings
from companion.app.worker import Worker
from companion.devices.sources import SOURCE_NAMES
from companion.journal.store import JournalStore
from companion.rules import Action, Move, Phase, State, get_game
from companion.ui.review_words import MISTAKE, points, signed_points


def resumed(tmp_path: Path, actions: list[Action], prefs: Prefs | None = None,
            worker: Worker | None = None, saved: SavedSettings | None = None) -> Controller:
    """A controller on the screen the position after ``actions`` calls for, reached by
    resuming a journal of them (splash, Resume, the board shown on resuming)."""
    game = get_game("senet-tait")
    store = JournalStore(tmp_path / "games")
    journal = store.begin(game, 2, started="2026-01-01T00:00:00+00:00")
    state = game.new_state()
    for action in actions:
        by = state.player_to_act_name
        journal.append(by, action, state.apply(action))
    journal.close()
    ctl = Controller(store=store, draw=scripted_draw([]), sources=list(SOURCE_NAMES),
                     source="gpio-shaker", prefs=prefs, worker=worker, saved=saved)
    ctl.start()
    send(ctl, OK, OK, OK)  # splash, Resume, the board
    return ctl


def tutor_prefs(share: float) -> Prefs:
    return replace(Prefs.from_config({**cfg.defaults(), "throw.source": "gpio-shaker"}),
                   tutor=True, tutor_share=share)


def percents(line: str) -> list[float]:
    return [float(x) for x in re.findall(r"-(\d+(?:\.\d)?)%", line)]


# ---------------------------------------------------------------------- the review


@pytest.fixture(autouse=True)
def _one_review() -> Iterator[None]:
    """The review of ``random_actions(7)``, which four tests here show, worked out once
    (walkthroughs.review.kept_review: kept by game, players and actions, so a review
    asked for another game, or for the wrong actions, is worked out anew)."""
    with reviews_kept():
        yield


def test_the_game_over_screen_leads_to_the_review_and_ok_still_begins_anew(tmp_path: Path) -> None:
    ctl = resumed(tmp_path, random_actions(7))
    assert on(ctl) is Screen.OVER
    assert ctl.view().lines[0].endswith("wins!") and ctl.view().hint == "OK: new  BACK: review"
    send(ctl, BACK)  # the pause menu, the cursor on Review (undo is still there)
    assert on(ctl) is Screen.PAUSE and ctl.view().items[ctl.cursor] == "Review"
    assert "Undo last move" in ctl.view().items
    send(ctl, BACK, OK)  # back on the game-over screen; OK alone: a new game, as before
    assert on(ctl) is Screen.MENU


def test_the_review_lists_the_three_biggest_mistakes_largest_first(tmp_path: Path) -> None:
    actions = random_actions(7)
    ctl = resumed(tmp_path, actions)
    send(ctl, BACK, OK)  # the pause menu's Review (the inline worker reviews at once)
    assert on(ctl) is Screen.REVIEW
    summary = ctl.view()
    assert summary.items == ("Biggest mistakes", "Luck", "Done")
    expected = kept_review(get_game("senet-tait"), 2, actions)
    send(ctl, OK)
    assert on(ctl) is Screen.MISTAKES
    lines = ctl.view().lines
    worst = expected.worst(3)
    assert worst and all(m.error >= MISTAKE for m in worst)
    assert lines[len(worst):] == tuple(
        f"{p.name}: {points(p.error_per_move)} points a move, {p.rating}; "
        f"{p.mistakes} mistake{'' if p.mistakes == 1 else 's'}." for p in expected.players)
    lines = lines[:len(worst)]
    for rank, (line, mistake) in enumerate(zip(lines, worst, strict=True), start=1):
        assert line.startswith(f"{rank}. {expected.names[mistake.player]}, {mistake.move}: -")
        assert f"(best: {mistake.best_move})" in line
    lost = [float(x) for line in lines for x in re.findall(r": -(\d+(?:\.\d)?) points", line)]
    assert lost == sorted(lost, reverse=True) and lost[-1] >= 100 * MISTAKE
    assert lost == [float(points(m.error)) for m in worst]
    # OK back to the summary (its cursor kept), then Luck: every player, signed, a throw.
    send(ctl, OK)
    assert on(ctl) is Screen.REVIEW and ctl.view().cursor == 0
    send(ctl, DOWN, OK)
    assert on(ctl) is Screen.LUCK
    luck = ctl.view().lines
    assert luck[:2] == tuple(f"{p.name}: {signed_points(p.luck_per_throw)} points a throw"
                             for p in expected.players)
    send(ctl, BACK, BACK, BACK)  # the summary, the pause menu, the game-over screen
    assert on(ctl) is Screen.OVER


def test_back_while_the_review_is_worked_out_returns_and_its_late_result_is_dropped(
        tmp_path: Path) -> None:
    executor = HeldExecutor()
    worker = Worker(executor)
    results: list[WorkDone] = []
    worker.connect(lambda: None, results.append)
    ctl = resumed(tmp_path, random_actions(7), worker=worker)
    send(ctl, BACK, OK)
    assert on(ctl) is Screen.REVIEWING
    assert ctl.view().lines[0].startswith("Reviewing ")
    send(ctl, BACK)
    assert on(ctl) is Screen.PAUSE
    executor.run()  # the review finishes after the screen was left
    assert len(results) == 1 and isinstance(results[0], ReviewDone)
    ctl.handle(results.pop())
    assert on(ctl) is Screen.PAUSE  # dropped: nobody waits for it
    assert ctl.view().items[ctl.cursor] == "Review"  # the cursor stayed on Review
    send(ctl, OK)
    assert on(ctl) is Screen.REVIEWING  # asked again: reviewed anew
    executor.run()
    ctl.handle(results.pop())
    assert on(ctl) is Screen.REVIEW
    send(ctl, BACK, OK)  # once reviewed, shown at once
    assert on(ctl) is Screen.REVIEW and not executor.jobs


def test_holding_back_on_the_review_does_not_take_back_the_last_move(tmp_path: Path) -> None:
    from controller_tools import HOLD_BACK

    ctl = resumed(tmp_path, random_actions(7))
    send(ctl, BACK, OK, HOLD_BACK)
    assert on(ctl) is Screen.REVIEW
    assert ctl.state is not None and ctl.state.phase is Phase.OVER


# ---------------------------------------------------------------------- the tutor


def _costly(state: State) -> bool:
    """A person's choice where one move gives away more than 6% and another none (in
    Tait's Senet, mostly luck, a single move rarely loses more than 10%)."""
    if state.phase is not Phase.MOVE or len(state.legal_moves()) < 2:
        return False
    losses = [loss for _n, loss in tutor_losses(state)]
    return max(losses) > 0.06 and min(losses) == 0.0


@pytest.fixture(scope="module")
def costly_position() -> list[Action]:
    return random_actions(1, _costly)


def _cursor_on(ctl: Controller, move: Move) -> None:
    index = [m for _label, m in ctl.choices()].index(move)
    send(ctl, *[DOWN] * index)


def _losses(ctl: Controller) -> dict[str, float]:
    assert ctl.state is not None
    return dict(tutor_losses(ctl.state))


def test_the_tutor_asks_before_a_move_that_loses_more_than_the_share_and_not_before_the_best(
        tmp_path: Path, costly_position: list[Action]) -> None:
    ctl = resumed(tmp_path, costly_position, prefs=tutor_prefs(0.05))
    assert on(ctl) is Screen.MOVES
    assert ctl.state is not None
    losses = _losses(ctl)
    worst = max(ctl.state.legal_moves(), key=lambda m: losses[m.notation])
    best = next(m for m in ctl.state.legal_moves() if losses[m.notation] == 0.0)
    _cursor_on(ctl, worst)
    send(ctl, OK)
    assert on(ctl) is Screen.TUTOR
    view = ctl.view()
    assert view.title == f"Tutor: {worst.notation}"
    assert view.lines == (f"It loses {round(100 * losses[worst.notation])}% chance to win. Play it?",)
    assert view.items == ("No, choose again", "Yes, play it") and view.cursor == 0
    before = len(ctl.actions)
    send(ctl, OK)  # No (the default): back on the moves, the cursor where it was
    assert on(ctl) is Screen.MOVES and len(ctl.actions) == before
    assert ctl.choices()[ctl.cursor][1] == worst
    send(ctl, OK, BACK)  # asked again; BACK is No as well
    assert on(ctl) is Screen.MOVES and len(ctl.actions) == before
    send(ctl, *[UP] * ctl.cursor)
    _cursor_on(ctl, best)
    send(ctl, OK)  # the best move: played without a question
    assert on(ctl) is not Screen.TUTOR and len(ctl.actions) == before + 1
    assert ctl.actions[-1] == best


def test_yes_plays_the_costly_move_and_the_tutor_off_never_asks(
        tmp_path: Path, costly_position: list[Action]) -> None:
    ctl = resumed(tmp_path / "on", costly_position, prefs=tutor_prefs(0.05))
    losses = _losses(ctl)
    assert ctl.state is not None
    worst = max(ctl.state.legal_moves(), key=lambda m: losses[m.notation])
    _cursor_on(ctl, worst)
    send(ctl, OK, DOWN, OK)  # Yes, play it
    assert ctl.actions[-1] == worst
    off = resumed(tmp_path / "off", costly_position)  # the default: off
    _cursor_on(off, worst)
    send(off, OK)
    assert off.actions[-1] == worst


def test_a_share_above_the_loss_lets_the_move_through(
        tmp_path: Path, costly_position: list[Action]) -> None:
    ctl = resumed(tmp_path, costly_position, prefs=tutor_prefs(0.30))
    losses = _losses(ctl)
    assert ctl.state is not None
    below = [m for m in ctl.state.legal_moves() if 0.05 < losses[m.notation] <= 0.30]
    assert below, "the position has a move that loses between 5% and 30%"
    _cursor_on(ctl, below[0])
    send(ctl, OK)
    assert ctl.actions[-1] == below[0]


def test_ok_before_the_values_are_ready_waits_on_checking_which_back_leaves(
        tmp_path: Path, costly_position: list[Action]) -> None:
    executor = HeldExecutor()
    worker = Worker(executor)
    results: list[WorkDone] = []
    worker.connect(lambda: None, results.append)
    ctl = resumed(tmp_path, costly_position, prefs=tutor_prefs(0.05), worker=worker)
    assert on(ctl) is Screen.MOVES and len(executor.jobs) == 1  # valued when the list opened
    losses = _losses(ctl)
    assert ctl.state is not None
    worst = max(ctl.state.legal_moves(), key=lambda m: losses[m.notation])
    _cursor_on(ctl, worst)
    before = len(ctl.actions)
    send(ctl, OK)
    assert on(ctl) is Screen.CHECKING and ctl.view().lines == ("Checking...",)
    send(ctl, BACK)  # leaves the wait: the moves, nothing played
    assert on(ctl) is Screen.MOVES and len(ctl.actions) == before
    send(ctl, OK)
    assert on(ctl) is Screen.CHECKING and len(executor.jobs) == 1  # not asked twice
    executor.run()
    assert len(results) == 1 and isinstance(results[0], MovesValued)
    ctl.handle(results.pop())
    assert on(ctl) is Screen.TUTOR and len(ctl.actions) == before


# ---------------------------------------------------------------------- settings


def test_the_tutor_and_its_share_are_settings_saved_like_the_others(tmp_path: Path) -> None:
    saved = SavedSettings(tmp_path / "state")
    ctl = Controller(store=JournalStore(tmp_path / "games"), draw=scripted_draw([]),
                     sources=list(SOURCE_NAMES), source="gpio-shaker", saved=saved)
    ctl.start()
    send(ctl, OK, UP, OK)  # splash, the menu's last row: Settings
    assert on(ctl) is Screen.SETTINGS
    items = ctl.view().items
    assert "Tutor: off" in items and not any(i.startswith("Tutor asks") for i in items)
    send(ctl, *[DOWN] * items.index("Tutor: off"), OK)
    items = ctl.view().items
    assert "Tutor: on" in items and "Tutor asks at: 10%" in items
    send(ctl, DOWN, OK)
    assert ctl.view().items[ctl.cursor] == "Tutor asks at: 15%"
    send(ctl, OK, OK, OK)
    assert ctl.view().items[ctl.cursor] == "Tutor asks at: 5%"  # 15, 20, 30, then 5
    values, problem = saved.load()
    assert problem is None and values["ai.tutor"] is True and values["ai.tutor_share"] == 0.05


def test_a_tutor_that_fails_is_said_and_then_stays_quiet_for_that_position(
        tmp_path: Path, costly_position: list[Action], monkeypatch: pytest.MonkeyPatch) -> None:
    import companion.app.screens as sc

    def broken(state: State, cancel: object = None,
               seats: object = None) -> tuple[tuple[str, float], ...]:
        raise ValueError("no model")

    monkeypatch.setattr(sc, "tutor_losses", broken)
    executor = HeldExecutor()
    worker = Worker(executor)
    results: list[WorkDone] = []
    worker.connect(lambda: None, results.append)
    ctl = resumed(tmp_path, costly_position, prefs=tutor_prefs(0.05), worker=worker)
    assert ctl.state is not None
    move = ctl.state.legal_moves()[0]
    before = len(ctl.actions)
    send(ctl, OK)
    assert on(ctl) is Screen.CHECKING
    executor.run()
    ctl.handle(results.pop())
    assert on(ctl) is Screen.MESSAGE and ctl.view().title == "Tutor failed"
    assert "no model" in ctl.view().lines[0]
    send(ctl, OK)  # back on the moves; the move is played, unasked
    assert on(ctl) is Screen.MOVES and len(ctl.actions) == before
    send(ctl, OK)
    assert len(ctl.actions) == before + 1 and ctl.actions[-1] == move
