"""The camera checks the board where the box knows what it should show (issue 34): a
resumed game's board against the journal's position, every differing square named on
the screen and aloud, play going on when the board matches or on OK; the computer's
move made when the board shows it, a board that shows something else named. The fake
camera photographs what the test says stands on the table."""

from __future__ import annotations

import queue
import random
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from controller_tools import BACK, DOWN, OK, SHAKE, UP, on, send
from walkthroughs import scripted_draw

pytest.importorskip("cv2")

from walkthroughs.cue_games import Recorder

from companion.app.camera import FakeTableCamera, LiveCamera, check_job, check_lines, count_lines
from companion.app.controller import Controller, Screen
from companion.app.events import BoardChecked, LoopEvent
from companion.app.looking import board_of
from companion.app.worker import Worker
from companion.camera.board import Pixels, layout_for
from companion.camera.fake import FakeCamera
from companion.camera.find import Difference, same_board, seen_board, seen_stacks
from companion.devices.sources import SOURCE_NAMES
from companion.i18n import using
from companion.journal.store import JournalStore
from companion.rules import State, get_game, random_action
from companion.rules.core import Square


def unfinished_senet(store: JournalStore, seed: int = 3, actions: int = 40) -> State:
    """A game of Tait's Senet played at random for ``actions`` actions or more, journalled
    (left unfinished, waiting for a throw, with four pieces on the board or more, for
    the resume); its position."""
    game = get_game("senet-tait")
    journal = store.begin(game, 2, started="2026-01-01T00:00:00+00:00")
    state = game.new_state()
    rng = random.Random(seed)
    while len(state.history) < actions or state.throw_spec is None or len(seen_board(state)) < 4:
        action = random_action(state, rng.randrange)
        by = state.player_to_act_name
        journal.append(by, action, state.apply(action))
    journal.close()
    return state


def two_misplaced(board: Mapping[Square, int]) -> dict[Square, int]:
    """``board`` with its first two pieces each put on the next empty square before it
    (two pieces on wrong squares: four squares differ)."""
    out = dict(board)
    for square in sorted(board, key=int)[:2]:
        target = next(s for s in range(int(square) + 1, 31) if s not in out)
        out[target] = out.pop(square)
    return out


def threaded() -> tuple[Worker, queue.Queue[LoopEvent]]:
    """A worker on a thread of its own, its results kept for the test to hand over."""
    results: queue.Queue[LoopEvent] = queue.Queue()
    worker = Worker(ThreadPoolExecutor(max_workers=1, thread_name_prefix="look"))
    worker.connect(lambda: None, results.put)
    return worker, results


def resumed(tmp_path: Path, camera: object, **kw: object) -> tuple[Controller, State]:
    """A controller offered the unfinished game of :func:`unfinished_senet`, resumed."""
    store = JournalStore(tmp_path)
    state = unfinished_senet(store)
    ctl = Controller(store=store, draw=scripted_draw(["4"] * 20), sources=list(SOURCE_NAMES),
                     source="gpio-shaker", camera=camera, **kw)  # type: ignore[arg-type]
    ctl.start()
    send(ctl, OK)
    assert on(ctl) is Screen.RESUME
    return ctl, state


