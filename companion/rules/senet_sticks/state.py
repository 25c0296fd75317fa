"""The rules of casting-stick Senet: the game (:class:`SenetSticks`: its options, its
board and tables) and its positions (:class:`SenetSticksState`: the legal moves, a
move played, a throw, the end). See the package's docstring for how a game runs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from companion.rules.core import (
    EV_CAPTURED,
    PASS,
    Event,
    FileOption,
    Game,
    IllegalMoveError,
    Move,
    Option,
    Outcome,
    Phase,
    PieceAt,
    PieceZone,
    PositionError,
    State,
)
from companion.rules.senet_sticks import events as ev
from companion.rules.senet_sticks.events import EventCache
from companion.rules.senet_sticks.legal import LegalMoves
from companion.rules.senet_sticks.position import read_position, set_up_board
from companion.rules.senet_sticks.tables import (
    ABYSS,
    EMPTY,
    FRESH,
    MARK_KEYS,
    REASONS,
    STAGE_PLAY,
    STAGE_START,
    STAGE_TOSS,
    TOOK,
    Combinations,
    Step,
    land_table,
    opponent_home_table,
    river_table,
    safe_table,
)
from companion.rules.senet_sticks_board import PLINTHS, BoardSpec, load_board
from companion.rules.throws import ColouredSticks, Implement, Throw

_PASS_ONLY: Final = (PASS,)

_CAPITALS: dict[str, str] = {}
"""Colour names as player names (``red`` -> ``Red``), made once."""


class SenetSticks(Game):
    """Casting-stick Senet. Options (see ``docs/rules/senet-sticks.md``):

    * ``mode``: ``normal`` (all five plinths must enter the opponent's Home Row) or
      ``quick`` (the first plinth to reach it wins);
    * ``extra-stick``: add the extra solid stick ("to make the game move faster");
    * ``colour-toss``: Player 1 tosses a dual-coloured stick for the colours;
    * ``combination-captures``: a value inside a combination may take an opponent
      (default yes) -- ``no`` makes every value but the last land on an open space;
    * ``board``: path of a board file (default: the built-in
      ``companion/rules/data/senet_sticks.toml``).

    :raises OptionError: an unknown option or a bad value.
    :raises BoardDataError: the board file is unreadable or invalid (file, line, reason).
    """

    id = "senet-sticks"
    title = "Casting-stick Senet"
    seed_files = ("002_4a37d4d91a7a1598.txt",)
    sharpness = 2.7
    turn_is_one_ply = True
    presenter = "companion.ui.games.senet_sticks:SenetSticksPresenter"
    words = "companion.ui.events.senet_sticks:SenetSticksWords"
    min_players = max_players = default_players = 2
    options = (
        Option(
            "mode", "normal",
            "normal: all five plinths must enter the opponent's Home Row; "
            "quick: the first plinth to reach it wins",
            ("normal", "quick"),
        ),
        Option("extra-stick", False, "add the extra solid casting stick (a faster game)"),
        Option(
            "colour-toss", False,
            "Player 1 tosses a dual-coloured stick and plays the colour shown",
        ),
        Option(
            "combination-captures", True,
            "a value inside a combination may land on and take an opponent "
            "(no: only the last value of a combination may)",
        ),
        FileOption("board", "", "a board file (TOML) describing your own board and sticks"),
    )

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        self.spec: BoardSpec = load_board(str(self.option("board")) or None)
        spec = self.spec
        self.quick = self.option("mode") == "quick"
        self.mid_captures = bool(self.option("combination-captures"))
        self.sticks: ColouredSticks = spec.sticks(bool(self.option("extra-stick")))
        self.start_stick: ColouredSticks = spec.start_stick()
        self.toss_stick: ColouredSticks = spec.toss_stick()
        self.squares = spec.squares
        self.homes = spec.home_rows
        # The resurrection square of each player, as a board square.
        self.resurrect_at = (spec.resurrection, spec.squares + 1 - spec.resurrection)
        # Tables for SenetSticksState._land, per player p (0 or 1):
        top = max(f.value for pair in self.sticks.sticks for f in pair)
        self.land_on = land_table(spec, top)
        """``land_on[p][here][v]``: :func:`.tables.reach` for each player, square (0:
        in the Abyss) and value."""
        self.safe_from = safe_table(spec)
        """``safe_from[p][t]``: an opponent on ``t`` cannot be taken by p."""
        self.in_opponent_home = opponent_home_table(spec)
        """``in_opponent_home[p][h]``: p's plinth on ``h`` cannot attack from there."""
        self.river_to = river_table(spec)
        """Where the river on each square leads (0: no river)."""
        self.combinations = Combinations()
        """The ordered combinations of each throw's values, found once."""
        self.legal = LegalMoves(
            combinations=self.combinations, land_on=self.land_on, river_to=self.river_to,
            safe_from=self.safe_from, in_opponent_home=self.in_opponent_home, resurrect_at=self.resurrect_at,
            homes=self.homes, quick=self.quick, mid_captures=self.mid_captures,
        )
        """The legal-move search, with the paths of the combinations it keeps."""
        self.events = EventCache()
        """The recurring events of this game's positions, built once."""
        self.usable: dict[tuple[Throw, str, int], tuple[tuple[int, ...], Event]] = {}
        """Per throw, colour and player: the values that player may use, in the order
        thrown, and the throw's event (at most every throw of the sticks, twice)."""

    def player_name(self, player: int, players: int) -> str:
        """The colour when fixed by the board file; ``Player N`` when tossed for."""
        if self.option("colour-toss"):
            return f"Player {player + 1}"
        return self.spec.colours[player].capitalize()

    def _state_from_body(self, data: Mapping[str, Any], players: int) -> SenetSticksState:
        """The state of a position file's keys (:func:`.position.read_position` checks
        each), checked as a whole: not both players won, a win ends the turn, ``blocked``
        only on a board no throw can change, no plinth in the Abyss before the start.

        :raises PositionError: naming the key and the reason.
        """
        facts = read_position(
            data, self.spec, self.sticks,
            colour_toss=bool(self.option("colour-toss")), mid_captures=self.mid_captures,
        )
        state = SenetSticksState(self)
        state.stage, state.colours, state.turn = facts.stage, facts.colours, facts.turn
        state.casts, state.values, state.board = facts.casts, facts.values, facts.board
        state.abyss, state.moved = facts.abyss, facts.moved
        winners = [p for p in (0, 1) if state._has_won(p)]
        if len(winners) == 2:
            raise PositionError("plinths", "both players cannot have won")
        if winners:
            state.winner = winners[0]
            state.values = []
            state.moved = {}
        elif data.get("blocked", False) is not False:
            # A game that ended on a blocked board (after the pass that found it) reads
            # back as ended. A blocked board without this key waits for a throw, as in
            # play: the throw is passed, and that pass ends the game.
            if data.get("blocked") is not True or state.stage != STAGE_PLAY or state.values or not state._blocked():
                raise PositionError(
                    "blocked", "true only for a game in play, no values left, on a board no throw can change"
                )
            state.blocked = True
            outcome = state.outcome
            assert outcome is not None
            state.winner = outcome.winners[0]
        elif state.stage != STAGE_PLAY and (state.abyss[0] or state.abyss[1]):
            raise PositionError("plinths", "no plinth can be in the Abyss before the game starts")
        return state

    def new_state(self, players: int | None = None) -> SenetSticksState:
        self.check_players(players)
        state = SenetSticksState(self)
        state.board = set_up_board(self.squares)
        return state


class SenetSticksState(State):
    """A casting-stick Senet position.

    ``board[s]`` is the player (0 or 1) on square ``s`` (1..squares) or -1;
    ``abyss[p]`` counts player ``p``'s plinths in the Abyss; ``values`` are the throw
    values the player to act may still use, in the order thrown.
    """

    __slots__ = (
        "_cache", "abyss", "blocked", "board", "casts", "colours", "moved", "stage", "turn", "values", "winner",
    )

    game: SenetSticks

    def __init__(self, game: SenetSticks) -> None:
        super().__init__(game, 2)
        self.board: list[int] = [EMPTY] * (game.squares + 1)
        self.abyss: list[int] = [0, 0]
        self.turn = 0
        self.values: list[int] = []
        self.stage = STAGE_TOSS if game.option("colour-toss") else STAGE_START
        self.colours: tuple[str, str] | None = None if game.option("colour-toss") else game.spec.colours
        self.casts: list[int | None] = [None, None]
        self.winner = EMPTY
        self.blocked = False
        """The game ended because no throw could move any plinth (see :attr:`outcome`)."""
        self.moved: dict[int, int] = {}
        """This turn's marks of the player to act's plinths: square -> ``FRESH | TOOK``.
        A plinth moved on in a later move of the same turn continues its combination."""
        self._cache: tuple[Move, ...] | None = None
        """The legal moves while values remain (immutable, so copies may share it)."""

    def _copy_into(self, other: State) -> None:
        assert isinstance(other, SenetSticksState)
        other.board = self.board[:]
        other.abyss = self.abyss[:]
        other.turn = self.turn
        other.values = self.values[:]
        other.stage = self.stage
        other.colours = self.colours
        other.casts = self.casts[:]
        other.winner = self.winner
        other.blocked = self.blocked
        other.moved = dict(self.moved)
        other._cache = self._cache

    # --- names -----------------------------------------------------------------

    def name(self, player: int) -> str:
        """The player's colour (``"Red"``), or ``"Player 1"`` before the colour toss."""
        if self.colours is None:
            return f"Player {player + 1}"
        colour = self.colours[player]
        name = _CAPITALS.get(colour)
        if name is None:
            name = _CAPITALS[colour] = colour.capitalize()
        return name

    @property
    def player_to_act_name(self) -> str:
        return self.name(self.current_player)

    # --- what is due -----------------------------------------------------------

    @property
    def phase(self) -> Phase:
        if self.winner != EMPTY:
            return Phase.OVER
        if self.stage == STAGE_PLAY and self.values:
            return Phase.MOVE
        return Phase.THROW

    @property
    def current_player(self) -> int:
        if self.stage == STAGE_TOSS:
            return 0
        if self.stage == STAGE_START:
            return 0 if self.casts[0] is None else 1
        return self.turn

    @property
    def throw_spec(self) -> Implement | None:
        if self.winner != EMPTY:
            return None
        if self.stage == STAGE_TOSS:
            return self.game.toss_stick
        if self.stage == STAGE_START:
            return self.game.start_stick
        return None if self.values else self.game.sticks

    @property
    def outcome(self) -> Outcome | None:
        if self.blocked:
            # Not in the seed (docs/rules/senet-sticks.md, "A blocked board"): more
            # plinths in the opponent's Home Row wins; as many is a shared win.
            arrived = self._arrived()
            best = max(arrived)
            winners = tuple(p for p in (0, 1) if arrived[p] == best)
            return Outcome(
                winners,
                f"the board is blocked, no throw can move a plinth; {arrived[0]} against {arrived[1]} "
                "plinths in the opponent's Home Row",
            )
        if self.winner == EMPTY:
            return None
        return Outcome((self.winner,), REASONS[self._won_by()])

    def _arrived(self) -> tuple[int, int]:
        """How many plinths each player has in the opponent's Home Row."""
        homes, board = self.game.homes, self.board
        first, second = (sum(1 for s in homes[1 - p] if board[s] == p) for p in (0, 1))
        return first, second

    def _won_by(self) -> str:
        """Why :attr:`winner` won (``REASON_*`` of :mod:`.events`), the board not blocked."""
        if self.abyss[1 - self.winner] == PLINTHS:
            return ev.REASON_ABYSS
        return ev.REASON_QUICK if self.game.quick else ev.REASON_HOME

    def pieces(self) -> list[PieceAt]:
        out = [PieceAt(p, PieceZone.HELD) for p in (0, 1) for _ in range(self.abyss[p])]
        out += [PieceAt(o, PieceZone.BOARD, s) for s, o in enumerate(self.board) if o != EMPTY]
        return out

    def legal_moves(self) -> tuple[Move, ...]:
        """As :meth:`State.legal_moves`; the moves found for the values left, at once."""
        cached = self._cache
        if cached is not None:
            return cached
        return super().legal_moves()

    # --- search mode ---------------------------------------------------------------

    def position_key(self) -> tuple[object, ...]:
        """Stage, colours, the casts for who starts, the player to act, the values still
        to use (in order), the board's squares, the Abyss counts and this turn's marks:
        the JSON form (see :meth:`State.position_key`)."""
        moved = self.moved
        return (
            self.stage,
            self.colours,
            self.casts[0],
            self.casts[1],
            self.current_player,
            tuple(self.values),
            self.abyss[0],
            self.abyss[1],
            tuple(sorted(moved.items())) if moved else (),
            self.blocked,
            *self.board,
        )

    def progress(self, player: int) -> float:
        """How far the player's five plinths have come along their path towards the
        opponent's Home Row, where all five must stand at the end: each plinth counts the
        number of its square along the player's own path (1..30; in the Abyss 0), the
        five starting squares (1+2+3+4+5) count 0 and the five squares of the opponent's
        Home Row (26+...+30) count 1. Quick mode, where the first plinth there wins: the
        best plinth's square over 26. While the player is moving, the values still to use
        count as squares already walked. 1.0 only for a winner."""
        if self.winner == player and not self.blocked:
            return 1.0
        n = self.game.squares
        board = self.board
        walked = 0
        best = 0
        for s in range(1, n + 1):
            if board[s] == player:
                at = s if player == 0 else n + 1 - s
                walked += at
                if at > best:
                    best = at
        if player == self.turn and self.stage == STAGE_PLAY:
            for v in self.values:
                walked += v
                best += v
        if self.game.quick:
            share = best / (n - self.game.spec.home_row + 1)
        else:
            start = PLINTHS * (PLINTHS + 1) // 2
            goal = PLINTHS * n - start + PLINTHS
            share = (walked - start) / (goal - start)
        return 0.0 if share < 0 else (share if share < 0.99 else 0.99)

    def abyss_count(self, player: int) -> int:
        """How many of ``player``'s plinths are in the Abyss (0..5)."""
        return self.abyss[player]

    def usable_values(self) -> list[int]:
        """The values the player to act can use right now (each once, sorted); empty
        unless in MOVE phase."""
        if self.phase is not Phase.MOVE:
            return []
        return sorted({v for m in self._legal() for v in m.values})

    def path_of(self, move: Move) -> tuple[Step, ...]:
        """How ``move`` (one of :meth:`legal_moves`) plays, value by value: one
        :class:`Step` per value of ``move.values``, in the order played, each with the
        square where that value leaves the plinth (after a river), the river square it
        ended on and whether it sends an opponent's plinth to the Abyss. ``()`` for a
        move that moves no plinth (``pass``).

        :raises IllegalMoveError: a plinth's move that is not one of :meth:`legal_moves`.
        """
        if move.kind not in ("move", "resurrect"):
            return ()
        if move not in self.legal_moves():
            raise IllegalMoveError(f"move {move.notation!r} is not legal in {self.describe()}")
        p = self.turn
        src = move.src
        assert isinstance(src, int) or src is None
        fresh = src is None or bool(self.moved.get(src, 0) & FRESH)
        here: int | None = src
        taken: tuple[int, ...] = ()
        steps: list[Step] = []
        for v in move.values:
            landed = self._land(p, here, v, src, taken, fresh)
            assert landed is not None, f"{move} cannot be played"
            t, caught, river = landed
            steps.append(Step(v, t, river, bool(caught)))
            taken += caught
            here = t
        return tuple(steps)

    def usable_faces(self) -> tuple[bool, ...]:
        """For each stick of the throw being played: whether the player to move may still
        use its value (their colour or solid, not yet played nor discarded, and not lost
        to a ``pass``). ``()`` outside MOVE phase, or when the state was read from a
        position file (which does not keep the throw)."""
        throw = self._last_throw() if self.phase is Phase.MOVE else None
        if throw is None:
            return ()
        assert self.colours is not None
        mine = self.colours[self.turn]
        left = [] if self._legal() == (PASS,) else list(self.values)
        marks = []
        for v, c in zip(throw.values, throw.colours, strict=True):
            ok = (c is None or c == mine) and v in left
            if ok:
                left.remove(v)
            marks.append(ok)
        return tuple(marks)

    def _last_throw(self) -> Throw | None:
        """The last throw in :attr:`history` (the one being played in MOVE phase)."""
        for action in reversed(self.history):
            if isinstance(action, Throw):
                return action
        return None

    def _has_won(self, p: int) -> bool:
        """'The first person to place all five plinths in the opponent's Home Row or
        exile all the opponent's plinths out to the Abyss wins.' Quick Mode: 'First
        player to reach opponent's Home Row wins.'"""
        if self.abyss[1 - p] == PLINTHS:
            return True
        board = self.board
        arrived = 0
        for s in self.game.homes[1 - p]:
            if board[s] == p:
                arrived += 1
        return arrived >= (1 if self.game.quick else PLINTHS)

    # --- the rules ---------------------------------------------------------------

    def _land(
        self, p: int, here: int | None, v: int, gone: int | None, taken: tuple[int, ...],
        fresh: bool,
    ) -> tuple[int, tuple[int, ...], int | None] | None:
        """One value played by player ``p``'s plinth on ``here`` (``None``: in the Abyss).

        Returns ``(square reached, squares whose opponent is taken, river square or
        None)`` or ``None`` when the value cannot land. ``gone`` is the square the
        moving plinth left; ``taken`` the squares emptied earlier in the same move;
        ``fresh``: the plinth comes out of the Abyss this turn (in this move or an
        earlier one), so the value must land on an open square.

        'Plinths can be moved over other plinths, but must land in an open space, or
        on an opponent that is not on a Safe space. Safe spaces are marked by the Sun.'
        'Home Row is Safe for opponent's plinths that have gone all the way around the
        board and landed there, and they can not be attacked.' 'An opponent in the Home
        Row cannot attack a player, but can still move forward if spaces allow.' ('A
        player's own Home Row is not a safe space from being attacked from an opponent
        coming in from outside the Home Row.') The squares each value reaches and the
        safe squares are tables of the game (:class:`SenetSticks`).
        """
        game = self.game
        # 'A plinth in the Abyss can only Resurrected into an open space in the Home Row
        # (or space 6, taking the river if the end is open or occupied by the opponent).'
        t = game.land_on[p][0 if here is None else here][v]
        if not t:
            return None
        board = self.board
        occupant = EMPTY if t == gone or t in taken else board[t]
        if occupant == EMPTY:
            caught: tuple[int, ...] = ()
        elif (
            occupant == p
            # 'each value of a combination lands on an open space' (out of the Abyss)
            or fresh
            or game.safe_from[p][t]
            or (here is not None and game.in_opponent_home[p][here])
        ):
            return None
        else:
            caught = (t,)
        end = game.river_to[t]
        if not end:
            return t, caught, None
        # 'Rivers must be used immediately if landed on directly at the end of a move
        # or in the middle of a combination move (as long as it is on a roll value)'
        # Out of the Abyss only the river of the resurrection square (the seed's space
        # 6) may end on an opponent: 'taking the river if the end is open or occupied
        # by the opponent'.
        occupant = EMPTY if end == gone or end in taken or end in caught else board[end]
        if occupant == EMPTY:
            return end, caught, t
        if occupant == p or (fresh and t != game.resurrect_at[p]) or game.safe_from[p][end]:
            return None
        return end, (*caught, end), t

    def _generate(self) -> list[Move]:
        """Every move by one plinth with one value or an ordered combination of values
        (:meth:`.legal.LegalMoves.generate`)."""
        return self.game.legal.generate(self.turn, self.values, self.board, self.abyss, self.moved)

    def _legal(self) -> tuple[Move, ...]:
        """'All available moves must be made ... A player can not pass on a valid move.'
        The explicit ``pass`` is legal only when no remaining value can be used."""
        if self._cache is None:
            self._cache = (
                tuple(self.game.legal.generate(self.turn, self.values, self.board, self.abyss, self.moved))
                or _PASS_ONLY
            )
        return self._cache

    def _play(self, move: Move) -> list[Event]:
        """Move the plinth without checks or turn bookkeeping; returns the events.

        The move is legal (one of :meth:`legal_moves`), so each value lands where
        :meth:`_land` would find it (the game's tables), taking an opponent there and at
        the end of a river there."""
        p = self.turn
        q = 1 - p
        src = move.src
        dst = move.dst
        assert isinstance(src, int) or src is None
        assert isinstance(dst, int)
        mark = FRESH if src is None else self.moved.pop(src, 0) if self.moved else 0
        game = self.game
        cache = game.events
        key = (p, src, dst, move.values)  # the event's facts (hashed faster than the move)
        said = cache.kept.get(key)  # cache.get, inlined: every move says it
        if said is None:
            said = cache.put(key, ev.moved(p, move))
        events = [said]
        board = self.board
        if src is None:
            self.abyss[p] -= 1
        else:
            board[src] = EMPTY
        land_on, river_to = game.land_on[p], game.river_to
        here = src or 0
        taken: tuple[int, ...] = ()
        for v in move.values:
            # _land(p, here, v, src, taken, fresh) of a legal move, inlined
            t = land_on[here][v]
            caught: tuple[int, ...] = () if t == src or t in taken or board[t] == EMPTY else (t,)
            end = river_to[t]
            if end:
                if not (end == src or end in taken or end in caught or board[end] == EMPTY):
                    caught = (*caught, end)
                along = (ev.EV_RIVER, p, t, end)
                said = cache.get(along)
                if said is None:
                    said = cache.put(along, ev.river(p, t, end, end < t if p == 0 else end > t))
                events.append(said)
                t = end
            if caught:
                events.extend(self._taken(q, c) for c in caught)
                taken += caught
            here = t
        for c in taken:
            board[c] = EMPTY
        board[dst] = p
        if taken and not game.mid_captures:
            mark |= TOOK
        if mark:
            self.moved[dst] = mark
        return events

    def _taken(self, q: int, square: int) -> Event:
        """'If a player lands on an opponent that is not on a Safe space, the
        opponent's plinth is removed from the board and place in their Abyss.'"""
        self.abyss[q] += 1
        cache = self.game.events
        key = (EV_CAPTURED, q, square)
        said = cache.get(key)
        if said is None:
            said = cache.put(key, ev.captured(q, square))
        return said

    def _blocked(self) -> bool:
        """Whether no throw can ever move a plinth of either player again.

        Then the position can never change (every turn is a pass), so the game ends.
        """
        assert self.colours is not None
        probe = self._scratch()
        probe.moved = {}
        for p in (0, 1):
            probe.turn = p
            # (any throw of each order-free class: the order of the values changes no move)
            for throw, _p, _w in self.game.sticks.search_outcomes():
                probe.values = [
                    v for v, c in zip(throw.values, throw.colours, strict=True)
                    if c is None or c == self.colours[p]
                ]
                if probe._generate():
                    return False
        return True

    def _alive(self) -> set[int]:
        """The values that some order of legal moves can still use.

        'All available moves must be made, but it is up to the player in which order
        they are played ... A player may make a move that will invalidate another roll
        value - then that value is discarded.' A value blocked now but usable after
        another value is played stays; only values no order can use are dead.
        """
        need = set(self.values)
        found: set[int] = set()
        legal = self._legal()
        if legal is not _PASS_ONLY:
            wanted = len(need)
            for m in legal:
                found.update(m.values)
                if len(found) == wanted:  # every value is used by a move now: no search
                    return need
            found.clear()
        seen: set[tuple[tuple[int, ...], ...]] = set()

        def search(state: SenetSticksState) -> None:
            key = (
                tuple(state.board), tuple(state.abyss), tuple(sorted(state.values)),
                tuple(x for item in sorted(state.moved.items()) for x in item),
            )
            if key in seen:
                return
            seen.add(key)
            if state is self:  # the root's moves are the legal moves: found once, kept
                legal = self._legal()
                moves: Sequence[Move] = () if legal is _PASS_ONLY else legal
            else:
                moves = state._generate()
            for m in moves:
                found.update(m.values)
            for m in moves:
                if need <= found:
                    return
                rest = list(state.values)
                for v in m.values:
                    rest.remove(v)
                if not set(rest) - found:
                    continue
                child = state._scratch()
                child._play(m)
                child.values = rest
                search(child)

        search(self)
        return found & need

    def _scratch(self) -> SenetSticksState:
        """A light copy for look-ahead (no history)."""
        other = object.__new__(SenetSticksState)
        other.game = self.game
        other.players = 2
        other.history = []
        self._copy_into(other)
        other._cache = None
        return other

    def _settle(self, events: list[Event]) -> None:
        """Discard the values that no order of moves can use, with an event each.

        When none of the values can be used they stay, for the explicit ``pass``.
        """
        self._cache = None
        if not self.values:
            return
        if len(self.values) == 1 and self._legal() is not _PASS_ONLY:
            return  # the one value is used by every move (_alive, at once)
        alive = self._alive()
        if not alive:
            return
        for v in self.values:
            if v not in alive:
                break
        else:  # (the common case: every value still usable)
            return
        lost = [v for v in self.values if v not in alive]
        if lost:
            self.values = [v for v in self.values if v in alive]
            self._cache = None  # found for the values before the discard
            events.append(ev.values_lost(self.turn, lost, passes=False))

    def _push_throw(self, throw: Throw) -> list[Event]:
        self._cache = None
        if self.stage == STAGE_TOSS:
            # 'Optional: Choose a color - one player tosses a colored stick and takes
            # the color shown. The other takes the remaining color.'
            shown = throw.colours[0]
            pair = self.game.spec.colours
            assert shown is not None
            other = pair[1] if shown == pair[0] else pair[0]
            self.colours = (shown, other)
            self.stage = STAGE_START
            return [Event(ev.EV_COLOURS, 0, args={"colour": shown, "other": other})]
        if self.stage == STAGE_START:
            # 'Each player casts a solid color stick. The player with the highest
            # value goes first.'
            p = self.current_player
            self.casts[p] = throw.values[0]
            events = [Event(ev.EV_CAST, p, args={"value": throw.values[0]})]
            a, b = self.casts
            if a is not None and b is not None:
                if a == b:
                    self.casts = [None, None]
                    events.append(Event(ev.EV_CAST_AGAIN, None, args={"value": a}))
                else:
                    self.turn = 0 if a > b else 1
                    self.stage = STAGE_PLAY
                    self.casts = [None, None]
                    events.append(Event(ev.EV_GOES_FIRST, self.turn))
            return events
        # 'The value on the dual colored stick(s) can be used only by the matching
        # player color in their turn.'
        p = self.turn
        assert self.colours is not None
        mine = self.colours[p]
        # The values and the event of this throw by this player of this colour: throws
        # recur, so both are found once (the event names the player, so the player is
        # in the key: with the colour toss either player may play either colour).
        usable = self.game.usable
        known = usable.get((throw, mine, p))
        if known is None:
            mine_only = tuple(
                v for v, c in zip(throw.values, throw.colours, strict=True) if c is None or c == mine
            )
            known = usable[throw, mine, p] = (mine_only, ev.thrown(p, throw, mine_only))
        self.values = list(known[0])
        events = [known[1]]
        self._settle(events)
        return events

    def _push_move(self, move: Move) -> list[Event]:
        p = self.turn
        if move.kind == "pass":
            # 'If the opponent's plinth is on a Safe space and no other moves can be
            # made, that move is discarded and the turn is over.'
            lost = self.values
            self.values = []
            self.moved = {}
            self.turn = 1 - p
            self._cache = None
            events = [ev.values_lost(p, lost, passes=True)]
            if self._blocked():
                self.blocked = True
                outcome = self.outcome
                assert outcome is not None
                self.winner = outcome.winners[0]
                events.append(ev.won(outcome.winners, ev.REASON_BLOCKED, self._arrived()))
            return events
        events = self._play(move)
        for v in move.values:
            self.values.remove(v)
        # a win needs this plinth to arrive in the goal, or the opponent's last in the Abyss
        if (move.dst in self.game.homes[1 - p] or self.abyss[1 - p] == PLINTHS) and self._has_won(p):
            self.winner = p
            self.values = []
            self.moved = {}
            self._cache = None
            events.append(ev.won((p,), self._won_by()))
            return events
        if not self.values:
            self.turn = 1 - p
            self.moved = {}
            self._cache = None
            return events
        self._settle(events)
        return events

    def _body(self) -> dict[str, Any]:
        plinths: list[list[int | str]] = []
        for p in (0, 1):
            entries: list[int | str] = [s for s, o in enumerate(self.board) if o == p]
            entries += [ABYSS] * self.abyss[p]
            plinths.append(entries)
        body: dict[str, Any] = {
            "stage": self.stage,
            "colours": list(self.colours) if self.colours is not None else None,
            "start_casts": list(self.casts),
            "to_act": self.current_player + 1,
            "values": list(self.values),
            "plinths": plinths,
        }
        if self.blocked:
            body["blocked"] = True
        # Only mid-turn, and only when some plinth carries a mark.
        for key, flag in MARK_KEYS:
            squares = sorted(s for s, m in self.moved.items() if m & flag)
            if squares:
                body[key] = squares
        return body
