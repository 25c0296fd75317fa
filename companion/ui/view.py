"""The view model: everything a screen shows, as plain frozen data.

The controller builds a :class:`View`; :func:`companion.ui.render.render` turns it
into a picture. Nothing here knows about devices or the event loop.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.rules.kinds import DARK, LIGHT

if TYPE_CHECKING:
    from companion.rules.throws import Implement, Throw  # the implements: with the first game
    from companion.ui.games.boards import Board


@dataclass(frozen=True, slots=True)
class ThrowPicture:
    """A throw to draw: ``kind`` is ``"sticks"`` (faces ``L``/``D``), ``"dice"`` (faces
    ``"1"``-``"6"``), ``"coloured"`` (faces ``"3:red"``), ``"card"`` (one card id) or
    ``"faces"`` (anything else, drawn as text). A face ``"?"`` is not entered yet;
    ``focus`` underlines the face being entered. ``caption`` is the score in big digits,
    left out when the faces leave no room for it. ``usable``: empty (nothing marked), or
    one flag per face: a usable face is drawn lit (inverted), an unusable one with a
    dotted outline, and its text struck through (dice, coloured sticks, text faces;
    two-sided sticks are not marked)."""

    kind: str
    faces: tuple[str, ...]
    caption: str = ""
    focus: int | None = None
    usable: tuple[bool, ...] = ()


@dataclass(frozen=True, slots=True)
class View:
    """One screen.

    ``screen``: its name (``"moves"``, ``"throw"``, ...; the reference PNGs use it);
    ``title``: the inverted top line; ``lines``: text, word-wrapped by the renderer and
    shown from line ``scroll``; ``items``: a menu, with ``cursor`` on the chosen one
    (with items, the first few ``lines`` are shown above the menu); ``picture``: a throw; ``hint``: the
    bottom line (what the buttons do), dropped on a 32-pixel panel. ``board``: a board
    picture fills the whole panel instead (:mod:`companion.ui.games.boards`), its
    ``page`` 0 the board, 1 and on the inventories where a game has them.
    """

    screen: str
    title: str
    lines: tuple[str, ...] = ()
    items: tuple[str, ...] = ()
    cursor: int = 0
    scroll: int = 0
    picture: ThrowPicture | None = None
    hint: str = ""
    board: Board | None = None
    page: int = 0


def kind_of(implement: Implement) -> str:
    """The picture kind for ``implement`` (see :class:`ThrowPicture`): its
    :attr:`~companion.rules.Implement.kind`."""
    return implement.kind


def picture_of(throw: Throw, implement: Implement) -> ThrowPicture:
    """The picture of ``throw`` made with ``implement``; the caption is its score
    (sticks), the values joined by ``+`` (dice, coloured sticks) or empty (a card)."""
    kind = kind_of(implement)
    if kind == "card":
        caption = ""
    elif kind == "sticks" or len(throw.values) == 1:
        caption = str(throw.values[0]) if throw.values else ""
    else:
        caption = "+".join(map(str, throw.values))
    return ThrowPicture(kind, throw.faces, caption)


__all__ = ["DARK", "LIGHT", "ThrowPicture", "View", "kind_of", "picture_of"]
