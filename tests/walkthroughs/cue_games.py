"""Whole scripted games, as the service says them: each game played to its end by the
real controller, every player the computer (its first legal move, so the game is the
same on every run), its throws drawn from a seeded generator, the players pressing OK
wherever the box waits for them. The cues said are recorded by :class:`Recorder`."""

from __future__ import annotations

import contextlib
import gettext
import random
from collections.abc import Callable, Iterator
from pathlib import Path

from companion.app.controller import Controller, Screen
from companion.app.events import ButtonEvent, ButtonName, Press
from companion.app.screens import Menu
from companion.devices.sources import SOURCE_NAMES
from companion.journal.store import JournalStore
from companion.rules import Implement, Move, State, Throw
from companion.speech import Cue

OK = ButtonEvent(ButtonName.OK, Press.PRESSED)
HOLD_OK = ButtonEvent(ButtonName.OK, Press.HELD)

GAMES = ("senet-tait", "labyrinth", "senet-sticks", "cretan-labyrinth")
OPTIONS: dict[str, dict[str, object]] = {"cretan-labyrinth": {"round-limit": 30}}
"""A Cretan game with a round limit, so that a scripted game ends in a few hundred turns."""


class Recorder:
    """A speaker that keeps every cue it is given, and counts the repeats asked for."""

    def __init__(self) -> None:
        self.said: list[Cue] = []
        self.batches: list[list[Cue]] = []
        self.repeats = 0

    def say(self, cues: list[Cue]) -> None:
        self.batches.append(list(cues))
        self.said += cues

    def repeat(self) -> None:
        self.repeats += 1

    def close(self) -> None:
        return None

    def texts(self) -> list[str]:
        """The words of every cue said, in order."""
        return [c.text for c in self.said]


def first_move(state: State, level: str) -> Move:
    return state.legal_moves()[0]


def seeded(seed: int) -> Callable[[Implement, int], Throw]:
    """Throws drawn fairly from a generator seeded with ``seed`` (the same every run)."""
    rng = random.Random(seed)

    def draw(implement: Implement, n: int) -> Throw:
        return implement.draw(rng.randrange)

    return draw


def play_whole_game(tmp_path: Path, game_id: str, seed: int = 1,
                    max_steps: int = 20_000) -> tuple[Controller, Recorder]:
    """One whole game of ``game_id`` played by the computer for every player; the
    controller (on the game-over screen) and what it said."""
    from companion.rules import get_game

    speaker = Recorder()
    ctl = Controller(store=JournalStore(tmp_path), draw=seeded(seed),
                     sources=list(SOURCE_NAMES), source="gpio-shaker", games=[game_id],
                     think=first_move, speaker=speaker)
    ctl.start()
    players = get_game(game_id).default_players
    ctl.show(ctl.begin(game_id, players, OPTIONS.get(game_id, {}),
                       {p: "easy" for p in range(players)}, setup=Menu()))
    for _ in range(max_steps):
        if ctl.screen is Screen.OVER:
            return ctl, speaker
        ctl.handle(OK)
    raise AssertionError(f"{game_id}: no end after {max_steps} presses of OK")


def german() -> gettext.NullTranslations:
    """The German catalogue the box ships (``companion/locale/de``)."""
    from companion import i18n

    return i18n.load("de")


@contextlib.contextmanager
def speaking(translations: gettext.NullTranslations) -> Iterator[None]:
    """Say everything with ``translations`` for a while (then English again)."""
    from companion import i18n

    previous = i18n._current
    i18n._current = translations
    try:
        yield
    finally:
        i18n._current = previous


def play_by_ear(tmp_path: Path, game_id: str, seed: int = 2,
                max_steps: int = 40_000) -> tuple[Controller, Recorder]:
    """One whole game of ``game_id`` played by people who only listen: the throw button
    throws (drawn from a seeded generator), and on the moves screen they press DOWN a
    few times (the seed decides how many), then OK; elsewhere OK. The controller (on
    the game-over screen) and everything said."""
    from companion.app.events import ButtonEvent, ButtonName, Press
    from companion.rules import get_game

    down = ButtonEvent(ButtonName.DOWN, Press.PRESSED)
    throw = ButtonEvent(ButtonName.THROW, Press.PRESSED)
    rng = random.Random(seed)
    speaker = Recorder()
    ctl = Controller(store=JournalStore(tmp_path), draw=seeded(seed), sources=list(SOURCE_NAMES),
                     source="button", games=[game_id], speaker=speaker)
    ctl.start()
    ctl.show(ctl.begin(game_id, get_game(game_id).default_players, OPTIONS.get(game_id, {}), {},
                       setup=Menu()))
    for _ in range(max_steps):
        if ctl.screen is Screen.OVER:
            return ctl, speaker
        if ctl.screen is Screen.THROW:
            ctl.handle(throw)
            continue
        if ctl.screen is Screen.MOVES:
            for _step in range(rng.randrange(3)):
                ctl.handle(down)
        ctl.handle(OK)
    raise AssertionError(f"{game_id}: no end after {max_steps} steps")
