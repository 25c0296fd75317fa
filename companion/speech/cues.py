"""What the box says: a game's facts turned into sentences for the ear.

A :class:`Voice` writes one game's sentences. It never reads the screen's text aloud:
it works from the action made (a :class:`~companion.rules.Throw` with its faces and
values, a :class:`~companion.rules.Move` with its squares), the positions before and
after it, and the :class:`~companion.rules.Event` objects the rules returned (their
kind, player and squares, and the numbers of their sentence). Every sentence comes
from the message catalogues (:func:`companion.i18n._`, :func:`~companion.i18n.ngettext`)
as one message with named placeholders, so a language is a catalogue, never a change
of code. Numbers are written as digits: espeak-ng reads them in the language in use.
No screen notation reaches a cue (``4-10``, ``->``, ``[2+2]``, ``P1``).

A game finds its voice the way the screens find its presenter: the presenter class
names it (``Presenter.voice = "companion.speech.games.senet_tait:SenetTaitVoice"``),
and :func:`voice_for` imports it on first use. A game whose presenter names none gets
this module's :class:`Voice`, which speaks any game in plain words.

Each event kind has a method ``on_<kind>`` (dashes as underscores) that returns its
sentence; :meth:`Voice.event` dispatches to it. A kind without a method is said in
the rules' own (English) words and logged, and the tests walk every event kind of every
game so that none is left without one.

:func:`cues_for` is what the controller calls after an action; :meth:`Voice.computer_move`
when the computer's move is shown for the players to make; :meth:`Voice.turn` when a
game begins or is resumed.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import Final

from companion.errors import CompanionError
from companion.i18n import N_, _, ngettext
from companion.rules import PASS, Action, Event, Move, Phase, State, Throw
from companion.rules.core import (
    EV_BORNE_OFF,
    EV_ENTERED,
    EV_MOVED,
    EV_THROW_LOST,
    EV_THROWN,
    EV_TURN_PASSES,
    EV_VALUE_LOST,
    EV_WON,
    Square,
)
from companion.rules.throws import LIGHT
from companion.speech import Cue, CueKind
from companion.ui.events import EventWords

log = logging.getLogger(__name__)

PLAYER_WORDS: Final = (
    N_("Black"), N_("White"), N_("Red"), N_("Blue"), N_("Green"), N_("Yellow"),
    N_("red"), N_("blue"), N_("green"), N_("yellow"), N_("black"), N_("white"),
)
"""The players' and the sticks' colours as the games name them, marked for the
catalogues (translated where said)."""

MOVE_KINDS: Final = frozenset({EV_MOVED, EV_ENTERED, EV_BORNE_OFF})
"""Event kinds said as :attr:`CueKind.MOVE` (the piece the players just moved); the
others are :attr:`CueKind.EVENT`."""

LOST_KINDS: Final = frozenset({EV_THROW_LOST, EV_VALUE_LOST})
"""Event kinds of a pass: already said when the throw was seen to be lost (the lost
throw's cue comes with the throw, when the players still look at it)."""


class VoiceError(CompanionError, TypeError):
    """A presenter names a voice that is not a :class:`Voice` subclass."""


def and_list(items: Sequence[str]) -> str:
    """``items`` joined for the ear: ``"2"``, ``"2 and 4"``, ``"3, 2 and 4"``."""
    if len(items) <= 1:
        return "".join(items)
    return _("{first} and {last}").format(first=", ".join(items[:-1]), last=items[-1])


def card_words(text: str) -> str:
    """A card's text for the ear: its words in capitals (``"Go WEST."``, the card's
    emphasis) written as ordinary words, so that no voice spells them out (a run of two
    or more capital letters: ``"CAVE-IN!"`` is said ``"Cave-In!"``)."""
    runs = ["".join(group) for _upper, group in groupby(text, key=lambda c: "A" <= c <= "Z")]
    return "".join(run.capitalize() if len(run) >= 2 and run.isupper() else run for run in runs)


@dataclass(frozen=True, slots=True)
class Said:
    """What a cue is written from: the position ``before`` the action, the ``action``
    and the position ``after`` it (``before`` is ``after`` for a cue not about an action)."""

    before: State
    action: Action | None
    after: State


class Voice:
    """One game's sentences for the ear (the default speaks any game plainly).

    Override :meth:`square` for the game's squares in words, :meth:`throw` for its
    throw, :meth:`move_words` for its moves, and add an ``on_<kind>`` method for each
    event kind of the game (the base class has those of :mod:`companion.rules.core`).
    Every method returns plain text in the language in use, at most a few sentences.
    """

    # ------------------------------------------------------------------ words

    def name(self, state: State, player: int | None) -> str:
        """Player ``player``'s name in the language in use (``"Red"``, ``"Player 2"``)."""
        if player is None:
            return _("everyone")
        return self.player_word(state.name(player))

    def square(self, state: State, square: Square | None) -> str:
        """``square`` for the ear (default: its number)."""
        return str(square)

    # ------------------------------------------------------------------ cues

    def turn(self, state: State) -> str:
        """Whose turn it is in ``state`` (a throw is due): ``"Red to throw"``."""
        return _("{player} to throw").format(player=self.name(state, state.current_player))

    def throw(self, state: State, throw: Throw) -> str:
        """``throw`` made by the player to act in ``state`` (the position before it):
        two dice ``"Red throws 5 and 1"``; two-sided sticks by their light sides;
        coloured sticks by value and colour."""
        player = self.name(state, state.current_player)
        if throw.faces and throw.faces[0] in ("L", "D"):
            lights = sum(1 for f in throw.faces if f == LIGHT)
            if lights == 0:
                return _("{player} throws {score}, no light side up").format(
                    player=player, score=throw.values[0])
            return ngettext("{player} throws {score}, {lights} light side up",
                            "{player} throws {score}, {lights} light sides up", lights).format(
                player=player, score=throw.values[0], lights=lights)
        if throw.colours:
            return _("{player} throws {sticks}").format(
                player=player, sticks=and_list(self.stick_words(throw)))
        values = [str(v) for v in throw.values]
        if not values:  # a card: its event says what it is
            return _("{player} draws a card").format(player=player)
        return _("{player} throws {values}").format(player=player, values=and_list(values))

    def stick_words(self, throw: Throw) -> list[str]:
        """Each coloured stick of ``throw``: ``"3 red"``, a solid stick's value alone."""
        return [str(v) if c is None else _("{value} {colour}").format(value=v, colour=_(c))
                for v, c in zip(throw.values, throw.colours, strict=True)]

    def lost(self, state: State, why: str) -> str:
        """The throw being played in ``state`` is lost (no legal move); ``why`` in the
        presenter's words (``""``: no reason given)."""
        player = self.name(state, state.current_player)
        if why:
            return _("{player}'s throw is lost. {why}").format(player=player, why=why)
        return _("{player}'s throw is lost: no legal move.").format(player=player)

    def computer_move(self, state: State, move: Move) -> str:
        """The move the computer wants the players to make in ``state``:
        ``"Computer: move the piece on 12 to 18"``."""
        return _("Computer: {move}").format(move=self.move_words(state, move))

    def move_words(self, state: State, move: Move) -> str:
        """``move`` as an instruction to the players (``"move the piece on 12 to 18"``,
        ``"enter a piece on 4"``, ``"bear off the piece on 30"``, ``"yes"``)."""
        if move.kind == "move" and move.src is not None:
            return _("move the piece on {src} to {dst}").format(
                src=self.square(state, move.src), dst=self.square(state, move.dst))
        if move.kind == "enter":
            return _("enter a piece on {dst}").format(dst=self.square(state, move.dst))
        if move.kind == "bear-off":
            return _("bear off the piece on {src}").format(src=self.square(state, move.src))
        if move == PASS:
            return _("pass")
        if move.kind == "yes":
            return _("yes")
        if move.kind == "no":
            return _("no")
        return move.kind.replace("-", " ")

    def choice(self, choice: str, *, asked: bool, number: int = 1, count: int = 1) -> str:
        """The highlighted row of the moves screen (``choice``: a move in
        :meth:`move_words`, or a step's row), said when the cursor moves to it; ``asked``:
        the screen has just come up, and then which row of how many it is (``number``,
        1-based, of ``count``), so a player who cannot see the screen knows there are
        more (``"Choose, 1 of 7: enter a piece on 4"``; one row: ``"Choose: pass"``)."""
        if not asked:
            return choice
        if count > 1:
            return _("Choose, {number} of {count}: {choice}").format(
                number=number, count=count, choice=choice)
        return _("Choose: {choice}").format(choice=choice)

    def taken_back(self, state: State, move: Move) -> str:
        """``move``, made in ``state``, taken back (an undo): who put it back, and how
        (``"Black's move is taken back: move the piece on 7 back to 4"``)."""
        player = self.name(state, state.current_player)
        if move == PASS:
            return _("{player}'s lost throw is taken back").format(player=player)
        if move.kind in ("move", "bear-off") and move.src is not None:
            return _("{player}'s move is taken back: the piece goes back to {src}").format(
                player=player, src=self.square(state, move.src))
        return _("{player}'s move is taken back: put the pieces back as they were").format(player=player)

    def trouble(self, title: str) -> str:
        """A message that says something was refused or failed, by its title (the words
        on the screen say the rest): ``"Not allowed"``, ``"Cannot save"``."""
        return _(title)

    def winner(self, state: State) -> str:
        """Who won ``state`` (a finished game): ``"Black wins!"``."""
        outcome = state.outcome
        assert outcome is not None
        names = [self.name(state, w) for w in outcome.winners]
        return ngettext("{players} wins!", "{players} win!", len(names)).format(
            players=and_list(names))

    # ------------------------------------------------------------------ events

    def event(self, said: Said, event: Event) -> str | None:
        """``event`` in words (``None``: nothing to say, another cue says it): its
        ``on_<kind>`` method, or the rules' own sentence when the voice has none."""
        method = getattr(self, "on_" + event.kind.replace("-", "_"), None)
        if method is None:
            return self.words(said.after)(event)
        text: str | None = method(said, event)
        return text

    def words(self, state: State) -> EventWords:
        """The game's event words (:func:`companion.ui.events.words_for`) with this
        voice's squares: what a voice says of a kind it has no sentence of its own for."""
        from companion.ui.events import words_for

        return words_for(state, lambda square: self.square(state, square))

    def player_word(self, raw: str) -> str:
        """A player's name as the rules wrote it (``"Red"``, ``"Player 2"``), in words."""
        from companion.ui.events import player_word

        return player_word(raw)

    def has_cue(self, kind: str) -> bool:
        """Whether this voice has its own sentence for event kind ``kind``."""
        return callable(getattr(self, "on_" + kind.replace("-", "_"), None))

    def on_thrown(self, said: Said, event: Event) -> str | None:
        if isinstance(said.action, Throw):
            return self.throw(said.before, said.action)
        return None

    def on_turn_passes(self, said: Said, event: Event) -> str | None:
        return _("{player} to throw").format(player=self.name(said.after, event.player))

    def on_won(self, said: Said, event: Event) -> str | None:
        if said.after.outcome is not None:
            return self.winner(said.after)
        return _("{player} wins!").format(player=self.name(said.after, event.player))

    def on_entered(self, said: Said, event: Event) -> str | None:
        return _("{player} enters a piece on {dst}").format(
            player=self.name(said.after, event.player),
            dst=self.square(said.after, event.dst))

    def on_moved(self, said: Said, event: Event) -> str | None:
        return _("{player} moves from {src} to {dst}").format(
            player=self.name(said.after, event.player), src=self.square(said.after, event.src),
            dst=self.square(said.after, event.dst))

    def on_borne_off(self, said: Said, event: Event) -> str | None:
        return _("{player} bears off the piece on {src}").format(
            player=self.name(said.after, event.player),
            src=self.square(said.after, event.src))

    def on_throw_lost(self, said: Said, event: Event) -> str | None:
        return _("{player}'s throw is lost: no legal move.").format(
            player=self.name(said.after, event.player))

    def on_value_lost(self, said: Said, event: Event) -> str | None:
        raw = event.arg("values")
        values = [str(n) for n in raw] if isinstance(raw, tuple) else []
        return ngettext("{player} cannot use the {values}: it is lost.",
                        "{player} cannot use the {values}: they are lost.", len(values)).format(
            player=self.name(said.after, event.player), values=and_list(values))

    def on_extra_throw(self, said: Said, event: Event) -> str | None:
        return _("{player} throws again").format(player=self.name(said.after, event.player))

    def on_bumped(self, said: Said, event: Event) -> str | None:
        return _("{player}'s piece on {src} is sent back").format(
            player=self.name(said.after, event.player),
            src=self.square(said.after, event.src))

    def on_captured(self, said: Said, event: Event) -> str | None:
        return _("{player}'s piece on {src} is taken").format(
            player=self.name(said.after, event.player),
            src=self.square(said.after, event.src))

    def on_swapped(self, said: Said, event: Event) -> str | None:
        return _("{player}'s piece changes places with another").format(
            player=self.name(said.after, event.player))

    def on_drowned(self, said: Said, event: Event) -> str | None:
        return _("{player}'s piece drowns").format(
            player=self.name(said.after, event.player))

    def on_trapped(self, said: Said, event: Event) -> str | None:
        return _("{player}'s piece is trapped").format(
            player=self.name(said.after, event.player))

    def on_card_drawn(self, said: Said, event: Event) -> str | None:
        return _("{player} draws a card").format(player=self.name(said.after, event.player))


def cues_for(voice: Voice, before: State, action: Action, events: Sequence[Event],
             after: State, *, why: str = "", announced: bool = False) -> list[Cue]:
    """The cues of ``action`` made in ``before`` (giving ``events`` and ``after``), in
    the order to say them: the throw, the move and what it caused, the winner, then
    the new turn (``"Blue to throw"``, a :attr:`CueKind.TURN` cue, when another player
    is to throw). When ``after`` leaves only a pass (the throw, or what is left of it,
    is lost) the lost throw is said now with ``why`` (the presenter's reason, in the
    language in use), and the pass itself says nothing again. ``announced``: the move
    was said already (the computer's, shown to the players), so it is not said twice.

    Every cue's text is plain words in the language in use (see the module's notes).
    """
    said = Said(before, action, after)
    out: list[Cue] = []
    for event in events:
        if action == PASS and event.kind in LOST_KINDS:
            continue
        if announced and event.kind in MOVE_KINDS:
            continue
        text = voice.event(said, event)
        if not text:
            continue
        if event.kind == EV_THROWN:
            kind = CueKind.THROW
        elif event.kind == EV_WON:
            kind = CueKind.WINNER
        elif event.kind == EV_TURN_PASSES:
            kind = CueKind.TURN
        elif event.kind in MOVE_KINDS:
            kind = CueKind.MOVE
        else:
            kind = CueKind.EVENT
        out.append(Cue(text, kind))
    if after.phase is Phase.MOVE and tuple(after.legal_moves()) == (PASS,):
        out.append(Cue(voice.lost(after, why), CueKind.EVENT))
    elif after.phase is Phase.OVER and not any(c.kind is CueKind.WINNER for c in out):
        out.append(Cue(voice.winner(after), CueKind.WINNER))
    if after.phase is Phase.THROW and after.current_player != before.current_player:
        turn = voice.turn(after)
        out = [c for c in out if not (c.kind is CueKind.TURN and c.text == turn)]
        out.append(Cue(turn, CueKind.TURN))
    return out


def voice_for(game_id: str) -> Voice:
    """The voice of game ``game_id``: the one its presenter names (``Presenter.voice``,
    ``"module:Class"``), imported on first use; :class:`Voice` when it names none and
    for ``""`` (no game).

    :raises UnknownGameError: ``game_id`` is not registered.
    :raises VoiceError: the named class is not a :class:`Voice`.
    """
    if not game_id:
        return Voice()
    from companion.ui.games.boards.entry import entry_class

    where = str(getattr(entry_class(game_id), "voice", "") or "")
    if not where:
        return Voice()
    from companion.ui.named import named_class

    try:
        return named_class(where, Voice)()
    except TypeError as exc:
        raise VoiceError(f"{game_id}: {exc}") from None


__all__ = ["LOST_KINDS", "MOVE_KINDS", "PLAYER_WORDS", "Said", "Voice", "VoiceError",
           "and_list", "card_words", "cues_for", "voice_for"]
