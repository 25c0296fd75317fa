"""The companion's errors outside the rules engines share one base, as gpiozero's do."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import companion
from companion.errors import CompanionError


def test_every_error_outside_the_rules_derives_from_companion_error() -> None:
    found = []
    for info in pkgutil.walk_packages(companion.__path__, "companion."):
        if info.name.startswith("companion.rules") or info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__ and issubclass(cls, BaseException):
                found.append(cls)
                assert issubclass(cls, CompanionError), f"{cls.__module__}.{cls.__name__}"
    names = {cls.__name__ for cls in found}
    assert {"ConfigError", "JournalError", "SourceUnavailableError", "FrameError"} <= names
