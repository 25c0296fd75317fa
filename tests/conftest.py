"""Shared fixtures: a fresh gpiozero MockFactory per test, reset afterwards (gpiozero's
own pattern: pin reservations outlive a test otherwise).

Hypothesis runs derandomized when ``CI`` is set (the ``ci`` profile): the same
examples on every run, so a red build is a change's doing, not the draw's. Off CI it
searches anew each run; ``HYPOTHESIS_PROFILE`` picks a profile by name either way."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.register_profile("pi", derandomize=True, print_blob=True, max_examples=20)
"""For `make test-pi`: the same code on an emulated arm64 CPU, 10-50x slower; the
search for failing examples is done on the build machine, this shows the code runs."""
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE")
                      or ("ci" if os.environ.get("CI") else "dev"))


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

