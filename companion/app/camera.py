"""The camera over the board, wired to the screens (issue 34; docs/camera.md).

When a person's moves screen is shown after a throw, the controller hands a *look* to
the worker (:func:`look_job`): the camera's picture read into a board
(:mod:`companion.camera.read`) and the move it shows found
(:func:`companion.camera.find.find_move`). The result comes back as a
:class:`~companion.app.events.CameraRead` event, on the loop's thread, like the
computer's work. A resumed game's board and the computer's move made on the board are
*checked* (:func:`check_job`): the board read is compared with the one expected, and
comes back as a :class:`~companion.app.events.BoardChecked` event. Nothing here runs on
the loop's thread but :func:`difference_lines` and :func:`check_lines`.

Sources (``camera.source``): ``off`` (no camera: nothing changes), ``fake``
(:class:`FakeTableCamera`: a seeded photo of the printed board with the pieces where the
move "physically played" left them), ``usb`` (a webcam through OpenCV's V4L2,
``camera.device``) and ``picamera`` (a Pi camera module through picamera2), the last
two a :class:`LiveCamera` over :mod:`companion.camera.sources`. OpenCV is imported
when a camera is made, never at start with the camera off; a real camera is opened
on its first look, on the worker's thread.
"""

from __future__ import annotations

import importlib.util
import logging
import random
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeAlias

from companion.i18n import _, ngettext
from companion.ui.rules_words import say

if TYPE_CHECKING:  # OpenCV: imported when a camera is made; the results with the first job
    from companion.app.results import BoardChecked, CameraRead
    from companion.camera.board import Layout, Pixels
    from companion.camera.fake import FakeCamera, Pieces
    from companion.camera.find import Difference
    from companion.camera.read import Reader, Reading
    from companion.camera.saved import SavedFrames
    from companion.camera.sources import FrameSource
    from companion.rules import Move, State  # the engine: with the first game
    from companion.rules.core import Square

log = logging.getLogger(__name__)

CAMERA_SOURCES = ("off", "fake", "usb", "picamera")
"""The values of ``camera.source``."""

Played: TypeAlias = "Callable[[State], Move | Mapping[Square, int]]"
"""What the players are taken to have done on the real board in a position (a
person's, waiting for a move): a legal move, or the board as they left it (square ->
player 0-based, occupied squares only; a wrong physical move). What a fake camera
then shows."""

Placed: TypeAlias = "Callable[[State, Mapping[Square, int]], Mapping[Square, int]]"
"""What the players have on the real board when the box checks it (a resumed game, the
computer's move made), given the position and the board expected (square -> player
0-based, occupied squares only; with the pieces of each square, as
:func:`companion.camera.find.expected_board`): the board as it stands, in the same form
(a plain mapping: one piece a square). What a fake camera then shows."""


class Camera(Protocol):
    """A camera over the board: :meth:`look` takes a picture of it and reads it.

    ``state``: the position the game waits in (a person's move due); a fake camera uses
    it to know what stands on the board, a real one would not.
    """

    def look(self, state: State) -> Mapping[Square, int | None]:
        """Every square of the board -> the player (0-based) whose piece is seen on it,
        or ``None``.

        :raises companion.camera.read.PictureRefused: something covers the board, a
            square is unsure, a marker is not seen.
        :raises Exception: the camera fails (the caller says so and goes on).
        """
        ...

    def check(self, state: State, expected: Mapping[Square, int],
              before: Mapping[Square, int] | None = None,
              cancel: threading.Event | None = None) -> Mapping[Square, int | None]:
        """Every square of the board, as :meth:`look`, once the board shows ``expected``
        (occupied squares: square -> player, with the pieces of each square, as
        :func:`companion.camera.find.expected_board`: counted squares are compared by
        their count) or something else that is not ``before``
        (the board as it was: the position before the computer's move, or what the last
        check read; ``None``: any board). ``state``: the position the game is in.
        ``cancel``: set when the check is no longer wanted (a camera that watches ends
        then).

        :raises companion.camera.read.PictureRefused: as :meth:`look`.
        :raises Exception: the camera fails.
        """
        ...


