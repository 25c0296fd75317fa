"""Senet under Tait's rules, for the ear (seed 003): the squares by number, the three
named houses by name, the throw by its light sides, a piece bumped back to its plinth,
a piece drowned in the House of Water, the extra throw and why."""

from __future__ import annotations

from companion.i18n import N_, _
from companion.rules import Event, State
from companion.rules.core import Square
from companion.rules.senet_tait import HOUSE_OF_BEAUTY, HOUSE_OF_REBIRTH, HOUSE_OF_WATER
from companion.speech.cues import Said, Voice, and_list

HOUSES: dict[int, str] = {
    HOUSE_OF_REBIRTH: N_("{number}, the House of Rebirth"),
    HOUSE_OF_BEAUTY: N_("{number}, the House of Beauty"),
    HOUSE_OF_WATER: N_("{number}, the House of Water"),
}
"""The named squares, said with their number ('Square 26 is the House of Beauty')."""

EXTRA_REASONS: dict[str, str] = {
    "six": N_("a six"),
    "house-of-beauty": N_("the House of Beauty"),
    "borne-off": N_("a piece borne off"),
}
"""Why an extra throw was earned (the event's ``reasons`` keys), for the ear."""


class SenetTaitVoice(Voice):
    """Senet (Tait) for the ear."""

    def square(self, state: State, square: Square | None) -> str:
        if isinstance(square, int) and square in HOUSES:
            return _(HOUSES[square]).format(number=square)
        return str(square)

    def on_bumped(self, said: Said, event: Event) -> str | None:
        return _("{player}'s piece on {src} is bumped back to its plinth").format(
            player=self.name(said.after, event.player), src=self.square(said.after, event.src))

    def on_drowned(self, said: Said, event: Event) -> str | None:
        return _("{player}'s piece drowns in the House of Water and goes back to its plinth").format(
            player=self.name(said.after, event.player))

    def on_extra_throw(self, said: Said, event: Event) -> str | None:
        keys = event.arg("reasons") or ()
        assert isinstance(keys, tuple)
        reasons = [_(EXTRA_REASONS[str(k)]) for k in keys]
        player = self.name(said.after, event.player)
        if not reasons:
            return _("{player} throws again").format(player=player)
        return _("{player} throws again, for {reasons}").format(player=player, reasons=and_list(reasons))

    def on_throw_lost(self, said: Said, event: Event) -> str | None:
        return _("{player}'s throw of {value} is lost: no legal move").format(
            player=self.name(said.after, event.player), value=event.arg("value"))
