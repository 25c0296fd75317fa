"""Senet under John Tait's rules (seed ``003_30ab1187949567ae.txt``).

Board: 30 squares numbered 1-30 along the boustrophedon path; square 15 is the House
of Rebirth (safe), 26 the House of Beauty, 27 the House of Water. Two players, five
pieces each, starting off the board on their plinths; Player 1 is Black and throws
first. The throw is of casting sticks counted by light sides, none light scoring 6
(4 sticks by default, option ``sticks=5``). Every decision the seed leaves open is
written in ``docs/rules/senet-tait.md``.

A turn is one throw and one action (enter, move, bear off) or an explicit ``pass``
when no action is possible ("the throw is lost"); an extra throw keeps the turn.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Mapping
from typing import Any, Final

from companion.rules.core import (
    EV_BORNE_OFF,
    EV_BUMPED,
    EV_DROWNED,
    EV_ENTERED,
    EV_EXTRA_THROW,
    EV_MOVED,
    EV_THROW_LOST,
    EV_THROWN,
    EV_WON,
    PASS,
    Event,
    Game,
    Move,
    Option,
    Outcome,
    Phase,
    PieceAt,
    PieceZone,
    PositionError,
    State,
    choose_index,
    require,
)
from companion.rules.throws import BinarySticks, Implement, Throw

SQUARES: Final = 30
"""The board's squares are numbered 1..30."""
HOUSE_OF_REBIRTH: Final = 15
"""'Square 15 is the House of Rebirth' -- a safe square."""
HOUSE_OF_BEAUTY: Final = 26
"""'Square 26 is the House of Beauty' -- moving a piece onto it earns an extra throw."""
HOUSE_OF_WATER: Final = 27
"""'Square 27 is the House of Water' -- a piece landing there goes back to its plinth."""
PIECES: Final = 5
"""'each player has five pieces'."""
ENTRY_SQUARES: Final = (4, 6)
"""'New pieces can be placed on the board on a throw of four or six.'"""
OFF: Final = SQUARES + 1
"""Bearing off is moving to the imaginary square 31 by exact count."""

ENTRY_WORTH: Final = 16
"""What entering a piece is worth, in squares, for :meth:`SenetTaitState.progress`: a
piece waits on its plinth for a four or a six (1 throw in 8 with four sticks), about 8
throws of about 2.3 squares each; so a piece bumped back to its plinth loses its
squares and this much more."""

COLOURS: Final = ("Black", "White")
"""'Player 1 takes the black pieces'."""

EMPTY: Final = -1

# Moves are interned: every legal move is one of these objects.
_ENTER: Final = {v: Move("enter", None, v, (v,)) for v in ENTRY_SQUARES}
_MOVE: Final = {
    (s, v): Move("move", s, s + v, (v,))
    for s in range(1, SQUARES + 1)
    for v in range(1, 7)
    if s + v <= SQUARES
}
_BEAR: Final = {
    (s, v): Move("bear-off", s, None, (v,))
    for s in range(1, SQUARES + 1)
    for v in range(1, 7)
    if s + v == OFF
}

_PASS_ONLY: Final = (PASS,)

_EVENTS: dict[tuple[str, int, int | None, int | None, int], Event] = {}


def _event(kind: str, player: int, src: int | None, dst: int | None, value: int = 0) -> Event:
    """An interned event (events recur): ``value`` is the throw's value for a throw or
    a lost throw, the :data:`EXTRA_REASONS` bits for an extra throw."""
    key = (kind, player, src, dst, value)
    ev = _EVENTS.get(key)
    if ev is None:
        args: dict[str, object] = {}
        if kind in (EV_THROWN, EV_THROW_LOST):
            args["value"] = value
        elif kind == EV_EXTRA_THROW:
            args["reasons"] = tuple(word for bit, word in EXTRA_REASONS if value & bit)
        ev = Event(kind, player, src=src, dst=dst, args=args)  # type: ignore[arg-type]
        _EVENTS[key] = ev
    return ev