def seeded_move(state: State) -> Move:
    """A legal move of ``state`` drawn by a seed made of its position (the same
    position, the same move): the fake camera's default "physical" move for the demo."""
    moves = state.legal_moves()
    return moves[random.Random(repr(state.position_key())).randrange(len(moves))]


class FakeTableCamera:
    """The fake camera of :mod:`companion.camera.fake` over a table where ``played``
    (default :func:`seeded_move`) says which move was made on the real board, and
    ``placed`` (default: the board expected) what stands on it when the box checks it;
    each look a new seeded photo (``seed`` and the number of looks so far), ``hand``: a
    hand over the board in every photo (the picture is refused). It never waits: a check
    is answered with the board ``placed`` gives, changed or not.

    :raises ImportError: the camera extra (OpenCV, NumPy) is not installed.
    """

    def __init__(self, played: Played | None = None, *, seed: int = 0, hand: bool = False,
                 placed: Placed | None = None) -> None:
        from companion.camera import fake, read  # OpenCV: only when a camera is used

        self._fake, self._read = fake, read
        self.played = played or seeded_move
        self.placed: Placed = placed or (lambda state, expected: expected)
        """What stands on the board when the box checks it (default: the board
        expected: the players set it right)."""
        self.seed, self.hand = seed, hand
        self.looks = 0
        self._made: dict[Layout, tuple[FakeCamera, Reader]] = {}
        """The fake camera and the reader of each board layout (each draws the page
        once: most of a look's time)."""

    def look(self, state: State) -> Mapping[Square, int | None]:
        from companion.camera.find import seen_pieces
        from companion.rules import Move

        played = self.played(state)
        if isinstance(played, Move):
            after = state.copy()
            after.apply(played)
            pieces: Pieces = seen_pieces(after)
        else:
            pieces = played
        return self._photo(state, pieces)

    def check(self, state: State, expected: Mapping[Square, int],
              before: Mapping[Square, int] | None = None,
              cancel: threading.Event | None = None) -> Mapping[Square, int | None]:
        """A photo of the board ``placed`` says stands on the table, read (see
        :meth:`Camera.check`; this camera does not wait for a change): on a square of
        several pieces (``placed`` gives a board with the pieces of each square, as
        :func:`~companion.camera.find.expected_board`), each drawn."""
        from companion.camera.find import pieces_of

        return self._photo(state, pieces_of(self.placed(state, expected)))

    def _photo(self, state: State, pieces: Pieces) -> Mapping[Square, int | None]:
        """A new seeded photo of ``state``'s board with ``pieces`` on it, read."""
        from companion.camera.board import layout_for

        layout = layout_for(state)
        if layout not in self._made:
            self._made = {layout: (self._fake.fake_camera(layout), self._read.Reader(layout))}
        camera, reader = self._made[layout]
        self.looks += 1
        photo = camera.photo(pieces, self.seed + self.looks, hand=self.hand)
        return reader.read(photo.image).squares


_DONE, _USUAL, _HOLD, _OTHER = "done", "usual", "hold", "other"
"""How :meth:`LiveCamera._watch` sorts a board read: the answer; the board as it was;
a board the next move tells; another board (the answer once it stands still)."""


