"""The rules' events in words: one catalogue message per event kind, for every surface.

A rules event (:class:`companion.rules.Event`) is data: a kind, a player, squares and
arguments, never a sentence (the rules room imports nothing of the project, so it has
no catalogue). :class:`EventWords` says one in the language in use: its
``on_<kind>`` method (``-`` in the kind as ``_``) formats that kind's one catalogue
message (:func:`~companion.i18n.N_`-marked, so Babel extracts it) with the event's
facts, each in words: a player by name, a square as the game names it, a card or an
item by its catalogue word. The OLED, the spectator and club pages, ``companion
journal show`` and its export all use it; speech uses it too where a voice has no
sentence of its own for a kind (:mod:`companion.speech.cues`; a voice's sentences are
the spoken forms, in message context ``"spoken"`` where they differ).

Each game names its words (``Game.words``, ``"module:Class"``: a module of this
package, e.g. :mod:`companion.ui.events.senet_tait`); :func:`words_for` finds them for
a position. Nothing here imports Pillow or the board pictures: ``companion rules``,
the pages and the club word events on a machine with no panel.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from companion.i18n import N_, _, ngettext
from companion.rules import Event, State
from companion.rules.core import Square

log = logging.getLogger(__name__)

__all__ = ["EventWords", "and_list", "computer_word", "player_word", "won_by", "words_for"]


def and_list(items: Sequence[str]) -> str:
    """``items`` as one list in words: ``"A"``, ``"A and B"``, ``"A, B and C"``."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return _("{first} and {last}").format(first=", ".join(items[:-1]), last=items[-1])


def player_word(raw: str) -> str:
    """A player's name as the rules give it (``"Red"``, ``"Player 2"``) in words."""
    head, _space, number = raw.partition(" ")
    if head == "Player" and number.isascii() and number.isdigit():
        return _("Player {number}").format(number=number)
    return _(raw)


_LEVEL_WORDS = {"easy": N_("easy"), "normal": N_("normal"), "strong": N_("strong")}
"""The computer's levels (``companion.ai.player.LEVELS``' keys) in words."""


def computer_word(raw: str, level: str) -> str:
    """A seat the computer plays, in words: ``"White (computer, strong)"`` (``raw``: the
    player's name as the rules give it; ``level``: the computer's level key, shown as
    it is when it is none the box knows)."""
    level_words = _(_LEVEL_WORDS[level]) if level in _LEVEL_WORDS else level
    return _("{player} (computer, {level})").format(player=player_word(raw), level=level_words)


def won_by(names: Sequence[str]) -> str:
    """How a finished game stands, for a list or a status line: ``"won by Black"``,
    ``"won by Red and Blue"`` (``names``: the winners as the rules name them, each said
    by :func:`player_word`; ``"won by ?"`` for none known). The one wording of a won
    game for the record, ``companion journal``, the spectator and the club pages."""
    words = [player_word(n) for n in names]
    return _("won by {players}").format(players=and_list(words) or "?")


class EventWords:
    """The events of one game in the language in use, for one position's players.

    ``names`` are the players' names as the rules give them (``state.name(p)`` for
    each player, from the position the event happened in: colours tossed for change
    them); ``square`` says a square (default :meth:`square_words`: its number or key,
    as the game's subclass names it). Call the object with an event for its words.

    A game subclasses this and adds an ``on_<kind>`` method for each of its kinds; the
    kinds every game shares (``EV_MOVED`` ...) have a default here.
    """

    def __init__(self, names: Sequence[str], square: Callable[[Square | None], str] | None = None) -> None:
        self.names = tuple(names)
        self._square = square

    @classmethod
    def for_state(cls, state: State, square: Callable[[Square | None], str] | None = None) -> EventWords:
        """The words of ``state``'s events, with its players' names (a game whose words
        need more of the position, such as its cards' texts, overrides this)."""
        return cls([state.name(p) for p in range(state.players)], square)

    def __call__(self, event: Event) -> str:
        method = getattr(self, "on_" + event.kind.replace("-", "_"), None)
        if method is not None:
            text: str = method(event)
            return text
        log.warning("no words for the event kind %r", event.kind)
        return _("{player}: {what}").format(player=self.player(event.player), what=event.kind)

    def all(self, events: Sequence[Event]) -> tuple[str, ...]:
        """Each of ``events`` in words, in order."""
        return tuple(self(e) for e in events)

    # ------------------------------------------------------------------ facts

    def player(self, player: int | None) -> str:
        """Player ``player``'s name in words (``""`` for ``None``)."""
        if player is None:
            return ""
        if 0 <= player < len(self.names):
            return player_word(self.names[player])
        return _("Player {number}").format(number=player + 1)

    def players(self, players: Sequence[int]) -> str:
        """Several players' names as one list (``"Red, Blue and Green"``)."""
        return and_list([self.player(p) for p in players])

    def square(self, square: Square | None) -> str:
        """A square in words (the ``square`` given to the constructor, else
        :meth:`square_words`)."""
        if self._square is not None:
            return self._square(square)
        return self.square_words(square)

    def square_words(self, square: Square | None) -> str:
        """A square as the board names it: its number (a game with named squares
        overrides this)."""
        return "" if square is None else str(square)

    def values(self, values: Sequence[int]) -> str:
        """Throw values as one list (``"2, 3 and 4"``)."""
        return and_list([str(v) for v in values])

    # ------------------------------------------------------------------ shared kinds

    def on_thrown(self, event: Event) -> str:
        return _("{player} throws {value}").format(
            player=self.player(event.player), value=event.arg("value"))

    def on_entered(self, event: Event) -> str:
        return _("{player} enters a piece on {dst}").format(
            player=self.player(event.player), dst=self.square(event.dst))

    def on_moved(self, event: Event) -> str:
        return _("{player} moves {src} to {dst}").format(
            player=self.player(event.player), src=self.square(event.src), dst=self.square(event.dst))

    def on_bumped(self, event: Event) -> str:
        return _("{player}'s piece on {src} is bumped back to its plinth").format(
            player=self.player(event.player), src=self.square(event.src))

    def on_borne_off(self, event: Event) -> str:
        return _("{player} bears a piece off from {src}").format(
            player=self.player(event.player), src=self.square(event.src))

    def on_turn_passes(self, event: Event) -> str:
        return _("{player} to throw").format(player=self.player(event.player))

    def on_won(self, event: Event) -> str:
        winners = event.arg("winners")
        if isinstance(winners, tuple) and len(winners) > 1:
            return ngettext("{players} wins!", "{players} win!", len(winners)).format(
                players=self.players([int(w) for w in winners]))
        return _("{player} wins!").format(player=self.player(event.player))



def words_for(state: State, square: Callable[[Square | None], str] | None = None) -> EventWords:
    """The events of ``state``'s game in words, with the names of ``state``'s players
    (the position an event happened in, or the one after it): the class the game
    names (``Game.words``), or the shared kinds' defaults for a game that names none.
    ``square`` says a square another way (speech: the named houses by name).

    :raises TypeError: the game names something that is not an :class:`EventWords`.
    """
    from companion.ui.named import named_class

    where = type(state.game).words
    cls = named_class(where, EventWords) if where else EventWords
    return cls.for_state(state, square)
