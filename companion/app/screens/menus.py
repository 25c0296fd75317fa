"""The menus and the information about a game: the game menu, the settings, the pause
menu (with the game's status in words)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.app.screens.base import (
    PAUSE_ITEMS,
    Confirm,
    Message,
    Next,
    Page,
    Route,
    Screen,
    Seat,
)
from companion.app.screens.calibrate import CalibrateGame
from companion.app.screens.play import BoardPage, Moves, Over
from companion.app.screens.review import Reviewing
from companion.app.screens.start import Setup
from companion.app.screens.turn import Thinking
from companion.i18n import N_, _, languages
from companion.rules import PASS, Phase, game_class, game_title
from companion.ui.games.boards import board_or_none, pieces_in_words
from companion.ui.render import columns
from companion.ui.rules_words import say
from companion.ui.view import View


@dataclass
class Menu(Page):
    kind = Screen.MENU

    def items(self, seat: Seat) -> tuple[str, ...]:
        return (*(say(game_title(g)) for g in seat.games), _("Settings"))

    def view(self, seat: Seat) -> View:
        return View("menu", _("Choose a game"), items=self.items(seat), cursor=self.cursor,
                    hint=_("OK: choose"))

    def ok(self, seat: Seat) -> Next:
        if self.cursor < len(seat.games):
            gid = seat.games[self.cursor]
            setup = Setup(gid, game_class(gid).default_players, dict(seat.game_options.get(gid, {})))
            setup.cursor = len(setup.rows(seat)) - 1  # on "Begin"
            return setup
        return Settings(back_to=self)


SLEEP_CHOICES = (60.0, 300.0, 600.0, 1800.0, 3600.0, 0.0)
"""Display sleep times offered in Settings, in seconds (0: never)."""
CONTRAST_CHOICES = (64, 128, 191, 255)
"""Contrast levels offered in Settings (0-255), shown as 25% to 100%."""
VOICE_CHOICES: Mapping[str, tuple[str, ...]] = {"en": ("", "en-gb", "en-us"), "de": ("", "de")}
"""The espeak-ng voices offered in Settings > Speech, by the language in use (``""``:
the language's own voice, shown as "auto"); another language offers "auto" alone."""
RATE_CHOICES = (120, 140, 160, 180, 210, 250)
"""Speaking rates offered in Settings > Speech, in words per minute (espeak-ng's ``-s``)."""
VOLUME_CHOICES = (50, 100, 150, 200)
"""Volumes offered in Settings > Speech, in percent of espeak-ng's normal (its ``-a``, 0-200)."""
TUTOR_SHARE_CHOICES = (0.05, 0.10, 0.15, 0.20, 0.30)
"""The shares of the chance to win (0..1) a move must give away for the tutor to ask,
offered in Settings (shown as 5% to 30%)."""


def _sleep_words(seconds: float) -> str:
    if seconds <= 0:
        return _("never")
    if seconds >= 60 and seconds % 60 == 0:
        return _("{minutes} min").format(minutes=int(seconds // 60))
    return _("{seconds} s").format(seconds=f"{seconds:g}")


CAMERA_WORDS = {"off": N_("off"), "fake": N_("fake"), "usb": N_("USB"),
                "picamera": N_("Pi camera")}
"""Each ``camera.source`` as the settings' Camera row says it, in English."""

LANGUAGE_NAMES = {"en": "English", "de": "Deutsch"}
"""Each language's name in itself (a language not listed shows its code)."""


def _on_off(on: bool) -> str:
    return _("on") if on else _("off")


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
        """``(key, label)`` per row; the camera only when one can be chosen (its
        confirmation and its calibration, :mod:`.calibrate`, only when it is on); the sound and the light only when wired; the
        tutor's share only when the tutor is on."""
        prefs = seat.prefs
        rows = [
            ("source", _("Throw: {source}").format(source=prefs.source)),
        ]
        if len(seat.cameras) > 1:  # the camera over the board (issue 34), and what it does
            rows.append(("camera", _("Camera: {source}").format(
                source=_(CAMERA_WORDS.get(prefs.camera, prefs.camera)))))
            if prefs.camera != "off":
                rows.append(("camera_confirm", _("Camera move: {how}").format(
                    how=_("OK first") if prefs.camera_confirm else _("at once"))))
                rows.append(("calibrate", _("Calibrate camera")))  # a board without markers
        rows += [
            ("sleep", _("Sleep: {time}").format(time=_sleep_words(prefs.sleep_after))),
            ("contrast", _("Contrast: {percent}%").format(percent=round(prefs.contrast * 100 / 255))),
        ]
        if seat.wired["buzzer"]:
            rows.append(("sound", _("Sound: {on_off}").format(on_off=_on_off(prefs.sound))))
        if seat.wired["led"]:
            rows.append(("light", _("Light: {on_off}").format(on_off=_on_off(prefs.light))))
        if len(languages()) > 1:
            name = LANGUAGE_NAMES.get(prefs.language, prefs.language)
            rows.append(("language", _("Language: {language}").format(language=name)))
        rows.append(("speech", _("Speech: {state}").format(state=_("on") if prefs.speech else _("off"))))
        rows.append(("tutor", _("Tutor: {state}").format(state=_("on") if prefs.tutor else _("off"))))
        if prefs.tutor:  # how costly a move must be for it to ask
            rows.append(("tutor_share", _("Tutor asks at: {share}%").format(
                share=round(prefs.tutor_share * 100))))
        return [*rows, ("back", _("Back"))]

    def items(self, seat: Seat) -> tuple[str, ...]:
        return tuple(label for _, label in self.rows(seat))

    def view(self, seat: Seat) -> View:
        return View("settings", _("Settings"), items=self.items(seat), cursor=self.cursor,
                    hint=_("OK: change"))

    def ok(self, seat: Seat) -> Next:
        key = self.rows(seat)[self.cursor][0]
        prefs = seat.prefs
        if key == "source":
            new = replace(prefs, source=_next(seat.sources, prefs.source))
        elif key == "camera":  # made on the worker with the next look, never here
            cameras = list(seat.cameras)
            i = cameras.index(prefs.camera) if prefs.camera in cameras else -1
            new = replace(prefs, camera=cameras[(i + 1) % len(cameras)])
        elif key == "camera_confirm":
            new = replace(prefs, camera_confirm=not prefs.camera_confirm)
        elif key == "calibrate":  # the game in play first
            table = seat.table
            playing = table.game.id if table is not None else None
            games = list(seat.games)
            return CalibrateGame(back_to=self, cursor=games.index(playing) if playing in games else 0)
        elif key == "sleep":
            new = replace(prefs, sleep_after=_next(SLEEP_CHOICES, prefs.sleep_after))
        elif key == "contrast":
            new = replace(prefs, contrast=_next(CONTRAST_CHOICES, prefs.contrast))
        elif key == "sound":
            new = replace(prefs, sound=not prefs.sound)
        elif key == "light":
            new = replace(prefs, light=not prefs.light)
        elif key == "language":
            new = replace(prefs, language=_next(languages(), prefs.language))
        elif key == "speech":
            return SpeechSettings(settings=self)
        elif key == "tutor":
            new = replace(prefs, tutor=not prefs.tutor)
        elif key == "tutor_share":
            new = replace(prefs, tutor_share=_next(TUTOR_SHARE_CHOICES, prefs.tutor_share))
        else:
            return self.back(seat)
        return seat.change(new)

    def back(self, seat: Seat) -> Next:
        if isinstance(self.back_to, Pause) and seat.table is not None:
            return Route()
        return Menu()


@dataclass
class SpeechSettings(Page):
    """Settings > Speech: speech on or off, the voice, the rate and the volume, each row
    showing its value; OK on a row changes it (saved at once, like every setting). BACK,
    or its Back row, returns to the settings."""

    kind = Screen.SPEECH
    settings: Settings | None = None
    """The settings page this one was opened from."""

    def rows(self, seat: Seat) -> list[tuple[str, str]]:
        """``(key, label)`` per row."""
        prefs = seat.prefs
        return [
            ("speech", _("Speech: {state}").format(state=_("on") if prefs.speech else _("off"))),
            ("voice", _("Voice: {voice}").format(voice=prefs.voice or _("auto"))),
            ("rate", _("Rate: {rate} words/min").format(rate=prefs.rate)),
            ("volume", _("Volume: {volume}%").format(volume=prefs.volume)),
            ("back", _("Back")),
        ]

    def items(self, seat: Seat) -> tuple[str, ...]:
        return tuple(label for _key, label in self.rows(seat))

    def view(self, seat: Seat) -> View:
        return View("speech", _("Speech"), items=self.items(seat), cursor=self.cursor,
                    hint=_("OK: change"))

    def ok(self, seat: Seat) -> Next:
        key = self.rows(seat)[self.cursor][0]
        prefs = seat.prefs
        if key == "speech":
            new = replace(prefs, speech=not prefs.speech)
        elif key == "voice":
            voices = VOICE_CHOICES.get(prefs.language, ("",))
            voice = voices[(voices.index(prefs.voice) + 1) % len(voices)] if prefs.voice in voices else ""
            new = replace(prefs, voice=voice)
        elif key == "rate":
            new = replace(prefs, rate=_next(RATE_CHOICES, prefs.rate))
        elif key == "volume":
            new = replace(prefs, volume=_next(VOLUME_CHOICES, prefs.volume))
        else:
            return self.back(seat)
        return seat.change(new)

    def back(self, seat: Seat) -> Next:
        return self.settings if self.settings is not None else Settings()


@dataclass
class Pause(Page):
    """The pause menu of a game in play. Back from a row's page (Game status, the hint,
    a question answered "keep") the cursor is on that row still, so the next press
    meant for the row below does not land on another (issue 35: back on "Continue",
    Down+OK meant for "Board" took a move back). "Undo last move" asks first, as "End
    game" does."""

    kind = Screen.PAUSE
    after: Page | None = None
    """The game's screen the pause menu was opened from (the moves screen's highlighted
    move is previewed by "Board")."""

    def items(self, seat: Seat) -> tuple[str, ...]:
        return tuple(_(item) for item in self._keys(seat))

    def _keys(self, seat: Seat) -> tuple[str, ...]:
        """The rows in English (:data:`PAUSE_ITEMS`, and "Hint" when one is offered)."""
        if self._over(seat):  # the game's review, where the game-over screen's BACK leads
            return (*PAUSE_ITEMS, N_("Review"))
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
        return View("pause", _("Paused"), items=self.items(seat), cursor=self.cursor,
                    hint=_("OK: choose"))

    @classmethod
    def opened(cls, after: Page | None = None) -> Pause:
        """The pause menu opened from ``after`` (a game's screen); from the game-over
        screen with the cursor on "Review"."""
        page = cls(after=after)
        if isinstance(after, Over):
            page.cursor = len(PAUSE_ITEMS)
        return page

    def again(self) -> Page:
        """The pause menu shown anew after a message or a question: the cursor where it
        was (the text scrolled back to the top)."""
        return replace(self, scroll=0)

    def ok(self, seat: Seat) -> Next:
        keys = self._keys(seat)
        choice = keys[self.cursor % len(keys)]
        if choice == "Continue":
            return Route()
        if choice == "Undo last move":
            return self._ask_undo(seat)
        if choice == "Game status":
            return self._status(seat)
        if choice == "Settings":
            return Settings(back_to=self)
        if choice == "Hint":
            return Thinking(job="hint", back_to=self)
        if choice == "Review" and self._over(seat):
            return Reviewing(back_to=self)
        if choice == "Board":
            move = self.after.highlighted(seat) if isinstance(self.after, Moves) else None
            if board_or_none(seat.position) is None:
                return Message(title=_("Board"), lines=(_("This game has no board picture."),),
                               under=self)
            return BoardPage(move=move, back_to=self)
        # End game: asked first, naming the game; keeping is the default
        title = say(seat.position.game.title)
        return Confirm(title=_("End game?"), lines=(_("End {game}?").format(game=title),),
                       then_end=_end_game, keep=None)

    def back(self, seat: Seat) -> Next:
        return Route()

    def _ask_undo(self, seat: Seat) -> Next:
        """Ask before taking a move back, naming it; keeping is the default. With no
        move to take back, that is said at once (nothing to ask)."""
        table = seat.table
        last = table.undoable() if table is not None else None
        if last is None:
            return seat.undo(self)  # says "Nothing to undo" over this menu
        player, move = last
        pause = self

        def take_back(seat: Seat) -> Next:
            return seat.undo(pause)  # a message about a refused undo leads back here

        question = _("Take back {player}'s lost throw?").format(player=say(player)) \
            if move == PASS else _("Take back {player}'s move {move}?").format(
                player=say(player), move=say(move.notation))
        return Confirm(title=_("Undo move?"), lines=(question,),
                       end_label=N_("Undo"), end_hint=N_("OK: undo  BACK: keep"),
                       then_end=take_back, keep=self)

    def _status(self, seat: Seat) -> Next:
        """Who of the club's roster sits where, where every piece is, in words, then
        what the board does not show (the presenter's status lines); UP/DOWN page
        through it."""
        if seat.table is None:
            return Route()
        state = seat.position
        try:
            places = pieces_in_words(state, columns(seat.size[0]))
        except ValueError:  # a game without a board picture (none of the four)
            places = []
        people = tuple(_("{player}: {who}").format(player=say(state.name(p)), who=name)
                       for p, name in sorted(seat.table.people.items()))  # the club's (issue 33)
        lines = (*people, *places, *seat.presenter.status_lines(state)) or (_("Nothing to say."),)
        return Message(title=say(state.game.title), lines=lines, under=self)


def _end_game(seat: Seat) -> Next:
    """End the game in play (the pause menu's "End game", confirmed)."""
    return seat.end_game()


__all__ = ["CAMERA_WORDS", "CONTRAST_CHOICES", "LANGUAGE_NAMES", "RATE_CHOICES", "SLEEP_CHOICES",
           "TUTOR_SHARE_CHOICES", "VOICE_CHOICES", "VOLUME_CHOICES", "Menu", "Pause", "Settings",
           "SpeechSettings"]
