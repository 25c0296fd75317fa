"""What the Cretan Labyrinth shows on the companion (docs/rules/cretan-labyrinth.md, "On
the companion", C1-C5): every player's inventory under "Game status", what the player to
act holds under the throw, a battle's fighters, and a one-line question above each
choice."""

from __future__ import annotations

from typing import ClassVar

from PIL import Image

from companion.i18n import N_, _, ngettext
from companion.rules import Move, State
from companion.rules.cretan_labyrinth import CretanLabyrinthState
from companion.ui.events import player_word
from companion.ui.events.cretan_labyrinth import item_word, square_word, way_word
from companion.ui.games import Presenter, fit, wording
from companion.ui.games.boards import cretan_labyrinth as pictures
from companion.ui.games.boards.cretan_labyrinth import SHORT_ITEM_NAMES, holdings
from companion.ui.games.boards.model import Board, Side
from companion.ui.rules_words import say

EFFECT_WORDS: dict[str, str] = {
    "diamond": N_("diamond"),
    "lose-diamonds": N_("diamonds lost"),
    "lose-turns": N_("turns lost"),
    "toward-goal": N_("toward the goal"),
    "away-from-goal": N_("away from the goal"),
    "nearest-gateway": N_("nearest gateway"),
    "killed": N_("killed"),
    "go-back": N_("go back"),
    "swap": N_("change places"),
    "pegasus": N_("fly"),
    "nothing": N_("nothing happens"),
}
"""What a coloured card without a creature or an item does, in a word or two (the
card's picture; its whole text is in the event)."""


def _cretan(state: State) -> CretanLabyrinthState:
    if not isinstance(state, CretanLabyrinthState):
        raise TypeError(f"expected a Cretan Labyrinth position, got {state!r}")
    return state


def short_name(p: int) -> str:
    """``P1`` for Player 1: the name where a line has little room (C2)."""
    return f"P{p + 1}"


