"""What `companion web` costs to keep running: its memory (RSS) and its start time.

    .venv/bin/python benchmarks/web_footprint.py [--runs N]

Starts `companion web` on a free loopback port over a journal directory holding one
whole scripted game (`companion demo`), and measures, median of ``--runs`` starts:

* start: seconds from the process's launch to the first answered ``GET /``;
* RSS: its resident memory (``/proc/PID/status`` VmRSS) right after that first page,
  and again after 20 more pages and one event stream (the steady state).

The floor, measured in the same run the same way: a bare ``python -c 'import
starlette, uvicorn'`` process that then serves nothing (it sleeps): the web stack's
own price, before any of the companion. Ratios to it say what the page adds. A
Raspberry Pi Zero 2 W has 512 MB of RAM and a CPU several times slower than a desktop:
run this on the Pi you build to see its own seconds.
"""

from __future__ import annotations

import argparse
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def floor() -> tuple[float, int]:
    """Seconds to import starlette and uvicorn in a fresh process, and its RSS then."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", "import starlette, uvicorn, sys; print('ready', flush=True); "
         "sys.stdin.read()"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    proc.stdout.readline()
    took = time.perf_counter() - start
    rss = rss_kib(proc.pid)
    proc.communicate("")
    return took, rss


def web(directory: Path) -> tuple[float, int, int]:
    """(seconds to the first page, RSS then, RSS after 20 more pages and an event)."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "companion", "web", "--port", str(port),
                             "--dir", str(directory)], stdout=subprocess.DEVNULL)
    try:
        while True:
            try:
                with urllib.request.urlopen(url + "/", timeout=2) as answer:
                    answer.read()
                break
            except OSError:
                if proc.poll() is not None:
                    raise RuntimeError("companion web stopped") from None
                time.sleep(0.01)
        took = time.perf_counter() - start
        first = rss_kib(proc.pid)
        for i in range(20):
            with urllib.request.urlopen(url + ("/games" if i % 2 else "/"), timeout=5) as a:
                a.read()
        with urllib.request.urlopen(url + "/events", timeout=5) as stream:
            while b"event: board" not in stream.readline():
                pass
        return took, first, rss_kib(proc.pid)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="starts measured (median)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="web-footprint-") as tmp:
        subprocess.run([sys.executable, "-m", "companion", "demo", "--journal", tmp],
                       stdout=subprocess.DEVNULL, check=True)
        floors = [floor() for _ in range(args.runs)]
        webs = [web(Path(tmp)) for _ in range(args.runs)]
    f_start = statistics.median(t for t, _ in floors)
    f_rss = statistics.median(r for _, r in floors)
    w_start = statistics.median(t for t, _, _ in webs)
    w_first = statistics.median(r for _, r, _ in webs)
    w_steady = statistics.median(r for _, _, r in webs)
    print(f"python {platform.python_version()} on {platform.machine()}, median of {args.runs}")
    print("floor: a bare `python -c 'import starlette, uvicorn'` process (imports, then waits)")
    print(f"  floor start      {f_start:6.2f} s   RSS {f_rss / 1024:6.1f} MiB")
    print(f"  web start        {w_start:6.2f} s   ({w_start / f_start:4.1f}x the floor; to the first page)")
    print(f"  web RSS, 1 page  {w_first / 1024:6.1f} MiB ({w_first / f_rss:4.1f}x the floor)")
    print(f"  web RSS, steady  {w_steady / 1024:6.1f} MiB ({w_steady / f_rss:4.1f}x the floor; "
          "after 21 pages and an event stream)")


if __name__ == "__main__":
    main()
