"""The cues: every event kind of every game has its own sentence, a whole scripted game
of each game is said from its first turn to its winner, in plain words (no screen
notation), the computer's moves are said as instructions, and a held OK says the last
cues again."""

from __future__ import annotations

import logging
import random
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest
from walkthroughs.cue_games import GAMES, HOLD_OK, play_whole_game

from companion.i18n import set_language
from companion.rules import PASS, Event, Phase, get_game, random_action
from companion.speech import CueKind
from companion.speech.cues import Voice, cues_for, voice_for
from companion.ui.events import words_for
from companion.ui.games import presenter_for

SCREEN_NOTATION = re.compile(
    r"\d\s*-\s*\d"          # 4-10, 27-off's cousins
    r"|-off\b|->|=>"        # bearing off and arrows
    r"|[\[\]()]"            # [2+2], (3), the screen's brackets
    r"|\d\+\d"              # 2+3, a throw's caption
    r"|\bP\d\b"             # P1: the Cretan short name
    r"|\bgate\d|\b[a-l]\d{1,2}\b"  # Cretan squares in the board file's notation
    r"|\bx\d|\bpl\.|\bsq\.|\bfld\b"  # counts and abbreviations of narrow lines
)
"""What the screens write and an ear should never hear."""


@pytest.fixture(autouse=True)
def english() -> None:
    set_language("en")


def rules_modules(game_id: str) -> list[ModuleType]:
    """The modules of a game's rules: its Game class's and its State class's, and of a
    game that is a package (``companion.rules.senet_sticks``) every module of it."""
    game = get_game(game_id)
    names = [type(game).__module__, type(game.new_state()).__module__]
    out = {name: sys.modules[name] for name in names}
    for name in names:
        package = name.rpartition(".")[0]
        if package != "companion.rules":
            out |= {n: m for n, m in list(sys.modules.items()) if n == package or n.startswith(package + ".")}
    return list(out.values())


def event_kinds(game_id: str) -> set[str]:
    """Every event kind a game's rules name (its own ``EV_*`` and the core's it uses)."""
    kinds: set[str] = set()
    for module in rules_modules(game_id):
        kinds |= {v for k, v in vars(module).items() if k.startswith("EV_") and isinstance(v, str)}
    return kinds


@pytest.mark.parametrize("game_id", GAMES)
def test_every_event_kind_of_every_game_has_a_cue(game_id: str) -> None:
    voice = voice_for(game_id)
    assert type(voice) is not Voice, "the game names its own voice"
    kinds = event_kinds(game_id)
    assert len(kinds) >= 9
    words = type(words_for(get_game(game_id).new_state()))
    # a kind the voice has no sentence of its own for is said in the screen's words
    missing = sorted(k for k in kinds if not voice.has_cue(k)
                     and not callable(getattr(words, "on_" + k.replace("-", "_"), None)))
    assert not missing, f"{game_id}: no cue for the event kinds {missing}"


def test_a_kind_without_a_cue_is_found() -> None:
    """The walk above would see a missing one: the default voice lacks a game's own kinds."""
    assert not Voice().has_cue("orbit-offer")
    assert Voice().has_cue("moved")


