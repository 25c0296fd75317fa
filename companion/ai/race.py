"""Exact win chances of Tait's Senet endings: a table solved by retrograde analysis.

**Why not a one-sided race table.** GNU Backgammon's bear-off databases value a *pure
race*: once the two sides have passed each other no piece can hit or block another,
so each side's number of turns to bear off is independent of the other's, and a
one-sided table per side gives the chance. In Tait's Senet (seed 003) both sides run
the same track in the same direction, so a side whose pieces have all passed the
other's is still *in front of* them: a trailing piece that lands exactly on a leading
one bumps it to its plinth ("if there is an opponent's piece on that square, then it
will be bumped"), on every square but the House of Rebirth; and a piece that drowns in
the House of Water goes back to its plinth and enters again on square 4 or 6, behind
everything. Contact ends only when one side has borne off every piece, which ends the
game. There is no pure race in Tait's Senet to tabulate (``tests/ai/test_race.py``
shows the passed pieces' bump and the drowned piece's return).

**What is exact instead: the endings with few pieces left.** Bearing off is the only
move that cannot be undone, so the positions where each side has at most a few pieces
not yet borne off (on the board or on its plinth) are closed under play: every move
from one leads to another or ends the game. This module solves that whole set, contact
included, as a two-player game with chance (a simple stochastic game):

    V(mine, theirs) = sum over scores v of P(v) * max over my moves m of
                          1                          if m bears off my last piece
                          V(mine', theirs')          if m earns an extra throw
                          1 - V(theirs', mine')      otherwise

where ``V`` is the chance that the side about to throw wins, ``mine``/``theirs`` each
side's pieces left (how many on the plinth, which squares), ``P`` the casting sticks'
exact distribution. Bumps and drownings make the graph cyclic, so it is solved by value
iteration (in numpy, at build time) from 1/2 until no value moves by more than
:data:`TOLERANCE`; ``tests/ai/test_race.py`` checks the result against a value
iteration over the rules engine's own moves and a brute-force expectimax over it.
The values are stored as float32 (7 significant digits).

**The domain** (:data:`DEFAULT_LAYERS`): a *layer* ``(a, b)`` holds the positions where
the side to throw has ``a`` pieces left and the other ``b``. The shipped table holds
every layer with ``a, b <= 2``, and ``(1, 3)``, ``(3, 1)``: 462,556 positions. A side's
pieces left lie on 29 squares (not 27) or the plinth: 30 ways for one piece, 436 for
two, 4,090 for three, 146,596 for five; all layers up to three pieces a side would be
20.8 million positions (83 MB of float32), too much for a file in the repository and
for a build in plain Python loops.

**Where it is exact.** In every position of the domain, for the default options
(``sticks=4``, ``house-of-beauty=onto``, ``six-after-lost-throw=yes``), up to float32
rounding and the tolerance. Extra throws are modelled exactly (the same side throws
again). Other options have no table (:func:`table_for` gives ``None``; the search
values those endings as everywhere else).

Build (numpy needed; the lookups are plain Python)::

    python -m companion.ai.race build          # writes companion/ai/data/race-senet-tait.f32.zlib

**Casting-stick Senet's endings** are :mod:`companion.ai.race_sticks`'s table (solved
over whole turns of the engine's moves); :func:`exact_for` and :func:`covers` answer
for both games, :func:`table_for` for Tait's Senet only. ``build --game senet-sticks``
builds that one.

The lookup: :func:`exact_for` gives a game's value function (``None`` for a game or
options without a table), :class:`RaceTable` answers :meth:`~RaceTable.covers`,
:meth:`~RaceTable.values`, :meth:`~RaceTable.move_values` and
:meth:`~RaceTable.best_move`. :mod:`companion.ai.search` asks it at every node.
"""

from __future__ import annotations

import argparse
import array
import time
import zlib
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from itertools import combinations
from pathlib import Path
from typing import TYPE_CHECKING, Final

from companion.ai import solved
from companion.ai.race_sticks import SticksTable
from companion.ai.race_sticks import table_for as sticks_table_for
from companion.errors import CompanionError
from companion.rules import Game, Phase, State
from companion.rules.senet_tait import (
    ENTRY_SQUARES,
    HOUSE_OF_BEAUTY,
    HOUSE_OF_REBIRTH,
    HOUSE_OF_WATER,
    OFF,
    PIECES,
    SQUARES,
    SenetTait,
    SenetTaitState,
)

if TYPE_CHECKING:
    import numpy as np

GAME_ID: Final = "senet-tait"
FORMAT: Final = 1
"""The file format's version (the header's ``format``)."""

