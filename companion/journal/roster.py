"""The club's roster on a box: the people who may take a seat (issue 33).

The club keeps its roster (``companion club roster add NAME``) and publishes it as a
retained message; the box's publisher (``companion publish``, the only box process on
the network) writes it here, into its own state folder, with :func:`save_roster`; the
referee, which never opens a socket, reads it with :func:`load_roster` when a seat
picks a person::

    {"format": "board-companion/roster", "version": 1,
     "updated": "2026-11-29T03:00:00+00:00", "names": ["Anna", "Ben"]}

Every name is :func:`~companion.journal.names.clean_name`'d when written and again when
read (a file edited by hand or damaged cannot bring a control character to the
screen). A missing, unreadable or damaged file is an empty roster (logged): the seats
then stay the game's colours, as on a box that is in no club.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Final

from companion.rules.datafile import RefusedFileError, parse_json, read_bytes, replace_atomically

log = logging.getLogger(__name__)

ROSTER_FILE: Final = "roster.json"
"""The roster's file name, in the publisher's state folder."""
FORMAT: Final = "board-companion/roster"
MAX_PEOPLE: Final = 500
"""The most names a roster keeps (the first ones, in the club's order)."""
MAX_BYTES: Final = 256 * 1024
"""The longest roster file read."""
PUBLISHER_STATE: Final = Path("/var/lib/board-companion-publish")
"""The publisher unit's state folder on a box installed by ``systemd/install.sh``
(``StateDirectory=board-companion-publish``)."""


def roster_names(names: Iterable[object]) -> tuple[str, ...]:
    """``names`` as a roster: each cleaned (:func:`~companion.journal.names.clean_name`;
    what is not text, or nothing once cleaned, left out), the first of equal names
    (ignoring case) kept, at most :data:`MAX_PEOPLE`, in the order given."""
    # imported here: the box's start needs only default_roster_path (issue 35)
    from companion.journal.names import clean_name

    kept: dict[str, str] = {}
    for raw in names:
        if not isinstance(raw, str):
            continue
        name = clean_name(raw)
        if name and name.casefold() not in kept:
            kept[name.casefold()] = name
            if len(kept) == MAX_PEOPLE:
                break
    return tuple(kept.values())


def load_roster(path: Path) -> tuple[str, ...]:
    """The names of the roster file ``path`` (see the module), in the club's order;
    ``()`` when the file is missing, unreadable or not a roster (logged, never
    raised): the seats then stay the game's colours."""
    try:
        data = read_bytes(path, MAX_BYTES)
    except FileNotFoundError:
        log.info("no club roster at %s: the seats keep the game's names", path)
        return ()
    except (OSError, RefusedFileError) as exc:
        log.warning("club roster %s cannot be read (%s): no names to pick", path, exc)
        return ()
    try:
        obj = parse_json(data.decode("utf-8"))
        if not isinstance(obj, dict) or obj.get("format") != FORMAT:
            raise ValueError("not a club roster")
        names = obj.get("names")
        if not isinstance(names, list):
            raise ValueError("'names' is not a list")
    except (ValueError, UnicodeDecodeError) as exc:
        log.warning("club roster %s is damaged (%s): no names to pick", path, exc)
        return ()
    return roster_names(names)


def save_roster(path: Path, names: Iterable[object], *, updated: str | None = None) -> tuple[str, ...]:
    """Write the roster ``names`` (cleaned: :func:`roster_names`) to ``path`` at once
    (temporary file, fsync, rename: a reader sees the old roster or the new, never
    half); ``updated``: ISO 8601 (default: now). The names written.

    :raises OSError: the folder cannot be written (the old file stays).
    """
    kept = roster_names(names)
    body = json.dumps({"format": FORMAT, "version": 1,
                       "updated": updated or datetime.now(UTC).isoformat(timespec="seconds"),
                       "names": list(kept)}, ensure_ascii=False, indent=1) + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    replace_atomically(path, body.encode("utf-8"))
    return kept


def default_roster_path() -> Path:
    """Where the box's publisher writes the roster by default: ``roster.json`` in
    :data:`PUBLISHER_STATE` when that folder exists (a box installed by
    ``systemd/install.sh --club``), else in ``$XDG_STATE_HOME/board-companion-publish``
    (``~/.local/state/...``: ``companion publish`` run by hand, its default state
    folder)."""
    if PUBLISHER_STATE.is_dir():
        return PUBLISHER_STATE / ROSTER_FILE
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "board-companion-publish" / ROSTER_FILE


__all__ = ["FORMAT", "MAX_PEOPLE", "PUBLISHER_STATE", "ROSTER_FILE", "default_roster_path",
           "load_roster", "roster_names", "save_roster"]
