"""Landing on a square (rules 6-7, the key rules 1-2) and the palace and the own gateway:
the Magic Key offered for four diamonds, the win back home."""

from __future__ import annotations

from companion.rules.core import (
    EV_WON,
    Event,
)
from companion.rules.cretan_labyrinth.base import (
    EV_KEY,
    STAGE_OVER,
)
from companion.rules.cretan_labyrinth.battle import Battles
from companion.rules.cretan_labyrinth.tasks import (
    BATTLE_OFFERS,
    KeyOffer,
    Task,
)


class Palace(Battles):
    """A position whose landings are resolved (:meth:`_land`, :meth:`_check_win`)."""

    __slots__ = ()

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
