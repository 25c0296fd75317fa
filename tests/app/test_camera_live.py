"""A real camera in the service (``camera.source`` usb and picamera, issue 34) without a
camera: the USB webcam's ``cv2.VideoCapture`` reads a video file of fake photos; a
camera that cannot open or drops out mid-game says "Camera failed" once and the
buttons keep working; the look runs on the worker's thread, never the loop's."""

from __future__ import annotations

import argparse
import queue
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from controller_tools import BACK, DOWN, OK, SHAKE, on, send
from walkthroughs import scripted_draw

pytest.importorskip("cv2")

from camera_video import write_video

from companion.app import config as cfg
from companion.app.camera import LiveCamera, camera_for
from companion.app.controller import Controller, Screen
from companion.app.events import CameraRead, LoopEvent
from companion.app.worker import Worker
from companion.camera.board import Pixels, layout_for
from companion.camera.fake import FakeCamera
from companion.camera.read import PictureRefused, Reader
from companion.camera.sources import PICAMERA2_MISSING, VideoSource, picamera2_installed
from companion.camera.still import STILL_FRAMES
from companion.devices.sources import SOURCE_NAMES
from companion.journal.store import JournalStore
from companion.rules import Move, State, get_game
from companion.rules.core import Square

SCORES = ["4", "1", "6", "2", "4", "4"]
"""Black enters on 4, White's 1 is lost, Black's 6: ``enter 6`` or ``4-10``."""
ENTERED: dict[Square, int] = {4: 0}
"""The board after Black's ``enter 4``."""
MOVED: dict[Square, int] = {10: 0}
"""The board after Black's ``4-10``."""


def table_video(path: Path, boards: list[dict[Square, int]], repeat: int = STILL_FRAMES + 2) -> Path:
    """A video of fake photos of Tait's Senet: each board ``repeat`` frames (one seed
    each board: the same pose, light and noise within a board's frames; enough for
    the board to be still once the next board's first frame has moved)."""
    camera = FakeCamera(layout_for(get_game("senet-tait").new_state()))
    frames = []
    for seed, board in enumerate(boards):
        frames += [camera.photo(board, 40 + seed).image] * repeat
    return write_video(path, frames)


def start(tmp_path: Path, camera: object) -> Controller:
    """A game of Tait's Senet up to Black's first moves screen (``enter 4``)."""
    ctl = Controller(store=JournalStore(tmp_path / "journals"), draw=scripted_draw(SCORES),
                     sources=list(SOURCE_NAMES), source="gpio-shaker", camera=camera)  # type: ignore[arg-type]
    ctl.start()
    send(ctl, OK, *[DOWN] * ctl.games.index("senet-tait"), OK, OK, SHAKE)
    assert on(ctl) in (Screen.MOVES, Screen.MESSAGE)
    return ctl


def test_a_webcam_reads_the_moves_through_the_capture(tmp_path: Path) -> None:
    camera = LiveCamera(VideoSource(str(table_video(tmp_path / "t.avi", [ENTERED, MOVED]))))
    ctl = start(tmp_path, camera)
    assert on(ctl) is Screen.MOVES and camera.looks == 1
    send(ctl, OK, SHAKE, OK, SHAKE)  # enter 4; White's 1 lost; Black's 6
    view = ctl.view()
    assert view.items == ("enter 6", "4-10") and view.cursor == 1 and camera.looks == 2
    camera.close()


