"""systemd/install.sh against a temporary Raspberry Pi OS root, and the unit it installs.

``install.sh --root DIR`` writes its files under DIR; the commands it runs (apt-get,
useradd, systemctl, udevadm, modprobe, dtparam, python3 -m venv) are found on PATH,
where these fixtures put recording stand-ins first. Each call is one line of the
log: the command's name and its arguments, tab-separated.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import programs
import pytest
from unit_security import assert_documented

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "systemd" / "install.sh"

# Raspberry Pi OS Bookworm's config.txt, shortened; it ends inside a [pi4] section, so
# a line merely appended would apply to the Pi 4 only.
CONFIG_TXT = """\
# For more options and information see
# http://rptl.io/configtxt

# Uncomment some or all of these to enable the optional hardware interfaces
#dtparam=i2c_arm=on
#dtparam=i2s=on
#dtparam=spi=on

# Enable audio (loads snd_bcm2835)
dtparam=audio=on

[cm4]
otg_mode=1

[all]

[pi4]
arm_boost=1
"""

_LOG_LINE = """printf '%s' "$name" >>"$STUB_LOG"
for arg in "$@"; do printf '\\t%s' "$arg" >>"$STUB_LOG"; done
printf '\\n' >>"$STUB_LOG"
if [ -n "${STUB_FAIL:-}" ] && [ "$name $*" = "$STUB_FAIL" ]; then exit 1; fi
"""

# name -> extra shell run after logging. useradd/groupadd/userdel act on --root's
# /etc files as the real ones would, so a second run can see the user exists.
_STUBS = {
    "apt-get": "",
    "systemctl": "",
    "udevadm": "",
    "modprobe": "",
    "dtparam": "",
    "groupadd": """
if [ "$1" = --root ]; then echo "${*: -1}:x:990:" >>"$2/etc/group"; fi
""",
    "useradd": """
if [ "$1" = --root ]; then
  echo "${*: -1}:x:990:990::/var/lib/board-companion:/usr/sbin/nologin" >>"$2/etc/passwd"
  echo "${*: -1}:x:990:" >>"$2/etc/group"
fi
""",
    "userdel": """
if [ "$1" = --root ]; then sed -i "/^$3:/d" "$2/etc/passwd"; fi
""",
    # python3 -m venv [--system-site-packages] DIR: make DIR/bin/python, itself a
    # stand-in, and DIR/pyvenv.cfg as venv writes it.
    "python3": """
if [ "$1 $2" = "-m venv" ]; then
  dir="${*: -1}"
  mkdir -p "$dir/bin"
  { echo '#!/bin/bash'; echo 'name=venv-python'; cat "$STUB_DIR/.log-line"; } >"$dir/bin/python"
  chmod +x "$dir/bin/python"
  site=false
  for arg in "$@"; do [ "$arg" = --system-site-packages ] && site=true; done
  printf 'home = /usr/bin\ninclude-system-site-packages = %s\nversion = 3.11.2\n' "$site" >"$dir/pyvenv.cfg"
fi
""",
}

# apt-cache show NAME: status 100 ("No packages found") for a NAME in $STUB_APT_LACKS.
_APT_CACHE = """#!/bin/bash
for arg in "$@"; do
  case " ${STUB_APT_LACKS:-} " in *" $arg "*) echo "E: No packages found" >&2; exit 100 ;; esac
