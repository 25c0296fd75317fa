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


def pytest_configure(config: pytest.Config) -> None:
    # luma.oled 3.16 calls Image.getdata(), deprecated since Pillow 13 (removed in 14):
    # one warning per frame drawn through the real drivers would drown the summary.
    config.addinivalue_line(
        "filterwarnings", "ignore:Image.Image.getdata is deprecated:DeprecationWarning"
    )
