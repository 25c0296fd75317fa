"""Whole games for the club's tests and benchmarks/club_load.py: played by the rules
engine with seeded random throws and moves, written as real journals
(:class:`companion.journal.store.JournalStore`), and turned into the wire protocol's
payloads by :mod:`companion.club.protocol` exactly as a box's publisher does."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.club import protocol
from companion.journal.store import JournalStore, Loaded, load
from companion.rules import get_game, random_action

GAMES = ("senet-tait", "senet-sticks", "labyrinth", "cretan-labyrinth")
MAX_ACTIONS = 4000


@dataclass(frozen=True)
class Played:
    """A finished journal: ``path``, its ``header`` line and the ``loaded`` game."""

    path: Path
    header: bytes
    loaded: Loaded

    def result(self, table: str, *, ended: str = "2026-11-26T03:00:00+00:00") -> dict[str, Any]:
        return protocol.result_payload(self.loaded, table=table, header_line=self.header,
                                       ended=ended)


def play(directory: Path, game_id: str, seed: int, *, players: int = 2,
         seats: dict[int, str] | None = None, finish: bool = True,
         stop_after: int | None = None, people: dict[int, str] | None = None) -> Played:
    """A game of ``game_id`` in a journal under ``directory``, played with throws and
    moves drawn from ``seed``; to its end (``finish``) or ``stop_after`` actions;
    ``people``: the roster's persons at the human seats."""
    game = get_game(game_id)
    # each game its own start (a table starts one game at a time): the club takes two
    # results of one table, game and start for the same game, a win taken back
    journal = JournalStore(directory).begin(game, players, seats=seats, people=people,
                                            started=f"2026-11-26T02:{seed % 60:02d}:00+00:00")
    state = game.new_state(players)
    rng = random.Random(f"club/{game_id}/{seed}")
    for n in range(MAX_ACTIONS):
        if state.outcome is not None or (stop_after is not None and n >= stop_after):
            break
        by = game.player_name(state.current_player, players)
        action = random_action(state, rng.randrange)  # rng.choice draws as randrange does
        events = state.apply(action)
        journal.append(by, action, events)
    if finish:
        assert state.outcome is not None, f"{game_id} seed {seed}: no end"
        journal.end("won", [game.player_name(p, players) for p in state.outcome.winners])
    journal.close()
    path = journal.path
    return Played(path, path.read_bytes().split(b"\n", 1)[0], load(path, repair=False))


def states(played: Played, table: str, *,
           updated: str = "2026-11-26T02:30:00+00:00") -> Iterator[dict[str, Any]]:
    """The state payloads of the game as it went, one per action and one before the
    first (the journal as it was after ``n`` actions, replayed once for all)."""
    loaded = played.loaded
    state = loaded.game.new_state(loaded.players)
    total = len(loaded.records)
    for n in range(total + 1):
        if n:
            state.apply(loaded.actions[n - 1])
        part = dataclasses.replace(loaded, actions=list(loaded.actions[:n]),
                                   records=loaded.records[:n], state=state,
                                   ended=loaded.ended and n == total)
        yield protocol.state_payload(part, table=table, updated=updated)
