"""The camera wired to the moves screen (issue 34): the controller driven with events,
the fake camera over the table rendering what the test says was played on the board."""

from __future__ import annotations

import queue
import random
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from controller_tools import DOWN, OK, SHAKE, on, send
from walkthroughs import scripted_draw

pytest.importorskip("cv2")

from walkthroughs.cue_games import Recorder

from companion.app import config as cfg
from companion.app.camera import FakeTableCamera, camera_for, difference_lines, look_job
from companion.app.controller import Controller, Screen
from companion.app.events import CameraRead, LoopEvent
from companion.app.worker import Worker
from companion.camera.find import Stack, seen_board, seen_stacks
from companion.devices.indicators import Cue as Beep
from companion.devices.sources import SOURCE_NAMES
from companion.i18n import using
from companion.journal.store import JournalStore
from companion.rules import Move, Phase, State, get_game, random_action
from companion.rules.core import Square

SCORES = ["4", "1", "6", "2", "4", "4"]
"""Black enters on 4, White's 1 is lost, Black's 6: ``enter 6`` or ``4-10``."""
BEFORE_SIX: list[LoopEvent] = [SHAKE, OK, SHAKE, OK]
"""The events up to Black's throw of 6."""


def last_move(state: State) -> Move:
    return state.legal_moves()[-1]


def make(tmp_path: Path, camera: object, *, confirm: bool = True, speaker: Recorder | None = None,
         worker: Worker | None = None) -> Controller:
    ctl = Controller(store=JournalStore(tmp_path), draw=scripted_draw(SCORES),
                     sources=list(SOURCE_NAMES), source="gpio-shaker", camera=camera,  # type: ignore[arg-type]
                     camera_confirm=confirm, speaker=speaker, worker=worker)
    ctl.start()
    send(ctl, OK, *[DOWN] * ctl.games.index("senet-tait"), OK, OK)
    assert on(ctl) is Screen.THROW
    return send(ctl, *BEFORE_SIX)


def test_the_cursor_jumps_to_the_move_the_camera_reads_and_speech_says_it(tmp_path: Path) -> None:
    said = Recorder()
    camera = FakeTableCamera(played=last_move, seed=11)
    ctl = make(tmp_path, camera, speaker=said)
    send(ctl, SHAKE)
    view = ctl.view()
    assert view.screen == "moves" and view.items == ("enter 6", "4-10")
    assert view.cursor == 1 and camera.looks == 2  # the first look: "enter 4", one move
    texts = [c.text for c in said.said]
    assert "The camera read the move: move the piece on 4 to 10." in texts
    assert sum("4 to 10" in t for t in texts) == 1  # said once: not again as the choice
    send(ctl, OK)  # OK plays the move read
    assert ctl.actions[-1].notation == "4-10"  # type: ignore[union-attr]


def test_with_confirm_off_the_move_read_is_played_at_once(tmp_path: Path) -> None:
    ctl = make(tmp_path, FakeTableCamera(played=last_move, seed=3), confirm=False)
    send(ctl, SHAKE)
    assert ctl.actions[-1].notation == "4-10"  # type: ignore[union-attr]
    assert on(ctl) is not Screen.MOVES


def test_a_wrong_physical_move_names_the_squares(tmp_path: Path) -> None:
    def one_too_far(state: State) -> Mapping[Square, int]:
        board = {p.square: p.player for p in state.pieces() if p.square is not None}
        if 4 in board:  # the piece on 4 put on 11, where 4-10 would put it on 10
            del board[4]
            board[11] = 0
            return board
        return {**board, 4: 0}  # the first throw: entered right

    said = Recorder()
    ctl = make(tmp_path, FakeTableCamera(played=one_too_far, seed=5), speaker=said)
    send(ctl, SHAKE)
    assert on(ctl) is Screen.MESSAGE
    view = ctl.view()
    assert view.title == "Check the board"
    assert view.lines == ("The piece on 11 should be on 10.",)
    assert "The piece on 11 should be on 10." in [c.text for c in said.said]
    send(ctl, OK)  # the message left: the moves, the buttons as before
    assert on(ctl) is Screen.MOVES and ctl.view().cursor == 0
    send(ctl, DOWN, OK)
    assert ctl.actions[-1].notation == "4-10"  # type: ignore[union-attr]


