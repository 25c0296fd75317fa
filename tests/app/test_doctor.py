"""`companion doctor`: each check says OK, or what to fix in one line; off a Pi it
reports what is missing without a traceback."""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import programs
import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from companion.app import config as cfg
from companion.app.doctor import Finding, Probes, Verdict, diagnose


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    made = MockFactory()
    yield made
    made.reset()


def healthy(factory: MockFactory, **changes: Any) -> Probes:
    probes = Probes(
        read_model=lambda: "Raspberry Pi 5 Model B Rev 1.0",
        pin_factory=lambda: factory,
        i2c_probe=lambda bus, address: None,
        find_shaker=lambda: "/dev/ttyACM0",
        systemctl=lambda *args: (0, "active"),
        path_exists=lambda path: True,
        library_origin=lambda module: None,
        which=lambda program: f"/usr/bin/{program}",
        environ={},
        play_silence=lambda device: None,
    )
    for name, value in changes.items():
        setattr(probes, name, value)
    return probes


def conf(tmp_path: Path, **values: Any) -> dict[str, Any]:
    settings = cfg.defaults()
    settings["journal.dir"] = str(tmp_path)
    settings.update(values)
    return settings


def verdicts(findings: list[Any]) -> dict[str, Verdict]:
    return {f.what: f.verdict for f in findings}


def finding(findings: list[Finding], what: str) -> Finding:
    return next(f for f in findings if f.what == what)


def test_a_healthy_box_is_all_ok(tmp_path: Path, factory: MockFactory) -> None:
    findings = diagnose(conf(tmp_path, **{"throw.source": "serial-shaker", "speech.enabled": True}),
                        healthy(factory))
    assert verdicts(findings) == {
        "Pi model": Verdict.OK,
        "pin factory": Verdict.OK,
        "OLED": Verdict.OK,
        "buttons": Verdict.OK,
        "shaker": Verdict.OK,
        "service": Verdict.OK,
        "speech": Verdict.OK,
        "saved games": Verdict.OK,
    }
    assert findings[0].line() == "OK    Pi model: Raspberry Pi 5 Model B Rev 1.0"
    assert "MockFactory" in findings[1].seen


def test_an_oled_that_does_not_answer_gets_the_wiring_fix(tmp_path: Path, factory: MockFactory) -> None:
    def silent(bus: int, address: int) -> None:
        raise OSError(errno.EREMOTEIO, "Remote I/O error")

    oled = diagnose(conf(tmp_path), healthy(factory, i2c_probe=silent))[2]
    assert oled.verdict is Verdict.FIX
    assert oled.seen == "nothing answers: ssd1306 at 0x3C on I2C bus 1"
    assert "i2cdetect -y 1" in oled.fix


def test_i2c_not_enabled(tmp_path: Path, factory: MockFactory) -> None:
    probes = healthy(factory, path_exists=lambda path: not path.startswith("/dev/i2c"))
    oled = diagnose(conf(tmp_path), probes)[2]
    assert oled.verdict is Verdict.FIX and "do_i2c 0" in oled.fix


class StuckLow(MockPin):  # type: ignore[misc]
    """A pin held at 0 V whatever the pull-up: a button wired to GND and stuck, or shorted."""

    def _set_pull(self, value: str) -> None:
        super()._set_pull(value)
        self._change_state(False)


def test_a_button_that_reads_pressed_at_rest(tmp_path: Path, factory: MockFactory) -> None:
    buttons = diagnose(conf(tmp_path), healthy(factory))[3]
    assert buttons.verdict is Verdict.OK
    ok_pin = cfg.defaults()["buttons.ok"]
    fresh = MockFactory()
    try:
        fresh.pin(ok_pin, pin_class=StuckLow)
        buttons = diagnose(conf(tmp_path), healthy(fresh))[3]
    finally:
        fresh.reset()
    assert buttons.verdict is Verdict.FIX
    assert buttons.seen == f"read as pressed at rest: ok (BCM {ok_pin})"
    assert "between its GPIO and GND" in buttons.fix


def test_a_missing_pico_and_a_stopped_service(tmp_path: Path, factory: MockFactory) -> None:
    probes = healthy(factory, find_shaker=lambda: None, systemctl=lambda *a: (3, "inactive"))
    found = {f.what: f for f in diagnose(conf(tmp_path, **{"throw.source": "serial-shaker"}), probes)}
    assert found["shaker"].verdict is Verdict.FIX and "data USB cable" in found["shaker"].fix
    assert found["service"].seen == "board-companion is inactive"
    assert "journalctl -u board-companion" in found["service"].fix


