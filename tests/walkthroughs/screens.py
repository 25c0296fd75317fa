"""Every screen of the companion, made by driving the real controller with events.

``tests/ui/test_reference.py`` compares each screen pixel for pixel with its
reference PNG in ``tests/ui/reference/``. After changing a screen ON PURPOSE, write
new references (and the enlarged copies shown in the README) with::

    UPDATE_REFERENCE=1 .venv/bin/python -m pytest tests/ui/test_reference.py

and look at the pictures before committing them.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from PIL import Image

from companion.app.camera import check_lines
from companion.app.controller import PAUSE_ITEMS, Controller, Screen
from companion.app.events import (
    ButtonEvent,
    ButtonName,
    LoopEvent,
    Press,
    Shaken,
    ShakeStarted,
    ThrowReported,
)
from companion.app.screens import BoardCheck, Calibrating, ComputerMove
from companion.devices.sources import SOURCE_NAMES
from companion.journal.roster import save_roster
from companion.journal.store import JournalStore
from companion.rules import (
    BinarySticks,
    ColouredSticks,
    Deck,
    Dice,
    StickFace,
    get_game,
    play_out,
)
from companion.ui.render import render
from companion.ui.view import ThrowPicture, View, picture_of
from walkthroughs import cretan_labyrinth, labyrinth, review, scripted_draw, senet_sticks

SMALL = (128, 32)
LARGE = (128, 64)
README_SCREENS = (
    "throw", "moves", "events", "lost", "manual", "over", "moves-preview", "resumed-board",
    "confirm-end", "seats", "computer", "hint",
    "labyrinth-moves-jump", "senet-sticks-moves", "cretan-labyrinth-card",
    "review", "review-mistakes", "review-luck", "tutor-confirm", "tutor-checking", "settings-tutor",
)
"""The screens shown (enlarged) in the README."""


def _press(button: ButtonName, press: Press = Press.PRESSED) -> ButtonEvent:
    return ButtonEvent(button, press)


OK = _press(ButtonName.OK)
DOWN = _press(ButtonName.DOWN)
UP = _press(ButtonName.UP)
BACK = _press(ButtonName.BACK, Press.SHORT)
HOLD_BACK = _press(ButtonName.BACK, Press.HELD)
THROW = _press(ButtonName.THROW)
OK_UP = _press(ButtonName.OK, Press.SHORT)
"""OK released (with speech on OK acts then, not when pressed)."""


def _finished_game_actions(seed: int) -> list[str]:
    """The notations / faces of a random whole Senet game (for the resume and winner screens)."""
    state = play_out(get_game("senet-tait").new_state(), random.Random(seed).randrange)
    return [str(a) for a in state.history]


def walk(workdir: Path) -> Iterator[tuple[str, View]]:
    """Drive controllers through every screen; yield ``(name, view)`` for each."""
    draw = scripted_draw(["4", "1", "6", "LLDD"])
    # The menu lists only Senet, so that the references do not change when games are added.
    ctl = Controller(store=JournalStore(workdir / "a"), draw=draw,
                     sources=list(SOURCE_NAMES), source="gpio-shaker", games=["senet-tait"])

    def send(*events: LoopEvent) -> View:
        for ev in events:
            ctl.handle(ev)
        return ctl.view()

    ctl.start()
    yield "splash", ctl.view()
    yield "menu", send(OK)
    yield "setup", send(OK)
    yield "throw-first", send(OK)
    yield "throw-shaking", send(ShakeStarted("gpio-shaker"))
    yield "moves-enter", send(Shaken("gpio-shaker"))          # Black 4: enter 4
    yield "throw", send(OK)                                   # White to throw, last move shown
    yield "lost", send(Shaken("gpio-shaker"))                 # White 1: nothing to move
    send(OK)                                                  # the throw is lost
    yield "moves", send(Shaken("gpio-shaker"))                # Black 6: enter 6 or 4-10
    yield "moves-preview", send(DOWN, THROW)                  # THROW: where 4-10 goes
    send(BACK, UP)                                            # back on the moves, on enter 6
    yield "events", send(OK)                                  # enter 6: extra throw
    yield "pause", send(OK, BACK)
    yield "settings", send(DOWN, DOWN, OK)
    yield "settings-speech", send(UP, UP, UP, OK)             # two rows above Back: Speech
    yield "settings-speech-on", send(OK, OK_UP, DOWN, OK, OK_UP)  # on, voice en-gb (on release)
    send(OK, OK_UP, OK, OK_UP, UP, OK, OK_UP, BACK)           # voice auto again, off; settings
    send(BACK)                                                # settings: back to the game
    yield "status", send(BACK, DOWN, DOWN, DOWN, OK)          # pause: Game status
    send(OK, BACK)                                            # the pause menu, the game
    yield "undo", send(HOLD_BACK)
    send(OK)
    yield "pause-board", send(BACK, *[DOWN] * PAUSE_ITEMS.index("Board"), OK)  # enter 6
    send(BACK, BACK)                                          # the pause menu, the moves
    yield "confirm-end", send(BACK, *[DOWN] * PAUSE_ITEMS.index("End game"), OK, DOWN)
    send(BACK)                                                # kept: the moves again
    yield "confirm-undo", send(BACK, *[DOWN] * PAUSE_ITEMS.index("Undo last move"), OK, DOWN)
    send(BACK, BACK)                                          # kept: the pause menu, the moves
    send(BACK, DOWN, DOWN, OK, OK)                            # pause, settings: serial shaker
    send(UP, OK)                                              # settings' Back: on moves again
    send(OK)                                                  # enter 6 again
    send(OK)                                                  # events seen
    yield "error", send(ThrowReported("serial-shaker", "2d6", ("3", "4")))
    send(OK)
    send(BACK, DOWN, DOWN, OK, OK, OK)                        # pause, settings: manual entry
    send(UP, OK)                                              # settings' Back: enter the throw
    yield "manual-unchosen", send(OK)                         # no score yet: OK asks
    yield "manual", send(DOWN, DOWN)                          # the score 2, in words
    assert ctl.screen is Screen.MANUAL

    # Resume a game one move from its end, then win it.
    actions = _finished_game_actions(7)
    game = get_game("senet-tait")
    store = JournalStore(workdir / "b")
    journal = store.begin(game, 2, started="2026-01-01T00:00:00+00:00")
    state = game.new_state()
    for text in actions[:-1]:
        spec = state.throw_spec
        action = spec.parse(text.split(" ")[0]) if spec is not None else state.parse_move(text)
        by = state.player_to_act_name
        events = state.apply(action)
        journal.append(by, action, events)
    journal.close()
    ctl2 = Controller(store=store, draw=scripted_draw([]), sources=list(SOURCE_NAMES),
                      source="gpio-shaker")
    ctl2.start()
    ctl2.handle(OK)
    yield "resume", ctl2.view()
    ctl2.handle(DOWN)
    ctl2.handle(OK)
    yield "confirm-new", ctl2.view()                          # New game: end it? (keep it)
    ctl2.handle(BACK)                                         # kept: offered again
    ctl2.handle(OK)
    yield "resumed-board", ctl2.view()                        # the position, to check the board by
    # With a camera on, the board is checked instead (issue 34): looking, then what differs.
    yield "board-check-looking", BoardCheck().view(ctl2)
    assert ctl2.state is not None
    yield "board-check", BoardCheck(lines=check_lines(ctl2.state, (
        (14, None, 0), (18, 0, None), (21, None, 1), (23, 1, None), (29, 0, None)))).view(ctl2)
    ctl2.handle(OK)
    assert ctl2.state is not None
    final = ctl2.state.parse_move(actions[-1])
    for _ in range(ctl2.state.legal_moves().index(final)):
        ctl2.handle(DOWN)
    ctl2.handle(OK)
    assert ctl2.screen is Screen.OVER, ctl2.screen
    yield "over", ctl2.view()

    # A damaged journal is reported at start.
    path = journal.path
    path.write_bytes(path.read_bytes()[:-7])
    ctl3 = Controller(store=JournalStore(workdir / "b"), draw=scripted_draw([]),
                      sources=list(SOURCE_NAMES), source="button")
    ctl3.start()
    ctl3.handle(OK)
    yield "journal-repaired", ctl3.view()

    # A seat for the computer: White plays the first legal move it is given.
    ctl4 = Controller(store=JournalStore(workdir / "c"), draw=scripted_draw(["4", "4", "6"]),
                      sources=list(SOURCE_NAMES), source="gpio-shaker", games=["senet-tait"],
                      think=lambda state, level: state.legal_moves()[0])

    def send4(*events: LoopEvent) -> View:
        for ev in events:
            ctl4.handle(ev)
        return ctl4.view()

    send4(OK, OK, UP, OK)                                     # splash, menu, setup: Computer
    yield "seats", send4(DOWN, OK, OK)                        # White: computer normal
    yield "setup-computer", send4(BACK)
    send4(DOWN, OK, Shaken("gpio-shaker"), OK)                # Begin; Black throws 4, enters
    yield "computer", ctl4.view()                             # White's throw drawn: its move
    # With a camera on, a board that shows another move is named (issue 34).
    assert isinstance(ctl4.page, ComputerMove) and ctl4.state is not None
    yield "computer-differs", replace(ctl4.page, lines=check_lines(ctl4.state, ((5, 1, None), (4, None, 1)))
                                      ).view(ctl4)
    yield "computer-board", send4(THROW)                      # where it goes
    send4(OK, OK)                                             # played; what it did (a bump)
    send4(Shaken("gpio-shaker"))                              # Black throws 6
    assert ctl4.screen is Screen.MOVES, ctl4.screen
    yield "hint", send4(BACK, UP, OK)                         # pause menu, Hint (last)

    # People of the club's roster at the seats (issue 33): Black's seat, then Anna at it.
    roster = workdir / "publish" / "roster.json"
    save_roster(roster, ["Anna Berg", "Ben"])
    ctl5 = Controller(store=JournalStore(workdir / "d"), draw=scripted_draw([]),
                      sources=list(SOURCE_NAMES), source="gpio-shaker", games=["senet-tait"],
                      roster=roster)
    ctl5.start()
    for event in (OK, OK, UP, OK, OK, DOWN):                # setup: Computer; Black; Anna
        ctl5.handle(event)
    yield "who", ctl5.view()
    ctl5.handle(OK)
    yield "seats-person", ctl5.view()                         # Black: Anna Berg

    # The camera in Settings (issue 34), where the box can use one: a USB webcam chosen,
    # the move it reads waiting for OK.
    ctl6 = Controller(store=JournalStore(workdir / "e"), draw=scripted_draw([]),
                      sources=list(SOURCE_NAMES), source="gpio-shaker", games=["senet-tait"],
                      cameras=("off", "usb", "picamera"))
    ctl6.start()
    for event in (OK, DOWN, OK, DOWN, OK):                  # menu: Settings; Camera: USB
        ctl6.handle(event)
    yield "settings-camera", ctl6.view()
    # ... and its Calibrate camera row (a board without markers): which board, then the
    # steps (made here as the camera's answers leave them: no camera in this walk).
    for event in (DOWN, DOWN, OK):
        ctl6.handle(event)
    yield "calibrate-game", ctl6.view()
    tait = ("1", "10", "30", "21")
    yield "calibrate-empty", Calibrating(game="senet-tait").view(ctl6)
    yield "calibrate-corner", Calibrating(game="senet-tait", stage=2, labels=tait, ticket=1).view(ctl6)
    yield "calibrate-again", Calibrating(
        game="senet-tait", stage=1, labels=tait,
        problem=("no piece found: put one piece on the square (nothing else)",)).view(ctl6)

    # Throw pictures of the other implements (games still being written use them).
    two_dice = Dice(2, 6)
    yield "picture-dice", View("moves", "Player 1 threw 3+5", items=("12-15", "12-17 [3+5]"),
                               picture=picture_of(two_dice.parse("3 5"), two_dice))
    sticks = ColouredSticks(((StickFace(1, "red"), StickFace(2, "blue")),
                             (StickFace(3, "red"), StickFace(0, None))))
    yield "picture-coloured", View("moves", "Player 2 threw", items=("pass",),
                                   picture=picture_of(sticks.from_faces(["2:blue", "3:red"]), sticks))
    deck = Deck("direction", ("north", "south"))
    yield "picture-card", View("events", "Player 1 draws", ("Go north.",),
                               picture=picture_of(deck.parse("north"), deck))
    five = BinarySticks(5)
    yield "picture-five-sticks", View("lost", "White threw 5", ("No legal move:", "the throw is lost."),
                                      picture=picture_of(five.parse("LLLLL"), five), hint="OK: next")
    yield "manual-dice", View("manual", "Player 1: enter throw", ("Die 2 of 2: 4",),
                              picture=ThrowPicture("dice", ("6", "4"), focus=1))


def images(workdir: Path) -> dict[str, Image.Image]:
    """Every reference image by file stem: each screen at 128x64, and a few at 128x32."""
    out: dict[str, Image.Image] = {}
    walks = [
        walk(workdir),
        # Each game's own screens, in a module of its own (see its docstring).
        labyrinth.walk(workdir / "labyrinth"),
        senet_sticks.walk(workdir / "senet-sticks"),
        cretan_labyrinth.walk(workdir / "cretan-labyrinth"),
        review.walk(workdir / "review"),
    ]
    for name, view in (pair for screens in walks for pair in screens):
        assert name not in out, f"two screens are named {name!r}"
        out[name] = render(view, LARGE)
        if name in ("throw", "moves", "events", "menu"):
            out[f"{name}-128x32"] = render(view, SMALL)
    return out
