"""A box's table for the club's tests: games written to a journal folder by the
companion's own journal writer (:class:`companion.journal.store.JournalStore`), a few
random legal actions at a time, as the referee writes them during a game; and
``companion publish`` run as its own process, as its systemd unit runs it."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from broker import HOST, Broker

from companion.journal.store import Journal, JournalStore
from companion.rules import Phase, State, get_game
from companion.rules.core import random_action


@pytest.fixture
def no_fsync(monkeypatch: pytest.MonkeyPatch) -> None:
    """Journals written by the test without ``fsync`` (hundreds per game, seconds on a
    slow disk): what is tested is what the publisher reads, not the disk."""
    monkeypatch.setattr(os, "fsync", lambda fd: None)


class Table:
    """One box's games, played by random legal actions (``seed``: the same games each
    run). The computer plays seat 1 at level ``normal``."""

    def __init__(self, directory: Path, game_id: str = "senet-tait", seed: int = 1) -> None:
        self.store = JournalStore(directory)
        self.game = get_game(game_id)
        self.players = self.game.min_players
        self.rng = random.Random(seed)
        self.journal: Journal | None = None
        self.state: State | None = None

    def new_game(self, people: dict[int, str] | None = None) -> Path:
        """Begin a game (its journal's first record written; ``people``: the roster's
        persons at the human seats); returns the journal."""
        self.journal = self.store.begin(self.game, self.players, seats={1: "normal"},
                                        people=people)
        self.state = self.game.new_state(self.players)
        return self.journal.path

    def play(self, actions: int) -> bool:
        """Make up to ``actions`` actions; True when the game is over (its end written)."""
        assert self.journal is not None and self.state is not None
        for _ in range(actions):
            if self.state.phase is Phase.OVER:
                break
            who = self.state.player_to_act_name
            action = random_action(self.state, self.rng.randrange)
            events = self.state.apply(action)
            self.journal.append(who, action, list(events))
        if self.state.phase is Phase.OVER:
            outcome = self.state.outcome
            assert outcome is not None
            self.journal.end("won", [self.game.player_name(w, self.players)
                                     for w in outcome.winners])
            self.journal.close()
            return True
        return False

    def finish(self) -> str:
        """Play the game to its end; the winner's name."""
        while not self.play(50):
            pass
        assert self.state is not None and self.state.outcome is not None
        return self.game.player_name(self.state.outcome.winners[0], self.players)

    @property
    def moves(self) -> int:
        assert self.journal is not None
        return len(self.journal.records)


def club_config(path: Path, broker: Broker, table: str, *, user: str | None = None,
                password: str | None = None, ca: Path | None = None) -> Path:
    """A config file for ``companion publish`` as ``table`` at ``broker`` (the password:
    the broker's for ``user``, default the table; ``""``: no password file)."""
    user = user or table
    password = broker.users.get(user, "") if password is None else password
    lines = ["[club]", f'broker = "{HOST}"', f"port = {broker.port}", f'table = "{table}"',
             "publish = true"]
    if user != table:
        lines.append(f'username = "{user}"')
    if password:
        secret = path.with_name(path.stem + ".password")
        secret.write_text(password + "\n")
        secret.chmod(0o600)
        lines.append(f'password_file = "{secret}"')
    if ca is not None:
        lines.append(f'tls_ca = "{ca}"')
    lines += ["[log]", 'level = "info"']
    path.write_text("\n".join(lines) + "\n")
    return path


class PublishProcess:
    """``python -m companion publish`` as a child process, its output in a log file."""

    def __init__(self, config: Path, journals: Path, state: Path, log: Path) -> None:
        self.args = [sys.executable, "-m", "companion", "publish", "--config", str(config),
                     "--dir", str(journals), "--state-dir", str(state)]
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> PublishProcess:
        env = {k: v for k, v in os.environ.items() if k != "STATE_DIRECTORY"}
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(self.args, stdout=out, stderr=subprocess.STDOUT,
                                            env=env)
        return self

    def kill(self) -> None:
        """A power cut: SIGKILL, nothing saved on the way out."""
        assert self.process is not None
        self.process.kill()
        self.process.wait()
        self.process = None

    def stop(self) -> int:
        """As systemd stops it: SIGTERM; the exit status."""
        if self.process is None:
            return 0
        self.process.send_signal(signal.SIGTERM)
        try:
            status = self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            status = self.process.wait()
        self.process = None
        return status

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_log(self, needle: str, timeout: float = 15.0, count: int = 1) -> None:
        """Wait until the log holds ``needle`` ``count`` times (the log is kept across
        restarts)."""
        deadline = time.monotonic() + timeout
        while self.text().count(needle) < count:
            if time.monotonic() > deadline:
                raise AssertionError(f"{needle!r} not logged within {timeout} s:\n{self.text()}")
            time.sleep(0.1)


class RealClub:
    """The club itself (:class:`companion.club.server.Club` over an SQLite file, and its
    :class:`~companion.club.server.Listener`), in this process: what stores results and
    sends their receipts. ``start``/``stop`` as often as a test likes: the file and the
    persistent session's client id stay."""

    def __init__(self, broker: Broker, path: Path, *, user: str = "club",
                 prefix: str = "board-companion") -> None:
        self.broker = broker
        self.path = path
        self.user = user
        self.prefix = prefix
        self.club: Any = None
        self.listener: Any = None

    def start(self) -> RealClub:
        from companion.club.server import Broker as Address
        from companion.club.server import Club, Listener
        from companion.club.store import ClubStore

        self.club = Club(ClubStore(self.path), self.prefix)
        self.listener = Listener(self.club, Address(
            HOST, self.broker.port, self.user, self.broker.users[self.user], None,
            self.prefix, client_id="club-test"))
        self.listener.start()
        assert self.listener.connected.wait(15), self.broker.log_text()
        return self

    def stop(self) -> None:
        if self.listener is not None:
            self.listener.stop()
            self.club.store.close()
        self.listener = self.club = None

    def ids(self) -> list[str]:
        """The result ids stored (the club's database, read anew)."""
        from companion.club.store import ClubStore

        store = ClubStore(self.path)
        try:
            return store.result_ids()
        finally:
            store.close()
