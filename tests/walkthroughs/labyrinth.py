"""The screens particular to `labyrinth`, made by driving the real controller.

:func:`walk` yields ``(name, view)`` pairs; :mod:`walkthroughs.screens` adds them to
the reference images (names start with the game id). The throws are scripted so that
one short game shows every screen the Game of the Labyrinth adds: four players with
their colours at setup, the throws for who starts (a tie), two dice as pips, a move
carried on by a jump (``1-6 to 12``), the lost values said in words, the Knight's
Orbit and the Millstone as yes/no questions, the free orbit die, a trapped piece with
its turns to lose, the game status in the pause menu, and a winner of four players.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

from companion.app.controller import Controller
from companion.app.events import ButtonEvent, ButtonName, LoopEvent, Press, Shaken
from companion.devices.sources import SOURCE_NAMES
from companion.i18n import _
from companion.journal.store import JournalStore
from companion.rules import Implement, Phase, Throw, get_game, random_action
from companion.ui.rules_words import say
from companion.ui.view import View

GAME = "labyrinth"

OK = ButtonEvent(ButtonName.OK, Press.PRESSED)
UP = ButtonEvent(ButtonName.UP, Press.PRESSED)
DOWN = ButtonEvent(ButtonName.DOWN, Press.PRESSED)
BACK = ButtonEvent(ButtonName.BACK, Press.SHORT)
SHAKE = Shaken("gpio-shaker")


class _Scripted:
    """Throws read in order from a list (as a person would type them)."""

    def __init__(self, scores: list[str]) -> None:
        self.queue = list(scores)

    def __call__(self, implement: Implement, n: int) -> Throw:
        return implement.parse(self.queue.pop(0))


def _choose(ctl: Controller, notation: str) -> None:
    """Move the cursor to the move ``notation`` on the moves screen and press OK."""
    items = ctl.view().items
    said = say(notation)  # as the moves screen shows it in the language in use
    assert said in items, f"{said!r} not in {items}"
    for _step in range(items.index(said) - ctl.cursor):
        ctl.handle(DOWN)
    ctl.handle(OK)


def walk(workdir: Path) -> Iterator[tuple[str, View]]:
    """Every screen of this game worth a reference PNG; ``workdir`` is for journals."""
    # Setup: four players, each with a colour.
    ctl = Controller(store=JournalStore(workdir / "setup"), draw=_Scripted([]),
                     sources=list(SOURCE_NAMES), source="gpio-shaker", games=[GAME])
    ctl.start()
    for ev in (OK, OK, DOWN, OK, OK):  # splash, menu, round to "Players", 2 -> 4
        ctl.handle(ev)
    assert ctl.view().items[0] == _("Players: {count}").format(count=4)
    yield "labyrinth-setup-players", ctl.view()

    # A two-player game, throw by throw.
    draw = _Scripted([
        "5", "5",          # who starts: a tie
        "2", "4",          # Blue starts
        "1 6",             # Blue: enter 1, 1-7, the Knight's Orbit
        "2",               # the free die: 7 -> 46 -> 49
        "2 3",             # Red: no piece can enter
        "1 5",             # Blue: enter 1, 1-6 to 12
        "1 1",             # Red: enters two pieces
        "1 2",             # Blue: 12-13 (trapped), 49-51 (the Millstone)
        "4 3",             # Red
    ])
    ctl = Controller(store=JournalStore(workdir / "play"), draw=draw,
                     sources=list(SOURCE_NAMES), source="gpio-shaker", games=[GAME])

    def send(*events: LoopEvent) -> View:
        for ev in events:
            ctl.handle(ev)
        return ctl.view()

    ctl.start()
    yield "labyrinth-throw-start", send(OK, OK, OK)       # splash, menu, Begin: Red throws
    yield "labyrinth-start-tie", send(SHAKE, SHAKE)       # Red 5, Blue 5: both again
    yield "labyrinth-throw-tie", send(OK)                 # Red to throw again
    yield "labyrinth-throw-tally", send(SHAKE)            # Blue to throw; Red threw 2
    yield "labyrinth-starts", send(SHAKE)                 # Blue 4: Blue starts
    yield "labyrinth-throw-dice", send(OK)                # Blue to throw two dice
    yield "labyrinth-moves-enter", send(SHAKE)            # 1+6: enter 1
    send(OK)
    _choose(ctl, "1-7")
    yield "labyrinth-orbit-offer", ctl.view()             # events: the offer
    yield "labyrinth-orbit", send(OK)                     # Ride Knight's Orbit?
    _choose(ctl, "ride from 7")
    yield "labyrinth-orbit-die", send(OK)                 # the free die, from the shaker
    yield "labyrinth-ride", send(SHAKE)                   # 7 -> 46 -> 49
    send(OK)
    yield "labyrinth-lost", send(SHAKE)                   # Red 2+3: nothing can enter
    yield "labyrinth-lost-events", send(OK)               # the values lost, in words
    send(OK, SHAKE)                                       # Blue 1+5
    _choose(ctl, "enter 1")
    yield "labyrinth-moves-jump", ctl.view()              # 1-6 to 12
    _choose(ctl, "1-6 to 12")
    send(OK, SHAKE)                                       # events; Red 1+1
    _choose(ctl, "enter 1")
    _choose(ctl, "enter 1")
    send(SHAKE)                                           # Blue 1+2
    _choose(ctl, "12-13")
    yield "labyrinth-trapped", ctl.view()                 # trapped for two turns
    send(OK)
    _choose(ctl, "49-51")
    send(OK)                                              # events: the Millstone offer
    yield "labyrinth-millstone", ctl.view()               # Cross the Millstone?
    _choose(ctl, "cross to 45")
    yield "labyrinth-throw-status", send(OK)              # Red to throw; Blue on 13 loses 2
    yield "labyrinth-status", send(BACK, DOWN, DOWN, DOWN, OK)   # pause menu: Game status

    # Four players: a game resumed one move from its end, then won.
    yield from _won(workdir / "won")


def _won(workdir: Path) -> Iterator[tuple[str, View]]:
    game = get_game(GAME)
    state = game.new_state(4)
    rng = random.Random(3)
    store = JournalStore(workdir)
    journal = store.begin(game, 4, started="2026-01-01T00:00:00+00:00")
    while True:
        action = random_action(state, rng.randrange)
        after = state.copy()
        events = after.apply(action)
        if after.phase is Phase.OVER:
            last = action
            break
        journal.append(state.player_to_act_name, action, events)
        state = after
    journal.close()
    ctl = Controller(store=store, draw=_Scripted([]), sources=list(SOURCE_NAMES),
                     source="gpio-shaker", games=[GAME])
    ctl.start()
    ctl.handle(OK)
    yield "labyrinth-resume", ctl.view()
    ctl.handle(OK)
    yield "labyrinth-resumed-board", ctl.view()    # the position, to check the board by
    ctl.handle(OK)
    assert ctl.state is not None and ctl.view().screen == "moves"
    _choose(ctl, str(last))
    assert ctl.view().screen == "over", ctl.screen
    yield "labyrinth-over", ctl.view()
