"""The speech engine: espeak-ng (the real one) piped into aplay, in a child program.

aplay is replaced through PATH by a small program (``fake_aplay``) that records what
it got (its arguments, a digest of the audio, when it started and ended) and then
"plays" until the test releases it, so a test sees what was said, what was cut off
and what was never said. Waiting is bounded (:func:`until`), never asserted on time.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion.speech import Cue, CueKind
from companion.speech.engine import EspeakSpeaker, WavSpeaker, voice_for

needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                  reason="espeak-ng is not installed (make debian-tools)")
needs_sox = pytest.mark.skipif(shutil.which("sox") is None,
                               reason="sox is not installed (make debian-tools)")

FAKE_APLAY = f"""#!{sys.executable}
import hashlib, json, os, sys, time
log = os.environ["FAKE_APLAY_DIR"]
name = os.path.join(log, f"{{time.monotonic_ns():020d}}-{{os.getpid()}}")
if os.environ.get("FAKE_APLAY_FAIL"):
    print("ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM nosuch", file=sys.stderr)
    print("aplay: main:831: audio open error: No such file or directory", file=sys.stderr)
    sys.exit(1)
digest, size = hashlib.sha256(), 0
def record(path, value):
    # written whole, then renamed: a test polling for the file never reads it half-written
    with open(path + ".part", "w") as fh:
        json.dump(value, fh)
    os.replace(path + ".part", path)
record(name + ".args", sys.argv[1:])
while chunk := os.read(0, 65536):
    digest.update(chunk)
    size += len(chunk)
record(name + ".audio", {{"sha": digest.hexdigest(), "bytes": size}})
end = time.monotonic() + float(os.environ.get("FAKE_APLAY_HOLD", "0"))
while time.monotonic() < end and not os.path.exists(os.path.join(log, "release")):
    time.sleep(0.01)
open(name + ".done", "w").close()
"""


class Aplay:
    """The fake aplay's records in ``log``."""

    def __init__(self, log: Path) -> None:
        self.log = log

    def runs(self) -> list[str]:
        """Each run's name, in the order they started."""
        return sorted(p.stem for p in self.log.glob("*.args"))

    def args(self, run: str) -> list[str]:
        return list(json.loads((self.log / f"{run}.args").read_text()))

    def audio(self, run: str) -> dict[str, object] | None:
        path = self.log / f"{run}.audio"
        return json.loads(path.read_text()) if path.exists() else None

    def done(self, run: str) -> bool:
        return (self.log / f"{run}.done").exists()

    def release(self) -> None:
        (self.log / "release").touch()

    def hold(self) -> None:
        (self.log / "release").unlink(missing_ok=True)


def until(check: Callable[[], object], what: str, timeout: float = 15.0) -> None:
    """Wait until ``check()`` is true (a bound against a hang, not a timing test)."""
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() > end:
            raise AssertionError(f"not within {timeout} s: {what}")
        time.sleep(0.02)


@pytest.fixture
def aplay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Aplay:
    """A fake aplay first on PATH; it plays (holds) until released."""
    bin_dir, log = tmp_path / "bin", tmp_path / "aplay-log"
    bin_dir.mkdir()
    log.mkdir()
    script = bin_dir / "aplay"
    script.write_text(FAKE_APLAY)
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("FAKE_APLAY_DIR", str(log))
    monkeypatch.setenv("FAKE_APLAY_HOLD", "30")
    return Aplay(log)


@pytest.fixture
def errors() -> list[str]:
    return []


@pytest.fixture
def speaker(errors: list[str]) -> Iterator[EspeakSpeaker]:
    made = EspeakSpeaker("en-gb", 160, 100, device="null", on_error=errors.append)
    try:
        yield made
    finally:
        made.close()


