"""No surprises at the table (issue 23 items 1, 2, 5, 8; issue 22 part 7), through the
controller: events in, screens out.

Looking never moves a piece; every page says what its keys do; undo names every move
it takes back; an own board given at start is named on the setup screen; the
computer's lost throw needs no OK of its own; manual entry starts with nothing chosen;
ending a game asks first, naming it."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

import pytest
from controller_tools import BACK, DOWN, HOLD_BACK, OK, SHAKE, UP, controller, on, send
from walkthroughs import cretan_labyrinth, labyrinth, review, scripted_draw, senet_sticks
from walkthroughs.screens import walk

from companion.app.controller import PAUSE_ITEMS, Controller, Screen
from companion.app.events import ButtonEvent, ButtonName, Press
from companion.app.screens import Confirm
from companion.app.worker import Worker
from companion.devices.sources import SOURCE_NAMES
from companion.journal.store import JournalStore, load
from companion.rules import Move, State, Throw
from companion.ui.view import View

THROW = ButtonEvent(ButtonName.THROW, Press.PRESSED)
DATA = Path(__file__).parents[2] / "companion" / "rules" / "data"


def first_move(state: State, level: str) -> Move:
    return state.legal_moves()[0]


def white_the_computer(tmp_path: Path, scores: list[str], worker: Worker | None = None) -> Controller:
    """Senet (Tait's rules) begun with White the computer (easy), throws ``scores``."""
    ctl = Controller(store=JournalStore(tmp_path), draw=scripted_draw(scores),
                     sources=list(SOURCE_NAMES), source="gpio-shaker", games=["senet-tait"],
                     think=first_move, worker=worker)
    ctl.start()
    send(ctl, OK, OK, UP, OK, DOWN, OK, BACK, DOWN, OK)  # setup: Computer: White; Begin
    assert on(ctl) is Screen.THROW and ctl.table is not None and ctl.table.seats == {1: "easy"}
    return ctl


def moves_made(ctl: Controller) -> list[Move]:
    return [a for a in ctl.actions if isinstance(a, Move)]


# ------------------------------------------------------------------ looking never acts


def test_the_board_from_the_pause_menu_never_plays_the_highlighted_move(tmp_path: Path) -> None:
    ctl = controller(tmp_path, ["4"], games=["senet-tait"])
    send(ctl, OK, OK, OK, SHAKE)                      # Black threw 4: enter 4 highlighted
    assert on(ctl) is Screen.MOVES
    send(ctl, BACK, *[DOWN] * PAUSE_ITEMS.index("Board"), OK)
    view = ctl.view()
    assert on(ctl) is Screen.BOARD
    assert view.title and view.hint == "OK: back"     # a title and a key line
    send(ctl, OK)                                     # OK closes it, like Game status
    assert on(ctl) is Screen.PAUSE and moves_made(ctl) == []
    send(ctl, BACK)
    assert on(ctl) is Screen.MOVES and moves_made(ctl) == []


def test_the_throw_preview_may_play_and_says_so(tmp_path: Path) -> None:
    ctl = controller(tmp_path, ["4"], games=["senet-tait"])
    send(ctl, OK, OK, OK, SHAKE, THROW)
    view = ctl.view()
    assert on(ctl) is Screen.BOARD and view.hint == "OK: play  BACK: back"
    assert view.title == "Black: enter 4"
    send(ctl, OK)
    assert [m.notation for m in moves_made(ctl)] == ["enter 4"]


def _walked(tmp: Path) -> Iterator[tuple[str, View]]:
    yield from walk(tmp / "screens")
    yield from labyrinth.walk(tmp / "labyrinth")
    yield from senet_sticks.walk(tmp / "senet-sticks")
    yield from cretan_labyrinth.walk(tmp / "cretan-labyrinth")
    yield from review.walk(tmp / "review")


def test_every_page_kind_shows_what_its_keys_do(tmp_path: Path) -> None:
    """Every screen the walkthroughs reach through a controller (not the bare throw
    pictures they also draw) has a title and a key line; every kind of page is among them."""
    seen: set[str] = set()
    for name, view in _walked(tmp_path):
        if name.startswith("picture-") or name == "manual-dice":  # Views made by hand
            continue
        seen.add(view.screen)
        assert view.title, name
        assert view.hint, f"{name}: no key line"
    thinking = white_the_computer(tmp_path / "held", ["4"], worker=_held_worker())
    send(thinking, SHAKE, OK)                         # Black enters; the computer thinks
    assert on(thinking) is Screen.THINKING and thinking.view().hint
    seen.add(thinking.view().screen)
    assert seen == {s.value for s in Screen}


class Held(Executor):
    """An executor that never runs its jobs."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        return Future()


def _held_worker() -> Worker:
    """A worker whose jobs never run (the computer stays at work)."""
    worker = Worker(Held())
    worker.connect(lambda: None, lambda result: None)
    return worker


# ------------------------------------------------------------------ undo says everything


def test_undo_after_the_computer_s_reply_names_every_move_taken_back(tmp_path: Path) -> None:
    ctl = white_the_computer(tmp_path, ["4", "6", "3"])
    send(ctl, SHAKE, OK)                              # Black: enter 4
    assert on(ctl) is Screen.COMPUTER                 # White threw 6: enter 6
    send(ctl, OK, OK, OK)                             # played; its extra throw; 3: 6-9
    assert [m.notation for m in moves_made(ctl)] == ["enter 4", "enter 6", "6-9"]
    send(ctl, HOLD_BACK)
    view = ctl.view()
    assert view.title == "Undone"
    assert view.lines == (
        "Black's move enter 4 is taken back: back on the plinth.",
        "White's move enter 6 is taken back: back on the plinth.",
        "White's move 6-9 is taken back: back to 6.",
        "Put the pieces back as they were.",
    )
    assert moves_made(ctl) == []
    assert ctl.journal is not None
    assert [r for r in load(ctl.journal.path, repair=False).records if "move" in r] == []


def test_table_undo_returns_every_move_it_took_back(tmp_path: Path) -> None:
    ctl = white_the_computer(tmp_path, ["4", "6", "3"])
    send(ctl, SHAKE, OK, OK, OK, OK)
    assert ctl.table is not None
    undone = ctl.table.undo()
    assert undone is not None and undone.count == 5  # the move, two throws and two moves after it
    assert [(t.by, t.move.notation) for t in undone.moves] == [
        ("Black", "enter 4"), ("White", "enter 6"), ("White", "6-9")]


# ------------------------------------------------------------------ own boards named


@pytest.mark.parametrize(("game", "option", "data", "row"), [
    ("labyrinth", "board", "labyrinth.toml", "Board: my-board.toml"),
    ("cretan-labyrinth", "decks", "cretan_decks.toml", "Decks: my-board.toml"),
])
def test_a_board_or_decks_given_at_start_is_named_on_the_setup(
    tmp_path: Path, game: str, option: str, data: str, row: str,
) -> None:
    own = tmp_path / "my-board.toml"
    shutil.copyfile(DATA / data, own)
    ctl = Controller(store=JournalStore(tmp_path / "j"), draw=scripted_draw([]),
                     sources=list(SOURCE_NAMES), source="gpio-shaker", games=[game],
                     game_options={game: {option: str(own)}})
    ctl.start()
    send(ctl, OK, OK)
    assert on(ctl) is Screen.SETUP
    assert row in ctl.view().items
    send(ctl, *[UP] * (len(ctl.view().items) - 1 - ctl.view().items.index(row)), OK)
    assert on(ctl) is Screen.OPTION and str(own) in ctl.view().lines
    send(ctl, OK)                                     # nothing else offered: back, unchanged
    assert on(ctl) is Screen.SETUP and row in ctl.view().items


# ------------------------------------------------------------------ small frictions


@pytest.mark.parametrize("game", ["senet-tait", "labyrinth", "senet-sticks", "cretan-labyrinth"])
def test_the_setup_s_second_line_never_repeats_the_selected_row(tmp_path: Path, game: str) -> None:
    """Issue 35: on an option's row the line under the title said the selected row again
    ("Extra stick: yes" above "Extra stick: yes"). It says who throws first (on Players:
    who plays), on every row of the setup screen of every game."""
    ctl = controller(tmp_path, [], games=[game])
    send(ctl, OK, OK)
    assert on(ctl) is Screen.SETUP
    seen = set()
    for _row in range(len(ctl.view().items)):
        view = ctl.view()
        selected = view.items[view.cursor]
        assert view.lines and view.lines[0] != selected, (selected, view.lines)
        seen.add(view.lines[0])
        send(ctl, DOWN)
    assert any(line.endswith("throws first.") for line in seen), seen


def test_the_computer_s_lost_throw_needs_no_ok_of_its_own(tmp_path: Path) -> None:
    ctl = white_the_computer(tmp_path, ["3", "2"])
    send(ctl, SHAKE)
    assert on(ctl) is Screen.LOST                     # Black's own lost throw: OK
    send(ctl, OK)
    # White threw 2, lost too: said under Black's next throw, with no screen of its own.
    view = ctl.view()
    assert on(ctl) is Screen.THROW and view.lines[0].startswith("Black to throw")
    assert "White's throw of 2 is lost: no legal move" in view.lines
    assert "A piece enters only on a 4 or a 6." in view.lines
    assert [a for a in ctl.actions if isinstance(a, Move)][-1].kind == "pass"


def test_manual_entry_starts_with_nothing_chosen(tmp_path: Path) -> None:
    ctl = controller(tmp_path, [], source="manual", games=["labyrinth"])
    send(ctl, OK, OK, OK)
    assert on(ctl) is Screen.MANUAL and ctl.view().lines[0] == "Die 1 of 1: ?"
    send(ctl, OK)                                     # a stray OK records nothing
    assert on(ctl) is Screen.MANUAL and ctl.actions == []
    assert "Choose with UP/DOWN." in ctl.view().lines
    send(ctl, DOWN, OK)                               # the first value, then OK: a 1
    first = ctl.actions[0]
    assert isinstance(first, Throw) and first.values == (1,)


# ------------------------------------------------------------------ ending asks first


def test_end_game_asks_first_naming_the_game_and_keeps_by_default(tmp_path: Path) -> None:
    ctl = controller(tmp_path, ["4"], games=["senet-tait"])
    send(ctl, OK, OK, OK)
    end = [BACK, *[DOWN] * PAUSE_ITEMS.index("End game"), OK]
    send(ctl, *end)
    view = ctl.view()
    assert on(ctl) is Screen.CONFIRM and "End Senet (Tait's rules)?" in view.lines
    assert view.items[view.cursor] == "Keep playing"
    send(ctl, OK)                                     # a doubled OK keeps the game
    assert on(ctl) is Screen.THROW and ctl.table is not None
    send(ctl, *end, BACK)                             # BACK keeps it too
    assert on(ctl) is Screen.THROW and ctl.table is not None
    send(ctl, *end, DOWN)
    assert ctl.view().hint == "OK: end  BACK: keep"
    journal = ctl.journal
    assert journal is not None
    send(ctl, OK)
    assert on(ctl) is Screen.MENU and ctl.table is None
    assert load(journal.path, repair=False).ended


def paused_over_white_s_move(tmp_path: Path, worker: Worker | None = None) -> Controller:
    """Senet: Black entered on 4, White threw 6; the pause menu opened over White's moves."""
    ctl = Controller(store=JournalStore(tmp_path), draw=scripted_draw(["4", "6"]),
                     sources=list(SOURCE_NAMES), source="gpio-shaker", games=["senet-tait"],
                     think=first_move, worker=worker)
    ctl.start()
    send(ctl, OK, OK, OK, SHAKE, OK, SHAKE, BACK)
    assert on(ctl) is Screen.PAUSE and len(moves_made(ctl)) == 1
    return ctl


def test_undo_from_the_pause_menu_asks_first_naming_the_move_and_keeps_by_default(
        tmp_path: Path) -> None:
    """Issue 35: "Undo last move" took a move back with no question (a press meant for
    another row did it). It asks as End game does; keeping returns to the pause menu
    with the cursor on Undo."""
    ctl = paused_over_white_s_move(tmp_path)
    undo = [DOWN] * PAUSE_ITEMS.index("Undo last move")
    send(ctl, *undo, OK)
    view = ctl.view()
    assert on(ctl) is Screen.CONFIRM and view.title == "Undo move?"
    assert view.lines == ("Take back Black's move enter 4?",)
    assert view.items == ("Keep playing", "Undo") and view.cursor == 0
    send(ctl, OK)                                     # a doubled OK keeps the move
    assert on(ctl) is Screen.PAUSE and ctl.view().items[ctl.cursor] == "Undo last move"
    send(ctl, OK, BACK)                               # BACK keeps it too
    assert on(ctl) is Screen.PAUSE and ctl.view().items[ctl.cursor] == "Undo last move"
    assert len(moves_made(ctl)) == 1
    send(ctl, OK, DOWN)
    assert ctl.view().hint == "OK: undo  BACK: keep"
    send(ctl, OK)
    assert on(ctl) is Screen.MESSAGE and ctl.view().title == "Undone"
    assert moves_made(ctl) == []
    assert ctl.journal is not None and load(ctl.journal.path).actions == ctl.actions


def test_nothing_to_undo_from_the_pause_menu_asks_nothing(tmp_path: Path) -> None:
    ctl = controller(tmp_path, ["4"], games=["senet-tait"])
    send(ctl, OK, OK, OK, BACK, DOWN, OK)
    assert ctl.view().title == "Nothing to undo"
    send(ctl, OK)
    assert on(ctl) is Screen.PAUSE and ctl.view().items[ctl.cursor] == "Undo last move"


def test_the_pause_menu_cursor_stays_on_game_status_after_it(tmp_path: Path) -> None:
    """Issue 35: back from Game status the cursor was on "Continue", so Down+OK meant
    for "Board" chose "Undo last move". It stays on Game status: Down+OK is Board."""
    ctl = paused_over_white_s_move(tmp_path)
    send(ctl, *[DOWN] * PAUSE_ITEMS.index("Game status"), OK)
    assert on(ctl) is Screen.MESSAGE and ctl.view().title == "Senet (Tait's rules)"
    send(ctl, OK)
    assert on(ctl) is Screen.PAUSE and ctl.view().items[ctl.cursor] == "Game status"
    send(ctl, DOWN, OK)
    assert on(ctl) is Screen.BOARD and len(moves_made(ctl)) == 1


def test_the_pause_menu_cursor_stays_on_hint_after_it(tmp_path: Path) -> None:
    """Issue 35, the hint: its answer, and BACK while it is worked out, lead back to the
    pause menu it was asked from, the cursor on Hint (they led to the game, and the
    pause menu opened anew on "Continue")."""
    ctl = paused_over_white_s_move(tmp_path)
    hint = ctl.view().items.index("Hint")
    send(ctl, *[DOWN] * hint, OK)                     # worked out at once here
    assert ctl.view().title == "Hint" and ctl.view().lines[0].startswith("Best: ")
    send(ctl, OK)
    assert on(ctl) is Screen.PAUSE and ctl.cursor == hint
    send(ctl, UP, OK)                                 # End game: asked, the game kept
    assert on(ctl) is Screen.CONFIRM and len(moves_made(ctl)) == 1

    executor = review.HeldExecutor()
    worker = Worker(executor)
    worker.connect(lambda: None, lambda result: None)
    held = paused_over_white_s_move(tmp_path / "held", worker)
    send(held, *[DOWN] * hint, OK)
    assert on(held) is Screen.THINKING
    send(held, BACK)
    assert on(held) is Screen.PAUSE and held.cursor == hint


def test_new_game_over_an_unfinished_game_asks_first(tmp_path: Path) -> None:
    first = controller(tmp_path, ["4"], games=["senet-tait"])
    send(first, OK, OK, OK, SHAKE, OK)
    assert first.journal is not None
    path = first.journal.path
    first.close()
    ctl = controller(tmp_path, [], games=["senet-tait"])
    send(ctl, OK)
    assert on(ctl) is Screen.RESUME
    send(ctl, DOWN, OK)                               # New game
    page = ctl.page
    assert isinstance(page, Confirm) and "End Senet (Tait's rules)?" in ctl.view().lines
    send(ctl, OK)                                     # on "Keep it": kept, offered again
    assert on(ctl) is Screen.RESUME and not load(path, repair=False).ended
    send(ctl, DOWN, OK, DOWN, OK)                     # New game, End it
    assert on(ctl) is Screen.MENU and load(path, repair=False).ended
