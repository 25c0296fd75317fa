"""What the spectator page shows, as HTML text: pure functions of the journal directory.

The pages are the templates of ``companion/web/templates/`` (:mod:`companion.web.pages`:
Jinja2, autoescaped, worded from the catalogues); the functions here gather what they
show and render them in the language in use (wrap a call in
:func:`companion.i18n.using` for a reader's language).

Nothing here writes: a journal is read with :func:`companion.journal.record.read` (the
words of ``companion journal show``) and :func:`companion.journal.store.load` with
``repair=False`` (the position the engine holds), and drawn with
:func:`companion.ui.games.boards.board_svg`. A file that cannot be read, or reads as
damaged, gives a page that says so in words; nothing here raises for a bad journal.

Files are found by NAME only: :func:`find` looks a name up in the directory's listing
(regular files whose names match :data:`NAME`; symbolic links are never listed, so a
link pointing out of the directory cannot be reached); no name from a URL is ever
joined to a path.
"""

from __future__ import annotations

import dataclasses
import itertools
import logging
import os
import re
import stat
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from markupsafe import Markup

from companion.i18n import _
from companion.journal import record as rec
from companion.journal.store import SUFFIX, JournalError, Loaded, load, replay
from companion.rules import Move, State, Throw
from companion.ui.events import player_word, won_by
from companion.ui.games.boards import board_model, board_svg
from companion.ui.rules_words import say

from . import pages
from .reviews import FALLBACK_COLOURS, REVIEW_MAX_ACTIONS

if TYPE_CHECKING:
    from companion.ai.review import Review

    from .reviews import Reviewed

log = logging.getLogger(__name__)

NAME: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*\.journal")
"""A journal file name the page serves: letters, digits, ``_``, ``-`` and single dots,
ending in ``.journal``; at most :data:`NAME_MAX` characters. (``..``, ``/``, ``\\``,
``%`` and NUL can never match.)"""
NAME_MAX: Final = 200


def valid_name(name: str) -> bool:
    """Whether ``name`` may be a journal's file name (see :data:`NAME`)."""
    return len(name) <= NAME_MAX and NAME.fullmatch(name) is not None


def listing(directory: Path) -> list[str]:
    """The journal names in ``directory``, newest first (names begin with the start time):
    regular files only (``lstat``: a symbolic link is not followed, not listed), names
    matching :data:`NAME`. ``[]`` when the directory cannot be read."""
    names: list[str] = []
    try:
        with os.scandir(directory) as it:
            for entry in it:
                if not entry.name.endswith(SUFFIX) or not valid_name(entry.name):
                    continue
                try:
                    if stat.S_ISREG(entry.stat(follow_symlinks=False).st_mode):
                        names.append(entry.name)
                except OSError:
                    continue
    except OSError:
        return []
    return sorted(names, reverse=True)


def find(directory: Path, name: str) -> Path | None:
    """The journal called ``name`` in ``directory``, or ``None`` when ``name`` is not a
    valid journal name or not in :func:`listing` (the only way a URL reaches a file)."""
    if not valid_name(name):
        return None
    for listed in listing(directory):
        if listed == name:
            return directory / listed
    return None


def signature(directory: Path) -> tuple[object, ...]:
    """What changes when a game is written: the listing and the newest journal's size
    and modification time (ns). Polled by the page's event stream."""
    names = listing(directory)
    if not names:
        return ()
    try:
        st = (directory / names[0]).stat(follow_symlinks=False)
        newest: tuple[int, int] = (st.st_size, st.st_mtime_ns)
    except OSError:
        newest = (-1, -1)
    return (tuple(names), newest)


# ---------------------------------------------------------------- one game


@dataclass(frozen=True)
class GameView:
    """One journal read for the page: ``record`` (``None`` when the file is no usable
    journal: ``problem`` says why), the ``svg`` of the board after the last action in
    force (``""`` when there is none), the last ``throw`` in force, and ``pending``: a
    last line still being written (not shown, as the journal loader does)."""

    name: str
    record: rec.Record | None
    problem: str = ""
    svg: str = ""
    throw: Throw | None = None
    pending: bool = False


