"""A Cretan Labyrinth position as the rules play it (:class:`CretanLabyrinthState`): the
start throws, a turn's throws and moves, the decisions, the tasks of a landing resolved
in turn, and the turn's end. See the package's docstring for a turn's shape."""

from __future__ import annotations

from collections.abc import Hashable

from companion.rules.core import (
    EV_CARD_DRAWN,
    EV_EXTRA_THROW,
    EV_MOVED,
    EV_THROW_LOST,
    EV_THROWN,
    EV_TURN_PASSES,
    Action,
    Event,
    Move,
    Phase,
)
from companion.rules.cretan_labyrinth.base import (
    _CHOICES_KEPT,
    _CHOOSING,
    _EVENTS_KEPT,
    _STAGE_PHASE,
    DIRECTION_DECK,
    EV_BATTLE,
    EV_KEY,
    EV_LOST_TURNS,
    EV_ROUND_LIMIT,
    EV_START_ROLL,
    STAGE_DIRECTION,
    STAGE_DISTANCE,
    STAGE_MOVE,
    STAGE_OVER,
    STAGE_RESOLVE,
    STAGE_START,
    _deck,
    _event,
)
from companion.rules.cretan_labyrinth.palace import Palace
from companion.rules.cretan_labyrinth.tasks import (
    END_TURN,
    FIGHTS,
    LANDS,
    NONE_SHOWN,
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
)
from companion.rules.throws import Implement, Throw


class CretanLabyrinthState(Palace):
    """A Cretan Labyrinth position (see :class:`~.core.PositionCore` for what it holds)."""

    __slots__ = ()

    def push(self, action: Action) -> list[Event]:
        """As :meth:`State.push`, with one look at the action's class."""
        self.history.append(action)
        if isinstance(action, Move):
            return self._push_move(action)
        return self._push_throw(action)

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