def test_no_pin_factory_is_explained(tmp_path: Path, factory: MockFactory) -> None:
    def none() -> Any:
        raise ImportError("no lgpio")

    found = diagnose(conf(tmp_path), healthy(factory, pin_factory=none))
    assert found[1].verdict is Verdict.FIX and "python3-lgpio" in found[1].fix
    assert found[3].verdict is Verdict.INFO  # buttons cannot be read without one


def test_off_a_pi_it_reports_without_a_traceback(tmp_path: Path) -> None:
    done = programs.run(
        [sys.executable, "-m", "companion", "doctor", "--journal.dir", str(tmp_path)],
        capture_output=True, text=True, idle=1, check=False,
    )
    assert "Traceback" not in done.stderr
    assert done.returncode in (0, 1)
    heads = [line.split()[0] for line in done.stdout.splitlines() if not line.startswith(" ")]
    assert len(heads) == 8 and set(heads) <= {"OK", "FIX", "INFO"}


def test_saved_games_with_a_journal_nested_too_deeply(tmp_path: Path, factory: MockFactory) -> None:
    """Was: a RecursionError traceback from `companion doctor` (issue 11, case 2)."""
    import zlib

    body = b'{"format":"board-companion/journal","version":1,' + b"[" * 20_000 + b"]" * 20_000 + b"}"
    path = tmp_path / "20260101-000000-senet-tait.journal"
    path.write_bytes(b"%08x %s\n" % (zlib.crc32(body), body))
    (tmp_path / "20250101-000000-senet-tait.journal.damaged.1").write_bytes(b"x")
    games = finding(diagnose(conf(tmp_path), healthy(factory)), "saved games")
    assert games.verdict is Verdict.INFO
    assert games.seen.endswith("; 1 set-aside copies (*.damaged, *.unusable) kept; 1 damaged")
    assert path.exists()  # the doctor only reads
    done = programs.run(
        [sys.executable, "-m", "companion", "doctor", "--journal.dir", str(tmp_path)],
        capture_output=True, text=True, idle=1, check=False,
    )
    assert "Traceback" not in done.stderr and done.returncode in (0, 1)
    assert "1 damaged" in done.stdout


# --- which pin factory gpiozero will use (issue 11) ----------------------------------


def fake_factory(cls: str) -> Any:
    """An object whose class has gpiozero's name for a factory (only the name is read)."""
    return type(cls, (), {"close": lambda self: None})()


def pin_probes(factory: Any = None, **changes: Any) -> Probes:
    probes = Probes(
        pin_factory=lambda: factory,
        library_origin=lambda module: "/usr/lib/python3/dist-packages" if module else None,
        venv_sees_system_packages=lambda: True,
        environ={},
    )
    for name, value in changes.items():
        setattr(probes, name, value)
    return probes


def test_the_doctor_names_the_factory_gpiozero_will_use_and_where_from() -> None:
    from companion.app.doctor import check_pin_factory

    found, _ = check_pin_factory(pin_probes(fake_factory("LGPIOFactory")))
    assert (found.verdict, found.seen) == (
        Verdict.OK,
        "lgpio (LGPIOFactory, gpiozero's first choice), lgpio from /usr/lib/python3/dist-packages",
    )


def test_a_fallback_past_lgpio_is_said_with_its_fix() -> None:
    from companion.app.doctor import check_pin_factory

    found, _ = check_pin_factory(pin_probes(fake_factory("RPiGPIOFactory")))
    assert found.verdict is Verdict.INFO
    assert found.seen.startswith("rpigpio (RPiGPIOFactory): gpiozero fell back, lgpio did not load")
    assert "RPi.GPIO from /usr/lib/python3/dist-packages" in found.seen
    assert "sudo apt install python3-lgpio" in found.fix


def test_a_factory_set_in_the_environment_is_said_so() -> None:
    from companion.app.doctor import check_pin_factory

    probes = pin_probes(fake_factory("RPiGPIOFactory"), environ={"GPIOZERO_PIN_FACTORY": "rpigpio"})
    found, _ = check_pin_factory(probes)
    assert found.verdict is Verdict.OK and "set by $GPIOZERO_PIN_FACTORY" in found.seen


