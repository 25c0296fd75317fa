"""The journal: append + fsync per action, replay, undo, damaged tails recovered."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest

from companion.app import journal as jr
from companion.rules import Phase, State, get_game


def play(journal: jr.Journal, state: State, actions: int, seed: int = 3) -> None:
    rng = random.Random(seed)
    for _ in range(actions):
        if state.phase is Phase.OVER:
            return
        spec = state.throw_spec
        if spec is not None:
            action: Any = spec.draw(rng.randrange)
        else:
            moves = state.legal_moves()
            action = moves[rng.randrange(len(moves))]
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
