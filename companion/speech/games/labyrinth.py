"""The Labyrinth for the ear (seed 000): fields by number, the throw of two dice, the
geese, the tunnels, the traps and the turns they cost, the Knight's Orbit, the
Millstone and Elysium, in the seed's words.

Every cue is said from the event's data (:mod:`companion.rules.labyrinth.events`).
Where the ear needs other words than the eye (no brackets, no die value the throw's
cue already said) the sentence is the voice's own, in message context ``"spoken"``;
the other kinds are said in the screen's words (:mod:`companion.ui.events.labyrinth`)
with the fields as this voice says them (``field 12``, ``the entrance``, ``Elysium``).
"""

from __future__ import annotations

from companion.i18n import _, pgettext
from companion.rules import Event, Move, State
from companion.rules.core import Square
from companion.rules.labyrinth import LabyrinthState
from companion.speech.cues import Said, Voice
from companion.ui.events.labyrinth import LabyrinthWords


class LabyrinthVoice(Voice):
    """The Labyrinth for the ear."""

    def square(self, state: State, square: Square | None) -> str:
        if square in (None, 0):
            return _("the entrance")
        if isinstance(square, int) and square > 60:
            return _("Elysium")
        return _("field {number}").format(number=square)

    def move_words(self, state: State, move: Move) -> str:
        if move.kind == "stay" and move.src is not None:
            return _("stay on {src}").format(src=self.square(state, move.src))
        if move.kind == "ride" and move.src is not None:
            return _("ride the Knight's Orbit from {src}").format(src=self.square(state, move.src))
        if move.kind == "cross" and isinstance(state, LabyrinthState) and isinstance(move.src, int):
            across = state.game.board.millstone[move.src]
            return _("cross the Millstone to {dst}").format(dst=self.square(state, across))
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

    # ------------------------------------------------------------------ the screen's words

    def as_shown(self, said: Said, event: Event) -> str | None:
        """``event`` in the screen's words, with this voice's fields."""
        return self.words(said.after)(event)

    on_start_throw = as_shown
    on_jump = as_shown
    on_tunnel = as_shown
    on_trapped = as_shown
    on_freed = as_shown
    on_all_trapped = as_shown
    on_orbit_offer = as_shown
    on_ride_chosen = as_shown
    on_drop = as_shown
    on_millstone_offer = as_shown
    on_cross = as_shown
    on_stay = as_shown
    on_needs_one = as_shown
    on_value_lost = as_shown

    # ------------------------------------------------------------------ the voice's own

    def _facts(self, said: Said, event: Event) -> dict[str, object]:
        """The event's player and fields in words, for a spoken sentence."""
        return {"player": self.name(said.after, event.player),
                "src": self.square(said.after, event.src), "dst": self.square(said.after, event.dst)}

    def on_start_tie(self, said: Said, event: Event) -> str | None:
        return pgettext("spoken", "A tie at {value}: {players} throw again").format(
            value=event.arg("value"),
            players=self.words(said.after).players(LabyrinthWords.numbers(event, "players")))

    def on_starts(self, said: Said, event: Event) -> str | None:
        return pgettext("spoken", "{player} threw highest, {value}, and starts").format(
            player=self.name(said.after, event.player), value=event.arg("value"))

    def on_bounce(self, said: Said, event: Event) -> str | None:
        return pgettext("spoken", "Exact count needed: {player}'s piece steps back {steps} to {dst}").format(
            steps=event.arg("steps"), **self._facts(said, event))

    def on_goose(self, said: Said, event: Event) -> str | None:
        if event.arg("backwards"):
            message = pgettext("spoken", "The geese on {src} carry {player}'s piece {steps} back, to {dst}")
        else:
            message = pgettext("spoken", "The geese on {src} carry {player}'s piece {steps} on, to {dst}")
        return message.format(steps=event.arg("value"), **self._facts(said, event))

    def on_swapped(self, said: Said, event: Event) -> str | None:
        other = event.arg("other")
        if event.dst is None:  # sent back outside the entrance: the screen's words say it
            return self.as_shown(said, event)
        if other == event.player:
            return pgettext("spoken", "{player}'s pieces switch places: the one on {src} goes to {dst}").format(
                **self._facts(said, event))
        return pgettext("spoken", "{other}'s piece on {src} goes to {dst}, where {player}'s piece came from").format(
            other=self.name(said.after, other if isinstance(other, int) else None), **self._facts(said, event))

    def on_ride(self, said: Said, event: Event) -> str | None:
        # the free die's value was said with the throw
        return pgettext("spoken", "{player} rides the Knight's Orbit from {src} to {dst}").format(
            **self._facts(said, event))

    def on_borne_off(self, said: Said, event: Event) -> str | None:
        return pgettext("spoken", "{player}'s piece reaches Elysium from {src}, {count} of {all} borne off").format(
            count=event.arg("count"), all=event.arg("pieces"), **self._facts(said, event))

    def on_still_to_use(self, said: Said, event: Event) -> str | None:
        return pgettext("spoken", "{player} still has the {value} to use").format(
            value=event.arg("value"), **self._facts(said, event))