_CUT: Final = "the line was cut short"


def read_game(path: Path) -> GameView:
    """``path`` read for the page, never raising: a file that is no journal, cannot be
    read or fails in any other way gives a :class:`GameView` with a ``problem``."""
    name = path.name
    try:
        record = rec.read(path)
    except JournalError as exc:
        return GameView(name, None, str(exc).removeprefix(f"{path}: "))
    except OSError as exc:
        return GameView(name, None, f"cannot read: {exc.strerror or exc}")
    except Exception as exc:  # never a traceback on the page
        log.warning("web: %s cannot be read", path, exc_info=True)
        return GameView(name, None, f"cannot be read ({type(exc).__name__})")
    pending = False
    d = record.damage
    if d is not None and d.unread == 1 and d.reason.startswith(_CUT):
        # The last line is being written (or a power cut stopped it): the loader too
        # reads up to it; it is not damage to show while the game goes on.
        record = dataclasses.replace(record, damage=None)
        pending = True
    svg, throw = "", None
    try:
        loaded = load(path, repair=False)
        svg, throw = _board(loaded)
    except Exception as exc:  # drawn from a position the loader accepted; never a 500
        log.warning("web: no board for %s (%s)", path, type(exc).__name__, exc_info=True)
    return GameView(name, record, svg=svg, throw=throw, pending=pending)


def _board(loaded: Loaded) -> tuple[str, Throw | None]:
    """The board SVG after the actions in force, the last move that moved a piece
    highlighted (where it came from and where it landed; a ``pass`` moves nothing, so
    the move before it is shown, looking back at most :data:`LOOK_BACK` moves), and the
    last throw in force."""
    actions = loaded.actions
    throw = next((a for a in reversed(actions) if isinstance(a, Throw)), None)
    board = board_model(loaded.state)
    moves = [i for i in range(len(actions) - 1, -1, -1) if isinstance(actions[i], Move)]
    for i in moves[:LOOK_BACK]:
        move = actions[i]
        assert isinstance(move, Move)
        try:
            before: State = replay(loaded.game, loaded.players, actions[:i])
            highlight = board_model(before, highlight=move).highlight
        except Exception:  # a move the picture cannot preview: look further back
            log.debug("web: no highlight for %s", move, exc_info=True)
            continue
        if highlight is not None and (highlight.src is not None or highlight.path):
            board = dataclasses.replace(board, highlight=highlight)
            break
    return board_svg(board), throw


LOOK_BACK: Final = 6
"""Moves looked back through for one that moved a piece, to highlight."""


# ---------------------------------------------------------------- HTML

_PACKAGES: Final = ("companion.web",)
"""Where the spectator page's templates are (:mod:`companion.web.pages`)."""


def _render(template: str, **context: Any) -> str:
    return pages.render(_PACKAGES, template, **context)


def throw_context(throw: Throw | None) -> dict[str, Any] | None:
    """The throw as the table shows it, for ``section.html``: each face's ``kind``
    (``card``, ``light`` / ``dark`` casting sticks, ``die`` with its pips drawn,
    ``coloured`` sticks in their colour, else ``face``), and the throw in ``words``."""
    if throw is None:
        return None
    faces: list[dict[str, Any]] = []
    for face in throw.faces:
        if throw.implement.startswith("deck:"):
            faces.append({"kind": "card", "text": face})
        elif face in ("L", "D"):
            faces.append({"kind": "light" if face == "L" else "dark"})
        elif face.isdigit() and 1 <= int(face) <= 6:
            faces.append({"kind": "die", "svg": _die(int(face))})
        elif ":" in face:
            value, colour = face.split(":", 1)
            faces.append({"kind": "coloured", "text": value, "colour": colour,
                          "colour_words": say(colour)})
        else:
            faces.append({"kind": "face", "text": face})
    return {"code": str(throw), "faces": faces, "words": rec.action_text(throw)}


