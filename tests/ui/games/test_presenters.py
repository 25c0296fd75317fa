"""Every game's presenter: found by game id, lines that fit any panel width from a
64-pixel to a 128-pixel panel, moves told apart by their steps; and the rules that no
longer know the screen (issue 16: the screen's words live in ``companion/ui/games``)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import companion.rules
from companion.ai.cretan_goal import goal_seeking_choice
from companion.rules import (
    PASS,
    Event,
    Phase,
    State,
    UnknownGameError,
    game_ids,
    get_game,
    random_action,
)
from companion.rules.cretan_labyrinth import CretanLabyrinthState
from companion.rules.labyrinth import EV_START_THROW, EV_START_TIE
from companion.ui.games import MIN_WIDTH, Presenter, presenter_for
from companion.ui.games.cretan_labyrinth import CretanLabyrinthPresenter
from companion.ui.games.labyrinth import LabyrinthPresenter
from companion.ui.games.senet_sticks import SenetSticksPresenter
from companion.ui.games.senet_tait import SenetTaitPresenter
from companion.ui.render import columns

RULES = Path(companion.rules.__file__).parent
TESTS = Path(__file__).parents[2]
WIDTHS = (columns(128), 16, MIN_WIDTH)
"""The 128-pixel panel (21 characters), a narrower one, and the narrowest served (10)."""
OWN_STEPS = {"senet-sticks"}
"""Games whose presenter makes its own step labels (the others show the notation)."""


def test_each_game_finds_its_presenter_and_senet_tait_the_default() -> None:
    senet = presenter_for("senet-tait", 21)  # the default screens, its own option labels
    assert isinstance(senet, SenetTaitPresenter) and type(senet).status_lines is Presenter.status_lines
    assert isinstance(presenter_for("labyrinth", 21), LabyrinthPresenter)
    assert isinstance(presenter_for("senet-sticks", 21), SenetSticksPresenter)
    assert isinstance(presenter_for("cretan-labyrinth", 16), CretanLabyrinthPresenter)
    assert presenter_for("cretan-labyrinth", 16).width == 16
    assert type(presenter_for("", 21)) is Presenter  # no game in play yet


def test_an_unknown_game_or_a_panel_too_narrow_is_refused_with_a_reason() -> None:
    with pytest.raises(UnknownGameError, match="unknown game 'senet'; games: senet-tait, "):
        presenter_for("senet", 21)
    with pytest.raises(ValueError, match=f"at least {MIN_WIDTH} characters a line, got 9"):
        presenter_for("labyrinth", 9)


def test_the_default_presenter_is_the_old_default_of_every_game() -> None:
    shown = presenter_for("senet-tait", 21)
    state = get_game("senet-tait").new_state()
    assert shown.status_lines(state) == [] and shown.status_brief(state) == []
    assert shown.prompt(state) == ""
    state.apply(state.throw_outcomes()[0][0])
    assert [shown.choice_steps(state, m) for m in state.legal_moves()] == [
        (m.notation,) for m in state.legal_moves()
    ]
    assert shown.routine(Event("moved", 0, "White moves 10 to 13"))
    assert not shown.routine(Event("bumped", 1, "Black's piece on 13 goes back"))


def test_a_labyrinth_start_throw_is_routine_a_tie_and_the_starter_are_not() -> None:
    """docs/rules/labyrinth.md: 'A start throw is an ordinary throw event (it does not
    stop on the events screen); a tie and the starter do.' The rules keep the event's
    own kind; the presenter decides."""
    state = get_game("labyrinth").new_state(2)
    first = state.apply(state.throw_outcomes()[2][0])  # Red throws 3
    second = state.apply(state.throw_outcomes()[2][0])  # Blue throws 3: a tie
    assert [e.kind for e in first] == [EV_START_THROW]
    assert [e.kind for e in second] == [EV_START_THROW, EV_START_TIE]
    shown = presenter_for("labyrinth", 21)
    assert shown.routine(first[0]) and not shown.routine(second[1])
    assert not presenter_for("senet-tait", 21).routine(first[0])


def _check(shown: Presenter, state: State, game_id: str) -> None:
    """Every text of ``state`` fits ``shown.width``; distinct moves, distinct steps."""
    width = shown.width
    for line in (*shown.status_lines(state), *shown.status_brief(state), shown.prompt(state)):
        assert len(line) <= width, (width, line)
    if game_id == "cretan-labyrinth":
        assert len(shown.status_brief(state)) <= 3
    moves = state.legal_moves()
    steps = [shown.choice_steps(state, m) for m in moves]
    assert len(set(steps)) == len(steps), (width, steps)
    if game_id in OWN_STEPS:
        assert all(0 < len(label) < width for labels in steps for label in labels), (width, steps)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("game_id", game_ids())
def test_every_text_fits_the_width_in_whole_games(game_id: str, width: int) -> None:
    """At 21 characters and narrower: status lines, the throw screen's lines and the
    question never run past the width, in whole games (4 players where the game
    allows; the Cretan Labyrinth played by the goal-seeking player, which reaches the
    key, battles and cards)."""
    shown = presenter_for(game_id, width)
    options = {"round_limit": 60} if game_id == "cretan-labyrinth" else {}
    game = get_game(game_id, **options)
    for seed in range(2):
        state = game.new_state(game.max_players if seed else game.min_players)
        rng = random.Random(seed)
        while state.phase is not Phase.OVER:
            _check(shown, state, game_id)
            if state.throw_spec is None and isinstance(state, CretanLabyrinthState):
                moves = state.legal_moves()
                state.apply(moves[goal_seeking_choice(state, moves)])
            else:
                state.apply(random_action(state, rng.randrange))
        _check(shown, state, game_id)


def _offending(path: Path, pattern: str) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return [f"{path.name}:{n}: {line.strip()}"
            for n, line in enumerate(text.splitlines(), 1) if re.search(pattern, line)]


def test_no_rules_module_knows_the_screen_width() -> None:
    """The rules keep facts; the width of a line is the renderer's (issue 16). No 21
    (the 128-pixel panel's characters), no LINE constant, no import of the screens."""
    found: list[str] = []
    for path in sorted(RULES.rglob("*.py")):
        found += _offending(path, r"(?<![\w.])21(?![\w.])")
        found += _offending(path, r"(?<![\w:])LINE\b(?!:)")
        # (a game names its UI entry and its event words as strings,
        # ``presenter = "companion.ui...:Class"``, which only the UI imports)
        found += [line for line in _offending(path, r"companion\.(ui|app|sim)\b")
                  if not re.search(r': (presenter|words) = "[\w.]+:\w+"$', line)]
    assert found == []


def test_the_rules_tests_do_not_import_the_simulator() -> None:
    found: list[str] = []
    for path in sorted((TESTS / "rules").rglob("*.py")):
        found += _offending(path, r"companion\.sim\b")
    assert found == []


def test_every_option_offered_at_setup_has_a_label_that_fits_with_its_value() -> None:
    """Setup rows read ``House of Beauty: onto``: a short label and the whole value,
    one 21-character row for every choice of every option."""
    from companion.rules import game_class, game_ids

    for game_id in game_ids():
        presenter = presenter_for(game_id, 21)
        for option in game_class(game_id).options:
            values = option.choices or ((True, False) if isinstance(option.default, bool) else ())
            for value in values:
                row = f"{presenter.option_label(option)}: {presenter.option_value(option, value)}"
                # The weapon table's values are its columns' names: the row above the menu
                # shows them whole.
                assert len(row) <= 21 or option.name == "weapon-columns", row


def test_a_lost_throw_says_why_in_the_game_s_words() -> None:
    """Tait: 'New pieces can be placed on the board on a throw of four or six'; the
    Labyrinth's pieces enter on a 1 (the board's entry value)."""
    tait = get_game("senet-tait").new_state()
    tait.apply(tait.throw_outcomes()[1][0])          # a throw of 1: nothing on the board
    assert list(tait.legal_moves()) == [PASS]
    assert presenter_for("senet-tait", 21).lost_reason(tait) == "A piece enters only on a 4 or a 6."
    for game_id in ("labyrinth", "senet-sticks", "cretan-labyrinth"):
        assert presenter_for(game_id, 21).lost_reason(get_game(game_id).new_state())
