"""Random and mutated files for every reader of a file a person can edit or a power cut
can damage (issue 11): the config reader, the position reader, the board and deck
readers, the journal loader. Whatever a file holds, the answer is the value or one
documented error in one line naming the file, never a traceback, and nothing on
disk is lost.

Mutations start from real files (the packaged boards and decks, the shipped config, the
positions and a journal of short games) and flip, cut, duplicate and insert bytes,
including what broke the readers before: non-UTF-8 bytes, ``nan`` and ``inf``, numbers
of thousands of digits, brackets thousands deep, other scripts' digits. Journal lines
are also mutated inside their JSON with the checksum made right again, so the loader
sees records that pass the checksum. Bounded: 100 examples each, about 4 s in all.
"""

from __future__ import annotations

import json
import random
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from companion.app import config as cfg
from companion.app.doctor import check_games
from companion.cli import UsageError, _read_position
from companion.journal import store as jr
from companion.rules import (
    BoardDataError,
    Phase,
    cretan_data,
    game_ids,
    get_game,
    labyrinth_board,
    random_action,
    senet_sticks_board,
)

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "companion" / "rules" / "data"
EXAMPLES = 100
SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

SPECIAL = [  # what broke a reader before, then other tokens that matter to a parser
    b"9" * 5000, b"[" * 3000 + b"]" * 3000, b'{"a":' * 3000, b"{a=" * 500 + b"1" + b"}" * 500,
    b"nan", b"inf", b"-inf", b"+nan", b"1e999", b"NaN", b"Infinity", b"-Infinity",
    "\u00b2".encode(), "\u0663".encode(), "\uff13".encode(), b"\xff\xfe", b"\xe9", b"\x00", b"\xef\xbb\xbf",
    b"]" * 50, b"}", b'"', b"'", b"\\", b"\n", b"\r\n", b"=", b"#", b"[[", b"]]", b",", b":",
    b"0x10", b"-0", b"1_0", b"true", b"null", b"[]", b"{}", b'""', b"1.5", b"-1",
    b"99999999999999999999",
]


@st.composite
def mutated(draw: st.DrawFn, samples: list[bytes]) -> bytes:
    """One of ``samples`` with one key's value replaced by a special token (``key =
    nan``, ``"players": 1e999``), or with 1-3 byte-level mutations. The choices come
    from a Random that Hypothesis seeds: uniform, where Hypothesis's own draws favour
    the simplest (and would seldom reach the special tokens)."""
    rnd = draw(st.randoms(use_true_random=True))
    data = bytearray(rnd.choice(samples))
    marks = [k + 1 for k, byte in enumerate(data) if byte in b"=:"]
    if marks and rnd.random() < 0.5:
        start = rnd.choice(marks)
        end = start + 1
        while end < len(data) and data[end] not in b"\n,}]":
            end += 1
        data[start:end] = b" " + rnd.choice(SPECIAL)
        return bytes(data)
    for _ in range(rnd.randint(1, 3)):
        op = rnd.choice(["special", "flip", "delete", "insert", "cut", "copy"])
        i = rnd.randint(0, len(data))
        if op == "special":
            data[i:i] = rnd.choice(SPECIAL)
        elif op == "flip" and i < len(data):
            data[i] = rnd.randrange(256)
        elif op == "delete":
            del data[i:i + rnd.randint(1, 40)]
        elif op == "insert":
            data[i:i] = rnd.randbytes(rnd.randint(1, 12))
        elif op == "cut":
            del data[i:]
        elif op == "copy" and data:
            j = rnd.randrange(len(data))
            data[i:i] = data[j:j + rnd.randint(1, 200)]
    return bytes(data)


@st.composite
def files(draw: st.DrawFn, samples: list[bytes]) -> bytes:
    """Mostly mutations of real files (they get past a reader's first checks), else
    random bytes or random UTF-8 text."""
    rnd = draw(st.randoms(use_true_random=True))
    roll = rnd.random()
    if roll < 0.1:
        return rnd.randbytes(rnd.randint(0, 200))
    if roll < 0.2:
        return "".join(chr(rnd.choice([rnd.randint(32, 126), rnd.randint(0, 0x2FFF)]))
                       for _ in range(rnd.randint(0, 200))).encode("utf-8", "replace")
    return draw(mutated(samples))


def one_line_naming(message: str, path: Path) -> None:
    assert message.startswith(str(path)), message
    assert "\n" not in message, message


# --- the config reader -------------------------------------------------------------

CONFIGS = [
    (REPO / "systemd" / "config.toml").read_bytes(),
    cfg.to_toml(cfg.defaults()).encode(),
]


@SETTINGS
@given(data=files(CONFIGS))
@example(data=b'[display]\nwidth = 7\nheight = 9\n[shaker]\nquiet = 1e999\n')  # three at once
def test_any_config_file_is_read_or_refused_in_one_line_per_mistake(tmp_path: Path, data: bytes) -> None:
    """A config file is read, or refused with one line per mistake, each naming the file
    (issue 35: every mistake is named, not the first alone)."""
    path = tmp_path / "config.toml"
    path.write_bytes(data)
    try:
        values = cfg.load_file(path)
    except cfg.ConfigError as exc:
        lines = str(exc).split("\n")
        assert len(lines) == len(exc.errors), str(exc)
        for line, error in zip(lines, exc.errors, strict=True):
            one_line_naming(line, path)
            one_line_naming(str(error), path)
    else:
        for key, value in values.items():  # what is taken is in range, nan never
            if value is not None:  # None: a pin not wired
                assert value == cfg.BY_NAME[key].parse(value, "again"), key
    assert path.read_bytes() == data


