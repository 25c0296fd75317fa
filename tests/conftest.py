"""Shared fixtures: a fresh gpiozero MockFactory per test, reset afterwards (gpiozero's
own pattern: pin reservations outlive a test otherwise); ``os.fsync`` that does not
wait for the disk in every test not marked ``real_fsync`` (:func:`no_disk_wait`).

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


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "real_fsync: os.fsync waits for the disk in this test "
                                       "(tests/conftest.py's no_disk_wait left out)")


_REAL_FSYNC = os.fsync


def _fsync_without_waiting(fd: int) -> None:
    """``os.fsync`` in the tests: the file descriptor checked (a closed or wrong one
    fails as it would, ``OSError`` EBADF), the wait for the disk left out."""
    os.fstat(fd)


@pytest.fixture(autouse=True, scope="session")
def no_disk_wait() -> Iterator[None]:
    """``os.fsync`` does not wait for the disk (:func:`_fsync_without_waiting`), for the
    whole session (module fixtures that play whole games included), except in a test
    marked ``real_fsync`` (:func:`real_fsync_where_marked`): a game through the
    controller writes a journal line and an fsync per action, and the whole games of
    the speech and screen tests alone made 50,000 fsyncs, 4 minutes of waiting on a busy
    disk (5 ms each), with the CPU idle. What is written is the same; that each action
    reaches the disk, in order, is tests/app/test_journal.py's (marked ``real_fsync``).
    A test that puts its own ``os.fsync`` in place (monkeypatch) has it."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(os, "fsync", _fsync_without_waiting)
        yield


@pytest.fixture(autouse=True)
def real_fsync_where_marked(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The real ``os.fsync`` in a test marked ``real_fsync``."""
    if request.node.get_closest_marker("real_fsync") is not None:
        monkeypatch.setattr(os, "fsync", _REAL_FSYNC)


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

