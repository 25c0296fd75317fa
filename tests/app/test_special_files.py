"""Special files where the companion expects a file: never a hang, one clear line.

Issue 22 part 4: every reader opened paths without checking what they named, so a FIFO
named ``*.journal`` in the state folder hung ``companion run`` at start (blocked in
``open()``, deaf to SIGTERM), a FIFO as ``settings.toml``, ``--config``,
``--position``, a board or a deck file hung too, and ``companion journal show
/dev/zero`` read without limit. Each reader is tried here with each kind of special
file in a thread with a timeout, so a hang fails the test instead of hanging it.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import programs
import pytest
from ptyrun import exit_status, read_until, spawn_run

from companion.app import config as cfg
from companion.app.settings import SavedSettings
from companion.cli import main
from companion.journal.store import JournalStore
from companion.rules import BoardDataError, cretan_data, labyrinth_board, senet_sticks_board
from companion.web import view

TIMEOUT = 5.0
"""Seconds a reader may take on a special file before it counts as hung."""
JOURNAL = "20260101-000000-senet-tait.journal"
KINDS = ("fifo", "symlink to a fifo", "/dev/zero", "directory")


def _make(path: Path, kind: str, fifos: list[Path]) -> Path:
    """``path`` made as a special file of ``kind`` (``/dev/zero``: a link to it)."""
    if kind == "fifo":
        os.mkfifo(path)
        fifos.append(path)
    elif kind == "symlink to a fifo":
        target = path.with_name(path.name + ".fifo-target")
        os.mkfifo(target)
        fifos.append(target)
        path.symlink_to(target)
    elif kind == "/dev/zero":
        path.symlink_to("/dev/zero")
    else:
        path.mkdir()
    return path


@pytest.fixture
def fifos() -> Iterator[list[Path]]:
    """FIFOs made by a test; afterwards each is opened for writing once, so a reader
    still blocked in ``open()`` (the bug) gets end-of-file and its thread ends."""
    made: list[Path] = []
    yield made
    for path in made:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:  # no reader waiting: nothing to release
            continue
        os.close(fd)


def _within(call: Callable[[], Any], timeout: float = TIMEOUT) -> tuple[Any, BaseException | None]:
    """``call()`` in a thread: its value or error; fails the test if it takes longer
    than ``timeout`` seconds (a reader blocked on a FIFO or reading ``/dev/zero``)."""
    out: dict[str, Any] = {}

    def run() -> None:
        try:
            out["value"] = call()
        except BaseException as exc:  # handed to the test
            out["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(timeout)
    assert not thread.is_alive(), f"still reading after {timeout} s: it hangs"
    return out.get("value"), out.get("error")


def _one_line_naming(error: BaseException | None, path: Path) -> None:
    assert error is not None, "a special file was accepted"
    message = str(error)
    assert str(path) in message and "\n" not in message.strip(), message


# Readers given a path: each must refuse the special file with one line naming it.
BOARD_READERS: dict[str, Callable[[str], Any]] = {
    "labyrinth board": labyrinth_board.load_board,
    "senet-sticks board": senet_sticks_board.load_board,
    "cretan board": cretan_data.load_board,
    "cretan decks": cretan_data.load_decks,
}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("reader", list(BOARD_READERS))
def test_a_board_or_deck_file_that_is_no_file_is_refused_at_once(
    tmp_path: Path, fifos: list[Path], reader: str, kind: str
) -> None:
    path = _make(tmp_path / "board.toml", kind, fifos)
    _, error = _within(lambda: BOARD_READERS[reader](str(path)))
    assert isinstance(error, BoardDataError)
    _one_line_naming(error, path)
    assert "not a regular file" in str(error)


@pytest.mark.parametrize("kind", KINDS)
def test_a_config_file_that_is_no_file_is_refused_at_once(
    tmp_path: Path, fifos: list[Path], kind: str
) -> None:
    path = _make(tmp_path / "config.toml", kind, fifos)
    _, error = _within(lambda: cfg.load_file(path))
    assert isinstance(error, cfg.ConfigError)
    _one_line_naming(error, path)


@pytest.mark.parametrize("kind", KINDS)
def test_a_position_file_that_is_no_file_is_one_line_of_error(
    tmp_path: Path, fifos: list[Path], kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _make(tmp_path / "position.json", kind, fifos)
    status, error = _within(lambda: main(["rules", "legal", "senet-tait", "--position", str(path)]))
    assert error is None and status == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(path) in err and "not a regular file" in err


@pytest.mark.parametrize("kind", KINDS)
def test_journal_show_of_a_special_file_is_one_line_of_error(
    tmp_path: Path, fifos: list[Path], kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _make(tmp_path / JOURNAL, kind, fifos)
    status, error = _within(lambda: main(["journal", "show", str(path)]))
    assert error is None and status == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(path) in err and "not a regular file" in err


@pytest.mark.parametrize("kind", KINDS)
def test_a_special_file_named_like_a_journal_is_set_aside_at_start(
    tmp_path: Path, fifos: list[Path], kind: str
) -> None:
    path = _make(tmp_path / JOURNAL, kind, fifos)
    survey, error = _within(lambda: JournalStore(tmp_path).survey())
    assert error is None and survey.pending is None
    (problem,) = survey.problems
    assert "not a regular file" in problem.reason and problem.path == path
    assert not os.path.lexists(path)  # renamed *.unusable: reported once, not every start


@pytest.mark.parametrize("kind", KINDS)
def test_journal_list_passes_over_a_special_file(
    tmp_path: Path, fifos: list[Path], kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _make(tmp_path / JOURNAL, kind, fifos)
    status, error = _within(lambda: main(["journal", "list", "--dir", str(tmp_path)]))
    assert error is None and status == 0
    assert "no saved games" in capsys.readouterr().out


@pytest.mark.parametrize("kind", KINDS)
def test_special_saved_settings_are_reported_not_waited_on(
    tmp_path: Path, fifos: list[Path], kind: str
) -> None:
    _make(tmp_path / "settings.toml", kind, fifos)
    loaded, error = _within(lambda: SavedSettings(tmp_path).load())
    assert error is None
    values, problem = loaded
    assert values == {} and problem is not None and "not a regular file" in problem


@pytest.mark.parametrize("kind", KINDS)
def test_the_spectator_page_reads_no_special_file(
    tmp_path: Path, fifos: list[Path], kind: str
) -> None:
    path = _make(tmp_path / JOURNAL, kind, fifos)
    seen, error = _within(lambda: view.read_game(path))
    assert error is None and seen.record is None and "not a regular file" in str(seen.problem)
    live, error = _within(lambda: view.live_html(tmp_path))
    assert error is None and "No game yet" in live


# ------------------------------------------------------------------ whole processes

def test_the_service_starts_beside_fifos_and_stops_on_sigterm(tmp_path: Path, fifos: list[Path]) -> None:
    _make(tmp_path / JOURNAL, "fifo", fifos)
    _make(tmp_path / "settings.toml", "fifo", fifos)
    pid, fd = spawn_run(tmp_path)
    try:
        shown = read_until(fd, b"q=quit", 30)
        assert b"q=quit" in shown, "the service did not reach its first screen"
        os.kill(pid, signal.SIGTERM)
        status = exit_status(pid, 10)
    finally:
        os.close(fd)
    assert status is not None, "SIGTERM did not stop it"


def test_sigterm_during_start_stops_the_service(tmp_path: Path, fifos: list[Path]) -> None:
    _make(tmp_path / JOURNAL, "fifo", fifos)
    pid, fd = spawn_run(tmp_path)
    try:
        time.sleep(3.0)  # importing, reading the configuration and the journals
        os.kill(pid, signal.SIGTERM)
        status = exit_status(pid, 10)
    finally:
        os.close(fd)
    assert status is not None, "SIGTERM during start did not stop it"


def test_journal_show_dev_zero_does_not_read_it() -> None:
    done = programs.run([sys.executable, "-m", "companion", "journal", "show", "/dev/zero"],
                        capture_output=True, text=True, idle=1)
    assert done.returncode == 2
    assert done.stderr == ("companion: error: /dev/zero: not a regular file "
                           "(a character device): not a journal\n")
