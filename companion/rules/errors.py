"""One hierarchy of errors for the rules package.

Every leaf also subclasses :class:`ValueError`, as in gpiozero and python-chess, so a
caller that only knows the builtin still catches it.
"""

from __future__ import annotations


class RulesError(Exception):
    """Base of every error raised by the rules package."""


class IllegalMoveError(RulesError, ValueError):
    """An action that the rules forbid in this position.

    The message names the action and the position (its game, phase, player to act).
    """


class InvalidThrowError(RulesError, ValueError):
    """A throw that the current implement cannot show (wrong count, face or value)."""


class PositionError(RulesError, ValueError):
    """A position dictionary that cannot be read.

    :attr:`where` is the path of the offending key, e.g. ``"pieces.black[2]"``.
    """

    def __init__(self, where: str, reason: str) -> None:
        self.where = where
        self.reason = reason
        super().__init__(f"{where}: {reason}" if where else reason)


class UnknownGameError(RulesError, ValueError):
    """A game id that is not registered; the message lists the ids that are."""


class OptionError(RulesError, ValueError):
    """A game option that does not exist or has a value outside its range."""


class BoardDataError(RulesError, ValueError):
    """A board or deck data file that fails validation; names the file, line and reason."""

    def __init__(self, path: str, line: int | None, reason: str) -> None:
        self.path = path
        self.line = line
        self.reason = reason
        where = f"{path}:{line}" if line is not None else path
        super().__init__(f"{where}: {reason}")
