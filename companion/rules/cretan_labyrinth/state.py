"""The rules of the Cretan Labyrinth (seed ``004_fc892f1937d88e90.txt``): the game's
options and tables (:class:`CretanLabyrinthRules`) and its positions
(:class:`CretanLabyrinthState`). See the package's docstring for a turn's shape."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable
from dataclasses import fields
from typing import Any, Final

from companion.rules.core import (
    EV_CARD_DRAWN,
    EV_EXTRA_THROW,
    EV_MOVED,
    EV_THROW_LOST,
    EV_THROWN,
    EV_TURN_PASSES,
    EV_WON,
    PASS,
    Action,
    Event,
    FileOption,
    Game,
    Move,
    Option,
    OptionError,
    Outcome,
    Phase,
    PieceAt,
    PieceZone,
    Square,
    State,
)
from companion.rules.cretan_data import (
    DIRECTIONS,
    ITEMS,
    Board,
    Card,
    Decks,
    battle_by_weapons,
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
    BATTLE_OFFERS,
    END_TURN,
    FIGHTS,
    LANDS,
    NONE_SHOWN,
    WINS,
    Battle,
    BattleOffer,
    DoCard,
    Draw,
    EndTurn,
    Fight,
    KeyOffer,
    Land,
    Task,
    Win,
    task_players,
)
from companion.rules.errors import BoardDataError
from companion.rules.throws import Deck, Dice, Implement, Throw

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


_EVENT_FIELDS: Final = ("kind", "player", "text", "src", "dst", "args")
assert tuple(f.name for f in fields(Event)) == _EVENT_FIELDS, "Event's fields changed: see _event"
_event_set_kind, _event_set_player, _event_set_text, _event_set_src, _event_set_dst, _event_set_args = (
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
    _event_set_text(event, "")
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
    """The Cretan Labyrinth for 2-4 players: the rules (reading a position is added by
    :class:`~companion.rules.cretan_labyrinth.CretanLabyrinth`).

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

    def new_state(self, players: int | None = None) -> CretanLabyrinthState:
        n = self.check_players(players)
        self.prepare(n)
        return CretanLabyrinthState(self, n)

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


