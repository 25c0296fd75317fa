"""The typed events that device threads post to the service's one loop.

Devices never call into the game: a gpiozero callback, a timer or a serial reader
only builds one of these frozen dataclasses and hands it to ``post``. The loop
consumes them in order, which is what makes the controller deterministic.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeAlias


class ButtonName(enum.Enum):
    """The companion's buttons (the pin of each is in the config, BCM numbering)."""

    UP = "up"
    DOWN = "down"
    OK = "ok"
    BACK = "back"
    THROW = "throw"


class Press(enum.Enum):
    """What a button did, after debouncing."""

    PRESSED = "pressed"
    """Went down (sent at once, so a screen can react without waiting for the release)."""
    SHORT = "short"
    """Came up before the hold time: a short press, complete."""
    HELD = "held"
    """Still down after the hold time (sent once per press)."""
    REPEAT = "repeat"
    """Auto-repeat while an UP/DOWN button stays down (after the repeat delay)."""


class SourceName(enum.StrEnum):
    """The throw sources by name (the names of the config file and the settings screen)."""

    GPIO_SHAKER = "gpio-shaker"
    SERIAL_SHAKER = "serial-shaker"
    BUTTON = "button"
    MANUAL = "manual"


@dataclass(frozen=True, slots=True)
class ButtonEvent:
    """A debounced button action."""

    button: ButtonName
    press: Press


@dataclass(frozen=True, slots=True)
class Shaken:
    """A shaker was shaken and has come to rest: draw a throw now.

    ``source`` names the throw source (a :class:`SourceName`).
    """

    source: str


@dataclass(frozen=True, slots=True)
class ShakeStarted:
    """Shaking has begun (the screen may say so; no throw is drawn yet)."""

    source: str


@dataclass(frozen=True, slots=True)
class ThrowReported:
    """A source that draws its own throws (the serial shaker) reports one.

    ``implement`` is the implement id it threw (``"4 sticks"``), ``faces`` one token
    per die / stick / card as :meth:`companion.rules.Implement.from_faces` reads them.
    """

    source: str
    implement: str
    faces: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SourceStatus:
    """A throw source's health changed (``ok`` False: unplugged, not answering)."""

    source: str
    ok: bool
    text: str


@dataclass(frozen=True, slots=True)
class SourceFailed:
    """The throw source ``source`` could not start: ``text`` says why (posted by the
    :class:`~companion.devices.sources.SourceKeeper`)."""

    source: str
    text: str


DeviceEvent: TypeAlias = (
    ButtonEvent | Shaken | ShakeStarted | ThrowReported | SourceStatus | SourceFailed
)
Post: TypeAlias = Callable[[DeviceEvent], None]
"""How a device hands an event to the loop (thread-safe, never blocks)."""