@pytest.mark.parametrize("game_id", GAMES)
def test_random_games_say_every_event_in_the_voices_own_words(
        game_id: str, caplog: pytest.LogCaptureFixture) -> None:
    """Ten random games of the rules alone: every event is read by its voice (none falls
    back to the rules' sentence), every cue and every computer instruction is free of
    screen notation, and every game ends with its winner said."""
    voice, presenter = voice_for(game_id), presenter_for(game_id, 21)
    options = {"round-limit": 30} if game_id == "cretan-labyrinth" else {}
    seen: set[str] = set()
    for seed in range(10):
        state = get_game(game_id, **options).new_state()
        rng = random.Random(seed)
        last: list[str] = []
        while state.phase is not Phase.OVER:
            if state.phase in (Phase.MOVE, Phase.DECIDE):
                for move in state.legal_moves():
                    if move != PASS:
                        said = voice.computer_move(state, move)
                        assert said.startswith("Computer: ")
                        assert not SCREEN_NOTATION.search(said), said
            action = random_action(state, rng.randrange)
            after = state.copy()
            events = after.apply(action)
            seen |= {e.kind for e in events}
            why = presenter.lost_reason(after) if (
                after.phase is Phase.MOVE and tuple(after.legal_moves()) == (PASS,)) else ""
            cues = cues_for(voice, state, action, events, after, why=why)
            for cue in cues:
                assert cue.text and not SCREEN_NOTATION.search(cue.text), cue.text
            last = [c.text for c in cues if c.kind is CueKind.WINNER] or last
            state = after
        assert last, f"{game_id} seed {seed}: the winner was not said"
    assert "rules' words" not in caplog.text
    assert seen <= event_kinds(game_id)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_whole_scripted_game_is_said_from_the_first_turn_to_the_winner(
        tmp_path: Path, game_id: str, caplog: pytest.LogCaptureFixture) -> None:
    """The real controller plays a whole game (every seat the computer, the players
    pressing OK): the speaker hears whose turn it is first, every throw, every computer
    move as an instruction, and the winner last, all in plain English words."""
    ctl, speaker = play_whole_game(tmp_path, game_id)
    said = speaker.said
    kinds = [c.kind for c in said]
    assert kinds[0] is CueKind.TURN and said[0].text.endswith(" to throw")
    assert kinds[-1] is CueKind.WINNER and said[-1].text.endswith("!")
    state = ctl.position
    assert state.outcome is not None
    winner = state.game.player_name(state.outcome.winners[0], state.players)
    assert winner in said[-1].text
    throws = sum(1 for a in state.history if type(a).__name__ == "Throw")
    throw_cues = sum(1 for c in said if c.kind is CueKind.THROW or " throws " in c.text
                     or " casts " in c.text or " draws" in c.text or " rides " in c.text)
    assert throw_cues >= throws * 0.9, (throw_cues, throws)  # a start tie is said once for two
    assert any(c.text.startswith("Computer: ") for c in said)
    for cue in said:
        assert not SCREEN_NOTATION.search(cue.text), cue.text
        assert cue.text.isprintable() and len(cue.text) < 300
    assert "rules' words" not in caplog.text


def test_held_ok_says_the_last_cues_again(tmp_path: Path) -> None:
    ctl, speaker = play_whole_game(tmp_path, "senet-tait")
    assert speaker.repeats == 0
    ctl.handle(HOLD_OK)
    assert speaker.repeats == 1
    assert ctl.screen.value == "over"  # the hold changed nothing else


def test_the_computer_move_is_said_once_as_an_instruction(tmp_path: Path) -> None:
    """Its move is said when shown ("Computer: move the piece on 4 to 7"), not again
    when the players confirm it."""
    _, speaker = play_whole_game(tmp_path, "senet-tait")
    texts = [c.text for c in speaker.said]
    assert any(re.fullmatch(r"Computer: move the piece on \d+ to \d+.*", t) for t in texts)
    assert not any(re.fullmatch(r"(Black|White) moves from \d+ to \d+.*", t) for t in texts)


@pytest.mark.parametrize("game_id", GAMES)
def test_whose_turn_it_is_comes_before_that_players_throw(tmp_path: Path, game_id: str) -> None:
    """The new turn is said after what ended the turn before and before anything of the
    new one: the cue after "Red to throw" is Red's throw. The cues of one event go to the
    speaker in one call (so that "say it again" repeats them all)."""
    _ctl, speaker = play_whole_game(tmp_path, game_id)
    said = speaker.said
    for i, cue in enumerate(said[:-1]):
        if cue.kind is CueKind.TURN:
            player = re.match(r"(Player \d+|\w+)", cue.text).group(1)  # type: ignore[union-attr]
            assert said[i + 1].text.startswith(player), (cue.text, said[i + 1].text)
    assert sum(len(b) for b in speaker.batches) == len(said)


