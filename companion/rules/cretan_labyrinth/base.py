"""The Cretan Labyrinth's constants (deck, event kinds, stages), the fast builders of
decks and events, and the game's options and board tables (:class:`CretanLabyrinthRules`,
made a game with positions by :class:`~companion.rules.cretan_labyrinth.CretanLabyrinth`).
See the package's docstring for a turn's shape."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import fields
from typing import Final

from companion.rules.core import (
    PASS,
    Event,
    FileOption,
    Game,
    Move,
    Option,
    OptionError,
    Phase,
    Square,
)
from companion.rules.cretan_data import (
    Board,
    Decks,
    load_board,
    load_decks,
)
from companion.rules.cretan_labyrinth.tables import (
    GO_INDEX,
    MET_WALKS_KEPT,
    TraceTable,
    Walk,
    WalkTable,
    board_tables,
)
from companion.rules.cretan_labyrinth.tasks import (
    WINS,
    DoCard,
    Draw,
    Task,
)
from companion.rules.errors import BoardDataError
from companion.rules.throws import Deck, Dice

DIRECTION_DECK: Final = "direction"
"""The name of the direction deck (the coloured decks are named by their colour)."""

EV_START_ROLL: Final = "start-roll"
EV_DIAMOND: Final = "diamond"
EV_ITEM: Final = "item"
EV_DANGER: Final = "danger"
EV_AVERTED: Final = "averted"
EV_KEY: Final = "key"
EV_BATTLE: Final = "battle"
EV_LOST_TURNS: Final = "lost-turns"
EV_SENT: Final = "sent"
EV_ROUND_LIMIT: Final = "round-limit"
EV_OUT: Final = "out"
"""A player leaves the game (option ``minotaur=out``, D30)."""

# Stages of a turn (the JSON "stage").
STAGE_START = "start"
STAGE_DISTANCE = "distance"
STAGE_DIRECTION = "direction"
STAGE_MOVE = "move"
STAGE_RESOLVE = "resolve"
STAGE_OVER = "over"
STAGES: Final = (STAGE_START, STAGE_DISTANCE, STAGE_DIRECTION, STAGE_MOVE, STAGE_RESOLVE, STAGE_OVER)

_PASS_ONLY: Final = (PASS,)

_STAGE_PHASE: Final = {
    STAGE_START: Phase.THROW,
    STAGE_DISTANCE: Phase.THROW,
    STAGE_DIRECTION: Phase.THROW,
    STAGE_MOVE: Phase.MOVE,
    STAGE_OVER: Phase.OVER,
}
"""The phase of every stage but resolve's (which depends on the task first in line)."""

_DECK_FIELDS: Final = ("name", "unseen", "returned", "_hash")
assert tuple(f.name for f in fields(Deck)) == _DECK_FIELDS, "Deck's fields changed: see _deck"
_deck_new = object.__new__
_deck_set_name, _deck_set_unseen, _deck_set_returned, _deck_set_hash = (
    Deck.__dict__[f].__set__ for f in _DECK_FIELDS
)


def _deck(name: str, unseen: tuple[str, ...], returned: tuple[str, ...]) -> Deck:
    """``Deck(name, unseen, returned)``, equal and alike, made in half the time: its
    slots set directly, not through the frozen dataclass's ``__init__`` (a turn makes
    three: a card drawn and put back, the direction card too)."""
    deck = _deck_new(Deck)
    _deck_set_name(deck, name)
    _deck_set_unseen(deck, unseen)
    _deck_set_returned(deck, returned)
    _deck_set_hash(deck, -1)
    return deck


_EVENT_FIELDS: Final = ("kind", "player", "src", "dst", "args")
assert tuple(f.name for f in fields(Event)) == _EVENT_FIELDS, "Event's fields changed: see _event"
_event_set_kind, _event_set_player, _event_set_src, _event_set_dst, _event_set_args = (
    Event.__dict__[f].__set__ for f in _EVENT_FIELDS
)
_NO_ARGS: Final[dict[str, object]] = {}


