"""The club's SQLite store and its ratings (companion/club/store.py): a result twice is
one, the ratings depend on the results and not on the order they arrived in, a computer
seat is rated as "Computer (level)", and everything survives a restart."""

from __future__ import annotations

import itertools
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from games import play

from companion.club.store import ClubStore, compute_ratings, rating_name, utc


def result(rid: str, ended: str, winner: str | None, *, game: str = "senet-tait",
           seats: list[dict[str, Any]] | None = None, table: str = "t1") -> dict[str, Any]:
    """A result payload as far as the store reads it (its shape; no replay here)."""
    return {"v": 1, "id": rid, "table": table, "game": game, "players": 2, "options": {},
            "seats": seats or [{"name": "Black", "kind": "human", "level": None},
                               {"name": "White", "kind": "human", "level": None}],
            "winner": winner, "moves": 0, "started": ended, "ended": ended, "actions": []}


def test_a_result_received_twice_is_stored_once(tmp_path: Path) -> None:
    played = play(tmp_path / "journals", "senet-sticks", 1)
    payload = played.result("t1")
    store = ClubStore(tmp_path / "club.sqlite")
    assert store.add_result(payload) is True
    assert store.add_result(payload) is False
    assert store.add_result({**payload, "table": "t2"}) is False  # the first copy is kept
    assert store.count() == 1
    assert store.results() == [payload]