def test_a_board_without_markers_is_read_through_its_saved_calibration(tmp_path: Path) -> None:
    """A player's own board (no markers), calibrated by its corners (``companion camera
    calibrate``): the webcam reads the moves through the calibration in the state
    folder; a damaged calibration fails the look (said once, the buttons work)."""
    from companion.camera import calibration as cal

    layout = layout_for(get_game("senet-tait").new_state())
    fake = FakeCamera(layout, markers=False)
    empty = fake.photo({}, 30, pose=5)
    corners = cal.corners_on(layout, empty.homography) + 1.5
    cal.save(cal.calibrate(layout, empty.image, [tuple(p) for p in corners]), tmp_path)
    frames = []
    for seed, board in enumerate([ENTERED, MOVED]):
        frames += [fake.photo(board, 40 + seed, pose=5).image] * (STILL_FRAMES + 2)
    video = str(write_video(tmp_path / "own.avi", frames))
    camera = LiveCamera(VideoSource(video), calibrations=tmp_path)
    ctl = start(tmp_path, camera)
    assert on(ctl) is Screen.MOVES and camera.looks == 1
    send(ctl, OK, SHAKE, OK, SHAKE)  # enter 4 (read); White's 1 lost; Black's 6
    view = ctl.view()
    assert view.items == ("enter 6", "4-10") and view.cursor == 1 and camera.looks == 2
    camera.close()
    with pytest.raises(PictureRefused, match="markers not seen"):
        Reader(layout).read(frames[0])  # without the calibration: no markers to find
    cal.path_for(tmp_path, "senet-tait").write_text("{")
    damaged = LiveCamera(VideoSource(video), calibrations=tmp_path)
    with pytest.raises(cal.CalibrationError, match="not a calibration file"):
        damaged.look(get_game("senet-tait").new_state())


@pytest.mark.parametrize("case", ["unplugged", "ends"])
def test_a_camera_that_cannot_open_or_drops_out_is_said_once_and_the_buttons_work(
        tmp_path: Path, case: str) -> None:
    if case == "unplugged":
        device = str(tmp_path / "not-there.avi")
    else:  # the first look reads the board; then the camera gives no more frames
        device = str(table_video(tmp_path / "t.avi", [ENTERED]))
    camera = LiveCamera(VideoSource(device))
    ctl = start(tmp_path, camera)
    if case == "ends":
        assert on(ctl) is Screen.MOVES
        send(ctl, OK, SHAKE, OK, SHAKE)  # enter 4; White's 1 lost; Black's 6
    assert on(ctl) is Screen.MESSAGE and ctl.view().title == "Camera failed"
    assert any(device in line for line in ctl.view().lines)
    send(ctl, OK)
    assert on(ctl) is Screen.MOVES
    if case == "unplugged":
        send(ctl, OK, SHAKE, OK, SHAKE)  # enter 4; White's 1 lost; Black's 6
        assert on(ctl) is Screen.MOVES  # not said again
    send(ctl, DOWN, OK)
    assert ctl.actions[-1].notation == "4-10"  # type: ignore[union-attr]


def parse(argv: list[str]) -> dict[str, object]:
    parser = argparse.ArgumentParser()
    cfg.add_arguments(parser)
    return cfg.from_args(parser.parse_args(argv))


def test_the_config_takes_the_real_sources_and_names_a_typo() -> None:
    for source in ("off", "fake", "usb", "picamera"):
        assert parse(["--camera.source", source])["camera.source"] == source
    assert parse(["--camera.device", "/dev/video2"])["camera.device"] == "/dev/video2"
    assert cfg.defaults()["camera.device"] == "0"
    with pytest.raises(cfg.ConfigError) as info:
        parse(["--camera.source", "usbb"])
    assert str(info.value) == ("command line: camera.source: must be one of off, fake, usb, "
                               "picamera, got 'usbb'")
    with pytest.raises(ValueError, match="unknown camera source"):
        camera_for("webcam")


def test_a_usb_camera_is_made_without_opening_it(tmp_path: Path) -> None:
    camera = camera_for("usb", str(tmp_path / "not-there.avi"))
    assert isinstance(camera, LiveCamera) and camera.looks == 0
    assert isinstance(camera.source, VideoSource) and camera.source.device == str(tmp_path / "not-there.avi")
    assert isinstance(camera_for("usb", "2"), LiveCamera)


@pytest.mark.skipif(picamera2_installed(), reason="picamera2 is installed here")
def test_without_picamera2_the_service_starts_with_the_camera_off_and_says_why(
        tmp_path: Path, mock_factory: object) -> None:
    from companion.app.service import build

    with pytest.raises(ImportError, match="python3-picamera2"):
        camera_for("picamera")
    values = cfg.defaults()
    values.update({"display.backend": "dummy", "journal.dir": str(tmp_path), "camera.source": "picamera"})
    parts = build(values, pin_factory=mock_factory)
    try:
        assert parts.service.controller.camera is None
        assert f"camera.source: {PICAMERA2_MISSING}" in parts.service.controller.notices
    finally:
        parts.service.close()


