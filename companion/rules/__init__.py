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