def test_results_and_tables_survive_a_restart_and_the_file_is_in_wal_mode(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite"
    store = ClubStore(db)
    store.add_result(result("a" * 20, "2026-11-26T02:00:00+00:00", "Black"))
    store.set_table("t1", {"v": 1, "status": "playing"})
    store.set_table("t2", {"v": 1, "status": "playing"})
    store.set_table("t2", None)  # the box switched to no game
    store.close()
    again = ClubStore(db)
    assert again.result_ids() == ["a" * 20]
    assert [(t.table, t.payload) for t in again.tables()] == [
        ("t1", {"v": 1, "status": "playing"}), ("t2", None)]
    with sqlite3.connect(db) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_ratings_do_not_depend_on_the_order_results_arrived_in(tmp_path: Path) -> None:
    # Two results ending at the same instant written with different offsets: the order
    # is the instant (UTC), then the id.
    results = [
        result("1" * 20, "2026-11-26T03:00:00+01:00", "White"),  # 02:00 UTC
        result("2" * 20, "2026-11-26T02:30:00+00:00", "Black"),
        result("0" * 20, "2026-11-26T02:00:00+00:00", "Black"),  # 02:00 UTC too: first
        result("3" * 20, "2026-11-26T04:00:00+00:00", "Black"),
    ]
    seen = set()
    for order in itertools.permutations(results):
        store = ClubStore(":memory:")
        for r in order:
            store.add_result(r)
        seen.add(repr(store.ratings()))
        assert store.result_ids() == ["0" * 20, "1" * 20, "2" * 20, "3" * 20]
    assert len(seen) == 1
    # ... and the order matters to the figures (a rating follows the sequence of games):
    forward = compute_ratings(sorted(results, key=lambda r: (utc(r["ended"]), r["id"])))
    backward = compute_ratings(sorted(results, key=lambda r: (utc(r["ended"]), r["id"]),
                                      reverse=True))
    assert forward != backward


def test_the_winner_gains_and_the_uncertainty_shrinks() -> None:
    ratings = compute_ratings([result("1" * 20, "2026-11-26T02:00:00+00:00", "Black")])
    black, white = ratings["senet-tait"]
    assert (black.player, white.player) == ("Black", "White")
    assert black.mu > 25 > white.mu
    assert black.sigma < 25 / 3 and white.sigma < 25 / 3
    assert black.ordinal == pytest.approx(black.mu - 3 * black.sigma)
    assert (black.games, black.wins, white.games, white.wins) == (1, 1, 1, 0)


def test_each_game_has_its_own_ratings_and_computer_seats_are_rated_by_level() -> None:
    computer = {"name": "White", "kind": "computer", "level": "strong"}
    human = {"name": "Black", "kind": "human", "level": None}
    ratings = compute_ratings([
        result("1" * 20, "2026-11-26T02:00:00+00:00", "White", seats=[human, computer]),
        result("2" * 20, "2026-11-26T02:10:00+00:00", "Blue", game="senet-sticks",
               seats=[{"name": "Red", "kind": "human", "level": None},
                      {"name": "Blue", "kind": "human", "level": None}]),
        # the computer against itself at one level: nothing to learn, not rated
        result("3" * 20, "2026-11-26T02:20:00+00:00", "White",
               seats=[{**computer, "name": "Black"}, computer]),
    ])
    assert sorted(ratings) == ["senet-sticks", "senet-tait"]
    tait = {r.player: r for r in ratings["senet-tait"]}
    assert set(tait) == {"Black", "Computer (strong)"}
    assert tait["Computer (strong)"].games == 1 and tait["Computer (strong)"].wins == 1
    assert [r.player for r in ratings["senet-sticks"]] == ["Blue", "Red"]
    assert rating_name(computer) == "Computer (strong)"
    assert rating_name(human) == "Black"


def test_a_shared_win_ranks_every_seat_equal() -> None:
    ratings = compute_ratings([result("1" * 20, "2026-11-26T02:00:00+00:00", None)])
    black, white = sorted(ratings["senet-tait"], key=lambda r: r.player)
    assert black.mu == pytest.approx(white.mu)
    assert black.wins == white.wins == 0


def test_ratings_are_computed_again_only_after_a_new_result() -> None:
    store = ClubStore(":memory:")
    store.add_result(result("1" * 20, "2026-11-26T02:00:00+00:00", "Black"))
    first = store.ratings()
    assert store.ratings() is first  # nothing new: the same object
    store.add_result(result("1" * 20, "2026-11-26T02:00:00+00:00", "Black"))  # a duplicate
    assert store.ratings() is first
    store.add_result(result("2" * 20, "2026-11-26T02:05:00+00:00", "White"))
    assert store.ratings() is not first
    assert store.ratings()["senet-tait"][0].games == 2


def test_a_file_that_is_not_a_database_is_refused_with_its_name(tmp_path: Path) -> None:
    from companion.club.store import StoreError

    bad = tmp_path / "club.sqlite"
    bad.write_bytes(b"not a database at all, just some bytes" * 100)
    with pytest.raises(StoreError, match=r"club\.sqlite"):
        ClubStore(bad)


@pytest.mark.parametrize("order", ["taken-back first", "played-on first"])
def test_a_win_taken_back_and_played_on_is_one_result_the_last(tmp_path: Path, order: str) -> None:
    """A winning move taken back and the game played on: the box sends a second result
    of the same journal (same table, game, start); the one with more moves stands, the
    first is kept but neither shown nor rated, whatever order they arrive in."""
    start = "2026-11-26T02:00:00+00:00"
    first = result("a" * 20, "2026-11-26T02:30:00+00:00", "Black") | {"started": start, "moves": 40}
    final = result("b" * 20, "2026-11-26T02:45:00+00:00", "White") | {"started": start, "moves": 47}
    other = result("c" * 20, "2026-11-26T03:00:00+00:00", "White")  # another game
    store = ClubStore(tmp_path / "club.sqlite")
    for payload in ([first, final] if order == "taken-back first" else [final, first]) + [other]:
        assert store.add_result(payload) is True
    assert [r["id"] for r in store.results()] == ["c" * 20, "b" * 20]
    assert store.count() == 2 and store.superseded() == {"a" * 20: "b" * 20}
    [black, white] = sorted(store.ratings()["senet-tait"], key=lambda r: r.player)
    assert (black.games, black.wins, white.games, white.wins) == (2, 0, 2, 2)
    store.close()
    assert ClubStore(tmp_path / "club.sqlite").superseded() == {"a" * 20: "b" * 20}


def test_a_database_of_the_version_before_gains_the_new_columns(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite"
    with sqlite3.connect(db) as raw:
        raw.executescript("CREATE TABLE results (id TEXT PRIMARY KEY, table_name TEXT NOT NULL, "
                          "game TEXT NOT NULL, ended_utc TEXT NOT NULL, payload TEXT NOT NULL, "
                          "received REAL NOT NULL);")
    store = ClubStore(db)
    assert store.add_result(result("d" * 20, "2026-11-26T02:00:00+00:00", "Black")) is True
    assert store.count() == 1
