"""Any sequence of button presses, shakes and device events, for every game: the
controller never raises, every screen renders on both panels, and the journal on disk
always replays to the position on the screen (also across undo and a restart).

The service catches the controller's exceptions and only logs them, so that a bug does
not end a game at the table; these tests feed the controller directly, so that such a
bug fails here instead of hiding in a log.
"""

from __future__ import annotations

import errno
import os
import random
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, tzinfo
from pathlib import Path
from typing import Any

import pytest
from controller_tools import BACK, DOWN, HOLD_BACK, OK, on
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from walkthroughs import scripted_draw

from companion.ai.review import Review
from companion.app.controller import PAUSE_ITEMS, Controller, Screen
from companion.app.events import (
    ButtonEvent,
    ButtonName,
    LoopEvent,
    Press,
    Shaken,
    ShakeStarted,
    SourceFailed,
    SourceStatus,
    ThrowReported,
)
from companion.devices.sources import SOURCE_NAMES
from companion.journal import store as journal_module
from companion.journal.store import JournalStore, load
from companion.rules import Action, Game, Phase, game_ids, get_game
from companion.sim.demo import seeded_draw
from companion.ui.render import render

SIZES = ((128, 64), (128, 32))
EXAMPLES = int(os.environ.get("COMPANION_FUZZ_EXAMPLES", "30"))
"""Scripts per game; set ``COMPANION_FUZZ_EXAMPLES=5000`` to search longer by hand."""
SOURCES = (*SOURCE_NAMES, "elsewhere")
"""Every throw source, and one that is not in use anywhere."""


# ---------------------------------------------------------------- the fuzzer's steps

@dataclass(frozen=True)
class ShakeCurrent:
    """A shake of the source in use (whatever it is by then): the step that makes progress."""


@dataclass(frozen=True)
class Report:
    """A ``ThrowReported`` from ``source``, built when it is sent: ``kind`` ``right`` (the
    implement due, faces it can show), ``wrong-implement``, ``wrong-faces`` or ``garbage``."""

    source: str | None  # None: the source in use
    kind: str
    seed: int


@dataclass(frozen=True)
class Advance:
    """``count`` presses that play on (shake, pick a move, OK), chosen by ``seed``: the
    way deep into a game, to its end, and past it (checked once, after the last)."""

    count: int
    seed: int


@dataclass(frozen=True)
class Restart:
    """The box restarts: a new controller on the same journal directory."""


@dataclass(frozen=True)
class PowerCut:
    """The power goes while the newest journal's last line is written: the line is lost
    (``half``: half of it is on the disk), then the box restarts."""

    half: bool


@dataclass(frozen=True)
class Disk:
    """The journal's disk fills up (``ok`` False: every fsync fails) or has room again."""

    ok: bool


Step = LoopEvent | ShakeCurrent | Report | Advance | Restart | PowerCut | Disk

