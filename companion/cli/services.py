"""``companion club``, ``companion web``, ``companion publish``, ``companion board
print``: the processes beside the referee, and the printed board for the camera
(``companion camera ...``: :mod:`companion.cli.camera`)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.rules import (
    State,
    game_class,
    game_ids,
    get_game,
)

if TYPE_CHECKING:
    pass

from companion.cli.common import UsageError, _parse_options


def cmd_club(args: argparse.Namespace) -> int:
    """``companion club``: the club page (every table live, results, ratings), read-only to
    the broker, until stopped (Ctrl-C, SIGTERM)."""
    import ipaddress
    import logging
    import os

    from companion.app import config as cfg

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        if args.bind != "localhost":
            ipaddress.ip_address(args.bind)
    except ValueError:
        raise UsageError(f"--bind: expected an IP address or localhost, got {args.bind!r}") from None
    for flag, value in (("--port", args.port), ("--broker-port", args.broker_port)):
        if value is not None and not 1 <= value <= 65535:
            raise UsageError(f"{flag}: expected a TCP port 1-65535, got {value}")
    password = None
    credential = Path(os.environ.get("CREDENTIALS_DIRECTORY", "/nonexistent")) / "club-password"
    if not args.password_file and credential.is_file():  # systemd's LoadCredential=
        args.password_file = str(credential)
    if args.password_file:
        try:
            password = Path(args.password_file).read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise UsageError(f"--password-file {args.password_file}: {exc.strerror or exc}") from None
    try:
        from companion.club import protocol
        from companion.club.server import Broker, Club, ClubError, serve
        from companion.club.store import ClubStore, StoreError
    except ImportError as exc:
        raise UsageError(f"companion club needs the club extra ({exc.name} is missing): "
                         "pip install 'board-companion[club]'") from None
    try:
        prefix = protocol.check_prefix(args.topic)
    except protocol.ProtocolError as exc:
        raise UsageError(str(exc)) from None
    db = Path(args.db) if args.db else Path(cfg.default_state_dir()) / "club.sqlite"
    db.parent.mkdir(parents=True, exist_ok=True)
    ca = Path(args.ca) if args.ca else None
    broker = Broker(args.broker, args.broker_port or (8883 if ca else 1883), args.user, password,
                    ca, prefix)
    try:
        club = Club(ClubStore(db), prefix)
        print(f"companion club: {broker.host}:{broker.port} ({'TLS' if ca else 'no TLS'}), "
              f"topics {prefix}/#, results in {db}, the page at http://{args.bind}:{args.port}/",
              flush=True)
        serve(club, broker, args.bind, args.port, language=args.language)
    except (ClubError, StoreError) as exc:
        raise UsageError(str(exc)) from None
    return 0


def cmd_club_roster(args: argparse.Namespace) -> int:
    """``companion club roster add NAME`` / ``remove NAME`` / ``list``: the club's roster
    in its SQLite file (``--db``, default as ``companion club``'s); the running club
    publishes it to the boxes. Status 0; 1 when the name to remove was not there or
    was there already to add; a name that cannot be a name is a usage error (2)."""
    from companion.app import config as cfg

    try:
        from companion.club.store import ClubStore, StoreError
    except ImportError as exc:
        raise UsageError(f"companion club needs the club extra ({exc.name} is missing): "
                         "pip install 'board-companion[club]'") from None
    given = args.roster_db or args.db
    db = Path(given) if given else Path(cfg.default_state_dir()) / "club.sqlite"
    if args.roster_command != "add" and not db.is_file():
        raise UsageError(f"{db}: no club database there (give --db)")
    try:
        db.parent.mkdir(parents=True, exist_ok=True)
        store = ClubStore(db)
    except (OSError, StoreError) as exc:
        raise UsageError(str(exc)) from None
    try:
        if args.roster_command == "list":
            for name in store.roster():
                print(name)
            return 0
        if args.roster_command == "add":
            try:
                kept = store.add_person(args.name)
            except ValueError as exc:
                raise UsageError(f"roster add: {exc}") from None
            if not kept:
                print(f"companion club roster: {args.name!r} is on the roster already",
                      file=sys.stderr)
                return 1
            print(f"companion club roster: {kept} added ({len(store.roster())} on the roster)")
            return 0
        gone = store.remove_person(args.name)
        if not gone:
            print(f"companion club roster: {args.name!r} is not on the roster", file=sys.stderr)
            return 1
        print(f"companion club roster: {gone} removed ({len(store.roster())} on the roster)")
        return 0
    except StoreError as exc:
        raise UsageError(str(exc)) from None
    finally:
        store.close()


def cmd_web(args: argparse.Namespace) -> int:
    """``companion web``: the read-only spectator page, until stopped (Ctrl-C, SIGTERM)."""
    import ipaddress
    import os

    from companion.app import config as cfg

    if args.config is None:
        args.config = os.environ.get("COMPANION_CONFIG")
    try:
        conf = cfg.from_args(args)
        bind = args.bind if args.bind is not None else conf["web.bind"]
        port = cfg.BY_NAME["web.port"].parse(args.port, "command line") if args.port is not None \
            else conf["web.port"]
        language = str(conf["display.language"])
    except cfg.ConfigError as exc:
        raise UsageError(str(exc)) from None
    try:
        if bind != "localhost":
            ipaddress.ip_address(bind)
    except ValueError:
        raise UsageError(f"web.bind: expected an IP address (127.0.0.1, 0.0.0.0 for every "
                         f"IPv4 interface, :: for IPv6 too) or localhost, got {bind!r}") from None
    directory = Path(args.dir) if args.dir else Path(conf["journal.dir"] or cfg.default_state_dir())
    try:
        from companion.web.server import serve
    except ImportError as exc:
        raise UsageError(f"companion web needs the web extra ({exc.name} is missing): "
                         "pip install 'board-companion[web]'") from None
    if not directory.is_dir():
        print(f"companion web: warning: {directory} is not a directory (yet): no games "
              "are shown until it is", file=sys.stderr)
    host = f"[{bind}]" if ":" in bind else bind
    print(f"companion web: the journals of {directory}, read-only, at http://{host}:{port}/",
          flush=True)
    from companion.i18n import UnknownLanguage, load

    try:
        load(language)
    except UnknownLanguage as exc:
        raise UsageError(f"display.language: {exc}") from None
    serve(directory, bind, port, language=language)
    return 0


def cmd_publish(args: argparse.Namespace) -> int:
    """``companion publish``: publish this table's game and results to the club's MQTT
    broker until stopped (Ctrl-C, SIGTERM); status 0 at once when ``club.publish`` is off."""
    import logging
    import os
    import signal
    import threading

    from companion.app import config as cfg

    if args.config is None:
        args.config = os.environ.get("COMPANION_CONFIG")
    try:
        conf = cfg.from_args(args)
    except cfg.ConfigError as exc:
        raise UsageError(str(exc)) from None
    if not conf["club.publish"]:
        print("companion publish: club.publish is false in the config: nothing to publish "
              "(set it to true, with club.broker and club.table)", file=sys.stderr)
        return 0
    try:
        import paho.mqtt.client  # noqa: F401  (the club extra)

        from companion.club.publish import ClubSettings, Publisher, PublishError
    except ImportError as exc:
        raise UsageError(f"companion publish needs the club extra ({exc.name} is missing): "
                         "pip install 'board-companion[club]'") from None
    try:
        settings = ClubSettings.from_config(conf)
    except PublishError as exc:
        raise UsageError(str(exc)) from None
    directory = Path(args.dir) if args.dir else Path(conf["journal.dir"] or cfg.default_state_dir())
    xdg = Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state")
    state = Path(args.state_dir) if args.state_dir else Path(
        os.environ.get("STATE_DIRECTORY", "").split(":")[-1] or xdg / "board-companion-publish")
    logging.basicConfig(level=conf["log.level"].upper(),
                        format="%(levelname)s %(name)s: %(message)s")
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        publisher = Publisher(settings, directory, state)
    except OSError as exc:
        raise UsageError(f"{state}: cannot keep the club outbox there: "
                         f"{exc.strerror or exc}") from None
    print(f"companion publish: the journals of {directory}, read-only, as table "
          f"{settings.table} to {settings.broker}:{settings.port}"
          f"{' (TLS)' if settings.tls_ca else ''}; outbox {publisher.outbox.path}", flush=True)
    try:
        publisher.run(stop)
    except KeyboardInterrupt:
        pass
    finally:
        publisher.close()
    return 0


def _camera_state(args: argparse.Namespace, configured: Mapping[str, Any] | None = None) -> State:
    """A new game of ``args.game``: the board the camera room draws (prints, reads,
    calibrates). Its options are, in layers, ``configured`` (the config's
    ``[games.<id>]`` table, typed: the options the box starts the game with, its board
    file among them), then ``--option KEY=VALUE``, then ``--board FILE`` (the game's
    option ``board``: a board file of the player's own, its squares as the file
    defines them).

    :raises UsageError: ``--board`` for a game that takes no board file, or ``--board``
        and ``--option board=`` naming different files.
    :raises companion.rules.RulesError: an unknown game or option, a bad value, a board
        file that cannot be used (``BoardDataError``: its message names the file and
        line).
    """
    options: dict[str, Any] = dict(configured or {})
    flags = _parse_options(args.option)
    options.update(flags)
    board = getattr(args, "board", None)
    if board is not None:
        files = [o.name for o in game_class(args.game).options if o.names_file]
        if "board" not in files:
            takers = [g for g in game_ids()
                      if "board" in (o.name for o in game_class(g).options if o.names_file)]
            raise UsageError(f"--board: {args.game} takes no board file (the games that do: "
                             f"{', '.join(takers)})")
        if flags.get("board", board) != board:
            raise UsageError(f"--board {board} and --option board={flags['board']} name "
                             "different files: give one")
        options["board"] = board
    return get_game(args.game, **options).new_state()


def cmd_board_print(args: argparse.Namespace) -> int:
    """`companion board print`: the printable board, PDF and SVG (issue 34)."""
    try:
        from companion.camera.board import write_print
    except ImportError as exc:
        raise UsageError(f"the camera extra is not installed ({exc}): pip install "
                         "'board-companion[camera]'") from exc
    own = f"-{Path(args.board).stem}" if args.board else ""
    out = Path(args.out) if args.out else Path(f"{args.game}{own}-{args.paper}")
    try:  # the state first: a bad board file writes nothing
        written = write_print(_camera_state(args), args.paper, out)
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    except OSError as exc:
        raise UsageError(f"cannot write {out}: {exc.strerror or exc}") from exc
    for path in written:
        print(path)
    return 0