def _event(kind: str, player: int, src: Square | None, dst: Square | None) -> Event:
    """``Event(kind, player, src=src, dst=dst)``, equal and alike, made in a third of the
    time, as :func:`_deck` makes a deck: a fresh game builds thousands (a move from one
    square to another, a player sent by a card), each once."""
    event = _deck_new(Event)
    _event_set_kind(event, kind)
    _event_set_player(event, player)
    _event_set_src(event, src)
    _event_set_dst(event, dst)
    _event_set_args(event, _NO_ARGS)
    return event

_CHOOSING: Final = (Phase.MOVE, Phase.DECIDE)

_CHOICES_KEPT: Final = 2_000
"""Decisions' choices a game keeps (each made once): a card with the kinds of items
held, a battle with the kinds of items held. About 2,500 differ in a long 4-player run;
kept few, as every one is a few objects more for each full collection of the collector
(benchmarks/gc_pauses.py)."""

_EVENTS_KEPT: Final = 20_000
"""Recurring events a game keeps (each built once); about 4 MB at most."""

DEFAULT_ROUND_LIMIT: Final = 300
"""Rounds after which a game ends by default: a safety net, since by the rules a game can
go on for ever (diamonds are lost and found again, the key changes hands)."""


class CretanLabyrinthRules(Game):
    """The Cretan Labyrinth for 2-4 players: its options and board tables (making and
    reading a position is added by :class:`~companion.rules.cretan_labyrinth.CretanLabyrinth`).

    Options (see ``docs/rules/cretan-labyrinth.md``):

    * ``board``: path of a board file (TOML) instead of the default board;
    * ``decks``: path of a deck file (TOML) instead of the default decks;
    * ``distance-dice``: dice thrown for distance, 1 (default) or 2;
    * ``magic-keys``: 1 (the rules) or 4 (the seed's footnote: a key for everyone and no
      battles);
    * ``weapon-columns``: ``attack-defend`` (default) or ``defend-attack``: which of the
      weapon table's two "Will Defeat" columns holds for the attacker;
    * ``keeper-near-start``: ``free`` (default) or ``stop``: whether the keeper of the
      Magic Key who starts a move within two spaces of another player must stop at the
      first step and battle (docs/rules/cretan-labyrinth.md D29);
    * ``round-limit``: the number of rounds after which the game ends, the leaders
      (key first, then diamonds) sharing the win; 300 by default, 0 for no limit;
    * ``minotaur``: ``quest`` (default) or ``out``: a player the Minotaur (a ``killed``
      card) meets without defense ends the quest (back to the own gateway, diamonds
      lost) or leaves the game, the last player left winning (D30).

    :raises OptionError: for a bad option value.
    :raises BoardDataError: when a board or deck file is wrong (file, line, reason).
    """

    id = "cretan-labyrinth"
    title = "The Cretan Labyrinth"
    seed_files = ("004_fc892f1937d88e90.txt",)
    sharpness = 0.9
    presenter = "companion.ui.games.cretan_labyrinth:CretanLabyrinthPresenter"
    words = "companion.ui.events.cretan_labyrinth:CretanLabyrinthWords"
    min_players = 2
    max_players = 4
    default_players = 2
    options = (
        FileOption("board", "", "path of a board file (TOML) to use instead of the default board"),
        FileOption("decks", "", "path of a deck file (TOML) to use instead of the default decks"),
        Option("distance-dice", 1, "dice thrown for the distance of a move", (1, 2)),
        Option(
            "magic-keys",
            1,
            "Magic Keys in the palace: 1 (the rules) or 4 (the footnote: no battles)",
            (1, 4),
        ),
        Option(
            "weapon-columns",
            "attack-defend",
            "which 'Will Defeat' column of the weapon table holds for the attacker's item",
            ("attack-defend", "defend-attack"),
        ),
        Option(
            "keeper-near-start",
            "free",
            "a keeper starting a move within two spaces of a player: walks on (free) or "
            "must stop at the first step and battle (stop)",
            ("free", "stop"),
        ),
        Option(
            "round-limit",
            DEFAULT_ROUND_LIMIT,
            "end the game after this many rounds (0: no limit); the leaders share the win",
        ),
        Option(
            "minotaur",
            "quest",
            "a player the Minotaur meets without defense: back to the gateway, diamonds lost "
            "(quest) or out of the game (out)",
            ("quest", "out"),
        ),
    )

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        limit = self.option("round-limit")
        if not 0 <= limit <= 100_000:
            raise OptionError(f"option round-limit={limit!r}: must be 0 to 100000")
        self.round_limit: int = limit
        self.board: Board = load_board(str(self.option("board")))
        self.decks: Decks = load_decks(str(self.option("decks")))
        missing = [c for c in self.board.colour_names if c not in self.decks.colours]
        if missing:
            raise BoardDataError(
                self.board.path, None,
                f"the board has {', '.join(missing)} spaces but the decks file "
                f"{self.decks.path} has no such deck",
            )
        self.die = Dice(1, 6)
        self.distance_dice = Dice(int(self.option("distance-dice")), 6)
        self.single_key: bool = self.option("magic-keys") == 1
        self.columns: str = str(self.option("weapon-columns"))
        self.stop_near_start: bool = self.option("keeper-near-start") == "stop"
        self.minotaur_out: bool = self.option("minotaur") == "out"
        """D30's other reading: a ``killed`` card takes the player out of the game."""
        # Tables of the board, for speed (a move's stops walk the board at every step),
        # shared with every game of this process on an equal board (see tables.py).
        tables = self.tables = board_tables(self.board)
        self.gate_seat_of = tables.gate_seat_of
        self.reach_table = tables.reach_table
        self.gap_table = tables.gap_table
        self.longest_gap = tables.longest_gap
        self.widest = tables.widest
        self.node_rank = tables.node_rank
        self._moves = tables.moves
        self._barred: dict[int, tuple[frozenset[int], ...]] = {}
        self._homes: dict[int, tuple[int, ...]] = {}
        self._ways: dict[
            tuple[int, int], tuple[tuple[tuple[tuple[int, ...], ...], ...], tuple[tuple[bool, ...], ...]]
        ] = {}
        self._free: dict[int, WalkTable] = {}
        """Every walk per player count without a keeper near (see :meth:`prepare`)."""
        self._traces: dict[int, TraceTable] = {}
        """Their traces, along which the walks that meet the keeper are found."""
        self._met_walks: dict[tuple[Hashable, ...], Walk] = {}
        """Walks that meet the Magic Key's keeper, by where the players met stand: at
        most :data:`~.tables.MET_WALKS_KEPT`, then forgotten all at once."""
        self._landing: dict[int, tuple[tuple[tuple[Task, ...], ...], ...]] = {}
        self._names: dict[int, tuple[str, ...]] = {}
        """The players' names per player count (see ``CretanLabyrinthState.name``)."""
        self._flights: dict[tuple[int, int, int], tuple[Move, ...]] = {}
        """Pegasus's choices by (players, player, square): every square it may fly to."""
        self._go_index: dict[str | None, int] = {
            cid: GO_INDEX[card.go] for cid, card in self.decks.cards.items() if card.deck == DIRECTION_DECK
        }
        """Where each direction card sends a move, as an index of a walk table (none: any way)."""
        self._go_index[None] = GO_INDEX["any"]
        self._choices: dict[tuple[Hashable, ...], tuple[Move, ...]] = {}
        """The choices of decisions that recur, made once (at most :data:`_CHOICES_KEPT`)."""
        self._events: dict[tuple[Hashable, ...], Event] = {}
        """Events that recur (a throw of 4, a card drawn, a move a1-b3), built once."""
        self.deck_of: dict[str, str] = {cid: card.deck for cid, card in self.decks.cards.items()}
        """The deck (``direction`` or a colour) of every card id."""
        self._item_of: dict[str, str] = {cid: card.item for cid, card in self.decks.cards.items() if card.is_item}
        self._choosy: frozenset[str] = frozenset(
            cid for cid, card in self.decks.cards.items() if card.effect in ("pegasus", "swap")
        )
        """The cards that may wait for a choice of their player's (Pegasus, the unicorn)."""
        """The kind of tool or weapon each item card is."""
        self._draws: dict[tuple[int, str], Draw] = {}
        """The task of drawing a card of a colour, per player and colour: made once."""
        self._do_cards: dict[tuple[int, str], DoCard] = {}
        """The task of doing a card, per player and card id: made once (at most players
        x cards)."""

    def draw_task(self, p: int, colour: str) -> Draw:
        """The (interned) task of player ``p`` drawing a ``colour`` card."""
        found = self._draws.get((p, colour))
        if found is None:
            found = self._draws[p, colour] = Draw(p, colour)
        return found

    def do_card_task(self, p: int, card: str) -> DoCard:
        """The (interned) task of player ``p`` doing card ``card``."""
        found = self._do_cards.get((p, card))
        if found is None:
            found = self._do_cards[p, card] = DoCard(p, card)
        return found

    def move(self, kind: str, src: Square | None = None, dst: Square | None = None, label: str = "") -> Move:
        """The interned :class:`Move` with these fields."""
        key = (kind, src, dst, label)
        found = self._moves.get(key)
        if found is None:
            found = self._moves[key] = Move(kind, src, dst, (), label)
        return found

    def barred(self, players: int) -> tuple[frozenset[int], ...]:
        """Per player (of ``players``), the nodes it may not enter: the other players'
        gateways (rule 9)."""
        found = self._barred.get(players)
        if found is None:
            found = self._barred[players] = self.tables.barred(self.seats(players))
        return found

    def ways(
        self, players: int, p: int
    ) -> tuple[tuple[tuple[tuple[int, ...], ...], ...], tuple[tuple[bool, ...], ...]]:
        """For player ``p`` of ``players``: the nodes one step from each node in each
        direction that it may enter (``[node][direction]``), and whether another
        player's gateway was left out there (rule 9 ends the way out)."""
        found = self._ways.get((players, p))
        if found is None:
            found = self._ways[players, p] = self.tables.ways(self.barred(players)[p])
        return found

    def keep_walk(self, memo: tuple[Hashable, ...], found: Walk) -> Walk:
        """Keep a walk that meets the Magic Key's keeper (see CretanLabyrinthState._walk);
        returns ``found``. Such walks depend on where players stand: at most
        :data:`~.tables.MET_WALKS_KEPT` are kept, then the store is emptied and starts again."""
        kept = self._met_walks
        if len(kept) >= MET_WALKS_KEPT:
            kept.clear()
        kept[memo] = found
        return found

    def landing(self, players: int) -> tuple[tuple[tuple[Task, ...], ...], ...]:
        """For ``players`` players, ``[p][node]``: what landing there always queues for
        player ``p``: drawing a card of a coloured space's colour (rules 6 and 7), the
        check for the win at the own gateway, or nothing (see ``CretanLabyrinthState._land``)."""
        found = self._landing.get(players)
        if found is None:
            colours = self.board.colours
            found = self._landing[players] = tuple(
                tuple(
                    (self.draw_task(p, colour),) if colour is not None else (WINS[p],) if n == home else ()
                    for n, colour in enumerate(colours)
                )
                for p, home in enumerate(self.homes(players))
            )
        return found

    def homes(self, players: int) -> tuple[int, ...]:
        """The node of each player's own gateway, for ``players`` players."""
        found = self._homes.get(players)
        if found is None:
            gates = self.board.gateways
            found = self._homes[players] = tuple(gates[s] for s in self.seats(players))
        return found

    def seats(self, players: int) -> tuple[int, ...]:
        """The gateway seats (0-based) used by ``players`` players, in clockwise order.

        Two players on a board with four gateways take opposite gateways (1 and 3).
        """
        gates = len(self.board.gateways)
        if players == 2 and gates == 4:
            return (0, 2)
        return tuple(range(players))

    def check_players(self, players: int | None) -> int:
        players = super().check_players(players)
        gates = len(self.board.gateways)
        if players > gates:
            raise OptionError(f"the board {self.board.path} has {gates} gateways: at most {gates} players")
        return players

    def prepare(self, players: int) -> WalkTable:
        """Every walk of the board for ``players`` players (every player, square, direction
        card and distance thrown), found when the first new game for that many is made
        (:meth:`new_state`) or a move's stops are first asked for; returns them. They are
        the board's (:func:`~.tables.board_tables`): built once per process and board,
        in a few hundredths of a second, and shared by every game object on that board, so
        a fresh game plays as fast as one that has run for a while. Walks that meet the
        Magic Key's keeper depend on where players stand and are found in play."""
        found = self._free.get(players)
        if found is None:
            seats, longest = self.seats(players), 6 * self.distance_dice.count
            self._traces[players] = self.tables.traces(seats, longest)
            found = self._free[players] = self.tables.walks(seats, longest)
        return found
