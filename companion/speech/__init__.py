"""Speech: what the box says aloud, and the process that says it.

Two halves meet here. :mod:`companion.speech.cues` turns what happened in a game (a
throw, a move, a penalty, a new turn, the winner) into :class:`Cue`\\ s, sentences for
the ear written from the game's facts in the language in use (never the screen's
text read aloud). :mod:`companion.speech.engine` says them: espeak-ng in a process of
its own, fed through a queue, so the service's loop never waits for speech.

The service holds one :class:`Speaker`; with speech off it is :class:`Silent`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Protocol


class CueKind(enum.Enum):
    """What a cue is about. A cue of kind :attr:`TURN` (a new turn) cuts off whatever is
    still being said: what was said of the last turn is stale."""

    TURN = "turn"
    THROW = "throw"
    MOVE = "move"
    EVENT = "event"
    WINNER = "winner"
    MESSAGE = "message"


@dataclass(frozen=True, slots=True)
class Cue:
    """One sentence to say: ``text`` (plain words in the language in use, at most a few
    hundred characters; no screen notation such as "4-10") and its ``kind``."""

    text: str
    kind: CueKind = CueKind.EVENT

    @property
    def cuts_off(self) -> bool:
        """Whether saying this cue stops the one being said (a new turn's cue does)."""
        return self.kind is CueKind.TURN


class Speaker(Protocol):
    """Says cues without making the caller wait. Every method returns at once."""

    def say(self, cues: list[Cue]) -> None:
        """Say ``cues`` in order, after what is being said (a cue that :attr:`Cue.cuts_off`
        first stops it and drops what was waiting)."""

    def repeat(self) -> None:
        """Say the last cues given to :meth:`say` again (held OK: "say it again")."""

    def close(self) -> None:
        """Stop speaking and release the engine (idempotent)."""


class Silent:
    """The speaker with speech off: remembers the last cues (for a later repeat when
    speech is switched on) and says nothing."""

    def __init__(self) -> None:
        self.last: list[Cue] = []

    def say(self, cues: list[Cue]) -> None:
        if cues:
            self.last = list(cues)

    def repeat(self) -> None:
        return None

    def close(self) -> None:
        return None


__all__ = ["Cue", "CueKind", "Silent", "Speaker"]
