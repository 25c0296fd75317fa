"""The one finder of a class a game names as ``"module:Class"`` (its presenter, its
event words, its voice), imported on first use. The rules room has its own for the
games themselves (:mod:`companion.rules.registry`): it imports nothing of the project."""

from __future__ import annotations

import importlib
from typing import TypeVar

T = TypeVar("T")


def named_class(where: str, base: type[T]) -> type[T]:
    """The class ``where`` names (``"companion.ui.events.labyrinth:LabyrinthWords"``),
    which must be ``base`` or a subclass of it.

    :raises ImportError: the module cannot be imported.
    :raises AttributeError: the module has no such name.
    :raises TypeError: ``where`` is not ``"module:Class"``, or names something that is
        not a subclass of ``base``.
    """
    module_name, sep, class_name = where.partition(":")
    if not sep or not module_name or not class_name:
        raise TypeError(f"{where!r} is not 'module:Class'")
    found = getattr(importlib.import_module(module_name), class_name)
    if not (isinstance(found, type) and issubclass(found, base)):
        raise TypeError(f"{where} is not a {base.__name__}")
    return found


__all__ = ["named_class"]
