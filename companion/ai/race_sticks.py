"""Exact win chances of casting-stick Senet's endings: a table solved over whole turns.

**The endings.** In casting-stick Senet (seed 002, ``docs/rules/senet-sticks.md``) a
plinth that has arrived in the opponent's Home Row stays there: it "can not be attacked
or taken off the board" ("Home Row is Safe for opponent's plinths that have gone all
the way around the board and landed there"), it moves only forward and the path ends
in that row. So the number of plinths each side has *left* (not yet in the opponent's
Home Row: on the board outside it or in the Abyss) never grows, and the positions where
each side has at most a few left are closed under play: every turn from one leads to
another or ends the game. This module solves such a set, contact included (takes,
rivers, the Abyss, a blocked board), as a two-player game with chance:

    V(mine, theirs) = sum over throws t of P(t) * max over the ends e of my turn of
                          my share of the game     if the game is over at e
                          1 - V(theirs', mine')    otherwise (the other side throws)

where ``V`` is the chance that the side about to throw wins (a shared win, possible
only on a blocked board, counts a half, as the search counts it), ``P`` the casting
sticks' exact distribution (``state.chance_outcomes()``: throws that differ only in the
order of the sticks merged) and the *ends of a turn* every position where the turn is
over after some sequence of the player's decisions: the rules engine's own legal moves
played one after the other (each value used by a decision of its own, alone or in a
combination, values discarded, a ``pass``), found by a depth-first walk over
``legal_moves``/``play`` from the throw. Nothing of the sticks rules is copied here.
Takes send plinths to the Abyss and back into play, so the graph is cyclic: it is
solved by value iteration (numpy, at build time) from 1/2 until no value moves by more
than :data:`TOLERANCE`. ``tests/ai/test_race_sticks.py`` checks a table built on a
small board file against a brute-force expectimax over the engine, and the shipped
table against the engine's own turns in drawn positions (one step of the equation).

**Positions.** A side's placement (:data:`Config`) is counted along its *own* path
(Red: the square's number, Blue: 31 minus it), so that the position where Red is to
throw and the mirrored one where Blue is to throw are one entry: the default board and
sticks are mirror images for the two colours (each river, each Sun and each stick's
faces; :func:`mirrored` checks the game's tables before a build). A *layer* ``(a, b)``
holds the positions where the side to throw has ``a`` plinths left and the other
``b``; each side's other plinths stand in the opponent's Home Row. A side's plinths
left stand on the 23 squares of its path outside the opponent's Home Row that are not
a river's start (a plinth never stays on a river's square) or lie in the Abyss; those
that arrived on any of the five squares of the row: 120 placements for one plinth left,
2,770 for two, 20,480 for three.

**The domain** (:data:`DEFAULT_LAYERS`): every layer with at most two plinths left a
side but (2, 2): ``(1, 1)``, ``(1, 2)``, ``(2, 1)``, 679,200 positions (302,750 pairs where
the two sides share a square included, never used); 528 CPU s to build here.
``(2, 2)`` alone would be 7.7 million positions, 1.5-3 CPU hours of the engine's turns
here: not built. In every position of the domain the iteration from 0 and from 1
settles on the values it reaches from 1/2 (:func:`solve` checks it), so no value
depends on how a game that never ended would be counted.

**Where it is exact.** In every position of the domain, for the default options (the
built-in board, ``mode=normal``, no extra stick, no colour toss, combinations may
take), up to float32 rounding and the tolerance. Other options have no table
(:func:`table_for` gives ``None``).

Build (numpy needed; the lookups are plain Python)::

    python -m companion.ai.race build --game senet-sticks
        # writes companion/ai/data/race-senet-sticks.f32.zlib

The lookup: :class:`SticksTable` answers :meth:`~SticksTable.covers`,
:meth:`~SticksTable.values`, :meth:`~SticksTable.move_values` and
:meth:`~SticksTable.best_move`; :func:`companion.ai.race.exact_for` hands
:meth:`~SticksTable.values` to the search, which asks it at every node.
"""

from __future__ import annotations

import array
import time
import zlib
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from itertools import combinations
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from companion.ai import solved
from companion.errors import CompanionError
from companion.rules import Game, Phase, State
from companion.rules.senet_sticks import STAGE_PLAY, SenetSticks, SenetSticksState
from companion.rules.senet_sticks_board import PLINTHS

if TYPE_CHECKING:
    import numpy as np

