"""The rules core shared by every game: value objects, the State / Game base classes, errors.

A game is a :class:`Game` (its options and static data) that makes :class:`State`
objects. A state is a chance-or-decision node in the OpenSpiel sense:

* in :attr:`Phase.THROW` the next action is a :class:`~companion.rules.throws.Throw`
  drawn from :attr:`State.throw_spec` (an implement with an exact outcome
  distribution, see :meth:`State.throw_outcomes`);
* in :attr:`Phase.MOVE` and :attr:`Phase.DECIDE` the next action is one of
  :meth:`State.legal_moves` (a move using one throw value, a yes/no choice in the
  middle of a move, or an explicit ``pass`` when the throw, or what is left of it,
  is lost);
* in :attr:`Phase.OVER` :attr:`State.outcome` names the winner.

Both kinds of action go through :meth:`State.apply` (checked: raises
:class:`IllegalMoveError` naming the action and the position) or :meth:`State.push`
(unchecked and faster, for playouts of moves that came from :meth:`legal_moves`).
Both return the :class:`Event` list that tells the players what happened.

For a search over the game tree (``companion.ai``) the core adds a search mode:
:meth:`State.search_copy` (a copy without the history), :meth:`State.play` (unchecked,
no history kept, events not returned), :meth:`State.position_key` (a hashable key for a
transposition table), :meth:`State.chance_outcomes` (the throw distribution with float
weights, cached per implement, throws whose order no game here cares about merged) and
:meth:`State.progress` (each game's evaluation hook).

This module imports nothing outside the standard library and the rules package:
``companion.rules`` runs on a machine without gpiozero, pyserial or luma.
"""

from __future__ import annotations

import copy as _copy
import enum
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar, Final, TypeAlias

from companion.rules.errors import (
    BoardDataError,
    IllegalMoveError,
    InvalidThrowError,
    OptionError,
    PositionError,
    RulesError,
    UnknownGameError,
)
from companion.rules.kinds import (  # the event kinds used by more than one game
    EV_BORNE_OFF,
    EV_BUMPED,
    EV_CAPTURED,
    EV_CARD_DRAWN,
    EV_DROWNED,
    EV_ENTERED,
    EV_EXTRA_THROW,
    EV_MOVED,
    EV_SWAPPED,
    EV_THROW_LOST,
    EV_THROWN,
    EV_TRAPPED,
    EV_TURN_PASSES,
    EV_VALUE_LOST,
    EV_WON,
)
from companion.rules.throws import ChanceOutcome, Implement, Throw

POSITION_FORMAT: Final = "board-companion/position"
"""The ``format`` key of every position written by :meth:`State.to_dict`."""

POSITION_VERSION: Final = 1
"""The current version of the position format (see ``docs/positions.md``)."""


# -------------------------------------------------------------------- value objects


class Phase(enum.Enum):
    """What a state waits for."""

    THROW = "throw"
    """A throw of :attr:`State.throw_spec` (sticks, dice, a bonus die, a card)."""
    MOVE = "move"
    """One of :meth:`State.legal_moves`, each using one value of the throw (or ``pass``)."""
    DECIDE = "decide"
    """An optional decision in the middle of a move: :meth:`State.legal_moves` are the choices."""
    OVER = "over"
    """The game has ended; :attr:`State.outcome` is set."""


Square: TypeAlias = int | str
"""A position on the board: a field or square number on a track, or a named square."""


