"""What `companion web` costs to keep running: its memory (RSS) and its start time.

    .venv/bin/python benchmarks/web_footprint.py [--quick] [--runs N]

Starts `companion web` on a free loopback port over a journal directory holding one
whole scripted game (`companion demo`), and measures, over ``--runs`` rounds:

* start: the process's CPU seconds (all its threads, from ``/proc/PID/task/*/schedstat``)
  from its launch to the first answered ``GET /``; its wall-clock seconds beside, for
  information (on a busy machine they say more about the machine than the page);
* RSS: its resident memory (``/proc/PID/status`` VmRSS) right after that first page,
  and again after 20 more pages and one event stream (the steady state).

The floor, measured in the same run the same way: a bare Starlette app on uvicorn,
configured as `companion web` configures it (h11, asyncio, no lifespan, no access log),
that answers ``GET /`` with one line of HTML: the web stack's own price for a first
page, before any of the companion. Ratios to it say what the page adds. Each round
starts floor, web, web, floor (benchmarks/measure.py), one ratio per round.

Why a floor that serves a page, not one that only imports: with an import-only floor
(0.08 CPU s, 25 MiB) the start ratio followed the machine's load between runs (2.70x
in two runs, 3.11-3.16x in two busier ones; rounds within a run agreed to 2%): a
process that starts an event loop, binds a socket and answers a request spends its CPU
time like `companion web` does, so a neighbour's use of the shared caches stretches
both alike. A
Raspberry Pi Zero 2 W has 512 MB of RAM and a CPU several times slower than a desktop:
run this on the Pi you build to see its own seconds.
"""

from __future__ import annotations

import argparse
import contextlib
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from measure import ratio_line


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def cpu_seconds(pid: int) -> float:
    """CPU seconds run so far by every thread of process ``pid`` (the scheduler's
    nanosecond count; /proc/PID/stat's ticks are 10 ms)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(FileNotFoundError, ProcessLookupError):  # a thread that ended
            total += int((task / "schedstat").read_text().split()[0])
    return total / 1e9


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


FLOOR_APP = """
import sys
import uvicorn
from starlette.applications import Starlette
from starlette.responses import HTMLResponse
from starlette.routing import Route

async def page(request):
    return HTMLResponse("<!doctype html><p>floor</p>")

app = Starlette(routes=[Route("/", page)])
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning",
            access_log=False, server_header=False, lifespan="off", http="h11", ws="none",
            proxy_headers=False, loop="asyncio")
"""
"""The floor's program: the same web stack, configured as companion/web/server.py
configures it, answering one line of HTML."""


def first_page(proc: subprocess.Popen[bytes], url: str) -> None:
    """Wait until ``url`` answers (polling every 10 ms), or raise when ``proc`` ended."""
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                answer.read()
            return
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError(f"{proc.args!r} stopped") from None
            time.sleep(0.01)


def floor() -> tuple[float, float, int]:
    """Wall and CPU seconds from launching the floor's app (:data:`FLOOR_APP`) to its
    first answered page, and its RSS (KiB) then."""
    port = free_port()
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", FLOOR_APP, str(port)],
                            stdout=subprocess.DEVNULL)
    try:
        first_page(proc, f"http://127.0.0.1:{port}/")
        took = time.perf_counter() - start
        return took, cpu_seconds(proc.pid), rss_kib(proc.pid)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def web(directory: Path) -> tuple[float, float, int, int]:
    """(wall seconds to the first page, CPU seconds then, RSS then, RSS after 20 more
    pages and an event; RSS in KiB)."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "companion", "web", "--port", str(port),
                             "--dir", str(directory)], stdout=subprocess.DEVNULL)
    try:
        first_page(proc, url + "/")
        took = time.perf_counter() - start
        cpu = cpu_seconds(proc.pid)
        first = rss_kib(proc.pid)
        for i in range(20):
            with urllib.request.urlopen(url + ("/games" if i % 2 else "/"), timeout=5) as a:
                a.read()
        with urllib.request.urlopen(url + "/events", timeout=5) as stream:
            while b"event: board" not in stream.readline():
                pass
        return took, cpu, first, rss_kib(proc.pid)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="one round (CI sanity)")
    parser.add_argument("--runs", type=int, default=8,
                        help="rounds of floor, web, web, floor (default 8: with 4 the start "
                             "ratio moved by 15%% between two runs on a busy machine)")
    args = parser.parse_args()
    runs = 1 if args.quick else args.runs
    start_ratio: list[float] = []
    first_ratio: list[float] = []
    steady_ratio: list[float] = []
    walls: list[float] = []
    webs_cpu: list[float] = []
    webs_first: list[int] = []
    webs_steady: list[int] = []
    floors: list[tuple[float, float, int]] = []
    with tempfile.TemporaryDirectory(prefix="web-footprint-") as tmp:
        subprocess.run([sys.executable, "-m", "companion", "demo", "--journal", tmp],
                       stdout=subprocess.DEVNULL, check=True)
        for _ in range(runs):
            # --quick: half a round (floor, web), enough to see that it works
            f = [floor()]
            w = [web(Path(tmp))]
            if not args.quick:
                w.append(web(Path(tmp)))
                f.append(floor())
            floors += f
            f_cpu, f_rss = sum(x[1] for x in f), sum(x[2] for x in f)
            start_ratio.append(sum(x[1] for x in w) / f_cpu)
            first_ratio.append(sum(x[2] for x in w) / f_rss)
            steady_ratio.append(sum(x[3] for x in w) / f_rss)
            walls += [x[0] for x in w]
            webs_cpu += [x[1] for x in w]
            webs_first += [x[2] for x in w]
            webs_steady += [x[3] for x in w]
    floor_cpu = statistics.median(c for _, c, _ in floors)
    floor_rss = statistics.median(r for _, _, r in floors)
    print(f"python {platform.python_version()} on {platform.machine()}, {runs} rounds of floor, "
          "web, web, floor")
    print("floor: a bare Starlette app on uvicorn answering its first page: "
          f"{floor_cpu:.2f} CPU s, RSS {floor_rss / 1024:.1f} MiB (medians)")
    print(ratio_line("web start (CPU s to the first page)", start_ratio, "x floor", 40)
          + f"  ({statistics.median(webs_cpu):.2f} CPU s; wall {statistics.median(walls):.2f} s)")
    print(ratio_line("web RSS, 1 page", first_ratio, "x floor", 40)
          + f"  ({statistics.median(webs_first) / 1024:.1f} MiB)")
    print(ratio_line("web RSS, steady (21 pages, an event)", steady_ratio, "x floor", 40)
          + f"  ({statistics.median(webs_steady) / 1024:.1f} MiB)")


if __name__ == "__main__":
    main()