_PIPS: Final = {
    1: [(2, 2)], 2: [(1, 1), (3, 3)], 3: [(1, 1), (2, 2), (3, 3)],
    4: [(1, 1), (1, 3), (3, 1), (3, 3)], 5: [(1, 1), (1, 3), (2, 2), (3, 1), (3, 3)],
    6: [(1, 1), (1, 2), (1, 3), (3, 1), (3, 2), (3, 3)],
}


def _die(n: int) -> Markup:
    """A die showing ``n`` (1-6) as SVG; its label in words (escaped here)."""
    pips = "".join(f'<circle cx="{x * 8}" cy="{y * 8}" r="3"/>' for y, x in _PIPS[n])
    label = escape(_("die showing {number}").format(number=n))
    return Markup(f'<svg class="die" viewBox="0 0 32 32" width="32" height="32" role="img" '
                  f'aria-label="{label}"><rect x="1" y="1" width="30" height="30" rx="5" '
                  f'fill="#ffffff" stroke="#000000" stroke-width="1.5"/>{pips}</svg>')


def _status(record: rec.Record) -> str:
    """Whose turn it is, or how the game ended, in words."""
    if record.damage is not None:
        return _("damaged at line {line}: {reason}").format(
            line=record.damage.line, reason=record.damage.reason)
    if record.state is rec.Standing.WON:
        won = won_by(record.winners)
        return _("{state} ({reason})").format(state=won, reason=record.reason) \
            if record.reason else won
    if record.state is rec.Standing.UNFINISHED:
        to_act = rec.to_act_text(record)
        return _("in progress: {to_act}").format(to_act=to_act) if to_act else _("in progress")
    return _("ended without a winner")


def game_context(view: GameView, *, live: bool) -> dict[str, Any]:
    """One game for ``section.html``: title, players, whose turn, the board, the throw,
    the event log in words (newest first when ``live``), the damage if any; for a file
    that is no journal, its ``problem``."""
    r = view.record
    if r is None:
        return {"record": None, "name": view.name, "problem": view.problem}
    return {
        "record": r, "name": view.name, "game": r.game, "actions": r.actions,
        "title": say(r.title), "players": rec.players_text(r), "started": rec.when_text(r),
        "status": _status(r), "damage": r.damage, "pending": view.pending,
        "svg": Markup(view.svg), "throw": throw_context(view.throw),
        "log": log_context(r, newest_first=live),
    }


def game_html(view: GameView, *, live: bool) -> str:
    """The game's section (``section.html``; see :func:`game_context`)."""
    return _render("section.html", g=game_context(view, live=live))


def log_context(record: rec.Record, *, newest_first: bool) -> list[dict[str, Any]]:
    """The event log in the words of ``companion journal show``: each turn, its throws
    and moves with their events, taken-back actions marked; then what was read after
    the damage."""
    turns: list[dict[str, Any]] = []
    for turn in record.turns:
        steps = []
        for step in turn.steps:
            undo = step.kind == "undo"
            what = _("undo") if undo else step.text
            if step.taken_back:
                what = _("{action} (taken back)").format(action=what)
            steps.append({"css": "step taken-back" if step.taken_back else f"step {step.kind}",
                          "what": what, "said": [step.text] if undo else list(step.events)})
        turns.append({"after_damage": False, "heading": rec.turn_text(turn), "steps": steps})
    if record.after_damage:
        turns.append({"after_damage": True, "steps": [
            {"line": s.line, "by": player_word(s.by) if s.by else "", "text": s.text}
            for s in record.after_damage]})
    if newest_first:
        turns.reverse()
    return turns


def live_html(directory: Path) -> str:
    """The live part of the front page: the newest game, or a line saying there is none."""
    names = listing(directory)
    game = game_context(read_game(directory / names[0]), live=True) if names else None
    return _render("live.html", g=game)


def games_rows(directory: Path) -> list[dict[str, Any]]:
    """The saved games for ``games.html``: start, file, game, players and state."""
    rows: list[dict[str, Any]] = []
    for name in listing(directory):
        view = read_game(directory / name)
        r = view.record
        if r is None:
            rows.append({"name": name, "record": None, "problem": view.problem})
        else:
            rows.append({"name": name, "record": r, "started": rec.when_text(r),
                         "title": say(r.title), "players": rec.players_text(r),
                         "status": r.status})
    return rows


