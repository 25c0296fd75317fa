"""Reading a Game of the Labyrinth position (``docs/positions.md``) and checking that a
game could have reached it: :func:`read_state` checks each key, :func:`validate` the
position as a whole. ``Labyrinth.state_from_dict`` runs both.

This module reads and writes a position through :class:`Position`, the part of
:class:`~companion.rules.labyrinth.LabyrinthState` it needs (a Protocol: the state's
module imports this one, so this one cannot import it)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, TypeVar

from companion.rules.core import PositionError, choose_index, require
from companion.rules.labyrinth.basics import (
    ASK_CROSS,
    ASK_RIDE,
    COLOURS,
    NO_PIECE,
    OUTSIDE,
    PIECES,
    RIDE_DIE,
    STAGE_NAMES,
    STAGE_OVER,
    STAGE_PLAY,
    STAGE_START,
)
from companion.rules.labyrinth_board import SIDES, Board


class Tables(Protocol):
    """What a position's reader needs of the game: its board, which fields any number
    of pieces may share (by field, 0 and the last included) and the fields of the
    Knight's Orbit (by field: its place on the orbit)."""

    @property
    def board(self) -> Board: ...

    @property
    def shared(self) -> list[bool]: ...

    @property
    def orbit_index(self) -> dict[int, int]: ...

    @property
    def tunnel_first(self) -> bool: ...

    @property
    def ride_after_tunnel(self) -> bool: ...


class Position(Protocol):
    """The keys of a Labyrinth position, as :class:`~companion.rules.labyrinth.LabyrinthState`
    keeps them (see its docstring)."""

    players: int
    stage: int
    start_rolls: list[int]
    contenders: list[int]
    turn: int
    pos: list[int]
    trap: list[int]
    fresh: list[bool]
    occ: list[int]
    values: list[int]
    pending: tuple[int, int, int] | None
    entered: bool
    closing: bool
    winner: int

    @property
    def game(self) -> Tables: ...


P = TypeVar("P", bound=Position)


