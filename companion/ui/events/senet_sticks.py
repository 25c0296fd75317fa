"""Casting-stick Senet (seed 002): its events in words.

The events are data (:mod:`companion.rules.senet_sticks.events`): stick values, colour
keys as the board file names them (``"red"``), reason keys. Each kind is one catalogue
message here; a colour is said by its catalogue word (:data:`COLOUR_WORDS`; a colour
of a player's own board file that the catalogue does not know is said as the file
writes it), a stick by its value and colour (``"2 red"``, a solid stick by its value).
"""

from __future__ import annotations

from companion.i18n import N_, _, ngettext
from companion.rules import Event
from companion.rules.senet_sticks.events import (
    REASON_ABYSS,
    REASON_BLOCKED,
    REASON_HOME,
    REASON_QUICK,
    SOLID,
)
from companion.ui.events import EventWords, and_list

COLOUR_WORDS: dict[str, str] = {
    "red": N_("red"),
    "blue": N_("blue"),
    "green": N_("green"),
    "yellow": N_("yellow"),
    "black": N_("black"),
    "white": N_("white"),
}
"""The sticks' colours (the board file's keys) as catalogue words."""

REASON_WORDS: dict[str, str] = {
    REASON_HOME: N_("all five plinths in the opponent's Home Row"),
    REASON_QUICK: N_("first plinth in the opponent's Home Row (quick mode)"),
    REASON_ABYSS: N_("all the opponent's plinths exiled to the Abyss"),
}
"""Why a game was won (the ``won`` event's ``reason`` key; a blocked board has a
sentence of its own with the counts)."""


def colour_word(key: object) -> str:
    """A colour key (``"red"``) in words (``"rot"`` in German)."""
    key = str(key)
    return _(COLOUR_WORDS[key]) if key in COLOUR_WORDS else key


def stick_words(values: object, colours: object) -> list[str]:
    """Each stick of a throw in words: ``"2 red"``, a solid stick's value alone."""
    assert isinstance(values, tuple) and isinstance(colours, tuple)
    return [str(v) if c == SOLID else _("{value} {colour}").format(value=v, colour=colour_word(c))
            for v, c in zip(values, colours, strict=True)]


def steps(values: object) -> str:
    """The values a move plays, in order: ``2+3``."""
    assert isinstance(values, tuple)
    return "+".join(str(v) for v in values)


def value_list(values: object) -> tuple[str, int]:
    """Values as one list in words (``"2 and 4"``) and how many there are."""
    assert isinstance(values, tuple)
    return and_list([str(v) for v in values]), len(values)


class SenetSticksWords(EventWords):
    """Casting-stick Senet's events in words (seed 002)."""

    def on_colours(self, event: Event) -> str:
        return _("Player 1 tosses {colour}: Player 1 plays {colour}, Player 2 {other}").format(
            colour=colour_word(event.arg("colour")), other=colour_word(event.arg("other")))

    def on_cast(self, event: Event) -> str:
        return _("{player} casts {value}").format(player=self.player(event.player), value=event.arg("value"))

    def on_cast_again(self, event: Event) -> str:
        return _("Both cast {value}: cast again").format(value=event.arg("value"))

    def on_goes_first(self, event: Event) -> str:
        return _("{player} goes first").format(player=self.player(event.player))

    def on_thrown(self, event: Event) -> str:
        usable, _count = value_list(event.arg("usable"))
        return _("{player} throws {sticks}; may use {values}").format(
            player=self.player(event.player),
            sticks=", ".join(stick_words(event.arg("values"), event.arg("colours"))), values=usable)

    def on_moved(self, event: Event) -> str:
        return _("{player} moves {src} to {dst} ({steps})").format(
            player=self.player(event.player), src=self.square(event.src), dst=self.square(event.dst),
            steps=steps(event.arg("values")))

    def on_resurrected(self, event: Event) -> str:
        return _("{player} resurrects a plinth from the Abyss onto {dst} ({steps})").format(
            player=self.player(event.player), dst=self.square(event.dst), steps=steps(event.arg("values")))

    def on_river(self, event: Event) -> str:
        if event.arg("back"):
            message = _("{player}'s plinth takes the river on {src} back to {dst}")
        else:
            message = _("{player}'s plinth takes the river on {src} forward to {dst}")
        return message.format(player=self.player(event.player), src=self.square(event.src),
                              dst=self.square(event.dst))

    def on_captured(self, event: Event) -> str:
        return _("{player}'s plinth on {src} goes to the Abyss").format(
            player=self.player(event.player), src=self.square(event.src))

    def on_value_lost(self, event: Event) -> str:
        values, count = value_list(event.arg("values"))
        player = self.player(event.player)
        if event.arg("passes"):
            return ngettext("{player} cannot use {values}: it is lost and the turn passes",
                            "{player} cannot use {values}: they are lost and the turn passes",
                            count).format(player=player, values=values)
        return ngettext("{player}'s {values} can no longer be used and is discarded",
                        "{player}'s {values} can no longer be used and are discarded",
                        count).format(player=player, values=values)

    def on_won(self, event: Event) -> str:
        reason = self.reason(event)
        winners = event.arg("winners")
        if isinstance(winners, tuple) and len(winners) > 1:
            return _("{players} win: {reason}").format(
                players=self.players([int(w) for w in winners]), reason=reason)
        return _("{player} wins: {reason}").format(player=self.player(event.player), reason=reason)

    def reason(self, event: Event) -> str:
        """Why the ``won`` event's players won, in words."""
        key = str(event.arg("reason"))
        if key == REASON_BLOCKED:
            arrived = event.arg("arrived")
            assert isinstance(arrived, tuple)
            return _("the board is blocked, no throw can move a plinth; {mine} against {theirs} plinths in "
                     "the opponent's Home Row").format(mine=arrived[0], theirs=arrived[1])
        return _(REASON_WORDS[key])


__all__ = ["COLOUR_WORDS", "REASON_WORDS", "SenetSticksWords", "colour_word", "stick_words"]
