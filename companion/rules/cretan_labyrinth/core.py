"""A Cretan Labyrinth position's pieces, decks and turn, and the read-only queries on
them (names, what each player holds, the search key, progress); its JSON body."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable
from typing import Any

from companion.rules.core import (
    Event,
    Outcome,
    PieceAt,
    PieceZone,
    Square,
    State,
)
from companion.rules.cretan_data import (
    ITEMS,
    Card,
)
from companion.rules.cretan_labyrinth.base import (
    _EVENTS_KEPT,
    STAGE_RESOLVE,
    STAGE_START,
    CretanLabyrinthRules,
    _deck,
)
from companion.rules.cretan_labyrinth.tables import (
    Walk,
)
from companion.rules.cretan_labyrinth.tasks import (
    Battle,
    DoCard,
    Task,
)
from companion.rules.throws import Deck


class PositionCore(State):
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

    record_only_keys = ("reason",)
    """Why a game ended is said for the record; the winners are in the key."""

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
        assert isinstance(other, PositionCore)
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
        building them is the slow part); at most :data:`_EVENTS_KEPT` are kept."""
        kept = self.game._events
        event = kept.get(key)
        if event is None:
            event = make()
            if len(kept) < _EVENTS_KEPT:
                kept[key] = event
        return event

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

    def diamonds_held(self, p: int) -> list[str]:
        """The colours of the diamonds player ``p`` holds, in the deck file's order of
        colours (``["red", "blue"]``)."""
        return [c for c in self.game.decks.colours if c in self.diamonds[p]]

    def way(self) -> str:
        """Where the direction card in play sends the move: ``"north"``, ``"east"``,
        ``"south"``, ``"west"`` or ``"in any direction"``; ``""`` when no direction card
        is in play."""
        return self._way()

    def _way(self) -> str:
        go = self._go()
        return "in any direction" if go == "any" else go

    def _go(self) -> str:
        """Where the direction card in play sends the move: a direction, ``"any"``, or
        ``""`` when no direction card is in play."""
        return "" if self.direction is None else self.card(self.direction).go

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

    def item_kinds(self, p: int) -> list[str]:
        """The kinds of tool/weapon player ``p`` holds, in the weapon table's order."""
        mine = self.items[p]
        if not mine:
            return []
        held = {self.card(c).item for c in mine}
        return [i for i in ITEMS if i in held]

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