def test_a_lost_throw_is_said_with_the_throw_and_why() -> None:
    """Senet (Tait): a throw of 1 with every piece on its plinth is lost; the reason is
    said with the throw, and the pass says no more than whose turn it is."""
    game = get_game("senet-tait")
    state = game.new_state()
    voice, presenter = voice_for("senet-tait"), presenter_for("senet-tait", 21)
    throw = state.throw_spec.parse("1")  # type: ignore[union-attr]
    after = state.copy()
    events = after.apply(throw)
    cues = cues_for(voice, state, throw, events, after, why=presenter.lost_reason(after))
    assert [c.text for c in cues] == [
        "Black throws 1, 1 light side up",
        "Black's throw is lost. A piece enters only on a 4 or a 6.",
    ]
    passed = after.copy()
    cues = cues_for(voice, after, PASS, passed.apply(PASS), passed)
    assert [(c.kind, c.text) for c in cues] == [(CueKind.TURN, "White to throw")]


def test_senet_squares_and_houses_are_said_by_name() -> None:
    state = get_game("senet-tait").new_state()
    voice = voice_for("senet-tait")
    from companion.speech.cues import Said

    said = Said(state, None, state)
    assert voice.event(said, Event("moved", 0, 24, 26)) == (
        "Black moves from 24 to 26, the House of Beauty")
    assert voice.event(said, Event("drowned", 1, 27, None)) == (
        "White's piece drowns in the House of Water and goes back to its plinth")


def test_the_minotaurs_out_reading_is_said_in_the_voices_own_words(caplog: pytest.LogCaptureFixture) -> None:
    """The Cretan Labyrinth's option ``minotaur=out`` (D30): a player leaving the game, the
    Magic Key going back to the palace and the last one left winning are each said from
    the events' data, in words."""
    from companion.rules.core import EV_WON
    from companion.rules.cretan_labyrinth import EV_KEY, EV_OUT
    from companion.speech.cues import Said

    state = get_game("cretan-labyrinth", minotaur="out").new_state(3)
    voice = voice_for("cretan-labyrinth")
    said = Said(state, None, state)
    events = [Event(EV_OUT, 0), Event(EV_KEY, 0, args={"what": "back"}), Event(EV_WON, 2, args={"what": "last-left"})]
    with caplog.at_level(logging.WARNING):
        texts = [voice.event(said, e) for e in events]
    assert texts == ["Player 1 is killed and leaves the game", "The Magic Key goes back to the palace",
                     "Player 3 is the last one left in the labyrinth and wins!"]
    set_language("de")
    assert voice.event(said, events[0]) == "Spieler 1 ist tot und scheidet aus dem Spiel aus"
    assert not caplog.text


def test_a_kind_nobody_words_is_said_by_its_kind_and_logged(caplog: pytest.LogCaptureFixture) -> None:
    """An event kind neither the voice nor the game's words know (a new kind) is still
    said, by its kind, and logged."""
    from companion.speech.cues import Said

    state = get_game("cretan-labyrinth").new_state()
    voice = voice_for("cretan-labyrinth")
    with caplog.at_level(logging.WARNING):
        text = voice.event(Said(state, None, state), Event("new-way", 0))
    assert text == "Player 1: new-way"
    assert "no words for the event kind" in caplog.text