class Broken:
    def __init__(self) -> None:
        self.looks = 0

    def look(self, state: State) -> Mapping[Square, int | None]:
        self.looks += 1
        raise OSError("camera unplugged")


@pytest.mark.parametrize("camera", [FakeTableCamera(played=last_move, seed=2, hand=True), Broken()],
                         ids=["hand", "broken"])
def test_a_camera_that_fails_or_refuses_is_said_once_and_the_buttons_work(
        tmp_path: Path, camera: object) -> None:
    ctl = Controller(store=JournalStore(tmp_path), draw=scripted_draw(SCORES),
                     sources=list(SOURCE_NAMES), source="gpio-shaker", camera=camera)  # type: ignore[arg-type]
    ctl.start()
    send(ctl, OK, *[DOWN] * ctl.games.index("senet-tait"), OK, OK, SHAKE)
    assert on(ctl) is Screen.MESSAGE and ctl.view().title == "Camera failed"
    assert ctl.reply().cue is Beep.ERROR  # and its title said aloud, as every failure's
    assert ctl.view().lines[-1] == "Choose the move with the buttons."
    send(ctl, OK)
    assert on(ctl) is Screen.MOVES
    send(ctl, OK, SHAKE, OK, SHAKE)  # enter 4; White's 1 lost; Black's 6
    assert on(ctl) is Screen.MOVES and ctl.view().cursor == 0  # not said again
    send(ctl, DOWN, OK)
    assert ctl.actions[-1].notation == "4-10"  # type: ignore[union-attr]


def test_camera_off_changes_nothing(tmp_path: Path) -> None:
    assert cfg.defaults()["camera.source"] == "off" and cfg.defaults()["camera.confirm"] is True
    assert camera_for("off") is None
    views = []
    for name, camera in (("off", None), ("on", FakeTableCamera(played=lambda s: s.legal_moves()[0]))):
        ctl = make(tmp_path / name, camera)
        send(ctl, SHAKE)
        views.append(ctl.view())
    assert views[0] == views[1]  # the camera read the first row: nothing moved


def test_the_look_runs_off_the_loops_thread(tmp_path: Path) -> None:
    threads: list[str] = []

    def played(state: State) -> Move:
        threads.append(threading.current_thread().name)
        return last_move(state)

    results: queue.Queue[LoopEvent] = queue.Queue()
    executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="look")
    worker = Worker(executor)
    worker.connect(lambda: None, results.put)
    try:
        ctl = make(tmp_path, FakeTableCamera(played=played, seed=9), worker=worker)
        send(ctl, results.get(timeout=30))  # the look at "enter 4"
        send(ctl, SHAKE)
        assert ctl.view().cursor == 0  # not read yet: the loop did not wait
        event = results.get(timeout=30)
        assert isinstance(event, CameraRead)
        send(ctl, event)
        assert ctl.view().cursor == 1
        assert threads and all(name.startswith("look") for name in threads)
    finally:
        worker.close()


def test_the_new_messages_have_german_words() -> None:
    state = get_game("senet-tait").new_state()
    differences = ((11, 0, None), (10, None, 0), (20, 1, None), (22, None, 0))
    english = difference_lines(state, differences)
    assert english[0] == "The piece on 11 should be on 10."
    with using("de"):
        german = difference_lines(state, differences)
        from companion.i18n import _

        titles = [_(t) for t in ("Check the board", "Camera failed",
                                 "Choose the move with the buttons.", "The camera read the move: {move}.")]
    assert len(german) == 3
    for en, de in zip((*english, "Check the board", "Camera failed",
                       "Choose the move with the buttons.", "The camera read the move: {move}."),
                      (*german, *titles), strict=True):
        assert en != de, en