done
"""


@dataclass
class Call:
    name: str
    args: tuple[str, ...]

    @property
    def line(self) -> str:
        return " ".join((self.name, *self.args))


@dataclass
class Pi:
    """A fake Pi: its root directory and the stand-ins' call log."""

    root: Path
    stub_dir: Path
    log: Path

    def calls(self) -> list[Call]:
        if not self.log.exists():
            return []
        out = []
        for line in self.log.read_text().splitlines():
            name, *args = line.split("\t")
            out.append(Call(name, tuple(args)))
        return out

    def clear_log(self) -> None:
        self.log.unlink(missing_ok=True)

    def install(
        self, *options: str, check: bool = True, env_extra: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess[str]:
        """Run install.sh with ``--root`` this root and the stand-ins first on PATH."""
        env = dict(os.environ)
        env.pop("I2C_BAUDRATE", None)
        env.update(env_extra or {})
        env["PATH"] = f"{self.stub_dir}{os.pathsep}{env.get('PATH', '')}"
        env["STUB_LOG"] = str(self.log)
        env["STUB_DIR"] = str(self.stub_dir)
        result = programs.run(
            [str(SCRIPT), "--root", str(self.root), *options],
            env=env,
            capture_output=True,
            text=True,
            idle=1,
            check=False,
        )
        if check and result.returncode != 0:
            raise AssertionError(f"install.sh failed:\n{result.stdout}\n{result.stderr}")
        return result

    def file(self, path: str) -> Path:
        return self.root / path.lstrip("/")


def snapshot(root: Path) -> dict[str, bytes | None]:
    """Every path under ``root`` with its content (None for a directory)."""
    out: dict[str, bytes | None] = {}
    for path in sorted(root.rglob("*")):
        out[str(path.relative_to(root))] = None if path.is_dir() else path.read_bytes()
    return out


def names(calls: Sequence[Call]) -> list[str]:
    return [call.name for call in calls]


@pytest.fixture
def pi(tmp_path: Path) -> Pi:
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    (root / "etc" / "passwd").write_text(
        "root:x:0:0:root:/root:/bin/bash\npi:x:1000:1000::/home/pi:/bin/bash\n"
    )
    # Raspberry Pi OS has gpio, i2c and spi; leave spi out to see it created.
    (root / "etc" / "group").write_text("root:x:0:\ndialout:x:20:pi\ngpio:x:997:pi\ni2c:x:998:pi\n")
    (root / "etc" / "os-release").write_text(
        'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nVERSION_CODENAME=bookworm\n'
    )
    (root / "boot" / "firmware").mkdir(parents=True)
    (root / "boot" / "firmware" / "config.txt").write_text(CONFIG_TXT)

    stub_dir = tmp_path / "bin"
    stub_dir.mkdir()
    (stub_dir / ".log-line").write_text(_LOG_LINE)
    for name, extra in _STUBS.items():
        stub = stub_dir / name
        stub.write_text(f"#!/bin/bash\nname={name}\n{_LOG_LINE}{extra}")
        stub.chmod(0o755)
    # A question to apt, not an action, so not logged: apt knows every package but those
    # named in $STUB_APT_LACKS (Raspberry Pi OS has python3-lgpio; plain Debian does not).
    (stub_dir / "apt-cache").write_text(_APT_CACHE)
    (stub_dir / "apt-cache").chmod(0o755)
    return Pi(root=root, stub_dir=stub_dir, log=tmp_path / "calls.log")


UNIT = "/etc/systemd/system/board-companion.service"
WEB_UNIT = "/etc/systemd/system/board-companion-web.service"
CLUB_UNIT = "/etc/systemd/system/board-companion-publish.service"
PAGE_UNIT = "/etc/systemd/system/board-companion-club.service"
PAGE_ENV = "/etc/board-companion/club.env"
PAGE_PASSWORD = "/etc/board-companion/club-password"
RULE = "/etc/udev/rules.d/99-board-companion-shaker.rules"
MODULES = "/etc/modules-load.d/board-companion.conf"
CONFIG = "/etc/board-companion/config.toml"
BOOT = "/boot/firmware/config.txt"
VENV = "/opt/board-companion/venv"
PACKAGES = ("python3-venv", "python3-lgpio", "python3-pil", "i2c-tools", "espeak-ng", "alsa-utils")


def exec_start() -> list[str]:
    """The unit's ExecStart= command line."""
    for line in (REPO / "systemd" / "board-companion.service").read_text().splitlines():
        if line.startswith("ExecStart="):
            return line.removeprefix("ExecStart=").split()
    raise AssertionError("no ExecStart= in the unit")


def test_dry_run_prints_each_action_and_changes_nothing(pi: Pi) -> None:
    before = snapshot(pi.root)
    result = pi.install("--dry-run")
    assert snapshot(pi.root) == before
    assert pi.calls() == []  # not one command was run
    out = result.stdout.splitlines()
    r = str(pi.root)
    for expected in [
        "(dry run: nothing is changed)",
        "+ apt-get install -y --no-install-recommends " + " ".join(PACKAGES),
        f"+ groupadd --root {r} --system spi",
        f"+ useradd --root {r} --system --user-group --home-dir /var/lib/board-companion "
        "--no-create-home --shell /usr/sbin/nologin --comment Board companion service "
        "board-companion",
        f"write {r}{BOOT} (the old one kept as {r}{BOOT}.board-companion.bak)",
        f"+ python3 -m venv --system-site-packages {r}{VENV}",
        f"+ {r}{VENV}/bin/python -m pip install --upgrade --prefer-binary {REPO}",
        f"write {r}{CONFIG}",
        f"write {r}{UNIT}",
        f"write {r}{RULE}",
        "+ systemctl enable board-companion.service",
        "+ systemctl restart board-companion.service",
    ]:
        assert expected in out, f"{expected!r} not in the dry run's output:\n{result.stdout}"
    assert f"+ groupadd --root {r} --system gpio" not in out  # Raspberry Pi OS has it


def test_install_writes_the_files_and_runs_the_commands(pi: Pi) -> None:
    result = pi.install()
    assert pi.file(UNIT).read_bytes() == (REPO / "systemd" / "board-companion.service").read_bytes()
    assert (
        pi.file(RULE).read_bytes()
        == (REPO / "systemd" / "99-board-companion-shaker.rules").read_bytes()
    )
    assert pi.file(CONFIG).read_bytes() == (REPO / "systemd" / "config.toml").read_bytes()
    modules = [
        line for line in pi.file(MODULES).read_text().splitlines() if not line.startswith("#")
    ]
    assert modules == ["i2c-dev", "cdc_acm", "spidev"]
    assert pi.file("/opt/board-companion/README.md").exists()

    # config.txt: the original untouched, I2C on at 400 kHz for every model ([all]).
    boot = pi.file(BOOT).read_text()
    assert boot.startswith(CONFIG_TXT)
    added = boot.removeprefix(CONFIG_TXT).splitlines()
    assert added[1] == "[all]"
    assert "dtparam=i2c_arm=on" in added
    assert "dtparam=i2c_arm_baudrate=400000" in added
    assert pi.file(BOOT + ".board-companion.bak").read_text() == CONFIG_TXT
    assert "Reboot once" in result.stdout

    calls = pi.calls()
    lines = [call.line for call in calls]
    assert "apt-get install -y --no-install-recommends " + " ".join(PACKAGES) in lines
    assert f"groupadd --root {pi.root} --system spi" in lines
    assert sum(call.name == "groupadd" for call in calls) == 1
    assert any(call.name == "useradd" and "board-companion" in call.args for call in calls)
    assert "dtparam i2c_arm=on" in lines
    # The venv is where the unit's ExecStart= looks for its interpreter.
    assert exec_start()[0] == f"{VENV}/bin/python"
    assert f"python3 -m venv --system-site-packages {pi.root}{VENV}" in lines
    assert f"venv-python -m pip install --upgrade --prefer-binary {REPO}" in lines
    # The service is enabled and started after its unit is in place and systemd reloaded.
    order = names(calls)
    assert order.index("python3") < order.index("venv-python") < order.index("systemctl")
    systemctl = [call.line for call in calls if call.name == "systemctl"]
    assert systemctl == [
        "systemctl daemon-reload",
        "systemctl enable board-companion.service",
        "systemctl restart board-companion.service",
    ]
    assert "udevadm control --reload-rules" in lines


def test_second_run_keeps_the_config_and_changes_nothing_else(pi: Pi) -> None:
    pi.install()
    pi.file(CONFIG).write_text('[serial]\nport = "/dev/ttyACM1"\n')  # the user's edit
    after_first = snapshot(pi.root)
    pi.clear_log()

    result = pi.install()
    assert snapshot(pi.root) == after_first
    assert pi.file(BOOT).read_text().count("i2c_arm_baudrate") == 1
    assert f"keep {pi.root}{CONFIG} (exists; your settings stay)" in result.stdout
    assert "Reboot once" not in result.stdout
    made = names(pi.calls())
    assert "useradd" not in made and "groupadd" not in made and "python3" not in made
    assert "venv-python" in made  # the update path: the companion is reinstalled


def test_no_start_enables_without_starting(pi: Pi) -> None:
    pi.install("--no-start")
    systemctl = [call.line for call in pi.calls() if call.name == "systemctl"]
    assert "systemctl enable board-companion.service" in systemctl
    assert not any("restart" in line or "start " in line for line in systemctl)


def test_uninstall_keeps_saved_games_and_config(pi: Pi) -> None:
    pi.install()
    game = pi.file("/var/lib/board-companion/senet-tait-1.jsonl")
    game.parent.mkdir(parents=True)
    game.write_text('{"action": "throw 3"}\n')
    pi.clear_log()

    result = pi.install("--uninstall")
    for path in (UNIT, RULE, MODULES, "/opt/board-companion"):
        assert not pi.file(path).exists(), path
    assert pi.file(BOOT).read_text() == CONFIG_TXT  # the block is gone, the rest intact
    assert game.read_text() == '{"action": "throw 3"}\n'
    assert pi.file(CONFIG).exists()
    assert "board-companion:" in pi.file("/etc/passwd").read_text()
    assert "kept" in result.stdout and "--purge" in result.stdout
    lines = [call.line for call in pi.calls()]
    assert lines[0] == "systemctl disable --now board-companion.service"
    assert "userdel" not in names(pi.calls())


def test_uninstall_purge_removes_saved_games_config_and_user(pi: Pi) -> None:
    pi.install()
    pi.file("/var/lib/board-companion").mkdir(parents=True)
    pi.install("--uninstall", "--purge")
    assert not pi.file("/var/lib/board-companion").exists()
    assert not pi.file("/etc/board-companion").exists()
    assert f"userdel --root {pi.root} board-companion" in [c.line for c in pi.calls()]
    assert "board-companion:" not in pi.file("/etc/passwd").read_text()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (("--frobnicate",), "unknown option: --frobnicate"),
        (("--purge",), "--purge goes with --uninstall"),
        (("--web", "--uninstall"), "--web goes with an install"),
        (("--club", "--uninstall"), "--club goes with an install"),
        (("--club-page", "--uninstall"), "--club-page goes with an install"),
        (("--club-page", "--club"), "--club-page installs the club page alone"),
        (("--camera", "--uninstall"), "--camera goes with an install"),
        (("--club-page", "--camera"), "--club-page installs the club page alone"),
    ],
)
def test_bad_options_are_refused_before_anything_happens(
    pi: Pi, options: tuple[str, ...], message: str
) -> None:
    before = snapshot(pi.root)
    result = pi.install(*options, check=False)
    assert result.returncode != 0
    assert message in result.stderr
    assert snapshot(pi.root) == before and pi.calls() == []


