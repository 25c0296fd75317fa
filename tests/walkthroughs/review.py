"""The screens after a game and of the tutor: the game-over screen's review (its wait,
its summary, the biggest mistakes, the luck), the tutor's wait and question before a
costly move, and the settings with the tutor on. A game of Tait's Senet, resumed from
a journal of seeded random actions."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future
from dataclasses import replace
from pathlib import Path
from typing import Any
from unittest import mock

import companion.ai.review as review_module
from companion.ai.cretan_goal import goal_seeking_choice
from companion.ai.review import Evaluation, Progress, Review
from companion.app import config as cfg
from companion.app.controller import Controller, Screen
from companion.app.events import ButtonEvent, ButtonName, LoopEvent, Press
from companion.app.screens import tutor_losses
from companion.app.settings import Prefs
from companion.app.worker import Worker
from companion.devices.sources import SOURCE_NAMES
from companion.i18n import _
from companion.journal.store import JournalStore
from companion.rules import Action, Game, Phase, State, get_game, play_out, random_action
from companion.rules.cretan_labyrinth import CretanLabyrinthState
from companion.ui.view import View
from walkthroughs import scripted_draw

OK = ButtonEvent(ButtonName.OK, Press.PRESSED)
DOWN = ButtonEvent(ButtonName.DOWN, Press.PRESSED)
BACK = ButtonEvent(ButtonName.BACK, Press.SHORT)

TUTOR_SHARE = 0.05
"""The tutor's share in these walks (the lowest offered): Tait's Senet is mostly luck,
and a single move there seldom gives away more than 10% of the chance to win."""


class HeldExecutor(Executor):
    """An executor that runs nothing until :meth:`run` (a worker thread made to wait:
    the screens that wait for the worker)."""

    def __init__(self) -> None:
        self.jobs: list[tuple[Future[Any], Callable[[], Any]]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self.jobs.append((future, lambda: fn(*args, **kwargs)))
        return future

    def run(self) -> None:
        jobs, self.jobs = self.jobs, []
        for future, job in jobs:
            future.set_result(job())


def random_actions(seed: int, stop: Callable[[State], bool] | None = None) -> list[Action]:
    """A random game of Tait's Senet (seeded) up to the first position where ``stop``
    holds (else to its end)."""
    return play_out(get_game("senet-tait").new_state(), random.Random(seed).randrange, until=stop).history


_REVIEW = review_module.review
"""The review itself (:func:`companion.ai.review.review`)."""
_KEPT: dict[tuple[object, ...], Review] = {}
"""The reviews :func:`kept_review` has worked out in this test process, by game,
players, actions and the search's evaluation."""


def kept_review(game: Game, players: int, actions: Sequence[Action],
                names: Sequence[str] | None = None, progress: Progress | None = None,
                cancel: threading.Event | None = None,
                evaluation: Evaluation | None = None) -> Review:
    """:func:`companion.ai.review.review`, each review worked out once in a test process
    and kept (the walkthroughs' game, ``random_actions(7)``, takes about 20 CPU s and
    is shown by eight tests: the review screens' own, the screens' and both reference
    walks). Only a plain call is kept, by its game, players and actions and the
    evaluation the search would use (``search_chances``, as the module holds it now);
    with ``names``, ``progress``, ``evaluation`` or a ``cancel`` set it is the review's
    own call. Installed with :func:`reviews_kept` where the controller reviews; a
    review that fails is not kept (each caller sees it fail). A :class:`Review` is
    frozen: one object shared is safe."""
    if names is not None or progress is not None or evaluation is not None or (
            cancel is not None and cancel.is_set()):
        return _REVIEW(game, players, actions, names, progress, cancel, evaluation)
    key = (game.id, players, tuple(actions), review_module.search_chances)  # type: ignore[attr-defined]
    if key not in _KEPT:
        _KEPT[key] = _REVIEW(game, players, actions, cancel=cancel)
    return _KEPT[key]


def reviews_kept() -> mock._patch[Any]:
    """A context (or a ``with`` of a test) in which the controller's reviews, looked up
    as ``companion.ai.review.review`` when it hands one to the worker, are
    :func:`kept_review`'s."""
    return mock.patch.object(review_module, "review", kept_review)


def costly(state: State) -> bool:
    """A choice where one move gives away more than the walk's tutor share and another none."""
    if state.phase is not Phase.MOVE or len(state.legal_moves()) < 2:
        return False
    losses = [loss for _notation, loss in tutor_losses(state)]
    return max(losses) > TUTOR_SHARE and min(losses) == 0.0


