"""The typed events the service's loop consumes (the devices' events plus the service's
own) and the one :class:`Reply` the controller gives for each."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeAlias

from companion.app.settings import Prefs
from companion.devices.events import (
    ButtonEvent,
    ButtonName,
    DeviceEvent,
    Press,
    Shaken,
    ShakeStarted,
    SourceFailed,
    SourceName,
    SourceStatus,
    ThrowReported,
)
from companion.devices.indicators import Cue
from companion.rules import Implement, Throw
from companion.ui.view import View


@dataclass(frozen=True, slots=True)
class Quit:
    """Stop the loop (SIGTERM, Ctrl-C, the end of a scripted demo)."""

    reason: str = ""


@dataclass(frozen=True, slots=True)
class PanelIdle:
    """Nothing has happened for ``display.sleep_after`` seconds since event number
    ``generation``: the service switches the panel off (the controller never sees it)."""

    generation: int


Event: TypeAlias = DeviceEvent | Quit | PanelIdle


Draw = Callable[[Implement, int], Throw]
"""Draws a throw of an implement; the int is the number of actions so far (a seeded
demo uses it to make every throw reproducible; the service ignores it and uses
:func:`secrets.randbelow`)."""


@dataclass(frozen=True, slots=True)
class Reply:
    """What one event leaves: the ``view`` to draw, the implement a throw source should
    throw now (``due``, ``None`` when no throw is awaited), the settings in force
    (``prefs``: the throw source wanted, display sleep and contrast, sound, light),
    whether the source reports ``trouble`` (a shaker unplugged), the ``cue`` to sound
    (``None``: none) and ``quit`` once the service should stop."""

    view: View
    due: Implement | None
    prefs: Prefs
    trouble: bool = False
    cue: Cue | None = None
    quit: bool = False

    @property
    def source(self) -> SourceName:
        """The throw source wanted."""
        return SourceName(self.prefs.source)


__all__ = [
    "ButtonEvent",
    "ButtonName",
    "DeviceEvent",
    "Draw",
    "Event",
    "PanelIdle",
    "Press",
    "Quit",
    "Reply",
    "ShakeStarted",
    "Shaken",
    "SourceFailed",
    "SourceStatus",
    "ThrowReported",
]
