"""What an OLED frame costs, on the I2C bus and in the CPU: luma's full frames against
the windowed updates of ``companion/devices/oled.py``, for the frames of a whole demo
game of every game.

    .venv/bin/python benchmarks/oled_frame_cost.py [--seed N] [--games G ...] [--quick]

The frames are those of ``companion demo --game G --seed N``: every distinct frame
the service hands to the display, in order (:func:`companion.sim.demo.play`'s
``on_frame``), each with the view it was drawn from. An *in-screen update* is a frame
on the same screen as the one before, of one of these kinds:

* ``cursor``: the same list, the highlight one item on (the rows shown stay);
* ``scroll``: the same list, the highlight moved and the rows shown moved with it
  (or a text screen scrolled);
* ``other``: anything else on the same screen (a new list after a choice, a changed
  line of text, a throw entered).

Every figure is per game (never pooled over games: 62% of all updates are Cretan
Labyrinth's), per screen (``moves``, ``throw``, ``menu`` ...) and kind, median and
p90 at 400 kHz. The target (issue 25, as first set; issue 35): every in-screen
update, of all three kinds together, at most 12 ms median and 18 ms p90 in every
game; cursor steps and scrolls alone are printed beside it, not judged. ``--quick`` (for CI) plays one short game and times
the CPU in 2 rounds. The bus figures are exact counts (no timing), the same on every run.

Bus cost: each frame goes through the real drivers on luma's real ``i2c`` interface,
whose smbus2 bus is :class:`~companion.devices.oled.BusRecorder`; the bytes each
transfer puts on the wire (address byte, control byte, payload) become clock periods
with :func:`~companion.devices.oled.transfer_periods` -- 9 per byte plus 2 for START
and STOP, the arithmetic hardware/README.md shows (and tests/hardware checks). The time
is periods / clock at 100 kHz (the Pi's default), 400 kHz (what install.sh sets) and
1 MHz. Not modelled: the kernel's per-transfer overhead on the Pi (the windowed SSD1306
sends 2 transfers per window, luma 2 per frame; the transfer counts are printed).

The reference ("floor") of the bus ratios is what luma sends for the same frames:
every frame whole. The CPU time of the windowed drivers' ``display()`` (with a bus that
does nothing) is a ratio to the CPU time of luma's full frames of the same game, both
going round the game's frames in CPU-time slices interleaved in rounds
(benchmarks/measure.py); beside it the CPU ms of a frame and the modelled bus time of a
windowed frame at 400 kHz: what a redraw adds on top of the wire. Run it on the Pi you build for its own CPU figures (a Pi Zero 2 W is
several times slower than a desktop); the bus figures are the same everywhere.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import smbus2
from luma.core.interface.serial import i2c
from measure import clock, interleave, ratio_line
from PIL import Image

import companion.app.service as service_module
from companion.devices.oled import BusRecorder, WindowedSH1106, WindowedSSD1306
from companion.rules.registry import game_ids
from companion.sim.demo import play
from companion.ui import render as ui_render
from companion.ui.view import View

CLOCKS = (100_000, 400_000, 1_000_000)
TARGET_MS = 12.0
"""Issue 25's target: the median in-screen update (every kind) at 400 kHz, in every game."""
TARGET_P90_MS = 18.0
"""Issue 25's target: the p90 in-screen update (every kind) at 400 kHz, in every game."""
QUICK_GAME = "senet-tait"
"""The game of ``--quick``: its demo is the shortest (816 frames)."""
DRIVERS = {"ssd1306": WindowedSSD1306, "sh1106": WindowedSH1106}


@dataclass
class Frame:
    image: Image.Image
    screen: str
    in_screen: bool
    kind: str | None = None
    """For an in-screen update: ``cursor``, ``scroll`` or ``other`` (see the module)."""


