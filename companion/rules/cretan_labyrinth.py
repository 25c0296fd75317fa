"""The Cretan Labyrinth (seed ``004_fc892f1937d88e90.txt``).

2-4 players start at their own gateway on the sides of a square board, collect one
diamond of each of four colours, hand them in for the Magic Key in the palace at the
centre, and carry four diamonds and the key back to their own gateway. Direction cards
say where a piece may go, a die how far; coloured "do" cards bring creatures, tools,
weapons and diamonds.

The board and the decks are data (:mod:`companion.rules.cretan_data`): the packaged
defaults, or a user's own files through the options ``board`` and ``decks``. Every
decision the seed leaves open is written in ``docs/rules/cretan-labyrinth.md``.

A turn (seed, "Starting the Game" rule 1: "The first player first rolls the dice to see
how far to go and then takes a direction card to see which direction to go"):

1. THROW the distance die (:class:`~companion.rules.throws.Dice`);
2. THROW = draw a direction card (a :class:`~companion.rules.throws.Deck`);
3. MOVE: choose where the move stops (``f3-f6``), or ``pass`` when the piece cannot move;
4. the landing is resolved: the key taken from its keeper or a battle offered, the card
   of a coloured space drawn (a THROW of that colour's deck) and done, the Magic Key
   offered in the palace, the win at the own gateway. Decisions on the way
   (avert a danger, attack, show a weapon, take the key, fly on Pegasus, change places
   with the unicorn) are :attr:`~companion.rules.core.Phase.DECIDE` or MOVE choices;
5. the direction card goes to the bottom of its deck; the next player clockwise, or the
   same player again for an extra turn.

Before the first turn every player throws one die; the highest throw starts, tied
players throw again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Mapping
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
    Event,
    Game,
    Move,
    Option,
    OptionError,
    Outcome,
    Phase,
    PieceAt,
    PieceZone,
    PositionError,
    Square,
    State,
    require,
)
from companion.rules.cretan_data import (
    DIRECTIONS,
    ITEM_NAMES,
    ITEMS,
    Board,
    Card,
    Decks,
    battle_by_weapons,
    load_board,
    load_decks,
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

# Stages of a turn (the JSON "stage").
_START = "start"
_DISTANCE = "distance"
_DIRECTION = "direction"
_MOVE = "move"
_RESOLVE = "resolve"
_OVER = "over"
_STAGES: Final = (_START, _DISTANCE, _DIRECTION, _MOVE, _RESOLVE, _OVER)

# Pending tasks of the resolve stage (tuples; the JSON "pending" list, players 1-based).
_T_LAND = "land"
_T_DRAW = "draw"
_T_CARD = "card"
_T_KEY = "key-offer"
_T_ATTACK = "battle-offer"
_T_BATTLE = "battle"
_T_WIN = "win"
_T_END = "end-turn"

_PASS_ONLY: Final = (PASS,)

_END: Final = (_T_END,)
_LAND: Final = tuple((_T_LAND, p) for p in range(4))
"""The tasks queued by every move, per player (at most 4: ``max_players``)."""

_WALKS_KEPT: Final = 40_000
"""The board's walks (stops and legal moves of one move) a game keeps: all of them for
four players on the default board (about 15,500, some 10 MB)."""

_MET_WALKS_KEPT: Final = 4_000
"""Walks that meet the Magic Key's keeper a game keeps (they depend on where players
stand, and recur less)."""

_EVENTS_KEPT: Final = 20_000
"""Recurring events a game keeps (each built once); about 4 MB at most."""

DEFAULT_ROUND_LIMIT: Final = 300
"""Rounds after which a game ends by default: a safety net, since by the rules a game can
go on for ever (diamonds are lost and found again, the key changes hands)."""

NONE_SHOWN: Final = "none"
"""What a player without tools or weapons shows in a battle."""

Task = tuple[Any, ...]

class _BoardTables:
    """What a board's geometry decides, computed once per board and shared by every game
    on it (a companion starts a new game object for every game): tables of distances,
    gateways and the order of squares, and the walks found so far (the stops of a move
    depend on the board, the direction, the distance and where a keeper stands)."""

    def __init__(self, board: Board) -> None:
        nodes = range(len(board.names))
        self.gate_seat_of: tuple[int, ...] = tuple(board.gate_seat(n) for n in nodes)
        """The seat (0-based) whose gateway node ``n`` is, or -1."""
        self.reach_table: tuple[tuple[int, ...], ...] = tuple(
            tuple(board.reach(a, b) for b in nodes) for a in nodes
        )
        """``reach_table[a][b]`` is ``board.reach(a, b)`` (squares, diagonal steps counted)."""
        self.gap_table: tuple[tuple[int, ...], ...] = tuple(
            tuple(board.gap(a, b) for b in nodes) for a in nodes
        )
        """``gap_table[a][b]`` is ``board.gap(a, b)`` (squares, walls ignored)."""
        self.longest_gap: int = max(1, max(max(row) for row in self.gap_table))
        self.widest: int = max(max(r.c1 - r.c0, r.r1 - r.r0) + 1 for r in board.rects)
        """The most squares a node spans across (2: the palace and the gateways)."""
        ranked = sorted(nodes, key=_node_order(board))
        self.node_rank: tuple[int, ...] = tuple(ranked.index(n) for n in nodes)
        """The place of each node in the order legal moves list their squares."""
        self.barred: dict[int, tuple[frozenset[int], ...]] = {}
        self.homes: dict[int, tuple[int, ...]] = {}
        self.ways: dict[
            tuple[int, int], tuple[tuple[tuple[tuple[int, ...], ...], ...], tuple[tuple[bool, ...], ...]]
        ] = {}
        self.walks: dict[tuple[Hashable, ...], tuple[dict[int, int], tuple[Move, ...]]] = {}
        """Stops and moves of walks already found (see CretanLabyrinthState._walk): at
        most :data:`_WALKS_KEPT`, then forgotten all at once."""
        self.met_walks: dict[tuple[Hashable, ...], tuple[dict[int, int], tuple[Move, ...]]] = {}
        """Walks that meet the Magic Key's keeper: by where the players met stand."""
        self.blanks: dict[tuple[Hashable, ...], tuple[int, ...]] = {}
        """The blank squares a walk crosses, for a keeper within two spaces of them."""
        self.flights: dict[tuple[int, int, int], tuple[Move, ...]] = {}
        """Pegasus's choices by (players, player, square): every square it may fly to."""


_BOARDS: dict[tuple[Hashable, ...], _BoardTables] = {}
_BOARDS_KEPT: Final = 8
"""Boards whose tables are kept (the default and a player's own ones)."""


def _board_tables(board: Board) -> _BoardTables:
    """The tables of ``board``, shared by every game on a board with the same squares."""
    key = (board.names, board.rects, board.colours, board.succ, board.gateways, board.palace)
    tables = _BOARDS.get(key)
    if tables is None:
        if len(_BOARDS) >= _BOARDS_KEPT:
            _BOARDS.clear()
        tables = _BOARDS[key] = _BoardTables(board)
    return tables


