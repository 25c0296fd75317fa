"""Design rule (issue 25): through the windowed SSD1306 driver on luma's real ``i2c``
interface, a cursor step inside the rows shown costs at most 12 ms of bus time at
400 kHz, and a step that scrolls the list at most 18 ms -- for every list layout the
renderer has: a plain menu, a throw picture above the list, lines of text above it,
no hint. Bus time is counted in clock periods (hardware/README.md), not timed."""

from __future__ import annotations

from dataclasses import replace

import pytest
import smbus2
from luma.core.interface.serial import i2c

from companion.devices.oled import BusRecorder, WindowedSSD1306
from companion.ui.render import _window, body_lines, layout, render
from companion.ui.view import ThrowPicture, View

HZ = 400_000
ITEMS = tuple(f"{n} to {n + 4}{' via river' if n % 3 else ''}" for n in range(1, 12))
LAYOUTS = {
    "menu": View("menu", "Choose a game", items=ITEMS, hint="OK: choose"),
    "picture": View("moves", "White threw", items=ITEMS, hint="OK: choose BACK: menu",
                    picture=ThrowPicture("sticks", ("L", "D", "L", "L"), "3")),
    "lines": View("moves", "Player 2 threw", lines=("Stop where? 5 any way",), items=ITEMS,
                  hint="OK: move", picture=ThrowPicture("faces", ("any-way",))),
    "no hint": View("moves", "Red threw", items=ITEMS),
}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_a_cursor_step_or_scroll_is_cheap_on_the_bus(layout: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(smbus2, "SMBus", BusRecorder)
    device = WindowedSSD1306(i2c(port=1, address=0x3C))
    device.persist = True
    bus: BusRecorder = device._serial_interface._bus
    base = LAYOUTS[layout]
    device.display(render(base))
    steps: dict[str, list[float]] = {"cursor": [], "scroll": []}
    previous = base
    for cursor in [*range(1, len(ITEMS)), *range(len(ITEMS) - 2, -1, -1)]:  # down, then up
        view = replace(base, cursor=cursor)
        bus.transfers.clear()
        device.display(render(view))
        kind = "scroll" if first_item_shown(view) != first_item_shown(previous) else "cursor"
        steps[kind].append(bus.periods() / HZ * 1000)
        previous = view
    assert steps["cursor"] and steps["scroll"]
    assert max(steps["cursor"]) <= 12.0, steps
    assert max(steps["scroll"]) <= 18.0, steps


def first_item_shown(view: View) -> int:
    """The first list item on the panel (the renderer's own arithmetic)."""
    _y, rows, _hint = layout(view, (128, 64))
    if view.lines:
        rows = max(1, rows - len(body_lines(view, 128)[: max(1, rows // 2)]))
    return _window(view.cursor, len(view.items), rows)
