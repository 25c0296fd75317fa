"""Journals for the web tests, written as the companion writes them (encode, one record a
line), from random legal play: quick to make, any game, any length."""

from __future__ import annotations

import random
from pathlib import Path

from companion.journal.store import FORMAT, VERSION, JournalStore, action_record, encode, replay
from companion.rules import Action, Phase, State, get_game
from companion.rules.core import random_action


def write_game(directory: Path, game_id: str, actions: int, *, seed: int = 1,
               stamp: str = "20260101-120000", seats: dict[int, str] | None = None,
               ) -> tuple[Path, State]:
    """A journal of ``actions`` random legal actions (fewer if the game ends first) of
    ``game_id`` in ``directory``; returns its path and the position after them.
    ``seats``: the players the computer plays (index: level), as the header says them."""
    game = get_game(game_id)
    players = game.min_players
    state = game.new_state(players)
    rng = random.Random(seed)
    lines = [encode({"format": FORMAT, "version": VERSION, "game": game.id,
                     "options": dict(game.option_values), "players": players,
                     "started": "2026-01-01T12:00:00+00:00",
                     **({"seats": {str(p): lv for p, lv in seats.items()}} if seats else {})})]
    for n in range(1, actions + 1):
        if state.phase is Phase.OVER:
            break
        who = state.player_to_act_name
        action = random_action(state, rng.randrange)
        events = state.apply(action)
        lines.append(encode(action_record(n, who, action, list(events))))
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{stamp}-{game.id}.journal"
    path.write_bytes(b"".join(lines))
    return path, state


def write_finished(directory: Path, game_id: str, *, seed: int = 1,
                   undo_after: int | None = None) -> Path:
    """A whole game of random legal actions written by :class:`JournalStore` (the
    companion's own writer), its end record included, as the referee writes one; with
    ``undo_after``, the last two actions are taken back once that many actions are in
    force (play then goes on). Returns the journal's path."""
    game = get_game(game_id)
    players = game.min_players
    rng = random.Random(seed)
    journal = JournalStore(directory).begin(game, players, started="2026-01-01T12:00:00+00:00")
    state = game.new_state(players)
    actions: list[Action] = []
    while state.phase is not Phase.OVER:
        who = state.player_to_act_name
        action = random_action(state, rng.randrange)
        journal.append(who, action, list(state.apply(action)))
        actions.append(action)
        if len(actions) == undo_after:
            journal.undo(2)
            del actions[-2:]
            state = replay(game, players, actions)
            undo_after = None
    outcome = state.outcome
    assert outcome is not None
    journal.end("won", [game.player_name(p, players) for p in outcome.winners])
    journal.close()
    return journal.path
