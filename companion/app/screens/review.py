"""The review of a finished game on the box, as GNU Backgammon shows a match's analysis:
the game-over screen's "Review" shows :class:`Reviewing` while the worker reviews the
game (:func:`companion.ai.review.review`, never on the loop's thread), then
:class:`ReviewPage`, a summary with two pages: the three biggest mistakes
(:class:`Mistakes`: who, which move, how much of the chance to win it gave away) and
each player's luck per throw (:class:`Luck`). Win chances come from the computer's own
search (the evaluation it plays by, at least as deep as the ``strong`` level), as on the
command line (``companion journal review``); the numbers are points of chance and the
words :mod:`companion.ui.review_words`'."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.app.screens.base import Next, Page, Route, Screen, Seat
from companion.i18n import _, ngettext
from companion.ui.review_words import MISTAKE, move_words, points, rating, signed_points
from companion.ui.view import View

if TYPE_CHECKING:  # the search is imported when a review is asked for, not at start
    from companion.ai.review import Review


def percent(share: float) -> str:
    """A share of the chance to win (-1..1) as a whole percentage (``"23"``); under 1%
    with one decimal (``"0.4"``), so a small share does not read as none."""
    value = 100 * share
    return f"{value:.0f}" if abs(value) >= 0.95 or value == 0 else f"{value:.1f}"


def percent_sign(share: float) -> str:
    """:func:`percent` with the percent sign (``"23%"``), as one message, so that a
    sentence around it has no ``%`` of its own (gettext would read "% c" in
    "23% chance" as a C format and refuse a translation without one)."""
    return _("{share}%").format(share=percent(share))


def signed(share: float) -> str:
    """:func:`percent` with its sign (``"+12"``, ``"-3"``, ``"0"``)."""
    text = percent(abs(share))
    return text if text in ("0", "0.0") else ("+" if share > 0 else "-") + text


def _leave(back_to: Page | None) -> Next:
    """Back to ``back_to`` (``None``: what the position calls for)."""
    return Route() if back_to is None else back_to


@dataclass
class Reviewing(Page):
    """The worker reviews the game in play (finished); ``ticket`` numbers the request
    whose result this screen awaits. BACK returns to ``back_to`` (the game-over screen)
    and the result that comes later is dropped; asking again reviews anew. A game
    already reviewed is shown at once (the controller keeps the last review)."""

    kind = Screen.REVIEWING
    ticket: int = 0
    back_to: Page | None = None

    def view(self, seat: Seat) -> View:
        count = len(seat.table.actions) if seat.table is not None else 0
        return View("reviewing", _("Review"), (
            ngettext("Reviewing {count} action...", "Reviewing {count} actions...",
                     count).format(count=count),
            _("Each move against the best one, each throw against the average."),
        ), hint=_("BACK: back"))

    def back(self, seat: Seat) -> Next:
        return _leave(self.back_to)


@dataclass
class ReviewPage(Page):
    """The review's summary: its two pages (the biggest mistakes, the luck); "Done" and
    BACK return to ``back_to``."""

    kind = Screen.REVIEW
    review: Review | None = None
    back_to: Page | None = None

    def items(self, seat: Seat) -> tuple[str, ...]:
        return (_("Biggest mistakes"), _("Luck"), _("Done"))

    def view(self, seat: Seat) -> View:
        assert self.review is not None
        return View("review", _("Review"), (_("Mistakes and luck, in chance to win."),),
                    items=self.items(seat), cursor=self.cursor, hint=_("OK: choose"))

    def ok(self, seat: Seat) -> Next:
        if self.cursor == 0:
            return Mistakes(review=self.review, back_to=self)
        if self.cursor == 1:
            return Luck(review=self.review, back_to=self)
        return self.back(seat)

    def back(self, seat: Seat) -> Next:
        return _leave(self.back_to)


def mistake_lines(review: Review, count: int = 3) -> tuple[str, ...]:
    """The ``count`` biggest mistakes of ``review`` (:meth:`Review.headline`: errors of
    2 points of chance or more), largest first, one line each: rank, who, the move in
    words, the points of chance it gave away and the best move; then every player's
    error per move in points with its word (GNU Backgammon's error-rate words,
    :func:`companion.ui.review_words.rating`) and the number of mistakes."""
    worst = review.headline(count).mistakes
    lines = [
        _("{rank}. {player}, {move}: -{points} points (best: {best})").format(
            rank=rank, player=review.names[m.player], move=move_words(m.move),
            points=points(m.error), best=move_words(m.best_move))
        for rank, m in enumerate(worst, start=1)
    ] or [_("No mistakes: no move gave away {points} points or more.").format(
        points=points(MISTAKE))]
    lines += [ngettext("{player}: {points} points a move, {rating}; {count} mistake.",
                       "{player}: {points} points a move, {rating}; {count} mistakes.",
                       p.mistakes).format(player=p.name, points=points(p.error_per_move),
                                          rating=rating(p.error_per_move), count=p.mistakes)
              for p in review.players]
    return tuple(lines)


def luck_lines(review: Review) -> tuple[str, ...]:
    """Every player's luck per throw (the win chance their throws gave against the
    average throw, in points of chance, averaged), then what it means."""
    return (*(_("{player}: {points} points a throw").format(
                  player=p.name, points=signed_points(p.luck_per_throw))
              for p in review.players),
            _("Points of chance to win a throw gave, against the average throw."))


@dataclass
class Mistakes(Page):
    """The three biggest mistakes, largest first, then each player's chance to win
    given away in all (UP/DOWN scroll); OK or BACK returns to the summary."""

    kind = Screen.MISTAKES
    review: Review | None = None
    back_to: Page | None = None

    def view(self, seat: Seat) -> View:
        assert self.review is not None
        return View("mistakes", _("Biggest mistakes"), mistake_lines(self.review),
                    scroll=self.scroll, hint=_("OK: back"))

    def ok(self, seat: Seat) -> Next:
        return _leave(self.back_to)

    back = ok


@dataclass
class Luck(Page):
    """Each player's luck in all (UP/DOWN scroll); OK or BACK returns to the summary."""

    kind = Screen.LUCK
    review: Review | None = None
    back_to: Page | None = None

    def view(self, seat: Seat) -> View:
        assert self.review is not None
        return View("luck", _("Luck"), luck_lines(self.review), scroll=self.scroll,
                    hint=_("OK: back"))

    def ok(self, seat: Seat) -> Next:
        return _leave(self.back_to)

    back = ok


__all__ = ["Luck", "Mistakes", "ReviewPage", "Reviewing", "luck_lines", "mistake_lines",
           "percent", "signed"]
