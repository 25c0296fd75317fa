"""What the club page shows, as HTML text: pure functions of what the club holds.

The page is ``companion/club/templates/`` on the spectator page's shell
(``base.html``, :mod:`companion.web.pages`): Jinja2 with autoescaping, so every text
that came over the network (table names, seat names, the game's id and options) is
escaped where it is put in the page; the words are the catalogue's, in the language
in use (render inside :func:`companion.i18n.using` for a reader's language). The last
event is worded here from the club's own replay, never the words a box sent. The
boards are drawn by the spectator page's renderer
(:func:`companion.ui.games.boards.board_svg`) from the position the club replayed
itself, never from anything the box drew.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from markupsafe import Markup

from companion.club.replay import Replayed
from companion.club.store import Rating, person_name, rating_name
from companion.i18n import N_, _
from companion.journal.names import shown_name
from companion.rules import UnknownGameError
from companion.rules.registry import game_title
from companion.ui.events import computer_word, player_word, won_by, words_for
from companion.ui.games.boards import board_model, board_svg
from companion.ui.rules_words import say
from companion.web import pages

_PACKAGES: Final = ("companion.club", "companion.web")
"""The club's templates, then the spectator page's (the shell)."""

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
    """The game's title in the language in use (its id when it is no game of this
    version)."""
    try:
        return say(game_title(game_id))
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


def seat_word(seat: Mapping[str, Any]) -> str:
    """One seat in words, in the language in use: ``Black``, ``White (computer,
    strong)``, ``Anna (Black)`` for a seat a person of the roster took. Every name from the network goes through
    :func:`~companion.journal.names.shown_name` (plain text, bounded, no bidirectional
    controls) before it is worded (and escaped by the template)."""
    name = shown_name(seat.get("name", "?"))
    if seat.get("kind") == "computer":
        return computer_word(name, shown_name(seat.get("level") or "?"))
    person = person_name(seat)
    if person:
        return _("{person} ({player})").format(person=person, player=player_word(name))
    return player_word(name)


def seats_text(seats: Sequence[Mapping[str, Any]]) -> str:
    """The seats in words, in the language in use: ``Black, White (computer, strong)``
    (each :func:`seat_word`)."""
    return ", ".join(seat_word(s) for s in seats)


_STATUS: Final = {"playing": N_("playing"), "finished": N_("finished"),
                  "abandoned": N_("abandoned")}


def last_words(replayed: Replayed) -> str:
    """The last event of the replayed game in words (:attr:`Replayed.last`, the rules'
    own events of the club's replay, worded by :func:`companion.ui.events.words_for` in
    the language in use), never the words a box sent; ``""`` when no action had one."""
    try:
        return words_for(replayed.state)(replayed.last[-1]) if replayed.last else ""
    except Exception:  # never a 500 for the words of a position the club accepted
        log.warning("club: no words for the last event of %s", replayed.game.id, exc_info=True)
        return ""


def table_context(live: LiveTable, svg: str) -> dict[str, Any]:
    """One table for ``club_live.html``: name, game, seats, whose turn, the last event
    (:func:`last_words`) and the board (``svg``, :func:`board`)."""
    p = live.payload
    if p is None:
        return {"table": live.table, "payload": None}
    status = str(p["status"]) if str(p["status"]) in _STATUS else "unknown"
    turn = p.get("turn")
    replayed = live.replayed
    if status == "playing" and turn:
        at = next((seat for seat in p["seats"] if seat.get("name") == turn
                   and person_name(seat)), None)  # "Anna (Black) to play"
        who = _("{player} to play").format(
            player=seat_word(at) if at is not None else player_word(shown_name(turn)))
    elif replayed is not None and replayed.state.outcome is not None:
        who = won_by([replayed.game.player_name(i, replayed.players)
                      for i in replayed.state.outcome.winners])
    else:
        who = _(_STATUS.get(status, "?"))
    return {"table": live.table, "payload": p, "status": status, "game": str(p["game"]),
            "title": title(str(p["game"])), "moves": len(p["actions"]),
            "seats": seats_text(p["seats"]), "updated": str(p["updated"]), "who": who,
            "last": last_words(replayed) if replayed is not None else "",
            "svg": Markup(svg)}


def result_context(r: Mapping[str, Any]) -> dict[str, Any]:
    """One stored result for ``club_live.html``: when it ended, table, game, seats, the
    winner (the computer by its rating name; ``shared`` for none) and the actions."""
    winner = r.get("winner")
    won_by_name = _("shared") if winner is None else next(
        (rating_name(s) if s.get("kind") == "computer" else seat_word(s)
         for s in r["seats"] if s.get("name") == winner), player_word(shown_name(winner)))
    return {"id": str(r["id"]), "ended": str(r["ended"]), "table": str(r["table"]),
            "title": title(str(r["game"])), "seats": seats_text(r["seats"]),
            "winner": won_by_name, "moves": int(r["moves"])}


def live_html(tables: Sequence[tuple[LiveTable, str]], results: Sequence[Mapping[str, Any]],
              total: int, ratings: Mapping[str, Sequence[Rating]]) -> str:
    """The live part of the page in the language in use: every table (each with its
    board SVG), the results (the latest ended first; ``total``: how many are stored) and
    one ratings table per game: each player's mu and sigma (the uncertainty) and the
    conservative ordinal mu - 3 sigma the table is sorted by."""
    return pages.render(
        _PACKAGES, "club_live.html",
        tables=[table_context(live, svg) for live, svg in tables],
        results=[result_context(r) for r in results], total=total,
        ratings=[{"id": game, "title": title(game), "rows": rows}
                 for game, rows in ratings.items()])


def page(live_part: str = "", *, code: int | None = None) -> str:
    """The whole page (its CSS and JS served by the process itself: no CDN) around the
    ``live_part`` (:func:`live_html`), or the page of an HTTP error ``code``."""
    return pages.render(_PACKAGES, "club.html", live_part=Markup(live_part), code=code)


__all__ = ["RESULTS_SHOWN", "LiveTable", "board", "last_words", "live_html", "page",
           "result_context", "seat_word", "seats_text", "table_context", "title"]
