"""The screens before a game: the splash, the offer to resume, a game's setup (its
players, options and seats) and one option's page."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from companion.app.screens.base import Next, Page, Screen, Seat, ToMenu
from companion.app.screens.splash import Resume, Splash
from companion.i18n import N_, _
from companion.rules import Game, Option, RulesError, game_class, get_game
from companion.ui.games import presenter_for
from companion.ui.render import columns
from companion.ui.rules_words import say
from companion.ui.view import View

SEAT_CHOICES = ("person", "easy", "normal", "strong")
"""Who plays a seat: a person, or the computer at a level."""
SEAT_WORDS = {"easy": N_("computer easy"), "normal": N_("computer normal"),
              "strong": N_("computer strong")}
"""The computer at each level, as a seat's row says it."""

@functools.lru_cache(maxsize=16)
def _default_game(game_id: str) -> Game:
    """The game with its default options (for its players' names on the setup screen)."""
    return get_game(game_id)


@functools.lru_cache(maxsize=16)
def _setup_game(game_id: str, options: tuple[tuple[str, Any], ...], players: int) -> tuple[Game, str]:
    """The game with ``options`` and the name of the player who throws first with
    ``players`` players, for the setup screen. Kept, because a new position is not cheap
    (the Cretan Labyrinth builds every walk of its board: about 0.1 s of CPU here, more
    on a Pi) and the setup screen is drawn again at each press.

    :raises RulesError: the options cannot make a game (a data file that cannot be used;
        not kept, so a file mended since is read again).
    """
    game = get_game(game_id, **dict(options))
    return game, game.new_state(players).player_to_act_name


def _options_key(options: dict[str, Any]) -> tuple[tuple[str, Any], ...] | None:
    """``options`` as a key of :func:`_setup_game` (``None``: a value that cannot be one)."""
    key = tuple(sorted(options.items()))
    try:
        hash(key)
    except TypeError:
        return None
    return key


@dataclass
class Setup(Page):
    """A game's setup: the number of players and the options a player may change, each
    row its short label and whole value (``House of Beauty: onto 26``); OK on an option
    opens its explanation, where OK changes it."""

    kind = Screen.SETUP
    game_id: str = ""
    players: int = 2
    options: dict[str, Any] = field(default_factory=dict)
    seats: dict[int, str] = field(default_factory=dict)
    """The players the computer plays, by player index, with their level."""
    people: dict[int, str] = field(default_factory=dict)
    """The persons of the club's roster at human seats, by player index (each name at
    one seat only)."""

    def rows(self, seat: Seat) -> list[tuple[str, str]]:
        """The rows: ``(key, label)``; key ``players``, an option name, or ``begin``."""
        cls = game_class(self.game_id)
        presenter = presenter_for(self.game_id, columns(seat.size[0]))
        rows: list[tuple[str, str]] = []
        if cls.max_players > cls.min_players:
            rows.append(("players", _("Players: {count}").format(count=self.players)))
        for option in cls.options:
            value = self.options.get(option.name, option.default)
            # A data file given by --option or the config is named even when the boards
            # folders offer no other (a Board / Decks row with its file name).
            if option_choices(seat, self.game_id, option) or (option.names_file and value):
                rows.append((option.name, _("{option}: {value}").format(
                    option=presenter.option_label(option),
                    value=presenter.option_value(option, value))))
        computer = ", ".join(say(_default_game(self.game_id).player_name(p, self.players))
                             for p in sorted(self.seats)) or _("nobody")
        rows.append(("seats", _("Computer: {players}").format(players=computer)))
        rows.append(("begin", _("Begin")))
        return rows

    def items(self, seat: Seat) -> tuple[str, ...]:
        return tuple(label for _, label in self.rows(seat))

    def view(self, seat: Seat) -> View:
        cls = game_class(self.game_id)
        rows = self.rows(seat)
        key = rows[min(self.cursor, len(rows) - 1)][0]
        hint = _("OK: begin") if key == "begin" else _("OK: change")
        try:
            key_options = _options_key(self.options)
            if key_options is None:
                game = get_game(self.game_id, **self.options)
                first = game.new_state(self.players).player_to_act_name
            else:
                game, first = _setup_game(self.game_id, key_options, self.players)
        except RulesError as exc:  # a data file that cannot be used: said, not begun
            about = _("Cannot begin: {error}").format(error=exc)
        else:
            # "throws first", not "starts": in most games the first throws decide who starts.
            about = _("{player} throws first.").format(player=say(first))
            # The selected row is not said again (issue 35): the menu draws it whole,
            # over as many lines as it needs. On Players: who plays, by their colours.
            if key == "players":
                about = ", ".join(say(game.player_name(p, self.players)) for p in range(self.players))
        return View("setup", say(cls.title), (about,), items=tuple(label for _, label in rows),
                    cursor=self.cursor, hint=hint)

    def ok(self, seat: Seat) -> Next:
        key = self.rows(seat)[self.cursor][0]
        cls = game_class(self.game_id)
        if key == "begin":
            return seat.begin(self.game_id, self.players, self.options, self.seats, setup=self,
                              people=self.people)
        if key == "players":
            span = cls.max_players - cls.min_players + 1
            self.players = cls.min_players + (self.players - cls.min_players + 1) % span
            self.seats = {p: lv for p, lv in self.seats.items() if p < self.players}
            self.people = {p: n for p, n in self.people.items() if p < self.players}
            return None
        if key == "seats":
            return Seats(setup=self, roster=seat.roster())
        option = next(o for o in cls.options if o.name == key)
        return OptionPage(setup=self, option=option)

    def back(self, seat: Seat) -> Next:
        return ToMenu()

    def again(self) -> Page:
        return replace(self, cursor=0, scroll=0, options=dict(self.options), seats=dict(self.seats),
                       people=dict(self.people))