def resumed(workdir: Path, actions: list[Action], prefs: Prefs | None = None,
            worker: Worker | None = None) -> Controller:
    """A controller on the screen the position after ``actions`` calls for, reached by
    resuming a journal of them (splash, Resume, the board shown on resuming)."""
    game = get_game("senet-tait")
    store = JournalStore(workdir)
    journal = store.begin(game, 2, started="2026-01-01T00:00:00+00:00")
    state = game.new_state()
    for action in actions:
        by = state.player_to_act_name
        journal.append(by, action, state.apply(action))
    journal.close()
    ctl = Controller(store=store, draw=scripted_draw([]), sources=list(SOURCE_NAMES),
                     source="gpio-shaker", prefs=prefs, worker=worker)
    ctl.start()
    for event in (OK, OK, OK):  # splash, Resume, the board
        ctl.handle(event)
    return ctl


def on(ctl: Controller) -> Screen:
    """The screen shown (a function, so the type checker does not narrow it)."""
    return ctl.screen


def tutor_prefs() -> Prefs:
    """The defaults with the tutor on at :data:`TUTOR_SHARE`."""
    return replace(Prefs.from_config({**cfg.defaults(), "throw.source": "gpio-shaker"}),
                   tutor=True, tutor_share=TUTOR_SHARE)


def walk(workdir: Path) -> Iterator[tuple[str, View]]:
    """The review's and the tutor's screens; yield ``(name, view)`` for each."""
    executor = HeldExecutor()
    worker = Worker(executor)
    results: list[Any] = []
    worker.connect(lambda: None, results.append)
    ctl = resumed(workdir / "review", random_actions(7), worker=worker)

    def send(*events: LoopEvent) -> View:
        for ev in events:
            ctl.handle(ev)
        return ctl.view()

    assert on(ctl) is Screen.OVER, on(ctl)
    yield "pause-review", send(BACK)                          # the cursor on Review
    with reviews_kept():
        reviewing = send(OK)                                  # the worker reviews
    yield "reviewing", reviewing
    executor.run()
    yield "review", send(*results)                            # the summary
    results.clear()
    yield "review-mistakes", send(OK)                         # the three biggest mistakes
    yield "review-luck", send(OK, DOWN, OK)                   # each player's luck

    # The tutor: a person's choice where one move gives away more than the share.
    held = HeldExecutor()
    valued: list[Any] = []
    tutor_worker = Worker(held)
    tutor_worker.connect(lambda: None, valued.append)
    tutor = resumed(workdir / "tutor", random_actions(1, costly), prefs=tutor_prefs(),
                    worker=tutor_worker)
    assert on(tutor) is Screen.MOVES and tutor.state is not None, on(tutor)
    losses = dict(tutor_losses(tutor.state))
    worst = max(tutor.state.legal_moves(), key=lambda m: losses[m.notation])
    for _step in range([m for _label, m in tutor.choices()].index(worst)):
        tutor.handle(DOWN)
    tutor.handle(OK)
    assert on(tutor) is Screen.CHECKING, on(tutor)
    yield "tutor-checking", tutor.view()                      # the moves not valued yet
    held.run()
    for result in valued:
        tutor.handle(result)
    assert on(tutor) is Screen.TUTOR, on(tutor)
    yield "tutor-confirm", tutor.view()                       # "It loses 8%... Play it?"
    for event in (BACK, BACK, DOWN, DOWN, OK):                # No, the pause menu, Settings
        tutor.handle(event)
    assert on(tutor) is Screen.SETTINGS, on(tutor)
    for _step in range(tutor.view().items.index(_("Tutor asks at: {share}%").format(share=5))):
        tutor.handle(DOWN)
    yield "settings-tutor", tutor.view()                      # the tutor's two rows


__all__ = ["HeldExecutor", "kept_review", "random_actions", "reviews_kept", "walk"]


def cretan_key_offered(players: int, seed: int) -> CretanLabyrinthState:
    """A Cretan Labyrinth position where the player to act, four diamonds in hand in
    the palace, may take the Magic Key or keep the diamonds (every seat played by the
    goal-seeking player, throws seeded): the one decision that decides whether anybody
    escapes (tests/ai: the search, the learned model and the review must value taking
    the key)."""
    rng = random.Random(seed)
    state = get_game("cretan-labyrinth").new_state(players)
    assert isinstance(state, CretanLabyrinthState)
    while True:
        assert state.phase is not Phase.OVER
        if state.phase is Phase.THROW:
            state.apply(random_action(state, rng.randrange))
            continue
        moves = state.legal_moves()
        if any(m.kind == "take-key" for m in moves):
            return state
        state.apply(moves[goal_seeking_choice(state, moves)])
