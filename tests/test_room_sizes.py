"""The rooms stay their size (issue 31): no module of ``companion/`` over 900 lines, and
the controller, which only routes events and shows what the pages return, under 400.
A module that grows past these is split by concept (docs/architecture.md), not let go."""

from __future__ import annotations

from pathlib import Path

import companion

ROOT = Path(companion.__file__).parent
MODULE_MAX = 900
CONTROLLER_MAX = 400


def lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_no_module_is_over_900_lines() -> None:
    over = {str(p.relative_to(ROOT)): n for p in sorted(ROOT.rglob("*.py"))
            if (n := lines(p)) > MODULE_MAX}
    assert not over, f"modules over {MODULE_MAX} lines: {over}"


def test_the_controller_is_under_400_lines() -> None:
    assert lines(ROOT / "app" / "controller.py") < CONTROLLER_MAX