class CretanLabyrinth(Game):
    """The Cretan Labyrinth for 2-4 players.

    Options (see ``docs/rules/cretan-labyrinth.md``):

    * ``board``: path of a board file (TOML) instead of the default board;
    * ``decks``: path of a deck file (TOML) instead of the default decks;
    * ``distance-dice``: dice thrown for distance, 1 (default) or 2;
    * ``magic-keys``: 1 (the rules) or 4 (the seed's footnote: a key for everyone and no
      battles);
    * ``weapon-columns``: ``attack-defend`` (default) or ``defend-attack``: which of the
      weapon table's two "Will Defeat" columns holds for the attacker;
    * ``round-limit``: the number of rounds after which the game ends, the leaders
      (key first, then diamonds) sharing the win; 300 by default, 0 for no limit.

    :raises OptionError: for a bad option value.
    :raises BoardDataError: when a board or deck file is wrong (file, line, reason).
    """

    id = "cretan-labyrinth"
    title = "The Cretan Labyrinth"
    seed_files = ("004_fc892f1937d88e90.txt",)
    min_players = 2
    max_players = 4
    default_players = 2
    options = (
        Option("board", "", "path of a board file (TOML) to use instead of the default board"),
        Option("decks", "", "path of a deck file (TOML) to use instead of the default decks"),
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
            "round-limit",
            DEFAULT_ROUND_LIMIT,
            "end the game after this many rounds (0: no limit); the leaders share the win",
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
        self._moves: dict[tuple[str, Square | None, Square | None, str], Move] = {}
        # Tables of the board, for speed (a move's stops walk the board at every step),
        # made once per board and shared by every game on it (see _BoardTables).
        tables = _board_tables(self.board)
        self.gate_seat_of = tables.gate_seat_of
        self.reach_table = tables.reach_table
        self.gap_table = tables.gap_table
        self.longest_gap = tables.longest_gap
        self.widest = tables.widest
        self.node_rank = tables.node_rank
        self._barred = tables.barred
        self._homes = tables.homes
        self._ways = tables.ways
        self._walks = tables.walks
        self._met_walks = tables.met_walks
        self._blanks = tables.blanks
        self._flights = tables.flights
        self._events: dict[tuple[Hashable, ...], Event] = {}
        """Events that recur (a throw of 4, a card drawn, a move a1-b3), built once."""

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
            seats = self.seats(players)
            gates = self.board.gateways
            found = tuple(
                frozenset(gates[s] for i, s in enumerate(seats) if i != p) for p in range(players)
            )
            self._barred[players] = found
        return found

    def ways(
        self, players: int, p: int
    ) -> tuple[tuple[tuple[tuple[int, ...], ...], ...], tuple[tuple[bool, ...], ...]]:
        """For player ``p`` of ``players``: the nodes one step from each node in each
        direction that it may enter (``[node][direction]``), and whether another
        player's gateway was left out there (rule 9 ends the way out)."""
        found = self._ways.get((players, p))
        if found is None:
            barred = self.barred(players)[p]
            allowed = tuple(
                tuple(tuple(s for s in way if s not in barred) for way in node) for node in self.board.succ
            )
            cut = tuple(
                tuple(len(a) < len(way) for a, way in zip(node_allowed, node, strict=True))
                for node_allowed, node in zip(allowed, self.board.succ, strict=True)
            )
            found = self._ways[players, p] = (allowed, cut)
        return found

    def keep_walk(
        self, memo: tuple[Hashable, ...], found: tuple[dict[int, int], tuple[Move, ...]],
        rare: bool = False,
    ) -> tuple[dict[int, int], tuple[Move, ...]]:
        """Keep a walk found (see CretanLabyrinthState._walk); returns ``found``. The
        board's walks (at most 5 directions x 6 distances per square and player) are
        kept up to :data:`_WALKS_KEPT`; walks that meet a keeper (``rare``), which
        depend on where players stand, up to :data:`_MET_WALKS_KEPT`. A full store is
        emptied and starts again."""
        kept = self._met_walks if rare else self._walks
        if len(kept) >= (_MET_WALKS_KEPT if rare else _WALKS_KEPT):
            kept.clear()
            if not rare:
                self._blanks.clear()
        kept[memo] = found
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
        return CretanLabyrinthState(self, n)

    def _state_from_body(self, data: Mapping[str, Any], players: int) -> CretanLabyrinthState:
        return _read_state(self, data, players)


class CretanLabyrinthState(State):
    """A Cretan Labyrinth position.

    Per player ``p`` (0-based, clockwise from gateway 1): ``pos[p]`` the node the piece
    stands on, ``origin[p]`` where its last move began (or the square the unicorn took
    it from out of turn: where a Rattle snake sends it back to), ``diamonds[p]`` the
    colours held, ``items[p]`` the tool/weapon cards kept, ``keys[p]`` whether it holds a Magic Key,
    ``lost[p]`` turns still to lose. ``decks`` the five decks (unseen and returned cards);
    ``queue`` the landing tasks still to resolve.
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

    game: CretanLabyrinth

    def __init__(self, game: CretanLabyrinth, players: int) -> None:
        super().__init__(game, players)
        board = game.board
        seats = game.seats(players)
        self.pos: list[int] = [board.gateways[s] for s in seats]
        self.origin: list[int] = self.pos[:]
        self.diamonds: list[set[str]] = [set() for _ in range(players)]
        self.items: list[list[str]] = [[] for _ in range(players)]
        self.keys: list[bool] = [False] * players
        self.lost: list[int] = [0] * players
        self.decks: dict[str, Deck] = {
            name: Deck(name, cards) for name, cards in game.decks.contents.items()
        }
        self.stage = _START
        self.turn = 0
        self.rollers: list[int] = list(range(players))
        self.rolls: list[int] = []
        self.distance = 0
        self.direction: str | None = None
        self.queue: list[Task] = []
        self.battle: dict[str, Any] | None = None
        self.extra = False
        self.fought = False
        """A battle was fought this turn: landing offers no second one."""
        self.turns = 0
        self.winners: tuple[int, ...] | None = None
        self.reason = ""
        self._stops: tuple[dict[int, int], tuple[Move, ...]] | None = None
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
        other.decks = dict(self.decks)
        other.stage = self.stage
        other.turn = self.turn
        other.rollers = self.rollers[:]
        other.rolls = self.rolls[:]
        other.distance = self.distance
        other.direction = self.direction
        other.queue = self.queue[:]
        other.battle = None if self.battle is None else dict(self.battle)
        other.extra = self.extra
        other.fought = self.fought
        other.turns = self.turns
        other.winners = self.winners
        other.reason = self.reason
        other._stops = self._stops

    # --- names -------------------------------------------------------------------

    def name(self, p: int) -> str:
        """The name of player ``p`` (``"Player 1"``)."""
        return self.game.player_name(p, self.players)

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
        lose), the five decks, the pending tasks, the battle under way, the extra-turn
        and battle-fought flags, the turns played (they count towards the round limit)
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
            tuple(self.decks.values()),
            tuple(self.queue),
            None if battle is None else tuple(sorted(battle.items())),
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
        0.99). A walk counts the squares to the goal (Manhattan, walls ignored) out of
        the board's longest such distance. Each tool or weapon held adds 0.01 (up to
        0.04), each turn to lose takes 0.02 off."""
        winners = self.winners
        if winners is not None and winners == (player,):
            return 1.0
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
        stage = self.stage
        if stage == _OVER:
            return Phase.OVER
        if stage in (_START, _DISTANCE, _DIRECTION):
            return Phase.THROW
        if stage == _MOVE:
            return Phase.MOVE
        task = self.queue[0]
        kind = task[0]
        if kind == _T_DRAW:
            return Phase.THROW
        if kind == _T_BATTLE:
            return Phase.THROW if self._battle_needs() in ("att-roll", "def-roll") else Phase.DECIDE
        if kind == _T_CARD and self.card(task[2]).effect == "pegasus":
            return Phase.MOVE
        return Phase.DECIDE

    @property
    def current_player(self) -> int:
        stage = self.stage
        if stage == _START:
            return self.rollers[len(self.rolls)]
        if stage != _RESOLVE:
            return self.turn
        task = self.queue[0]
        if task[0] == _T_BATTLE:
            need = self._battle_needs()
            assert self.battle is not None
            return int(self.battle["defender"] if need in ("def-item", "def-roll") else self.battle["attacker"])
        return int(task[1])

    @property
    def throw_spec(self) -> Implement | None:
        stage = self.stage
        if stage == _START:
            return self.game.die
        if stage == _DISTANCE:
            return self.game.distance_dice
        if stage == _DIRECTION:
            return self.decks[DIRECTION_DECK]
        if stage == _RESOLVE:
            task = self.queue[0]
            if task[0] == _T_DRAW:
                return self.decks[task[2]]
            if task[0] == _T_BATTLE and self._battle_needs() in ("att-roll", "def-roll"):
                return self.game.die
        return None

    @property
    def outcome(self) -> Outcome | None:
        if self.winners is None:
            return None
        return Outcome(self.winners, self.reason)

    def pieces(self) -> list[PieceAt]:
        return [PieceAt(p, PieceZone.BOARD, self.square(p)) for p in range(self.players)]

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
            if task[0] == _T_CARD:
                held[task[2]] += 1
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
        if self.stage != _RESOLVE or self.battle is None:
            return None
        return int(self.battle["attacker"]), int(self.battle["defender"])

    def card_being_done(self) -> Card | None:
        """The card whose player must decide how it is done (where Pegasus flies,
        whether to avert a danger with a tool, whom to change places with), or ``None``
        when no card waits for a decision."""
        if self.stage != _RESOLVE or self.throw_spec is not None:
            return None
        task = self.queue[0]
        return self.card(str(task[2])) if task[0] == _T_CARD else None

    # --- moves ----------------------------------------------------------------------

    def _legal(self) -> tuple[Move, ...]:
        g = self.game
        board = g.board
        if self.stage == _MOVE:
            return self._walk()[1]
        task = self.queue[0]
        kind = task[0]
        p = self.current_player
        if kind == _T_KEY:
            return (g.move("take-key"), g.move("keep-diamonds"))
        if kind == _T_ATTACK:
            return (g.move("attack", label=self.name(task[2])), g.move("no-attack"))
        if kind == _T_BATTLE:
            return tuple(g.move("show", label=item) for item in self.item_kinds(p))
        assert kind == _T_CARD
        card = self.card(task[2])
        if card.effect == "pegasus":
            # Every square but the own and others' gateways: the same from the same square.
            flight = (self.players, p, self.pos[p])
            flights = g._flights.get(flight)
            if flights is None:
                src = board.names[self.pos[p]]
                flights = g._flights[flight] = tuple(
                    g.move("fly", src, board.names[n])
                    for n in sorted(self._pegasus_targets(p), key=g.node_rank.__getitem__)
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
        if self.stage == _MOVE:
            return self._walk()[1]
        return super().legal_moves()

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

    def _walk(self) -> tuple[dict[int, int], tuple[Move, ...]]:
        """:meth:`stops` and the legal moves they make, found once per MOVE stage (the
        legal moves and the move played both need them) and kept; not to be changed.

        The game keeps what it has found, for walks recur (the same start, card and
        distance), in a game and in a search. A walk that nobody holding the key can cut
        short is kept as its stops without the key (the board's alone) plus the blank
        squares crossed: those become stops within two spaces of another player holding
        the key. A walk of the keeper, which the other players can stop for a battle, is
        kept by where everybody stands (when somebody is near enough to be met)."""
        found = self._stops
        if found is not None:
            return found
        g = self.game
        p = self.turn
        pos = self.pos
        keeper = self.keeper()
        go = g.decks.cards[self.direction].go if self.direction else "any"
        memo: tuple[Hashable, ...] = (self.players, p, pos[p], go, self.distance)
        walks = g._walks
        if keeper == p:
            # The keeper's walk can be stopped for a battle only by players it can come
            # within two spaces of: a step brings it at most as many spaces nearer as the
            # node stepped onto is wide (2 for the palace and the gateways).
            reach = g.reach_table[pos[p]]
            near = self.distance * g.widest + 2
            met = tuple(q for q in range(self.players) if q != p and reach[pos[q]] <= near)
            if met:
                memo = (*memo, tuple(pos[q] for q in met), met)
                found = g._met_walks.get(memo)
                if found is None:
                    found = g.keep_walk(memo, self._stops_and_moves(self._find_stops()), rare=True)
                if self.stage == _MOVE:
                    self._stops = found
                return found
        found = walks.get(memo)
        if found is None:
            blanks: list[int] = []
            stops = self._find_stops(blanks, free=True)
            found = self._stops_and_moves(stops)
            g.keep_walk(memo, found)
            g._blanks[memo] = tuple(b for b in dict.fromkeys(blanks) if b not in stops)
        if keeper is not None and keeper != p:
            blanks_crossed = g._blanks.get(memo, ())
            if blanks_crossed:
                keeper_reach = g.reach_table[pos[keeper]]
                extra = tuple(b for b in blanks_crossed if keeper_reach[b] <= 2)
                if extra:
                    memo = (*memo, extra)
                    with_extra = g._met_walks.get(memo)
                    if with_extra is None:
                        stops = dict(found[0])
                        for b in extra:
                            stops[b] = -1
                        with_extra = g.keep_walk(memo, self._stops_and_moves(stops), rare=True)
                    found = with_extra
        if self.stage == _MOVE:
            self._stops = found
        return found

    def _stops_and_moves(self, stops: dict[int, int]) -> tuple[dict[int, int], tuple[Move, ...]]:
        """``stops`` and the legal moves to them, in the board's order (``pass`` when none)."""
        g = self.game
        names = g.board.names
        src = names[self.pos[self.turn]]
        moves = (
            tuple(g.move("move", src, names[n]) for n in sorted(stops, key=g.node_rank.__getitem__))
            if stops else _PASS_ONLY
        )
        return stops, moves

    def _find_stops(self, blanks: list[int] | None = None, free: bool = False) -> dict[int, int]:
        """The walk of :meth:`stops`. ``free``: as if nobody held the Magic Key, the blank
        squares crossed (other than the start) added to ``blanks``."""
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
                if start_reach[self.pos[q]] <= near
            ]
            if keeper == p else []
        )
        allowed, cut = game.ways(self.players, p)
        colours = board.colours
        palace = board.palace
        gate_seat = game.gate_seat_of
        start = self.pos[p]
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
                if r[s] <= 2 and r[n] > 2:
                    return q
            return -1

        def walk(n: int, left: int, d: int, crossed: tuple[int, ...]) -> None:
            while True:
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
                    walk(s, left - 1, d, (*crossed, n) if n != start and stoppable(n) else crossed)
                return

        for d in dirs:
            walk(start, self.distance, d, ())
        result.pop(start, None)
        return result

    def _pegasus_targets(self, p: int) -> list[int]:
        barred = self.game.barred(self.players)[p]
        here = self.pos[p]
        return [n for n in range(len(self.game.board.names)) if n != here and n not in barred]

    def _swap_targets(self, p: int) -> list[int]:
        gate_seat = self.game.gate_seat_of
        if gate_seat[self.pos[p]] >= 0:
            return []
        return [q for q in range(self.players) if q != p and gate_seat[self.pos[q]] < 0]

    # --- throws ---------------------------------------------------------------------

    def _take(self, deck_name: str, card: str) -> None:
        deck = self.decks[deck_name]
        unseen = deck.unseen
        if unseen:
            i = unseen.index(card)
            self.decks[deck_name] = Deck(deck_name, unseen[:i] + unseen[i + 1 :], deck.returned)
        else:
            self.decks[deck_name] = Deck(deck_name, (), deck.returned[1:])

    def _return(self, card: str) -> None:
        """'Other cards are returned to the bottom of the deck.'"""
        name = self.game.decks.cards[card].deck
        deck = self.decks[name]
        self.decks[name] = Deck(name, deck.unseen, (*deck.returned, card))

    def _push_throw(self, throw: Throw) -> list[Event]:
        stage = self.stage
        if stage == _DISTANCE:
            self.distance = sum(throw.values)
            self.stage = _DIRECTION
            p, d = self.turn, self.distance
            said = self.game._events.get((EV_THROWN, p, d))  # _told, inlined: every turn says it
            if said is None:
                said = self._told((EV_THROWN, p, d), lambda: Event(EV_THROWN, p, f"{self.name(p)} throws {d}"))
            return [said]
        if stage == _DIRECTION:
            card = throw.faces[0]  # the card drawn (a throw of the direction deck)
            self._take(DIRECTION_DECK, card)
            self.direction = card
            self.stage = _MOVE
            self._stops = None
            p = self.turn
            said = self.game._events.get((EV_CARD_DRAWN, p, card))  # _told, inlined
            if said is None:
                said = self._told(
                    (EV_CARD_DRAWN, p, card),
                    lambda: Event(EV_CARD_DRAWN, p, f"{self.name(p)} draws: {self.card(card).text}"),
                )
            return [said]
        events: list[Event] = []
        if stage == _START:
            p = self.current_player
            value = throw.values[0]
            self.rolls.append(value)
            events.append(Event(EV_START_ROLL, p, f"{self.name(p)} throws {value} for the start"))
            if len(self.rolls) == len(self.rollers):
                best = max(self.rolls)
                tied = [q for q, v in zip(self.rollers, self.rolls, strict=True) if v == best]
                if len(tied) == 1:
                    # 'Each player rolls one die and the highest roll goes first.'
                    self.turn = tied[0]
                    self.stage = _DISTANCE
                    self.turns = 1
                    events.append(Event(EV_TURN_PASSES, self.turn, f"{self.name(self.turn)} throws highest and starts"))
                else:
                    names = ", ".join(self.name(q) for q in tied)
                    events.append(Event(EV_START_ROLL, None, f"{names} tie with {best} and throw again"))
                    self.rollers = tied
                    self.rolls = []
            return events
        task = self.queue[0]
        if task[0] == _T_DRAW:
            p, colour = task[1], task[2]
            card = throw.faces[0]  # the card drawn (a throw of that colour's deck)
            self._take(colour, card)
            self.queue[0] = (_T_CARD, p, card)
            events.append(self._told(
                (EV_CARD_DRAWN, p, colour, card),
                lambda: Event(EV_CARD_DRAWN, p, f"{self.name(p)} draws a {colour} card: {self.card(card).text}"),
            ))
        else:
            assert self.battle is not None
            who = "attacker" if self._battle_needs() == "att-roll" else "defender"
            self.battle[f"{who}_roll"] = throw.values[0]
            p = int(self.battle[who])
            events.append(Event(EV_THROWN, p, f"{self.name(p)} throws {throw.values[0]} in the battle"))
        self._run(events)
        return events

    # --- moves and decisions ----------------------------------------------------------------

    def _push_move(self, move: Move) -> list[Event]:
        events: list[Event] = []
        board = self.game.board
        if self.stage == _MOVE:
            p = self.turn
            if move.kind == "pass":
                events.append(self._told(
                    (EV_THROW_LOST, p, self.direction),
                    lambda: Event(EV_THROW_LOST, p, f"{self.name(p)} cannot move {self._way()}"),
                ))
                self.queue = [(_T_END,)]
                self._stops = None
            else:
                assert isinstance(move.dst, str)
                dst = board.index.get(move.dst)  # a move names squares as the board does
                if dst is None:
                    dst = board.node(move.dst)
                battle_with = self._walk()[0][dst]
                self._stops = None
                self.origin[p] = self.pos[p]
                self.pos[p] = dst
                events.append(self._told(
                    (EV_MOVED, p, move.src, move.dst),
                    lambda: Event(EV_MOVED, p, f"{self.name(p)} moves {move.src} to {move.dst}", move.src, move.dst),
                ))
                self.queue = [_LAND[p], _END]
                if battle_with >= 0:
                    events.append(Event(
                        EV_BATTLE, battle_with,
                        f"{self.name(p)} with the Magic Key comes within two spaces of "
                        f"{self.name(battle_with)} and must stop and fight",
                    ))
                    self.queue.insert(0, (_T_BATTLE, battle_with, p, True))
            self.stage = _RESOLVE
            self._run(events)
            return events
        task = self.queue[0]
        kind = task[0]
        p = self.current_player
        if kind == _T_KEY:
            self.queue.pop(0)
            if move.kind == "take-key":
                # 'Once there you may obtain a Magic Key by handing in one of each (4)
                # colored diamonds.'
                self.diamonds[p].clear()
                self.keys[p] = True
                events.append(Event(EV_KEY, p, f"{self.name(p)} hands in four diamonds and takes the Magic Key"))
            else:
                events.append(Event(EV_KEY, p, f"{self.name(p)} keeps the diamonds"))
        elif kind == _T_ATTACK:
            self.queue.pop(0)
            q = int(task[2])
            if move.kind == "attack":
                events.append(Event(EV_BATTLE, p, f"{self.name(p)} attacks {self.name(q)} for the Magic Key"))
                self.queue.insert(0, (_T_BATTLE, p, q, False))
            else:
                events.append(Event(EV_BATTLE, p, f"{self.name(p)} does not attack {self.name(q)}"))
        elif kind == _T_BATTLE:
            assert self.battle is not None
            who = "attacker" if self._battle_needs() == "att-item" else "defender"
            self.battle[f"{who}_shows"] = move.label
            events.append(Event(EV_BATTLE, p, f"{self.name(p)} shows the {ITEM_NAMES[move.label]}"))
        else:
            assert kind == _T_CARD
            self.queue.pop(0)
            self._do_card(p, str(task[2]), move, events)
        self._run(events)
        return events

    def _way(self) -> str:
        if self.direction is None:
            return ""
        go = self.card(self.direction).go
        return "in any direction" if go == "any" else go

    # --- resolving a landing ------------------------------------------------------------

    def _run(self, events: list[Event]) -> None:
        """Resolve pending tasks until one needs a throw or a decision, or the turn ends."""
        while self.queue and self.stage == _RESOLVE:
            task = self.queue[0]
            kind = task[0]
            if kind == _T_LAND:
                self.queue.pop(0)
                self._land(task[1], events)
            elif kind == _T_WIN:
                self.queue.pop(0)
                self._check_win(int(task[1]), events)
            elif kind == _T_END:
                self.queue.pop(0)
                self._end_turn(events)
            elif kind == _T_DRAW:
                if self.decks[task[2]].unseen or self.decks[task[2]].returned:
                    return
                self.queue.pop(0)
                events.append(Event(EV_CARD_DRAWN, int(task[1]), f"the {task[2]} deck is empty: no card"))
            elif kind == _T_CARD:
                p = task[1]
                if self._card_waits(p, task[2]):
                    return
                self.queue.pop(0)
                self._do_card(p, task[2], None, events)
            elif kind == _T_BATTLE:
                if self.battle is None:
                    self._start_battle(task)
                if self._battle_needs():
                    return
                self.queue.pop(0)
                self._settle_battle(events)
            else:  # key-offer, battle-offer: a decision
                return

    def _land(self, p: int, events: list[Event]) -> None:
        """What landing on a node does, queued in order: the keeper's key or a battle,
        the coloured card, the Magic Key in the palace, the win at the own gateway."""
        board = self.game.board
        n = self.pos[p]
        tasks: list[Task] = []
        keeper = self.keeper()
        if keeper is not None and keeper != p:
            if self.pos[keeper] == n:
                # 'If a player lands on the same space as the player with the Magic Key
                # ... that player then is the keeper of the Magic Key and takes another turn.'
                self.keys[keeper] = False
                self.keys[p] = True
                events.append(Event(EV_KEY, p, f"{self.name(p)} lands on {self.name(keeper)} and takes the Magic Key", dst=board.names[n]))
                if p == self.turn:
                    self.extra = True
            elif self.game.reach_table[n][self.pos[keeper]] <= 2 and p == self.turn and not self.fought:
                # 'If a player lands within two spaces ... of the player with the Magic Key
                # ... then that player may do battle with the keeper'
                tasks.append((_T_ATTACK, p, keeper))
        colour = board.colours[n]
        if colour is not None:
            # Rules 6 and 7: ending on a coloured space, also against one's will, draws a card.
            tasks.append((_T_DRAW, p, colour))
        if n == board.palace and len(self.diamonds[p]) == len(self.game.decks.colours) and self.key_available(p):
            tasks.append((_T_KEY, p))
        if n == self.own_gateway(p):
            tasks.append((_T_WIN, p))
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
            self.stage = _OVER
            self.queue = []
            self.battle = None
            events.append(Event(EV_WON, p, f"{self.name(p)} escapes the labyrinth and wins!"))

    def _card_waits(self, p: int, card_id: str) -> bool:
        """Whether doing card ``card_id`` needs player ``p``'s decision first."""
        card = self.card(card_id)
        if card.effect == "pegasus" or (card.effect == "swap" and self._swap_targets(p)):
            return True
        return bool(self.items[p]) and any(i in card.helped_by for i in self.item_kinds(p))

    def _start_battle(self, task: Task) -> None:
        att, dfn = int(task[1]), int(task[2])
        self.battle = {
            "attacker": att,
            "defender": dfn,
            "forced": bool(task[3]),
            "attacker_shows": None if self.items[att] else NONE_SHOWN,
            "defender_shows": None if self.items[dfn] else NONE_SHOWN,
            "attacker_roll": 0,
            "defender_roll": 0,
        }

    def _battle_needs(self) -> str:
        """What the battle waits for: ``att-item``, ``def-item``, ``att-roll``, ``def-roll`` or ``""``."""
        b = self.battle
        assert b is not None
        if b["attacker_shows"] is None:
            return "att-item"
        if b["defender_shows"] is None:
            return "def-item"
        if b["attacker_shows"] == NONE_SHOWN and b["defender_shows"] == NONE_SHOWN:
            if not b["attacker_roll"]:
                return "att-roll"
            if not b["defender_roll"]:
                return "def-roll"
        return ""

    def _settle_battle(self, events: list[Event]) -> None:
        """Key rules 3-6: the weapon table, dice when neither has a weapon, ties to the
        defender, another turn for a victorious attacker (not when the keeper had to stop)."""
        b = self.battle
        assert b is not None
        self.battle = None
        self.fought = True
        att, dfn = int(b["attacker"]), int(b["defender"])
        a_item, d_item = str(b["attacker_shows"]), str(b["defender_shows"])
        if a_item == NONE_SHOWN and d_item == NONE_SHOWN:
            won = int(b["attacker_roll"]) > int(b["defender_roll"])
        elif d_item == NONE_SHOWN:
            won = True
        elif a_item == NONE_SHOWN:
            won = False
        else:
            won = battle_by_weapons(a_item, d_item, self.game.columns)
        if not won:
            events.append(Event(EV_BATTLE, dfn, f"{self.name(dfn)} defends the Magic Key against {self.name(att)}"))
            return
        self.keys[dfn] = False
        self.keys[att] = True
        events.append(Event(EV_KEY, att, f"{self.name(att)} defeats {self.name(dfn)} and takes the Magic Key"))
        if not b["forced"] and att == self.turn:
            self.extra = True
        self.queue.insert(0, (_T_WIN, att))

    def _do_card(self, p: int, card_id: str, choice: Move | None, events: list[Event]) -> None:
        """Do what card ``card_id`` says for player ``p`` (``choice``: the decision taken)."""
        card = self.card(card_id)
        board = self.game.board
        if choice is not None and choice.kind == "avert":
            # Rule 15: '... the danger may be circumvented by returning both cards to the
            # bottom of their corresponding decks.'
            item_card = next(c for c in self.items[p] if self.card(c).item == choice.label)
            self.items[p].remove(item_card)
            self._return(card_id)
            self._return(item_card)
            events.append(Event(EV_AVERTED, p, f"{self.name(p)} averts the danger with the {ITEM_NAMES[choice.label]}"))
            return
        effect = card.effect
        if effect == "item":
            # Rule 6: 'If the card is a tool or weapon then the card may be kept.'
            self.items[p].append(card_id)
            events.append(self._told(
                (EV_ITEM, p, card.item),
                lambda: Event(EV_ITEM, p, f"{self.name(p)} keeps the {ITEM_NAMES[card.item]}"),
            ))
            return
        self._return(card_id)
        colour = card.deck
        if effect == "diamond":
            # Rule 14: '... only one diamond of each color may be held at one time.'
            if colour in self.diamonds[p]:
                events.append(self._told(
                    (EV_DIAMOND, p, colour, True),
                    lambda: Event(EV_DIAMOND, p, f"{self.name(p)} already holds a {colour} diamond"),
                ))
            else:
                self.diamonds[p].add(colour)
                events.append(self._told(
                    (EV_DIAMOND, p, colour, False),
                    lambda: Event(EV_DIAMOND, p, f"{self.name(p)} receives a {colour} diamond"),
                ))
        elif effect == "lose-diamonds":
            lost = ", ".join(c for c in self.game.decks.colours if c in self.diamonds[p]) or "no"
            self.diamonds[p].clear()
            events.append(Event(EV_DANGER, p, f"{self.name(p)} loses {lost} diamonds"))
        elif effect == "lose-turns":
            self.lost[p] += card.turns
            events.append(Event(EV_LOST_TURNS, p, f"{self.name(p)} loses {card.turns} turn{'s' if card.turns > 1 else ''}"))
        elif effect in ("toward-goal", "away-from-goal"):
            self._send(p, self._goal_walk(p, card.spaces, effect == "toward-goal"), events)
        elif effect == "nearest-gateway":
            self._send(p, self.nearest_gateway(p), events)
        elif effect == "killed":
            self.diamonds[p].clear()
            events.append(Event(EV_DANGER, p, f"{self.name(p)} is killed: back to the gateway, diamonds lost"))
            self._send(p, self.own_gateway(p), events)
        elif effect == "go-back":
            self._send(p, self.origin[p], events)
        elif effect == "pegasus":
            assert choice is not None and isinstance(choice.dst, str)
            self.origin[p] = self.pos[p]
            self._send(p, board.node(choice.dst), events)
        elif effect == "swap":
            if choice is None or choice.kind != "swap":
                events.append(Event(EV_SENT, p, f"nobody can change places with {self.name(p)}"))
                return
            q = next(q for q in range(self.players) if self.name(q) == choice.label)
            for r in (p, q):
                if r != self.turn:
                    # A player moved when it is not their turn made no move of their
                    # own: they "came from" the square the unicorn took them from (D11).
                    self.origin[r] = self.pos[r]
            self.pos[p], self.pos[q] = self.pos[q], self.pos[p]
            events.append(Event(EV_SENT, p, f"{self.name(p)} and {self.name(q)} change places"))
            # 'In this case if the two players are taking the same color card the player
            # who's turn it is draws first.'
            first, second = (p, q) if p == self.turn or q != self.turn else (q, p)
            self.queue[0:0] = [(_T_LAND, first), (_T_LAND, second)]
        # "nothing": no effect

    def _send(self, p: int, node: int, events: list[Event]) -> None:
        """Move player ``p`` to ``node`` by a card; the landing is resolved (rule 7)."""
        if node == self.pos[p]:
            events.append(Event(EV_SENT, p, f"{self.name(p)} stays on {self.square(p)}"))
            return
        src = self.square(p)
        self.pos[p] = node
        dst = self.square(p)
        events.append(self._told(
            (EV_SENT, p, src, dst), lambda: Event(EV_SENT, p, f"{self.name(p)} goes from {src} to {dst}", src, dst)
        ))
        self.queue.insert(0, (_T_LAND, p))

    def goal(self, p: int) -> int:
        """'Your first goal is to reach the temple' -- then 'your original gateway'."""
        return self.own_gateway(p) if self.keys[p] else self.game.board.palace

    def _goal_walk(self, p: int, spaces: int, toward: bool) -> int:
        """Where ``spaces`` steps toward (or away from) the goal lead: each step to the
        neighbouring square nearest to (farthest from) the goal, north, east, south, west
        first on a tie; the walk stops early at a wall or when no step gets nearer (farther)."""
        board = self.game.board
        goal = self.goal(p)
        n = self.pos[p]
        for _ in range(spaces):
            here = board.gap(n, goal)
            if toward and here == 0:
                break
            best, best_gap = -1, here
            for d in range(4):
                for s in board.succ[n][d]:
                    if not self.passable(p, s):
                        continue
                    g = board.gap(s, goal)
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
        return min(order, key=lambda g: board.gap(self.pos[p], g))

    def _end_turn(self, events: list[Event]) -> None:
        """The direction card goes back; an extra turn, or the next player clockwise."""
        if self.direction is not None:
            self._return(self.direction)
            self.direction = None
        self.distance = 0
        self.queue = []
        self.fought = False
        p = self.turn
        limit = self.game.round_limit
        if limit and self.turns >= limit * self.players:
            score = [(self.keys[q], len(self.diamonds[q])) for q in range(self.players)]
            best = max(score)
            self.winners = tuple(q for q in range(self.players) if score[q] == best)
            self.reason = f"the round limit ({limit}) is reached; the leaders share the win"
            self.stage = _OVER
            names = ", ".join(self.name(q) for q in self.winners)
            events.append(Event(EV_ROUND_LIMIT, None, f"Round limit reached: {names} lead{'s' if len(self.winners) == 1 else ''}"))
            return
        self.turns += 1
        self.stage = _DISTANCE
        if self.extra and not self.lost[p]:
            self.extra = False
            events.append(Event(EV_EXTRA_THROW, p, f"{self.name(p)} takes another turn"))
            return
        self.extra = False
        q = (p + 1) % self.players
        while self.lost[q]:
            self.lost[q] -= 1
            events.append(Event(EV_LOST_TURNS, q, f"{self.name(q)} loses a turn"))
            q = (q + 1) % self.players
        self.turn = q
        said = self.game._events.get((EV_TURN_PASSES, q))  # _told, inlined: every turn says it
        if said is None:
            said = self._told((EV_TURN_PASSES, q), lambda: Event(EV_TURN_PASSES, q, f"{self.name(q)}'s turn"))
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
                }
                for p in range(self.players)
            ],
            "decks": {
                name: {"unseen": list(deck.unseen), "returned": list(deck.returned)}
                for name, deck in self.decks.items()
            },
            "pending": [_task_to_json(t) for t in self.queue],
            "battle": None if self.battle is None else {
                k: (v + 1 if k in ("attacker", "defender") else v) for k, v in self.battle.items()
            },
            "extra_turn": self.extra,
            "fought": self.fought,
            "turns": self.turns,
            "winners": None if self.winners is None else [q + 1 for q in self.winners],
            "reason": self.reason,
        }


