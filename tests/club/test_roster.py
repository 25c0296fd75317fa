"""Players are people (issue 33): the club's roster (``companion club roster``), sent
to the boxes as a retained message, kept by the box's publisher in ``roster.json`` for
the seat screen (:func:`companion.journal.roster.load_roster`); a game whose seats
name people carries the names into its journal, its result and the club's ratings
(per person and per game; a seat no one named stays the game's colour). The end to
end test runs a real mosquitto with the protocol's ACL; skipped when it is missing."""

from __future__ import annotations

import json
import logging
import os
import time
from pathlib import Path
from typing import Any

import pytest
from broker import BrokerFactory, Listener, acl_for_club
from games import play
from tables import PublishProcess, RealClub, Table, club_config, no_fsync

from companion.cli import main
from companion.club import protocol
from companion.club.page import seat_word
from companion.club.store import ClubStore, compute_ratings
from companion.journal import roster as roster_file
from companion.journal.names import MAX_NAME
from companion.journal.roster import load_roster, save_roster
from companion.journal.store import load

pytest_plugins = ["broker"]  # its fixtures: make_broker, tls_files

PREFIX = protocol.DEFAULT_PREFIX
USERS = {"club": "club-secret", "t1": "t1-secret"}


# ---------------------------------------------------------------- the box's file


def test_a_roster_written_is_read_back_clean(tmp_path: Path) -> None:
    path = tmp_path / "state" / "roster.json"
    kept = save_roster(path, ["Anna", "\u202eBen\u202c", "anna", "", "\x00", 7, "C" * 50])
    assert kept == ("Anna", "Ben", "C" * (MAX_NAME - 1) + "\u2026")
    assert load_roster(path) == kept
    assert not list(path.parent.glob("*.tmp"))  # written at once


@pytest.mark.parametrize(("content", "says"), [
    (None, "no club roster"),
    (b"{not json", "damaged"),
    (b'{"format": "something else", "names": ["A"]}', "damaged"),
    (b'{"format": "board-companion/roster", "names": "Anna"}', "damaged"),
    (b"\xff\xfe", "damaged"),
    ("dir", "cannot be read"),
])
def test_a_missing_or_damaged_roster_is_empty_and_logged(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, content: bytes | str | None,
        says: str) -> None:
    path = tmp_path / "roster.json"
    if content == "dir":
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    with caplog.at_level(logging.INFO, logger="companion.journal.roster"):
        assert load_roster(path) == ()
    assert says in caplog.text


def test_a_hand_edited_roster_is_cleaned_when_read(tmp_path: Path) -> None:
    path = tmp_path / "roster.json"
    path.write_text(json.dumps({"format": "board-companion/roster", "version": 1,
                                "names": ["Eve\u2067", 3, "  Lyn\n", "EVE"]}))
    assert load_roster(path) == ("Eve", "Lyn")


def test_the_default_path_is_the_publishers_state_folder(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(roster_file, "PUBLISHER_STATE", tmp_path / "missing")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    assert roster_file.default_roster_path() == tmp_path / "xdg" / "board-companion-publish" / "roster.json"
    (tmp_path / "unit").mkdir()
    monkeypatch.setattr(roster_file, "PUBLISHER_STATE", tmp_path / "unit")
    assert roster_file.default_roster_path() == tmp_path / "unit" / "roster.json"


# ---------------------------------------------------------------- the club's roster


def test_the_roster_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "club.sqlite")
    assert main(["club", "roster", "list", "--db", db]) == 2  # no database yet
    assert main(["club", "roster", "add", "Anna", "--db", db]) == 0
    assert main(["club", "roster", "add", "\u202eBen \t Smith", "--db", db]) == 0
    assert main(["club", "roster", "add", "ANNA", "--db", db]) == 1  # there already
    assert main(["club", "roster", "add", "\u202e\u200f", "--db", db]) == 2  # no name left
    assert main(["club", "roster", "add", "x" * (MAX_NAME + 1), "--db", db]) == 2
    capsys.readouterr()
    assert main(["club", "roster", "list", "--db", db]) == 0
    assert capsys.readouterr().out == "Anna\nBen Smith\n"
    assert main(["club", "roster", "remove", "anna", "--db", db]) == 0
    assert main(["club", "roster", "remove", "Zoe", "--db", db]) == 1
    store = ClubStore(db)
    assert store.roster() == ["Ben Smith"]
    store.close()


def test_ratings_are_per_person_and_per_game(tmp_path: Path) -> None:
    """Anna plays Black, then White: one rating of Anna's; a colour no one named stays
    a colour; Anna's Senet rating is not her Labyrinth one."""
    one = play(tmp_path / "a", "senet-tait", 31).result("t1")
    two = play(tmp_path / "b", "senet-tait", 32).result("t1")
    three = play(tmp_path / "c", "labyrinth", 33).result("t1")

    def named(result: dict[str, Any], people: dict[int, str]) -> dict[str, Any]:
        seats: list[dict[str, Any]] = [
            dict(s, **({"person": people[i]} if i in people else {}))
            for i, s in enumerate(result["seats"])]
        return dict(result, seats=seats)

    ratings = compute_ratings([named(one, {0: "Anna", 1: "Ben"}), named(two, {1: "Anna"}),
                               named(three, {0: "\u202eAnna"})])
    senet = {r.player: r for r in ratings["senet-tait"]}
    assert set(senet) == {"Anna", "Ben", "Black"} and senet["Anna"].games == 2
    assert {r.player for r in ratings["labyrinth"]} == {"Anna", "Blue"}
    assert seat_word({"name": "Black", "kind": "human", "level": None,
                      "person": "Anna"}) == "Anna (Black)"


