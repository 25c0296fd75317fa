"""The journal: append + fsync per action, replay, undo, damaged tails recovered."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest

from companion.journal import store as jr
from companion.rules import Phase, State, get_game, random_action

pytestmark = pytest.mark.real_fsync  # the journal's durability: each fsync as on the box


def play(journal: jr.Journal, state: State, actions: int, seed: int = 3) -> None:
    rng = random.Random(seed)
    for _ in range(actions):
        if state.phase is Phase.OVER:
            return
        action = random_action(state, rng.randrange)
        by = state.player_to_act_name
        events = state.apply(action)
        journal.append(by, action, events)


def begin(tmp_path: Path, actions: int = 40) -> tuple[jr.JournalStore, jr.Journal, State]:
    store = jr.JournalStore(tmp_path)
    game = get_game("senet-tait")
    journal = store.begin(game, 2)
    state = game.new_state()
    play(journal, state, actions)
    return store, journal, state


def test_replay_gives_exactly_the_same_position(tmp_path: Path) -> None:
    store, journal, state = begin(tmp_path)
    journal.close()
    loaded, problems = store.unfinished()
    assert problems == [] and loaded is not None
    assert loaded.state.to_dict() == state.to_dict()
    assert loaded.damage is None and not loaded.ended


def test_every_action_is_flushed_and_fsynced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[int] = []
    real = os.fsync

    def counting_fsync(fd: int) -> None:
        synced.append(fd)
        real(fd)

    monkeypatch.setattr(os, "fsync", counting_fsync)
    _store, journal, _state = begin(tmp_path, actions=10)
    # the first record, the directory entry, then one fsync per action
    assert len(synced) == 2 + 10
    journal.close()


@pytest.mark.parametrize("cut", [1, 5, 30])
def test_a_truncated_tail_is_reported_and_the_prefix_kept(tmp_path: Path, cut: int) -> None:
    store, journal, _state = begin(tmp_path)
    journal.close()
    data = journal.path.read_bytes()
    journal.path.write_bytes(data[:-cut])
    loaded, problems = store.unfinished()
    assert loaded is not None
    assert len(loaded.actions) == 39  # the action being written is lost, no more
    assert problems and "cut short" in problems[0]
    assert (journal.path.parent / (journal.path.name + ".damaged")).read_bytes() == data[:-cut]
    # repaired on disk: reading again finds no damage
    again, problems = store.unfinished()
    assert again is not None and again.damage is None and len(again.actions) == 39


def test_a_corrupt_line_in_the_middle_keeps_what_came_before(tmp_path: Path) -> None:
    store, journal, _state = begin(tmp_path)
    journal.close()
    lines = journal.path.read_bytes().split(b"\n")
    lines[11] = lines[11].replace(b'"n":11', b'"n":12')  # a flipped byte: checksum fails
    journal.path.write_bytes(b"\n".join(lines))
    loaded, problems = store.unfinished()
    assert loaded is not None and len(loaded.actions) == 10
    assert "line 12: checksum mismatch" in problems[0]


def test_an_unusable_journal_is_reported_not_raised(tmp_path: Path) -> None:
    (tmp_path / "20260101-000000-senet-tait.journal").write_bytes(b"\x00\x01garbage")
    store = jr.JournalStore(tmp_path)
    loaded, problems = store.unfinished()
    assert loaded is None and "no usable first record" in problems[0]


def test_undo_and_end_are_replayed(tmp_path: Path) -> None:
    store, journal, _state = begin(tmp_path, actions=12)
    journal.undo(2)
    journal.close()
    loaded, _ = store.unfinished()
    assert loaded is not None and len(loaded.actions) == 10
    reopened = store.reopen(loaded)
    reopened.end("abandoned", [])
    reopened.close()
    loaded, _ = store.unfinished()
    assert loaded is None  # the newest game has ended: nothing to resume


def test_lines_carry_a_checksum_and_compact_json() -> None:
    line = jr.encode({"undo": 1})
    assert line.endswith(b'{"undo":1}\n')
    assert jr.decode(line[:-1]) == {"undo": 1}
    with pytest.raises(ValueError, match="checksum"):
        jr.decode(line[:-2] + b"2")


# --- hardening (issue 11) ---------------------------------------------------------


def line_with_checksum(body: bytes) -> bytes:
    """A journal line whose checksum is right, whatever its body holds."""
    import zlib

    return b"%08x %s\n" % (zlib.crc32(body), body)


DEEP = b'{"n":4,"by":"Black","move":' + b"[" * 20_000 + b"]" * 20_000 + b"}"
"""Nested far past Python's recursion limit, yet under the journal's line length."""


def written(tmp_path: Path, actions: int = 6) -> tuple[jr.JournalStore, Path, bytes]:
    store, journal, _state = begin(tmp_path, actions)
    journal.close()
    return store, journal.path, journal.path.read_bytes()


def copies(path: Path, suffix: str) -> list[Path]:
    return sorted(path.parent.glob(path.name + suffix + "*"))


@pytest.mark.parametrize(
    ("body", "why"),
    [
        (DEEP, "nested over 16 deep"),
        (DEEP.replace(b"[" * 20_000, b"[" * 100_000).replace(b"]" * 20_000, b"]" * 100_000),
         "a line of 200037 bytes"),
        (b'{"n":4,"by":"Black","move":"' + b"x" * 70_000 + b'"}', "a line of 70039 bytes"),
        (b'{"n":4,"by":"Black","move":' + b"9" * 5000 + b"}", "too many digits"),
        (b'{"undo":NaN}', "NaN is not allowed"),
        (b'{"undo":1e999}', "too large"),
        (b'{"undo":true}', "cannot undo True actions"),
        (b'{"n":4,"by":"caf\xe9"}', "codec can't decode"),
        (b'{"n":4,"by":"Black","throw":{"implement":"4 sticks","faces":[[],{}]}}', "line 5"),
    ],
    ids=["deep", "deep-and-long", "long", "digits", "nan", "overflow", "bool", "latin-1", "faces"],
)
def test_a_record_the_loader_cannot_take_makes_the_journal_damaged(
    tmp_path: Path, body: bytes, why: str
) -> None:
    """Was (deep): RecursionError from the loader, so `companion run` failed at every
    start before drawing anything; (long, digits): no bound at all."""
    store, path, data = written(tmp_path, actions=3)
    path.write_bytes(data + line_with_checksum(body))
    damaged = path.read_bytes()
    found = store.survey()
    assert found.pending is not None and len(found.pending.actions) == 3
    (problem,) = found.problems
    assert problem.kind is jr.ProblemKind.REPAIRED and problem.title == "Journal repaired"
    assert "line 5" in problem.reason and why in problem.reason  # the first record is line 1
    assert problem.kept is not None and problem.kept.read_bytes() == damaged
    assert path.read_bytes() == data


def test_a_first_record_the_loader_cannot_take_sets_the_journal_aside(tmp_path: Path) -> None:
    path = tmp_path / "20260101-000000-senet-tait.journal"
    path.write_bytes(line_with_checksum(DEEP))
    store = jr.JournalStore(tmp_path)
    found = store.survey()
    assert found.pending is None
    (problem,) = found.problems
    assert problem.kind is jr.ProblemKind.SET_ASIDE
    assert problem.kept == tmp_path / (path.name + ".unusable")
    assert problem.kept.read_bytes() == line_with_checksum(DEEP) and not path.exists()


@pytest.mark.parametrize(
    "options",
    [{"board": "/dev/zero"}, {"board": {}}, {"sticks": [1]}, {"no-such-option": 1}],
)
def test_a_first_record_with_options_no_game_takes_is_set_aside(tmp_path: Path, options: object) -> None:
    import json

    header = {"format": jr.FORMAT, "version": 1, "game": "labyrinth", "options": options, "players": 2}
    path = tmp_path / "20260101-000000-labyrinth.journal"
    path.write_bytes(line_with_checksum(json.dumps(header).encode()))
    (problem,) = jr.JournalStore(tmp_path).survey().problems
    assert problem.kind is jr.ProblemKind.SET_ASIDE and "\n" not in str(problem)


def test_a_second_repair_never_overwrites_the_first_copy(tmp_path: Path) -> None:
    """Was: the second repair wrote `*.damaged` again, and the actions after the bad line
    in the middle, which lived only in the first copy, were gone from the disk."""
    store, path, data = written(tmp_path, actions=20)
    lines = data.split(b"\n")
    lines[8] = lines[8].replace(b'"n":', b'"N":')  # mid-file damage: checksum fails
    first_original = b"\n".join(lines)
    path.write_bytes(first_original)
    first = store.survey()
    assert first.pending is not None and len(first.pending.actions) == 7
    journal = store.reopen(first.pending)
    journal.undo(1)
    journal.close()
    with path.open("ab") as fh:  # a torn write later
        fh.write(b'0badc0de {"n":8,"by')
    second_original = path.read_bytes()
    second = store.survey()
    assert second.pending is not None
    assert [p.kept for p in second.problems] == [path.with_name(path.name + ".damaged.1")]
    assert path.with_name(path.name + ".damaged").read_bytes() == first_original
    assert path.with_name(path.name + ".damaged.1").read_bytes() == second_original


def test_the_copy_and_its_directory_are_synced_before_the_journal_is_cut(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Was: the copy was written without fsync: a power cut right after a repair could
    lose the only copy of the lines cut off."""
    store, path, data = written(tmp_path, actions=6)
    path.write_bytes(data[:-5])
    steps: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        steps.append("fsync " + os.path.basename(os.readlink(f"/proc/self/fd/{fd}")))
        real_fsync(fd)

    def replace(src: Any, dst: Any) -> None:
        steps.append(f"replace {os.path.basename(src)}")
        real_replace(src, dst)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    store.survey()
    cut = steps.index(f"replace {path.name}.tmp")
    assert steps[:cut].index(f"fsync {path.name}.damaged") < steps[:cut].index(f"fsync {tmp_path.name}")