def front_page(live_part: str) -> str:
    """``/``: the live part (:func:`live_html`, replaced by ``page.js``) in the shell."""
    return _render("front.html", title=_("the game in progress"), live=True,
                   live_part=Markup(live_part))


def games_page(directory: Path) -> str:
    """``/games``: the saved games, newest first, each a link to its page (in a box of
    its own that scrolls sideways when a narrow screen cannot hold it)."""
    return _render("games.html", title=_("saved games"), live=False,
                   rows=games_rows(directory))


def game_page(view: GameView, review: str = "", *, pending: bool = False) -> str:
    """``/game/NAME``: the game's section, its ``review`` (:func:`review_html`) and a
    link to the record as text; ``pending``: the review is being worked out (the page
    loads ``static/review.js``, which puts it in place when it is ready)."""
    return _render("game.html", title=view.name, live=False, name=view.name,
                   section=Markup(game_html(view, live=False)), review=Markup(review),
                   usable=view.record is not None, pending=pending)


def error_page(code: int) -> str:
    """The page of an HTTP error ``code`` (404: no such page or game)."""
    return _render("error.html", title=_("not found"), live=False, code=code)


def record_text(view: GameView) -> str:
    """The record exactly as ``companion journal show`` prints it (``""`` for no journal)."""
    return rec.text(view.record) if view.record is not None else ""


# ------------------------------------------------- the review (docs/ai.md, issue 24)


def reviewable(view: GameView) -> bool:
    """Whether the page of ``view`` shows a review: a game won (not abandoned, not
    damaged) of at most :data:`~companion.web.reviews.REVIEW_MAX_ACTIONS` actions."""
    r = view.record
    return (r is not None and r.state is rec.Standing.WON and r.damage is None
            and r.actions <= REVIEW_MAX_ACTIONS)


def review_html(reviewed: Reviewed | None, name: str) -> str:
    """The review section of the finished game ``name``'s page, in the language in use:
    every player's win chance turn by turn as an SVG graph (each line in the player's
    colour on the board, the worst mistakes circled), each player's total error, error
    per move and luck, and the worst mistakes and biggest swings in words, each placed
    by its turn as the event log numbers them (:mod:`companion.ai.review`).

    ``reviewed``: the review (:class:`companion.web.reviews.Reviews`); ``None`` while it
    is being worked out: a short note that it is coming, which ``static/review.js``
    replaces with ``/game/NAME/review`` once that answers 200. A review that failed is
    one plain sentence; a game not reviewed gives ``""``."""
    if reviewed is None:
        return _render("review.html", state="pending", name=name)
    if reviewed.failed:
        return _render("review.html", state="failed", name=name)
    if reviewed.review is None:
        return ""
    return _review_section(reviewed.review, reviewed.turns, reviewed.colours)


def _review_section(result: Review, turns: tuple[int, ...], colours: tuple[str, ...]) -> str:
    """The review section; ``turns``: :func:`~companion.web.reviews.turn_numbers` of the game (the review's
    action numbers are said as turns), ``colours``:
    :func:`~companion.web.reviews.player_colours`."""
    def turn(number: int) -> int:
        return turns[number - 1]

    from companion.ai.review import move_text
    from companion.i18n import _
    from companion.ui.review_words import MISTAKE, points, signed_points

    worst = result.worst()
    players = [{"name": p.name, "moves": p.moves, "error": points(p.error_per_move),
                "rating": _(p.rating), "mistakes": p.mistakes,
                "luck": signed_points(p.luck_per_throw)} for p in result.players]
    mistakes = [{"turn": turn(m.number), "player": result.names[m.player],
                 "move": move_text(m.move), "best": move_text(m.best_move),
                 "points": points(m.error)} for m in result.worst(10)]
    swings = list(result.swings(where=lambda n: _("turn {number}").format(number=turn(n))))
    marks = [(m.number, m.player, _("turn {number}: {player} played {move}, -{points} points").format(
        number=turn(m.number), player=result.names[m.player], move=move_text(m.move),
        points=points(m.error))) for m in worst]
    graph = Markup(chance_svg(result.chances, result.names, colours, turns, marks))
    return _render("review.html", state="done", graph=graph, players=players, swings=swings,
                   mistakes=mistakes, depth=result.depth, mistake=points(MISTAKE))


