"""The spectator page's web application (Starlette): read-only, GET and HEAD only.

Routes (every one GET or HEAD; any other method is answered 405 before routing):

* ``/``: the game in progress (the newest journal), updated live by ``/events``;
* ``/events``: server-sent events: an ``event: board`` whose ``data`` is JSON
  ``{"html": ...}`` (the live part of ``/``) at once and then whenever the journal
  directory's listing or the newest journal's size or modification time changes
  (polled every ``poll`` seconds); a comment every 15 seconds keeps proxies open.
  Every stream is fed by one shared watcher (:class:`LiveBoard`): one look at the
  directory per ``poll`` and one rendering per change, whatever the number of
  spectators, and no thread per stream;
* ``/live``: the live part of ``/`` alone (HTML fragment);
* ``/games``: the saved games, newest first, each a link to ``/game/NAME``;
* ``/game/NAME``: one game (board at its end, throw, the whole event log) and, for a
  finished game, its review: answered at once; while the review is being worked out
  (in the background, one at a time: :class:`companion.web.reviews.Reviews`) the page
  says it is coming and ``page``'s ``review.js`` fetches it when it is there;
* ``/game/NAME/review``: the review section alone (HTML fragment): 200 when it is
  known (``""`` for a game not reviewed; one sentence when the review failed), 202
  with the note while it is being worked out;
* ``/game/NAME/record.txt``: its record exactly as ``companion journal show`` prints it;
* ``/static/page.css``, ``/static/page.js``, ``/static/review.js``: the page's own style
  and scripts.

Every page is in its reader's language: ``?lang=de`` (a language the box has a
catalogue for), else the browser's ``Accept-Language`` (:func:`companion.i18n.negotiate`),
else the box's ``display.language`` (``language`` of :func:`create_app`); the event
stream of ``/`` carries the page's ``lang`` (``page.js``). Pages answer with ``Vary:
Accept-Language``.

``NAME`` is a journal file name checked against :data:`companion.web.view.NAME` and
looked up in the directory's listing (never joined to a path): anything else is a 404.
Every response carries ``Content-Security-Policy: default-src 'self'`` (no inline
script, nothing from elsewhere), ``X-Content-Type-Options: nosniff``,
``Referrer-Policy: no-referrer`` and ``Cache-Control: no-store`` (the static files:
``no-cache``).

Files are read in worker threads, at most :data:`READERS` at once (an
:class:`anyio.CapacityLimiter`), each journal through the bounded reader of
:func:`companion.journal.store.read_journal_bytes`: the threads and the memory the page
uses do not grow with the number of spectators (see :mod:`companion.web.server` for
the connection limits).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Callable
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Final, TypeVar

import anyio
import anyio.to_thread
from anyio import CapacityLimiter
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from companion import i18n

from . import view
from .reviews import FAILED, Reviewed, Reviews

POLL: Final = 0.25
"""Seconds between two looks at the journal directory by each open event stream."""
KEEPALIVE: Final = 15.0
"""Seconds without news after which an event stream sends a comment line."""
HEADERS: Final = {
    "content-security-policy": "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
    "form-action 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}
READERS: Final = 2
"""Worker threads reading journals at once (more requests wait their turn)."""
_STATIC: Final = {"page.css": "text/css; charset=utf-8",
                  "page.js": "text/javascript; charset=utf-8",
                  "review.js": "text/javascript; charset=utf-8"}


log = logging.getLogger(__name__)
_T = TypeVar("_T")


class LiveBoard:
    """The live part of the front page, kept for every stream by one watcher.

    While at least one event stream is open, one asyncio task looks at the directory
    (:func:`view.signature`) every ``poll`` seconds and renders the live part when it
    changed, once in each language a stream is open in; every stream waits for the
    next version on one condition. The work per change is the same for 1 spectator or
    300 (times the languages in use: two today). :meth:`live` gives the front page the
    same rendering when nothing changed since.
    """

    def __init__(self, directory: Path, poll: float, limiter: CapacityLimiter) -> None:
        self.directory = directory
        self.poll = poll
        self.limiter = limiter
        self.version = 0
        """Increased at each new rendering (0: none yet)."""
        self.payload: dict[str, str] = {}
        """The current ``event: board`` message, whole, by language."""
        self.closing = False
        """Set by :meth:`close`: every stream ends at once (the server is stopping)."""
        self._cache: dict[str, tuple[tuple[object, ...], str]] = {}
        self._streams = 0
        self._languages: dict[str, int] = {}  # the open streams by language
        self._task: asyncio.Task[None] | None = None
        self._changed: asyncio.Condition | None = None
        self._wake: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    async def in_thread(self, call: Callable[..., _T], *args: object) -> _T:
        """``call(*args)`` in a worker thread, at most :data:`READERS` at once."""
        return await anyio.to_thread.run_sync(call, *args, limiter=self.limiter)

    async def in_language(self, language: str, call: Callable[..., _T], *args: object) -> _T:
        """``call(*args)`` worded in ``language`` (:func:`companion.i18n.using`, entered in
        the worker thread itself), in a worker thread as :meth:`in_thread`."""
        def worded() -> _T:
            with i18n.using(language):
                return call(*args)

        return await self.in_thread(worded)

    async def live(self, language: str = i18n.SOURCE_LANGUAGE) -> tuple[tuple[object, ...], str]:
        """The directory's signature and the live part's HTML in ``language`` (rendered
        again only when the signature changed since its last rendering)."""
        sig = await self.in_thread(view.signature, self.directory)
        cached = self._cache.get(language)
        if cached is not None and cached[0] == sig:
            return cached
        html = await self.in_language(language, view.live_html, self.directory)
        self._cache[language] = (sig, html)
        return sig, html

    async def _watch(self) -> None:
        changed = self._changed
        assert changed is not None
        last: tuple[object, ...] | None = None
        while True:
            wanted = sorted(self._languages)
            fresh: dict[str, str] = {}
            sig: tuple[object, ...] = ()
            for language in wanted:
                try:
                    sig, html = await self.live(language)
                except Exception:  # never: view functions do not raise; keep the streams alive
                    log.exception("web: the live board cannot be rendered")
                    sig, html = (), '<p class="empty">The game cannot be shown just now.</p>'
                fresh[language] = html
            if wanted and (sig != last or self.version == 0
                           or any(lang not in self.payload for lang in wanted)):
                last = sig
                self.payload = {lang: f"event: board\ndata: {json.dumps({'html': html})}\n\n"
                                for lang, html in fresh.items()}
                self.version += 1
                async with changed:
                    changed.notify_all()
            await asyncio.sleep(self.poll)

    def _newer(self, seen: int, language: str) -> bool:
        return (self.version > seen and language in self.payload) or self.closing

    def close(self) -> None:
        """End every event stream now (call in the loop's thread): a stopping server
        need not wait for spectators who never leave."""
        self.closing = True
        changed = self._changed
        if changed is not None:
            async def wake(cond: asyncio.Condition) -> None:
                async with cond:
                    cond.notify_all()

            self._wake = asyncio.get_running_loop().create_task(wake(changed))

    async def stream(self, limit: int | None,
                     language: str = i18n.SOURCE_LANGUAGE) -> AsyncIterator[str]:
        """One spectator's event stream: the current board in ``language`` at once, each
        change after, a comment after :data:`KEEPALIVE` seconds without news; ends after
        ``limit`` board events (``None``: never)."""
        loop = asyncio.get_running_loop()
        if self._streams == 0 or self._loop is not loop:  # the first spectator (of this
            self._streams = 0                            # loop) starts the watcher
            self._loop = loop
            self._changed = asyncio.Condition()
            self.version = 0
            self.payload = {}
            self._languages = {}
            self._task = asyncio.create_task(self._watch())
        changed = self._changed
        assert changed is not None
        self._streams += 1
        self._languages[language] = self._languages.get(language, 0) + 1
        try:
            yield "retry: 1000\n\n"  # a browser reconnects after a second when the link drops
            seen = 0
            sent = 0
            while (limit is None or sent < limit) and not self.closing:
                async with changed:
                    # anyio's timeout, not asyncio.wait_for: Starlette ends a stream whose
                    # client left by cancelling an anyio scope, which wait_for (3.11) turns
                    # into an error logged with its traceback.
                    with anyio.move_on_after(KEEPALIVE):
                        await changed.wait_for(partial(self._newer, seen, language))
                if self.closing:
                    break
                if self.version > seen and language in self.payload:
                    seen = self.version
                    sent += 1
                    yield self.payload[language]
                else:
                    yield ": still here\n\n"
        finally:
            self._streams -= 1
            self._languages[language] -= 1
            if not self._languages[language]:
                del self._languages[language]
            if self._streams == 0 and self._task is not None:  # the last one stops it
                self._task.cancel()
                self._task = None


class ReadOnly:
    """ASGI middleware: 405 (``Allow: GET, HEAD``) for any method but GET and HEAD, before
    any route is looked at; the security headers (:data:`HEADERS`) and a ``Cache-Control``
    on every response."""

    def __init__(self, app: ASGIApp, board: LiveBoard | None = None,
                 reviews: Reviews | None = None) -> None:
        self.app = app
        self.board = board
        """The live board feeding the event streams (:meth:`LiveBoard.close` ends them)."""
        self.reviews = reviews
        """The reviews worked out in the background (:meth:`Reviews.close` stops them)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        static = str(scope.get("path", "")).startswith("/static/")
        extra = [(k.encode(), v.encode()) for k, v in HEADERS.items()]
        extra.append((b"cache-control", b"no-cache" if static else b"no-store"))

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", [])
                           if k.lower() != b"cache-control"]
                message = {**message, "headers": headers + extra}
            await send(message)

        if scope["method"] not in ("GET", "HEAD"):
            response = PlainTextResponse("405 Method Not Allowed: this page is read-only\n",
                                         status_code=405, headers={"Allow": "GET, HEAD"})
            await response(scope, receive, send_with_headers)
            return
        await self.app(scope, receive, send_with_headers)