@dataclass(frozen=True, slots=True)
class Move:
    """One player action other than a throw.

    ``kind`` is the game's verb (``"enter"``, ``"move"``, ``"bear-off"``, ``"pass"``,
    ``"yes"``/``"no"`` for a decision, or a game's own such as ``"ride"``);
    ``src``/``dst`` are squares where they apply (``None`` for a plinth or off the
    board); ``values`` are the throw values the move uses, in order.

    Moves are small and hashable; the text form is :attr:`notation`, parsed back by
    :meth:`State.parse_move`.
    """

    kind: str
    src: Square | None = None
    dst: Square | None = None
    values: tuple[int, ...] = ()
    label: str = ""
    """Extra text a game may add to the notation (``"via 44"``, ``"swap"``); part of identity."""

    @property
    def notation(self) -> str:
        """The stable text form: ``enter 4``, ``12-16``, ``27-off``, ``pass``, ``yes``.

        Values used are appended in brackets when the game uses more than one value
        per move (``3-7 [2+2]``).
        """
        k = self.kind
        if k == "enter":
            text = f"enter {self.dst}"
        elif k == "move":
            text = f"{self.src}-{self.dst}"
        elif k == "bear-off":
            text = f"{self.src}-off"
        else:
            text = k if self.dst is None else f"{k} {self.dst}"
        if len(self.values) > 1:
            text += " [" + "+".join(map(str, self.values)) + "]"
        if self.label:
            text += f" {self.label}"
        return text

    def __str__(self) -> str:
        return self.notation


PASS: Final = Move("pass")
"""The explicit pass: the throw (or what remains of it) is lost because nothing is legal."""


EventArg: TypeAlias = "int | str | bool | tuple[int | str, ...] | None"
"""One argument of an :class:`Event`: a number (a throw's value, a count, a field), a
key (a card's deck key, an item, a colour, a direction: the rules' own identifiers,
never a sentence), a flag, or a tuple of numbers or keys."""


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, as data: what kind, to whom, where, with what.

    ``kind`` is one of the ``EV_*`` constants below (or a game's own, named in the
    game's module); ``player`` is the index of the player it concerns (``None``: no
    one, or everyone); ``src``/``dst`` are squares (``None`` for a plinth, off the
    board, or not applicable); ``args`` are the kind's other facts by name, values not
    words (``{"value": 4}``, ``{"card": "blue-pegasus"}``, ``{"values": (2, 3)}``).

    An event carries no sentence: the words are the screens', one catalogue message
    per kind, the same on the OLED, in speech, on the pages and in ``companion journal
    show``. :meth:`to_json` / :meth:`from_json` are its form in
    the journal.
    """

    kind: str
    player: int | None
    src: Square | None = None
    dst: Square | None = None
    args: Mapping[str, EventArg] = field(default_factory=dict, hash=False)

    def __str__(self) -> str:
        return self.kind

    def arg(self, name: str, default: EventArg = None) -> EventArg:
        """The argument ``name`` (``default`` when the event has none of that name)."""
        return self.args.get(name, default)

    def to_json(self) -> dict[str, Any]:
        """The event as JSON data: ``{"kind", "player", "src"?, "dst"?, "args"?}``
        (``src``/``dst``/``args`` left out when empty; tuples become lists)."""
        out: dict[str, Any] = {"kind": self.kind, "player": self.player}
        if self.src is not None:
            out["src"] = self.src
        if self.dst is not None:
            out["dst"] = self.dst
        if self.args:
            out["args"] = {k: list(v) if isinstance(v, tuple) else v for k, v in self.args.items()}
        return out

    @classmethod
    def from_json(cls, data: object) -> Event:
        """The event of :meth:`to_json`'s ``data``.

        :raises ValueError: ``data`` is not such an object (a kind that is not a short
            string, a player that is not an int or null, a square or argument of another
            type than :data:`EventArg`).
        """
        if not isinstance(data, dict):
            raise ValueError(f"an event must be an object, not {type(data).__name__}")
        kind, player = data.get("kind"), data.get("player")
        if not isinstance(kind, str) or not 0 < len(kind) <= 40:
            raise ValueError(f"an event's kind must be a short string, not {kind!r}")
        if player is not None and (not isinstance(player, int) or isinstance(player, bool)):
            raise ValueError(f"an event's player must be an int or null, not {player!r}")
        squares = []
        for key in ("src", "dst"):
            sq = data.get(key)
            if sq is not None and (isinstance(sq, bool) or not isinstance(sq, int | str)):
                raise ValueError(f"an event's {key} must be a square, not {sq!r}")
            squares.append(sq)
        raw = data.get("args", {})
        if not isinstance(raw, dict):
            raise ValueError("an event's args must be an object")
        args: dict[str, EventArg] = {}
        for name, value in raw.items():
            if isinstance(value, list):
                if not all(isinstance(v, int | str) and not isinstance(v, bool) for v in value):
                    raise ValueError(f"an event's argument {name!r} holds other than numbers or keys")
                value = tuple(value)
            elif value is not None and not isinstance(value, int | str | bool):
                raise ValueError(f"an event's argument {name!r} must be a value, not {value!r}")
            args[name] = value
        return cls(kind, player, src=squares[0], dst=squares[1], args=args)


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: ``winners`` are player indices (one, unless a game allows a shared win)."""

    winners: tuple[int, ...]
    reason: str
    """Why, in words: ``"all five pieces borne off"``."""


