"""Impossible Cretan Labyrinth positions are refused (issue 35, "validate() accepts 31
more impossible positions"; seed ``004_fc892f1937d88e90.txt``, docs/positions.md).

Each test first reads a position seeded random play really reaches, then refuses it
changed by hand into one play never reaches: a battle against a keeper far away, a
player throwing twice for the start, a battle waiting with both dice thrown, two
``end-turn`` tasks, a card drawn on a space of another colour (or none), a battle for a
player not on turn or after the turn's battle, and the turn's flags outside a turn.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from companion.ai.cretan_goal import goal_seeking_choice
from companion.rules import Phase, PositionError, random_action
from companion.rules.cretan_labyrinth import CretanLabyrinth, CretanLabyrinthState

GAME = CretanLabyrinth()
STEPS = 3000
"""Actions of random play per game searched (a game need not end)."""


def played(players: int, seeds: range, goal: bool) -> Iterator[CretanLabyrinthState]:
    """Every position of seeded games, one after another: random play, or with ``goal``
    the choices of :func:`~companion.ai.cretan_goal.goal_seeking_choice` (players who
    seek diamonds and the key fight more battles, some without weapons)."""
    for seed in seeds:
        rng = random.Random(seed)
        state = GAME.new_state(players)
        assert isinstance(state, CretanLabyrinthState)
        yield state
        for _ in range(STEPS):
            if state.phase is Phase.OVER:
                break
            if goal and state.throw_spec is None:
                moves = state.legal_moves()
                state.push(moves[goal_seeking_choice(state, moves)])
            else:
                state.push(random_action(state, rng.randrange))
            yield state


def reached(
    found: Callable[[CretanLabyrinthState], bool], players: int = 2, seeds: range = range(200), goal: bool = False
) -> dict[str, Any]:
    """The first position of seeded play (see :func:`played`) for which ``found`` holds,
    as a file (the dict of ``to_dict``): it reads back."""
    for state in played(players, seeds, goal):
        if found(state):
            data = state.to_dict()
            GAME.state_from_dict(copy.deepcopy(data))  # play reaches it: it is read
            return data
    raise AssertionError("random play never reached the position")


def refused(data: dict[str, Any], key: str, why: str) -> None:
    """``data`` is refused, the error naming ``key`` and saying ``why`` (a part of it)."""
    with pytest.raises(PositionError) as caught:
        GAME.state_from_dict(data)
    assert caught.value.where == key, str(caught.value)
    assert why in str(caught.value)


def first_task(kind: str) -> Callable[[CretanLabyrinthState], bool]:
    return lambda state: bool(state.queue) and state.queue[0].kind == kind


def blank_square(data: dict[str, Any], away_from: str, spaces: int) -> str:
    """A blank square (not coloured, not the palace, no gateway) ``spaces`` spaces from
    ``away_from`` (or the farthest below that), where no piece stands."""
    board = GAME.board
    start = board.node(away_from)
    taken = {board.node(piece["square"]) for piece in data["pieces"]}
    blanks = [n for n in range(len(board.names)) if not GAME.tables.stoppable[n] and n not in taken]
    best = min(blanks, key=lambda n: (abs(GAME.reach_table[start][n] - spaces), n))
    assert GAME.reach_table[start][best] > 2
    return board.names[best]


# ------------------------------------------------------------- battles for the Magic Key


def test_a_battle_offer_is_refused_against_a_keeper_nine_spaces_away() -> None:
    """KEY RULE 1: 'If a player lands within two spaces ... of the player with the Magic
    Key ... then that player may do battle with the keeper.' Nine spaces away, no
    battle: the key would change hands between players far apart."""
    data = reached(first_task("battle-offer"))
    _, attacker, keeper = data["pending"][0]
    near = copy.deepcopy(data)
    near["pieces"][keeper - 1]["square"] = blank_square(data, data["pieces"][attacker - 1]["square"], 9)
    refused(near, "pending[0]", "a battle for the Magic Key is within two spaces")


@pytest.mark.parametrize("forced", [False, True])
def test_a_battle_is_refused_against_a_keeper_nine_spaces_away(forced: bool) -> None:
    """KEY RULES 1 and 7: a battle is fought within two spaces of the keeper, also the
    one a keeper passing by must stop for."""
    data = reached(lambda s: first_task("battle")(s) and s.queue[0].forced is forced)  # type: ignore[union-attr]
    _, attacker, keeper, _ = data["pending"][0]
    data["pieces"][keeper - 1]["square"] = blank_square(data, data["pieces"][attacker - 1]["square"], 9)
    refused(data, "pending[0]", "a battle for the Magic Key is within two spaces")


def test_a_battle_offer_is_refused_for_a_player_not_on_turn() -> None:
    """KEY RULE 1: the player who lands may attack; in a three-player game the third
    player, not on turn, is offered no battle."""
    data = reached(first_task("battle-offer"), players=3)
    _, attacker, keeper = data["pending"][0]
    data["turn"] = ({1, 2, 3} - {attacker, keeper}).pop()
    refused(data, "pending[0]", "is not on turn")


def test_a_second_battle_in_a_turn_is_refused() -> None:
    """One battle a turn: after a battle (``fought``) no battle is offered again."""
    data = reached(first_task("battle-offer"))
    data["fought"] = True
    refused(data, "pending[0]", "one battle a turn")


def test_a_battle_waiting_with_both_dice_thrown_is_refused() -> None:
    """KEY RULE 4 (dice when neither shows a weapon): once both dice are thrown the
    battle is settled; a saved battle waiting with both thrown would wait for nothing
    (a decision with no choices: the game stuck)."""
    data = reached(lambda s: s.battle is not None and s.battle.needs() == "def-roll", seeds=range(40, 60), goal=True)
    stuck = copy.deepcopy(data)
    stuck["battle"]["defender_roll"] = 3
    refused(stuck, "battle", "settled at once")
    data["battle"]["attacker_roll"] = 0
    data["battle"]["defender_roll"] = 3
    refused(data, "battle.defender_roll", "after the attacker")


def test_a_battle_with_an_item_shown_and_dice_thrown_is_refused() -> None:
    """KEY RULES 3-4: dice are thrown only when neither side shows a tool or weapon; the
    defender shows after the attacker."""
    data = reached(
        lambda s: s.battle is not None and s.battle.needs() == "att-item" and bool(s.items[s.battle.defender])
    )
    battle = data["battle"]
    defender = battle["defender"] - 1
    shown = copy.deepcopy(data)
    read = GAME.state_from_dict(data)
    assert isinstance(read, CretanLabyrinthState)
    shown["battle"]["defender_shows"] = read.item_kinds(defender)[0]
    refused(shown, "battle.defender_shows", "after the attacker")
    thrown = copy.deepcopy(data)
    thrown["battle"]["attacker_roll"] = 4
    refused(thrown, "battle.attacker_roll", "neither side shows")


# ------------------------------------------------------------------- the turn's tasks


def test_two_end_turn_tasks_are_refused() -> None:
    """A turn ends once: a second ``end-turn`` would end the turn early and silently drop
    what is queued after it."""
    data = reached(lambda s: len(s.queue) >= 2)
    last = len(data["pending"]) - 1
    data["pending"].insert(last, ["end-turn"])
    refused(data, f"pending[{last}]", "a turn ends once")


def test_a_card_drawn_on_a_blank_square_is_refused() -> None:
    """Rules 6-7: a player who lands on a coloured space draws a card of its colour;
    on a blank square nobody draws."""
    data = reached(first_task("draw"))
    _, player, _ = data["pending"][0]
    blank = copy.deepcopy(data)
    blank["pieces"][player - 1]["square"] = blank_square(data, data["pieces"][player - 1]["square"], 3)
    refused(blank, "pending[0]", "a card is drawn from the colour of the space landed on")
    colours = [c for c in GAME.decks.colours if c != data["pending"][0][2]]
    data["pending"][0][2] = colours[0]
    refused(data, "pending[0]", "a card is drawn from the colour of the space landed on")


def test_a_card_waiting_on_a_space_of_another_colour_is_refused() -> None:
    """Rules 6-7: the card waiting for a decision is of the colour of the space its
    player stands on."""
    data = reached(first_task("card"))
    _, player, card = data["pending"][0]
    colour = GAME.decks.cards[card].deck
    board = GAME.board
    other = next(
        n for n in range(len(board.names))
        if board.colours[n] not in (None, colour) and all(board.node(p["square"]) != n for p in data["pieces"])
    )
    data["pieces"][player - 1]["square"] = board.names[other]
    refused(data, "pending[0]", "a card is drawn from the colour of the space landed on")


@pytest.mark.parametrize("flag", ["extra_turn", "fought"])
def test_the_turns_flags_are_refused_outside_a_turn(flag: str) -> None:
    """Another turn earned and a battle fought are facts of the turn being resolved;
    the turn's end clears them, so no throw is due with one set."""
    data = reached(lambda s: s.stage == "distance" and s.turns > 3)
    data[flag] = True
    refused(data, flag, "only while a turn is resolved")