@dataclass
class Seats(Page):
    """Who plays each seat: a person, or the computer at a level; BACK goes back to the
    setup. With no roster (:attr:`roster` empty: the box is in no club), OK on a seat
    changes it in turn (a person, the computer easy, normal, strong); with one, OK on a
    seat opens :class:`Who`, where UP/DOWN choose among the seat's colour (a person
    not named), the roster's names not taken at another seat and the computer's
    levels (issue 33)."""

    kind = Screen.SEATS
    setup: Setup | None = None
    roster: tuple[str, ...] = ()
    """The club's roster, read when the page was opened (:meth:`Seat.roster`)."""

    def items(self, seat: Seat) -> tuple[str, ...]:
        assert self.setup is not None
        setup = self.setup
        named = _default_game(setup.game_id)
        return (*(_("{player}: {who}").format(
            player=say(named.player_name(p, setup.players)),
            who=_(SEAT_WORDS[setup.seats[p]]) if p in setup.seats
            else setup.people.get(p) or _("person"))
            for p in range(setup.players)), _("Back"))

    def view(self, seat: Seat) -> View:
        about = _("OK: a name of the club or the computer.") if self.roster else \
            _("OK: a person or the computer at a level.")
        return View("seats", _("Who plays"), (about,),
                    items=self.items(seat), cursor=self.cursor, hint=_("OK: change"))

    def ok(self, seat: Seat) -> Next:
        assert self.setup is not None
        seats, people = self.setup.seats, self.setup.people
        p = self.cursor
        if p >= self.setup.players:
            return self.back(seat)
        if self.roster:
            page = Who(seats_page=self, player=p)
            page.cursor = page.current()
            return page
        who = SEAT_CHOICES[(SEAT_CHOICES.index(seats.get(p, "person")) + 1) % len(SEAT_CHOICES)]
        seats.pop(p, None)
        if who != "person":
            seats[p] = who
            people.pop(p, None)
        return None

    def back(self, seat: Seat) -> Next:
        assert self.setup is not None
        return self.setup