class PieceZone(enum.Enum):
    """Where a piece is, for invariant checks and displays that work across games."""

    OUTSIDE = "outside"
    """Waiting to enter: Senet's plinth, the Labyrinth's entrance, a Home Row start."""
    BOARD = "board"
    HELD = "held"
    """Held off the track by a rule: the Abyss."""
    OFF = "off"
    """Borne off / arrived."""


@dataclass(frozen=True, slots=True)
class PieceAt:
    """One piece of one player, and where it is (``square`` is set when on the board)."""

    player: int
    zone: PieceZone
    square: Square | None = None


Action: TypeAlias = Throw | Move


@dataclass(frozen=True, slots=True)
class Option:
    """A declared game option: name, type, default, allowed values and help text.

    ``parse`` turns a command-line string (``"5"``, ``"yes"``) into the typed value.
    """

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] = ()

    names_file: ClassVar[bool] = False
    """Whether the value is the path of a data file (see :class:`FileOption`)."""

    def parse(self, raw: object) -> Any:
        """Convert ``raw`` (a string from the command line, or a typed value from JSON).

        :raises OptionError: when the value has the wrong type or is not one of ``choices``.
        """
        want = type(self.default)
        value: Any = raw
        if isinstance(raw, str) and want is not str:
            text = raw.strip().lower()
            try:
                if want is bool:
                    if text in ("1", "yes", "true", "on"):
                        value = True
                    elif text in ("0", "no", "false", "off"):
                        value = False
                    else:
                        raise ValueError(raw)
                elif want is int:
                    value = int(text)
                else:
                    raise ValueError(raw)
            except ValueError:
                raise OptionError(
                    f"option {self.name}={raw!r}: expected {want.__name__}"
                ) from None
        if (want is int and isinstance(value, bool)) or not isinstance(value, want):
            raise OptionError(
                f"option {self.name}={raw!r}: expected {want.__name__}"
            )
        if self.choices and value not in self.choices:
            allowed = ", ".join(map(str, self.choices))
            raise OptionError(f"option {self.name}={raw!r}: must be one of {allowed}")
        return value


@dataclass(frozen=True, slots=True)
class FileOption(Option):
    """An option whose value is the path of a data file of the game (a board, a deck
    file); ``""`` (the default) is the packaged file. A setup screen offers the files it
    finds, a configuration file's relative path is read from its folder."""

    default: Any = ""
    help: str = ""

    names_file: ClassVar[bool] = True


# -------------------------------------------------------------------------- game


