"""`companion web` under its own unit's limits (issue 22 part 9), loopback traffic only.

The unit gives the page ``TasksMax=32`` and ``MemoryMax=150M`` (read here from
``systemd/board-companion-web.service``) and the default 1,024 open files. Before, the
server ran a thread per event stream (40 spectators: 8 streams cut, "can't start new
thread", a 500), read a 200 MB journal whole per page view (272 MB), and kept idle
connections forever (1,100 of them made the page unreachable and flooded the log).

The server runs in a subprocess with the unit's open-file limit; its threads and its
resident memory are sampled from ``/proc`` all along and must stay under the unit's
``TasksMax`` and ``MemoryMax`` (a thread limit cannot be set per process: RLIMIT_NPROC
counts the whole user).
"""

from __future__ import annotations

import contextlib
import re
import resource
import selectors
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from web_journals import write_game

UNIT = Path(__file__).resolve().parents[2] / "systemd" / "board-companion-web.service"
UNIT_OPEN_FILES = 1024
"""systemd's default soft LimitNOFILE (the unit sets none)."""
BIG = "20250101-000000-senet-tait.journal"
LINES = "20250102-000000-senet-tait.journal"

pytestmark = pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc")


def unit_limits() -> tuple[int, int]:
    """``TasksMax`` and ``MemoryMax`` (bytes) of the spectator page's unit."""
    text = UNIT.read_text()
    tasks = re.search(r"^TasksMax=(\d+)$", text, re.M)
    memory = re.search(r"^MemoryMax=(\d+)([KMG]?)$", text, re.M)
    assert tasks and memory, "the unit sets TasksMax= and MemoryMax="
    scale = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}[memory.group(2)]
    return int(tasks.group(1)), int(memory.group(1)) * scale


@dataclass
class Peak:
    """The most threads and resident memory (bytes) seen in one process."""

    pid: int
    threads: int = 0
    rss: int = 0
    stop: threading.Event = field(default_factory=threading.Event)

    def sample(self) -> None:
        while not self.stop.is_set():
            try:
                status = Path(f"/proc/{self.pid}/status").read_text()
            except OSError:
                return
            found = dict(re.findall(r"^(Threads|VmHWM):\s+(\d+)", status, re.M))
            self.threads = max(self.threads, int(found.get("Threads", 0)))
            self.rss = max(self.rss, int(found.get("VmHWM", 0)) * 1024)
            time.sleep(0.02)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _unit_open_files() -> None:  # in the server's child process, before exec
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(UNIT_OPEN_FILES, hard), hard))


@contextlib.contextmanager
def serving(directory: Path, log: Path,
            code: str | None = None) -> Iterator[tuple[int, Peak, subprocess.Popen[bytes]]]:
    """The spectator page on a free loopback port under the unit's open-file limit
    (``code``: a Python program instead of `companion web`, given the port as
    ``sys.argv[1]`` and the directory as ``sys.argv[2]``); yields the port, the
    sampler of its peak threads and memory, and the process."""
    port = _free_port()
    argv = ([sys.executable, "-c", code, str(port), str(directory)] if code else
            [sys.executable, "-m", "companion", "web", "--bind", "127.0.0.1", "--port",
             str(port), "--dir", str(directory)])
    with log.open("wb") as err:
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err,
                                preexec_fn=_unit_open_files)
    peak = Peak(proc.pid)
    sampler = threading.Thread(target=peak.sample, daemon=True)
    sampler.start()
    try:
        deadline = time.monotonic() + 20
        while _get(port, "/", 1)[0] != 200:
            assert proc.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        yield port, peak, proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        peak.stop.set()
        sampler.join(2)


def _get(port: int, path: str, timeout: float = 10) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=timeout) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()
    except OSError:
        return 0, b""


