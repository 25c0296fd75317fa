"""The club's check of what a box sends: the actions replayed by the rules engine.

The shape and size of a payload are checked by :mod:`companion.club.protocol`; here the
game is set up from the payload's ``game``, ``options`` and ``players``, and every
action record is replayed with :func:`companion.journal.store.parse_action` (the journal's
own reading). A state whose actions do not replay, or a result whose actions do not
end in a finished game won by its ``winner``, is a bad message
(:class:`~companion.club.protocol.ProtocolError`): the club logs and skips it.

A game option that names a data file (a board, a deck: a
:class:`~companion.rules.core.FileOption`) is refused unless it is the packaged default
(``""``): a path that came over the network is never opened.
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from companion.club.protocol import ProtocolError, canonical
from companion.journal.store import parse_action
from companion.rules import Action, Event, Game, RulesError, State, get_game
from companion.rules.registry import game_class

log = logging.getLogger(__name__)

GAMES_KEPT: Final = 32
"""Games (a game id with its options) kept made, least recently used dropped."""
MAX_ACTIONS: Final = 5000
"""The most action records replayed for one message (a long real game: a few hundred)."""


@dataclass(frozen=True)
class Replayed:
    """A payload's game rebuilt: the ``game``, ``players``, the ``actions`` in order and
    the ``state`` after them; ``last``: the events (data) of the last action that had
    any, as the rules returned them (the page words them: never the box's words)."""

    game: Game
    players: int
    actions: tuple[Action, ...]
    state: State
    last: tuple[Event, ...] = ()


def replay_payload(payload: Mapping[str, Any], *,
                   base: tuple[Sequence[Mapping[str, Any]], Replayed] | None = None) -> Replayed:
    """The game of a checked-shape payload (state or result), replayed.

    ``base``: the action records of an earlier payload of the same table and their
    replay; when the game, options and players are the same and those records begin
    the new ones, only the new actions are replayed (onto a copy of its state), so a
    table's state payloads cost one action each rather than a whole game.

    :raises ProtocolError: an unknown game, bad options (a data file path among them),
        a number of players the game does not take, more than :data:`MAX_ACTIONS`
        actions, or an action that does not fit its position.
    """
    game_id = payload["game"]
    options = payload["options"]
    players = payload["players"]
    records = payload["actions"]
    if len(records) > MAX_ACTIONS:
        raise ProtocolError(f"{len(records)} actions, over {MAX_ACTIONS}")
    try:
        cls = game_class(game_id)
        for option in cls.options:
            if option.names_file:
                for key in (option.name, option.name.replace("-", "_")):
                    if options.get(key, "") not in ("", None):
                        raise ProtocolError(f"option {option.name}: a data file is never "
                                            "opened from the network")
        game = _game(game_id, canonical(options))
        game.check_players(players)
        state = game.new_state(players)
    except ProtocolError:
        raise
    except RulesError as exc:
        raise ProtocolError(f"game {game_id!r}: {exc}") from None
    except Exception as exc:  # an option value a game's constructor did not expect
        raise ProtocolError(f"game {game_id!r} cannot be set up ({type(exc).__name__})") from None
    actions: list[Action] = []
    last: tuple[Event, ...] = ()
    start = 0
    if base is not None:
        done, before = base
        if (before.game.id == game.id and before.players == players
                and dict(before.game.option_values) == dict(game.option_values)
                and len(done) <= len(records) and list(records[: len(done)]) == list(done)):
            state = before.state.copy()
            actions = list(before.actions)
            last = before.last
            start = len(done)
    for n, record in enumerate(records[start:], start=start + 1):
        if state.outcome is not None:
            raise ProtocolError(f"action {n}: after the end of the game")
        try:
            action = parse_action(state, record)
            events = state.apply(action)
        except (ValueError, RulesError) as exc:
            raise ProtocolError(f"action {n} does not replay: {exc}") from None
        except Exception as exc:  # a rules engine failing on a record it should refuse
            log.debug("club: action %d cannot be replayed", n, exc_info=True)
            raise ProtocolError(f"action {n} cannot be replayed ({type(exc).__name__})") from None
        actions.append(action)
        if events:
            last = tuple(events)
    return Replayed(game, players, tuple(actions), state, last)


@functools.lru_cache(maxsize=GAMES_KEPT)
def _game(game_id: str, options: bytes) -> Game:
    """The game ``game_id`` with the options of canonical JSON ``options``, made once
    for the last :data:`GAMES_KEPT` asked for (a game with its options fixed is shared by
    its states; the Labyrinth's costs about 10 ms to make, more than a message's replay).

    :raises RulesError: an unknown game or option, a bad value.
    """
    return get_game(game_id, **json.loads(options))


def winners(replayed: Replayed) -> tuple[str, ...]:
    """The winners' names of a finished game (``()`` when it is not finished)."""
    outcome = replayed.state.outcome
    if outcome is None:
        return ()
    return tuple(replayed.game.player_name(p, replayed.players) for p in outcome.winners)


def check_result(payload: Mapping[str, Any]) -> Replayed:
    """A result payload's game, when its actions replay to a finished game won by its
    ``winner`` (``null``: won by more than one) with its ``seats`` named as the game
    names its players.

    :raises ProtocolError: "a result for a game that does not exist", with the reason.
    """
    try:
        replayed = replay_payload(payload)
    except ProtocolError as exc:
        raise ProtocolError(f"a result for a game that does not exist: {exc}") from None
    won = winners(replayed)
    if not won:
        raise ProtocolError("a result for a game that does not exist: the actions do not "
                            "end the game")
    claimed = payload["winner"]
    if (claimed is None and len(won) == 1) or (claimed is not None and won != (claimed,)):
        raise ProtocolError(f"a result for a game that does not exist: won by "
                            f"{' and '.join(won)}, not {claimed!r}")
    names = [replayed.game.player_name(i, replayed.players) for i in range(replayed.players)]
    if [s["name"] for s in payload["seats"]] != names:
        raise ProtocolError("a result for a game that does not exist: its seats are not "
                            f"the game's players ({', '.join(names)})")
    return replayed


__all__ = ["MAX_ACTIONS", "Replayed", "check_result", "replay_payload", "winners"]
