"""The camera in Settings (issue 34): a Camera row cycling the sources the box can use
and a row for confirming the move read with OK or playing it at once, saved like every
setting; a camera chosen there is made with the next look, on the worker's thread,
and the one before let go there."""

from __future__ import annotations

import argparse
import queue
import threading
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from controller_tools import BACK, DOWN, OK, SHAKE, UP, on, send
from walkthroughs import scripted_draw

from companion.app import config as cfg
from companion.app.camera import CAMERA_SOURCES, ChosenCamera, usable_sources
from companion.app.controller import Controller, Screen
from companion.app.events import CameraRead, LoopEvent
from companion.app.settings import Prefs, SavedSettings
from companion.app.worker import Worker
from companion.devices.sources import SOURCE_NAMES
from companion.journal.store import JournalStore
from companion.rules import Move, State
from companion.rules.core import Square

SCORES = ["4", "1", "6", "2", "4", "4"]
"""Black enters on 4, White's 1 is lost, Black's 6: ``enter 6`` or ``4-10``."""


def settings(tmp_path: Path, cameras: tuple[str, ...], **kwargs: object) -> Controller:
    """A controller on the Settings screen (from the menu), its settings saved in
    ``tmp_path``."""
    ctl = Controller(store=JournalStore(tmp_path), draw=scripted_draw(SCORES),
                     sources=list(SOURCE_NAMES), source="gpio-shaker", games=["senet-tait"],
                     saved=SavedSettings(tmp_path), cameras=cameras, **kwargs)  # type: ignore[arg-type]
    ctl.start()
    send(ctl, OK, DOWN, OK)                                  # splash, menu: Settings
    assert on(ctl) is Screen.SETTINGS
    return ctl


def test_no_camera_to_choose_no_camera_row(tmp_path: Path) -> None:
    ctl = settings(tmp_path, ("off",))
    assert not [row for row in ctl.view().items if row.startswith("Camera")]


def test_the_camera_row_cycles_the_sources_offered_and_is_saved(tmp_path: Path) -> None:
    ctl = settings(tmp_path, ("off", "usb", "picamera"))
    assert ctl.view().items[:2] == ("Throw: gpio-shaker", "Camera: off")  # no confirm row
    send(ctl, DOWN, OK)
    assert ctl.view().items[1:3] == ("Camera: USB", "Camera move: OK first")
    assert ctl.prefs.camera == "usb"
    send(ctl, DOWN, OK)                                      # play the move read at once
    assert ctl.view().items[2] == "Camera move: at once" and not ctl.prefs.camera_confirm
    send(ctl, UP, OK)
    assert ctl.view().items[1] == "Camera: Pi camera"
    saved, problem = SavedSettings(tmp_path).load()
    assert problem is None
    assert saved["camera.source"] == "picamera" and saved["camera.confirm"] is False
    # The next start: the saved settings over the config's (the config is their default).
    resolved = cfg.resolve(argparse.Namespace(), saved=lambda _d: SavedSettings(tmp_path).load(),
                           overrides={"journal.dir": str(tmp_path)})
    prefs = Prefs.from_config(resolved.values)
    assert (prefs.camera, prefs.camera_confirm) == ("picamera", False)
    assert resolved.origins["camera.source"] == "saved setting"
    send(ctl, OK)                                            # round to off: its second row goes
    assert ctl.view().items[1:3] == ("Camera: off", "Sleep: 10 min")


def test_the_settings_in_german(tmp_path: Path) -> None:
    from companion.i18n import using

    ctl = settings(tmp_path, ("off", "fake"))
    send(ctl, DOWN, OK)
    with using("de"):
        assert ctl.view().items[1:3] == ("Kamera: Attrappe", "Kamerazug: erst OK")