def test_none_found_says_why_each_failed_and_a_venv_blind_to_apt_is_the_fix() -> None:
    from companion.app.doctor import NoPinFactory, check_pin_factory

    def none() -> Any:
        raise NoPinFactory("BadPinFactory: Unable to load any default pin factory!",
                           ["lgpio: No module named 'lgpio'", "rpigpio: No module named 'RPi'"])

    found, factory = check_pin_factory(pin_probes(
        pin_factory=none, venv_sees_system_packages=lambda: False, library_origin=lambda module: None,
        read_model=lambda: "Raspberry Pi 4 Model B Rev 1.5"))
    assert factory is None and found.verdict is Verdict.FIX
    assert found.seen == ("gpiozero found none (NoPinFactory): lgpio: No module named 'lgpio'; "
                          "rpigpio: No module named 'RPi'")
    assert found.fix.startswith("this venv cannot see apt's packages: make it again with "
                                "python3 -m venv --system-site-packages")


def test_the_real_probe_reports_gpiozero_s_reasons(monkeypatch: pytest.MonkeyPatch) -> None:
    """Off a Pi with no pin library: gpiozero's own reason for each factory it tried."""
    from gpiozero import Device

    from companion.app.doctor import NoPinFactory, _pin_factory

    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(Device, "pin_factory", None)

    def refuse() -> Any:
        import warnings

        from gpiozero.exc import BadPinFactory, PinFactoryFallback

        warnings.warn(PinFactoryFallback("Falling back from lgpio: No module named 'lgpio'"), stacklevel=1)
        raise BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(refuse))
    with pytest.raises(NoPinFactory) as info:
        _pin_factory()
    assert info.value.tried == ["lgpio: No module named 'lgpio'"]


def test_saved_games_tell_abandoned_from_unfinished_and_damage_prints_no_log_line(
    tmp_path: Path, factory: MockFactory
) -> None:
    """Was: an abandoned game ("End game") counted as unfinished, and a damaged journal
    printed a stray "journal ... damaged" log line after the report (issue 23, item 8)."""
    import random

    from companion.journal.store import JournalStore
    from companion.rules import Phase, get_game, random_action

    game = get_game("senet-tait")
    store = JournalStore(tmp_path)
    won = store.begin(game, 2)
    state, rng = game.new_state(2), random.Random(5)
    while state.phase is not Phase.OVER:
        who = state.player_to_act_name
        action = random_action(state, rng.randrange)
        won.append(who, action, state.apply(action))
    assert state.outcome is not None
    won.end("won", [game.player_name(w, 2) for w in state.outcome.winners])
    won.close()
    for _ in range(2):
        abandoned = store.begin(game, 2)
        abandoned.end("abandoned", [])
        abandoned.close()
    store.begin(game, 2).close()  # unfinished: switched off
    damaged = store.begin(game, 2)
    damaged.close()
    with damaged.path.open("ab") as fh:
        fh.write(b"0badc0de {\"n\": 1}\n")

    games = finding(diagnose(conf(tmp_path), healthy(factory)), "saved games")
    assert games.seen.startswith(f"1 finished, 2 abandoned, 1 unfinished in {tmp_path}")
    assert games.seen.endswith("; 1 damaged")
    done = programs.run(
        [sys.executable, "-m", "companion", "doctor", "--journal.dir", str(tmp_path)],
        capture_output=True, text=True, idle=1, check=False,
    )
    assert "1 finished, 2 abandoned, 1 unfinished" in done.stdout
    assert done.stderr == ""  # the damage is the report's line, not a log line too


# --- the gaps left in issue 23's doctor ------------------------------------------------


def no_factory() -> Any:
    from companion.app.doctor import NoPinFactory

    raise NoPinFactory("BadPinFactory: Unable to load any default pin factory!",
                       ["lgpio: can't open gpiochip", "rpigpio: No module named 'RPi'"])


def test_off_a_pi_no_pin_library_is_needed_and_none_is_suggested() -> None:
    """Was: off a Pi, FIX and `sudo apt install python3-lgpio`, even with lgpio importing
    fine (and the exit status 1 for it)."""
    from companion.app.doctor import check_pin_factory

    for origin in ("/opt/venv/lib/python3.11/site-packages", None):
        found, factory = check_pin_factory(pin_probes(
            pin_factory=no_factory, read_model=lambda: None, library_origin=lambda module, o=origin: o))
        assert factory is None and found.verdict is Verdict.INFO
        assert "apt" not in found.fix and "apt" not in found.seen
        assert found.seen.endswith("off a Pi none is needed: `companion run` uses mock pins")