class Game(ABC):
    """A game with its options fixed; makes states.

    Subclasses declare ``id``, ``title``, ``min_players``, ``max_players``,
    ``default_players`` and ``options`` (a tuple of :class:`Option`), and implement
    :meth:`new_state` and :meth:`_state_from_body`.

    :raises OptionError: from the constructor for an unknown option or a bad value.
    """

    id: ClassVar[str]
    title: ClassVar[str]
    seed_files: ClassVar[tuple[str, ...]] = ()
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    default_players: ClassVar[int] = 2
    options: ClassVar[tuple[Option, ...]] = ()
    sharpness: ClassVar[float] = 3.0
    """How steeply a lead in :meth:`State.progress` turns into a chance to win, for the
    computer player's evaluation (``companion.ai.evaluate``): fitted per game to whole
    games' outcomes."""
    turn_is_one_ply: ClassVar[bool] = False
    """For the computer player's search (``companion.ai.search``): whether all the
    decisions of one turn (one throw's values used one after another, as in casting-stick
    Senet) together with the throw that starts the turn count as one ply of depth, so
    that two plies reach the opponent's reply; ``False``: every throw and every real
    choice is a ply (a Labyrinth turn two choices and a throw)."""
    presenter: ClassVar[str] = ""
    """Where the companion's screens find this game's one UI entry (its presenter:
    status words, board model, board drawing, inventory pages) as ``"module:Class"``,
    imported only when a screen needs it; ``""``: the default presenter, no board
    picture. Named by a string so the rules import nothing of the screens."""
    words: ClassVar[str] = ""
    """Where the companion finds this game's events in words (``"module:Class"``, an
    ``EventWords`` of the UI, which imports no picture library), imported on first use;
    ``""``: the kinds every game shares worded plainly."""

    def __init__(self, **options: object) -> None:
        known = {o.name: o for o in self.options}
        values: dict[str, Any] = {o.name: o.default for o in self.options}
        for name, raw in options.items():
            key = name.replace("_", "-")
            if key not in known:
                listed = ", ".join(known) or "none"
                raise OptionError(
                    f"{self.id} has no option {name!r} (options: {listed})"
                )
            values[key] = known[key].parse(raw)
        self.option_values: Mapping[str, Any] = values

    def option(self, name: str) -> Any:
        """The value of option ``name`` (defaults filled in)."""
        return self.option_values[name]

    def check_players(self, players: int | None) -> int:
        """Return ``players`` (``None``: :attr:`default_players`) if this game can be
        played by that many.

        :raises OptionError: outside ``min_players..max_players``.
        """
        if players is None:
            return self.default_players
        if not self.min_players <= players <= self.max_players:
            raise OptionError(
                f"{self.id} is played by {self.min_players}"
                + (f" to {self.max_players}" if self.max_players > self.min_players else "")
                + f" players, not {players}"
            )
        return players

    def player_name(self, player: int, players: int) -> str:
        """The name of player ``player`` (0-based) as the game calls them."""
        return f"Player {player + 1}"

    @abstractmethod
    def new_state(self, players: int | None = None) -> State:
        """The starting position for ``players`` players (default :attr:`default_players`).

        :raises OptionError: for an unsupported number of players.
        """

    def state_from_dict(self, data: Mapping[str, Any]) -> State:
        """Read a position written by :meth:`State.to_dict` or by hand, then
        :meth:`validate` it.

        :raises PositionError: naming the key and the reason when anything is wrong or
            impossible;
            also, without a key, for a value whose type or shape the game's own
            reader did not expect (never a ``TypeError`` or ``KeyError``).
        """
        if not isinstance(data, Mapping):
            raise PositionError("", "a position must be a JSON object")
        fmt = data.get("format", POSITION_FORMAT)
        if fmt != POSITION_FORMAT:
            raise PositionError("format", f"expected {POSITION_FORMAT!r}, got {fmt!r}")
        version = data.get("version")
        if version != POSITION_VERSION:
            raise PositionError(
                "version", f"expected {POSITION_VERSION}, got {version!r}"
            )
        game_id = data.get("game")
        if game_id != self.id:
            raise PositionError("game", f"expected {self.id!r}, got {game_id!r}")
        players = data.get("players", self.default_players)
        if not isinstance(players, int) or isinstance(players, bool):
            raise PositionError("players", f"expected a whole number, got {players!r}")
        try:
            self.check_players(players)
        except OptionError as exc:
            raise PositionError("players", str(exc)) from None
        try:
            state = self._state_from_body(data, players)
            self.validate(state)
            return state
        except RulesError:
            raise
        except (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError) as exc:
            # A game's reader met a value of a shape it does not check (an object where
            # a name belongs...): from a file, that is still a position error.
            raise PositionError(
                "", f"a value of an unexpected type or shape ({type(exc).__name__}: {exc})"
            ) from None

    @abstractmethod
    def _state_from_body(self, data: Mapping[str, Any], players: int) -> State:
        """Build a state from the game-specific keys of ``data`` (envelope already checked)."""

    def validate(self, state: State) -> None:
        """Check that play could have reached ``state`` (a position read from a file or
        made by hand); :meth:`state_from_dict` calls it on every position it reads. Every
        position reached by play from a valid one is valid.

        The default accepts everything; each game here overrides it.

        :raises PositionError: naming the key and what is impossible.
        """
        return None

    def __repr__(self) -> str:
        changed = {
            k: v
            for k, v in self.option_values.items()
            if v != next(o.default for o in self.options if o.name == k)
        }
        args = ", ".join(f"{k.replace('-', '_')}={v!r}" for k, v in changed.items())
        return f"get_game({self.id!r}{', ' if args else ''}{args})"


