"""``companion doctor``: what works on this box, and a one-line fix for what does not.

A person runs it on the Pi after wiring (``hardware/README.md``) or when something is
wrong. Each check reports ``OK`` or ``FIX`` (with what to do) or ``INFO`` (nothing to
fix, or nothing that can be checked here). Off a Pi it runs too, and says what is
missing instead of failing. The probes that touch hardware are injected (see
:class:`Probes`), so the checks are tested without a Pi.
"""

from __future__ import annotations

import enum
import errno
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.app import config as cfg
from companion.app import lock
from companion.devices.events import ButtonName, SourceName
from companion.errors import CompanionError
from companion.journal.store import DAMAGED, SUFFIX, UNUSABLE, JournalError, load

SERVICE = "board-companion"
"""The systemd unit's name (``systemd/board-companion.service``)."""
SERVICE_STATE_DIR = "/var/lib/board-companion"
"""The service's state folder: the unit's ``StateDirectory=board-companion``, which
systemd hands the service as ``$STATE_DIRECTORY`` (a person's shell has no such variable)."""


class Verdict(enum.Enum):
    OK = "OK"
    FIX = "FIX"
    INFO = "INFO"


@dataclass(frozen=True, slots=True)
class Finding:
    """One line of the report: ``what`` was checked, the verdict, what was seen, the fix."""

    what: str
    verdict: Verdict
    seen: str
    fix: str = ""

    def line(self) -> str:
        text = f"{self.verdict.value:<5} {self.what}: {self.seen}"
        return f"{text}\n      -> {self.fix}" if self.fix else text


def _read_model() -> str | None:
    try:
        return Path("/proc/device-tree/model").read_text(errors="replace").rstrip("\0\n")
    except OSError:
        return None


class NoPinFactory(CompanionError, RuntimeError):
    """gpiozero could load no pin factory; ``tried`` says why each one failed."""

    def __init__(self, reason: str, tried: list[str]) -> None:
        super().__init__(reason)
        self.tried = tried


def _pin_factory() -> Any:
    """The pin factory gpiozero itself picks, as the service's buttons will get it:
    ``$GPIOZERO_PIN_FACTORY`` if set, else the first of lgpio, rpigpio (RPi.GPIO),
    pigpio, native that loads.

    :raises NoPinFactory: with gpiozero's reason for each factory it could not load.
    """
    from gpiozero import Device
    from gpiozero.exc import PinFactoryFallback

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            Device.ensure_pin_factory()
        except Exception as exc:
            tried = [str(w.message).removeprefix("Falling back from ")
                     for w in caught if issubclass(w.category, PinFactoryFallback)]
            raise NoPinFactory(f"{type(exc).__name__}: {exc}", tried) from None
    return Device.pin_factory


def _library_origin(module: str) -> str | None:
    """The directory ``module`` (``lgpio``, ``RPi.GPIO``) would be imported from, or
    ``None``: apt's are in ``/usr/lib/python3/dist-packages``."""
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin:
        return None
    return str(Path(spec.origin).parent)


def _venv_sees_system_packages() -> bool | None:
    """Whether this interpreter's venv sees apt's packages (``--system-site-packages``);
    ``None`` outside a venv."""
    if sys.prefix == sys.base_prefix:
        return None
    try:
        text = Path(sys.prefix, "pyvenv.cfg").read_text(errors="replace")
    except OSError:
        return None
    found = re.search(r"^include-system-site-packages\s*=\s*(\w+)", text, re.MULTILINE | re.IGNORECASE)
    return found is not None and found.group(1).lower() == "true"


def _i2c_probe(bus: int, address: int) -> None:
    """Read one byte from ``address`` on I2C ``bus``; raises ``OSError`` when nothing answers."""
    from smbus2 import SMBus  # luma.core's own I2C dependency

    with SMBus(bus) as smbus:
        smbus.read_byte(address)


def _find_shaker() -> str | None:
    from companion.devices.shaker_link import find_shaker_port

    return find_shaker_port()


def _systemctl(*args: str) -> tuple[int, str]:
    """``systemctl ARGS``: (exit status, output); raises ``OSError`` without systemctl."""
    if shutil.which("systemctl") is None:
        raise FileNotFoundError("systemctl")
    done = subprocess.run(
        ["systemctl", *args], capture_output=True, text=True, timeout=10, check=False
    )
    return done.returncode, (done.stdout or done.stderr).strip()


