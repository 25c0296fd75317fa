"""The Pico shaker on USB serial as a throw source (``serial-shaker``).

Wraps :class:`companion.devices.shaker_link.ShakerLink` (pyserial ``serial.threaded``,
the protocol of ``docs/protocol.md``) behind the service's
:class:`~companion.devices.sources.ThrowSource` interface:

* :meth:`SerialShakerSource.arm` tells the shaker what is due (dice, two-sided or
  coloured casting sticks); ``None`` tells it that no throw is due;
* each throw becomes a :class:`~companion.devices.events.ThrowReported`, shaking a
  :class:`~companion.devices.events.ShakeStarted`, and the link's health a
  :class:`~companion.devices.events.SourceStatus` ("shaker unplugged" is shown on the
  throw screen; the game waits, nothing is lost);
* a card cannot be drawn by the Pico (it knows nothing of the decks): while a card is
  due, a shake of the cup is passed on as :class:`~companion.devices.events.Shaken`, and
  the companion draws the card itself, as it does for the GPIO shaker.

Every callback runs in the link's threads and only posts to the loop's queue.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from companion.devices.events import (
    Post,
    Shaken,
    ShakeStarted,
    SourceName,
    SourceStatus,
    ThrowReported,
)
from companion.devices.shaker_codec import ShakerProtocolError
from companion.devices.shaker_link import ShakerLink, ShakerStatus
from companion.devices.source_kinds import SourceContext, ThrowSource
from companion.rules.throws import Deck, Implement, Throw

log = logging.getLogger(__name__)

NAME = SourceName.SERIAL_SHAKER

LinkFactory = Callable[..., Any]
"""Builds the link: ``ShakerLink`` itself, or a stand-in in tests (same keywords)."""


class SerialShakerSource:
    """The serial shaker as a throw source.

    :param post: the loop's ``post`` (thread-safe).
    :param port: the device path (``/dev/board-shaker``, ``/dev/ttyACM0``), or ``None``
        to find the Pico by its USB VID:PID 2E8A:0005 at each (re)connection.
    :param baud: baud rate (USB CDC ignores it; a UART bridge needs it), 1200..4000000.
    :param link_factory: what builds the link (default :class:`ShakerLink`).
    """

    name: str = NAME

    def __init__(
        self,
        post: Post,
        *,
        port: str | None,
        baud: int,
        link_factory: LinkFactory = ShakerLink,
    ) -> None:
        self._post = post
        self._card_due = False
        self._shaken = False
        self._link = link_factory(
            on_throw=self._on_throw,
            on_status=self._on_status,
            on_error=self._on_error,
            port=port,
            baudrate=baud,
        )
        self._link.start()

    def arm(self, implement: Implement | None) -> None:
        """Tell the shaker what is due now (``None``: nothing)."""
        self._card_due = isinstance(implement, Deck)
        self._shaken = False
        if implement is None or self._card_due:
            self._link.cancel_throw()
            return
        try:
            self._link.request_throw(implement)
        except ShakerProtocolError as exc:
            self._post(SourceStatus(NAME, False, f"the shaker cannot throw this: {exc}"))

    def close(self) -> None:
        """Close the port and stop the link's threads (idempotent)."""
        self._link.stop()

    # --- from the link's threads ----------------------------------------------------

    def _on_throw(self, throw: Throw) -> None:
        self._post(ThrowReported(NAME, throw.implement, throw.faces))

    def _on_status(self, status: ShakerStatus) -> None:
        self._post(SourceStatus(NAME, status.connected, status.message))
        if status.state == "shaking":
            self._shaken = True
            self._post(ShakeStarted(NAME))
        elif self._card_due and self._shaken and status.connected:
            # the shake is over and the Pico, not armed, threw nothing: draw the card
            self._shaken = False
            self._post(Shaken(NAME))

    def _on_error(self, text: str) -> None:
        log.warning("serial shaker: %s", text)
        self._post(SourceStatus(NAME, False, text))


def make_source(ctx: SourceContext, link_factory: LinkFactory = ShakerLink) -> ThrowSource:
    """The factory entry for ``serial-shaker`` (config keys ``serial.port``, ``serial.baud``;
    an empty port finds the Pico by its USB IDs)."""
    port = str(ctx.config.get("serial.port") or "") or None
    return SerialShakerSource(
        ctx.post, port=port, baud=int(ctx.config["serial.baud"]), link_factory=link_factory
    )