class LiveCamera:
    """A real camera over the board: frames from ``source``
    (:mod:`companion.camera.sources`), read by the reader of the game's printed board
    when the board has been still for a moment (:mod:`companion.camera.still`).

    A look (:meth:`look`, on the worker's thread) opens the camera if it is not open
    (again, after it dropped out) and *watches* the board until the players have
    made their move on it: a still frame is read; a board as before the move, or a
    frame refused (a hand held over the board, a marker hidden), is waited past; a
    board that a legal move leaves is the answer at once; a changed board that no legal
    move leaves (a piece on a wrong square) is the answer once it has stood still for
    ``settle`` seconds (the player may still be moving it). A board that several moves
    leave alike and after which the same player moves again in the same turn (the
    Labyrinth's ``55-56 with 5`` and ``55-56 with 1``: :func:`~companion.camera.find.undecided`)
    is watched past too: the board after the turn's next move tells which was made
    (:func:`~companion.camera.find.find_move` with ``ahead``); when it does not, that
    board is the answer (several: the player chooses). After ``patience`` seconds: such a
    board, or the board as before if it was seen (nothing to say), else the last refusal.

    ``clock``: seconds, monotonic (tests give their own). ``saved``: where the frame
    each look was answered or refused on is kept (``camera.save_frames``; ``None``,
    the default: no frame is written anywhere). ``calibrations``: the state folder,
    where a board without markers has its calibration (``companion camera
    calibrate``; :mod:`companion.camera.calibration`): the game's, when saved, is read
    through instead of the markers (looked for again when the file changes);
    ``None``: markers only.

    :raises ImportError: the camera extra (OpenCV, NumPy) is not installed.
    """

    def __init__(self, source: FrameSource, *, patience: float = 90.0, settle: float = 2.0,
                 clock: Callable[[], float] = time.monotonic, saved: SavedFrames | None = None,
                 calibrations: Path | None = None) -> None:
        from companion.camera import read  # OpenCV: only when a camera is used

        self._read = read
        self.calibrations = calibrations
        self.source = source
        self.patience, self.settle, self.clock = patience, settle, clock
        self.saved = saved
        self.looks = 0
        self.frames = 0
        """Frames taken so far (all looks)."""
        self._closed = threading.Event()
        self._readers: dict[tuple[Layout, float | None], Reader] = {}
        """The reader of the board layout in play and its calibration file's time (one:
        a reader holds its references)."""

    def _reader(self, state: State) -> Reader:
        """The reader of ``state``'s board: through its calibration when one is saved.

        :raises companion.camera.calibration.CalibrationError: the calibration file is
            damaged or of another board (it is left as it is).
        """
        from companion.camera.board import layout_for

        layout = layout_for(state)
        stamp = None
        if self.calibrations is not None:
            from companion.camera.calibration import path_for

            try:
                stamp = path_for(self.calibrations, layout.game).stat().st_mtime
            except OSError:
                stamp = None
        if (layout, stamp) not in self._readers:
            calibration = None
            if stamp is not None and self.calibrations is not None:
                from companion.camera.calibration import load

                calibration = load(self.calibrations, layout)
            self._readers = {(layout, stamp): self._read.Reader(layout, calibration=calibration)}
        return self._readers[(layout, stamp)]

    def _grab(self) -> Pixels:
        self.frames += 1
        return self.source.grab()

    def look(self, state: State, cancel: threading.Event | None = None) -> Mapping[Square, int | None]:
        """The board once the players made their move on it (see the class); ``state``
        waits for a person's move. ``cancel``: set when the look is no longer wanted
        (its moves screen left): the look ends at its next frame.

        :raises companion.camera.read.PictureRefused: no still, unrefused frame within
            ``patience`` (its reason starts "hold still"), or the look was cancelled.
        :raises companion.camera.sources.CameraError: the camera cannot be opened or
            gave no frame.
        """
        from companion.camera.find import NONE, find_move, shows, undecided

        def sort(_board: dict[Square, int], reading: Reading) -> str:
            if shows(reading.squares, state):  # the pieces counted too, where they are
                return _USUAL
            finding = find_move(state, None, reading.squares, ahead=True)
            if undecided(state, None, finding):  # the turn's next move tells which
                return _HOLD
            return _OTHER if finding.kind == NONE else _DONE

        return self._watch(state, cancel, sort, watch_past_usual=False)

    def check(self, state: State, expected: Mapping[Square, int],
              before: Mapping[Square, int] | None = None,
              cancel: threading.Event | None = None) -> Mapping[Square, int | None]:
        """The board once it shows ``expected``: at once; or, once it shows something
        else that is not ``before`` (``None``: any board), when that has stood still for
        ``settle`` seconds (the players may still be setting it). A board read as
        ``before`` is watched past for as long as it stays (the players may be away
        from the table); only when no still frame could be read within ``patience``
        seconds does the check end.

        :raises companion.camera.read.PictureRefused: no still, unrefused frame within
            ``patience`` (its reason starts "hold still"), or the check was cancelled.
        :raises companion.camera.sources.CameraError: the camera cannot be opened or
            gave no frame.
        """
        from companion.camera.find import board_differences

        def sort(_board: dict[Square, int], reading: Reading) -> str:
            if not board_differences(reading.squares, expected):  # the pieces counted too
                return _DONE
            if before is not None and not board_differences(reading.squares, before):
                return _USUAL
            return _OTHER

        return self._watch(state, cancel, sort, watch_past_usual=True)

    def _watch(self, state: State, cancel: threading.Event | None,
               sort: Callable[[dict[Square, int], Reading], str], *,
               watch_past_usual: bool) -> Mapping[Square, int | None]:
        """The frame loop of :meth:`look` and :meth:`check`. Still frames of the board
        are read (:func:`companion.camera.still.still_readings`) and each board read is
        sorted by ``sort``: ``_DONE``, the answer at once; ``_USUAL``, the board as it
        was (the players have not moved yet), waited past; ``_HOLD``, a board that the
        next move tells (kept, and the answer if nothing else is); ``_OTHER``, the
        answer once it has stood still for ``settle`` seconds. A refused frame (a hand,
        a hidden marker) is waited past. At ``patience`` seconds the loop ends --
        unless ``watch_past_usual`` and a board was read (a check watches on: the
        players may be away from the table) -- with the held board, else (a look) the
        usual board if it was seen (nothing to say), else the last refusal.

        :raises companion.camera.read.PictureRefused: see :meth:`look`.
        :raises companion.camera.sources.CameraError: see :meth:`look`.
        """
        from companion.camera.read import PictureRefused
        from companion.camera.still import still_readings

        reader = self._reader(state)
        self.looks += 1
        deadline = self.clock() + self.patience
        usual: tuple[Reading, Pixels] | None = None
        held: tuple[Reading, Pixels] | None = None
        pending: tuple[dict[Square, int], float] | None = None
        refused, refused_frame, read = "the board was never still", None, False
        for seen in still_readings(self._grab, reader):
            if self._closed.is_set() or (cancel is not None and cancel.is_set()):
                raise PictureRefused("the look was stopped")
            now = self.clock()
            if seen.refused is not None:
                refused, refused_frame, pending = seen.refused.reason, seen.frame, None
            elif seen.reading is not None:
                read = True
                board = seen.reading.occupied()
                kind = sort(board, seen.reading)
                if kind == _DONE:
                    return self._answer(seen.reading, seen.frame)
                if kind == _USUAL:
                    usual, pending = (seen.reading, seen.frame), None
                elif kind == _HOLD:
                    held, pending = (seen.reading, seen.frame), None
                elif pending is None or pending[0] != board:
                    pending = (board, now)
                elif now - pending[1] >= self.settle:
                    return self._answer(*(held or (seen.reading, seen.frame)))
            if now >= deadline and not (watch_past_usual and read):
                break
        if held is not None:
            return self._answer(*held)
        if usual is not None and not watch_past_usual:
            return self._answer(*usual)
        if refused_frame is not None and self.saved is not None:
            self.saved.save(refused_frame, "refused")
        raise PictureRefused(f"hold still: {refused}")

    def still(self, average: int = 1) -> Pixels:
        """A still picture of the board, the mean of ``average`` frames
        (:func:`companion.camera.still.still_picture`): a calibration's, on the worker's
        thread (:mod:`companion.app.calibrating`).

        :raises companion.camera.sources.CameraError: the camera cannot be opened or
            gave no frame.
        """
        from companion.camera.still import still_picture

        return still_picture(self._grab, average)

    def _answer(self, reading: Reading, frame: Pixels) -> Mapping[Square, int | None]:
        """The look's answer, its frame kept if the player asked for it."""
        if self.saved is not None:
            self.saved.save(frame, "read")
        return reading.squares

    def close(self) -> None:
        """Let the camera go and end a look under way (idempotent)."""
        self._closed.set()
        self.source.close()