APLAY_TIMEOUT = 10.0
"""Seconds ``aplay`` may take to play the doctor's tenth of a second of silence (a device
that hangs takes forever)."""


def _silent_wav(seconds: float = 0.1, rate: int = 8000) -> bytes:
    """A WAV file of ``seconds`` of silence (16-bit mono at ``rate`` Hz)."""
    import io
    import wave

    out = io.BytesIO()
    with wave.open(out, "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(rate)
        wav.writeframes(b"\0\0" * int(seconds * rate))
    return out.getvalue()


def play_silence(device: str, timeout: float = APLAY_TIMEOUT) -> str | None:
    """Open the ALSA playback ``device`` (empty: the default) as speech does, with
    ``aplay -q [-D device]`` playing a tenth of a second of silence: ``None`` when it
    played, else what went wrong in aplay's own words (its last line that is not the
    ALSA library's chatter), or that it did not finish within ``timeout`` seconds."""
    command = ["aplay", "-q"] + (["-D", device] if device else [])
    try:
        done = subprocess.run(command, input=_silent_wav(), capture_output=True,
                              timeout=timeout, check=False)
    except FileNotFoundError:
        return "aplay is not on $PATH"
    except subprocess.TimeoutExpired:
        return f"aplay did not finish within {timeout:g} s (the device hangs)"
    except OSError as exc:
        return f"aplay could not be run: {exc.strerror or exc}"
    if done.returncode == 0:
        return None
    lines = [ln.strip() for ln in done.stderr.decode(errors="replace").splitlines()]
    lines = [ln for ln in lines if ln and not ln.startswith("ALSA lib")]
    said = re.sub(r"^aplay: \w+:\d+: ", "", lines[-1]) if lines else ""
    return said[:160] or f"aplay ended with exit status {done.returncode}"


@dataclass
class Probes:
    """The doctor's access to the machine; tests replace any of them."""

    read_model: Callable[[], str | None] = _read_model
    pin_factory: Callable[[], Any] = _pin_factory
    i2c_probe: Callable[[int, int], None] = _i2c_probe
    find_shaker: Callable[[], str | None] = _find_shaker
    systemctl: Callable[..., tuple[int, str]] = _systemctl
    path_exists: Callable[[str], bool] = field(default=os.path.exists)
    library_origin: Callable[[str], str | None] = _library_origin
    venv_sees_system_packages: Callable[[], bool | None] = _venv_sees_system_packages
    environ: Mapping[str, str] = field(default_factory=lambda: os.environ)
    which: Callable[[str], str | None] = shutil.which
    lock_holder: Callable[[Path], int | None] = lock.holder
    play_silence: Callable[[str], str | None] = play_silence


def check_model(probes: Probes) -> Finding:
    model = probes.read_model()
    if model is None:
        return Finding("Pi model", Verdict.INFO, "not a Raspberry Pi (no /proc/device-tree/model)",
                       "off a Pi, `companion run` uses mock pins and draws the OLED in the terminal")
    if "Raspberry Pi" not in model:
        return Finding("Pi model", Verdict.FIX, model, "the companion is built for a Raspberry Pi")
    return Finding("Pi model", Verdict.OK, model)


FACTORY_NAMES = {
    "LGPIOFactory": ("lgpio", "lgpio"),
    "RPiGPIOFactory": ("rpigpio", "RPi.GPIO"),
    "PiGPIOFactory": ("pigpio", "pigpio"),
    "NativeFactory": ("native", ""),
}
"""gpiozero's class -> (its name for ``$GPIOZERO_PIN_FACTORY``, the library it loads)."""


def _apt_fix(probes: Probes) -> str:
    if probes.venv_sees_system_packages() is False:
        return ("this venv cannot see apt's packages: make it again with python3 -m venv "
                "--system-site-packages (sudo systemd/install.sh does), then "
                "sudo apt install python3-lgpio")
    return ("on Raspberry Pi OS: sudo apt install python3-lgpio, in a venv made with "
            "--system-site-packages (systemd/install.sh does both)")


def check_pin_factory(probes: Probes) -> tuple[Finding, Any]:
    """Which pin factory gpiozero will use for the buttons, why, and from where its
    library comes; a fix when it found none or fell back past lgpio."""
    forced = probes.environ.get("GPIOZERO_PIN_FACTORY")
    try:
        factory = probes.pin_factory()
    except Exception as exc:  # gpiozero raises BadPinFactory, ImportError, RuntimeError...
        tried = "; ".join(getattr(exc, "tried", ()))
        seen = (f"$GPIOZERO_PIN_FACTORY={forced} did not load ({exc})" if forced
                else f"gpiozero found none ({type(exc).__name__})"
                + (f": {tried}" if tried else ""))
        model = probes.read_model()
        if model is None or "Raspberry Pi" not in model:  # nothing to install: no GPIO here
            return Finding("pin factory", Verdict.INFO,
                           f"{seen}; off a Pi none is needed: `companion run` uses mock pins"), None
        lgpio = probes.library_origin("lgpio")
        if lgpio is not None:  # installed and importable: it is the chip it cannot open
            return Finding("pin factory", Verdict.FIX, seen,
                           f"lgpio is installed ({lgpio}) but could not open the GPIO chip: "
                           "check that /dev/gpiochip0 exists and that this user is in the gpio "
                           "group (sudo usermod -aG gpio $USER, log in again)"), None
        return Finding("pin factory", Verdict.FIX, seen, _apt_fix(probes)), None
    cls = type(factory).__name__
    name, library = FACTORY_NAMES.get(cls, (cls, ""))
    origin = probes.library_origin(library) if library else None
    source = f", {library} from {origin}" if origin else ""
    if cls == "NativeFactory":
        return Finding("pin factory", Verdict.FIX, "NativeFactory (gpiozero's last resort)",
                       _apt_fix(probes)), factory
    if forced:
        return Finding("pin factory", Verdict.OK,
                       f"{name} ({cls}, set by $GPIOZERO_PIN_FACTORY){source}"), factory
    if name == "lgpio":
        return Finding("pin factory", Verdict.OK,
                       f"lgpio ({cls}, gpiozero's first choice){source}"), factory
    if cls in FACTORY_NAMES:  # rpigpio or pigpio: lgpio would not load
        return Finding("pin factory", Verdict.INFO,
                       f"{name} ({cls}): gpiozero fell back, lgpio did not load{source}",
                       _apt_fix(probes)), factory
    return Finding("pin factory", Verdict.OK, f"{cls} (chosen by gpiozero){source}"), factory


def check_oled(conf: Mapping[str, Any], probes: Probes) -> Finding:
    bus, address = int(conf["display.i2c_port"]), int(conf["display.i2c_address"])
    where = f"{conf['display.driver']} at 0x{address:02X} on I2C bus {bus}"
    if not probes.path_exists(f"/dev/i2c-{bus}"):
        return Finding("OLED", Verdict.FIX, f"no /dev/i2c-{bus}",
                       "enable I2C: sudo raspi-config nonint do_i2c 0 (then reboot)")
    try:
        probes.i2c_probe(bus, address)
    except PermissionError:
        return Finding("OLED", Verdict.FIX, f"/dev/i2c-{bus}: permission denied",
                       "add yourself to the i2c group: sudo usermod -aG i2c $USER, log in again")
    except OSError as exc:
        if exc.errno in (errno.ENXIO, errno.EREMOTEIO, errno.EIO):
            return Finding("OLED", Verdict.FIX, f"nothing answers: {where}",
                           f"check SDA/SCL/3V3/GND wiring; `i2cdetect -y {bus}` lists what answers "
                           "(0x3D: set display.i2c_address)")
        return Finding("OLED", Verdict.FIX, f"{where}: {exc.strerror or exc}",
                       f"`i2cdetect -y {bus}` lists what answers")
    return Finding("OLED", Verdict.OK, f"{where} answers")


def check_buttons(conf: Mapping[str, Any], factory: Any) -> Finding:
    pins = {
        b.value: conf[f"buttons.{b.value}"] for b in ButtonName
        if conf.get(f"buttons.{b.value}") is not None
    }
    if factory is None:
        return Finding("buttons", Verdict.INFO, "not read: no pin factory", "")
    from gpiozero import DigitalInputDevice

    pressed, failed = [], []
    for name, pin in pins.items():
        try:
            device = DigitalInputDevice(pin, pull_up=True, pin_factory=factory)
        except Exception as exc:
            failed.append(f"{name} (BCM {pin}): {type(exc).__name__}")
            continue
        try:
            if device.is_active:
                pressed.append(f"{name} (BCM {pin})")
        finally:
            device.close()
    if failed:
        return Finding("buttons", Verdict.FIX, "cannot read " + ", ".join(failed),
                       "another program holds the pin? stop the service: sudo systemctl stop "
                       f"{SERVICE}")
    if pressed:
        return Finding("buttons", Verdict.FIX, "read as pressed at rest: " + ", ".join(pressed),
                       "wire each button between its GPIO and GND (not 3V3); release it and run again")
    listed = ", ".join(f"{n} BCM {p}" for n, p in pins.items())
    return Finding("buttons", Verdict.OK, f"released: {listed}")


def check_shaker(conf: Mapping[str, Any], probes: Probes) -> Finding:
    source = conf["throw.source"]
    if source == SourceName.SERIAL_SHAKER:
        port = str(conf.get("serial.port") or "")
        found = port if port and probes.path_exists(port) else None if port else probes.find_shaker()
        if found is None:
            wanted = port or "a USB serial port 2E8A:0005"
            return Finding("shaker", Verdict.FIX, f"Pico shaker not found ({wanted})",
                           "plug the Pico in with a data USB cable; firmware/README.md shows how "
                           "to flash it; `ls /dev/ttyACM*`")
        return Finding("shaker", Verdict.OK, f"Pico shaker at {found}")
    if source == SourceName.GPIO_SHAKER:
        return Finding("shaker", Verdict.INFO,
                       f"vibration switch on BCM {conf['shaker.pin']} (shake it while the "
                       "companion runs: the screen says 'shaking...')")
    return Finding("shaker", Verdict.INFO, f"throw source {source!r}: no shaker needed")


def check_service(probes: Probes) -> Finding:
    try:
        status, text = probes.systemctl("is-active", SERVICE)
    except (OSError, subprocess.SubprocessError):
        return Finding("service", Verdict.INFO, "systemd is not available here",
                       "on the Pi, sudo systemd/install.sh installs the service")
    if status == 0:
        return Finding("service", Verdict.OK, f"{SERVICE} is {text}")
    if "not been booted with systemd" in text or "Failed to connect" in text:
        return Finding("service", Verdict.INFO, "systemd is not running here", "")
    return Finding("service", Verdict.FIX, f"{SERVICE} is {text or 'not running'}",
                   f"sudo systemctl start {SERVICE}; journalctl -u {SERVICE} -e says why")


def state_folder(conf: Mapping[str, Any], origins: Mapping[str, str], probes: Probes) -> tuple[Path, str]:
    """The folder of the saved games the service uses, and where that came from:
    ``journal.dir`` (of the config file named, or the command line), else
    ``$STATE_DIRECTORY``, else the service's own folder (:data:`SERVICE_STATE_DIR`,
    when it exists: the unit sets ``$STATE_DIRECTORY`` only for the service), else the
    default of a person's ``companion run`` (``~/.local/state/board-companion``)."""
    if conf["journal.dir"]:
        origin = origins.get("journal.dir", "")
        where = "the command line" if origin in ("", "command line") else origin
        return Path(conf["journal.dir"]), f"journal.dir of {where}"
    state = probes.environ.get("STATE_DIRECTORY")
    if state:
        return Path(state.split(":")[0]), "$STATE_DIRECTORY"
    if probes.path_exists(SERVICE_STATE_DIR):
        return Path(SERVICE_STATE_DIR), "the service's StateDirectory"
    return Path(cfg.default_state_dir()), "the default"


def check_games(conf: Mapping[str, Any], origins: Mapping[str, str] | None = None,
                probes: Probes | None = None) -> Finding:
    """The saved games in the service's state folder (:func:`state_folder`, named with
    where it came from): how many finished (won), abandoned (ended from the pause menu),
    unfinished (to resume) and damaged (read only: nothing is repaired or renamed
    here), how many set-aside copies are kept, and the process that holds the folder
    (``companion run`` writes its id into ``companion.lock``)."""
    probes = probes or Probes()
    directory, origin = state_folder(conf, origins or {}, probes)
    if not directory.exists():
        return Finding("saved games", Verdict.INFO, f"none yet ({directory}, {origin}, does not exist)")
    if not os.access(directory, os.W_OK):
        return Finding("saved games", Verdict.FIX, f"{directory} ({origin}) is not writable",
                       "games could not be saved: check its owner (the service's user)")
    finished = abandoned = unfinished = damaged = 0
    for path in directory.glob("*" + SUFFIX):
        try:
            loaded = load(path, repair=False)
        except (JournalError, OSError):
            damaged += 1
            continue
        if loaded.damage is not None:
            damaged += 1
        elif loaded.state.outcome is not None:
            finished += 1
        elif loaded.ended:  # an end record without a winner: "End game"
            abandoned += 1
        else:
            unfinished += 1
    kept = sum(1 for p in directory.glob("*" + SUFFIX + ".*")
               if p.name.split(SUFFIX, 1)[1].startswith((DAMAGED, UNUSABLE)))
    seen = f"{finished} finished, {abandoned} abandoned, {unfinished} unfinished in {directory} ({origin})"
    if kept:
        seen += f"; {kept} set-aside copies (*{DAMAGED}, *{UNUSABLE}) kept"
    pid = probes.lock_holder(directory)
    if pid is not None:
        seen += f"; in use by process {pid} (a running companion: `ps -p {pid}` names it)"
    if damaged:
        return Finding("saved games", Verdict.INFO, f"{seen}; {damaged} damaged",
                       "at its next start the companion keeps a copy of each damaged journal, "
                       "then offers the intact part of the newest game")
    return Finding("saved games", Verdict.OK, seen)


SPEECH_PROGRAMS = (("espeak-ng", "espeak-ng"), ("aplay", "alsa-utils"))
"""The programs speech runs (``espeak-ng --stdout | aplay``) and their Debian packages."""


def check_speech(conf: Mapping[str, Any], origins: Mapping[str, str], probes: Probes) -> Finding:
    """With speech on: espeak-ng and aplay on ``$PATH``, and the playback device
    (``speech.device``) opened for real: a moment of silence played through it (a box
    with no sound card is told here, not when a game begins). On as the service sees
    it: the command line's ``--speech.enabled``, else Speech as the box's Settings saved
    it in the state folder (read only: a bad file is left alone), else the config
    file's."""
    enabled, where = bool(conf["speech.enabled"]), origins.get("speech.enabled", "default")
    if where != "command line":
        from companion.app.settings import FILE_NAME

        saved = state_folder(conf, origins, probes)[0] / FILE_NAME
        try:
            kept = cfg.load_file(saved) if saved.is_file() else {}
        except cfg.ConfigError:
            kept = {}  # the service sets it aside at its next start and says so
        if "speech.enabled" in kept:
            enabled, where = bool(kept["speech.enabled"]), "the box's Settings"
    if not enabled:
        return Finding("speech", Verdict.INFO, "off (Settings > Speech, or speech.enabled)")
    found = {program: probes.which(program) for program, _ in SPEECH_PROGRAMS}
    missing = [(program, package) for program, package in SPEECH_PROGRAMS if found[program] is None]
    if missing:
        return Finding("speech", Verdict.FIX,
                       f"on ({where}), but not on $PATH: {', '.join(p for p, _ in missing)}",
                       "sudo apt install " + " ".join(dict.fromkeys(k for _, k in missing)))
    device = str(conf.get("speech.device") or "")
    named = device or "the default sound device"
    problem = probes.play_silence(device)
    if problem is not None:
        return Finding("speech", Verdict.FIX, f"on ({where}), but {named} cannot play: {problem}",
                       "`aplay -l` lists the sound cards: set speech.device to one (plughw:1,0 "
                       "for a USB speaker), or turn speech off (busy: the service may be "
                       "speaking; try again)")
    return Finding("speech", Verdict.OK,
                   f"on ({where}): " + ", ".join(f"{p} at {found[p]}" for p, _ in SPEECH_PROGRAMS)
                   + f"; {named} played a moment of silence")


def diagnose(conf: Mapping[str, Any], probes: Probes | None = None,
             origins: Mapping[str, str] | None = None) -> list[Finding]:
    """Every check, in the order a person wiring the box needs them; ``origins`` (of
    :func:`companion.app.config.resolve`) says where each setting came from."""
    probes = probes or Probes()
    origins = origins or {}
    factory_finding, factory = check_pin_factory(probes)
    findings = [
        check_model(probes),
        factory_finding,
        check_oled(conf, probes),
        check_buttons(conf, factory),
        check_shaker(conf, probes),
        check_service(probes),
        check_speech(conf, origins, probes),
        check_games(conf, origins, probes),
    ]
    if factory is not None:
        factory.close()
    return findings