# Why an extra throw was earned; several at once still give one ("not cumulative").
_EXTRA_SIX: Final = 1
_EXTRA_BEAUTY: Final = 2
_EXTRA_OFF: Final = 4
EXTRA_REASONS: Final = ((_EXTRA_SIX, "six"), (_EXTRA_BEAUTY, "house-of-beauty"), (_EXTRA_OFF, "borne-off"))
"""Why an extra throw was earned, as the ``reasons`` keys of an ``extra-throw`` event
(seed 003: "a player may make an extra throw ... (i) when that player's last throw was
six, (ii) when that player's last move was to move a piece on The House Of Beauty, or
(iii) when that player's last move was to bear a piece off the board")."""

class SenetTait(Game):
    """Senet under Tait's rules. Options: ``sticks`` (4 or 5), ``house-of-beauty``
    (``onto`` or ``from``), ``six-after-lost-throw`` (bool); see ``docs/rules/senet-tait.md``.
    """

    id = "senet-tait"
    title = "Senet (Tait's rules)"
    seed_files = ("003_30ab1187949567ae.txt",)
    sharpness = 2.4
    presenter = "companion.ui.games.senet_tait:SenetTaitPresenter"
    words = "companion.ui.events.senet_tait:SenetTaitWords"
    min_players = max_players = default_players = 2
    options = (
        Option(
            "sticks",
            4,
            "number of casting sticks (4 as in Tutankhamun's boxes; 5 makes a throw of five possible)",
            (4, 5),
        ),
        Option(
            "house-of-beauty",
            "onto",
            "extra throw for moving a piece onto square 26 ('onto') or off it ('from')",
            ("onto", "from"),
        ),
        Option(
            "six-after-lost-throw",
            True,
            "a six earns the extra throw even when the six could not be used",
        ),
    )

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        self.sticks = BinarySticks(int(self.option("sticks")))
        self.beauty_from = self.option("house-of-beauty") == "from"
        self.six_after_lost = bool(self.option("six-after-lost-throw"))

    def player_name(self, player: int, players: int) -> str:
        return COLOURS[player]

    def new_state(self, players: int | None = None) -> SenetTaitState:
        self.check_players(players)
        return SenetTaitState(self)

    def _state_from_body(self, data: Mapping[str, Any], players: int) -> SenetTaitState:
        state = SenetTaitState(self)
        state.turn = choose_index(COLOURS, require(data, "to_act", str), "to_act")
        pieces = require(data, "pieces", dict)
        for key in pieces:
            if not isinstance(key, str) or key.lower() not in [c.lower() for c in COLOURS]:
                raise PositionError(
                    f"pieces.{key}", f"no such colour: the colours are {', '.join(c.lower() for c in COLOURS)}"
                )
        for p, colour in enumerate(COLOURS):
            where = f"pieces.{colour.lower()}"
            entries = pieces.get(colour.lower(), pieces.get(colour))
            if not isinstance(entries, list) or len(entries) != PIECES:
                raise PositionError(where, f"expected a list of {PIECES} entries")
            state.plinth[p] = 0
            for i, entry in enumerate(entries):
                at = f"{where}[{i}]"
                if entry == "plinth":
                    state.plinth[p] += 1
                elif entry == "off":
                    state.off[p] += 1
                elif isinstance(entry, int) and not isinstance(entry, bool):
                    if not 1 <= entry <= SQUARES:
                        raise PositionError(at, f"square must be 1 to {SQUARES}, got {entry}")
                    if entry == HOUSE_OF_WATER:
                        raise PositionError(
                            at, "no piece can stand on 27: the House of Water sends it to its plinth"
                        )
                    if state.board[entry] != EMPTY:
                        raise PositionError(at, f"square {entry} already holds a piece")
                    state.board[entry] = p
                    insort(state.squares[p], entry)
                else:
                    raise PositionError(at, f"expected a square 1-30, 'plinth' or 'off', got {entry!r}")
        if state.off[0] == PIECES and state.off[1] == PIECES:
            raise PositionError("pieces", "both players cannot have borne off all pieces")
        for p in (0, 1):
            if state.off[p] == PIECES:
                state.winner = p
        throw = data.get("throw")
        if throw is not None and state.winner == EMPTY:
            if not isinstance(throw, int) or isinstance(throw, bool) or throw not in self.sticks.scores:
                raise PositionError(
                    "throw", f"expected null or a score of {self.sticks.id} "
                    f"({', '.join(map(str, sorted(set(self.sticks.scores))))}), got {throw!r}"
                )
            state.throw = throw
        return state


