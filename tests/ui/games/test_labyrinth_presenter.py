"""What the Game of the Labyrinth's presenter shows (docs/rules/labyrinth.md, "On the
companion"): who starts so far, trapped pieces, pieces borne off, the dice still to use,
the questions of the Knight's Orbit and the Millstone. The OLED shows 21 characters a
line; a menu item shows 20."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import Phase, get_game, random_action
from companion.rules.labyrinth import Labyrinth, LabyrinthState
from companion.ui.events import words_for
from companion.ui.games import presenter_for
from companion.ui.render import columns

COLOURS = ("red", "blue", "green", "yellow")
LINE = columns(128)
"""Characters a line on the 128-pixel panel (21)."""
SHOWN = presenter_for("labyrinth", LINE)


def game(**options: object) -> Labyrinth:
    g = get_game("labyrinth", **options)
    assert isinstance(g, Labyrinth)
    return g


def position(
    pieces: dict[str, list[Any]], *, to_act: str = "red", dice: list[int] | None = None, players: int = 2,
) -> LabyrinthState:
    """A hand-written position; players not named keep their pieces outside."""
    full = {c: pieces.get(c, ["outside"] * 4) for c in COLOURS[:players]}
    state = game().state_from_dict({
        "format": "board-companion/position", "version": 1, "game": "labyrinth",
        "players": players, "to_act": to_act, "dice": dice, "pieces": full,
    })
    assert isinstance(state, LabyrinthState)
    return state


def notations(state: LabyrinthState) -> list[str]:
    return [m.notation for m in state.legal_moves()]


def play(state: LabyrinthState, *actions: str) -> list[str]:
    """Apply moves (notation) or throws (``"throw 3 5"``) in turn; return all events in
    the screen's words (English: :func:`companion.ui.events.words_for`)."""
    out: list[str] = []
    for action in actions:
        if action.startswith("throw "):
            spec = state.throw_spec
            assert spec is not None, f"no throw due for {action!r}"
            out += words_for(state).all(state.apply(spec.parse(action[6:])))
        else:
            out += words_for(state).all(state.apply(state.parse_move(action)))
    return out


def test_status_lines_tell_who_starts_so_far() -> None:
    state = game().new_state(4)
    assert SHOWN.status_lines(state) == ["Highest die starts."]
    play(state, "throw 3", "throw 5", "throw 5")
    assert SHOWN.status_lines(state) == ["Red 3/Blue 5/Green 5"]
    events = play(state, "throw 5")
    assert "Tie at 5: Blue, Green and Yellow throw again" in events
    assert SHOWN.status_lines(state) == ["Tie: throw again."]
    play(state, "throw 2")
    assert SHOWN.status_lines(state) == ["Blue 2"]


def test_status_lines_show_trapped_pieces_with_their_turns_and_pieces_borne_off() -> None:
    state = position(
        {"red": [{"field": 13, "turns_to_lose": 2}, "off", 20, "outside"],
         "blue": [{"field": 52, "turns_to_lose": 1}, "off", "off", 30],
         "green": ["off", 1, 2, 3]},
        players=3,
    )
    assert SHOWN.status_lines(state) == [
        "Red on 13 loses 2", "Blue on 52 loses 1", "Off: Red 1, Blue 2,", "Green 1",
    ]
    play(state, "throw 4 2", "20-24")
    assert SHOWN.status_lines(state)[0] == "Still to use: 2"
    assert SHOWN.prompt(state) == ""  # no question while moving


def test_the_orbit_ride_is_asked_and_its_free_die_named() -> None:
    state = position({"red": [5, "outside", "outside", "outside"]}, dice=[2, 3])
    play(state, "5-7")
    assert state.phase is Phase.DECIDE
    assert SHOWN.prompt(state) == "Ride Knight's Orbit?"
    assert notations(state) == ["ride from 7", "stay on 7"]
    play(state, "ride from 7")
    assert SHOWN.status_lines(state)[:3] == ["Free die for a ride", "on the Orbit from 7", "Still to use: 3"]
    events = play(state, "throw 1")
    assert events[-1] == "Red still has the 3 of the throw to use"


def test_the_millstone_crossing_is_asked() -> None:
    state = position({"red": [41, "outside", "outside", "outside"]}, dice=[3, 2])
    play(state, "41-44")
    assert SHOWN.prompt(state) == "Cross the Millstone?"
    assert notations(state) == ["cross to 50", "stay on 44"]


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4))
def test_every_text_fits_the_screen_in_random_games(seed: int, players: int) -> None:
    """Status lines and the question fit a 21-character line, every move a 20-character
    menu item, in whole random games."""
    state = game().new_state(players)
    rng = random.Random(seed)
    while state.phase is not Phase.OVER:
        assert all(len(line) <= LINE for line in SHOWN.status_lines(state)), SHOWN.status_lines(state)
        assert len(SHOWN.prompt(state)) <= LINE
        if state.throw_spec is None:
            assert all(len(m.notation) <= LINE - 1 for m in state.legal_moves())
        state.apply(random_action(state, rng.randrange))
