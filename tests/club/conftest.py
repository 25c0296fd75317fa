"""The club's tests share the real-mosquitto fixtures of :mod:`broker`."""

from broker import make_broker, tls_files  # noqa: F401