# --- the board and deck readers ------------------------------------------------------

BOARD_READERS: dict[str, tuple[Callable[[str], Any], bytes]] = {
    "labyrinth": (labyrinth_board.load_board, (DATA / "labyrinth.toml").read_bytes()),
    "senet-sticks": (senet_sticks_board.load_board, (DATA / "senet_sticks.toml").read_bytes()),
    "cretan-board": (cretan_data.load_board, (DATA / "cretan_labyrinth.toml").read_bytes()),
    "cretan-decks": (cretan_data.load_decks, (DATA / "cretan_decks.toml").read_bytes()),
}


@pytest.mark.parametrize("reader", BOARD_READERS)
def test_any_board_or_deck_file_is_read_or_refused_in_one_line(tmp_path: Path, reader: str) -> None:
    load, sample = BOARD_READERS[reader]

    @SETTINGS
    @given(data=files([sample]))
    def check(data: bytes) -> None:
        path = tmp_path / "mine.toml"
        path.write_bytes(data)
        try:
            load(str(path))
        except BoardDataError as exc:
            one_line_naming(str(exc), path)
        assert path.read_bytes() == data

    check()


# --- the position reader ---------------------------------------------------------------


def _positions() -> list[bytes]:
    rng = random.Random(11)
    out = []
    for gid in game_ids():
        state = get_game(gid).new_state()
        for step in range(40):
            if step % 13 == 0:
                out.append(json.dumps(state.to_dict(), indent=1).encode())
            if state.phase is Phase.OVER:
                break
            state.apply(random_action(state, rng.randrange))
    return out


POSITIONS = _positions()


@SETTINGS
@given(data=files(POSITIONS), game=st.sampled_from(game_ids()))
def test_any_position_file_is_read_or_refused_in_one_line(tmp_path: Path, data: bytes, game: str) -> None:
    path = tmp_path / "position.json"
    path.write_bytes(data)
    try:
        state = _read_position(str(path), game)
    except UsageError as exc:
        one_line_naming(str(exc), path)
    else:
        assert state.game.id == game
        json.dumps(state.to_dict(), allow_nan=False)  # what was taken writes back as JSON
    assert path.read_bytes() == data


# --- the journal loader -------------------------------------------------------------------


def _journal(tmp: Path, gid: str, actions: int) -> bytes:
    store = jr.JournalStore(tmp)
    game = get_game(gid)
    state = game.new_state()
    journal = store.begin(game, state.players)
    rng = random.Random(5)
    for _ in range(actions):
        if state.phase is Phase.OVER:
            break
        by = state.player_to_act_name
        action = random_action(state, rng.randrange)
        journal.append(by, action, state.apply(action))
    journal.undo(1)
    journal.close()
    data = journal.path.read_bytes()
    journal.path.unlink()
    return data


@pytest.fixture(scope="module")
def journals(tmp_path_factory: pytest.TempPathFactory) -> list[bytes]:
    tmp = tmp_path_factory.mktemp("journals")
    return [_journal(tmp / gid, gid, 12) for gid in game_ids()]


def with_checksum(body: bytes) -> bytes:
    return b"%08x %s" % (zlib.crc32(body), body)


@st.composite
def journal_files(draw: st.DrawFn, samples: list[bytes]) -> bytes:
    """A journal mutated as bytes (a third), or with one line's JSON mutated and its
    checksum made right again, so that the loader reads what is in it."""
    rnd = draw(st.randoms(use_true_random=True))
    if rnd.random() < 0.33:
        return draw(files(samples))
    lines = rnd.choice(samples).split(b"\n")
    i = rnd.randrange(len(lines) - 1)
    body = lines[i].partition(b" ")[2]
    lines[i] = with_checksum(draw(mutated([body])))
    return b"\n".join(lines)


@pytest.mark.usefixtures("no_fsync")
def test_any_journal_is_loaded_or_set_aside_and_nothing_is_lost(
    tmp_path: Path, journals: list[bytes]
) -> None:
    counter = iter(range(10**6))

    @SETTINGS
    @given(data=journal_files(journals))
    def check(data: bytes) -> None:
        directory = tmp_path / str(next(counter))
        directory.mkdir()
        path = directory / "20260101-000000-game.journal"
        path.write_bytes(data)
        assert check_games({"journal.dir": str(directory)}).what == "saved games"
        assert path.read_bytes() == data  # the doctor only reads
        found = jr.JournalStore(directory).survey()  # never raises
        kept = {p.name: p.read_bytes() for p in directory.iterdir()}
        if not found.problems:
            assert kept == {path.name: data}
            return
        (problem,) = found.problems
        assert problem.path == path and "\n" not in str(problem)
        assert problem.kept is not None and kept[problem.kept.name] == data  # the original
        if problem.kind is jr.ProblemKind.REPAIRED:
            assert found.pending is not None or path.exists()
            assert data.startswith(kept[path.name])  # the intact prefix
        else:
            assert problem.kind is jr.ProblemKind.SET_ASIDE and not path.exists()

    check()


@pytest.fixture
def no_fsync(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hundreds of journals: durability is test_journal.py's subject, not this one's."""
    import os

    monkeypatch.setattr(os, "fsync", lambda fd: None)
