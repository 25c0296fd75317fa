"""A real Mosquitto broker for the club's tests, on a free loopback port (issue 21).

``make_broker(...)`` (the :func:`make_broker` fixture) starts ``/usr/sbin/mosquitto``
with a config written into a temporary folder: password file (``mosquitto_passwd
-b``), ACL file, persistence on (so retained messages and the QoS 1 messages queued
for a persistent session survive :meth:`Broker.restart`), and optionally TLS with a
CA and a server certificate made by the test (``openssl``, :func:`tls_files`). Tests
using it skip, saying why, when mosquitto or mosquitto_passwd is missing (``make
test`` installs them: tests/tools/debian-packages.sh).

:class:`Listener` is a paho subscriber that collects messages, for assertions.
Generic: the box's publisher and the club page use it alike: a test module names it
with ``pytest_plugins = ["broker"]`` (PYTEST_DONT_REWRITE: the module is imported by the
tests before pytest loads it as a plugin, and has no test assertions to rewrite).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

MOSQUITTO = "/usr/sbin/mosquitto"
HOST = "127.0.0.1"


def free_port() -> int:
    """A TCP port free on loopback now (the kernel's choice)."""
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


def need_mosquitto() -> None:
    """Skip the test, saying why, when the broker or its password tool is missing."""
    if not os.access(MOSQUITTO, os.X_OK):
        pytest.skip(f"{MOSQUITTO} missing (Debian package mosquitto; `make test` installs it)")
    if shutil.which("mosquitto_passwd") is None:
        pytest.skip("mosquitto_passwd missing (Debian package mosquitto)")


@dataclass(frozen=True)
class TlsFiles:
    """A CA and a server certificate for 127.0.0.1 / localhost signed by it (PEM)."""

    ca: Path
    cert: Path
    key: Path
    other_ca: Path
    """A second CA that signed nothing here: a client trusting only it is refused."""


def make_tls(folder: Path) -> TlsFiles:
    """Make the CA, the server key and certificate, and an unrelated CA, in ``folder``
    (EC P-256 keys, valid one day) with the ``openssl`` command."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl missing: cannot make the test's CA")
    folder.mkdir(parents=True, exist_ok=True)

    def run(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True)

    for name in ("ca", "other-ca"):
        run("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
            "-nodes", "-keyout", f"{name}.key", "-out", f"{name}.pem", "-days", "1",
            "-subj", f"/CN=board-companion test {name}")
    run("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
        "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost")
    (folder / "san.cnf").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    run("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
        "-CAcreateserial", "-out", "server.pem", "-days", "1", "-extfile", "san.cnf")
    return TlsFiles(folder / "ca.pem", folder / "server.pem", folder / "server.key",
                    folder / "other-ca.pem")


@dataclass
class Broker:
    """One mosquitto process and its folder. Started by :func:`make_broker`."""

    folder: Path
    port: int
    users: Mapping[str, str]
    acl: str
    tls: TlsFiles | None = None
    anonymous: bool = False
    settings: Mapping[str, str] = field(default_factory=dict)
    """Lines of the config that replace the defaults (``{"autosave_interval": "1800"}``)."""
    process: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    @property
    def config(self) -> Path:
        return self.folder / "mosquitto.conf"

    @property
    def log(self) -> Path:
        return self.folder / "mosquitto.log"

    def write_config(self) -> None:
        """The config, password and ACL files (the password file made anew)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        passwd = self.folder / "passwd"
        passwd.unlink(missing_ok=True)
        passwd.touch(mode=0o600)
        for user, password in self.users.items():
            subprocess.run(["mosquitto_passwd", "-b", str(passwd), user, password],
                           check=True, capture_output=True)
        (self.folder / "acl").write_text(self.acl)
        lines = [
            f"listener {self.port} {HOST}",
            f"allow_anonymous {'true' if self.anonymous else 'false'}",
            f"password_file {passwd}",
            f"acl_file {self.folder / 'acl'}",
            "persistence true",
            f"persistence_location {self.folder}/",
            "autosave_interval 1",
            f"log_dest file {self.log}",
            "log_type all",
            "max_queued_messages 10000",
        ]
        for key, value in self.settings.items():
            lines = [line for line in lines if not line.startswith(key + " ")]
            lines.append(f"{key} {value}")
        if os.geteuid() == 0:
            lines.append("user root")  # else mosquitto drops to a user who cannot read here
        if self.tls is not None:
            lines += [f"cafile {self.tls.ca}", f"certfile {self.tls.cert}",
                      f"keyfile {self.tls.key}", "require_certificate false"]
        self.config.write_text("\n".join(lines) + "\n")

    def start(self, timeout: float = 10.0) -> None:
        """Start mosquitto (same port, same folder) and wait until it accepts TCP.

        :raises RuntimeError: it exited or did not listen within ``timeout`` seconds.
        """
        assert self.process is None, "already running"
        self.process = subprocess.Popen([MOSQUITTO, "-c", str(self.config)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                err = self.process.stderr.read().decode() if self.process.stderr else ""
                self.process = None
                raise RuntimeError(f"mosquitto exited: {err} {self.log_text()}")
            try:
                with socket.create_connection((HOST, self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"mosquitto did not listen on {self.port}: {self.log_text()}")

    def stop(self) -> None:
        """Stop mosquitto as systemd would (SIGTERM: it saves its persistence file)."""
        if self.process is None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self.process.stderr:
            self.process.stderr.close()
        self.process = None

    def kill(self) -> None:
        """A crash of the broker: SIGKILL, its persistence file not saved on the way
        out (what it holds is what the last autosave wrote)."""
        if self.process is None:
            return
        self.process.kill()
        self.process.wait()
        if self.process.stderr:
            self.process.stderr.close()
        self.process = None

    def restart(self) -> None:
        """:meth:`stop`, then :meth:`start` on the same port with the same files."""
        self.stop()
        self.start()

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def log_text(self) -> str:
        try:
            return self.log.read_text(errors="replace")[-4000:]
        except OSError:
            return ""

    def client(self, user: str | None, *, client_id: str = "", clean_session: bool = True,
               ca: Path | None = None) -> Any:
        """A paho client (MQTT 3.1.1) for ``user`` (its password from :attr:`users`;
        ``None``: anonymous), trusting ``ca`` (default: the broker's CA when TLS is on),
        not yet connected."""
        from paho.mqtt import client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        cli = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                          clean_session=clean_session, protocol=mqtt.MQTTv311)
        if user is not None:
            cli.username_pw_set(user, self.users.get(user, ""))
        if self.tls is not None:
            cli.tls_set(ca_certs=str(ca or self.tls.ca))
        return cli


def acl_for_club(prefix: str, tables: list[str], club_user: str = "club") -> str:
    """The protocol's ACL: each table's user writes only its own table's state and
    results and reads only its own receipts, the club's requests for its whole state
    and the roster; the club's user reads everything under ``prefix`` and writes only
    receipts, requests and the roster."""
    out = [f"user {club_user}", f"topic read {prefix}/#", f"topic write {prefix}/receipts/#",
           f"topic write {prefix}/requests/#", f"topic write {prefix}/roster", ""]
    for table in tables:
        out += [f"user {table}", f"topic write {prefix}/tables/{table}/#",
                f"topic write {prefix}/results/{table}/#",
                f"topic read {prefix}/receipts/{table}", f"topic read {prefix}/requests/{table}",
                f"topic read {prefix}/roster", ""]
    return "\n".join(out)


BrokerFactory = Callable[..., Broker]


@pytest.fixture(scope="session")
def tls_files(tmp_path_factory: pytest.TempPathFactory) -> TlsFiles:
    """A CA, a server certificate signed by it and an unrelated CA (made once)."""
    return make_tls(tmp_path_factory.mktemp("tls"))


@pytest.fixture
def make_broker(tmp_path: Path) -> Iterator[BrokerFactory]:
    """A factory of started brokers: ``make_broker(users={"t1": "pw"}, acl=..., tls=None,
    anonymous=False, settings={"max_queued_messages": "5"})``; every broker it started is stopped after the test. Skips when
    mosquitto is missing."""
    need_mosquitto()
    started: list[Broker] = []

    def make(users: Mapping[str, str] | None = None, acl: str = "", *,
             tls: TlsFiles | None = None, anonymous: bool = False,
             settings: Mapping[str, str] | None = None) -> Broker:
        broker = Broker(tmp_path / f"broker-{len(started)}", free_port(), dict(users or {}),
                        acl, tls, anonymous, dict(settings or {}))
        broker.write_config()
        started.append(broker)
        broker.start()
        return broker

    yield make
    for broker in started:
        broker.stop()


class Listener:
    """A subscriber that keeps every message it gets: ``(topic, payload, retain)``."""

    def __init__(self, broker: Broker, user: str, topics: list[str], *,
                 client_id: str = "", clean_session: bool = True, ca: Path | None = None) -> None:
        self.broker = broker
        self.messages: list[tuple[str, bytes, bool]] = []
        self.lock = threading.Condition()
        self.connected = threading.Event()
        self.answered = threading.Event()
        self.refused: str | None = None
        self.topics = topics
        self.client = broker.client(user, client_id=client_id, clean_session=clean_session,
                                    ca=ca)
        self.client.on_message = self._message
        self.client.on_connect = self._connect

    def _connect(self, client: Any, userdata: Any, flags: Any, reason: Any,
                 properties: Any) -> None:
        if reason.is_failure:
            self.refused = str(reason)
            self.answered.set()
            return
        if not flags.session_present:  # a kept session keeps its subscriptions: subscribing
            for topic in self.topics:   # again would send the retained messages once more
                client.subscribe(topic, qos=1)
        self.connected.set()
        self.answered.set()

    def _message(self, client: Any, userdata: Any, msg: Any) -> None:
        with self.lock:
            self.messages.append((msg.topic, bytes(msg.payload), bool(msg.retain)))
            self.lock.notify_all()

    def start(self, timeout: float = 10.0) -> Listener:
        """Connect and subscribe (QoS 1); wait until the broker accepted."""
        self.client.connect(HOST, self.broker.port, keepalive=10)
        self.client.loop_start()
        self.answered.wait(timeout)
        if not self.connected.is_set():
            self.stop()
            raise AssertionError(f"not connected: {self.refused}")
        time.sleep(0.2)  # the SUBACK; retained messages follow it
        return self

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def wait_for(self, test: Callable[[list[tuple[str, bytes, bool]]], bool],
                 timeout: float = 15.0) -> list[tuple[str, bytes, bool]]:
        """The messages once ``test(messages)`` is true.

        :raises AssertionError: not within ``timeout`` seconds (with what came).
        """
        deadline = time.monotonic() + timeout
        with self.lock:
            while not test(self.messages):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"not within {timeout} s; got "
                                         f"{[(t, p[:80]) for t, p, _ in self.messages]}")
                self.lock.wait(left)
            return list(self.messages)
