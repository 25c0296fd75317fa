"""People's names at a table: plain text, safe to keep, send and show (issue 33).

A name comes from a person typing it (the club's roster, ``companion club roster
add``), from the club's broker (the roster a box receives) or from a box (the seats of
a state or result the club receives). Wherever it came from, it goes through
:func:`clean_name` before it is kept or shown: then it is one line of plain text of at
most :data:`MAX_NAME` characters that cannot change how the text around it is laid
out. (Escaping for HTML is the page's: Jinja2's autoescaping; a clean name may still
hold ``<`` or ``&``.)

What is removed, and why:

* the bidirectional controls (:data:`BIDI_CONTROLS`: the embeddings and overrides
  U+202A-U+202E, the isolates U+2066-U+2069, the marks U+200E, U+200F, U+061C): a
  right-to-left override in a name reverses the rest of its line on the page;
* every other control or format character (Unicode categories Cc and Cf, but the
  zero-width (non-)joiners U+200C/U+200D, which Persian, the Indic scripts and emoji
  need), lone surrogates (Cs: not UTF-8), private-use (Co) and unassigned (Cn) code
  points: invisible or unprintable, they make two names look the same;
* line breaks, tabs and runs of spaces: each run of white space becomes one space,
  none (and no joiner) at either end.

The text is NFC-normalised first (one spelling for "é"), and a name longer than
:data:`MAX_NAME` characters is cut to ``MAX_NAME - 1`` of them followed by
:data:`ELLIPSIS`.
"""

from __future__ import annotations

import unicodedata
from typing import Final

MAX_NAME: Final = 32
"""The most characters a name keeps (a longer one is cut, ending in :data:`ELLIPSIS`)."""
ELLIPSIS: Final = "\u2026"
"""What ends a name that was cut: ``…``."""
BIDI_CONTROLS: Final = frozenset(
    "\u202a\u202b\u202c\u202d\u202e"  # LRE, RLE, PDF, LRO, RLO
    "\u2066\u2067\u2068\u2069"  # LRI, RLI, FSI, PDI
    "\u200e\u200f\u061c"  # LRM, RLM, ALM
)
"""The bidirectional-control characters a name never keeps."""
_JOINERS: Final = frozenset("\u200c\u200d")
_DROPPED: Final = frozenset(("Cc", "Cf", "Cs", "Co", "Cn"))


def clean_name(text: str, limit: int = MAX_NAME) -> str:
    """``text`` as a safe name: NFC, without bidirectional controls or any other
    control, format (but the zero-width joiners), surrogate, private-use or unassigned
    code point, white space runs made one space and stripped, at most ``limit``
    characters (a longer one cut to ``limit - 1`` and :data:`ELLIPSIS`). ``""`` when
    nothing is left. Idempotent: ``clean_name(clean_name(t)) == clean_name(t)``.

    :raises TypeError: ``text`` is not a ``str``.
    :raises ValueError: ``limit`` is under 2.
    """
    if not isinstance(text, str):
        raise TypeError(f"a name is text, not {type(text).__name__}")
    if limit < 2:
        raise ValueError(f"a name limit of {limit}: at least 2 expected")
    kept: list[str] = []
    for ch in unicodedata.normalize("NFC", text):
        if ch.isspace():
            kept.append(" ")
        elif ch not in BIDI_CONTROLS and (
                ch in _JOINERS or unicodedata.category(ch) not in _DROPPED):
            kept.append(ch)
    # Removing a character may have put two that compose side by side: normalise again;
    # a joiner at either end joins nothing.
    name = unicodedata.normalize("NFC", " ".join("".join(kept).split()))
    name = name.strip(" \u200c\u200d")
    if len(name) > limit:
        name = name[: limit - 1].rstrip(" \u200c\u200d") + ELLIPSIS
    return name


def shown_name(text: object, limit: int = MAX_NAME) -> str:
    """A name to show, whatever came: :func:`clean_name` of ``text`` (not text: its
    ``str``); ``"?"`` when nothing is left."""
    return clean_name(text if isinstance(text, str) else str(text), limit) or "?"


__all__ = ["BIDI_CONTROLS", "ELLIPSIS", "MAX_NAME", "clean_name", "shown_name"]
