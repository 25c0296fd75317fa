"""Doing a coloured card (rules 6-7, 14-15): diamonds, tools and weapons kept, dangers
done or averted, a player sent by a card, the unicorn's swap, Pegasus, the Minotaur."""

from __future__ import annotations

from companion.rules.core import (
    EV_WON,
    Event,
    Move,
)
from companion.rules.cretan_labyrinth.base import (
    _EVENTS_KEPT,
    EV_AVERTED,
    EV_DANGER,
    EV_DIAMOND,
    EV_ITEM,
    EV_KEY,
    EV_LOST_TURNS,
    EV_OUT,
    EV_SENT,
    STAGE_OVER,
    _deck,
    _event,
)
from companion.rules.cretan_labyrinth.tasks import (
    LANDS,
    EndTurn,
    task_players,
)
from companion.rules.cretan_labyrinth.walk import Walking


class CardRules(Walking):
    """A position whose cards are done (:meth:`_do_card`)."""

    __slots__ = ()

    def _swap_targets(self, p: int) -> list[int]:
        """Whom the unicorn lets player ``p`` change places with: nobody on a gateway
        (D11), nobody out of the game (D30)."""
        gate_seat = self.game.gate_seat_of
        if gate_seat[self.pos[p]] >= 0:
            return []
        out = self.out
        return [q for q in range(self.players) if q != p and gate_seat[self.pos[q]] < 0 and not out[q]]

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