# -------------------------------------------------------------------------- state


class State(ABC):
    """A position of a game and what it waits for. Mutable; copy with :meth:`copy`.

    Subclasses implement the hooks ``_legal``, ``_push_throw``, ``_push_move``,
    ``_body`` and the properties marked abstract; the public methods here validate
    and keep :attr:`history`.
    """

    __slots__ = ("game", "history", "players")

    def __init__(self, game: Game, players: int) -> None:
        self.game = game
        self.players = players
        self.history: list[Action] = []

    # --- what the state waits for --------------------------------------------------

    @property
    @abstractmethod
    def phase(self) -> Phase:
        """What the state waits for."""

    @property
    @abstractmethod
    def current_player(self) -> int:
        """The index (0-based) of the player to throw, move or decide."""

    @property
    @abstractmethod
    def throw_spec(self) -> Implement | None:
        """The implement to throw now (``None`` unless :attr:`phase` is THROW)."""

    @property
    @abstractmethod
    def outcome(self) -> Outcome | None:
        """``None`` until the game is over."""

    @abstractmethod
    def pieces(self) -> list[PieceAt]:
        """Every piece of every player and where it is (for checks and displays)."""

    def usable_faces(self) -> tuple[bool, ...]:
        """While a throw is being played (MOVE phase): one flag per face of the throw
        now being played, in the throw's order, ``True`` where the player to move may
        still use that face's value. The companion draws the other faces as unusable
        (another player's colour, already played, discarded). Default ``()``: nothing
        is marked."""
        return ()

    def may_share(self, square: Square) -> bool:
        """Whether ``square`` may hold more than one piece (a sanctuary); default no."""
        return False

    @abstractmethod
    def _legal(self) -> tuple[Move, ...]:
        """The legal moves or choices in MOVE / DECIDE phase, never empty there.

        A tuple: a caller may keep it, and a game may cache it, without either
        changing the other."""

    @abstractmethod
    def _push_throw(self, throw: Throw) -> list[Event]:
        """Apply a throw already known to be valid."""

    @abstractmethod
    def _push_move(self, move: Move) -> list[Event]:
        """Apply a move already known to be legal."""

    @abstractmethod
    def _body(self) -> dict[str, Any]:
        """The game-specific keys of :meth:`to_dict`."""

    def _copy_into(self, other: State) -> None:
        """Deep-copy the subclass's fields into ``other`` (override for speed)."""
        for cls in type(self).__mro__:
            for name in getattr(cls, "__slots__", ()):
                if name not in ("game", "players", "history") and hasattr(self, name):
                    setattr(other, name, _copy.deepcopy(getattr(self, name)))

    # --- public API -------------------------------------------------------------

    def name(self, player: int) -> str:
        """The name of player ``player`` (0-based) in this position, as the rules call
        them (``"Black"``, ``"Player 2"``): the game's; a game whose names depend on the
        position (colours tossed for) overrides it. The UI translates it."""
        return self.game.player_name(player, self.players)

    @property
    def player_to_act_name(self) -> str:
        """The name of :attr:`current_player` (``"Black"``, ``"Player 2"``)."""
        return self.game.player_name(self.current_player, self.players)

    def throw_outcomes(self) -> list[tuple[Throw, Fraction]]:
        """Every throw that can happen now with its exact probability (sums to 1).

        :raises IllegalMoveError: when the state does not wait for a throw.
        """
        spec = self.throw_spec
        if spec is None:
            raise IllegalMoveError(f"no throw is due in {self.describe()}")
        return spec.outcomes()

    def legal_moves(self) -> tuple[Move, ...]:
        """The moves (or decision choices) available now, in a stable order.

        An immutable tuple: keeping it, or copying it into a list and changing that,
        changes nothing in the state or its copies. Empty in THROW and OVER phases.
        When nothing else is legal in MOVE phase it is ``(PASS,)``.
        """
        if self.phase in (Phase.MOVE, Phase.DECIDE):
            return self._legal()
        return ()

    def parse_move(self, text: str) -> Move:
        """The legal move whose :attr:`Move.notation` is ``text`` (spaces and case folded).

        :raises IllegalMoveError: when no legal move has that notation.
        """
        want = " ".join(text.lower().split())
        for move in self.legal_moves():
            if move.notation.lower() == want:
                return move
        raise IllegalMoveError(
            f"{text!r} is not a legal move in {self.describe()}; legal: "
            + (", ".join(m.notation for m in self.legal_moves()) or "none")
        )

    def apply(self, action: Action) -> list[Event]:
        """Apply a throw or a move after checking it; return what happened.

        :raises IllegalMoveError: the action is not legal here (message names both).
        :raises InvalidThrowError: the throw does not fit the implement due now.
        """
        phase = self.phase
        if isinstance(action, Throw):
            spec = self.throw_spec
            if phase is not Phase.THROW or spec is None:
                raise IllegalMoveError(
                    f"throw {action} is not due in {self.describe()}"
                )
            spec.check(action)
        elif isinstance(action, Move):
            if phase not in (Phase.MOVE, Phase.DECIDE):
                raise IllegalMoveError(
                    f"move {action.notation!r} is not legal in {self.describe()}: "
                    + ("the game is over" if phase is Phase.OVER else "a throw is due")
                )
            if action not in self._legal():
                raise IllegalMoveError(
                    f"move {action.notation!r} is not legal in {self.describe()}; legal: "
                    + ", ".join(m.notation for m in self._legal())
                )
        else:
            raise TypeError(f"expected a Throw or a Move, got {action!r}")
        return self.push(action)

    def push(self, action: Action) -> list[Event]:
        """Apply an action WITHOUT checking it (for playouts of legal actions); fast.

        Applying an illegal action leaves the state undefined.
        """
        self.history.append(action)
        if action.__class__ is Move:
            return self._push_move(action)
        if isinstance(action, Throw):
            return self._push_throw(action)
        return self._push_move(action)

    def copy(self) -> State:
        """An independent copy (history included)."""
        other = object.__new__(type(self))
        other.game = self.game
        other.players = self.players
        other.history = list(self.history)
        self._copy_into(other)
        return other

    # --- search mode -------------------------------------------------------------
    #
    # What a search over the game tree needs (companion.ai): copies without history,
    # application without checks, history or event texts, a key per position, the
    # throw distribution with float weights, and an evaluation hook per game.

    record_only_keys: ClassVar[tuple[str, ...]] = ()
    """Keys of :meth:`to_dict` kept only for the record or a screen (the dice thrown
    this turn, why a game ended): they do not decide what can happen next, so
    :meth:`position_key` leaves them out."""

    def search_copy(self) -> State:
        """An independent copy WITHOUT the history (it starts empty): what a search
        copies at every node. Play from it is the same as from :meth:`copy`; only what
        reads the history differs (the marks of a screen that shows the throw being
        played)."""
        other = object.__new__(type(self))
        other.game = self.game
        other.players = self.players
        other.history = []
        self._copy_into(other)
        return other

    def play(self, action: Action) -> None:
        """Search mode: apply ``action`` WITHOUT checking it, without adding it to
        :attr:`history` and without returning events (a game may skip building their
        texts). Reaches the same position (equal :meth:`position_key`) as
        :meth:`push` and :meth:`apply`.

        Applying an illegal action leaves the state undefined.
        """
        if action.__class__ is Move:
            self._play_move(action)
        elif isinstance(action, Throw):
            self._play_throw(action)
        else:
            self._play_move(action)

    def _play_move(self, move: Move) -> None:
        """Search-mode hook: apply a legal move; default :meth:`_push_move`, events dropped."""
        self._push_move(move)

    def _play_throw(self, throw: Throw) -> None:
        """Search-mode hook: apply a valid throw; default :meth:`_push_throw`, events dropped."""
        self._push_throw(throw)

    def position_key(self) -> Hashable:
        """A hashable key of the position, for a transposition table.

        Two states of the same game (same options, same number of players) have equal
        keys exactly when their :meth:`to_dict` forms are equal once the
        :attr:`record_only_keys` are left out: the same pieces, throw values still to
        play, decisions pending, decks, turn. So two different orders of moves that
        reach the same position give the same key; the history does not count. Keys
        of different games or player counts are not comparable.

        The default reads :meth:`to_dict` (slow); every game here overrides it with a
        tuple of its own fields.
        """
        body = self._body()
        for key in self.record_only_keys:
            body.pop(key, None)
        return json.dumps(body, sort_keys=True)

    def chance_outcomes(self) -> tuple[ChanceOutcome, ...]:
        """Every throw that can happen now, for a search: each with its exact
        probability and the same as a float (``(throw, probability, weight)``).

        Cached per implement (the same tuple while the implement is the same), and
        throws that differ only in the order of the dice or sticks are merged into one
        (two dice: the unordered pairs instead of the 36 ordered throws): every game here
        plays the values of one throw in any order the player likes, so such throws
        lead to the same play. :meth:`throw_outcomes` stays exact and unmerged.

        :raises IllegalMoveError: when the state does not wait for a throw.
        """
        spec = self.throw_spec
        if spec is None:
            raise IllegalMoveError(f"no throw is due in {self.describe()}")
        return spec.search_outcomes()

    def progress(self, player: int) -> float:
        """The evaluation hook: how far ``player`` has come towards winning, from 0.0
        (the starting position) to 1.0 (won).

        Each game measures it its own way, straight from its fields and without
        building objects (it runs at every leaf of a search); the default is the share
        of ``player``'s pieces borne off, from :meth:`pieces`.
        """
        mine = [p for p in self.pieces() if p.player == player]
        if not mine:
            return 0.0
        return sum(1 for p in mine if p.zone is PieceZone.OFF) / len(mine)

    def to_dict(self) -> dict[str, Any]:
        """The versioned JSON form described in ``docs/positions.md``."""
        data: dict[str, Any] = {
            "format": POSITION_FORMAT,
            "version": POSITION_VERSION,
            "game": self.game.id,
            "options": dict(self.game.option_values),
            "players": self.players,
        }
        data.update(self._body())
        return data

    def describe(self) -> str:
        """A one-line description for error messages: game, phase and player to act."""
        phase = self.phase
        if phase is Phase.OVER:
            return f"{self.game.id} position (game over)"
        return (
            f"{self.game.id} position ({self.player_to_act_name} to "
            f"{phase.value}, move {len(self.history) + 1})"
        )

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.describe()}>"