def test_i2c_speed_can_be_chosen_and_is_checked(pi: Pi) -> None:
    pi.install(env_extra={"I2C_BAUDRATE": "100000"})
    assert "dtparam=i2c_arm_baudrate=100000" in pi.file(BOOT).read_text().splitlines()
    pi.install(env_extra={"I2C_BAUDRATE": "400000"})  # changed back: replaced, not added
    assert pi.file(BOOT).read_text().count("i2c_arm_baudrate") == 1
    before = snapshot(pi.root)
    result = pi.install(env_extra={"I2C_BAUDRATE": "400k"}, check=False)
    assert result.returncode != 0 and "give the I2C clock in Hz" in result.stderr
    assert snapshot(pi.root) == before


def test_a_service_that_does_not_start_fails_the_install_with_a_hint(pi: Pi) -> None:
    result = pi.install(
        env_extra={"STUB_FAIL": "systemctl restart board-companion.service"}, check=False
    )
    assert result.returncode == 1
    assert "journalctl -u board-companion -b" in result.stdout
    assert pi.file(UNIT).exists()  # what was installed stays for the fix and a re-run


def test_modules_that_cannot_load_now_are_a_warning(pi: Pi) -> None:
    result = pi.install(env_extra={"STUB_FAIL": "modprobe -a i2c-dev cdc_acm spidev"})
    assert "warning: modprobe failed" in result.stdout
    assert "systemctl restart board-companion.service" in [c.line for c in pi.calls()]


def test_missing_config_txt_is_a_warning_not_a_failure(pi: Pi) -> None:
    pi.file(BOOT).unlink()
    result = pi.install()
    assert "enable I2C with raspi-config" in result.stdout
    assert pi.file(UNIT).exists()


# --- the pin libraries on a real Pi (issue 11) --------------------------------------

PI5 = "Raspberry Pi 5 Model B Rev 1.0"
PI4 = "Raspberry Pi 4 Model B Rev 1.4"


