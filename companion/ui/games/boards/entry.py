"""Where the board pictures find a game's own drawing: its one UI entry.

A game's :class:`~companion.rules.Game` class names its UI entry (its presenter) in
``Game.presenter`` as ``"module:Class"``; :func:`entry_class` imports it on first use,
so listing the games or drawing one game's board imports no other game's engine or
picture. The entry is a subclass of :class:`BoardPictures` (through
:class:`companion.ui.games.Presenter`): the board model, its OLED drawing, the
inventory pages and a player's place in words, each a class method.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.rules.registry import game_class

if TYPE_CHECKING:  # the model is imported with the first board drawn, not with the menu
    from PIL import Image

    from companion.rules import Move, State

    from .model import Board, Side


class BoardPictures:
    """What the board pictures ask of a game; the defaults are a game with no picture.

    Class methods: a picture needs no panel width."""

    @classmethod
    def board_model(cls, state: State, highlight: Move | None) -> Board:
        """The board of ``state`` as plain data (``highlight``: a legal move, already
        checked, or ``None``).

        :raises ValueError: the game has no board picture.
        """
        raise ValueError(f"no board picture for the game {state.game.id!r}")

    @classmethod
    def draw(cls, board: Board, size: tuple[int, int], blink: bool) -> Image.Image:
        """The OLED picture of ``board``, mode "1", ``size`` (width, height) in pixels,
        already checked.

        :raises ValueError: the game has no board picture.
        """
        raise ValueError(f"no board picture for the game {board.game!r}")

    @classmethod
    def inventory_pages(cls, board: Board, size: tuple[int, int]) -> int:
        """How many inventory pages the players' holdings fill on ``size``; 0: the
        players hold nothing (the default)."""
        return 0

    @classmethod
    def draw_inventories(cls, board: Board, size: tuple[int, int], page: int) -> Image.Image:
        """Page ``page`` of what each player holds.

        :raises ValueError: the players of this game hold nothing, or ``page`` is out of range.
        """
        raise ValueError(f"the players of {board.game!r} hold no inventories")

    @classmethod
    def place_words(cls, board: Board, side: Side) -> str | None:
        """Where ``side``'s pieces are, in one phrase, for a game whose pieces are not
        on a track (``"in the palace"``); ``None``: the track words (the default)."""
        return None


def entry_class(game_id: str) -> type[BoardPictures]:
    """The UI entry of ``game_id`` named by its Game class, imported on first use;
    :class:`BoardPictures` itself for a game that names none.

    :raises UnknownGameError: ``game_id`` is not registered.
    :raises TypeError: the named entry is not a :class:`BoardPictures`.
    """
    where = game_class(game_id).presenter
    if not where:
        return BoardPictures
    from companion.ui.named import named_class

    return named_class(where, BoardPictures)


__all__ = ["BoardPictures", "entry_class"]