# The win-chance graph, in SVG user units. The drawing has a viewBox and a width of
# 100% (the page's CSS bounds it): it is as wide as a phone's page, and its 12-unit
# text is about 12 px there; at most 36rem wide on a larger screen.
GRAPH_WIDTH: Final = 360
"""The graph's width; the plot is this less :data:`GRAPH_LEFT` and :data:`GRAPH_RIGHT`."""
GRAPH_LEFT: Final = 42
"""Room for the vertical axis's labels (``100%``)."""
GRAPH_RIGHT: Final = 10
GRAPH_TOP: Final = 8
PLOT_HEIGHT: Final = 140
"""The plot's height: 0 % at the bottom, 100 % at the top."""
X_TICKS: Final = 6
"""At most this many turns are labelled along the horizontal axis."""
_FONT: Final = 12
_CHAR: Final = 7.0
"""A wide average character of the 12-unit sans-serif: the legend and the turns along the
axis are spaced with it."""
_INK: Final = "#444444"


def _tick_turns(turns: tuple[int, ...]) -> list[int]:
    """The turns labelled on the horizontal axis: the first, then every 1, 2, 5, 10,
    20 ... turns, at most :data:`X_TICKS` of them; only turns with an action in force."""
    if not turns:
        return []
    last = turns[-1]
    step, grow = 1, itertools.cycle((2, 2.5, 2))  # 1, 2, 5, 10, 20, 50 ...
    while last / step > X_TICKS:
        step = round(step * next(grow))
    present = set(turns)
    return [t for t in dict.fromkeys([turns[0], *range(step, last + 1, step)]) if t in present]


