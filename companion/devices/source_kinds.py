"""What a throw source is and what its factory may use, apart from the sources
themselves (:mod:`companion.devices.sources`), so that a source's own module (the
serial shaker's host side) needs nothing of the list that builds it: no import circle."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from companion.devices.clock import Scheduler
from companion.devices.events import Post

if TYPE_CHECKING:  # the implements: imported with the first game, not at the start
    from companion.rules.throws import Implement


class ThrowSource(Protocol):
    """A source of throws, started by its factory and posting events to the loop.

    :meth:`arm` is called by the loop whenever what is due changes: an implement when
    a throw of it is due (a serial shaker may tell its device what to throw), ``None``
    when no throw is due (shaking is then ignored). :meth:`close` stops threads and
    releases pins or ports; it must be idempotent.
    """

    name: str

    def arm(self, implement: Implement | None) -> None: ...

    def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class SourceContext:
    """What a source factory may use: the loop's ``post``, the timers, the pin factory
    (``None``: gpiozero's default) and the whole configuration (a flat ``key -> value``
    mapping, keys as in the config file: ``"shaker.pin"``, ``"serial.port"``)."""

    post: Post
    scheduler: Scheduler
    pin_factory: Any
    config: dict[str, Any]


__all__ = ["SourceContext", "ThrowSource"]