# ------------------------------------------------------------------ the start throws


def test_a_player_throwing_twice_for_the_start_is_refused() -> None:
    """'Each player rolls one die and the highest roll goes first': everybody throws once
    a round, in seat order; a tie's players throw again. One player twice would throw and
    start while the other never throws."""
    data = reached(lambda s: s.stage == "start" and len(s.rolls) == 1)
    assert data["start_rollers"] == [1, 2]
    for rollers in ([1, 1], [2, 1], [1], []):
        changed = copy.deepcopy(data)
        changed["start_rollers"] = rollers
        refused(changed, "start_rollers", "two or more distinct players in seat order")


def test_a_battle_or_card_waiting_behind_another_task_is_refused() -> None:
    """A landing queues its tasks first, and a battle, its offer or a drawn card waits
    first until done: behind another task it would never be reached in order."""
    data = reached(lambda s: first_task("battle-offer")(s) and type(s.queue[1]).__name__ == "Draw")
    data["pending"][0:2] = [data["pending"][1], data["pending"][0]]
    refused(data, "pending[1]", "waits first")
    data = reached(lambda s: first_task("draw")(s) and s.queue[0].player == s.turn)  # type: ignore[union-attr]
    card = next(c for c in GAME.decks.contents[data["pending"][0][2]] if c in data["decks"][data["pending"][0][2]]["unseen"])
    data["decks"][data["pending"][0][2]]["unseen"].remove(card)
    data["pending"].insert(1, ["card", data["pending"][0][1], card])
    refused(data, "pending[1]", "waits first")


