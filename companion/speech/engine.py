"""The engine that says the cues: espeak-ng piped into ALSA's ``aplay``, run by a small
child program, so the service's loop never waits for speech.

Two processes, two sides:

* the service's side, :class:`EspeakSpeaker`: :meth:`~EspeakSpeaker.say` puts one
  message on a bounded queue and returns; a writer thread of its own starts the child
  program and writes each message to the child's stdin as one JSON line; a reader
  thread turns the child's reports into ``on_error`` calls (the service posts them to
  its loop as a ``SpeechFailed`` event);
* the child, ``python -m companion.speech.engine --voice V --rate R --volume A
  [--device D]`` (:func:`main`): reads the JSON lines, keeps the texts waiting in
  order and says each with ``espeak-ng -v V -s R -a A --stdout TEXT | aplay -q [-D D]``
  (an OS pipe between the two programs: no Python touches the audio).

Why a child program rather than threads in the service, or :mod:`multiprocessing`:
the service's process never forks (it holds gpiozero's threads and a frozen heap of a
hundred MB or so); the pipes, waits and kills of espeak-ng and aplay run outside the
loop's interpreter lock; a crash on the audio side cannot take the game with it. A
``spawn`` context of :mod:`multiprocessing` would start the same kind of process, but
re-import the service's main module in it and add its own feeder thread and pickling;
one JSON line per message is simpler, and can be typed by hand to try the engine::

    echo '{"say": ["Red throws five and one"], "cut": false}' | python -m companion.speech.engine

Why aplay and not espeak-ng's own audio output: espeak-ng plays through pcaudiolib to
the system's default device and cannot be given an ALSA device (``speech.device``:
``plughw:1,0`` for a USB speaker); ``aplay -D`` can, and reports a device that fails.

Messages to the child: ``{"say": [text, ...], "cut": bool, "n": N}``; ``cut`` stops what
is being said and drops what waits before the new texts are queued; ``n`` numbers the
message. End of input: the child stops what it says and exits. Reports from the child,
one JSON line each: ``{"failed": KIND, "detail": TEXT}`` with KIND one of ``no-espeak``,
``no-aplay``, ``audio`` (aplay failed: no such device, device busy), ``espeak``
(espeak-ng failed: an unknown voice); ``{"idle": N}`` when everything of message ``N``
and before is said (or dropped). After a failure the child says nothing for a while
(:data:`BACKOFF`, doubling up to :data:`BACKOFF_MAX` seconds) and reports again only
after a success: one message a streak, no storm of retries.

**The watchdog** (the service's side): a message must be said within a bound that grows
with its length (:func:`hang_bound`: :data:`HANG_BASE` seconds plus :data:`HANG_FACTOR`
times the time its words take at the rate), counted from when the child could begin it.
A child that is not idle by then (an ``aplay`` that never exits, an espeak-ng that
stopped, the child itself stopped) is reported once as ``hung`` and killed with its
whole process group (it runs in a session of its own, so espeak-ng and aplay go with
it); the next message starts a new child after the pause a dead child gets.

What the players are shown (:func:`failure_text`) comes from the message catalogue,
in the language in use; the programs' own words (aplay's English) go to the log only.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

from companion.i18n import _, language
from companion.speech import Cue

log = logging.getLogger(__name__)

VOICES = {"en": "en-gb", "de": "de"}
"""The espeak-ng voice of a language code (others: the code itself)."""

BACKOFF = 5.0
"""Seconds of silence after the first failure (then doubled at each failure in a row)."""
BACKOFF_MAX = 300.0
"""The longest silence after failures in a row, in seconds."""
NICE = 5
"""How much lower the child program (and so espeak-ng and aplay) runs than the service:
on a busy CPU the loop's thread, drawing the next frame, goes first; espeak-ng makes
speech several times faster than it is played, so aplay is not starved."""
QUEUE_SIZE = 32
"""Messages waiting for the child at most; more are dropped (and logged)."""
HANG_BASE = 10.0
"""Seconds a message may take beyond :data:`HANG_FACTOR` times its spoken length before the
watchdog calls the speech hung (espeak-ng's start and a slow Pi Zero included)."""
HANG_FACTOR = 3.0
"""How many times the time its words take at the rate a message may take to be said."""


def hang_bound(texts: Sequence[str], rate: int, base: float = HANG_BASE,
               factor: float = HANG_FACTOR) -> float:
    """The seconds ``texts`` may take to be said at ``rate`` words per minute before the
    watchdog calls the speech hung: ``base`` plus ``factor`` times their words' time."""
    words = sum(max(1, len(t.split())) for t in texts)
    return base + factor * 60.0 * words / max(rate, 1)


def voice_for(code: str) -> str:
    """The espeak-ng voice for the language ``code`` (``"en"`` -> ``"en-gb"``, ``"de"`` ->
    ``"de"``, another code: itself)."""
    return VOICES.get(code, code)


def failure_text(kind: str, detail: str, device: str = "") -> str:
    """A failure of speech (``kind``: a child's report, ``engine`` or ``hung``) as the one
    line the players are shown, wholly from the message catalogue in the language in
    use: ``detail`` (a program's own words, in English) is for the log, not for them."""
    if kind == "no-espeak":
        return _("espeak-ng is not installed: the game goes on without speech.")
    if kind == "no-aplay":
        return _("aplay (alsa-utils) is not installed: the game goes on without speech.")
    if kind == "audio":
        return _("No sound from {device}: the sound device cannot be used "
                 "(companion doctor says more).").format(device=device or _("the default device"))
    if kind == "espeak":
        return _("espeak-ng failed: check the voice in Settings > Speech.")
    if kind == "hung":
        return _("Speech hung: nothing was said in time. It starts again in a while.")
    return _("The speech engine stopped. It starts again in a while.")


# ====================================================================== the service's side


class EspeakSpeaker:
    """Says cues with espeak-ng through ALSA, in a child program (see the module's text).

    ``voice``: an espeak-ng voice (empty: the voice of the language in use,
    :func:`voice_for` of :func:`companion.i18n.language`); ``rate``: words per minute
    (80-450); ``volume``: espeak-ng's amplitude (0-200, 100 normal); ``device``: the ALSA
    device for ``aplay -D`` (empty: the default); ``on_error``: called with one line in
    words when speech fails (a missing espeak-ng or aplay, an audio device that fails, a
    child that dies, speech that hangs), at most once per streak of failures, from a
    thread of the speaker's own: hand it to the loop, never act on it there. ``python``:
    the interpreter of the child program. ``hang_base`` and ``hang_factor``: the
    watchdog's bound (:func:`hang_bound`).

    Nothing here blocks the caller: the child is started by the writer thread (at once,
    so that the first cue does not wait for it to start).
    """

    def __init__(
        self,
        voice: str = "",
        rate: int = 160,
        volume: int = 100,
        device: str = "",
        on_error: Callable[[str], None] | None = None,
        *,
        python: str = sys.executable,
        hang_base: float = HANG_BASE,
        hang_factor: float = HANG_FACTOR,
    ) -> None:
        self.voice = voice or voice_for(language())
        self.rate, self.volume, self.device = rate, volume, device
        self.on_error = on_error or (lambda text: log.warning("speech: %s", text))
        self.python = python
        self.hang_base, self.hang_factor = hang_base, hang_factor
        self._sent = 0
        """The number of the last message written to the child."""
        self._deadline: float | None = None
        """When the child must be idle again (monotonic seconds; ``None``: it is idle)."""
        self.last: list[Cue] = []
        """The last cues given to :meth:`say` (what :meth:`repeat` says again)."""
        self._queue: queue.Queue[dict[str, Any] | None] = queue.Queue(QUEUE_SIZE)
        self._closed = False
        self._lock = threading.Lock()
        self._failing = False
        self._writer = threading.Thread(target=self._write, name="speech-writer", daemon=True)
        self._writer.start()

    # ------------------------------------------------------------------ the Speaker

    def say(self, cues: list[Cue]) -> None:
        """Say ``cues`` after what is being said; a cue that cuts off first stops that and
        drops what waits. Returns at once."""
        if not cues:
            return
        self.last = list(cues)
        self._send([c.text for c in cues], cut=any(c.cuts_off for c in cues))

    def repeat(self) -> None:
        """Say the last cues again, now (what is being said is stopped)."""
        if self.last:
            self._send([c.text for c in self.last], cut=True)

    def close(self) -> None:
        """Stop speaking, end the child program and the threads (idempotent; waits at
        most about two seconds)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._drain()
            self._queue.put_nowait(None)  # room for it: drained, and nothing put after
        self._writer.join(timeout=3)

    # ------------------------------------------------------------------ inside

    def _drain(self) -> None:
        while True:
            try:
                self._queue.get_nowait()
            except queue.Empty:
                return

    def _send(self, texts: list[str], *, cut: bool) -> None:
        with self._lock:
            if self._closed:
                return
            if cut:  # what waits here is as stale as what the child has queued
                self._drain()
            try:
                self._queue.put_nowait({"say": texts, "cut": cut})
            except queue.Full:
                log.warning("speech: %d cues waiting, %r dropped", QUEUE_SIZE, texts)

    def command(self) -> list[str]:
        """The child program's command line."""
        args = [self.python, "-m", "companion.speech.engine", "--voice", self.voice,
                "--rate", str(self.rate), "--volume", str(self.volume)]
        return args + (["--device", self.device] if self.device else [])

    def _start(self) -> subprocess.Popen[bytes] | None:
        try:
            child = subprocess.Popen(
                self.command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                env={**os.environ, "PYTHONPATH": _package_root()}, close_fds=True,
                start_new_session=True,  # its own process group: killed with espeak-ng and aplay
            )
        except OSError as exc:
            self._failed("engine", str(exc))
            return None
        with self._lock:
            self._deadline = None
        threading.Thread(target=self._read, args=(child,), name="speech-reader",
                         daemon=True).start()
        return child

    def _failed(self, kind: str, detail: str) -> None:
        log.warning("speech failed (%s): %s", kind, detail)  # the programs' own words
        if self._failing:
            return
        self._failing = True
        try:
            self.on_error(failure_text(kind, detail, self.device))
        except Exception:
            log.exception("speech: on_error failed")

    def _read(self, child: subprocess.Popen[bytes]) -> None:
        """The child's reports (its stdout), until it ends."""
        assert child.stdout is not None
        for line in child.stdout:
            try:
                report = json.loads(line)
            except ValueError:
                continue
            if "failed" in report:
                self._failed(str(report["failed"]), str(report.get("detail", "")))
            elif report.get("ok"):
                self._failing = False
            if "idle" in report:
                with self._lock:
                    if report["idle"] == self._sent:  # not a message written since
                        self._deadline = None

    def _write(self) -> None:
        """The writer thread: start the child, hand it each message; a child that dies is
        reported once and started again after a pause (doubling, see :data:`BACKOFF`)."""
        backoff, wait_until = BACKOFF, 0.0
        child = self._start()
        while True:
            with self._lock:
                deadline = self._deadline
            try:
                message = self._queue.get(
                    timeout=None if deadline is None else max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                message = {}  # the watchdog's turn: nothing to write
            if message is None:
                break
            if child is not None and self._hung():
                self._failed("hung", "the speech engine was not idle within its bound: killed")
                _kill_group(child)
                child = None
                wait_until, backoff = time.monotonic() + backoff, min(backoff * 2, BACKOFF_MAX)
            if not message:
                continue
            if child is not None and child.poll() is not None:  # it died: said once
                self._failed("engine", f"exit status {child.returncode}")
                _stop_child(child)
                child = None
                wait_until, backoff = time.monotonic() + backoff, min(backoff * 2, BACKOFF_MAX)
            if child is None:
                if time.monotonic() < wait_until:
                    continue  # silent for a while: dropped (no storm of restarts)
                child = self._start()
                if child is None:
                    wait_until, backoff = time.monotonic() + backoff, min(backoff * 2, BACKOFF_MAX)
                    continue
            assert child.stdin is not None
            try:
                self._expect(message)
                child.stdin.write(json.dumps(message).encode() + b"\n")
                child.stdin.flush()
            except OSError as exc:  # the child died: said once, started again after a pause
                self._failed("engine", exc.strerror or str(exc))
                _stop_child(child)
                child = None
                wait_until, backoff = time.monotonic() + backoff, min(backoff * 2, BACKOFF_MAX)
        if child is not None:
            _stop_child(child)

    def _expect(self, message: dict[str, Any]) -> None:
        """Number ``message`` and move the watchdog's deadline by its bound (from now when
        it cuts off what was said, else from when what is queued ends)."""
        texts = [str(t) for t in message.get("say", [])]
        bound = hang_bound(texts, self.rate, self.hang_base, self.hang_factor)
        now = time.monotonic()
        with self._lock:
            self._sent += 1
            message["n"] = self._sent
            start = now if message.get("cut") or self._deadline is None else max(now, self._deadline)
            self._deadline = start + bound

    def _hung(self) -> bool:
        """Whether the child is past its deadline (the deadline is cleared then)."""
        with self._lock:
            if self._deadline is None or time.monotonic() < self._deadline:
                return False
            self._deadline = None
            return True


def _stop_child(child: subprocess.Popen[bytes]) -> None:
    try:
        if child.stdin is not None:
            child.stdin.close()  # end of input: the child stops what it says and exits
    except OSError:
        pass
    try:
        child.wait(timeout=2)
    except subprocess.TimeoutExpired:
        _kill_group(child)


def _kill_group(child: subprocess.Popen[bytes]) -> None:
    """Kill the child and its espeak-ng and aplay (its process group: a session of its
    own), stopped or not, and reap it."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(child.pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        child.kill()
    child.wait()
    for stream in (child.stdin, child.stdout):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()


def _package_root() -> str:
    """The folder that holds the ``companion`` package, first on the child's path (so the
    child runs this very code, installed or not), then the caller's ``PYTHONPATH``."""
    root = str(Path(__file__).resolve().parent.parent.parent)
    rest = os.environ.get("PYTHONPATH", "")
    return root + (os.pathsep + rest if rest else "")


# ====================================================================== to files


class WavSpeaker:
    """Writes each cue as a numbered WAV file (``0001.wav``, ...) into ``directory`` with
    ``espeak-ng -w``, and one line ``NNNN.wav<TAB>text`` per cue into ``cues.txt`` there:
    a whole game to listen to (``companion demo --speech DIR``). WAVs and an index of an
    earlier run in ``directory`` are removed first.

    ``voice`` (empty: the language's, as :class:`EspeakSpeaker`), ``rate``, ``volume`` as
    for :class:`EspeakSpeaker`. A thread of its own runs espeak-ng, so :meth:`say` returns
    at once; :meth:`close` waits until every file is written. The numbering and the
    index are written by :meth:`say`, in the caller's order. ``on_error`` is called once
    with the first failure in words (later cues are then only listed in ``cues.txt``).

    :raises OSError: ``directory`` cannot be made or written.
    """

    def __init__(self, directory: Path, voice: str = "", rate: int = 160, volume: int = 100,
                 on_error: Callable[[str], None] | None = None) -> None:
        self.directory = directory
        self.voice = voice or voice_for(language())
        self.rate, self.volume = rate, volume
        self.on_error = on_error or (lambda text: log.warning("speech: %s", text))
        self.last: list[Cue] = []
        self.written: list[Path] = []
        """The WAV files written so far, in order."""
        self.failed = False
        directory.mkdir(parents=True, exist_ok=True)
        for old in directory.glob("[0-9][0-9][0-9][0-9].wav"):
            old.unlink()
        self.index = directory / "cues.txt"
        self.index.write_text("", encoding="utf-8")
        self._count = 0
        self._queue: queue.SimpleQueue[tuple[Path, str] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None

    def say(self, cues: list[Cue]) -> None:
        """Write ``cues`` as the next numbered WAV files (returns at once)."""
        if not cues:
            return
        self.last = list(cues)
        if self._thread is None:
            self._thread = threading.Thread(target=self._work, name="speech-wav", daemon=True)
            self._thread.start()
        for cue in cues:
            self._count += 1
            name = f"{self._count:04d}.wav"
            with self.index.open("a", encoding="utf-8") as fh:
                fh.write(f"{name}\t{' '.join(cue.text.split())}\n")
            self._queue.put((self.directory / name, cue.text))

    def repeat(self) -> None:
        """Write the last cues again, as new files."""
        self.say(self.last)

    def close(self) -> None:
        """Wait until every file is written (idempotent). A later :meth:`say` goes on
        with the next number: the demo's service closes its speaker and takes it again
        when the speech settings change."""
        thread, self._thread = self._thread, None
        if thread is not None:
            self._queue.put(None)
            thread.join()

    def _work(self) -> None:
        while (item := self._queue.get()) is not None:
            path, text = item
            if self.failed:
                continue
            command = ["espeak-ng", "-v", self.voice, "-s", str(self.rate),
                       "-a", str(self.volume), "-w", str(path), text]
            try:
                done = subprocess.run(command, capture_output=True, check=False)
            except FileNotFoundError:
                self._fail(failure_text("no-espeak", "espeak-ng"))
                continue
            if done.returncode != 0:
                detail = done.stderr.decode(errors="replace").strip().splitlines()
                self._fail(failure_text("espeak", detail[-1] if detail else f"exit status {done.returncode}"))
                continue
            self.written.append(path)

    def _fail(self, text: str) -> None:
        self.failed = True
        try:
            self.on_error(text)
        except Exception:
            log.exception("speech: on_error failed")


# ====================================================================== the child


class Player:
    """The child's side: the texts waiting, said one at a time by :meth:`run` (a thread),
    with ``espeak-ng ... --stdout TEXT | aplay -q [-D device]``. ``report`` is given each
    report (a dict, written as a JSON line by :func:`main`)."""

    def __init__(self, voice: str, rate: int, volume: int, device: str,
                 report: Callable[[dict[str, str | bool | int]], None]) -> None:
        self.voice, self.rate, self.volume, self.device = voice, rate, volume, device
        self.report = report
        self.waiting: deque[str] = deque()
        self._cond = threading.Condition()
        self._playing: list[subprocess.Popen[bytes]] = []
        self._cuts = 0
        """How many cut-offs came so far (one during a text, or before it starts, is seen)."""
        self._stopping = False
        self._failing = False
        self._silent_until = 0.0
        self._backoff = BACKOFF
        self._said = False
        """Whether a text was said to its end by this child."""
        self._received = 0
        """The number of the last message added (see :meth:`add`)."""
        self._idle_said = 0
        """The number last reported idle."""

    def add(self, texts: Sequence[str], cut: bool, number: int = 0) -> None:
        """Queue ``texts``; ``cut`` stops the one being said and drops the waiting first;
        ``number``: the message's, reported with ``idle`` once all of it is done."""
        with self._cond:
            if cut:
                self.waiting.clear()
                self._cuts += 1
                self._kill()
            self.waiting.extend(texts)
            self._received = max(self._received, number)
            self._cond.notify()

    def stop(self) -> None:
        """Stop what is said, drop what waits, end :meth:`run`."""
        with self._cond:
            self._stopping = True
            self.waiting.clear()
            self._cuts += 1
            self._kill()
            self._cond.notify()

    def _kill(self) -> None:
        for proc in self._playing:
            if proc.poll() is None:
                proc.kill()

    def run(self) -> None:
        while True:
            with self._cond:
                while not self.waiting and not self._stopping:
                    if self._received != self._idle_said:  # all said: the watchdog is told
                        self._idle_said = self._received
                        self.report({"idle": self._received})
                    self._cond.wait()
                if self._stopping:
                    return
                text, cuts = self.waiting.popleft(), self._cuts
                if time.monotonic() < self._silent_until:
                    continue  # failed a moment ago: silent for a while
            self.play(text, cuts)

    def play(self, text: str, cuts: int) -> None:
        """Say ``text`` (returns when it is said, stopped or failed); ``cuts``: the
        count of cut-offs when it was taken (a later one stops it, even before it starts)."""
        speak = ["espeak-ng", "-v", self.voice, "-s", str(self.rate), "-a", str(self.volume),
                 "--stdout", text]
        out = ["aplay", "-q"] + (["-D", self.device] if self.device else [])
        with self._cond:
            if self._stopping or self._cuts != cuts:
                return
            try:
                espeak = subprocess.Popen(speak, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            except FileNotFoundError:
                self._fail("no-espeak", "espeak-ng")
                return
            assert espeak.stdout is not None
            try:
                aplay = subprocess.Popen(out, stdin=espeak.stdout, stderr=subprocess.PIPE)
            except FileNotFoundError:
                espeak.kill()
                espeak.wait()
                self._fail("no-aplay", "aplay")
                return
            finally:
                espeak.stdout.close()
            self._playing = [espeak, aplay]
        aplay_err = _first_line(aplay.stderr)
        aplay.wait()
        espeak_err = _first_line(espeak.stderr)
        espeak.wait()
        with self._cond:
            self._playing = []
            if self._cuts != cuts:
                return  # stopped on purpose
        if espeak.returncode not in (0, -signal.SIGPIPE):  # SIGPIPE: aplay ended first
            self._fail("espeak", espeak_err or f"exit status {espeak.returncode}")
        elif aplay.returncode != 0:
            self._fail("audio", aplay_err or f"exit status {aplay.returncode}")
        elif self._failing or not self._said:  # the first success of a child too: the
            self._failing, self._backoff, self._said = False, BACKOFF, True  # service may
            self.report({"ok": True})  # have seen its predecessor fail (or hang)

    def _fail(self, kind: str, detail: str) -> None:
        """Report the first failure of a streak; silent for a while after each."""
        with self._cond:
            self.waiting.clear()
            self._silent_until = time.monotonic() + self._backoff
            self._backoff = min(self._backoff * 2, BACKOFF_MAX)
            first = not self._failing
            self._failing = True
        if first:
            self.report({"failed": kind, "detail": detail})


def _first_line(stream: IO[bytes] | None) -> str:
    """The last non-empty line a program wrote to ``stream`` that is not ALSA's
    library chatter (aplay: ``aplay: main:831: audio open error: No such file or
    directory``), shortened to its message; read to the end."""
    if stream is None:
        return ""
    lines = [ln.strip() for ln in stream.read().decode(errors="replace").splitlines()]
    stream.close()
    lines = [ln for ln in lines if ln and not ln.startswith("ALSA lib")] or [""]
    return re.sub(r"^aplay: \w+:\d+: ", "", lines[-1])[:120]


def main(argv: Sequence[str] | None = None, stdin: IO[str] | None = None,
         stdout: IO[str] | None = None) -> int:
    """The child program: JSON lines in (``{"say": [...], "cut": bool}``), reports out."""
    parser = argparse.ArgumentParser(prog="python -m companion.speech.engine",
                                     description="say JSON lines of texts with espeak-ng and aplay")
    parser.add_argument("--voice", default="en-gb", help="espeak-ng voice")
    parser.add_argument("--rate", type=int, default=160, help="words per minute")
    parser.add_argument("--volume", type=int, default=100, help="amplitude, 0-200")
    parser.add_argument("--device", default="", help="ALSA device for aplay -D (default: none)")
    args = parser.parse_args(argv)
    src = stdin if stdin is not None else sys.stdin
    dst = stdout if stdout is not None else sys.stdout
    lock = threading.Lock()

    def report(what: dict[str, str | bool | int]) -> None:
        with lock:
            try:
                dst.write(json.dumps(what) + "\n")
                dst.flush()
            except (OSError, ValueError):  # the service is gone
                pass

    player = Player(args.voice, args.rate, args.volume, args.device, report)
    thread = threading.Thread(target=player.run, name="speech-player", daemon=True)
    thread.start()
    for line in src:
        try:
            message = json.loads(line)
            texts = [str(t) for t in message.get("say", [])]
        except (ValueError, AttributeError, TypeError):
            print(f"speech engine: not a message: {line.strip()[:80]}", file=sys.stderr)
            continue
        number = message.get("n", 0)
        player.add(texts, bool(message.get("cut", False)), number if isinstance(number, int) else 0)
    player.stop()
    thread.join(timeout=2)
    return 0


__all__ = ["BACKOFF", "BACKOFF_MAX", "HANG_BASE", "HANG_FACTOR", "NICE", "VOICES", "EspeakSpeaker",
           "Player", "WavSpeaker", "failure_text", "hang_bound", "main", "voice_for"]


if __name__ == "__main__":
    with contextlib.suppress(OSError):
        os.nice(NICE)  # the child program only; espeak-ng and aplay inherit it
    sys.exit(main())
