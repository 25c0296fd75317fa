"""The menus and the information about a game: the game menu, the settings, the pause
menu (with the game's status in words)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.app.screens.base import PAUSE_ITEMS, Confirm, Page, Screen, Seat
from companion.app.screens.play import BoardPage, Moves
from companion.app.screens.review import Reviewing
from companion.app.screens.start import Setup
from companion.app.screens.turn import Thinking
from companion.i18n import _
from companion.rules import PASS, Phase, game_class, game_title
from companion.ui.games.boards import board_model, pieces_in_words
from companion.ui.render import columns
from companion.ui.view import View


@dataclass
class Menu(Page):
    kind = Screen.MENU

    def items(self, seat: Seat) -> tuple[str, ...]:
        return (*(game_title(g) for g in seat.games), "Settings")

    def view(self, seat: Seat) -> View:
        return View("menu", "Choose a game", items=self.items(seat), cursor=self.cursor,
                    hint="OK: choose")

    def ok(self, seat: Seat) -> None:
        if self.cursor < len(seat.games):
            gid = seat.games[self.cursor]
            setup = Setup(gid, game_class(gid).default_players, dict(seat.game_options.get(gid, {})))
            setup.cursor = len(setup.rows(seat)) - 1  # on "Begin"
            seat.goto(setup)
        else:
            seat.goto(Settings(back_to=self))


SLEEP_CHOICES = (60.0, 300.0, 600.0, 1800.0, 3600.0, 0.0)
"""Display sleep times offered in Settings, in seconds (0: never)."""
CONTRAST_CHOICES = (64, 128, 191, 255)
"""Contrast levels offered in Settings (0-255), shown as 25% to 100%."""
TUTOR_SHARE_CHOICES = (0.05, 0.10, 0.15, 0.20, 0.30)
"""The shares of the chance to win (0..1) a move must give away for the tutor to ask,
offered in Settings (shown as 5% to 30%)."""


def _sleep_words(seconds: float) -> str:
    if seconds <= 0:
        return "never"
    if seconds >= 60 and seconds % 60 == 0:
        return f"{int(seconds // 60)} min"
    return f"{seconds:g} s"


def _next(choices: Sequence[Any], value: Any) -> Any:
    """The choice after ``value`` in the cycle ``choices``; for a value not offered (set
    in the config file), the first choice larger than it, else the last choice."""
    if value in choices:
        return choices[(list(choices).index(value) + 1) % len(choices)]
    larger = [c for c in choices if c > value]
    return larger[0] if larger else choices[-1]


@dataclass
class Settings(Page):
    """The settings changeable at the table, each row showing its value; OK on a row
    changes it (saved at once, restored at the next start). Leaving goes back to where
    they were opened (the menu, or the pause menu of a game in play, which returns to
    the game)."""

    kind = Screen.SETTINGS
    back_to: Page | None = None

    def rows(self, seat: Seat) -> list[tuple[str, str]]:
        """``(key, label)`` per row; the sound and the light only when wired; the tutor's
        share only when the tutor is on."""
        prefs = seat.prefs
        rows = [
            ("source", f"Throw: {prefs.source}"),
            ("sleep", f"Sleep: {_sleep_words(prefs.sleep_after)}"),
            ("contrast", f"Contrast: {round(prefs.contrast * 100 / 255)}%"),
        ]
        if seat.wired["buzzer"]:
            rows.append(("sound", f"Sound: {'on' if prefs.sound else 'off'}"))
        if seat.wired["led"]:
            rows.append(("light", f"Light: {'on' if prefs.light else 'off'}"))
        rows.append(("tutor", _("Tutor: {state}").format(state=_("on") if prefs.tutor else _("off"))))
        if prefs.tutor:  # how costly a move must be for it to ask
            rows.append(("tutor_share", _("Tutor asks at: {share}%").format(
                share=round(prefs.tutor_share * 100))))
        return [*rows, ("back", "Back")]

    def items(self, seat: Seat) -> tuple[str, ...]:
        return tuple(label for _, label in self.rows(seat))

    def view(self, seat: Seat) -> View:
        return View("settings", "Settings", items=self.items(seat), cursor=self.cursor,
                    hint="OK: change")

    def ok(self, seat: Seat) -> None:
        key = self.rows(seat)[self.cursor][0]
        prefs = seat.prefs
        if key == "source":
            new = replace(prefs, source=_next(seat.sources, prefs.source))
        elif key == "sleep":
            new = replace(prefs, sleep_after=_next(SLEEP_CHOICES, prefs.sleep_after))
        elif key == "contrast":
            new = replace(prefs, contrast=_next(CONTRAST_CHOICES, prefs.contrast))
        elif key == "sound":
            new = replace(prefs, sound=not prefs.sound)
        elif key == "light":
            new = replace(prefs, light=not prefs.light)
        elif key == "tutor":
            new = replace(prefs, tutor=not prefs.tutor)
        elif key == "tutor_share":
            new = replace(prefs, tutor_share=_next(TUTOR_SHARE_CHOICES, prefs.tutor_share))
        else:
            self.back(seat)
            return
        seat.change(new)

    def back(self, seat: Seat) -> None:
        if isinstance(self.back_to, Pause) and seat.table is not None:
            seat.route()
        else:
            seat.goto(Menu())


@dataclass
class Pause(Page):
    """The pause menu of a game in play."""

    kind = Screen.PAUSE
    after: Page | None = None
    """The game's screen the pause menu was opened from (the moves screen's highlighted
    move is previewed by "Board")."""

    def items(self, seat: Seat) -> tuple[str, ...]:
        if self._over(seat):  # the game's review, where the game-over screen's BACK leads
            return (*PAUSE_ITEMS, _("Review"))
        return (*PAUSE_ITEMS, "Hint") if self._hint_move(seat) else PAUSE_ITEMS

    def _over(self, seat: Seat) -> bool:
        return seat.table is not None and seat.table.state.phase is Phase.OVER

    def _hint_move(self, seat: Seat) -> bool:
        """A hint is offered when enabled and a person is to move or decide."""
        table = seat.table
        return bool(seat.hints and table is not None and table.state.current_player not in
                    table.seats and table.state.phase in (Phase.MOVE, Phase.DECIDE)
                    and tuple(table.state.legal_moves()) != (PASS,))

    def view(self, seat: Seat) -> View:
        return View("pause", "Paused", items=self.items(seat), cursor=self.cursor,
                    hint="OK: choose")

    def ok(self, seat: Seat) -> None:
        items = self.items(seat)
        choice = items[self.cursor % len(items)]
        if choice == "Continue":
            seat.route()
        elif choice == "Undo last move":
            seat.undo()
        elif choice == "Game status":
            self._status(seat)
        elif choice == "Settings":
            seat.goto(Settings(back_to=self))
        elif choice == "Hint":
            seat.goto(Thinking(job="hint"))
        elif choice == _("Review") and self._over(seat):
            seat.goto(Reviewing(back_to=self))
        elif choice == "Board":
            move = self.after.highlighted(seat) if isinstance(self.after, Moves) else None
            try:
                board_model(seat.position)
            except ValueError as exc:  # a game without a board picture (none of the four)
                seat.show_message("Board", (str(exc),), then=self)
                return
            seat.goto(BoardPage(move=move, back_to=self))
        else:  # End game: asked first, naming the game; keeping is the default
            title = seat.position.game.title
            seat.goto(Confirm(title="End game?", lines=(f"End {title}?",),
                              then_end=_end_game, keep=None))

    def back(self, seat: Seat) -> None:
        seat.route()

    def _status(self, seat: Seat) -> None:
        """Where every piece is, in words, then what the board does not show (the
        presenter's status lines); UP/DOWN page through it."""
        if seat.table is None:
            seat.route()
            return
        state = seat.position
        try:
            places = pieces_in_words(state, columns(seat.size[0]))
        except ValueError:  # a game without a board picture (none of the four)
            places = []
        lines = (*places, *seat.presenter.status_lines(state)) or ("Nothing to say.",)
        seat.show_message(state.game.title, lines, then=self)


def _end_game(seat: Seat) -> None:
    """End the game in play (the pause menu's "End game", confirmed)."""
    seat.end_game()


__all__ = ["CONTRAST_CHOICES", "SLEEP_CHOICES", "TUTOR_SHARE_CHOICES", "Menu", "Pause", "Settings"]
