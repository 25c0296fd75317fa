"""The source keeper: the throw source wanted runs, armed for what is due; one that
cannot start is reported through the loop's queue, once."""

from __future__ import annotations

from typing import Any

from companion.devices.clock import ManualScheduler
from companion.devices.events import SourceFailed, SourceName
from companion.devices.sources import PassiveSource, SourceContext, SourceKeeper
from companion.rules import BinarySticks


def keeper(posted: list[Any]) -> SourceKeeper:
    # No shaker.pin: the GPIO shaker cannot start here.
    return SourceKeeper(SourceContext(posted.append, ManualScheduler(), None, {}))


def test_a_source_that_cannot_start_is_posted_as_an_event_once() -> None:
    posted: list[Any] = []
    k = keeper(posted)
    k.want(SourceName.GPIO_SHAKER, None)
    k.want(SourceName.GPIO_SHAKER, BinarySticks())  # the loop asks again before it hears
    assert posted == [SourceFailed("gpio-shaker", "gpio-shaker: no shaker.pin configured")]
    assert k.source is None


def test_the_source_wanted_is_armed_for_what_is_due_and_replaced_when_another_is_wanted() -> None:
    posted: list[Any] = []
    k = keeper(posted)
    sticks = BinarySticks()
    k.want(SourceName.BUTTON, sticks)
    button = k.source
    assert isinstance(button, PassiveSource) and button.name == "button"
    assert button.armed == sticks
    k.want(SourceName.BUTTON, None)
    assert k.source is button and button.armed is None
    k.want(SourceName.MANUAL, None)
    assert k.source is not None and k.source.name == "manual" and button.armed is None
    k.want(SourceName.GPIO_SHAKER, None)  # tried again after another source was wanted
    k.want(SourceName.MANUAL, None)
    k.want(SourceName.GPIO_SHAKER, None)
    assert [e.source for e in posted] == ["gpio-shaker", "gpio-shaker"]
    k.close()
    assert k.source is None
