"""The page on which the player marks a board's four corners (``companion camera
calibrate GAME --page``; issue 34: "the player marks the four corners (on the spectator
page ...)").

Not the spectator page's process: that one is read-only and writes no file (its unit
mounts the state folder read-only). This page is served by the calibrate command's own
process, for as long as the player is marking, on the address the spectator page
listens on (``web.bind``) and a port of its own, with the spectator page's shell
(``base.html``, ``page.css``), headers and language. Routes:

* ``GET /``: the still of the empty board and what to do: click the board's four
  corners in the order named (top left, top right, bottom right, bottom left of the
  board as the box draws it); ``calibrate.js`` marks each click on the picture, in the
  still's pixels, and fills the form; "Undo" takes the last one back;
* ``GET /still.png``: the still (the picture leaves the box only to the browser the
  player opened this page in, and only while the command runs; nothing is stored by
  the page);
* ``POST /``: the four corners (a form field ``corners``, ``X,Y X,Y X,Y X,Y``, at most
  :data:`MAX_BODY` bytes): handed to ``save`` (the command's: it checks them, makes the
  calibration and saves it in the state folder) in a worker thread; saved: the page
  says where and the command ends (``done``); refused (a
  :class:`~companion.errors.CompanionError`: corners that cross, go round the wrong
  way, a board too small ...): the page says why and the player marks again;
* ``/static/page.css``, ``/static/calibrate.css``, ``/static/calibrate.js``.

Any other method is answered 405, any other path 404. Every response carries the
spectator page's security headers, with ``form-action 'self'`` (the one form posts here).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import resources
from typing import TYPE_CHECKING, Final
from urllib.parse import parse_qs

import anyio.to_thread
from starlette.applications import Starlette
from starlette.background import BackgroundTask
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route

from companion import i18n
from companion.errors import CompanionError
from companion.i18n import N_

from . import pages
from .app import VARY, reader_language

if TYPE_CHECKING:
    import uvicorn

MAX_BODY: Final = 1024
"""The largest form accepted, bytes (four corners need under 60)."""
HEADERS: Final = {
    "content-security-policy": "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
    "form-action 'self'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
}
_STATIC: Final = {"page.css": "text/css; charset=utf-8", "calibrate.css": "text/css; charset=utf-8",
                  "calibrate.js": "text/javascript; charset=utf-8"}

Corners = list[tuple[float, float]]
"""The four corners, pixels of the still (x across, y down), in the order asked."""


def parse_corners(text: str) -> Corners:
    """``X,Y X,Y X,Y X,Y`` as four (x, y) pairs.

    :raises ValueError: not four pairs of finite numbers.
    """
    pairs = text.split()
    if len(pairs) != 4:
        raise ValueError(f"four corners are wanted, not {len(pairs)}")
    out: Corners = []
    for pair in pairs:
        x, _comma, y = pair.partition(",")
        point = (float(x), float(y))
        if not all(abs(v) < 1e6 for v in point):  # also refuses nan and inf
            raise ValueError(f"not a corner: {pair}")
        out.append(point)
    return out


CORNERS: Final = (N_("top left"), N_("top right"), N_("bottom right"), N_("bottom left"))
"""The corners, in the order they are marked (as ``--corners`` takes them)."""


def create_marking_app(still_png: bytes, size: tuple[int, int], title: str, first: tuple[str, int],
                       save: Callable[[Corners], str], done: Callable[[], None], *,
                       language: str = i18n.SOURCE_LANGUAGE) -> Starlette:
    """The marking page's application.

    ``still_png``: the still of the empty board (a PNG of ``size`` = (width, height)
    pixels); ``title``: the game's name; ``first``: the board's first square and the
    corner it is at (an index of :data:`CORNERS`), the player's landmark; ``save``: called with the four
    corners in a worker thread, returns what was saved (its path, in words), raises
    :class:`~companion.errors.CompanionError` to refuse them; ``done``: called after the
    page saying it was saved has been sent (the command stops its server);
    ``language``: the box's ``display.language``, for a browser that asks for none the
    box has.
    """
    static = {name: (resources.files("companion.web") / "static" / name).read_bytes()
              for name in _STATIC}
    i18n.load(language)

    def page(request: Request, *, problem: str = "", saved: str = "", corners: str = "") -> str:
        with i18n.using(reader_language(request, language)):
            names = [i18n._(name) for name in CORNERS]
            hint = i18n._("Square {square} is at the {corner} of the board as the box draws it.").format(
                square=first[0], corner=names[first[1]])
            return pages.render((), "calibrate.html", title=title, hint=hint, names=names, width=size[0],
                                height=size[1], problem=problem, saved=saved, corners=corners)

    async def show(request: Request) -> Response:
        return HTMLResponse(page(request), headers={**HEADERS, **VARY})

    async def post(request: Request) -> Response:
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                return PlainTextResponse("413 the form is too large\n", status_code=413, headers=HEADERS)
        text = parse_qs(body.decode("utf-8", "replace")).get("corners", [""])[0]
        try:
            corners = parse_corners(text)
        except ValueError as exc:
            with i18n.using(reader_language(request, language)):
                problem = i18n._("Mark the four corners first ({problem}).").format(problem=exc)
            return HTMLResponse(page(request, problem=problem), status_code=400, headers={**HEADERS, **VARY})
        try:
            saved = await anyio.to_thread.run_sync(save, corners)
        except CompanionError as exc:
            return HTMLResponse(page(request, problem=str(exc), corners=text), status_code=422,
                                headers={**HEADERS, **VARY})
        return HTMLResponse(page(request, saved=saved), headers={**HEADERS, **VARY},
                            background=BackgroundTask(done))

    async def still(request: Request) -> Response:
        return Response(still_png, media_type="image/png", headers=HEADERS)

    async def static_file(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in static:
            return PlainTextResponse("404 Not Found\n", status_code=404, headers=HEADERS)
        return Response(static[name], media_type=_STATIC[name],
                        headers={**HEADERS, "cache-control": "no-cache"})

    async def refused(request: Request, exc: Exception) -> Response:
        code = getattr(exc, "status_code", 404)
        headers = dict(HEADERS)
        if code == 405:
            headers["allow"] = "GET, HEAD, POST" if request.url.path == "/" else "GET, HEAD"
        return PlainTextResponse(f"{code}\n", status_code=code, headers=headers)

    routes = [Route("/", show, methods=["GET", "HEAD"]), Route("/", post, methods=["POST"]),
              Route("/still.png", still, methods=["GET", "HEAD"]),
              Route("/static/{name}", static_file, methods=["GET", "HEAD"])]
    return Starlette(routes=routes, exception_handlers={HTTPException: refused})


def marking_server(app: Starlette, bind: str, port: int) -> uvicorn.Server:
    """A uvicorn server for ``app`` on ``bind``:``port``: its ``run()`` serves until
    ``should_exit`` is set (the ``done`` of :func:`create_marking_app`) or Ctrl-C.

    :raises OSError: (from ``run()``) the port cannot be listened on.
    """
    import uvicorn

    return uvicorn.Server(uvicorn.Config(app, host=bind, port=port, log_level="warning",
                                         access_log=False, lifespan="off"))


__all__: Sequence[str] = ["Corners", "create_marking_app", "marking_server", "parse_corners"]
