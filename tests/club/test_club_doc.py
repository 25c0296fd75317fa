"""docs/club.md followed as written (issue 33): its commands, in order, in a private
network and mount namespace, until a finished game's result is on the club page.

The doc marks the blocks a person runs with an HTML comment before each (invisible
on the rendered page):

- ``<!-- doc-test: NAME -->``: shell commands, run as the doc gives them;
- ``<!-- doc-test: NAME > /PATH -->``: a file's text, written to ``/PATH``
  (``>>``: added to it, as "add to ``config.toml``").

:data:`STEPS` lists the marked blocks in the order the doc has them; the doc's markers
must be exactly these (a block marked, unmarked or moved fails the test, so the doc
and this test cannot drift apart silently). Every command of a marked block must be
one this test knows (:data:`AS_IS`, or a rule of :data:`MAPPED`, which says what runs
instead and why); a command it does not know fails the test, naming it.

Where it runs: ``unshare --net --mount`` (root: `make test` and CI run as root),
``lo`` up, and ``/etc``, ``/var`` and ``/run`` overlaid with temporary folders, so the
doc's own paths (``/etc/mosquitto/club``, ``/etc/board-companion``), host name
(``club.local``, a line in ``/etc/hosts``) and ports (8883, 8090) are used as written
while nothing of the machine's files or network is touched. The club's machine and
the box are one machine here. Skips, saying why, when not root, when ``unshare`` is
refused, or when mosquitto, openssl or setpriv is missing.

The timeouts are hang guards only (generous, for a loaded 2-core machine), never a
judgement of speed: the page is polled every 0.5 s for at most
:data:`PAGE_TIMEOUT` seconds.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest
from broker import need_mosquitto
from games import play

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "club.md"
PUBLISH_UNIT = REPO / "systemd" / "board-companion-publish.service"
MOSQUITTO_UNITS = (Path("/lib/systemd/system/mosquitto.service"),
                   Path("/usr/lib/systemd/system/mosquitto.service"))
TABLE = "cafe-1"
PAGE = "http://club.local:8090/"
PAGE_TIMEOUT = 120.0
"""Seconds the result may take to reach the page: a hang guard (the publisher sends a
finished journal's result at its first look at the folder, the club stores it and the
page shows it at once; the box re-sends after 30 s should the first sending be lost)."""
RUN_TIMEOUT = 300.0
"""Seconds for the whole run in the namespace: a hang guard."""

STEPS = ("broker-install", "broker-tls", "broker-users", "broker-acl", "broker-conf",
         "broker-start", "box-password", "box-config", "club-page")
"""The doc's marked blocks, in the doc's order: step 1 (the broker), step 2 (a box),
step 3 (the club page by hand)."""

AS_IS = frozenset({"mkdir", "cd", "openssl", "echo", "tee", "chown", "chmod", "install",
                   "printf"})
"""Programs whose commands run exactly as the doc gives them (``sudo`` dropped: the test
is root in its namespace)."""


@dataclass(frozen=True)
class Rule:
    """A command of the doc that cannot run in a test as written, and what runs instead."""

    pattern: str
    """A regular expression matching the whole command (``sudo`` and comments removed)."""
    why: str
    instead: str
    """Shell text run instead; ``\\1`` ... the pattern's groups."""


MAPPED = (
    Rule(r"apt-get install (mosquitto mosquitto-clients openssl)",
         "no registry in the namespace; the test skips unless they are installed",
         r": apt-get install \1 # checked before the run"),
    Rule(r"mosquitto_passwd -c (\S+) (\S+)",
         "asks for the password twice on a terminal: given with -b instead, the one the "
         "doc's later steps write ('the club password')",
         r"mosquitto_passwd -b -c \1 \2 'the \2 password'"),
    Rule(r"mosquitto_passwd (/\S+) (\S+)",
         "as above", r"mosquitto_passwd -b \1 \2 'the \2 password'"),
    Rule(r"systemctl restart mosquitto",
         "no systemd in the namespace: Debian's mosquitto.service's ExecStartPre= and "
         "ExecStart= lines, the broker in the background",
         "start_mosquitto"),
    Rule(r"python3 -m venv ~/companion && ~/companion/bin/pip install '\.\[club\]'",
         "no registry in the namespace: ~/companion is the test's own venv, which has the "
         "club extra (requirements/dev.lock)",
         'ln -s "$VENV" ~/companion'),
    Rule(r"(~/companion/bin/companion club .*)",
         "a server that runs until stopped: in the background",
         r"\1 & PIDS+=($!); export CLUB_PID=$!"),
)

