"""find_move: among the legal moves for the throw, those whose resulting board matches
the reading (issue 34: "One match ... None: the box says which squares differ ... More
than one (moves that leave the same picture): the cursor stays and the player
chooses"). Readings here are boards, no photo: tests/camera/test_camera_read.py reads
them from photos."""

from __future__ import annotations

import random
from typing import Any, cast

import pytest
from scenes import GAMES, position

from companion.camera.find import (
    FOUND,
    NONE,
    SEVERAL,
    Difference,
    describe,
    find_move,
    seen_board,
    undecided,
)
from companion.rules import Move, Phase, PieceAt, PieceZone, State, get_game, random_action
from companion.rules.core import Square


@pytest.mark.parametrize("game", GAMES)
def test_every_legal_move_of_random_positions_is_found_from_its_board(game: str) -> None:
    for seed in range(40):
        state = position(game, seed, waiting_for_throw=True)
        spec = state.throw_spec
        assert spec is not None
        throw = spec.draw(random.Random(seed).randrange)
        thrown = state.copy()
        thrown.apply(throw)
        if thrown.phase is not Phase.MOVE:
            continue
        for move in thrown.legal_moves():
            after = thrown.copy()
            after.apply(move)
            finding = find_move(state, throw, seen_board(after))
            # several: moves that leave the same board by other means (the Labyrinth's
            # 55-56 with the 5 or with the 1: the die left differs); the player chooses
            assert finding.kind in (FOUND, SEVERAL) and move in finding.moves, (game, seed, move)
            if finding.kind == SEVERAL:
                assert all(_board(thrown, m) == seen_board(after) for m in finding.moves)
            # the later moves of the same turn: no throw given
            if after.phase is Phase.MOVE:
                nxt = after.legal_moves()[0]
                last = after.copy()
                last.apply(nxt)
                assert nxt in find_move(after, None, seen_board(last)).moves


def test_a_board_no_legal_move_makes_names_the_squares_against_the_nearest() -> None:
    state = get_game("senet-tait").new_state()
    throw = state.throw_outcomes()[0][0]
    thrown = state.copy()
    thrown.apply(throw)
    move = thrown.legal_moves()[0]
    after = thrown.copy()
    after.apply(move)
    board: dict[Any, int | None] = dict(seen_board(after))
    assert isinstance(move.dst, int)
    board[move.dst + 1] = board.pop(move.dst)
    finding = find_move(state, throw, board)
    assert finding.kind == NONE and finding.moves == () and finding.move is None
    assert finding.nearest == move
    player = state.current_player
    assert finding.differences == (Difference(move.dst + 1, player, None),
                                   Difference(move.dst, None, player))
    assert describe(finding, ("Black", "White")).startswith(f"none (nearest move {move.notation}): ")


def test_the_state_is_not_changed_and_a_missing_throw_is_an_error() -> None:
    state = get_game("senet-tait").new_state()
    before = state.to_dict()
    with pytest.raises(ValueError, match="waits for a throw"):
        find_move(state, None, {})
    find_move(state, state.throw_outcomes()[0][0], {})
    assert state.to_dict() == before


class _TwoWays:
    """A stand-in position whose two legal moves leave the same board (the piece on 1
    goes off the board either way) but not the same position: borne off, or back to
    its plinth. No game of the camera's has such a pair in 600 random positions under
    every throw; the Labyrinth's and a player's own boards may."""

    phase = Phase.MOVE

    def __init__(self, done: str = "") -> None:
        self.done = done

    def copy(self) -> _TwoWays:
        return _TwoWays(self.done)

    def legal_moves(self) -> tuple[Move, ...]:
        return (Move("bear-off", 1), Move("home", 1))

    def apply(self, move: Move) -> list[object]:
        self.done = move.kind
        return []

    def pieces(self) -> list[PieceAt]:
        if self.done:
            return [PieceAt(0, PieceZone.OFF if self.done == "bear-off" else PieceZone.OUTSIDE)]
        return [PieceAt(0, PieceZone.BOARD, 1)]

    def position_key(self) -> object:
        return self.done


def test_moves_that_leave_the_same_board_are_several_and_the_player_chooses() -> None:
    finding = find_move(cast(State, _TwoWays()), None, {1: None, 2: None})
    assert finding.kind == SEVERAL
    assert [m.kind for m in finding.moves] == ["bear-off", "home"]
    assert finding.move is None
    assert describe(finding).startswith("several: ")


def _board(thrown: State, move: Move) -> dict[Square, int]:
    after = thrown.copy()
    after.apply(move)
    return seen_board(after)


def _undecided_positions(count: int) -> list[State]:
    """Labyrinth positions (random games, seeds from 0) waiting for a move of which
    several leave the same board and the turn goes on after them."""
    found: list[State] = []
    for seed in range(40):
        rng = random.Random(seed)
        state = get_game("labyrinth").new_state()
        while state.phase is not Phase.OVER and len(found) < count:
            if state.phase is Phase.MOVE:
                for move in state.legal_moves():
                    finding = find_move(state, None, _board(state, move))
                    if undecided(state, None, finding):
                        found.append(state.copy())
                        break
            state.apply(random_action(state, rng.randrange))
        if len(found) >= count:
            break
    return found


def test_the_turns_next_move_tells_which_of_moves_leaving_one_board_was_made() -> None:
    """The Labyrinth's ``28-29 with 1`` and ``28-29 with 5`` leave the same board, the
    die left differs (several: the player chooses); the board after the turn's next
    move tells which was made (``ahead``), and never the other."""
    positions = _undecided_positions(6)
    assert len(positions) == 6
    told = 0
    for state in positions:
        for move in state.legal_moves():
            after = state.copy()
            after.apply(move)
            if after.phase is not Phase.MOVE or after.current_player != state.current_player:
                continue
            if not undecided(state, None, find_move(state, None, seen_board(after))):
                continue
            for then in after.legal_moves():
                later = after.copy()
                later.apply(then)
                board = seen_board(later)
                if board == seen_board(after):
                    continue
                if find_move(state, None, board).kind != NONE:
                    continue  # one move leaves it too (the same piece on by both dice)
                finding = find_move(state, None, board, ahead=True)
                if finding.kind == FOUND:
                    told += 1
                    assert all(_board(state, m) == seen_board(after) for m in finding.moves)
                    first = state.copy()
                    first.apply(finding.moves[0])
                    assert first.position_key() == after.position_key(), (state.describe(), move, then)
    assert told > 0


def test_a_move_the_board_tells_is_not_looked_past() -> None:
    """``undecided`` only for several moves that leave one board: a move found is not
    waited past."""
    state = get_game("senet-tait").new_state()
    throw = state.throw_outcomes()[0][0]
    thrown = state.copy()
    thrown.apply(throw)
    after = thrown.copy()
    after.apply(thrown.legal_moves()[0])
    assert not undecided(state, throw, find_move(state, throw, seen_board(after)))
