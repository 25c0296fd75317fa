"""The serial shaker as a throw source: what it asks of the link, what it posts to the loop.

The link here is a stand-in recording the calls (the real link is tested on a pty in
tests/devices/test_shaker_link.py, and with the real firmware and the whole service in
tests/firmware/test_shaker_service.py).
"""

from __future__ import annotations

from typing import Any

from companion.devices.events import Shaken, ShakeStarted, SourceStatus, ThrowReported
from companion.devices.serial_shaker import SerialShakerSource
from companion.devices.shaker_codec import ShakerProtocolError
from companion.devices.shaker_link import ShakerStatus
from companion.rules import BinarySticks, Deck, Dice, Implement


class Link:
    """Records what the source asks; the test calls the callbacks as the link would."""

    def __init__(self, **kwargs: Any) -> None:
        self.kwargs = kwargs
        self.calls: list[str] = []

    def start(self) -> None:
        self.calls.append("start")

    def stop(self) -> None:
        self.calls.append("stop")

    def request_throw(self, implement: Implement) -> None:
        if isinstance(implement, Dice) and implement.count > 4:
            raise ShakerProtocolError("no more than 4 dice")
        self.calls.append(f"request {implement.id}")

    def cancel_throw(self) -> None:
        self.calls.append("cancel")


def make(port: str | None = "/dev/board-shaker") -> tuple[SerialShakerSource, Link, list[Any]]:
    posted: list[Any] = []
    links: list[Link] = []

    def factory(**kwargs: Any) -> Link:
        links.append(Link(**kwargs))
        return links[-1]

    source = SerialShakerSource(posted.append, port=port, baud=115200, link_factory=factory)
    return source, links[0], posted


def test_the_link_starts_on_the_configured_port_and_stops_on_close() -> None:
    source, link, _ = make()
    assert link.kwargs["port"] == "/dev/board-shaker" and link.kwargs["baudrate"] == 115200
    source.close()
    assert link.calls == ["start", "stop"]


def test_the_shaker_is_told_what_is_due_and_its_throw_reaches_the_loop() -> None:
    source, link, posted = make()
    source.arm(BinarySticks(4))
    source.arm(None)
    assert link.calls[1:] == ["request 4 sticks", "cancel"]
    throw = BinarySticks(4).parse("LLDD")
    link.kwargs["on_throw"](throw)
    assert posted == [ThrowReported("serial-shaker", "4 sticks", ("L", "L", "D", "D"))]


def test_unplugging_is_said_on_the_screen_and_shaking_is_shown() -> None:
    _, link, posted = make()
    link.kwargs["on_status"](ShakerStatus(False, "shaker unplugged"))
    link.kwargs["on_status"](ShakerStatus(True, "shaking...", state="shaking"))
    assert posted == [
        SourceStatus("serial-shaker", False, "shaker unplugged"),
        SourceStatus("serial-shaker", True, "shaking..."),
        ShakeStarted("serial-shaker"),
    ]


def test_a_card_is_drawn_by_the_companion_after_a_shake_of_the_cup() -> None:
    source, link, posted = make()
    source.arm(Deck("direction", ("north", "south")))
    assert link.calls[-1] == "cancel"  # the Pico has no decks: it throws nothing
    link.kwargs["on_status"](ShakerStatus(True, "shaking...", state="shaking"))
    link.kwargs["on_status"](ShakerStatus(True, "no throw is due", state="idle"))
    assert posted[-1] == Shaken("serial-shaker")


def test_no_card_is_drawn_without_a_shake_nor_when_sticks_are_due() -> None:
    source, link, posted = make()
    source.arm(Deck("direction", ("north",)))
    link.kwargs["on_status"](ShakerStatus(True, "shaker ready", state="idle"))
    source.arm(BinarySticks(4))
    link.kwargs["on_status"](ShakerStatus(True, "shaking...", state="shaking"))
    link.kwargs["on_status"](ShakerStatus(True, "shaker ready", state="idle"))
    assert not any(isinstance(event, Shaken) for event in posted)


def test_an_implement_the_shaker_cannot_throw_is_said_on_the_screen() -> None:
    source, _, posted = make()
    source.arm(Dice(5, 6))
    assert posted == [
        SourceStatus("serial-shaker", False, "the shaker cannot throw this: no more than 4 dice")
    ]


def test_an_empty_port_means_find_the_pico_by_its_usb_ids() -> None:
    from companion.devices.clock import ManualScheduler
    from companion.devices.serial_shaker import make_source
    from companion.devices.sources import SourceContext

    links: list[Link] = []

    def factory(**kwargs: Any) -> Link:
        links.append(Link(**kwargs))
        return links[-1]

    context = SourceContext(lambda event: None, ManualScheduler(), None,
                            {"serial.port": "", "serial.baud": 9600})
    make_source(context, link_factory=factory).close()
    assert links[0].kwargs["port"] is None and links[0].kwargs["baudrate"] == 9600