def test_with_speech_on_ok_acts_when_released_and_a_hold_only_repeats(tmp_path: Path) -> None:
    """With speech on a held OK must not also do what OK does (play the move shown), so
    OK acts on its release; a hold says the last cues again and does nothing else.
    Turning speech on with OK is one change, not two (the press acts, the release not)."""
    from walkthroughs import scripted_draw
    from walkthroughs.cue_games import OK, Recorder

    from companion.app.controller import Controller, Screen
    from companion.app.events import ButtonEvent, ButtonName, Press
    from companion.devices.sources import SOURCE_NAMES
    from companion.journal.store import JournalStore

    def on(ctl: Controller) -> Screen:  # a function: the type checker does not narrow it
        return ctl.screen

    short = ButtonEvent(ButtonName.OK, Press.SHORT)
    speaker = Recorder()
    ctl = Controller(store=JournalStore(tmp_path), draw=scripted_draw(["4"]),
                     sources=list(SOURCE_NAMES), source="button", throw_button=False,
                     games=["senet-tait"], speaker=speaker)
    ctl.start()
    for ev in (OK, short, ButtonEvent(ButtonName.UP, Press.PRESSED), OK):  # menu: Settings
        ctl.handle(ev)
    assert on(ctl) is Screen.SETTINGS
    for ev in (ButtonEvent(ButtonName.UP, Press.PRESSED),) * 3:  # the Speech row (two above Back)
        ctl.handle(ev)
    ctl.handle(short)
    ctl.handle(OK)                      # the speech page
    ctl.handle(short)
    assert on(ctl) is Screen.SPEECH
    ctl.handle(OK)                      # speech on (speech off: OK acts when pressed) ...
    ctl.handle(short)                   # ... and its release does not turn it off again
    assert ctl.prefs.speech
    for ev in (ButtonEvent(ButtonName.BACK, Press.SHORT),) * 2:  # settings, the menu
        ctl.handle(ev)
    ctl.handle(OK)
    assert on(ctl) is Screen.MENU    # pressed, not yet released: nothing yet
    ctl.handle(short)
    assert on(ctl) is Screen.SETUP
    ctl.handle(OK)
    ctl.handle(short)                   # Begin: Black to throw (OK throws: no THROW button)
    assert on(ctl) is Screen.THROW
    assert speaker.said[-1].text == "Black to throw"
    ctl.handle(OK)
    ctl.handle(HOLD_OK)                 # held: said again, not thrown
    ctl.handle(short)                   # (a release after a hold is no SHORT; harmless)
    assert speaker.repeats == 1
    assert on(ctl) is Screen.THROW
    ctl.handle(OK)
    ctl.handle(short)                   # released: thrown
    assert on(ctl) is Screen.MOVES
    assert [c.text for c in speaker.batches[-1]] == [
        "Black throws 4, 4 light sides up", "Choose: enter a piece on 4"]


def test_an_undo_and_a_refused_throw_are_said(tmp_path: Path) -> None:
    """Playing by ear, the players also hear what the screen's messages say: a move
    taken back (hold BACK) and a throw the box refused."""
    from walkthroughs import scripted_draw
    from walkthroughs.cue_games import OK, Recorder

    from companion.app.controller import Controller
    from companion.app.events import ButtonEvent, ButtonName, Press, Shaken, ThrowReported
    from companion.devices.sources import SOURCE_NAMES
    from companion.journal.store import JournalStore

    speaker = Recorder()
    ctl = Controller(store=JournalStore(tmp_path / "a"), draw=scripted_draw(["4"]),
                     sources=list(SOURCE_NAMES), source="gpio-shaker", games=["senet-tait"],
                     speaker=speaker)
    ctl.start()
    for ev in (OK, OK, OK, Shaken("gpio-shaker"), OK):  # begin; Black throws 4, enters
        ctl.handle(ev)
    assert [c.text for c in speaker.said][-2:] == ["Black enters a piece on 4", "White to throw"]
    ctl.handle(ButtonEvent(ButtonName.BACK, Press.HELD))
    assert [c.text for c in speaker.batches[-1]] == [
        "Black's move is taken back: put the pieces back as they were"]

    speaker = Recorder()
    ctl = Controller(store=JournalStore(tmp_path / "b"), draw=scripted_draw([]),
                     sources=list(SOURCE_NAMES), source="serial-shaker", games=["senet-tait"],
                     speaker=speaker)
    ctl.start()
    for ev in (OK, OK, OK):
        ctl.handle(ev)
    ctl.handle(ThrowReported("serial-shaker", "2d6", ("3", "4")))  # Senet wants sticks
    assert [(c.kind, c.text) for c in speaker.batches[-1]] == [(CueKind.MESSAGE, "Throw rejected")]


