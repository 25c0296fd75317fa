"""Reading a Cretan Labyrinth position (``docs/positions.md``) and checking that a game
could have reached it.

:func:`read_state` checks each key's type and shape; :func:`validate` then checks the
position as a whole and names what is impossible (a battle against a player without the
Magic Key, a key offered for too few diamonds, a finished game naming the wrong winner,
...). ``CretanLabyrinth.state_from_dict`` runs both.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from companion.rules.core import PositionError, require
from companion.rules.cretan_data import Decks
from companion.rules.cretan_labyrinth.base import (
    DIRECTION_DECK,
    STAGE_DIRECTION,
    STAGE_DISTANCE,
    STAGE_MOVE,
    STAGE_OVER,
    STAGE_RESOLVE,
    STAGE_START,
    STAGES,
    CretanLabyrinthRules,
)
from companion.rules.cretan_labyrinth.state import CretanLabyrinthState
from companion.rules.cretan_labyrinth.tasks import (
    END_TURN,
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
    task_kinds,
    task_players,
)
from companion.rules.throws import Deck

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


def read_state(game: CretanLabyrinthRules, data: Mapping[str, Any], players: int) -> CretanLabyrinthState:
    board = game.board
    decks = game.decks
    state = CretanLabyrinthState(game, players)
    # Left out, the stage is worked out from what the turn holds; given, the checks below
    # refuse one that disagrees (a distance, a direction card, tasks, winners, turns).
    stage = _opt(data, "stage", str, None)
    if stage is None:
        stage = worked_out_stage(data)
    if stage not in STAGES:
        raise PositionError("stage", f"expected one of {', '.join(STAGES)}, got {stage!r}")
    state.stage = stage
    state.turn = _player_no(_opt(data, "turn", int, 1), players, "turn")
    rollers = _opt(data, "start_rollers", list, list(range(1, players + 1)))
    state.rollers = [_player_no(v, players, f"start_rollers[{i}]") for i, v in enumerate(rollers)]
    # Everybody throws in the first round, in seat order; a tie's throwers throw again, in
    # the same order: never one player twice, never one alone (a lone best has begun).
    if len(state.rollers) < 2 or state.rollers != sorted(set(state.rollers)):
        raise PositionError(
            "start_rollers", f"expected two or more distinct players in seat order, got {rollers!r}"
        )
    rolls = _opt(data, "start_rolls", list, [])
    if not all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 6 for v in rolls):
        raise PositionError("start_rolls", f"expected die values 1-6, got {rolls!r}")
    state.rolls = list(rolls)
    if stage == STAGE_START and (not state.rollers or len(state.rolls) >= len(state.rollers)):
        raise PositionError("start_rolls", "in the start stage someone must still throw")
    # After the start its last round stays for the record: every roller threw, one highest.
    if stage != STAGE_START and state.rolls and (
        len(state.rolls) != len(state.rollers) or state.rolls.count(max(state.rolls)) != 1
    ):
        raise PositionError(
            "start_rolls", f"play has begun, so the last round of start throws had one highest, "
            f"one throw for each of start_rollers; got {rolls!r}"
        )
    distance = data.get("distance")
    dice = game.distance_dice
    if distance is None:
        distance = 0
    elif not isinstance(distance, int) or isinstance(distance, bool) or not dice.count <= distance <= 6 * dice.count:
        raise PositionError("distance", f"expected null or {dice.count} to {6 * dice.count}, got {distance!r}")
    state.distance = distance
    # A finished game keeps the last distance thrown, for the record.
    if stage != STAGE_OVER and (stage in (STAGE_DIRECTION, STAGE_MOVE, STAGE_RESOLVE)) != bool(distance):
        raise PositionError("distance", f"a distance is thrown exactly in the direction, move and resolve stages (stage {stage!r})")
    direction = data.get("direction")
    if direction is not None and (direction not in decks.cards or decks.cards[direction].deck != DIRECTION_DECK):
        raise PositionError("direction", f"expected null or a direction card id, got {direction!r}")
    if stage in (STAGE_MOVE, STAGE_RESOLVE) and direction is None:
        raise PositionError("direction", f"the {stage} stage needs the direction card drawn")
    if stage in (STAGE_START, STAGE_DISTANCE, STAGE_DIRECTION) and direction is not None:
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
        out = _opt(entry, "out", bool, False, where)
        if out and not game.minotaur_out:
            raise PositionError(f"{where}.out", "nobody leaves the game unless the option minotaur is out")
        state.out[p] = out
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
    # Every turn being resolved ends with its end: left out, it is added (a turn never
    # resolves without ending, so a file need not, and cannot usefully, say otherwise).
    if stage == STAGE_RESOLVE and (not state.queue or type(state.queue[-1]) is not EndTurn):
        state.queue.append(END_TURN)
    if stage != STAGE_RESOLVE and state.queue:
        raise PositionError("pending", "tasks are pending exactly in the resolve stage")
    if stage == STAGE_RESOLVE and len(state.queue) == 1:
        raise PositionError("pending", "the resolve stage needs a task that waits for a player")
    battle = data.get("battle")
    if battle is not None:
        task = state.queue[0] if state.queue else None
        if not isinstance(task, Fight) or not isinstance(battle, Mapping):
            raise PositionError("battle", "a battle is only under way when the first pending task is a battle")
        # Who fights, and whether the keeper had to stop, are the pending task's: left
        # out, taken from it; given, they must agree.
        attacker = _player_no(battle.get("attacker", task.attacker + 1), players, "battle.attacker")
        defender = _player_no(battle.get("defender", task.defender + 1), players, "battle.defender")
        forced = battle.get("forced", task.forced)
        if (attacker, defender, forced) != (task.attacker, task.defender, task.forced):
            raise PositionError("battle", "attacker, defender and forced must match the pending battle task")
        shown: dict[str, Any] = {}
        for who, q in (("attacker", attacker), ("defender", defender)):
            shows = battle.get(f"{who}_shows")
            allowed = [None, *state.item_kinds(q)] if state.items[q] else [NONE_SHOWN]
            if shows not in allowed:
                raise PositionError(f"battle.{who}_shows", f"expected one of {allowed}, got {shows!r}")
            roll = battle.get(f"{who}_roll", 0)
            if not isinstance(roll, int) or isinstance(roll, bool) or not 0 <= roll <= 6:
                raise PositionError(f"battle.{who}_roll", f"expected 0 (not thrown) to 6, got {roll!r}")
            shown[who] = (shows, roll)
        state.battle = Battle(
            attacker, defender, task.forced, shown["attacker"][0], shown["defender"][0],
            shown["attacker"][1], shown["defender"][1],
        )
        _check_battle(state.battle)
    state.extra = _opt(data, "extra_turn", bool, False)
    state.fought = _opt(data, "fought", bool, False)
    # No turn is counted before the start is decided: worked out (0) in the start stage.
    turns = _opt(data, "turns", int, 0 if stage == STAGE_START else 1)
    if turns < 0:
        raise PositionError("turns", f"expected a count of turns played, got {turns}")
    if stage == STAGE_START and turns:
        raise PositionError("turns", f"before the first turn no turn is counted: expected 0, got {turns}")
    state.turns = turns
    winners = data.get("winners")
    if (winners is not None) != (stage == STAGE_OVER):
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
    first = state.queue[0] if state.queue else None
    if isinstance(first, Fight) and state.battle is None:
        state._start_battle(first)
    return state


def worked_out_stage(data: Mapping[str, Any]) -> str:
    """The stage a position file's other keys say (for a file that leaves ``stage`` out):
    ``over`` with winners, ``resolve`` with tasks pending or a battle, ``move`` with a
    direction card in play, ``direction`` with a distance thrown, ``start`` with no turn
    counted (``turns`` 0), else ``distance`` (a throw is due)."""
    if data.get("winners") is not None:
        return STAGE_OVER
    if data.get("pending") or data.get("battle") is not None:
        return STAGE_RESOLVE
    if data.get("direction") is not None:
        return STAGE_MOVE
    if data.get("distance") is not None:
        return STAGE_DIRECTION
    if "turns" in data and data["turns"] == 0:
        return STAGE_START
    return STAGE_DISTANCE


def validate(state: CretanLabyrinthState) -> None:
    """Check that a game could have reached ``state``; the stage, pieces and tasks must
    agree with each other and with the rules.

    :raises PositionError: naming the key and what is impossible: the cards do not add
        up; a pending task or battle that play never leaves waiting; a battle or battle
        offer against a player who holds no Magic Key (or any battle in a game with four
        keys); a key offer for a player who is not in the palace with four diamonds or
        for whom no key is left; a player at their own gateway with four diamonds and
        the Magic Key while play goes on; a finished game naming other winners than the
        rules would; the player on turn still having turns to lose; the start stage with
        a piece away from its gateway, come from elsewhere or holding anything, or a
        ``turn`` other than 1; a player out of the game
        (option ``minotaur=out``) who holds anything, holds the turn, has a task pending,
        or is one of fewer than two players left while play goes on; an ``end-turn``
        task before the last; a battle, battle offer or waiting card not first; a forced
        battle not followed by the keeper's landing; a win checked away from the player's
        own gateway; a card drawn or waiting for a player on a space of another
        colour (or none); a battle or battle offer between players more than two spaces
        apart, for a player not on turn (forced: against a keeper not on turn), or after
        the turn's battle; a landing of the player on turn waiting anywhere but after a
        battle they were stopped for; a card to draw or a win to check behind anything but
        the battle (or its offer) of the same landing, a Magic Key's offer behind anything; ``extra_turn`` or ``fought`` before the resolve
        stage, in a game with four Magic Keys or (option ``minotaur=quest``) while nobody
        holds the Magic Key; ``turns`` below 1 or past the round limit once play has
        begun; in the first turn a player on turn other than the highest start throw's.
        (:func:`read_state` refuses the start throwers out of seat order or twice, after
        the start a recorded round of start throws with a tie or a throw missing, a turn
        counted in the start stage, and a battle whose choices or dice are out of order or
        all made.)
    """
    game = state.game
    decks = game.decks
    stage = state.stage
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
    if stage == STAGE_RESOLVE:
        first = state.queue[0]
        if isinstance(first, (Land, Win, EndTurn)):
            raise PositionError("pending[0]", f"the first pending task must wait for a player, not {first.kind!r}")
        if isinstance(first, Draw) and not (state.decks[first.colour].unseen or state.decks[first.colour].returned):
            raise PositionError("pending[0]", f"the {first.colour} deck is empty: no card can be drawn")
        if isinstance(first, DoCard) and not state._card_waits(first.player, first.card):
            raise PositionError("pending[0]", f"card {first.card!r} needs no decision; resolve it before saving")
    if stage == STAGE_DIRECTION and not (state.decks[DIRECTION_DECK].unseen or state.decks[DIRECTION_DECK].returned):
        raise PositionError("decks.direction", "the direction deck is empty but a card is due")
    _validate_turn(state)
    _validate_out(state)
    _validate_quest(state)


def _validate_turn(state: CretanLabyrinthState) -> None:
    """The checks of :func:`validate` about what a turn leaves pending: one ``end-turn``,
    last; a battle, its offer and a card waiting only first, a forced battle followed by
    the keeper's landing, a win checked only at the player's own gateway; a card drawn
    or waiting where its player stands on a space of its colour; a battle or its offer
    only within two spaces of the keeper, for the player on turn (or, forced, against
    the keeper on turn), before any battle of the turn; ``extra_turn`` and ``fought``
    only while a turn is resolved (or in a game over), never with four Magic Keys nor
    (but with ``minotaur=out``) with nobody holding the key; the landing of the player on
    turn waiting only after a forced battle; a draw or a win waiting only behind the battle
    (or its offer) of the same landing, a key offer only first;
    once play has begun, at least one turn begun and none past the round limit, the
    first turn the start winner's.
    """
    board = state.game.board
    reach = state.game.reach_table
    deck_of = state.game.deck_of
    pos = state.pos
    name = state.name
    for i, task in enumerate(state.queue):
        where = f"pending[{i}]"
        kind = type(task)
        if kind is EndTurn and i != len(state.queue) - 1:
            raise PositionError(where, "a turn ends once, with the last pending task: end-turn")
        if i and (kind is Fight or kind is BattleOffer or kind is DoCard):
            # A landing queues its tasks first; a battle, its offer and a card drawn wait
            # first until done: nothing is ever queued before them.
            raise PositionError(where, f"a {task.kind!r} task waits first (pending[0]) until it is done")
        if i and (kind is Draw or kind is Win or kind is KeyOffer):
            # A landing queues (the battle's offer,) then its card to draw or its win to
            # check, or the Magic Key's offer, all at the front; another's are queued when
            # that player lands.
            head = state.queue[0]
            player = task.player  # type: ignore[union-attr]
            if not (i == 1 and kind is not KeyOffer and (
                (isinstance(head, Fight) and not head.forced and head.attacker == player)
                or (isinstance(head, BattleOffer) and head.player == player)
            )):
                raise PositionError(
                    where, f"a {task.kind!r} task waits behind nothing but the battle (or its offer) of "
                    "the same landing: it is queued at the front when its player lands"
                )
        if isinstance(task, Fight) and task.forced:
            keeper = task.defender
            after = state.queue[1] if len(state.queue) > 1 else None
            if not isinstance(after, Land) or after.player != keeper:
                raise PositionError(
                    "pending[1]", f"a keeper stopped for a battle lands after it: [\"land\", {keeper + 1}] is due next"
                )
        if kind is Land and task.player == state.turn and not (  # type: ignore[union-attr]
            i == 1 and isinstance(state.queue[0], Fight) and state.queue[0].forced
        ):
            # A move or a card resolves its player's landing at once; only the keeper on
            # turn stopped for a battle (key rule 7) lands after it.
            raise PositionError(
                where, f"{name(state.turn)}, on turn, lands at once: their landing waits only after "
                "a battle it was stopped for"
            )
        if isinstance(task, Win) and pos[task.player] != state.own_gateway(task.player):
            raise PositionError(where, f"a win is checked for {name(task.player)} only at their own gateway")
        if kind is Draw or kind is DoCard:
            assert isinstance(task, (Draw, DoCard))
            colour = task.colour if isinstance(task, Draw) else deck_of[task.card]
            here = board.colours[pos[task.player]]
            if colour != here:
                raise PositionError(
                    where, f"a {colour} card for {name(task.player)}, who stands on "
                    f"{board.names[pos[task.player]]} ({here or 'not coloured'}): a card is drawn "
                    "from the colour of the space landed on"
                )
        elif kind is Fight or kind is BattleOffer:
            assert isinstance(task, (Fight, BattleOffer))
            keeper = task.defender if isinstance(task, Fight) else task.keeper
            other = task.attacker if isinstance(task, Fight) else task.player
            if reach[pos[other]][pos[keeper]] > 2:
                raise PositionError(
                    where, f"{name(other)} on {board.names[pos[other]]} is {reach[pos[other]][pos[keeper]]} "
                    f"spaces from {name(keeper)} on {board.names[pos[keeper]]}: a battle for the "
                    "Magic Key is within two spaces"
                )
            mover = keeper if isinstance(task, Fight) and task.forced else other
            if mover != state.turn:
                raise PositionError(
                    where, f"{name(mover)} is not on turn: only the player who moves "
                    "attacks (or, as keeper, is stopped for a battle)"
                )
            if state.fought:
                raise PositionError(where, "a battle was fought this turn already: one battle a turn")
    limit = state.game.round_limit
    if state.stage != STAGE_START:
        if state.turns < 1:
            raise PositionError("turns", f"play has begun, so at least one turn has: got {state.turns}")
        if limit and state.turns > limit * state.players:
            raise PositionError(
                "turns", f"turn {state.turns} is past the round limit ({limit} rounds of "
                f"{state.players} turns): the game ended at turn {limit * state.players}"
            )
    if state.stage in (STAGE_DISTANCE, STAGE_DIRECTION, STAGE_MOVE, STAGE_RESOLVE) and state.turns == 1 and state.rolls:
        # 'Each player rolls one die and the highest roll goes first.'
        first = state.rollers[state.rolls.index(max(state.rolls))]
        if state.turn != first:
            raise PositionError(
                "turn", f"the first turn (turns 1) is {name(first)}'s, who made the highest start "
                f"throw, not {name(state.turn)}'s"
            )
    # The turn's end clears both; a game won during a turn keeps them as they were.
    if state.stage not in (STAGE_RESOLVE, STAGE_OVER):
        for key, flag in (("extra_turn", state.extra), ("fought", state.fought)):
            if flag:
                raise PositionError(
                    key, f"{key} is set only while a turn is resolved (stage resolve) or in a game over"
                )
    if not state.game.single_key:
        # With four keys nobody keeps the key from anyone: no battle, no turn earned by one.
        for key, flag in (("extra_turn", state.extra), ("fought", state.fought)):
            if flag:
                raise PositionError(
                    key, "with four Magic Keys there is no battle and no keeper to land on: "
                    "no battle is fought and no turn earned by one"
                )
    elif not state.game.minotaur_out and not any(state.keys):
        # Another turn is earned by taking the key, and a battle leaves it with its winner;
        # once taken a key stays with a player (only minotaur=out sends it back).
        for key, flag in (("extra_turn", state.extra), ("fought", state.fought)):
            if flag:
                raise PositionError(
                    key, "nobody holds the Magic Key, yet this turn took it (another turn earned) or "
                    "fought for it (a battle fought): a key taken stays with a player"
                )


def _validate_out(state: CretanLabyrinthState) -> None:
    """The checks of :func:`validate` about players out of the game (D30)."""
    stage = state.stage
    name = state.name
    for p in range(state.players):
        if not state.out[p]:
            continue
        where = f"pieces[{p}]"
        if stage == STAGE_START:
            raise PositionError(f"{where}.out", f"{name(p)} is out of the game before the first turn")
        if state.diamonds[p] or state.items[p] or state.keys[p] or state.lost[p]:
            raise PositionError(
                where, f"{name(p)} is out of the game yet holds diamonds, tools, the key or turns to lose"
            )
        # Resolving the turn of a player taken out goes on for the others a card moved
        # (the unicorn): their landing; otherwise the turn passes at once.
        if stage in (STAGE_DISTANCE, STAGE_DIRECTION, STAGE_MOVE) and state.turn == p:
            raise PositionError("turn", f"{name(p)} is out of the game but holds the turn")
        for i, task in enumerate(state.queue):
            if p in task_players(task):
                raise PositionError(f"pending[{i}]", f"a {task.kind!r} task for {name(p)}, who is out of the game")
    if stage not in (STAGE_START, STAGE_OVER) and len(state.in_game()) < 2:
        raise PositionError(
            "pieces", f"only {name(state.in_game()[0])} is left in the game: that wins, yet play goes on"
        )


def _validate_quest(state: CretanLabyrinthState) -> None:
    """The checks of :func:`validate` about keys, battles, the win and lost turns."""
    game = state.game
    stage = state.stage
    players = state.players
    wanted = len(game.decks.colours)
    name = state.name
    for i, task in enumerate(state.queue):
        where = f"pending[{i}]"
        if isinstance(task, (Fight, BattleOffer)):
            if not game.single_key:
                raise PositionError(where, "a battle for the Magic Key, but with four keys there are no battles")
            keeper = task.defender if isinstance(task, Fight) else task.keeper
            other = task.attacker if isinstance(task, Fight) else task.player
            if other == keeper:
                raise PositionError(where, f"{name(other)} cannot fight themself for the Magic Key")
            if not state.keys[keeper]:
                raise PositionError(
                    where, f"a battle for the Magic Key against {name(keeper)}, who does not hold it"
                )
        elif isinstance(task, KeyOffer):
            p = task.player
            if len(state.diamonds[p]) != wanted:
                raise PositionError(
                    where, f"the Magic Key is offered to {name(p)}, who holds "
                    f"{len(state.diamonds[p])} of the {wanted} diamonds"
                )
            if state.pos[p] != game.board.palace:
                raise PositionError(where, f"the Magic Key is offered to {name(p)} outside the palace")
            if not state.key_available(p):
                raise PositionError(where, f"the Magic Key is offered to {name(p)} but none is left for them")
    home = [
        p for p in range(players)
        if state.pos[p] == state.own_gateway(p) and state.keys[p] and len(state.diamonds[p]) == wanted
    ]
    # A keeper stopped at home for a forced battle has not landed yet.
    landing = {t.player for t in state.queue if isinstance(t, (Land, Win))}
    if stage != STAGE_OVER:
        home = [p for p in home if p not in landing]
        if home:
            raise PositionError(
                "pieces", f"{name(home[0])} is home with {wanted} diamonds and the Magic Key: "
                "that wins, yet play goes on"
            )
        if stage in (STAGE_DISTANCE, STAGE_DIRECTION, STAGE_MOVE) and state.lost[state.turn]:
            raise PositionError(
                f"pieces[{state.turn}].lost_turns",
                f"{name(state.turn)} is on turn with turns still to lose (a lost turn is skipped)",
            )
    else:
        assert state.winners is not None
        limit = game.round_limit
        left = state.in_game()
        if home:
            right: tuple[int, ...] = (home[0],) if len(home) == 1 else ()
            why = "the player home with four diamonds and the Magic Key"
        elif len(left) == 1:
            right = (left[0],)
            why = "the last player left in the game"
        elif limit and state.turns >= limit * players:
            score = {q: (state.keys[q], len(state.diamonds[q])) for q in left}
            right = tuple(q for q in left if score[q] == max(score.values()))
            why = "the leaders at the round limit"
        else:
            raise PositionError(
                "winners", "the game is over but nobody is home with four diamonds and the "
                "Magic Key, more than one player is left and the round limit is not reached"
            )
        if tuple(sorted(state.winners)) != right:
            names = ", ".join(name(q) for q in right) or "nobody"
            raise PositionError("winners", f"the winners must be {why}: {names}")
    if stage == STAGE_START:
        for p in range(players):
            if (
                state.pos[p] != state.own_gateway(p) or state.diamonds[p] or state.items[p]
                or state.keys[p] or state.lost[p]
            ):
                raise PositionError(
                    f"pieces[{p}]", "before the first turn every piece stands on its gateway holding nothing"
                )
            if state.origin[p] != state.pos[p]:
                raise PositionError(
                    f"pieces[{p}].came_from", "before the first turn no piece has moved: it came from its gateway"
                )
        # Who throws for the start is worked out (start_rollers, start_rolls); the turn
        # is given to the winner of the start and is Player 1's until then.
        if state.turn != 0:
            raise PositionError("turn", "before the first turn the turn is Player 1's (the start decides who begins)")


def _check_battle(battle: Battle) -> None:
    """A battle under way is one play leaves waiting: the attacker shows first, then the
    defender; dice are thrown only when neither shows anything, the attacker's first; a
    battle with nothing left to wait for is settled at once (key rules 3-6), never saved.

    :raises PositionError: naming the ``battle`` key that cannot be so.
    """
    if battle.attacker_shows is None and battle.defender_shows not in (None, NONE_SHOWN):
        raise PositionError("battle.defender_shows", "the defender shows only after the attacker has chosen")
    neither = battle.attacker_shows == NONE_SHOWN and battle.defender_shows == NONE_SHOWN
    if not neither and (battle.attacker_roll or battle.defender_roll):
        raise PositionError(
            "battle.attacker_roll" if battle.attacker_roll else "battle.defender_roll",
            "dice are thrown only when neither side shows a tool or weapon",
        )
    if battle.defender_roll and not battle.attacker_roll:
        raise PositionError("battle.defender_roll", "the defender throws after the attacker")
    if not battle.needs():
        raise PositionError(
            "battle", "both sides have shown and thrown: the battle is settled at once, never left waiting"
        )


def _task_from_json(raw: object, players: int, decks: Decks, where: str) -> Task:
    if not isinstance(raw, list) or not raw or not isinstance(raw[0], str):
        raise PositionError(where, "expected a list such as [\"land\", 1]")
    kinds = task_kinds()
    kind = raw[0]
    shapes = {"end-turn": 1, "land": 2, "win": 2, "key-offer": 2, "draw": 3, "card": 3, "battle-offer": 3, "battle": 4}
    if kind not in kinds:
        raise PositionError(where, f"unknown task {kind!r} (known: {', '.join(kinds)})")
    if len(raw) != shapes[kind]:
        raise PositionError(where, f"task {kind!r} has {shapes[kind]} entries, got {len(raw)}")
    cls = kinds[kind]
    if cls is EndTurn:
        return EndTurn()
    p = _player_no(raw[1], players, f"{where}[1]")
    if cls is Land:
        return Land(p)
    if cls is Win:
        return Win(p)
    if cls is KeyOffer:
        return KeyOffer(p)
    if cls is Draw:
        if raw[2] not in decks.colours:
            raise PositionError(f"{where}[2]", f"expected a colour of {', '.join(decks.colours)}, got {raw[2]!r}")
        return Draw(p, raw[2])
    if cls is DoCard:
        if raw[2] not in decks.cards or decks.cards[raw[2]].deck == DIRECTION_DECK:
            raise PositionError(f"{where}[2]", f"expected a coloured card id, got {raw[2]!r}")
        return DoCard(p, raw[2])
    q = _player_no(raw[2], players, f"{where}[2]")
    if cls is BattleOffer:
        return BattleOffer(p, q)
    if not isinstance(raw[3], bool):
        raise PositionError(f"{where}[3]", "expected true (the keeper had to stop) or false")
    return Fight(p, q, raw[3])


__all__ = ["read_state", "validate"]