def test_a_forced_battle_without_the_keepers_landing_is_refused() -> None:
    """KEY RULE 7: the keeper stopped within two spaces of a player battles, then lands
    (draws on a coloured space, ...); without the landing due next it would be lost."""
    data = reached(lambda s: first_task("battle")(s) and s.queue[0].forced)  # type: ignore[union-attr]
    assert data["pending"][1] == ["land", data["pending"][0][2]]
    del data["pending"][1]
    refused(data, "pending[1]", "lands after it")


def test_a_win_checked_away_from_the_own_gateway_is_refused() -> None:
    """'Once there [the own gateway] you win the game if you possess ... the Magic Key':
    the win is checked for a player landed on their own gateway only."""
    data = reached(lambda s: any(t.kind == "win" for t in s.queue))
    i = next(i for i, t in enumerate(data["pending"]) if t[0] == "win")
    player = data["pending"][i][1]
    data["pieces"][player - 1]["square"] = blank_square(data, data["pieces"][player - 1]["square"], 3)
    refused(data, f"pending[{i}]", "only at their own gateway")


# ------------------------------------------------- what the engine works out, not reads


def test_the_turns_end_is_worked_out_not_read() -> None:
    """A turn being resolved always ends with ``end-turn``: a file may leave it out (it
    is added), and one without it cannot lose the turn's end; with nothing else pending
    the turn has ended already and the position is refused."""
    data = reached(lambda s: len(s.queue) >= 2)
    assert data["pending"][-1] == ["end-turn"]
    full = GAME.state_from_dict(copy.deepcopy(data)).to_dict()
    data["pending"].pop()
    assert GAME.state_from_dict(copy.deepcopy(data)).to_dict() == full
    data["pending"] = [["end-turn"]]
    data["battle"] = None
    refused(data, "pending", "a task that waits for a player")


