"""The spectator page's web application (Starlette): read-only, GET and HEAD only.

Routes (every one GET or HEAD; any other method is answered 405 before routing):

* ``/``: the game in progress (the newest journal), updated live by ``/events``;
* ``/events``: server-sent events: an ``event: board`` whose ``data`` is JSON
  ``{"html": ...}`` (the live part of ``/``) at once and then whenever the journal
  directory's listing or the newest journal's size or modification time changes
  (polled every ``poll`` seconds); a comment every 15 seconds keeps proxies open;
* ``/live``: the live part of ``/`` alone (HTML fragment);
* ``/games``: the saved games, newest first, each a link to ``/game/NAME``;
* ``/game/NAME``: one game (board at its end, throw, the whole event log);
* ``/game/NAME/record.txt``: its record exactly as ``companion journal show`` prints it;
* ``/static/page.css``, ``/static/page.js``: the page's own style and script.

``NAME`` is a journal file name checked against :data:`companion.web.view.NAME` and
looked up in the directory's listing (never joined to a path): anything else is a 404.
Every response carries ``Content-Security-Policy: default-src 'self'`` (no inline
script, nothing from elsewhere), ``X-Content-Type-Options: nosniff``,
``Referrer-Policy: no-referrer`` and ``Cache-Control: no-store`` (the static files:
``no-cache``).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Final

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from . import view

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
_STATIC: Final = {"page.css": "text/css; charset=utf-8",
                  "page.js": "text/javascript; charset=utf-8"}


class ReadOnly:
    """ASGI middleware: 405 (``Allow: GET, HEAD``) for any method but GET and HEAD, before
    any route is looked at; the security headers (:data:`HEADERS`) and a ``Cache-Control``
    on every response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

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


def create_app(directory: Path, *, poll: float = POLL, stream_limit: int | None = None) -> ASGIApp:
    """The application serving the journals of ``directory`` (read-only).

    ``poll``: seconds between two looks at the directory by an event stream (0.01-5);
    ``stream_limit``: end each event stream after this many ``board`` events (tests;
    ``None``: never).
    """
    static = {name: (resources.files("companion.web") / "static" / name).read_bytes()
              for name in _STATIC}

    async def front(request: Request) -> Response:
        live = await run_in_threadpool(view.live_html, directory)
        body = (f'<div id="live" aria-live="polite">{live}</div>'
                '<p class="foot"><noscript>Reload the page to see new moves. </noscript>'
                '<a href="/games">Saved games</a></p>')
        return HTMLResponse(view.page("Board companion: the game in progress", body, live=True))

    async def live_part(request: Request) -> Response:
        return HTMLResponse(await run_in_threadpool(view.live_html, directory))

    async def games(request: Request) -> Response:
        table = await run_in_threadpool(view.games_html, directory)
        return HTMLResponse(view.page("Board companion: saved games",
                                      f"<h1>Saved games</h1>{table}"))

    def _found(request: Request) -> view.GameView:
        path = view.find(directory, request.path_params["name"])
        if path is None:
            raise HTTPException(404)
        return view.read_game(path)

    async def game(request: Request) -> Response:
        seen = await run_in_threadpool(_found, request)
        body = view.game_html(seen, live=False)
        found = view.find(directory, seen.name)
        if seen.record is not None and found is not None:
            body += await run_in_threadpool(view.review_html, found)
        if seen.record is not None:
            body += f'<p class="foot"><a href="/game/{seen.name}/record.txt">The record as text</a></p>'
        return HTMLResponse(view.page(f"Board companion: {seen.name}", body))

    async def record_txt(request: Request) -> Response:
        seen = await run_in_threadpool(_found, request)
        if seen.record is None:
            return PlainTextResponse(f"{seen.name}: not a usable journal: {seen.problem}\n",
                                     status_code=404)
        return PlainTextResponse(view.record_text(seen))

    async def static_file(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in static:
            raise HTTPException(404)
        return Response(static[name], media_type=_STATIC[name])

    async def events(request: Request) -> Response:
        return StreamingResponse(_stream(request, directory, poll, stream_limit),
                                 media_type="text/event-stream",
                                 headers={"X-Accel-Buffering": "no"})

    async def not_found(request: Request, exc: Exception) -> Response:
        code = exc.status_code if isinstance(exc, HTTPException) else 404
        words = "No such page or game." if code == 404 else "Not allowed."
        return HTMLResponse(view.page("Board companion: not found",
                                      f'<h1>{code}</h1><p>{words} <a href="/">The game in '
                                      'progress</a>.</p>'), status_code=code)

    routes = [
        Route("/", front), Route("/live", live_part), Route("/events", events),
        Route("/games", games), Route("/game/{name}", game),
        Route("/game/{name}/record.txt", record_txt), Route("/static/{name}", static_file),
    ]
    app = Starlette(routes=routes, exception_handlers={HTTPException: not_found})
    return ReadOnly(app)


async def _stream(request: Request, directory: Path, poll: float,
                  limit: int | None) -> AsyncIterator[str]:
    """The event stream: a ``board`` event at once and after every change."""
    last: tuple[object, ...] | None = None
    sent = 0
    quiet = 0.0
    yield "retry: 1000\n\n"  # a browser reconnects after a second when the link drops
    while True:
        sig = await run_in_threadpool(view.signature, directory)
        if sig != last:
            last = sig
            html = await run_in_threadpool(view.live_html, directory)
            yield f"event: board\ndata: {json.dumps({'html': html})}\n\n"
            sent += 1
            quiet = 0.0
            if limit is not None and sent >= limit:
                return
        elif quiet >= KEEPALIVE:
            yield ": still here\n\n"
            quiet = 0.0
        if await request.is_disconnected():
            return
        await asyncio.sleep(poll)
        quiet += poll