def test_the_page_names_the_person_whose_turn_it_is(tmp_path: Path) -> None:
    from games import states

    from companion.club.server import Club

    live = play(tmp_path / "a", "senet-tait", 35, finish=False, stop_after=3)
    state = list(states(live, "t1"))[-1]
    state["seats"][0]["person"] = "\u202eAnna"
    state["seats"][1]["person"] = "Ben"
    club = Club(ClubStore(":memory:"))
    assert club.receive(protocol.state_topic(PREFIX, "t1"), protocol.encode(state)).kind == "state"
    html = club.live_html()
    assert "Anna (Black), Ben (White)" in html
    turn = {"Black": "Anna (Black)", "White": "Ben (White)"}[state["turn"]]
    assert f"{turn} to play" in html and "\u202e" not in html


def test_a_box_without_a_name_sends_the_result_it_sent_before(tmp_path: Path) -> None:
    """A seat without a person has no "person" key: the ids of unnamed games are as
    before; a named seat's person is part of the result (and of its id)."""
    journal = play(tmp_path / "a", "senet-tait", 34).result("t1")
    assert all("person" not in s for s in journal["seats"])
    loaded = load(play(tmp_path / "b", "senet-tait", 34).path, repair=False)
    named = dict(loaded.header, people={"0": "\u202eAnna  B", "1": ""})
    seats = protocol.seats(named, protocol.names(loaded))
    assert seats[0]["person"] == "Anna B" and "person" not in seats[1]


def test_the_roster_payload_is_checked() -> None:
    good = protocol.roster_payload(["Anna", "Ben"], updated="2026-11-29T03:00:00+00:00")
    assert protocol.validate_roster(protocol.decode(protocol.encode(good)))["names"] == ["Anna", "Ben"]
    for bad in ({"v": 1, "names": "Anna", "updated": good["updated"]},
                {"v": 1, "names": ["x" * (protocol.MAX_PERSON + 1)], "updated": good["updated"]},
                {"v": 1, "names": ["A"] * (protocol.MAX_PEOPLE + 1), "updated": good["updated"]},
                {"v": 2, "names": [], "updated": good["updated"]}, {"v": 1, "names": []}):
        with pytest.raises(protocol.ProtocolError):
            protocol.validate_roster(bad)


# ---------------------------------------------------------------- end to end


@pytest.mark.usefixtures(no_fsync.__name__)
def test_the_roster_reaches_the_box_and_named_seats_reach_the_ratings(
        make_broker: BrokerFactory, tmp_path: Path) -> None:
    broker = make_broker(USERS, acl_for_club(PREFIX, ["t1"]))
    db = tmp_path / "club.sqlite"
    assert main(["club", "roster", "add", "Anna", "--db", str(db)]) == 0
    journals, state = tmp_path / "journals", tmp_path / "publish-state"
    journals.mkdir()
    config = club_config(tmp_path / "club-t1.toml", broker, "t1")
    club = RealClub(broker, db).start()
    publisher = PublishProcess(config, journals, state, tmp_path / "publish.log").start()
    kept = state / "roster.json"
    try:
        publisher.wait_log("club roster of 1 names kept")
        assert load_roster(kept) == ("Anna",)
        # a change by the command, while the club runs, reaches the box (within 2 s)
        assert main(["club", "roster", "add", "\u202eZoë", "--db", str(db)]) == 0
        publisher.wait_log("club roster of 2 names kept")
        assert load_roster(kept) == ("Anna", "Zoë")
        # a box cannot write the roster: the ACL drops it
        box = Listener(broker, "t1", [protocol.roster_topic(PREFIX)])
        box.client.connect("127.0.0.1", broker.port)
        box.client.loop_start()
        assert box.connected.wait(10)
        box.client.publish(protocol.roster_topic(PREFIX), b'{"v":1,"names":["Mallory"],'
                           b'"updated":"2026-11-29T03:00:00+00:00"}', qos=1,
                           retain=True).wait_for_publish(10)
        time.sleep(0.5)
        box.client.loop_stop()
        box.client.disconnect()
        assert load_roster(kept) == ("Anna", "Zoë")
        # a game with Anna at the human seat: her name in the journal, the result, the ratings
        table = Table(journals, seed=5)
        path = table.new_game(people={0: "Anna"})
        assert load(path, repair=False).header["people"] == {"0": "Anna"}
        table.finish()
        publisher.wait_log("stored by the club", timeout=30)
        ratings = club.club.store.ratings()["senet-tait"]
        assert {r.player for r in ratings} == {"Anna", "Computer (normal)"}
        [result] = club.club.store.results()
        assert result["seats"][0]["person"] == "Anna"
        html = club.club.live_html()
        assert "Anna (Black)" in html
    finally:
        assert publisher.stop() == 0
        club.stop()
    assert not os.path.exists(str(kept) + ".tmp")
