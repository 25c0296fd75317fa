"""Choosing a move step by step (``Presenter.choice_steps``), BACK one step back, and the
usable faces of a throw marked (``State.usable_faces``): with a made-up game, and with
casting-stick Senet."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from controller_tools import BACK, DOWN, HOLD_BACK, OK, SHAKE, UP, on, send
from walkthroughs import scripted_draw

from companion.app.controller import Controller, Screen
from companion.app.screens import Setup
from companion.devices.sources import SOURCE_NAMES
from companion.journal.store import JournalStore, load
from companion.rules import (
    Dice,
    Game,
    Implement,
    Move,
    Outcome,
    Phase,
    PieceAt,
    PieceZone,
    State,
    Throw,
    registry,
)
from companion.rules.core import Event as GameEvent
from companion.ui.games import Presenter

# ------------------------------------------------------------ a made-up game in steps

A2 = Move("move", "a", 2, (1,))
A4 = Move("move", "a", 4, (1, 2))
A3 = Move("move", "a", 3, (2,))
B7 = Move("move", "b", 7, (2,))
STEPS = {
    A2: ("piece a", "1 to 2"),
    A4: ("piece a", "1 to 2", "2 to 4"),
    A3: ("piece a", "2 to 3"),
    B7: ("piece b", "2 to 7"),
}


class Hops(Game):
    """Two pieces, a and b; after any throw the same four moves are legal, chosen in
    steps: the piece, then each value with where it lands. Three moves end the game."""

    id = "hops"
    title = "Hops"

    def new_state(self, players: int | None = None) -> HopsState:
        return HopsState(self, self.check_players(players or 2))

    def _state_from_body(self, data: Mapping[str, Any], players: int) -> HopsState:
        raise NotImplementedError


class HopsState(State):
    __slots__ = ("moved", "thrown", "turn")

    def __init__(self, game: Hops, players: int) -> None:
        super().__init__(game, players)
        self.turn = 0
        self.thrown = False
        self.moved = 0

    @property
    def phase(self) -> Phase:
        if self.moved >= 3:
            return Phase.OVER
        return Phase.MOVE if self.thrown else Phase.THROW

    @property
    def current_player(self) -> int:
        return self.turn

    @property
    def throw_spec(self) -> Implement | None:
        return Dice(2, 6) if self.phase is Phase.THROW else None

    @property
    def outcome(self) -> Outcome | None:
        return Outcome((0,), "three moves made") if self.moved >= 3 else None

    def pieces(self) -> list[PieceAt]:
        return [PieceAt(0, PieceZone.BOARD, "a")]

    def _legal(self) -> tuple[Move, ...]:
        return (A2, A4, A3, B7)

    def usable_faces(self) -> tuple[bool, ...]:
        return (True, False)

    def _push_throw(self, throw: Throw) -> list[GameEvent]:
        self.thrown = True
        return [GameEvent("thrown", self.turn, "thrown")]

    def _push_move(self, move: Move) -> list[GameEvent]:
        self.thrown = False
        self.moved += 1
        self.turn = 1 - self.turn
        return [GameEvent("moved", self.turn, f"moved {move.notation}")]

    def _body(self) -> dict[str, Any]:
        return {"moved": self.moved}


class HopsPresenter(Presenter):
    """Hops on the screen: a move in the steps of :data:`STEPS`."""

    def choice_steps(self, state: State, move: Move) -> tuple[str, ...]:
        return STEPS[move]


@pytest.fixture
def hops(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Controller:
    monkeypatch.setitem(registry._GAMES, "hops", (__name__, "Hops", Hops.title))
    monkeypatch.setattr(Hops, "presenter", f"{__name__}:HopsPresenter")
    ctl = Controller(store=JournalStore(tmp_path), draw=scripted_draw(["1 2"] * 3),
                     sources=list(SOURCE_NAMES), source="gpio-shaker", games=["hops"])
    ctl.start()
    send(ctl, OK, OK, OK, SHAKE)  # splash, menu, setup (Begin), throw
    assert on(ctl) is Screen.MOVES
    return ctl


def test_the_first_step_offers_each_first_label_once_with_the_throw_marked(hops: Controller) -> None:
    view = hops.view()
    assert view.items == ("piece a", "piece b")
    assert view.picture is not None and view.picture.usable == (True, False)
    assert view.hint == "OK: choose BACK: menu"


def test_each_ok_narrows_by_one_step_and_a_move_that_goes_on_is_offered_as_play(hops: Controller) -> None:
    send(hops, OK)  # piece a
    view = hops.view()
    assert view.items == ("1 to 2", "2 to 3")
    assert view.lines == ("piece a:",)                 # what was chosen so far
    assert view.picture is None and view.hint == "OK: choose BACK: back"
    send(hops, OK)  # 1 to 2: a move of its own, and the start of 1 then 2
    assert hops.view().items == ("play a-2", "2 to 4")
    assert hops.view().lines == ("piece a, 1 to 2:",)
    assert hops.journal is not None and hops.journal.records[-1].get("move") is None
    send(hops, DOWN, OK)  # 2 to 4: the last step plays a-4 [1+2]
    assert on(hops) is Screen.THROW
    assert hops.journal.records[-1]["move"] == "a-4 [1+2]"


def test_play_takes_the_shorter_move(hops: Controller) -> None:
    send(hops, OK, OK, OK)  # piece a, 1 to 2, play a-2
    assert hops.journal is not None and hops.journal.records[-1]["move"] == "a-2"


def test_a_label_that_only_one_move_ends_with_plays_it_at_once(hops: Controller) -> None:
    send(hops, DOWN, OK)    # piece b
    assert hops.view().items == ("2 to 7",)
    send(hops, OK)
    assert hops.journal is not None and hops.journal.records[-1]["move"] == "b-7"


def test_back_takes_one_step_back_with_the_cursor_where_it_was(hops: Controller) -> None:
    send(hops, OK, DOWN)    # piece a; cursor on 2 to 3
    send(hops, UP, OK)      # 1 to 2
    assert hops.view().items == ("play a-2", "2 to 4")
    send(hops, BACK)
    assert hops.view().items == ("1 to 2", "2 to 3") and hops.cursor == 0
    send(hops, DOWN, BACK)  # back to the first step: on piece a, where it was
    assert hops.view().items == ("piece a", "piece b") and hops.cursor == 0
    assert hops.view().picture is not None
    send(hops, BACK)        # the first step: BACK is the pause menu, as for a flat list
    assert on(hops) is Screen.PAUSE
    send(hops, OK)          # Continue: the first step again
    assert on(hops) is Screen.MOVES and hops.path == []
    assert hops.journal is not None and all("move" not in r for r in hops.journal.records)


def test_holding_back_in_the_middle_of_the_steps_still_undoes_the_last_move(hops: Controller) -> None:
    send(hops, DOWN, OK, OK)      # b-7 played
    send(hops, SHAKE, OK)         # the next player: piece a chosen, not yet played
    assert hops.path == ["piece a"]
    send(hops, HOLD_BACK)
    assert hops.view().title == "Undone"
    assert "Player 1's move b-7 is taken back: back to b." in hops.view().lines
    send(hops, OK)
    assert on(hops) is Screen.MOVES and hops.path == []
    assert hops.view().items == ("piece a", "piece b")


def test_faces_marks_of_the_wrong_length_are_not_drawn(hops: Controller, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(HopsState, "usable_faces", lambda self: (True,))
    picture = hops.view().picture
    assert picture is not None and picture.usable == ()


# ------------------------------------------------------------ casting-stick Senet


def sticks(tmp_path: Path, throws: list[str], **options: object) -> Controller:
    ctl = Controller(store=JournalStore(tmp_path), draw=scripted_draw(throws),
                     sources=list(SOURCE_NAMES), source="gpio-shaker", games=["senet-sticks"])
    ctl.start()
    send(ctl, OK, OK)
    assert on(ctl) is Screen.SETUP
    setup = ctl.page
    assert isinstance(setup, Setup)
    keys = [key for key, _ in setup.rows(ctl)]
    for name, value in options.items():
        send(ctl, *[DOWN] * ((keys.index(name) - ctl.cursor) % len(keys)))
        send(ctl, OK)           # the option's page
        while ctl.setup_options.get(name) != value:
            send(ctl, OK)
        send(ctl, BACK)
    send(ctl, *[DOWN] * ((len(keys) - 1 - ctl.cursor) % len(keys)))
    send(ctl, OK)               # Begin
    send(ctl, SHAKE, OK)        # Red casts the solid stick (events: Red casts 4)
    send(ctl, SHAKE, OK)        # Blue casts, Red goes first
    return ctl


def test_senet_sticks_plinth_then_values_with_the_usable_sticks_marked(tmp_path: Path) -> None:
    ctl = sticks(tmp_path, ["4", "2", "2:red 2:blue 2"])
    assert on(ctl) is Screen.THROW
    assert "Abyss: Red 0, Blue 0" in ctl.view().lines
    send(ctl, SHAKE)
    view = ctl.view()
    assert view.title == "Red threw 2+2+2"
    assert view.items == ("plinth on 4", "plinth on 5")
    assert view.picture is not None and view.picture.usable == (True, False, True)  # blue's 2 is not Red's
    send(ctl, DOWN, OK)         # plinth on 5
    assert ctl.view().items == ("2 to 7",)
    send(ctl, OK)               # 5 to 7, and it may go on with the other 2
    assert ctl.view().items == ("play 5-7", "2 to 9")
    send(ctl, OK)               # play 5-7: one 2 is left
    assert ctl.journal is not None and ctl.journal.records[-1]["move"] == "5-7"
    view = ctl.view()
    assert on(ctl) is Screen.MOVES and view.picture is not None
    assert view.picture.usable.count(True) == 1
    assert "plinth on 7" in view.items


def test_senet_sticks_a_river_is_named_in_the_step_and_in_words_after(tmp_path: Path) -> None:
    ctl = sticks(tmp_path, ["4", "2", "2:red 2:blue 2"])
    send(ctl, SHAKE, OK)        # plinth on 4
    assert ctl.view().items == ("2 to 15 via river",)
    send(ctl, OK)               # carried to 15; the other 2 may go on from there
    assert ctl.view().items == ("play 4-15", "2 to 17")
    send(ctl, OK)
    assert ctl.journal is not None and ctl.journal.records[-1]["move"] == "4-15"
    assert on(ctl) is Screen.EVENTS
    assert ctl.view().lines == ("Red moves 4 to 15 (2)", "Red's plinth takes the river on 6 forward to 15")


def test_senet_sticks_quick_mode_and_the_extra_stick_are_chosen_at_setup(tmp_path: Path) -> None:
    ctl = Controller(store=JournalStore(tmp_path), draw=scripted_draw([]),
                     sources=list(SOURCE_NAMES), source="gpio-shaker", games=["senet-sticks"])
    ctl.start()
    send(ctl, OK, OK)
    items = ctl.view().items
    assert items[:2] == ("Mode: normal", "Extra stick: no")
    assert "board" not in " ".join(items)  # a file path is not chosen with buttons
    ctl = sticks(tmp_path / "quick", ["4", "2", "2:red 2:blue 2 4"], mode="quick", **{"extra-stick": True})
    assert ctl.view().lines[1] == "(4 casting sticks)"
    assert ctl.journal is not None
    loaded = load(ctl.journal.path)
    assert loaded.game.option("mode") == "quick" and loaded.game.option("extra-stick") is True
    send(ctl, SHAKE)
    assert ctl.view().title == "Red threw 2+2+2+4"