# -------------------------------------------------------------- random playouts


def random_action(state: State, randrange: Randbelow) -> Action:
    """A fair throw of the implement due, or a uniformly chosen legal move or choice:
    one step of a random playout (the record of ``companion rules play``, demos, tests).

    ``randrange(n)`` returns a uniform integer in ``0..n-1``.

    :raises IllegalMoveError: when the game is over.
    """
    spec = state.throw_spec
    if spec is not None:
        return spec.draw(randrange)
    moves = state.legal_moves()
    if not moves:
        raise IllegalMoveError(f"nothing to do in {state.describe()}")
    return moves[randrange(len(moves))]


def play_out(state: State, randrange: Randbelow, max_actions: int = 1_000_000, *,
             until: Callable[[State], bool] | None = None) -> State:
    """Apply :func:`random_action` (with the unchecked :meth:`State.push`) until the
    game is over, or until ``until(state)`` holds (asked before each action, once the
    game is known not to be over: ``until=lambda s: len(s.history) >= 40`` stops a new
    game after 40 actions, ``lambda s: s.phase is Phase.THROW`` where a throw is due);
    returns ``state``, changed in place.

    The numbers drawn are those of a loop of :func:`random_action` with the same checks,
    so a seeded game is the same either way.

    :raises RuntimeError: when the game has not ended (nor ``until`` held) after
        ``max_actions`` actions.
    """
    for _ in range(max_actions):
        if state.phase is Phase.OVER or (until is not None and until(state)):
            return state
        # Unchecked: random_action takes a throw the implement can show or one of
        # legal_moves(), so checking it again would only cost time.
        state.push(random_action(state, randrange))
    raise RuntimeError(f"{state.game.id}: no end after {max_actions} actions")


