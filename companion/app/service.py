"""The service: one loop that takes typed events from a queue and drives the controller.

Device threads (gpiozero callbacks, the timer thread, a serial reader) only
:meth:`Service.post` events. The loop (:meth:`Service.run`) handles one event at a
time: the controller answers with one :class:`~companion.app.controller.Reply` (the
view, the implement due, the throw source wanted); the
:class:`~companion.devices.sources.SourceKeeper` arms the source for what is due (a
source that cannot start comes back as an event through the queue, like any other),
and the view is drawn and pushed to the display if it changed. The loop blocks on the
queue: an idle companion uses no CPU.

:func:`build` makes everything from a configuration (the keys of
:mod:`companion.app.config`), injecting the pin factory, the timers, the display and
the throw drawing, so tests and the demo use the very same wiring with mock pins.
"""

from __future__ import annotations

import gc
import logging
import queue
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PIL import Image

from companion.app import config as cfg
from companion.app.camera import camera_for, usable_sources
from companion.app.controller import Controller, Draw, Reply
from companion.app.events import PanelIdle, Quit, SpeechFailed
from companion.app.notify import Notifier, WatchdogPinger
from companion.app.screens import Think
from companion.app.settings import Prefs, SavedSettings
from companion.app.worker import Worker
from companion.devices.buttons import Buttons, ButtonTiming
from companion.devices.clock import ManualScheduler, Scheduler, ThreadScheduler, Timer
from companion.devices.display import DisplaySpec, Panel, make_device
from companion.devices.events import ButtonEvent, ButtonName, SourceName
from companion.devices.indicators import Indicators
from companion.devices.sources import SOURCE_NAMES, SourceContext, SourceKeeper
from companion.i18n import language, set_language
from companion.journal.roster import default_roster_path
from companion.journal.store import JournalStore
from companion.speech import Silent, Speaker
from companion.ui.render import render

if TYPE_CHECKING:  # the union holds the worker's results: not imported at start
    from companion.app.events import LoopEvent
    from companion.rules import Implement, Throw  # the engine: with the first game

log = logging.getLogger(__name__)


BOARDS_DIR = Path("/etc/board-companion/boards")
"""Board and deck files offered on the setup screen (and ``boards/`` in the state
directory): ``<game id>*.toml``, ``<game id>-decks*.toml`` for the Cretan decks."""


def secure_draw(implement: Implement, n: int) -> Throw:
    """Draw a throw with the operating system's randomness (:func:`secrets.randbelow`;
    imported at the first throw: the menu, drawn first, needs no hashing modules)."""
    import secrets

    return implement.draw(secrets.randbelow)


MakeSpeaker = Callable[[Prefs, Callable[[str], None]], Speaker]
"""Builds the speaker for the settings in force; the callable it is given reports a
failure of speech in one line (the service posts it as
:class:`~companion.app.events.SpeechFailed`)."""


def speaker_for(device: str) -> MakeSpeaker:
    """The service's speakers: :class:`~companion.speech.Silent` with speech off, else an
    :class:`~companion.speech.engine.EspeakSpeaker` with the settings' voice (empty: the
    voice of the settings' language), rate and volume, on the ALSA ``device`` (empty:
    the default)."""

    def make(prefs: Prefs, on_error: Callable[[str], None]) -> Speaker:
        if not prefs.speech:
            return Silent()
        from companion.speech.engine import EspeakSpeaker, voice_for

        return EspeakSpeaker(prefs.voice or voice_for(prefs.language), prefs.rate,
                             prefs.volume, device, on_error)

    return make


def speech_settings(prefs: Prefs) -> tuple[object, ...]:
    """The settings a speaker is built from: a change of any rebuilds it."""
    return (prefs.speech, prefs.voice, prefs.rate, prefs.volume, prefs.language)


def on_raspberry_pi() -> bool:
    """Whether this machine is a Raspberry Pi (from ``/proc/device-tree/model``)."""
    try:
        return "Raspberry Pi" in Path("/proc/device-tree/model").read_text(errors="replace")
    except OSError:
        return False