def test_who_fights_is_worked_out_from_the_pending_battle() -> None:
    """The battle under way names the players of its pending ``battle`` task: left out,
    they are taken from it; given otherwise, they are refused."""
    data = reached(first_task("battle"))
    full = GAME.state_from_dict(copy.deepcopy(data)).to_dict()
    for key in ("attacker", "defender", "forced"):
        del data["battle"][key]
    assert GAME.state_from_dict(copy.deepcopy(data)).to_dict() == full
    data["battle"]["forced"] = not full["battle"]["forced"]
    refused(data, "battle", "must match the pending battle task")


def test_a_turn_count_past_the_round_limit_is_refused() -> None:
    """D27: the game ends when ``round-limit`` x players turns are played; play does not
    go on past it, and once begun it has begun at least one turn."""
    data = reached(lambda s: s.stage == "distance" and s.turns > 3)
    limit = GAME.round_limit * data["players"]
    for turns in (limit, 1):
        # the last turn, the first (whose player the start throws, not recorded here, decided)
        GAME.state_from_dict(dict(data, turns=turns, start_rolls=[]))
    refused(dict(data, turns=limit + 1), "turns", "past the round limit")
    refused(dict(data, turns=0), "turns", "at least one turn")


def test_before_the_first_turn_the_turn_and_where_a_piece_came_from_are_worked_out() -> None:
    data = GAME.new_state(2).to_dict()
    assert GAME.state_from_dict(data).to_dict() == data
    with pytest.raises(PositionError, match="turn"):
        GAME.state_from_dict(data | {"turn": 2})
    moved = copy.deepcopy(data)
    moved["pieces"][0]["came_from"] = "c4"
    with pytest.raises(PositionError, match="came_from"):
        GAME.state_from_dict(moved)


# ----------------------------------------------- issue 35: keys read and checked (pos6)


def test_before_the_first_turn_no_turn_is_counted() -> None:
    """The turns begun count from the start's winner's first turn (turn 1); while the
    players throw for the start none has begun: ``turns`` is worked out (0), may be left
    out, and a file giving another count is refused."""
    data = GAME.new_state(2).to_dict()
    assert data["turns"] == 0
    left_out = dict(data)
    del left_out["turns"]
    assert GAME.state_from_dict(left_out).to_dict() == data
    for turns in (1, 5):
        refused(dict(data, turns=turns), "turns", "before the first turn")


def test_a_start_never_decided_is_refused_once_play_has_begun() -> None:
    """'Each player rolls one die and the highest roll goes first': play begins after a
    round of start throws with one highest. A file in play whose start throws (kept for
    the record) are a tie or a round not thrown out says the start was never decided."""
    data = reached(lambda s: s.stage == "distance" and s.turns > 3)
    assert len(data["start_rolls"]) == len(data["start_rollers"])
    refused(dict(data, start_rolls=[4, 4]), "start_rolls", "one highest")
    refused(dict(data, start_rolls=[4]), "start_rolls", "one highest")
    GAME.state_from_dict(dict(data, start_rolls=[]))  # not recorded: read


def test_the_first_turn_is_the_start_winners() -> None:
    """'... the highest roll goes first': in the first turn (``turns`` 1) the player on
    turn is the one whose start throw was the highest."""
    data = reached(lambda s: s.stage == "distance" and s.turns == 1)
    best = max(data["start_rolls"])
    winner = data["start_rollers"][data["start_rolls"].index(best)]
    assert data["turn"] == winner
    refused(dict(data, turn=3 - winner), "turn", "the highest start throw")


@pytest.mark.parametrize("flag", ["extra_turn", "fought"])
def test_the_key_flags_are_refused_with_four_keys(flag: str) -> None:
    """With four Magic Keys (option ``magic-keys``) there is no keeper to land on or do
    battle with, so no battle is fought and no turn earned by one."""
    game = CretanLabyrinth(**{"magic-keys": 4})
    state = game.new_state(2)
    rng = random.Random(1)
    while state.stage != "resolve":
        state.push(random_action(state, rng.randrange))
    data = state.to_dict()
    game.state_from_dict(copy.deepcopy(data))
    with pytest.raises(PositionError) as caught:
        game.state_from_dict(dict(data, **{flag: True}))
    assert caught.value.where == flag
    assert "four Magic Keys" in str(caught.value)