@needs_espeak
def test_say_returns_while_the_audio_still_plays(aplay: Aplay, speaker: EspeakSpeaker) -> None:
    # aplay "plays" until released: a say() that waited for the audio would never return
    speaker.say([Cue("Red throws five and one.", CueKind.THROW)])
    until(lambda: aplay.runs() and aplay.audio(aplay.runs()[0]), "aplay got the audio")
    (run,) = aplay.runs()
    assert not aplay.done(run)  # still playing, and say() has returned
    assert aplay.args(run) == ["-q", "-D", "null"]
    audio = aplay.audio(run)
    assert audio is not None and int(str(audio["bytes"])) > 10_000  # a WAV of speech
    aplay.release()
    until(lambda: aplay.done(run), "aplay ended")


@needs_espeak
def test_a_new_turn_cuts_off_the_cue_playing_and_drops_those_waiting(
    aplay: Aplay, speaker: EspeakSpeaker, errors: list[str]
) -> None:
    speaker.say([Cue("Red moves from twelve to eighteen.", CueKind.MOVE)])
    speaker.say([Cue("Red is trapped for two turns.", CueKind.EVENT)])  # waits behind it
    until(lambda: aplay.runs(), "the first cue is playing")
    first = aplay.runs()[0]
    speaker.say([Cue("Blue's turn.", CueKind.TURN), Cue("Blue throws three.", CueKind.THROW)])
    until(lambda: len(aplay.runs()) >= 2, "the turn's cue is playing")
    runs = aplay.runs()
    assert not aplay.done(first)  # killed: it never finished playing
    aplay.release()
    until(lambda: len(aplay.runs()) >= 3 and aplay.done(aplay.runs()[2]), "the throw was said")
    time.sleep(0.3)  # time enough for a stale cue to start, were it still queued
    assert len(aplay.runs()) == 3  # the move (cut), the turn, the throw; the trap dropped
    assert not aplay.done(first)
    turn, throw = runs[1], aplay.runs()[2]
    assert aplay.audio(turn) != aplay.audio(throw)
    assert errors == []  # a cue cut off is no failure


@needs_espeak
def test_repeat_says_the_last_cues_again(aplay: Aplay, speaker: EspeakSpeaker) -> None:
    aplay.release()  # every cue plays to its end at once
    speaker.say([Cue("Red throws five and one.", CueKind.THROW)])
    speaker.say([Cue("Blue wins the game.", CueKind.WINNER)])
    until(lambda: len(aplay.runs()) == 2 and aplay.done(aplay.runs()[1]), "both said")
    speaker.repeat()
    until(lambda: len(aplay.runs()) == 3 and aplay.done(aplay.runs()[2]), "said again")
    throw, winner, again = aplay.runs()
    assert aplay.audio(again) == aplay.audio(winner) != aplay.audio(throw)


def test_without_espeak_ng_one_failure_is_reported_and_the_rest_is_silence(
    aplay: Aplay, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, errors: list[str]
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))  # the fake aplay only: no espeak-ng
    speaker = EspeakSpeaker("en-gb", on_error=errors.append)
    try:
        speaker.say([Cue("Red's turn.", CueKind.TURN)])
        until(lambda: errors, "the failure was reported")
        for _ in range(3):
            speaker.say([Cue("Red throws five.", CueKind.THROW)])
            speaker.say([Cue("Blue's turn.", CueKind.TURN)])
        time.sleep(0.5)  # time enough for more reports, were they sent
    finally:
        speaker.close()
    assert errors == ["espeak-ng is not installed: the game goes on without speech."]
    assert aplay.runs() == []


@needs_espeak
def test_an_audio_device_that_fails_is_one_line_naming_the_device(
    aplay: Aplay, monkeypatch: pytest.MonkeyPatch, errors: list[str]
) -> None:
    monkeypatch.setenv("FAKE_APLAY_FAIL", "1")
    speaker = EspeakSpeaker("en-gb", device="plughw:1,0", on_error=errors.append)
    try:
        for _ in range(3):
            speaker.say([Cue("Red's turn.", CueKind.TURN)])
        until(lambda: errors, "the failure was reported")
        time.sleep(0.5)
    finally:
        speaker.close()
    # aplay's own words ("audio open error: ...") go to the log, not to the players: the
    # line is the catalogue's, whole, in the language in use (issue 35)
    assert errors == ["No sound from plughw:1,0: the sound device cannot be used "
                      "(companion doctor says more)."]