def camera_for(source: str, device: str = "0", save_to: Path | None = None,
               calibrations: Path | None = None) -> Camera | None:
    """The camera of ``camera.source`` (``None`` for ``off``); ``device``
    (``camera.device``): ``usb``'s V4L2 device, an index or a path (a video file is
    read as a camera), or the number of ``picamera``'s camera module; ``save_to``: the
    folder a real camera keeps its looks' frames in (``camera.save_frames`` on;
    ``None``: none kept); ``calibrations``: the state folder, where a real camera finds
    the calibration of a board without markers (:class:`LiveCamera`). Nothing is
    opened here: a real camera opens on its first look.

    :raises ValueError: an unknown source, or a picamera number that is not a number.
    :raises ImportError: the camera extra is not installed, or (``picamera``) picamera2
        is not (:data:`~companion.camera.sources.PICAMERA2_MISSING`).
    """
    if source == "off":
        return None
    if source == "fake":
        return FakeTableCamera()
    if source in ("usb", "picamera"):
        from companion.camera import sources  # OpenCV: only when a camera is used
        from companion.camera.saved import SavedFrames

        saved = SavedFrames(save_to) if save_to is not None else None
        if source == "usb":
            return LiveCamera(sources.VideoSource(device), saved=saved, calibrations=calibrations)
        if not sources.picamera2_installed():
            raise ImportError(sources.PICAMERA2_MISSING)
        number = sources.parse_device(device)
        if not isinstance(number, int):
            raise ValueError(f"camera.device {device!r}: the Pi camera's number (0, 1) is wanted")
        return LiveCamera(sources.PiCameraSource(number), saved=saved, calibrations=calibrations)
    raise ValueError(f"unknown camera source {source!r}: one of {', '.join(CAMERA_SOURCES)}")