GAME_ID: Final = "senet-sticks"
FORMAT: Final = 1
"""The file format's version (the header's ``format``)."""

DEFAULT_OPTIONS: Final = {"mode": "normal", "extra-stick": False, "colour-toss": False,
                          "combination-captures": True, "board": ""}
"""The options the shipped table is solved for (the game's defaults)."""

DEFAULT_LAYERS: Final = ((1, 1), (1, 2), (2, 1))
"""The layers ``(a, b)`` of the shipped table: the side to throw has ``a`` plinths left
(not in the opponent's Home Row), the other ``b``. Closed under play."""

TOLERANCE: Final = 1e-12
"""Value iteration stops when no value changed by more than this in a sweep."""

WITHIN_KEPT: Final = 10_000
"""How many values of positions inside a turn a table keeps (:meth:`SticksTable.values`)."""

Config = tuple[int, tuple[int, ...]]
"""One side's plinths: ``(plinths in the Abyss, squares along the side's own path,
ascending)``; the squares include those in the opponent's Home Row."""

Values = tuple[float, ...]


class SticksTableError(CompanionError):
    """A table file is unreadable or does not fit the domain it says it holds."""


class Board:
    """What a table needs of ``game``'s board, along a side's own path: the squares
    ``1..n``, the opponent's Home Row (:attr:`goal`, the last ``home_row``) and the
    squares outside it where a plinth can stand (:attr:`stands`: not a river's start)."""

    def __init__(self, game: SenetSticks) -> None:
        self.n = game.squares
        home = game.spec.home_row
        self.goal: tuple[int, ...] = tuple(range(self.n - home + 1, self.n + 1))
        self.stands: tuple[int, ...] = tuple(s for s in range(1, self.n - home + 1) if not game.river_to[s])

    def own(self, p: int, square: int) -> int:
        """Board square ``square`` counted along player ``p``'s path (and back)."""
        return square if p == 0 else self.n + 1 - square


def mirrored(game: SenetSticks) -> bool:
    """Whether ``game``'s board and sticks are the same for both colours along their
    own paths: every river, Sun and square a value reaches mirrored, and the usable
    values of the throws distributed alike. The table keeps one entry for a position
    and its mirror image, so it is built only for such a game."""
    n = game.squares

    def flip(s: int) -> int:
        return n + 1 - s if s else 0

    for s in range(1, n + 1):
        if flip(game.river_to[s]) != game.river_to[flip(s)]:
            return False
        if game.safe_from[0][s] != game.safe_from[1][flip(s)]:
            return False
    for here, reach in enumerate(game.land_on[0]):
        other = game.land_on[1][flip(here)]
        if [flip(t) for t in reach] != list(other):
            return False
    usable: list[dict[tuple[int, ...], float]] = [{}, {}]
    for throw, _p, weight in game.sticks.search_outcomes():
        for p in (0, 1):
            colour = game.spec.colours[p]
            key = tuple(sorted(v for v, c in zip(throw.values, throw.colours, strict=True)
                               if c is None or c == colour))
            usable[p][key] = usable[p].get(key, 0.0) + weight
    return usable[0] == usable[1]


def side_configs(board: Board, left: int) -> list[Config]:
    """Every placement of one side with ``left`` plinths (1..5) not in the opponent's
    Home Row: the others on distinct squares of the row, ``b`` of those left on distinct
    squares of :attr:`Board.stands` and ``left - b`` in the Abyss. The order is the
    table's."""
    out: list[Config] = []
    for arrived in combinations(board.goal, PLINTHS - left):
        for b in range(left + 1):
            for squares in combinations(board.stands, b):
                out.append((left - b, squares + arrived))
    return out


def left_of(board: Board, config: Config) -> int:
    """How many plinths of ``config`` are not in the opponent's Home Row."""
    return config[0] + sum(1 for s in config[1] if s < board.goal[0])


