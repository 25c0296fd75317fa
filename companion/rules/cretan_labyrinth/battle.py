"""Battles for the Magic Key (key rules 3-6): the weapon table, dice when neither shows
a weapon, ties to the defender, another turn for a victorious attacker."""

from __future__ import annotations

from companion.rules.core import (
    Event,
)
from companion.rules.cretan_data import (
    battle_by_weapons,
)
from companion.rules.cretan_labyrinth.base import (
    EV_BATTLE,
    EV_KEY,
)
from companion.rules.cretan_labyrinth.cards import CardRules
from companion.rules.cretan_labyrinth.tasks import (
    NONE_SHOWN,
    WINS,
    Battle,
    Fight,
)


class Battles(CardRules):
    """A position whose battles are settled (:meth:`_settle_battle`)."""

    __slots__ = ()

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