def read_state(state: P, data: Mapping[str, Any]) -> P:
    """Fill ``state``, a new game's starting position, with the keys written by
    ``LabyrinthState.to_dict`` (or by hand), and return it.

    :raises PositionError: naming the key and the reason.
    """
    game = state.game
    board = game.board
    last = board.last
    players = state.players
    names = COLOURS[:players]
    stage_name = data.get("stage", "play")
    if stage_name not in STAGE_NAMES:
        raise PositionError("stage", f"expected start, play or over, got {stage_name!r}")
    pieces = require(data, "pieces", dict)
    for key in pieces:
        if not isinstance(key, str) or key.lower() not in [c.lower() for c in names]:
            raise PositionError(
                f"pieces.{key}",
                f"no such colour in a game of {players}: the colours are {', '.join(c.lower() for c in names)}",
            )
    for p, colour in enumerate(names):
        where = f"pieces.{colour.lower()}"
        entries = pieces.get(colour.lower(), pieces.get(colour))
        if not isinstance(entries, list) or len(entries) != PIECES:
            raise PositionError(where, f"expected a list of {PIECES} entries")
        for i, entry in enumerate(entries):
            at = f"{where}[{i}]"
            k = p * PIECES + i
            turns = 0
            fresh = False
            if isinstance(entry, dict):
                field = require(entry, "field", int, at)
                turns = require(entry, "turns_to_lose", int, at)
                fresh = bool(entry.get("trapped_this_turn", False))
                if not 0 <= turns <= 9:
                    raise PositionError(f"{at}.turns_to_lose", f"expected 0 to 9, got {turns}")
                entry = field
            if entry == "outside":
                continue
            if entry == "off":
                state.pos[k] = last
                continue
            if isinstance(entry, bool) or not isinstance(entry, int):
                raise PositionError(
                    at, f"expected a field 1-{last - 1}, 'outside', 'off' or an object, got {entry!r}"
                )
            if not 1 <= entry < last:
                raise PositionError(at, f"field must be 1 to {last - 1}, got {entry}")
            if entry in board.jumps:
                raise PositionError(
                    at, f"no piece can stay on {entry}: it moves on to {board.jumps[entry]}"
                )
            if not game.shared[entry]:
                if state.occ[entry] != NO_PIECE:
                    raise PositionError(at, f"field {entry} already holds a piece (not a sanctuary)")
                state.occ[entry] = k
            state.pos[k] = entry
            state.trap[k] = turns
            state.fresh[k] = fresh and turns > 0
    winners = [
        p for p in range(players)
        if all(state.pos[k] == last for k in range(p * PIECES, (p + 1) * PIECES))
    ]
    if len(winners) > 1:
        raise PositionError("pieces", "only one player can have borne off all four pieces")
    to_act = choose_index(names, data["to_act"], "to_act") if "to_act" in data else None
    if to_act is not None:
        state.turn = to_act
    if winners:
        # Over is worked out from the pieces; a file that says otherwise is refused.
        if "stage" in data and stage_name != "over":
            raise PositionError(
                "stage", f"{names[winners[0]].lower()} has borne off all four pieces: the game is over"
            )
        # The last bear-off ends the game, in the winner's turn: no dice are left to use,
        # nothing waits, and the winner is the player to act (worked out).
        _nothing_of_a_turn(data, ("dice", "pending", "turn_ending"), "the game is over")
        if to_act is not None and to_act != winners[0]:
            raise PositionError(
                "to_act", f"the game ended in the winner's turn: {names[winners[0]].lower()} is to act, "
                f"not {names[to_act].lower()}"
            )
        state.turn = winners[0]
        state.winner = winners[0]
        state.stage = STAGE_OVER
        return state
    if stage_name == "over":
        raise PositionError("stage", "the game is over only when a player has borne off all four")
    if stage_name == "play":
        # Play writes no start keys: the start ends with one player the highest.
        throws = data.get("start_throws")
        if data.get("contenders") or (
            throws and (not isinstance(throws, Mapping) or any(v is not None for v in throws.values()))
        ):
            raise PositionError(
                "contenders" if data.get("contenders") else "start_throws",
                "contenders and start throws are kept only while the players throw for the start",
            )
    if stage_name == "start":
        state.stage = STAGE_START
        # No turn has begun before the start is decided.
        _nothing_of_a_turn(
            data, ("dice", "pending", "entered_this_turn", "turn_ending"),
            "the players are throwing for the start: no turn has begun",
        )
        rolls = data.get("start_throws") or {}
        if not isinstance(rolls, Mapping):
            raise PositionError("start_throws", "expected an object of colour: throw or null")
        lower = [c.lower() for c in names]
        for key in rolls:
            if not isinstance(key, str) or key.lower() not in lower:
                raise PositionError(
                    f"start_throws.{key}",
                    f"no such colour in a game of {players}: the colours are {', '.join(lower)}",
                )
        contenders = data.get("contenders", lower)
        if not isinstance(contenders, list) or not contenders:
            raise PositionError("contenders", "expected a list of colours")
        state.contenders = [choose_index(names, c, "contenders") for c in contenders]
        # Each round the contenders throw once each, clockwise ('Turns continue clockwise').
        if state.contenders != sorted(set(state.contenders)):
            raise PositionError(
                "contenders", f"expected the contenders once each, in seat order, got {contenders!r}"
            )
        for p in range(players):
            roll = rolls.get(names[p].lower())
            if roll is not None:
                if isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= SIDES:
                    raise PositionError(f"start_throws.{names[p].lower()}", f"expected 1-6 or null, got {roll!r}")
                state.start_rolls[p] = roll
        if all(state.start_rolls[c] for c in state.contenders):
            raise PositionError("start_throws", "every contender has thrown: the start is decided")
        # Who throws next is worked out (the first contender in seat order yet to throw),
        # not read: a file that names another is refused.
        thrown = [bool(state.start_rolls[c]) for c in state.contenders]
        if thrown != sorted(thrown, reverse=True):
            raise PositionError(
                "start_throws", "the contenders throw in seat order: one has thrown before an earlier one"
            )
        due = next(c for c in state.contenders if not state.start_rolls[c])
        if to_act is not None and to_act != due:
            raise PositionError(
                "to_act", f"{names[due].lower()} throws next for the start (the first contender in "
                f"seat order yet to throw), not {names[to_act].lower()}"
            )
        return state
    state.stage = STAGE_PLAY
    dice = data.get("dice")
    if dice is not None:
        if not isinstance(dice, list) or not 1 <= len(dice) <= 2 or any(
            isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= SIDES for d in dice
        ):
            raise PositionError("dice", f"expected null or a list of 1 or 2 values 1-6, got {dice!r}")
        state.values = list(dice)
    # "thrown" (the two dice of the turn), written by earlier versions, is not read: the
    # dice still to use are all the rules need.
    state.entered = bool(data.get("entered_this_turn", False))
    state.closing = bool(data.get("turn_ending", False))
    if state.closing and (state.values or data.get("pending") is None):
        raise PositionError(
            "turn_ending", "only a ride offered after the tunnel from 52 waits at the end of a turn"
        )
    pending = data.get("pending")
    if pending is not None:
        if not isinstance(pending, Mapping):
            raise PositionError("pending", "expected null or an object {what, field}")
        what = pending.get("what")
        field = require(pending, "field", int, "pending")
        codes = {"ride": ASK_RIDE, "cross": ASK_CROSS, "orbit-die": RIDE_DIE}
        if what not in codes:
            raise PositionError("pending.what", f"expected ride, cross or orbit-die, got {what!r}")
        if what == "cross" and field not in board.millstone:
            raise PositionError("pending.field", f"{field} is not a Millstone field")
        if what != "cross" and field not in game.orbit_index:
            raise PositionError("pending.field", f"{field} is not a field of the Knight's Orbit")
        base = state.turn * PIECES
        movers = [k for k in range(base, base + PIECES) if state.pos[k] == field and not state.trap[k]]
        if not movers:
            raise PositionError("pending.field", f"{names[state.turn]} has no free piece on {field}")
        state.pending = (codes[what], movers[0], field)
    return state