class Domain(solved.Layers):
    """The positions of a table on ``board``: its ``layers`` and an index of each.

    :raises ValueError: for a set of layers not closed under play (a layer ``(a, b)``
        needs ``(b, a)``, and ``(b, a - 1)`` when ``a > 1``) or outside 1..5.
    """

    def __init__(self, layers: Iterable[tuple[int, int]], board: Board) -> None:
        self.board = board
        super().__init__(layers, lambda k: side_configs(board, k),
                         lambda a, b: [(b, a)] + ([(b, a - 1)] if a > 1 else []), PLINTHS, "plinths")

    def flat(self, mine: Config, theirs: Config) -> int | None:
        """The index of the position where the side with ``mine`` is to throw (``None``
        outside the domain)."""
        return self.at(left_of(self.board, mine), left_of(self.board, theirs), mine, theirs)

    def overlap(self, mine: Config, theirs: Config) -> bool:
        """Whether the two placements share a square (not a position)."""
        n = self.board.n
        return any(n + 1 - s in mine[1] for s in theirs[1])


def config_of(board: Board, state: SenetSticksState, p: int) -> Config:
    """Player ``p``'s placement in ``state``, along ``p``'s own path."""
    squares = sorted(board.own(p, s) for s in range(1, board.n + 1) if state.board[s] == p)
    return (state.abyss[p], tuple(squares))


def position(game: SenetSticks, mine: Config, theirs: Config, mover: int = 0) -> SenetSticksState:
    """The position (a throw due, read by the engine from a position's keys) where
    ``mover`` holds ``mine`` and is to throw, the other player ``theirs``."""
    n = game.squares
    plinths: list[list[Any]] = [[], []]
    for p, config in ((mover, mine), (1 - mover, theirs)):
        plinths[p] = [s if p == 0 else n + 1 - s for s in config[1]] + ["abyss"] * config[0]
    state = game.state_from_dict({
        "version": 1, "game": GAME_ID, "stage": STAGE_PLAY, "colours": list(game.spec.colours), "start_casts": [None, None],
        "to_act": mover + 1, "values": [], "plinths": plinths,
    })
    assert isinstance(state, SenetSticksState)
    return state


def turn_ends(state: State) -> list[State]:
    """Every distinct position where the turn of ``state``'s player to act (in MOVE
    phase) is over: the game ended, or the other player to throw. Found by playing the
    engine's legal moves (``legal_moves``, ``search_copy``, ``play``) depth first, each
    position within the turn walked once (by ``position_key``)."""
    me = state.current_player
    seen = {state.position_key()}
    ends: dict[Any, State] = {}
    stack = [state]
    while stack:
        here = stack.pop()
        for move in here.legal_moves():
            after = here.search_copy()
            after.play(move)
            key = after.position_key()
            if after.phase is Phase.MOVE and after.current_player == me:
                if key not in seen:
                    seen.add(key)
                    stack.append(after)
            else:
                ends[key] = after
    return list(ends.values())


def share(state: State, p: int) -> float:
    """Player ``p``'s share of a finished game: 1 won, 0 lost, 1/2 a shared win."""
    outcome = state.outcome
    assert outcome is not None
    return 1.0 / len(outcome.winners) if p in outcome.winners else 0.0


