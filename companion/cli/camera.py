"""``companion camera check`` and ``companion camera calibrate``: setting the camera up
(issue 34; docs/camera.md).

Both take their pictures from the fake camera (``--fake SEED``), a device or a video
file (``--device PATH|INDEX``: ``cv2.VideoCapture``, as ``camera.source = "usb"``), or
else the camera of the configuration (``camera.source``, ``camera.device``: the config
file, then the settings saved on the box, read only). A real camera's picture is the
first one after the board has been still for a moment (:mod:`companion.camera.still`),
or the last one a video file gives.
"""

from __future__ import annotations

import argparse
import os
import random
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.cli.common import UsageError
from companion.cli.services import _camera_state
from companion.rules import Phase, State, random_action

if TYPE_CHECKING:
    from companion.camera.board import Layout, Pixels
    from companion.camera.calibration import Calibration

STILL_AVERAGE = 8
"""A calibration's still from a real camera: the mean of this many frames."""
STILL_FRAMES_AT_MOST = 150
"""The most frames a real camera is watched for a still one (5 s at 30 frames a
second); then its last frame is taken."""


def _need_camera_extra() -> None:
    try:
        import cv2  # noqa: F401
    except ImportError as exc:
        raise UsageError(f"the camera extra is not installed ({exc}): pip install "
                         "'board-companion[camera]'") from exc


def _conf(args: argparse.Namespace) -> dict[str, Any]:
    """The configuration (file, then the settings saved on the box, read only; ``--dir``
    as ``journal.dir``).

    :raises UsageError: a bad config file.
    """
    from companion.app import config as cfg
    from companion.app.settings import peek_saved

    if args.config is None:
        args.config = os.environ.get("COMPANION_CONFIG")
    if args.dir:
        setattr(args, "cfg:journal.dir", args.dir)
    try:
        return cfg.resolve(args, saved=peek_saved).values
    except cfg.ConfigError as exc:
        raise UsageError(str(exc)) from None


def _state_dir(conf: dict[str, Any]) -> Path:
    from companion.app import config as cfg

    return Path(conf["journal.dir"] or cfg.default_state_dir())


def _layout(args: argparse.Namespace, state: State) -> Layout:
    from companion.camera.board import layout_for

    try:
        return layout_for(state, getattr(args, "paper", "A4"))
    except ValueError as exc:
        raise UsageError(str(exc)) from exc


def _real_still(args: argparse.Namespace, conf: dict[str, Any], average: int = 1) -> tuple[Pixels, str]:
    """A picture from ``--device`` or the configured camera, and the camera in words;
    ``average``: the mean of that many frames from the first still one on (fewer if a
    video file ends first): the sensor's noise averaged out of a calibration's still.

    :raises UsageError: no camera (``camera.source`` off or fake and no ``--device``),
        or it cannot be opened or gave no picture.
    """
    from companion.camera import sources
    from companion.camera.still import still_picture

    if args.device is not None:
        source: sources.FrameSource = sources.VideoSource(args.device)
        name = f"--device {args.device}"
    else:
        kind, device = str(conf.get("camera.source", "off")), str(conf.get("camera.device", "0"))
        if kind == "usb":
            source, name = sources.VideoSource(device), f"camera.source usb, device {device}"
        elif kind == "picamera":
            number = sources.parse_device(device)
            if not isinstance(number, int):
                raise UsageError(f"camera.device {device!r}: the Pi camera's number (0, 1) is wanted")
            source, name = sources.PiCameraSource(number), f"camera.source picamera {number}"
        else:
            raise UsageError(f"no camera to take a picture with: camera.source is {kind!r}; give "
                             "--device PATH|INDEX (a webcam, or a video file) or --fake SEED, or "
                             "set camera.source (usb, picamera) in the config")
    try:
        frame = still_picture(source.grab, average, STILL_FRAMES_AT_MOST)
    except sources.CameraError as exc:
        raise UsageError(str(exc)) from None
    finally:
        source.close()
    return frame, name