def _nothing_of_a_turn(data: Mapping[str, Any], keys: tuple[str, ...], why: str) -> None:
    """Refuse any of ``keys`` (the marks of a turn under way) that ``data`` gives a value
    (null, false, an empty list or object say nothing), with ``why``: no turn is under way.

    :raises PositionError: naming the first such key.
    """
    for key in keys:
        if data.get(key):
            raise PositionError(key, f"{why}, so {key} cannot be {data[key]!r}")


def validate(state: Position) -> None:
    """Check that play could have reached a Labyrinth position.

    :raises PositionError: naming what is impossible: a piece losing more turns than
        any trap of the board gives; a ride offered (or its free die due) on a field
        that offers no ride (a trap of the orbit: 'except for the trap in 52'); an offer
        (a ride, a crossing, the free die) with both dice of the throw unused (an offer
        follows a die used); a turn's end waiting on anything but the ride offered on
        the tunnel's exit after the last turn lost on 52 (seed 001: 'Want to try the
        Knight's Orbit again from there?', option ``ride-after-tunnel``); the start
        stage with a piece already entered, with a tie of fewer than two players, or
        with a player out of the tie who never threw or threw a 6 (a player leaves the
        contest only by throwing lower than the tied highest); a mark of this turn out of
        its turn, or while the turn ends (:func:`_validate_turn_marks`). (:func:`read_state`
        refuses a stage other than over for a player with all four pieces off, dice, an
        offer or a ``to_act`` other than the winner in a game over, and in the start stage throws out of seat order, a throw of a
        colour not in the game, contenders not once each in seat order, the dice, an offer,
        an entry or a turn's end (no turn has begun), or a ``to_act`` other than the
        contender due, which is worked out; in play, contenders or start throws.)
    """
    game = state.game
    board = game.board
    names = COLOURS[: state.players]
    most = max(board.traps.values(), default=0)
    for k, turns in enumerate(state.trap):
        if turns > most:
            colour, i = names[k // PIECES].lower(), k % PIECES
            raise PositionError(
                f"pieces.{colour}[{i}].turns_to_lose",
                f"{turns} turns to lose, but no trap of the board takes more than {most}",
            )
    pending = state.pending
    if pending is not None and pending[0] in (ASK_RIDE, RIDE_DIE) and pending[2] in board.traps:
        raise PositionError(
            "pending.field", f"{pending[2]} is a trap: it offers no ride on the Knight's Orbit"
        )
    if pending is not None and len(state.values) == 2:
        raise PositionError("pending", "an offer follows a die used, but both dice are unused")
    exits = set(board.trap_exits.values())
    if state.closing and (pending is None or pending[0] not in (ASK_RIDE, RIDE_DIE)
                          or pending[2] not in exits or game.tunnel_first
                          or not game.ride_after_tunnel):
        raise PositionError(
            "turn_ending", "only the ride offered on the tunnel's exit after the last turn "
            "lost on 52 waits at the end of a turn")
    _validate_turn_marks(state)
    if state.stage == STAGE_START and len(state.contenders) < state.players:
        if len(state.contenders) < 2:
            raise PositionError("contenders", "a tie for the start has two players or more")
        for p in range(state.players):
            if p not in state.contenders and not 1 <= state.start_rolls[p] <= SIDES - 1:
                raise PositionError(
                    f"start_throws.{names[p].lower()}",
                    "a player out of the tie threw lower than the tied highest (1-5)")
    if state.stage == STAGE_START:
        for k, f in enumerate(state.pos):
            if f != OUTSIDE:
                colour, i = names[k // PIECES].lower(), k % PIECES
                raise PositionError(
                    f"pieces.{colour}[{i}]", "before the start is decided every piece is outside"
                )


def _validate_turn_marks(state: Position) -> None:
    """The checks of :func:`validate` about what a turn marks on its pieces and itself:
    ``trapped_this_turn`` only on a piece of the player to act, with the whole of a
    trap's turns still to lose (the count starts with the owner's next turn), not with both
    dice unused (a count uses a die), not while the turn ends (``turn_ending``: the turn's end has cleared the marks before it offers
    the ride on the tunnel's exit), and neither it nor ``entered_this_turn`` while a new
    turn's throw is due (the turn's end clears both) or, for the entry, with both dice
    unused (an entry uses a die) or every piece of the player still outside; and no more
    marks than dice used, each taking a die of its own (an offer waiting but the ride at
    the turn's end, each piece trapped this turn, an entry).
    """
    game = state.game
    names = COLOURS[: state.players]
    fresh_turns = set(game.board.traps.values())
    # A throw of the two dice is due: a new turn, nothing of it done yet.
    turn_start = (
        state.stage != STAGE_PLAY or (not state.values and state.pending is None and not state.closing)
    )
    base = state.turn * PIECES
    for k, fresh in enumerate(state.fresh):
        if not fresh:
            continue
        where = f"pieces.{names[k // PIECES].lower()}[{k % PIECES}].trapped_this_turn"
        if turn_start or not base <= k < base + PIECES:
            raise PositionError(
                where, "only a piece of the player to act falls into a trap during the turn under way "
                "(the turn's end clears the mark)"
            )
        if state.closing:
            raise PositionError(
                where, "the turn is ending (turn_ending): the turn's end clears every mark of the turn "
                "before it offers the ride on the tunnel's exit"
            )
        if len(state.values) == 2:
            raise PositionError(
                where, "a piece falls into a trap by a count, with a die of the turn: not while both "
                "dice are unused"
            )
        if state.trap[k] not in fresh_turns:
            raise PositionError(
                where, f"a piece trapped this turn has lost none of its turns yet: "
                f"{state.trap[k]} is not the turns of any trap of the board"
            )
    if state.entered:
        if turn_start or len(state.values) == 2:
            raise PositionError(
                "entered_this_turn", "a piece enters with a die of the turn under way: not while "
                "a new throw is due or both dice are unused"
            )
        if all(state.pos[k] == OUTSIDE for k in range(base, base + PIECES)):
            raise PositionError(
                "entered_this_turn", f"a piece entered this turn, yet every piece of "
                f"{names[state.turn].lower()} is outside"
            )
    if turn_start:
        return
    # Each mark of the turn took a die of its own: the offer waiting (the count that landed
    # on its field; the ride after the tunnel at the turn's end takes none), each piece
    # trapped this turn, a piece entered.
    used = 2 - len(state.values)
    marks = [("pending", state.pending is not None and not state.closing)]
    marks += [
        (f"pieces.{names[k // PIECES].lower()}[{k % PIECES}].trapped_this_turn", True)
        for k in range(base, base + PIECES) if state.fresh[k]
    ]
    marks.append(("entered_this_turn", state.entered))
    needed = 0
    for where, made in marks:
        needed += made
        if needed > used:
            raise PositionError(
                where, f"{used} of the turn's dice used, but an offer waiting, a piece entered and "
                f"each piece trapped this turn each took a die of its own ({needed} so far)"
            )


__all__ = ["Position", "Tables", "read_state", "validate"]