def solve(domain: Domain, game: SenetSticks, tolerance: float = TOLERANCE,
          log: Callable[[str], None] | None = None, report: dict[str, int] | None = None) -> np.ndarray:
    """The chance that the side to throw wins, for every position of ``domain``
    (float64, NaN where the two sides share a square), by value iteration over the
    ends of the engine's turns (the module's docstring) from 1/2. Needs numpy.

    Then the same iteration from 0 and from 1 (at most ten times the sweeps): a
    position whose value differs there by more than 1e-6 is one from which play can go
    on for ever (its value is the limit with an unfinished game counted a half); their
    number goes to ``report["endless"]``, the sweeps to ``report["sweeps"]``.

    :raises ValueError: for a game whose board and sticks are not mirrored
        (:func:`mirrored`).
    :raises RuntimeError: when the iteration does not settle in 100,000 sweeps.
    """
    import numpy as np

    if not mirrored(game):
        raise ValueError("the board or the sticks differ for the two colours: no table")
    board = domain.board
    n = domain.size
    # Codes of a turn's end: j < n the other side to throw in position j (worth 1 - V[j]);
    # n + k a finished game worth SHARES[k] to the side that threw.
    shares = (0.0, 0.5, 1.0)
    codes = array.array("i")
    starts = array.array("q")
    template = next(state for _i, mine, theirs in domain.positions()
                 if not domain.overlap(mine, theirs) for state in [position(game, mine, theirs)])
    weights = [w for _t, _p, w in template.chance_outcomes()]
    invalid: list[int] = []
    start = time.process_time()
    for i, mine, theirs in domain.positions():
        if domain.overlap(mine, theirs):
            invalid.append(i)
            for _ in weights:
                starts.append(len(codes))
                codes.append(n + 1)
            continue
        state = position(game, mine, theirs)
        outcomes = state.chance_outcomes()
        assert [w for _t, _p, w in outcomes] == weights
        for throw, _p, _w in outcomes:
            thrown = state.search_copy()
            thrown.play(throw)
            starts.append(len(codes))
            if thrown.phase is not Phase.MOVE:  # (a throw always leaves a decision)
                raise AssertionError(f"no decision after {throw} in {state.describe()}")
            for end in turn_ends(thrown):
                if end.phase is Phase.OVER:
                    codes.append(n + shares.index(share(end, 0)))
                else:
                    assert isinstance(end, SenetSticksState)
                    j = domain.flat(config_of(board, end, 1), config_of(board, end, 0))
                    if j is None:
                        raise AssertionError(f"a turn leaves the domain: {mine} {theirs} {throw}")
                    codes.append(j)
        if log and i % 50_000 == 0:
            log(f"{i}/{n} positions, {len(codes)} turn ends, {time.process_time() - start:.0f} CPU s")
    code = np.frombuffer(codes, dtype=np.int32)
    where = np.frombuffer(starts, dtype=np.int64)
    probs = np.array(weights)
    if log:
        log(f"{n} positions, {len(weights)} throws, {len(code)} turn ends")
    ext = np.empty(n + len(shares))
    ext[n:] = shares

    def iterate(first: float, most: int) -> tuple[np.ndarray, int | None]:
        """Sweeps from ``first`` everywhere until settled (and how many), or ``most``."""
        values = np.full(n, first)
        for sweep in range(1, most + 1):
            ext[:n] = 1.0 - values
            new = np.maximum.reduceat(ext[code], where).reshape(n, len(weights)) @ probs
            change = float(np.abs(new - values).max())
            values = new
            if change <= tolerance:
                return values, sweep
        return values, None

    values, sweeps = iterate(0.5, 100_000)
    if sweeps is None:
        raise RuntimeError("value iteration did not settle")
    # Where play can go on for ever, the limit depends on the start: count those.
    endless = np.zeros(n, dtype=bool)
    for first in (0.0, 1.0):
        other, _ = iterate(first, 10 * sweeps)
        endless |= np.abs(other - values) > 1e-6
    endless[invalid] = False
    if report is not None:
        report["sweeps"] = sweeps
        report["endless"] = int(endless.sum())
    if log:
        log(f"settled after {sweeps} sweeps; {int(endless.sum())} positions whose value depends on "
            "how a game that never ends is counted")
    values[invalid] = np.nan
    settled: np.ndarray = values
    return settled