def chance_svg(chances: tuple[tuple[float, ...], ...], names: tuple[str, ...],
               colours: tuple[str, ...], turns: tuple[int, ...],
               marks: list[tuple[int, int, str]]) -> str:
    """The win-chance graph: a line per player (``chances[i][p]``: seat ``p``'s chance,
    0..1, after ``i`` actions; ``chances[0]`` at the start) in ``colours[p]`` with a
    dark edge (a white line shows on the white plot), a vertical axis 0-100 %, a
    horizontal axis in turns (``turns[k - 1]``: the turn of action ``k``; a turn's
    label stands where the turn begins), a legend naming each player, and ``marks``
    (action number, seat, words) circled on that seat's line, the words as its
    tooltip. Each line is a ``polyline`` of class ``line`` with ``data-player``."""
    n = max(1, len(chances) - 1)
    plot_w = GRAPH_WIDTH - GRAPH_LEFT - GRAPH_RIGHT
    bottom = GRAPH_TOP + PLOT_HEIGHT

    def x(i: int) -> float:
        return GRAPH_LEFT + plot_w * i / n

    def y(v: float) -> float:
        return GRAPH_TOP + PLOT_HEIGHT * (1 - min(1.0, max(0.0, v)))

    def colour(p: int) -> str:
        return escape(colours[p] if p < len(colours) else FALLBACK_COLOURS[p % len(FALLBACK_COLOURS)])

    parts = [f'<rect class="plot" x="{GRAPH_LEFT}" y="{GRAPH_TOP}" width="{plot_w}" '
             f'height="{PLOT_HEIGHT}" fill="#ffffff"/>', '<g class="axis y">']
    for pct in (0, 25, 50, 75, 100):
        at = y(pct / 100)
        parts.append(f'<line x1="{GRAPH_LEFT}" y1="{at:g}" x2="{GRAPH_WIDTH - GRAPH_RIGHT}" '
                     f'y2="{at:g}" stroke="#dddddd"/><text class="tick" x="{GRAPH_LEFT - 4}" '
                     f'y="{at + 4:g}" text-anchor="end" fill="{_INK}">{pct}%</text>')
    parts.append(f'<line x1="{GRAPH_LEFT}" y1="{GRAPH_TOP}" x2="{GRAPH_LEFT}" y2="{bottom}" '
                 f'stroke="{_INK}"/></g><g class="axis x">'
                 f'<line x1="{GRAPH_LEFT}" y1="{bottom}" x2="{GRAPH_WIDTH - GRAPH_RIGHT}" '
                 f'y2="{bottom}" stroke="{_INK}"/>')
    begins: dict[int, int] = {}
    for k, t in enumerate(turns):  # action k + 1 is drawn at point k + 1: its turn begins at k
        begins.setdefault(t, k)
    shown = -100.0
    for t in _tick_turns(turns):
        at = x(begins[t])
        if at - shown < 4 * _CHAR:  # too close to the label before
            continue
        shown = at
        anchor = "start" if at - GRAPH_LEFT < 2 * _CHAR else (
            "end" if GRAPH_WIDTH - at < 3 * _CHAR else "middle")
        parts.append(f'<line x1="{at:.1f}" y1="{bottom}" x2="{at:.1f}" y2="{bottom + 4}" '
                     f'stroke="{_INK}"/><text class="tick" x="{at:.1f}" y="{bottom + 16}" '
                     f'text-anchor="{anchor}" fill="{_INK}">{t}</text>')
    parts.append(f'<text class="title" x="{GRAPH_LEFT + plot_w / 2:g}" y="{bottom + 31}" '
                 f'text-anchor="middle" fill="{_INK}">turn</text></g>')
    for p, name in enumerate(names):
        points = " ".join(f"{x(i):.1f},{y(v[p]):.1f}" for i, v in enumerate(chances))
        parts.append(f'<g class="player" data-player="{p}"><title>{escape(name)}</title>'
                     f'<polyline class="edge" fill="none" stroke="{_INK}" stroke-width="3.5" '
                     f'stroke-linejoin="round" points="{points}"/>'
                     f'<polyline class="line" data-player="{p}" fill="none" stroke="{colour(p)}" '
                     f'stroke-width="2" stroke-linejoin="round" points="{points}"/></g>')
    for number, p, words in marks:
        if 0 < number < len(chances):
            parts.append(f'<circle class="mistake" cx="{x(number):.1f}" cy="{y(chances[number][p]):.1f}" '
                         f'r="5" fill="none" stroke="#e07000" stroke-width="2">'
                         f"<title>{escape(words)}</title></circle>")
    # The legend: a piece of each line and the player's name, wrapped to the width.
    parts.append('<g class="legend">')
    left: float = GRAPH_LEFT
    row = bottom + 50
    for p, name in enumerate(names):
        wide = 30 + _CHAR * len(name)
        if left > GRAPH_LEFT and left + wide > GRAPH_WIDTH - GRAPH_RIGHT:
            left, row = GRAPH_LEFT, row + 18
        parts.append(f'<g class="key" data-player="{p}">'
                     f'<line x1="{left:g}" y1="{row - 4}" x2="{left + 22:g}" y2="{row - 4}" '
                     f'stroke="{_INK}" stroke-width="5.5"/>'
                     f'<line class="swatch" x1="{left + 1:g}" y1="{row - 4}" x2="{left + 21:g}" '
                     f'y2="{row - 4}" stroke="{colour(p)}" stroke-width="3.5"/>'
                     f'<text x="{left + 28:g}" y="{row}" fill="#222222">{escape(name)}</text></g>')
        left += wide + 14
    parts.append("</g>")
    height = row + 8
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="chances" '
            f'viewBox="0 0 {GRAPH_WIDTH} {height}" width="100%" font-family="sans-serif" '
            f'font-size="{_FONT}" role="img" aria-label="each player\'s win chance, turn by turn">'
            f'{"".join(parts)}</svg>')