@needs_espeak
def test_close_stops_the_cue_playing_and_ends_the_child(aplay: Aplay, speaker: EspeakSpeaker) -> None:
    speaker.say([Cue("Red moves from twelve to eighteen.", CueKind.MOVE)])
    until(lambda: aplay.runs(), "playing")
    speaker.close()
    speaker.close()  # idempotent
    assert not speaker._writer.is_alive()
    time.sleep(0.2)
    assert not aplay.done(aplay.runs()[0])  # killed, not played to its end
    speaker.say([Cue("Too late.", CueKind.EVENT)])  # ignored after close
    assert len(aplay.runs()) == 1


def test_the_voice_follows_the_language_when_none_is_set(monkeypatch: pytest.MonkeyPatch) -> None:
    assert voice_for("en") == "en-gb" and voice_for("de") == "de" and voice_for("fr") == "fr"
    made = []
    for code, voice in (("en", ""), ("de", ""), ("de", "en-us")):
        # the language in use (the German catalogue may not be on this branch yet)
        monkeypatch.setattr("companion.speech.engine.language", lambda code=code: code)
        speaker = EspeakSpeaker(voice, on_error=lambda text: None)
        speaker.close()
        made.append(speaker.voice)
    assert made == ["en-gb", "de", "en-us"]


def sox_stat(path: Path) -> dict[str, float]:
    done = subprocess.run(["sox", str(path), "-n", "stat"], capture_output=True, text=True,
                          check=True)
    found = {}
    for line in done.stderr.splitlines():
        m = re.match(r"(Length \(seconds\)|RMS +amplitude):\s+(\S+)", line)
        if m:
            found[m.group(1).split()[0]] = float(m.group(2))
    return found


@needs_espeak
@needs_sox
def test_wav_speaker_writes_each_cue_as_a_non_silent_numbered_wav_and_an_index(
    tmp_path: Path,
) -> None:
    out = tmp_path / "speech"
    out.mkdir()
    (out / "0007.wav").write_bytes(b"an earlier run")
    cues = [Cue("Red's turn.", CueKind.TURN), Cue("Red throws five and one.", CueKind.THROW),
            Cue("Rot wirft fünf und eins.", CueKind.THROW)]
    speaker = WavSpeaker(out, voice="en-gb")
    speaker.say(cues[:2])
    speaker.say(cues[2:])
    speaker.close()
    assert sorted(p.name for p in out.glob("*.wav")) == ["0001.wav", "0002.wav", "0003.wav"]
    index = (out / "cues.txt").read_text(encoding="utf-8").splitlines()
    assert index == [f"{n:04d}.wav\t{c.text}" for n, c in enumerate(cues, 1)]
    for n in (1, 2, 3):
        stat = sox_stat(out / f"{n:04d}.wav")
        assert stat["RMS"] > 0.02, f"{n:04d}.wav is silent"
        assert 0.3 < stat["Length"] < 6.0, f"{n:04d}.wav lasts {stat['Length']} s"


def test_wav_speaker_without_espeak_ng_says_so_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, errors: list[str]
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    speaker = WavSpeaker(tmp_path / "speech", voice="en-gb", on_error=errors.append)
    speaker.say([Cue("one"), Cue("two")])
    speaker.close()
    assert errors == ["espeak-ng is not installed: the game goes on without speech."]
    assert speaker.written == []
    assert len((tmp_path / "speech" / "cues.txt").read_text().splitlines()) == 2


def test_an_engine_that_keeps_dying_is_reported_once_and_not_restarted_in_a_storm(
    tmp_path: Path, errors: list[str]
) -> None:
    starts = tmp_path / "starts"
    broken = tmp_path / "python"  # stands in for the interpreter of the child program
    broken.write_text(f"#!/bin/sh\necho started >> {starts}\nexit 3\n")
    broken.chmod(0o755)
    speaker = EspeakSpeaker("en-gb", on_error=errors.append, python=str(broken))
    try:
        until(starts.exists, "the child was started")
        time.sleep(0.2)  # it has died
        for n in range(20):
            speaker.say([Cue(f"Cue {n}.", CueKind.TURN)])
            time.sleep(0.02)
        until(lambda: errors, "the death was reported")
        time.sleep(0.3)
    finally:
        speaker.close()
    assert errors == ["The speech engine stopped. It starts again in a while."]
    assert len(starts.read_text().splitlines()) == 1  # not started again within the pause