class Service:
    """The loop, the controller and the devices it owns (closed by :meth:`close`)."""

    def __init__(
        self,
        controller: Controller,
        screen: Panel,
        *,
        source_context: Callable[[Callable[[Any], None]], SourceContext],
        closers: list[Callable[[], None]] | None = None,
        scheduler: Scheduler | None = None,
        sleep_after: float = 0.0,
        notifier: Notifier | None = None,
        indicators: Indicators | None = None,
        make_speaker: MakeSpeaker | None = None,
    ) -> None:
        self.controller = controller
        self.make_speaker = make_speaker
        """Builds the speaker for the settings in force (``None``: the controller's is kept)."""
        self._speech: tuple[object, ...] | None = None
        """The speech settings the controller's speaker was built for."""
        self.notifier = notifier if notifier is not None else Notifier.from_env()
        """systemd's notify socket (a no-op off systemd): READY, WATCHDOG, STATUS, STOPPING."""
        self.watchdog = WatchdogPinger.from_env(self.notifier)
        """Pings ``WATCHDOG=1`` from the loop itself, so a hung loop gets restarted."""
        self.screen = screen
        self.queue: queue.SimpleQueue[LoopEvent] = queue.SimpleQueue()
        self._count_lock = threading.Condition()
        self._posted = 0
        self._handled = 0
        self._closers = closers or []
        self.sources = SourceKeeper(source_context(self.post))
        """The running throw source, started and armed as each reply asks."""
        self._closed = False
        self._frozen_game: object = None
        """The game whose start-up (its tables) was last moved out of the collector's sight."""
        self._scheduler = scheduler
        self.sleep_after = sleep_after
        self.indicators = indicators
        """The buzzer and the LED (``None``: neither is wired)."""
        self._contrast: int | None = None
        self._drawn: tuple[object, Image.Image] | None = None
        """The last view drawn, with its panel size and language, and its picture: a
        release, a tick or a refused press that leaves the view as it was is not drawn
        again (rendering is most of a press's CPU time)."""
        """Seconds without any event after which the panel is switched off (0: never)."""
        self.asleep = False
        self._sleep_timer: Timer | None = None
        self._sleep_lock = threading.Lock()
        self._active_at = 0.0
        """When the last event came (the scheduler's clock)."""
        self._generation = 0
        self.ready = threading.Event()
        """Set once :meth:`run` has started the controller and shown the first frame."""
        controller.worker.connect(self._reserve, self.queue.put)

    def _reserve(self) -> None:
        """Count a result the worker will post as posted already (see :meth:`wait_idle`)."""
        with self._count_lock:
            self._posted += 1

    # ---------------------------------------------------------------- posting

    def post(self, event: LoopEvent) -> None:
        """Hand ``event`` to the loop (any thread; never blocks for long)."""
        with self._count_lock:
            self._posted += 1
        self.queue.put(event)

    def post_from_signal(self, event: LoopEvent) -> None:
        """Hand ``event`` to the loop from a signal handler (no locks taken)."""
        self.queue.put(event)

    def wait_idle(self, timeout: float = 5.0) -> bool:
        """Wait until the loop has started and every event posted so far has been
        handled, the results of the worker's jobs handed over so far included;
        ``False`` on timeout."""
        if not self.ready.wait(timeout):
            return False
        with self._count_lock:
            return self._count_lock.wait_for(lambda: self._handled >= self._posted, timeout)

    # ---------------------------------------------------------------- the loop

    def show(self, reply: Reply) -> None:
        """Carry out ``reply``: the settings it holds applied (display sleep and contrast,
        sound, light), the throw source it wants armed for what is due, its cue sounded,
        the LED set, and its view drawn."""
        prefs = reply.prefs
        if prefs.sleep_after != self.sleep_after:
            self.sleep_after = prefs.sleep_after
            self._arm_sleep(restart=True)
        if prefs.contrast != self._contrast:
            self._contrast = prefs.contrast
            self.screen.set_contrast(prefs.contrast)
        if self.make_speaker is not None and speech_settings(prefs) != self._speech:
            self._new_speaker(prefs, self.make_speaker)
        self.sources.want(reply.source, reply.due)
        indicators = self.indicators
        if indicators is not None:
            indicators.sound, indicators.light = prefs.sound, prefs.light
            if reply.cue is not None:
                indicators.cue(reply.cue)
            indicators.show(awaiting=reply.due is not None, trouble=reply.trouble)
        key = (reply.view, self.screen.size, language())
        if self._drawn is None or self._drawn[0] != key:
            self._drawn = (key, render(reply.view, self.screen.size))
        self.screen.show(self._drawn[1])

    def _new_speaker(self, prefs: Prefs, make: MakeSpeaker) -> None:
        """Replace the controller's speaker by one for ``prefs`` (the old one closed
        meanwhile; what it said last is kept for "say it again")."""
        old = self.controller.speaker
        self._speech = speech_settings(prefs)
        last = list(getattr(old, "last", []))
        new = make(prefs, lambda text: self.post(SpeechFailed(text)))
        if new is not old:
            # Closed on a thread of its own: ending the old engine's child program may
            # take a moment, and the loop never waits for speech.
            threading.Thread(target=old.close, name="speaker-close", daemon=True).start()
        if last and hasattr(new, "last"):
            new.last = last
        self.controller.speaker = new

    def handle(self, event: LoopEvent) -> None:
        """Handle one event and redraw (what :meth:`run` does for each queued event).

        While the panel sleeps, a button press only wakes it (the press is not acted on:
        the players could not see what it would do)."""
        if isinstance(event, PanelIdle):
            if event.generation == self._generation and not self.asleep:
                self.asleep = True
                self.screen.sleep()
            return
        self._arm_sleep()  # first: a sleep timer that sees the new generation sees this
        self._generation += 1
        if self.asleep:
            self.asleep = False
            self.screen.wake()
            if isinstance(event, ButtonEvent):
                return
        try:
            reply = self.controller.handle(event)
        except Exception:  # a bug must not end the game: log it, keep the loop alive
            log.exception("error while handling %r", event)
            try:
                reply = self.controller.reply()
            except Exception:
                log.exception("error while building the screen after %r", event)
                return
        try:
            self.show(reply)
        except Exception:
            log.exception("error while drawing the screen after %r", event)

    def run(self) -> None:
        """Start the controller and loop until a :class:`Quit` event (or the controller
        asks to quit)."""
        self.show(self.controller.start())
        # What start-up built (modules, tables, the first screen) lives as long as the
        # process: moved out of the collector's sight, no full collection during play
        # walks it (without this, one in a demo game of Cretan Labyrinth takes 11-14 ms
        # of CPU on an x86 desktop, several times that on a Pi: more than a cursor
        # step's time on the bus; benchmarks/service_latency.py). Garbage first, so
        # that none is kept for good. `companion run` holds the collector until here
        # (cli.cmd_run): from now on it runs.
        gc.collect()
        gc.freeze()
        gc.enable()
        self._arm_sleep()
        self.ready.set()
        self.notifier.ready(status="showing the first screen")
        watchdog = self.watchdog
        while not self.controller.quit:
            watchdog.tick()
            try:
                # Idle, the loop sleeps in get(): it wakes only for an event or in time
                # for the next watchdog ping (never when systemd's watchdog is off).
                event = self.queue.get(timeout=watchdog.timeout())
            except queue.Empty:
                continue
            self.handle(event)
            self._freeze_new_game()
            with self._count_lock:
                self._handled += 1
                self._count_lock.notify_all()
        self.notifier.stopping()

    def _freeze_new_game(self) -> None:
        """After a game is begun or resumed (its screen already drawn), freeze what its
        start built as start-up's was: the Cretan Labyrinth's board tables (every walk
        of its board, built by the first game of a board and player count in the
        process) are otherwise walked by every full collection during play, 10-40 ms of
        CPU here (benchmarks/gc_pauses.py)."""
        table = self.controller.table
        game = table.game if table is not None else None
        if game is None or game is self._frozen_game:
            return
        self._frozen_game = game
        gc.collect()
        gc.freeze()

    def _arm_sleep(self, restart: bool = False) -> None:
        """Note activity: the panel sleeps ``sleep_after`` seconds after the last event.

        One timer at a time, which re-arms itself for the rest when activity came
        meanwhile (:meth:`_sleep_due`): cancelling and scheduling a timer on every
        event woke the timer thread once per frame, while the loop was drawing it (a
        tail in press-to-frame). ``restart``: ``sleep_after`` changed."""
        if self._scheduler is None:
            return
        with self._sleep_lock:
            self._active_at = self._scheduler.now()
            if restart and self._sleep_timer is not None:
                self._sleep_timer.cancel()
                self._sleep_timer = None
            if self._sleep_timer is None and self.sleep_after > 0:
                self._sleep_timer = self._scheduler.call_later(self.sleep_after, self._sleep_due)

    def _sleep_due(self) -> None:
        """The sleep timer (timer thread): post :class:`PanelIdle` if nothing happened
        for ``sleep_after`` seconds, else wait for the rest."""
        scheduler = self._scheduler
        assert scheduler is not None
        with self._sleep_lock:
            self._sleep_timer = None
            if self._closed or self.sleep_after <= 0:
                return
            generation = self._generation  # read before the time: see handle()
            idle = scheduler.now() - self._active_at
            if idle < self.sleep_after:
                self._sleep_timer = scheduler.call_later(self.sleep_after - idle, self._sleep_due)
                return
        self.post(PanelIdle(generation))

    def close(self) -> None:
        """End cleanly: journal closed, throw source and pins released, display blanked."""
        if self._closed:
            return
        self._closed = True
        with self._sleep_lock:
            if self._sleep_timer is not None:
                self._sleep_timer.cancel()
        self.controller.close()
        self.controller.worker.close()
        self.controller.speaker.close()
        self.sources.close()
        if self.indicators is not None:
            self.indicators.close()
        for closer in self._closers:
            try:
                closer()
            except Exception:
                log.exception("error while closing")
        self.screen.close()


