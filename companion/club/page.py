"""What the club page shows, as HTML text: pure functions of what the club holds.

Every text that came over the network (table names, seat names, the last event, the
game's id and options) is escaped with :func:`html.escape` before it is put in the
page; the boards are drawn by the spectator page's renderer
(:func:`companion.ui.games.boards.board_svg`) from the position the club replayed
itself, never from anything the box drew.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any, Final

from companion.club.replay import Replayed
from companion.club.store import Rating, rating_name
from companion.rules import UnknownGameError
from companion.rules.registry import game_title
from companion.ui.games.boards import board_model, board_svg

log = logging.getLogger(__name__)

RESULTS_SHOWN: Final = 50
"""The most results listed on the page (the latest ended first)."""


@dataclass(frozen=True)
class LiveTable:
    """One table as the club holds it: its latest checked state ``payload`` and the
    game ``replayed`` from it (both ``None``: the table has no game now)."""

    table: str
    payload: Mapping[str, Any] | None
    replayed: Replayed | None


def title(game_id: str) -> str:
    """The game's title (its id when it is no game of this version)."""
    try:
        return game_title(game_id)
    except UnknownGameError:
        return game_id


def board(replayed: Replayed) -> str:
    """The board SVG of a replayed position, the last move highlighted where the
    picture can show it (``""`` when it cannot be drawn)."""
    try:
        model = board_model(replayed.state)
        return board_svg(model)
    except Exception:  # never a 500 for a position the rules accepted
        log.warning("club: no board for %s", replayed.game.id, exc_info=True)
        return ""


def seats_text(seats: Sequence[Mapping[str, Any]]) -> str:
    """The seats in words: ``Black, White (computer, strong)``."""
    return ", ".join(
        f"{s['name']} (computer, {s.get('level') or '?'})" if s.get("kind") == "computer"
        else str(s["name"]) for s in seats)


_STATUS: Final = {"playing": "playing", "finished": "finished", "abandoned": "abandoned"}


def table_html(live: LiveTable, svg: str) -> str:
    """One table's section: name, game, seats, whose turn, the last event and the board."""
    name = escape(live.table)
    p = live.payload
    if p is None:
        return (f'<section class="club-table empty" data-table="{name}"><h2>Table {name}</h2>'
                '<p class="status">No game on this table.</p></section>')
    status = _STATUS.get(str(p["status"]), "?")
    turn = p.get("turn")
    if status == "playing" and turn:
        who = f"{escape(str(turn))} to play"
    elif live.replayed is not None and live.replayed.state.outcome is not None:
        state = live.replayed
        assert state.state.outcome is not None
        won = " and ".join(state.game.player_name(i, state.players)
                           for i in state.state.outcome.winners)
        who = f"won by {escape(won)}"
    else:
        who = escape(status)
    moves = len(p["actions"])
    out = [f'<section class="club-table {status}" data-table="{name}" '
           f'data-game="{escape(str(p["game"]))}" data-actions="{moves}">',
           f"<h2>Table {name}: {escape(title(str(p['game'])))}</h2>",
           f'<p class="meta">{escape(seats_text(p["seats"]))} &middot; {moves} action(s) '
           f"&middot; updated {escape(str(p['updated']))}</p>",
           f'<p class="status">{who}</p>']
    if p.get("last"):
        out.append(f'<p class="last">Last: {escape(str(p["last"]))}</p>')
    out.append(f'<div class="board">{svg}</div>' if svg else
               '<div class="board"><p>No board picture.</p></div>')
    out.append("</section>")
    return "\n".join(out)


def tables_html(sections: Sequence[str]) -> str:
    """Every table's section, or a line saying there is none."""
    if not sections:
        return '<p class="empty">No table has published a game yet.</p>'
    return f'<div class="club-tables">{"".join(sections)}</div>'


def results_html(results: Sequence[Mapping[str, Any]], total: int) -> str:
    """The results table, the latest ended first (``total``: how many are stored)."""
    if not results:
        return '<h2>Results</h2><p class="empty">No finished game yet.</p>'
    rows = []
    for r in results:
        winner = r.get("winner")
        won_by = "shared" if winner is None else next(
            (rating_name(s) if s.get("kind") == "computer" else str(s["name"])
             for s in r["seats"] if s.get("name") == winner), str(winner))
        rows.append(
            f'<tr data-result="{escape(str(r["id"]))}"><td>{escape(str(r["ended"]))}</td>'
            f"<td>{escape(str(r['table']))}</td><td>{escape(title(str(r['game'])))}</td>"
            f"<td>{escape(seats_text(r['seats']))}</td><td>{escape(won_by)}</td>"
            f"<td>{int(r['moves'])}</td></tr>")
    more = (f'<p class="meta">The latest {len(results)} of {total} results.</p>'
            if total > len(results) else "")
    return ('<h2>Results</h2><table class="results"><thead><tr><th>ended</th><th>table</th>'
            "<th>game</th><th>players</th><th>winner</th><th>actions</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>{more}")


def ratings_html(ratings: Mapping[str, Sequence[Rating]]) -> str:
    """One ratings table per game: each player's mu and sigma (the uncertainty) and the
    conservative ordinal mu - 3 sigma the table is sorted by."""
    if not ratings:
        return '<h2>Ratings</h2><p class="empty">No rated game yet.</p>'
    parts = ["<h2>Ratings</h2>",
             '<p class="meta">openskill (Plackett-Luce): skill mu &plusmn; sigma (its '
             "uncertainty); sorted by mu &minus; 3 sigma, a skill the player is very likely "
             "above. New players start at 25 &plusmn; 8.33.</p>"]
    for game, rows in ratings.items():
        body = "".join(
            f'<tr><td>{escape(r.player)}</td><td>{r.mu:.2f}</td><td>&plusmn; {r.sigma:.2f}</td>'
            f"<td>{r.ordinal:.2f}</td><td>{r.games}</td><td>{r.wins}</td></tr>" for r in rows)
        parts.append(f'<h3>{escape(title(game))}</h3><table class="ratings" '
                     f'data-game="{escape(game)}"><thead><tr><th>player</th><th>mu</th>'
                     "<th>sigma</th><th>mu &minus; 3 sigma</th><th>games</th><th>wins</th>"
                     f"</tr></thead><tbody>{body}</tbody></table>")
    return "".join(parts)


def page(body: str) -> str:
    """The whole page (its CSS and JS served by the process itself: no CDN)."""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8"><title>Board companion: the club</title>'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<link rel="stylesheet" href="/static/page.css">'
        '<link rel="stylesheet" href="/static/club.css">'
        '<script src="/static/page.js" defer></script></head>\n'
        '<body><header><a href="/">Board companion: the club</a></header>\n'
        f"<main>{body}</main></body></html>\n"
    )


__all__ = ["RESULTS_SHOWN", "LiveTable", "board", "page", "ratings_html", "results_html",
           "seats_text", "table_html", "tables_html", "title"]