@dataclass
class Who(Page):
    """Who plays one seat, from the club's roster (issue 33): the seat's colour (a
    person not named: the default), each name of the roster not taken at another seat
    (a name sits at one seat only), then the computer at each level. UP/DOWN choose, OK
    takes the row and goes back to the seats, BACK goes back leaving the seat as it
    was."""

    kind = Screen.WHO
    seats_page: Seats | None = None
    player: int = 0
    """The seat chosen for, a player index."""

    def choices(self) -> list[tuple[str, str]]:
        """The rows as ``(who, name)``: ``("person", "")`` the colour, ``("person",
        name)`` a person of the roster, ``(level, "")`` the computer at ``level``."""
        assert self.seats_page is not None and self.seats_page.setup is not None
        setup = self.seats_page.setup
        taken = {n.casefold() for p, n in setup.people.items() if p != self.player}
        names = [n for n in self.seats_page.roster if n.casefold() not in taken]
        mine = setup.people.get(self.player)
        if mine and mine not in names:  # taken from a roster read before: kept on offer
            names.insert(0, mine)
        return [("person", ""), *(("person", n) for n in names),
                *((level, "") for level in SEAT_CHOICES if level != "person")]

    def current(self) -> int:
        """The row of the seat's choice now."""
        assert self.seats_page is not None and self.seats_page.setup is not None
        setup = self.seats_page.setup
        now = (setup.seats[self.player], "") if self.player in setup.seats else (
            "person", setup.people.get(self.player, ""))
        rows = self.choices()
        return rows.index(now) if now in rows else 0

    def _player(self) -> str:
        assert self.seats_page is not None and self.seats_page.setup is not None
        setup = self.seats_page.setup
        return say(_default_game(setup.game_id).player_name(self.player, setup.players))

    def items(self, seat: Seat) -> tuple[str, ...]:
        colour = self._player()
        return tuple(name or colour if who == "person" else _(SEAT_WORDS[who])
                     for who, name in self.choices())

    def view(self, seat: Seat) -> View:
        return View("who", _("Who plays {player}").format(player=self._player()),
                    items=self.items(seat), cursor=self.cursor, hint=_("OK: choose"))

    def ok(self, seat: Seat) -> Next:
        assert self.seats_page is not None and self.seats_page.setup is not None
        setup = self.seats_page.setup
        rows = self.choices()
        who, name = rows[self.cursor % len(rows)]
        setup.seats.pop(self.player, None)
        setup.people.pop(self.player, None)
        if who != "person":
            setup.seats[self.player] = who
        elif name:
            setup.people[self.player] = name
        return self.seats_page

    def back(self, seat: Seat) -> Next:
        assert self.seats_page is not None
        return self.seats_page


@dataclass
class OptionPage(Page):
    """One option of a game's setup: what it does (the option's own description), its
    value now; OK changes the value, BACK goes back to the setup."""

    kind = Screen.OPTION
    setup: Setup | None = None
    option: Option | None = None

    def view(self, seat: Seat) -> View:
        assert self.setup is not None and self.option is not None
        option, setup = self.option, self.setup
        presenter = presenter_for(setup.game_id, columns(seat.size[0]))
        value = setup.options.get(option.name, option.default)
        helped = say(option.help)
        lines = [helped[:1].upper() + helped[1:] + ".",
                 _("Now: {value}").format(value=presenter.option_value(option, value))]
        if isinstance(value, str) and value and option.names_file:
            lines.append(value)  # the whole path of a data file
        changes = bool(option_choices(seat, setup.game_id, option))
        return View("option", presenter.option_label(option), tuple(lines), scroll=self.scroll,
                    hint=_("OK: change BACK: done") if changes else _("OK/BACK: done"))

    def ok(self, seat: Seat) -> Next:
        assert self.setup is not None and self.option is not None
        option, options = self.option, self.setup.options
        choices = option_choices(seat, self.setup.game_id, option)
        if not choices:  # a file given at start, no other offered: nothing to change
            return self.back(seat)
        value = options.get(option.name, option.default)
        i = choices.index(value) if value in choices else -1
        options[option.name] = choices[(i + 1) % len(choices)]
        return None

    def back(self, seat: Seat) -> Next:
        assert self.setup is not None
        return self.setup


def data_files(directories: Sequence[Path], game_id: str, option: str) -> list[str]:
    """The data files offered for ``option`` of ``game_id``: in each of ``directories``
    (in order), the files ``<game id>*.toml`` -- those with ``decks`` in their name for
    the ``decks`` option, the others for ``board`` -- sorted by name. A folder that is
    missing or unreadable offers nothing."""
    found: list[str] = []
    for directory in directories:
        try:
            names = sorted(p for p in directory.glob(f"{game_id}*.toml") if p.is_file())
        except OSError:
            continue
        found += [str(p) for p in names if ("decks" in p.name) == (option == "decks")]
    return found


def option_choices(seat: Seat, game_id: str, option: Option) -> tuple[Any, ...]:
    """The values the setup offers for ``option`` (none: not offered): its choices, yes
    and no, or, for a data file, the bundled default first, then the files found in the
    boards folders (:func:`data_files`), when there are any."""
    if option.choices:
        return option.choices
    if isinstance(option.default, bool):
        return (True, False)
    if option.names_file:  # a FileOption: offered once there is a file to choose
        files = data_files(seat.boards, game_id, option.name)
        return ("", *files) if files else ()
    return ()


__all__ = [
    "SEAT_CHOICES", "OptionPage", "Resume", "Seats", "Setup", "Splash", "Who",
    "data_files", "option_choices",
]
