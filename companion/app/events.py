"""The typed events the service's loop consumes (:data:`LoopEvent`: the devices' events,
the service's own and the worker's results) and the one :class:`Reply` the controller
gives for each. (A game's own events, what a move did, are
:class:`companion.rules.Event`.)"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

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
from companion.ui.view import View

if TYPE_CHECKING:  # the worker's results: imported with the first event (see __getattr__)
    from typing import TypeAlias

    from companion.app.results import (
        BoardChecked,
        CalibrationLooked,
        CameraRead,
        ComputerChose,
        ComputerThrew,
        Found,
        HintFound,
        MovesValued,
        ReviewDone,
        WorkDone,
        WorkFailed,
    )
    from companion.rules import Implement, Throw  # the engine: with the first game


@dataclass(frozen=True, slots=True)
class Quit:
    """Stop the loop (SIGTERM, Ctrl-C, the end of a scripted demo)."""

    reason: str = ""


@dataclass(frozen=True, slots=True)
class PanelIdle:
    """Nothing has happened for ``display.sleep_after`` seconds since event number
    ``generation``: the service switches the panel off (the controller never sees it)."""

    generation: int


@dataclass(frozen=True, slots=True)
class SpeechFailed:
    """Speech failed (no espeak-ng, an audio device that fails, the engine's process
    died): ``text`` says what in one line, in the language in use. The speaker reports
    it once and goes silent for a while (:mod:`companion.speech.engine`); the game goes
    on without speech."""

    text: str


if TYPE_CHECKING:
    LoopEvent: TypeAlias = DeviceEvent | Quit | PanelIdle | WorkDone | SpeechFailed
    """Every event the loop consumes: the devices', the service's own, the worker's
    results (:mod:`companion.app.results`)."""

_RESULTS = frozenset({"BoardChecked", "CalibrationLooked", "CameraRead", "ComputerChose",
                      "ComputerThrew", "Found", "HintFound", "MovesValued", "ReviewDone",
                      "WorkDone", "WorkFailed"})


def __getattr__(name: str) -> Any:
    """The worker's results (:mod:`companion.app.results`) and :data:`LoopEvent`, the
    union that holds them, given on first use (PEP 562): the service's start imports
    this module, and nothing before its first frame needs them (issue 35)."""
    if name not in _RESULTS and name != "LoopEvent":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from companion.app import results

    value = (DeviceEvent | Quit | PanelIdle | results.WorkDone | SpeechFailed
             if name == "LoopEvent" else getattr(results, name))
    globals()[name] = value
    return value



Draw: TypeAlias = "Callable[[Implement, int], Throw]"
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
    "BoardChecked",
    "ButtonEvent",
    "ButtonName",
    "CalibrationLooked",
    "CameraRead",
    "ComputerChose",
    "ComputerThrew",
    "DeviceEvent",
    "Draw",
    "Found",
    "HintFound",
    "LoopEvent",
    "MovesValued",
    "PanelIdle",
    "Press",
    "Quit",
    "Reply",
    "ReviewDone",
    "ShakeStarted",
    "Shaken",
    "SourceFailed",
    "SourceStatus",
    "SpeechFailed",
    "ThrowReported",
    "WorkDone",
    "WorkFailed",
]
