"""Headless Chromium driven through the DevTools protocol over a pipe, for the tests
that need a page laid out at a phone's width.

Why not ``--window-size=390,844`` with ``--dump-dom`` or ``--screenshot``: headless
Chromium never makes a window narrower than 500 CSS px. At 390 it lays the page out 500
px wide and the screenshot is cut to 390, so a page 110 px too wide looks fine. Here the
viewport is set by ``Emulation.setDeviceMetricsOverride`` (a phone: 390 x 844, a mobile
viewport, as the browser's device mode does), the page is measured by a script
evaluated in it (``Runtime.evaluate``: a DevTools evaluation, not a script of the page,
so the page's Content-Security-Policy is left as served) and photographed with
``Page.captureScreenshot``.

``--remote-debugging-pipe``: Chromium reads commands on its file descriptor 3 and writes
answers and events on 4, each a JSON text ended by a NUL byte; no port, no WebSocket
library. Only the standard library is used.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import programs
import pytest

CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)
"""Debian's chromium, or ``None`` (the tests that need it skip, :data:`needs_chromium`)."""
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars"]
"""The flags every test's Chromium starts with (a test adds its window size)."""

needs_chromium = pytest.mark.skipif(
    CHROMIUM is None,
    reason="no chromium: `make test` installs Debian's chromium when apt-get can be used "
    "as root; here it cannot (install it: apt-get install chromium)",
)
"""The skip mark of a module whose tests drive Chromium."""


def free_port() -> int:
    """A TCP port free on the loopback interface now (for a server the test starts)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_for(url: str, proc: subprocess.Popen[Any], seconds: float) -> None:
    """Wait until ``url`` answers 200, the server ``proc`` still running (tried every
    0.05 s, for ``seconds`` at most).

    :raises AssertionError: ``proc`` stopped (its standard error in the message), or no
        answer came in time.
    """
    for _ in range(round(seconds / 0.05)):
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                assert answer.status == 200
            return
        except OSError:
            if proc.poll() is not None:
                err = proc.stderr.read() if proc.stderr else ""
                raise AssertionError(f"the server stopped: {err.decode() if isinstance(err, bytes) else err}") from None
            time.sleep(0.05)
    raise AssertionError(f"{url} did not answer in {seconds:g} s")


PHONE = (390, 844)
"""A phone's viewport in CSS px (an iPhone 12-15's width)."""
DESKTOP = (1280, 900)


class DevToolsError(RuntimeError):
    """Chromium answered a command with an error, or stopped."""


class Tab:
    """One page of a :func:`browser`, with its own viewport."""

    def __init__(self, chrome: _Pipe, session: str) -> None:
        self._chrome = chrome
        self._session = session

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        return self._chrome.call(method, params, self._session)

    def open(self, url: str, size: tuple[int, int], *, mobile: bool) -> None:
        """Load ``url`` in a viewport of ``size`` (CSS px; ``mobile``: a phone's
        viewport, the page's ``<meta name="viewport">`` honoured) and wait for its load
        event."""
        self.call("Emulation.setDeviceMetricsOverride", width=size[0], height=size[1],
                  deviceScaleFactor=1, mobile=mobile)
        self.call("Page.navigate", url=url)
        self._chrome.wait_event("Page.loadEventFired", self._session)

    def evaluate(self, expression: str) -> Any:
        """The value of the JavaScript ``expression`` in the page (JSON-like)."""
        answer = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in answer:
            raise DevToolsError(f"the script failed: {answer['exceptionDetails']}")
        return answer["result"].get("value")

    def screenshot(self, path: Path) -> None:
        """The viewport as a PNG file at ``path``."""
        answer = self.call("Page.captureScreenshot", format="png")
        path.write_bytes(base64.b64decode(answer["data"]))


class _Pipe:
    def __init__(self, proc: subprocess.Popen[bytes], write: int, read: int, idle: float) -> None:
        self.proc = proc
        self.write = write
        self.read = read
        self.wait = programs.limit(idle)
        self.next_id = 0
        self.buffer = b""
        self.events: list[dict[str, Any]] = []

    def _message(self) -> dict[str, Any]:
        deadline = time.monotonic() + self.wait
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.read], [], [], max(0.0, left))
            if not ready:
                raise DevToolsError(f"no answer from Chromium in {self.wait:.0f} s")
            chunk = os.read(self.read, 1 << 16)
            if not chunk:
                raise DevToolsError(f"Chromium stopped (exit status {self.proc.poll()})")
            self.buffer += chunk
        text, self.buffer = self.buffer.split(b"\0", 1)
        message: dict[str, Any] = json.loads(text)
        return message

    def call(self, method: str, params: dict[str, Any], session: str | None = None) -> dict[str, Any]:
        self.next_id += 1
        mine = self.next_id
        command: dict[str, Any] = {"id": mine, "method": method, "params": params}
        if session is not None:
            command["sessionId"] = session
        os.write(self.write, json.dumps(command).encode() + b"\0")
        while True:
            message = self._message()
            if message.get("id") != mine:
                self.events.append(message)
                continue
            if "error" in message:
                raise DevToolsError(f"{method}: {message['error']}")
            result: dict[str, Any] = message.get("result", {})
            return result

    def wait_event(self, method: str, session: str) -> dict[str, Any]:
        while True:
            for i, event in enumerate(self.events):
                if event.get("method") == method and event.get("sessionId") == session:
                    del self.events[: i + 1]
                    return event
            self.events.append(self._message())


def _high(fd: int) -> int:
    """``fd`` moved to a descriptor of 10 or more (close-on-exec), so that putting
    another on 3 or 4 cannot overwrite it."""
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return moved


@contextmanager
def browser(chromium: str, flags: list[str], profile: Path, *, idle: float) -> Iterator[Tab]:
    """Chromium (the executable ``chromium``, started with ``flags``) and one page in
    it; ``idle``: seconds one step (a page loading, a script) takes on an idle machine:
    the net for each is :func:`programs.limit` of it. The browser and its process group
    are ended on leaving."""
    to_chrome_r, to_chrome_w = (_high(fd) for fd in os.pipe())
    from_chrome_r, from_chrome_w = (_high(fd) for fd in os.pipe())
    # bash puts the pipe's ends on the descriptors 3 and 4 that Chromium reads (dash
    # cannot: it takes descriptors 0-9 only, and pytest holds some of those).
    proc = subprocess.Popen(
        ["/bin/bash", "-c", f'exec "$0" "$@" 3<&{to_chrome_r} 4>&{from_chrome_w} '
         f"{to_chrome_r}<&- {from_chrome_w}>&-", chromium, *flags,
         "--remote-debugging-pipe", f"--user-data-dir={profile}", "about:blank"],
        pass_fds=(to_chrome_r, from_chrome_w), stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, start_new_session=True)
    os.close(to_chrome_r)
    os.close(from_chrome_w)
    chrome = _Pipe(proc, to_chrome_w, from_chrome_r, idle)
    try:
        target = chrome.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = chrome.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        tab = Tab(chrome, session)
        tab.call("Page.enable")
        yield tab
    finally:
        try:
            chrome.call("Browser.close", {})
            proc.wait(timeout=programs.limit(idle))
        except (DevToolsError, OSError, subprocess.TimeoutExpired):
            pass
        programs.kill_group(proc.pid)
        proc.wait()
        os.close(to_chrome_w)
        os.close(from_chrome_r)