class CretanLabyrinthPresenter(Presenter):
    """The Cretan Labyrinth on a panel :attr:`width` characters wide."""

    voice: ClassVar[str] = "companion.speech.games.cretan_labyrinth:CretanLabyrinthVoice"

    option_labels: ClassVar[dict[str, str]] = {
        "board": N_("Board"),
        "decks": N_("Decks"),
        "distance-dice": N_("Distance dice"),
        "magic-keys": N_("Magic Keys"),
        "weapon-columns": N_("Weapon table"),
        "keeper-near-start": N_("Keeper near"),
        "minotaur": N_("Minotaur"),
        "round-limit": N_("Round limit"),
    }

    @classmethod
    def board_model(cls, state: State, highlight: Move | None) -> Board:
        """The board picture's model of the position (:mod:`companion.ui.games.boards.cretan_labyrinth`)."""
        if not isinstance(state, CretanLabyrinthState):
            raise TypeError(f"expected a Cretan Labyrinth position, got {state!r}")
        return pictures.board_model(state, highlight)

    @classmethod
    def draw(cls, board: Board, size: tuple[int, int], blink: bool) -> Image.Image:
        """The OLED picture of the board (:mod:`companion.ui.games.boards.cretan_labyrinth`)."""
        return pictures.draw(board, size, blink)

    @classmethod
    def inventory_pages(cls, board: Board, size: tuple[int, int]) -> int:
        """Pages of what the players hold (diamonds, key, tools and weapons, lost turns)."""
        return pictures.inventory_pages(board, size)

    @classmethod
    def draw_inventories(cls, board: Board, size: tuple[int, int], page: int) -> Image.Image:
        """Page ``page`` of what the players hold."""
        return pictures.draw_inventories(board, size, page)

    @classmethod
    def place_words(cls, board: Board, side: Side) -> str | None:
        """``in the palace``, ``on gate1, own gateway``, ``on d4``: no track to count along."""
        return pictures.place_words(board, side)

    def move_words(self, state: State, move: Move) -> str:
        """A move with its squares as the board is labelled (``E11-E5``, ``gateway 1-F3``),
        Pegasus's flight (``fly palace``), an item by its short name (``avert rope``), a
        player by name (``attack Player 2``); the other decisions in words."""
        kind = move.kind
        if kind == "move":
            return f"{square_word(move.src)}-{square_word(move.dst)}"
        if kind == "fly":
            return _("fly {dst}").format(dst=square_word(move.dst))
        if kind == "avert":
            return _("avert {item}").format(item=say(SHORT_ITEM_NAMES.get(move.label, move.label)))
        if kind == "show":
            return _("show {item}").format(item=say(SHORT_ITEM_NAMES.get(move.label, move.label)))
        if kind == "attack":
            return _("attack {player}").format(player=player_word(move.label))
        if kind == "swap":
            return _("swap {player}").format(player=player_word(move.label))
        if kind == "face-danger":
            return _("face the danger")
        if kind == "take-key":
            return _("take the key")
        if kind == "keep-diamonds":
            return _("keep diamonds")
        if kind == "no-attack":
            return _("do not attack")
        return say(move.notation)

    def face_words(self, state: State, face: str) -> str:
        """A card by a short name: a direction card by its way (``south``, ``any way``),
        a coloured card by its creature (``Pegasus``), its tool or weapon (``Rope``) or
        what it does (``diamond``, ``secret passage`` ...)."""
        st = _cretan(state)
        cards = st.game.decks.cards
        card = cards.get(face)
        if card is None:
            return say(face)
        if card.go:
            return _("any way") if card.go == "any" else way_word(card.go)
        if card.creature:
            return _(card.creature)
        if card.is_item:
            return item_word(card.item)
        return _(EFFECT_WORDS.get(card.effect, card.effect))

    def lost_reason(self, state: State) -> str:
        """No move the rules allow can use this throw."""
        return _("No move can use this throw.")

    def wrapped(self, first: str, words: list[str], limit: int = 0) -> list[str]:
        """``words`` after ``first`` on lines of at most :attr:`width` characters, the
        following lines indented by two spaces (a word too long for a line is cut);
        ``limit`` > 0 keeps that many lines, the last ending in ``...`` when words were
        left out."""
        w = self.width
        lines = [first[:w]]
        for word in words:
            if len(lines[-1]) + 1 + len(word) <= w:
                lines[-1] += " " + word
            else:
                lines.append("  " + word[: w - 2])
        if limit and len(lines) > limit:
            lines = lines[:limit]
            lines[-1] = lines[-1][: w - 3] + "..."
        return lines

    def holdings(self, state: CretanLabyrinthState, p: int) -> list[str]:
        """What player ``p`` holds (see :func:`holdings`), in the language in use."""
        return [say(word) for word in holdings(state, p)]

    def status_lines(self, state: State) -> list[str]:
        """Every player's inventory (the pause menu's "Game status"): ``Player 2 at
        g5``, then ``- diamonds: red blue``, ``- Magic Key``, ``- tools: bow rope`` and
        ``- loses 2 turns`` where they apply (long lists go on in the next line); a
        player the Minotaur took out (option ``minotaur=out``) ``Player 2 is out``
        and nothing more. In the
        one-key game, while nobody holds the key, a last line says it is in the
        palace."""
        st = _cretan(state)
        w = self.width
        lines: list[str] = []
        for p in range(st.players):
            if st.out[p]:
                lines.append(wording(w, _("{player} is out").format(player=say(st.name(p))),
                                     _("{player}: out").format(player=short_name(p))))
                continue
            square = square_word(st.square(p))
            lines.append(wording(w, _("{player} at {square}").format(player=say(st.name(p)), square=square),
                                 _("{player} at {square}").format(player=short_name(p), square=square)))
            lines += self.wrapped(_("- diamonds:"), [say(d) for d in st.diamonds_held(p)] or [_("none")])
            if st.keys[p]:
                lines.append(_("- Magic Key"))
            tools = [say(SHORT_ITEM_NAMES[i]) for i in st.item_kinds(p)]
            if tools:
                lines += self.wrapped(_("- tools:"), tools)
            if st.lost[p]:
                lines.append(ngettext("- loses {count} turn", "- loses {count} turns",
                                      st.lost[p]).format(count=st.lost[p]))
        if st.game.single_key and not any(st.keys):
            lines.append(wording(w, _("Magic Key: in palace"), _("Key: in palace")))
        return self.fitted(lines)

    def status_brief(self, state: State) -> list[str]:
        """The throw screen's few lines (C1): at the start of a turn what the player to
        act holds (``Has: red blue key``, at most two lines) and, in the one-key game,
        who else holds the key; during a battle who fights whom (``Battle: P1 vs P2``,
        ``P2 wins a tie``). Otherwise none: the last move stays in view. The whole
        inventory of every player is :meth:`status_lines`."""
        st = _cretan(state)
        w = self.width
        fighters = st.fighters()
        if fighters is not None:
            att, dfn = (short_name(p) for p in fighters)
            return [fit(w, _("Battle: {attacker} vs {defender}").format(attacker=att, defender=dfn),
                        _("{attacker} vs {defender}").format(attacker=att, defender=dfn)),
                    fit(w, _("{defender} wins a tie").format(defender=dfn),
                        _("Tie: {defender}").format(defender=dfn))]
        if st.stage != "distance":
            return []
        p = st.current_player
        lines = self.wrapped(_("Has:"), self.holdings(st, p) or [_("nothing yet")], limit=2)
        keeper = st.keeper()
        if keeper is not None and keeper != p:
            k = short_name(keeper)
            lines.append(fit(w, _("{player} has the key").format(player=say(st.name(keeper))),
                             _("{player} has the key").format(player=k),
                             _("{player}: key").format(player=k)))
        return lines

    def prompt(self, state: State) -> str:
        """The question above the choices (C2, C3): where to stop (``Stop where? 5
        east``), whether to take the Magic Key, to battle the keeper, which weapon to
        show (``P1 attacks you! Show:`` / ``You attack P2! Show:``), whether to avert a
        danger with a tool (``Avert the Minotaur?``), whom to change places with, where
        Pegasus flies. ``""`` while a throw is due or the game is over."""
        st = _cretan(state)
        w = self.width
        if st.stage == "move":
            way = say(st.way().replace("in any direction", "any way"))
            d = st.distance
            return fit(w, _("Stop where? {distance} {way}").format(distance=d, way=way),
                       _("Stop? {distance} {way}").format(distance=d, way=way), f"{d} {way}")
        if st.stage != "resolve" or st.throw_spec is not None:
            return ""
        fighters = st.fighters()
        if fighters is not None:
            att, dfn = (short_name(p) for p in fighters)
            if st.current_player == fighters[0]:
                return fit(w, *(_(t).format(defender=dfn) for t in (
                    N_("You attack {defender}! Show:"), N_("Attack {defender}! Show:"),
                    N_("Attack {defender}!"))))
            return fit(w, *(_(t).format(attacker=att) for t in (
                N_("{attacker} attacks you! Show:"), N_("{attacker} attacks! Show:"),
                N_("{attacker} attacks"))))
        kinds = {m.kind for m in st.legal_moves()}
        if "take-key" in kinds:
            return fit(w, _("Take the Magic Key?"), _("Take the key?"), _("Take key?"))
        if "attack" in kinds:
            return fit(w, _("Battle for the key?"), _("Battle for key?"), _("Battle?"))
        card = st.card_being_done()
        if card is None:
            return ""
        if card.effect == "pegasus":
            return fit(w, _("Fly to which square?"), _("Fly where?"))
        if "swap" in kinds:
            if "avert" in kinds:
                return fit(w, _("Avert, or swap with:"), _("Avert or swap:"), _("Avert/swap"))
            return fit(w, _("Change places with:"), _("Swap with:"))
        creature = card.creature
        asks = ((_("Avert the {creature}?").format(creature=say(creature)),
                 _("{creature}: avert it?").format(creature=say(creature))) if creature else ())
        return fit(w, *asks, _("Avert the danger?"), _("Avert it?"))
