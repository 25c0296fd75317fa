"""The scripted demo: a whole game (Senet, or any registered game) played through the mock pins.

Nothing here calls the controller: a :class:`PinDriver` presses buttons by driving
gpiozero ``MockPin`` levels (pressed = low, the buttons are pulled up) and shakes by
toggling the shaker's pin, exactly as the hardware would. Time is a
:class:`~companion.devices.clock.ManualScheduler` advanced by the driver, so debounce,
hold and the shaker's quiet period behave as on the Pi but take no wall time.

The driver reads the screen as a person would (which screen is up, how many moves the
list has) and picks moves with a seeded random choice (in the Cretan Labyrinth, which
random choices almost never finish, the goal-seeking player's move instead); a move offered in steps (see
:meth:`companion.app.controller.Controller.choices`) is chosen one step at a time,
sometimes with a step back. Throws are drawn with a seed
per action number, so a game interrupted at any point and resumed from its journal
ends exactly as the uninterrupted game.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from PIL import Image

from companion import i18n
from companion.app import config as cfg
from companion.app.controller import Controller, Screen
from companion.app.events import Quit
from companion.app.service import Parts, build, mock_factory
from companion.app.settings import Prefs
from companion.devices.clock import ManualScheduler
from companion.devices.events import ButtonName, SourceName
from companion.journal.store import load, parse_action
from companion.rules import Implement, Move, State, Throw
from companion.ui.events import words_for

GAME = "senet-tait"
SECOND_THOUGHTS = 0.15
"""How often the scripted player takes a step back (BACK) at a step after the first
while choosing a move in steps (never for a move chosen from a flat list)."""
MAX_STEPS = 20_000
"""The driver gives up after this many button presses or shakes (a stuck game is a bug)."""


def seeded_draw(seed: int) -> Callable[[Implement, int], Throw]:
    """Throws that depend only on ``seed`` and the action number."""

    def draw(implement: Implement, n: int) -> Throw:
        return implement.draw(random.Random(f"{seed}/throw/{n}").randrange)

    return draw


def demo_config(journal_dir: Path, **overrides: Any) -> dict[str, Any]:
    """The default configuration with mock hardware, the noop display and the GPIO shaker."""
    values = cfg.defaults()
    values.update({
        "hardware": "mock",
        "display.backend": "noop",
        "journal.dir": str(journal_dir),
        "throw.source": SourceName.GPIO_SHAKER.value,
    })
    values.update(overrides)
    cfg.check(values, "demo")
    return values


class PinDriver:
    """Presses buttons and shakes the shaker through ``MockPin`` objects, advancing the
    virtual clock of ``parts.scheduler`` (which must be a ManualScheduler)."""

    def __init__(self, parts: Parts) -> None:
        sched = parts.scheduler
        assert isinstance(sched, ManualScheduler)
        self.sched = sched
        self.parts = parts
        self.factory = parts.pin_factory
        conf = parts.config
        self.debounce = float(conf["buttons.debounce"])
        self.hold = float(conf["buttons.hold"])
        self.quiet = float(conf["shaker.quiet"])
        self.edges = int(conf["shaker.min_edges"])
        self.shaker_pin = conf["shaker.pin"]
        self.pins = {b: conf[f"buttons.{b.value}"] for b in ButtonName}
        self.presses = 0
        self.bounces = 0
        """Contact bounces added to every press and release (see :meth:`press`)."""

    def _pin(self, bcm: int) -> Any:
        return self.factory.pin(bcm)

    def idle(self) -> None:
        """Wait until the service has handled everything the pins posted (as a person
        waits to see the screen before pressing again).

        :raises RuntimeError: after 10 s.
        """
        if not self.parts.service.wait_idle(10):
            raise RuntimeError("the service did not handle its events within 10 s")

    def press(self, button: ButtonName, *, hold: bool = False, bounces: int | None = None) -> None:
        """Press and release ``button``; ``hold`` keeps it down past the hold time;
        ``bounces`` adds contact bounce (1 ms apart) to both edges."""
        if bounces is None:
            bounces = self.bounces
        pin = self._pin(self.pins[button])
        self.presses += 1
        for _ in range(bounces):
            pin.drive_low()
            self.sched.advance(0.001)
            pin.drive_high()
            self.sched.advance(0.001)
        pin.drive_low()
        self.sched.advance((self.hold + 0.1) if hold else self.debounce * 2)
        for _ in range(bounces):
            pin.drive_high()
            self.sched.advance(0.001)
            pin.drive_low()
            self.sched.advance(0.001)
        pin.drive_high()
        self.sched.advance(self.debounce * 2)
        self.idle()

    def shake(self, edges: int | None = None) -> None:
        """Shake: ``edges`` edges 10 ms apart (default: what a shake needs), then rest."""
        pin = self._pin(self.shaker_pin)
        count = self.edges + 2 if edges is None else edges
        for i in range(count):
            if i % 2 == 0:
                pin.drive_low()
            else:
                pin.drive_high()
            self.sched.advance(0.01)
        pin.drive_high()
        self.sched.advance(self.quiet + 0.05)
        self.idle()


@dataclass
class DemoResult:
    """What a demo run did: the journal, the frames written, the record lines, the winner."""

    journal: Path | None
    frames: list[Path] = field(default_factory=list)
    record: list[str] = field(default_factory=list)
    winner: str = ""
    screens: list[str] = field(default_factory=list)
    """The name of the screen of each distinct frame, in order."""
    camera_found: int = 0
    """With the camera: the moves the box found from the fake camera's picture (the
    cursor on the move the player made on the board; OK played it)."""
    camera_buttons: int = 0
    """With the camera: the moves chosen with the buttons instead (a picture refused,
    moves that leave the same board)."""
    steps_back: int = 0
    """How often the player took a step back (BACK) while choosing a move in steps."""
    cues: list[Path] = field(default_factory=list)
    """The WAV file of each cue said, in order (with ``speech_dir``)."""


def record_lines(journal: Path) -> list[str]:
    """The game record of a journal: one action a line, and the end."""
    loaded = load(journal, repair=False)
    lines = []
    state = loaded.game.new_state(loaded.players)
    for rec in loaded.records:
        events = state.apply(parse_action(state, rec))  # the events as data, worded below
        if "throw" in rec:
            faces = rec["throw"]["faces"]
            # sticks read as one word (LLDD); dice and coloured sticks one face at a time
            what = "throw " + ("".join(faces) if set(faces) <= {"L", "D"} else " ".join(faces))
        else:
            what = str(rec["move"])
        lines.append(f"{rec['n']:4d}  {rec['by']:<8} {what:<14} " + "; ".join(words_for(state).all(events)))
    outcome = loaded.state.outcome
    if outcome is not None:
        names = " and ".join(loaded.game.player_name(w, loaded.players) for w in outcome.winners)
        lines.append(f"winner: {names} ({outcome.reason})")
    return lines


def person_move(state: State) -> Move:
    """The move a person makes in a Cretan Labyrinth demo: the computer's at ``normal``
    (:func:`companion.ai.player.choose`; up to 4 plies within 250 positions, no noise,
    so the same move on every machine). Random choices almost never finish this game
    (docs/rules/cretan-labyrinth.md, D27), and issue 35 asks the demo's players to finish
    it as people do; the goal-seeking player (the next missing diamond, the palace,
    home) finished one in about 2,000 actions, the computer at ``normal`` in 500-1,700.

    :raises IllegalMoveError: when ``state`` waits for a throw or is over.
    """
    from companion.ai.player import choose

    return choose(state, "normal").move


def _person_row(ctl: Controller) -> int | None:
    """The row of the moves screen a person would pick where random picks would not
    end the game: in the Cretan Labyrinth :func:`person_move` (the computer's move at
    ``normal``), or the row on the way to it when the move is chosen in steps.
    ``None`` elsewhere: the scripted player picks at random."""
    state = ctl.state
    if state is None or state.game.id != "cretan-labyrinth":
        return None
    wanted = person_move(state)
    steps = ctl.presenter.choice_steps(state, wanted)
    depth = len(ctl.path)
    for row, (label, move) in enumerate(ctl.choices()):
        if move == wanted or (move is None and depth < len(steps) and label == steps[depth]):
            return row
    return None


def play(
    journal_dir: Path,
    *,
    seed: int = 1,
    frames_dir: Path | None = None,
    config_overrides: Mapping[str, Any] | None = None,
    on_frame: Callable[[Image.Image, str], None] | None = None,
    game: str = GAME,
    bounces: int = 0,
    options: Mapping[str, str] | None = None,
    players: int | None = None,
    speech_dir: Path | None = None,
    camera: bool = False,
) -> DemoResult:
    """Play one whole game of ``game`` through the mock pins; resume an unfinished one
    found in ``journal_dir``. Writes each distinct frame to ``frames_dir`` (PNG) if given.
    ``bounces``: contact bounces (1 ms apart) on every press and release. ``options``:
    game options set on the setup screen with the buttons, as the screen words them
    (``{"mode": "quick", "extra-stick": "yes"}``). ``players``: the number of players
    set on the setup screen (default: the game's default). ``speech_dir``: each cue
    said is written there as a numbered WAV with espeak-ng, listed in ``cues.txt``
    (:class:`~companion.speech.engine.WavSpeaker`), whether or not speech is on.
    ``camera``: the moves are found by the box from the fake camera's pictures
    (``camera.source = "fake"``, ``camera.confirm`` on): the scripted player makes its
    move on the fake board (:class:`CameraPlayer`), the box's look puts the cursor on
    the move it reads, and the player presses OK; a move the camera did not settle is
    chosen with the buttons (counted in :attr:`DemoResult.camera_buttons`). Needs the
    camera extra.

    :raises RuntimeError: when the game does not end within :data:`MAX_STEPS` steps.
    :raises ImportError: ``camera`` without the camera extra.
    """
    if camera:
        config_overrides = {**(config_overrides or {}), "camera.source": "fake", "camera.confirm": True}
    conf = demo_config(journal_dir, **(config_overrides or {}))
    result = DemoResult(None)
    holder: dict[str, Parts] = {}
    if frames_dir is not None:
        frames_dir.mkdir(parents=True, exist_ok=True)
        for old in frames_dir.glob("[0-9][0-9][0-9][0-9][0-9]-*.png"):
            old.unlink()  # frames of an earlier demo

    def frame(image: Image.Image) -> None:
        screen = holder["parts"].service.controller.screen.value if "parts" in holder else "start"
        result.screens.append(screen)
        if frames_dir is not None:
            path = frames_dir / f"{len(result.screens):05d}-{screen}.png"
            image.save(path)
            result.frames.append(path)
        if on_frame is not None:
            on_frame(image, screen)

    speaker = None
    if speech_dir is not None:
        from companion.speech.engine import WavSpeaker, voice_for

        language = str(conf["display.language"])
        wav = WavSpeaker(speech_dir, voice=str(conf["speech.voice"]) or voice_for(language),
                         rate=int(conf["speech.rate"]), volume=int(conf["speech.volume"]))

        def speaker(prefs: Prefs, on_error: Callable[[str], None]) -> WavSpeaker:
            wav.on_error = on_error
            return wav  # the one speaker, whatever the settings: the demo is to be heard

    parts = build(conf, pin_factory=mock_factory(), scheduler=ManualScheduler(),
                  draw=seeded_draw(seed), on_frame=frame, speaker=speaker)
    holder["parts"] = parts
    service = parts.service
    player = None
    if camera:
        from companion.app.camera import FakeTableCamera

        fake = service.controller.camera
        if not isinstance(fake, FakeTableCamera):  # camera_for said why in the log
            raise ImportError("the fake camera could not be made: is the camera extra installed?")
        player = CameraPlayer(seed)
        fake.played, fake.seed = player, seed
    loop = threading.Thread(target=service.run, name="companion-loop")
    loop.start()
    driver = PinDriver(parts)
    driver.bounces = bounces
    backs: dict[int, int] = {}  # steps back taken while choosing the move after n actions
    try:
        driver.idle()
        ctl = service.controller
        for _ in range(MAX_STEPS):
            screen = ctl.screen
            if screen is Screen.OVER:
                st = ctl.state
                assert st is not None
                outcome = st.outcome
                assert outcome is not None
                result.winner = " and ".join(
                    st.game.player_name(w, st.players) for w in outcome.winners
                )
                if ctl.journal is not None:
                    result.journal = ctl.journal.path
                break
            if screen is Screen.MENU:
                target = ctl.games.index(game)
                for _ in range((target - ctl.cursor) % len(ctl.view().items)):
                    driver.press(ButtonName.DOWN)
                driver.press(ButtonName.OK)
            elif screen is Screen.THROW:
                driver.shake()
            elif screen is Screen.MOVES and player is not None:
                _camera_move(ctl, driver, player, result)
            elif screen is Screen.MOVES:
                count = len(ctl.view().items)
                n = len(ctl.actions)
                # One choice per step of a move given in steps (senet-sticks: the
                # plinth, then each value); at a step after the first, now and then
                # the player has second thoughts and takes a step back with BACK.
                depth = len(ctl.path)
                key = f"{seed}/choice/{n}"
                if depth:
                    key += "/" + "/".join(ctl.path) + f"/{backs.get(n, 0)}"
                rng = random.Random(key)
                if depth and rng.random() < SECOND_THOUGHTS:
                    driver.press(ButtonName.BACK)
                    backs[n] = backs.get(n, 0) + 1
                    result.steps_back += 1
                    continue
                want = _person_row(ctl)
                if want is None:
                    want = rng.randrange(count)
                way = ButtonName.DOWN if want >= ctl.cursor else ButtonName.UP
                for _ in range(abs(want - ctl.cursor)):
                    driver.press(way)
                driver.press(ButtonName.OK)
            elif screen is Screen.SETUP:
                wanted = dict(options or {})
                if players is not None:
                    wanted["Players"] = str(players)  # the row reads "Players: 4"
                _setup(ctl, driver, wanted)
            elif screen is Screen.PAUSE:
                driver.press(ButtonName.BACK)
            elif player is not None and screen is Screen.MESSAGE and ctl.view().title == i18n._("Camera failed"):
                player.by_buttons = True  # the picture refused: the move is chosen with the buttons
                result.camera_buttons += player.last is not None
                driver.press(ButtonName.OK)
            else:  # splash, resume (first item: resume), setup, lost, events, messages
                driver.press(ButtonName.OK)
        else:
            raise RuntimeError(f"the demo game did not end within {MAX_STEPS} steps")
    finally:
        service.post(Quit("demo over"))
        loop.join(timeout=10)
        service.close()  # the speaker's files written, too
    if speech_dir is not None:
        result.cues = list(wav.written)
    if result.journal is not None:
        result.record = record_lines(result.journal)
    return result


class CameraPlayer:
    """The scripted player of ``companion demo --camera``: in each position the fake
    camera looks at (a person's move due), the move made on the board: a seeded random
    legal move (in the Cretan Labyrinth :func:`person_move`, the computer's at
    ``normal``: random moves almost never end that game), remembered as :attr:`last` until it is played."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.last: Move | None = None
        self.by_buttons = False
        """Whether the move :attr:`last` is being chosen with the buttons."""

    def __call__(self, state: State) -> Move:
        moves = state.legal_moves()
        if state.game.id == "cretan-labyrinth":
            move = person_move(state)
        else:
            move = moves[random.Random(f"{self.seed}/camera/{len(state.history)}").randrange(len(moves))]
        self.last, self.by_buttons = move, False
        return move


def _camera_move(ctl: Controller, driver: PinDriver, player: CameraPlayer, result: DemoResult) -> None:
    """On the moves screen with the camera: OK when the box's look put the cursor on the
    move the player made on the board (found); else that move chosen with the buttons,
    step by step (the camera refused the picture, or several moves leave that board)."""
    state = ctl.state
    assert state is not None
    if player.last is None or player.last not in state.legal_moves():
        player(state)  # no look here (the screen shown again): the move made now
        player.by_buttons = True
        result.camera_buttons += 1
    wanted = player.last
    assert wanted is not None
    choices = ctl.choices()
    if choices[ctl.cursor][1] == wanted and not player.by_buttons:
        result.camera_found += 1
        player.last = None
        driver.press(ButtonName.OK)
        return
    if not player.by_buttons:
        player.by_buttons = True
        result.camera_buttons += 1
    steps = ctl.presenter.choice_steps(state, wanted)
    depth = len(ctl.path)
    if list(ctl.path) != list(steps[:depth]):
        driver.press(ButtonName.BACK)  # a step chosen that is not the move's
        return
    for row, (label, move) in enumerate(choices):
        if move == wanted or (move is None and depth < len(steps) and label == steps[depth]):
            way = ButtonName.DOWN if row >= ctl.cursor else ButtonName.UP
            for _ in range(abs(row - ctl.cursor)):
                driver.press(way)
            if move == wanted:
                player.last = None
            driver.press(ButtonName.OK)
            return
    raise RuntimeError(f"the moves screen does not offer {wanted}")


def _setup(ctl: Controller, driver: PinDriver, options: dict[str, str]) -> None:
    """On the setup screen: set each of ``options`` (an option's name and its value as
    the command line writes it, ``{"mode": "quick", "extra-stick": "yes"}``; or
    ``"Players"``) as a player would: the row, OK for the option's page, OK until it
    holds the value, BACK; then Begin.

    :raises RuntimeError: an option the screen does not offer, or a value it never takes.
    """
    from companion.app.screens import Setup
    from companion.rules import game_class

    def goto(row: int) -> None:
        way = ButtonName.DOWN if row >= ctl.cursor else ButtonName.UP
        for _ in range(abs(row - ctl.cursor)):
            driver.press(way)

    setup = ctl.page
    assert isinstance(setup, Setup)
    declared = {o.name: o for o in game_class(setup.game_id).options}
    keys = ["Players" if key == "players" else key for key, _ in setup.rows(ctl)]
    for name, value in options.items():
        if name not in keys:
            raise RuntimeError(f"the setup screen offers no option {name!r}: {keys}")
        goto(keys.index(name))
        if name == "Players":
            for _ in range(8):
                if ctl.view().items[ctl.cursor] == f"Players: {value}":
                    break
                driver.press(ButtonName.OK)
            else:
                raise RuntimeError(f"the setup screen never shows Players: {value}")
            continue
        want = declared[name].parse(value)
        driver.press(ButtonName.OK)  # the option's page
        for _ in range(64):
            if ctl.setup_options.get(name, declared[name].default) == want:
                break
            driver.press(ButtonName.OK)
        else:
            raise RuntimeError(f"the setup screen never takes {name} = {value}")
        driver.press(ButtonName.BACK)
    goto(len(ctl.view().items) - 1)  # Begin
    driver.press(ButtonName.OK)


def main(
    journal_dir: Path, *, seed: int, frames_dir: Path | None, out: TextIO, keep: bool = True,
    game: str = GAME, speech_dir: Path | None = None, language: str = "en", camera: bool = False,
) -> int:
    """``companion demo``: play ``game`` with the screens and cues in ``language`` (a code
    of :func:`companion.i18n.languages`), print the record and where the frames, the
    cues' WAV files (``speech_dir``) and, when ``keep``, the journal went; ``camera``:
    the moves found from the fake camera's pictures (:func:`play`), and how many were."""
    result = play(journal_dir, seed=seed, frames_dir=frames_dir, game=game,
                  speech_dir=speech_dir, config_overrides={"display.language": language},
                  camera=camera)
    for line in result.record:
        print(line, file=out)
    if camera:
        print(f"camera: {result.camera_found} moves found from the fake camera's pictures, "
              f"{result.camera_buttons} chosen with the buttons", file=out)
    if frames_dir is not None:
        print(f"{len(result.frames)} frames written to {frames_dir}", file=out)
    if speech_dir is not None:
        print(f"{len(result.cues)} cues written to {speech_dir} (listed in cues.txt)", file=out)
    if keep and result.journal is not None:
        print(f"journal: {result.journal}", file=out)
    return 0
