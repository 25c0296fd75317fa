"""Every legal move of every game previews its piece and its landing (issue 23.3).

Over random games of every game and number of players (hypothesis): for every legal
move at positions along the game, ``board_model(state, highlight=move)`` marks the
square of the piece the move moves (or, for a piece coming onto the board, the count
it comes from) and the square where it lands, and the OLED picture differs from the
plain board. What the move's piece and landing are is read from the move and the
position here, not from the preview code.

Exempt, by name: moves without a piece (:data:`NO_PIECE`: a pass, the Cretan
decisions: avert a card with a tool or face the danger, show a tool in a fight,
attack a keeper or not, take the Magic Key or keep the diamonds), and the landing of a Labyrinth
``ride`` (the Knight's Orbit: the free die that says where is still to be thrown).
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import (
    Move,
    Phase,
    PieceZone,
    State,
    game_class,
    game_ids,
    get_game,
    random_action,
)
from companion.rules.core import Square
from companion.ui.games.boards import board_model, draw_board
from companion.ui.games.boards.pixels import highlighted_squares

NO_PIECE = frozenset({
    "pass", "avert", "face-danger", "show", "attack", "no-attack", "take-key", "keep-diamonds",
})
"""Move kinds that move no piece: nothing to mark."""
LANDING_UNKNOWN = frozenset({"ride"})
"""Move kinds whose landing is not known when chosen (the piece is still marked)."""
FROM_OFF_BOARD = frozenset({"enter", "resurrect"})
"""Move kinds that bring a piece onto the board: its count off the board is marked."""

CASES = [
    (game_id, players)
    for game_id in game_ids()
    for players in range(game_class(game_id).min_players, game_class(game_id).max_players + 1)
]


def piece_and_landing(state: State, move: Move) -> tuple[Square | None, Square | None]:
    """The square of the piece ``move`` moves and the square where it lands, as the
    move and the position say (``None``: off the board, or not a square)."""
    if move.kind == "swap":  # Cretan unicorn: change places with the player named
        where = {p.player: p.square for p in state.pieces() if p.zone is PieceZone.BOARD}
        other = next(q for q in range(state.players) if state.game.player_name(q, state.players) == move.label)
        return where[state.current_player], where[other]
    if move.kind == "stay":  # Labyrinth: the piece stays where it is
        return move.src, move.src
    return move.src, move.dst


def check_every_move(state: State) -> None:
    plain = draw_board(board_model(state))
    for move in state.legal_moves():
        board = board_model(state, highlight=move)
        h = board.highlight
        assert h is not None and h.move == move and h.player == state.current_player
        marked = highlighted_squares(board)
        if move.kind in NO_PIECE:
            assert marked == [], f"{move.notation}: moves no piece, yet marks {marked}"
            continue
        piece, landing = piece_and_landing(state, move)
        if piece is not None:
            assert piece in marked, f"{move.notation}: its piece on {piece} is not marked ({marked})"
        else:
            assert move.kind in FROM_OFF_BOARD, f"{move.notation}: which piece does it move?"
            assert h.src_zone is not PieceZone.BOARD, f"{move.notation}: where its piece comes from"
        if move.kind in LANDING_UNKNOWN:
            pass
        elif landing is not None:
            assert landing in marked, f"{move.notation}: its landing {landing} is not marked ({marked})"
        elif move.kind == "cross":  # Labyrinth: across the Millstone
            assert h.path, f"{move.notation}: where it lands across the Millstone is not marked"
        else:
            assert move.kind == "bear-off", f"{move.notation}: where does it land?"
            assert h.dst_zone is PieceZone.OFF, f"{move.notation}: borne off, yet not shown so"
        assert draw_board(board).tobytes() != plain.tobytes(), f"{move.notation}: the picture marks nothing"


@settings(max_examples=12, deadline=None)
@given(case=st.sampled_from(CASES), seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_every_legal_move_previews_its_piece_and_landing(case: tuple[str, int], seed: int) -> None:
    game_id, players = case
    rng = random.Random(seed)
    state = get_game(game_id).new_state(players)
    for n in range(500):
        if state.phase is Phase.OVER:
            return
        if state.phase is not Phase.THROW and n % 5 == 0:
            check_every_move(state)
        state.push(random_action(state, rng.randrange))
