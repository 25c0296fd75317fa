"""Finding the move a reading shows, as sensor boards do.

Among the legal moves for the throw, those whose resulting position looks, to a camera,
like what the camera read (:func:`find_move`): one (the move played), none (a piece
on a wrong square: the differing squares are named against the nearest legal move),
or several (moves that leave the same picture but not the same position: the player
chooses). Moves that lead to the same position (the same plinth by the same values in
another order, or one of a player's alike pieces instead of another: :func:`outcome_key`)
count as one. Needs neither
OpenCV nor a picture: a reading here is only square -> player, and on the squares where
several pieces may stand (the Labyrinth's sanctuaries, every Cretan square) the pieces counted
(:class:`Seen`).

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

import json
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from companion.rules import Move, Phase, PieceZone, State
from companion.rules.core import Square
from companion.rules.throws import Throw

Stack = tuple[int, ...]
"""What stands on one square as counted: the player (0-based) of each piece, sorted;
``()`` an empty square, ``(0, 0)`` two of the first player's pieces, ``(0, 1)`` one of
each."""

FOUND = "found"
NONE = "none"
SEVERAL = "several"


@dataclass(frozen=True, slots=True)
class Difference:
    """A square where the board seen differs from the one expected: ``seen`` and
    ``expected`` the player (0-based) whose piece stands there, ``None`` for empty (on a
    square of several players' pieces, the highest-numbered, as :func:`seen_board`); on
    a square whose pieces were counted (:attr:`Seen.stacks`), ``seen_stack`` and
    ``expected_stack`` the pieces counted there and those expected (a :data:`Stack`
    each; ``None`` on a square not counted)."""

    square: Square
    seen: int | None
    expected: int | None
    seen_stack: Stack | None = None
    expected_stack: Stack | None = None

    def counts(self) -> tuple[tuple[int, int, int], ...]:
        """On a counted square where several pieces stand or should (either stack of two
        or more): ``(player, expected, seen)`` for each player whose number of pieces
        there differs, players in order (``(0, 2, 1)``: two of the first player's pieces
        should be there, one is seen); ``()`` elsewhere (a piece missing, extra or
        another player's: :attr:`seen` and :attr:`expected` say it)."""
        seen, expected = self.seen_stack, self.expected_stack
        if seen is None or expected is None or max(len(seen), len(expected)) < 2:
            return ()
        return tuple((p, expected.count(p), seen.count(p)) for p in sorted(set(seen) | set(expected))
                     if expected.count(p) != seen.count(p))


@dataclass(frozen=True)
class Finding:
    """What :func:`find_move` found: ``kind`` :data:`FOUND` (``moves`` holds the move,
    or the moves that all lead to the same position (:func:`outcome_key`), as
    casting-stick Senet's ``27-11 [2+3+2]`` and ``27-11 [2+2+3]``: the first is played;
    told by the turn's next move (``ahead``), the first moves after which that next
    move leads to one position), :data:`SEVERAL` (``moves`` holds every move that matches, in the order of
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


_Player = TypeVar("_Player", bound=int | None)


class Seen(dict[Square, _Player]):
    """A board as read: square -> the player (0-based) seen on it or ``None`` (as
    :attr:`companion.camera.read.Reading.squares`), and ``stacks``: on the squares where
    several pieces may stand (:attr:`companion.camera.board.Layout.shared`), what was
    counted there (a :data:`Stack` each, every such square). :func:`find_move` and
    :func:`shows` compare those squares by their stacks, so that a move onto a field its
    player already holds, from one it still holds (the Labyrinth's ``2-5`` from a
    field of two pieces onto one of one: the squares' players do not change) is told.
    A plain mapping is a board read without counting. ``Seen[int]``: a board expected,
    its occupied squares only, with the pieces of each (:func:`expected_board`)."""

    def __init__(self, squares: Mapping[Square, _Player], stacks: Mapping[Square, Stack] | None = None):
        super().__init__(squares)
        self.stacks: dict[Square, Stack] = dict(stacks or {})


def seen_board(state: State) -> dict[Square, int]:
    """The board of ``state`` as a camera sees it: square -> player of the pieces on the
    board (pieces on a plinth, in the Abyss or borne off are not seen); on a square
    with pieces of several players (a Labyrinth's sanctuary, a Cretan square), the highest-numbered
    player (:func:`seen_stacks` has them all)."""
    return {square: stack[-1] for square, stack in seen_stacks(state).items()}


def seen_stacks(state: State) -> dict[Square, Stack]:
    """The board of ``state`` counted: each occupied square -> the players of its
    pieces, sorted (a :data:`Stack`); the pieces :func:`seen_board` sees."""
    stacks: dict[Square, list[int]] = {}
    for p in state.pieces():
        if p.zone is PieceZone.BOARD and p.square is not None:
            stacks.setdefault(p.square, []).append(p.player)
    return {square: tuple(sorted(players)) for square, players in stacks.items()}


def seen_pieces(state: State) -> dict[Square, int | Stack]:
    """The board of ``state`` as the fake camera draws it
    (:data:`companion.camera.fake.Pieces`): each occupied square -> the player of its
    piece, or the :data:`Stack` of its pieces when several stand there."""
    return pieces_of(expected_board(state))


def expected_board(state: State) -> Seen[int]:
    """The board of ``state`` as the camera should see it, to compare a reading with
    (:func:`board_differences`): its occupied squares -> player (:func:`seen_board`),
    with the pieces of each (:func:`seen_stacks`) as its ``stacks``."""
    stacks = seen_stacks(state)
    return Seen({square: stack[-1] for square, stack in stacks.items()}, stacks)


def occupied_board(reading: Mapping[Square, int | None]) -> Seen[int]:
    """The occupied squares of ``reading`` in the form of :func:`expected_board`: each
    -> its player, and its pieces (counted, on a counted square; else one)."""
    stacks = stacks_of(reading)
    board = {square: player for square, player in reading.items() if player is not None}
    return Seen(board, {square: stacks.get(square, (player,)) for square, player in board.items()})


def pieces_of(board: Mapping[Square, int | None]) -> dict[Square, int | Stack]:
    """``board`` (occupied squares -> player; a :class:`Seen` with the pieces of its
    squares, as :func:`expected_board`) as the fake camera draws it
    (:data:`companion.camera.fake.Pieces`): a square's player, or the :data:`Stack` of
    its pieces when several stand there."""
    stacks = stacks_of(board)
    return {square: stacks[square] if len(stacks.get(square, ())) > 1 else player
            for square, player in board.items() if player is not None}


def same_board(one: Mapping[Square, int | None], other: Mapping[Square, int | None]) -> bool:
    """Whether two boards in the form of :func:`expected_board` (or plain square ->
    player mappings, one piece a square) show the same pieces, counted."""
    return dict(one) == dict(other) and _pieces(one) == _pieces(other)


def _pieces(board: Mapping[Square, int | None]) -> dict[Square, Stack]:
    """The pieces of each occupied square of ``board`` (in the form of
    :func:`expected_board`; a plain mapping: one piece a square)."""
    return board.stacks if isinstance(board, Seen) else {s: (p,) for s, p in board.items() if p is not None}


def seen_as_read(state: State, shared: tuple[Square, ...] = ()) -> Seen[int | None]:
    """The board of ``state`` as a reader that counts the pieces on ``shared``
    (:attr:`companion.camera.board.Layout.shared`) reads it, every square of ``shared``
    counted and the occupied squares' players (the empty ones left out, as
    :func:`find_move` takes them)."""
    stacks = seen_stacks(state)
    return Seen(seen_board(state), {square: stacks.get(square, ()) for square in shared})


def stacks_of(reading: Mapping[Square, int | None]) -> dict[Square, Stack]:
    """The counted squares of ``reading`` (:attr:`Seen.stacks`), ``{}`` for a plain
    mapping."""
    return reading.stacks if isinstance(reading, Seen) else {}


def _board_differences(reading: Mapping[Square, int | None], after: State,
                       squares: tuple[Square, ...]) -> tuple[Difference, ...]:
    """:func:`board_differences` of ``reading`` against ``after``'s board."""
    return board_differences(reading, expected_board(after), squares)


def board_differences(reading: Mapping[Square, int | None], expected: Mapping[Square, int | None],
                      squares: tuple[Square, ...] = ()) -> tuple[Difference, ...]:
    """:func:`differences` of ``reading`` against ``expected`` (occupied squares ->
    player; a :class:`Seen` with the pieces of each, as :func:`expected_board`; a plain
    mapping: one piece a square), ``reading``'s counted squares (:attr:`Seen.stacks`)
    compared by their stacks: a square whose count differs is a difference with
    ``seen_stack`` and ``expected_stack`` (its ``seen`` and ``expected`` players may be
    alike: two pieces where one belongs), in the order of ``squares``."""
    stacks = stacks_of(reading)
    diff = differences(reading, expected, squares)
    if not stacks:
        return diff
    counted = _pieces(expected)
    wrong = {s for s, stack in stacks.items() if counted.get(s, ()) != stack}
    if not wrong and not any(d.square in stacks for d in diff):
        return diff
    out = [d for d in diff if d.square not in stacks]
    out += [Difference(s, reading.get(s), expected.get(s), stacks[s], counted.get(s, ()))
            for s in stacks if s in wrong]
    order = {s: i for i, s in enumerate(squares)}
    return tuple(sorted(out, key=lambda d: order.get(d.square, len(order))))


def shows(reading: Mapping[Square, int | None], state: State) -> bool:
    """Whether ``reading`` (square -> player or ``None``; a :class:`Seen` compared on its
    counted squares too) shows ``state``'s board."""
    return not _board_differences(reading, state, tuple(reading))


def outcome_key(state: State) -> Hashable:
    """A key of what ``state`` holds for the rest of the game: equal for two states that
    play on alike. Its JSON form (:meth:`State.to_dict`, docs/positions.md) less the
    :attr:`~State.record_only_keys`, with each colour's pieces, where the form lists
    them under ``"pieces"`` per colour (Tait's Senet, the Labyrinth: ``{"red": [31, 1,
    "outside", "outside"], ...}``), in a fixed order: a player's pieces are alike to the
    rules, so the Labyrinth's ``47-53 to 57`` (the piece on 47 jumps past the one on 53)
    and ``53-57 with 6`` leave the same game though its state numbers the two pieces
    the other way round (a piece's own marks, as a trap's turns to lose, stay with it).
    The same dice left, the same decision pending, the same player to act are still
    required. States with equal :meth:`State.position_key` have equal keys; a JSON string.
    """
    body = state.to_dict()
    for key in state.record_only_keys:
        body.pop(key, None)
    pieces = body.get("pieces")
    if isinstance(pieces, dict):
        body["pieces"] = {colour: sorted(entries, key=lambda e: json.dumps(e, sort_keys=True))
                          if isinstance(entries, list) else entries for colour, entries in pieces.items()}
    return json.dumps(body, sort_keys=True)


def _one_outcome(states: list[State]) -> bool:
    """Whether ``states`` (at least one) all play on alike (:func:`outcome_key`); the
    position keys first, the JSON forms only when they differ."""
    if len({s.position_key() for s in states}) == 1:
        return True
    return len({outcome_key(s) for s in states}) == 1


def differences(seen: Mapping[Square, int | None], expected: Mapping[Square, int | None],
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
    :attr:`companion.camera.read.Reading.squares` gives it, or only the occupied ones;
    a :class:`Seen` is matched on its counted squares by the pieces counted there, so a
    move onto a field its player holds from one it still holds is told).

    ``throw``: applied first when ``state`` waits for a throw; ``None`` when ``state``
    already waits for a move (later moves of the same turn). ``state`` is not changed.
    A move that moves nothing the camera sees (``pass``) matches a board that did not
    change.

    ``ahead``: when no move leaves ``reading``, the board may show the *next* move of
    the same turn too, made after a move that the board alone could not tell (see
    :func:`undecided`: the Labyrinth's ``55-56 with 5`` and ``55-56 with 1``, which die
    is left differs): of such moves, the one that the rest of the turn continues to
    ``reading`` is found, when it is one position, or when the turn's next moves that
    leave ``reading`` all lead to one position (found moves are then that first
    move, or those first moves; the next look finds the second).

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
    matches: list[Move] = []
    results: list[State] = []
    nearest: tuple[int, Move, tuple[Difference, ...]] | None = None
    for move in position.legal_moves():
        after = position.copy()
        after.apply(move)
        diff = _board_differences(reading, after, squares)
        if not diff:
            matches.append(move)
            results.append(after)
        elif nearest is None or len(diff) < nearest[0]:
            nearest = (len(diff), move, diff)
    if results and _one_outcome(results):  # one move, or moves that differ only in how
        return Finding(FOUND, tuple(matches))
    if matches:
        return Finding(SEVERAL, tuple(matches))
    if ahead:
        told = _told_by_next(position, reading, squares)
        if told:
            return Finding(FOUND, told)
    if nearest is None or shows(reading, position):
        return Finding(NONE, differences=board_differences(reading, expected_board(position), squares))
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
    in the order of ``legal_moves()``, when they all lead to one position, or when the
    next moves that leave ``reading`` all do (the Labyrinth's ``58-60 with 4`` and
    ``58-60 with 2`` from a field holding two pieces, then the other piece by the other
    die: either order leaves the same game; the first is played, and the next look
    finds the second from it); else ``()``. Positions are compared by
    :func:`outcome_key`."""
    counted = bool(stacks_of(reading))
    groups: dict[tuple[tuple[Square, object], ...], list[tuple[Move, State]]] = {}
    for move in position.legal_moves():
        after = position.copy()
        after.apply(move)
        board: Mapping[Square, object] = seen_stacks(after) if counted else seen_board(after)
        groups.setdefault(tuple(sorted(board.items(), key=repr)), []).append((move, after))
    told: list[Move] = []
    firsts: list[State] = []
    lasts: list[State] = []
    for group in groups.values():
        if _one_outcome([after for _move, after in group]):
            continue  # the board tells this move: not one the next move must tell
        for move, after in group:
            if not _continues(position, after):
                continue
            ends = []
            for then in after.legal_moves():
                later = after.copy()
                later.apply(then)
                if not _board_differences(reading, later, squares):
                    ends.append(later)
            if ends:
                told.append(move)
                firsts.append(after)
                lasts.extend(ends)
    if not told or not (_one_outcome(firsts) or _one_outcome(lasts)):
        return ()
    order = {move: index for index, move in enumerate(position.legal_moves())}
    return tuple(sorted(told, key=order.__getitem__))


def describe(finding: Finding, names: tuple[str, ...] = ()) -> str:
    """``finding`` in English words for the command line (the screens and speech word
    it from the catalogue: :func:`companion.app.camera.difference_lines`): ``"found: 12-15"``, ``"several: ..."``, ``"none: 14 should be empty
    (Black's piece seen), 18 should hold Black's piece (empty seen)"``; a count that
    differs, ``"31 should hold 2 of Red's pieces (1 seen)"``."""
    def who(player: int | None) -> str:
        if player is None:
            return "empty"
        name = names[player] if player < len(names) else f"player {player + 1}"
        return f"{name}'s piece"

    if finding.kind != NONE:
        return f"{finding.kind}: " + ", ".join(m.notation for m in finding.moves)
    def part(d: Difference) -> str:
        if d.counts():
            return ", ".join(f"{d.square} should hold {n} of {who(p)}s ({m} seen)" for p, n, m in d.counts())
        return f"{d.square} should be {'empty' if d.expected is None else 'holding ' + who(d.expected)} " \
            f"({who(d.seen)} seen)"

    parts = [part(d) for d in finding.differences]
    nearest = f" (nearest move {finding.nearest.notation})" if finding.nearest else ""
    return "none" + nearest + ": " + ", ".join(parts)


__all__ = ["FOUND", "NONE", "SEVERAL", "Difference", "Finding", "Seen", "Stack", "board_differences", "describe",
           "differences", "expected_board", "find_move", "occupied_board", "outcome_key", "pieces_of", "same_board",
           "seen_as_read", "seen_board", "seen_pieces", "seen_stacks", "shows", "stacks_of", "undecided"]