def usable_sources(configured: str) -> tuple[str, ...]:
    """The values of ``camera.source`` the Settings screen offers (issue 34): ``off``
    always; ``fake`` when ``configured`` is ``fake`` (a stand-in for tests and the
    simulator, never offered to a player otherwise); ``usb`` when OpenCV (the camera
    extra) is installed; ``picamera`` when picamera2 is too. Found without importing
    them (:func:`importlib.util.find_spec`): cheap, nothing is opened."""
    def installed(module: str) -> bool:
        try:
            return importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):
            return False

    opencv = installed("cv2")
    offered = {"off": True, "fake": configured == "fake", "usb": opencv,
               "picamera": opencv and installed("picamera2")}
    return tuple(source for source in CAMERA_SOURCES if offered[source])


class ChosenCamera:
    """The camera of the source chosen (``camera.source``, then the Settings screen's
    Camera row; issue 34), changed on the worker's thread only.

    ``camera`` is the camera made at start for ``source`` (``None``: none); ``make``
    makes the camera of another source (:func:`camera_for`; ``None``: no other can be
    made). Each look job, on the worker's thread, asks :meth:`for_source` for the camera
    of the source wanted when the look was handed over: another source than the one in
    use lets that camera go (its ``close``) and makes the new one there (nothing is
    opened: a real camera opens on its first look). The loop's thread only asks
    :meth:`looks`, which reads what never changes.
    """

    def __init__(self, source: str, camera: Camera | None,
                 make: Callable[[str], Camera | None] | None = None) -> None:
        self.start_source, self.start_camera = source, camera
        self.make = make
        self._source, self._camera = source, camera

    def looks(self, wanted: str) -> bool:
        """Whether a look is made with ``wanted`` chosen: the camera made at start for
        it, or one that can be made (any source but ``off``, with :attr:`make`)."""
        if wanted == self.start_source:
            return self.start_camera is not None
        return wanted != "off" and self.make is not None

    def for_source(self, wanted: str) -> Camera | None:
        """The camera of ``wanted`` (the worker's thread only; see the class).

        :raises ImportError, ValueError: as :func:`camera_for` (the next look tries again).
        """
        if wanted != self._source:
            self.close()
            if wanted == self.start_source and (self.make is None or wanted == "off"):
                self._camera = self.start_camera  # a camera given at start, not made by make
            else:
                self._camera = self.make(wanted) if self.make is not None else None
            self._source = wanted
        return self._camera

    def look(self, ticket: int, wanted: str, state: State,
             cancel: threading.Event | None = None) -> CameraRead:
        """The worker's job: :func:`look_job` through the camera of ``wanted``
        (``cancel``: set when the look is no longer wanted).

        :raises RuntimeError: no camera is made for ``wanted`` (:meth:`looks` said no).
        :raises ImportError, ValueError: the camera cannot be made (:func:`camera_for`).
        """
        camera = self.for_source(wanted)
        if camera is None:
            raise RuntimeError(f"no camera for camera.source {wanted!r}")
        return look_job(ticket, camera, state, cancel)

    def check(self, ticket: int, wanted: str, state: State, expected: Mapping[Square, int],
              before: Mapping[Square, int] | None = None,
              cancel: threading.Event | None = None) -> BoardChecked:
        """The worker's job: :func:`check_job` through the camera of ``wanted`` (a
        resumed game's board, the computer's move; issue 34).

        :raises RuntimeError: no camera is made for ``wanted`` (:meth:`looks` said no).
        :raises ImportError, ValueError: the camera cannot be made (:func:`camera_for`).
        """
        camera = self.for_source(wanted)
        if camera is None:
            raise RuntimeError(f"no camera for camera.source {wanted!r}")
        return check_job(ticket, camera, state, expected, before, cancel)

    def close(self) -> None:
        """Let the camera in use go (idempotent)."""
        camera, self._camera, self._source = self._camera, None, ""
        close = getattr(camera, "close", None)
        if close is not None:
            close()


