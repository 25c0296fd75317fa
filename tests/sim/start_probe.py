"""`companion run` as a person starts it, in a pseudo-terminal: the modules it has
imported when its first frame is drawn, and the time from spawning Python to that
frame. Shared by tests/sim/test_start_imports.py and benchmarks/start_time.py."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import select
import struct
import subprocess
import sys
import tempfile
import termios
import time
from dataclasses import dataclass
from pathlib import Path

FLOOR_IMPORTS = ("gpiozero", "gpiozero.pins.mock", "luma.core.interface.serial",
                 "luma.oled.device", "serial", "PIL.Image", "PIL.ImageDraw")
"""The libraries the referee draws and reads pins with: the import floor."""

RUN_CHILD = r"""
import json, os, sys
from importlib.util import find_spec
class Wrap:
    def find_spec(self, name, path=None, target=None):
        if name != "companion.sim.terminal":
            return None
        sys.meta_path.remove(self)
        spec = find_spec(name)
        load = spec.loader.exec_module
        def exec_module(terminal):
            load(terminal)
            class Reporting(terminal.FramePrinter):
                seen = False
                def __call__(self, image):
                    super().__call__(image)
                    if not self.seen:  # written after the frame is out: the modules up to it
                        self.seen = True
                        with open(sys.argv[1] + ".part", "w") as fh:
                            json.dump(sorted(sys.modules), fh)
                        os.replace(sys.argv[1] + ".part", sys.argv[1])  # read only whole
            terminal.frame_printer = Reporting
        spec.loader.exec_module = exec_module
        return spec
sys.meta_path.insert(0, Wrap())
from companion.cli import main
sys.exit(main(["run", "--journal.dir", sys.argv[2]]))
"""
"""``companion run`` as the console script starts it (``from companion.cli import main``,
then ``main``), the terminal's frame printer wrapped to write ``sys.modules`` to
``argv[1]`` once the first frame is printed. The wrapping is done as `companion run`
itself imports :mod:`companion.sim.terminal` (an import hook, ``Wrap``), not by
importing it first: that would import the service, the controller and the screens
before ``main``, outside the garbage collector's hold of ``cmd_run``, which the
installed command does not do (the probe did until issue 35's branch ``start6``)."""

FLOOR_CHILD = "import json, sys\nimport {imports}\njson.dump(sorted(sys.modules), open(sys.argv[1], 'w'))\n"


@dataclass(frozen=True)
class Start:
    """One start: the modules imported (names), seconds from spawn to the first frame's
    text on the terminal (for the floor: to exit), and what the terminal showed;
    ``cpu``: the CPU seconds the process had used when its first frame's text reached
    the terminal (every thread's, from ``/proc/PID/task/*/schedstat``; ``None`` for the
    floor and where /proc has no schedstat)."""

    modules: frozenset[str]
    seconds: float
    screen: str
    cpu: float | None = None
    menu_cpu: float | None = None
    """With ``menu=True``: the CPU seconds when the frame after one OK (typed as soon as
    the first frame is out: the menu) reached the terminal; it includes what the start
    does after its first frame (``Service.ready``) and the screens imported at that OK."""


def cpu_seconds(pid: int) -> float | None:
    """The CPU seconds process ``pid`` has run so far, all its threads (the first
    field of each thread's ``schedstat``: nanoseconds on a CPU); ``None`` without it."""
    total = 0
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            total += int((task / "schedstat").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    return total / 1e9


def _environment(state: Path) -> dict[str, str]:
    """The children's environment: no config file, the state in ``state``, and byte
    code cached as on an installed box (a shell with PYTHONDONTWRITEBYTECODE would
    compile the companion from source at every start: the libraries of the floor are
    compiled by pip once)."""
    left_out = ("COMPANION_CONFIG", "PYTHONWARNINGS", "PYTHONDONTWRITEBYTECODE")
    env = {k: v for k, v in os.environ.items() if k not in left_out}
    env.update(XDG_STATE_HOME=str(state), GPIOZERO_PIN_FACTORY="mock", TERM="xterm")
    return env


FRAME = b"\x1b[H\x1b[J+--"
"""How each frame's text begins on the terminal (:class:`companion.sim.terminal.FramePrinter`)."""


def run_start(columns: int = 80, rows: int = 24, timeout: float = 60.0, *,
              menu: bool = False) -> Start:
    """Start ``companion run`` in a pseudo-terminal of ``columns`` x ``rows``, wait for
    its first frame (``menu``: then type Enter, OK, and wait for the next frame, the
    menu's), then type ``q`` and wait for it to quit.

    :raises AssertionError: no frame within ``timeout`` seconds, or it did not quit.
    """
    with tempfile.TemporaryDirectory(prefix="companion-start-") as tmp:
        report = Path(tmp) / "modules.json"
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        t0 = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-c", RUN_CHILD, str(report), str(Path(tmp) / "journal")],
            stdin=slave, stdout=slave, stderr=subprocess.PIPE, env=_environment(Path(tmp)),
            close_fds=True, start_new_session=True)
        os.close(slave)
        shown = b""
        seconds = None
        cpu = None
        try:
            deadline = time.monotonic() + timeout
            while not report.exists():  # the report is written right after the frame
                assert time.monotonic() < deadline and proc.poll() is None, (
                    f"no frame: {proc.stderr.read().decode() if proc.stderr and proc.poll() is not None else ''}"
                    f"{shown.decode(errors='replace')[-500:]}")
                ready, _, _ = select.select([master], [], [], 0.05)
                if ready:
                    try:
                        chunk = os.read(master, 65536)
                    except OSError:  # the terminal's other end closed: it has ended
                        proc.wait(timeout=15)
                        continue
                    if seconds is None and b"+--" in chunk:
                        seconds = time.perf_counter() - t0
                        cpu = cpu_seconds(proc.pid)
                    shown += chunk
            time.sleep(0.05)
            modules = frozenset(json.loads(report.read_text()))
            menu_cpu = None
            if menu:
                while select.select([master], [], [], 0.2)[0]:  # the rest of the first frame
                    shown += os.read(master, 65536)
                os.write(master, b"\r")
                after = b""
                while menu_cpu is None:
                    assert time.monotonic() < deadline and proc.poll() is None, "no menu"
                    if select.select([master], [], [], 0.05)[0]:
                        chunk = os.read(master, 65536)
                        after += chunk
                        if FRAME in after:
                            menu_cpu = cpu_seconds(proc.pid)
                        shown += chunk
            os.write(master, b"q")
            end = time.monotonic() + 15
            while proc.poll() is None and time.monotonic() < end:
                ready, _, _ = select.select([master], [], [], 0.05)
                if ready:
                    try:
                        shown += os.read(master, 65536)
                    except OSError:
                        break
            assert proc.wait(timeout=15) == 0, proc.stderr.read().decode() if proc.stderr else ""
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            if proc.stderr:
                proc.stderr.close()
            os.close(master)
        assert seconds is not None
        return Start(modules, seconds, shown.decode(errors="replace"), cpu, menu_cpu)


def floor_start() -> Start:
    """A Python process that imports :data:`FLOOR_IMPORTS` and exits."""
    with tempfile.TemporaryDirectory(prefix="companion-floor-") as tmp:
        report = Path(tmp) / "modules.json"
        code = FLOOR_CHILD.format(imports=", ".join(FLOOR_IMPORTS))
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", code, str(report)], check=True,
                       env=_environment(Path(tmp)), stdin=subprocess.DEVNULL)
        seconds = time.perf_counter() - t0
        return Start(frozenset(json.loads(report.read_text())), seconds, "")
