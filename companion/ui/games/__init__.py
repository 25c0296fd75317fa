"""Per-game presenters: what a game shows on the companion's screens beyond the rules' facts.

The rules (``companion.rules``) give facts: phases, legal moves with their notations,
event texts, and read-only queries (who is trapped, what is in the Abyss, how a move
plays value by value). A :class:`Presenter` turns those facts into the lines of one
panel (OpenSpiel's observer idea): the status lines of "Game status", the few lines
under the throw, the question above the choices, the steps that pick a move, and which
events are routine enough not to stop on the events screen. Its :attr:`Presenter.width`
is the panel's characters per line, from :func:`companion.ui.render.columns`; a
presenter never assumes a width.

:func:`presenter_for` finds a game's presenter by game id: the game's one UI entry,
named by its Game class (``Game.presenter``) and imported on first use, as
:mod:`companion.rules.registry` does for the engines. A presenter is also the game's
board picture (:class:`~companion.ui.games.boards.entry.BoardPictures`: the board
model, its drawing, the inventory pages); a game that names none gets the default
:class:`Presenter`, with no picture.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Final

from companion.i18n import _
from companion.rules.kinds import EV_ENTERED, EV_MOVED, EV_THROW_LOST, EV_THROWN, EV_TURN_PASSES
from companion.ui.font import wrap
from companion.ui.games.boards.entry import BoardPictures, entry_class
from companion.ui.rules_words import say

if TYPE_CHECKING:  # the engine: imported with the first game (the default presenter serves the menu)
    from companion.rules import Event, Move, Option, State

MIN_WIDTH: Final = 10
"""The narrowest panel a presenter serves, in characters per line (a 64-pixel-wide panel)."""

ROUTINE: Final = frozenset({EV_MOVED, EV_ENTERED, EV_THROWN, EV_THROW_LOST, EV_TURN_PASSES})
"""Event kinds that do not stop the game on the events screen by default (they are
shown as the last move on the next screen). A turn passing is routine: the next screen
names the player to throw."""

def wording(width: int, *texts: str) -> str:
    """The first of ``texts`` (longest wording first) of at most ``width`` characters;
    when none fits, the last, whole (for a line that :meth:`Presenter.fitted` wraps)."""
    for text in texts:
        if len(text) <= width:
            return text
    return texts[-1]


def fit(width: int, *texts: str) -> str:
    """The first of ``texts`` (longest wording first) of at most ``width`` characters;
    when none fits, the last cut to ``width`` (for a line that must stay one line)."""
    return wording(width, *texts)[:width]


class Presenter(BoardPictures):
    """What a game shows beyond the rules' facts, on a panel ``width`` characters wide,
    and (class methods of :class:`BoardPictures`) its board picture.

    This base class is every game's default: no status lines, the status lines again
    under the throw, no question above the choices, one step per move (its notation:
    the flat list of legal moves), and the kinds in :data:`ROUTINE` routine. A game's
    own presenter overrides what it needs.

    :raises ValueError: ``width`` below :data:`MIN_WIDTH`.
    """

    width: int
    """Characters per line of the panel (21 on a 128-pixel OLED); a menu row holds one
    fewer (the cursor's column)."""

    option_labels: ClassVar[Mapping[str, str]] = {}
    """Short human labels of the game's options for the setup screen, by option name
    (``"house-of-beauty"``: ``"House of Beauty"``); an option not listed gets its name
    with spaces."""
    voice: ClassVar[str] = ""
    """Where the game's voice is (:mod:`companion.speech.cues`: its sentences for the
    ear), ``"module:Class"``, imported on first use; ``""``: the plain default voice."""
    value_words: ClassVar[Mapping[str, str]] = {}
    """Words for option values where the value's own text is not the players' word
    (``"trap-then-tunnel"``: ``"trap, then tunnel"``)."""

    def __init__(self, width: int) -> None:
        if width < MIN_WIDTH:
            raise ValueError(f"a presenter needs at least {MIN_WIDTH} characters a line, got {width}")
        self.width = width

    def status_lines(self, state: State) -> list[str]:
        """Every line of the pause menu's "Game status", each at most :attr:`width`
        characters: what the board does not show (trapped pieces and their turns left,
        plinths in the Abyss, what each player holds). Default: none."""
        return []

    def status_brief(self, state: State) -> list[str]:
        """The few lines (at most about three, each at most :attr:`width` characters)
        shown under the throw on the throw screen, where room is short. Default: all of
        :meth:`status_lines`."""
        return self.status_lines(state)

    def prompt(self, state: State) -> str:
        """The question above the choices while a choice is due (at most :attr:`width`
        characters; ``""``: none, the choices speak for themselves). Default ``""``."""
        return ""

    def choice_steps(self, state: State, move: Move) -> tuple[str, ...]:
        """The labels of the successive choices that pick ``move`` (one of
        ``state.legal_moves()``) on the moves screen, one label per step.

        The controller narrows the legal moves step by step: it first offers the
        distinct first labels, then the second labels of the moves that start with the
        one chosen, and so on; BACK takes one step back. A move whose labels run out is
        played. When a move's labels are the beginning of another move's labels (a
        plinth moved by 2, or by 2 then 3) the controller offers ``play <notation>``
        beside the longer choices at that step.

        Rules for a presenter that overrides this: distinct legal moves have distinct
        label tuples; a label fits one menu row (at most ``width - 1`` characters) and
        names its step in the players' words (``"plinth on 12"``, ``"2 to 14"``).
        Default: ``(move_words(state, move),)``, one step, i.e. the flat list of moves."""
        return (self.move_words(state, move),)

    def move_words(self, state: State, move: Move) -> str:
        """``move`` (one of ``state.legal_moves()``) in the players' words, short enough
        for a menu row where the game's notation is: the moves screen's rows (by
        :meth:`choice_steps`' default) and the computer's move. Default: its notation in
        the language in use."""
        return say(move.notation)

    def face_words(self, state: State, face: str) -> str:
        """A face of a throw made in ``state``'s game, in words for the throw's picture
        (a card by its name, never its deck key). Default: ``face`` in the language in
        use."""
        return say(face)

    def routine(self, event: Event) -> bool:
        """Whether ``event`` is not worth stopping on the events screen (it is shown as
        the last move on the next screen instead). Default: its kind is in
        :data:`ROUTINE`."""
        return event.kind in ROUTINE

    def lost_reason(self, state: State) -> str:
        """Why the throw being played is lost (no legal move), in the game's words, one
        or two short sentences; ``""``: nothing more than "the throw is lost". The
        lost-throw screen shows it under the throw."""
        return ""

    def option_label(self, option: Option) -> str:
        """The setup screen's label of ``option`` (see :attr:`option_labels`), in the
        language in use."""
        label = self.option_labels.get(option.name)
        return _(label) if label else option.name.replace("-", " ").capitalize()

    def option_value(self, option: Option, value: object) -> str:
        """``value`` of ``option`` in the players' words: ``yes`` / ``no``, the words of
        :attr:`value_words`, a data file by its file name (``""``: ``built-in``)."""
        if isinstance(value, bool):
            return _("yes") if value else _("no")
        text = str(value)
        if option.names_file:
            return Path(text).name if text else _("built-in")
        return say(self.value_words.get(text, text))

    def fitted(self, lines: Iterable[str]) -> list[str]:
        """``lines`` with every line longer than :attr:`width` wrapped at spaces (a
        last resort for status lines on a narrow panel)."""
        out: list[str] = []
        for line in lines:
            out += [line] if len(line) <= self.width else wrap(line, self.width)
        return out


def presenter_for(game_id: str, width: int) -> Presenter:
    """The presenter of game ``game_id`` for a panel ``width`` characters wide
    (``companion.ui.render.columns(pixels)``): the game's own, or the default
    :class:`Presenter` for a registered game that has none, and for ``""`` (no game
    in play yet).

    :raises UnknownGameError: ``game_id`` is neither ``""`` nor a registered game.
    :raises ValueError: ``width`` below :data:`MIN_WIDTH`.
    """
    if not game_id:
        return Presenter(width)
    cls = entry_class(game_id)
    if not issubclass(cls, Presenter):
        return Presenter(width)  # a game that names no presenter of its own
    return cls(width)


__all__ = ["MIN_WIDTH", "ROUTINE", "Presenter", "fit", "presenter_for", "wording"]