def readable(state: State) -> bool:
    """Whether the camera reads ``state``'s board (a board picture laid on a grid: all
    four games)."""
    from companion.camera.board import layout_for

    try:
        layout_for(state)
    except ValueError:
        return False
    return True


def look_job(ticket: int, camera: Camera, state: State,
             cancel: threading.Event | None = None) -> CameraRead:
    """The worker's job: ``camera``'s look at the board of ``state`` (the worker's own
    copy) and the move it shows. A refused picture comes back as ``refused`` (its
    reason); a camera that raises anything else comes back as the worker's
    :class:`~companion.app.events.WorkFailed`. ``cancel``: handed to a camera that
    watches (:class:`LiveCamera`), set when the look is no longer wanted."""
    from companion.app.results import CameraRead
    from companion.camera.find import find_move
    from companion.camera.read import PictureRefused

    try:
        if cancel is not None and isinstance(camera, LiveCamera):
            reading = camera.look(state, cancel)
        else:
            reading = camera.look(state)
    except PictureRefused as exc:
        return CameraRead(ticket, None, refused=exc.reason)
    return CameraRead(ticket, find_move(state, None, reading, ahead=True))


def check_job(ticket: int, camera: Camera, state: State, expected: Mapping[Square, int],
              before: Mapping[Square, int] | None = None,
              cancel: threading.Event | None = None) -> BoardChecked:
    """The worker's job: ``camera``'s check of the board against ``expected`` (occupied
    squares: square -> player), in ``state`` (the worker's own copy); see
    :meth:`Camera.check` for ``before`` and ``cancel``. A refused picture comes back as
    ``refused`` (its reason); a camera that raises anything else comes back as the
    worker's :class:`~companion.app.events.WorkFailed`."""
    from companion.app.results import BoardChecked
    from companion.camera.find import board_differences, occupied_board
    from companion.camera.read import PictureRefused

    try:
        reading = camera.check(state, expected, before, cancel)
    except PictureRefused as exc:
        return BoardChecked(ticket, None, refused=exc.reason)
    return BoardChecked(ticket, occupied_board(reading), board_differences(reading, expected, tuple(reading)))


Differences = Iterable["Difference | tuple[Square, int | None, int | None]"]
"""Squares where the board seen differs from the one expected, in board order: each a
:class:`~companion.camera.find.Difference`, or ``(square, seen, expected)`` (players
0-based or ``None`` for empty) for one read without counting."""


def _differences(differences: Differences) -> list[Difference]:
    from companion.camera.find import Difference

    return [d if isinstance(d, Difference) else Difference(*d) for d in differences]


