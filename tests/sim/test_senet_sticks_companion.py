"""Whole games of casting-stick Senet driven only through gpiozero mock pins: the
buttons (moves chosen step by step, steps taken back) and the shaker. The frames and
the journal are checked against what the rules say."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import programs
import pytest
from PIL import Image
from spoken import said

from companion.journal.store import Loaded, load
from companion.rules import PASS, Phase, Throw, get_game
from companion.rules.core import EV_CAPTURED
from companion.rules.senet_sticks import EV_RIVER, SenetSticksState
from companion.sim.demo import DemoResult, play
from companion.ui.font import draw_text
from companion.ui.games import presenter_for
from companion.ui.render import TITLE_H, columns, render
from companion.ui.view import View, picture_of

Frames = list[tuple[Image.Image, str]]


def _play(tmp_path: Path, seed: int, options: dict[str, str] | None = None) -> tuple[DemoResult, Frames, Loaded]:
    frames: Frames = []
    result = play(tmp_path, seed=seed, game="senet-sticks", options=options,
                  on_frame=lambda img, screen: frames.append((img.copy(), screen)))
    assert result.journal is not None
    loaded = load(result.journal)
    assert loaded.ended and loaded.damage is None
    return result, frames, loaded


@pytest.fixture(scope="module")
def normal(tmp_path_factory: pytest.TempPathFactory) -> tuple[DemoResult, Frames, Loaded]:
    return _play(tmp_path_factory.mktemp("normal"), seed=3)


def test_a_whole_game_is_played_and_journalled_with_its_winner(normal: tuple[DemoResult, Frames, Loaded]) -> None:
    result, frames, loaded = normal
    screens = [s for _, s in frames]
    assert screens[:2] == ["splash", "menu"]
    assert "setup" in screens and screens[-1] == "over"
    assert {"throw", "moves", "events"} <= set(screens)
    outcome = loaded.state.outcome
    assert outcome is not None
    winner = loaded.game.player_name(outcome.winners[0], 2)
    assert result.winner == winner and result.record[-1].startswith(f"winner: {winner}")
    implements = [r["throw"]["implement"] for r in loaded.records if "throw" in r]
    # who starts: the solid stick; then every throw is of the three casting sticks
    assert implements[0] == "1 solid stick"
    assert set(implements[2:]) <= {"1 solid stick", "3 casting sticks"} and "3 casting sticks" in implements


def test_moves_were_chosen_in_steps_with_steps_taken_back(normal: tuple[DemoResult, Frames, Loaded]) -> None:
    result, _, loaded = normal
    assert result.steps_back > 0            # BACK took a step back, and the game went on
    combinations = [r["move"] for r in loaded.records if "[" in r.get("move", "")]
    assert combinations, "no combination move was built"


def test_river_and_capture_events_are_shown_in_words(normal: tuple[DemoResult, Frames, Loaded]) -> None:
    _, frames, loaded = normal
    shown = {img.tobytes() for img, screen in frames if screen == "events"}
    state = loaded.game.new_state(2)
    told = {EV_RIVER: 0, EV_CAPTURED: 0}
    for action, record in zip(loaded.actions, loaded.records, strict=True):
        events = state.apply(action)
        kinds = {e.kind for e in events}
        if kinds & told.keys() and state.phase is not Phase.OVER:
            view = View("events", f"{record['by']}'s move", tuple(said(state, events)), hint="OK: next")
            assert render(view).tobytes() in shown, f"not shown: {record['events']}"
            for kind in kinds & told.keys():
                told[kind] += 1
    assert told[EV_RIVER] and told[EV_CAPTURED], told


def _line(text: str) -> bytes:
    image = Image.new("1", (128, 8), 0)
    draw_text(image, (0, 0), text)
    return image.tobytes()


def test_the_throw_screen_counts_each_players_plinths_in_the_abyss(normal: tuple[DemoResult, Frames, Loaded]) -> None:
    _, frames, loaded = normal
    # "Red to throw: shake!", "(3 casting sticks)", then the Abyss line: the third row.
    y = TITLE_H + 1 + 2 * 8
    rows = {img.crop((0, y, 128, y + 8)).tobytes() for img, screen in frames if screen == "throw"}
    state = loaded.game.new_state(2)
    counts = set()
    for action in loaded.actions:
        state.apply(action)
        lines = presenter_for("senet-sticks", columns(128)).status_lines(state)
        if state.phase is Phase.THROW and lines:
            counts.add(lines[0])
    assert any(line != "Abyss: Red 0, Blue 0" for line in counts), counts
    for line in counts:
        assert _line(line) in rows, f"never shown: {line}"


def test_the_sticks_are_drawn_with_the_usable_ones_marked(normal: tuple[DemoResult, Frames, Loaded]) -> None:
    _, frames, loaded = normal
    top, bottom = TITLE_H + 2, TITLE_H + 2 + 16
    pictures = {img.crop((0, top, 128, bottom)).tobytes() for img, screen in frames if screen in ("moves", "lost")}
    state = loaded.game.new_state(2)
    checked = 0
    for action in loaded.actions:
        spec = state.throw_spec
        state.apply(action)
        if isinstance(action, Throw) and state.phase is Phase.MOVE:
            assert spec is not None and isinstance(state, SenetSticksState)
            usable = state.usable_faces()
            if state.legal_moves() == (PASS,):
                assert not any(usable)
            # the mover's colour and the solid sticks only: never the opponent's colour
            assert state.colours is not None
            for ok, colour in zip(usable, action.colours, strict=True):
                assert not ok or colour in (None, state.colours[state.current_player])
            want = picture_of(action, spec)
            image = render(View("moves", "", picture=replace(want, usable=usable)))
            assert image.crop((0, top, 128, bottom)).tobytes() in pictures, str(action)
            checked += 1
    assert checked > 20


def test_quick_mode_and_the_extra_stick_set_with_the_buttons(tmp_path: Path) -> None:
    result, frames, loaded = _play(tmp_path, seed=4, options={"mode": "quick", "extra-stick": "yes"})
    assert result.record[-1].startswith(f"winner: {result.winner} (first plinth")
    assert loaded.game.option("mode") == "quick" and loaded.game.option("extra-stick") is True
    assert "4 casting sticks" in {r["throw"]["implement"] for r in loaded.records if "throw" in r}
    outcome = loaded.state.outcome
    assert outcome is not None and "quick mode" in outcome.reason
    # normal mode would not have ended: one plinth arrived, not five
    normal = get_game("senet-sticks", extra_stick=True).new_state()
    for action in loaded.actions:
        normal.apply(action)
    assert normal.outcome is None or "Abyss" in normal.outcome.reason
    assert frames[-1][1] == "over"


def test_companion_demo_plays_casting_stick_senet(tmp_path: Path) -> None:
    done = programs.run(
        [sys.executable, "-m", "companion", "demo", "--game", "senet-sticks", "--seed", "2",
         "--frames", str(tmp_path / "frames")],
        capture_output=True, text=True, idle=3, check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any(":red" in line and ":blue" in line for line in lines)   # the coloured sticks thrown
    assert any(line.startswith("winner: ") for line in lines)
    assert list((tmp_path / "frames").glob("*-moves.png"))
