"""No text cut at 21 columns without a sign that there is more (issue 23.4).

Whole games of every game are played through the real controller on a 128x64 and a
128x32 panel, visiting every screen on the way (setup and each of its rows, the
option pages, who plays with every level of the computer, the throws, the moves and
each of their rows, THROW's board preview, the pause menu and its pages, the events,
the end; THROW on each moves row previews its piece and landing). Every screen is rendered, and the renderer's every ``draw_text`` is checked:
the text fits the panel, and it is whole -- a title, key line or menu row as the view
gave it, or a line as the text wraps -- or it ends in the ellipsis. Wrapping itself
loses no character.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

from companion.app.controller import PAUSE_ITEMS, Controller, Screen
from companion.app.events import ButtonEvent, ButtonName, LoopEvent, Press, Shaken
from companion.app.screens.start import SEAT_CHOICES
from companion.devices.sources import SOURCE_NAMES
from companion.i18n import _, set_language
from companion.journal.store import JournalStore
from companion.rules import PieceZone, game_class, game_ids
from companion.sim.demo import seeded_draw
from companion.ui import font
from companion.ui.font import ELLIPSIS, text_width, wrap
from companion.ui.games.boards.pixels import highlighted_squares
from companion.ui.render import body_lines, columns, render
from companion.ui.rules_words import say
from companion.ui.view import View

SIZES = ((128, 64), (128, 32))
OK = ButtonEvent(ButtonName.OK, Press.PRESSED)
DOWN = ButtonEvent(ButtonName.DOWN, Press.PRESSED)
UP = ButtonEvent(ButtonName.UP, Press.PRESSED)
BACK = ButtonEvent(ButtonName.BACK, Press.SHORT)
THROW = ButtonEvent(ButtonName.THROW, Press.PRESSED)
NO_PIECE = frozenset({
    "pass", "avert", "face-danger", "show", "attack", "no-attack", "take-key", "keep-diamonds",
})
"""Moves that move no piece: their preview marks nothing."""
PAGES = ("Settings", "Game status", "Board")
"""The pause menu's pages visited (their BACK comes back to the game)."""


class Checked:
    """Renders views with ``draw_text`` watched; counts what it checked."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.drawn: list[tuple[int, str]] = []
        self.screens: set[str] = set()
        self.texts = 0
        original = font.draw_text

        def watched(image: Image.Image, xy: tuple[int, int], text: str, fill: int = 1,
                    scale: int = 1) -> None:
            self.drawn.append((xy[0], text))
            original(image, xy, text, fill, scale)

        monkeypatch.setattr("companion.ui.render.draw_text", watched)

    def __call__(self, view: View, size: tuple[int, int]) -> None:
        self.drawn = []
        render(view, size)
        if view.board is not None:
            return  # a board picture: no text of the view's
        self.screens.add(view.screen)
        width = size[0]
        cols = columns(width)
        whole = {view.title, view.hint, *view.items, *body_lines(view, width)}
        for item in view.items:
            whole.update(wrap(item, cols))
        if view.picture is not None:  # the throw: its faces and its score
            pic = view.picture
            whole.update({"?", "=" + pic.caption, *pic.faces,
                          *(say(f.replace(":", " ")) for f in pic.faces)})
        for line in view.lines:
            pieces = wrap(line, cols)
            assert "".join(pieces).replace(" ", "") == line.replace("\n", "").replace(" ", ""), (
                f"{view.screen}: wrapping {line!r} loses text: {pieces}"
            )
        for x, text in self.drawn:
            self.texts += 1
            assert x + text_width(text) <= width, f"{view.screen}: {text!r} runs off the panel"
            assert text in whole or text.endswith(ELLIPSIS), (
                f"{view.screen} at {size}: {text!r} is cut without a sign that there is more"
            )


def screen_of(ctl: Controller) -> Screen:
    """The screen shown (a function, so that the type checker does not narrow it)."""
    return ctl.screen


def press(ctl: Controller, check: Checked, size: tuple[int, int], *events: LoopEvent) -> None:
    for event in events:
        ctl.handle(event)
        check(ctl.view(), size)


def visit_setup(ctl: Controller, check: Checked, size: tuple[int, int]) -> None:
    """Every row of the setup, each option's page, who plays with every level; then Begin."""
    rows = len(ctl.view().items)
    for row in range(rows - 1):
        while ctl.view().cursor != row:  # a page's BACK may put the cursor back at the top
            press(ctl, check, size, DOWN)
        item = ctl.view().items[row]
        if item.startswith(_("Computer: {players}").format(players="")):
            press(ctl, check, size, OK)  # who plays
            assert screen_of(ctl) is Screen.SEATS
            for _seat in range(len(ctl.view().items) - 1):
                press(ctl, check, size, *[OK] * len(SEAT_CHOICES), DOWN)  # every level, then person
            press(ctl, check, size, BACK)
        elif not item.startswith(_("Players: {count}").format(count="")):
            press(ctl, check, size, OK)  # the option's page
            if screen_of(ctl) is Screen.OPTION:
                press(ctl, check, size, BACK)
    while ctl.view().items[ctl.view().cursor] != _("Begin"):
        press(ctl, check, size, DOWN)
    press(ctl, check, size, OK)