def _first_row(view: View) -> int:
    """The first list item the renderer shows for ``view`` (128x64)."""
    _y, rows, _hint = ui_render.layout(view, (128, 64))
    if view.lines:
        rows = max(1, rows - len(ui_render.body_lines(view, 128)[: max(1, rows // 2)]))
    return ui_render._window(view.cursor, len(view.items), rows)


def update_kind(before: View | None, after: View | None) -> str:
    """``cursor``, ``scroll`` or ``other``: what changed from ``before`` to ``after``
    (two views of the same screen)."""
    if before is None or after is None or before.board is not None or after.board is not None:
        return "other"
    same_frame = (before.title, before.lines, before.picture, before.hint) == (
        after.title, after.lines, after.picture, after.hint)
    if not same_frame:
        return "other"
    if before.items and before.items == after.items and before.cursor != after.cursor:
        return "cursor" if _first_row(before) == _first_row(after) else "scroll"
    if not after.items and before.scroll != after.scroll:
        return "scroll"
    return "other"


@dataclass
class Cost:
    """What one frame put on the bus."""

    wire_bytes: int
    periods: int
    transfers: int


def demo_frames(game: str, seed: int) -> list[Frame]:
    """The frames of one whole demo game, in order, with the kind of each update."""
    frames: list[Frame] = []
    views: list[View | None] = []
    drawn: list[View] = []
    render = ui_render.render  # what companion.app.service draws with

    def recording_render(view: View, size: tuple[int, int] = (128, 64)) -> Image.Image:
        drawn.append(view)
        return render(view, size)

    def keep(image: Image.Image, screen: str) -> None:
        view = drawn[-1] if drawn else None
        same = bool(frames) and frames[-1].screen == screen
        kind = update_kind(views[-1], view) if same else None
        frames.append(Frame(image.copy(), screen, same, kind))
        views.append(view)

    service_module.render = recording_render  # type: ignore[attr-defined]
    try:
        with tempfile.TemporaryDirectory() as tmp:
            play(Path(tmp), seed=seed, game=game, on_frame=keep)
    finally:
        service_module.render = render  # type: ignore[attr-defined]
    return frames


def bus_costs(driver: Any, frames: Sequence[Frame], *, windowed: bool) -> list[Cost]:
    """Each frame's transfers through ``driver`` on luma's i2c over a recorder."""
    device = driver(i2c(port=1, address=0x3C), windowed=windowed)
    device.persist = True
    bus: BusRecorder = device._serial_interface._bus
    costs = []
    for frame in frames:
        bus.transfers.clear()
        device.display(frame.image)
        costs.append(Cost(sum(len(t) + 1 for t in bus.transfers), bus.periods(),
                          len(bus.transfers)))
    return costs


class NullBus:
    """smbus2.SMBus that does nothing: the CPU time is luma's and the driver's alone."""

    def __init__(self, bus: int | None = None, force: bool = False) -> None:
        pass

    def write_i2c_block_data(self, address: int, register: int, data: Any, force: Any = None) -> None:
        pass

    def i2c_rdwr(self, *messages: Any) -> None:
        pass

    def close(self) -> None:
        pass


class FrameCycle:
    """A :data:`measure.Work`: ``display()`` of one game's frames in order through a
    driver on a bus that does nothing (:class:`NullBus`), going round again after the
    last; a unit is a frame."""

    def __init__(self, driver: Any, frames: Sequence[Frame], *, windowed: bool) -> None:
        saved = smbus2.SMBus
        smbus2.SMBus = NullBus  # type: ignore[misc,assignment]
        try:
            self.device = driver(i2c(port=1, address=0x3C), windowed=windowed)
        finally:
            smbus2.SMBus = saved  # type: ignore[misc]
        self.device.persist = True
        self.images = [frame.image for frame in frames]
        self.next = 0

    def __call__(self, budget: float) -> float:
        end = clock() + budget
        shown = 0
        display, images = self.device.display, self.images
        while True:
            for _ in range(16):
                display(images[self.next])
                self.next = (self.next + 1) % len(images)
            shown += 16
            if clock() >= end:
                return shown


def ms(periods: float, hertz: int = 400_000) -> float:
    return periods / hertz * 1000


def p90(values: Sequence[float]) -> float:
    """The 90th percentile (the value itself when there is one)."""
    return statistics.quantiles(values, n=10)[-1] if len(values) > 1 else values[0]


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=1, help="seed of the demo games")
    parser.add_argument("--games", nargs="+", default=game_ids(), choices=game_ids(),
                        metavar="GAME", help="games to play (default: all)")
    parser.add_argument("--rounds", type=int, default=8,
                        help="rounds of the CPU timing, per game and driver (default 8)")
    parser.add_argument("--quick", action="store_true",
                        help=f"a sanity run for CI: {QUICK_GAME} only, 2 rounds of CPU timing")
    args = parser.parse_args(argv)
    if args.quick:
        args.games = [QUICK_GAME]
    smbus2.SMBus = BusRecorder  # type: ignore[misc,assignment]

    print(f"{platform.machine()} {platform.python_implementation()} {platform.python_version()}; "
          f"demo games, seed {args.seed}, 128x64")
    print("bus model: 9 clock periods per byte on the wire (address, control byte, payload)"
          " + 2 per transfer (START, STOP)")
    print("floor of the ratios: every frame sent whole (what luma's own display() sends)\n")

    games = {game: demo_frames(game, args.seed) for game in args.games}
    header = (f"{'game':<17}{'driver':<9}{'frames':>7}{'in-screen':>14}"
              f"{'full B/frame':>14}{'windowed B/frame':>18}{'transfers':>11}"
              f"{'periods/frame':>22}{'ratio':>7}")
    print(header)
    # game -> driver -> (screen, kind) -> ms at 400 kHz of each windowed update
    updates_ms: dict[str, dict[str, dict[tuple[str, str], list[float]]]] = {}
    for game, frames in games.items():
        updates = sum(f.in_screen for f in frames)
        updates_ms[game] = {}
        for name, driver in DRIVERS.items():
            full = bus_costs(driver, frames, windowed=False)
            win = bus_costs(driver, frames, windowed=True)
            per: dict[tuple[str, str], list[float]] = {}
            for frame, w_cost in zip(frames, win, strict=True):
                if frame.in_screen and frame.kind is not None:
                    per.setdefault((frame.screen, frame.kind), []).append(ms(w_cost.periods))
            updates_ms[game][name] = per
            ratio = sum(c.periods for c in win) / sum(c.periods for c in full)
            print(f"{game:<17}{name:<9}{len(frames):>7}{updates:>8} ({updates / len(frames):3.0%})"
                  f"{mean([c.wire_bytes for c in full]):>14.0f}"
                  f"{mean([c.wire_bytes for c in win]):>18.0f}"
                  f"{mean([c.transfers for c in full]):>5.1f}->{mean([c.transfers for c in win]):<4.1f}"
                  f"{mean([c.periods for c in full]):>10.0f} ->{mean([c.periods for c in win]):>7.0f}"
                  f"{ratio:>7.2f}")

    print(f"\nin-screen updates at 400 kHz, windowed, per game, screen and kind "
          f"(ms: median / p90; a whole frame is {ms(9310):.1f} ms):")
    failed = []
    for game, drivers in updates_ms.items():
        for name, per in drivers.items():
            print(f"  {game} ({name}):")
            for (screen, kind), values in sorted(per.items()):
                print(f"    {screen:<8}{kind:<8}{len(values):>6} updates  "
                      f"{statistics.median(values):5.1f} / {p90(values):5.1f}")
            every = [v for values in per.values() for v in values]
            if every:
                med, high = statistics.median(every), p90(every)
                met = med <= TARGET_MS and high <= TARGET_P90_MS
                if not met:
                    failed.append(f"{game} {name}")
                print(f"    every in-screen update: {len(every)}, median {med:4.1f} ms, "
                      f"p90 {high:4.1f} ms (target {TARGET_MS:g} / {TARGET_P90_MS:g}): "
                      f"{'met' if met else 'NOT met'}")
            steps = [v for (_s, kind), values in per.items() if kind != "other" for v in values]
            if steps:
                print(f"    of which cursor steps and scrolls: {len(steps)}, median "
                      f"{statistics.median(steps):4.1f} ms, p90 {p90(steps):4.1f} ms")
            others = [v for (_s, kind), values in per.items() if kind == "other" for v in values]
            if others:
                print(f"    of which other updates: {len(others)}, median {statistics.median(others):4.1f} ms, "
                      f"p90 {p90(others):4.1f} ms")
    print(f"\ntarget met in every game: {'yes' if not failed else 'NO: ' + ', '.join(failed)}")
    if args.quick:
        args.rounds = 2

    print(f"\nCPU per frame on this machine (bus replaced by a no-op), windowed against luma's "
          f"full frames (the floor) over the same frames, interleaved in {args.rounds} rounds "
          "(benchmarks/measure.py); beside it the modelled bus time of a windowed frame at "
          "400 kHz, which the CPU adds to:")
    for game, frames in games.items():
        for name, driver in DRIVERS.items():
            result = interleave(FrameCycle(driver, frames, windowed=False),
                                {"windowed": FrameCycle(driver, frames, windowed=True)},
                                args.rounds, by="time")
            cpu = 1000 / statistics.median(result.rates["windowed"])
            whole = 1000 / statistics.median(result.rates["floor"])
            bus = mean([ms(c.periods) for c in bus_costs(driver, frames, windowed=True)])
            print(ratio_line(f"  {game} {name} windowed CPU", result.ratios["windowed"],
                             "x floor time", 42)
                  + f"  ({cpu:.3f} CPU ms a frame, full {whole:.3f}; bus {bus:.2f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
