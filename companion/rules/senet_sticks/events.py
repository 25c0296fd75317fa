"""Casting-stick Senet's events as data (seed ``002_4a37d4d91a7a1598.txt``).

An event is a kind, the player it concerns, its squares and its facts as values (stick
values, colour keys as the board file names them, reason keys), never words: the
companion words them (``companion/ui/events/senet_sticks.py``, one catalogue message
per kind). The kinds every game shares come from :mod:`companion.rules.core`; the
game's own are here.

Events recur (the same move, the same throw by the same player), so the frequent ones
are interned: built once and shared (an :class:`~companion.rules.Event` is frozen).
The interning tables live on :class:`EventCache`, one per game object, with a bound.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Final

from companion.rules.core import (
    EV_CAPTURED,
    EV_MOVED,
    EV_THROWN,
    EV_VALUE_LOST,
    EV_WON,
    Event,
    Move,
)
from companion.rules.throws import Throw

EV_RIVER: Final = "river"
"""A plinth was carried along a river: ``src`` the river's square, ``dst`` where it
leads; ``args["back"]``: whether that is back along the player's path."""
EV_RESURRECTED: Final = "resurrected"
"""A plinth came back from the Abyss onto ``dst``; ``args["values"]``: the values played."""
EV_COLOURS: Final = "colours"
"""The colour toss (player 0, who tossed): ``args["colour"]`` the colour shown, which
Player 1 plays; ``args["other"]`` Player 2's."""
EV_CAST: Final = "cast"
"""A cast of the solid stick for who goes first: ``args["value"]``."""
EV_CAST_AGAIN: Final = "cast-again"
"""Both cast the same ``args["value"]``: both cast again (player ``None``: both)."""
EV_GOES_FIRST: Final = "goes-first"
"""The player who cast higher goes first."""

REASON_HOME: Final = "home"
"""Won: all five plinths in the opponent's Home Row."""
REASON_QUICK: Final = "quick"
"""Won (quick mode): the first plinth in the opponent's Home Row."""
REASON_ABYSS: Final = "abyss"
"""Won: all the opponent's plinths exiled to the Abyss."""
REASON_BLOCKED: Final = "blocked"
"""The board is blocked (no throw can move a plinth): more plinths in the opponent's
Home Row wins, as many share the win; ``args["arrived"]``: each player's count."""

SOLID: Final = ""
"""The colour key of a solid stick's face in a throw event's ``colours`` (either player
may use it)."""

KEPT: Final = 20_000
"""Recurring events kept per game object (each built once; a few MB at most)."""


def thrown(player: int, throw: Throw, usable: tuple[int, ...]) -> Event:
    """``EV_THROWN``: the sticks as thrown (``values``, and each stick's ``colours``: a
    colour key, :data:`SOLID` for a solid stick) and the values ``player`` may use
    (``usable``, in the order thrown)."""
    return Event(EV_THROWN, player, args={
        "values": throw.values,
        "colours": tuple(SOLID if c is None else c for c in throw.colours),
        "usable": usable,
    })


def moved(player: int, move: Move) -> Event:
    """``EV_MOVED`` (a plinth from ``move.src`` to ``move.dst``) or ``EV_RESURRECTED``
    (out of the Abyss), with the ``values`` played in order."""
    kind = EV_MOVED if move.src is not None else EV_RESURRECTED
    return Event(kind, player, src=move.src, dst=move.dst, args={"values": move.values})


def river(player: int, square: int, end: int, back: bool) -> Event:
    """``EV_RIVER``: ``player``'s plinth carried from the river on ``square`` to ``end``."""
    return Event(EV_RIVER, player, src=square, dst=end, args={"back": back})


def captured(player: int, square: int) -> Event:
    """``EV_CAPTURED``: ``player``'s plinth on ``square`` goes to the Abyss."""
    return Event(EV_CAPTURED, player, src=square)


def values_lost(player: int, values: list[int], passes: bool) -> Event:
    """``EV_VALUE_LOST``: ``values`` can no longer be used; ``passes``: none of the
    values left could be used (the explicit ``pass``), so the turn passes."""
    return Event(EV_VALUE_LOST, player, args={"values": tuple(values), "passes": passes})


def won(winners: tuple[int, ...], reason: str, arrived: tuple[int, int] | None = None) -> Event:
    """``EV_WON``: the first of ``winners`` as the player, all of them in ``winners``,
    the ``reason`` key (``REASON_*``) and, for a blocked board, ``arrived``."""
    args: dict[str, int | str | tuple[int | str, ...]] = {"winners": winners, "reason": reason}
    if arrived is not None:
        args["arrived"] = arrived
    return Event(EV_WON, winners[0], args=args)


class EventCache:
    """Interned events of one game object: ``get(key)`` or ``put(key, event)``, at most
    :data:`KEPT` of them (a full cache builds each further event anew)."""

    __slots__ = ("kept",)

    def __init__(self) -> None:
        self.kept: dict[Hashable, Event] = {}
        """The events kept by key (read it directly where every call counts)."""

    def get(self, key: Hashable) -> Event | None:
        return self.kept.get(key)

    def put(self, key: Hashable, event: Event) -> Event:
        if len(self.kept) < KEPT:
            self.kept[key] = event
        return event


__all__ = [
    "EV_CAST",
    "EV_CAST_AGAIN",
    "EV_COLOURS",
    "EV_GOES_FIRST",
    "EV_RESURRECTED",
    "EV_RIVER",
    "REASON_ABYSS",
    "REASON_BLOCKED",
    "REASON_HOME",
    "REASON_QUICK",
    "SOLID",
    "EventCache",
    "captured",
    "moved",
    "river",
    "thrown",
    "values_lost",
    "won",
]
