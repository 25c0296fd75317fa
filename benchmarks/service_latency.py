"""Service benchmarks: press-to-frame latency, idle CPU, peak memory, start-to-first-frame.

Every figure is printed next to a floor measured in the same run on the same machine;
no number is typed in:

* latency: from ``MockPin.drive_low()`` to the frame handed to the luma device
  (``ssd1306`` on luma's ``noop`` interface, so the real driver code runs), p50 and p99
  over N presses of DOWN on a menu, next to a bare script whose gpiozero ``Button``
  callback draws one line of text on the same kind of device (target: p99 within 2x);
* idle CPU: CPU time of the whole service process over 10 s with nothing happening,
  in percent of one core (target: under 0.5 %: the loop must not poll);
* peak memory: maximum RSS of a process playing a whole demo game, next to a process
  that only imports gpiozero, luma.oled and pyserial (target: within 1.5x);
* start-to-first-frame: from spawning ``python`` to the first frame reaching the
  device, next to the time the import-only process takes to start and exit.

Usage: ``python benchmarks/service_latency.py [--presses N] [--idle SECONDS]``.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

IMPORT_ONLY = "import gpiozero, luma.oled.device, serial"
DEBOUNCE = 0.002
"""Seconds of debounce in the measured service (presses are this far apart at least)."""


def _device() -> Any:
    from luma.core.interface.serial import noop
    from luma.oled.device import ssd1306

    return ssd1306(noop(), width=128, height=64)


class FrameClock:
    """Wraps a luma device's ``display`` to note when a frame is handed to it."""

    def __init__(self, device: Any) -> None:
        self.device = device
        self.event = threading.Event()
        self.stamp = 0.0
        original: Callable[[Any], None] = device.display

        def display(image: Any) -> None:
            self.stamp = time.perf_counter()
            original(image)
            self.event.set()

        device.display = display


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def floor_latency(presses: int) -> list[float]:
    """A bare gpiozero Button whose callback draws one line of text on the device."""
    from gpiozero import Button
    from gpiozero.pins.mock import MockFactory
    from luma.core.render import canvas

    factory = MockFactory()
    device = _device()
    clock = FrameClock(device)
    count = [0]

    def pressed() -> None:
        count[0] += 1
        with canvas(device) as draw:
            draw.text((0, 0), f"press {count[0]}", fill="white")

    button = Button(5, pin_factory=factory)
    button.when_pressed = pressed
    pin = factory.pin(5)
    out = []
    for _ in range(presses):
        clock.event.clear()
        t0 = time.perf_counter()
        pin.drive_low()
        clock.event.wait(5)
        out.append(clock.stamp - t0)
        pin.drive_high()
        time.sleep(DEBOUNCE * 2)
    button.close()
    factory.reset()
    return out


def _service(journal: Path, on_frame: Callable[[Any], None] | None = None) -> Any:
    from gpiozero.pins.mock import MockFactory

    from companion.app import config as cfg
    from companion.app.service import build

    conf = cfg.defaults()
    conf.update({"display.backend": "noop", "journal.dir": str(journal),
                 "buttons.debounce": DEBOUNCE})
    return build(conf, pin_factory=MockFactory(), on_frame=on_frame)


def service_latency(presses: int) -> list[float]:
    """DOWN presses on the companion's menu, through the whole service."""
    from companion.app.events import Quit

    with tempfile.TemporaryDirectory() as tmp:
        parts = _service(Path(tmp))
        service = parts.service
        clock = FrameClock(service.screen.device)
        loop = threading.Thread(target=service.run)
        loop.start()
        clock.event.wait(5)  # the splash
        ok = parts.pin_factory.pin(parts.config["buttons.ok"])
        ok.drive_low()
        ok.drive_high()
        time.sleep(0.05)
        service.wait_idle()
        pin = parts.pin_factory.pin(parts.config["buttons.down"])
        out = []
        for _ in range(presses):
            clock.event.clear()
            t0 = time.perf_counter()
            pin.drive_low()
            if not clock.event.wait(5):
                raise RuntimeError("no frame after a press")
            out.append(clock.stamp - t0)
            pin.drive_high()
            time.sleep(DEBOUNCE * 2)
            service.wait_idle()
        service.post(Quit())
        loop.join(5)
        service.close()
    return out


