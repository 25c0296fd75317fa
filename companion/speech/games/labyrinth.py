"""The Labyrinth for the ear (seed 000): fields by number, the throw of two dice, the
geese, the tunnels, the traps and the turns they cost, the Knight's Orbit, the
Millstone and Elysium, in the seed's words."""

from __future__ import annotations

import re

from companion.i18n import N_, _, ngettext
from companion.rules import Event, Move, State
from companion.rules.core import Square
from companion.rules.labyrinth import LabyrinthState
from companion.speech.cues import Said, Voice, numbers

P = r"(?P<player>\w+)"
"""A player's name in the rules' sentence."""


class LabyrinthVoice(Voice):
    """The Labyrinth for the ear."""

    def square(self, state: State, square: Square | None) -> str:
        if square in (None, 0):
            return _("the entrance")
        if isinstance(square, int) and square > 60:
            return _("Elysium")
        return _("field {number}").format(number=square)

    def move_words(self, state: State, move: Move) -> str:
        where = numbers(move.label)
        if move.kind == "stay" and move.src is not None:
            return _("stay on {src}").format(src=self.square(state, move.src))
        if move.kind == "ride" and move.src is not None:
            return _("ride the Knight's Orbit from {src}").format(src=self.square(state, move.src))
        if move.kind == "cross" and where:
            return _("cross the Millstone to {dst}").format(dst=self.square(state, where[0]))
        if move.kind == "move" and isinstance(move.src, int) and move.src == move.dst:
            # Seed 000: "step forward into that field and then one step backwards for
            # each excess point on that die". A die that ends where it began turned on
            # the field halfway through its count; not "move ... from 56 to 56".
            if len(move.values) == 1 and move.values[0] % 2 == 0:
                turn = move.src + move.values[0] // 2
                return _("move the piece on {src} to {turn} and back to {src}").format(
                    src=self.square(state, move.src), turn=self.square(state, turn))
            return _("move the piece on {src} on and back to the same field").format(
                src=self.square(state, move.src))
        return super().move_words(state, move)

    def on_start_throw(self, said: Said, event: Event) -> str | None:
        return self.read(said, event, (
            P + r" throws (?P<value>\d+) to decide who starts",
            N_("{player} throws {value} to decide who starts"),
        ))

    def on_start_tie(self, said: Said, event: Event) -> str | None:
        return self.read(said, event, (
            r"Tie at (?P<value>\d+): (?P<players>.+) throw again",
            N_("A tie at {value}: {players} throw again"),
        ))

    def on_starts(self, said: Said, event: Event) -> str | None:
        return self.read(said, event, (
            P + r" threw highest \((?P<value>\d+)\) and starts",
            N_("{player} threw highest, {value}, and starts"),
        ))

    def on_entered(self, said: Said, event: Event) -> str | None:
        return _("{player} enters a piece on {dst}").format(
            player=self.name(said.after, event.player), dst=self.square(said.after, event.dst))

    def on_bounce(self, said: Said, event: Event) -> str | None:
        return self.read(said, event, (
            r"Exact count needed on (?P<src>\d+): " + P + r"'s piece steps back (?P<steps>\d+) to (?P<dst>\d+)",
            N_("Exact count needed: {player}'s piece steps back {steps} to {dst}"),
        ))

    def on_goose(self, said: Said, event: Event) -> str | None:
        return self.read(
            said, event,
            (r"The geese on (?P<src>\d+) carry " + P + r"'s piece (?P<steps>\d+) on to (?P<dst>\d+)",
             N_("The geese on {src} carry {player}'s piece {steps} on, to {dst}")),
            (r"The geese on (?P<src>\d+) carry " + P + r"'s piece (?P<steps>\d+) backwards to (?P<dst>\d+)",
             N_("The geese on {src} carry {player}'s piece {steps} back, to {dst}")),
        )

    def on_jump(self, said: Said, event: Event) -> str | None:
        return self.read(
            said, event,
            (P + r"'s piece advances from (?P<src>\d+) to (?P<dst>\d+)",
             N_("{player}'s piece advances from {src} to {dst}")),
            (P + r"'s piece goes back through the tunnel from (?P<src>\d+) to (?P<dst>\d+)",
             N_("{player}'s piece goes back through the tunnel from {src} to {dst}")),
        )

    def on_tunnel(self, said: Said, event: Event) -> str | None:
        return _("{player}'s piece leaves the trap on {src} through the tunnel to {dst}").format(
            player=self.name(said.after, event.player), src=self.square(said.after, event.src),
            dst=self.square(said.after, event.dst))

    def on_swapped(self, said: Said, event: Event) -> str | None:
        return self.read(
            said, event,
            (P + r"'s pieces switch places: the one on (?P<src>\d+) goes to (field )?(?P<dst>\d+|outside the entrance)",
             N_("{player}'s pieces switch places: the one on {src} goes to {dst}")),
            (r"(?P<other>\w+)'s piece on (?P<src>\d+) goes to (field )?(?P<dst>\d+|outside the entrance), where "
             + P + r"'s piece came from",
             N_("{other}'s piece on {src} goes to {dst}, where {player}'s piece came from")),
        )

    def fact(self, state: State, key: str, value: str | None) -> str:
        if value == "outside the entrance":
            return _("the entrance")
        return super().fact(state, key, value)

    def on_trapped(self, said: Said, event: Event) -> str | None:
        turns = 2
        after = said.after
        if isinstance(after, LabyrinthState):
            found = [t for p, f, t in after.trapped() if p == event.player and f == event.src]
            turns = found[0] if found else 2
        words = {1: _("one turn"), 2: _("two turns")}.get(turns) or ngettext(
            "{count} turn", "{count} turns", turns).format(count=turns)
        return _("{player}'s piece is trapped on {src}: it loses {turns}").format(
            player=self.name(after, event.player), src=self.square(after, event.src), turns=words)

    def on_freed(self, said: Said, event: Event) -> str | None:
        return _("{player}'s piece on {src} is free again").format(
            player=self.name(said.after, event.player), src=self.square(said.after, event.src))

    def on_all_trapped(self, said: Said, event: Event) -> str | None:
        return _("All of {player}'s pieces on the board are trapped").format(
            player=self.name(said.after, event.player))

    def on_orbit_offer(self, said: Said, event: Event) -> str | None:
        return _("{player} may ride the Knight's Orbit from {src} with one free die").format(
            player=self.name(said.after, event.player), src=self.square(said.after, event.src))

    def on_ride_chosen(self, said: Said, event: Event) -> str | None:
        return _("{player} takes the ride from {src}: throw the free die").format(
            player=self.name(said.after, event.player), src=self.square(said.after, event.src))

    def on_ride(self, said: Said, event: Event) -> str | None:
        return _("{player} rides the Knight's Orbit from {src} to {dst}").format(
            player=self.name(said.after, event.player), src=self.square(said.after, event.src),
            dst=self.square(said.after, event.dst))

    def on_drop(self, said: Said, event: Event) -> str | None:
        return _("The ride ends on {src}: {player}'s piece drops through the tunnel to {dst}").format(
            player=self.name(said.after, event.player), src=self.square(said.after, event.src),
            dst=self.square(said.after, event.dst))

    def on_millstone_offer(self, said: Said, event: Event) -> str | None:
        return _("{player} may cross the Millstone from {src} to {dst}").format(
            player=self.name(said.after, event.player), src=self.square(said.after, event.src),
            dst=self.square(said.after, event.dst))

    def on_cross(self, said: Said, event: Event) -> str | None:
        return _("{player}'s piece crosses the Millstone from {src} to {dst}").format(
            player=self.name(said.after, event.player), src=self.square(said.after, event.src),
            dst=self.square(said.after, event.dst))

    def on_stay(self, said: Said, event: Event) -> str | None:
        return _("{player}'s piece stays on {src}").format(
            player=self.name(said.after, event.player), src=self.square(said.after, event.src))

    def on_borne_off(self, said: Said, event: Event) -> str | None:
        return self.read(said, event, (
            P + r"'s piece reaches Elysium from (?P<src>\d+) and is borne off \((?P<count>\d+) of (?P<all>\d+)\)",
            N_("{player}'s piece reaches Elysium from {src}, {count} of {all} borne off"),
        ))

    def on_still_to_use(self, said: Said, event: Event) -> str | None:
        return self.read(said, event, (
            P + r" still has the (?P<value>\d+) of the throw to use",
            N_("{player} still has the {value} to use"),
        ))

    def on_needs_one(self, said: Said, event: Event) -> str | None:
        return self.read(said, event, (
            P + r" needs a (?P<value>\d+) to enter a piece",
            N_("{player} needs a {value} to enter a piece"),
        ))

    def on_value_lost(self, said: Said, event: Event) -> str | None:
        value = re.search(r"'s (\d+) is lost", event.text)
        return _("{player}'s {value} is lost").format(
            player=self.name(said.after, event.player), value=value.group(1) if value else "")
