"""The box's calibration of a board without markers (issue 34; Settings > Calibrate
camera): the still of the empty board and one piece on each corner square, each looked
at on the worker at OK; then the camera reads the moves on the board without markers.
BACK on a step saves nothing; a look that finds no piece says why and asks again; a
camera that fails says so and the buttons work."""

from __future__ import annotations

from pathlib import Path

import pytest
from controller_tools import BACK, DOWN, OK, SHAKE, on, send
from walkthroughs import scripted_draw
from walkthroughs.cue_games import Recorder

pytest.importorskip("cv2")

from companion.app import config as cfg
from companion.app.camera import LiveCamera
from companion.app.controller import Controller, Screen
from companion.app.settings import Prefs
from companion.camera import calibration as cal
from companion.camera.board import Pixels, layout_for
from companion.camera.fake import FakeCamera
from companion.camera.sources import CameraError
from companion.devices.sources import SOURCE_NAMES
from companion.journal.store import JournalStore
from companion.rules import get_game
from companion.rules.core import Square

SCORES = ["4", "1", "6", "2", "4", "4"]
"""Black enters on 4, White's 1 is lost, Black's 6: ``enter 6`` or ``4-10``."""
LAYOUT = layout_for(get_game("senet-tait").new_state())
CORNERS = cal.corner_squares(LAYOUT)


class Table:
    """A camera that stays where it is over Tait's Senet drawn without markers (the
    player's own board): each grab a photo of :attr:`pieces` (one seed per board)."""

    def __init__(self) -> None:
        self.camera = FakeCamera(LAYOUT, markers=False)
        self.pieces: dict[Square, int] = {}
        self._shown: dict[tuple[tuple[Square, int], ...], Pixels] = {}

    def grab(self) -> Pixels:
        key = tuple(sorted(self.pieces.items()))
        if key not in self._shown:
            self._shown[key] = self.camera.photo(self.pieces, 60 + len(self._shown), pose=5).image
        return self._shown[key]

    def close(self) -> None:
        pass


class Broken:
    """A camera that cannot be opened."""

    def grab(self) -> Pixels:
        raise CameraError("the webcam /dev/video0 cannot be opened")

    def close(self) -> None:
        pass


def settings(tmp_path: Path, source: object, said: Recorder | None = None
             ) -> tuple[Controller, LiveCamera]:
    """A controller with the USB camera chosen, on Settings' Calibrate camera row
    (``said``: its speaker)."""
    camera = LiveCamera(source, calibrations=tmp_path)  # type: ignore[arg-type]
    prefs = Prefs.from_config({**cfg.defaults(), "throw.source": "gpio-shaker",
                               "camera.source": "usb"})
    ctl = Controller(store=JournalStore(tmp_path / "journals"), draw=scripted_draw(SCORES),
                     sources=list(SOURCE_NAMES), source="gpio-shaker", games=["senet-tait"],
                     prefs=prefs, camera=camera, cameras=("off", "usb"), speaker=said)
    ctl.start()
    send(ctl, OK, DOWN, OK)                                  # splash, menu: Settings
    assert on(ctl) is Screen.SETTINGS
    rows = ctl.view().items
    assert "Calibrate camera" in rows
    send(ctl, *[DOWN] * rows.index("Calibrate camera"))
    return ctl, camera


def test_a_whole_calibration_from_the_buttons_then_the_camera_reads_the_moves(tmp_path: Path) -> None:
    table, said = Table(), Recorder()
    ctl, camera = settings(tmp_path, table, said)
    send(ctl, OK)
    assert on(ctl) is Screen.CALIBRATE and len(ctl.view().items) == 1   # the menu's one game
    send(ctl, OK)                                            # the game
    assert ctl.view().lines == ("Clear the board, then OK.",)
    assert said.texts()[-1] == "Clear the board, then OK."          # shown and said
    send(ctl, OK)                                            # the still of the empty board
    for n, place in enumerate(CORNERS, 1):
        view = ctl.view()
        assert view.title == f"Corner {n} of 4"
        assert view.lines[0].startswith(f"Put a piece on square {place.label} (")
        assert said.texts()[-1] == view.lines[0]
        table.pieces = {place.square: 0}
        send(ctl, OK)
    assert on(ctl) is Screen.MESSAGE and ctl.view().title == "Calibration saved"
    assert said.texts()[-2:] == ["Calibration saved", ctl.view().lines[0]]
    saved = cal.load(tmp_path, LAYOUT)
    assert saved is not None
    send(ctl, OK)
    assert on(ctl) is Screen.SETTINGS
    # a game on the board without markers: the camera reads it through the calibration
    table.pieces = {4: 0}                                    # Black's enter 4, played
    send(ctl, BACK, OK, OK, SHAKE)                           # the menu, the game, start, 4
    assert on(ctl) is Screen.MOVES and camera.looks == 1
    send(ctl, OK, SHAKE)                                     # enter 4; White's 1 lost
    table.pieces = {10: 0}                                   # Black's 4-10, played
    send(ctl, OK, SHAKE)                                     # Black's 6
    view = ctl.view()
    assert view.items == ("enter 6", "4-10") and view.cursor == 1 and camera.looks == 2