PRELUDE = r"""
set -euo pipefail
PIDS=()
stop() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; wait || true; }
trap stop EXIT
say() { printf '\n== %s\n' "$*"; }
wait_port() {  # a hang guard: 60 s
    for _ in $(seq 600); do
        "$VENV/bin/python" -c "import socket,sys; socket.create_connection(('$1', $2), 0.2)" \
            2>/dev/null && return 0
        sleep 0.1
    done
    echo "nothing listens on $1:$2"; return 1
}
ip link set lo up
for d in etc var run; do
    mkdir -p "$OVERLAY/$d/up" "$OVERLAY/$d/work"
    mount -t overlay overlay \
        -o "lowerdir=/$d,upperdir=$OVERLAY/$d/up,workdir=$OVERLAY/$d/work" "/$d"
done
cd "$HOME"
"""


def mosquitto_unit() -> list[str]:
    """Debian's mosquitto.service's ExecStartPre= and ExecStart= commands (the unit's
    text; a ``-`` prefix removed). Skips when the unit file is missing."""
    for unit in MOSQUITTO_UNITS:
        if unit.exists():
            lines = unit.read_text().splitlines()
            pre = [line.split("=", 1)[1].lstrip("-") for line in lines
                   if line.startswith("ExecStartPre=")]
            start = [line.split("=", 1)[1] for line in lines if line.startswith("ExecStart=")]
            assert len(start) == 1, f"{unit}: one ExecStart= expected"
            return [*pre, start[0]]
    pytest.skip("mosquitto.service missing (Debian package mosquitto)")


def publish_exec() -> tuple[str, str, str]:
    """The publisher unit's ExecStart= (the python and its arguments), User= and
    StateDirectory=."""
    lines = PUBLISH_UNIT.read_text().splitlines()

    def one(key: str) -> str:
        found = [line.split("=", 1)[1] for line in lines if line.startswith(key + "=")]
        assert len(found) == 1, f"{PUBLISH_UNIT.name}: one {key}= expected, got {found}"
        return found[0]

    return one("ExecStart"), one("User"), one("StateDirectory")


@dataclass(frozen=True)
class Block:
    name: str
    target: str | None
    """``> /PATH`` or ``>> /PATH`` for a file's text; None for commands."""
    text: str
    before: str
    """The doc's text before the marker (to check it names the file)."""


MARKER = re.compile(r"^<!-- doc-test: ([\w-]+)(?: (>>? /\S+))? -->$")


def blocks(doc: str) -> list[Block]:
    """The marked blocks of ``doc``: each the indented (code) lines after its marker,
    dedented."""
    lines = doc.splitlines()
    found = []
    for n, line in enumerate(lines):
        if not line.startswith("<!-- doc-test"):
            continue
        m = MARKER.match(line)
        assert m, f"docs/club.md line {n + 1}: a marker this test cannot read: {line!r}"
        body: list[str] = []
        i = n + 1
        while i < len(lines) and not lines[i].strip():
            i += 1
        while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
            body.append(lines[i])
            i += 1
        text = textwrap.dedent("\n".join(body)).strip("\n")
        assert text, f"docs/club.md line {n + 1}: marker {m.group(1)} has no code block after it"
        found.append(Block(m.group(1), m.group(2), text + "\n", "\n".join(lines[max(0, n - 8):n])))
    return found


def commands(text: str) -> list[str]:
    """The commands of a shell block: continuation lines joined, comments and blank
    lines dropped, ``sudo`` removed."""
    joined = text.replace("\\\n", " ")
    out = []
    for line in joined.splitlines():
        line = re.sub(r"(^|\s)#.*$", "", line).strip()
        line = re.sub(r"\s+", " ", line)
        if line:
            out.append(re.sub(r"(^|&& |\| )sudo ", r"\1", line))
    return out


