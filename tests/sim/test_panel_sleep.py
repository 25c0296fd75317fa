"""The service's loop off the press path: the panel's sleep timer (counted from the
LAST event, one timer at a time) and what start-up leaves to the garbage collector."""

from __future__ import annotations

import gc
from pathlib import Path

from serving import serving

from companion.devices.events import ButtonName
from companion.sim.demo import demo_config


def test_each_press_puts_the_sleep_off_by_sleep_after_from_that_press(tmp_path: Path) -> None:
    with serving(demo_config(tmp_path, **{"display.sleep_after": 30.0})) as (parts, driver):
        service = parts.service
        for _ in range(3):
            driver.sched.advance(20.0)
            driver.idle()
            driver.press(ButtonName.DOWN)
            assert not service.asleep
        driver.sched.advance(29.0)
        driver.idle()
        assert not service.asleep  # 89 s since the start, 29 since the last press
        driver.sched.advance(2.0)
        driver.idle()
        assert service.asleep


def test_a_press_does_not_schedule_a_timer_of_its_own(tmp_path: Path) -> None:
    """Issue 25: re-arming the sleep timer on every event woke the timer thread once
    per frame while the loop drew it; now the one timer re-arms itself."""
    with serving(demo_config(tmp_path, **{"display.sleep_after": 30.0})) as (parts, driver):
        timer = parts.service._sleep_timer
        assert timer is not None
        for _ in range(5):
            driver.press(ButtonName.DOWN)
        assert parts.service._sleep_timer is timer


def test_what_start_up_built_is_out_of_the_collector_s_sight(tmp_path: Path) -> None:
    """Issue 25: a full collection during play walked every object start-up built (11-14
    ms of CPU in a Cretan game here, more on a Pi); the service freezes them."""
    try:
        with serving(demo_config(tmp_path)) as (parts, _driver):
            controller = parts.service.controller
            assert gc.get_freeze_count() > 0
            assert not any(o is controller for o in gc.get_objects(generation=2))
    finally:
        gc.unfreeze()


def test_what_a_new_game_built_is_out_of_the_collector_s_sight(tmp_path: Path) -> None:
    """Issue 25: a Cretan Labyrinth game builds its board's tables when it begins, after
    start-up's freeze; full collections during play walked them (10-40 ms of CPU here,
    benchmarks/gc_pauses.py). The service freezes them once the game's screen is drawn."""
    try:
        with serving(demo_config(tmp_path), games=["cretan-labyrinth"]) as (parts, driver):
            controller = parts.service.controller
            driver.press(ButtonName.OK)  # splash
            driver.press(ButtonName.OK)  # the only game: its setup
            assert controller.view().items[controller.cursor] == "Begin"
            driver.press(ButtonName.OK)
            driver.idle()
            table = controller.table
            assert table is not None
            frozen = gc.get_freeze_count()
            assert not any(o is table.game for o in gc.get_objects(generation=2))
            assert not any(o is table.game for o in gc.get_objects(generation=1))
            assert not any(o is table.game for o in gc.get_objects(generation=0))
            assert frozen > 0
    finally:
        gc.unfreeze()