DEFAULT_OPTIONS: Final = {"sticks": 4, "house-of-beauty": "onto", "six-after-lost-throw": True}
"""The options the shipped table is solved for (the game's defaults)."""

DEFAULT_LAYERS: Final = ((1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (3, 1))
"""The layers ``(a, b)`` of the shipped table: the side to throw has ``a`` pieces left
(not borne off), the other ``b``. Closed under play: a bear-off goes to a smaller
layer, every other move stays in the layer."""

TOLERANCE: Final = 1e-13
"""Value iteration stops when no value changed by more than this in a sweep."""

STANDS: Final = tuple(s for s in range(1, SQUARES + 1) if s != HOUSE_OF_WATER)
"""The squares a piece can stand on: 1-30 but the House of Water (29 squares)."""

Config = tuple[int, tuple[int, ...]]
"""One side's pieces left: ``(pieces on the plinth, squares ascending)``."""

Values = tuple[float, ...]


class RaceTableError(CompanionError):
    """A table file is unreadable or does not fit the domain it says it holds."""


def side_configs(left: int) -> list[Config]:
    """Every placement of one side's ``left`` pieces (1..5) not borne off: ``b`` on
    distinct squares of :data:`STANDS` and ``left - b`` on the plinth, ``b`` from 0
    up, each ``b``'s squares in lexicographic order. The order is the table's."""
    return [(left - b, squares) for b in range(left + 1) for squares in combinations(STANDS, b)]


class Domain(solved.Layers):
    """The positions of a table: its ``layers`` and an index of each position.

    :raises ValueError: for a set of layers not closed under play (a layer ``(a, b)``
        with ``a > 1`` needs ``(a - 1, b)`` and ``(b, a)``, ...) or outside 1..5.
    """

    def __init__(self, layers: Iterable[tuple[int, int]]) -> None:
        super().__init__(layers, side_configs, lambda a, b: [(b, a)] + ([(a - 1, b)] if a > 1 else []),
                         PIECES, "pieces")

    def flat(self, mine: Config, theirs: Config) -> int | None:
        """The index of the position where the side with ``mine`` is to throw (``None``
        outside the domain)."""
        return self.at(mine[0] + len(mine[1]), theirs[0] + len(theirs[1]), mine, theirs)


def _with(squares: tuple[int, ...], add: int | None = None, drop: int | None = None) -> tuple[int, ...]:
    out = [s for s in squares if s != drop]
    if add is not None:
        out.append(add)
        out.sort()
    return tuple(out)


Outcome = tuple[bool, bool, Config, Config]
"""A move's result: ``(extra throw, won, mine after, theirs after)``."""


def outcomes(mine: Config, theirs: Config, v: int, beauty_from: bool = False,
             six_after_lost: bool = True) -> list[Outcome]:
    """The results of every legal action of the side with ``mine`` on a throw of ``v``
    against ``theirs``: the rules of :class:`companion.rules.senet_tait.SenetTaitState`
    (``_legal``, ``_push_move``) on placements, for the build. The order is not the
    engine's; ``tests/ai/test_race.py`` checks the results equal the engine's."""
    plinth, squares = mine
    their_plinth, their_squares = theirs
    normal: list[Outcome] = []
    water: list[Outcome] = []

    def hit(d: int) -> Config:
        return (their_plinth + 1, _with(their_squares, drop=d)) if d in their_squares else theirs

    six = v == 6
    # 'New pieces can be placed on the board on a throw of four or six ... cannot be made
    # if the appropriate square is already occupied by a piece of the same colour.'
    if v in ENTRY_SQUARES and plinth and v not in squares:
        normal.append((six, False, (plinth - 1, _with(squares, add=v)), hit(v)))
    for s in squares:
        d = s + v
        if d == OFF:  # 'A piece may be borne off the board on an exact throw.'
            after = (plinth, _with(squares, drop=s))
            won = after[0] == 0 and not after[1]
            normal.append((not won, won, after, theirs))
        elif d < OFF:
            if d in squares or (d == HOUSE_OF_REBIRTH and d in their_squares):
                continue
            beauty = (s if beauty_from else d) == HOUSE_OF_BEAUTY
            if d == HOUSE_OF_WATER:  # only when nothing else is legal; back to the plinth
                water.append((six or beauty, False, (plinth + 1, _with(squares, drop=s)), theirs))
            else:
                normal.append((six or beauty, False, (plinth, _with(squares, add=d, drop=s)), hit(d)))
    if normal:
        return normal
    if water:
        return water
    return [(six and six_after_lost, False, mine, theirs)]  # the throw is lost


def _scores(game: SenetTait) -> list[tuple[int, float]]:
    """The sticks' scores with their probabilities (floats summing to 1)."""
    merged: dict[int, float] = {}
    for throw, p in game.sticks.outcomes():
        merged[throw.values[0]] = merged.get(throw.values[0], 0.0) + float(p)
    return sorted(merged.items())


def solve(domain: Domain, game: SenetTait, tolerance: float = TOLERANCE,
          log: Callable[[str], None] | None = None) -> np.ndarray:
    """The chance that the side to throw wins, for every position of ``domain``
    (float64, NaN where the two sides' squares overlap), by value iteration (the
    module's docstring). Needs numpy.

    :raises RuntimeError: when the iteration does not settle in 100,000 sweeps.
    """
    import numpy as np

    scores = _scores(game)
    probs = np.array([p for _v, p in scores])
    n = domain.size
    win = 2 * n
    rows: list[list[list[int]]] = []
    invalid: list[int] = []
    widest = 1
    for i, mine, theirs in domain.positions():
        if set(mine[1]) & set(theirs[1]):
            invalid.append(i)
            rows.append([[win]] * len(scores))
            continue
        row = []
        for v, _p in scores:
            codes = []
            for extra, won, m2, t2 in outcomes(mine, theirs, v, game.beauty_from, game.six_after_lost):
                if won:
                    codes.append(win)
                elif extra:
                    j = domain.flat(m2, t2)
                    assert j is not None, (mine, theirs, v, m2, t2)
                    codes.append(j)
                else:
                    j = domain.flat(t2, m2)
                    assert j is not None, (mine, theirs, v, m2, t2)
                    codes.append(n + j)
            widest = max(widest, len(codes))
            row.append(codes)
        rows.append(row)
    table = np.empty((n, len(scores), widest), dtype=np.int32)
    for i, row in enumerate(rows):
        for k, codes in enumerate(row):
            table[i, k, :] = codes + [codes[0]] * (widest - len(codes))
    del rows
    if log:
        log(f"{n} positions, {len(scores)} scores, up to {widest} moves a score")
    values = np.full(n, 0.5)
    ext = np.empty(2 * n + 1)
    ext[win] = 1.0
    for sweep in range(1, 100_001):
        ext[:n] = values
        ext[n:win] = 1.0 - values
        new = ext[table].max(axis=2) @ probs
        change = float(np.abs(new - values).max())
        values = new
        if change <= tolerance:
            if log:
                log(f"settled after {sweep} sweeps (last change {change:.1e})")
            break
    else:
        raise RuntimeError("value iteration did not settle")
    values[invalid] = np.nan
    settled: np.ndarray = values
    return settled


class RaceTable(solved.SolvedMoves):
    """A solved table: :meth:`values` of any position of its :attr:`domain` (2 players).

    ``values``: the side to throw's chance to win per position of ``domain`` (float32),
    kept as :attr:`values_to_throw`.
    """

    def __init__(self, domain: Domain, values: array.array[float]) -> None:
        if len(values) != domain.size:
            raise RaceTableError(f"a table of {domain.size} positions got {len(values)} values")
        self.domain = domain
        self.values_to_throw = values

    @classmethod
    def read(cls, data: bytes, where: str) -> RaceTable:
        """The table in ``data`` (a file's bytes, as :func:`write` writes them).

        :raises RaceTableError: naming ``where``, when it is not such a table.
        """
        try:
            header, values = solved.read(data, FORMAT, GAME_ID)
            domain = Domain(tuple(layer) for layer in header["layers"])
            return cls(domain, values)
        except (zlib.error, ValueError, KeyError, TypeError) as exc:
            raise RaceTableError(f"{where}: {exc}") from None

    @staticmethod
    def _side(state: SenetTaitState, p: int) -> Config:
        return (state.plinth[p], tuple(state.squares[p]))

    def covers(self, state: State) -> bool:
        """Whether ``state`` (a position of Tait's Senet with this table's options) is
        in the domain: each side's pieces left form a layer of it (or the game is over)."""
        if not isinstance(state, SenetTaitState):
            return False
        if state.winner >= 0:
            return True
        return (PIECES - state.off[state.turn], PIECES - state.off[1 - state.turn]) in self.domain.offset

    def values(self, state: State) -> Values | None:
        """Each player's exact chance to win in ``state`` (``None`` outside the domain):
        looked up where a throw is due; where a score is to be played, the best of its
        moves' values for the player to act (each move played by the engine)."""
        if not self.covers(state):
            return None
        assert isinstance(state, SenetTaitState)
        if state.winner >= 0:
            return (1.0, 0.0) if state.winner == 0 else (0.0, 1.0)
        me = state.turn
        if state.phase is Phase.THROW:
            i = self.domain.flat(self._side(state, me), self._side(state, 1 - me))
            assert i is not None
            v = float(self.values_to_throw[i])
        else:
            v = max(value for _m, value in self.move_values(state))
        return (v, 1.0 - v) if me == 0 else (1.0 - v, v)


def _defaults(game: Game) -> bool:
    return isinstance(game, SenetTait) and all(game.option(k) == v for k, v in DEFAULT_OPTIONS.items())


@cache
def _shipped() -> RaceTable | None:
    """The shipped table (read once, about 2 MB in memory), ``None`` when no file ships.

    :raises RaceTableError: when the file is there but unusable.
    """
    data = solved.shipped_bytes(GAME_ID)
    if data is None:
        return None
    return RaceTable.read(data, f"companion/ai/data/{solved.file_name(GAME_ID)}")


def table_for(game: Game) -> RaceTable | None:
    """The solved table for ``game`` (Tait's Senet with the default options), else ``None``.

    :raises RaceTableError: when the shipped file is unusable.
    """
    return _shipped() if _defaults(game) else None


def exact_for(game: Game) -> Callable[[State], Values | None] | None:
    """The exact value function for positions of ``game`` (each player's chance to win
    where the table covers the position, ``None`` elsewhere), or ``None`` when the game
    has no table: what the search calls at every node (:mod:`companion.ai.search`).
    Tait's Senet's table is this module's, casting-stick Senet's
    :mod:`companion.ai.race_sticks`'s."""
    table: RaceTable | SticksTable | None = table_for(game)
    if table is None:
        table = sticks_table_for(game)  # casting-stick Senet's endings (companion.ai.race_sticks)
    return None if table is None else table.values


def covers(state: State) -> bool:
    """Whether ``state``'s values are exact (its game has a table, this module's or
    :mod:`companion.ai.race_sticks`'s, and it covers ``state``): then a chance shown is
    the value itself, not mapped (:mod:`companion.ai.calibrate`)."""
    table: RaceTable | SticksTable | None = table_for(state.game)
    if table is None:
        table = sticks_table_for(state.game)
    return table is not None and table.covers(state)


def build(out: Path, layers: Sequence[tuple[int, int]] = DEFAULT_LAYERS,
          log: Callable[[str], None] = print) -> RaceTable:
    """Solve the table of ``layers`` for Tait's Senet with the default options and
    write it to ``out`` (the same bytes every time); returns it. Logs the CPU time."""
    from companion.rules import get_game

    game = get_game(GAME_ID, **DEFAULT_OPTIONS)
    assert isinstance(game, SenetTait)
    start = time.process_time()
    domain = Domain(layers)
    values = solve(domain, game, log=log)
    cpu = time.process_time() - start
    # No time in the header: the same command writes the same bytes.
    build_info = {"command": "python -m companion.ai.race build", "tolerance": TOLERANCE}
    solved.write(out, values, fmt=FORMAT, game_id=GAME_ID, options=DEFAULT_OPTIONS, domain=domain,
                 build=build_info)
    log(f"wrote {out}: {domain.size} positions, {out.stat().st_size} bytes, {cpu:.1f} CPU s")
    return RaceTable(domain, solved.as_array(values))


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m companion.ai.race build [--game senet-tait|senet-sticks]
    [--layers 1x1,1x2,...] [--out PATH]``."""
    from companion.ai import race_sticks

    parser = argparse.ArgumentParser(prog="python -m companion.ai.race", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="solve the table of a game's endings and write it")
    b.add_argument("--game", choices=(GAME_ID, race_sticks.GAME_ID), default=GAME_ID,
                   help=f"the game (default {GAME_ID}; {race_sticks.GAME_ID}: companion.ai.race_sticks)")
    b.add_argument("--layers", default=None,
                   help="layers AxB: the side to throw has A pieces left, the other B (default: the shipped ones)")
    b.add_argument("--out", type=Path, default=None,
                   help="the file to write (default: the shipped file, companion/ai/data/race-GAME.f32.zlib)")
    args = parser.parse_args(argv)
    sticks = args.game == race_sticks.GAME_ID
    shipped = race_sticks.DEFAULT_LAYERS if sticks else DEFAULT_LAYERS
    text = args.layers or ",".join(f"{a}x{c}" for a, c in shipped)
    layers = [tuple(int(x) for x in part.split("x")) for part in text.split(",")]
    pairs = [(a, c) for a, c in layers]
    if sticks:
        from companion.rules import get_game
        from companion.rules.senet_sticks import SenetSticks

        game = get_game(race_sticks.GAME_ID)
        assert isinstance(game, SenetSticks)
        race_sticks.build(args.out or race_sticks.default_out(), game, pairs)
    else:
        build(args.out or Path(__file__).parent / "data" / solved.file_name(GAME_ID), pairs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
