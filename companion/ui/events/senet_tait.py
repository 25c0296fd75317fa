"""Senet under John Tait's rules (seed 003): its events in words."""

from __future__ import annotations

from companion.i18n import N_, _
from companion.rules import Event
from companion.ui.events import EventWords

EXTRA_REASON_WORDS: dict[str, str] = {
    "six": N_("threw a six"),
    "house-of-beauty": N_("House of Beauty"),
    "borne-off": N_("bore a piece off"),
}
"""An extra throw's reasons (:data:`companion.rules.senet_tait.EXTRA_REASONS`) in words."""


class SenetTaitWords(EventWords):
    """Senet (Tait)'s events in words (seed 003)."""

    def on_drowned(self, event: Event) -> str:
        return _("{player}'s piece drowns in the House of Water and goes back to its plinth").format(
            player=self.player(event.player))

    def on_extra_throw(self, event: Event) -> str:
        reasons = event.arg("reasons") or ()
        assert isinstance(reasons, tuple)
        return _("{player} throws again ({why})").format(
            player=self.player(event.player), why=", ".join(_(EXTRA_REASON_WORDS[str(r)]) for r in reasons))

    def on_throw_lost(self, event: Event) -> str:
        return _("{player}'s throw of {value} is lost: no legal move").format(
            player=self.player(event.player), value=event.arg("value"))

    def on_won(self, event: Event) -> str:
        return _("{player} wins: {reason}").format(
            player=self.player(event.player), reason=_("all five pieces borne off"))
