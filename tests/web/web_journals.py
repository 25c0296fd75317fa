"""Journals for the web tests, written as the companion writes them (encode, one record a
line), from random legal play: quick to make, any game, any length."""

from __future__ import annotations

import random
from pathlib import Path

from companion.app.journal import FORMAT, VERSION, action_record, encode
from companion.rules import Phase, State, get_game
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