@pytest.fixture
def quick_restart(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pause after a failure shortened (5 s in the product), so that a test sees
    speech start again."""
    monkeypatch.setattr("companion.speech.engine.BACKOFF", 0.2)


def gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (gone, or a zombie not yet reaped by init)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state in ("Z", "X")


HUNG = "Speech hung: nothing was said in time. It starts again in a while."


@needs_espeak
def test_an_aplay_that_never_exits_is_reported_once_killed_and_speech_starts_again(
    aplay: Aplay, errors: list[str], quick_restart: None
) -> None:
    """Issue 35: an aplay that never ends kept the box silent for the rest of the session
    with no word. The watchdog (a bound of 1 s + 1x the cue's length here; 10 s + 3x in
    the product) reports it once, kills the engine with its aplay, and the next cue
    starts a new engine that speaks."""
    speaker = EspeakSpeaker("en-gb", device="null", on_error=errors.append,
                            hang_base=1.0, hang_factor=1.0)
    try:
        speaker.say([Cue("Red throws five and one.", CueKind.THROW)])
        until(lambda: errors, "the hang was reported", timeout=60)
        (run,) = aplay.runs()
        assert errors == [HUNG] and not aplay.done(run)
        until(lambda: gone(int(run.rsplit("-", 1)[1])), "the hung aplay was killed")
        aplay.release()                               # aplay plays to its end from now on
        time.sleep(0.3)                               # the pause after a failure is over
        speaker.say([Cue("Blue's turn.", CueKind.TURN)])
        until(lambda: len(aplay.runs()) == 2 and aplay.done(aplay.runs()[1]), "said again",
              timeout=60)
        assert errors == [HUNG]
    finally:
        speaker.close()


def test_an_espeak_ng_that_stops_is_reported_and_killed_with_its_aplay(
    aplay: Aplay, tmp_path: Path, errors: list[str], quick_restart: None
) -> None:
    """The other way speech hangs: espeak-ng stopped (SIGSTOP) halfway; aplay waits for
    the rest of its audio for good. Reported once as hung; both are killed."""
    pids = tmp_path / "espeak-pids"
    fake = tmp_path / "bin" / "espeak-ng"
    fake.write_text(f"#!/bin/sh\necho $$ >> {pids}\nkill -STOP $$\n")
    fake.chmod(0o755)
    aplay.release()                                   # aplay would end with its input
    speaker = EspeakSpeaker("en-gb", device="null", on_error=errors.append,
                            hang_base=1.0, hang_factor=1.0)
    try:
        speaker.say([Cue("Red's turn.", CueKind.TURN)])
        until(lambda: errors, "the hang was reported", timeout=60)
        assert errors == [HUNG]
        (espeak,) = (int(line) for line in pids.read_text().split())
        (run,) = aplay.runs()
        until(lambda: gone(espeak) and gone(int(run.rsplit("-", 1)[1])), "both were killed")
    finally:
        speaker.close()


def test_a_failure_is_shown_in_the_language_in_use_without_a_program_s_english() -> None:
    """Was: "Kein Ton von plughw:1,0: audio open error: No such file or directory" (aplay's
    English inside a German sentence). Every line of a failure is the catalogue's."""
    from companion.i18n import set_language
    from companion.speech.engine import failure_text

    detail = "audio open error: No such file or directory"
    set_language("de")
    try:
        lines = {kind: failure_text(kind, detail, "plughw:1,0")
                 for kind in ("no-espeak", "no-aplay", "audio", "espeak", "engine", "hung")}
    finally:
        set_language("en")
    english = {kind: failure_text(kind, detail, "plughw:1,0") for kind in lines}
    for kind, line in lines.items():
        assert "error" not in line and "No such" not in line, line
        assert line != english[kind], f"{kind}: not translated"
    assert "plughw:1,0" in lines["audio"]
