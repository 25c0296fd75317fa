"""Issue 19: a game is registered in one place. A toy game made of only a Game class
(whose facts name its presenter) and a presenter (its words, board model, drawing and
inventory page) is registered once and plays through every screen of a game: the
menu, the setup, the throw, the moves and their preview, the events, the pause menu,
the game status, the board picture and its inventory page, the end."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import pytest
from controller_tools import BACK, DOWN, OK, SHAKE, controller, on, send
from PIL import Image, ImageDraw

from companion.app.controller import Screen
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
    game_ids,
    register,
    registry,
)
from companion.rules.core import Event as GameEvent
from companion.ui.events import EventWords
from companion.ui.games import Presenter
from companion.ui.games.boards import Board, Cell, Piece, Side, draw_board
from companion.ui.render import render

GOAL = 6


class Dash(Game):
    """Two runners on squares 0..6, one die, exact count to 6 wins."""

    id = "toy-dash"
    title = "Dash"
    presenter = f"{__name__}:DashPresenter"
    words = f"{__name__}:DashWords"

    def new_state(self, players: int | None = None) -> DashState:
        return DashState(self, self.check_players(players))

    def _state_from_body(self, data: Mapping[str, Any], players: int) -> DashState:
        state = DashState(self, players)
        state.pos = list(data["pos"])
        return state


class DashState(State):
    __slots__ = ("pos", "roll", "turn")

    def __init__(self, game: Dash, players: int) -> None:
        super().__init__(game, players)
        self.pos = [0] * players
        self.turn = 0
        self.roll = 0

    @property
    def phase(self) -> Phase:
        if GOAL in self.pos:
            return Phase.OVER
        return Phase.MOVE if self.roll else Phase.THROW

    @property
    def current_player(self) -> int:
        return self.turn

    @property
    def throw_spec(self) -> Implement | None:
        return Dice(1, 6) if self.phase is Phase.THROW else None

    @property
    def outcome(self) -> Outcome | None:
        return Outcome((self.pos.index(GOAL),), "reached the goal") if GOAL in self.pos else None

    def pieces(self) -> list[PieceAt]:
        return [PieceAt(p, PieceZone.BOARD, s) for p, s in enumerate(self.pos)]

    def _legal(self) -> tuple[Move, ...]:
        s = self.pos[self.turn]
        return (Move("move", s, s + self.roll, (self.roll,)),) if s + self.roll <= GOAL else (PASS,)

    def _push_throw(self, throw: Throw) -> list[GameEvent]:
        self.roll = throw.values[0]
        return [GameEvent("thrown", self.turn, args={"value": self.roll})]

    def _push_move(self, move: Move) -> list[GameEvent]:
        said = [GameEvent("moved", self.turn, move.src, move.dst)]
        if move.kind == "move":
            assert isinstance(move.dst, int)
            self.pos[self.turn] = move.dst
            if move.dst == 3:
                said.append(GameEvent("halfway", self.turn))
        self.roll = 0
        if GOAL not in self.pos:
            self.turn = (self.turn + 1) % self.players
        return said

    def _body(self) -> dict[str, Any]:
        return {"pos": self.pos[:]}


class DashWords(EventWords):
    """Dash's own event kind in words (the shared kinds, thrown and moved, have theirs)."""

    def on_halfway(self, event: GameEvent) -> str:
        return "Halfway there!"