def test_casting_stick_senet_the_steps_are_chosen_up_to_the_move_read(tmp_path: Path) -> None:
    """A move of three steps (plinth, value, value): the path is chosen and the cursor put
    on the last step's row; OK leaves the board as the camera saw it."""
    from companion.camera.find import seen_board

    boards: list[dict[Square, int]] = []

    def played(state: State) -> Move:
        move = state.legal_moves()[-1]
        after = state.copy()
        after.apply(move)
        boards.append(seen_board(after))
        return move

    ctl: Controller

    def draw(spec: object, n: int) -> object:
        outcomes = ctl.position.throw_outcomes()
        return outcomes[n % len(outcomes)][0]

    ctl = Controller(store=JournalStore(tmp_path), draw=draw,  # type: ignore[arg-type]
                     sources=list(SOURCE_NAMES), source="gpio-shaker",
                     camera=FakeTableCamera(played=played, seed=4))
    ctl.start()
    send(ctl, OK, *[DOWN] * ctl.games.index("senet-sticks"), OK, OK)
    deep = 0
    for _ in range(30):
        if on(ctl) is Screen.MOVES and boards:
            deep += len(ctl.path) >= 2
            send(ctl, OK)
            if on(ctl) is not Screen.MOVES:  # played (a later move of the turn is read anew)
                assert seen_board(ctl.position) == boards[-1]
        else:
            send(ctl, SHAKE if on(ctl) is Screen.THROW else OK)
    assert deep >= 3


def test_the_service_builds_the_camera_the_config_names(tmp_path: Path, mock_factory: object) -> None:
    from companion.app.service import build

    for source, confirm in (("off", True), ("fake", False)):
        values = cfg.defaults()
        values.update({"display.backend": "dummy", "journal.dir": str(tmp_path / source),
                       "camera.source": source, "camera.confirm": confirm})
        parts = build(values, pin_factory=mock_factory)
        try:
            controller = parts.service.controller
            assert (controller.camera is None) == (source == "off")
            assert isinstance(controller.camera, FakeTableCamera) == (source == "fake")
            assert controller.camera_confirm is confirm
        finally:
            parts.service.close()


def test_through_the_running_service_the_fake_camera_moves_the_cursor(
        tmp_path: Path, mock_factory: object) -> None:
    """The service's own threads: the loop, the worker's thread (the look), the fake
    camera the config names."""
    from companion.app.camera import seeded_move
    from companion.app.events import Quit
    from companion.app.service import build

    values = cfg.defaults()
    values.update({"display.backend": "dummy", "journal.dir": str(tmp_path),
                   "camera.source": "fake"})
    parts = build(values, pin_factory=mock_factory, draw=scripted_draw(SCORES),
                  save_settings=False)
    service = parts.service
    loop = threading.Thread(target=service.run)
    loop.start()
    try:
        ctl = service.controller
        camera = ctl.camera
        assert isinstance(camera, FakeTableCamera) and camera.played is seeded_move
        camera.played = last_move  # the seeded move here is the first row: not a jump
        for event in (OK, *[DOWN] * ctl.games.index("senet-tait"), OK, OK, *BEFORE_SIX, SHAKE):
            service.post(event)
            assert service.wait_idle(30)
        assert ctl.screen is Screen.MOVES and ctl.view().items == ("enter 6", "4-10")
        assert ctl.view().cursor == 1 and camera.looks == 2
    finally:
        service.post(Quit())
        loop.join(10)
        service.close()


