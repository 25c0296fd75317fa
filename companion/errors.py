"""The one base of the companion's errors outside the rules engines.

As in gpiozero's ``exc.py``: every error the service, the devices or the command line
raise on purpose derives from :class:`CompanionError`, and each leaf also derives from
the builtin it is a kind of (a bad config value is a ``ValueError``), so a caller may
catch either. The rules engines keep their own tree (``companion.rules.RulesError``,
every leaf a ``ValueError``) because ``companion.rules`` imports nothing of the project
outside itself.
"""

from __future__ import annotations


class CompanionError(Exception):
    """Base of every error the companion raises on purpose outside ``companion.rules``."""


__all__ = ["CompanionError"]