class DashPresenter(Presenter):
    """Dash's one UI entry: words, the board model, its picture, an inventory page."""

    drawn: ClassVar[list[str]] = []

    def status_lines(self, state: State) -> list[str]:
        assert isinstance(state, DashState)
        return [f"P{p + 1} on {s}" for p, s in enumerate(state.pos)]

    @classmethod
    def board_model(cls, state: State, highlight: Move | None) -> Board:
        assert isinstance(state, DashState)
        cells = tuple(Cell(s, str(s), 0, s, track=s) for s in range(GOAL + 1))
        pieces = tuple(Piece(p, PieceZone.BOARD, s) for p, s in enumerate(state.pos))
        sides = tuple(Side(p, f"Player {p + 1}", str(p + 1), True, "black") for p in range(state.players))
        return Board(state.game.id, "track", (1, GOAL + 1), cells, pieces, sides,
                     None if state.outcome else state.current_player, ())

    @classmethod
    def draw(cls, board: Board, size: tuple[int, int], blink: bool) -> Image.Image:
        cls.drawn.append("board")
        image = Image.new("1", size)
        pen = ImageDraw.Draw(image)
        for cell in board.cells:
            pen.rectangle((cell.col * 16, 8, cell.col * 16 + 14, 22), outline=1)
        for piece in board.pieces:
            assert isinstance(piece.square, int)
            pen.ellipse((piece.square * 16 + 3, 11 + 3 * piece.player, piece.square * 16 + 9, 17), fill=1)
        return image

    @classmethod
    def inventory_pages(cls, board: Board, size: tuple[int, int]) -> int:
        return 1

    @classmethod
    def draw_inventories(cls, board: Board, size: tuple[int, int], page: int) -> Image.Image:
        cls.drawn.append(f"inventory {page}")
        return Image.new("1", size, 1)


@pytest.fixture
def dash(monkeypatch: pytest.MonkeyPatch) -> None:
    """Dash registered, with nothing but its Game class (for this test only)."""
    monkeypatch.setattr(registry, "_GAMES", dict(registry._GAMES))
    register(Dash)
    DashPresenter.drawn = []


def test_a_toy_game_registered_once_walks_every_screen(tmp_path: Path, dash: None) -> None:
    assert game_ids()[-1] == "toy-dash"
    ctl = controller(tmp_path, ["3", "2", "3", "5"], games=["toy-dash"])
    seen: set[Screen] = set()

    def look() -> Screen:
        screen = on(ctl)
        seen.add(screen)
        render(ctl.view(), (128, 64))  # every screen draws
        return screen

    look()
    send(ctl, OK)                                   # splash
    assert look() is Screen.MENU and ctl.view().items[0] == "Dash"
    send(ctl, OK)
    assert look() is Screen.SETUP
    send(ctl, OK)                                   # Begin
    assert look() is Screen.THROW
    send(ctl, SHAKE)                                # Player 1 throws 3
    assert look() is Screen.MOVES and ctl.view().items == ("0-3",)
    send(ctl, OK)                                   # 0-3: halfway, not routine
    assert look() is Screen.EVENTS and "Halfway there!" in ctl.view().lines
    send(ctl, OK)
    assert look() is Screen.THROW
    send(ctl, BACK)                                 # the pause menu
    assert look() is Screen.PAUSE
    items = ctl.view().items
    send(ctl, *[DOWN] * items.index("Game status"), OK)
    assert "P1 on 3" in ctl.view().lines
    look()
    send(ctl, BACK)
    assert look() is Screen.PAUSE                   # the cursor still on Game status
    send(ctl, *[DOWN] * (items.index("Board") - items.index("Game status")), OK)
    assert look() is Screen.BOARD
    send(ctl, DOWN)                                 # the inventory page
    look()
    send(ctl, BACK)
    while on(ctl) is not Screen.THROW:
        send(ctl, BACK)
    send(ctl, SHAKE, OK)                            # Player 2: 0-2
    while on(ctl) is not Screen.THROW:
        look()
        send(ctl, OK)
    send(ctl, SHAKE, OK)                            # Player 1: 3-6, wins
    while on(ctl) is not Screen.OVER:
        look()
        send(ctl, OK)
    assert look() is Screen.OVER
    assert {Screen.MENU, Screen.SETUP, Screen.THROW, Screen.MOVES, Screen.EVENTS,
            Screen.PAUSE, Screen.BOARD, Screen.OVER} <= seen
    assert "board" in DashPresenter.drawn and "inventory 0" in DashPresenter.drawn
    # The board pictures found Dash's drawing through its Game class alone.
    state = Dash().new_state()
    assert draw_board(DashPresenter.board_model(state, None)).size == (128, 64)
