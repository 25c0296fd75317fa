"""Peter Aleff's Game of the Labyrinth (seeds 000 and 001): its events in words.

What each event carries is listed in :mod:`companion.rules.labyrinth.events`. The
English of every message is the sentence the rules wrote before events were data, so
a journal of that time reads the same (``tests/app/test_old_journals.py``).
"""

from __future__ import annotations

from companion.i18n import _, ngettext
from companion.rules import Event
from companion.ui.events import EventWords


class LabyrinthWords(EventWords):
    """The Game of the Labyrinth's events in words: fields by number, the players by
    colour."""

    @staticmethod
    def numbers(event: Event, name: str) -> list[int]:
        """The argument ``name`` of ``event`` as whole numbers (``[]`` when it holds
        none: a journal line not replayed is read as it was written, never trusted)."""
        raw = event.arg(name)
        items = raw if isinstance(raw, tuple) else ()
        return [n for n in items if isinstance(n, int)]

    def _says(self, event: Event, message: str) -> str:
        """``message`` (already translated) with the event's player and squares."""
        return message.format(player=self.player(event.player), src=self.square(event.src),
                              dst=self.square(event.dst))

    # -- who starts

    def on_start_throw(self, event: Event) -> str:
        return _("{player} throws {value} to decide who starts").format(
            player=self.player(event.player), value=event.arg("value"))

    def on_start_tie(self, event: Event) -> str:
        return _("Tie at {value}: {players} throw again").format(
            value=event.arg("value"), players=self.players(self.numbers(event, "players")))

    def on_starts(self, event: Event) -> str:
        return _("{player} threw highest ({value}) and starts").format(
            player=self.player(event.player), value=event.arg("value"))

    # -- a turn's dice and counts

    def on_thrown(self, event: Event) -> str:
        values = self.numbers(event, "values")
        if len(values) != 2:
            return _("{player} throws {values}").format(
                player=self.player(event.player), values=self.values(values))
        return _("{player} throws {first} and {second}").format(
            player=self.player(event.player), first=values[0], second=values[1])

    def on_entered(self, event: Event) -> str:
        return _("{player} enters a piece on field {dst} with the {value}").format(
            player=self.player(event.player), dst=self.square(event.dst), value=event.arg("value"))

    def on_moved(self, event: Event) -> str:
        return _("{player} moves a piece {value} from {src} to {dst}").format(
            player=self.player(event.player), value=event.arg("value"),
            src=self.square(event.src), dst=self.square(event.dst))

    def on_bounce(self, event: Event) -> str:
        return _("Exact count needed on {src}: {player}'s piece steps back {value} to {dst}").format(
            player=self.player(event.player), value=event.arg("steps"),
            src=self.square(event.src), dst=self.square(event.dst))

    def on_goose(self, event: Event) -> str:
        if event.arg("backwards"):
            message = _("The geese on {src} carry {player}'s piece {value} backwards to {dst}")
        else:
            message = _("The geese on {src} carry {player}'s piece {value} on to {dst}")
        return message.format(player=self.player(event.player), value=event.arg("value"),
                              src=self.square(event.src), dst=self.square(event.dst))

    def on_jump(self, event: Event) -> str:
        ahead = isinstance(event.src, int) and isinstance(event.dst, int) and event.dst > event.src
        if ahead:
            return self._says(event, _("{player}'s piece advances from {src} to {dst}"))
        return self._says(event, _("{player}'s piece goes back through the tunnel from {src} to {dst}"))

    def on_swapped(self, event: Event) -> str:
        other = event.arg("other")
        mine = other == event.player
        if event.dst is None:  # sent back outside the entrance
            if mine:
                message = _("{player}'s pieces switch places: the one on {src} goes back outside the entrance")
            else:
                message = _("{other}'s piece on {src} goes back outside the entrance, "
                            "where {player}'s piece came from")
        elif mine:
            message = _("{player}'s pieces switch places: the one on {src} goes to field {dst}")
        else:
            message = _("{other}'s piece on {src} goes to field {dst}, where {player}'s piece came from")
        return message.format(
            player=self.player(event.player), other=self.player(other if isinstance(other, int) else None),
            src=self.square(event.src), dst=self.square(event.dst))

    # -- traps and tunnels

    def on_trapped(self, event: Event) -> str:
        turns = event.arg("turns")
        count = turns if isinstance(turns, int) else 2
        if count == 1:
            message = _("{player}'s piece is trapped on {src}: it loses one turn")
        elif count == 2:
            message = _("{player}'s piece is trapped on {src}: it loses two turns")
        else:
            message = ngettext("{player}'s piece is trapped on {src}: it loses {count} turn",
                               "{player}'s piece is trapped on {src}: it loses {count} turns", count)
        return message.format(player=self.player(event.player), src=self.square(event.src), count=count)

    def on_tunnel(self, event: Event) -> str:
        return self._says(event, _("{player}'s piece leaves the trap on {src} through the tunnel to {dst}"))

    def on_freed(self, event: Event) -> str:
        return self._says(event, _("{player}'s piece on {src} is free again"))

    def on_all_trapped(self, event: Event) -> str:
        return self._says(event, _("All of {player}'s pieces on the board are trapped"))

    # -- the Knight's Orbit and the Millstone

    def on_orbit_offer(self, event: Event) -> str:
        return self._says(event, _("{player} may ride the Knight's Orbit from {src} with one free die"))

    def on_ride_chosen(self, event: Event) -> str:
        return self._says(event, _("{player} takes the ride from {src}: throw the free die"))

    def on_ride(self, event: Event) -> str:
        return _("{player} rides the Knight's Orbit {value} from {src} to {dst}").format(
            player=self.player(event.player), value=event.arg("value"),
            src=self.square(event.src), dst=self.square(event.dst))

    def on_drop(self, event: Event) -> str:
        return self._says(event, _("The ride ends on {src}: {player}'s piece drops through the tunnel to {dst}"))

    def on_millstone_offer(self, event: Event) -> str:
        return self._says(event, _("{player} may cross the Millstone from {src} to {dst}"))

    def on_cross(self, event: Event) -> str:
        return self._says(event, _("{player}'s piece crosses the Millstone from {src} to {dst}"))

    def on_stay(self, event: Event) -> str:
        return self._says(event, _("{player}'s piece stays on {src}"))

    # -- Elysium, dice left and lost, the winner

    def on_borne_off(self, event: Event) -> str:
        return _("{player}'s piece reaches Elysium from {src} and is borne off ({count} of {total})").format(
            player=self.player(event.player), src=self.square(event.src),
            count=event.arg("count"), total=event.arg("pieces"))

    def on_still_to_use(self, event: Event) -> str:
        return _("{player} still has the {value} of the throw to use").format(
            player=self.player(event.player), value=event.arg("value"))

    def on_needs_one(self, event: Event) -> str:
        return _("{player} needs a {value} to enter a piece").format(
            player=self.player(event.player), value=event.arg("value"))

    def on_value_lost(self, event: Event) -> str:
        if event.arg("explained"):  # the event before said why
            message = _("{player}'s {value} is lost")
        else:
            message = _("{player}'s {value} is lost: no piece can use it")
        return message.format(player=self.player(event.player), value=event.arg("value"))

    def on_won(self, event: Event) -> str:
        return _("{player} wins: {reason}").format(
            player=self.player(event.player), reason=_("all four pieces borne off"))
