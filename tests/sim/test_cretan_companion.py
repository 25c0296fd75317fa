"""A whole Cretan Labyrinth game for three players driven only through gpiozero mock
pins: the buttons are pressed and the shaker shaken as at a table; the driver reads
the screen and chooses like a player heading for the next diamond, the palace and home
(:func:`~companion.ai.cretan_goal.goal_seeking_choice`).

Random choices would reach the 300-round limit after thousands of actions; this
player with the throws of seed 7 wins in a few hundred, with every kind of decision on
the way (the Magic Key, a battle, a danger averted, Pegasus, the unicorn).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from PIL import Image
from walkthroughs.cretan_labyrinth import (
    BATTLE_BY_DICE_SEED,
    GAME,
    battle_at,
    playout,
    resumed,
)

from companion.ai.cretan_goal import goal_seeking_choice
from companion.app.controller import Screen
from companion.app.events import Quit
from companion.app.service import build, mock_factory
from companion.devices.clock import ManualScheduler
from companion.devices.events import ButtonName
from companion.journal.store import load
from companion.rules import Phase
from companion.rules.cretan_labyrinth import CretanLabyrinthState
from companion.sim.demo import PinDriver, demo_config, seeded_draw
from companion.ui.render import render
from companion.ui.view import View

SEED = 7
PLAYERS = 3


def _choose(driver: PinDriver, ctl: Any, index: int, count: int) -> None:
    """Bring the cursor to ``index`` the short way round (a single press wraps)."""
    down = (index - ctl.cursor) % count
    button, presses = (ButtonName.DOWN, down) if down <= count - down else (ButtonName.UP, count - down)
    for _ in range(presses):
        driver.press(button)
    assert ctl.cursor == index


def _play(journal_dir: Path) -> tuple[list[tuple[Image.Image, View]], Any, list[View]]:
    """Play the game; the frames with the view each shows, the controller, and the
    views of the pause menu's "Game status" looked at on the way."""
    frames: list[tuple[Image.Image, View]] = []
    holder: dict[str, Any] = {}

    def frame(image: Image.Image) -> None:
        if "parts" in holder:
            frames.append((image, holder["parts"].service.controller.view()))

    parts = build(demo_config(journal_dir), pin_factory=mock_factory(), scheduler=ManualScheduler(),
                  draw=seeded_draw(SEED), on_frame=frame, games=[GAME])
    holder["parts"] = parts
    service = parts.service
    loop = threading.Thread(target=service.run, name="companion-loop")
    loop.start()
    driver = PinDriver(parts)
    ctl = service.controller
    statuses: list[View] = []
    try:
        driver.idle()
        driver.press(ButtonName.OK)  # splash
        assert ctl.view().screen == "menu"
        driver.press(ButtonName.OK)  # the only game
        assert ctl.view().screen == "setup" and ctl.view().items[-1] == "Begin"
        driver.press(ButtonName.DOWN)  # from "Begin" round to "Players: 2"
        driver.press(ButtonName.OK)
        assert ctl.view().items[0] == f"Players: {PLAYERS}"
        driver.press(ButtonName.UP)  # round to "Begin"
        driver.press(ButtonName.OK)
        for _ in range(5000):
            screen = ctl.screen
            if screen is Screen.OVER:
                break
            state = ctl.state
            assert isinstance(state, CretanLabyrinthState)
            if screen is Screen.THROW:
                if state.stage == "distance" and state.turns % 40 == 0 and len(statuses) < 3:
                    driver.press(ButtonName.BACK)  # pause menu: "Game status"
                    _choose(driver, ctl, ctl.view().items.index("Game status"), len(ctl.view().items))
                    driver.press(ButtonName.OK)
                    statuses.append(ctl.view())
                    driver.press(ButtonName.OK)  # back to the pause menu
                    driver.press(ButtonName.BACK)  # back to the game
                    assert ctl.screen is Screen.THROW
                driver.shake()
            elif screen is Screen.MOVES:
                moves = state.legal_moves()
                assert ctl.view().items == tuple(ctl.presenter.move_words(state, m) for m in moves)
                _choose(driver, ctl, goal_seeking_choice(state, moves), len(moves))
                driver.press(ButtonName.OK)
            else:  # events, a lost throw
                driver.press(ButtonName.OK)
        else:
            raise AssertionError("the game did not end within 5000 steps")
    finally:
        service.post(Quit("test over"))
        loop.join(timeout=10)
        service.close()
    return frames, ctl, statuses