def test_back_in_the_middle_saves_nothing_and_a_failed_look_asks_again(tmp_path: Path) -> None:
    table, said = Table(), Recorder()
    ctl, _camera = settings(tmp_path, table, said)
    send(ctl, OK, OK, OK)                                    # the game; the empty board
    assert ctl.view().title == "Corner 1 of 4"
    send(ctl, OK)                                            # no piece put on the square
    view = ctl.view()
    assert view.title == "Corner 1 of 4" and view.lines[1].startswith("no piece found")
    assert view.lines[0].startswith(f"Put a piece on square {CORNERS[0].label}")
    assert said.texts()[-2:] == list(view.lines) and ctl.reply().cue is not None
    table.pieces = {CORNERS[0].square: 0}
    send(ctl, OK)
    assert ctl.view().title == "Corner 2 of 4" and ctl.view().lines[0].startswith("Put a piece")
    send(ctl, BACK)
    assert on(ctl) is Screen.SETTINGS
    assert not cal.path_for(tmp_path, "senet-tait").exists()


def test_a_camera_that_fails_says_so_and_the_buttons_work(tmp_path: Path) -> None:
    ctl, _camera = settings(tmp_path, Broken())
    send(ctl, OK, OK, OK)                                    # the game; the empty board
    view = ctl.view()
    assert on(ctl) is Screen.CALIBRATE and view.lines[1] == "Camera failed"
    assert "cannot be opened" in view.lines[2]
    send(ctl, OK)                                            # tried again: the same
    assert ctl.view().lines[1:2] == ("Camera failed",)
    send(ctl, BACK, DOWN)
    assert on(ctl) is Screen.SETTINGS
    assert not cal.path_for(tmp_path, "senet-tait").exists()


def test_through_the_running_service_the_pictures_are_taken_on_the_worker(
        tmp_path: Path, mock_factory: object) -> None:
    """The service's own threads: the loop stays free, every frame of the calibration
    is taken on the worker's thread; the calibration lands in the state folder."""
    import threading

    from companion.app.events import LoopEvent, Quit
    from companion.app.service import build

    values = cfg.defaults()
    values.update({"display.backend": "dummy", "journal.dir": str(tmp_path / "journals"),
                   "camera.source": "usb", "camera.device": "0"})
    parts = build(values, pin_factory=mock_factory, draw=scripted_draw(SCORES), save_settings=False)
    service = parts.service
    ctl = service.controller
    camera = ctl.camera
    assert isinstance(camera, LiveCamera)
    table, threads = Table(), []
    grab = table.grab

    def grab_here() -> Pixels:
        threads.append(threading.current_thread().name)
        return grab()

    table.grab = grab_here  # type: ignore[method-assign]
    camera.source = table
    loop = threading.Thread(target=service.run, name="loop")
    loop.start()

    def post(*events: LoopEvent) -> None:
        for event in events:
            service.post(event)
            assert service.wait_idle(30)

    try:
        post(OK, *[DOWN] * len(ctl.games), OK)               # splash, menu: Settings
        post(*[DOWN] * ctl.view().items.index("Calibrate camera"), OK)
        post(*[DOWN] * ctl.games.index("senet-tait"), OK, OK)  # the game; the empty board
        for place in CORNERS:
            table.pieces = {place.square: 0}
            post(OK)
        assert ctl.view().title == "Calibration saved"
        assert threads and all(name.startswith("companion-worker") for name in threads)
        assert cal.load(tmp_path / "journals", LAYOUT) is not None
    finally:
        service.post(Quit())
        loop.join(10)
        service.close()


def test_a_stale_look_of_a_calibration_left_is_dropped(tmp_path: Path) -> None:
    """A look of a calibration left with BACK (the worker still at it) that comes back
    after a new one was begun is dropped, and the new one's look still awaited."""
    from companion.app.events import CalibrationLooked

    ctl, _camera = settings(tmp_path, Table())
    send(ctl, OK, OK)                                        # the game: the empty board
    page = ctl.page
    ctl._calibration = (99, page)  # type: ignore[assignment]  # a look under way
    ctl.handle(CalibrationLooked(98, None, refused="stale"))  # the calibration left before
    assert ctl._calibration == (99, page) and "stale" not in ctl.view().lines
    ctl.handle(CalibrationLooked(99, None, refused="too dark", again=0))
    assert ctl.view().lines == ("Clear the board, then OK.", "too dark")


def test_a_held_back_on_the_calibration_takes_no_move_of_the_game_back(tmp_path: Path) -> None:
    """BACK cancels a calibration; held a moment too long it must not also undo a move
    of the game in play (the calibration screens are in NO_UNDO)."""
    from controller_tools import HOLD_BACK

    table = Table()
    ctl, camera = settings(tmp_path, table)
    camera.patience = 0.2  # no calibration yet: the board is not read, the look gives up
    send(ctl, BACK, OK, OK, SHAKE)                           # the game; Black threw 4
    assert ctl.view().title == "Camera failed"               # (the buttons choose)
    send(ctl, OK, OK)                                        # Black's enter 4 played
    assert ctl.state is not None and ctl.state.current_player == 1
    before = ctl.state.to_dict()
    send(ctl, BACK)                                          # the pause menu
    assert on(ctl) is Screen.PAUSE
    send(ctl, *[DOWN] * ctl.view().items.index("Settings"), OK)
    rows = ctl.view().items
    send(ctl, *[DOWN] * rows.index("Calibrate camera"), OK)
    assert on(ctl) is Screen.CALIBRATE
    send(ctl, HOLD_BACK)
    assert on(ctl) is Screen.CALIBRATE and ctl.view().title != "Undone"
    assert ctl.state.to_dict() == before
