"""Senet under John Tait's rules: what the companion shows beyond the rules' facts.

The board shows everything of a Senet position (no one is trapped, nothing is held),
so the default presenter's screens serve; only the options get their players' labels.
"""

from __future__ import annotations

from typing import ClassVar

from companion.ui.games import Presenter


class SenetTaitPresenter(Presenter):
    """Senet (Tait): the default screens, the options by their names on the board."""

    option_labels: ClassVar[dict[str, str]] = {
        "sticks": "Sticks",
        "house-of-beauty": "House of Beauty",
        "six-after-lost-throw": "Unused 6 rethrow",
    }