def test_on_a_pi_an_installed_lgpio_that_cannot_open_the_chip_is_not_told_to_install_it() -> None:
    from companion.app.doctor import check_pin_factory

    found, _ = check_pin_factory(pin_probes(
        pin_factory=no_factory, read_model=lambda: "Raspberry Pi 5 Model B Rev 1.0",
        library_origin=lambda module: "/usr/lib/python3/dist-packages" if module == "lgpio" else None))
    assert found.verdict is Verdict.FIX
    assert "apt install" not in found.fix
    assert found.fix.startswith("lgpio is installed (/usr/lib/python3/dist-packages) but could not "
                                "open the GPIO chip")
    assert "gpio group" in found.fix


def test_saved_games_are_read_where_the_config_file_says_and_the_line_says_so(tmp_path: Path) -> None:
    """Was: the line named only the folder, not that it came from --config FILE."""
    state = tmp_path / "state"
    state.mkdir()
    config = tmp_path / "box.toml"
    config.write_text(f'[journal]\ndir = "{state}"\n')
    done = programs.run(
        [sys.executable, "-m", "companion", "doctor", "--config", str(config)],
        capture_output=True, text=True, idle=1, check=False,
        env={**__import__("os").environ, "XDG_STATE_HOME": str(tmp_path / "elsewhere")},
    )
    line = next(x for x in done.stdout.splitlines() if "saved games" in x)
    assert line.endswith(f"0 unfinished in {state} (journal.dir of {config})"), line


def test_without_journal_dir_the_service_s_state_folder_is_read_not_the_user_s(
    tmp_path: Path, factory: MockFactory
) -> None:
    """The unit's StateDirectory (/var/lib/board-companion) reaches the service as
    $STATE_DIRECTORY, which a person's shell does not have: the doctor read
    ~/.local/state/board-companion instead, where the service writes nothing."""
    from companion.app.doctor import SERVICE_STATE_DIR

    settings = conf(tmp_path, **{"journal.dir": ""})
    games = finding(diagnose(settings, healthy(factory)), "saved games")
    assert f"{SERVICE_STATE_DIR}, the service's StateDirectory" in games.seen
    given = finding(diagnose(settings, healthy(factory, environ={"STATE_DIRECTORY": str(tmp_path)})),
                    "saved games")
    assert given.seen.endswith(f"in {tmp_path} ($STATE_DIRECTORY)")
    nothing = healthy(factory, path_exists=lambda path: path != SERVICE_STATE_DIR)
    default = finding(diagnose(settings, nothing), "saved games")
    assert f"{cfg.default_state_dir()}, the default" in default.seen


def test_the_saved_games_line_names_the_process_holding_the_folder(tmp_path: Path, factory: MockFactory) -> None:
    """Was: a running companion's lock was not mentioned (app/lock.py writes its pid)."""
    import os

    from companion.app.lock import StateLock, holder

    free = finding(diagnose(conf(tmp_path), healthy(factory)), "saved games")
    assert "in use" not in free.seen
    with StateLock(tmp_path):
        assert holder(tmp_path) == os.getpid()
        held = finding(diagnose(conf(tmp_path), healthy(factory)), "saved games")
    assert held.seen.endswith(f"; in use by process {os.getpid()} (a running companion: "
                              f"`ps -p {os.getpid()}` names it)")
    assert holder(tmp_path) is None  # let go: the file stays, nobody holds it


def test_the_holder_is_found_without_taking_the_lock_where_proc_locks_cannot_be_read(tmp_path: Path) -> None:
    import os

    from companion.app.lock import StateLock, holder

    with StateLock(tmp_path):
        assert holder(tmp_path, proc_locks=tmp_path / "no-such-table") == os.getpid()
    assert holder(tmp_path, proc_locks=tmp_path / "no-such-table") is None