def _scene(state: State, seed: int) -> Mapping[Any, int]:
    """The fake camera's scene: a random position of ``state``'s game, seeded; its board
    with the pieces of each square (:func:`companion.camera.find.expected_board`)."""
    from companion.camera.find import expected_board

    rng = random.Random(seed)
    for _ in range(rng.randrange(10, 80)):
        if state.phase is Phase.OVER:
            break
        state.apply(random_action(state, rng.randrange))
    return expected_board(state)


def _load_calibration(directory: Path, layout: Layout) -> Calibration | None:
    from companion.camera.calibration import CalibrationError, load

    try:
        return load(directory, layout)
    except CalibrationError as exc:
        raise UsageError(f"{exc} (companion camera calibrate {layout.game} makes a new one; "
                         "--forget removes it)") from None


def _save_png(image: Pixels, path: Path) -> None:
    from PIL import Image

    try:
        Image.fromarray(image).save(path)
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from exc


def cmd_camera_check(args: argparse.Namespace) -> int:
    """`companion camera check GAME`: what the camera reads, as text, and the overlay PNG
    (issue 34); through the game's saved calibration when there is one (a board without
    markers), else the printed board's markers; exit 1 when the picture is refused."""
    _need_camera_extra()
    from companion.camera.calibration import CalibrationError
    from companion.camera.fake import fake_camera
    from companion.camera.find import board_differences, pieces_of
    from companion.camera.read import PictureRefused, Reader, board_text, overlay

    conf = _conf(args)
    state = _camera_state(args, conf["games"].get(args.game))
    layout = _layout(args, state)
    calibration = _load_calibration(_state_dir(conf), layout)
    names = tuple(state.name(p) for p in range(state.players))
    pieces: Mapping[Any, int] | None = None
    if args.fake is not None:
        pieces = _scene(state, args.fake)
        camera = fake_camera(layout, markers=calibration is None)
        drawn = pieces_of(pieces)  # several pieces on a square: each drawn
        if calibration is None:
            image = camera.photo(drawn, args.fake, hand=args.hand).image
        else:  # the camera stands where `calibrate --fake SEED` put it; other light
            image = camera.photo(drawn, args.fake + 1, hand=args.hand, pose=args.fake).image
        default = f"camera-check-{args.game}-{args.fake}.png"
    else:
        image, _name = _real_still(args, conf)
        default = f"camera-check-{args.game}.png"
    out = Path(args.out) if args.out else Path(default)
    reader = Reader(layout, calibration=calibration)
    try:
        reading = reader.read(image)
    except (PictureRefused, CalibrationError) as exc:
        print(f"refused: {exc.reason if isinstance(exc, PictureRefused) else exc}")
        _save_png(image, out)
        print(f"photo: {out}")
        return 1
    print(board_text(layout, reading, names))
    if pieces is not None:
        # the pieces counted too, on a counted square
        wrong = sorted(str(d.square) for d in board_differences(reading.squares, pieces, tuple(reading.squares)))
        print(f"squares read: {len(reading.squares)}, differing from the scene: "
              f"{', '.join(wrong) if wrong else 'none'}")
    else:
        print(f"squares read: {len(reading.squares)}, occupied: {len(reading.occupied())}")
    _save_png(overlay(reader, reading), out)
    _save_png(image, out.with_name(out.stem + "-photo.png"))
    print(f"overlay: {out}")
    if calibration is not None:
        from companion.camera.calibration import path_for

        print(f"read through the calibration of a board without markers: "
              f"{path_for(_state_dir(conf), layout.game)}")
    return 0


