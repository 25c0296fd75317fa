"""The Cretan Labyrinth for the ear (seed 004): the squares by their letter and number,
the palace and the gateways by name, the cards drawn (their own text), diamonds, the
Magic Key, battles, dangers averted and turns lost.

The events are data; this voice says them in the screen's words
(:mod:`companion.ui.events.cretan_labyrinth`) with its own squares, and has a sentence
of its own only where the ear needs one: a card's capitals said as words, a colour said
as an adjective (message context ``"spoken"``: the screen writes "Karte (gelb)", the ear
hears "gelbe Karte"), a battle's throw, the game's start and the next player's turn said
the way every game says them."""

from __future__ import annotations

from companion.i18n import _, pgettext
from companion.rules import Event, Move, State
from companion.rules.core import Square
from companion.speech.cues import Said, Voice, card_words
from companion.ui.events.cretan_labyrinth import (
    CretanLabyrinthWords,
    colour_word,
    item_word,
    square_word,
)


class CretanLabyrinthVoice(Voice):
    """The Cretan Labyrinth for the ear."""

    def square(self, state: State, square: Square | None) -> str:
        # A square said aloud is its column letter and row number written together
        # ("A11", as the screen writes it): with a space espeak-ng says the letter A as
        # the article "a" ("uh eleven"); joined, it says the letter's name.
        if str(square) == "palace":
            return _("the palace")
        return square_word(square)

    def move_words(self, state: State, move: Move) -> str:
        kind = move.kind
        if kind == "move":
            return _("move to {dst}").format(dst=self.square(state, move.dst))
        if kind == "fly":
            return _("fly to {dst}").format(dst=self.square(state, move.dst))
        if kind == "avert":
            return _("avert the danger with the {item}").format(item=item_word(move.label))
        if kind == "show":
            return _("show the {item}").format(item=item_word(move.label))
        if kind == "face-danger":
            return _("face the danger")
        if kind == "swap":
            return _("change places with {player}").format(player=self.player_word(move.label))
        if kind == "attack":
            return _("attack {player} for the Magic Key").format(player=self.player_word(move.label))
        if kind == "no-attack":
            return _("do not attack")
        if kind == "take-key":
            return _("hand in four diamonds and take the Magic Key")
        if kind == "keep-diamonds":
            return _("keep the diamonds")
        return super().move_words(state, move)

    def said(self, said: Said, event: Event) -> str:
        """``event`` in the screen's words, with this voice's squares."""
        return self.words(said.after)(event)

    def on_card_drawn(self, said: Said, event: Event) -> str | None:
        deck, card = event.arg("deck"), event.arg("card")
        if deck == "direction" or deck is None:
            return card_words(self.said(said, event))
        colour = colour_word(deck)
        if card is None:
            return pgettext("spoken", "the {colour} deck is empty: no card").format(colour=colour)
        words = self.words(said.after)
        assert isinstance(words, CretanLabyrinthWords)
        return card_words(pgettext("spoken", "{player} draws a {colour} card: {card}").format(
            player=self.name(said.after, event.player), colour=colour, card=words.card(card)))

    def on_diamond(self, said: Said, event: Event) -> str | None:
        colour, player = colour_word(event.arg("colour")), self.name(said.after, event.player)
        if event.arg("had"):
            return pgettext("spoken", "{player} already holds a {colour} diamond").format(
                player=player, colour=colour)
        return pgettext("spoken", "{player} receives a {colour} diamond").format(player=player, colour=colour)

    def on_thrown(self, said: Said, event: Event) -> str | None:
        if event.arg("battle"):
            return self.said(said, event)
        return super().on_thrown(said, event)

    def on_turn_passes(self, said: Said, event: Event) -> str | None:
        if event.arg("first"):
            return self.said(said, event)
        return super().on_turn_passes(said, event)

    def on_throw_lost(self, said: Said, event: Event) -> str | None:
        return self.said(said, event)

    def on_won(self, said: Said, event: Event) -> str | None:
        return self.said(said, event)

    def on_extra_throw(self, said: Said, event: Event) -> str | None:
        return self.said(said, event)
