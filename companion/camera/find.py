"""Finding the move a reading shows, as sensor boards do.

Among the legal moves for the throw, those whose resulting position looks, to a camera,
like what the camera read (:func:`find_move`): one (the move played), none (a piece
on a wrong square: the differing squares are named against the nearest legal move),
or several (moves that leave the same picture but not the same position: the player
chooses). Moves that lead to the same position (the same plinth by the same values in
another order) count as one. Needs neither
OpenCV nor a picture: a reading here is only square -> player.

>>> from companion.rules import get_game
>>> state = get_game("senet-tait").new_state()
>>> throw = state.throw_outcomes()[0][0]
>>> played = state.copy()
>>> _ = played.apply(throw)
>>> move = played.legal_moves()[0]
>>> _ = played.apply(move)
>>> find_move(state, throw, seen_board(played)).move == move
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.rules import Move, Phase, PieceZone, State
from companion.rules.core import Square
from companion.rules.throws import Throw

FOUND = "found"
NONE = "none"
SEVERAL = "several"


@dataclass(frozen=True, slots=True)
class Difference:
    """A square where the board seen differs from the one expected: ``seen`` and
    ``expected`` the player (0-based) whose piece stands there, ``None`` for empty."""

    square: Square
    seen: int | None
    expected: int | None


@dataclass(frozen=True)
class Finding:
    """What :func:`find_move` found: ``kind`` :data:`FOUND` (``moves`` holds the move,
    or the moves that all lead to the same position, as casting-stick Senet's ``27-11
    [2+3+2]`` and ``27-11 [2+2+3]``: the first is played), :data:`SEVERAL` (``moves`` holds every move that matches, in the order of
    ``legal_moves()``) or :data:`NONE` (``moves`` empty; ``nearest`` the legal move
    whose position differs from the reading on the fewest squares and
    ``differences`` those squares, in board order; with no legal move at all, or when
    the board did not change, ``nearest`` is ``None`` and the differences are against
    the position before the move)."""

    kind: str
    moves: tuple[Move, ...] = ()
    nearest: Move | None = None
    differences: tuple[Difference, ...] = ()

    @property
    def move(self) -> Move | None:
        """The move found (the first of equivalent ones), or ``None``."""
        return self.moves[0] if self.kind == FOUND else None


def seen_board(state: State) -> dict[Square, int]:
    """The board of ``state`` as a camera sees it: square -> player of the pieces on the
    board (pieces on a plinth, in the Abyss or borne off are not seen)."""
    return {p.square: p.player for p in state.pieces()
            if p.zone is PieceZone.BOARD and p.square is not None}


def differences(seen: Mapping[Square, int | None], expected: Mapping[Square, int],
                squares: tuple[Square, ...] = ()) -> tuple[Difference, ...]:
    """The squares where ``seen`` (square -> player or ``None``) differs from
    ``expected`` (occupied squares only), in the order of ``squares`` and then of the
    rest as met."""
    order = list(squares) + [s for s in (*seen, *expected) if s not in squares]
    out: list[Difference] = []
    done: set[Square] = set()
    for square in order:
        if square in done:
            continue
        done.add(square)
        a, b = seen.get(square), expected.get(square)
        if a != b:
            out.append(Difference(square, a, b))
    return tuple(out)


def find_move(state: State, throw: Throw | None, reading: Mapping[Square, int | None], *,
              ahead: bool = False) -> Finding:
    """The legal moves of ``state`` after ``throw`` whose resulting board matches
    ``reading`` (square -> player 0-based or ``None``; every square of the board, as
    :attr:`companion.camera.read.Reading.squares` gives it, or only the occupied ones).

    ``throw``: applied first when ``state`` waits for a throw; ``None`` when ``state``
    already waits for a move (later moves of the same turn). ``state`` is not changed.
    A move that moves nothing the camera sees (``pass``) matches a board that did not
    change.

    ``ahead``: when no move leaves ``reading``, the board may show the *next* move of
    the same turn too, made after a move that the board alone could not tell (see
    :func:`undecided`: the Labyrinth's ``55-56 with 5`` and ``55-56 with 1``, which die
    is left differs): of such moves, the one that the rest of the turn continues to
    ``reading`` is found, when it is one position (found moves are then that first
    move; the next look finds the second).

    :raises IllegalMoveError: ``throw`` does not fit the throw due, or a throw is given
        where none is due.
    :raises ValueError: ``state`` waits for a throw and ``throw`` is ``None``, or the
        game is over.
    """
    position = state.copy()
    if position.phase is Phase.OVER:
        raise ValueError("the game is over: there is no move to find")
    if throw is not None:
        position.apply(throw)
    elif position.phase is Phase.THROW:
        raise ValueError("the state waits for a throw: pass the throw")
    squares = tuple(reading)
    seen = {s: p for s, p in reading.items() if p is not None}
    matches: list[Move] = []
    keys: set[object] = set()
    nearest: tuple[int, Move, tuple[Difference, ...]] | None = None
    for move in position.legal_moves():
        after = position.copy()
        after.apply(move)
        diff = differences(reading, seen_board(after), squares)
        if not diff:
            matches.append(move)
            keys.add(after.position_key())
        elif nearest is None or len(diff) < nearest[0]:
            nearest = (len(diff), move, diff)
    if len(keys) == 1:  # one move, or moves that differ only in how (values' order)
        return Finding(FOUND, tuple(matches))
    if matches:
        return Finding(SEVERAL, tuple(matches))
    if ahead:
        told = _told_by_next(position, reading, squares)
        if told:
            return Finding(FOUND, told)
    if nearest is None or seen == seen_board(position):
        return Finding(NONE, differences=differences(reading, seen_board(position), squares))
    return Finding(NONE, nearest=nearest[1], differences=nearest[2])


def _continues(before: State, after: State) -> bool:
    """Whether ``after`` (a move made in ``before``) leaves the same player a move of
    the same turn (not a throw, not another player's move)."""
    return (after.phase in (Phase.MOVE, Phase.DECIDE) and after.current_player == before.current_player
            and any(m.kind != "pass" for m in after.legal_moves()))


def undecided(state: State, throw: Throw | None, finding: Finding) -> bool:
    """Whether ``finding`` holds several moves that leave the same board to a camera (not
    the same position: another die is left, as the Labyrinth's ``55-56 with 5`` and
    ``55-56 with 1``) and after which the same player moves again in the same turn:
    the board after that next move can tell which was made (:func:`find_move` with
    ``ahead``). ``state`` and ``throw`` as for :func:`find_move`, which gave
    ``finding``."""
    if finding.kind != SEVERAL:
        return False
    position = state.copy()
    if throw is not None:
        position.apply(throw)
    boards, continued = [], False
    for move in finding.moves:
        after = position.copy()
        after.apply(move)
        boards.append(seen_board(after))
        continued = continued or _continues(position, after)
    return continued and all(b == boards[0] for b in boards)


def _told_by_next(position: State, reading: Mapping[Square, int | None],
                  squares: tuple[Square, ...]) -> tuple[Move, ...]:
    """The moves of ``position`` (waiting for a move) that leave one board with other
    moves (:func:`undecided`) and whose next move of the same turn leaves ``reading``,
    when they all lead to one position; else ``()``."""
    groups: dict[tuple[tuple[Square, int], ...], list[tuple[Move, State]]] = {}
    for move in position.legal_moves():
        after = position.copy()
        after.apply(move)
        groups.setdefault(tuple(sorted(seen_board(after).items(), key=repr)), []).append((move, after))
    told: list[Move] = []
    keys: set[object] = set()
    for group in groups.values():
        if len({after.position_key() for _move, after in group}) < 2:
            continue  # the board tells this move: not one the next move must tell
        for move, after in group:
            if not _continues(position, after):
                continue
            for then in after.legal_moves():
                later = after.copy()
                later.apply(then)
                if not differences(reading, seen_board(later), squares):
                    told.append(move)
                    keys.add(after.position_key())
                    break
    return tuple(told) if len(keys) == 1 else ()


def describe(finding: Finding, names: tuple[str, ...] = ()) -> str:
    """``finding`` in English words for the command line (the screens and speech word
    it from the catalogue: :func:`companion.app.camera.difference_lines`): ``"found: 12-15"``, ``"several: ..."``, ``"none: 14 should be empty
    (Black's piece seen), 18 should hold Black's piece (empty seen)"``."""
    def who(player: int | None) -> str:
        if player is None:
            return "empty"
        name = names[player] if player < len(names) else f"player {player + 1}"
        return f"{name}'s piece"

    if finding.kind != NONE:
        return f"{finding.kind}: " + ", ".join(m.notation for m in finding.moves)
    parts = [f"{d.square} should be {'empty' if d.expected is None else 'holding ' + who(d.expected)} "
             f"({who(d.seen)} seen)" for d in finding.differences]
    nearest = f" (nearest move {finding.nearest.notation})" if finding.nearest else ""
    return "none" + nearest + ": " + ", ".join(parts)


__all__ = ["FOUND", "NONE", "SEVERAL", "Difference", "Finding", "describe", "differences",
           "find_move", "seen_board", "undecided"]