def test_through_the_running_service_a_camera_that_ends_fails_on_the_worker(
        tmp_path: Path, mock_factory: object) -> None:
    """The service's own threads: the loop stays free; the frames are taken on the
    worker's thread; the camera is let go when the service closes."""
    from companion.app.events import Quit
    from companion.app.service import build

    values = cfg.defaults()
    values.update({"display.backend": "dummy", "journal.dir": str(tmp_path / "journals"),
                   "camera.source": "usb", "camera.device": str(table_video(tmp_path / "t.avi", [ENTERED]))})
    parts = build(values, pin_factory=mock_factory, draw=scripted_draw(SCORES), save_settings=False)
    service = parts.service
    camera = service.controller.camera
    assert isinstance(camera, LiveCamera) and isinstance(camera.source, VideoSource)
    threads: list[str] = []
    grab = camera.source.grab

    def grab_here() -> Pixels:
        threads.append(threading.current_thread().name)
        return grab()

    camera.source.grab = grab_here  # type: ignore[method-assign]
    events: list[LoopEvent] = [OK, *[DOWN] * service.controller.games.index("senet-tait"), OK, OK, SHAKE,
                               OK, SHAKE, OK, SHAKE]
    loop = threading.Thread(target=service.run, name="loop")
    loop.start()
    try:
        ctl = service.controller
        for event in events:
            service.post(event)
            assert service.wait_idle(30)
        assert ctl.view().screen == "message" and ctl.view().title == "Camera failed"
        service.post(OK)
        assert service.wait_idle(30) and ctl.view().screen == "moves"
        assert threads and all(name.startswith("companion-worker") for name in threads)
    finally:
        service.post(Quit())
        loop.join(10)
        service.close()
    assert camera.source._capture is None  # let go


class Still:
    """A camera over a board that never changes: one frame, each 5 ms."""

    def __init__(self, frame: Pixels) -> None:
        self.frame, self.taken = frame, 0

    def grab(self) -> Pixels:
        time.sleep(0.005)
        self.taken += 1
        return self.frame

    def close(self) -> None:
        pass


def test_a_look_watching_the_board_ends_when_its_moves_screen_is_left(tmp_path: Path) -> None:
    """The camera watches the board until the move is made on it; the moves screen left
    (BACK: the pause menu) stops the watch, so the worker is free; its result is
    dropped (nothing said); the moves screen shown again watches anew."""
    camera = LiveCamera(Still(FakeCamera(layout_for(get_game("senet-tait").new_state())).photo({}, 3).image))
    results: queue.Queue[LoopEvent] = queue.Queue()
    executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="look")
    worker = Worker(executor)
    worker.connect(lambda: None, results.put)
    try:
        ctl = Controller(store=JournalStore(tmp_path / "journals"), draw=scripted_draw(SCORES),
                         sources=list(SOURCE_NAMES), source="gpio-shaker", camera=camera, worker=worker)
        ctl.start()
        send(ctl, OK, *[DOWN] * ctl.games.index("senet-tait"), OK, OK, SHAKE)
        assert on(ctl) is Screen.MOVES
        time.sleep(0.2)
        assert results.empty() and camera.looks == 1  # watching: the board as before
        send(ctl, BACK)
        assert on(ctl) is not Screen.MOVES
        event = results.get(timeout=10)  # the watch ended at its next frame
        assert isinstance(event, CameraRead) and event.refused == "the look was stopped"
        send(ctl, event)
        assert on(ctl) is not Screen.MESSAGE  # dropped: nothing said
        send(ctl, BACK)
        assert on(ctl) is Screen.MOVES
        time.sleep(0.1)
        assert camera.looks == 2 and results.empty()  # watching again
    finally:
        camera.close()  # the service's closing: the watch ends
        worker.close()