def with_model(pi: Pi, model: str) -> None:
    """The model string as the Pi's device tree gives it (NUL-terminated)."""
    path = pi.file("/proc/device-tree/model")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(model.encode() + b"\0")


def apt_install_line(out: str) -> list[str]:
    (line,) = [x for x in out.splitlines() if x.startswith("+ apt-get install")]
    return line.split()[5:]


def test_dry_run_on_a_pi_5_installs_lgpio_only(pi: Pi) -> None:
    """Was: the `pi` extra asked pip for RPi.GPIO, which has no wheel for aarch64 and
    does not work on a Pi 5; the install could fail on 64-bit Raspberry Pi OS."""
    with_model(pi, PI5)
    out = pi.install("--dry-run").stdout
    assert f"== pin libraries for {PI5}" in out
    assert apt_install_line(out) == list(PACKAGES)
    assert "python3-rpi.gpio" not in out
    (pip,) = [x for x in out.splitlines() if " -m pip install " in x]
    assert pip.endswith(f"--prefer-binary {REPO}")  # no extra: nothing for pip to compile
    assert f"+ python3 -m venv --system-site-packages {pi.root}{VENV}" in out.splitlines()
    assert pi.calls() == []


def test_dry_run_on_a_pi_4_adds_rpi_gpio_from_apt(pi: Pi) -> None:
    with_model(pi, PI4)
    out = pi.install("--dry-run").stdout
    assert f"== pin libraries for {PI4}" in out
    assert apt_install_line(out) == [*PACKAGES, "python3-rpi.gpio"]
    assert not any("pip install" in x and "RPi.GPIO" in x for x in out.splitlines())
    assert pi.calls() == []


def test_on_a_pi_4_with_rpi_lgpio_installed_it_is_kept(pi: Pi) -> None:
    """rpi-lgpio and RPi.GPIO cannot share an environment: asking apt for
    python3-rpi.gpio would remove python3-rpi-lgpio."""
    with_model(pi, PI4)
    status = pi.file("/var/lib/dpkg/status")
    status.parent.mkdir(parents=True)
    status.write_text("Package: python3-rpi-lgpio\nStatus: install ok installed\nVersion: 0.6-0\n\n"
                      "Package: python3-rpi.gpio\nStatus: deinstall ok config-files\n\n")
    out = pi.install("--dry-run").stdout
    assert apt_install_line(out) == list(PACKAGES)
    assert "python3-rpi-lgpio is installed, kept" in out


@pytest.mark.parametrize(
    ("model", "family"),
    [
        ("Raspberry Pi 5 Model B Rev 1.0", "rp1"),
        ("Raspberry Pi 500 Rev 1.0", "rp1"),
        ("Raspberry Pi Compute Module 5 Rev 1.0", "rp1"),
        ("Raspberry Pi 4 Model B Rev 1.5", "bcm"),
        ("Raspberry Pi 400 Rev 1.0", "bcm"),
        ("Raspberry Pi 3 Model B Plus Rev 1.3", "bcm"),
        ("Raspberry Pi Zero 2 W Rev 1.0", "bcm"),
        ("Raspberry Pi Zero W Rev 1.1", "bcm"),
        ("Raspberry Pi Model B Rev 2", "bcm"),
        ("Raspberry Pi Compute Module 4 Rev 1.0", "bcm"),
        ("Raspberry Pi Compute Module 3 Plus Rev 1.0", "bcm"),
        ("Raspberry Pi Compute Module Rev 1.0", "bcm"),
        ("Raspberry Pi 6 Model B", "unknown"),
        ("Pine64 RockPro64", "unknown"),
    ],
)
def test_the_pin_library_family_of_each_model(model: str, family: str) -> None:
    done = programs.run(
        ["bash", "-c", f'source <(sed "/^main \\"\\$@\\"$/d" {SCRIPT}); pin_family "$1"', "-", model],
        capture_output=True, text=True, idle=1, check=True,
    )
    assert done.stdout.strip() == family


def test_a_venv_that_cannot_see_apt_packages_is_made_again(pi: Pi) -> None:
    """A venv made without --system-site-packages (an older install, or by hand) cannot
    see apt's lgpio; it used to be left 'unchanged'."""
    venv = pi.file(VENV)
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text("#!/bin/bash\nname=venv-python\n" + (pi.stub_dir / ".log-line").read_text())
    (venv / "bin" / "python").chmod(0o755)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\ninclude-system-site-packages = false\n")
    pi.install()
    assert f"python3 -m venv --system-site-packages {pi.root}{VENV}" in [c.line for c in pi.calls()]
    assert "include-system-site-packages = true" in (venv / "pyvenv.cfg").read_text()


def test_where_apt_lacks_python3_lgpio_it_comes_from_pypi(pi: Pi) -> None:
    """Was: on plain Debian arm64 (no Raspberry Pi archive) apt-get stopped the install
    with "Unable to locate package python3-lgpio". PyPI's lgpio wheels for aarch64 carry
    the C library, so the venv gets that one; wheels only, nothing compiled."""
    with_model(pi, PI5)
    result = pi.install(env_extra={"STUB_APT_LACKS": "python3-lgpio"})
    assert apt_install_line(result.stdout) == [p for p in PACKAGES if p != "python3-lgpio"]
    assert "apt has no python3-lgpio" in result.stdout
    lines = [call.line for call in pi.calls()]
    companion = f"venv-python -m pip install --upgrade --prefer-binary {REPO}"
    lgpio = "venv-python -m pip install --upgrade --only-binary=:all: lgpio"
    assert lines.index(companion) < lines.index(lgpio)  # into the venv, once it exists


def test_where_apt_has_python3_lgpio_pip_is_not_asked_for_it(pi: Pi) -> None:
    with_model(pi, PI5)
    pi.install()
    assert not [c for c in pi.calls() if c.name == "venv-python" and "lgpio" in c.args]