def _node_order(board: Board) -> Any:
    """Sort key: palace and gateways first, then squares by column and row."""

    def key(n: int) -> tuple[int, int, int]:
        r = board.rects[n]
        return (0 if board.colours[n] is None and r.c0 != r.c1 else 1, r.c0, r.r0)

    return key


def _task_to_json(task: Task) -> list[Any]:
    kind = task[0]
    if kind == _T_END:
        return [kind]
    if kind in (_T_LAND, _T_WIN, _T_KEY):
        return [kind, task[1] + 1]
    if kind in (_T_DRAW, _T_CARD):
        return [kind, task[1] + 1, task[2]]
    if kind == _T_ATTACK:
        return [kind, task[1] + 1, task[2] + 1]
    return [kind, task[1] + 1, task[2] + 1, bool(task[3])]


# ----------------------------------------------------------------- reading positions


def _opt(data: Mapping[str, Any], key: str, kind: type, default: Any, where: str = "") -> Any:
    """``data[key]`` checked like :func:`require`, or ``default`` when the key is left out."""
    if key not in data:
        return default
    return require(data, key, kind, where)


def _player_no(value: object, players: int, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= players:
        raise PositionError(where, f"expected a player number 1 to {players}, got {value!r}")
    return value - 1


def _read_state(game: CretanLabyrinth, data: Mapping[str, Any], players: int) -> CretanLabyrinthState:
    board = game.board
    decks = game.decks
    state = CretanLabyrinthState(game, players)
    stage = _opt(data, "stage", str, _DISTANCE)
    if stage not in _STAGES:
        raise PositionError("stage", f"expected one of {', '.join(_STAGES)}, got {stage!r}")
    state.stage = stage
    state.turn = _player_no(_opt(data, "turn", int, 1), players, "turn")
    rollers = _opt(data, "start_rollers", list, list(range(1, players + 1)))
    state.rollers = [_player_no(v, players, f"start_rollers[{i}]") for i, v in enumerate(rollers)]
    rolls = _opt(data, "start_rolls", list, [])
    if not all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 6 for v in rolls):
        raise PositionError("start_rolls", f"expected die values 1-6, got {rolls!r}")
    state.rolls = list(rolls)
    if stage == _START and (not state.rollers or len(state.rolls) >= len(state.rollers)):
        raise PositionError("start_rolls", "in the start stage someone must still throw")
    distance = data.get("distance")
    dice = game.distance_dice
    if distance is None:
        distance = 0
    elif not isinstance(distance, int) or isinstance(distance, bool) or not dice.count <= distance <= 6 * dice.count:
        raise PositionError("distance", f"expected null or {dice.count} to {6 * dice.count}, got {distance!r}")
    state.distance = distance
    # A finished game keeps the last distance thrown, for the record.
    if stage != _OVER and (stage in (_DIRECTION, _MOVE, _RESOLVE)) != bool(distance):
        raise PositionError("distance", f"a distance is thrown exactly in the direction, move and resolve stages (stage {stage!r})")
    direction = data.get("direction")
    if direction is not None and (direction not in decks.cards or decks.cards[direction].deck != DIRECTION_DECK):
        raise PositionError("direction", f"expected null or a direction card id, got {direction!r}")
    if stage in (_MOVE, _RESOLVE) and direction is None:
        raise PositionError("direction", f"the {stage} stage needs the direction card drawn")
    if stage in (_START, _DISTANCE, _DIRECTION) and direction is not None:
        raise PositionError("direction", f"no direction card is in play in the {stage} stage")
    state.direction = direction
    entries = require(data, "pieces", list)
    if len(entries) != players:
        raise PositionError("pieces", f"expected {players} entries (one per player), got {len(entries)}")
    for p, entry in enumerate(entries):
        where = f"pieces[{p}]"
        if not isinstance(entry, Mapping):
            raise PositionError(where, "expected an object")
        for key, attr in (("square", state.pos), ("came_from", state.origin)):
            name = _opt(entry, key, str, entry.get("square"), where) if key == "came_from" else require(entry, key, str, where)
            if name.lower() not in board.index:
                raise PositionError(f"{where}.{key}", f"no square {name!r} on the board")
            attr[p] = board.node(name)
        diamonds = _opt(entry, "diamonds", list, [], where)
        if not all(d in decks.colours for d in diamonds) or len(set(diamonds)) != len(diamonds):
            raise PositionError(f"{where}.diamonds", f"expected distinct colours of {', '.join(decks.colours)}, got {diamonds!r}")
        state.diamonds[p] = set(diamonds)
        items = _opt(entry, "items", list, [], where)
        for i, item in enumerate(items):
            if item not in decks.cards or not decks.cards[item].is_item:
                raise PositionError(f"{where}.items[{i}]", f"expected a tool or weapon card id, got {item!r}")
        state.items[p] = list(items)
        state.keys[p] = _opt(entry, "key", bool, False, where)
        lost = _opt(entry, "lost_turns", int, 0, where)
        if not 0 <= lost <= 100:
            raise PositionError(f"{where}.lost_turns", f"expected 0 to 100, got {lost}")
        state.lost[p] = lost
    if game.single_key and sum(state.keys) > 1:
        raise PositionError("pieces", "there is only one Magic Key but more than one player holds it")
    raw_decks = _opt(data, "decks", dict, {})
    for name in decks.contents:
        entry = raw_decks.get(name)
        where = f"decks.{name}"
        if entry is None:
            continue  # filled in below: every card not held, unseen
        if not isinstance(entry, Mapping):
            raise PositionError(where, "expected an object with unseen and returned cards")
        unseen = _opt(entry, "unseen", list, [], where)
        returned = _opt(entry, "returned", list, [], where)
        for key, cards in (("unseen", unseen), ("returned", returned)):
            for i, card in enumerate(cards):
                if card not in decks.cards or decks.cards[card].deck != name:
                    raise PositionError(f"{where}.{key}[{i}]", f"{card!r} is not a card of the {name} deck")
        state.decks[name] = Deck(name, tuple(unseen), tuple(returned))
    for name in raw_decks:
        if name not in decks.contents:
            raise PositionError(f"decks.{name}", "no such deck")
    pending = _opt(data, "pending", list, [])
    state.queue = [_task_from_json(t, players, decks, f"pending[{i}]") for i, t in enumerate(pending)]
    if (stage == _RESOLVE) != bool(state.queue):
        raise PositionError("pending", "tasks are pending exactly in the resolve stage")
    if stage == _RESOLVE and state.queue[-1][0] != _T_END:
        raise PositionError("pending", "the last pending task of a turn must be end-turn")
    battle = data.get("battle")
    if battle is not None:
        if not state.queue or state.queue[0][0] != _T_BATTLE or not isinstance(battle, Mapping):
            raise PositionError("battle", "a battle is only under way when the first pending task is a battle")
        task = state.queue[0]
        b: dict[str, Any] = {
            "attacker": _player_no(battle.get("attacker"), players, "battle.attacker"),
            "defender": _player_no(battle.get("defender"), players, "battle.defender"),
            "forced": battle.get("forced"),
        }
        if (b["attacker"], b["defender"], b["forced"]) != (task[1], task[2], task[3]):
            raise PositionError("battle", "attacker, defender and forced must match the pending battle task")
        for who in ("attacker", "defender"):
            shows = battle.get(f"{who}_shows")
            allowed = [None, *state.item_kinds(b[who])] if state.items[b[who]] else [NONE_SHOWN]
            if shows not in allowed:
                raise PositionError(f"battle.{who}_shows", f"expected one of {allowed}, got {shows!r}")
            b[f"{who}_shows"] = shows
            roll = battle.get(f"{who}_roll", 0)
            if not isinstance(roll, int) or isinstance(roll, bool) or not 0 <= roll <= 6:
                raise PositionError(f"battle.{who}_roll", f"expected 0 (not thrown) to 6, got {roll!r}")
            b[f"{who}_roll"] = roll
        state.battle = b
    state.extra = _opt(data, "extra_turn", bool, False)
    state.fought = _opt(data, "fought", bool, False)
    turns = _opt(data, "turns", int, 1)
    if turns < 0:
        raise PositionError("turns", f"expected a count of turns played, got {turns}")
    state.turns = turns
    winners = data.get("winners")
    if (winners is not None) != (stage == _OVER):
        raise PositionError("winners", "winners are given exactly when the stage is over")
    if winners is not None:
        if not isinstance(winners, list) or not winners:
            raise PositionError("winners", "expected a list of player numbers")
        state.winners = tuple(_player_no(w, players, f"winners[{i}]") for i, w in enumerate(winners))
        state.reason = str(data.get("reason", ""))
    # Decks left out hold every card that is not held or in play, unseen.
    held = state.cards_held()
    for name, cards in decks.contents.items():
        if raw_decks.get(name) is None:
            left = Counter(cards) - held
            unseen_cards: list[str] = []
            for c in cards:
                if left[c] > 0:
                    unseen_cards.append(c)
                    left[c] -= 1
            state.decks[name] = Deck(name, tuple(unseen_cards))
    # Every card is somewhere, exactly once: in a deck, in a hand, in play.
    found: Counter[str] = Counter()
    for deck in state.decks.values():
        found.update(deck.unseen)
        found.update(deck.returned)
    found.update(state.cards_held())
    expected: Counter[str] = Counter()
    for cards in decks.contents.values():
        expected.update(cards)
    if found != expected:
        extra = found - expected
        missing = expected - found
        parts = []
        if extra:
            parts.append("too many: " + ", ".join(sorted(extra.elements())))
        if missing:
            parts.append("missing: " + ", ".join(sorted(missing.elements())))
        raise PositionError("decks", "the cards do not add up to the deck file's; " + "; ".join(parts))
    if stage == _RESOLVE:
        first = state.queue[0]
        kind = first[0]
        if kind in (_T_LAND, _T_WIN, _T_END):
            raise PositionError("pending[0]", f"the first pending task must wait for a player, not {kind!r}")
        if kind == _T_DRAW and not (state.decks[first[2]].unseen or state.decks[first[2]].returned):
            raise PositionError("pending[0]", f"the {first[2]} deck is empty: no card can be drawn")
        if kind == _T_CARD and not state._card_waits(first[1], first[2]):
            raise PositionError("pending[0]", f"card {first[2]!r} needs no decision; resolve it before saving")
        if kind == _T_BATTLE and state.battle is None:
            state._start_battle(first)
    if stage == _DIRECTION and not (state.decks[DIRECTION_DECK].unseen or state.decks[DIRECTION_DECK].returned):
        raise PositionError("decks.direction", "the direction deck is empty but a card is due")
    return state