@dataclass
class Parts:
    """What :func:`build` made, for a caller that drives it (the demo, tests, benchmarks)."""

    service: Service
    buttons: Buttons
    scheduler: Scheduler
    pin_factory: Any
    config: dict[str, Any]
    origins: dict[str, str] = field(default_factory=dict)
    """Where each configuration value came from (default, a file, saved setting, flag)."""


def build(
    config: Mapping[str, Any],
    *,
    pin_factory: Any = None,
    scheduler: Scheduler | None = None,
    draw: Draw = secure_draw,
    on_frame: Callable[[Image.Image], None] | None = None,
    games: list[str] | None = None,
    save_settings: bool = True,
    origins: Mapping[str, str] | None = None,
    notices: Sequence[str] = (),
    think: Think | None = None,
    worker: Worker | None = None,
    speaker: MakeSpeaker | None = None,
) -> Parts:
    """Build the service from ``config``. ``pin_factory``: a gpiozero factory (``None``:
    gpiozero's default, i.e. the real pins); ``scheduler``: timers (default: a thread);
    ``save_settings``: whether settings changed on the box are saved to the state
    directory (``settings.toml`` beside the journals; see :mod:`companion.app.settings`);
    ``origins``: where each configuration value came from (for the log); ``notices``:
    problems met while reading the configuration that did not stop the start (shown
    on the screen after the splash); ``think``: how the computer chooses its moves
    (default: :func:`companion.app.screens.computer_move`, the search at the seat's level);
    ``worker``: where the computer's throws are drawn and its searches run (default: a
    thread of its own, :meth:`Worker.threaded`; the results come back through the queue);
    ``speaker``: builds what says the cues for the settings in force, again whenever the
    speech settings change (default: :func:`speaker_for` the configured
    ``speech.device``: espeak-ng when ``speech.enabled``, else silence).

    :raises gpiozero.GPIOZeroError: a pin that cannot be used.
    :raises luma.core.error.DeviceNotFoundError: the I2C display is not there.
    """
    conf = dict(config)
    set_language(conf["display.language"])  # the words of every screen from now on
    sched: Scheduler = scheduler or ThreadScheduler(
        on_error=lambda exc: log.error("timer error: %s", exc)
    )
    closers: list[Callable[[], None]] = []
    if isinstance(sched, ThreadScheduler | ManualScheduler):
        closers.append(sched.close)
    backend = conf["display.backend"]
    if backend == "auto":
        backend = "i2c" if pin_factory is None and on_raspberry_pi() else "noop"
    spec = DisplaySpec.from_config(conf, backend)
    screen = Panel(make_device(spec), on_frame=on_frame)
    journal_dir = Path(conf["journal.dir"] or cfg.default_state_dir())
    available = [
        name for name in SOURCE_NAMES
        if not (name == SourceName.GPIO_SHAKER and conf.get("shaker.pin") is None)
    ]
    indicators = None
    if conf.get("buzzer.pin") is not None or conf.get("led.pin") is not None:
        indicators = Indicators(
            buzzer_pin=conf.get("buzzer.pin"), led_pin=conf.get("led.pin"),
            kind=conf["buzzer.kind"], pin_factory=pin_factory, scheduler=sched,
        )
    said_first = list(notices)
    camera = None
    try:
        frames = journal_dir / "camera-frames" if conf.get("camera.save_frames", False) else None
        camera = camera_for(str(conf.get("camera.source", "off")), str(conf.get("camera.device", "0")), frames,
                            journal_dir)
    except (ImportError, ValueError) as exc:  # OpenCV or picamera2 missing: the game goes on without
        log.warning("camera off: %s", exc)
        missing = "" if "picamera2" in str(exc) or isinstance(exc, ValueError) else \
            "the camera extra is not installed: "
        said_first.append(f"camera.source: {missing}{exc}")
    controller = Controller(
        store=JournalStore(journal_dir), draw=draw, sources=available,
        source=conf["throw.source"], throw_button=conf.get("buttons.throw") is not None,
        games=games, size=screen.size, prefs=Prefs.from_config(conf),
        saved=SavedSettings(journal_dir) if save_settings else None,
        buzzer=indicators is not None and indicators.buzzer is not None,
        led=indicators is not None and indicators.led is not None,
        notices=said_first, boards=[BOARDS_DIR, journal_dir / "boards"],
        game_options=conf.get("games", {}), hints=conf["ai.hints"],
        computer_draws=conf["ai.throw"] == "draw", think=think,
        worker=worker if worker is not None else Worker.threaded(),
        camera=camera, camera_confirm=bool(conf.get("camera.confirm", True)),
        cameras=usable_sources(str(conf.get("camera.source", "off"))),
        make_camera=partial(camera_for, device=str(conf.get("camera.device", "0")), save_to=frames,
                            calibrations=journal_dir),
        roster=Path(conf["club.roster"]) if conf.get("club.roster") else default_roster_path(),
    )

    closers.append(controller.chosen_camera.close)  # a real camera: let the device go

    def context(post: Callable[[Any], None]) -> SourceContext:
        return SourceContext(post, sched, pin_factory, conf)

    service = Service(controller, screen, source_context=context, closers=closers,
                      scheduler=sched, sleep_after=conf["display.sleep_after"],
                      indicators=indicators,
                      make_speaker=speaker or speaker_for(str(conf["speech.device"])))
    timing = ButtonTiming(
        debounce=conf["buttons.debounce"], hold=conf["buttons.hold"],
        repeat_delay=conf["buttons.repeat_delay"], repeat_interval=conf["buttons.repeat_interval"],
    )
    pins = {
        name: conf[f"buttons.{name.value}"]
        for name in ButtonName
        if conf.get(f"buttons.{name.value}") is not None
    }
    try:
        buttons = Buttons(pins, service.post, sched, timing, pin_factory=pin_factory)
    except Exception:
        screen.close()
        raise
    # Buttons are released before the timers stop (closers run in order).
    closers.insert(0, buttons.close)
    return Parts(service, buttons, sched, pin_factory, conf, dict(origins or {}))


def mock_factory() -> Any:
    """A fresh gpiozero ``MockFactory`` (the pins of a machine without a Pi), whose pins
    can also do PWM."""
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    return MockFactory(pin_class=MockPWMPin)  # PWM too: a passive buzzer's tones


def run_forever(parts: Parts, *, install_signals: bool = True) -> None:
    """Run the loop in this thread until Quit, SIGTERM or Ctrl-C; always close cleanly."""
    import signal

    service = parts.service
    described = cfg.describe(parts.config, parts.origins or None)
    log.info("effective configuration:\n  %s", "\n  ".join(described))
    previous: dict[signal.Signals, Any] = {}
    if install_signals:
        def on_signal(signum: int, frame: object) -> None:
            service.post_from_signal(Quit(signal.Signals(signum).name))

        for sig in (signal.SIGTERM, signal.SIGINT):
            previous[sig] = signal.signal(sig, on_signal)
    try:
        service.run()
    finally:
        service.close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
