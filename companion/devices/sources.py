"""Throw sources: where a throw comes from, behind one small interface.

========================  =================================================================
``gpio-shaker``           a vibration / tilt switch on a GPIO pin; posts ``Shaken`` and the
                          service draws the throw (``secrets.randbelow``)
``serial-shaker``         the Pico shaker on USB serial; it draws the throw itself and
                          posts ``ThrowReported`` (host side: ``companion.devices.serial_shaker``)
``button``                the THROW button (or OK when no THROW button is wired): the
                          service draws the throw
``manual``                players throw their own sticks or dice and enter each value
                          with the buttons
========================  =================================================================

A new source is one class with ``name``, :meth:`ThrowSource.arm` and
:meth:`ThrowSource.close`, plus one entry in :data:`FACTORIES`.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from companion.devices.events import SourceFailed, SourceName
from companion.devices.source_kinds import SourceContext as SourceContext  # re-exported
from companion.devices.source_kinds import ThrowSource as ThrowSource  # re-exported
from companion.errors import CompanionError

if TYPE_CHECKING:  # the implements: imported with the first game, not at the start
    from companion.rules.throws import Implement

log = logging.getLogger(__name__)


SOURCE_NAMES: tuple[SourceName, ...] = tuple(SourceName)
"""Every throw source, in the settings screen's order."""

DRAWN_BY_SERVICE = frozenset({SourceName.GPIO_SHAKER, SourceName.BUTTON})
"""Sources that only say "throw now"; the service draws the throw itself."""


class PassiveSource:
    """A source with no device of its own (``button``, ``manual``): the controller handles it."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.armed: Implement | None = None

    def arm(self, implement: Implement | None) -> None:
        self.armed = implement

    def close(self) -> None:
        self.armed = None


class SourceUnavailableError(CompanionError):
    """A configured throw source cannot be started (missing module, no pin, no port)."""


def _gpio_shaker(ctx: SourceContext) -> ThrowSource:
    from companion.devices.shaker import GpioShaker, ShakeTiming

    pin = ctx.config.get("shaker.pin")
    if pin is None:
        raise SourceUnavailableError("gpio-shaker: no shaker.pin configured")
    timing = ShakeTiming(
        quiet=float(ctx.config["shaker.quiet"]), min_edges=int(ctx.config["shaker.min_edges"])
    )
    return GpioShaker(int(pin), ctx.post, ctx.scheduler, timing, pin_factory=ctx.pin_factory)


def _serial_shaker(ctx: SourceContext) -> ThrowSource:
    """The seam for the serial shaker's host side.

    The module ``companion.devices.serial_shaker`` (written with the firmware) must
    define ``make_source(ctx: SourceContext) -> ThrowSource`` that posts
    :class:`~companion.devices.events.ThrowReported` for each throw and
    :class:`~companion.devices.events.SourceStatus` when the link goes up or down.
    """
    try:
        module = importlib.import_module("companion.devices.serial_shaker")
    except ModuleNotFoundError as exc:
        if exc.name != "companion.devices.serial_shaker":
            raise
        raise SourceUnavailableError(
            "serial-shaker: the serial shaker's host side is not installed"
        ) from None
    make: Callable[[SourceContext], ThrowSource] = module.make_source
    return make(ctx)


FACTORIES: dict[str, Callable[[SourceContext], ThrowSource]] = {
    SourceName.GPIO_SHAKER: _gpio_shaker,
    SourceName.SERIAL_SHAKER: _serial_shaker,
    SourceName.BUTTON: lambda ctx: PassiveSource(SourceName.BUTTON),
    SourceName.MANUAL: lambda ctx: PassiveSource(SourceName.MANUAL),
}
"""How each throw source is built; one entry per name in :data:`SOURCE_NAMES`."""


def make_source(name: str, ctx: SourceContext) -> ThrowSource:
    """Build the throw source ``name``.

    :raises SourceUnavailableError: unknown name, or the source cannot start here.
    """
    try:
        factory = FACTORIES[name]
    except KeyError:
        raise SourceUnavailableError(
            f"unknown throw source {name!r}; sources: {', '.join(SOURCE_NAMES)}"
        ) from None
    return factory(ctx)


class SourceKeeper:
    """Owns the running throw source: starts the one wanted, arms it for what is due,
    closes it when another is wanted.

    A source that cannot start (no pin, no port, no module) is reported by posting
    :class:`~companion.devices.events.SourceFailed` to the loop, like any other event,
    and not tried again until another source has been wanted in between.
    """

    def __init__(self, ctx: SourceContext) -> None:
        self._ctx = ctx
        self.source: ThrowSource | None = None
        """The source running now (``None``: none, or the one wanted failed)."""
        self._armed: Implement | None = None
        self._failed: str | None = None

    def want(self, name: str, due: Implement | None) -> None:
        """Have source ``name`` running, armed for ``due`` (``None``: no throw is due)."""
        if self.source is None or self.source.name != name:
            if self._failed == name and self.source is None:
                return
            self.close()
            try:
                self.source = make_source(name, self._ctx)
            except (SourceUnavailableError, OSError, ValueError) as exc:
                log.warning("throw source %s: %s", name, exc)
                self._failed = name
                self._ctx.post(SourceFailed(name, str(exc)))
                return
            self._failed = None
            log.info("throw source: %s", name)
        if due != self._armed:
            self._armed = due
            self.source.arm(due)

    def close(self) -> None:
        """Stop the running source (idempotent)."""
        if self.source is not None:
            self.source.close()
            self.source = None
        self._armed = None