def test_a_tail_the_full_disk_could_not_repair_is_copied_before_it_is_cut(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, path, data = written(tmp_path, actions=20)
    lines = data.split(b"\n")
    lines[8] = lines[8].replace(b'"n":', b'"N":')
    damaged = b"\n".join(lines)
    path.write_bytes(damaged)
    real_fsync = os.fsync

    def full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    found = store.survey()
    assert found.pending is not None and path.read_bytes() == damaged  # not cut yet
    (problem,) = found.problems
    assert problem.kind is jr.ProblemKind.DAMAGED and problem.title == "Journal damaged"
    assert copies(path, ".damaged") == []  # the half-written copy was removed
    monkeypatch.setattr(os, "fsync", real_fsync)
    store.reopen(found.pending).close()
    assert path.with_name(path.name + ".damaged").read_bytes() == damaged
    assert path.read_bytes() == b"\n".join(lines[:8]) + b"\n"


def test_an_unusable_journal_says_it_was_set_aside_not_repaired(tmp_path: Path) -> None:
    """Was: an empty journal set aside as `*.unusable` was shown under "Journal repaired"."""
    path = tmp_path / "20260101-000000-senet-tait.journal"
    path.write_bytes(b"")
    found = jr.JournalStore(tmp_path).survey()
    (problem,) = found.problems
    assert problem.title == "Journal set aside"
    assert problem.lines == (
        f"{path.name}: empty: no usable first record",
        f"Nothing could be repaired; set aside as {path.name}.unusable.",
    )
    _loaded, said = jr.JournalStore(tmp_path).unfinished()
    assert said == []  # reported once: it is no longer a journal


def test_the_problems_in_words_say_what_was_done(tmp_path: Path) -> None:
    """`unfinished()` (what the controller shows today) says set aside or repaired."""
    (tmp_path / "20260101-000000-senet-tait.journal").write_bytes(b"")
    store, path, data = written(tmp_path / "b", actions=6)
    _loaded, said = jr.JournalStore(tmp_path).unfinished()
    assert said == ["20260101-000000-senet-tait.journal: empty: no usable first record "
                    "Nothing could be repaired; set aside as 20260101-000000-senet-tait.journal.unusable."]
    path.write_bytes(data[:-3])
    _loaded, said = store.unfinished()
    assert said[0].endswith("the last line (7) was cut short; 5 action(s) kept.")


def test_a_set_aside_file_is_never_overwritten(tmp_path: Path) -> None:
    """A Pi without a clock can begin two games under one name; both, unusable, are kept."""
    path = tmp_path / "20260101-000000-senet-tait.journal"
    store = jr.JournalStore(tmp_path)
    path.write_bytes(b"first")
    store.survey()
    path.write_bytes(b"second")
    (problem,) = store.survey().problems
    assert problem.kept == tmp_path / (path.name + ".unusable.1")
    assert (tmp_path / (path.name + ".unusable")).read_bytes() == b"first"
    assert problem.kept.read_bytes() == b"second"


def test_a_new_game_does_not_take_the_name_of_a_set_aside_one(tmp_path: Path) -> None:
    (tmp_path / "29990101-000000-senet-tait.journal.unusable").write_bytes(b"")
    journal = jr.JournalStore(tmp_path).begin(get_game("senet-tait"), 2)
    journal.close()
    assert journal.path.name == "29990101-000001-senet-tait.journal"


def test_a_record_too_long_to_read_back_is_not_written(tmp_path: Path) -> None:
    _store, journal, _state = begin(tmp_path, actions=2)
    before = journal.path.read_bytes()
    with pytest.raises(OSError, match="over the journal's 65536"):
        journal.end("x" * jr.MAX_LINE_BYTES, [])
    journal.close()
    assert journal.path.read_bytes() == before


def test_a_file_too_big_to_be_a_journal_is_set_aside_unread(tmp_path: Path) -> None:
    path = tmp_path / "20260101-000000-senet-tait.journal"
    with path.open("wb") as fh:
        fh.truncate(jr.MAX_FILE_BYTES + 1)  # sparse: no disk used
    (problem,) = jr.JournalStore(tmp_path).survey().problems
    assert problem.kind is jr.ProblemKind.SET_ASIDE and "larger than 32 MiB" in problem.reason


def test_the_companion_starts_and_plays_beside_a_journal_nested_too_deeply(tmp_path: Path) -> None:
    """Was: the start-up search raised RecursionError, so `companion run` failed at every
    start before drawing anything. The whole service through the mock pins (the demo)."""
    from companion.sim.demo import play as demo

    bad = tmp_path / "20260101-000000-senet-tait.journal"
    bad.write_bytes(line_with_checksum(DEEP.replace(b'"n":4,"by":"Black","move":', b'"format":')))
    result = demo(tmp_path, seed=1)
    assert result.record[-1].startswith("winner: ")
    assert (tmp_path / (bad.name + ".unusable")).read_bytes() == line_with_checksum(
        DEEP.replace(b'"n":4,"by":"Black","move":', b'"format":')
    )