def test_the_sources_offered(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    installed: set[str] = set()
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: object() if name in installed else None)
    assert usable_sources("usb") == ("off",)                 # no OpenCV: the camera off only
    assert usable_sources("fake") == ("off", "fake")         # the stand-in only when configured
    installed.add("cv2")
    assert usable_sources("off") == ("off", "usb")
    installed.add("picamera2")
    assert usable_sources("off") == ("off", "usb", "picamera")
    assert usable_sources("fake") == CAMERA_SOURCES


class Made:
    """Makes cameras: records each source and the thread it was made on."""

    def __init__(self) -> None:
        self.made: list[tuple[str, str]] = []
        self.closed: list[tuple[str, str]] = []

    def __call__(self, source: str) -> Looker | None:
        self.made.append((source, threading.current_thread().name))
        return None if source == "off" else Looker(self, source)


class Looker:
    """A camera that reads the last legal move's board (the fake camera, without OpenCV)."""

    def __init__(self, made: Made, source: str) -> None:
        self.made, self.source, self.looks = made, source, 0

    def look(self, state: State) -> Mapping[Square, int | None]:
        from companion.camera.find import seen_board

        self.looks += 1
        after = state.copy()
        move: Move = state.legal_moves()[-1]
        after.apply(move)
        return {**seen_board(after)}

    def check(self, state: State, expected: Mapping[Square, int],
              before: Mapping[Square, int] | None = None,
              cancel: object = None) -> Mapping[Square, int | None]:
        """The board as expected (a resumed game's, the computer's move made)."""
        self.looks += 1
        return {**expected}

    def close(self) -> None:
        self.made.closed.append((self.source, threading.current_thread().name))


def test_a_camera_chosen_is_made_with_the_next_look_on_the_worker(tmp_path: Path) -> None:
    pytest.importorskip("cv2")  # find_move reads the board with the camera room's code
    made = Made()
    results: queue.Queue[LoopEvent] = queue.Queue()
    executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="look")
    worker = Worker(executor)
    worker.connect(lambda: None, results.put)
    try:
        ctl = settings(tmp_path, ("off", "fake"), make_camera=made, worker=worker)
        send(ctl, DOWN, OK)                                  # Camera: fake
        assert ctl.prefs.camera == "fake" and made.made == []  # not made on the loop's thread
        send(ctl, UP, UP, OK)                                # Back: the menu
        send(ctl, OK, OK)                                    # Senet, Begin
        send(ctl, SHAKE)                                     # Black's 4: enter 4, looked at
        event = results.get(timeout=30)
        assert isinstance(event, CameraRead) and event.finding is not None
        assert [source for source, _t in made.made] == ["fake"]
        assert made.made[0][1].startswith("look")           # made on the worker's thread
        send(ctl, event)
        # Off again, from the pause menu: the camera in use is let go at once, there too.
        send(ctl, BACK, DOWN, DOWN, OK)
        assert on(ctl) is Screen.SETTINGS
        send(ctl, DOWN, OK)
        assert ctl.prefs.camera == "off" and ctl.view().items[1] == "Camera: off"
        send(ctl, results.get(timeout=30))                   # the release: awaited by none
        assert made.closed == [("fake", made.closed[0][1])] and made.closed[0][1].startswith("look")
    finally:
        worker.close()


def test_the_chosen_camera_switches_and_lets_go() -> None:
    made = Made()
    start = Looker(made, "usb")
    chosen = ChosenCamera("usb", start, made)
    assert chosen.looks("usb") and chosen.looks("fake") and not chosen.looks("off")
    assert chosen.for_source("usb") is start
    assert made.made == []
    fake = chosen.for_source("fake")
    assert isinstance(fake, Looker) and fake.source == "fake"
    assert chosen.for_source("off") is None
    chosen.close()
    chosen.close()                                           # idempotent
    assert [source for source, _t in made.closed] == ["usb", "fake"]
    # No camera could be made at start (a missing package): that source makes no look.
    assert not ChosenCamera("usb", None, made).looks("usb")
    # Without a maker only the camera given at start looks.
    given = ChosenCamera("off", start, None)
    assert given.looks("off") and not given.looks("fake")