def test_the_moves_screen_says_the_highlighted_move(tmp_path: Path) -> None:
    """Playing by ear, a person hears the choices: the moves screen says its highlighted
    move as it comes up and as UP/DOWN move the cursor."""
    from walkthroughs import scripted_draw
    from walkthroughs.cue_games import OK, Recorder

    from companion.app.controller import Controller
    from companion.app.events import ButtonEvent, ButtonName, Press, Shaken
    from companion.devices.sources import SOURCE_NAMES
    from companion.journal.store import JournalStore

    speaker = Recorder()
    ctl = Controller(store=JournalStore(tmp_path), draw=scripted_draw(["4", "1", "6"]),
                     sources=list(SOURCE_NAMES), source="gpio-shaker", games=["senet-tait"],
                     speaker=speaker)
    ctl.start()
    shake = Shaken("gpio-shaker")
    for ev in (OK, OK, OK, shake):  # begin; Black throws 4
        ctl.handle(ev)
    assert [c.text for c in speaker.batches[-1]] == [
        "Black throws 4, 4 light sides up", "Choose: enter a piece on 4"]
    for ev in (OK, shake, OK, shake):  # enters 4; White's 1 is lost; Black throws 6
        ctl.handle(ev)
    assert [c.text for c in speaker.batches[-1]] == [
        "Black throws 6, no light side up", "Choose, 1 of 2: enter a piece on 6"]
    ctl.handle(ButtonEvent(ButtonName.DOWN, Press.PRESSED))
    assert [c.text for c in speaker.batches[-1]] == ["move the piece on 4 to 10"]


@pytest.mark.parametrize("code", ["en", "de"])
@pytest.mark.parametrize("game_id", GAMES)
def test_a_whole_game_can_be_played_by_ear(tmp_path: Path, game_id: str, code: str,
                                           caplog: pytest.LogCaptureFixture) -> None:
    """People who only listen play a whole game to its end, in English and in German:
    every choice they step through is said in words (no notation), as is each throw,
    and the winner last."""
    from walkthroughs.cue_games import german, play_by_ear, speaking

    if code == "de":
        with speaking(german()):
            ctl, speaker = play_by_ear(tmp_path, game_id)
    else:
        ctl, speaker = play_by_ear(tmp_path, game_id)
    said = speaker.said
    choices = [c.text for c in said if c.kind is CueKind.MESSAGE]
    assert any(t.startswith("Choose: " if code == "en" else "Wählen: ") for t in choices)
    # issue 35: a screen with more than one row says which row of how many
    many = re.compile(r"Choose, (\d+) of (\d+): " if code == "en" else r"Wählen, (\d+) von (\d+): ")
    counts = [m for t in choices if (m := many.match(t))]
    assert counts and all(1 <= int(m[1]) <= int(m[2]) and int(m[2]) > 1 for m in counts)
    assert len(set(choices)) > 10
    for cue in said:
        assert not SCREEN_NOTATION.search(cue.text), cue.text
    assert said[-1].kind is CueKind.WINNER
    assert ctl.position.outcome is not None
    assert "rules' words" not in caplog.text


def test_a_labyrinth_move_that_bounces_back_to_its_field_is_said_as_a_bounce() -> None:
    """Seed 000's exact count: a die that carries a piece to the exact-count field and
    back to where it stood is said with the field it turned on, never "from 56 to 56"."""
    game, voice = get_game("labyrinth"), voice_for("labyrinth")
    rng = random.Random(0)
    state = game.new_state(players=2)
    said: dict[str, str] = {}
    while state.outcome is None and len(said) < 3:
        if state.throw_spec is None:
            for move in state.legal_moves():
                if move.kind == "move" and move.src == move.dst:
                    said[move.notation] = voice.move_words(state, move)
        state.apply(random_action(state, rng.randrange))
    assert said, "no bouncing move in the seeded game"
    for notation, words in said.items():
        src = notation.split("-")[0]
        assert not re.search(rf"on field {src} to field {src}\b", words), words
        assert re.fullmatch(rf"move the piece on field {src} (to field \d+ and back to field {src}"
                            rf"|on and back to the same field)", words), words


def test_a_step_is_said_whole_though_the_panel_shows_it_short(tmp_path: Path) -> None:
    """Issue 35: a casting-stick step that ends on a river and takes there is shown "2 to
    15 river, takes" on a 21-column panel, and was said so: whom it takes was lost. The
    ear gets the whole row ("2 to 15 river, takes Blue"); seed 37 reaches such steps."""
    from walkthroughs.cue_games import play_by_ear

    _ctl, speaker = play_by_ear(tmp_path, "senet-sticks", seed=37)
    choices = [c.text for c in speaker.said if c.kind is CueKind.MESSAGE]
    assert not [t for t in choices if re.search(r"river, takes$", t)]
    assert [t for t in choices if re.search(r"river, takes (Red|Blue)$", t)]
