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
    SourceStatus,
    ThrowReported,
)


@dataclass(frozen=True, slots=True)
class Quit:
    """Stop the loop (SIGTERM, Ctrl-C, the end of a scripted demo)."""

    reason: str = ""


@dataclass(frozen=True, slots=True)
class SourceFailed:
    """The throw source ``source`` could not start: ``text`` says why."""

    source: str
    text: str


Event: TypeAlias = DeviceEvent | Quit | SourceFailed

__all__ = [
    "ButtonEvent",
    "ButtonName",
    "DeviceEvent",
    "Event",
    "Press",
    "Quit",
    "ShakeStarted",
    "Shaken",
    "SourceFailed",
    "SourceStatus",
    "ThrowReported",
]
