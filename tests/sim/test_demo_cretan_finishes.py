"""The demo's players finish a Cretan Labyrinth as people do (issue 35).

Random choices almost never finish this game (docs/rules/cretan-labyrinth.md, D27): a
demo between random players ran to the 300-round limit (4,903 cues, 12 minutes with
speech). The scripted player now plays as the computer at `normal` would
(`companion.sim.demo.person_move`), choosing its move on the screens with the buttons:
`companion demo --game cretan-labyrinth` (seed 1) ends with a player home in 1,636
actions (2,156 with the goal-seeking player that made the moves before).

How long a game of `normal` players lasts follows the dice more than the evaluation:
seeds 1-5 took 1,049 / 1,016 / 2,042 / 1,372 / 674 actions when `normal` searched by
the progress heuristic, and 1,636 / 817 / 812 / 1,414 / 1,827 since it searches by the
two-player TD-leaf model (branch cretan10). The bound below was 1,500 (seed 1's 1,049
then); it is 2,000 now, still under the goal-seeking player's 2,156 on this seed and far
under the round limit's games.
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
    assert len(loaded.records) < 2000  # a game as people play it, not the limit's thousands