buttons = st.builds(ButtonEvent, st.sampled_from(ButtonName), st.sampled_from(Press))
progress = st.sampled_from([
    ButtonEvent(ButtonName.OK, Press.PRESSED), ShakeCurrent(),
    ButtonEvent(ButtonName.THROW, Press.PRESSED), ButtonEvent(ButtonName.DOWN, Press.PRESSED),
    ButtonEvent(ButtonName.BACK, Press.HELD),  # undo
])
device = st.one_of(
    st.builds(Shaken, st.sampled_from(SOURCES)),
    st.builds(ShakeStarted, st.sampled_from(SOURCES)),
    st.builds(SourceStatus, st.sampled_from(SOURCES), st.booleans(), st.sampled_from(["", "unplugged"])),
    st.builds(SourceFailed, st.sampled_from(SOURCES), st.just("no such port")),
    st.builds(Report, st.sampled_from([None, *SOURCES]),
              st.sampled_from(["right", "right", "wrong-implement", "wrong-faces", "garbage"]),
              st.integers(0, 2**16)),
)
menus = st.sampled_from([
    # each pause menu item (Continue, Undo last move, Settings, Game status, End game)
    *[(BACK, *[DOWN] * i, OK) for i in range(len(PAUSE_ITEMS))],
    (BACK, DOWN, DOWN, OK, OK, BACK),     # switch the throw source and go back to the game
    (OK, OK, OK),
    (BACK, *[DOWN] * PAUSE_ITEMS.index("End game"), OK, OK, OK),  # End game; a new one
    (BACK, DOWN, OK, DOWN, OK),           # Undo last move, confirmed (it asks first)
])
steps: st.SearchStrategy[tuple[Step, ...]] = st.one_of(
    progress.map(lambda s: (s,)), progress.map(lambda s: (s,)),
    buttons.map(lambda s: (s,)), buttons.map(lambda s: (s,)), device.map(lambda s: (s,)),
    menus, st.just((Restart(),)), st.builds(Disk, st.booleans()).map(lambda s: (s,)), st.builds(PowerCut, st.booleans()).map(lambda s: (s,)),
    *[st.builds(Advance, st.integers(1, 40), st.integers(0, 2**16)).map(lambda s: (s,))] * 2,
    st.builds(Advance, st.integers(1, 500), st.integers(0, 2**16)).map(lambda s: (s,)),
)


@pytest.fixture
def no_fsync(monkeypatch: pytest.MonkeyPatch) -> None:
    """Journal lines written without waiting for the disk: these tests are about what is
    written, and thousands of fsyncs would make them slow (durability: test_journal.py).
    While ``DISK["ok"]`` is False every fsync fails as a full disk does."""

    def fsync(fd: int) -> None:
        if not DISK["ok"]:
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", fsync)


DISK = {"ok": True}


@pytest.fixture
def quick_review(monkeypatch: pytest.MonkeyPatch) -> None:
    """A review asked for by a random press after the end (BACK, then OK on the pause
    menu's Review) made with the progress evaluation (:func:`companion.ai.evaluate.chances`)
    instead of the computer's learned one: the same review, its pages and their keys,
    with other values. These tests check the screens and the journal, not the review's
    values (tests/ai/test_review.py, tests/app/test_review_box.py); the learned
    evaluation made the review of one random casting-stick game 23 of this file's 34
    CPU s."""
    import companion.ai.review as review_module
    from companion.ai.evaluate import chances

    real = review_module.review

    def review(game: Game, players: int, actions: Sequence[Action], *args: Any, **kwargs: Any) -> Review:
        kwargs.setdefault("evaluation", chances)
        return real(game, players, actions, *args, **kwargs)

    monkeypatch.setattr(review_module, "review", review)


def new_controller(directory: Path, seed: int, source: str, throw_button: bool,
                   size: tuple[int, int]) -> Controller:
    ctl = Controller(store=JournalStore(directory), draw=seeded_draw(seed),
                     sources=list(SOURCE_NAMES), source=source, throw_button=throw_button,
                     size=size)
    ctl.start()
    return ctl


def forward(ctl: Controller, rnd: random.Random) -> LoopEvent:
    """One press that plays on, for the screen shown."""
    if ctl.screen is Screen.THROW:
        return Shaken(ctl.source) if ctl.source != "button" else ButtonEvent(
            ButtonName.THROW if ctl.throw_button else ButtonName.OK, Press.PRESSED)
    if ctl.screen in (Screen.MOVES, Screen.MANUAL) and rnd.random() < 0.5:
        return ButtonEvent(ButtonName.DOWN, Press.PRESSED)
    if ctl.screen is Screen.PAUSE:  # Continue
        return ButtonEvent(ButtonName.UP, Press.REPEAT) if ctl.cursor else ButtonEvent(
            ButtonName.OK, Press.PRESSED)
    if ctl.screen is Screen.OVER:   # stay, to see what can happen after the end
        return ButtonEvent(ButtonName.DOWN, Press.PRESSED)
    return ButtonEvent(ButtonName.OK, Press.PRESSED)


