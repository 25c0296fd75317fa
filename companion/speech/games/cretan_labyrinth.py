"""The Cretan Labyrinth for the ear (seed 002): the squares by their letter and number,
the palace and the gateways by name, the cards drawn (their own text), diamonds, the
Magic Key, battles, dangers averted and turns lost, in the seed's words.

The rules give these events as sentences; this voice reads their facts back
(:meth:`~companion.speech.cues.Voice.read`). A card's text is the deck file's own, said
as written there (in English until the deck file has a translation)."""

from __future__ import annotations

import re

from companion.i18n import N_, _, ngettext
from companion.rules import Event, Move, State
from companion.rules.core import Square
from companion.speech.cues import Said, Voice

P = r"(?P<player>Player \d+)"
Q = r"(?P<other>Player \d+)"
ITEM = r"(?P<word>[\w ]+?)"

WORDS: tuple[str, ...] = (
    N_("Magic Bow and Arrow"), N_("Magic Sword"), N_("Magic Feather"), N_("Shrinking Potion"),
    N_("Rope"), N_("Mirror"), N_("Head of Medusa"),
    N_("red"), N_("green"), N_("blue"), N_("yellow"),
    N_("north"), N_("east"), N_("south"), N_("west"), N_("in any direction"),
)
"""The items, the colours of the diamonds and decks, and the directions, as the rules
name them, marked for the catalogues (translated where said)."""


