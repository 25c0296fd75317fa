"""The Cretan Labyrinth (seed 004): its events in words.

The rules give each event as data (:mod:`companion.rules.cretan_labyrinth`): the
player, the squares (``"e5"``, ``"gate3"``, ``"palace"``) and keys (a card's id, an
item's, a colour, a direction card's way, ``what`` for the case of a kind). Here they
become the players' words: a square as the board is labelled (``E5``, ``gateway 3``,
``palace``), a card by its text (the deck file's, translated where the catalogue has
it), an item, a colour and a direction by their catalogue words. Nothing here shows a
rules key.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from companion.i18n import N_, _, ngettext
from companion.rules import Event, State
from companion.rules.core import Square
from companion.ui.events import EventWords, and_list

ITEM_WORDS: dict[str, str] = {
    "bow": N_("Magic Bow and Arrow"),
    "sword": N_("Magic Sword"),
    "feather": N_("Magic Feather"),
    "potion": N_("Shrinking Potion"),
    "rope": N_("Rope"),
    "mirror": N_("Mirror"),
    "head": N_("Head of Medusa"),
}
"""The tools and weapons (:data:`companion.rules.cretan_data.ITEMS`) by their names."""

COLOUR_WORDS: dict[str, str] = {"red": N_("red"), "green": N_("green"), "blue": N_("blue"), "yellow": N_("yellow")}
"""The default decks' colours (a deck file's own colour is said as written there)."""

WAY_WORDS: dict[str, str] = {"north": N_("north"), "east": N_("east"), "south": N_("south"), "west": N_("west")}
"""Where a direction card sends a move (``"any"``: a message of its own)."""

def item_word(item: object) -> str:
    """A tool or weapon's name (``"rope"``: ``"Rope"``, in the language in use)."""
    key = str(item)
    return _(ITEM_WORDS[key]) if key in ITEM_WORDS else key


def colour_word(colour: object) -> str:
    """A colour of diamonds and decks in words (``"red"``: ``"rot"`` in German)."""
    key = str(colour)
    return _(COLOUR_WORDS.get(key, key))


def way_word(way: object) -> str:
    """A direction in words (``"north"``: ``"Norden"`` in German)."""
    key = str(way)
    return _(WAY_WORDS.get(key, key))


def square_word(square: Square | None) -> str:
    """A square of the Cretan board as players read it: ``"E5"`` (the board is
    labelled with capital letters), ``"gateway 3"``, ``"palace"``."""
    if square is None:
        return ""
    text = str(square)
    if text == "palace":
        return _("palace")
    if text.startswith("gate") and text[4:].isdigit():
        return _("gateway {number}").format(number=text[4:])
    if text[:1].isalpha() and text[1:].isdigit():  # a square: its column letter and row
        return text[:1].upper() + text[1:]
    return text


@functools.lru_cache(maxsize=1)
def _default_cards() -> dict[str, str]:
    """Card id -> text of the default decks (read once)."""
    from companion.rules.cretan_data import load_decks

    return {cid: card.text for cid, card in load_decks("").cards.items()}


