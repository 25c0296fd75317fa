"""Board pictures of every game: one model, drawn for the OLED, said in words, drawn as SVG.

>>> from companion.rules import get_game
>>> from companion.ui.games.boards import board_model, draw_board, pieces_in_words
>>> state = get_game("senet-tait").new_state()
>>> board = board_model(state)
>>> draw_board(board).size
(128, 64)
>>> pieces_in_words(state, 24)
['Black: 5 on the plinth', 'White: 5 on the plinth']
"""

from __future__ import annotations

from PIL import Image

from companion.rules import IllegalMoveError, Move, State

from .entry import entry_class
from .model import Board, Cell, Highlight, Mark, Piece, Side
from .pixels import check_size
from .svg import board_svg
from .words import pieces_in_words_of

__all__ = [
    "Board",
    "Cell",
    "Highlight",
    "Mark",
    "Piece",
    "Side",
    "board_model",
    "board_svg",
    "draw_board",
    "draw_inventories",
    "inventory_pages",
    "pieces_in_words",
]


def board_model(state: State, *, highlight: Move | None = None) -> Board:
    """The board of ``state`` as plain frozen data (:class:`Board`); with ``highlight``
    (one of ``state.legal_moves()``) the piece it moves and where it lands.

    :raises IllegalMoveError: ``highlight`` is not a legal move of ``state``.
    :raises ValueError: the game has no board picture.
    """
    if highlight is not None and highlight not in state.legal_moves():
        raise IllegalMoveError(
            f"cannot preview {highlight.notation!r}: not a legal move in {state.describe()}"
        )
    return entry_class(state.game.id).board_model(state, highlight)


def draw_board(board: Board, size: tuple[int, int] = (128, 64), *, blink: bool = False) -> Image.Image:
    """The OLED picture of ``board``: mode "1" (lit = 1), ``size`` = (width, height) in
    pixels, 128 x 64 or 128 x 32 (a 32-pixel panel shows less: see each game's module).

    With a highlight, the moving piece's square and the squares where it lands are
    drawn inverted (a count of pieces off the board inverted when the piece comes from,
    or goes to, off the board); ``blink=True`` is the second frame of a blinking
    preview: the same squares inverted, the piece moved to where it lands. Alternating
    the two frames (e.g. every half second) shows the piece hopping to its landing.

    :raises ValueError: ``size`` under 64 x 32 pixels, or a game with no picture.
    """
    size = check_size(size)
    return entry_class(board.game).draw(board, size, blink)


def inventory_pages(board: Board, size: tuple[int, int] = (128, 64)) -> int:
    """How many pages :func:`draw_inventories` needs on a panel of ``size`` (0 for a game
    whose players hold nothing: every game here but the Cretan Labyrinth)."""
    return entry_class(board.game).inventory_pages(board, check_size(size))


def draw_inventories(board: Board, size: tuple[int, int] = (128, 64), page: int = 0) -> Image.Image:
    """A game's second page (the Cretan Labyrinth's): what each player holds (diamonds found lit,
    the ones still to find dotted, the Magic Key, tools and weapons, turns still lost),
    page ``page`` of :func:`inventory_pages`.

    :raises ValueError: a game whose players hold nothing, a ``size`` under 64 x 32 pixels,
        or ``page`` outside ``0 .. inventory_pages() - 1``.
    """
    return entry_class(board.game).draw_inventories(board, check_size(size), page)


def pieces_in_words(state: State, width: int) -> list[str]:
    """Where every piece of every player is, in words, in lines of at most ``width``
    characters (the "Game status" screen): ``Black: 3 on 12, 15, 26; 2 off``,
    ``Red: 3 on 1 x2, 13 (loses 2); 1 outside``, ``Player 2: in the palace``. One entry per
    player in seating order; an entry longer than a line goes on in the next lines,
    indented by two spaces.

    :raises ValueError: ``width`` under 12 characters.
    """
    return pieces_in_words_of(board_model(state), width)
