"""A whole four-player Game of the Labyrinth driven only through gpiozero mock pins
(buttons and the shaker), checked against the frames shown and the journal."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from companion.app.controller import Screen
from companion.journal.store import load
from companion.rules import Move, Phase, Throw, get_game
from companion.rules.labyrinth import LabyrinthState
from companion.sim.demo import DemoResult, play
from companion.ui.games import presenter_for
from companion.ui.render import body_lines, columns, render
from companion.ui.view import View, picture_of

SEED = 1
"""A seed whose game has Knight's Orbit rides, Millstone offers and trapped pieces."""
SHOWN = presenter_for("labyrinth", columns(128))

Frames = list[tuple[bytes, str]]
"""Each distinct frame shown (1-bit 128x64 image bytes) with its screen's name."""


@pytest.fixture(scope="module")
def game_played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Frames, DemoResult]:
    """One whole game, played once for the tests of this module (about 3 s)."""
    frames: Frames = []
    result = play(
        tmp_path_factory.mktemp("labyrinth"), seed=SEED, game="labyrinth", players=4,
        on_frame=lambda image, screen: frames.append((image.tobytes(), screen)),
    )
    assert result.journal is not None
    return frames, result


def _shown(frames: Frames, view: View) -> bool:
    want = render(view).tobytes()
    return any(image == want for image, _ in frames)


def test_four_players_are_set_up_with_their_colours(game_played: tuple[Frames, DemoResult]) -> None:
    frames, result = game_played
    screens = [s for _, s in frames]
    assert screens[:3] == ["splash", "menu", "menu"] and "setup" in screens
    setup = View(
        "setup", "Game of the Labyrinth (Peter Aleff)", ("Red, Blue, Green, Yellow",),
        items=("Players: 4", "1+1 enters two: yes", "Tunnel then ride: yes",
               "At 52: trap first", "Begin"),
        cursor=0, hint="OK: change",
    )
    assert _shown(frames, setup)
    loaded = load(_path(result))
    assert loaded.players == 4 and loaded.game.id == "labyrinth"
    assert {r["by"] for r in loaded.records} == {"Red", "Blue", "Green", "Yellow"}
    # who starts: one die each, in seat order, before the first throw of two dice
    first_two = next(i for i, a in enumerate(loaded.actions)
                     if isinstance(a, Throw) and len(a.values) == 2)
    starts = loaded.records[:first_two]
    assert [r["by"] for r in starts[:4]] == ["Red", "Blue", "Green", "Yellow"]
    assert all(len(r["throw"]["faces"]) == 1 for r in starts)
    assert starts[-1]["events"][-1]["kind"] == "starts"  # the journal keeps events as data


def test_the_journal_replays_to_the_final_position_and_the_winner_is_shown(
    game_played: tuple[Frames, DemoResult],
) -> None:
    frames, result = game_played
    assert frames[-1][1] == "over"
    loaded = load(_path(result))
    assert loaded.ended and loaded.damage is None
    state = loaded.state
    assert state.phase is Phase.OVER and state.outcome is not None
    (winner,) = state.outcome.winners
    name = state.game.player_name(winner, 4)
    assert result.winner == name
    assert state.to_dict()["pieces"][name.lower()] == ["off"] * 4
    # a fresh replay of the recorded actions gives the very same position
    fresh = get_game("labyrinth").new_state(4)
    for action in loaded.actions:
        fresh.apply(action)
    assert fresh.to_dict() == state.to_dict()
    last_frame = Image.frombytes("1", (128, 64), frames[-1][0])
    want = render(View("over", "Game over", (f"{name} wins!", "all four pieces borne off")))
    assert last_frame.crop((0, 0, 128, 26)).tobytes() == want.crop((0, 0, 128, 26)).tobytes()
    assert result.record[-1] == f"winner: {name} (all four pieces borne off)"


def test_the_orbit_and_millstone_questions_and_the_free_die_are_shown(
    game_played: tuple[Frames, DemoResult],
) -> None:
    """Every DECIDE of the game was shown as the game's question above its yes/no answers,
    with the dice that brought the piece there; a ride's free die came from the shaker."""
    frames, result = game_played
    loaded = load(_path(result))
    state = get_game("labyrinth").new_state(4)
    picture = None
    asked: set[str] = set()
    rides = 0
    for action in loaded.actions:
        if isinstance(action, Throw):
            spec = state.throw_spec
            assert spec is not None
            if SHOWN.status_lines(state)[:1] == ["Free die for a ride"]:
                rides += 1
                assert spec.id == "1d6"
            picture = picture_of(action, spec)
        elif state.phase is Phase.DECIDE:
            question = SHOWN.prompt(state)
            asked.add(question)
            name = state.player_to_act_name
            view = View("moves", f"{name} decides", (question,),
                        items=tuple(m.notation for m in state.legal_moves()),
                        cursor=0, picture=picture, hint="OK: choose BACK: menu")
            assert _shown(frames, view), (name, question, view.items)
        state.apply(action)
    assert asked == {"Ride Knight's Orbit?", "Cross the Millstone?"}
    assert rides > 0
    moves = [a for a in loaded.actions if isinstance(a, Move)]
    assert any(m.notation.startswith("ride from ") for m in moves)


def test_trapped_pieces_show_their_turns_while_a_throw_is_due(
    game_played: tuple[Frames, DemoResult],
) -> None:
    """The throw screen shows, under the player to throw and the dice, the game's status
    lines: each trapped piece with the turns it still loses."""
    frames, result = game_played
    loaded = load(_path(result))
    assert any(e["kind"] == "trapped" for r in loaded.records for e in r["events"])
    throw_frames = [image for image, screen in frames if screen == Screen.THROW.value]
    state = get_game("labyrinth").new_state(4)
    assert isinstance(state, LabyrinthState)
    seen = 0
    for action in loaded.actions:
        spec = state.throw_spec
        if spec is not None and state.trapped():
            lines = SHOWN.status_lines(state)
            p, field, turns = state.trapped()[0]
            assert f"{state.game.player_name(p, 4)} on {field} loses {turns}" in lines
            view = View("throw", "Game of the Labyrinth (Peter Aleff)",
                        (f"{state.player_to_act_name} to throw: shake!", f"({spec.describe()})",
                         *lines), hint="hold BACK: undo")
            rows = len(body_lines(view, 128))
            if rows <= 5:  # the screen's text rows; the last move may follow below
                box = (0, 0, 120, 10 + 8 * rows)
                want = render(view).crop(box).tobytes()
                assert any(Image.frombytes("1", (128, 64), image).crop(box).tobytes() == want
                           for image in throw_frames), lines
                seen += 1
        state.apply(action)
    assert seen > 0


def _path(result: DemoResult) -> Path:
    assert result.journal is not None
    return result.journal
