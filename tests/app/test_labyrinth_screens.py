"""The controller with the Game of the Labyrinth: what a plain turn costs in presses,
and the setup screen's players."""

from __future__ import annotations

from pathlib import Path

from controller_tools import DOWN, OK, SHAKE, on
from walkthroughs import scripted_draw

from companion.app.controller import Controller, Screen
from companion.devices.sources import SOURCE_NAMES
from companion.journal.store import JournalStore


def test_a_plain_turn_costs_one_shake_and_one_ok_per_value(tmp_path: Path) -> None:
    ctl = Controller(store=JournalStore(tmp_path), draw=scripted_draw(["2", "6", "1 2", "1 3"]),
                     sources=list(SOURCE_NAMES), source="gpio-shaker", games=["labyrinth"])
    ctl.start()
    for ev in (OK, OK, OK, SHAKE, SHAKE):  # splash, menu, Begin; Red 2, Blue 6
        ctl.handle(ev)
    assert on(ctl) is Screen.EVENTS  # "Blue threw highest (6) and starts" is news
    for ev in (OK, SHAKE, OK):  # Blue 1+2: enter 1
        ctl.handle(ev)
    assert on(ctl) is Screen.MOVES and ctl.view().items == ("1-3",)
    ctl.handle(OK)  # the last value: the turn passes without an events screen
    assert on(ctl) is Screen.THROW
    assert ctl.view().lines[0] == "Red to throw: shake!"
    assert ctl.view().lines[-2:] == ("Blue moves a piece 2 from 1 to 3", "Red to throw")


def test_setup_names_the_players_by_colour(tmp_path: Path) -> None:
    ctl = Controller(store=JournalStore(tmp_path), draw=scripted_draw([]),
                     sources=list(SOURCE_NAMES), source="gpio-shaker", games=["labyrinth"])
    ctl.start()
    for ev in (OK, OK):
        ctl.handle(ev)
    assert ctl.view().lines == ("Red throws first.",)  # the throws decide who starts
    ctl.handle(DOWN)  # from Begin round to the top: Players
    assert ctl.view().items[0] == "Players: 2" and ctl.view().lines == ("Red, Blue",)
    ctl.handle(OK)
    assert ctl.view().lines == ("Red, Blue, Green",)
    ctl.handle(OK)
    assert ctl.view().lines == ("Red, Blue, Green, Yellow",)
    ctl.handle(OK)
    assert ctl.view().items[0] == "Players: 2"
