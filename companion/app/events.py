"""The typed events the service's loop consumes: the devices' events plus the service's own."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from companion.devices.events import (
    ButtonEvent,
    ButtonName,
    DeviceEvent,
    Press,
    Shaken,
    ShakeStarted,
    SourceFailed,
    SourceStatus,
    ThrowReported,
)


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

__all__ = [
    "ButtonEvent",
    "ButtonName",
    "DeviceEvent",
    "Event",
    "PanelIdle",
    "Press",
    "Quit",
    "ShakeStarted",
    "Shaken",
    "SourceFailed",
    "SourceStatus",
    "ThrowReported",
]
