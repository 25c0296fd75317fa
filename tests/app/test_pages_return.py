"""Pages return what they want done: a page's button never shows a screen by calling
into the controller; it returns the next page (or a :class:`Route`, :class:`ToMenu`,
:class:`ToPause` request, ``None`` to stay), and the controller shows it in one place
(``docs/architecture.md``, "A new screen")."""

from __future__ import annotations

from pathlib import Path

from controller_tools import OK, controller, on, send

from companion.app import screens as sc
from companion.app.screens import Screen

SHOWING = {"goto", "route", "menu", "pause", "show_message", "show"}
"""What would let a page show a screen by calling (the controller keeps these)."""


def seat_members() -> set[str]:
    return {name for name in vars(sc.Seat) if not name.startswith("_")}


def test_the_seat_offers_no_way_to_show_a_screen() -> None:
    members = seat_members()
    assert not members & SHOWING, members & SHOWING
    assert {"act", "undo", "begin", "resume", "end_game", "change"} <= members
    assert len(members) <= 29  # it was 32, with the five ways of showing and the speaker; 26
    # without them, then the roster (issue 33), the cameras offered and the camera's
    # calibration (issue 34)


def test_the_menu_returns_the_setup_of_its_game_and_shows_nothing_itself(tmp_path: Path) -> None:
    ctl = controller(tmp_path, [], games=["senet-tait"])
    assert sc.Splash().ok(ctl) == sc.ToMenu()  # no game to resume, nothing to say
    assert on(ctl) is Screen.SPLASH  # asking is not showing
    setup = sc.Menu().ok(ctl)
    assert isinstance(setup, sc.Setup) and setup.game_id == "senet-tait"
    assert setup.cursor == len(setup.rows(ctl)) - 1  # on "Begin"
    settings = sc.Menu(cursor=1).ok(ctl)
    assert isinstance(settings, sc.Settings) and isinstance(settings.back_to, sc.Menu)
    assert on(ctl) is Screen.SPLASH


def test_a_game_screen_returns_requests_and_the_pause_menu_its_rows(tmp_path: Path) -> None:
    ctl = send(controller(tmp_path, ["2"], games=["senet-tait"]), OK, OK, OK)
    assert on(ctl) is Screen.THROW
    throwing = ctl.page
    assert throwing.back(ctl) == sc.ToPause()
    assert throwing.ok(ctl) is None  # a shaker throws here, not OK: the page stays
    assert on(ctl) is Screen.THROW and ctl.page is throwing
    pause = sc.Pause(after=throwing)
    assert pause.ok(ctl) == sc.Route()  # "Continue"
    settings = sc.Pause(cursor=2).ok(ctl)
    assert isinstance(settings, sc.Settings) and isinstance(settings.back_to, sc.Pause)
    confirm = sc.Pause(cursor=5).ok(ctl)  # "End game": asked first, nothing ended yet
    assert isinstance(confirm, sc.Confirm) and ctl.table is not None
    assert confirm.back(ctl) == sc.Route()  # keeping: what the position calls for
    message = sc.Message(title="t", under=pause)
    assert message.ok(ctl) == pause.again()
    assert sc.Message(title="t", under=throwing).ok(ctl) == sc.Route()  # a game's screen


def test_a_refused_action_is_returned_as_its_message_never_shown_behind_the_page(
        tmp_path: Path) -> None:
    ctl = send(controller(tmp_path, ["2"], games=["senet-tait"]), OK, OK, OK)
    throwing = ctl.page
    refused = sc.Lost().ok(ctl)  # a pass while a throw is due: the rules refuse it
    assert isinstance(refused, sc.Message) and sc.is_error(refused.title)
    assert refused.under is throwing  # leaving it shows the throw screen anew
    assert ctl.page is throwing  # the seat showed nothing itself
    ctl.show(refused)  # the controller's one place
    assert on(ctl) is Screen.MESSAGE
