"""What the controller tests share: button presses as events, feeding them, reading the
screen, and a controller with scripted throws."""

from __future__ import annotations

from pathlib import Path

from walkthroughs import scripted_draw

from companion.app.controller import Controller, Screen
from companion.app.events import ButtonEvent, ButtonName, LoopEvent, Press, Shaken
from companion.devices.sources import SOURCE_NAMES
from companion.journal.store import JournalStore

OK = ButtonEvent(ButtonName.OK, Press.PRESSED)
DOWN = ButtonEvent(ButtonName.DOWN, Press.PRESSED)
UP = ButtonEvent(ButtonName.UP, Press.PRESSED)
BACK = ButtonEvent(ButtonName.BACK, Press.SHORT)
HOLD_BACK = ButtonEvent(ButtonName.BACK, Press.HELD)
SHAKE = Shaken("gpio-shaker")


def controller(
    tmp_path: Path, scores: list[str], source: str = "gpio-shaker", games: list[str] | None = None
) -> Controller:
    """A started controller whose throws are ``scores`` in turn (see ``scripted_draw``)."""
    ctl = Controller(store=JournalStore(tmp_path), draw=scripted_draw(scores),
                     sources=list(SOURCE_NAMES), source=source, games=games)
    ctl.start()
    return ctl


def send(ctl: Controller, *events: LoopEvent) -> Controller:
    for ev in events:
        ctl.handle(ev)
    return ctl


def on(ctl: Controller) -> Screen:
    """The screen shown (a function, so the type checker does not narrow it)."""
    return ctl.screen