def reader_language(request: Request, default: str) -> str:
    """The language to answer ``request`` in: its ``?lang=`` when the box has that
    language, else its ``Accept-Language`` negotiated (:func:`companion.i18n.negotiate`),
    else ``default``."""
    asked = request.query_params.get("lang", "")
    have = i18n.languages()
    if asked in have:
        return asked
    return i18n.negotiate(request.headers.get("accept-language"), default, have)


VARY: Final = {"Vary": "Accept-Language"}
"""A page's words depend on the reader's language."""


def create_app(directory: Path, *, language: str = i18n.SOURCE_LANGUAGE, poll: float = POLL,
               stream_limit: int | None = None, reviews: Reviews | None = None) -> ReadOnly:
    """The application serving the journals of ``directory`` (read-only).

    ``language``: the box's ``display.language``, for a reader whose browser asks for
    none the box has; ``poll``: seconds between two looks at the directory by the event streams' watcher
    (0.01-5); ``stream_limit``: end each event stream after this many ``board`` events
    (tests; ``None``: never); ``reviews``: where the finished games' reviews are worked
    out and kept (``None``: a :class:`~companion.web.reviews.Reviews` of its own; the
    application's :attr:`ReadOnly.reviews`, closed by the server when it stops).
    """
    reviews = reviews if reviews is not None else Reviews()
    static = {name: (resources.files("companion.web") / "static" / name).read_bytes()
              for name in _STATIC}
    board = LiveBoard(directory, poll, CapacityLimiter(READERS))

    i18n.load(language)  # an unknown language fails here, not at the first request

    def lang(request: Request) -> str:
        return reader_language(request, language)

    async def front(request: Request) -> Response:
        code = lang(request)
        _, live = await board.live(code)
        page = await board.in_language(code, view.front_page, live)
        return HTMLResponse(page, headers=VARY)

    async def live_part(request: Request) -> Response:
        _, live = await board.live(lang(request))
        return HTMLResponse(live, headers=VARY)

    async def games(request: Request) -> Response:
        page = await board.in_language(lang(request), view.games_page, directory)
        return HTMLResponse(page, headers=VARY)

    def _found(request: Request) -> view.GameView:
        path = view.find(directory, request.path_params["name"])
        if path is None:
            raise HTTPException(404)
        return view.read_game(path)

    def _review(path: Path) -> Reviewed | None:
        try:
            return reviews.get(path)
        except Exception as exc:  # unreadable since it was read: never a 500 for a review
            log.warning("web: no review for %s (%s)", path, type(exc).__name__)
            return FAILED

    async def game(request: Request) -> Response:
        code = lang(request)
        seen = await board.in_language(code, _found, request)
        found = view.find(directory, seen.name)
        review, pending = "", False
        if view.reviewable(seen) and found is not None:
            reviewed = await board.in_thread(_review, found)  # never waits for the review
            pending = reviewed is None
            review = await board.in_language(code, view.review_html, reviewed, seen.name)
        page = await board.in_language(code, partial(view.game_page, pending=pending), seen, review)
        return HTMLResponse(page, headers=VARY)

    async def review_part(request: Request) -> Response:
        found = view.find(directory, request.path_params["name"])
        if found is None:
            raise HTTPException(404)
        reviewed = await board.in_thread(_review, found)
        html = await board.in_language(lang(request), view.review_html, reviewed, found.name)
        return HTMLResponse(html, status_code=202 if reviewed is None else 200, headers=VARY)

    async def record_txt(request: Request) -> Response:
        code = lang(request)
        seen = await board.in_language(code, _found, request)
        if seen.record is None:
            return PlainTextResponse(f"{seen.name}: not a usable journal: {seen.problem}\n",
                                     status_code=404)
        text = await board.in_language(code, view.record_text, seen)
        return PlainTextResponse(text, headers=VARY)

    async def static_file(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in static:
            raise HTTPException(404)
        return Response(static[name], media_type=_STATIC[name])

    async def events(request: Request) -> Response:
        return StreamingResponse(board.stream(stream_limit, lang(request)),
                                 media_type="text/event-stream",
                                 headers={"X-Accel-Buffering": "no"})

    async def not_found(request: Request, exc: Exception) -> Response:
        code = exc.status_code if isinstance(exc, HTTPException) else 404
        with i18n.using(lang(request)):
            page = view.error_page(code)
        return HTMLResponse(page, status_code=code, headers=VARY)

    routes = [
        Route("/", front), Route("/live", live_part), Route("/events", events),
        Route("/games", games), Route("/game/{name}", game),
        Route("/game/{name}/record.txt", record_txt), Route("/game/{name}/review", review_part),
        Route("/static/{name}", static_file),
    ]
    app = Starlette(routes=routes, exception_handlers={HTTPException: not_found})
    return ReadOnly(app, board, reviews)