class CretanLabyrinthState(State):
    """A Cretan Labyrinth position.

    Per player ``p`` (0-based, clockwise from gateway 1): ``pos[p]`` the node the piece
    stands on, ``origin[p]`` where its last move began (or the square the unicorn took
    it from out of turn: where a Rattle snake sends it back to), ``diamonds[p]`` the
    colours held, ``items[p]`` the tool/weapon cards kept, ``keys[p]`` whether it holds a Magic Key,
    ``lost[p]`` turns still to lose, ``out[p]`` whether it has left the game (option
    ``minotaur=out``: it then holds nothing and never acts again). ``decks`` the five
    decks (unseen and returned cards); ``queue`` the landing tasks still to resolve.
    """

    __slots__ = (
        "_stops",
        "battle",
        "decks",
        "diamonds",
        "direction",
        "distance",
        "extra",
        "fought",
        "items",
        "keys",
        "lost",
        "origin",
        "out",
        "pos",
        "queue",
        "reason",
        "rollers",
        "rolls",
        "stage",
        "turn",
        "turns",
        "winners",
    )

    game: CretanLabyrinthRules

    def __init__(self, game: CretanLabyrinthRules, players: int) -> None:
        super().__init__(game, players)
        board = game.board
        seats = game.seats(players)
        self.pos: list[int] = [board.gateways[s] for s in seats]
        self.origin: list[int] = self.pos[:]
        self.diamonds: list[set[str]] = [set() for _ in range(players)]
        self.items: list[list[str]] = [[] for _ in range(players)]
        self.keys: list[bool] = [False] * players
        self.lost: list[int] = [0] * players
        self.out: list[bool] = [False] * players
        self.decks: dict[str, Deck] = {
            name: Deck(name, cards) for name, cards in game.decks.contents.items()
        }
        self.stage = STAGE_START
        self.turn = 0
        self.rollers: list[int] = list(range(players))
        self.rolls: list[int] = []
        self.distance = 0
        self.direction: str | None = None
        self.queue: list[Task] = []
        self.battle: Battle | None = None
        self.extra = False
        self.fought = False
        """A battle was fought this turn: landing offers no second one."""
        self.turns = 0
        self.winners: tuple[int, ...] | None = None
        self.reason = ""
        self._stops: Walk | None = None
        """The stops of the move being chosen and its legal moves (MOVE stage), once
        found; never changed (copies and other states may share them)."""

    def _copy_into(self, other: State) -> None:
        assert isinstance(other, CretanLabyrinthState)
        other.pos = self.pos[:]
        other.origin = self.origin[:]
        other.diamonds = [set(d) for d in self.diamonds]
        other.items = [i[:] for i in self.items]
        other.keys = self.keys[:]
        other.lost = self.lost[:]
        other.out = self.out[:]
        other.decks = dict(self.decks)
        other.stage = self.stage
        other.turn = self.turn
        other.rollers = self.rollers[:]
        other.rolls = self.rolls[:]
        other.distance = self.distance
        other.direction = self.direction
        other.queue = self.queue[:]
        other.battle = self.battle
        other.extra = self.extra
        other.fought = self.fought
        other.turns = self.turns
        other.winners = self.winners
        other.reason = self.reason
        other._stops = self._stops

    def push(self, action: Action) -> list[Event]:
        """As :meth:`State.push`, with one look at the action's class."""
        self.history.append(action)
        if isinstance(action, Move):
            return self._push_move(action)
        return self._push_throw(action)

    # --- names -------------------------------------------------------------------

    def name(self, p: int) -> str:
        """The name of player ``p`` (``"Player 1"``)."""
        names = self.game._names.get(self.players)
        if names is None:
            players = self.players
            names = self.game._names[players] = tuple(self.game.player_name(q, players) for q in range(players))
        return names[p]

    def square(self, p: int) -> str:
        """The notation of the square (or ``palace``, ``gate1``) player ``p`` stands on."""
        return self.game.board.names[self.pos[p]]

    def own_gateway(self, p: int) -> int:
        """The node of player ``p``'s own gateway."""
        return self.game.homes(self.players)[p]

    def keeper(self) -> int | None:
        """The player holding the Magic Key (one-key game), else ``None``."""
        keys = self.keys
        if self.game.single_key and True in keys:
            return keys.index(True)
        return None

    def key_available(self, p: int) -> bool:
        """Whether the palace still has a Magic Key for player ``p``."""
        if self.keys[p]:
            return False
        return not any(self.keys) if self.game.single_key else True

    def _told(self, key: tuple[Hashable, ...], make: Callable[[], Event]) -> Event:
        """The event ``key`` names, built by ``make`` the first time (events recur and
        building their text is the slow part); at most :data:`_EVENTS_KEPT` are kept."""
        kept = self.game._events
        event = kept.get(key)
        if event is None:
            event = make()
            if len(kept) < _EVENTS_KEPT:
                kept[key] = event
        return event

    # --- search mode -----------------------------------------------------------------

    record_only_keys = ("reason",)
    """Why a game ended is said for the record; the winners are in the key."""

    def position_key(self) -> tuple[object, ...]:
        """Stage, player to act, the start throws, distance and direction card, every
        piece (square, where it came from, diamonds, tools and weapons, key, turns to
        lose, out of the game), the five decks, the pending tasks, the battle under way,
        the extra-turn and battle-fought flags, the turns played (they count towards the round limit)
        and the winners: the JSON form less ``reason`` (see :meth:`State.position_key`)."""
        battle = self.battle
        return (
            self.stage,
            self.turn,
            tuple(self.rollers),
            tuple(self.rolls),
            self.distance,
            self.direction,
            tuple(self.pos),
            tuple(self.origin),
            tuple(frozenset(d) for d in self.diamonds),
            tuple(tuple(i) for i in self.items),
            tuple(self.keys),
            tuple(self.lost),
            tuple(self.out),
            tuple(self.decks.values()),
            tuple(self.queue),
            battle,
            self.extra,
            self.fought,
            self.turns,
            self.winners,
        )

    def progress(self, player: int) -> float:
        """How far the player is in the quest (0.0 at the gateway with nothing, 1.0 only
        for a sole winner), in three legs: collecting the four diamonds (up to 0.4),
        then walking to the palace (up to 0.5 on arrival); with the Magic Key, collecting
        four diamonds again (0.55 to 0.85), then walking home to the own gateway (up to
        0.99; 0.0 once out of the game). A walk counts the squares to the goal
        (Manhattan, walls ignored) out of the board's longest such distance. Each tool or weapon held adds 0.01 (up to
        0.04), each turn to lose takes 0.02 off."""
        winners = self.winners
        if winners is not None and winners == (player,):
            return 1.0
        if self.out[player]:
            return 0.0
        game = self.game
        wanted = len(game.decks.colours)
        held = len(self.diamonds[player])
        here = self.pos[player]
        gaps = game.gap_table[here]
        if self.keys[player]:
            share = 0.55 + 0.3 * held / wanted
            if held >= wanted:
                share += 0.14 * (1.0 - gaps[self.own_gateway(player)] / game.longest_gap)
        else:
            share = 0.4 * held / wanted
            if held >= wanted:
                share += 0.1 * (1.0 - gaps[game.board.palace] / game.longest_gap)
        items = len(self.items[player])
        share += 0.01 * (items if items < 4 else 4) - 0.02 * self.lost[player]
        return 0.0 if share < 0.0 else (share if share < 0.99 else 0.99)

    def card(self, card_id: str) -> Card:
        """The card ``card_id`` of the deck file."""
        return self.game.decks.cards[card_id]

    # --- what is due -----------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        found = _STAGE_PHASE.get(self.stage)
        if found is not None:
            return found
        task = self.queue[0]
        kind = type(task)
        if kind is Draw:
            return Phase.THROW
        if kind is Fight:
            return Phase.THROW if self._battle_needs() in ("att-roll", "def-roll") else Phase.DECIDE
        if type(task) is DoCard and self.card(task.card).effect == "pegasus":
            return Phase.MOVE
        return Phase.DECIDE

    @property
    def current_player(self) -> int:
        stage = self.stage
        if stage == STAGE_START:
            return self.rollers[len(self.rolls)]
        if stage != STAGE_RESOLVE:
            return self.turn
        task = self.queue[0]
        if type(task) is Fight:
            need = self._battle_needs()
            assert self.battle is not None
            return self.battle.defender if need in ("def-item", "def-roll") else self.battle.attacker
        assert not isinstance(task, EndTurn)
        return task.player

    @property
    def throw_spec(self) -> Implement | None:
        stage = self.stage
        if stage == STAGE_DISTANCE:
            return self.game.distance_dice
        if stage == STAGE_DIRECTION:
            return self.decks[DIRECTION_DECK]
        if stage == STAGE_START:
            return self.game.die
        if stage == STAGE_RESOLVE:
            task = self.queue[0]
            if type(task) is Draw:
                return self.decks[task.colour]
            if type(task) is Fight and self._battle_needs() in ("att-roll", "def-roll"):
                return self.game.die
        return None

    @property
    def outcome(self) -> Outcome | None:
        if self.winners is None:
            return None
        return Outcome(self.winners, self.reason)

    def pieces(self) -> list[PieceAt]:
        """Every player's piece on its square; a player out of the game has left the
        board (zone ``OFF``, no square)."""
        out = self.out
        return [
            PieceAt(p, PieceZone.OFF) if out[p] else PieceAt(p, PieceZone.BOARD, self.square(p))
            for p in range(self.players)
        ]

    def in_game(self) -> list[int]:
        """The players still in the game (all but those the Minotaur took out, option
        ``minotaur=out``), clockwise from Player 1."""
        out = self.out
        return [p for p in range(self.players) if not out[p]]

    def may_share(self, square: Square) -> bool:
        """Any number of pieces may stand on one square (the seed forbids nothing)."""
        return True

    def cards_held(self) -> Counter[str]:
        """Every card not in a deck: kept items, the direction card in play, cards being done."""
        held: Counter[str] = Counter()
        for items in self.items:
            held.update(items)
        if self.direction is not None:
            held[self.direction] += 1
        for task in self.queue:
            if type(task) is DoCard:
                held[task.card] += 1
        return held

    # --- what the board does not show ------------------------------------------------

    def diamonds_held(self, p: int) -> list[str]:
        """The colours of the diamonds player ``p`` holds, in the deck file's order of
        colours (``["red", "blue"]``)."""
        return [c for c in self.game.decks.colours if c in self.diamonds[p]]

    def way(self) -> str:
        """Where the direction card in play sends the move: ``"north"``, ``"east"``,
        ``"south"``, ``"west"`` or ``"in any direction"``; ``""`` when no direction card
        is in play."""
        return self._way()

    def turns_to_lose(self, p: int) -> int:
        """How many of their turns player ``p`` still loses (0: none); read-only."""
        return self.lost[p]

    def fighters(self) -> tuple[int, int] | None:
        """The battle under way as ``(attacker, defender)`` (player indices), or ``None``.
        Key rule 5: 'In case of a tie the defender wins'."""
        if self.stage != STAGE_RESOLVE or self.battle is None:
            return None
        return self.battle.attacker, self.battle.defender

    def card_being_done(self) -> Card | None:
        """The card whose player must decide how it is done (where Pegasus flies,
        whether to avert a danger with a tool, whom to change places with), or ``None``
        when no card waits for a decision."""
        if self.stage != STAGE_RESOLVE or self.throw_spec is not None:
            return None
        task = self.queue[0]
        return self.card(task.card) if type(task) is DoCard else None

    # --- moves ----------------------------------------------------------------------

    def _legal(self) -> tuple[Move, ...]:
        g = self.game
        if self.stage == STAGE_MOVE:
            return self._walk()[1]
        task = self.queue[0]
        p = self.current_player
        kind = type(task)
        if kind is KeyOffer:
            return (g.move("take-key"), g.move("keep-diamonds"))
        # A decision's choices recur (the same card, kinds of items and players): made once.
        kinds = frozenset(map(g._item_of.__getitem__, self.items[p]))
        key: tuple[Hashable, ...]
        if kind is DoCard:
            assert isinstance(task, DoCard)
            effect = self.card(task.card).effect
            if effect == "pegasus":
                return self._choices(task, p)  # by where the player stands: see _flights
            targets = tuple(self._swap_targets(p)) if effect == "swap" else ()
            key = (task.card, kinds, self.players, targets)
        elif kind is Fight:
            key = (NONE_SHOWN, kinds)  # what the player may show
        else:
            assert isinstance(task, BattleOffer)
            key = (task.keeper, self.players)
        found = g._choices.get(key)
        if found is None:
            found = self._choices(task, p)
            if len(g._choices) < _CHOICES_KEPT:
                g._choices[key] = found
        return found

    def _choices(self, task: Task, p: int) -> tuple[Move, ...]:
        """The choices of player ``p`` for ``task`` (a decision but the Magic Key's offer)."""
        g = self.game
        if type(task) is BattleOffer:
            return (g.move("attack", label=self.name(task.keeper)), g.move("no-attack"))
        if type(task) is Fight:
            return tuple(g.move("show", label=item) for item in self.item_kinds(p))
        assert type(task) is DoCard
        card = self.card(task.card)
        if card.effect == "pegasus":
            # Every square but the own and others' gateways: the same from the same square.
            flight = (self.players, p, self.pos[p])
            flights = g._flights.get(flight)
            if flights is None:
                barred = g.barred(self.players)[p]
                flights = g._flights[flight] = tuple(
                    move for n, move in g.tables.fly_moves(self.pos[p]) if n not in barred
                )
            return flights
        helpers = [i for i in self.item_kinds(p) if i in card.helped_by]
        averts = [g.move("avert", label=i) for i in helpers]
        targets = self._swap_targets(p) if card.effect == "swap" else []
        if targets:
            return (*averts, *(g.move("swap", label=self.name(q)) for q in targets))
        return (*averts, g.move("face-danger"))

    def legal_moves(self) -> tuple[Move, ...]:
        """As :meth:`State.legal_moves`; a move's stops first, at once."""
        if self.stage == STAGE_MOVE:
            found = self._stops
            return (found if found is not None else self._walk())[1]
        return self._legal() if self.phase in _CHOOSING else ()

    def item_kinds(self, p: int) -> list[str]:
        """The kinds of tool/weapon player ``p`` holds, in the weapon table's order."""
        mine = self.items[p]
        if not mine:
            return []
        held = {self.card(c).item for c in mine}
        return [i for i in ITEMS if i in held]

    def passable(self, p: int, node: int) -> bool:
        """Whether player ``p`` may enter ``node``: not another player's gateway (rule 9)."""
        return node not in self.game.barred(self.players)[p]

    def stops(self) -> dict[int, int]:
        """Where the move of the player to move may stop: node -> the player it must
        battle there (-1 for none). A new dict on every call (the caller may change it).

        Rules 4-5 (blank/coloured spaces crossed), 8-9 (walls and other gateways end the
        move, with the option of going back to a coloured space crossed), 10 (passing
        through the own gateway), 11-13 (the palace is one square, may be stopped in),
        the key rules 1-2 (a player may stop on or within two spaces of the keeper even
        if the roll goes further) and 7 (a keeper passing within two spaces of another
        player must stop there and battle).
        """
        return dict(self._walk()[0])

    def _walk(self) -> Walk:
        """:meth:`stops` and the legal moves they make, found once per MOVE stage (the
        legal moves and the move played both need them) and kept; not to be changed.

        Every walk without a keeper near is the board's, looked up in the game's table of
        them (:meth:`CretanLabyrinthRules.prepare`): its stops without the key plus the
        blank squares crossed, which become stops within two spaces of another player
        holding the key. A walk of the keeper that comes within two spaces of another
        player (who stops it for a battle) is found and kept by where the players it can
        meet stand."""
        found = self._stops
        if found is not None:
            return found
        g = self.game
        p = self.turn
        pos = self.pos
        keys = self.keys
        table = g._free.get(self.players)
        if table is None:
            table = g.prepare(self.players)
        go = g._go_index[self.direction]
        found = table[p][pos[p]][go][self.distance]
        if True not in keys or not g.single_key:  # nobody holds the Magic Key
            if self.stage == STAGE_MOVE:
                self._stops = found
            return found
        keeper = keys.index(True)  # self.keeper()
        if keeper == p:
            # The keeper's walk is stopped for a battle as soon as it comes within two
            # spaces of another player; if no node it walks is that near anybody, it is
            # the board's walk. (Only players within reach matter: a step brings the
            # keeper at most as many spaces nearer as the node stepped onto is wide.)
            walked = found[3]
            near_to = g.tables.near
            out = self.out
            for q in range(self.players):
                if q != p and not out[q] and not near_to[pos[q]].isdisjoint(walked):
                    reach = g.reach_table[pos[p]]
                    near = self.distance * g.widest + 2
                    met = tuple(
                        q for q in range(self.players) if q != p and not out[q] and reach[pos[q]] <= near
                    )
                    if q not in met:
                        continue  # (out of reach: never so)
                    memo: tuple[Hashable, ...] = (
                        self.players, p, pos[p], go, self.distance, tuple(pos[q] for q in met), met
                    )
                    met_walk = g._met_walks.get(memo)
                    if met_walk is None:
                        met_walk = g.keep_walk(memo, self._walk_of(self._met_stops(go)))
                    found = met_walk
                    break
            if self.stage == STAGE_MOVE:
                self._stops = found
            return found
        blanks_crossed = found[2]
        # Mostly none is near the keeper: one set test then.
        if blanks_crossed and not g.tables.near[pos[keeper]].isdisjoint(blanks_crossed):
            keeper_reach = g.reach_table[pos[keeper]]
            extra = tuple(b for b in blanks_crossed if keeper_reach[b] <= 2)
            if extra:
                memo = (self.players, p, pos[p], go, self.distance, extra)
                with_extra = g._met_walks.get(memo)
                if with_extra is None:
                    stops = dict(found[0])
                    for b in extra:
                        stops[b] = -1
                    with_extra = g.keep_walk(memo, self._walk_of(stops))
                found = with_extra
        if self.stage == STAGE_MOVE:
            self._stops = found
        return found

    def _walk_of(
        self, stops: dict[int, int], blanks: tuple[int, ...] = (), visited: tuple[int, ...] = ()
    ) -> Walk:
        """The :data:`~.tables.Walk` of ``stops``: with the legal moves to them, in the
        board's order (``pass`` when none), and ``blanks`` and ``visited`` as given."""
        if not stops:
            return stops, _PASS_ONLY, blanks, visited
        g = self.game
        step = g.tables.step_moves[self.pos[self.turn]]
        return stops, tuple(map(step.__getitem__, sorted(stops, key=g.node_rank.__getitem__))), blanks, visited

    def _met_stops(self, go: int) -> dict[int, int]:
        """The stops of the walk of the Magic Key's keeper (the player to move), who must
        stop and battle as soon as they come within two spaces of another player (key
        rule 7): the board's walk (its :data:`~.tables.Trace` for each direction ``go``
        walks) cut short there, as :meth:`_find_stops` finds it step by step."""
        game = self.game
        p = self.turn
        pos = self.pos
        start = pos[p]
        distance = self.distance
        reach = game.reach_table
        near = distance * game.widest + 2
        start_reach = reach[start]
        # Clockwise from the keeper: the first of them to come within range is the attacker
        # (a player out of the game is nobody to meet).
        out = self.out
        others = [
            (q, reach[pos[q]])
            for q in ((p + i) % self.players for i in range(1, self.players))
            if start_reach[pos[q]] <= near and not out[q]
        ]
        stop_near_start = game.stop_near_start
        traces = self.game._traces[self.players][p][start]
        result: dict[int, int] = {}
        path = [start] * (distance + 1)  # the node walked at each step of the way there
        for visits, _ in (traces if go == len(traces) else (traces[go],)):
            skip = distance  # visits deeper than this are not walked
            for n, depth, crossed, ends, _goes_on in visits:
                if depth > skip:
                    continue  # past the throw, or on a way cut short for a battle
                skip = distance
                if depth:
                    last = path[depth - 1]
                    met = -1
                    for q, r in others:
                        if r[n] <= 2 and (r[last] > 2 or (stop_near_start and last == start)):
                            met = q
                            break
                    if met >= 0:
                        result[n] = met
                        skip = depth
                        continue
                path[depth] = n
                if depth == distance or ends:
                    if n != start:
                        result.setdefault(n, -1)
                    for c in crossed:
                        result.setdefault(c, -1)
        result.pop(start, None)
        return result

    def _find_stops(
        self, blanks: list[int] | None = None, visited: list[int] | None = None, free: bool = False
    ) -> dict[int, int]:
        """The walk of :meth:`stops`, step by step (what the board's tables hold and
        :meth:`_met_stops` finds along them; the tests check them against it). ``free``: as
        if nobody held the Magic Key, the blank squares crossed (other than the start)
        added to ``blanks``, every node walked (the start included) to ``visited``."""
        game = self.game
        board = game.board
        p = self.turn
        card = self.card(self.direction) if self.direction else None
        dirs = range(4) if card is None or card.go == "any" else (DIRECTIONS.index(card.go),)
        keeper = None if free else self.keeper()
        reach = game.reach_table
        # Within two spaces of the keeper a move may stop anywhere (key rules 1-2).
        near_keeper = reach[self.pos[keeper]] if keeper is not None and keeper != p else None
        # Clockwise from the keeper: the first of them to come within range is the attacker
        # (only those the walk can come near: see _walk).
        near = self.distance * game.widest + 2
        start_reach = reach[self.pos[p]]
        others = (
            [
                (q, reach[self.pos[q]])
                for q in ((p + i) % self.players for i in range(1, self.players))
                if start_reach[self.pos[q]] <= near and not self.out[q]
            ]
            if keeper == p else []
        )
        allowed, cut = game.ways(self.players, p)
        colours = board.colours
        palace = board.palace
        gate_seat = game.gate_seat_of
        start = self.pos[p]
        stop_near_start = game.stop_near_start
        result: dict[int, int] = {}

        def stoppable(n: int) -> bool:
            if colours[n] is not None or n == palace:
                return True
            if gate_seat[n] >= 0:
                return True  # own or unused gateway (others' cannot be entered)
            if blanks is not None:
                blanks.append(n)
            return near_keeper is not None and near_keeper[n] <= 2

        def end(n: int, crossed: tuple[int, ...]) -> None:
            if n != start:
                result.setdefault(n, -1)
            for c in crossed:
                result.setdefault(c, -1)

        def met(s: int, n: int) -> int:
            """'If the keeper of the Magic Key passes within two spaces of another player
            then [he] must stop and do battle ... as soon as [he] comes within range.'
            The player met stepping from ``n`` to ``s``, or -1."""
            for q, r in others:
                if r[s] <= 2 and (r[n] > 2 or (stop_near_start and n == start)):
                    return q
            return -1

        def walk(n: int, left: int, d: int, crossed: tuple[int, ...]) -> None:
            while True:
                if visited is not None:
                    visited.append(n)
                if left == 0:
                    end(n, crossed)
                    return
                nexts = allowed[n][d]
                if cut[n][d] or not nexts:
                    end(n, crossed)  # a wall or another's gateway ends this way out
                if len(nexts) == 1:
                    # one way on: walk on here rather than in a call
                    s = nexts[0]
                    if others:
                        q = met(s, n)
                        if q >= 0:
                            result[s] = q
                            return
                    if n != start and stoppable(n):
                        crossed = (*crossed, n)
                    n = s
                    left -= 1
                    continue
                for s in nexts:
                    if others:
                        q = met(s, n)
                        if q >= 0:
                            result[s] = q
                            continue
                    walk(s, left - 1, d, (*crossed, n) if n != start and stoppable(n) else crossed)  # noqa: F821 (the del below)
                return

        for d in dirs:
            walk(start, self.distance, d, ())
        # walk refers to itself through its closure: without this, every walk found
        # left a cycle (the functions, their cells, the lists) for the collector, 400,000
        # objects for the walks of a 4-player game.
        del walk
        result.pop(start, None)
        return result

    def _swap_targets(self, p: int) -> list[int]:
        """Whom the unicorn lets player ``p`` change places with: nobody on a gateway
        (D11), nobody out of the game (D30)."""
        gate_seat = self.game.gate_seat_of
        if gate_seat[self.pos[p]] >= 0:
            return []
        out = self.out
        return [q for q in range(self.players) if q != p and gate_seat[self.pos[q]] < 0 and not out[q]]

    # --- throws ---------------------------------------------------------------------

    def _take(self, deck_name: str, card: str) -> None:
        decks = self.decks
        deck = decks[deck_name]
        unseen = deck.unseen
        if unseen:
            i = unseen.index(card)
            decks[deck_name] = _deck(deck_name, unseen[:i] + unseen[i + 1 :], deck.returned)
        else:
            decks[deck_name] = _deck(deck_name, (), deck.returned[1:])

    def _return(self, card: str) -> None:
        """'Other cards are returned to the bottom of the deck.'"""
        name = self.game.deck_of[card]
        decks = self.decks
        deck = decks[name]
        decks[name] = _deck(name, deck.unseen, (*deck.returned, card))

    def _push_throw(self, throw: Throw) -> list[Event]:
        stage = self.stage
        if stage == STAGE_DISTANCE:
            self.distance = sum(throw.values)
            self.stage = STAGE_DIRECTION
            p, d = self.turn, self.distance
            said = self.game._events.get((EV_THROWN, p, d))  # _told, inlined: every turn says it
            if said is None:
                said = self._told((EV_THROWN, p, d), lambda: Event(EV_THROWN, p, args={"value": d}))
            return [said]
        if stage == STAGE_DIRECTION:
            card = throw.faces[0]  # the card drawn (a throw of the direction deck)
            self._take(DIRECTION_DECK, card)
            self.direction = card
            self.stage = STAGE_MOVE
            self._stops = None
            p = self.turn
            said = self.game._events.get((EV_CARD_DRAWN, p, card))  # _told, inlined
            if said is None:
                said = self._told(
                    (EV_CARD_DRAWN, p, card),
                    lambda: Event(EV_CARD_DRAWN, p, args={"card": card, "deck": DIRECTION_DECK}),
                )
            return [said]
        events: list[Event] = []
        if stage == STAGE_START:
            p = self.current_player
            value = throw.values[0]
            self.rolls.append(value)
            events.append(Event(EV_START_ROLL, p, args={"value": value}))
            if len(self.rolls) == len(self.rollers):
                best = max(self.rolls)
                tied = [q for q, v in zip(self.rollers, self.rolls, strict=True) if v == best]
                if len(tied) == 1:
                    # 'Each player rolls one die and the highest roll goes first.'
                    self.turn = tied[0]
                    self.stage = STAGE_DISTANCE
                    self.turns = 1
                    events.append(Event(EV_TURN_PASSES, self.turn, args={"first": True}))
                else:
                    events.append(Event(EV_START_ROLL, None, args={"players": tuple(tied), "value": best}))
                    self.rollers = tied
                    self.rolls = []
            return events
        task = self.queue[0]
        if type(task) is Draw:
            p, colour = task.player, task.colour
            card = throw.faces[0]  # the card drawn (a throw of that colour's deck)
            self._take(colour, card)
            self.queue[0] = self.game.do_card_task(p, card)
            said = self.game._events.get((EV_CARD_DRAWN, p, colour, card))  # _told, inlined
            if said is None:
                said = self._told(
                    (EV_CARD_DRAWN, p, colour, card),
                    lambda: Event(EV_CARD_DRAWN, p, args={"card": card, "deck": colour}),
                )
            events.append(said)
        else:
            battle = self.battle
            assert battle is not None
            if battle.needs() == "att-roll":
                self.battle = Battle(  # replace(battle, attacker_roll=...), without its look at the fields
                    battle.attacker, battle.defender, battle.forced, battle.attacker_shows,
                    battle.defender_shows, throw.values[0], battle.defender_roll,
                )
                p = battle.attacker
            else:
                self.battle = Battle(
                    battle.attacker, battle.defender, battle.forced, battle.attacker_shows,
                    battle.defender_shows, battle.attacker_roll, throw.values[0],
                )
                p = battle.defender
            events.append(Event(EV_THROWN, p, args={"value": throw.values[0], "battle": True}))
        self._run(events)
        return events

    # --- moves and decisions ----------------------------------------------------------------

    def _push_move(self, move: Move) -> list[Event]:
        events: list[Event] = []
        board = self.game.board
        if self.stage == STAGE_MOVE:
            p = self.turn
            if move.kind == "pass":
                events.append(self._told(
                    (EV_THROW_LOST, p, self.direction),
                    lambda: Event(EV_THROW_LOST, p, args={"way": self._go()}),
                ))
                self.queue = [END_TURN]
                self._stops = None
            else:
                assert isinstance(move.dst, str)
                dst = board.index.get(move.dst)  # a move names squares as the board does
                if dst is None:
                    dst = board.node(move.dst)
                found = self._stops
                battle_with = (found if found is not None else self._walk())[0][dst]
                self._stops = None
                pos = self.pos
                self.origin[p] = pos[p]
                pos[p] = dst
                src, to = move.src, move.dst
                kept = self.game._events
                said = kept.get((EV_MOVED, p, src, to))  # _told, inlined
                if said is None:
                    said = _event(EV_MOVED, p, src, to)
                    if len(kept) < _EVENTS_KEPT:
                        kept[EV_MOVED, p, src, to] = said
                events.append(said)
                if battle_with >= 0:
                    events.append(Event(EV_BATTLE, battle_with, args={"what": "must-fight", "other": p}))
                    self.queue = [FIGHTS[battle_with][p][True], LANDS[p], END_TURN]
                else:
                    # The landing first, as _run would do it first from [LANDS[p], END_TURN].
                    queue = self.queue = [END_TURN]
                    self.stage = STAGE_RESOLVE
                    self._land(p, events)
                    if len(queue) == 1:  # nothing to resolve: as _run would end the turn
                        self._end_turn(events)
                        return events
            self.stage = STAGE_RESOLVE
            self._run(events)
            return events
        task = self.queue[0]
        p = self.current_player
        if type(task) is KeyOffer:
            self.queue.pop(0)
            if move.kind == "take-key":
                # 'Once there you may obtain a Magic Key by handing in one of each (4)
                # colored diamonds.'
                self.diamonds[p].clear()
                self.keys[p] = True
                events.append(self._told(
                    (EV_KEY, "hands-in", p),
                    lambda: Event(EV_KEY, p, args={"what": "hands-in"}),
                ))
            else:
                events.append(self._told(
                    (EV_KEY, "keeps", p), lambda: Event(EV_KEY, p, args={"what": "keeps"})
                ))
        elif type(task) is BattleOffer:
            self.queue.pop(0)
            q = task.keeper
            if move.kind == "attack":
                events.append(self._told(
                    (EV_BATTLE, "attacks", p, q),
                    lambda: Event(EV_BATTLE, p, args={"what": "attacks", "other": q}),
                ))
                self.queue.insert(0, FIGHTS[p][q][False])
            else:
                events.append(self._told(
                    (EV_BATTLE, "no-attack", p, q),
                    lambda: Event(EV_BATTLE, p, args={"what": "no-attack", "other": q}),
                ))
        elif type(task) is Fight:
            battle = self.battle
            assert battle is not None
            if battle.needs() == "att-item":
                self.battle = Battle(
                    battle.attacker, battle.defender, battle.forced, move.label,
                    battle.defender_shows, battle.attacker_roll, battle.defender_roll,
                )
            else:
                self.battle = Battle(
                    battle.attacker, battle.defender, battle.forced, battle.attacker_shows,
                    move.label, battle.attacker_roll, battle.defender_roll,
                )
            label = move.label
            events.append(self._told(
                (EV_BATTLE, "shows", p, label),
                lambda: Event(EV_BATTLE, p, args={"what": "shows", "item": label}),
            ))
        else:
            assert type(task) is DoCard
            self.queue.pop(0)
            self._do_card(p, task.card, move, events)
        self._run(events)
        return events

    def _way(self) -> str:
        go = self._go()
        return "in any direction" if go == "any" else go

    def _go(self) -> str:
        """Where the direction card in play sends the move: a direction, ``"any"``, or
        ``""`` when no direction card is in play."""
        return "" if self.direction is None else self.card(self.direction).go

    # --- resolving a landing ------------------------------------------------------------

    def _run(self, events: list[Event]) -> None:
        """Resolve pending tasks until one needs a throw or a decision, or the turn ends."""
        queue = self.queue  # changed in place, or replaced only as the turn or game ends
        while queue and self.stage == STAGE_RESOLVE:
            task = queue[0]
            kind = type(task)
            if kind is EndTurn:
                del queue[0]
                self._end_turn(events)
                queue = self.queue
            elif kind is Land:
                del queue[0]
                self._land(task.player, events)  # type: ignore[union-attr]
            elif kind is Draw:
                assert isinstance(task, Draw)
                deck = self.decks[task.colour]
                if deck.unseen or deck.returned:
                    return
                del queue[0]
                events.append(Event(EV_CARD_DRAWN, task.player, args={"deck": task.colour}))
            elif kind is DoCard:
                assert isinstance(task, DoCard)
                p = task.player
                # _card_waits, at once when no item is held and the card is no choice
                if (self.items[p] or task.card in self.game._choosy) and self._card_waits(p, task.card):
                    return
                del queue[0]
                self._do_card(p, task.card, None, events)
            elif kind is Win:
                del queue[0]
                self._check_win(task.player, events)  # type: ignore[union-attr]
                queue = self.queue
            elif kind is Fight:
                assert isinstance(task, Fight)
                if self.battle is None:
                    self._start_battle(task)
                if self._battle_needs():
                    return
                del queue[0]
                self._settle_battle(events)
            else:  # key-offer, battle-offer: a decision
                return

    def _land(self, p: int, events: list[Event]) -> None:
        """What landing on a node does, queued in order: the keeper's key or a battle,
        the coloured card, the Magic Key in the palace, the win at the own gateway."""
        game = self.game
        n = self.pos[p]
        landing = game._landing.get(self.players)
        if landing is None:
            landing = game.landing(self.players)
        # Rules 6 and 7: ending on a coloured space, also against one's will, draws a
        # card; the own gateway: the win checked.
        tasks: tuple[Task, ...] = landing[p][n]
        keys = self.keys
        keeper = keys.index(True) if True in keys and game.single_key else None  # self.keeper()
        if keeper is not None and keeper != p:
            if self.pos[keeper] == n:
                # 'If a player lands on the same space as the player with the Magic Key
                # ... that player then is the keeper of the Magic Key and takes another turn.'
                self.keys[keeper] = False
                self.keys[p] = True
                events.append(Event(EV_KEY, p, dst=game.board.names[n], args={"what": "lands-on", "other": keeper}))
                if p == self.turn:
                    self.extra = True
            elif self.game.reach_table[n][self.pos[keeper]] <= 2 and p == self.turn and not self.fought:
                # 'If a player lands within two spaces ... of the player with the Magic Key
                # ... then that player may do battle with the keeper'
                tasks = (BATTLE_OFFERS[p][keeper], *tasks)
        if n == game.board.palace and len(self.diamonds[p]) == len(game.decks.colours) and self.key_available(p):
            tasks = (*tasks, KeyOffer(p))  # the palace is neither coloured nor a gateway
        if tasks:
            self.queue[0:0] = tasks

    def _check_win(self, p: int, events: list[Event]) -> None:
        """'Once there you win the game if you possess one of each (4) color of diamond
        and the Magic Key.'"""
        if (
            self.pos[p] == self.own_gateway(p)
            and self.keys[p]
            and len(self.diamonds[p]) == len(self.game.decks.colours)
        ):
            self.winners = (p,)
            self.reason = "back at the own gateway with four diamonds and the Magic Key"
            self.stage = STAGE_OVER
            self.queue = []
            self.battle = None
            events.append(Event(EV_WON, p, args={"what": "escapes"}))

    def _card_waits(self, p: int, card_id: str) -> bool:
        """Whether doing card ``card_id`` needs player ``p``'s decision first."""
        card = self.game.decks.cards[card_id]
        effect = card.effect
        if effect == "pegasus" or (effect == "swap" and self._swap_targets(p)):
            return True
        items = self.items[p]
        if not items:
            return False
        item_of = self.game._item_of
        helped_by = card.helped_by
        return any(item_of[c] in helped_by for c in items)

    def _start_battle(self, task: Fight) -> None:
        att, dfn = task.attacker, task.defender
        self.battle = Battle(
            att, dfn, task.forced,
            None if self.items[att] else NONE_SHOWN,
            None if self.items[dfn] else NONE_SHOWN,
        )

    def _battle_needs(self) -> str:
        """What the battle waits for: ``att-item``, ``def-item``, ``att-roll``, ``def-roll`` or ``""``."""
        assert self.battle is not None
        return self.battle.needs()

    def _settle_battle(self, events: list[Event]) -> None:
        """Key rules 3-6: the weapon table, dice when neither has a weapon, ties to the
        defender, another turn for a victorious attacker (not when the keeper had to stop)."""
        b = self.battle
        assert b is not None
        self.battle = None
        self.fought = True
        att, dfn = b.attacker, b.defender
        a_item, d_item = str(b.attacker_shows), str(b.defender_shows)
        if a_item == NONE_SHOWN and d_item == NONE_SHOWN:
            won = b.attacker_roll > b.defender_roll
        elif d_item == NONE_SHOWN:
            won = True
        elif a_item == NONE_SHOWN:
            won = False
        else:
            won = battle_by_weapons(a_item, d_item, self.game.columns)
        if not won:
            events.append(self._told(
                (EV_BATTLE, "defends", dfn, att),
                lambda: Event(EV_BATTLE, dfn, args={"what": "defends", "other": att}),
            ))
            return
        self.keys[dfn] = False
        self.keys[att] = True
        events.append(self._told(
            (EV_KEY, "defeats", att, dfn),
            lambda: Event(EV_KEY, att, args={"what": "defeats", "other": dfn}),
        ))
        if not b.forced and att == self.turn:
            self.extra = True
        self.queue.insert(0, WINS[att])

    def _do_card(self, p: int, card_id: str, choice: Move | None, events: list[Event]) -> None:
        """Do what card ``card_id`` says for player ``p`` (``choice``: the decision taken)."""
        game = self.game
        card = game.decks.cards[card_id]
        if choice is not None and choice.kind == "avert":
            # Rule 15: '... the danger may be circumvented by returning both cards to the
            # bottom of their corresponding decks.'
            item_card = next(c for c in self.items[p] if self.card(c).item == choice.label)
            self.items[p].remove(item_card)
            self._return(card_id)
            self._return(item_card)
            label = choice.label
            events.append(self._told(
                (EV_AVERTED, p, label),
                lambda: Event(EV_AVERTED, p, args={"item": label}),
            ))
            return
        effect = card.effect
        if effect == "item":
            # Rule 6: 'If the card is a tool or weapon then the card may be kept.'
            self.items[p].append(card_id)
            events.append(self._told(
                (EV_ITEM, p, card.item),
                lambda: Event(EV_ITEM, p, args={"item": card.item}),
            ))
            return
        colour = card.deck
        decks = self.decks
        deck = decks[colour]
        decks[colour] = _deck(colour, deck.unseen, (*deck.returned, card_id))  # _return
        if effect == "diamond":
            # Rule 14: '... only one diamond of each color may be held at one time.'
            held = self.diamonds[p]
            had = colour in held
            said = game._events.get((EV_DIAMOND, p, colour, had))  # _told, inlined
            if said is None:
                said = self._told(
                    (EV_DIAMOND, p, colour, had),
                    lambda: Event(EV_DIAMOND, p, args={"colour": colour, "had": had}),
                )
            held.add(colour)
            events.append(said)
        elif effect == "lose-diamonds":
            lost = tuple(c for c in self.game.decks.colours if c in self.diamonds[p])
            self.diamonds[p].clear()
            events.append(self._told(
                (EV_DANGER, "loses", p, lost),
                lambda: Event(EV_DANGER, p, args={"what": "loses", "colours": lost}),
            ))
        elif effect == "lose-turns":
            self.lost[p] += card.turns
            turns = card.turns
            events.append(self._told(
                (EV_LOST_TURNS, p, turns),
                lambda: Event(EV_LOST_TURNS, p, args={"count": turns}),
            ))
        elif effect in ("toward-goal", "away-from-goal"):
            self._send(p, self._goal_walk(p, card.spaces, effect == "toward-goal"), events)
        elif effect == "nearest-gateway":
            self._send(p, self.nearest_gateway(p), events)
        elif effect == "killed" and game.minotaur_out:
            self._leave(p, events)
        elif effect == "killed":
            self.diamonds[p].clear()
            events.append(self._told(
                (EV_DANGER, "killed", p),
                lambda: Event(EV_DANGER, p, args={"what": "killed"}),
            ))
            self._send(p, self.own_gateway(p), events)
        elif effect == "go-back":
            # Rule 9: only the nearest-gateway card may put a player into another
            # player's gateway; back where they came from, if that was one, they stay.
            back = self.origin[p]
            self._send(p, back if self.passable(p, back) else self.pos[p], events)
        elif effect == "pegasus":
            assert choice is not None and isinstance(choice.dst, str)
            self.origin[p] = self.pos[p]
            self._send(p, game.board.node(choice.dst), events)
        elif effect == "swap":
            if choice is None or choice.kind != "swap":
                events.append(self._told(
                    (EV_SENT, "nobody", p), lambda: Event(EV_SENT, p, args={"what": "nobody"})
                ))
                return
            q = next(q for q in range(self.players) if self.name(q) == choice.label)
            for r in (p, q):
                if r != self.turn:
                    # A player moved when it is not their turn made no move of their
                    # own: they "came from" the square the unicorn took them from (D11).
                    self.origin[r] = self.pos[r]
            self.pos[p], self.pos[q] = self.pos[q], self.pos[p]
            events.append(self._told(
                (EV_SENT, "swap", p, q), lambda: Event(EV_SENT, p, args={"what": "swap", "other": q})
            ))
            # 'In this case if the two players are taking the same color card the player
            # who's turn it is draws first.'
            first, second = (p, q) if p == self.turn or q != self.turn else (q, p)
            self.queue[0:0] = [LANDS[first], LANDS[second]]
        # "nothing": no effect

    def _send(self, p: int, node: int, events: list[Event]) -> None:
        """Move player ``p`` to ``node`` by a card; the landing is resolved (rule 7)."""
        if node == self.pos[p]:
            here = self.square(p)
            events.append(self._told(
                (EV_SENT, "stays", p, here), lambda: Event(EV_SENT, p, src=here, args={"what": "stays"})
            ))
            return
        names = self.game.board.names
        src = names[self.pos[p]]
        self.pos[p] = node
        dst = names[node]
        kept = self.game._events
        said = kept.get((EV_SENT, p, src, dst))  # _told, inlined
        if said is None:
            said = _event(EV_SENT, p, src, dst)
            if len(kept) < _EVENTS_KEPT:
                kept[EV_SENT, p, src, dst] = said
        events.append(said)
        self.queue.insert(0, LANDS[p])

    def _leave(self, p: int, events: list[Event]) -> None:
        """Option ``minotaur=out`` (D30): 'If you meet him without defense, you can kiss
        your life good-by.' Player ``p`` leaves the game and the board: the diamonds are
        lost, the tools and weapons go back to the bottom of their decks (in the order
        held), a Magic Key held goes back to the palace, turns still to lose are void,
        and nothing left of their turn or landing is done. The last player left wins."""
        self.diamonds[p].clear()
        for card in self.items[p]:
            self._return(card)
        self.items[p] = []
        had_key = self.keys[p]
        self.keys[p] = False
        self.lost[p] = 0
        self.out[p] = True
        if p == self.turn:
            self.extra = False
        # In place: _run walks this very list.
        self.queue[:] = [t for t in self.queue if type(t) is EndTurn or p not in task_players(t)]
        events.append(self._told(
            (EV_OUT, p), lambda: Event(EV_OUT, p)
        ))
        if had_key:
            events.append(self._told(
                (EV_KEY, "back", p), lambda: Event(EV_KEY, p, args={"what": "back"})
            ))
        left = self.in_game()
        if len(left) == 1:
            last = left[0]
            self.winners = (last,)
            self.reason = "the last player left in the labyrinth"
            self.stage = STAGE_OVER
            self.queue = []
            self.battle = None
            events.append(Event(EV_WON, last, args={"what": "last-left"}))

    def goal(self, p: int) -> int:
        """'Your first goal is to reach the temple' -- then 'your original gateway'."""
        return self.own_gateway(p) if self.keys[p] else self.game.board.palace

    def _goal_walk(self, p: int, spaces: int, toward: bool) -> int:
        """Where ``spaces`` steps toward (or away from) the goal lead: each step to the
        neighbouring square nearest to (farthest from) the goal, north, east, south, west
        first on a tie; the walk stops early at a wall or when no step gets nearer (farther)."""
        game = self.game
        succ = game.board.succ
        goal = self.goal(p)
        gap_to_goal = game.gap_table[goal]  # board.gap(n, goal) by n: a gap is symmetric
        barred = game.barred(self.players)[p]  # not self.passable
        n = self.pos[p]
        for _ in range(spaces):
            here = gap_to_goal[n]
            if toward and here == 0:
                break
            best, best_gap = -1, here
            for d in range(4):
                for s in succ[n][d]:
                    if s in barred:
                        continue
                    g = gap_to_goal[s]
                    if (toward and g < best_gap) or (not toward and g > best_gap):
                        best, best_gap = s, g
            if best < 0:
                break
            n = best
        return n

    def nearest_gateway(self, p: int) -> int:
        """The gateway fewest squares away (Manhattan); on a tie the own gateway, then
        the next clockwise."""
        board = self.game.board
        seat = self.game.seats(self.players)[p]
        k = len(board.gateways)
        order = [board.gateways[(seat + i) % k] for i in range(k)]
        return min(order, key=self.game.gap_table[self.pos[p]].__getitem__)  # board.gap

    def _skipped(self, q: int) -> Event:
        """'Player 2 loses a turn' (a lost turn skipped), built once."""
        return self._told((EV_LOST_TURNS, q), lambda: Event(EV_LOST_TURNS, q, args={"what": "skipped"}))

    def _end_turn(self, events: list[Event]) -> None:
        """The direction card goes back; an extra turn, or the next player clockwise."""
        direction = self.direction
        if direction is not None:
            decks = self.decks
            deck = decks[DIRECTION_DECK]
            decks[DIRECTION_DECK] = _deck(DIRECTION_DECK, deck.unseen, (*deck.returned, direction))  # _return
            self.direction = None
        self.distance = 0
        self.queue = []
        self.fought = False
        p = self.turn
        game = self.game
        limit = game.round_limit
        if limit and self.turns >= limit * self.players:
            score = {q: (self.keys[q], len(self.diamonds[q])) for q in self.in_game()}
            best = max(score.values())
            self.winners = tuple(q for q in score if score[q] == best)
            self.reason = f"the round limit ({limit}) is reached; the leaders share the win"
            self.stage = STAGE_OVER
            events.append(Event(EV_ROUND_LIMIT, None, args={"players": self.winners, "rounds": limit}))
            return
        self.turns += 1
        self.stage = STAGE_DISTANCE
        lost = self.lost
        if self.extra:
            self.extra = False
            if not lost[p]:
                events.append(self._told(
                    (EV_EXTRA_THROW, p), lambda: Event(EV_EXTRA_THROW, p)
                ))
                return
        # The next player clockwise, skipping those out of the game (at least two are in
        # while play goes on, so this ends) and taking a lost turn from each who has one.
        out = self.out
        q = (p + 1) % self.players
        while out[q] or lost[q]:
            if not out[q]:
                lost[q] -= 1
                events.append(self._skipped(q))
            q = (q + 1) % self.players
        self.turn = q
        said = game._events.get((EV_TURN_PASSES, q))  # _told, inlined: every turn says it
        if said is None:
            said = self._told((EV_TURN_PASSES, q), lambda: Event(EV_TURN_PASSES, q))
        events.append(said)

    # --- JSON -----------------------------------------------------------------------

    def _body(self) -> dict[str, Any]:
        board = self.game.board
        return {
            "stage": self.stage,
            "turn": self.turn + 1,
            "start_rollers": [q + 1 for q in self.rollers],
            "start_rolls": self.rolls[:],
            "distance": self.distance or None,
            "direction": self.direction,
            "pieces": [
                {
                    "square": board.names[self.pos[p]],
                    "came_from": board.names[self.origin[p]],
                    "diamonds": [c for c in self.game.decks.colours if c in self.diamonds[p]],
                    "items": self.items[p][:],
                    "key": self.keys[p],
                    "lost_turns": self.lost[p],
                    "out": self.out[p],
                }
                for p in range(self.players)
            ],
            "decks": {
                name: {"unseen": list(deck.unseen), "returned": list(deck.returned)}
                for name, deck in self.decks.items()
            },
            "pending": [t.to_json() for t in self.queue],
            "battle": None if self.battle is None else self.battle.to_json(),
            "extra_turn": self.extra,
            "fought": self.fought,
            "turns": self.turns,
            "winners": None if self.winners is None else [q + 1 for q in self.winners],
            "reason": self.reason,
        }


