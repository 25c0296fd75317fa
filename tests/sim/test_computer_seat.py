"""A whole game against the computer through gpiozero's mock pins, for every game: the
person presses the buttons, the computer's throws are drawn and its moves shown for the
table to make; undo takes back the computer's reply with the person's move; a resumed
game keeps its seats."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serving import serving

from companion.ai.player import choose
from companion.app.controller import Screen
from companion.app.screens import Seats, Setup
from companion.app.service import Parts
from companion.devices.events import ButtonName
from companion.journal.store import load
from companion.rules import Implement, Move, State, Throw
from companion.sim.demo import PinDriver, demo_config


def fast_think(state: State, level: str) -> Move:
    """The computer's own search, at the easy level's depth, on a node budget and a
    clock that never moves (so the same positions give the same moves)."""
    return choose(state, "easy", random.Random(0), max_nodes=60, clock=lambda: 0.0).move


def seeded_draw(seed: int) -> Any:
    rng = random.Random(seed)

    def draw(implement: Implement, n: int) -> Throw:
        return implement.draw(rng.randrange)

    return draw


@pytest.fixture
def table(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[tuple[Parts, PinDriver]]:
    with serving(demo_config(tmp_path, **getattr(request, "param", {})),
                 draw=seeded_draw(7), think=fast_think) as running:
        yield running


def seat_the_computer(parts: Parts, driver: PinDriver, game_id: str) -> None:
    """From the splash: the game's setup, its last player the computer (normal), Begin."""
    ctl = parts.service.controller
    driver.press(ButtonName.OK)
    for _ in range(ctl.games.index(game_id)):
        driver.press(ButtonName.DOWN)
    driver.press(ButtonName.OK)
    driver.press(ButtonName.UP)                      # Begin -> Computer: nobody
    driver.press(ButtonName.OK)
    seats = ctl.page
    assert isinstance(seats, Seats) and seats.setup is not None
    last = seats.setup.players - 1
    for _ in range(last):
        driver.press(ButtonName.DOWN)
    driver.press(ButtonName.OK)                      # easy
    driver.press(ButtonName.OK)                      # normal
    driver.press(ButtonName.BACK)
    setup = ctl.page
    assert isinstance(setup, Setup) and setup.seats == {last: "normal"}
    driver.press(ButtonName.DOWN)                    # Begin
    driver.press(ButtonName.OK)


@pytest.mark.parametrize(
    ("game_id", "table"),
    [("senet-tait", {}), ("labyrinth", {}), ("senet-sticks", {}),
     ("cretan-labyrinth", {"games": {"cretan-labyrinth": {"round-limit": 15}}})],
    indirect=["table"],
)
def test_a_whole_game_against_the_computer(game_id: str, table: tuple[Parts, PinDriver]) -> None:
    parts, driver = table
    ctl = parts.service.controller
    seat_the_computer(parts, driver, game_id)
    computer_moves = 0
    for _ in range(20_000):
        screen = ctl.screen
        if screen is Screen.OVER:
            break
        if screen is Screen.THROW:
            driver.shake()
        else:  # the person's first move, the computer's move made, messages read
            computer_moves += screen is Screen.COMPUTER
            driver.press(ButtonName.OK)
    assert ctl.screen is Screen.OVER, ctl.screen
    assert computer_moves > 0
    assert ctl.journal is not None
    loaded = load(ctl.journal.path, repair=False)
    assert loaded.ended and loaded.header["seats"] == {str(loaded.players - 1): "normal"}
    assert loaded.actions == ctl.actions


def test_undo_takes_back_the_computer_s_reply_with_the_person_s_move(
    table: tuple[Parts, PinDriver],
) -> None:
    parts, driver = table
    ctl = parts.service.controller
    seat_the_computer(parts, driver, "senet-tait")
    for _ in range(200):                             # until the computer has moved
        if ctl.screen is Screen.COMPUTER:
            driver.press(ButtonName.OK)
            break
        driver.shake() if ctl.screen is Screen.THROW else driver.press(ButtonName.OK)
    assert ctl.journal is not None

    def moves_by() -> list[str]:
        assert ctl.journal is not None
        return [r["by"] for r in load(ctl.journal.path, repair=False).records if "move" in r]

    before = moves_by()
    assert before[-2:] == ["Black", "White"]          # Black's move, the computer's reply
    driver.press(ButtonName.BACK, hold=True)
    lines = ctl.view().lines
    assert ctl.view().title == "Undone" and lines[0].startswith("Black's ")
    assert lines[1].startswith("White's ")            # the computer's reply named too
    assert moves_by() == before[:-2]                  # both taken back
    driver.press(ButtonName.OK)                       # Black's throw again, to move anew
    assert ctl.screen in (Screen.MOVES, Screen.LOST)
