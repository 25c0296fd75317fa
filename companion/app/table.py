"""The game at the table: one game's session, whatever the screen shows.

A :class:`Table` holds the game, its position, the actions made and the open journal.
It begins a game, takes one over from a journal, applies an action (checked on a copy
first, then journalled with fsync, then kept), takes back the last move, and ends the
game. It never chooses a screen: what it did comes back as a typed record
(:class:`Acted`, :class:`Undone`) and the screens decide what to show.

Errors: a rules error (:class:`~companion.rules.RulesError`, a ``ValueError``) when an
action is not allowed, an ``OSError`` when the disk cannot take a record; either way
the table is unchanged.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass

from companion.journal.names import clean_name
from companion.journal.store import Journal, JournalStore, Loaded
from companion.rules import Action, Game, Implement, Move, State, Throw
from companion.rules import Event as GameEvent

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Acted:
    """One action made: by whom (the player's name), the action, what it caused, the
    implement it was thrown with (``None`` for a move), and, when it won the game but
    the journal could not take the end record, the disk's error in words (the game is
    then recorded as won when it is next offered)."""

    by: str
    action: Action
    events: tuple[GameEvent, ...]
    implement: Implement | None
    end_failed: str | None = None


@dataclass(frozen=True, slots=True)
class TakenBack:
    """One move taken back: who had made it (the player's name), the move, and the
    position it was made in (``before``: its piece is back where it stands there)."""

    by: str
    move: Move
    before: State


@dataclass(frozen=True, slots=True)
class Undone:
    """What an undo took back: the person's last move (``by``, ``move``), how many
    actions went with it (the move, any throw made after it and the computer's replies)
    and every move taken back, in the order they had been made (``moves``: the person's
    first, then each reply)."""

    by: str
    move: Move
    count: int
    moves: tuple[TakenBack, ...] = ()


def _named(people: Mapping[int, str] | None, players: int, seats: Mapping[int, str] | None
           ) -> dict[int, str]:
    """The persons at human seats of ``people`` as the journal keeps them: each name
    :func:`~companion.journal.names.clean_name`'d, none at a seat the computer plays,
    outside ``0 <= p < players`` or empty once cleaned."""
    named = {p: clean_name(n) for p, n in (people or {}).items()
             if 0 <= p < players and p not in (seats or {})}
    return {p: n for p, n in named.items() if n}


class Table:
    """One game in play. Build it with :meth:`begin` or :meth:`reopen`."""

    def __init__(
        self, game: Game, players: int, journal: Journal, actions: list[Action],
        seats: Mapping[int, str] | None = None, people: Mapping[int, str] | None = None,
    ) -> None:
        self.game = game
        self.players = players
        self.journal = journal
        self.seats = dict(seats or {})
        """The players the computer plays, by player index, with their level."""
        self.people = dict(people or {})
        """The persons of the club's roster at the human seats, by player index."""
        self._actions = list(actions)
        self._movers: list[int] = []
        self.state: State = game.new_state(players)
        self.last_throw: tuple[Throw, Implement] | None = None
        """The last throw made and the implement it was thrown with (``None``: none yet)."""
        self._replay()

    @classmethod
    def begin(
        cls, store: JournalStore, game: Game, players: int, seats: Mapping[int, str] | None = None,
        *, people: Mapping[int, str] | None = None,
    ) -> Table:
        """A new game (``seats``: the computer's players and levels; ``people``: the
        persons of the club's roster at the human seats, by player index, kept in the
        journal's header for the club's results and ratings); its journal's first
        record is on disk when this returns.

        :raises OSError: the journal cannot be written.
        """
        return cls(game, players, store.begin(game, players, seats=seats, people=people),
                   [], seats, _named(people, players, seats))

    @classmethod
    def reopen(cls, store: JournalStore, loaded: Loaded) -> Table:
        """The game of journal ``loaded``, appended to from now on. A won game whose end
        record a power cut lost gets it now.

        :raises OSError: the journal cannot be opened for writing.
        """
        raw = loaded.header.get("seats")
        seats = {int(p): str(lv) for p, lv in raw.items()
                 if str(p).isdigit() and int(p) < loaded.players} if isinstance(raw, dict) else {}
        raw_people = loaded.header.get("people")
        people = {int(p): n for p, n in raw_people.items() if str(p).isdigit() and isinstance(n, str)
                  } if isinstance(raw_people, dict) else {}
        table = cls(loaded.game, loaded.players, store.reopen(loaded), list(loaded.actions), seats,
                    _named(people, loaded.players, seats))
        if table.state.outcome is not None:
            table._record_win()
        return table

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action in force, in order (undone ones removed)."""
        return tuple(self._actions)

    def act(self, action: Action) -> Acted:
        """Apply ``action``: on a copy first, then journal it (fsync), then keep it.

        :raises RulesError: the action is not allowed here (nothing changes).
        :raises OSError: the journal cannot take it (nothing changes).
        """
        state = self.state
        by = state.player_to_act_name
        spec = state.throw_spec
        after = state.copy()
        events = after.apply(action)
        self.journal.append(by, action, events)
        self.state = after
        self._actions.append(action)
        self._movers.append(state.current_player)
        implement = spec if isinstance(action, Throw) else None
        if implement is not None:
            assert isinstance(action, Throw)
            self.last_throw = (action, implement)
        failed = self._record_win() if after.outcome is not None else None
        return Acted(by, action, tuple(events), implement, failed)

    def _last_person_move(self) -> int | None:
        """The index of the last move a person made (``None``: none yet)."""
        moves = [i for i, a in enumerate(self._actions)
                 if isinstance(a, Move) and self._movers[i] not in self.seats]
        return moves[-1] if moves else None

    def undoable(self) -> tuple[str, Move] | None:
        """What :meth:`undo` would take back, without changing anything: the name of
        the player who made the move and the move (``None``: no person has moved)."""
        keep = self._last_person_move()
        if keep is None:
            return None
        move = self._actions[keep]
        assert isinstance(move, Move)
        return self.game.player_name(self._movers[keep], self.players), move

    def undo(self) -> Undone | None:
        """Take back the last confirmed move of a person, with any throw made after it
        and the computer's replies since; ``None`` when no person has moved. A throw
        alone is never taken back (that would be a free re-throw).

        :raises OSError: the journal cannot record the undo (nothing changes).
        """
        keep = self._last_person_move()
        if keep is None:
            return None
        count = len(self._actions) - keep
        move = self._actions[keep]
        assert isinstance(move, Move)
        undone = self._actions[keep:]
        self.journal.undo(count)
        del self._actions[keep:]
        self._replay()
        taken: list[TakenBack] = []
        state = self.state.copy()
        for action in undone:  # each move with the position it was made in
            if isinstance(action, Move):
                taken.append(TakenBack(state.player_to_act_name, action, state.copy()))
            state.apply(action)
        return Undone(self.state.player_to_act_name, move, count, tuple(taken))

    def end(self, reason: str) -> str | None:
        """Record the end of an unfinished game (``reason``: ``"abandoned"``) and close
        the journal; the disk's error in words when the record cannot be written (the
        game then stays unfinished in its journal, which loses nothing)."""
        failed = None if self.state.outcome is not None else _end(self.journal, reason, [])
        self.close()
        return failed

    def close(self) -> None:
        """Close the journal (everything in it is already on disk, so a disk error on
        closing is only logged); idempotent."""
        try:
            self.journal.close()
        except OSError as exc:
            log.warning("journal %s: error on closing: %s", self.journal.path, exc)

    def _record_win(self) -> str | None:
        outcome = self.state.outcome
        assert outcome is not None
        names = [self.game.player_name(w, self.players) for w in outcome.winners]
        return _end(self.journal, "won", names)

    def _replay(self) -> None:
        """The position after :attr:`actions` from the start; the last throw's picture."""
        state = self.game.new_state(self.players)
        last: tuple[Throw, Implement] | None = None
        movers = []
        for action in self._actions:
            if isinstance(action, Throw):
                spec = state.throw_spec
                assert spec is not None
                last = (action, spec)
            movers.append(state.current_player)
            state.apply(action)
        self._movers = movers
        self.state = state
        self.last_throw = last


def _end(journal: Journal, reason: str, winners: list[str]) -> str | None:
    """Write ``journal``'s end record; the disk's error in words when it cannot."""
    try:
        journal.end(reason, winners)
    except OSError as exc:
        log.warning("journal %s: cannot record its end: %s", journal.path, exc)
        return str(exc)
    return None


__all__ = ["Acted", "Table", "TakenBack", "Undone"]
