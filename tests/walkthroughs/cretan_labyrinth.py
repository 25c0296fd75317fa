"""The screens particular to `cretan-labyrinth`, made by driving the real controller.

:func:`walk` yields ``(name, view)`` pairs; :mod:`walkthroughs.screens` adds them to
the reference images (names start with the game id). Positions deep in a game (the
Magic Key offered, a battle) are reached the way a table reaches them: a game played
by :func:`~companion.ai.cretan_goal.goal_seeking_choice` with seeded throws is written
to a journal, and a controller resumes that journal, exactly as after a power cut.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from companion.ai.cretan_goal import goal_seeking_choice
from companion.app.controller import Controller, Screen
from companion.app.events import ButtonEvent, ButtonName, Press, Shaken
from companion.devices.sources import SOURCE_NAMES
from companion.journal.store import JournalStore
from companion.rules import Action, Implement, Phase, Throw, get_game, random_action
from companion.rules.cretan_labyrinth import CretanLabyrinthState
from companion.ui.view import View

GAME = "cretan-labyrinth"
OK = ButtonEvent(ButtonName.OK, Press.PRESSED)
UP = ButtonEvent(ButtonName.UP, Press.PRESSED)
DOWN = ButtonEvent(ButtonName.DOWN, Press.PRESSED)
BACK = ButtonEvent(ButtonName.BACK, Press.SHORT)


def playout(
    seed: int, players: int, until: Callable[[CretanLabyrinthState], bool], **options: object
) -> list[Action]:
    """The actions of a goal-seeking game (throws drawn with ``random.Random(seed)``)
    up to the first position where ``until`` holds.

    :raises RuntimeError: when the game ends first.
    """
    state = get_game(GAME, **options).new_state(players)
    assert isinstance(state, CretanLabyrinthState)
    rng = random.Random(seed)
    actions: list[Action] = []
    while not until(state):
        if state.phase is Phase.OVER:
            raise RuntimeError(f"seed {seed}: the game ended before the position wanted")
        action: Action
        if state.throw_spec is not None:
            action = random_action(state, rng.randrange)
        else:
            moves = state.legal_moves()
            action = moves[goal_seeking_choice(state, moves)]
        state.apply(action)
        actions.append(action)
    return actions


def resumed(
    workdir: Path, actions: Sequence[Action], players: int, ahead: Sequence[Action] = (),
    **options: object,
) -> Controller:
    """A controller that resumed a journal of ``actions``; its throws are ``ahead``'s
    throws in order (the moves of ``ahead`` are for the caller to choose)."""
    game = get_game(GAME, **options)
    store = JournalStore(workdir)
    journal = store.begin(game, players, started="2026-01-01T00:00:00+00:00")
    state = game.new_state(players)
    for action in actions:
        by = state.player_to_act_name
        journal.append(by, action, state.apply(action))
    journal.close()
    throws = [a for a in ahead if isinstance(a, Throw)]

    def draw(implement: Implement, n: int) -> Throw:
        return throws.pop(0)

    ctl = Controller(store=store, draw=draw, sources=list(SOURCE_NAMES), source="gpio-shaker",
                     games=[GAME])
    ctl.start()
    ctl.handle(OK)  # the splash: an unfinished game
    ctl.handle(OK)  # resume it: the board first
    ctl.handle(OK)  # the position's own screen
    return ctl


def _state(ctl: Controller) -> CretanLabyrinthState:
    state = ctl.state
    assert isinstance(state, CretanLabyrinthState)
    return state


def act(ctl: Controller, action: Action) -> None:
    """Make ``action`` as the players would: shake for a throw (the controller's draw
    must give it), or move the cursor to the move and press OK."""
    if isinstance(action, Throw):
        ctl.handle(Shaken("gpio-shaker"))
        return
    moves = _state(ctl).legal_moves()
    for _ in range(moves.index(action) - ctl.cursor):
        ctl.handle(DOWN)
    ctl.handle(OK)


def task_at(kind: str) -> Callable[[CretanLabyrinthState], bool]:
    """A test of a position: the first task waiting is ``kind`` (``key-offer``, ...)."""

    def at(state: CretanLabyrinthState) -> bool:
        return state.phase is not Phase.OVER and bool(state.queue) and state.queue[0].kind == kind
    return at


def battle_at(need: str) -> Callable[[CretanLabyrinthState], bool]:
    """A test of a position: a battle waits for ``need`` (``att-item``, ``att-roll``, ...)."""

    def at(state: CretanLabyrinthState) -> bool:
        return task_at("battle")(state) and state.battle is not None and state._battle_needs() == need
    return at


def walk(workdir: Path) -> Iterator[tuple[str, View]]:
    """Every screen of this game worth a reference PNG; ``workdir`` is for journals."""
    name = f"{GAME}-"

    # Setup: 2-4 players.
    ctl = Controller(store=JournalStore(workdir / "setup"), draw=lambda i, n: i.parse("1"),
                     sources=list(SOURCE_NAMES), source="gpio-shaker", games=[GAME])
    ctl.start()
    for event in (OK, OK, DOWN, OK, OK):  # splash, menu, to "Players", 3, 4
        ctl.handle(event)
    yield name + "setup", ctl.view()

    # A turn's start: the die for the distance, what the player holds.
    seed = 1
    to_move = playout(seed, 2, lambda s: s.turns >= 40 and s.stage == "distance")
    ctl = resumed(workdir / "turn", to_move[:-1], 2, to_move[-1:])
    act(ctl, to_move[-1])
    while ctl.screen is Screen.EVENTS:
        ctl.handle(OK)
    yield name + "throw", ctl.view()

    # The direction card drawn (its text), then where the move may stop.
    more = playout(seed, 2, lambda s: s.turns >= 40 and s.stage == "move")[len(to_move):]
    ctl = resumed(workdir / "card", to_move + more[:-1], 2, more[-1:])
    ctl.handle(Shaken("gpio-shaker"))  # the direction card
    yield name + "direction-card", ctl.view()
    ctl.handle(OK)
    yield name + "stops", ctl.view()

    # A coloured card whose danger a tool may avert: the card in full, then the question.
    avert = playout(seed, 2, lambda s: task_at("card")(s) and any(m.kind == "avert" for m in s.legal_moves()))
    ctl = resumed(workdir / "avert", avert[:-1], 2, avert[-1:])
    ctl.handle(Shaken("gpio-shaker"))
    yield name + "card", ctl.view()
    ctl.handle(DOWN)
    yield name + "card-scrolled", ctl.view()
    ctl.handle(OK)
    yield name + "avert", ctl.view()

    # Pegasus: fly anywhere.
    fly = playout(seed, 2, lambda s: s.phase is Phase.MOVE and s.stage == "resolve")
    yield name + "pegasus", resumed(workdir / "fly", fly, 2).view()

    # The Magic Key offered in the palace, a battle offered, weapons shown.
    key = playout(seed, 2, task_at("key-offer"))
    yield name + "key", resumed(workdir / "key", key, 2).view()
    offer = playout(seed, 2, task_at("battle-offer"))
    yield name + "battle-offer", resumed(workdir / "offer", offer, 2).view()
    attacker = playout(seed, 2, battle_at("att-item"))
    yield name + "battle-attacker", resumed(workdir / "attacker", attacker, 2).view()
    defender = playout(seed, 2, battle_at("def-item"))
    yield name + "battle-defender", resumed(workdir / "defender", defender, 2).view()
    dice = playout(BATTLE_BY_DICE_SEED, 2, battle_at("att-roll"))
    yield name + "battle-dice", resumed(workdir / "dice", dice, 2).view()

    # Every player's inventory from the pause menu (four players), and the winner.
    four = playout(seed, 4, lambda s: s.turns >= 60 and s.stage == "distance")
    ctl = resumed(workdir / "four", four, 4)
    for event in (BACK, DOWN, DOWN, DOWN, OK):  # pause menu: Game status
        ctl.handle(event)
    yield name + "status", ctl.view()
    ctl.handle(DOWN)
    ctl.handle(DOWN)
    yield name + "status-scrolled", ctl.view()

    whole = playout(seed, 2, lambda s: s.phase is Phase.OVER)
    ctl = resumed(workdir / "won", whole[:-1], 2, whole[-1:])
    act(ctl, whole[-1])
    assert ctl.screen is Screen.OVER, ctl.screen
    yield name + "over", ctl.view()


BATTLE_BY_DICE_SEED = 45
"""A seed whose goal-seeking game has a battle between two players without weapons."""