def test_a_resumed_game_with_two_pieces_misplaced_names_both_then_goes_on_when_corrected(
        tmp_path: Path) -> None:
    boards: list[dict[Square, int]] = []

    def placed(state: State, expected: Mapping[Square, int]) -> Mapping[Square, int]:
        board = two_misplaced(expected) if not boards else dict(expected)  # then corrected
        boards.append(board)
        return board

    threads: list[str] = []

    def placed_here(state: State, expected: Mapping[Square, int]) -> Mapping[Square, int]:
        threads.append(threading.current_thread().name)
        return placed(state, expected)

    camera = FakeTableCamera(seed=21, placed=placed_here)
    said = Recorder()
    worker, results = threaded()
    try:
        ctl, state = resumed(tmp_path, camera, speaker=said, worker=worker)
        expected = seen_board(state)
        assert len(expected) >= 4
        send(ctl, OK)  # Resume: the camera looks, the loop does not wait
        assert on(ctl) is Screen.BOARD_CHECK
        assert ctl.view().lines == ("Looking at the board...",)
        first = results.get(timeout=60)
        assert isinstance(first, BoardChecked) and first.seen == boards[0]
        assert len(first.differences) == 4
        send(ctl, first)
        view = ctl.view()
        assert on(ctl) is Screen.BOARD_CHECK and view.title == "Check the board"
        a, b = sorted(expected)[:2]
        (wrong_a, wrong_b) = sorted(set(boards[0]) - set(expected))
        names = [state.name(expected[a]), state.name(expected[b])]
        assert view.lines == (f"{names[0]}'s piece on {wrong_a} belongs on {a}.",
                              f"{names[1]}'s piece on {wrong_b} belongs on {b}.")
        assert all(line in said.texts() for line in view.lines)  # and aloud
        second = results.get(timeout=60)  # the next look: the board set right
        send(ctl, second)
        assert on(ctl) is Screen.THROW  # play goes on
        assert "The board matches the game." in said.texts()
        assert threads == ["look_0", "look_0"]  # on the worker, never the loop's thread
    finally:
        worker.close()


def test_ok_goes_on_anyway_and_a_board_read_again_unchanged_ends_the_checking(tmp_path: Path) -> None:
    camera = FakeTableCamera(seed=5, placed=lambda state, expected: two_misplaced(expected))
    ctl, _state = resumed(tmp_path, camera)
    send(ctl, OK)  # inline worker: the check, the next check (the same board: nothing new)
    assert on(ctl) is Screen.BOARD_CHECK and len(ctl.view().lines) == 2
    assert camera.looks == 2
    send(ctl, OK)
    assert on(ctl) is Screen.THROW and camera.looks == 2


def test_a_board_as_the_journal_says_goes_on_at_once(tmp_path: Path) -> None:
    ctl, _state = resumed(tmp_path, FakeTableCamera(seed=8))
    send(ctl, OK)
    assert on(ctl) is Screen.THROW


def test_with_the_camera_off_the_resumed_game_shows_its_board_as_before(tmp_path: Path) -> None:
    ctl, _state = resumed(tmp_path, None)
    send(ctl, OK)
    assert on(ctl) is Screen.BOARD
    send(ctl, OK)
    assert on(ctl) is Screen.THROW


def test_a_camera_that_fails_on_the_check_is_said_once_and_ok_goes_on(tmp_path: Path) -> None:
    said = Recorder()
    ctl, _state = resumed(tmp_path, FakeTableCamera(seed=2, hand=True), speaker=said)
    send(ctl, OK)
    view = ctl.view()
    assert on(ctl) is Screen.BOARD_CHECK and view.lines[0] == "Camera failed"
    assert ctl.reply().cue is not None and "Camera failed" in said.texts()
    send(ctl, OK)
    assert on(ctl) is Screen.THROW


# ---------------------------------------------------------------------- the computer's move


def computer_game(tmp_path: Path, camera: object, **kw: object) -> Controller:
    """Tait's Senet, White played by the computer (the last legal move), begun: Black to
    throw 4 (then White throws 4: its ``enter 4`` bumps Black's piece)."""
    ctl = Controller(store=JournalStore(tmp_path), draw=scripted_draw(["4", "4", "6", "2", "2"]),
                     sources=list(SOURCE_NAMES), source="gpio-shaker", games=["senet-tait"],
                     think=lambda state, level: state.legal_moves()[-1],
                     camera=camera, **kw)  # type: ignore[arg-type]
    ctl.start()
    send(ctl, OK, OK, UP, OK, DOWN, OK, BACK, DOWN, OK)  # the seats: White the computer; Begin
    assert on(ctl) is Screen.THROW and ctl.table is not None and ctl.table.seats == {1: "easy"}
    return ctl