def cmd_camera_calibrate(args: argparse.Namespace) -> int:
    """`companion camera calibrate GAME`: without ``--corners``, a still of the empty
    board and the same with a pixel grid, to read the corners off; with ``--corners``,
    the calibration made from that still and saved in the state folder; ``--forget``
    removes it."""
    _need_camera_extra()
    from companion.camera import calibration as cal
    from companion.camera.fake import fake_camera

    conf = _conf(args)
    directory = _state_dir(conf)
    state = _camera_state(args, conf["games"].get(args.game))
    layout = _layout(args, state)
    if args.forget:
        try:
            gone = cal.forget(directory, layout.game)
        except OSError as exc:
            raise UsageError(f"cannot remove the calibration: {exc.strerror or exc}") from None
        print(f"removed: {gone}" if gone else f"no calibration of {layout.game} in {directory}")
        return 0
    if args.orient:
        return _orient(args, conf, state, layout, directory)
    still_path = Path(args.still) if args.still else Path(f"camera-still-{layout.game}.png")
    if args.page:
        return _on_page(args, conf, layout, directory)
    if args.pieces:
        still, found, camera = _by_pieces(args, conf, layout)
        _save_png(still, still_path)
        print(f"still of the empty board: {still_path}")
        print("corners found: " + " ".join(f"{x:.0f},{y:.0f}" for x, y in found))
        return _save_calibration(layout, still, [(float(x), float(y)) for x, y in found], camera,
                                 directory)
    # --corners go with the still written before (--still, or the default file) unless
    # a camera is named or there is none: then a new still is taken (the camera has not
    # moved) and written there
    if args.corners is not None and args.fake is None and args.device is None and still_path.exists():
        still, camera = _read_png(still_path), f"the still {still_path}"
    else:
        if args.fake is not None:
            still = fake_camera(layout, markers=False).photo({}, args.fake, pose=args.fake).image
            camera = f"the fake camera {args.fake}"
        else:
            still, camera = _real_still(args, conf, average=STILL_AVERAGE)
        _save_png(still, still_path)
        grid = still_path.with_name(still_path.stem + "-grid.png")
        _save_png(cal.grid_picture(still), grid)
        height, width = still.shape[:2]
        print(f"still of the empty board: {still_path} ({width} x {height} pixels, from {camera})")
        if args.corners is None:
            print(f"with a pixel grid: {grid}")
            print("read the four corners of the board's playing area off it (x across, y down), "
                  "then:")
            print(f"  companion camera calibrate {layout.game} --still {still_path} "
                  "--corners X,Y X,Y X,Y X,Y")
            print("in this order: top left, top right, bottom right, bottom left of the board "
                  f"as the box draws it (its square {layout.squares[0].label} is "
                  f"{_corner_of(layout)})")
            return 0
    try:
        corners = [cal.parse_corner(text) for text in args.corners]
    except cal.CalibrationError as exc:
        raise UsageError(f"calibration not saved: {exc}") from None
    return _save_calibration(layout, still, corners, camera, directory)