def test_speech_on_needs_espeak_ng_and_aplay(tmp_path: Path, factory: MockFactory) -> None:
    """Was: no speech check at all."""
    off = finding(diagnose(conf(tmp_path), healthy(factory)), "speech")
    assert off.verdict is Verdict.INFO and off.seen.startswith("off")
    no_aplay = healthy(factory, which=lambda program: None if program == "aplay" else f"/usr/bin/{program}")
    on = finding(diagnose(conf(tmp_path, **{"speech.enabled": True}), no_aplay,
                          origins={"speech.enabled": "command line"}), "speech")
    assert on.verdict is Verdict.FIX
    assert on.seen == "on (command line), but not on $PATH: aplay"
    assert on.fix == "sudo apt install alsa-utils"
    neither = healthy(factory, which=lambda program: None)
    assert finding(diagnose(conf(tmp_path, **{"speech.enabled": True}), neither), "speech").fix == (
        "sudo apt install espeak-ng alsa-utils")


def test_speech_turned_on_in_the_box_s_settings_is_checked(tmp_path: Path, factory: MockFactory) -> None:
    import dataclasses

    from companion.app.settings import Prefs, SavedSettings

    SavedSettings(tmp_path).save(dataclasses.replace(Prefs.from_config(cfg.defaults()), speech=True))
    found = finding(diagnose(conf(tmp_path), healthy(factory, which=lambda program: None)), "speech")
    assert found.verdict is Verdict.FIX and found.seen.startswith("on (the box's Settings)")
    (tmp_path / "settings.toml").write_text("not toml [")
    assert finding(diagnose(conf(tmp_path), healthy(factory)), "speech").verdict is Verdict.INFO
    assert (tmp_path / "settings.toml").read_text() == "not toml ["  # read only


FAKE_APLAY = """#!/bin/sh
echo "$@" > "$FAKE_APLAY_DIR/args"
case "$FAKE_APLAY" in
  fail) echo "ALSA lib confmisc.c:855:(parse_card) cannot find card '0'" >&2
        echo "aplay: main:831: audio open error: No such file or directory" >&2; exit 1;;
  hang) exec sleep 600;;
  *) cat > "$FAKE_APLAY_DIR/played";;
esac
"""


@pytest.fixture
def fake_aplay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A stand-in aplay first on PATH (``$FAKE_APLAY``: ``fail`` as with no sound card,
    ``hang``, else it plays: keeps what it got), with a stand-in espeak-ng beside it."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, text in (("aplay", FAKE_APLAY), ("espeak-ng", "#!/bin/sh\nexit 0\n")):
        (bin_dir / name).write_text(text)
        (bin_dir / name).chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("FAKE_APLAY_DIR", str(tmp_path))
    return tmp_path


def test_the_playback_device_is_opened_with_a_moment_of_silence(
        fake_aplay: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: the doctor said "OK speech" on a machine with no sound card: it never
    opened the device. It plays a WAV of silence through aplay, as speech will."""
    from companion.app.doctor import play_silence

    assert play_silence("plughw:1,0") is None
    assert (fake_aplay / "args").read_text().split() == ["-q", "-D", "plughw:1,0"]
    assert (fake_aplay / "played").read_bytes()[:4] == b"RIFF"
    assert play_silence("") is None and (fake_aplay / "args").read_text().split() == ["-q"]
    monkeypatch.setenv("FAKE_APLAY", "fail")
    assert play_silence("") == "audio open error: No such file or directory"
    monkeypatch.setenv("FAKE_APLAY", "hang")  # the bound shortened from 10 s: it hangs
    assert play_silence("", timeout=0.5) == "aplay did not finish within 0.5 s (the device hangs)"


def test_speech_on_with_no_sound_card_is_a_fix_not_ok(
        tmp_path: Path, factory: MockFactory, fake_aplay: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`companion doctor` itself, with aplay failing as it does with no sound card."""
    monkeypatch.setenv("FAKE_APLAY", "fail")
    found = finding(diagnose(conf(tmp_path, **{"speech.enabled": True}),
                             healthy(factory, play_silence=Probes.play_silence)), "speech")
    assert found.verdict is Verdict.FIX
    assert found.seen == ("on (default), but the default sound device cannot play: "
                          "audio open error: No such file or directory")
    assert "aplay -l" in found.fix
    done = programs.run(
        [sys.executable, "-m", "companion", "doctor", "--journal.dir", str(tmp_path / "j"),
         "--speech.enabled", "true", "--speech.device", "plughw:1,0"],
        capture_output=True, text=True, idle=1, check=False)
    assert done.returncode == 1
    assert ("FIX   speech: on (command line), but plughw:1,0 cannot play: audio open error: "
            "No such file or directory") in done.stdout