def test_a_game_over_past_the_round_limit_is_refused() -> None:
    """D27: at the round limit the game ends once ``round-limit`` x players turns are
    played; no game goes on to end later."""
    data = reached(lambda s: s.stage == "distance" and s.turns > 3)
    limit = GAME.round_limit * data["players"]
    score = [(p["key"], len(p["diamonds"])) for p in data["pieces"]]
    leaders = [i + 1 for i, s in enumerate(score) if s == max(score)]
    over = dict(data, stage="over", winners=leaders, turns=limit, reason="")
    GAME.state_from_dict(copy.deepcopy(over))  # ended at the limit: read
    refused(dict(over, turns=limit + 5), "turns", "past the round limit")


def test_the_stage_is_worked_out_from_the_throw_the_card_and_the_tasks() -> None:
    """Which stage a turn is in follows from what it holds: a distance thrown, a
    direction card drawn, tasks pending, winners; a file may leave ``stage`` out."""
    for stage in ("distance", "direction", "move", "resolve"):
        data = reached(lambda s, stage=stage: s.stage == stage and s.turns > 1)  # type: ignore[misc]
        full = GAME.state_from_dict(copy.deepcopy(data)).to_dict()
        del data["stage"]
        assert GAME.state_from_dict(data).to_dict() == full, stage
    start = GAME.new_state(2).to_dict()
    del start["stage"]
    assert GAME.state_from_dict(start).to_dict() == GAME.new_state(2).to_dict()


def test_the_landing_of_the_player_on_turn_waits_only_for_a_forced_battle() -> None:
    """A move or a card resolves its player's landing at once (rule 7); only a keeper
    stopped for a battle (key rule 7) lands after it. A landing of the player on turn
    queued behind a card drawn would land them twice."""
    data = reached(lambda s: first_task("draw")(s) and s.queue[0].player == s.turn)  # type: ignore[union-attr]
    player = data["pending"][0][1]
    data["pending"].insert(1, ["land", player])
    refused(data, "pending[1]", "only after a battle it was stopped for")


@pytest.mark.parametrize("flag", ["extra_turn", "fought"])
def test_the_key_flags_are_refused_when_nobody_holds_the_key(flag: str) -> None:
    """Another turn is earned by taking the Magic Key, and a battle leaves it with the
    winner: once taken, a key stays with a player (only option ``minotaur=out`` sends
    it back to the palace). A turn with either flag while nobody holds it cannot be."""
    data = reached(lambda s: first_task("draw")(s) and not any(s.keys))
    refused(dict(data, **{flag: True}), flag, "nobody holds the Magic Key")


def test_a_card_drawn_or_a_win_waits_only_behind_the_battle_of_its_landing() -> None:
    """A landing queues the battle's offer first, then its card to draw (a coloured
    space) or its win to check (the own gateway), all for the player who landed; the
    tasks of another landing are queued when it lands. A draw or a win behind another
    player's card would have that player draw, or win, without landing."""
    def other(s: CretanLabyrinthState) -> int:
        return 1 - s.turn

    data = reached(lambda s: first_task("draw")(s) and s.queue[0].player == s.turn  # type: ignore[union-attr]
                   and GAME.board.colours[s.pos[other(s)]] is not None)
    o = 1 - (data["turn"] - 1)
    colour = GAME.board.colours[GAME.board.node(data["pieces"][o]["square"])]
    drawn = copy.deepcopy(data)
    drawn["pending"].insert(1, ["draw", o + 1, colour])
    refused(drawn, "pending[1]", "behind nothing but the battle")
    data = reached(lambda s: first_task("draw")(s) and s.queue[0].player == s.turn  # type: ignore[union-attr]
                   and s.pos[other(s)] == s.own_gateway(other(s)))
    o = 1 - (data["turn"] - 1)
    data["pending"].insert(1, ["win", o + 1])
    refused(data, "pending[1]", "behind nothing but the battle")
