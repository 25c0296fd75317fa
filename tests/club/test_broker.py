"""The broker fixture itself: users, ACL, TLS and persistence across a restart work as
the club's tests rely on (a real mosquitto on loopback; skipped when it is missing)."""

from __future__ import annotations

import ssl
import time

import pytest
from broker import Broker, BrokerFactory, Listener, TlsFiles, acl_for_club

pytest_plugins = ["broker"]  # its fixtures: make_broker, tls_files

PREFIX = "board-companion"
USERS = {"club": "club-pw", "t1": "t1-pw", "t2": "t2-pw"}


def publish(broker: Broker, user: str | None, topic: str, payload: bytes, **kw: object) -> bool:
    """Publish once with QoS 1 as ``user``; True when the broker acknowledged."""
    cli = broker.client(user, **kw)  # type: ignore[arg-type]
    cli.connect("127.0.0.1", broker.port)
    cli.loop_start()
    try:
        info = cli.publish(topic, payload, qos=1, retain=True)
        info.wait_for_publish(5)
        return bool(info.is_published())
    finally:
        cli.disconnect()
        cli.loop_stop()


def test_retained_and_queued_messages_survive_a_restart(make_broker: BrokerFactory) -> None:
    broker = make_broker(USERS, acl_for_club(PREFIX, ["t1", "t2"]))
    topic = f"{PREFIX}/tables/t1/state"
    club = Listener(broker, "club", [f"{PREFIX}/#"], client_id="club-test",
                    clean_session=False).start()
    club.stop()  # away: what comes now is queued for its session
    assert publish(broker, "t1", topic, b"one")
    broker.restart()
    club = Listener(broker, "club", [f"{PREFIX}/#"], client_id="club-test",
                    clean_session=False).start()
    got = club.wait_for(lambda m: any(p == b"one" for _, p, _ in m))
    club.stop()
    assert [p for t, p, _ in got if t == topic] == [b"one"]
    late = Listener(broker, "club", [f"{PREFIX}/#"]).start()  # a new session: the retained
    assert late.wait_for(lambda m: bool(m))[0][:2] == (topic, b"one")
    late.stop()


def test_anonymous_is_refused(make_broker: BrokerFactory) -> None:
    broker = make_broker(USERS, acl_for_club(PREFIX, ["t1"]))
    listener = Listener(broker, None, [f"{PREFIX}/#"])  # type: ignore[arg-type]
    with pytest.raises(AssertionError, match="not connected"):
        listener.start(timeout=3)
    assert listener.refused is not None and "authori" in listener.refused.lower()


def test_tls_needs_the_test_ca(make_broker: BrokerFactory, tls_files: TlsFiles) -> None:
    broker = make_broker(USERS, acl_for_club(PREFIX, ["t1"]), tls=tls_files)
    ok = Listener(broker, "club", [f"{PREFIX}/#"]).start()
    assert publish(broker, "t1", f"{PREFIX}/tables/t1/state", b"x")
    ok.wait_for(lambda m: bool(m))
    ok.stop()
    stranger = broker.client("club", ca=tls_files.other_ca)
    with pytest.raises(ssl.SSLCertVerificationError):
        stranger.connect("127.0.0.1", broker.port)
    time.sleep(0)