def test_a_whole_three_player_game_through_the_pins(tmp_path: Path) -> None:
    frames, ctl, statuses = _play(tmp_path)
    views = [v for _, v in frames]
    journal = ctl.journal.path if ctl.journal is not None else None
    (path,) = tmp_path.glob("*.journal")
    assert journal in (None, path)

    # The journal: three players, every action replays, the game won by the rules.
    loaded = load(path, repair=False)
    assert loaded.players == PLAYERS and loaded.ended and loaded.damage is None
    state = loaded.state
    assert isinstance(state, CretanLabyrinthState) and state.phase is Phase.OVER
    outcome = state.outcome
    assert outcome is not None and len(outcome.winners) == 1
    (winner,) = outcome.winners
    assert "four diamonds and the Magic Key" in outcome.reason
    assert state.keys[winner] and state.pos[winner] == state.own_gateway(winner)
    moves = [str(r["move"]) for r in loaded.records if "move" in r]
    for kind in ("take-key", "attack", "show", "avert", "fly", "swap"):
        assert any(m.startswith(kind) for m in moves), kind
    # Every card drawn is in the journal, so a replay draws the very same cards.
    cards = [r["throw"]["faces"][0] for r in loaded.records
             if "throw" in r and not r["throw"]["faces"][0].isdigit()]
    assert len(cards) > 50 and set(cards) <= set(state.game.decks.cards)

    # The screens: the frame pushed is the view drawn, the winner announced last.
    image, last = frames[-1]
    name = state.name(winner)
    assert last.screen == "over" and last.lines[0] == f"{name} wins!"
    assert image.tobytes() == render(last).tobytes()
    # A coloured card's whole text with its colour, on the events screen.
    drawn = [v for v in views if v.screen == "events" and any(" card: " in line for line in v.lines)]
    assert drawn
    for card_id in ("red-minotaur", "green-pegasus", "blue-medusa", "yellow-unicorn"):
        card = state.game.decks.cards[card_id]
        if card_id in cards:
            assert any(f"draws a {card.deck} card: {card.text}" in line
                       for v in drawn for line in v.lines), card_id
    # Where the move may stop, as a question with the distance and the direction.
    stops = [v for v in views if v.screen == "moves" and v.lines and v.lines[0].startswith("Stop where? ")]
    assert stops and all(len(v.lines[0]) <= 21 for v in stops)
    asked = {v.lines[0] for v in views if v.screen == "moves" and v.lines}
    assert {"Take the Magic Key?", "Battle for the key?", "Fly to which square?"} <= asked
    assert any(q.endswith(" attacks you! Show:") or q.startswith("You attack ") for q in asked)
    # The player to act's inventory on the throw screen; everybody's in "Game status".
    assert any(line.startswith("Has: ") for v in views if v.screen == "throw" for line in v.lines)
    assert statuses
    for status in statuses:
        for p in range(PLAYERS):
            assert any(line.startswith(f"Player {p + 1} at ") for line in status.lines)
        assert all(len(line) <= 21 for line in status.lines)


def test_the_throw_screen_says_what_a_battle_without_weapons_is_thrown_for(tmp_path: Path) -> None:
    """Both fighters without weapons throw one die each: the screen says who fights
    whom and who wins a tie."""
    actions = playout(BATTLE_BY_DICE_SEED, 2, battle_at("att-roll"))
    ctl = resumed(tmp_path, actions, 2)
    state = ctl.state
    assert isinstance(state, CretanLabyrinthState) and state.battle is not None
    att, dfn = state.battle.attacker, state.battle.defender
    view = ctl.view()
    assert view.screen == "throw"
    assert f"Battle: P{att + 1} vs P{dfn + 1}" in view.lines
    assert f"P{dfn + 1} wins a tie" in view.lines
    assert state.throw_spec == state.game.die
