"""The service running on its own thread with mock pins, for the tests through the pins."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from companion.app.events import Quit
from companion.app.service import Parts, build, mock_factory
from companion.devices.clock import ManualScheduler
from companion.sim.demo import PinDriver


@contextmanager
def serving(conf: dict[str, Any], **build_args: Any) -> Iterator[tuple[Parts, PinDriver]]:
    """The service built from ``conf`` on fresh mock pins and a manual clock, its loop
    running, and a driver of its pins; stopped and closed on leaving."""
    parts = build(conf, pin_factory=mock_factory(), scheduler=ManualScheduler(), **build_args)
    loop = threading.Thread(target=parts.service.run)
    loop.start()
    driver = PinDriver(parts)
    driver.idle()
    try:
        yield parts, driver
    finally:
        parts.service.post(Quit())
        loop.join(5)
        parts.service.close()