def test_no_lgpio_wheel_for_this_python_is_a_warning(pi: Pi) -> None:
    """No wheel (armv7l, cp313): pip would fall back to building from source, which
    cannot work without a compiler; the install goes on and says so."""
    with_model(pi, PI5)
    result = pi.install(env_extra={
        "STUB_APT_LACKS": "python3-lgpio",
        "STUB_FAIL": "venv-python -m pip install --upgrade --only-binary=:all: lgpio",
    })
    assert "warning: PyPI has no lgpio wheel for this Python and machine" in result.stdout
    assert "systemctl restart board-companion.service" in [c.line for c in pi.calls()]


def test_pip_is_never_asked_for_a_pin_library() -> None:
    """What pip installs has wheels for the Pi (or is pure Python); the pin libraries
    come from apt (install.sh asks pip for lgpio only where apt lacks it, above).
    pyproject.toml keeps no `pi` extra with RPi.GPIO or lgpio."""
    import tomllib

    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    wanted = [*project["dependencies"], *project.get("optional-dependencies", {}).get("pi", [])]
    assert not [d for d in wanted if d.lower().startswith(("rpi.gpio", "rpi-gpio", "lgpio", "rpi-lgpio"))]
    assert "pi" not in project.get("optional-dependencies", {})


SYSTEMD_ANALYZE = shutil.which("systemd-analyze")
SYSTEM_UNITS = Path("/usr/lib/systemd/system")
needs_systemd_analyze = pytest.mark.skipif(
    SYSTEMD_ANALYZE is None or not (SYSTEM_UNITS / "sysinit.target").exists(),
    reason="systemd-analyze or the system's units are not installed",
)


def with_system_units(pi: Pi) -> None:
    """Give the root the distribution's units (sysinit.target...) the unit depends on."""
    shutil.copytree(SYSTEM_UNITS, pi.file(str(SYSTEM_UNITS)), symlinks=True)


@needs_systemd_analyze
def test_the_installed_unit_verifies(pi: Pi) -> None:
    pi.install()
    with_system_units(pi)
    assert SYSTEMD_ANALYZE is not None
    result = programs.run(
        [SYSTEMD_ANALYZE, "verify", "--man=no", f"--root={pi.root}", UNIT],
        capture_output=True,
        text=True,
        idle=1,
        check=False,
    )
    # verify exits 0 on an unknown key or a bad value, but says so: no output is clean.
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


@needs_systemd_analyze
def test_verify_catches_a_broken_unit(pi: Pi) -> None:
    """The check above can fail: a misspelt key and a missing interpreter are reported."""
    pi.install()
    with_system_units(pi)
    unit = pi.file(UNIT)
    unit.write_text(unit.read_text().replace("WatchdogSec=", "WatchdgSec="))
    pi.file(f"{VENV}/bin/python").unlink()
    assert SYSTEMD_ANALYZE is not None
    result = programs.run(
        [SYSTEMD_ANALYZE, "verify", "--man=no", f"--root={pi.root}", UNIT],
        capture_output=True,
        text=True,
        idle=1,
        check=False,
    )
    assert "Unknown key 'WatchdgSec'" in result.stderr
    assert "is not executable" in result.stderr


def test_dry_run_with_web_adds_the_spectator_page_and_changes_nothing(pi: Pi) -> None:
    before = snapshot(pi.root)
    out = pi.install("--dry-run", "--web").stdout.splitlines()
    assert snapshot(pi.root) == before and pi.calls() == []
    r = str(pi.root)
    for expected in [
        f"+ {r}{VENV}/bin/python -m pip install --upgrade --prefer-binary {REPO}[web]",
        f"write {r}{WEB_UNIT}",
        "+ systemctl enable board-companion-web.service",
        "+ systemctl restart board-companion-web.service",
        "+ systemctl restart board-companion.service",  # the referee as ever
    ]:
        assert expected in out, f"{expected!r} not in the dry run's output:\n" + "\n".join(out)


def test_without_web_the_spectator_page_is_left_off(pi: Pi) -> None:
    out = pi.install("--dry-run").stdout
    assert "board-companion-web" not in out and "[web]" not in out


def test_install_with_web_writes_and_enables_the_web_unit_and_uninstall_removes_it(pi: Pi) -> None:
    pi.install("--web")
    web = REPO / "systemd" / "board-companion-web.service"
    assert pi.file(WEB_UNIT).read_bytes() == web.read_bytes()
    assert pi.file(UNIT).read_bytes() == (REPO / "systemd" / "board-companion.service").read_bytes()
    systemctl = [c.line for c in pi.calls() if c.name == "systemctl"]
    assert "systemctl enable board-companion-web.service" in systemctl
    pi.clear_log()
    pi.install()  # an update keeps the page it has, with its extra
    assert "systemctl restart board-companion-web.service" in [c.line for c in pi.calls()]
    pi.clear_log()
    pi.install("--uninstall")
    assert not pi.file(WEB_UNIT).exists()
    assert pi.calls()[0].line == "systemctl disable --now board-companion-web.service"


def test_the_web_unit_reads_the_saved_games_only_and_the_referee_stays_offline() -> None:
    web = (REPO / "systemd" / "board-companion-web.service").read_text()
    for line in ("ReadOnlyPaths=/var/lib/board-companion", "ProtectSystem=strict",
                 "PrivateTmp=yes", "NoNewPrivileges=yes",
                 "RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX"):
        assert line in web.splitlines(), line
    assert "StateDirectory" not in web  # it never makes or owns the saved games
    referee = (REPO / "systemd" / "board-companion.service").read_text().splitlines()
    for line in ("PrivateNetwork=yes", "IPAddressDeny=any", "RestrictAddressFamilies=AF_UNIX"):
        assert line in referee, line