def idle_cpu(seconds: float) -> float:
    """Percent of one core used by the whole process while the service sits idle."""
    from companion.app.events import Quit

    with tempfile.TemporaryDirectory() as tmp:
        first = threading.Event()
        parts = _service(Path(tmp), on_frame=lambda image: first.set())
        loop = threading.Thread(target=parts.service.run)
        loop.start()
        first.wait(5)
        time.sleep(0.5)
        before = resource.getrusage(resource.RUSAGE_SELF)
        t0 = time.monotonic()
        time.sleep(seconds)
        after = resource.getrusage(resource.RUSAGE_SELF)
        elapsed = time.monotonic() - t0
        parts.service.post(Quit())
        loop.join(5)
        parts.service.close()
    used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return 100.0 * used / elapsed


PEAK = """
import atexit
def _peak():
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                print("PEAK", int(line.split()[1]), flush=True)
atexit.register(_peak)
"""


def _child(code: str) -> tuple[float, float]:
    """Run ``code`` in a child Python; return (its peak RSS in MiB, wall seconds).

    The peak is the child's own ``VmHWM`` (high-water RSS of its address space, reset
    by exec): ``ru_maxrss`` would include the parent's size at fork time.
    """
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", PEAK + code], capture_output=True, text=True)
    elapsed = time.perf_counter() - t0
    if done.returncode != 0:
        raise RuntimeError(f"child failed: {done.stderr}")
    peak = [line for line in done.stdout.splitlines() if line.startswith("PEAK ")]
    return int(peak[-1].split()[1]) / 1024, elapsed


DEMO_GAME = """
import tempfile
from pathlib import Path
from companion.sim.demo import play
with tempfile.TemporaryDirectory() as tmp:
    play(Path(tmp), seed=1)
"""


FIRST_FRAME_CHILD = """
import sys, tempfile, threading
from pathlib import Path
sys.path.insert(0, {bench!r})
from service_latency import _service
done = threading.Event()
def frame(image):
    print("FRAME", flush=True)
    done.set()
with tempfile.TemporaryDirectory() as tmp:
    parts = _service(Path(tmp), on_frame=frame)
    loop = threading.Thread(target=parts.service.run, daemon=True)
    loop.start()
    done.wait(10)
    parts.service.close()
"""


def start_to_first_frame() -> float:
    code = FIRST_FRAME_CHILD.format(bench=str(Path(__file__).resolve().parent))
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    elapsed = time.perf_counter() - t0
    proc.wait(10)
    if not line.startswith("FRAME"):
        raise RuntimeError("the service showed no frame")
    return elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--presses", type=int, default=1000, help="presses per latency run")
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of idle measurement")
    args = parser.parse_args(argv)

    floor = floor_latency(args.presses)
    ours = service_latency(args.presses)
    f50, f99 = statistics.median(floor), _percentile(floor, 0.99)
    s50, s99 = statistics.median(ours), _percentile(ours, 0.99)
    print(f"press-to-frame over {args.presses} presses (ms):")
    print(f"  floor (bare Button callback, one line of text): p50 {f50 * 1e3:7.3f}  p99 {f99 * 1e3:7.3f}")
    print(f"  companion service (menu screen):              p50 {s50 * 1e3:7.3f}  p99 {s99 * 1e3:7.3f}")
    ratio = s99 / f99
    print(f"  p99 ratio {ratio:.2f}x (target <= 2x): {'met' if ratio <= 2 else 'NOT met'}")

    cpu = idle_cpu(args.idle)
    print(f"idle CPU over {args.idle:.0f} s: {cpu:.3f} % of one core "
          f"(target < 0.5 %): {'met' if cpu < 0.5 else 'NOT met'}")

    base_mem, base_time = _child(IMPORT_ONLY)
    game_mem, _ = _child(DEMO_GAME)
    mem_ratio = game_mem / base_mem
    print(f"peak memory: whole demo game {game_mem:.1f} MiB, import-only {base_mem:.1f} MiB: "
          f"{mem_ratio:.2f}x (target <= 1.5x): {'met' if mem_ratio <= 1.5 else 'NOT met'}")

    first = start_to_first_frame()
    print(f"start to first frame: {first * 1e3:.0f} ms "
          f"(import-only process start to exit: {base_time * 1e3:.0f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
