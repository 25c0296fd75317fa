"""What the ``companion`` commands share: the usage error, reading a game, its
options and a position file the user gave."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from companion.errors import CompanionError

# The rules are imported by the commands that read a game or a position, not with the
# module: `companion run` (the box's start) needs only UsageError from here (issue 35).
if TYPE_CHECKING:
    from companion.rules import Event, Game, State


EXIT_USAGE = 2
"""Exit status for bad input (a malformed position, an unknown game, a bad throw)."""


MAX_PLAYOUT_ACTIONS = 1_000_000
"""``rules play`` gives up after this many actions (a game that does not end is a bug)."""


class UsageError(CompanionError):
    """Bad input from the user: printed as one line, exit status 2."""


def _parse_options(pairs: Sequence[str]) -> dict[str, str]:
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"--option takes KEY=VALUE, got {pair!r}")
        options[key.strip()] = value.strip()
    return options


def _game(args: argparse.Namespace) -> Game:
    from companion.rules import get_game

    return get_game(args.game, **_parse_options(args.option))


def _new_state(args: argparse.Namespace) -> State:
    game = _game(args)
    return game.new_state(args.players)


def _read_position(path: str, game_id: str) -> State:
    """The position in the JSON file ``path`` (UTF-8, at most 1 MiB, finite numbers).

    :raises UsageError: naming the file and the reason, whatever is in it.
    """
    from companion.rules import BoardDataError, RulesError, state_from_dict
    from companion.rules.datafile import JsonTextError, parse_json, read_text

    try:
        text = read_text(path)
        data: Any = parse_json(text)
    except BoardDataError as exc:  # cannot read, too big, not UTF-8
        raise UsageError(str(exc)) from None
    except JsonTextError as exc:
        raise UsageError(f"{path}: {exc}") from None
    if isinstance(data, dict):
        data.setdefault("game", game_id)
        if data["game"] != game_id:
            raise UsageError(f"{path}: a position of {data['game']!r}, not of {game_id!r}")
    try:
        return state_from_dict(data)
    except RulesError as exc:
        raise UsageError(f"{path}: {exc}") from None


def _words(state: State, events: list[Event]) -> tuple[str, ...]:
    """``events`` in the companion's words, with the names of ``state``'s players."""
    from companion.ui.events import words_for

    return words_for(state).all(events)


def _position_with_throw(args: argparse.Namespace) -> tuple[State, dict[str, Any]]:
    """The position of ``--position`` with the ``--throw`` applied when it waits for
    one, and what the throw did (for the JSON answer).

    :raises UsageError: a throw is due but not given, or given but not due.
    """
    from companion.rules import Phase, game_class

    game_class(args.game)  # an unknown game fails before the file is read
    state = _read_position(args.position, args.game)
    result: dict[str, Any] = {"game": args.game}
    if state.phase is Phase.THROW:
        spec = state.throw_spec
        assert spec is not None
        if args.throw is None:
            raise UsageError(
                f"the position waits for a throw of {spec.describe()}: give --throw"
            )
        throw = spec.parse(args.throw)
        events = state.apply(throw)
        result["throw"] = str(throw)
        result["throw_events"] = list(_words(state, events))
    elif args.throw is not None:
        raise UsageError(
            f"the position is not waiting for a throw ({state.phase.value}); leave out --throw"
        )
    return state, result