def _on_page(args: argparse.Namespace, conf: dict[str, Any], layout: Layout, directory: Path) -> int:
    """``--page``: a still of the empty board shown on a page of this command's own
    (:mod:`companion.web.marking`) on ``web.bind`` (``--bind``) and ``--port``, where the
    player clicks the board's four corners; the calibration is saved as ``--corners``
    saves it, and the command ends. Refused corners are said on the page (marked again).

    :raises UsageError: no camera, the web extra missing, the port taken.
    """
    import cv2

    from companion.camera import calibration as cal
    from companion.camera.fake import fake_camera

    try:
        from companion.web.marking import create_marking_app, marking_server
    except ImportError as exc:
        raise UsageError(f"--page needs the web extra ({exc.name} is missing): "
                         "pip install 'board-companion[web]'") from None
    if args.fake is not None:
        still = fake_camera(layout, markers=False).photo({}, args.fake, pose=args.fake).image
        camera = f"the fake camera {args.fake}"
    else:
        still, camera = _real_still(args, conf, average=STILL_AVERAGE)
    ok, png = cv2.imencode(".png", cv2.cvtColor(still, cv2.COLOR_RGB2BGR))
    assert ok
    height, width = still.shape[:2]
    first = layout.squares[0]
    rows, cols = layout.grid
    corner = (0, 1, 3, 2)[2 * (first.row >= rows / 2) + (first.col >= cols / 2)]

    def save(corners: list[tuple[float, float]]) -> str:
        calibration = cal.calibrate(layout, still, corners, camera)  # CalibrationError: said on the page
        try:
            path = cal.save(calibration, directory)
        except OSError as exc:
            raise cal.CalibrationError(f"cannot save the calibration in {directory}: "
                                       f"{exc.strerror or exc}") from None
        print(f"calibration saved: {path}", flush=True)
        print("corners: " + " ".join(f"{x:.1f},{y:.1f}" for x, y in corners), flush=True)
        return str(path)

    server: list[Any] = []
    app = create_marking_app(png.tobytes(), (width, height), layout.game, (first.label, corner), save,
                             lambda: setattr(server[0], "should_exit", True),
                             language=str(conf["display.language"]))
    bind = args.bind if args.bind is not None else str(conf["web.bind"])
    port = args.port if args.port is not None else int(conf["web.port"]) + 1
    server.append(marking_server(app, bind, port))
    host = f"[{bind}]" if ":" in bind else bind
    print(f"still of the empty board: {width} x {height} pixels, from {camera}")
    print(f"mark the board's four corners on http://{host}:{port}/ (Ctrl-C: nothing saved)", flush=True)
    try:
        server[0].run()
    except OSError as exc:
        raise UsageError(f"cannot serve the page on {host}:{port}: {exc.strerror or exc}") from None
    except KeyboardInterrupt:
        return 1
    return 0 if cal.path_for(directory, layout.game).exists() and server[0].should_exit else 1


def _save_calibration(layout: Layout, still: Pixels, corners: list[tuple[float, float]], camera: str,
                      directory: Path) -> int:
    from companion.camera import calibration as cal

    try:
        calibration = cal.calibrate(layout, still, corners, camera)
    except cal.CalibrationError as exc:
        raise UsageError(f"calibration not saved: {exc}") from None
    try:
        path = cal.save(calibration, directory)
    except OSError as exc:
        raise UsageError(f"cannot save the calibration in {directory}: {exc.strerror or exc}") from None
    print(f"calibration saved: {path}")
    print(f"check it with the pieces set up: companion camera check {layout.game}")
    return 0


def _by_pieces(args: argparse.Namespace, conf: dict[str, Any], layout: Layout) -> tuple[Pixels, Pixels, str]:
    """``--pieces``: a still of the empty board, then one with a piece on each corner
    square in turn (the player presses Enter when it stands; the fake camera puts it
    there itself); the still and the board's corners found from the pieces.

    :raises UsageError: a piece not found, the corners they make refused, no terminal.
    """
    from companion.camera import calibration as cal
    from companion.camera.fake import fake_camera

    try:
        places = cal.corner_squares(layout)
    except cal.CalibrationError as exc:
        raise UsageError(str(exc)) from None
    fake = fake_camera(layout, markers=False) if args.fake is not None else None
    if fake is not None:
        empty, camera = fake.photo({}, args.fake, pose=args.fake).image, f"the fake camera {args.fake}"
    else:
        print("the board empty under the camera; taking its still")
        empty, camera = _real_still(args, conf, average=STILL_AVERAGE)
    centres = []
    for index, (name, place) in enumerate(zip(cal.CORNER_NAMES, places, strict=True)):
        if fake is not None:
            shot = fake.photo({place.square: 0}, args.fake + 1 + index, pose=args.fake).image
        else:
            print(f"put one piece on square {place.label} (the board's {name} corner as the box "
                  "draws it), take your hand away, press Enter", flush=True)
            try:
                input()
            except EOFError:
                raise UsageError("--pieces needs a terminal to press Enter at") from None
            shot, _name = _real_still(args, conf, average=2)
        try:
            centres.append(cal.find_piece(empty, shot))
        except cal.CalibrationError as exc:
            raise UsageError(f"calibration not saved: square {place.label}: {exc}") from None
        print(f"square {place.label}: the piece at {centres[-1][0]:.0f},{centres[-1][1]:.0f}")
    try:
        corners = cal.corners_from_pieces(layout, centres)
    except cal.CalibrationError as exc:
        raise UsageError(f"calibration not saved: {exc}") from None
    return empty, corners, camera


