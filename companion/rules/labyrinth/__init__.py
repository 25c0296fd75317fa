"""Peter Aleff's Game of the Labyrinth (seeds ``000_764640a44232cb09.txt`` and
``001_7445520b05b4b51e.txt``).

61 fields on a spiral path from the entrance (field 1) to Elysium (field 61) in the
centre. 2, 3 or 4 players (Red, Blue, Green, Yellow, seated clockwise in that order),
four pieces ("Athenians") each, waiting outside the entrance; two six-sided dice.
The board (sanctuaries, exact-count fields, geese, jumps and tunnels, traps, the
Knight's Orbit, the Millstone) is data: ``companion/rules/data/labyrinth.toml``, or a
user's copy with the option ``board=PATH`` (see :mod:`companion.rules.labyrinth_board`).
Every decision the seeds leave open is written in ``docs/rules/labyrinth.md``.

The package: :mod:`.state` the rules (the game and its positions), :mod:`.events` the
event kinds and what each carries, :mod:`.basics` the facts both share with
:mod:`.position`, reading and checking a position.

How a game runs through the rules core:

* **Who starts** (:attr:`Phase.THROW`, one die): "Each player rolls one die; the
  player with the highest number goes first." Players tied for the highest throw
  again; then play passes clockwise (player index + 1).
* **A turn**: a throw of two dice (:attr:`Phase.THROW`), then one :class:`Move` per
  die value (``Move.values == (v,)``), in either order (:attr:`Phase.MOVE`). A move
  names the piece by its field and the field its count lands on (``12-13``,
  ``enter 1``, ``58-off``), and where a jump, the tunnel or the geese carry it on,
  the field where it ends (``1-6 to 12``, ``12-16 to 20``); the events tell the rest
  (goose repeats, jumps, tunnels, swaps, traps). When no remaining value can be used
  the only move is ``pass`` and the events say which values are lost, and why.
* **Decisions** (:attr:`Phase.DECIDE`, what is asked in :meth:`LabyrinthState.waiting_for`):
  landing on the Knight's Orbit offers ``ride from F`` / ``stay on F`` (also a piece
  coming out of the tunnel from 52 to 7, as the last action of its owner's turn);
  landing on the Millstone field ``F`` offers ``cross to G`` / ``stay on F`` (``G``
  the field across).
* **The free orbit die** (:attr:`Phase.THROW`, one die) is thrown after ``ride from F``.

Why every random game's turn ends (no move can loop forever), with no arbitrary cap:
goose repeats count forwards, each repeat further on, until an exact-count bounce
turns them backwards, after which each repeat is further back, and a backward count
stops at field 1 (a repeat that cannot move the piece ends the repeats); jumps cannot
form a cycle (the board file is rejected) and a jump's destination does not repeat a
goose ("the last single die number which brought you on that field": a jump is not a
die); an orbit ride and a Millstone crossing end the piece's move (no second offer on
the field they end on), and the tunnel from 52 offers one ride before the turn passes.
So every move has a bounded number of steps, and every turn a bounded number of moves.
"""

from companion.rules.labyrinth.basics import COLOURS, NO_PIECE, OUTSIDE, PIECES
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
)
from companion.rules.labyrinth.state import Labyrinth, LabyrinthState

__all__ = [
    "COLOURS",
    "EV_ALL_TRAPPED",
    "EV_BOUNCE",
    "EV_CROSS",
    "EV_DROP",
    "EV_FREED",
    "EV_GOOSE",
    "EV_JUMP",
    "EV_MILLSTONE_OFFER",
    "EV_NEED_ONE",
    "EV_ORBIT_OFFER",
    "EV_RIDE",
    "EV_RIDE_CHOSEN",
    "EV_STARTS",
    "EV_START_THROW",
    "EV_START_TIE",
    "EV_STAY",
    "EV_STILL_TO_USE",
    "EV_TUNNEL",
    "NO_PIECE",
    "OUTSIDE",
    "PIECES",
    "Labyrinth",
    "LabyrinthState",
]