def resolve(ctl: Controller, step: LoopEvent | ShakeCurrent | Report) -> LoopEvent:
    if isinstance(step, ShakeCurrent):
        return Shaken(ctl.source)
    if not isinstance(step, Report):
        return step
    source = step.source or ctl.source
    rnd = random.Random(step.seed)
    spec = ctl.state.throw_spec if ctl.state is not None else None
    if step.kind == "garbage":
        return ThrowReported(source, rnd.choice(["", "4 sticks", "2d6", "deck:x"]),
                             tuple(rnd.choice(["", "L", "D", "7", "x", "3:red"])
                                   for _ in range(rnd.randrange(6))))
    if spec is None:
        return ThrowReported(source, "4 sticks", ("L", "L", "D", "D"))
    if step.kind == "wrong-implement":
        return ThrowReported(source, "1d3" if spec.id != "1d3" else "2d6", ("2",))
    faces = spec.draw(rnd.randrange).faces
    if step.kind == "wrong-faces":
        faces = (*faces, faces[0]) if rnd.random() < 0.5 else tuple("?" for _ in faces)
    return ThrowReported(source, spec.id, faces)


OUTSIDE_A_GAME = (Screen.SPLASH, Screen.RESUME, Screen.MENU, Screen.SETUP)


def cut(directory: Path, half: bool) -> None:
    """Lose the last line (or half of it) of the newest journal, unless it is the first."""
    names = sorted(directory.glob("*.journal"))
    if not names:
        return
    lines = names[-1].read_bytes().splitlines(keepends=True)
    if len(lines) > 1:
        kept = lines[-1][: len(lines[-1]) // 2] if half else b""
        names[-1].write_bytes(b"".join(lines[:-1]) + kept)


@dataclass(frozen=True)
class Replayed:
    """What a journal's bytes replay to (kept by content: replaying is the slow part)."""

    damage: str | None
    position: dict[str, object]
    actions: list[Action]
    records: list[dict[str, object]]
    ended: bool


_replays: dict[bytes, Replayed] = {}


def replayed(path: Path) -> Replayed:
    data = path.read_bytes()
    if data not in _replays:
        if len(_replays) > 64:
            _replays.clear()
        loaded = load(path, repair=False)
        _replays[data] = Replayed(loaded.damage, loaded.state.to_dict(), loaded.actions,
                                  loaded.records, loaded.ended)
    return _replays[data]


def check(ctl: Controller, *, every_journal: bool = True) -> None:
    """What must hold after every event (``every_journal``: also that no game but the
    one played or offered is left unfinished, which a failed disk may not allow)."""
    view = ctl.view()
    if ctl.screen is Screen.MESSAGE:
        assert ctl.message is not None, "an empty message screen"
        assert ctl.return_to is not Screen.MESSAGE, "a message that leads only to itself"
    if ctl.screen in OUTSIDE_A_GAME:
        assert ctl.state is None and ctl.journal is None, f"a game left running behind {ctl.screen}"
    if every_journal:  # at most one game not ended: the one being played or offered
        unfinished = [p for p in ctl.store.directory.glob("*.journal") if not replayed(p).ended]
        assert len(unfinished) <= 1, "a game was left without an end in its journal"
    for size in SIZES:
        render(view, size)
    if ctl.journal is not None:
        assert ctl.state is not None and ctl.game is not None, "a journal open with no game"
        loaded = replayed(ctl.journal.path)
        assert loaded.damage is None
        assert loaded.position == ctl.state.to_dict(), "the journal and the screen disagree"
        assert loaded.actions == ctl.actions
        assert loaded.records == ctl.journal.records
        assert loaded.ended <= (ctl.state.phase is Phase.OVER)
        if every_journal:
            assert loaded.ended == (ctl.state.phase is Phase.OVER)
    if ctl.state is not None:
        assert ctl.journal is not None, "a game on the screen that is not being journalled"
        if ctl.screen is Screen.THROW:
            assert ctl.state.phase is Phase.THROW
        if ctl.screen is Screen.OVER:
            assert ctl.state.phase is Phase.OVER


def run(gid: str, seed: int, source: str, throw_button: bool, size: tuple[int, int],
        setup: list[LoopEvent], script: list[tuple[Step, ...]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        ctl = new_controller(directory, seed, source, throw_button, size)
        # Into a game first (splash, the game in the menu, options and players set with
        # ``setup``, then "Begin"), as players do.
        ok = ButtonEvent(ButtonName.OK, Press.PRESSED)
        down = ButtonEvent(ButtonName.DOWN, Press.PRESSED)
        last = ButtonEvent(ButtonName.DOWN, Press.REPEAT)
        opening: list[Step] = [ok, *[down] * ctl.games.index(gid), ok, *setup, *[last] * 6, ok]
        disk_failed = False
        DISK["ok"] = True
        for step in [*opening, *(s for group in script for s in group)]:
            if isinstance(step, Disk):
                DISK["ok"] = step.ok
                disk_failed |= not step.ok
            elif isinstance(step, Advance):
                rnd = random.Random(step.seed)
                for _ in range(step.count):
                    ctl.handle(forward(ctl, rnd))
            elif isinstance(step, Restart | PowerCut):
                ctl.close()
                if isinstance(step, PowerCut):
                    cut(directory, step.half)
                ctl = new_controller(directory, seed, source, throw_button, size)
                unfinished = [p for p in directory.glob("*.journal")
                              if not load(p, repair=False).ended]
                offered = ctl.pending.path if ctl.pending is not None else None
                assert offered is None or offered in unfinished
                if not disk_failed:
                    assert offered == max(unfinished, default=None), (
                        "the game left unfinished is not offered to resume")
            else:
                ctl.handle(resolve(ctl, step))
            check(ctl, every_journal=not disk_failed)
        DISK["ok"] = True
        ctl.close()


@pytest.mark.parametrize("gid", game_ids())
@pytest.mark.usefixtures("no_fsync")
@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 1000), source=st.sampled_from(SOURCE_NAMES), throw_button=st.booleans(),
       size=st.sampled_from(SIZES),
       setup=st.lists(st.sampled_from([ButtonEvent(ButtonName.UP, Press.PRESSED),
                                       ButtonEvent(ButtonName.OK, Press.PRESSED)]), max_size=8),
       script=st.lists(steps, min_size=3, max_size=60))
# Was (found on senet-sticks, issue 19): an uncaught OSError (ENOSPC) when the computer's
# throw was drawn and journalled inside route() at Resume, the disk full. UP, OK, OK, UP,
# OK seats the computer for the first player. Kept for every game.
@example(seed=0, source="gpio-shaker", throw_button=False, size=(128, 64),
         setup=[ButtonEvent(ButtonName.UP, Press.PRESSED), ButtonEvent(ButtonName.OK, Press.PRESSED),
                ButtonEvent(ButtonName.OK, Press.PRESSED), ButtonEvent(ButtonName.UP, Press.PRESSED),
                ButtonEvent(ButtonName.OK, Press.PRESSED)],
         script=[(Disk(ok=False),), (PowerCut(half=False),), (Advance(count=2, seed=0),)])
def test_no_events_crash_or_part_the_journal_from_the_screen(
    gid: str, seed: int, source: str, throw_button: bool, size: tuple[int, int],
    setup: list[LoopEvent], script: list[tuple[Step, ...]],
) -> None:
    run(gid, seed, source, throw_button, size, setup, script)


# ---------------------------------------------------------------- whole games

@pytest.mark.parametrize("gid", game_ids())
@pytest.mark.parametrize("source", ["gpio-shaker", "manual"])
@pytest.mark.usefixtures("no_fsync", "quick_review")
def test_random_presses_play_every_game_to_its_end(tmp_path: Path, gid: str, source: str) -> None:
    """Presses chosen at random but mostly forward (shake, pick a move, OK) end the game."""
    rnd = random.Random(f"{gid}/{source}")
    ctl = new_controller(tmp_path, 7, source, True, (128, 64))
    for press in [OK, *[DOWN] * ctl.games.index(gid), OK, OK]:
        ctl.handle(press)
    assert ctl.state is not None
    for n in range(20_000):
        if ctl.screen is Screen.OVER:
            break
        roll = rnd.random()
        ev: LoopEvent
        if roll < 0.002:
            ev = HOLD_BACK                # undo, now and then
        elif roll < 0.005:
            ev = BACK                     # the pause menu (forward() continues)
        else:
            ev = forward(ctl, rnd)
        ctl.handle(ev)
        if n % 500 == 0:
            check(ctl, every_journal=False)
    check(ctl)
    assert ctl.screen is Screen.OVER, f"{gid}: no end after {n} presses, on {ctl.screen}"
    assert ctl.journal is not None and load(ctl.journal.path).ended
    assert ctl.view().lines[0].endswith("wins!")
    # After the end: any buttons (undo of the winning move, the pause menu, End game,
    # a new game), each event checked.
    anything: list[LoopEvent | ShakeCurrent] = [ButtonEvent(b, p) for b in ButtonName for p in Press]
    for _ in range(60):
        ctl.handle(resolve(ctl, rnd.choice([*anything, HOLD_BACK, ShakeCurrent()])))
        check(ctl)


# ---------------------------------------------------------------- what the fuzz found


def senet(directory: Path, source: str = "gpio-shaker") -> Controller:
    ctl = new_controller(directory, 1, source, True, (128, 64))
    for ev in [OK, *[DOWN] * ctl.games.index("senet-tait"), OK, OK]:
        ctl.handle(ev)
    assert ctl.screen is Screen.THROW or ctl.screen is Screen.MANUAL
    return ctl


def test_a_message_over_a_message_still_leads_back_to_the_game(tmp_path: Path) -> None:
    """Was: the second message returned to the message screen, which then showed
    nothing and led only to itself: the game could not be reached again."""
    ctl = senet(tmp_path)
    for ev in (SourceFailed("gpio-shaker", "no such port"), SourceFailed("manual", "gone")):
        ctl.handle(ev)
    assert ctl.view().title == "Throw source failed"
    ctl.handle(OK)
    assert ctl.screen is Screen.MANUAL and ctl.view().title == "Black: enter throw"


def test_holding_back_twice_before_any_move_comes_back_to_the_throw(tmp_path: Path) -> None:
    ctl = senet(tmp_path)
    for ev in (HOLD_BACK, HOLD_BACK):
        ctl.handle(ev)
        assert ctl.view().title == "Nothing to undo"
    ctl.handle(OK)
    assert ctl.screen is Screen.THROW


def test_a_message_on_the_settings_screen_does_not_strand_the_game(tmp_path: Path) -> None:
    """Was: a message shown over the settings (opened from the pause menu) made BACK
    leave the settings for the game menu, with the game still open behind it."""
    ctl = senet(tmp_path)
    for ev in (BACK, DOWN, DOWN, OK):   # the pause menu, Settings
        ctl.handle(ev)
    assert ctl.screen is Screen.SETTINGS
    ctl.handle(HOLD_BACK)               # nothing to undo, said over the settings
    ctl.handle(OK)
    assert on(ctl) is Screen.SETTINGS
    ctl.handle(BACK)
    assert on(ctl) is Screen.THROW and ctl.view().lines[0] == "Black to throw: shake!"


class _Frozen(datetime):
    """A clock stopped at one second: every game begins "at the same time"."""

    @classmethod
    def now(cls, tz: tzinfo | None = None) -> _Frozen:
        return cls(2026, 1, 1, 12, 0, 0, tzinfo=tz)


def test_a_game_begun_in_the_same_second_as_the_last_one_is_offered_after_a_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Was: the second journal was named ``...-senet-tait-1.journal``, which sorts before
    ``...-senet-tait.journal``: after a restart the finished first game was taken for
    the newest, and the unfinished second one was not offered."""
    monkeypatch.setattr(journal_module, "datetime", _Frozen)
    ctl = senet(tmp_path)
    for ev in (BACK, *[DOWN] * PAUSE_ITEMS.index("End game"), OK, OK, OK):
        ctl.handle(ev)                  # End game; Senet again, Begin
    assert ctl.journal is not None and ctl.screen is Screen.THROW
    playing = ctl.journal.path
    ctl.close()
    again = new_controller(tmp_path, 1, "gpio-shaker", True, (128, 64))
    assert again.pending is not None and again.pending.path == playing
    again.handle(OK)
    assert again.screen is Screen.RESUME


def test_a_game_begun_after_the_clock_stepped_back_is_offered_after_a_restart(
    tmp_path: Path,
) -> None:
    store = JournalStore(tmp_path)
    finished = store.begin(get_game("senet-tait"), 2)
    finished.end("abandoned", [])
    finished.close()
    finished.path.rename(tmp_path / "20991231-235959-senet-tait.journal")  # the clock was ahead
    ctl = senet(tmp_path)
    assert ctl.journal is not None
    assert ctl.journal.path.name == "21000101-000000-senet-tait.journal"
    playing = ctl.journal.path
    ctl.close()
    again = new_controller(tmp_path, 1, "gpio-shaker", True, (128, 64))
    assert again.pending is not None and again.pending.path == playing


def won_game_without_its_end(directory: Path) -> Path:
    """A Senet game played to its end, whose end record the power cut took."""
    ctl = senet(directory)
    rnd = random.Random(3)
    while ctl.screen is not Screen.OVER:
        ctl.handle(forward(ctl, rnd))
    assert ctl.journal is not None
    path = ctl.journal.path
    ctl.close()
    lines = path.read_bytes().splitlines(keepends=True)
    assert b'"end":"won"' in lines[-1]
    path.write_bytes(b"".join(lines[:-1]))
    return path


@pytest.mark.usefixtures("no_fsync")
@pytest.mark.parametrize("choice", ["Resume", "New game"])
def test_a_won_game_whose_end_was_not_saved_is_ended_when_offered(
    tmp_path: Path, choice: str,
) -> None:
    """Was: resuming showed "Game over" and OK left it unended, so every start offered
    the finished game again; "New game" recorded the won game as abandoned."""
    path = won_game_without_its_end(tmp_path)
    ctl = new_controller(tmp_path, 1, "gpio-shaker", True, (128, 64))
    assert ctl.pending is not None and ctl.pending.path == path
    ctl.handle(OK)
    assert ctl.view().items == ("Resume", "New game") and ctl.view().lines[1] == "over"
    if choice == "New game":
        ctl.handle(DOWN)
    ctl.handle(OK)
    if choice == "Resume":
        assert on(ctl) is Screen.BOARD        # the position first, to check the board by
        ctl.handle(OK)
        assert on(ctl) is Screen.OVER and ctl.view().lines[0].endswith("wins!")
        ctl.handle(OK)
    assert on(ctl) is Screen.MENU
    ended = load(path, repair=False)
    assert ended.ended and ended.header["game"] == "senet-tait"
    assert b'"end":"won"' in path.read_bytes().splitlines()[-1]
    assert new_controller(tmp_path, 1, "gpio-shaker", True, (128, 64)).pending is None


@pytest.mark.usefixtures("no_fsync")
def test_a_throw_the_full_disk_could_not_save_leaves_no_trace_in_the_journal(
    tmp_path: Path,
) -> None:
    """Was: the failed line stayed in the file (or in the file's buffer, to go out with
    the next one): the journal then held a throw the game had not made, and reading it
    back stopped there, losing every later move."""
    ctl = senet(tmp_path)
    assert ctl.journal is not None
    header = ctl.journal.path.read_bytes()
    DISK["ok"] = False
    try:
        ctl.handle(Shaken("gpio-shaker"))
        assert ctl.view().title == "Cannot save" and ctl.actions == []
        assert ctl.journal.path.read_bytes() == header
    finally:
        DISK["ok"] = True
    ctl.handle(OK)
    assert on(ctl) is Screen.THROW
    ctl.handle(Shaken("gpio-shaker"))
    assert on(ctl) in (Screen.MOVES, Screen.LOST) and len(ctl.actions) == 1
    assert ctl.state is not None
    assert load(ctl.journal.path, repair=False).state.to_dict() == ctl.state.to_dict()


@pytest.mark.usefixtures("no_fsync")
def test_ending_a_game_on_a_full_disk_says_so_and_offers_the_game_again(tmp_path: Path) -> None:
    """Was: the disk's error escaped the controller (the service only logged it)."""
    ctl = senet(tmp_path)
    DISK["ok"] = False
    try:
        for ev in (BACK, *[DOWN] * PAUSE_ITEMS.index("End game"), OK, DOWN, OK):  # confirmed
            ctl.handle(ev)
    finally:
        DISK["ok"] = True
    assert ctl.view().title == "Cannot save"
    assert "The game is offered again at the next start." in ctl.view().lines
    ctl.handle(OK)
    assert on(ctl) is Screen.MENU and ctl.journal is None
    assert new_controller(tmp_path, 1, "gpio-shaker", True, (128, 64)).pending is not None


def test_a_message_over_the_events_screen_leaves_the_events_to_be_read(tmp_path: Path) -> None:
    """Was: OK on the message went past the events (here: Black throws again) unread."""
    ctl = Controller(store=JournalStore(tmp_path), draw=scripted_draw(["6"]),
                     sources=list(SOURCE_NAMES), source="gpio-shaker")
    ctl.start()
    opening: list[LoopEvent] = [OK, *[DOWN] * ctl.games.index("senet-tait"), OK, OK,
                            Shaken("gpio-shaker"), OK]   # Black throws a six and enters
    for ev in opening:
        ctl.handle(ev)
    assert on(ctl) is Screen.EVENTS
    shown = ctl.view()
    ctl.handle(SourceFailed("gpio-shaker", "the shaker is unplugged"))
    assert ctl.view().title == "Throw source failed"
    ctl.handle(OK)
    assert ctl.view() == shown
    ctl.handle(OK)
    assert on(ctl) is Screen.MANUAL   # Black throws again, by hand now


@pytest.mark.usefixtures("no_fsync")
def test_a_line_cut_short_on_a_full_disk_is_cut_off_when_the_game_resumes(tmp_path: Path) -> None:
    """Was: the repair could not be written, so the journal was set aside as unusable
    and the game was not offered; had it been, the next record would have been glued
    to the half line and lost at the next start."""
    ctl = senet(tmp_path)
    ctl.handle(Shaken("gpio-shaker"))
    assert ctl.journal is not None
    path = ctl.journal.path
    ctl.close()
    with path.open("ab") as fh:   # the power went while the next line was written
        fh.write(b'1234abcd {"n":2,"by":"Bl')
    DISK["ok"] = False
    try:
        again = new_controller(tmp_path, 1, "gpio-shaker", True, (128, 64))
    finally:
        DISK["ok"] = True
    assert again.pending is not None and again.pending.path == path
    assert len(again.pending.actions) == 1 and again.problems
    for ev in (OK, OK, OK, OK):   # the report of the damage, the splash, the offer: Resume
        again.handle(ev)
    assert again.state is not None and again.journal is not None
    while again.screen is not Screen.THROW:
        again.handle(OK)
    again.handle(Shaken("gpio-shaker"))
    assert load(path, repair=False).damage is None
    assert load(path).state.to_dict() == again.state.to_dict()
