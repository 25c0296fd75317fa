"""What the companion says aloud while it referees, assembled in one place.

The controller hands each happening here: an action made (its cues: the throw, the
move and what it caused, the winner, the new turn; :func:`~companion.speech.cues.cues_for`),
the computer's move when it is shown, a trouble message, the turn when a game begins
or is resumed, the choice highlighted on the moves screen, a move taken back. The cues
of one loop event are gathered (:meth:`Narration.speak`) and handed to the speaker
together when the event is handled (:meth:`Narration.flush`: one ``say``, so that "say
it again" repeats all of them). The words are the game's voice's
(:func:`~companion.speech.cues.voice_for`), from the message catalogues.

:func:`taken_back_words` is the same happening for the panel: a move taken back, with
where its piece goes back to.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from companion.app import screens as sc
from companion.i18n import _
from companion.speech import Cue as Spoken
from companion.speech import CueKind, Silent, Speaker
from companion.ui.games import Presenter
from companion.ui.games.boards import board_model, board_or_none
from companion.ui.rules_words import say

if TYPE_CHECKING:  # the game's table and voice: imported with the first game, not at the start
    from companion.app.table import TakenBack
    from companion.rules import Action, Event, Move, State
    from companion.speech.cues import Voice

log = logging.getLogger(__name__)


class Narration:
    """The cues of the game in play for ``speaker`` (default
    :class:`~companion.speech.Silent`; the service replaces it when the speech settings
    change)."""

    def __init__(self, speaker: Speaker | None = None) -> None:
        self.speaker: Speaker = speaker if speaker is not None else Silent()
        self._voice: Voice | None = None
        self._unsaid: list[Spoken] = []
        """What the event being handled has said so far (see :meth:`speak`)."""
        self._choice_said = False
        """The event being handled said the highlighted choice already (the camera's
        move): :meth:`choice` says nothing more."""

    @property
    def voice(self) -> Voice:
        """The game's sentences for the ear (set by :meth:`game`; until then the plain
        :class:`~companion.speech.cues.Voice`, made when first asked for: the sentences'
        module is not imported for the splash)."""
        if self._voice is None:
            from companion.speech.cues import Voice

            self._voice = Voice()
        return self._voice

    def game(self, game_id: str) -> None:
        """Speak of ``game_id`` from now on (its voice)."""
        from companion.speech.cues import voice_for

        self._voice = voice_for(game_id)

    def speak(self, cues: Sequence[Spoken]) -> None:
        """Say ``cues`` after what the event being handled has said so far."""
        self._unsaid += cues

    def flush(self) -> None:
        """Hand what the event said to the speaker (it returns at once; a speaker that
        fails is logged and the game goes on)."""
        cues, self._unsaid = self._unsaid, []
        self._choice_said = False
        if not cues:
            return
        try:
            self.speaker.say(cues)
        except Exception:  # the speaker's own trouble never stops the game
            log.exception("the speaker failed; the game goes on")

    def repeat(self) -> None:
        """Say the last cues again (OK held)."""
        self.speaker.repeat()

    # ------------------------------------------------------------------ happenings

    def acted(self, presenter: Presenter, before: State, action: Action,
              events: Sequence[Event], after: State, *, announced: bool) -> None:
        """What ``action``, made in ``before``, did (``announced``: the move was said
        when it was shown, the computer's); a throw that leaves no move says why."""
        from companion.rules import PASS, Phase

        why = ""
        if after.phase is Phase.MOVE and tuple(after.legal_moves()) == (PASS,):
            why = presenter.lost_reason(after)
        from companion.speech.cues import cues_for

        self.speak(cues_for(self.voice, before, action, events, after, why=why,
                            announced=announced))

    def computer_move(self, state: State, move: Move) -> None:
        """The computer's chosen move, as it is shown."""
        self.speak([Spoken(self.voice.computer_move(state, move), CueKind.MOVE)])

    def trouble(self, title: str) -> None:
        """An error message's title."""
        self.speak([Spoken(self.voice.trouble(title), CueKind.MESSAGE)])

    def people(self, state: State, people: Mapping[int, str]) -> None:
        """Who of the club's roster sits at each named seat, as a game begins: "Anna
        Berg plays Black." (issue 33)."""
        self.speak([Spoken(_("{person} plays {player}.").format(
            person=name, player=say(state.name(p))), CueKind.MESSAGE)
            for p, name in sorted(people.items())])

    def turn(self, state: State) -> None:
        """Whose turn it is (a game begun or resumed)."""
        self.speak([Spoken(self.voice.turn(state), CueKind.TURN)])

    def taken_back(self, taken: Sequence[TakenBack]) -> None:
        """Each move taken back."""
        self.speak([Spoken(self.voice.taken_back(t.before, t.move), CueKind.MESSAGE)
                    for t in taken])

    def camera_found(self, state: State, move: Move) -> None:
        """The move the camera read on the board (issue 34), as it is highlighted (said
        instead of the highlighted choice)."""
        self._choice_said = True
        self.speak([Spoken(_("The camera read the move: {move}.").format(
            move=self.voice.move_words(state, move)), CueKind.MESSAGE)])

    def board_matches(self) -> None:
        """The camera saw the board as the position has it (a resumed game's check)."""
        self.speak([Spoken(_("The board matches the game."), CueKind.MESSAGE)])

    def camera_differs(self, lines: Sequence[str]) -> None:
        """The squares where the board differs from every legal move's, each a sentence."""
        self.speak([Spoken(line, CueKind.MESSAGE) for line in lines])

    def instruction(self, lines: Sequence[str]) -> None:
        """What the player is to do on a step of the camera's calibration (and why the
        last look failed), each line a sentence, as shown."""
        self.speak([Spoken(line, CueKind.MESSAGE) for line in lines])

    @staticmethod
    def choice_shown(page: sc.Page) -> tuple[int, int, int] | None:
        """Which row of which moves screen is highlighted (``None``: no moves screen)."""
        if not isinstance(page, sc.Moves):
            return None
        return id(page), page.cursor, len(page.path)

    def choice(self, seat: sc.Seat, page: sc.Page, state: State, *, arrived: bool) -> None:
        """The highlighted choice of the moves screen ``page``: a move as an instruction
        ("move the piece on 4 to 10"), a step by its row; on arriving, as a question
        with its number and how many there are."""
        if not isinstance(page, sc.Moves) or self._choice_said:
            return
        rows = page.choices(seat)
        if not rows:
            return
        row = page.cursor % len(rows)
        move = rows[row][1]
        choice = (self.voice.move_words(state, move) if move is not None
                  else page.spoken(seat, row))
        said = self.voice.choice(choice, asked=arrived, number=row + 1, count=len(rows))
        self.speak([Spoken(said, CueKind.MESSAGE)])


def taken_back_words(taken: TakenBack) -> str:
    """One move taken back, in words, with where its piece goes back to: ``Black's move
    11-13 is taken back: back to 11.``, ``White's move enter 6 is taken back: back on
    the plinth.``; a move that moved no piece (a pass, an answer) only by its name."""
    from companion.rules import PASS, PieceZone

    by = say(taken.by)
    if taken.move == PASS:
        return _("{player}'s lost throw is taken back.").format(player=by)
    notation = say(taken.move.notation)
    board = board_or_none(taken.before, highlight=taken.move)
    highlight = board.highlight if board is not None else None
    if highlight is None:
        src = taken.move.src
        if src is None:
            return _("{player}'s move {move} is taken back.").format(player=by, move=notation)
        return _("{player}'s move {move} is taken back: back to {square}.").format(
            player=by, move=notation, square=src)
    if highlight.src is not None:
        return _("{player}'s move {move} is taken back: back to {square}.").format(
            player=by, move=notation, square=highlight.src)
    if highlight.src_zone is PieceZone.BOARD:  # no piece moved
        return _("{player}'s move {move} is taken back.").format(player=by, move=notation)
    plain = board_model(taken.before)
    where = plain.zone_word(highlight.src_zone) or highlight.src_zone.value
    return _("{player}'s move {move} is taken back: back {where}.").format(
        player=by, move=notation, where=where)


__all__ = ["Narration", "taken_back_words"]