@needs_systemd_analyze
def test_the_installed_web_unit_verifies(pi: Pi) -> None:
    pi.install("--web")
    with_system_units(pi)
    assert SYSTEMD_ANALYZE is not None
    result = programs.run(
        [SYSTEMD_ANALYZE, "verify", "--man=no", f"--root={pi.root}", WEB_UNIT],
        capture_output=True, text=True, idle=1, check=False,
    )
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


def test_dry_run_with_club_adds_the_publisher_and_changes_nothing(pi: Pi) -> None:
    before = snapshot(pi.root)
    out = pi.install("--dry-run", "--club", "--web").stdout.splitlines()
    assert snapshot(pi.root) == before and pi.calls() == []
    r = str(pi.root)
    for expected in [
        f"+ {r}{VENV}/bin/python -m pip install --upgrade --prefer-binary {REPO}[web,club]",
        f"write {r}{CLUB_UNIT}",
        "+ systemctl enable board-companion-publish.service",
        "+ systemctl restart board-companion-publish.service",
        "+ systemctl restart board-companion.service",  # the referee as ever
    ]:
        assert expected in out, f"{expected!r} not in the dry run's output:\n" + "\n".join(out)


def test_without_club_the_publisher_is_left_off(pi: Pi) -> None:
    out = pi.install("--dry-run", "--web").stdout
    assert "board-companion-publish" not in out and ",club]" not in out and "[club]" not in out


def test_install_with_club_writes_and_enables_the_unit_and_uninstall_removes_it(pi: Pi) -> None:
    pi.install("--club")
    club = REPO / "systemd" / "board-companion-publish.service"
    assert pi.file(CLUB_UNIT).read_bytes() == club.read_bytes()
    calls = [c.line for c in pi.calls()]
    assert "systemctl enable board-companion-publish.service" in calls
    assert any(line.endswith(f"{REPO}[club]") for line in calls)
    pi.clear_log()
    pi.install()  # an update keeps the publisher it has, with its extra
    calls = [c.line for c in pi.calls()]
    assert "systemctl restart board-companion-publish.service" in calls
    assert any(line.endswith(f"{REPO}[club]") for line in calls)
    pi.clear_log()
    pi.install("--uninstall")
    assert not pi.file(CLUB_UNIT).exists()
    assert pi.calls()[0].line == "systemctl disable --now board-companion-publish.service"


def test_the_club_unit_reads_the_saved_games_only_and_writes_its_own_state() -> None:
    club = (REPO / "systemd" / "board-companion-publish.service").read_text().splitlines()
    for line in ("ReadOnlyPaths=/var/lib/board-companion", "ProtectSystem=strict",
                 "StateDirectory=board-companion-publish", "PrivateTmp=yes",
                 "NoNewPrivileges=yes", "RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX",
                 "User=board-companion", "RestartPreventExitStatus=2"):
        assert line in club, line
    start = next(x for x in club if x.startswith("ExecStart="))
    assert " publish --dir /var/lib/board-companion " in start
    assert "--state-dir" not in start  # $STATE_DIRECTORY: /var/lib/board-companion-publish
    referee = (REPO / "systemd" / "board-companion.service").read_text().splitlines()
    for line in ("PrivateNetwork=yes", "IPAddressDeny=any", "RestrictAddressFamilies=AF_UNIX"):
        assert line in referee, line


@needs_systemd_analyze
def test_the_installed_club_unit_verifies(pi: Pi) -> None:
    pi.install("--club")
    with_system_units(pi)
    assert SYSTEMD_ANALYZE is not None
    result = programs.run(
        [SYSTEMD_ANALYZE, "verify", "--man=no", f"--root={pi.root}", CLUB_UNIT],
        capture_output=True, text=True, idle=1, check=False,
    )
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


def test_dry_run_with_club_page_installs_the_page_alone_and_changes_nothing(pi: Pi) -> None:
    """The club's machine (issue 33): the venv with the club extra, the page's unit, its
    flags and password files; not the referee, I2C, the groups or the service user."""
    before = snapshot(pi.root)
    out = pi.install("--dry-run", "--club-page").stdout
    assert snapshot(pi.root) == before and pi.calls() == []
    lines = out.splitlines()
    r = str(pi.root)
    for expected in [
        "+ apt-get install -y --no-install-recommends python3-venv",
        f"+ python3 -m venv --system-site-packages {r}{VENV}",
        f"+ {r}{VENV}/bin/python -m pip install --upgrade --prefer-binary {REPO}[club]",
        f"write {r}{PAGE_ENV}",
        f"+ install -D -m 600 /dev/null {r}{PAGE_PASSWORD}",
        f"write {r}{PAGE_UNIT}",
        "+ systemctl enable board-companion-club.service",
    ]:
        assert expected in lines, f"{expected!r} not in the dry run's output:\n{out}"
    assert "not starting the club page: write the club's broker password" in out
    for absent in ("board-companion.service", "board-companion-publish", "groupadd", "useradd",
                   "dtparam", "config.txt", "udevadm", "+ systemctl restart"):
        assert absent not in out, absent


