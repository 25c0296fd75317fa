"""The Cretan Labyrinth (seed ``004_fc892f1937d88e90.txt``).

2-4 players start at their own gateway on the sides of a square board, collect one
diamond of each of four colours, hand them in for the Magic Key in the palace at the
centre, and carry four diamonds and the key back to their own gateway. Direction cards
say where a piece may go, a die how far; coloured "do" cards bring creatures, tools,
weapons and diamonds.

The package, by concept: :mod:`.base` the constants and the game's options and tables,
:mod:`.core` what a position holds and the queries on it, :mod:`.walk` where a move may
stop, :mod:`.cards` doing a coloured card, :mod:`.battle` battles for the Magic Key,
:mod:`.palace` landing, the palace and the win, :mod:`.state` the position as the rules
play it (the start, a turn's throws, moves and decisions, the turn's end); :mod:`.tasks`
what a turn still has to resolve, :mod:`.tables` the board's tables a game owns,
:mod:`.position` reading and checking a position, :mod:`.game` the game object that
joins them.

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

from companion.rules.cretan_labyrinth.base import (
    DEFAULT_ROUND_LIMIT,
    DIRECTION_DECK,
    EV_AVERTED,
    EV_BATTLE,
    EV_DANGER,
    EV_DIAMOND,
    EV_ITEM,
    EV_KEY,
    EV_LOST_TURNS,
    EV_OUT,
    EV_ROUND_LIMIT,
    EV_SENT,
    EV_START_ROLL,
    CretanLabyrinthRules,
)
from companion.rules.cretan_labyrinth.game import CretanLabyrinth
from companion.rules.cretan_labyrinth.state import CretanLabyrinthState
from companion.rules.cretan_labyrinth.tasks import NONE_SHOWN, Battle, Task

__all__ = [
    "DEFAULT_ROUND_LIMIT",
    "DIRECTION_DECK",
    "EV_AVERTED",
    "EV_BATTLE",
    "EV_DANGER",
    "EV_DIAMOND",
    "EV_ITEM",
    "EV_KEY",
    "EV_LOST_TURNS",
    "EV_OUT",
    "EV_ROUND_LIMIT",
    "EV_SENT",
    "EV_START_ROLL",
    "NONE_SHOWN",
    "Battle",
    "CretanLabyrinth",
    "CretanLabyrinthRules",
    "CretanLabyrinthState",
    "Task",
]