def _task_from_json(raw: object, players: int, decks: Decks, where: str) -> Task:
    if not isinstance(raw, list) or not raw or not isinstance(raw[0], str):
        raise PositionError(where, "expected a list such as [\"land\", 1]")
    kind = raw[0]
    shapes = {
        _T_END: 1, _T_LAND: 2, _T_WIN: 2, _T_KEY: 2, _T_DRAW: 3, _T_CARD: 3, _T_ATTACK: 3, _T_BATTLE: 4,
    }
    if kind not in shapes:
        raise PositionError(where, f"unknown task {kind!r} (known: {', '.join(shapes)})")
    if len(raw) != shapes[kind]:
        raise PositionError(where, f"task {kind!r} has {shapes[kind]} entries, got {len(raw)}")
    if kind == _T_END:
        return (kind,)
    p = _player_no(raw[1], players, f"{where}[1]")
    if kind in (_T_LAND, _T_WIN, _T_KEY):
        return (kind, p)
    if kind == _T_DRAW:
        if raw[2] not in decks.colours:
            raise PositionError(f"{where}[2]", f"expected a colour of {', '.join(decks.colours)}, got {raw[2]!r}")
        return (kind, p, raw[2])
    if kind == _T_CARD:
        if raw[2] not in decks.cards or decks.cards[raw[2]].deck == DIRECTION_DECK:
            raise PositionError(f"{where}[2]", f"expected a coloured card id, got {raw[2]!r}")
        return (kind, p, raw[2])
    q = _player_no(raw[2], players, f"{where}[2]")
    if kind == _T_ATTACK:
        return (kind, p, q)
    if not isinstance(raw[3], bool):
        raise PositionError(f"{where}[3]", "expected true (the keeper had to stop) or false")
    return (kind, p, q, raw[3])
