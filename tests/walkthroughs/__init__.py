"""Screen walkthroughs: every screen of the companion, made by driving the real
controller with events, for the reference PNGs (tests/ui/test_reference.py) and for
tests that need a scripted game. Regenerate the references with
``UPDATE_REFERENCE=1 .venv/bin/python -m pytest tests/ui/test_reference.py``.
"""

from __future__ import annotations

from collections.abc import Callable

from companion.rules import Implement, Throw


def scripted_draw(scores: list[str]) -> Callable[[Implement, int], Throw]:
    """Throws read in order from ``scores`` (as a person would type them:
    :meth:`~companion.rules.Implement.parse`)."""
    queue = list(scores)

    def draw(implement: Implement, n: int) -> Throw:
        return implement.parse(queue.pop(0))

    return draw
