"""The service's speaker: built from the settings in force (silence with speech off),
built anew when the speech settings change, closed when the service stops; a failure
of speech is one message on the screen and the game goes on."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from companion.app import config as cfg
from companion.app.controller import Screen
from companion.app.events import Quit
from companion.app.service import Parts, build, speaker_for
from companion.app.settings import Prefs
from companion.speech import Cue, CueKind, Silent


class Recorder:
    """A speaker that keeps what it was built for and told."""

    def __init__(self, prefs: Prefs, on_error: Callable[[str], None]) -> None:
        self.prefs, self.on_error = prefs, on_error
        self.last: list[Cue] = []
        self.said: list[list[Cue]] = []
        self.closed = False

    def say(self, cues: list[Cue]) -> None:
        self.said.append(list(cues))
        self.last = list(cues)

    def repeat(self) -> None:
        self.said.append(list(self.last))

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def made() -> list[Recorder]:
    return []


@pytest.fixture
def parts(tmp_path: Path, mock_factory: Any, made: list[Recorder]) -> Iterator[Parts]:
    values = cfg.defaults()
    values.update({"display.backend": "dummy", "journal.dir": str(tmp_path)})

    def make(prefs: Prefs, on_error: Callable[[str], None]) -> Recorder:
        made.append(Recorder(prefs, on_error))
        return made[-1]

    built = build(values, pin_factory=mock_factory, speaker=make, save_settings=False)
    loop = threading.Thread(target=built.service.run)
    loop.start()
    assert built.service.wait_idle(5)
    try:
        yield built
    finally:
        built.service.post(Quit())
        loop.join(5)
        built.service.close()


def test_the_speaker_is_built_for_the_settings_and_again_when_speech_settings_change(
    parts: Parts, made: list[Recorder]
) -> None:
    service = parts.service
    assert len(made) == 1 and service.controller.speaker is made[0]
    assert made[0].prefs.speech is False  # the configuration's default
    made[0].say([Cue("Red's turn.", CueKind.TURN)])
    reply = service.controller.reply()
    service.show(reply)  # the same settings: the same speaker
    assert len(made) == 1
    for change in ({"speech": True}, {"rate": 220}, {"voice": "de"}, {"volume": 40},
                   {"language": "de"}):
        before = made[-1]
        service.show(replace(reply, prefs=replace(made[-1].prefs, **change)))
        assert service.controller.speaker is made[-1] is not before
        until(partial(getattr, before, "closed"), "the old speaker is closed")
        assert made[-1].last == [Cue("Red's turn.", CueKind.TURN)]  # "say it again" still can
    service.show(replace(reply, prefs=replace(made[-1].prefs, contrast=10)))
    assert len(made) == 6  # a setting other than speech's does not rebuild it
    service.close()
    assert made[-1].closed  # at once: the service's end waits for its speaker


def until(check: Callable[[], bool], what: str, timeout: float = 5.0) -> None:
    """Wait for ``check()`` (a bound against a hang, not a timing test)."""
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, f"not within {timeout} s: {what}"
        time.sleep(0.01)


def test_a_failure_of_speech_is_one_message_and_the_game_goes_on(
    parts: Parts, made: list[Recorder]
) -> None:
    service, ctl = parts.service, parts.service.controller
    made[0].on_error("espeak-ng is not installed: the game goes on without speech.")  # any thread
    assert service.wait_idle(5)
    view = ctl.view()
    assert view.screen == "message" and view.title == "Speech failed"
    assert view.lines == ("espeak-ng is not installed: the game goes on without speech.",)
    pin = parts.pin_factory.pin(parts.config["buttons.ok"])
    pin.drive_low()
    pin.drive_high()
    assert service.wait_idle(5)
    assert ctl.screen is Screen.SPLASH  # back where the message came over


def test_the_default_speaker_is_silence_with_speech_off_and_espeak_with_it_on() -> None:
    from companion.speech.engine import EspeakSpeaker

    make = speaker_for("plughw:1,0")
    prefs = Prefs.from_config(cfg.defaults())
    assert isinstance(make(prefs, print), Silent)
    speaker = make(replace(prefs, speech=True, voice="", language="de", rate=200), print)
    speaker.close()
    assert isinstance(speaker, EspeakSpeaker)
    assert (speaker.voice, speaker.rate, speaker.device) == ("de", 200, "plughw:1,0")


def test_with_speech_on_and_no_espeak_ng_the_service_says_so_once_and_goes_on(
    tmp_path: Path, mock_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no espeak-ng, no aplay
    values = cfg.defaults()
    values.update({"display.backend": "dummy", "journal.dir": str(tmp_path / "j"),
                   "speech.enabled": True})
    built = build(values, pin_factory=mock_factory, save_settings=False)
    service, ctl = built.service, built.service.controller
    loop = threading.Thread(target=service.run)
    loop.start()
    try:
        assert service.wait_idle(5)
        ctl.speaker.say([Cue("Red's turn.", CueKind.TURN)])  # as the cues will
        until(lambda: service.wait_idle(5) and ctl.view().screen == "message", "the message")
        assert ctl.view().title == "Speech failed"
        assert ctl.view().lines == ("espeak-ng is not installed: the game goes on without speech.",)
        pin = built.pin_factory.pin(built.config["buttons.ok"])
        pin.drive_low()
        time.sleep(2 * built.config["buttons.debounce"])  # a press, not a bounce: a press
        pin.drive_high()  # shorter than the debounce is reported 0.5 s late, after the check
        until(lambda: service.wait_idle(5) and ctl.screen is Screen.SPLASH, "OK to leave it")
        for _ in range(3):
            ctl.speaker.say([Cue("Blue's turn.", CueKind.TURN)])
        time.sleep(0.5)  # time enough for a second report, were one sent
        assert service.wait_idle(5)
        assert ctl.screen is Screen.SPLASH  # one message, left with OK; no other
    finally:
        service.post(Quit())
        loop.join(5)
        service.close()


def test_speech_that_hangs_is_one_message_in_german_and_the_game_goes_on(
    tmp_path: Path, mock_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 35: an aplay that never exits gave no message and the box stayed silent. The
    speaker's watchdog (bound shortened here: 0.5 s + 0.5x the cue's length) reports it
    through the queue as SpeechFailed; the screen says it as any failure of speech, in
    the language in use, from the catalogue alone."""
    from companion.i18n import set_language
    from companion.speech.engine import EspeakSpeaker

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, body in (("espeak-ng", "exit 0"), ("aplay", "exec sleep 3600")):
        (bin_dir / name).write_text(f"#!/bin/sh\n{body}\n")
        (bin_dir / name).chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    values = cfg.defaults()
    values.update({"display.backend": "dummy", "journal.dir": str(tmp_path / "j"),
                   "speech.enabled": True, "display.language": "de"})

    def make(prefs: Prefs, on_error: Callable[[str], None]) -> Any:
        return EspeakSpeaker("de", on_error=on_error, hang_base=0.5, hang_factor=0.5)

    built = build(values, pin_factory=mock_factory, save_settings=False, speaker=make)
    service, ctl = built.service, built.service.controller
    loop = threading.Thread(target=service.run)
    loop.start()
    try:
        assert service.wait_idle(5)
        ctl.speaker.say([Cue("Rot ist am Zug.", CueKind.TURN)])  # as the cues will
        until(lambda: service.wait_idle(5) and ctl.view().screen == "message", "the message",
              timeout=60)
        view = ctl.view()
        assert view.title == "Keine Sprachausgabe"
        assert view.lines == ("Die Sprachausgabe hing: nichts wurde rechtzeitig gesagt. "
                              "Sie startet bald wieder.",)
    finally:
        service.post(Quit())
        loop.join(5)
        service.close()
        set_language("en")