class Scenes:
    """A camera over a board that changes: each board's frames in turn (fresh noise in
    each), the last board's for ever."""

    def __init__(self, camera: FakeCamera, boards: list[dict[Square, int]], frames: int) -> None:
        self.camera, self.boards, self.frames, self.taken = camera, boards, frames, 0

    def grab(self) -> Pixels:
        scene = min(self.taken // self.frames, len(self.boards) - 1)
        self.taken += 1
        return self.camera.mounted(self.boards[scene], 7, scene, self.taken).image

    def close(self) -> None:
        pass


def test_a_look_waits_for_the_turns_next_move_to_tell_moves_that_leave_one_board() -> None:
    """The Labyrinth's ``28-29 with 1`` and ``with 5`` (or the like) leave one board: the
    look waits past it for the turn's next move, whose board tells which was made."""
    from companion.camera.find import FOUND, find_move, seen_board, undecided
    from companion.rules import Phase, random_action

    rng, state = random.Random(0), get_game("labyrinth").new_state()
    while True:  # the first such move of a random game (seed 0), and a next move it allows
        if state.phase is Phase.MOVE:
            pair = next(((move, then) for move in state.legal_moves() for then in _after(state, move).legal_moves()
                         if seen_board(_after(_after(state, move), then)) != seen_board(state)
                         and undecided(state, None, find_move(state, None, seen_board(_after(state, move))))
                         and find_move(state, None, seen_board(_after(_after(state, move), then)),
                                       ahead=True).kind == FOUND), None)
            if pair is not None:
                break
        state.apply(random_action(state, rng.randrange))
    move, then = pair
    boards = [seen_board(_after(state, move)), seen_board(_after(_after(state, move), then))]
    source = Scenes(FakeCamera(layout_for(state)), boards, STILL_FRAMES + 4)
    camera = LiveCamera(source, patience=30.0)
    reading = camera.look(state)
    assert source.taken > STILL_FRAMES + 4  # the first board was waited past
    finding = find_move(state, None, reading, ahead=True)
    assert finding.kind == FOUND and _after(state, finding.moves[0]).position_key() == _after(
        state, move).position_key()


def _after(state: State, move: Move) -> State:
    after = state.copy()
    after.apply(move)
    return after


@pytest.mark.parametrize("save", [False, True])
def test_frames_are_kept_only_when_save_frames_is_on(tmp_path: Path, mock_factory: object, save: bool) -> None:
    """'no picture leaves the box or is stored unless the player turns camera.save_frames
    on': off (the default), a look through the running service writes no file at all
    (the state directory holds the journal only); on, the frame read is kept under
    camera-frames/."""
    from companion.app.events import Quit
    from companion.app.service import build

    assert cfg.defaults()["camera.save_frames"] is False
    video = table_video(tmp_path / "t.avi", [ENTERED])
    state_dir = tmp_path / "state"
    values = cfg.defaults()
    values.update({"display.backend": "dummy", "journal.dir": str(state_dir), "camera.source": "usb",
                   "camera.device": str(video), "camera.save_frames": save})
    parts = build(values, pin_factory=mock_factory, draw=scripted_draw(SCORES), save_settings=False)
    service = parts.service
    loop = threading.Thread(target=service.run, name="loop")
    loop.start()
    try:
        ctl = service.controller
        events: list[LoopEvent] = [OK, *[DOWN] * ctl.games.index("senet-tait"), OK, OK, SHAKE]
        for event in events:
            service.post(event)
            assert service.wait_idle(30)
        assert ctl.view().screen == "moves" and ctl.view().cursor == 0
        assert isinstance(ctl.camera, LiveCamera) and ctl.camera.looks == 1
    finally:
        service.post(Quit())
        loop.join(10)
        service.close()
    written = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    frames = [p for p in written if p.parts[:2] == ("state", "camera-frames")]
    assert sorted(p for p in written if p not in frames and p.suffix != ".journal") == [Path("t.avi")]
    if save:
        assert len(frames) == 1 and frames[0].name.endswith("-read.jpg")
    else:
        assert frames == [] and not (state_dir / "camera-frames").exists()


def test_saved_frames_are_bounded_in_count(tmp_path: Path) -> None:
    from companion.camera.saved import SavedFrames

    saved = SavedFrames(tmp_path / "frames", keep=3)
    frame = FakeCamera(layout_for(get_game("senet-tait").new_state()), size=(160, 120)).photo({}, 1).image
    paths = [saved.save(frame, "read") for _ in range(5)]
    assert sorted(p.name for p in (tmp_path / "frames").iterdir()) == [p.name for p in paths[2:] if p]
    with pytest.raises(ValueError):
        SavedFrames(tmp_path, keep=0)