class SenetTaitState(State):
    """A Senet position. ``board[s]`` is the player on square ``s`` (1..30) or -1."""

    __slots__ = ("board", "off", "plinth", "squares", "throw", "turn", "winner")

    game: SenetTait

    def __init__(self, game: SenetTait) -> None:
        super().__init__(game, 2)
        self.board: list[int] = [EMPTY] * (SQUARES + 1)
        self.squares: list[list[int]] = [[], []]
        """Per player, the squares of its pieces on the board in ascending order."""
        self.plinth: list[int] = [PIECES, PIECES]
        self.off: list[int] = [0, 0]
        self.turn = 0
        self.throw = 0
        """The score being played, 0 while a throw is due."""
        self.winner = EMPTY

    def _copy_into(self, other: State) -> None:
        assert isinstance(other, SenetTaitState)
        other.board = self.board[:]
        other.squares = [self.squares[0][:], self.squares[1][:]]
        other.plinth = self.plinth[:]
        other.off = self.off[:]
        other.turn = self.turn
        other.throw = self.throw
        other.winner = self.winner

    # --- what is due -----------------------------------------------------------

    @property
    def phase(self) -> Phase:
        if self.winner != EMPTY:
            return Phase.OVER
        return Phase.MOVE if self.throw else Phase.THROW

    @property
    def current_player(self) -> int:
        return self.turn

    @property
    def throw_spec(self) -> Implement | None:
        if self.winner != EMPTY or self.throw:
            return None
        return self.game.sticks

    @property
    def outcome(self) -> Outcome | None:
        if self.winner == EMPTY:
            return None
        return Outcome((self.winner,), "all five pieces borne off")

    def pieces(self) -> list[PieceAt]:
        out = []
        for p in (0, 1):
            out += [PieceAt(p, PieceZone.OUTSIDE)] * self.plinth[p]
            out += [PieceAt(p, PieceZone.OFF)] * self.off[p]
        out += [
            PieceAt(owner, PieceZone.BOARD, s)
            for s, owner in enumerate(self.board)
            if owner != EMPTY
        ]
        return out

    def legal_moves(self) -> tuple[Move, ...]:
        """The actions for the throw being played (``(PASS,)`` when the throw is lost);
        empty while a throw is due or after the game. (Same as the base class, faster.)"""
        if self.throw and self.winner == EMPTY:
            return self._legal()
        return ()

    # --- search mode -----------------------------------------------------------

    def position_key(self) -> tuple[int, ...]:
        """``(to act, throw, winner, plinth and off counts, then the 30 squares)``: the
        whole position (see :meth:`State.position_key`)."""
        return (
            self.turn, self.throw, self.winner,
            self.plinth[0], self.plinth[1], self.off[0], self.off[1], *self.board,
        )

    def progress(self, player: int) -> float:
        """The share of the race run, a piece on the board counting the squares it has
        come plus :data:`ENTRY_WORTH` for having entered: on its plinth 0, on square
        ``s`` ``ENTRY_WORTH + s``, borne off ``ENTRY_WORTH + 31``; over 5 such. 1.0
        for the winner."""
        if self.winner == player:
            return 1.0
        on_board = len(self.squares[player])
        off = self.off[player]
        walked = sum(self.squares[player]) + OFF * off + ENTRY_WORTH * (on_board + off)
        return walked / (PIECES * (ENTRY_WORTH + OFF))

    # --- the rules -------------------------------------------------------------

    def _legal(self) -> tuple[Move, ...]:
        """Tait: '(i) A new piece can be moved from the plinth to the board, (ii) a piece
        already on the board can be moved, or (iii) a piece can be borne off the board
        ... If none of the actions are possible, the throw is lost.'
        """
        v = self.throw
        p = self.turn
        board = self.board
        moves: list[Move] = []
        # 'New pieces can be placed on the board on a throw of four or six ... This move
        # cannot be made if the appropriate square is already occupied by a piece of the
        # same colour.'
        if (v == 4 or v == 6) and self.plinth[p] and board[v] != p:
            moves.append(_ENTER[v])
        water: Move | None = None
        for s in self.squares[p]:
            d = s + v
            if d == OFF:
                # 'A piece may be borne off the board on an exact throw.'
                moves.append(_BEAR[s, v])
            elif d < OFF:
                occupant = board[d]
                # '... if the destination square is not already occupied by a piece of
                # the same colour.'  'A piece cannot be bumped from The House of Rebirth'
                if occupant == p or (occupant != EMPTY and d == HOUSE_OF_REBIRTH):
                    continue
                if d == HOUSE_OF_WATER:
                    # 'a move to The House Of Water may only be made if there are no
                    # other legal moves available.'
                    water = _MOVE[s, v]
                    continue
                moves.append(_MOVE[s, v])
        if moves:
            return tuple(moves)
        if water is not None:
            return tuple(
                _MOVE[s, v]
                for s in self.squares[p]
                if s + v == HOUSE_OF_WATER
            )
        return _PASS_ONLY

    def _push_throw(self, throw: Throw) -> list[Event]:
        self.throw = throw.values[0]
        return [_event(EV_THROWN, self.turn, None, None, self.throw)]

    def _push_move(self, move: Move) -> list[Event]:
        p = self.turn
        v = self.throw
        board = self.board
        kind = move.kind
        extra = _EXTRA_SIX if v == 6 else 0
        if kind == "move":
            s = move.src
            d = move.dst
            assert isinstance(s, int) and isinstance(d, int)
            board[s] = EMPTY
            mine = self.squares[p]
            mine.remove(s)
            if d == HOUSE_OF_WATER:
                # 'A piece landing on The House Of Water will be removed immediately from
                # the board, and put back on its plinth.'
                self.plinth[p] += 1
                events = [_event(EV_MOVED, p, s, d), _event(EV_DROWNED, p, d, None)]
            else:
                events = [_event(EV_MOVED, p, s, d)]
                if board[d] != EMPTY:
                    events.append(self._bump(d))
                board[d] = p
                insort(mine, d)
            # 'when that player's last move was to move a piece on The House Of Beauty'
            if (s if self.game.beauty_from else d) == HOUSE_OF_BEAUTY:
                extra |= _EXTRA_BEAUTY
        elif kind == "enter":
            d = move.dst
            assert isinstance(d, int)
            self.plinth[p] -= 1
            events = [_event(EV_ENTERED, p, None, d)]
            if board[d] != EMPTY:
                # 'if there is an opponent's piece on that square, then it will be bumped'
                events.append(self._bump(d))
            board[d] = p
            insort(self.squares[p], d)
        elif kind == "bear-off":
            s = move.src
            assert isinstance(s, int)
            board[s] = EMPTY
            self.squares[p].remove(s)
            self.off[p] += 1
            events = [_event(EV_BORNE_OFF, p, s, None)]
            # 'when that player's last move was to bear a piece off the board'
            extra |= _EXTRA_OFF
            if self.off[p] == PIECES:
                # 'The game is won by the first player whose pieces have all been borne off'
                self.winner = p
                self.throw = 0
                events.append(_event(EV_WON, p, None, None))
                return events
        else:  # pass: 'If none of the actions are possible, the throw is lost.'
            events = [_event(EV_THROW_LOST, p, None, None, v)]
            if not self.game.six_after_lost:
                extra = 0
        self.throw = 0
        if extra:
            # 'Extra throws are not cumulative': one extra throw whatever the reasons.
            events.append(_event(EV_EXTRA_THROW, p, None, None, extra))
        else:
            self.turn = 1 - p
        return events

    def _bump(self, square: int) -> Event:
        """Send the opponent's piece on ``square`` back to its plinth ('bumped')."""
        q = 1 - self.turn
        self.squares[q].remove(square)
        self.plinth[q] += 1
        return _event(EV_BUMPED, q, square, None)

    def _body(self) -> dict[str, Any]:
        pieces: dict[str, list[int | str]] = {}
        for p, colour in enumerate(COLOURS):
            entries: list[int | str] = [s for s, o in enumerate(self.board) if o == p]
            entries += ["plinth"] * self.plinth[p] + ["off"] * self.off[p]
            pieces[colour.lower()] = entries
        return {
            "to_act": COLOURS[self.turn].lower(),
            "throw": self.throw or None,
            "pieces": pieces,
        }