def test_the_computers_move_is_done_when_the_board_shows_it(tmp_path: Path) -> None:
    checked: list[Mapping[Square, int]] = []

    def placed(state: State, expected: Mapping[Square, int]) -> Mapping[Square, int]:
        checked.append(expected)
        return expected

    camera = FakeTableCamera(seed=4, placed=placed)
    ctl = computer_game(tmp_path, camera)
    send(ctl, SHAKE, OK)  # Black's enter 4 (read by the camera) played; White's move shown
    assert checked == [{4: 1}]  # the board looked at once, and it showed the move: made
    assert ctl.actions[-1].notation == "enter 4"  # type: ignore[union-attr]
    assert len(ctl.actions) == 4 and on(ctl) is not Screen.COMPUTER


def test_a_board_that_shows_something_else_after_the_computers_move_is_named(tmp_path: Path) -> None:
    """White's ``enter 4`` (bumping Black's piece) put on 5: named; then set right: made."""
    boards: list[Mapping[Square, int]] = []

    def placed(state: State, expected: Mapping[Square, int]) -> Mapping[Square, int]:
        board: dict[Square, int] = {5: 1} if not boards else dict(expected)
        boards.append(board)
        return board

    said = Recorder()
    worker, results = threaded()
    try:
        ctl = computer_game(tmp_path, FakeTableCamera(seed=6, placed=placed), speaker=said,
                            worker=worker)
        send(ctl, SHAKE)
        send(ctl, results.get(timeout=60))  # the look at Black's enter 4
        send(ctl, OK)  # played: White's throw drawn, its move chosen, on the worker
        while on(ctl) is not Screen.COMPUTER:
            send(ctl, results.get(timeout=60))
        assert ctl.view().lines[1] == "Move its piece, then OK."
        send(ctl, results.get(timeout=60))  # the check: White's piece on 5, not 4
        view = ctl.view()
        assert on(ctl) is Screen.COMPUTER and boards == [{5: 1}]
        assert view.lines[1:] == ("White's piece on 5 belongs on 4.",)
        assert "White's piece on 5 belongs on 4." in said.texts()
        assert len(ctl.actions) == 3  # not made yet
        send(ctl, results.get(timeout=60))  # the next check: the board set right
        assert on(ctl) is not Screen.COMPUTER and len(boards) == 2
        assert ctl.actions[-1].notation == "enter 4"  # type: ignore[union-attr]
    finally:
        worker.close()


def test_with_the_camera_off_ok_makes_the_computers_move(tmp_path: Path) -> None:
    ctl = computer_game(tmp_path, None)
    send(ctl, SHAKE, OK)
    assert on(ctl) is Screen.COMPUTER
    send(ctl, OK)
    assert ctl.actions[-1].notation == "enter 4"  # type: ignore[union-attr]


# ---------------------------------------------------------------------- a real camera's check


