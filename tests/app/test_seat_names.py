"""The seat screen picks people of the club's roster (issue 33): a human seat is its
colour or a name of ``roster.json`` (UP/DOWN on the seat's own page, OK takes it), one
name at one seat only; the names reach the journal's header; with no roster (missing,
empty, damaged) the seat screen is as it was."""

from __future__ import annotations

from pathlib import Path

import pytest
from controller_tools import BACK, DOWN, OK, UP, on, send
from walkthroughs import scripted_draw
from walkthroughs.cue_games import Recorder

from companion.app.controller import Controller, Screen
from companion.devices.sources import SOURCE_NAMES
from companion.journal.roster import MAX_BYTES, MAX_PEOPLE, load_roster, save_roster
from companion.journal.store import JournalStore, load


def at_seats(tmp_path: Path, roster: Path | None, speaker: Recorder | None = None) -> Controller:
    """A controller on Senet's seat screen (splash, menu, the setup's "Computer" row)."""
    ctl = Controller(store=JournalStore(tmp_path / "journals"), draw=scripted_draw(["4"]),
                     sources=list(SOURCE_NAMES), source="gpio-shaker", games=["senet-tait"],
                     roster=roster, speaker=speaker)
    ctl.start()
    send(ctl, OK, OK, UP, OK)
    assert on(ctl) is Screen.SEATS
    return ctl


def header(tmp_path: Path) -> dict[str, object]:
    (journal,) = (tmp_path / "journals").glob("*.journal")
    return dict(load(journal, repair=False).header)


@pytest.fixture
def two(tmp_path: Path) -> Path:
    path = tmp_path / "publish" / "roster.json"
    save_roster(path, ["Anna Berg", "Ben"])
    return path


def test_a_name_picked_for_a_seat_is_in_the_journal_header(tmp_path: Path, two: Path) -> None:
    said = Recorder()
    ctl = at_seats(tmp_path, two, said)
    send(ctl, DOWN, OK)                                 # White's seat: who plays it
    view = ctl.view()
    assert on(ctl) is Screen.WHO
    assert view.title == "Who plays White"
    assert view.items == ("White", "Anna Berg", "Ben", "computer easy", "computer normal",
                          "computer strong")
    assert view.cursor == 0                             # the colour: the default
    send(ctl, DOWN, DOWN, OK)                           # Ben
    assert on(ctl) is Screen.SEATS
    assert ctl.view().items == ("Black: person", "White: Ben", "Back")
    assert ctl.view().cursor == 1                       # back on White's row
    send(ctl, BACK, DOWN, OK)                           # the setup, Begin
    assert ctl.state is not None
    assert header(tmp_path)["people"] == {"1": "Ben"}
    assert ctl.table is not None and ctl.table.people == {1: "Ben"}
    assert any(c.text == "Ben plays White." for c in said.said)   # speech says the name
    send(ctl, BACK, DOWN, DOWN, DOWN, OK)               # the pause menu: Game status
    assert ctl.view().lines[0] == "White: Ben"


def test_one_name_cannot_take_two_seats(tmp_path: Path, two: Path) -> None:
    ctl = at_seats(tmp_path, two)
    send(ctl, OK, DOWN, OK)                             # Black: Anna Berg
    assert ctl.view().items[0] == "Black: Anna Berg"
    send(ctl, DOWN, OK)                                 # White's page: Anna is taken
    assert ctl.view().items == ("White", "Ben", "computer easy", "computer normal",
                                "computer strong")
    send(ctl, BACK, UP, OK)                             # Black's page again: on Anna
    assert ctl.view().cursor == 1 and ctl.view().items[1] == "Anna Berg"
    send(ctl, UP, OK, DOWN, OK)                         # Black the colour again; White may take Anna
    assert ctl.view().items[1] == "Anna Berg"


def test_the_computer_chosen_for_a_named_seat_drops_the_name(tmp_path: Path, two: Path) -> None:
    ctl = at_seats(tmp_path, two)
    send(ctl, OK, DOWN, OK)                             # Black: Anna Berg
    send(ctl, OK, DOWN, DOWN, DOWN, OK)                 # Black again: computer normal
    assert ctl.view().items[0] == "Black: computer normal"
    send(ctl, BACK, DOWN, OK)
    first = header(tmp_path)
    assert "people" not in first and first["seats"] == {"0": "normal"}


def test_back_on_the_seats_page_keeps_the_seat(tmp_path: Path, two: Path) -> None:
    ctl = at_seats(tmp_path, two)
    send(ctl, OK, DOWN, DOWN, BACK)
    assert on(ctl) is Screen.SEATS and ctl.view().items[0] == "Black: person"


@pytest.mark.parametrize("content", [None, b"", b"{not json", b'{"format": "other"}',
                                     b'{"format": "board-companion/roster", "names": []}'])
def test_no_roster_leaves_the_seat_screen_as_it_was(tmp_path: Path, content: bytes | None) -> None:
    path = tmp_path / "roster.json"
    if content is not None:
        path.write_bytes(content)
    plain = at_seats(tmp_path / "plain", None)
    ctl = at_seats(tmp_path / "roster", path)
    assert ctl.view() == plain.view()
    send(ctl, OK)                                       # OK still turns the seat in place
    send(plain, OK)
    assert on(ctl) is Screen.SEATS and ctl.view() == plain.view()
    assert ctl.view().items[0] == "Black: computer easy"


def test_a_long_name_is_kept_whole_in_the_row_and_the_journal(tmp_path: Path) -> None:
    path = tmp_path / "roster.json"
    long = "Maximiliane Mustermann-Schmidt"
    save_roster(path, [long])
    ctl = at_seats(tmp_path, path)
    send(ctl, OK, DOWN, OK)
    assert ctl.view().items[0] == f"Black: {long}"     # the renderer fits it (tests/ui/test_no_cut)
    send(ctl, BACK, DOWN, OK)
    assert header(tmp_path)["people"] == {"0": long}


def test_the_roster_read_is_bounded(tmp_path: Path) -> None:
    """The seat screen reads the file when it opens, on the loop's thread: at most
    MAX_BYTES are read and MAX_PEOPLE names kept; a bigger file is no roster."""
    path = tmp_path / "roster.json"
    save_roster(path, [f"Person {i}" for i in range(MAX_PEOPLE + 50)])
    assert len(load_roster(path)) == MAX_PEOPLE
    path.write_bytes(b" " * (MAX_BYTES + 1))
    assert load_roster(path) == ()
