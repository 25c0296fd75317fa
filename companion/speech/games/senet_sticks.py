"""Senet with coloured casting sticks for the ear (seed 002): plinths, the sticks by
value and colour and the values the player may use, the rivers, the Abyss and a
plinth resurrected from it, the colour toss and who goes first.

Spoken from the events' data (:mod:`companion.rules.senet_sticks.events`); a kind said
as the screen says it (the colour toss, the casts for who goes first, a river) has no
method here: :meth:`Voice.event` takes the screen's words
(:class:`companion.ui.events.senet_sticks.SenetSticksWords`)."""

from __future__ import annotations

from companion.i18n import _
from companion.rules import Event, Move, State, Throw
from companion.rules.senet_sticks import SenetSticksState
from companion.speech.cues import Said, Voice, and_list


class SenetSticksVoice(Voice):
    """Senet with coloured sticks for the ear."""

    def throw(self, state: State, throw: Throw) -> str:
        """The sticks and the values the player may use (its colour's and the solid
        ones): ``"Red throws 3 blue, 2 red and 4. Red may use 2 and 4"``."""
        said = super().throw(state, throw)
        if not throw.colours or not isinstance(state, SenetSticksState) or state.colours is None:
            return said
        mine = state.colours[state.current_player]
        usable = [str(v) for v, c in zip(throw.values, throw.colours, strict=True) if c in (None, mine)]
        player = self.name(state, state.current_player)
        if not usable:
            return _("{throw}. {player} can use none of them").format(throw=said, player=player)
        return _("{throw}. {player} may use {values}").format(
            throw=said, player=player, values=and_list(usable))

    def move_words(self, state: State, move: Move) -> str:
        if move.kind == "move" and move.src is not None:
            return _("move the plinth on {src} to {dst}").format(src=move.src, dst=move.dst)
        if move.kind == "resurrect":
            return _("bring a plinth back from the Abyss onto {dst}").format(dst=move.dst)
        return super().move_words(state, move)

    def on_moved(self, said: Said, event: Event) -> str | None:
        return _("{player} moves the plinth on {src} to {dst}").format(
            player=self.name(said.after, event.player), src=event.src, dst=event.dst)

    def on_captured(self, said: Said, event: Event) -> str | None:
        return _("{player}'s plinth on {src} goes to the Abyss").format(
            player=self.name(said.after, event.player), src=event.src)

    def on_resurrected(self, said: Said, event: Event) -> str | None:
        return _("{player} brings a plinth back from the Abyss onto {dst}").format(
            player=self.name(said.after, event.player), dst=event.dst)

    def on_value_lost(self, said: Said, event: Event) -> str | None:
        """``"Red can no longer use 2 and 3"`` (values no plinth can use any more) or
        ``"Red cannot use 2: the turn passes"`` (the pass)."""
        raw = event.arg("values")
        assert isinstance(raw, tuple)
        values = and_list([str(v) for v in raw])
        player = self.name(said.after, event.player)
        if event.arg("passes"):
            return _("{player} cannot use {values}: the turn passes").format(player=player, values=values)
        return _("{player} can no longer use {values}").format(player=player, values=values)
