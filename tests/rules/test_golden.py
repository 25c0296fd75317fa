"""Golden playthroughs: recorded positions, throws, legal moves and events, replayed.

Each file in tests/rules/golden/ is one whole game: before every action the position
(JSON form), the legal moves, then the action and the events it caused. The replay
must match step for step; a change of rules behaviour shows up as a diff of that file.
The events are kept in the companion's English words (:mod:`companion.ui.events`), so
a change of what the OLED says shows up there too.

To record the files again on purpose (after a deliberate rules change), run
``UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/rules/test_golden.py`` and review
the diff before committing it.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from spoken import said

from companion.rules import Phase, State, Throw, game_ids, get_game, random_action

GOLDEN = Path(__file__).parent / "golden"
SEEDS = {"senet-tait": 7, "labyrinth": 2, "senet-sticks": 3}
ENVELOPE = ("format", "version", "game", "options", "players")
"""Keys of every position that do not change in a game; kept once at the file's head."""


def body(state: State) -> dict[str, Any]:
    return {k: v for k, v in state.to_dict().items() if k not in ENVELOPE}
"""Which games have a golden file, and the seed of its random playout."""


def record(game_id: str, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    state = get_game(game_id).new_state()
    steps: list[dict[str, Any]] = []
    while state.phase is not Phase.OVER:
        step: dict[str, Any] = {"position": body(state)}
        action = random_action(state, rng.randrange)
        if isinstance(action, Throw):
            step["throw"] = list(action.faces)
        else:
            step["legal"] = [m.notation for m in state.legal_moves()]
            step["move"] = action.notation
        events = state.apply(action)
        step["events"] = said(state, events)
        steps.append(step)
    outcome = state.outcome
    assert outcome is not None
    return {
        "game": game_id,
        "seed": seed,
        "envelope": {k: v for k, v in state.to_dict().items() if k in ENVELOPE},
        "steps": steps,
        "winners": [state.game.player_name(w, state.players) for w in outcome.winners],
    }


def write(path: Path, data: dict[str, Any]) -> None:
    lines = [json.dumps(step, sort_keys=True) for step in data["steps"]]
    head = {k: v for k, v in data.items() if k != "steps"}
    path.write_text(
        json.dumps(head, sort_keys=True)[:-1]
        + ', "steps": [\n'
        + ",\n".join(lines)
        + "\n]}\n",
        encoding="utf-8",
    )


@pytest.mark.parametrize("game_id", sorted(SEEDS))
def test_golden_playthrough(game_id: str) -> None:
    path = GOLDEN / f"{game_id}.json"
    if os.environ.get("UPDATE_GOLDEN"):
        write(path, record(game_id, SEEDS[game_id]))
    data = json.loads(path.read_text(encoding="utf-8"))
    state = get_game(game_id).new_state()
    envelope = {k: v for k, v in state.to_dict().items() if k in ENVELOPE}
    assert envelope == data["envelope"]
    for n, step in enumerate(data["steps"]):
        assert body(state) == step["position"], f"position before step {n}"
        action: Any
        if "throw" in step:
            spec = state.throw_spec
            assert spec is not None, f"step {n}: a throw is recorded but none is due"
            action = spec.from_faces(step["throw"])
            assert isinstance(action, Throw)
        else:
            assert [m.notation for m in state.legal_moves()] == step["legal"], f"legal moves at step {n}"
            action = state.parse_move(step["move"])
        events = state.apply(action)
        assert said(state, events) == step["events"], f"events of step {n}"
    outcome = state.outcome
    assert outcome is not None
    assert [state.game.player_name(w, state.players) for w in outcome.winners] == data["winners"]


def test_golden_games_are_registered() -> None:
    assert set(SEEDS) <= set(game_ids())
