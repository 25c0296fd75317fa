"""The Game of the Labyrinth's events as data: its own kinds, the core's kinds it uses,
and what each carries (seed 000 for the sentence each one reports).

An event is a kind, the player it concerns, its squares (``src``, ``dst``: fields
1-61; ``None`` where the kind has none) and its other facts as ``args`` (values, never
words). The words are the UI's (``companion/ui/events/labyrinth.py``, one catalogue
message per kind). The kinds:

========================  ==========================================================
kind                      player; src, dst; args
========================  ==========================================================
``start-throw``           the thrower; ``value`` the die thrown for who starts
``start-tie``             the first tied; ``value`` the tied throw, ``players`` the
                          tied players (indexes), who throw again
``starts``                the starter; ``value`` the highest throw
``thrown`` (core)         the thrower; ``values`` the two dice
``entered`` (core)        ``dst`` the entry field (1); ``value`` the die used
``moved`` (core)          ``src`` the piece's field, ``dst`` where the count lands
                          (after a bounce); ``value`` the die
``bounce``                ``src`` the exact-count field overshot, ``dst`` where the
                          piece lands; ``steps`` the steps back
``goose``                 ``src`` the geese's field, ``dst`` where the repeat lands;
                          ``value`` the die repeated, ``backwards`` (bool)
``jump``                  ``src`` a jump's field, ``dst`` where it leads (ahead: a
                          free passage; behind: back through a tunnel)
``tunnel``                ``src`` the trap left, ``dst`` the tunnel's exit
``swapped`` (core)        the arriving piece's owner; ``src`` the field arrived on,
                          ``dst`` where the occupant goes (``None``: outside the
                          entrance); ``other`` the occupant's owner
``trapped`` (core)        ``src`` the trap; ``turns`` the turns the piece loses
``freed``                 ``src`` the trap the piece is free on
``all-trapped``           the player whose pieces on the board are all trapped
``orbit-offer``           ``src`` the field of the Knight's Orbit offering a ride
``ride-chosen``           ``src`` the field the ride starts from
``ride``                  ``src``, ``dst`` the ride's ends; ``value`` the free die
``drop``                  ``src`` the ride's end (52), ``dst`` the tunnel's exit (7)
``millstone-offer``       ``src`` the Millstone field, ``dst`` the field across
``cross``                 ``src``, ``dst`` the crossing's ends
``stay``                  ``src`` the field the piece stays on (a ride or crossing
                          declined)
``borne-off`` (core)      ``src`` the field counted from; ``count`` the player's
                          pieces borne off now, ``pieces`` of how many
``still-to-use``          ``value`` the die of the turn's throw left after a ride
``needs-one``             ``value`` the die that enters a piece (the board's entry
                          value)
``value-lost`` (core)     ``value`` the die lost; ``explained``: the reason (all
                          pieces trapped, a die needed to enter) is the event before
``turn-passes`` (core)    the player to throw next
``won`` (core)            the winner (all four pieces borne off)
========================  ==========================================================
"""

from __future__ import annotations

from typing import Final

from companion.rules.core import Event, EventArg

EV_START_THROW: Final = "start-throw"
EV_START_TIE: Final = "start-tie"
EV_STARTS: Final = "starts"
EV_BOUNCE: Final = "bounce"
EV_GOOSE: Final = "goose"
EV_JUMP: Final = "jump"
EV_TUNNEL: Final = "tunnel"
EV_ORBIT_OFFER: Final = "orbit-offer"
EV_RIDE_CHOSEN: Final = "ride-chosen"
EV_RIDE: Final = "ride"
EV_DROP: Final = "drop"
EV_MILLSTONE_OFFER: Final = "millstone-offer"
EV_CROSS: Final = "cross"
EV_STAY: Final = "stay"
EV_FREED: Final = "freed"
EV_ALL_TRAPPED: Final = "all-trapped"
EV_NEED_ONE: Final = "needs-one"
EV_STILL_TO_USE: Final = "still-to-use"

_EVENTS: dict[tuple[object, ...], Event] = {}
"""Every event made so far, by its facts: events recur (a game has thousands, of a few
hundred distinct ones), and an event is an immutable value."""


def event(kind: str, player: int, src: int | None = None, dst: int | None = None,
          **args: EventArg) -> Event:
    """The event ``kind`` of ``player`` with its squares and ``args`` (see the table
    above), interned: the same facts give the same object."""
    key = (kind, player, src, dst, *args.items())
    ev = _EVENTS.get(key)
    if ev is None:
        ev = _EVENTS[key] = Event(kind, player, src=src, dst=dst, args=args)
    return ev


__all__ = [
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
    "event",
]
