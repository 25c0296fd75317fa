"""One random-playout step (issue 31): the tests and benchmarks take a random game's
step from :func:`companion.rules.random_action` (or :func:`companion.rules.play_out`),
not from a copy of it written out by hand (``spec.draw(rng.randrange)`` when a throw is
due, else ``moves[rng.randrange(len(moves))]`` or ``rng.choice(moves)``). A copy drifts:
the issue found the step written out in 27 files.

The lines below that still draw by hand do something else, each on purpose
(:data:`ALLOWED`). A new one is either a random step (use ``random_action``) or a
deliberate variant: then it gets its line here, with why."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("tests", "benchmarks")

HAND_STEP = re.compile(
    r"\.draw\([\w.()]*randrange\)"  # a throw drawn from the implement
    r"|randrange\(len\([\w.()]*(?:moves|legal|available)\w*(?:\(\))?\)\)"  # a move's index
    r"|\bchoice\([\w.()]*(?:moves|legal)"  # a move chosen with rng.choice
)
"""A line writing out a half of the random step: the throw or the move."""

ALLOWED: dict[str, tuple[str, ...]] = {
    # A seat of a match: it returns a Move and the match draws the throws.
    "tests/ai/test_match.py": ("return moves[rng.randrange(len(moves))]",),
    # A move to highlight (never played), chosen among the moves that are not a pass.
    "tests/ui/test_boards_properties.py": ("move = moves[rng.randrange(len(moves))]",),
    # A Throw value of a given implement (a fake shaker, a photo's throw, the link's
    # faces, a throw reported to the fuzzed controller, the sticks' distribution): no game is played on by it.
    "tests/sim/test_computer_seat.py": ("return implement.draw(rng.randrange)",),
    "tests/walkthroughs/cue_games.py": ("return implement.draw(rng.randrange)",),
    "tests/devices/test_shaker_link.py": ("faces = implement.draw(rng.randrange).faces",),
    "tests/rules/test_core.py": ("counts = Counter(sticks.draw(rng.randrange).values[0]",),
    "tests/app/test_controller_fuzz.py": ("faces = spec.draw(rnd.randrange).faces",),
    "tests/camera/test_camera_read.py": ("throw = spec.draw(rng.randrange)",),
    "tests/camera/test_camera_find.py": ("throw = spec.draw(random.Random(seed).randrange)",),
    "benchmarks/vision.py": ("throw = spec.draw(rng.randrange)",),
    # The random chooser of the playout benchmarks: an index, beside the goal-seeking one.
    "benchmarks/playouts.py": ("return rng.randrange(len(moves))",),
    # The measured loop of the throughput benchmark (no call between the rules and the
    # clock; it counts the moves that are not a pass) and its royalur baseline.
    "benchmarks/rules_throughput.py": (
        "act(spec.draw(randrange))",
        "move = legal[randrange(len(legal))]",
        "game.make_move(available[self.rng.randrange(len(available))])",
    ),
    # The throws of games between seats, in files another change was working on (issue
    # 31's playout part left them alone): random_action would draw the same.
    "benchmarks/ai_strength.py": ("state.apply(spec.draw(randrange))",),
    "benchmarks/calibration.py": ("state.play(spec.draw(rng.randrange))",),
}
"""Per file (relative to the repository), the stripped lines that may draw by hand."""


def hand_steps() -> list[tuple[str, int, str]]:
    """(file, line number, stripped line) of every line matching :data:`HAND_STEP`."""
    found = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if name == "tests/test_one_playout_step.py":
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if HAND_STEP.search(line):
                    found.append((name, number, line.strip()))
    return found


def allowed(name: str, line: str) -> bool:
    return any(line.startswith(text) for text in ALLOWED.get(name, ()))


def test_the_pattern_finds_both_halves_of_the_step() -> None:
    for line in ("state.apply(spec.draw(rng.randrange))",
                 "state.push(state.throw_spec.draw(rng.randrange))",
                 "state.apply(moves[rng.randrange(len(moves))])",
                 "state.apply(rng.choice(state.legal_moves()))",
                 "move = legal[randrange(len(legal))]"):
        assert HAND_STEP.search(line), line
    assert not HAND_STEP.search("state.apply(random_action(state, rng.randrange))")
    assert not HAND_STEP.search("state.apply(moves[goal_seeking_choice(state, moves)])")


def test_random_steps_come_from_random_action() -> None:
    """Every hand-written draw in tests/ and benchmarks/ is a listed variant."""
    new = [f"{name}:{number}: {line}" for name, number, line in hand_steps()
           if not allowed(name, line)]
    assert not new, ("a random step written out by hand: use companion.rules.random_action "
                     "(or list a deliberate variant in ALLOWED with why):\n" + "\n".join(new))


def test_every_allowed_variant_is_still_there() -> None:
    """An entry of :data:`ALLOWED` whose line is gone is taken out (the list stays true)."""
    seen = {(name, text) for name, _, line in hand_steps()
            for text in ALLOWED.get(name, ()) if line.startswith(text)}
    stale = [(name, text) for name, texts in ALLOWED.items() for text in texts
             if (name, text) not in seen]
    assert not stale, stale
