"""The rules of Peter Aleff's Game of the Labyrinth: the game (:class:`Labyrinth`: its
options and the tables made from its board) and its positions (:class:`LabyrinthState`).
See the package's docstring for how a game runs, :mod:`.events` for what each event
carries."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from companion.rules.core import (
    EV_BORNE_OFF,
    EV_ENTERED,
    EV_MOVED,
    EV_SWAPPED,
    EV_THROWN,
    EV_TRAPPED,
    EV_TURN_PASSES,
    EV_VALUE_LOST,
    EV_WON,
    PASS,
    Event,
    FileOption,
    Game,
    Move,
    Option,
    Outcome,
    Phase,
    PieceAt,
    PieceZone,
    State,
)
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
    WAIT_WORDS,
)
from companion.rules.labyrinth.events import (
    EV_ALL_TRAPPED,
    EV_BOUNCE,
    EV_CROSS,
    EV_DROP,
    EV_FREED,
    EV_GOOSE,
    EV_JUMP,
    EV_MILLSTONE_OFFER,
    EV_NEED_ONE,
    EV_ORBIT_OFFER,
    EV_RIDE,
    EV_RIDE_CHOSEN,
    EV_START_THROW,
    EV_START_TIE,
    EV_STARTS,
    EV_STAY,
    EV_STILL_TO_USE,
    EV_TUNNEL,
    event,
)
from companion.rules.labyrinth.position import read_state, validate
from companion.rules.labyrinth_board import SIDES, Board, load_board
from companion.rules.throws import Dice, Implement, Throw

_PASS_ONLY: Final = (PASS,)


class Labyrinth(Game):
    """Peter Aleff's Game of the Labyrinth, 2-4 players.

    Options (see ``docs/rules/labyrinth.md`` for the readings they select):

    * ``board``: path of a board TOML file; empty for the built-in board.
    * ``double-one-enters-two``: a double 1 may enter two pieces (default yes); ``no``
      allows one entry per turn.
    * ``ride-after-tunnel``: a piece that leaves the trap on 52 through the tunnel to 7
      is offered a ride on the Knight's Orbit (default yes).
    * ``ride-to-52``: ``tunnel`` (default: a ride ending on 52 drops through the tunnel
      to 7 at once) or ``trap`` (it is trapped there, as a count ending on 52 is).
    * ``field-52``: ``trap-then-tunnel`` (default; "Lose two turns and then take the
      tunnel to field 7") or ``tunnel-then-trap`` ("take the one-way tunnel back to 7
      and lose 2 turns").

    :raises OptionError: for an unknown option or value.
    :raises BoardDataError: when the board file is unreadable or invalid.
    """

    id = "labyrinth"
    title = "Game of the Labyrinth (Peter Aleff)"
    seed_files = ("000_764640a44232cb09.txt", "001_7445520b05b4b51e.txt")
    sharpness = 4.5
    presenter = "companion.ui.games.labyrinth:LabyrinthPresenter"
    words = "companion.ui.events.labyrinth:LabyrinthWords"
    min_players = 2
    max_players = 4
    default_players = 2
    options = (
        FileOption("board", "", "path of a board TOML file (empty: the built-in board)"),
        Option(
            "double-one-enters-two",
            True,
            "a double 1 may enter two pieces (no: one piece enters per turn)",
        ),
        Option(
            "ride-after-tunnel",
            True,
            "a piece leaving the trap on 52 through the tunnel may ride the Knight's Orbit from 7",
        ),
        Option(
            "field-52",
            "trap-then-tunnel",
            "field 52: lose two turns there, then the tunnel to 7; or the tunnel first",
            ("trap-then-tunnel", "tunnel-then-trap"),
        ),
        Option(
            "ride-to-52",
            "tunnel",
            "a Knight's Orbit ride ending on 52: drops through the tunnel to 7 at once, "
            "or is trapped there like a count ending on 52",
            ("tunnel", "trap"),
        ),
    )

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        board = load_board(str(self.option("board")))
        self.board: Board = board
        self.two_dice = Dice(2, SIDES)
        self.one_die = Dice(1, SIDES)
        self.two_entries = bool(self.option("double-one-enters-two"))
        self.tunnel_first = self.option("field-52") == "tunnel-then-trap"
        self.ride_after_tunnel = bool(self.option("ride-after-tunnel"))
        self.ride_trapped = self.option("ride-to-52") == "trap"
        last = board.last
        # Interned moves: every legal move is one of these objects.
        self.enter_move = Move("enter", None, 1, (board.entry_value,))
        self.count_moves: list[list[Move | None]] = [[None] * (SIDES + 1) for _ in range(last)]
        self.shared = [False] * (last + 1)
        for f in board.sanctuaries:
            self.shared[f] = True
        self.shared[OUTSIDE] = self.shared[last] = True
        self.orbit_index = {f: i for i, f in enumerate(board.orbit)}
        # For LabyrinthState.progress: where a trapped piece will be once its trap lets
        # it go (52: the tunnel to 7, unless the tunnel came first).
        self.trap_worth = list(range(last + 1))
        if not self.tunnel_first:
            for f, exit_ in board.trap_exits.items():
                self.trap_worth[f] = exit_
        for s in range(1, last):
            lands = [board.forward[s][v][0] for v in range(SIDES + 1)]
            for v in range(1, SIDES + 1):
                land = lands[v]
                # Two values can bring the piece to the same field (28 with a 1, or with a
                # 5 that overshoots 31 and comes back): then the notation names the value,
                # "28-29 with 5", so that the players can tell the two moves apart.
                label = f"with {v}" if lands[1:].count(land) > 1 else ""
                plain = (
                    Move("bear-off", s, None, (v,), label)
                    if land == last
                    else Move("move", s, land, (v,), label)
                )
                # Where a jump, a tunnel or the geese carry the piece on, the notation says
                # where it ends: "1-6 to 12", "12-16 to 20", "58-59 to 47 with 1".
                end = self._count_ends(plain) if s not in board.jumps else land
                if end != land:
                    ahead = "then off" if end == last else f"to {end}"
                    plain = Move(plain.kind, s, plain.dst, (v,), f"{ahead} {label}".strip())
                self.count_moves[s][v] = plain
        # Decisions read as answers to the question asked (LabyrinthState.waiting_for):
        # "Ride the Knight's Orbit?" -- "ride from 7" / "stay on 7".
        self.ride_moves = {
            f: (Move("ride", f, None, (), f"from {f}"), Move("stay", f, None, (), f"on {f}"))
            for f in board.orbit
        }
        self.cross_moves = {
            f: (Move("cross", f, None, (), f"to {g}"), Move("stay", f, None, (), f"on {f}"))
            for f, g in board.millstone.items()
        }

    def _count_ends(self, move: Move) -> int:
        """The field where ``move`` (a count from its ``src``) leaves the piece once the
        landing field's jumps, tunnels and geese are resolved (61: borne off). A count
        never depends on the other pieces (an occupant is sent away, the mover stays),
        so this is fixed by the board."""
        src = move.src
        assert isinstance(src, int)
        scratch = LabyrinthState(self, self.min_players)
        scratch.stage = STAGE_PLAY
        scratch.pos[0] = src
        if not self.shared[src]:
            scratch.occ[src] = 0
        scratch.values = [move.values[0], move.values[0]]
        scratch._push_move(move)
        return scratch.pos[0]

    def count_end(self, move: Move) -> int | None:
        """Where a count move (``move`` or ``bear-off`` from a field, as listed by
        :meth:`LabyrinthState.legal_moves`) leaves its piece once the landing field's
        jumps, tunnels and geese are resolved: the field named after ``to`` in the
        notation (``1-6 to 12`` -> 12), else ``move.dst``; the board's last field
        (Elysium) when the piece is borne off. ``None`` for any other move (``enter``,
        a ride, a crossing, ``pass``). Read-only, for the board pictures' previews."""
        src = move.src
        if move.kind not in ("move", "bear-off") or not isinstance(src, int) or len(move.values) != 1:
            return None
        if not 1 <= src < self.board.last or src in self.board.jumps or not 1 <= move.values[0] <= SIDES:
            return None
        return self._count_ends(move)

    def player_name(self, player: int, players: int) -> str:
        return COLOURS[player]

    def new_state(self, players: int | None = None) -> LabyrinthState:
        n = self.check_players(players)
        return LabyrinthState(self, n)

    def _state_from_body(self, data: Mapping[str, Any], players: int) -> LabyrinthState:
        return read_state(LabyrinthState(self, players), data)

    def validate(self, state: State) -> None:
        """Check a Labyrinth position (see :func:`.position.validate`).

        :raises PositionError: naming the key and what is impossible.
        """
        assert isinstance(state, LabyrinthState)
        validate(state)


class LabyrinthState(State):
    """A Labyrinth position.

    Piece ``k`` (0 .. 4*players-1) belongs to player ``k // 4``. ``pos[k]`` is
    :data:`OUTSIDE` (0), a field 1..60, or 61 (Elysium: borne off). ``trap[k]`` is the
    number of its owner's turns the piece still loses (0: free); ``fresh[k]`` is true
    for a piece trapped during the current turn (its count starts after this turn).
    ``occ[f]`` is the piece on a non-sanctuary field ``f`` or -1.
    """

    __slots__ = (
        "closing",
        "contenders",
        "entered",
        "fresh",
        "occ",
        "pending",
        "pos",
        "stage",
        "start_rolls",
        "trap",
        "turn",
        "values",
        "winner",
    )

    game: Labyrinth

    def __init__(self, game: Labyrinth, players: int) -> None:
        super().__init__(game, players)
        n = players * PIECES
        self.stage = STAGE_START
        self.start_rolls: list[int] = [0] * players
        self.contenders: list[int] = list(range(players))
        self.turn = 0
        self.pos: list[int] = [OUTSIDE] * n
        self.trap: list[int] = [0] * n
        self.fresh: list[bool] = [False] * n
        self.occ: list[int] = [NO_PIECE] * (game.board.last + 1)
        self.values: list[int] = []
        """The die values still to use this turn (empty while a throw is due)."""
        self.pending: tuple[int, int, int] | None = None
        """``(what, piece, field)`` while a move waits for a decision or the orbit die."""
        self.entered = False
        self.closing = False
        """True while the turn is ending and a piece that left 52 decides on a ride."""
        self.winner = NO_PIECE

    def _copy_into(self, other: State) -> None:
        assert isinstance(other, LabyrinthState)
        other.stage = self.stage
        other.start_rolls = self.start_rolls[:]
        other.contenders = self.contenders[:]
        other.turn = self.turn
        other.pos = self.pos[:]
        other.trap = self.trap[:]
        other.fresh = self.fresh[:]
        other.occ = self.occ[:]
        other.values = self.values[:]
        other.pending = self.pending
        other.entered = self.entered
        other.closing = self.closing
        other.winner = self.winner

    # --- what is due -----------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        if self.stage == STAGE_OVER:
            return Phase.OVER
        if self.stage == STAGE_START:
            return Phase.THROW
        pending = self.pending
        if pending is not None:
            return Phase.THROW if pending[0] == RIDE_DIE else Phase.DECIDE
        return Phase.MOVE if self.values else Phase.THROW

    @property
    def current_player(self) -> int:
        if self.stage == STAGE_START:
            for p in self.contenders:
                if not self.start_rolls[p]:
                    return p
        return self.turn

    @property
    def throw_spec(self) -> Implement | None:
        if self.stage == STAGE_START:
            return self.game.one_die
        if self.stage == STAGE_OVER:
            return None
        pending = self.pending
        if pending is not None:
            return self.game.one_die if pending[0] == RIDE_DIE else None
        return None if self.values else self.game.two_dice

    @property
    def outcome(self) -> Outcome | None:
        if self.winner == NO_PIECE:
            return None
        return Outcome((self.winner,), "all four pieces borne off")

    def pieces(self) -> list[PieceAt]:
        last = self.game.board.last
        out = []
        for k, f in enumerate(self.pos):
            p = k // PIECES
            if f == OUTSIDE:
                out.append(PieceAt(p, PieceZone.OUTSIDE))
            elif f == last:
                out.append(PieceAt(p, PieceZone.OFF))
            else:
                out.append(PieceAt(p, PieceZone.BOARD, f))
        return out

    # --- search mode --------------------------------------------------------------

    record_only_keys = ("thrown",)
    """The two dice thrown this turn are kept for the screen; the dice still to use
    (``dice``) are what decide play."""

    def position_key(self) -> tuple[object, ...]:
        """Stage, player to act, the start throws (start stage only), dice still to
        use, the pending decision as (what, field), the turn's entry and closing flags,
        then every piece's field, turns to lose and trapped-this-turn flag: the JSON
        form less ``thrown`` (see :meth:`State.position_key`)."""
        start = self.stage == STAGE_START
        pending = self.pending
        return (
            self.stage,
            self.current_player if start else self.turn,
            tuple(self.start_rolls) if start else (),
            tuple(self.contenders) if start else (),
            tuple(self.values),
            None if pending is None else (pending[0], pending[2]),
            self.entered,
            self.closing,
            tuple(self.pos),
            tuple(self.trap),
            tuple(self.fresh),
        )

    def progress(self, player: int) -> float:
        """The share of the way to Elysium: the fields of the player's four pieces (0
        outside, 61 borne off) over 4 x 61, a piece trapped on 52 counted on 7 where the
        tunnel will take it, and while the player is moving, the die values still to use
        counted as fields already walked (they must be used). 1.0 only for the winner."""
        if self.winner == player:
            return 1.0
        game = self.game
        last = game.board.last
        exits = game.trap_worth
        pos = self.pos
        trap = self.trap
        total = 0
        for k in range(player * PIECES, (player + 1) * PIECES):
            f = pos[k]
            total += exits[f] if trap[k] else f
        if player == self.turn and self.stage == STAGE_PLAY:
            for v in self.values:
                total += v
        share = total / (PIECES * last)
        return share if share < 0.99 else 0.99

    def may_share(self, square: int | str) -> bool:
        """Seed 000: 'The following fields are the only ones that may be occupied by any
        number of Athenians at the same time: 1, 2, 3, 4, 5, 31 and 58.'"""
        return square in self.game.board.sanctuaries

    @property
    def throwing_for_start(self) -> bool:
        """Whether the players are still throwing one die each for who starts (seed 000:
        'Each player rolls one die; the player with the highest number goes first')."""
        return self.stage == STAGE_START

    def start_throws(self) -> list[tuple[int, int]]:
        """While who starts is thrown: ``(player, die 1-6)`` for each player who has
        thrown in this round of start throws, in seat order; ``[]`` before the first
        throw of a round and once play has begun."""
        if self.stage != STAGE_START:
            return []
        return [(p, self.start_rolls[p]) for p in self.contenders if self.start_rolls[p]]

    def start_rethrow(self) -> bool:
        """While who starts is thrown: whether this round is the players tied for the
        highest throw throwing again. Known when fewer than all players still throw, or
        from :attr:`history` (a position read from a file has none: with every player
        still throwing it says ``False``)."""
        if self.stage != STAGE_START:
            return False
        this_round = len(self.start_throws())
        return len(self.contenders) < self.players or len(self.history) > this_round

    def waiting_for(self) -> tuple[str, int] | None:
        """What the move under way waits for, as ``(what, field)``: ``"ride"`` (ride
        the Knight's Orbit from ``field``? a DECIDE), ``"cross"`` (cross the Millstone
        from ``field``? a DECIDE) or ``"orbit-die"`` (the free die of a ride from
        ``field``, a THROW); ``None`` otherwise. The words are the position file's
        ``pending.what``."""
        pending = self.pending
        if pending is None or self.stage != STAGE_PLAY:
            return None
        return WAIT_WORDS[pending[0]], pending[2]

    def trapped(self) -> list[tuple[int, int, int]]:
        """Every trapped piece as ``(player, field, turns still to lose)``, in piece
        order (seed 000, 'lose 2 turns': the count includes the owner's turn being
        played, see docs/rules/labyrinth.md Q13)."""
        return [
            (k // PIECES, self.pos[k], t) for k, t in enumerate(self.trap) if t
        ]

    # --- the rules --------------------------------------------------------------------

    def _legal(self) -> tuple[Move, ...]:
        """Seed 000: 'Unless all your Athenians are trapped, you must use both your numbers
        and move at least one of your travelers at each turn, be it only to return to the
        same field or to have two of your people switch places with each other.'
        Each remaining value can move any free piece (the count always lands somewhere:
        exact-count fields bounce the surplus back); a piece outside needs a 1. When no
        value can be used the only move is ``pass``.
        """
        game = self.game
        pending = self.pending
        if pending is not None:
            what, _, f = pending
            if what == ASK_RIDE:
                return game.ride_moves[f]
            return game.cross_moves[f]
        p = self.turn
        base = p * PIECES
        pos = self.pos
        trap = self.trap
        last = game.board.last
        sources: set[int] = set()
        outside = False
        for k in range(base, base + PIECES):
            f = pos[k]
            if f == OUTSIDE:
                outside = True
            elif f != last and not trap[k]:
                sources.add(f)
        ordered = sorted(sources)
        moves: list[Move] = []
        done = 0
        for v in self.values:
            if done & (1 << v):
                continue
            done |= 1 << v
            if (
                outside
                and v == game.board.entry_value
                and (game.two_entries or not self.entered)
            ):
                moves.append(game.enter_move)
            for s in ordered:
                move = game.count_moves[s][v]
                assert move is not None
                moves.append(move)
        return tuple(moves) if moves else _PASS_ONLY

    def _push_throw(self, throw: Throw) -> list[Event]:
        if self.stage == STAGE_START:
            return self._start_throw(throw.values[0])
        pending = self.pending
        if pending is not None:
            return self._ride(pending[1], pending[2], throw.values[0])
        p = self.turn
        self.values = list(throw.values)
        return [event(EV_THROWN, p, values=throw.values)]

    def _start_throw(self, value: int) -> list[Event]:
        """Seed 000: 'Each player rolls one die; the player with the highest number goes
        first. Turns continue clockwise.' Players tied for the highest throw again."""
        p = self.current_player
        self.start_rolls[p] = value
        events = [event(EV_START_THROW, p, value=value)]
        if any(not self.start_rolls[c] for c in self.contenders):
            return events
        best = max(self.start_rolls[c] for c in self.contenders)
        tied = [c for c in self.contenders if self.start_rolls[c] == best]
        if len(tied) == 1:
            self.turn = tied[0]
            self.stage = STAGE_PLAY
            self.contenders = []
            events.append(event(EV_STARTS, tied[0], value=best))
            return events
        self.contenders = tied
        for c in tied:
            self.start_rolls[c] = 0
        events.append(event(EV_START_TIE, tied[0], value=best, players=tuple(tied)))
        return events

    def _push_move(self, move: Move) -> list[Event]:
        kind = move.kind
        pending = self.pending
        events: list[Event] = []
        p = self.turn
        if pending is not None:
            _, k, f = pending
            if kind == "ride":
                # 'If you decide to take this ride, you get one free roll of a single die.'
                self.pending = (RIDE_DIE, k, f)
                events.append(event(EV_RIDE_CHOSEN, p, f))
                return events
            self.pending = None
            if kind == "cross":
                # 'You may go from 44 to 50 or from 45 to 51, or reversed. This is a free
                # move. You may then continue with any remaining number.'
                g = self.game.board.millstone[f]
                events.append(event(EV_CROSS, p, f, g))
                self._lift(k)
                self._arrive(k, g, f, events)
            else:
                events.append(event(EV_STAY, p, f))
            self._after_step(events)
            return events
        if kind == "pass":
            self._pass(events)
            return events
        v = move.values[0]
        self.values.remove(v)
        base = p * PIECES
        pos = self.pos
        if kind == "enter":
            # 'You need to roll a 1 to enter a piece onto the first space.'
            k = pos.index(OUTSIDE, base, base + PIECES)
            self.entered = True
            events.append(event(EV_ENTERED, p, dst=1, value=v))
            self._resolve(k, OUTSIDE, 1, False, v, events)
        else:
            s = move.src
            assert isinstance(s, int)
            k = base
            while pos[k] != s or self.trap[k]:
                k += 1
            self._lift(k)
            land, exact = self.game.board.forward[s][v]
            if land != self.game.board.last:
                events.append(event(EV_MOVED, p, s, land, value=v))
            if exact:
                events.append(event(EV_BOUNCE, p, exact, land, steps=v - (exact - s)))
            self._resolve(k, s, land, bool(exact), v, events)
        self._after_step(events)
        return events

    def _pass(self, events: list[Event]) -> None:
        """'Unless all your Athenians are trapped, you must use both your numbers': a value
        that no piece can use is lost, and the events say so, and why (all pieces on the
        board trapped, or none on it and no 1 to enter one)."""
        p = self.turn
        base = p * PIECES
        explained = True
        if any(self.trap[k] for k in range(base, base + PIECES)) and not any(
            self.pos[k] != self.game.board.last and not self.trap[k] and self.pos[k] != OUTSIDE
            for k in range(base, base + PIECES)
        ):
            events.append(event(EV_ALL_TRAPPED, p))
        elif all(self.pos[k] in (OUTSIDE, self.game.board.last) for k in range(base, base + PIECES)):
            events.append(event(EV_NEED_ONE, p, value=self.game.board.entry_value))
        else:
            explained = False
        for v in self.values:
            events.append(event(EV_VALUE_LOST, p, value=v, explained=explained))
        self.values = []
        self._end_turn(events)

    # --- moving a piece ------------------------------------------------------------------

    def _lift(self, k: int) -> None:
        f = self.pos[k]
        if self.occ[f] == k:
            self.occ[f] = NO_PIECE

    def _arrive(self, k: int, f: int, came_from: int, events: list[Event]) -> None:
        """Put piece ``k`` on field ``f``. Seed 000: 'Except on sanctuary spaces, Athenians
        do not share fields. If one arrives on an occupied field, that occupant goes to
        where the new arrival just came from, even if it is one of your own group.'
        The occupant keeps any trap it is serving, and is only put there: the field it
        is sent to has no effect on it (docs/rules/labyrinth.md).
        """
        game = self.game
        self.pos[k] = f
        if game.shared[f]:
            return
        occupant = self.occ[f]
        if occupant != NO_PIECE and occupant != k:
            self.pos[occupant] = came_from
            if not game.shared[came_from]:
                self.occ[came_from] = occupant
            events.append(event(EV_SWAPPED, k // PIECES, f, came_from or None, other=occupant // PIECES))
        self.occ[f] = k

    def _resolve(
        self, k: int, came_from: int, land: int, backwards: bool, v: int, events: list[Event]
    ) -> None:
        """Piece ``k`` (already lifted) ends a count of ``v`` on ``land``, coming from
        ``came_from``; resolve the field before any remaining value is used.

        Seed 000: 'Landing on a penalty field traps the player, who must then suffer the
        penalty before continuing. Landing on a benefit field allows the player to take
        advantage of any advance or boon before continuing with any remaining number.'
        """
        game = self.game
        board = game.board
        p = k // PIECES
        last = board.last
        jumps = board.jumps
        geese = board.geese
        while True:
            if land == last:
                self._bear_off(k, came_from, events)
                return
            if land in jumps:
                # 'Field 6 -- Free passage. When you land here, advance your piece to 12.'
                # 'Field 59 -- Go back through the tunnel to 47.' A jump is part of the
                # landing: an occupant of the destination goes where the count began.
                while land in jumps:
                    nxt = jumps[land]
                    events.append(event(EV_JUMP, p, land, nxt))
                    land = nxt
                self._settle(k, land, came_from, events)
                return
            if land in geese:
                self._arrive(k, land, came_from, events)
                # 'you get to use again the last single die number which brought you on
                # that field, and again as long as you land on a field containing the
                # arrow' -- 'If you land on the geese while going backwards, continue going
                # backwards by again your last die'
                if backwards:
                    nxt = board.count_backward(land, v)
                    exact = 0
                else:
                    nxt, exact = board.forward[land][v]
                if nxt == land:
                    return  # pinned at field 1: the repeats end (docs/rules/labyrinth.md)
                events.append(event(EV_GOOSE, p, land, nxt, value=v, backwards=backwards))
                if exact:
                    # A forward repeat that overshoots an exact-count field (53 + 6: into
                    # 58, back 1 to 57) bounces like any count, and is told like one; the
                    # piece is going backwards from there on.
                    events.append(event(EV_BOUNCE, p, exact, nxt, steps=v - (exact - land)))
                    backwards = True
                self._lift(k)
                came_from = land
                land = nxt
                continue
            self._settle(k, land, came_from, events)
            return

    def _settle(self, k: int, f: int, came_from: int, events: list[Event]) -> None:
        """The last landing of a count: arrive, then the field's trap or offer."""
        game = self.game
        board = game.board
        p = k // PIECES
        turns = board.traps.get(f)
        if turns is not None:
            # 'Field 13 -- An unlucky number; lose 2 turns.' 'Field 52 -- Lose two turns and
            # then take the tunnel to field 7.'
            events.append(event(EV_TRAPPED, p, f, turns=turns))
            exit_ = board.trap_exits.get(f)
            if game.tunnel_first and exit_ is not None:
                # Seed 001: 'If you fall into the trap at 52, take the one-way tunnel back
                # to 7 and lose 2 turns.' (option field-52=tunnel-then-trap)
                events.append(event(EV_TUNNEL, p, f, exit_))
                f = exit_
            self._arrive(k, f, came_from, events)
            self.trap[k] = turns
            self.fresh[k] = True
            return
        self._arrive(k, f, came_from, events)
        if f in game.orbit_index:
            # 'When you land on any of these fields, except for the trap in 52, you may
            # take a free skyride.'
            self.pending = (ASK_RIDE, k, f)
            events.append(event(EV_ORBIT_OFFER, p, f))
        elif f in board.millstone:
            # 'When you land on one of these fields, you may, if you wish, cross the
            # Millstone diagonally.'
            self.pending = (ASK_CROSS, k, f)
            events.append(event(EV_MILLSTONE_OFFER, p, f, board.millstone[f]))

    def _ride(self, k: int, f: int, r: int) -> list[Event]:
        """Seed 000: 'Count its points forward along the orbit from wherever you enter it.
        Reverse direction at the end of the line if you have excess points remaining on
        your free roll.' Seed 001, field 7: 'If your die count lands you on 52, that
        tunnel drops you back to 7.'"""
        game = self.game
        board = game.board
        orbit = board.orbit
        p = k // PIECES
        i = game.orbit_index[f]
        end = len(orbit) - 1
        if i == 0:
            step = 1
        elif i == end:
            step = -1
        else:
            step = -1 if f in board.orbit_towards_first else 1
        for _ in range(r):
            if not 0 <= i + step <= end:
                step = -step
            i += step
        dst = orbit[i]
        events = [event(EV_RIDE, p, f, dst, value=r)]
        self.pending = None
        self._lift(k)
        exit_ = board.trap_exits.get(dst)
        if exit_ is not None and game.ride_trapped:
            # Option ride-to-52=trap: the ride's landing is a landing on the trap
            # (docs/rules/labyrinth.md Q17).
            self._settle(k, dst, f, events)
        else:
            if exit_ is not None:
                events.append(event(EV_DROP, p, dst, exit_))
                dst = exit_
            self._arrive(k, dst, f, events)
        if self.values:
            # The screen now shows the free die; say which value of the turn's throw is left.
            events.append(event(EV_STILL_TO_USE, p, value=self.values[0]))
        self._after_step(events)
        return events

    def _bear_off(self, k: int, came_from: int, events: list[Event]) -> None:
        """'Field 61 -- Elysium. You must enter field 61 by exact count. Once arrived there,
        carry your traveler off the board. The first player to bear off all four pieces
        is the winner.'"""
        last = self.game.board.last
        p = k // PIECES
        self.pos[k] = last
        base = p * PIECES
        done = sum(1 for j in range(base, base + PIECES) if self.pos[j] == last)
        events.append(event(EV_BORNE_OFF, p, came_from, count=done, pieces=PIECES))
        if done == PIECES:
            self.winner = p
            self.stage = STAGE_OVER
            self.values = []
            self.pending = None
            events.append(event(EV_WON, p))

    def _after_step(self, events: list[Event]) -> None:
        if self.stage == STAGE_OVER or self.pending is not None or self.values:
            return
        self._end_turn(events)

    def _end_turn(self, events: list[Event]) -> None:
        """Count down the traps of the player whose turn ends, and pass the dice clockwise.

        A piece trapped during this turn starts losing turns with its owner's next turn:
        'lose 2 turns' are two whole turns of its owner. When the last turn is lost, a
        piece on a trap with an exit (52) takes the tunnel (to 7). Seed 001, field 52:
        '(Want to try the Knight's Orbit again from there?)' -- with the option
        ``ride-after-tunnel`` (default yes) the piece is offered a ride from 7 before the
        turn passes.
        """
        game = self.game
        p = self.turn
        base = p * PIECES
        fresh = self.fresh
        if not self.closing:
            trap = self.trap
            offer: tuple[int, int] | None = None
            for k in range(base, base + PIECES):
                if trap[k] and not fresh[k]:
                    trap[k] -= 1
                    if not trap[k]:
                        f = self.pos[k]
                        events.append(event(EV_FREED, p, f))
                        exit_ = game.board.trap_exits.get(f)
                        if exit_ is not None and not game.tunnel_first:
                            events.append(event(EV_TUNNEL, p, f, exit_))
                            self._lift(k)
                            self._arrive(k, exit_, f, events)
                            if game.ride_after_tunnel and exit_ in game.orbit_index:
                                offer = (k, exit_)
                fresh[k] = False
            if offer is not None:
                self.closing = True
                self.pending = (ASK_RIDE, offer[0], offer[1])
                events.append(event(EV_ORBIT_OFFER, p, offer[1]))
                return
        else:
            # The ride offered on 7 may have ended on 52 and trapped the piece again
            # (ride-to-52=trap). This turn is over, so its two turns are its owner's next
            # two, as for a piece trapped during the turn: it must not stay fresh into them.
            for k in range(base, base + PIECES):
                fresh[k] = False
        self.closing = False
        self.entered = False
        self.turn = (p + 1) % self.players
        events.append(event(EV_TURN_PASSES, self.turn))

    # --- JSON ------------------------------------------------------------------------------

    def _body(self) -> dict[str, Any]:
        last = self.game.board.last
        pieces: dict[str, list[Any]] = {}
        for p in range(self.players):
            entries: list[Any] = []
            for k in range(p * PIECES, (p + 1) * PIECES):
                f = self.pos[k]
                if f == OUTSIDE:
                    entries.append("outside")
                elif f == last:
                    entries.append("off")
                elif self.trap[k]:
                    entry: dict[str, Any] = {"field": f, "turns_to_lose": self.trap[k]}
                    if self.fresh[k]:
                        entry["trapped_this_turn"] = True
                    entries.append(entry)
                else:
                    entries.append(f)
            pieces[COLOURS[p].lower()] = entries
        body: dict[str, Any] = {
            "stage": STAGE_NAMES[self.stage],
            "to_act": COLOURS[self.current_player].lower(),
        }
        if self.stage == STAGE_START:
            body["start_throws"] = {
                COLOURS[p].lower(): (self.start_rolls[p] or None) for p in range(self.players)
            }
            body["contenders"] = [COLOURS[p].lower() for p in self.contenders]
        body["dice"] = list(self.values) if self.values else None
        pending = self.pending
        if pending is None:
            body["pending"] = None
        else:
            body["pending"] = {"what": WAIT_WORDS[pending[0]], "field": pending[2]}
        body["entered_this_turn"] = self.entered
        if self.closing:
            body["turn_ending"] = True
        body["pieces"] = pieces
        return body
