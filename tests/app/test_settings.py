"""Settings changed on the box last: saved atomically beside the journals, restored at
the next start under the flags, and a damaged saved file never stops the start."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path

import pytest
from controller_tools import BACK, DOWN, OK, UP, on, send
from walkthroughs import scripted_draw

from companion.app import config as cfg
from companion.app.controller import Controller, Screen
from companion.app.events import ButtonEvent, ButtonName, Press
from companion.app.settings import FILE_NAME, Prefs, SavedSettings, load_saved
from companion.devices.indicators import Cue
from companion.devices.sources import SOURCE_NAMES
from companion.i18n import language, set_language
from companion.journal.store import JournalStore


def args(*flags: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    cfg.add_arguments(parser)
    return parser.parse_args([*flags])


OK_UP = ButtonEvent(ButtonName.OK, Press.SHORT)
CLICK = (OK, OK_UP)
"""OK pressed and released (with speech on OK acts on the release)."""


def box(tmp_path: Path, **kw: object) -> Controller:
    """A controller that saves its settings in ``tmp_path``, on the settings screen."""
    ctl = Controller(store=JournalStore(tmp_path), draw=scripted_draw([]), sources=list(SOURCE_NAMES),
                     source="gpio-shaker", saved=SavedSettings(tmp_path), **kw)  # type: ignore[arg-type]
    ctl.start()
    send(ctl, OK, UP, OK)  # splash, the menu's last row: Settings
    assert on(ctl) is Screen.SETTINGS
    return ctl


def test_settings_changed_on_the_box_are_restored_at_the_next_start(tmp_path: Path) -> None:
    ctl = box(tmp_path, buzzer=True, led=True)
    assert ctl.view().items == ("Throw: gpio-shaker", "Sleep: 10 min", "Contrast: 100%",
                                "Sound: on", "Light: on", "Language: English", "Speech: off",
                                "Tutor: off", "Back")
    send(ctl, OK)                      # the throw source: the serial shaker
    send(ctl, DOWN, OK, OK)            # sleep: 30 min, 60 min
    send(ctl, DOWN, OK)                # contrast: from 100% round to 25%
    send(ctl, DOWN, OK)                # sound off
    assert ctl.view().items[:4] == ("Throw: serial-shaker", "Sleep: 60 min", "Contrast: 25%",
                                    "Sound: off")
    assert (tmp_path / FILE_NAME).exists()
    resolved = cfg.resolve(args(f"--journal.dir={tmp_path}"), saved=load_saved)
    assert resolved.values["throw.source"] == "serial-shaker"
    assert resolved.values["display.sleep_after"] == 3600.0
    assert resolved.values["display.contrast"] == 64
    assert resolved.values["buzzer.sound"] is False
    assert resolved.origins["display.contrast"] == "saved setting"
    assert resolved.origins["led.enabled"] == "saved setting"
    assert resolved.origins["buttons.hold"] == "default"
    assert "display.contrast = 64  (saved setting)" in cfg.describe(resolved.values, resolved.origins)


def test_speech_settings_changed_on_the_box_are_restored_at_the_next_start(tmp_path: Path) -> None:
    """Settings > Speech: on, a voice of the language, a rate and a volume, each saved at
    once and restored from the saved file; BACK returns to the settings."""
    ctl = box(tmp_path)
    send(ctl, UP, UP, UP, OK)          # two rows above Back: Speech
    assert on(ctl) is Screen.SPEECH
    assert ctl.view().items == ("Speech: off", "Voice: auto", "Rate: 160 words/min",
                                "Volume: 100%", "Back")
    send(ctl, OK, OK_UP)               # speech on (from now on OK acts when released)
    send(ctl, DOWN, *CLICK, *CLICK)    # voice: en-gb, en-us
    send(ctl, DOWN, *CLICK, *CLICK)    # rate: 180, 210
    send(ctl, DOWN, *CLICK)            # volume: 150
    assert ctl.view().items[:4] == ("Speech: on", "Voice: en-us", "Rate: 210 words/min",
                                    "Volume: 150%")
    resolved = cfg.resolve(args(f"--journal.dir={tmp_path}"), saved=load_saved)
    assert resolved.values["speech.enabled"] is True
    assert resolved.values["speech.voice"] == "en-us"
    assert resolved.values["speech.rate"] == 210
    assert resolved.values["speech.volume"] == 150
    assert resolved.origins["speech.rate"] == "saved setting"
    send(ctl, DOWN, *CLICK)            # Back: the settings again, on the Speech row
    assert on(ctl) is Screen.SETTINGS
    assert ctl.view().items[ctl.cursor] == "Speech: on"
    send(ctl, *CLICK, DOWN, *CLICK)    # Speech, voice: auto again (after the last voice)
    assert ctl.prefs.voice == ""
    send(ctl, DOWN, DOWN, DOWN, DOWN)  # past the last row: Speech again (the cursor wraps)
    assert ctl.view().items[ctl.cursor] == "Speech: on"
    send(ctl, BACK)
    assert on(ctl) is Screen.SETTINGS


def test_a_flag_given_on_purpose_wins_over_a_saved_setting(tmp_path: Path) -> None:
    SavedSettings(tmp_path).save(Prefs("manual", 60.0, 128, False, True))
    resolved = cfg.resolve(args(f"--journal.dir={tmp_path}", "--throw-source", "button"),
                           saved=load_saved)
    assert resolved.values["throw.source"] == "button"
    assert resolved.origins["throw.source"] == "command line"
    assert resolved.values["display.contrast"] == 128


def test_the_config_file_is_under_the_saved_settings(tmp_path: Path) -> None:
    conf = tmp_path / "config.toml"
    conf.write_text("[display]\ncontrast = 200\nsleep_after = 45\n")
    SavedSettings(tmp_path).save(Prefs("manual", 60.0, 128, False, True))
    resolved = cfg.resolve(args("--config", str(conf), f"--journal.dir={tmp_path}"), saved=load_saved)
    assert resolved.values["display.contrast"] == 128
    assert resolved.origins["display.contrast"] == "saved setting"
    plain = cfg.resolve(args("--config", str(conf), f"--journal.dir={tmp_path}"))
    assert plain.values["display.contrast"] == 200 and plain.origins["display.contrast"] == str(conf)


@pytest.mark.parametrize("text", [
    "[display]\ncontrast = 999\n",             # out of range
    "[display]\ncontrast = \n",                # not TOML
    "[buttons]\nhold = 3.0\n",                 # a key the box never saves
    "\xff\xfe not text",                       # not UTF-8
])
def test_a_damaged_saved_file_is_set_aside_and_said_and_the_start_goes_on(
    tmp_path: Path, text: str
) -> None:
    (tmp_path / FILE_NAME).write_bytes(text.encode("latin-1"))
    resolved = cfg.resolve(args(f"--journal.dir={tmp_path}"), saved=load_saved)
    assert resolved.values["display.contrast"] == 255
    assert len(resolved.problems) == 1 and FILE_NAME in resolved.problems[0]
    assert not (tmp_path / FILE_NAME).exists()
    assert (tmp_path / (FILE_NAME + ".unusable")).read_bytes() == text.encode("latin-1")
    ctl = Controller(store=JournalStore(tmp_path), draw=scripted_draw([]),
                     sources=list(SOURCE_NAMES), source="manual", notices=resolved.problems)
    ctl.start()
    send(ctl, OK)
    assert ctl.view().title == "Settings set aside"
    send(ctl, OK, OK)                  # then the menu as usual
    assert on(ctl) is Screen.MENU


def test_a_disk_that_cannot_take_the_settings_is_said_and_the_old_file_stays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ctl = box(tmp_path)
    send(ctl, DOWN, OK)                # sleep: 30 min, saved
    before = (tmp_path / FILE_NAME).read_bytes()

    def full(*a: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("companion.journal.store.os.replace", full)
    reply = ctl.handle(OK)             # sleep: 60 min, not saved
    assert ctl.view().title == "Cannot save settings" and reply.cue is Cue.ERROR
    assert (tmp_path / FILE_NAME).read_bytes() == before
    assert ctl.prefs.sleep_after == 3600.0   # the change holds until the companion stops
    send(ctl, OK)
    assert on(ctl) is Screen.SETTINGS


def test_sound_and_light_are_offered_only_when_wired(tmp_path: Path) -> None:
    ctl = box(tmp_path)
    assert ctl.view().items == ("Throw: gpio-shaker", "Sleep: 10 min", "Contrast: 100%",
                                "Language: English", "Speech: off", "Tutor: off",
                                "Back")


def test_a_second_unusable_settings_file_never_overwrites_the_first(tmp_path: Path) -> None:
    """Was: `settings.toml.unusable` was replaced by the next unusable file (issue 11's
    family of case 4: a set-aside copy is never overwritten); and nan was read."""
    (tmp_path / FILE_NAME).write_bytes(b"[display]\nsleep_after = nan\n")
    first = cfg.resolve(args(f"--journal.dir={tmp_path}"), saved=load_saved)
    assert "expected a finite number" in first.problems[0]
    (tmp_path / FILE_NAME).write_bytes(b"[display]\ncontrast = 300\n")
    second = cfg.resolve(args(f"--journal.dir={tmp_path}"), saved=load_saved)
    assert len(second.problems) == 1
    assert (tmp_path / (FILE_NAME + ".unusable")).read_bytes() == b"[display]\nsleep_after = nan\n"
    assert (tmp_path / (FILE_NAME + ".unusable.1")).read_bytes() == b"[display]\ncontrast = 300\n"
    assert f"set aside as {FILE_NAME}.unusable.1" in second.problems[0]


@pytest.fixture
def english_after() -> Iterator[None]:
    yield
    set_language("en")


def test_the_language_row_switches_the_words_at_once_and_is_saved(
        tmp_path: Path, english_after: None) -> None:
    """Issue 20: the language is chosen in Settings; the screen is redrawn in it at
    once, and the choice is saved like the other settings (restored at the next
    start, as ``display.language``)."""
    ctl = box(tmp_path)
    rows = ctl.view().items
    assert rows[-4:] == ("Language: English", "Speech: off", "Tutor: off", "Back")
    send(ctl, *[DOWN] * (len(rows) - 4), OK)
    view = ctl.view()
    assert language() == "de"
    assert view.title == "Einstellungen"
    assert view.items[-4:] == ("Sprache: Deutsch", "Sprachausgabe: aus", "Tutor: aus", "Zurück")
    assert view.items[0] == "Wurf: gpio-shaker"
    resolved = cfg.resolve(args(f"--journal.dir={tmp_path}"), saved=load_saved)
    assert resolved.values["display.language"] == "de"
    assert resolved.origins["display.language"] == "saved setting"
    send(ctl, OK)  # round again: English
    assert language() == "en" and ctl.view().title == "Settings"


def test_the_box_starts_in_the_configured_language(tmp_path: Path, english_after: None) -> None:
    """``display.language`` in the configuration: the controller's first screens are
    in it, and the Settings row names it."""
    set_language("de")  # as the service does before it builds the controller
    ctl = box(tmp_path)
    assert ctl.prefs.language == "de"
    assert ctl.view().items[-4:] == ("Sprache: Deutsch", "Sprachausgabe: aus", "Tutor: aus",
                                     "Zurück")


def test_print_config_reads_a_bad_saved_file_but_renames_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 35: `run --print-config` set a bad settings.toml aside, in a folder it
    holds no lock of (another copy may be running there). It says what is wrong and
    leaves the folder as it was; a good file's values are shown as saved settings."""
    from companion.cli import main

    bad = b"[display]\ncontrast = 999\n"
    (tmp_path / FILE_NAME).write_bytes(bad)
    assert main(["run", "--print-config", "--journal.dir", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert "contrast = 255" in out and FILE_NAME in err and "left as it is" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == [FILE_NAME]
    assert (tmp_path / FILE_NAME).read_bytes() == bad

    (tmp_path / FILE_NAME).write_bytes(b"[display]\ncontrast = 17\n")
    assert main(["run", "--print-config", "--journal.dir", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert "contrast = 17" in out and err == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == [FILE_NAME]