def count_lines(state: State, differences: Differences) -> tuple[str, ...]:
    """The counts that differ on the squares where several pieces stand or should
    (:meth:`~companion.camera.find.Difference.counts`), in words for the screen and the
    ear, a sentence for each player's count: "2 pieces of Red should be on 31, the
    camera sees 1."; a count of none said as a word: "No piece of Red should be on
    31, the camera sees 1.", "2 pieces of Red should be on 31, the camera sees none."
    The rest of ``differences`` gives none (:func:`check_lines` and
    :func:`difference_lines` word them)."""
    lines: list[str] = []
    for d in _differences(differences):
        for player, expected, seen in d.counts():
            who = say(state.name(player))
            if expected == 0:
                line = _("No piece of {player} should be on {square}, the camera sees {seen}.")
            elif seen == 0:
                line = ngettext("{count} piece of {player} should be on {square}, the camera sees none.",
                                "{count} pieces of {player} should be on {square}, the camera sees none.",
                                expected)
            else:
                line = ngettext("{count} piece of {player} should be on {square}, the camera sees {seen}.",
                                "{count} pieces of {player} should be on {square}, the camera sees {seen}.",
                                expected)
            lines.append(line.format(count=expected, player=who, square=d.square, seen=seen))
    return tuple(lines)


def check_lines(state: State, differences: Differences) -> tuple[str, ...]:
    """Every square where the board seen differs from the position, in words for the
    screen and the ear (a resumed game, the computer's move): a piece of a player seen
    where it should not be and one of theirs missing elsewhere make one sentence
    ("Black's piece on 18 belongs on 14."); a piece missing, "Black's piece belongs on
    14."; a square that should be empty, "18 should be empty."; another player's piece,
    "Black's piece belongs on 14, not White's."; a count that differs where several
    pieces stand or should (:func:`count_lines`), "2 pieces of Red should be on 31, the
    camera sees 1." ``differences``: see :data:`Differences`."""
    def name(player: int) -> str:
        return say(state.name(player))

    every = _differences(differences)
    single = [(d.square, d.seen, d.expected) for d in every if not d.counts()]
    extra = [(s, seen) for s, seen, want in single if seen is not None and want is None]
    missing = [(s, want) for s, seen, want in single if want is not None and seen is None]
    lines: list[str] = []
    for square, player in list(extra):
        match = next((m for m in missing if m[1] == player), None)
        if match is not None:
            missing.remove(match)
            extra.remove((square, player))
            lines.append(_("{player}'s piece on {square} belongs on {target}.").format(
                player=name(player), square=square, target=match[0]))
    for square, seen, want in single:
        if seen is not None and want is not None and seen != want:
            lines.append(_("{player}'s piece belongs on {square}, not {other}'s.").format(
                player=name(want), square=square, other=name(seen)))
    for square, player in missing:
        lines.append(_("{player}'s piece belongs on {square}.").format(player=name(player), square=square))
    for square, _player in extra:
        lines.append(_("{square} should be empty.").format(square=square))
    return tuple(lines) + count_lines(state, every)


def difference_lines(state: State, differences: Differences) -> tuple[str, ...]:
    """The squares where the board seen differs from the nearest legal move's, in
    words for the screen and the ear: a piece seen on a square where it should not be
    and missing on one where it should, of the same player, make one sentence ("The
    piece on 14 should be on 18."); a count that differs where several pieces stand or
    should (:func:`count_lines`), "2 pieces of Red should be on 31, the camera sees 1.";
    the rest one sentence each. ``differences``: see :data:`Differences`."""
    every = _differences(differences)
    single = [(d.square, d.seen, d.expected) for d in every if not d.counts()]
    extra = [(s, seen) for s, seen, want in single if seen is not None and want != seen]
    missing = [(s, want) for s, seen, want in single if want is not None and want != seen]
    lines: list[str] = []
    for square, player in list(extra):
        match = next((m for m in missing if m[1] == player), None)
        if match is not None:
            missing.remove(match)
            extra.remove((square, player))
            lines.append(_("The piece on {square} should be on {target}.").format(
                square=square, target=match[0]))
    for square, player in extra:
        lines.append(_("The piece of {player} on {square} should not be there.").format(
            player=say(state.name(player)), square=square))
    for square, player in missing:
        lines.append(_("A piece of {player} should be on {square}.").format(
            player=say(state.name(player)), square=square))
    return tuple(lines) + count_lines(state, every)


__all__ = ["CAMERA_SOURCES", "Camera", "ChosenCamera", "Differences", "FakeTableCamera", "LiveCamera", "Placed", "Played",
           "camera_for", "check_job", "check_lines", "count_lines", "difference_lines", "look_job", "readable",
           "seeded_move", "usable_sources"]