class CretanLabyrinthVoice(Voice):
    """The Cretan Labyrinth for the ear."""

    def square(self, state: State, square: Square | None) -> str:
        text = str(square)
        if text == "palace":
            return _("the palace")
        gate = re.fullmatch(r"gate(\d+)", text)
        if gate:
            return _("gateway {number}").format(number=gate.group(1))
        cell = re.fullmatch(r"([a-z])(\d+)", text)
        if cell:
            # TRANSLATORS: a square of the Cretan board said aloud, column letter and row
            # number written together ("A11"): with a space espeak-ng says the letter A
            # as the article "a" ("uh eleven"); joined, it says the letter's name.
            return _("{letter}{number}").format(letter=cell.group(1).upper(), number=cell.group(2))
        return text

    def move_words(self, state: State, move: Move) -> str:
        kind = move.kind
        if kind == "move":
            return _("move to {dst}").format(dst=self.square(state, move.dst))
        if kind == "fly":
            return _("fly to {dst}").format(dst=self.square(state, move.dst))
        if kind == "avert":
            return _("avert the danger with the {item}").format(item=_(item_name(move.label)))
        if kind == "show":
            return _("show the {item}").format(item=_(item_name(move.label)))
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

    def on_start_roll(self, said: Said, event: Event) -> str | None:
        return self.read(
            said, event,
            (P + r" throws (?P<value>\d+) for the start", N_("{player} throws {value} for the start")),
            (r"(?P<players>.+) tie with (?P<value>\d+) and throw again",
             N_("{players} tie with {value} and throw again")),
        )

    def on_turn_passes(self, said: Said, event: Event) -> str | None:
        return self.read(
            said, event,
            (P + r" throws highest and starts", N_("{player} throws highest and starts")),
            (P + r"'s turn", N_("{player} to throw")),
        )

    def on_thrown(self, said: Said, event: Event) -> str | None:
        return self.read(
            said, event,
            (P + r" throws (?P<value>\d+) in the battle", N_("{player} throws {value} in the battle")),
            (P + r" throws (?P<value>\d+)", N_("{player} throws {value}")),
        )

    def on_card_drawn(self, said: Said, event: Event) -> str | None:
        return self.read(
            said, event,
            (P + r" draws a (?P<word>\w+) card: (?P<card>.+)", N_("{player} draws a {word} card: {card}")),
            (P + r" draws: (?P<card>.+)", N_("{player} draws: {card}")),
            (r"the (?P<word>\w+) deck is empty: no card", N_("The {word} deck is empty: no card")),
        )

    def on_throw_lost(self, said: Said, event: Event) -> str | None:
        return self.read(
            said, event,
            (P + r" cannot move (?P<word>.+)", N_("{player} cannot move {word}")),
            (P + r" cannot move ", N_("{player} cannot move")),
        )

    def on_moved(self, said: Said, event: Event) -> str | None:
        return _("{player} moves from {src} to {dst}").format(
            player=self.name(said.after, event.player), src=self.square(said.after, event.src),
            dst=self.square(said.after, event.dst))

    def on_battle(self, said: Said, event: Event) -> str | None:
        return self.read(
            said, event,
            (P + r" with the Magic Key comes within two spaces of " + Q + r" and must stop and fight",
             N_("{player} with the Magic Key comes within two spaces of {other} and must stop and fight")),
            (P + r" attacks " + Q + r" for the Magic Key", N_("{player} attacks {other} for the Magic Key")),
            (P + r" does not attack " + Q, N_("{player} does not attack {other}")),
            (P + r" shows the " + ITEM, N_("{player} shows the {word}")),
            (P + r" defends the Magic Key against " + Q, N_("{player} defends the Magic Key against {other}")),
        )

    def on_key(self, said: Said, event: Event) -> str | None:
        return self.read(
            said, event,
            (P + r" hands in four diamonds and takes the Magic Key",
             N_("{player} hands in four diamonds and takes the Magic Key")),
            (P + r" keeps the diamonds", N_("{player} keeps the diamonds")),
            (P + r" lands on " + Q + r" and takes the Magic Key", N_("{player} lands on {other} and takes the Magic Key")),
            (P + r" defeats " + Q + r" and takes the Magic Key", N_("{player} defeats {other} and takes the Magic Key")),
            (r"The Magic Key goes back to the palace", N_("The Magic Key goes back to the palace")),
        )

    def on_won(self, said: Said, event: Event) -> str | None:
        return self.read(said, event, (
            P + r" escapes the labyrinth and wins!", N_("{player} escapes the labyrinth and wins!"),
        ), (
            P + r" is the last one left in the labyrinth and wins!",
            N_("{player} is the last one left in the labyrinth and wins!"),
        ))

    def on_out(self, said: Said, event: Event) -> str | None:
        return self.read(said, event, (
            P + r" is killed and leaves the game", N_("{player} is killed and leaves the game"),
        ))

    def on_averted(self, said: Said, event: Event) -> str | None:
        return self.read(said, event, (
            P + r" averts the danger with the " + ITEM, N_("{player} averts the danger with the {word}"),
        ))

    def on_item(self, said: Said, event: Event) -> str | None:
        return self.read(said, event, (P + r" keeps the " + ITEM, N_("{player} keeps the {word}")))

    def on_diamond(self, said: Said, event: Event) -> str | None:
        return self.read(
            said, event,
            (P + r" already holds a (?P<word>\w+) diamond", N_("{player} already holds a {word} diamond")),
            (P + r" receives a (?P<word>\w+) diamond", N_("{player} receives a {word} diamond")),
        )

    def on_danger(self, said: Said, event: Event) -> str | None:
        lost = re.fullmatch(P + r" loses (?P<count>\d+) diamonds", event.text)
        if lost:
            count = int(lost.group("count"))
            return ngettext("{player} loses {count} diamond", "{player} loses {count} diamonds", count).format(
                player=self.player_word(lost.group("player")), count=count)
        return self.read(
            said, event,
            (P + r" loses no diamonds", N_("{player} loses no diamonds")),
            (P + r" loses (?P<colours>[a-z, ]+) diamonds", N_("{player} loses the {colours} diamonds")),
            (P + r" is killed: back to the gateway, diamonds lost",
             N_("{player} is killed: back to the gateway, and the diamonds are lost")),
        )

    def on_lost_turns(self, said: Said, event: Event) -> str | None:
        found = re.fullmatch(P + r" loses (?P<count>\d+|a) turns?", event.text)
        if not found:
            return self.read(said, event)
        count = 1 if found.group("count") == "a" else int(found.group("count"))
        return ngettext("{player} must sit out {count} turn", "{player} must sit out {count} turns",
                        count).format(
            player=self.player_word(found.group("player")), count=count)

    def on_sent(self, said: Said, event: Event) -> str | None:
        return self.read(
            said, event,
            (r"nobody can change places with " + P, N_("Nobody can change places with {player}")),
            (P + r" and " + Q + r" change places", N_("{player} and {other} change places")),
            (P + r" stays on (?P<square>\S+)", N_("{player} stays on {square}")),
            (P + r" goes from (?P<src>\S+) to (?P<dst>\S+)", N_("{player} goes from {src} to {dst}")),
        )

    def on_round_limit(self, said: Said, event: Event) -> str | None:
        return self.read(said, event, (
            r"Round limit reached: (?P<players>.+?) leads?", N_("The round limit is reached: {players} in the lead"),
        ))

    def on_extra_throw(self, said: Said, event: Event) -> str | None:
        return self.read(said, event, (P + r" takes another turn", N_("{player} takes another turn")))


def item_name(label: str) -> str:
    """An item's name from its key in a move (``"feather"``: ``"Magic Feather"``)."""
    from companion.rules.cretan_data import ITEM_NAMES

    return ITEM_NAMES.get(label, label)
