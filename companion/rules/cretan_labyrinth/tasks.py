"""What a Cretan Labyrinth turn still has to resolve after a move: the pending tasks, and
the battle under way.

Each task is a small frozen value matched by its type (``type(task) is Draw``); players
are 0-based here and 1-based in a position's JSON (``["draw", 1, "red"]``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final, TypeAlias


@dataclass(frozen=True, slots=True)
class Land:
    """Resolve what landing on a square does for ``player`` (queued by every move and
    every card that sends a player)."""

    player: int
    kind: ClassVar[str] = "land"

    def to_json(self) -> list[Any]:
        return [self.kind, self.player + 1]


@dataclass(frozen=True, slots=True)
class Draw:
    """``player`` draws a card of the ``colour`` deck (a THROW of that deck)."""

    player: int
    colour: str
    kind: ClassVar[str] = "draw"

    def to_json(self) -> list[Any]:
        return [self.kind, self.player + 1, self.colour]


@dataclass(frozen=True, slots=True)
class DoCard:
    """``player`` does the coloured card ``card`` (an id of the deck file), deciding how
    when the card offers a choice."""

    player: int
    card: str
    kind: ClassVar[str] = "card"

    def to_json(self) -> list[Any]:
        return [self.kind, self.player + 1, self.card]


@dataclass(frozen=True, slots=True)
class KeyOffer:
    """``player``, in the palace with four diamonds, may take the Magic Key."""

    player: int
    kind: ClassVar[str] = "key-offer"

    def to_json(self) -> list[Any]:
        return [self.kind, self.player + 1]


@dataclass(frozen=True, slots=True)
class BattleOffer:
    """``player``, landed within two spaces of ``keeper``, may attack for the Magic Key."""

    player: int
    keeper: int
    kind: ClassVar[str] = "battle-offer"

    def to_json(self) -> list[Any]:
        return [self.kind, self.player + 1, self.keeper + 1]


@dataclass(frozen=True, slots=True)
class Fight:
    """A battle for the Magic Key between ``attacker`` and ``defender``; ``forced``: the
    keeper had to stop near the defender (key rule 7), so a win gives no extra turn."""

    attacker: int
    defender: int
    forced: bool
    kind: ClassVar[str] = "battle"

    @property
    def player(self) -> int:
        return self.attacker

    def to_json(self) -> list[Any]:
        return [self.kind, self.attacker + 1, self.defender + 1, self.forced]


@dataclass(frozen=True, slots=True)
class Win:
    """Check whether ``player``, at their own gateway, has won."""

    player: int
    kind: ClassVar[str] = "win"

    def to_json(self) -> list[Any]:
        return [self.kind, self.player + 1]


@dataclass(frozen=True, slots=True)
class EndTurn:
    """The turn ends: the direction card goes back, the next player (or an extra turn)."""

    kind: ClassVar[str] = "end-turn"

    def to_json(self) -> list[Any]:
        return [self.kind]


Task: TypeAlias = Land | Draw | DoCard | KeyOffer | BattleOffer | Fight | Win | EndTurn
"""One pending task of the resolve stage."""

TASK_TYPES: Final[tuple[type[Task], ...]] = (
    EndTurn, Land, Win, KeyOffer, Draw, DoCard, BattleOffer, Fight
)
"""Every kind of task, by the name it has in JSON (its ``kind``)."""

END_TURN: Final = EndTurn()
LANDS: Final = tuple(Land(p) for p in range(4))
"""The landing task of each player (at most 4: ``max_players``), made once."""
WINS: Final = tuple(Win(p) for p in range(4))
"""The task of each player checking for the win, made once."""
BATTLE_OFFERS: Final = tuple(tuple(BattleOffer(p, q) for q in range(4)) for p in range(4))
"""``BATTLE_OFFERS[p][q]``: player ``p`` may attack keeper ``q``, made once."""
FIGHTS: Final = tuple(
    tuple((Fight(p, q, False), Fight(p, q, True)) for q in range(4)) for p in range(4)
)
"""``FIGHTS[attacker][defender][forced]``, made once."""

NONE_SHOWN: Final = "none"
"""What a player without tools or weapons shows in a battle."""


@dataclass(frozen=True, slots=True)
class Battle:
    """The battle under way (key rules 3-6). ``*_shows``: the tool or weapon shown
    (an item name of the weapon table), :data:`NONE_SHOWN` for a player without any, or
    ``None`` while still to choose; ``*_roll``: the die thrown when neither shows a weapon
    (1-6), 0 while not thrown."""

    attacker: int
    defender: int
    forced: bool
    attacker_shows: str | None
    defender_shows: str | None
    attacker_roll: int = 0
    defender_roll: int = 0

    def needs(self) -> str:
        """What the battle waits for: ``att-item``, ``def-item``, ``att-roll``,
        ``def-roll`` or ``""`` (it can be settled)."""
        if self.attacker_shows is None:
            return "att-item"
        if self.defender_shows is None:
            return "def-item"
        if self.attacker_shows == NONE_SHOWN and self.defender_shows == NONE_SHOWN:
            if not self.attacker_roll:
                return "att-roll"
            if not self.defender_roll:
                return "def-roll"
        return ""

    def to_json(self) -> dict[str, Any]:
        """The JSON form (players 1-based), keys in the order positions have always had."""
        return {
            "attacker": self.attacker + 1,
            "defender": self.defender + 1,
            "forced": self.forced,
            "attacker_shows": self.attacker_shows,
            "defender_shows": self.defender_shows,
            "attacker_roll": self.attacker_roll,
            "defender_roll": self.defender_roll,
        }


def task_players(task: Task) -> tuple[int, ...]:
    """The players a pending task is about (a battle and its offer: both sides)."""
    if type(task) is EndTurn:
        return ()
    if type(task) is Fight:
        return (task.attacker, task.defender)
    if type(task) is BattleOffer:
        return (task.player, task.keeper)
    return (task.player,)  # type: ignore[union-attr]


def task_kinds() -> Mapping[str, type[Task]]:
    """The task classes by their JSON name."""
    return {t.kind: t for t in TASK_TYPES}


__all__ = [
    "BATTLE_OFFERS",
    "END_TURN",
    "FIGHTS",
    "LANDS",
    "NONE_SHOWN",
    "TASK_TYPES",
    "WINS",
    "Battle",
    "BattleOffer",
    "DoCard",
    "Draw",
    "EndTurn",
    "Fight",
    "KeyOffer",
    "Land",
    "Task",
    "Win",
    "task_kinds",
    "task_players",
]
