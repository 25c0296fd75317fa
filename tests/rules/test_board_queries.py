"""The read-only queries the board pictures need from the engines (issue 12, §1).

``Labyrinth.count_end`` says where a count move leaves its piece once jumps, tunnels and
geese are resolved (the move preview inverts that field); ``turns_to_lose`` says how many
turns a Cretan player still loses (the inventories page).
"""

from __future__ import annotations

import random

from companion.rules import Move, Phase, get_game, random_action
from companion.rules.cretan_labyrinth import CretanLabyrinthState
from companion.rules.labyrinth import Labyrinth


def labyrinth() -> Labyrinth:
    game = get_game("labyrinth")
    assert isinstance(game, Labyrinth)
    return game


def test_count_end_follows_the_jump_the_geese_and_the_tunnel() -> None:
    """Seed 001: 'Field 6 -- Free passage. When you land here, advance your piece to
    12.' / 'Field 59 -- Go back through the tunnel to 47.' The notation names the end
    (``1-6 to 12``); count_end gives it as a number."""
    game = labyrinth()
    assert game.count_end(Move("move", 1, 6, (5,), "to 12")) == 12
    assert game.count_end(Move("move", 58, 59, (1,), "to 47")) == 47
    # A plain count ends where it lands; a bounce off an exact-count field too.
    assert game.count_end(Move("move", 22, 25, (3,))) == 25
    assert game.count_end(Move("move", 55, 55, (6,))) == 55


def test_count_end_of_a_bear_off_is_elysium_and_of_other_moves_none() -> None:
    game = labyrinth()
    assert game.count_end(Move("bear-off", 60, None, (1,))) == game.board.last
    assert game.count_end(game.enter_move) is None
    assert game.count_end(Move("ride", 7, None, (), "from 7")) is None
    assert game.count_end(Move("pass")) is None
    assert game.count_end(Move("move", 3, 10, (7,))) is None  # no die shows 7


def test_count_end_agrees_with_where_every_legal_count_leaves_the_piece() -> None:
    """Over random positions: playing a count move on a copy leaves a piece of the
    mover on count_end's field (or borne off when it is Elysium)."""
    game = labyrinth()
    rng = random.Random(5)
    checked = 0
    for _ in range(4):
        state = game.new_state(2)
        while state.phase is not Phase.OVER and checked < 400:
            if state.phase is Phase.THROW:
                state.apply(random_action(state, rng.randrange))
                continue
            moves = state.legal_moves()
            for move in moves:
                end = game.count_end(move)
                if end is None:
                    continue
                after = state.copy()
                after.apply(move)
                mover = state.current_player
                assert any(
                    p.player == mover and (p.square == end or (end == game.board.last and p.square is None))
                    for p in after.pieces()
                ), f"{move} should end on {end}"
                checked += 1
            state.apply(random_action(state, rng.randrange))
    assert checked > 100


def test_turns_to_lose_reads_the_turns_a_player_still_loses() -> None:
    game = get_game("cretan-labyrinth")
    data = game.new_state(2).to_dict()
    data["stage"] = "distance"  # before the first turn nobody can have lost turns
    data["turns"] = 1  # the first turn has begun (a new game's 0 counts no turn yet)
    data["pieces"][1]["lost_turns"] = 2
    state = game.state_from_dict(data)
    assert isinstance(state, CretanLabyrinthState)
    assert [state.turns_to_lose(p) for p in (0, 1)] == [0, 2]
