"""Every piece's place in words, from a :class:`~companion.ui.games.boards.model.Board`."""

from __future__ import annotations

from companion.i18n import _
from companion.rules import PieceZone
from companion.ui.rules_words import say

from .entry import entry_class
from .model import Board, Side

MIN_WIDTH = 12
"""The narrowest lines :func:`pieces_in_words_of` writes (a name and a square)."""

_ZONES = (PieceZone.OUTSIDE, PieceZone.HELD, PieceZone.OFF)


def entry(board: Board, side: Side) -> str:
    """One player's pieces in one sentence (see :func:`pieces_in_words_of`)."""
    place = entry_class(board.game).place_words(board, side)
    name = say(side.name)
    if place is not None:
        return _("{player}: {places}").format(player=name, places=place)
    parts: list[str] = []
    squares = board.squares_of(side.player)
    if squares:
        trapped = {
            p.square: p.trapped for p in board.pieces
            if p.player == side.player and p.zone is PieceZone.BOARD and p.trapped
        }
        shown = []
        for s in dict.fromkeys(squares):  # a sanctuary may hold several: "1 x2"
            text = str(s)
            if squares.count(s) > 1:
                text += f"{GLUE}x{squares.count(s)}"
            if s in trapped:
                text += GLUE + _("(loses {turns})").format(turns=trapped[s]).replace(" ", GLUE)
            shown.append(text)
        parts.append(_("{count} on {squares}").format(count=len(squares), squares=", ".join(shown)))
    for zone in _ZONES:
        n = board.count(side.player, zone)
        if n:
            parts.append(f"{n} {board.zone_word(zone) or zone.value}")
    return _("{player}: {places}").format(player=name, places="; ".join(parts) if parts else _("no pieces"))


GLUE = "\x00"
"""Joins words that a line must not break apart (``13 (loses 2)``); a space when shown."""


def wrap_entry(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` characters, the lines after the first
    indented by two spaces. A line breaks after a ``;`` where the next part fits on a
    line, else at a space; a word longer than a line is cut."""
    parts = text.split("; ")
    parts = [p + ";" for p in parts[:-1]] + parts[-1:]
    lines: list[str] = []
    line = ""

    def room() -> int:
        return width if not lines else width - 2

    for part in parts:
        if line and len(line) + 1 + len(part) <= room():
            line += " " + part
            continue
        if line and len(part) <= width - 2:
            lines.append(line)
            line = part
            continue
        for word in part.split(" "):
            while word:
                if not line:
                    line, word = word[: room()], word[room():]
                    if word:
                        lines.append(line)
                        line = ""
                elif len(line) + 1 + len(word) <= room():
                    line, word = f"{line} {word}", ""
                else:
                    lines.append(line)
                    line = ""
    if line or not lines:
        lines.append(line)
    return [x.replace(GLUE, " ") for x in lines[:1] + ["  " + x for x in lines[1:]]]


def pieces_in_words_of(board: Board, width: int) -> list[str]:
    """Every player's entry (:func:`entry`) wrapped to ``width`` characters.

    :raises ValueError: ``width`` under :data:`MIN_WIDTH`.
    """
    if width < MIN_WIDTH:
        raise ValueError(f"pieces in words need lines of at least {MIN_WIDTH} characters, not {width}")
    out: list[str] = []
    for side in board.sides:
        out += wrap_entry(entry(board, side), width)
    return out
