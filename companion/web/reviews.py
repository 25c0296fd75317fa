"""The reviews of finished games for the spectator page, worked out in the background.

The review of a finished game (:func:`companion.ai.review.review`) takes about half a
minute of CPU for the demo game of casting-stick Senet and up to a minute and a half
for 600 actions here, 8-12 times that on a Pi. The page of a finished game does not
wait for it: :meth:`Reviews.get` answers at once, with the review when it is known and
``None`` while it is being worked out (it is then asked for). The reviews are worked
out ONE AT A TIME, oldest request first, on one thread of their own (a
:class:`~concurrent.futures.ThreadPoolExecutor` of one worker, as the box's
:meth:`companion.app.worker.Worker.threaded`: never on the event loop's thread, and one
review at a time, for a Pi has little CPU to spare); the games asked for meanwhile
wait their turn. The page says that the review is coming and asks again
(``static/review.js``: ``/game/NAME/review`` answers 202 until it is there).

Each review is worked out once per journal CONTENT: it is kept in memory by the
SHA-256 of the journal's bytes (a journal written on gives another key, so a changed
game is reviewed anew, never shown an old review), at most :data:`REVIEWS_KEPT` of
them (the least recently asked for goes first). It is kept in memory only: the page's
unit may write nothing on disk (``ProtectSystem=strict``, the saved games read-only:
``systemd/board-companion-web.service``), so a restarted page works a review out
again when it is first asked for.

A review that fails (an action the rules refuse, a bug in the search) is kept as
failed, so that the page says so in a plain sentence, and not worked out again for the
same journal; a review cut short as the page stops is not kept.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

from companion.journal import record as rec
from companion.journal.store import load, read_journal_bytes
from companion.rules import State
from companion.ui.games.boards import board_model

if TYPE_CHECKING:
    from concurrent.futures import Future, ThreadPoolExecutor

    from companion.ai.review import Review

log = logging.getLogger(__name__)

REVIEW_MAX_ACTIONS: Final = 600
"""A game longer than this is not reviewed on the page: the review of 600 actions
takes up to about a minute and a half of CPU here (casting-stick Senet the slowest,
300 actions 48-51 s: the review searches one turn deeper than the strong level plays),
8-12 times that on a Pi (`companion journal review` reviews any length; docs/ai.md)."""

REVIEWS_KEPT: Final = 64
"""Reviews kept in memory (a finished game's review does not change: keyed by the
journal's content)."""


@dataclass(frozen=True)
class Reviewed:
    """What the review of one journal came to: ``review`` (``None``: no review: the game
    is unfinished, abandoned, damaged or longer than :data:`REVIEW_MAX_ACTIONS`, or
    ``failed``), ``turns`` (:func:`turn_numbers`: the turn of each action in force) and
    ``colours`` (each seat's CSS colour on the board drawing). The words are rendered
    from it in the reader's language (:func:`companion.web.view.review_html`)."""

    review: Review | None
    turns: tuple[int, ...] = ()
    colours: tuple[str, ...] = ()
    failed: bool = False
    """The review was asked for and raised: the page says it could not be made."""


NOT_REVIEWED: Final = Reviewed(None)
FAILED: Final = Reviewed(None, failed=True)


def turn_numbers(record: rec.Record) -> tuple[int, ...]:
    """The turn of each action in force, in order, as the page's event log numbers the
    turns (``Turn 12: White``): ``turn_numbers(r)[k - 1]`` is the turn of action ``k``.
    A turn whose actions were all taken back keeps its number (the log shows it)."""
    return tuple(turn.number for turn in record.turns for step in turn.steps
                 if step.kind != "undo" and not step.taken_back and step.checked)


def review_of(path: Path, data: bytes, cancel: threading.Event | None = None) -> Reviewed:
    """The review of the journal at ``path`` whose bytes are ``data`` (the game's
    actions, its turns and its players' colours): :data:`NOT_REVIEWED` for a game that
    is not reviewed (see :class:`Reviewed`).

    :raises Exception: whatever the review raises (:class:`Reviews` keeps it as
        :data:`FAILED`); :class:`companion.ai.search.Cancelled` once ``cancel`` is set.
    """
    from companion.ai import review

    loaded = load(path, repair=False, data=data)
    if not loaded.ended or loaded.state.outcome is None or len(loaded.actions) > REVIEW_MAX_ACTIONS:
        return NOT_REVIEWED
    turns = turn_numbers(rec.read(path))
    if len(turns) != len(loaded.actions):
        raise ValueError(f"the record has {len(turns)} actions in force, the loader "
                         f"{len(loaded.actions)}")
    names = tuple(loaded.game.player_name(p, loaded.players) for p in range(loaded.players))
    result = review.review(loaded.game, loaded.players, loaded.actions, names, cancel=cancel)
    return Reviewed(result, turns, player_colours(loaded.state))


FALLBACK_COLOURS: Final = ("#222222", "#c0392b", "#2471a3", "#1e8449")
"""Line colours for a game with no board picture (none today)."""


def player_colours(state: State) -> tuple[str, ...]:
    """Each seat's CSS colour as the board drawing gives it
    (:attr:`companion.ui.games.boards.Side.colour`: ``"black"``, ``"white"``,
    ``"royalblue"``...), so that a player has one colour on the whole page."""
    try:
        return tuple(side.colour for side in board_model(state).sides)
    except Exception:  # no picture for this game: distinct colours all the same
        log.debug("web: no board colours for %s", state.game.id, exc_info=True)
        return tuple(FALLBACK_COLOURS[p % len(FALLBACK_COLOURS)] for p in range(state.players))


Work = Callable[[Path, bytes, threading.Event], Reviewed]
"""What works a review out (:func:`review_of`; a test hands a slower or a failing one)."""


class Reviews:
    """The reviews of the page's journals: kept by content, worked out one at a time on
    a thread of their own (see the module). Thread-safe: :meth:`get` is called from the
    page's reader threads.

    ``work``: what works one out (:func:`review_of`); ``kept``: how many are kept.
    """

    def __init__(self, work: Work = review_of, kept: int = REVIEWS_KEPT) -> None:
        self._work = work
        self._kept = kept
        self._done: OrderedDict[str, Reviewed] = OrderedDict()
        self._asked: dict[str, Future[None]] = {}
        self._lock = threading.Lock()
        self._executor: ThreadPoolExecutor | None = None  # made with the first review
        self._closed = False
        self.cancel = threading.Event()
        """Set by :meth:`close`: the review under way ends at its search's next node."""
        self.started = 0
        """Reviews begun so far (each journal content once, unless one was cut short)."""

    def get(self, path: Path) -> Reviewed | None:
        """The review of the journal at ``path`` as it is now; ``None`` while it is
        being worked out or waits its turn (asked for now when it was not yet).

        :raises OSError: the journal cannot be read.
        :raises JournalError: it is no regular file or is too long
            (:func:`companion.journal.store.read_journal_bytes`).
        """
        key = hashlib.sha256(read_journal_bytes(path)).hexdigest()
        with self._lock:
            found = self._done.get(key)
            if found is not None:
                self._done.move_to_end(key)
                return found
            if key not in self._asked and not self._closed:
                self._asked[key] = self._thread().submit(self._run, key, path)
        return None

    def _thread(self) -> ThreadPoolExecutor:
        if self._executor is None:
            from concurrent.futures import ThreadPoolExecutor

            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="companion-review")
        return self._executor

    def _run(self, key: str, path: Path) -> None:
        """Works out the review asked for as ``key``, on the reviews' thread: the file
        is read again, and the review kept under the key of what was read (a journal
        changed since it was asked for is asked for again under its new key)."""
        result: Reviewed | None
        read = key
        try:
            data = read_journal_bytes(path)
            read = hashlib.sha256(data).hexdigest()
            with self._lock:
                self.started += 1
            result = self._work(path, data, self.cancel)
        except Exception as exc:  # a review is extra: never a 500 for it
            if self.cancel.is_set():
                log.info("web: the review of %s ended as the page stops", path)
                result = None
            else:
                log.warning("web: no review for %s (%s)", path, type(exc).__name__, exc_info=True)
                result = FAILED
        with self._lock:
            self._asked.pop(key, None)
            if result is not None:
                self._done[read] = result
                self._done.move_to_end(read)
                while len(self._done) > self._kept:
                    self._done.popitem(last=False)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until every review asked for so far is worked out (tests); ``timeout``
        in seconds (``None``: as long as it takes). Whether none is left."""
        from concurrent.futures import wait

        with self._lock:
            asked = list(self._asked.values())
        _done, left = wait(asked, timeout=timeout)
        return not left

    def close(self) -> None:
        """Stop: the review under way is told to end (:attr:`cancel`), the ones waiting
        are dropped, none is asked for after this. Idempotent; any thread."""
        with self._lock:
            self._closed = True
            executor = self._executor
        self.cancel.set()
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)


__all__ = [
    "FAILED",
    "FALLBACK_COLOURS",
    "NOT_REVIEWED",
    "REVIEWS_KEPT",
    "REVIEW_MAX_ACTIONS",
    "Reviewed",
    "Reviews",
    "player_colours",
    "review_of",
    "turn_numbers",
]