def test_install_with_club_page_starts_it_once_its_password_is_there(pi: Pi) -> None:
    pi.install("--club-page")
    unit = REPO / "systemd" / "board-companion-club.service"
    assert pi.file(PAGE_UNIT).read_bytes() == unit.read_bytes()
    assert not pi.file(UNIT).exists()  # not the referee
    env = pi.file(PAGE_ENV).read_text()
    assert "CLUB_ARGS=--broker club.local --ca /etc/mosquitto/club/ca.pem --user club" in env
    password = pi.file(PAGE_PASSWORD)
    assert password.read_bytes() == b"" and password.stat().st_mode & 0o777 == 0o600
    calls = [c.line for c in pi.calls()]
    assert "systemctl enable board-companion-club.service" in calls
    assert "systemctl restart board-companion-club.service" not in calls  # no password yet
    # the organiser writes the password and the flags: kept, and the page started
    password.write_text("the club password\n")
    pi.file(PAGE_ENV).write_text("CLUB_ARGS=--broker localhost --user club\n")
    pi.clear_log()
    out = pi.install("--club-page").stdout
    assert f"keep {pi.root}{PAGE_ENV}" in out and f"keep {pi.root}{PAGE_PASSWORD}" in out
    assert pi.file(PAGE_ENV).read_text() == "CLUB_ARGS=--broker localhost --user club\n"
    assert password.read_text() == "the club password\n"
    calls = [c.line for c in pi.calls()]
    assert "systemctl restart board-companion-club.service" in calls
    assert not any(c.startswith("python3 -m venv") for c in calls)  # the venv kept
    # a box's install on the same machine keeps the page up to date, with its extra
    pi.clear_log()
    pi.install()
    calls = [c.line for c in pi.calls()]
    assert any(line.endswith(f"{REPO}[club]") for line in calls)
    assert "systemctl restart board-companion-club.service" in calls
    pi.clear_log()
    pi.install("--uninstall", "--purge")
    assert not pi.file(PAGE_UNIT).exists() and not pi.file(PAGE_ENV).exists()
    assert pi.calls()[0].line == "systemctl disable --now board-companion-club.service"


def test_a_club_page_that_does_not_start_fails_the_install_with_a_hint(pi: Pi) -> None:
    pi.file(PAGE_PASSWORD).parent.mkdir(parents=True)
    pi.file(PAGE_PASSWORD).write_text("secret\n")
    result = pi.install("--club-page", check=False,
                        env_extra={"STUB_FAIL": "systemctl restart board-companion-club.service"})
    assert result.returncode == 1
    assert "journalctl -u board-companion-club" in result.stdout


@needs_systemd_analyze
def test_the_installed_club_page_unit_verifies(pi: Pi) -> None:
    pi.install("--club-page")
    with_system_units(pi)
    assert SYSTEMD_ANALYZE is not None
    result = programs.run(
        [SYSTEMD_ANALYZE, "verify", "--man=no", f"--root={pi.root}", PAGE_UNIT],
        capture_output=True, text=True, idle=1, check=False,
    )
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


# --- the camera over the board (issue 34) ---------------------------------------------

CAMERA_DROPIN = "/etc/systemd/system/board-companion.service.d/camera.conf"
CAMERA_CONF = REPO / "systemd" / "board-companion-camera.conf"


def test_dry_run_with_camera_adds_picamera2_opencv_and_the_drop_in(pi: Pi) -> None:
    with_model(pi, PI5)
    before = snapshot(pi.root)
    out = pi.install("--dry-run", "--camera").stdout
    assert snapshot(pi.root) == before and pi.calls() == []
    assert apt_install_line(out) == [*PACKAGES, "python3-picamera2"]
    lines = out.splitlines()
    r = str(pi.root)
    for expected in [
        # NumPy below 2: apt's picamera2 helpers are built against Bookworm's 1.24
        f"+ {r}{VENV}/bin/python -m pip install --upgrade --prefer-binary {REPO}[camera] numpy<2",
        f"+ groupadd --root {r} --system video",
        "+ modprobe -a i2c-dev cdc_acm spidev videodev",
        f"write {r}{CAMERA_DROPIN}",
        "+ systemctl restart board-companion.service",
    ]:
        assert expected in lines, f"{expected!r} not in the dry run's output:\n{out}"


def test_without_camera_nothing_of_it_is_installed(pi: Pi) -> None:
    with_model(pi, PI5)
    out = pi.install("--dry-run").stdout
    assert "picamera2" not in out and "[camera]" not in out and "numpy" not in out
    assert "camera.conf" not in out and "videodev" not in out
    assert "--system video" not in out


@pytest.mark.parametrize(
    ("model", "connector"),
    [
        ("Raspberry Pi 5 Model B Rev 1.0", True),
        ("Raspberry Pi 4 Model B Rev 1.5", True),
        ("Raspberry Pi 3 Model B Plus Rev 1.3", True),
        ("Raspberry Pi 3 Model A Plus Rev 1.0", True),
        ("Raspberry Pi Zero 2 W Rev 1.0", True),
        ("Raspberry Pi Zero W Rev 1.1", True),
        ("Raspberry Pi Zero Rev 1.3", True),
        ("Raspberry Pi Zero Rev 1.2", False),  # the first Zero: no connector yet
        ("Raspberry Pi Model B Plus Rev 1.2", True),
        ("Raspberry Pi Compute Module 4 Rev 1.0", True),  # on its IO board
        ("Raspberry Pi Compute Module 5 Rev 1.0", True),
        ("Raspberry Pi 400 Rev 1.0", False),  # the keyboards have none
        ("Raspberry Pi 500 Rev 1.0", False),
        ("Raspberry Pi 6 Model B", False),  # not a model the script knows
        ("Pine64 RockPro64", False),
    ],
)
def test_which_models_have_a_camera_connector(model: str, connector: bool) -> None:
    done = programs.run(
        ["bash", "-c", f'source <(sed "/^main \\"\\$@\\"$/d" {SCRIPT}); camera_connector "$1"',
         "-", model],
        capture_output=True, text=True, idle=1, check=False,
    )
    assert done.returncode == (0 if connector else 1), done.stderr


