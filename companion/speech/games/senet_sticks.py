"""Senet with coloured casting sticks for the ear (seed 004): plinths, the sticks by
value and colour and the values the player may use, the rivers, the Abyss and a
plinth resurrected from it, the colour toss and who goes first."""

from __future__ import annotations

import re

from companion.i18n import N_, _
from companion.rules import Event, Move, State, Throw
from companion.rules.senet_sticks import SenetSticksState
from companion.speech.cues import Said, Voice, and_list

P = r"(?P<player>[\w ]+?)"
"""A player's name in the rules' sentence (a colour, or ``Player 1``)."""


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

    def on_starts(self, said: Said, event: Event) -> str | None:
        return self.read(
            said, event,
            (P + r" casts (?P<value>\d+)", N_("{player} casts {value}")),
            (r"Both cast (?P<value>\d+): cast again", N_("Both cast {value}: cast again")),
            (P + r" goes first", N_("{player} goes first")),
        )

    def on_colours(self, said: Said, event: Event) -> str | None:
        return self.read(said, event, (
            r"Player 1 tosses (?P<word>\w+): Player 1 plays \w+, Player 2 (?P<word_other>\w+)",
            N_("Player 1 tosses {word}: Player 1 plays {word}, Player 2 plays {word_other}"),
        ))

    def on_moved(self, said: Said, event: Event) -> str | None:
        return _("{player} moves the plinth on {src} to {dst}").format(
            player=self.name(said.after, event.player), src=event.src, dst=event.dst)

    def on_river(self, said: Said, event: Event) -> str | None:
        return self.read(
            said, event,
            (P + r"'s plinth takes the river on (?P<src>\d+) forward to (?P<dst>\d+)",
             N_("{player}'s plinth takes the river on {src} forward to {dst}")),
            (P + r"'s plinth takes the river on (?P<src>\d+) back to (?P<dst>\d+)",
             N_("{player}'s plinth takes the river on {src} back to {dst}")),
        )

    def on_captured(self, said: Said, event: Event) -> str | None:
        return _("{player}'s plinth on {src} goes to the Abyss").format(
            player=self.name(said.after, event.player), src=event.src)

    def on_resurrected(self, said: Said, event: Event) -> str | None:
        return _("{player} brings a plinth back from the Abyss onto {dst}").format(
            player=self.name(said.after, event.player), dst=event.dst)

    def on_value_lost(self, said: Said, event: Event) -> str | None:
        """``"Red's 2 and 3 can no longer be used and are discarded"`` (a value no plinth
        can use any more) or ``"Red cannot use 2: it is lost and the turn passes"``."""
        name = said.after.game.player_name(event.player or 0, said.after.players)
        rest = event.text[len(name):] if event.text.startswith(name) else event.text
        values = re.findall(r"\d+", rest)
        player = self.name(said.after, event.player)
        if "turn passes" in rest:
            return _("{player} cannot use {values}: the turn passes").format(
                player=player, values=and_list(values))
        return _("{player} can no longer use {values}").format(player=player, values=and_list(values))
