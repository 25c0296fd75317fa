"""The rules' events in the companion's words, for tests that check what players read.

Events are data (:class:`companion.rules.Event`); what the OLED, the pages and
``companion journal show`` show of them is :mod:`companion.ui.events`' words, in the
language in use (English unless a test sets another).
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.rules import Event, State
from companion.ui.events import words_for


def said(state: State, events: Iterable[Event]) -> list[str]:
    """``events`` in words, with the names of ``state``'s players (the position after
    them, as the screens take it)."""
    return list(words_for(state).all(list(events)))
