"""The demo's players finish a Cretan Labyrinth as people do (issue 35).

Random choices almost never finish this game (docs/rules/cretan-labyrinth.md, D27): a
demo between random players ran to the 300-round limit (4,903 cues, 12 minutes with
speech). The scripted player now plays as the computer at `normal` would
(`companion.sim.demo.person_move`), choosing its move on the screens with the buttons:
`companion demo --game cretan-labyrinth` (seed 1) ends in 1,049 actions (2,156 with the
goal-seeking player that made the moves before).
"""

from __future__ import annotations

from pathlib import Path

from companion.journal.store import load
from companion.sim.demo import play


def test_the_default_cretan_demo_is_won_by_a_player_who_came_home(tmp_path: Path) -> None:
    result = play(tmp_path, seed=1, game="cretan-labyrinth")  # the command's default seed
    assert result.journal is not None
    loaded = load(result.journal)
    outcome = loaded.state.outcome
    assert outcome is not None
    assert "gateway" in outcome.reason and "diamonds" in outcome.reason  # came home, not the limit
    assert len(loaded.records) < 1500  # a game as people play it, not 2,000 actions
