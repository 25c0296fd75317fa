"""What the Cretan Labyrinth shows on the companion (docs/rules/cretan-labyrinth.md, "On
the companion", C1-C5): every player's inventory under "Game status", what the player to
act holds under the throw, a battle's fighters, and a one-line question above each
choice."""

from __future__ import annotations

from typing import ClassVar

from PIL import Image

from companion.rules import Move, State
from companion.rules.cretan_labyrinth import CretanLabyrinthState
from companion.ui.games import Presenter, fit, wording
from companion.ui.games.boards import cretan_labyrinth as pictures
from companion.ui.games.boards.cretan_labyrinth import SHORT_ITEM_NAMES, holdings
from companion.ui.games.boards.model import Board, Side


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
        "board": "Board",
        "decks": "Decks",
        "distance-dice": "Distance dice",
        "magic-keys": "Magic Keys",
        "weapon-columns": "Weapon table",
        "keeper-near-start": "Keeper near",
        "round-limit": "Round limit",
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

    def lost_reason(self, state: State) -> str:
        """No move the rules allow can use this throw."""
        return "No move can use this throw."

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
        """What player ``p`` holds (see :func:`holdings`)."""
        return holdings(state, p)

    def status_lines(self, state: State) -> list[str]:
        """Every player's inventory (the pause menu's "Game status"): ``Player 2 at
        g5``, then ``- diamonds: red blue``, ``- Magic Key``, ``- tools: bow rope`` and
        ``- loses 2 turns`` where they apply (long lists go on in the next line). In the
        one-key game, while nobody holds the key, a last line says it is in the
        palace."""
        st = _cretan(state)
        w = self.width
        lines: list[str] = []
        for p in range(st.players):
            lines.append(wording(w, f"{st.name(p)} at {st.square(p)}", f"{short_name(p)} at {st.square(p)}"))
            lines += self.wrapped("- diamonds:", st.diamonds_held(p) or ["none"])
            if st.keys[p]:
                lines.append("- Magic Key")
            tools = [SHORT_ITEM_NAMES[i] for i in st.item_kinds(p)]
            if tools:
                lines += self.wrapped("- tools:", tools)
            if st.lost[p]:
                lines.append(f"- loses {st.lost[p]} turn{'s' if st.lost[p] > 1 else ''}")
        if st.game.single_key and not any(st.keys):
            lines.append(wording(w, "Magic Key: in palace", "Key: in palace"))
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
            return [fit(w, f"Battle: {att} vs {dfn}", f"{att} vs {dfn}"),
                    fit(w, f"{dfn} wins a tie", f"Tie: {dfn}")]
        if st.stage != "distance":
            return []
        p = st.current_player
        lines = self.wrapped("Has:", self.holdings(st, p) or ["nothing yet"], limit=2)
        keeper = st.keeper()
        if keeper is not None and keeper != p:
            k = short_name(keeper)
            lines.append(fit(w, f"{st.name(keeper)} has the key", f"{k} has the key", f"{k}: key"))
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
            way = st.way().replace("in any direction", "any way")
            return fit(w, f"Stop where? {st.distance} {way}", f"Stop? {st.distance} {way}",
                       f"{st.distance} {way}")
        if st.stage != "resolve" or st.throw_spec is not None:
            return ""
        fighters = st.fighters()
        if fighters is not None:
            att, dfn = (short_name(p) for p in fighters)
            if st.current_player == fighters[0]:
                return fit(w, f"You attack {dfn}! Show:", f"Attack {dfn}! Show:", f"Attack {dfn}!")
            return fit(w, f"{att} attacks you! Show:", f"{att} attacks! Show:", f"{att} attacks")
        kinds = {m.kind for m in st.legal_moves()}
        if "take-key" in kinds:
            return fit(w, "Take the Magic Key?", "Take the key?", "Take key?")
        if "attack" in kinds:
            return fit(w, "Battle for the key?", "Battle for key?", "Battle?")
        card = st.card_being_done()
        if card is None:
            return ""
        if card.effect == "pegasus":
            return fit(w, "Fly to which square?", "Fly where?")
        if "swap" in kinds:
            if "avert" in kinds:
                return fit(w, "Avert, or swap with:", "Avert or swap:", "Avert/swap")
            return fit(w, "Change places with:", "Swap with:")
        creature = card.creature
        asks = (f"Avert the {creature}?", f"{creature}: avert it?") if creature else ()
        return fit(w, *asks, "Avert the danger?", "Avert it?")