def set_up(state: State, layout: Layout) -> tuple[dict[Any, int], str]:
    """What the player sets up for ``--orient``, and it in words: the pieces of a new
    game of ``state``'s game as they stand on the board (casting-stick Senet's home rows,
    the Cretan Labyrinth's gateways), or, when a game's pieces start off the board
    (Tait's Senet, the Labyrinth), one piece of the first player on the board's first
    square (square -> player, 0-based)."""
    from companion.camera.find import seen_board

    start = dict(seen_board(state))
    if not start:
        first = layout.squares[0]
        return {first.square: 0}, (f"put one piece of {state.name(0)} on square {first.label}, "
                                    "nothing else on the board")
    by_player = [", ".join(p.label for p in layout.squares if start.get(p.square) == player)
                 for player in range(state.players)]
    return start, ("set the pieces up as at the start of a game, nothing else on the board: "
                   + "; ".join(f"{state.name(player)} on {where}"
                               for player, where in enumerate(by_player) if where))


def _orient(args: argparse.Namespace, conf: dict[str, Any], state: State, layout: Layout,
            directory: Path) -> int:
    """``--orient``: the saved calibration turned so that a picture of the game's first
    position (:func:`set_up`) reads as it stands: the half turn (and on a squarish board
    the quarter turns) that corners given from another corner leave unseen on the empty
    board. Saved again only when turned.

    :raises UsageError: no calibration saved; no turn, or more than one, reads the
        set-up (nothing saved).
    """
    from companion.camera import calibration as cal
    from companion.camera.fake import fake_camera
    from companion.camera.orient import orient

    calibration = _load_calibration(directory, layout)
    if calibration is None:
        raise UsageError(f"no calibration of {layout.game} in {directory}: give the corners first "
                         f"(companion camera calibrate {layout.game} --corners ...)")
    expected, words = set_up(state, layout)
    print(words)
    if args.fake is not None:  # the fake camera sets the pieces up itself, where calibrate --fake stood
        picture = fake_camera(layout, markers=False).photo(expected, args.fake + 1, pose=args.fake).image
    else:
        print("take your hand away, press Enter", flush=True)
        try:
            input()
        except EOFError:
            raise UsageError("--orient needs a terminal to press Enter at") from None
        picture, _name = _real_still(args, conf, average=2)
    try:
        quarters, oriented = orient(layout, calibration, picture, expected)
    except cal.CalibrationError as exc:
        raise UsageError(f"calibration not turned: {exc}") from None
    if quarters == 0:
        print("the corners were given the right way round: the calibration is kept as it is")
        return 0
    try:
        path = cal.save(oriented, directory)
    except OSError as exc:
        raise UsageError(f"cannot save the calibration in {directory}: {exc.strerror or exc}") from None
    print(f"the corners were given turned by {cal.TURN_WORDS[quarters]}: the board's top left "
          f"is the corner given as {cal.CORNER_NAMES[quarters]}")
    print("corners now: " + " ".join(f"{x:.0f},{y:.0f}" for x, y in oriented.corners))
    print(f"calibration saved: {path}")
    return 0


def _corner_of(layout: Layout) -> str:
    """Where the board's first square is, in words (the player's landmark)."""
    first = layout.squares[0]
    rows, cols = layout.grid
    vertical = "top" if first.row < rows / 2 else "bottom"
    horizontal = "left" if first.col < cols / 2 else "right"
    return f"at the {vertical} {horizontal}"


def _read_png(path: Path) -> Pixels:
    import numpy as np
    from PIL import Image

    try:
        with Image.open(path) as image:
            return np.asarray(image.convert("RGB"), np.uint8).copy()
    except OSError as exc:
        raise UsageError(f"cannot read the still {path}: {exc}") from None


__all__ = ["cmd_camera_calibrate", "cmd_camera_check"]
