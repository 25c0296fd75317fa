"""Settings changed on the box, saved so that they last.

The settings screen changes a few keys of the configuration at the table (the throw
source, the display's sleep time and contrast, the buzzer and the LED, the language,
speech, the tutor, the camera: :data:`SAVED_KEYS`). Each change is
saved at once, atomically (a temporary file, fsync, rename, fsync of the directory), to
``settings.toml`` in the state directory, a TOML file of those keys only that
:func:`companion.app.config.load_file` reads and checks like any config file. At the
next start they are restored: defaults, then the config file, then these saved
settings, then the command line's flags (a flag given on purpose wins); the log says
where each value came from.

A saved file that cannot be used (a crash of the disk, a hand edit gone wrong) is set
aside as ``settings.toml.unusable`` (``.unusable.1``, ... : never over an earlier one)
and reported; the service starts without it. Only the copy that holds the state
folder's lock (:mod:`companion.app.lock`) may set it aside: ``companion run`` reads the
saved settings after taking the lock, and ``run --print-config`` reads them without
setting anything aside (``set_aside=False``).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.app import config as cfg
from companion.journal.store import set_aside as set_aside_file
from companion.rules.datafile import replace_atomically

log = logging.getLogger(__name__)

SAVED_KEYS = (
    "throw.source",
    "display.sleep_after",
    "display.contrast",
    "buzzer.sound",
    "led.enabled",
    "display.language",
    "speech.enabled",
    "speech.voice",
    "speech.rate",
    "speech.volume",
    "ai.tutor",
    "ai.tutor_share",
    "camera.source",
    "camera.confirm",
)
"""The keys the settings screen changes and this module saves."""

FILE_NAME = "settings.toml"


@dataclass(frozen=True, slots=True)
class Prefs:
    """The settings changeable at the table, as the service applies them:
    ``source`` a throw source name, ``sleep_after`` seconds (0: never),
    ``contrast`` 0-255, ``sound`` and ``light`` on or off; ``language`` a catalogue's
    code; ``speech`` on or off with its ``voice`` (an espeak-ng voice, empty: the
    language's), ``rate`` (words per minute, 80-450) and ``volume`` (0-200); ``tutor``
    on or off and ``tutor_share`` (0.01-0.5 of the chance to win); ``camera`` the camera
    over the board (``camera.source``: ``off``, ``fake``, ``usb``, ``picamera``) and
    ``camera_confirm`` (the move it reads is highlighted for OK, else played at once)."""

    source: str
    sleep_after: float
    contrast: int
    sound: bool
    light: bool
    language: str = "en"
    speech: bool = False
    voice: str = ""
    rate: int = 160
    volume: int = 100
    tutor: bool = False
    tutor_share: float = 0.10
    camera: str = "off"
    camera_confirm: bool = True

    @classmethod
    def from_config(cls, conf: Mapping[str, Any]) -> Prefs:
        return cls(
            source=str(conf["throw.source"]),
            sleep_after=float(conf["display.sleep_after"]),
            contrast=int(conf["display.contrast"]),
            sound=bool(conf["buzzer.sound"]),
            light=bool(conf["led.enabled"]),
            language=str(conf["display.language"]),
            speech=bool(conf["speech.enabled"]),
            voice=str(conf["speech.voice"]),
            rate=int(conf["speech.rate"]),
            volume=int(conf["speech.volume"]),
            tutor=bool(conf["ai.tutor"]),
            tutor_share=float(conf["ai.tutor_share"]),
            camera=str(conf["camera.source"]),
            camera_confirm=bool(conf["camera.confirm"]),
        )

    def as_config(self) -> dict[str, Any]:
        """These settings as configuration keys (those of :data:`SAVED_KEYS`)."""
        return {
            "throw.source": self.source,
            "display.sleep_after": self.sleep_after,
            "display.contrast": self.contrast,
            "buzzer.sound": self.sound,
            "led.enabled": self.light,
            "display.language": self.language,
            "speech.enabled": self.speech,
            "speech.voice": self.voice,
            "speech.rate": self.rate,
            "speech.volume": self.volume,
            "ai.tutor": self.tutor,
            "ai.tutor_share": self.tutor_share,
            "camera.source": self.camera,
            "camera.confirm": self.camera_confirm,
        }


class SavedSettings:
    """The saved settings file of one state directory."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / FILE_NAME

    def load(self, *, set_aside: bool = True) -> tuple[dict[str, Any], str | None]:
        """The saved settings (typed and checked; empty when none were saved) and, when
        the file could not be used, what was wrong in words (the file is then set aside
        as ``settings.toml.unusable``, or ``.unusable.1``, ..., so it is reported once;
        with ``set_aside=False`` it is left as it is: for a reader that does not hold the
        state folder's lock)."""
        if not self.path.exists():
            return {}, None
        try:
            values = cfg.load_file(self.path)
            unknown = set(values) - set(SAVED_KEYS)
            if unknown:
                raise cfg.ConfigError(str(self.path), sorted(unknown)[0], "not a saved setting")
        except (cfg.ConfigError, UnicodeDecodeError) as exc:
            if isinstance(exc, UnicodeDecodeError):
                exc = cfg.ConfigError(str(self.path), "(file)", "not a UTF-8 text file")
            if not set_aside:
                return {}, f"{exc}; the saved settings are not used (the file is left as it is)"
            try:  # never over an earlier one: settings.toml.unusable, .unusable.1, ...
                kept = set_aside_file(self.path)
                problem = f"{exc}; the saved settings were set aside as {kept.name}"
            except OSError as rename_error:
                log.warning("cannot set aside %s: %s", self.path, rename_error)
                problem = f"{exc}; the saved settings are not used"
            log.warning("%s", problem)
            return {}, problem
        return values, None

    def save(self, prefs: Prefs) -> None:
        """Write ``prefs`` atomically (durable when this returns).

        :raises OSError: the state directory cannot be written (the old file stays).
        """
        values = prefs.as_config()
        text = "# Settings changed on the box (board-companion); restored at each start.\n"
        text += "".join(
            line + "\n"
            for line in cfg.to_toml(values, keys=SAVED_KEYS, comments=False).splitlines()[1:]
        )
        self.path.parent.mkdir(parents=True, exist_ok=True)
        replace_atomically(self.path, text.encode("utf-8"))


def load_saved(directory: Path) -> tuple[dict[str, Any], str | None]:
    """The settings saved in the state directory ``directory`` and what was wrong with
    the file (see :meth:`SavedSettings.load`); what :func:`companion.app.config.resolve`
    takes as ``saved``. A file that cannot be used is set aside: call it only while
    holding the folder's lock."""
    return SavedSettings(directory).load()


def peek_saved(directory: Path) -> tuple[dict[str, Any], str | None]:
    """:func:`load_saved` without setting anything aside (``run --print-config``, which
    takes no lock: another copy may hold the folder)."""
    return SavedSettings(directory).load(set_aside=False)


__all__ = ["FILE_NAME", "SAVED_KEYS", "Prefs", "SavedSettings", "load_saved", "peek_saved"]