class CretanLabyrinthWords(EventWords):
    """The Cretan Labyrinth's events in words (seed 004). ``cards``: card id -> the
    card's text (the decks of the game the events come from; the default decks when
    made without a position)."""

    def __init__(self, names: Sequence[str], square: Callable[[Square | None], str] | None = None,
                 cards: dict[str, str] | None = None) -> None:
        super().__init__(names, square)
        self.cards = _default_cards() if cards is None else cards

    @classmethod
    def for_state(cls, state: State, square: Callable[[Square | None], str] | None = None) -> EventWords:
        decks = getattr(state.game, "decks", None)
        cards = None if decks is None else {cid: card.text for cid, card in decks.cards.items()}
        return cls([state.name(p) for p in range(state.players)], square, cards)

    # ------------------------------------------------------------------ facts

    def square_words(self, square: Square | None) -> str:
        return square_word(square)

    def card(self, card: object) -> str:
        """A card by its text in the language in use (a card the decks do not know:
        its id, as a last resort)."""
        text = self.cards.get(str(card))
        return _(text) if text else str(card)

    def other(self, event: Event) -> str:
        """The other player an event names (argument ``other``)."""
        other = event.arg("other")
        return self.player(other if isinstance(other, int) else None)

    # ------------------------------------------------------------------ kinds

    def on_start_roll(self, event: Event) -> str:
        players = event.arg("players")
        if isinstance(players, tuple):
            return _("{players} tie with {value} and throw again").format(
                players=self.players([int(q) for q in players]), value=event.arg("value"))
        return _("{player} throws {value} for the start").format(
            player=self.player(event.player), value=event.arg("value"))

    def on_turn_passes(self, event: Event) -> str:
        if event.arg("first"):
            return _("{player} throws highest and starts").format(player=self.player(event.player))
        return _("{player}'s turn").format(player=self.player(event.player))

    def on_thrown(self, event: Event) -> str:
        if event.arg("battle"):
            return _("{player} throws {value} in the battle").format(
                player=self.player(event.player), value=event.arg("value"))
        return super().on_thrown(event)

    def on_card_drawn(self, event: Event) -> str:
        deck, card = event.arg("deck"), event.arg("card")
        if card is None:
            return _("the {colour} deck is empty: no card").format(colour=colour_word(deck))
        if deck == "direction":
            return _("{player} draws: {card}").format(player=self.player(event.player), card=self.card(card))
        return _("{player} draws a {colour} card: {card}").format(
            player=self.player(event.player), colour=colour_word(deck), card=self.card(card))

    def on_throw_lost(self, event: Event) -> str:
        way = event.arg("way")
        if way == "any":
            return _("{player} cannot move in any direction").format(player=self.player(event.player))
        return _("{player} cannot move {way}").format(player=self.player(event.player), way=way_word(way))

    def on_battle(self, event: Event) -> str:
        what = event.arg("what")
        player, other = self.player(event.player), self.other(event)
        if what == "must-fight":  # the keeper (other) must stop near the player
            return _("{player} with the Magic Key comes within two spaces of {other} and must stop and fight").format(
                player=other, other=player)
        if what == "attacks":
            return _("{player} attacks {other} for the Magic Key").format(player=player, other=other)
        if what == "no-attack":
            return _("{player} does not attack {other}").format(player=player, other=other)
        if what == "shows":
            return _("{player} shows the {item}").format(player=player, item=item_word(event.arg("item")))
        return _("{player} defends the Magic Key against {other}").format(player=player, other=other)

    def on_key(self, event: Event) -> str:
        what = event.arg("what")
        player, other = self.player(event.player), self.other(event)
        if what == "hands-in":
            return _("{player} hands in four diamonds and takes the Magic Key").format(player=player)
        if what == "keeps":
            return _("{player} keeps the diamonds").format(player=player)
        if what == "lands-on":
            return _("{player} lands on {other} and takes the Magic Key").format(player=player, other=other)
        if what == "defeats":
            return _("{player} defeats {other} and takes the Magic Key").format(player=player, other=other)
        return _("The Magic Key goes back to the palace")

    def on_won(self, event: Event) -> str:
        if event.arg("what") == "last-left":
            return _("{player} is the last one left in the labyrinth and wins!").format(
                player=self.player(event.player))
        return _("{player} escapes the labyrinth and wins!").format(player=self.player(event.player))

    def on_out(self, event: Event) -> str:
        return _("{player} is killed and leaves the game").format(player=self.player(event.player))

    def on_averted(self, event: Event) -> str:
        return _("{player} averts the danger with the {item}").format(
            player=self.player(event.player), item=item_word(event.arg("item")))

    def on_item(self, event: Event) -> str:
        return _("{player} keeps the {item}").format(
            player=self.player(event.player), item=item_word(event.arg("item")))

    def on_diamond(self, event: Event) -> str:
        colour = colour_word(event.arg("colour"))
        if event.arg("had"):
            return _("{player} already holds a {colour} diamond").format(
                player=self.player(event.player), colour=colour)
        return _("{player} receives a {colour} diamond").format(player=self.player(event.player), colour=colour)

    def on_danger(self, event: Event) -> str:
        player = self.player(event.player)
        if event.arg("what") == "killed":
            return _("{player} is killed: back to the gateway, diamonds lost").format(player=player)
        colours = event.arg("colours") or ()
        assert isinstance(colours, tuple)
        if not colours:
            return _("{player} loses no diamonds").format(player=player)
        return _("{player} loses {colours} diamonds").format(
            player=player, colours=and_list([colour_word(c) for c in colours]))

    def on_lost_turns(self, event: Event) -> str:
        player = self.player(event.player)
        if event.arg("what") == "skipped":
            return _("{player} loses a turn").format(player=player)
        count = int(event.arg("count") or 1)  # type: ignore[arg-type]
        return ngettext("{player} loses {count} turn", "{player} loses {count} turns", count).format(
            player=player, count=count)

    def on_sent(self, event: Event) -> str:
        what = event.arg("what")
        player = self.player(event.player)
        if what == "nobody":
            return _("nobody can change places with {player}").format(player=player)
        if what == "swap":
            return _("{player} and {other} change places").format(player=player, other=self.other(event))
        if what == "stays":
            return _("{player} stays on {src}").format(player=player, src=self.square(event.src))
        return _("{player} goes from {src} to {dst}").format(
            player=player, src=self.square(event.src), dst=self.square(event.dst))

    def on_round_limit(self, event: Event) -> str:
        players = event.arg("players") or ()
        assert isinstance(players, tuple)
        if len(players) == 1:
            return _("Round limit reached: {player} leads").format(player=self.player(int(players[0])))
        return _("Round limit reached: {players} lead").format(players=self.players([int(q) for q in players]))

    def on_extra_throw(self, event: Event) -> str:
        return _("{player} takes another turn").format(player=self.player(event.player))


__all__ = ["COLOUR_WORDS", "ITEM_WORDS", "WAY_WORDS", "CretanLabyrinthWords", "colour_word", "item_word",
           "square_word", "way_word"]