def translate(command: str) -> str:
    """The shell text run for one command of the doc.

    :raises AssertionError: a command neither :data:`AS_IS` nor in :data:`MAPPED`.
    """
    for rule in MAPPED:
        if re.fullmatch(rule.pattern, command):
            return re.sub(rule.pattern, rule.instead, command)
    parts = re.split(r"&&|\|", command)
    programs = [shlex.split(part)[0] for part in parts]
    unknown = [p for p in programs if p not in AS_IS]
    assert not unknown, (
        f"docs/club.md has a command this test does not know: {command!r} ({unknown}); "
        "run it as is (AS_IS) or say what runs instead (MAPPED) in tests/club/test_club_doc.py")
    return command


def test_the_doc_marks_the_steps_the_test_follows() -> None:
    found = blocks(DOC.read_text(encoding="utf-8"))
    assert tuple(b.name for b in found) == STEPS
    for block in found:
        if block.target is not None:
            path = block.target.split()[-1]
            assert f"`{path}`" in block.before, f"{block.name}: the doc does not name {path}"
        else:
            for command in commands(block.text):
                translate(command)


def test_an_unknown_command_fails() -> None:
    with pytest.raises(AssertionError, match="does not know"):
        translate("systemctl enable --now mosquitto")
    with pytest.raises(AssertionError, match="does not know"):
        translate("mkdir -p /x && useradd club")


def script(journals: Path, winner_check: Path) -> str:
    """The whole run as one bash script: the prelude, the doc's blocks (translated) and
    the steps the doc gives in words, in the doc's order."""
    exec_start, user, state_dir = publish_exec()
    python, *publish_args = shlex.split(exec_start)
    assert python == "/opt/board-companion/venv/bin/python", exec_start
    assert "--config" in publish_args and "--dir" in publish_args
    journal_dir = publish_args[publish_args.index("--dir") + 1]
    parts = [PRELUDE]
    pre_start = "\n".join(f"    {shlex.join(shlex.split(c))}" for c in mosquitto_unit()[:-1])
    parts.append(
        "start_mosquitto() {\n" + pre_start + "\n"
        f"    {mosquitto_unit()[-1]} & PIDS+=($!)\n"
        "    wait_port club.local 8883\n}\n")
    # "The box must reach the broker by the name in its certificate (club.local here
    # ... a line in the box's /etc/hosts)": the club's machine is this one
    parts.append("say '/etc/hosts: club.local'\necho '127.0.0.1 club.local' >> /etc/hosts")
    for block in blocks(DOC.read_text(encoding="utf-8")):
        parts.append(f"say {shlex.quote(block.name)}")
        if block.name == "box-password":
            # a box as systemd/install.sh left it (its user, /etc/board-companion, the
            # journal folder with a finished game), and "copy the club's ca.pem to
            # /etc/board-companion/club-ca.pem"
            parts.append(textwrap.dedent(f"""\
                useradd --system --no-create-home --shell /usr/sbin/nologin {user}
                install -d -m 755 /etc/board-companion
                install -d -o {user} -g {user} {journal_dir}
                cp -r {shlex.quote(str(journals))}/. {journal_dir}/
                chown -R {user}: {journal_dir}
                install -m 644 /etc/mosquitto/club/ca.pem /etc/board-companion/club-ca.pem"""))
        if block.target is not None:
            redirect, path = block.target.split()
            parts.append(f"cat {redirect} {path} <<'DOC_TEST_EOF'\n{block.text}DOC_TEST_EOF")
        else:
            parts += [translate(c) for c in commands(block.text)]
        if block.name == "box-config":
            # "then sudo ./systemd/install.sh --club, which installs and starts the
            # publisher's unit": the unit's ExecStart= as its User=, its StateDirectory=
            state = f"/var/lib/{state_dir}"
            args = shlex.join(publish_args)
            parts.append(textwrap.dedent(f"""\
                say 'board-companion-publish.service (install.sh --club)'
                install -d -o {user} -g {user} -m 700 {state}
                STATE_DIRECTORY={state} setpriv --reuid {user} --regid {user} --init-groups \\
                    "$VENV/bin/python" {args} > "$LOGS/publish.log" 2>&1 & PIDS+=($!)
                export PUBLISH_PID=$!"""))
    parts.append(f"say 'open {PAGE}'\n\"$VENV/bin/python\" {shlex.quote(str(winner_check))}")
    return "\n".join(parts) + "\n"


