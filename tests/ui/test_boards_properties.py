"""Board pictures over random games of every game and number of players (hypothesis).

At positions along each game: the model holds exactly the pieces ``state.pieces()``
reports (per player and zone, and the squares on the board); every picture (both
panel sizes, with and without a move previewed, both blink frames, the inventories)
draws nothing outside the panel; the words name every player, within the width.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from companion.rules import Phase, PieceZone, State, game_class, game_ids, get_game, random_action
from companion.ui.games.boards import (
    board_model,
    board_svg,
    cretan_labyrinth,
    labyrinth,
    pieces_in_words,
    senet_sticks,
    senet_tait,
)
from companion.ui.games.boards.model import Board

DRAW = {
    "senet-tait": senet_tait.draw,
    "senet-sticks": senet_sticks.draw,
    "labyrinth": labyrinth.draw,
    "cretan-labyrinth": cretan_labyrinth.draw,
}
SIZES = ((128, 64), (128, 32))
PAD = 24
"""Pixels of canvas right of and below the panel, where nothing may be drawn."""

CASES = [
    (game_id, players)
    for game_id in game_ids()
    for players in range(game_class(game_id).min_players, game_class(game_id).max_players + 1)
]


def outside_the_panel(draw: object, board: Board, size: tuple[int, int], blink: bool) -> int:
    """Lit pixels that a picture of ``size`` puts right of or below the panel."""
    width, height = size
    canvas = Image.new("1", (width + PAD, height + PAD), 0)
    draw(board, size, blink, canvas)  # type: ignore[operator]
    canvas.paste(0, (0, 0, width, height))
    return sum(1 for v in canvas.convert("L").tobytes() if v)


def check(state: State, rng: random.Random) -> None:
    board = board_model(state)
    reported = Counter((p.player, p.zone, p.square) for p in state.pieces())
    modelled = Counter((p.player, p.zone, p.square) for p in board.pieces)
    assert modelled == reported, "the model's pieces differ from the position's"
    for square in {p.square for p in board.pieces if p.zone is PieceZone.BOARD}:
        assert square is not None
        board.cell(square)  # every square a piece stands on is a cell of the board
    moves = [m for m in state.legal_moves() if m.kind != "pass"]
    boards = [board]
    if moves:
        move = moves[rng.randrange(len(moves))]
        shown = board_model(state, highlight=move)
        h = shown.highlight
        assert h is not None and h.player == state.current_player
        if h.src is not None:
            assert any(p.player == h.player and p.square == h.src for p in shown.pieces), (
                f"{move}: no piece of the mover on {h.src}"
            )
        for square in h.path:
            shown.cell(square)
        boards.append(shown)
    draw = DRAW[state.game.id]
    for b in boards:
        for size in SIZES:
            for blink in (False, True):
                assert outside_the_panel(draw, b, size, blink) == 0, f"drawn outside {size}"
        board_svg(b)
    if state.game.id == "cretan-labyrinth":
        for size in SIZES:
            for page in range(cretan_labyrinth.inventory_pages(board, size)):
                canvas = Image.new("1", (size[0] + PAD, size[1] + PAD), 0)
                cretan_labyrinth.draw_inventories(board, size, page, canvas)
                canvas.paste(0, (0, 0, *size))
                assert canvas.getbbox() is None, "inventories drawn outside the panel"
    width = rng.randrange(12, 41)
    lines = pieces_in_words(state, width)
    assert all(len(line) <= width for line in lines), lines
    starts = [line for line in lines if not line.startswith("  ")]
    names = [state.game.player_name(p, state.players) for p in range(state.players)]
    if state.game.id == "senet-sticks":
        names = [board.sides[p].name for p in range(state.players)]
    assert [line.split(":")[0] for line in starts] == names


@settings(max_examples=16, deadline=None)
@given(case=st.sampled_from(CASES), seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_board_pictures_over_a_random_game(case: tuple[str, int], seed: int) -> None:
    game_id, players = case
    rng = random.Random(seed)
    state = get_game(game_id).new_state(players)
    for n in range(600):
        if n % 9 == 0 or state.phase is Phase.OVER:
            check(state, rng)
        if state.phase is Phase.OVER:
            return
        state.push(random_action(state, rng.randrange))