class Spectators:
    """``n`` event-stream clients on loopback, read together with one selector."""

    def __init__(self, port: int, n: int) -> None:
        self.selector = selectors.DefaultSelector()
        self.seen: dict[socket.socket, bytes] = {}
        self.cut: set[socket.socket] = set()
        for _ in range(n):
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            s.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
            s.setblocking(False)
            self.seen[s] = b""
            self.selector.register(s, selectors.EVENT_READ)

    def read_for(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for key, _ in self.selector.select(0.1):
                s = key.fileobj
                assert isinstance(s, socket.socket)
                try:
                    data = s.recv(65536)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    data = b""
                if not data:
                    self.cut.add(s)
                    self.selector.unregister(s)
                else:
                    self.seen[s] += data

    @property
    def served(self) -> int:
        """Streams answered 200 with at least one board event."""
        return sum(1 for d in self.seen.values()
                   if d.startswith(b"HTTP/1.1 200") and b"event: board\ndata: " in d)

    def close(self) -> None:
        for s in self.seen:
            s.close()
        self.selector.close()


@pytest.fixture
def journals(tmp_path: Path) -> Path:
    folder = tmp_path / "state"
    folder.mkdir()
    path, _ = write_game(folder, "senet-tait", 40, seed=3)
    with (folder / BIG).open("wb") as fh:  # 200 MB (sparse: no disk used)
        fh.truncate(200 * 1000 * 1000)
    head = path.read_bytes().split(b"\n", 1)[0] + b"\n"
    with (folder / LINES).open("wb") as fh:  # under the 32 MiB cap: 31 million empty lines
        fh.write(head + b"\n" * ((31 << 20) - len(head)))
    return folder


def _enough_files(n: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < n:
        if hard != resource.RLIM_INFINITY and hard < n:
            pytest.skip(f"this test opens {n} sockets; the open-file limit is {hard}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (n, hard))


def test_spectators_and_idle_connections_within_the_units_limits(
        journals: Path, tmp_path: Path) -> None:
    tasks_max, memory_max = unit_limits()
    _enough_files(1600)
    log = tmp_path / "web.log"
    with serving(journals, log) as (port, peak, _):
        forty = Spectators(port, 40)
        forty.read_for(2.0)
        assert forty.served == 40 and not forty.cut
        forty.close()

        crowd = Spectators(port, 300)
        crowd.read_for(3.0)
        assert crowd.served == 300 and not crowd.cut
        pages = [_get(port, p) for p in ("/", "/games", f"/game/{BIG}", f"/game/{LINES}", "/live")]
        assert [code for code, _ in pages] == [200] * 5
        assert b"larger than 32 MiB" in pages[2][1]  # the 200 MB journal: refused unread
        assert b"no checksum" in pages[3][1]  # read line by line, never a list of them all

        idle = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(1100)]
        try:
            code, page = _get(port, "/", 10)
            assert code == 200 and b"data-actions=" in page  # reachable beside them
            crowd.read_for(1.0)
            assert not crowd.cut  # no stream cut for them
        finally:
            for s in idle:
                s.close()
        crowd.close()
        assert _get(port, "/")[0] == 200  # and after
    said = log.read_text()
    assert peak.threads <= tasks_max, f"{peak.threads} threads (TasksMax={tasks_max})"
    assert peak.rss < memory_max, f"{peak.rss >> 20} MiB resident (MemoryMax={memory_max >> 20} MiB)"
    assert "Traceback" not in said and len(said.splitlines()) <= 5, said[:2000]


CAPPED = """
import sys
from pathlib import Path
from companion.web.server import serve
serve(Path(sys.argv[2]), "127.0.0.1", int(sys.argv[1]), max_connections=50, head_timeout=1.5)
"""


def test_at_the_cap_idle_connections_make_room_and_the_overload_is_said_once(
        journals: Path, tmp_path: Path) -> None:
    log = tmp_path / "web.log"
    with serving(journals, log, CAPPED) as (port, _, _):
        crowd = Spectators(port, 45)
        crowd.read_for(1.0)
        assert crowd.served == 45
        idle = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(20)]
        slow = idle[-1]  # a slow client: its request head a few bytes at a time
        try:
            began = time.monotonic()
            for part in (b"GET / HT", b"TP/1.1\r\n", b"Host: x\r\n", b"X-Slow: 1\r\n"):
                slow.sendall(part)
                time.sleep(0.3)
            time.sleep(max(0.0, 1.2 - (time.monotonic() - began)))  # idle past the grace
            assert _get(port, "/")[0] == 200  # the longest-idle one was closed for it
            more = Spectators(port, 10)  # 55 streams wanted: served, or a 503; none cut
            more.read_for(1.5)
            crowd.read_for(0.5)
            assert not crowd.cut
            busy = sum(1 for d in more.seen.values() if d.startswith(b"HTTP/1.1 503"))
            assert busy >= 5 and more.served + busy == 10
            more.close()
            for s in idle:  # each closed: a 503, room for another, or the head timeout (1.5 s)
                s.settimeout(5)
                with contextlib.suppress(ConnectionResetError):
                    while s.recv(4096):  # a socket left open: timeout, the test fails
                        pass
        finally:
            for s in idle:
                s.close()
        crowd.close()
        assert _get(port, "/")[0] == 200
    said = log.read_text()
    assert said.count("connections open, the most allowed") == 1, said
    assert "Traceback" not in said


def test_sigterm_ends_the_streams_and_stops_the_server(journals: Path, tmp_path: Path) -> None:
    found = re.search(r"^TimeoutStopSec=(\d+)$", UNIT.read_text(), re.M)
    assert found is not None
    stop_timeout = int(found.group(1))
    with serving(journals, tmp_path / "web.log") as (port, _, proc):
        crowd = Spectators(port, 100)
        crowd.read_for(1.5)
        assert crowd.served == 100
        leaving = list(crowd.seen)[:50]  # half of them leave as the server is stopped
        for s in leaving:
            crowd.selector.unregister(s)
            s.close()
        proc.terminate()
        proc.wait(timeout=stop_timeout)  # else systemd would kill it
        crowd.read_for(0.5)
        assert len(crowd.cut) == 50
        crowd.close()
    said = (tmp_path / "web.log").read_text()  # no "Cancel 50 running task(s)" either
    assert "Traceback" not in said and "ERROR" not in said, said[:2000]


class _Conn:
    """A stand-in for a connection, as the gate sees one."""

    def __init__(self, idle: bool, waiting: float, paused: float | None = None) -> None:
        self.idle = idle
        self.waiting_since = waiting
        self.paused_since = paused
        self.dropped = False

    def drop(self) -> None:
        self.dropped = True


def test_the_gate_cuts_idle_heads_and_unread_responses_but_not_streams() -> None:
    import asyncio

    from companion.web.server import Gate

    async def sweep() -> list[bool]:
        gate = Gate(10, head_timeout=10, slow_timeout=30)
        now = time.monotonic()
        conns = [
            _Conn(idle=True, waiting=now - 11),             # no request head for 11 s
            _Conn(idle=True, waiting=now - 2),              # just connected
            _Conn(idle=False, waiting=now - 600),           # a stream read for 10 min
            _Conn(idle=False, waiting=now - 60, paused=now - 31),  # unread for 31 s
            _Conn(idle=False, waiting=now - 60, paused=now - 5),   # a moment's backlog
        ]
        for conn in conns:
            gate.open[conn] = None  # type: ignore[index]
        gate._sweep()
        await asyncio.sleep(0)
        return [c.dropped for c in conns]

    assert asyncio.run(sweep()) == [True, False, False, True, False]


UNREAD = """
import sys
import uvicorn
from companion.web.server import Gate, GuardedH11Protocol

BODY = b"x" * (20 << 20)


async def app(scope, receive, send):
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-length", str(len(BODY)).encode())]})
    await send({"type": "http.response.body", "body": BODY})


protocol = type("P", (GuardedH11Protocol,), {"gate": Gate(10, slow_timeout=1.0)})
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), http=protocol, lifespan="off",
            log_level="warning")
"""


def test_a_client_that_leaves_a_response_unread_is_cut(tmp_path: Path) -> None:
    with serving(tmp_path, tmp_path / "web.log", UNREAD) as (port, _, _):
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.connect(("127.0.0.1", port))
        s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        time.sleep(3)  # reads nothing: the server's buffer stays full past slow_timeout (1 s)
        s.settimeout(10)
        got = 0
        with contextlib.suppress(ConnectionResetError):
            while chunk := s.recv(1 << 16):
                got += len(chunk)
        s.close()
    assert got < 20 << 20  # cut before the end of the 20 MiB body