# ------------------------------------------------------------------ JSON helpers


def require(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str = "") -> Any:
    """``data[key]`` checked to be of ``kind``.

    :raises PositionError: naming ``where.key`` when it is missing or of another type.
    """
    path = f"{where}.{key}" if where else key
    if key not in data:
        raise PositionError(path, "missing")
    value = data[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
        names = " or ".join(k.__name__ for k in kinds)
        raise PositionError(path, f"expected {names}, got {value!r}")
    return value


def choose_index(names: Sequence[str], value: object, where: str) -> int:
    """The index of ``value`` in ``names`` (case-insensitive), for player names in JSON.

    :raises PositionError: when ``value`` is not one of ``names``.
    """
    if isinstance(value, str):
        lowered = [n.lower() for n in names]
        if value.lower() in lowered:
            return lowered.index(value.lower())
    raise PositionError(where, f"expected one of {', '.join(names)}, got {value!r}")


Randbelow: TypeAlias = Callable[[int], int]
"""A source of randomness: ``randbelow(n)`` returns a uniform integer in ``0..n-1``
(``secrets.randbelow`` on the companion, ``random.Random(seed).randrange`` in tests)."""

__all__ = [
    "EV_BORNE_OFF",
    "EV_BUMPED",
    "EV_CAPTURED",
    "EV_CARD_DRAWN",
    "EV_DROWNED",
    "EV_ENTERED",
    "EV_EXTRA_THROW",
    "EV_MOVED",
    "EV_SWAPPED",
    "EV_THROWN",
    "EV_THROW_LOST",
    "EV_TRAPPED",
    "EV_TURN_PASSES",
    "EV_VALUE_LOST",
    "EV_WON",
    "PASS",
    "POSITION_FORMAT",
    "POSITION_VERSION",
    "Action",
    "BoardDataError",
    "Event",
    "FileOption",
    "Game",
    "IllegalMoveError",
    "InvalidThrowError",
    "Move",
    "Option",
    "OptionError",
    "Outcome",
    "Phase",
    "PieceAt",
    "PieceZone",
    "PositionError",
    "Randbelow",
    "RulesError",
    "Square",
    "State",
    "UnknownGameError",
    "choose_index",
    "play_out",
    "random_action",
    "require",
]
