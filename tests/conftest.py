"""Shared fixtures: a fresh gpiozero MockFactory per test, reset afterwards (gpiozero's
own pattern: pin reservations outlive a test otherwise)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture
def mock_factory() -> Iterator[Any]:
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    previous = Device.pin_factory
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = previous

