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

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from companion.rules.errors import IllegalMoveError

from .entry import entry_class

if TYPE_CHECKING:
    from PIL import Image

    from companion.rules import Move, State
    from companion.rules.core import Square

    from .model import Board, Cell, Highlight, Mark, Piece, Side

# The model, the pixels, the words and the SVG are imported when first used, not with
# the package: the menu that `companion run` draws first needs none of them (a game's
# presenter, imported with companion.ui.games, reaches this package through entry.py).
_MODEL_NAMES = frozenset({"Board", "Cell", "Highlight", "Mark", "Piece", "Side"})


def __getattr__(name: str) -> Any:
    """``Board``, ``Cell``, ... from :mod:`.model`, imported on first use."""
    if name in _MODEL_NAMES:
        from . import model

        return getattr(model, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "Board",
    "Cell",
    "Highlight",
    "Mark",
    "Piece",
    "Side",
    "board_model",
    "board_or_none",
    "board_preview",
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


def board_or_none(state: State, *, highlight: Move | None = None) -> Board | None:
    """:func:`board_model`, or ``None`` for a game that has no board picture (none of
    the four games: the one guard for a game added without one).

    :raises IllegalMoveError: ``highlight`` is not a legal move of ``state``.
    """
    try:
        return board_model(state, highlight=highlight)
    except IllegalMoveError:
        raise
    except ValueError:
        return None


def board_preview(state: State, moves: Sequence[Move]) -> Board:
    """The board of ``state`` previewing a row of the moves screen that narrows the
    choice to ``moves`` (legal moves of ``state``; one move: :func:`board_model` of it):
    the squares every one of them marks, the piece's square first, then every landing
    (``"plinth on 29"``: the plinth and every square it can reach with these sticks).
    The highlight's :attr:`Highlight.move` is the first of ``moves``; its piece is the
    one they all move, or none when they move different pieces.

    :raises IllegalMoveError: one of ``moves`` is not a legal move of ``state``.
    :raises ValueError: ``moves`` is empty, or the game has no board picture.
    """
    from companion.rules import PieceZone

    if not moves:
        raise ValueError("no move to preview")
    boards = [board_model(state, highlight=move) for move in moves]
    if len(boards) == 1:
        return boards[0]
    lights = [b.highlight for b in boards if b.highlight is not None]
    first = lights[0]
    same = all((h.src, h.src_zone) == (first.src, first.src_zone) for h in lights)
    path: list[Square] = []
    if not same:  # different pieces: each piece's square is marked as a landing would be
        path += [h.src for h in lights if h.src is not None and h.src not in path]
    for h in lights:
        path += [s for s in h.path if s not in path]
    ends = {h.dst_zone for h in lights}
    merged = replace(
        first,
        src=first.src if same else None,
        src_zone=first.src_zone if same else PieceZone.BOARD,
        path=tuple(path),
        dst_zone=ends.pop() if len(ends) == 1 else PieceZone.BOARD,
    )
    return replace(boards[0], highlight=merged)


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
    from .pixels import check_size

    size = check_size(size)
    return entry_class(board.game).draw(board, size, blink)


def inventory_pages(board: Board, size: tuple[int, int] = (128, 64)) -> int:
    """How many pages :func:`draw_inventories` needs on a panel of ``size`` (0 for a game
    whose players hold nothing: every game here but the Cretan Labyrinth)."""
    from .pixels import check_size

    return entry_class(board.game).inventory_pages(board, check_size(size))


def draw_inventories(board: Board, size: tuple[int, int] = (128, 64), page: int = 0) -> Image.Image:
    """A game's second page (the Cretan Labyrinth's): what each player holds (diamonds found lit,
    the ones still to find dotted, the Magic Key, tools and weapons, turns still lost),
    page ``page`` of :func:`inventory_pages`.

    :raises ValueError: a game whose players hold nothing, a ``size`` under 64 x 32 pixels,
        or ``page`` outside ``0 .. inventory_pages() - 1``.
    """
    from .pixels import check_size

    return entry_class(board.game).draw_inventories(board, check_size(size), page)


def pieces_in_words(state: State, width: int) -> list[str]:
    """Where every piece of every player is, in words, in lines of at most ``width``
    characters (the "Game status" screen): ``Black: 3 on 12, 15, 26; 2 off``,
    ``Red: 3 on 1 x2, 13 (loses 2); 1 outside``, ``Player 2: in the palace``. One entry per
    player in seating order; an entry longer than a line goes on in the next lines,
    indented by two spaces.

    :raises ValueError: ``width`` under 12 characters.
    """
    from .words import pieces_in_words_of

    return pieces_in_words_of(board_model(state), width)


def board_svg(board: Board) -> str:
    """The web page's sketch of ``board``: :func:`companion.ui.games.boards.svg.board_svg`
    (imported on first use)."""
    from .svg import board_svg as sketch

    return sketch(board)
