"""The controller fed with events: deterministic, undo, manual entry, sources, any game."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from controller_tools import BACK, DOWN, HOLD_BACK, OK, SHAKE, UP, controller, on, send
from walkthroughs import scripted_draw

from companion.app.controller import Controller, Screen
from companion.app.events import (
    ButtonEvent,
    ButtonName,
    LoopEvent,
    Press,
    SourceFailed,
    ThrowReported,
)
from companion.journal.store import JournalStore, load
from companion.rules import (
    PASS,
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


def start_senet(ctl: Controller) -> None:
    send(ctl, OK)  # splash
    target = ctl.games.index("senet-tait")
    send(ctl, *[DOWN] * target, OK, OK)  # menu, setup
    assert on(ctl) in (Screen.THROW, Screen.MANUAL)


def test_same_events_same_screens_and_journal(tmp_path: Path) -> None:
    runs = []
    for name in ("a", "b"):
        ctl = controller(tmp_path / name, ["4", "1", "6", "2", "4", "4"])
        start_senet(ctl)
        views = []
        script: list[LoopEvent] = [SHAKE, OK, SHAKE, OK, SHAKE, DOWN, OK, OK, SHAKE, OK, SHAKE]
        for ev in script:
            ctl.handle(ev)
            views.append(ctl.view())
        assert ctl.journal is not None
        records = [line.split(b" ", 1)[1] for line in ctl.journal.path.read_bytes().splitlines()[1:]]
        runs.append((views, records))
    assert runs[0] == runs[1]


def test_a_throw_shows_the_sticks_and_the_moves(tmp_path: Path) -> None:
    ctl = controller(tmp_path, ["4"])
    start_senet(ctl)
    view = ctl.view()
    assert view.title == "Senet (Tait's rules)" and view.lines[0] == "Black to throw: shake!"
    send(ctl, SHAKE)
    view = ctl.view()
    assert view.screen == "moves" and view.title == "Black threw 4"
    assert view.items == ("enter 4",)
    assert view.picture is not None and view.picture.faces == ("L", "L", "L", "L")


def test_a_lost_throw_needs_an_ok_and_passes_the_turn(tmp_path: Path) -> None:
    ctl = controller(tmp_path, ["1"])
    start_senet(ctl)
    send(ctl, SHAKE)
    assert on(ctl) is Screen.LOST
    send(ctl, OK)
    assert on(ctl) is Screen.THROW and ctl.view().lines[0].startswith("White to throw")
    assert ctl.journal is not None and ctl.journal.records[-1]["move"] == "pass"


def test_extra_throw_is_shown_in_words(tmp_path: Path) -> None:
    ctl = controller(tmp_path, ["6"])
    start_senet(ctl)
    send(ctl, SHAKE, OK)
    assert on(ctl) is Screen.EVENTS
    assert "Black throws again (threw a six)" in ctl.view().lines


def test_holding_back_undoes_the_last_move_and_the_journal_agrees(tmp_path: Path) -> None:
    ctl = controller(tmp_path, ["4", "2", "2"])
    start_senet(ctl)
    send(ctl, SHAKE, OK)  # Black enters on 4
    send(ctl, SHAKE)      # White throws 2: lost
    assert ctl.state is not None
    before = ctl.state.to_dict()
    send(ctl, HOLD_BACK)
    assert on(ctl) is Screen.MESSAGE and ctl.view().title == "Undone"
    assert "Black's move enter 4 is taken back: back on the plinth." in ctl.view().lines
    send(ctl, OK)
    assert on(ctl) is Screen.MOVES and ctl.view().items == ("enter 4",)
    assert ctl.state.to_dict() != before
    assert ctl.journal is not None
    loaded = load(ctl.journal.path)
    assert loaded.state.to_dict() == ctl.state.to_dict()


def test_the_setup_screen_sets_the_game_options_kept_in_the_journal(tmp_path: Path) -> None:
    ctl = controller(tmp_path, ["LLLLL"])
    send(ctl, OK, *[DOWN] * ctl.games.index("senet-tait"), OK)
    assert ctl.view().items == ("Sticks: 4", "House of Beauty: onto", "Unused 6 rethrow: yes",
                                "Computer: nobody", "Begin")
    assert ctl.view().lines == ("Black throws first.",)
    send(ctl, DOWN, OK)                          # the sticks' page: what the option does
    assert ctl.view().title == "Sticks" and ctl.view().lines[0].startswith("Number of casting")
    send(ctl, OK)                                # sticks: 5
    assert "Now: 5" in ctl.view().lines
    send(ctl, BACK)
    assert ctl.view().items[0] == "Sticks: 5" and ctl.view().lines == ("Black throws first.",)
    send(ctl, UP, OK, SHAKE)                     # begin; five light sides
    assert ctl.view().title == "Black threw 5"
    assert ctl.journal is not None
    assert load(ctl.journal.path).game.option("sticks") == 5


def test_nothing_to_undo_at_the_start_and_a_throw_alone_is_not_taken_back(tmp_path: Path) -> None:
    ctl = controller(tmp_path, ["4"])
    start_senet(ctl)
    send(ctl, HOLD_BACK)
    assert ctl.view().title == "Nothing to undo"
    send(ctl, OK, SHAKE, HOLD_BACK)
    assert ctl.view().title == "Nothing to undo"
    send(ctl, OK)
    assert on(ctl) is Screen.MOVES and ctl.view().title == "Black threw 4"


def test_manual_entry_of_sticks_is_by_the_score_counted(tmp_path: Path) -> None:
    ctl = controller(tmp_path, [], source="manual")
    start_senet(ctl)
    assert on(ctl) is Screen.MANUAL
    assert ctl.view().lines[0] == "Score: ?"       # nothing chosen yet
    send(ctl, UP)                   # round to the highest score: 6, no light side
    assert ctl.view().lines[0] == "6 (no light side)"
    picture = ctl.view().picture
    assert picture is not None and picture.faces == ("D", "D", "D", "D")
    send(ctl, DOWN)                 # back to 1: the sticks of that score
    picture = ctl.view().picture
    assert picture is not None and picture.faces == ("L", "D", "D", "D")
    send(ctl, OK)
    assert on(ctl) is Screen.LOST and ctl.view().title == "Black threw 1"


def test_manual_entry_of_dice_is_die_by_die(tmp_path: Path) -> None:
    ctl = controller(tmp_path, [], source="manual", games=["labyrinth"])
    send(ctl, OK, OK, OK)           # splash, menu, setup: Begin
    assert on(ctl) is Screen.MANUAL
    send(ctl, UP)                   # the die: from 1 round to 6 (the first throw: one die)
    assert ctl.view().lines[0] == "Die 1 of 1: 6"
    picture = ctl.view().picture
    assert picture is not None and picture.kind == "dice" and picture.faces == ("6",)
    send(ctl, OK)
    first = ctl.actions[0]
    assert isinstance(first, Throw) and first.values == (6,)


def test_the_settings_screen_switches_the_throw_source(tmp_path: Path) -> None:
    ctl = controller(tmp_path, ["4"])
    start_senet(ctl)
    send(ctl, BACK)                 # pause menu
    send(ctl, DOWN, DOWN, OK)       # Settings
    assert on(ctl) is Screen.SETTINGS
    send(ctl, OK, OK)               # gpio-shaker -> serial-shaker -> button
    assert ctl.source == "button" and ctl.view().items[0] == "Throw: button"
    send(ctl, BACK)
    assert on(ctl) is Screen.THROW
    send(ctl, SHAKE)                # the shaker is no longer the source: ignored
    assert on(ctl) is Screen.THROW
    send(ctl, ButtonEvent(ButtonName.THROW, Press.PRESSED))
    assert on(ctl) is Screen.MOVES


def test_a_serial_throw_of_the_wrong_implement_is_rejected(tmp_path: Path) -> None:
    ctl = controller(tmp_path, [], source="serial-shaker")
    start_senet(ctl)
    send(ctl, ThrowReported("serial-shaker", "2d6", ("3", "4")))
    assert ctl.view().title == "Throw rejected"
    assert ctl.journal is not None and ctl.journal.records == []
    send(ctl, OK, ThrowReported("serial-shaker", "4 sticks", ("L", "L", "L", "L")))
    assert on(ctl) is Screen.MOVES


def test_a_failed_source_falls_back_to_manual_entry(tmp_path: Path) -> None:
    ctl = controller(tmp_path, [], source="serial-shaker")
    start_senet(ctl)
    send(ctl, SourceFailed("serial-shaker", "serial-shaker: no such port"))
    assert ctl.source == "manual" and ctl.view().title == "Throw source failed"
    send(ctl, OK)
    assert on(ctl) is Screen.MANUAL


# ---------------------------------------------------------------- any game plugs in

class Race(Game):
    """A tiny test game with dice and a yes/no decision, to show that the controller
    needs nothing Senet-specific: one piece each on squares 0..10, one die, landing on
    5 asks whether to take the shortcut to 9; reaching 10 wins."""

    id = "race"
    title = "Race"
    min_players = 2
    max_players = 3
    default_players = 2

    def new_state(self, players: int | None = None) -> RaceState:
        return RaceState(self, self.check_players(players or 2))

    def _state_from_body(self, data: Mapping[str, Any], players: int) -> RaceState:
        raise NotImplementedError


class RaceState(State):
    __slots__ = ("deciding", "pos", "roll", "turn")

    def __init__(self, game: Race, players: int) -> None:
        super().__init__(game, players)
        self.pos = [0] * players
        self.turn = 0
        self.roll = 0
        self.deciding = False

    @property
    def phase(self) -> Phase:
        if max(self.pos) >= 10:
            return Phase.OVER
        return Phase.DECIDE if self.deciding else Phase.MOVE if self.roll else Phase.THROW

    @property
    def current_player(self) -> int:
        return self.turn

    @property
    def throw_spec(self) -> Implement | None:
        return Dice(1, 6) if self.phase is Phase.THROW else None

    @property
    def outcome(self) -> Outcome | None:
        if max(self.pos) < 10:
            return None
        return Outcome((self.pos.index(max(self.pos)),), "reached 10")

    def pieces(self) -> list[PieceAt]:
        return [PieceAt(p, PieceZone.BOARD, s) for p, s in enumerate(self.pos)]

    def _legal(self) -> tuple[Move, ...]:
        if self.deciding:
            return (Move("yes"), Move("no"))
        s = self.pos[self.turn]
        return (Move("move", s, min(10, s + self.roll), (self.roll,)),) if s + self.roll <= 10 else (PASS,)

    def _push_throw(self, throw: Throw) -> list[GameEvent]:
        self.roll = throw.values[0]
        return [GameEvent("thrown", self.turn, f"throws {self.roll}")]

    def _push_move(self, move: Move) -> list[GameEvent]:
        if move.kind == "yes":
            self.pos[self.turn] = 9
        if move.kind == "move" and move.dst == 5:
            self.pos[self.turn] = 5
            self.deciding = True
            return [GameEvent("moved", self.turn, "moves to 5")]
        if move.kind == "move":
            assert isinstance(move.dst, int)
            self.pos[self.turn] = move.dst
        self.deciding = False
        self.roll = 0
        self.turn = (self.turn + 1) % self.players
        return [GameEvent("moved", self.turn, f"{move.kind}")]

    def _body(self) -> dict[str, Any]:
        return {"pos": self.pos}


class RacePresenter(Presenter):
    """Race on the screen: a question while deciding, where every piece is."""

    def prompt(self, state: State) -> str:
        return "Take the shortcut to 9?"

    def status_lines(self, state: State) -> list[str]:
        assert isinstance(state, RaceState)
        return [f"Player {p + 1} on {s}" for p, s in enumerate(state.pos)]


def test_a_game_with_dice_players_and_a_decision_plays_without_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(registry._GAMES, "race", (__name__, "Race", Race.title))
    monkeypatch.setattr(Race, "presenter", f"{__name__}:RacePresenter")
    ctl = controller(tmp_path, ["5", "1", "1", "1", "3"], games=["race"])
    send(ctl, OK, OK)
    assert on(ctl) is Screen.SETUP
    assert ctl.view().items == ("Players: 2", "Computer: nobody", "Begin")
    send(ctl, DOWN, OK)  # three players
    assert ctl.view().items[0] == "Players: 3"
    assert ctl.view().lines == ("Player 1, Player 2, Player 3",)  # who plays, by name
    send(ctl, UP, OK, SHAKE)
    view = ctl.view()
    assert view.picture is not None and view.picture.kind == "dice" and view.picture.faces == ("5",)
    send(ctl, OK)                      # 0-5: a decision follows
    assert on(ctl) is Screen.MOVES and ctl.view().title == "Player 1 decides"
    assert ctl.view().items == ("yes", "no")
    assert ctl.view().lines == ("Take the shortcut to 9?",)   # the game's question
    send(ctl, OK)                      # yes: the shortcut to 9
    assert "Player 1 on 9" in ctl.view().lines   # where the pieces are, while throwing
    send(ctl, BACK, DOWN, DOWN, DOWN, OK)        # pause menu: Game status, on demand
    assert on(ctl) is Screen.MESSAGE
    assert ctl.view().lines == ("Player 1 on 9", "Player 2 on 0", "Player 3 on 0")
    send(ctl, OK, BACK)                # back to the pause menu, back to the game
    for _ in range(3):
        send(ctl, SHAKE, OK)           # players 2, 3 and 1 move 1
    assert on(ctl) is Screen.OVER
    assert ctl.view().lines[0] == "Player 1 wins!"


def test_text_screens_scroll_no_further_than_their_end(tmp_path: Path) -> None:
    for i in range(2):  # unusable journals, each reported at the start
        (tmp_path / f"2026010{i}-000000-senet-tait.journal").write_bytes(b"not a journal\n")
    ctl = controller(tmp_path, [])
    send(ctl, OK)                                    # the journal report
    assert ctl.view().screen == "message"
    send(ctl, *[DOWN] * 30)
    deepest = ctl.scroll
    assert 0 < deepest < 30
    send(ctl, *[UP] * deepest)
    assert ctl.scroll == 0


def test_your_own_board_file_is_chosen_on_the_setup_screen_and_a_bad_one_refused(
    tmp_path: Path,
) -> None:
    from importlib import resources

    from companion.app.screens import Setup

    boards = tmp_path / "boards"
    boards.mkdir()
    bundled = resources.files("companion.rules").joinpath("data/labyrinth.toml").read_text()
    (boards / "labyrinth-home.toml").write_text(bundled)
    (boards / "labyrinth-typo.toml").write_text(bundled.replace("fields = 61", "fields = sixty"))
    (boards / "senet-sticks-other.toml").write_text("not for this game")
    ctl = Controller(store=JournalStore(tmp_path / "j"), draw=scripted_draw(["1"]),
                     sources=["gpio-shaker"], source="gpio-shaker", games=["labyrinth"],
                     boards=[boards, tmp_path / "missing"])
    ctl.start()
    send(ctl, OK, OK)
    setup = ctl.page
    assert isinstance(setup, Setup)
    keys = [key for key, _ in setup.rows(ctl)]
    assert ctl.view().items[keys.index("board")] == "Board: built-in"
    send(ctl, *[DOWN] * ((keys.index("board") - ctl.cursor) % len(keys)), OK)
    assert ctl.view().title == "Board" and "Now: built-in" in ctl.view().lines
    send(ctl, OK)                                 # the first file found
    assert "Now: labyrinth-home.toml" in ctl.view().lines
    send(ctl, OK, BACK)                           # the second: the one with a typo
    assert ctl.view().items[keys.index("board")] == "Board: labyrinth-typo.toml"
    assert ctl.view().lines[0].startswith("Cannot begin: ")
    send(ctl, *[DOWN] * (len(keys) - 1 - ctl.cursor), OK)     # Begin
    assert ctl.view().title == "Cannot start"
    assert any("labyrinth-typo.toml" in line for line in ctl.view().lines)
    assert ctl.table is None and not list((tmp_path / "j").glob("*.journal"))
    send(ctl, OK)                                 # back to the setup, not the menu
    assert on(ctl) is Screen.SETUP
    send(ctl, *[DOWN] * ((keys.index("board") - ctl.cursor) % len(keys)), OK, OK, OK, BACK)
    send(ctl, *[DOWN] * ((len(keys) - 1 - ctl.cursor) % len(keys)), OK)
    assert ctl.game is not None and ctl.game.option("board") == str(boards / "labyrinth-home.toml")


def test_each_journal_found_wrong_is_said_in_its_own_words(tmp_path: Path) -> None:
    """An empty journal was nothing to repair: it is said to be set aside, not
    "repaired"; each journal found wrong gets its own message after the splash."""
    (tmp_path / "20260101-000000-senet-tait.journal").write_bytes(b"")
    ctl = controller(tmp_path, [])
    send(ctl, OK)
    assert ctl.view().title == "Journal set aside"
    assert ctl.view().lines == (
        "20260101-000000-senet-tait.journal: empty: no usable first record",
        "Nothing could be repaired; set aside as 20260101-000000-senet-tait.journal.unusable.",
    )
    send(ctl, OK, OK)                     # the splash again, then the menu
    assert on(ctl) is Screen.MENU
    assert (tmp_path / "20260101-000000-senet-tait.journal.unusable").exists()