class Frames:
    """A camera over a board that shows each of ``frames`` for ``each`` grabs."""

    def __init__(self, frames: list[Pixels], each: int) -> None:
        self.frames, self.each, self.taken = frames, each, 0

    def grab(self) -> Pixels:
        frame = self.frames[min(self.taken // self.each, len(self.frames) - 1)]
        self.taken += 1
        return frame

    def close(self) -> None:
        pass


def test_a_real_camera_waits_for_a_wrong_board_to_stand_and_answers_a_right_one_at_once() -> None:
    state = get_game("senet-tait").new_state()
    layout = layout_for(state)
    fake = FakeCamera(layout)
    expected: dict[Square, int] = {4: 0, 10: 1}
    wrong: dict[Square, int] = {5: 0, 10: 1}
    right = expected
    ticks = iter(range(10_000))
    clock: Callable[[], float] = lambda: next(ticks) * 0.1  # noqa: E731  (each frame 0.1 s)
    source = Frames([fake.photo(wrong, 1).image, fake.photo(right, 2).image], each=40)
    camera = LiveCamera(source, clock=clock, settle=2.0)
    board = camera.check(state, expected, None)
    assert {s: p for s, p in board.items() if p is not None} == wrong
    assert source.taken >= 20  # it stood for 2 s (the frames' clock) before it was said
    board = camera.check(state, expected, wrong)  # waits past the wrong board, then the right
    assert {s: p for s, p in board.items() if p is not None} == right
    assert source.taken <= 40 + 12  # answered as soon as the board was still


def test_the_check_lines_have_german_words() -> None:
    state = get_game("senet-tait").new_state()
    differences = ((5, 0, None), (4, None, 0), (12, None, None), (18, 1, None), (14, None, 1),
                   (20, 0, 1), (22, 1, None), (26, None, 0))
    english = check_lines(state, differences)
    assert english == ("Black's piece on 5 belongs on 4.", "White's piece on 18 belongs on 14.",
                       "White's piece belongs on 20, not Black's.", "Black's piece belongs on 26.",
                       "22 should be empty.")
    with using("de"):
        german = check_lines(state, differences)
        from companion.i18n import _

        titles = [_(t) for t in ("Looking at the board...", "The board matches the game.",
                                 "OK: go on BACK: menu")]
    for en, de in zip((*english, "Looking at the board...", "The board matches the game.",
                       "OK: go on BACK: menu"), (*german, *titles), strict=True):
        assert en != de, en


def labyrinth_with_a_field_of_two() -> tuple[State, Square, int]:
    """A position of a random Labyrinth game with two or more of a player's pieces on
    one of the sanctuaries (1-5, 31, 58: "may be occupied by any number of Athenians at
    the same time", seed 000): the position, the field, the player."""
    rng = random.Random(4)
    state = get_game("labyrinth").new_state()
    while True:
        state.apply(random_action(state, rng.randrange))
        for square, stack in seen_stacks(state).items():
            if stack.count(stack[0]) >= 2 and len(stack) == 2:
                return state, square, stack[0]


def test_the_check_compares_the_pieces_counted_on_a_field_and_says_the_count() -> None:
    """A resumed game's check (check_job, as the box hands it to the worker): one piece on
    a field where the journal has two is named by its count ("2 pieces of Red should be
    on 3, the camera sees 1.", in German too); both pieces there: the board matches."""
    state, square, player = labyrinth_with_a_field_of_two()
    expected = board_of(state)

    def one_short(_state: State, board: Mapping[Square, int]) -> Mapping[Square, int]:
        return dict(board)  # the square's player only: one piece drawn there

    checked = check_job(1, FakeTableCamera(seed=3, placed=one_short), state, expected)
    assert checked.seen is not None and checked.seen[square] == player
    (difference,) = checked.differences
    assert difference.counts() == ((player, 2, 1),)
    name = state.name(player)
    assert check_lines(state, checked.differences) == (
        f"2 pieces of {name} should be on {square}, the camera sees 1.",)
    with using("de"):
        german = check_lines(state, checked.differences)
    assert german[0].startswith("2 Steine von") and german[0].endswith("die Kamera sieht 1.")
    right = check_job(2, FakeTableCamera(seed=3), state, expected)
    assert right.differences == () and right.seen == expected and same_board(right.seen, expected)


def test_a_count_of_none_is_said_as_a_word() -> None:
    """A count that differs on a field of several pieces, where one side's count is
    nought: "No piece of Red should be on 31, the camera sees 1." and "2 pieces of Red
    should be on 31, the camera sees none.", never "0 pieces" (the resume check said
    "0 pieces of Player 1 should be on f9, the camera sees 1.")."""
    state = get_game("labyrinth").new_state(2)
    red, blue = state.name(0), state.name(1)
    extra = Difference(31, 1, 1, seen_stack=(0, 1), expected_stack=(1,))  # a piece of red too many
    gone = Difference(31, 1, 0, seen_stack=(1,), expected_stack=(0, 0, 1))  # both of red's missing
    assert count_lines(state, [extra, gone]) == (
        f"No piece of {red} should be on 31, the camera sees 1.",
        f"2 pieces of {red} should be on 31, the camera sees none.")
    assert not any(blue in line for line in count_lines(state, [extra, gone]))
    with using("de"):
        german = count_lines(state, [extra, gone])
    assert not any(line.startswith("0 ") or line.endswith(" 0.") for line in german), german