def test_moves_that_leave_the_same_picture_leave_the_cursor(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.camera import find

    def several(state: State, throw: object, reading: object, *, ahead: bool = False) -> find.Finding:
        return find.Finding(find.SEVERAL, tuple(state.legal_moves()))

    monkeypatch.setattr(find, "find_move", several)
    said = Recorder()
    camera = FakeTableCamera(played=last_move, seed=11)
    ctl = make(tmp_path, camera, speaker=said)
    send(ctl, SHAKE)
    assert on(ctl) is Screen.MOVES and ctl.view().cursor == 0 and camera.looks == 2
    assert not [c for c in said.said if "camera" in c.text]


def test_a_position_after_an_undo_is_looked_at_once(tmp_path: Path) -> None:
    """The moves screen an undo goes back to was looked at: not again (the pieces are
    being put back). Another move and throw after it give as many actions as before,
    but another position: looked at."""
    from controller_tools import HOLD_BACK

    camera = FakeTableCamera(played=last_move, seed=11)
    ctl = make(tmp_path, camera)
    send(ctl, SHAKE)  # Black's 6: 4-10 read
    assert ctl.view().cursor == 1 and camera.looks == 2
    send(ctl, OK, OK, SHAKE)  # 4-10 played; the events; Black throws 2 again: 10-12
    assert on(ctl) is Screen.MOVES and camera.looks == 3
    send(ctl, HOLD_BACK, OK)  # 4-10 and the throw of 2 taken back: the 6's moves
    assert on(ctl) is Screen.MOVES and ctl.view().items == ("enter 6", "4-10")
    assert camera.looks == 3 and ctl.view().cursor == 0
    send(ctl, OK, OK, SHAKE)  # enter 6 played; the events; Black throws 4
    assert on(ctl) is Screen.MOVES and camera.looks == 4


def a_move_onto_a_field(game: str, several: Callable[[Stack], bool]) -> tuple[State, Move]:
    """A position of a random game of ``game`` (a move due) and a move of it after which a
    square holds pieces that ``several`` accepts, where none did before, and another
    square's player changed (a piece moved across the board, not entered)."""
    rng = random.Random(2)
    state = get_game(game).new_state()
    while True:
        if state.phase is Phase.MOVE and not any(several(s) for s in seen_stacks(state).values()):
            for move in state.legal_moves():
                after = state.copy()
                after.apply(move)
                if any(several(s) for s in seen_stacks(after).values()) and seen_board(after) != seen_board(state):
                    return state, move
        state.apply(random_action(state, rng.randrange))


def test_a_cretan_move_onto_the_other_players_square_is_read_by_the_box() -> None:
    """The box's look (look_job, as the worker runs it) at a Cretan board where a piece
    moved onto the other player's square: both drawn there, counted, the move found."""
    state, move = a_move_onto_a_field("cretan-labyrinth", lambda stack: len(stack) > 1)
    read = look_job(1, FakeTableCamera(played=lambda _state: move, seed=4), state)
    assert read.finding is not None and read.finding.move == move


def test_a_count_that_differs_is_said_on_check_the_board() -> None:
    """A piece moved onto a Labyrinth field that held one of its player's, but the board
    shows one piece there: no move leaves that board, and "Check the board" says the
    count ("2 pieces of Red should be on 3, the camera sees 1."), in German too."""
    state, move = a_move_onto_a_field("labyrinth", lambda stack: len(stack) == 2 and stack[0] == stack[1])
    after = state.copy()
    after.apply(move)
    board = seen_board(after)  # the square's player only: one piece drawn there
    (square,) = (s for s, stack in seen_stacks(after).items() if len(stack) == 2)
    read = look_job(1, FakeTableCamera(played=lambda _state: board, seed=4), state)
    assert read.finding is not None and read.finding.kind == "none"
    name = state.name(board[square])
    line = f"2 pieces of {name} should be on {square}, the camera sees 1."
    assert line in difference_lines(state, read.finding.differences)
    with using("de"):
        german = difference_lines(state, read.finding.differences)
    assert any(g.startswith("2 Steine von ") and g.endswith(f" gehören auf {square}, die Kamera sieht 1.")
               for g in german), german