class SticksTable(solved.SolvedMoves):
    """A solved table: :meth:`values` of any position of its :attr:`domain`.

    ``values``: the side to throw's chance to win per position of ``domain`` (float32),
    kept as :attr:`values_to_throw`.

    :raises SticksTableError: when ``values`` does not fit ``domain``.
    """

    def __init__(self, domain: Domain, values: array.array[float]) -> None:
        if len(values) != domain.size:
            raise SticksTableError(f"a table of {domain.size} positions got {len(values)} values")
        self.domain = domain
        self.board = domain.board
        self.values_to_throw = values
        n = self.board.n
        self._goals = (self.board.goal, tuple(n + 1 - s for s in self.board.goal))
        """Each player's opponent's Home Row, as board squares."""
        self._within: dict[Any, float] = {}
        """The mover's value of positions inside a turn, by position key: emptied when it
        holds :data:`WITHIN_KEPT` (a key and its value some 700 bytes: 7 MB at most)."""

    @classmethod
    def read(cls, data: bytes, where: str, game: SenetSticks) -> SticksTable:
        """The table in ``data`` (a file's bytes, as :func:`write` writes them) for
        ``game``'s board.

        :raises SticksTableError: naming ``where``, when it is not such a table.
        """
        try:
            header, values = solved.read(data, FORMAT, GAME_ID)
            domain = Domain((tuple(layer) for layer in header["layers"]), Board(game))
            return cls(domain, values)
        except (zlib.error, ValueError, KeyError, TypeError) as exc:
            raise SticksTableError(f"{where}: {exc}") from None

    def _key(self, state: SenetSticksState) -> int | None:
        """The index of ``state`` (a throw due or not) with its player to act as the
        side to throw, ``None`` outside the domain (found first by counting each side's
        plinths in the opponent's Home Row: a search asks at every node)."""
        me = state.turn
        board, goals = state.board, self._goals
        left = [PLINTHS - sum(1 for s in goals[p] if board[s] == p) for p in (me, 1 - me)]
        if (left[0], left[1]) not in self.domain.offset:
            return None
        return self.domain.flat(config_of(self.board, state, me), config_of(self.board, state, 1 - me))

    def covers(self, state: State) -> bool:
        """Whether ``state`` (a position of casting-stick Senet in play) is in the
        domain: each side's plinths left form a layer of it (or the game is over)."""
        if not isinstance(state, SenetSticksState) or state.stage != STAGE_PLAY:
            return False
        if state.phase is Phase.OVER:
            return True
        return self._key(state) is not None

    def values(self, state: State) -> Values | None:
        """Each player's exact chance to win in ``state`` (``None`` outside the domain):
        looked up where a throw is due; inside a turn, the best of the moves' values for
        the player to act (each move played by the engine, to the turn's end)."""
        if not self.covers(state):
            return None
        assert isinstance(state, SenetSticksState)
        if state.phase is Phase.OVER:
            return (share(state, 0), share(state, 1))
        me = state.turn
        if state.phase is Phase.THROW:
            i = self._key(state)
            assert i is not None
            v = float(self.values_to_throw[i])
        else:
            v = self._mover(state)
        return (v, 1.0 - v) if me == 0 else (1.0 - v, v)

    def _mover(self, state: SenetSticksState) -> float:
        """The value of a position inside a turn (MOVE phase) to the player to act."""
        key = state.position_key()
        known = self._within.get(key)
        if known is not None:
            return known
        me = state.turn
        best = 0.0
        for end in turn_ends(state):
            found = self.values(end)
            assert found is not None, "the domain is closed under play"
            best = max(best, found[me])
        if len(self._within) >= WITHIN_KEPT:
            self._within.clear()
        self._within[key] = best
        return best


def defaults(game: Game) -> bool:
    """Whether ``game`` is casting-stick Senet with the default options."""
    return isinstance(game, SenetSticks) and all(game.option(k) == v for k, v in DEFAULT_OPTIONS.items())


@cache
def _shipped() -> SticksTable | None:
    """The shipped table (read once, about 2.7 MB in memory), ``None`` when no file
    ships.

    :raises SticksTableError: when the file is there but unusable.
    """
    from companion.rules import get_game

    data = solved.shipped_bytes(GAME_ID)
    if data is None:
        return None
    game = get_game(GAME_ID)
    assert isinstance(game, SenetSticks)
    return SticksTable.read(data, f"companion/ai/data/{solved.file_name(GAME_ID)}", game)


def table_for(game: Game) -> SticksTable | None:
    """The solved table for ``game`` (casting-stick Senet with the default options),
    else ``None``.

    :raises SticksTableError: when the shipped file is unusable.
    """
    return _shipped() if defaults(game) else None


def build(out: Path | None, game: SenetSticks, layers: Sequence[tuple[int, int]] = DEFAULT_LAYERS,
          log: Callable[[str], None] = print) -> SticksTable:
    """Solve the table of ``layers`` for ``game`` (the shipped one: the default
    options) and write it to ``out`` (the same bytes every time; ``None``: not
    written); returns it. Logs the CPU time.

    :raises ValueError: as :func:`solve`.
    """
    start = time.process_time()
    domain = Domain(layers, Board(game))
    report: dict[str, int] = {}
    values = solve(domain, game, log=log, report=report)
    cpu = time.process_time() - start
    if out is not None:
        # No time in the header: the same command writes the same bytes.
        build_info = {"command": "python -m companion.ai.race build --game senet-sticks", "tolerance": TOLERANCE,
                      "endless": report["endless"]}
        solved.write(out, values, fmt=FORMAT, game_id=GAME_ID, options=DEFAULT_OPTIONS, domain=domain,
                     build=build_info)
        log(f"wrote {out}: {domain.size} positions, {out.stat().st_size} bytes, {cpu:.1f} CPU s")
    else:
        log(f"{domain.size} positions, {cpu:.1f} CPU s")
    return SticksTable(domain, solved.as_array(values))


def default_out() -> Path:
    """Where the shipped table lives in the source tree."""
    return Path(__file__).parent / "data" / solved.file_name(GAME_ID)