def test_on_a_pi_400_the_camera_is_a_usb_webcam_only(pi: Pi) -> None:
    with_model(pi, "Raspberry Pi 400 Rev 1.0")
    out = pi.install("--dry-run", "--camera").stdout
    assert "has no camera connector: a USB webcam only" in out
    assert "python3-picamera2" not in apt_install_line(out)
    assert f"--prefer-binary {REPO}[camera] numpy<2" in out  # OpenCV for the webcam
    assert f"write {pi.root}{CAMERA_DROPIN}" in out


def test_where_apt_lacks_picamera2_it_says_so_and_installs_opencv(pi: Pi) -> None:
    """Plain Debian (make test-pi's arm64 root): python3-picamera2 is in the Raspberry
    Pi archive only; a webcam still works."""
    with_model(pi, PI5)
    result = pi.install("--camera", env_extra={"STUB_APT_LACKS": "python3-picamera2"})
    assert "apt has no python3-picamera2" in result.stdout
    assert apt_install_line(result.stdout) == list(PACKAGES)
    lines = [call.line for call in pi.calls()]
    assert f"venv-python -m pip install --upgrade --prefer-binary {REPO}[camera] numpy<2" in lines


def test_install_with_camera_writes_the_drop_in_keeps_it_and_uninstall_removes_it(pi: Pi) -> None:
    with_model(pi, PI4)
    pi.install("--camera")
    assert pi.file(CAMERA_DROPIN).read_bytes() == CAMERA_CONF.read_bytes()
    modules = [line for line in pi.file(MODULES).read_text().splitlines() if not line.startswith("#")]
    assert modules == ["i2c-dev", "cdc_acm", "spidev", "videodev"]
    assert "video:" in pi.file("/etc/group").read_text()
    apt = [c.line for c in pi.calls() if c.name == "apt-get" and "install" in c.args]
    assert apt == ["apt-get install -y --no-install-recommends "
                   + " ".join([*PACKAGES, "python3-rpi.gpio", "python3-picamera2"])]
    # An update without --camera keeps the camera it has, with its extra and packages.
    pi.clear_log()
    pi.install()
    lines = [c.line for c in pi.calls()]
    assert f"venv-python -m pip install --upgrade --prefer-binary {REPO}[camera] numpy<2" in lines
    assert pi.file(CAMERA_DROPIN).exists()
    # Uninstall: the drop-in goes, and its folder when nothing else is in it.
    pi.install("--uninstall")
    assert not pi.file(CAMERA_DROPIN).exists()
    assert not pi.file(CAMERA_DROPIN).parent.exists()


def test_uninstall_keeps_a_drop_in_of_the_users_own(pi: Pi) -> None:
    pi.install("--camera")
    override = pi.file(CAMERA_DROPIN).with_name("override.conf")  # systemctl edit's
    override.write_text("[Service]\nEnvironment=GPIOZERO_PIN_FACTORY=lgpio\n")
    pi.install("--uninstall")
    assert not pi.file(CAMERA_DROPIN).exists()
    assert override.exists()


def _directives(text: str) -> list[tuple[str, str]]:
    """The (key, value) pairs of a unit file's lines, comments left out."""
    pairs = []
    for line in text.splitlines():
        if "=" in line and not line.lstrip().startswith("#"):
            key, value = line.split("=", 1)
            pairs.append((key, value))
    return pairs


def test_the_camera_drop_in_adds_the_camera_devices_and_group_only() -> None:
    """It may only widen what the camera needs: no hardening line of the unit is
    undone, and the referee stays off the network."""
    text = CAMERA_CONF.read_text()
    assert [line for line in text.splitlines() if line.startswith("[")] == ["[Service]"]
    assert sorted(_directives(text)) == sorted([
        ("SupplementaryGroups", "video"),
        ("DeviceAllow", "char-video4linux rw"),  # /dev/video*, /dev/v4l-subdev*
        ("DeviceAllow", "char-media rw"),  # libcamera's media controllers
        ("DeviceAllow", "char-dma_heap rw"),  # libcamera's and picamera2's frame buffers
    ])
    referee = (REPO / "systemd" / "board-companion.service").read_text().splitlines()
    for line in ("DevicePolicy=closed", "PrivateNetwork=yes", "IPAddressDeny=any",
                 "RestrictAddressFamilies=AF_UNIX", "NoNewPrivileges=yes",
                 "ProtectSystem=strict", "MemoryDenyWriteExecute=yes"):
        assert line in referee, line
    # video is not among the unit's own groups: only the camera's drop-in brings it
    groups = [line for line in referee if line.startswith("SupplementaryGroups=")]
    assert groups and "video" not in groups[0].split("=", 1)[1].split()


@needs_systemd_analyze
def test_the_installed_unit_with_the_camera_drop_in_verifies_and_keeps_its_score(
    pi: Pi,
) -> None:
    pi.install("--camera")
    with_system_units(pi)
    assert SYSTEMD_ANALYZE is not None
    result = programs.run(
        [SYSTEMD_ANALYZE, "verify", "--man=no", f"--root={pi.root}", UNIT],
        capture_output=True, text=True, idle=1, check=False,
    )
    assert (result.returncode, result.stdout + result.stderr) == (0, "")
    security = programs.run(
        [SYSTEMD_ANALYZE, "security", "--offline=yes", f"--root={pi.root}", "--no-pager",
         "board-companion.service"],
        capture_output=True, text=True, idle=1, check=False,
    ).stdout
    # the drop-in is read (its device classes are in the unit's list), and the score is
    # still the one the README gives for the unit alone
    assert "char-video4linux:rw" in security and "char-dma_heap:rw" in security, security
    found = re.search(r"Overall exposure level for board-companion.service: (\d+\.\d) ([A-Z]+)",
                      security)
    assert found, security
    assert_documented((float(found[1]), found[2]), REPO / "systemd" / "README.md")
