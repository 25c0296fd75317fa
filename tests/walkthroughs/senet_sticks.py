"""The screens particular to `senet-sticks`, made by driving the real controller.

:func:`walk` yields ``(name, view)`` pairs; :mod:`walkthroughs.screens` adds them to
the reference images (names start with the game id): the setup screen with the mode
and the extra stick, the throw screen with the Abyss count, the coloured sticks with
the usable ones marked, a combination move built step by step, a river and a capture
told in words, a resurrection from the Abyss, a lost throw and a quick-mode win.

The positions later in a game come from one seeded random game: its journal is
written up to the move wanted, resumed as the companion resumes an interrupted game,
and the move is then chosen with the buttons, one step at a time.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from companion.app.controller import Controller, Screen
from companion.app.events import ButtonEvent, ButtonName, LoopEvent, Press, Shaken
from companion.devices.sources import SOURCE_NAMES
from companion.i18n import _
from companion.journal.store import JournalStore
from companion.rules import PASS, Action, Move, get_game, play_out
from companion.rules.core import EV_CAPTURED
from companion.rules.senet_sticks import EV_RESURRECTED, EV_RIVER
from companion.ui.games import presenter_for
from companion.ui.render import columns
from companion.ui.rules_words import say
from companion.ui.view import View
from walkthroughs import scripted_draw

OK = ButtonEvent(ButtonName.OK, Press.PRESSED)
DOWN = ButtonEvent(ButtonName.DOWN, Press.PRESSED)
UP = ButtonEvent(ButtonName.UP, Press.PRESSED)
BACK = ButtonEvent(ButtonName.BACK, Press.SHORT)
SHAKE = Shaken("gpio-shaker")
GAME = "senet-sticks"


def _controller(store: Path, throws: list[str]) -> Controller:

    ctl = Controller(store=JournalStore(store), draw=scripted_draw(throws),
                     sources=list(SOURCE_NAMES), source="gpio-shaker", games=[GAME])
    ctl.start()
    return ctl


def _send(ctl: Controller, *events: LoopEvent) -> View:
    for ev in events:
        ctl.handle(ev)
    return ctl.view()


def _random_game(seed: int, **options: Any) -> list[Action]:
    """Every action of one random whole game (seeded)."""
    state = play_out(get_game(GAME, **options).new_state(), random.Random(seed).randrange)
    return list(state.history)


def _first(actions: list[Action], want: Callable[[list[str]], bool], **options: Any) -> int:
    """The index of the first move whose event kinds satisfy ``want``."""
    state = get_game(GAME, **options).new_state()
    for i, action in enumerate(actions):
        kinds = [e.kind for e in state.apply(action)]
        if isinstance(action, Move) and want(kinds):
            return i
    raise LookupError("no such move in the game")


def _resumed(workdir: Path, actions: list[Action], **options: Any) -> Controller:
    """A controller that resumed a game whose journal holds ``actions``."""
    game = get_game(GAME, **options)
    store = JournalStore(workdir)
    journal = store.begin(game, 2, started="2026-01-01T00:00:00+00:00")
    state = game.new_state()
    for action in actions:
        by = state.player_to_act_name
        journal.append(by, action, state.apply(action))
    journal.close()
    ctl = Controller(store=store, draw=lambda implement, n: _never(), sources=list(SOURCE_NAMES),
                     source="gpio-shaker", games=[GAME])
    ctl.start()
    _send(ctl, OK, OK, OK)  # splash, resume, the board shown first
    return ctl


def _on(ctl: Controller) -> Screen:
    """The screen shown (a function, so the type checker does not narrow it)."""
    return ctl.screen


def _never() -> Any:
    raise AssertionError("no throw is drawn in these screens")


def _choose(ctl: Controller, move: Move) -> Iterator[View]:
    """Choose ``move`` step by step with DOWN and OK; yield the view before each OK."""
    state = ctl.state
    assert state is not None
    steps = presenter_for(GAME, columns(ctl.size[0])).choice_steps(state, move)
    for depth in range(len(steps) + 1):
        labels = [label for label, _ in ctl.choices()]
        label = steps[depth] if depth < len(steps) else _("play {move}").format(move=say(move.notation))
        if depth == len(steps) and label not in labels:
            break
        target = labels.index(label)
        for _step in range(target - ctl.cursor):
            ctl.handle(DOWN)
        yield ctl.view()
        ctl.handle(OK)
        if ctl.screen is not Screen.MOVES or not ctl.path:
            break


def walk(workdir: Path) -> Iterator[tuple[str, View]]:
    """Every screen of this game worth a reference PNG; ``workdir`` is for journals."""
    # Setup: the mode and the extra stick, as the players choose them.
    ctl = _controller(workdir / "a", ["4", "2", "2:red 2:blue 2", "3:blue 3:red 2"])
    _send(ctl, OK, OK, DOWN)                  # the setup screen; its cursor from Begin to the top
    yield "senet-sticks-setup", ctl.view()
    yield "senet-sticks-option", _send(ctl, OK)           # the mode's page: what it does
    _send(ctl, OK, BACK, DOWN, OK, OK, BACK)              # quick mode, the extra stick
    yield "senet-sticks-setup-quick", ctl.view()
    _send(ctl, UP, OK, OK, BACK, DOWN, OK, OK, BACK)      # back to normal, one solid stick
    assert ctl.setup_options == {"mode": "normal", "extra-stick": False}
    _send(ctl, UP, UP, OK)                                # Begin (from the top, round)
    assert ctl.screen is Screen.THROW, ctl.screen
    yield "senet-sticks-cast", ctl.view()     # who starts: one solid stick
    _send(ctl, SHAKE, OK)
    yield "senet-sticks-cast-second", _send(ctl, SHAKE)   # Blue casts 2: Red goes first
    yield "senet-sticks-throw", _send(ctl, OK)            # the Abyss count
    # 2 red, 2 blue, 2: Red may use the red and the solid 2, not the blue one.
    yield "senet-sticks-moves", _send(ctl, SHAKE)
    yield "senet-sticks-step-value", _send(ctl, DOWN, OK)     # plinth on 5: its values
    yield "senet-sticks-step-play", _send(ctl, OK)            # 5 to 7: play it, or go on
    yield "senet-sticks-step-back", _send(ctl, BACK)          # a step back
    _send(ctl, OK, OK)                                        # play 5-7
    yield "senet-sticks-moves-one-left", ctl.view()           # one 2 is left
    _send(ctl, BACK)                                          # the pause menu
    yield "senet-sticks-status", _send(ctl, DOWN, DOWN, DOWN, OK)  # Game status

    # Later in a game: a river, a capture, a resurrection and a lost throw.
    actions = _random_game(5)
    for name, kinds in (
        ("river", lambda k: EV_RIVER in k),
        ("capture", lambda k: EV_CAPTURED in k and EV_RIVER not in k),
        ("resurrect", lambda k: EV_RESURRECTED in k),
    ):
        i = _first(actions, kinds)
        ctl = _resumed(workdir / name, actions[:i])
        move = actions[i]
        assert isinstance(move, Move)
        for depth, view in enumerate(_choose(ctl, move)):
            if depth < 3:
                yield f"senet-sticks-{name}-step{depth}", view
        assert ctl.screen is Screen.EVENTS, (name, ctl.screen)
        yield f"senet-sticks-{name}", ctl.view()
        if name == "capture":  # the next throw screen counts the plinth in the Abyss
            while _on(ctl) is not Screen.THROW:
                _send(ctl, OK)
            yield "senet-sticks-throw-abyss", ctl.view()
    # A throw none of whose values can be used (the first such in seeded games).
    lost = next(acts for acts in map(_random_game, range(1, 100)) if PASS in acts)
    ctl = _resumed(workdir / "lost", lost[: lost.index(PASS)])
    assert ctl.screen is Screen.LOST, ctl.screen
    yield "senet-sticks-lost", ctl.view()

    # Quick mode: the first plinth in the opponent's Home Row wins. (Seed 38 ends as seed 3
    # did before a win in the middle of a combination ended the move: 24-27, Red wins.)
    quick = _random_game(38, mode="quick")
    ctl = _resumed(workdir / "quick", quick[:-1], mode="quick")
    last = quick[-1]
    assert isinstance(last, Move)
    for _view in _choose(ctl, last):
        pass
    assert ctl.screen is Screen.OVER, ctl.screen
    yield "senet-sticks-over-quick", ctl.view()
