"""Pure rules engines for the companion's games: no I/O, clocks, randomness or hardware.

>>> from companion.rules import get_game, Phase
>>> state = get_game("senet-tait").new_state()
>>> state.phase is Phase.THROW, state.player_to_act_name
(True, 'Black')
>>> [(e.kind, e.player, dict(e.args)) for e in state.apply(state.throw_spec.parse("4"))]
[('thrown', 0, {'value': 4})]
>>> [m.notation for m in state.legal_moves()]
['enter 4']
"""

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.rules.core import (
        PASS,
        Action,
        Event,
        FileOption,
        Game,
        Move,
        Option,
        Outcome,
        Phase,
        PieceAt,
        PieceZone,
        State,
        play_out,
        random_action,
    )
    from companion.rules.errors import (
        BoardDataError,
        IllegalMoveError,
        InvalidThrowError,
        OptionError,
        PositionError,
        RulesError,
        UnknownGameError,
    )
    from companion.rules.registry import (
        game_class,
        game_ids,
        game_title,
        get_game,
        register,
        state_from_dict,
    )
    from companion.rules.throws import (
        BinarySticks,
        ChanceOutcome,
        ColouredSticks,
        Deck,
        Dice,
        Implement,
        StickFace,
        Throw,
    )

_LAZY = {
    **dict.fromkeys(("PASS", "Action", "Event", "FileOption", "Game", "Move", "Option",
                     "Outcome", "Phase", "PieceAt", "PieceZone", "State", "play_out",
                     "random_action"), "core"),
    **dict.fromkeys(("BoardDataError", "IllegalMoveError", "InvalidThrowError", "OptionError",
                     "PositionError", "RulesError", "UnknownGameError"), "errors"),
    **dict.fromkeys(("game_class", "game_ids", "game_title", "get_game", "register",
                     "state_from_dict"), "registry"),
    **dict.fromkeys(("BinarySticks", "ChanceOutcome", "ColouredSticks", "Deck", "Dice",
                     "Implement", "StickFace", "Throw"), "throws"),
}
"""Every name of the package, by the module that holds it: imported when first asked for
(PEP 562), so that importing one light module of the package (:mod:`.datafile`,
:mod:`.errors`, :mod:`.registry`, :mod:`.kinds`) does not import the engine's core and
its implements (about 10 ms of CPU, most of it their dataclasses). The start draws its
first frame without them (issue 35; tests/sim/test_start_imports.py)."""


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


__all__ = [
    "PASS",
    "Action",
    "BinarySticks",
    "BoardDataError",
    "ChanceOutcome",
    "ColouredSticks",
    "Deck",
    "Dice",
    "Event",
    "FileOption",
    "Game",
    "IllegalMoveError",
    "Implement",
    "InvalidThrowError",
    "Move",
    "Option",
    "OptionError",
    "Outcome",
    "Phase",
    "PieceAt",
    "PieceZone",
    "PositionError",
    "RulesError",
    "State",
    "StickFace",
    "Throw",
    "UnknownGameError",
    "game_class",
    "game_ids",
    "game_title",
    "get_game",
    "play_out",
    "random_action",
    "register",
    "state_from_dict",
]