def visit_pause(ctl: Controller, check: Checked, size: tuple[int, int]) -> None:
    """The pause menu's pages, each, and back to the game."""
    for page in PAUSE_ITEMS:
        if page not in PAGES:
            continue
        press(ctl, check, size, BACK, *[DOWN] * PAUSE_ITEMS.index(page), OK, BACK)
        while screen_of(ctl) is Screen.PAUSE:  # back to the game: Continue
            press(ctl, check, size, UP if ctl.cursor else OK)


def previewed(view: View) -> None:
    """THROW on a row of the moves screen shows the board with the row's piece and
    landing marked (issue 23.3): a row that narrows the choice too ("plinth on 29")."""
    assert view.board is not None, f"THROW on a moves row shows {view.screen}"
    h = view.board.highlight
    assert h is not None, "THROW on a moves row previews nothing"
    if h.move.kind not in NO_PIECE:
        assert highlighted_squares(view.board) or h.src_zone is not PieceZone.BOARD, (
            f"the preview of {h.move.notation} marks nothing"
        )


def play(game_id: str, players: int, size: tuple[int, int], seed: int, root: Path,
         check: Checked) -> Iterator[Screen]:
    """One whole game of ``game_id``; yields the screens passed."""
    ctl = Controller(store=JournalStore(root), draw=seeded_draw(seed), sources=list(SOURCE_NAMES),
                     source="gpio-shaker", games=[game_id], size=size)
    ctl.start()
    rnd = random.Random(seed)
    check(ctl.view(), size)
    while screen_of(ctl) is not Screen.SETUP:
        press(ctl, check, size, OK)
    while ctl.view().cursor != 0:  # the setup may open on Begin
        press(ctl, check, size, DOWN)
    while (ctl.view().items[0] != _("Players: {count}").format(count=players)
           and players > game_class(game_id).min_players):
        press(ctl, check, size, OK)
    visit_setup(ctl, check, size)
    turns = 0
    for _step in range(6000):
        screen = screen_of(ctl)
        yield screen
        if screen is Screen.OVER:
            return
        if screen is Screen.THROW:
            press(ctl, check, size, Shaken(ctl.source))
        elif screen is Screen.MOVES:
            turns += 1
            if turns % 25 == 1:
                visit_pause(ctl, check, size)
            rows = len(ctl.view().items)
            for _row in range(rows if turns % 5 == 1 else 0):  # each row, and its preview
                press(ctl, check, size, THROW)
                previewed(ctl.view())
                press(ctl, check, size, BACK, DOWN)
            press(ctl, check, size, *[DOWN] * rnd.randrange(rows), OK)
        elif screen is Screen.PAUSE:
            press(ctl, check, size, UP if ctl.cursor else OK)
        else:
            press(ctl, check, size, OK)
    raise AssertionError(f"{game_id}: the game did not end")


