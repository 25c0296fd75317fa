"""Whole Senet games driven only through gpiozero mock pins (buttons and the shaker)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import programs
from PIL import Image

from companion.journal.store import decode, load
from companion.rules import Event
from companion.sim.demo import play
from companion.ui.events import words_for
from companion.ui.render import render
from companion.ui.view import View


def test_a_whole_game_through_the_pins_shows_every_game_screen_and_journals_it(tmp_path: Path) -> None:
    frames: list[tuple[Image.Image, str]] = []
    result = play(tmp_path, seed=11, on_frame=lambda img, screen: frames.append((img, screen)))
    screens = [s for _, s in frames]
    assert screens[:4] == ["splash", "menu", "setup", "throw"]
    assert {"throw", "moves", "lost", "events", "over"} <= set(screens)
    assert screens[-1] == "over"
    # the last frame says who won, as the journal does
    assert result.journal is not None
    loaded = load(result.journal)
    assert loaded.ended and loaded.damage is None
    outcome = loaded.state.outcome
    assert outcome is not None
    winner = loaded.game.player_name(outcome.winners[0], 2)
    assert result.winner == winner
    last, _ = frames[-1]
    said = words_for(loaded.state)(Event.from_json(loaded.records[-1]["events"][0]))  # the journal keeps data
    want = render(View("over", "Game over", (f"{winner} wins!", outcome.reason, said)))
    assert last.crop((0, 0, 128, 18)).tobytes() == want.crop((0, 0, 128, 18)).tobytes()
    # throws and moves alternate as the rules say, and the record ends with the winner
    throws = [r for r in loaded.records if "throw" in r]
    assert throws and all(r["throw"]["implement"] == "4 sticks" for r in throws)
    assert result.record[-1].startswith(f"winner: {winner}")


def test_bouncing_contacts_play_the_very_same_game(tmp_path: Path) -> None:
    clean = play(tmp_path / "clean", seed=5)
    bouncy = play(tmp_path / "bouncy", seed=5, bounces=4)
    assert clean.journal is not None and bouncy.journal is not None
    assert clean.journal.read_bytes().splitlines()[1:] == bouncy.journal.read_bytes().splitlines()[1:]


def _demo_args(journal: Path, seed: int) -> list[str]:
    return [sys.executable, "-m", "companion", "demo", "--seed", str(seed), "--journal",
            str(journal)]


def _demo(journal: Path, seed: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(_demo_args(journal, seed), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)


def _actions(journal_dir: Path) -> list[bytes]:
    (path,) = journal_dir.glob("*.journal")
    lines = path.read_bytes().splitlines()
    assert decode(lines[0])["game"] == "senet-tait"
    return lines[1:]  # the first record holds the start time


def test_killed_at_a_random_action_and_resumed_gives_the_same_final_journal(tmp_path: Path) -> None:
    seed = 21
    whole = programs.run(_demo_args(tmp_path / "whole", seed), capture_output=True, idle=2)
    assert whole.returncode == 0, whole.stderr.decode()
    expected = _actions(tmp_path / "whole")

    kill_after = random.randrange(5, len(expected) // 2)
    victim_dir = tmp_path / "killed"
    victim = _demo(victim_dir, seed)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        files = list(victim_dir.glob("*.journal"))
        if files and files[0].read_bytes().count(b"\n") > kill_after:
            break
        time.sleep(0.001)
    os.kill(victim.pid, signal.SIGKILL)
    victim.communicate(timeout=10)
    assert victim.returncode == -signal.SIGKILL
    interrupted = _actions(victim_dir)
    assert len(interrupted) < len(expected), "the game ended before the kill"

    resumed = programs.run(_demo_args(victim_dir, seed), capture_output=True, idle=2)
    assert resumed.returncode == 0, resumed.stderr.decode()
    assert _actions(victim_dir) == expected, f"killed after {kill_after} actions"
