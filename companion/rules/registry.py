"""The list of games: ``get_game(id, **options)``, :func:`game_ids`, :func:`state_from_dict`.

Game modules are imported on first use, so listing the games costs nothing and a
broken game module cannot stop the others from loading.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from companion.rules.errors import PositionError, UnknownGameError

if TYPE_CHECKING:  # the menu lists the games without importing the engine's core
    from companion.rules.core import Game, State

_GAMES: dict[str, tuple[str, str, str]] = {
    # id: (module, class, title). One line per game; the order is the menu's order.
    # The title is here too so that a menu can list the games without importing them
    # all (a test checks it is the class's own title).
    "senet-tait": ("companion.rules.senet_tait", "SenetTait", "Senet (Tait's rules)"),
    "labyrinth": (
        "companion.rules.labyrinth", "Labyrinth", "Game of the Labyrinth (Peter Aleff)"
    ),
    "senet-sticks": ("companion.rules.senet_sticks", "SenetSticks", "Casting-stick Senet"),
    "cretan-labyrinth": (
        "companion.rules.cretan_labyrinth", "CretanLabyrinth", "The Cretan Labyrinth"
    ),
}


def register(cls: type[Game]) -> type[Game]:
    """Add a :class:`Game` subclass (already imported) to the list, last in the menu;
    returns ``cls``. For a game kept outside this package (a test's toy game, a
    house rule); every fact of the game is read from its class (python-chess's
    variants).

    :raises ValueError: another class is registered under ``cls.id``.
    """
    entry = (cls.__module__, cls.__qualname__, cls.title)
    if _GAMES.get(cls.id, entry) != entry:
        raise ValueError(f"a game {cls.id!r} is already registered")
    _GAMES[cls.id] = entry
    return cls


def game_ids() -> list[str]:
    """Every registered game id, in menu order."""
    return list(_GAMES)


def game_class(game_id: str) -> type[Game]:
    """The :class:`Game` subclass registered as ``game_id``.

    :raises UnknownGameError: naming the registered ids.
    """
    try:
        module_name, class_name, _title = _GAMES[game_id]
    except KeyError:
        raise UnknownGameError(
            f"unknown game {game_id!r}; games: {', '.join(_GAMES)}"
        ) from None
    cls: type[Game] = getattr(importlib.import_module(module_name), class_name)
    return cls


def game_title(game_id: str) -> str:
    """The title of ``game_id`` for a menu, without importing the game's module.

    :raises UnknownGameError: naming the registered ids.
    """
    if game_id not in _GAMES:
        game_class(game_id)  # raises the error that names the known ids
    return _GAMES[game_id][2]


def get_game(game_id: str, **options: object) -> Game:
    """The game ``game_id`` with ``options`` (names with ``-`` or ``_``; strings are parsed).

    :raises UnknownGameError: for an id that is not registered.
    :raises OptionError: for an unknown option or a bad value.
    """
    return game_class(game_id)(**options)


def state_from_dict(data: Mapping[str, Any]) -> State:
    """Read any game's position: the game and its options come from ``data``.

    :raises PositionError: naming the key and the reason.
    """
    if not isinstance(data, Mapping):
        raise PositionError("", "a position must be a JSON object")
    game_id = data.get("game")
    if not isinstance(game_id, str):
        raise PositionError("game", f"expected a game id ({', '.join(_GAMES)})")
    options = data.get("options", {})
    if not isinstance(options, Mapping):
        raise PositionError("options", "expected an object of option values")
    try:
        game = get_game(game_id, **options)
    except UnknownGameError as exc:
        raise PositionError("game", str(exc)) from None
    except ValueError as exc:
        raise PositionError("options", str(exc)) from None
    return game.state_from_dict(data)