CHECK = '''
import os, re, sys, time, urllib.request
page, row, winner, timeout = {page!r}, {row!r}, {winner!r}, {timeout!r}
opener = urllib.request.build_opener(urllib.request.ProxyHandler({{}}))
deadline = time.monotonic() + timeout
text = ""
def gone(pid):
    try:
        with open(f"/proc/{{pid}}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] in "ZX"
    except OSError:
        return True
while time.monotonic() < deadline:
    for name in ("PUBLISH_PID", "CLUB_PID"):
        if gone(os.environ[name]):
            print(name, "exited: the result cannot reach the page")
            sys.exit(5)
    try:
        text = opener.open(page, timeout=5).read().decode()
    except OSError as error:
        text = str(error)
    found = re.search(r'<tr data-result="' + re.escape(row) + r'">(.*?)</tr>', text, re.S)
    if found:
        cells = re.findall(r"<td>(.*?)</td>", found.group(1), re.S)
        print("the page's result row:", cells)
        sys.exit(0 if cells[4] == winner else 3)
    time.sleep(0.5)
print("the result is not on the page within", timeout, "s; the page:", text[-3000:])
sys.exit(4)
'''


def test_the_doc_followed_puts_a_result_on_the_page(tmp_path: Path) -> None:
    need_mosquitto()
    if os.geteuid() != 0:
        pytest.skip("the doc's steps chown files to the users mosquitto and board-companion "
                    "and run the publisher as its user: needs root (make test and CI are root)")
    for tool in ("openssl", "setpriv", "unshare", "ip", "useradd"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} missing")
    probe_dir = tmp_path / "probe"
    for name in ("lower", "up", "work", "mnt"):
        (probe_dir / name).mkdir(parents=True)
    probe = subprocess.run(
        ["unshare", "--net", "--mount", "sh", "-c", "ip link set lo up && mount -t overlay "
         f"overlay -o lowerdir={probe_dir}/lower,upperdir={probe_dir}/up,"
         f"workdir={probe_dir}/work {probe_dir}/mnt"],
        capture_output=True, text=True, timeout=30)
    if probe.returncode != 0:
        pytest.skip("unshare --net --mount with an overlay mount refused here: "
                    f"{probe.stderr.strip()}")

    journals = tmp_path / "journals"
    played = play(journals, "senet-tait", 3)
    result = played.result(TABLE)
    check = tmp_path / "check.py"
    check.write_text(CHECK.format(page=PAGE, row=result["id"], winner=result["winner"],
                                  timeout=PAGE_TIMEOUT))
    home, logs, overlay = tmp_path / "home", tmp_path / "logs", tmp_path / "overlay"
    for folder in (home, logs, overlay):
        folder.mkdir()
    run = tmp_path / "club-doc.sh"
    run.write_text(script(journals, check))
    env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
           "HOME": str(home), "VENV": str(Path(sys.executable).parent.parent),
           "LOGS": str(logs), "OVERLAY": str(overlay), "LANG": "C.UTF-8",
           "PYTHONPATH": str(REPO)}
    process = subprocess.Popen(["unshare", "--net", "--mount", "bash", str(run)], env=env,
                               cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, start_new_session=True)
    try:
        out, _ = process.communicate(timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, _ = process.communicate()
        pytest.fail(f"hung for {RUN_TIMEOUT} s:\n{out}")
    logs_text = "\n".join(f"--- {p.name}\n{p.read_text(errors='replace')[-3000:]}"
                          for p in [*sorted(logs.iterdir()),
                                    *overlay.glob("var/up/log/mosquitto/*.log")])
    print(out, logs_text, sep="\n")
    assert process.returncode == 0, f"{out}\n{logs_text}"
    assert "the page's result row:" in out
    # the doc's broker settings are ones mosquitto takes without a note (2.0 printed
    # "It is recommended to replace `message_size_limit` with `max_packet_size`")
    assert "recommended to replace" not in out, out