@pytest.fixture(params=["en", "de"])
def lang(request: pytest.FixtureRequest) -> Iterator[str]:
    """The walk in each language of the box (issue 20: the German screens fit too)."""
    set_language(request.param)
    yield request.param
    set_language("en")


@pytest.mark.parametrize("size", SIZES, ids=["128x64", "128x32"])
@pytest.mark.parametrize("game_id", game_ids())
def test_whole_games_cut_no_text_silently(game_id: str, size: tuple[int, int], tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    check = Checked(monkeypatch)
    cls = game_class(game_id)
    seen = set(play(game_id, cls.max_players, size, 7, tmp_path, check))
    assert {Screen.THROW, Screen.MOVES, Screen.OVER} <= seen
    assert {"setup", "seats", "option", "throw", "moves", "pause", "over"} <= check.screens
    assert check.texts > 1000


def test_a_path_in_a_message_wraps_after_its_slashes() -> None:
    path = "/home/pi/.local/state/board-companion/games/2026-11-26.journal"
    view = View("message", "Cannot start", (f"Cannot begin: {path}",), hint="OK")
    lines = body_lines(view, 128)
    assert lines[0] == "Cannot begin:"
    assert all(len(line) <= 21 for line in lines)
    assert all(line.endswith("/") for line in lines[1:-1]), lines
    assert "".join(lines[1:]) == path


def test_a_long_row_ends_in_the_ellipsis_and_the_selected_one_shows_it_all(
        monkeypatch: pytest.MonkeyPatch) -> None:
    check = Checked(monkeypatch)
    long = "Board: labyrinth-broken-bridge.toml"
    items = ("Players: 2", long, "Begin")
    check(View("setup", "Game of the Labyrinth (Peter Aleff)", items=items, hint="OK: change"), (128, 64))
    assert [t for _, t in check.drawn] == [
        "Game of the Labyrint" + ELLIPSIS, "Players: 2", "Board: labyrinth-bro" + ELLIPSIS, "Begin",
        "OK: change",
    ]
    check(View("setup", "Game", items=items, cursor=1), (128, 64))
    assert [t for _, t in check.drawn] == ["Game", "Players: 2", "Board:", "labyrinth-broken-", "bridge.toml",
                                           "Begin"]


@pytest.mark.parametrize("size", SIZES, ids=["128x64", "128x32"])
def test_long_names_of_the_roster_on_the_seat_screens_are_never_cut_silently(
        size: tuple[int, int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    """Names of the club's roster (issue 33) at their longest (32 characters, one word
    or several): every row of the seats and of a seat's page, highlighted and not."""
    from companion.journal.names import MAX_NAME
    from companion.journal.roster import save_roster

    roster = tmp_path / "roster.json"
    names = ["W" * MAX_NAME, "Maximiliane Mustermann-Schmidt ü", "Anna Berg"]
    save_roster(roster, names)
    check = Checked(monkeypatch)
    ctl = Controller(store=JournalStore(tmp_path / "j"), draw=seeded_draw(1),
                     sources=list(SOURCE_NAMES), source="gpio-shaker", games=["senet-tait"],
                     roster=roster, size=size)
    ctl.start()
    press(ctl, check, size, OK, OK, UP, OK)
    assert screen_of(ctl) is Screen.SEATS
    players = len(ctl.view().items) - 1
    for seat in range(players):
        while ctl.view().cursor != seat:
            press(ctl, check, size, DOWN)
        press(ctl, check, size, OK)                  # the seat's page
        assert screen_of(ctl) is Screen.WHO
        for _row in range(len(ctl.view().items)):
            press(ctl, check, size, DOWN)            # every row highlighted in turn
        while not ctl.view().items[ctl.view().cursor].startswith(names[seat][:5]):
            press(ctl, check, size, DOWN)
        press(ctl, check, size, OK)                  # the name taken
    assert {"seats", "who"} <= check.screens
    assert all(names[p] in ctl.view().items[p] for p in range(players))
