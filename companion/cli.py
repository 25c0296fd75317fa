"""The ``companion`` command line.

``companion games`` lists the games; ``companion rules ...`` settles a dispute or
checks a position from the real board (see ``companion rules --help``). Errors in what
the user gave (a position file, an option, a throw) print one line naming the problem
and exit with status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import faulthandler
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion import __version__
from companion.errors import CompanionError
from companion.rules import (
    BoardDataError,
    Event,
    Game,
    Phase,
    RulesError,
    State,
    game_class,
    game_ids,
    game_title,
    get_game,
    random_action,
    state_from_dict,
)
from companion.rules.datafile import JsonTextError, parse_json, read_text

if TYPE_CHECKING:
    from companion.app.config import Resolved
    from companion.app.lock import StateLock

EXIT_USAGE = 2
"""Exit status for bad input (a malformed position, an unknown game, a bad throw)."""

MAX_PLAYOUT_ACTIONS = 1_000_000
"""``rules play`` gives up after this many actions (a game that does not end is a bug)."""


class UsageError(CompanionError):
    """Bad input from the user: printed as one line, exit status 2."""


def _parse_options(pairs: Sequence[str]) -> dict[str, str]:
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"--option takes KEY=VALUE, got {pair!r}")
        options[key.strip()] = value.strip()
    return options


def _game(args: argparse.Namespace) -> Game:
    return get_game(args.game, **_parse_options(args.option))


def _new_state(args: argparse.Namespace) -> State:
    game = _game(args)
    return game.new_state(args.players)


def cmd_games(args: argparse.Namespace) -> int:
    for game_id in game_ids():
        print(f"{game_id}\t{game_title(game_id)}")
    return 0


def cmd_new(args: argparse.Namespace) -> int:
    print(json.dumps(_new_state(args).to_dict(), indent=2))
    return 0


def _read_position(path: str, game_id: str) -> State:
    """The position in the JSON file ``path`` (UTF-8, at most 1 MiB, finite numbers).

    :raises UsageError: naming the file and the reason, whatever is in it.
    """
    try:
        text = read_text(path)
        data: Any = parse_json(text)
    except BoardDataError as exc:  # cannot read, too big, not UTF-8
        raise UsageError(str(exc)) from None
    except JsonTextError as exc:
        raise UsageError(f"{path}: {exc}") from None
    if isinstance(data, dict):
        data.setdefault("game", game_id)
        if data["game"] != game_id:
            raise UsageError(f"{path}: a position of {data['game']!r}, not of {game_id!r}")
    try:
        return state_from_dict(data)
    except RulesError as exc:
        raise UsageError(f"{path}: {exc}") from None


def _words(state: State, events: list[Event]) -> tuple[str, ...]:
    """``events`` in the companion's words, with the names of ``state``'s players."""
    from companion.ui.events import words_for

    return words_for(state).all(events)


def cmd_legal(args: argparse.Namespace) -> int:
    state, result = _position_with_throw(args)
    result["phase"] = state.phase.value
    if state.phase is Phase.OVER:
        outcome = state.outcome
        assert outcome is not None
        result["winners"] = [state.game.player_name(w, state.players) for w in outcome.winners]
        result["moves"] = []
    else:
        result["to_act"] = state.player_to_act_name
        moves = []
        for move in state.legal_moves():
            after = state.copy()
            events = after.apply(move)
            moves.append({"move": move.notation, "events": list(_words(after, events)),
                          "event_data": [e.to_json() for e in events]})
        result["moves"] = moves
    print(json.dumps(result, indent=2))
    return 0


def _position_with_throw(args: argparse.Namespace) -> tuple[State, dict[str, Any]]:
    """The position of ``--position`` with the ``--throw`` applied when it waits for
    one, and what the throw did (for the JSON answer).

    :raises UsageError: a throw is due but not given, or given but not due.
    """
    game_class(args.game)  # an unknown game fails before the file is read
    state = _read_position(args.position, args.game)
    result: dict[str, Any] = {"game": args.game}
    if state.phase is Phase.THROW:
        spec = state.throw_spec
        assert spec is not None
        if args.throw is None:
            raise UsageError(
                f"the position waits for a throw of {spec.describe()}: give --throw"
            )
        throw = spec.parse(args.throw)
        events = state.apply(throw)
        result["throw"] = str(throw)
        result["throw_events"] = list(_words(state, events))
    elif args.throw is not None:
        raise UsageError(
            f"the position is not waiting for a throw ({state.phase.value}); leave out --throw"
        )
    return state, result


def cmd_hint(args: argparse.Namespace) -> int:
    """``companion rules hint``: the computer's best move for a throw, said in words
    (ties as ties), and every different result ranked, as JSON (see :func:`hint_answer`)."""
    from companion.ai.player import choose, estimate, get_level

    try:
        get_level(args.level)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    state, result = _position_with_throw(args)
    phase = state.phase
    if phase is Phase.OVER:
        raise UsageError("the game is over: there is no move to hint")
    if phase is Phase.THROW:
        spec = state.throw_spec
        assert spec is not None
        raise UsageError(
            f"after that throw the position waits for another throw ({spec.describe()}), "
            "not for a move"
        )
    me = state.current_player
    decision = choose(state, args.level, random.Random(args.seed))
    result.update(hint_answer(state, args.level, estimate(state, me), decision))
    print(json.dumps(result, indent=2, ensure_ascii=False))
    return 0


HINT_DIGITS = 4
"""Values are given, and compared for ties, to this many decimals."""


def hint_answer(state: State, level: str, now: float, decision: Any) -> dict[str, Any]:
    """The answer of ``rules hint`` for ``state`` (waiting for a move) from the search's
    ``decision`` (:class:`companion.ai.search.Decision`) at ``level`` and ``now``, the
    player's chance to win before moving (0..1).

    Moves that reach the same position (the same pieces on the same squares, moved in
    another order) are one result; results whose values are equal to
    :data:`HINT_DIGITS` decimals share a rank, and when several share the first, the
    answer says it is a tie. ``depth`` is the depth of the best result's value, as its
    entry in ``ranking`` gives it. An ``about`` table says what each field means, and
    ``summary`` the answer in one sentence.
    """
    who = state.player_to_act_name
    groups: dict[object, list[Any]] = {}
    for entry in decision.ranking:
        after = state.copy()
        after.apply(entry.move)
        groups.setdefault(after.position_key(), []).append(entry)
    results: list[dict[str, Any]] = []
    rank, last = 0, None
    for n, entries in enumerate(sorted(groups.values(), key=lambda g: -g[0].value), start=1):
        value = round(entries[0].value, HINT_DIGITS)
        if value != last:
            rank, last = n, value
        results.append({"rank": rank, "moves": [e.move.notation for e in entries],
                        "value": value, "depth": entries[0].depth})
    top = results[0]
    tied = [r["moves"][0] for r in results if r["rank"] == 1]
    chosen = decision.move.notation
    ahead = f"looking {top['depth']} move{'s' if top['depth'] != 1 else ''} and throws ahead"
    either = " or ".join(tied) if len(tied) == 2 else ", ".join(tied[:-1]) + " or " + tied[-1]
    if len(tied) == 1:
        first = f"{who}'s best move is {tied[0]}"
        if len(top["moves"]) > 1:
            first += f" (or {', '.join(top['moves'][1:])}: the same result)"
        first += ","
    elif len(tied) == len(results) > 2:
        first = f"A tie: all {len(results)} different results are as good for {who} ({either}), each"
    else:
        first = f"A tie: {len(tied)} moves are as good for {who} ({either}), each"
    summary = (f"{first} a {top['value']:.1%} chance to win ({ahead}); before moving, "
               f"{now:.1%}. The computer at {level} would play {chosen}.")
    return {
        "to_act": who,
        "level": level,
        "summary": summary,
        "estimate": round(now, HINT_DIGITS),
        "best": chosen,
        "tie": tied if len(tied) > 1 else [],
        "value": top["value"],
        "depth": top["depth"],
        "legal_moves": len(decision.ranking),
        "results": len(results),
        "ranking": results,
        "about": {
            "estimate": f"{who}'s chance to win now, before moving, from the position of "
                        "the pieces alone: 0 (lost) to 1 (won)",
            "best": f"the move the computer would play at level {level} (easy adds noise: "
                    "not always the first of the ranking)",
            "tie": "the moves whose results are as good as the best one (equal values); "
                   "empty when one result is best",
            "value": f"{who}'s chance to win after the best move, 0 to 1, looking 'depth' "
                     "moves and throws ahead",
            "depth": "how many moves and throws (plies) ahead a value looked; deeper is "
                     "surer",
            "legal_moves": "how many moves the rules allow with this throw",
            "results": "how many different positions those moves reach",
            "ranking": "every different result, best first: 'moves' that reach it (several "
                       "when they move the same pieces to the same squares in another "
                       "order), its 'value' and 'depth'; results of equal value share a "
                       "'rank'",
        },
    }


def cmd_match(args: argparse.Namespace) -> int:
    """``companion rules match``: whole games between players, win rates and intervals."""
    from companion.ai.match import match

    entries = [name.strip() for name in args.players.split(",") if name.strip()]
    if args.games < 1:
        raise UsageError(f"--games must be at least 1, got {args.games}")
    game = _game(args)
    try:
        result = match(game, entries, args.games, args.seed)
    except ValueError as exc:  # an unknown player, a number of players the game lacks
        raise UsageError(str(exc)) from None
    print(f"{game.id}: {result.games} games of {len(entries)} players, seats rotating, seed {args.seed}")
    width = max(len(e) for e in entries)
    for j, name in enumerate(entries):
        low, high = result.interval(j)
        wins = result.wins[j]
        shown = f"{wins:g}" if wins == int(wins) else f"{wins:.2f}"
        print(
            f"{j + 1}. {name:<{width}}  won {result.rate(j):6.1%}  "
            f"95% interval [{low:.1%}, {high:.1%}]  ({shown} wins)"
        )
    return 0


def play_record(state: State, seed: int | None) -> list[str]:
    """Play ``state`` to the end with uniformly random legal moves and fair throws.

    Returns the record, one action a line, ending with the winner.

    :raises RuntimeError: if the game has not ended after ``MAX_PLAYOUT_ACTIONS``.
    """
    rng = random.Random(seed)
    lines: list[str] = []
    for n in range(1, MAX_PLAYOUT_ACTIONS + 1):
        phase = state.phase
        if phase is Phase.OVER:
            outcome = state.outcome
            assert outcome is not None
            names = " and ".join(
                state.game.player_name(w, state.players) for w in outcome.winners
            )
            lines.append(f"winner: {names} ({outcome.reason})")
            return lines
        who = state.player_to_act_name
        action = random_action(state, rng.randrange)
        text = f"throw {action}" if phase is Phase.THROW else str(action)
        events = state.apply(action)
        said = "; ".join(_words(state, events))
        lines.append(f"{n:4d}  {who:<8} {text:<14} {said}")
    raise RuntimeError(f"the game did not end after {MAX_PLAYOUT_ACTIONS} actions")


def cmd_play(args: argparse.Namespace) -> int:
    state = _new_state(args)
    for line in play_record(state, args.seed):
        print(line)
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    """``companion run``: the service (real backends on a Pi, else the terminal simulator).

    The garbage collector is held from here until the first screen is drawn (the
    service then collects, freezes what start-up built, and lets it run again): start-up
    builds modules, classes and tables that live as long as the process, and the
    collections their allocations set off cost it about 5% of its CPU to the first frame."""
    import gc

    held = gc.isenabled()
    gc.disable()
    try:
        return _run(args)
    finally:
        if held:
            gc.enable()


def _run(args: argparse.Namespace) -> int:
    import logging

    from companion.app import config as cfg
    from companion.app import service as svc
    from companion.app.settings import peek_saved

    # The settings saved on the box are read once the state folder's lock is held
    # (_with_saved): a bad settings.toml is set aside then, never by a second copy in
    # the folder of the copy that holds it. What decides the folder and the lock (the
    # folder, the hardware, the log) is not a saved setting.
    try:
        conf = cfg.resolve(args).values
        if args.print_config:  # takes no lock: reads the saved settings, renames nothing
            shown = cfg.resolve(args, saved=peek_saved)
    except cfg.ConfigError as exc:
        raise UsageError(str(exc)) from None
    if args.print_config:
        for problem in shown.problems:
            print(f"companion: {problem}", file=sys.stderr)
        print(cfg.to_toml(shown.values), end="")
        return 0
    logging.basicConfig(
        level=conf["log.level"].upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    # When systemd's watchdog kills a hung loop (SIGABRT), every thread's traceback
    # goes to stderr, which is the journal: where the loop hung can be read there.
    faulthandler.enable()
    hardware = conf["hardware"]
    if hardware == "auto":
        hardware = "pi" if svc.on_raspberry_pi() else "mock"
    if hardware == "pi":
        lock = _hold_state_folder(_state_dir(conf), echo=False)  # the log is stderr here
        if lock is None:
            return 1
        with lock:
            resolved = _with_saved(args)
            try:
                parts = svc.build(resolved.values, origins=resolved.origins,
                                  notices=resolved.problems)
            except Exception as exc:  # no pin library, no I2C bus, a pin in use
                print(f"companion: cannot open the hardware: {type(exc).__name__}: {exc}",
                      file=sys.stderr)
                return 1
            svc.run_forever(parts)
        return 0
    if not sys.stdin.isatty():
        raise UsageError(
            "no Raspberry Pi hardware and no terminal to simulate it in; "
            "try `companion demo`, or --hardware pi"
        )
    from companion.sim import terminal

    root = logging.getLogger()
    root.handlers.clear()  # the terminal shows the OLED: the log goes to --log-file or nowhere
    if args.log_file:
        logging.basicConfig(
            filename=args.log_file, level=conf["log.level"].upper(),
            format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        )
    else:
        root.addHandler(logging.NullHandler())
    lock = _hold_state_folder(_state_dir(conf))
    if lock is None:
        return 1
    with lock:
        resolved = _with_saved(args)
        conf = resolved.values
        conf["display.backend"] = "noop" if conf["display.backend"] in ("auto", "i2c") else conf["display.backend"]
        printer = terminal.frame_printer(sys.stdout)
        parts = svc.build(conf, pin_factory=svc.mock_factory(), on_frame=printer,
                          origins=resolved.origins, notices=resolved.problems)
        terminal.run_in_terminal(parts, lambda: svc.run_forever(parts), printer)
    return 0


def _with_saved(args: argparse.Namespace) -> Resolved:
    """The effective configuration with the settings saved on the box (a bad file set
    aside and reported): called only while holding the state folder's lock.

    :raises UsageError: the config file or a flag is bad (changed since it was read).
    """
    from companion.app import config as cfg
    from companion.app.settings import load_saved

    try:
        return cfg.resolve(args, saved=load_saved)
    except cfg.ConfigError as exc:
        raise UsageError(str(exc)) from None


def _state_dir(conf: dict[str, Any]) -> Path:
    from companion.app import config as cfg

    return Path(conf["journal.dir"] or cfg.default_state_dir())


def _hold_state_folder(directory: Path, *, echo: bool = True) -> StateLock | None:
    """The state folder's writer lock (:mod:`companion.app.lock`), taken; ``None`` (said
    in the log and, with ``echo``, on the terminal, naming the process that holds it)
    when another companion writes there: this one then writes nothing.

    :raises UsageError: the folder or its lock file cannot be made or opened.
    """
    import logging

    from companion.app.lock import StateFolderInUseError, StateLock

    lock = StateLock(directory)
    try:
        lock.acquire()
    except StateFolderInUseError as exc:
        logging.getLogger("companion.app.lock").error("%s", exc)
        if echo:
            print(f"companion: {exc}", file=sys.stderr)
        return None
    except OSError as exc:
        raise UsageError(f"{lock.path}: cannot lock the state folder: {exc.strerror or exc}") from None
    return lock


def cmd_demo(args: argparse.Namespace) -> int:
    """``companion demo``: a scripted whole game through the mock pins."""
    import shutil
    import tempfile

    from companion.sim import demo

    frames = Path(args.frames) if args.frames else None
    speech = Path(args.speech) if args.speech else None
    if speech is not None and shutil.which("espeak-ng") is None:
        raise UsageError("--speech needs espeak-ng (Debian: apt install espeak-ng)")
    if args.journal:
        lock = _hold_state_folder(Path(args.journal))
        if lock is None:
            return 1
        with lock:
            return demo.main(Path(args.journal), seed=args.seed, frames_dir=frames,
                             out=sys.stdout, game=args.game, speech_dir=speech,
                             language=args.language)
    with tempfile.TemporaryDirectory(prefix="companion-demo-") as tmp:
        return demo.main(Path(tmp), seed=args.seed, frames_dir=frames, out=sys.stdout,
                         keep=False, game=args.game, speech_dir=speech, language=args.language)


def cmd_doctor(args: argparse.Namespace) -> int:
    """``companion doctor``: one line per check, OK / FIX / INFO; status 1 when a FIX."""
    import logging
    import warnings

    from companion.app import config as cfg
    from companion.app.doctor import Verdict, diagnose

    # a damaged journal is one of the report's lines: not a log line after it as well
    logging.getLogger("companion").addHandler(logging.NullHandler())

    try:
        resolved = cfg.resolve(args)
    except cfg.ConfigError as exc:
        raise UsageError(str(exc)) from None
    with warnings.catch_warnings():  # gpiozero warns for each pin factory it cannot load
        warnings.simplefilter("ignore")
        findings = diagnose(resolved.values, origins=resolved.origins)
    for finding in findings:
        print(finding.line())
    return 1 if any(f.verdict is Verdict.FIX for f in findings) else 0


def _journal_dir(args: argparse.Namespace) -> Path:
    """``--dir``, else the config's ``journal.dir``, else the state directory."""
    import os

    from companion.app import config as cfg

    if args.dir:
        return Path(args.dir)
    if args.config is None:
        args.config = os.environ.get("COMPANION_CONFIG")
    try:
        conf = cfg.from_args(args)
    except cfg.ConfigError as exc:
        raise UsageError(str(exc)) from None
    return Path(conf["journal.dir"] or cfg.default_state_dir())


def _journal_language(args: argparse.Namespace) -> None:
    """Word the record in ``--language``, else the config's ``display.language`` (the
    box's language; ``en`` without a config), for this process."""
    import os

    from companion import i18n
    from companion.app import config as cfg

    code = getattr(args, "language", None)
    if code is None:
        if args.config is None:
            args.config = os.environ.get("COMPANION_CONFIG")
        try:
            code = str(cfg.from_args(args)["display.language"])
        except cfg.ConfigError as exc:
            raise UsageError(str(exc)) from None
    try:
        i18n.set_language(code)
    except i18n.UnknownLanguage as exc:
        raise UsageError(f"display.language: {exc}") from None


def _journal_record(args: argparse.Namespace) -> Any:
    """The record of ``FILE|INDEX`` (an index as ``journal list`` numbers them)."""
    import logging

    from companion.journal import record
    from companion.journal.store import JournalError

    logging.getLogger("companion").addHandler(logging.NullHandler())  # damage is shown, not logged
    which: str = args.journal
    if which.lstrip("-").isdigit():
        directory = _journal_dir(args)
        files = record.journal_files(directory)
        index = int(which)
        if not 1 <= index <= len(files):
            raise UsageError(
                f"no journal {index} in {directory}: there are {len(files)} "
                "(see `companion journal list`; a file named like a number: ./NAME)"
            )
        path = files[index - 1]
    else:
        path = Path(which)
    try:
        return record.read(path)
    except JournalError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"{path}: cannot read: {exc.strerror or exc}") from None


def cmd_journal_list(args: argparse.Namespace) -> int:
    """``companion journal list``: one line per saved game, the newest first."""
    import logging

    from companion.i18n import _
    from companion.journal import record

    logging.getLogger("companion").addHandler(logging.NullHandler())  # damage is shown, not logged
    _journal_language(args)
    directory = _journal_dir(args)
    rows = record.entries(directory)
    if not rows:
        print(_("no saved games in {directory}").format(directory=directory))
    else:
        for line in record.list_lines(rows):
            print(line)
    aside = record.set_aside_files(directory)
    if aside:
        print("\n" + _("set aside by the companion (read them with `companion journal show "
                       "FILE`):"))
        for path in aside:
            print(f"  {path}")
    return 0


def cmd_journal_show(args: argparse.Namespace) -> int:
    """``companion journal show``: the whole game in words."""
    from companion.journal import record

    _journal_language(args)
    print(record.text(_journal_record(args)), end="")
    return 0


def _review(rec: Any) -> Any:
    """The review of a journal's record, with a progress line on stderr."""
    from companion.ai import review
    from companion.journal.store import JournalError

    def progress(done: int, total: int) -> None:
        end = "\n" if done == total else ""
        print(f"\rreviewing: action {done} of {total}", end=end, file=sys.stderr, flush=True)

    try:
        return review.review_journal(rec.path, progress)
    except (JournalError, OSError) as exc:
        raise UsageError(str(exc)) from None


def cmd_journal_review(args: argparse.Namespace) -> int:
    """``companion journal review``: each move's error, each throw's luck, the totals."""
    from companion.ai import review

    result = _review(_journal_record(args))
    if args.format == "json":
        print(json.dumps(review.to_json(result), indent=2, ensure_ascii=False))
    else:
        print(review.text(result), end="")
    return 0


def cmd_journal_export(args: argparse.Namespace) -> int:
    """``companion journal export``: the record as JSON or text, to stdout or a file."""
    from companion.journal import record

    _journal_language(args)
    rec = _journal_record(args)
    if args.format == "json":
        exported = record.to_json(rec)
        if args.review:
            from companion.ai import review

            exported["review"] = review.to_json(_review(rec))
        out = json.dumps(exported, indent=2, ensure_ascii=False) + "\n"
    else:
        out = record.text(rec)
    if args.output in (None, "-"):
        print(out, end="")
        return 0
    target = Path(args.output)
    if target.exists() and target.resolve() == rec.path.resolve():
        raise UsageError(f"{target}: that is the journal itself; choose another file")
    try:
        target.write_text(out, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"{target}: cannot write: {exc.strerror or exc}") from None
    return 0


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


def _camera_state(args: argparse.Namespace) -> State:
    """A new game of ``args.game`` (with ``--option``): the board the camera room draws."""
    return get_game(args.game, **_parse_options(args.option)).new_state()


def cmd_board_print(args: argparse.Namespace) -> int:
    """`companion board print`: the printable board, PDF and SVG (issue 34)."""
    try:
        from companion.camera.board import write_print
    except ImportError as exc:
        raise UsageError(f"the camera extra is not installed ({exc}): pip install "
                         "'board-companion[camera]'") from exc
    out = Path(args.out) if args.out else Path(f"{args.game}-{args.paper}")
    try:
        written = write_print(_camera_state(args), args.paper, out)
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    except OSError as exc:
        raise UsageError(f"cannot write {out}: {exc.strerror or exc}") from exc
    for path in written:
        print(path)
    return 0


def cmd_camera_check(args: argparse.Namespace) -> int:
    """`companion camera check --fake SEED GAME`: what the camera reads, as text, and the
    overlay PNG (issue 34); exit 1 when the picture is refused."""
    try:
        from PIL import Image

        from companion.camera.board import layout_for
        from companion.camera.fake import FakeCamera
        from companion.camera.find import seen_board
        from companion.camera.read import PictureRefused, Reader, board_text, overlay
    except ImportError as exc:
        raise UsageError(f"the camera extra is not installed ({exc}): pip install "
                         "'board-companion[camera]'") from exc
    state = _camera_state(args)
    try:
        layout = layout_for(state, args.paper)
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    # the fake camera's scene: a random position of the game, seeded like the photo
    rng = random.Random(args.fake)
    for _ in range(rng.randrange(10, 80)):
        if state.phase is Phase.OVER:
            break
        state.apply(random_action(state, rng.randrange))
    pieces = seen_board(state)
    photo = FakeCamera(layout).photo(pieces, args.fake, hand=args.hand)
    reader = Reader(layout)
    names = tuple(state.name(p) for p in range(state.players))
    out = Path(args.out) if args.out else Path(f"camera-check-{args.game}-{args.fake}.png")
    try:
        reading = reader.read(photo.image)
    except PictureRefused as exc:
        print(f"refused: {exc.reason}")
        Image.fromarray(photo.image).save(out)
        print(f"photo: {out}")
        return 1
    print(board_text(layout, reading, names))
    wrong = sorted(str(s) for s, p in reading.squares.items() if p != pieces.get(s))
    print(f"squares read: {len(reading.squares)}, differing from the scene: "
          f"{', '.join(wrong) if wrong else 'none'}")
    Image.fromarray(overlay(reader, reading)).save(out)
    Image.fromarray(photo.image).save(out.with_name(out.stem + "-photo.png"))
    print(f"overlay: {out}")
    return 0


def sentence(summary: str) -> str:
    """A command's one-line ``help`` as the first sentence of its ``--help`` description
    (capitalised, with its full stop)."""
    return f"{summary[0].upper()}{summary[1:]}."


def command(parent: argparse._SubParsersAction[argparse.ArgumentParser], name: str,
            summary: str, more: str = "", **kwargs: Any) -> argparse.ArgumentParser:
    """The command (or action) ``name`` of ``parent``: ``summary`` is its line in the
    parent's ``--help`` and, as a sentence followed by ``more``, the description its own
    ``--help`` prints (issue 35: five commands printed none)."""
    description = f"{sentence(summary.replace('%%', '%'))} {more}".rstrip()
    return parent.add_parser(name, help=summary, description=description, **kwargs)


COMMANDS = ("games", "rules", "run", "demo", "doctor", "journal", "club", "web", "publish",
            "board", "camera")
"""The commands of :func:`build_parser`, in its order."""


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with ``only`` (one of :data:`COMMANDS`) the parser of
    that command alone, for a command line that names it: the box starts with
    ``companion run``, and a parser of every command costs it about as much CPU as
    drawing its first frame (argparse looks its messages up in gettext for each one)."""
    parser = argparse.ArgumentParser(
        prog="companion",
        description="board-companion: a Raspberry Pi referee for physical board games.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def wanted(command: str) -> bool:
        return only is None or only == command

    # The arguments several commands share, written once (argparse's parent parsers):
    # a game id, a number of players, game options, where the journals are, a position.
    game = argparse.ArgumentParser(add_help=False)
    game.add_argument("game", metavar="GAME", help="a game id (see `companion games`)")
    players = argparse.ArgumentParser(add_help=False)
    players.add_argument(
        "--players", type=int, default=None, metavar="N",
        help="number of players (default: the game's usual number)",
    )
    option = argparse.ArgumentParser(add_help=False)
    option.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE",
        help="a game option, e.g. sticks=5 (repeatable; see docs/rules/GAME.md)",
    )
    where = argparse.ArgumentParser(add_help=False)
    where.add_argument(
        "--dir", metavar="DIR", default=None,
        help="the journal directory (default: journal.dir of the config file, else "
        "$STATE_DIRECTORY, else ~/.local/state/board-companion; on a Pi installed with "
        "systemd/install.sh: /var/lib/board-companion)",
    )
    where.add_argument(
        "--config", metavar="FILE", default=None,
        help="TOML configuration file (default: $COMPANION_CONFIG, else "
        "/etc/board-companion/config.toml if it exists)",
    )
    position = argparse.ArgumentParser(add_help=False)
    position.add_argument(
        "--position", required=True, metavar="FILE",
        help="a position as JSON (docs/positions.md); options come from the file",
    )


    if wanted("games"):
        games = command(sub, "games", "list the game ids, one per line, with their titles")
        games.set_defaults(func=cmd_games)

    if wanted("rules"):
        rules = command(
            sub, "rules", "the rules engines: starting positions, legal moves, random games"
        )
        rsub = rules.add_subparsers(dest="rules_command", required=True, metavar="ACTION")

        new = command(rsub, "new", "print the starting position as JSON",
                      parents=[game, players, option])
        new.set_defaults(func=cmd_new)

        legal = command(
            rsub, "legal", parents=[game, position], summary="print the legal moves for a throw in a position, with the events each causes",
        )
        legal.add_argument(
            "--throw", metavar="VALUES",
            help="the throw: sticks as a score ('4') or faces ('LLDD'); dice as '3,5'",
        )
        legal.set_defaults(func=cmd_legal, option=[])

        hint = command(
            rsub, "hint", parents=[game, position], summary="the computer's best move for a throw in a position, in one sentence (ties "
            "said as ties), and every different result ranked with its chance to win, as "
            "JSON whose 'about' says what each field means",
        )
        hint.add_argument(
            "--throw", metavar="VALUES",
            help="the throw, when the position waits for one: sticks as a score ('4') or "
            "faces ('LLDD'); dice as '3,5'",
        )
        hint.add_argument(
            "--level", default="normal", metavar="LEVEL",
            help="easy, normal (default) or strong (see docs/ai.md); values are the player's "
            "chance to win, 0 to 1",
        )
        hint.add_argument("--seed", type=int, default=0, metavar="N",
                          help="seed of the easy level's noise (default 0)")
        hint.set_defaults(func=cmd_hint, option=[])

        match_ = command(
            rsub, "match", parents=[game, option], summary="play whole games between computer players (seats rotating) and print each "
            "one's win rate with a 95%% confidence interval",
        )
        match_.add_argument(
            "--players", required=True, metavar="NAMES",
            help="one player per seat, comma-separated: easy, normal, strong, random (a random "
            "legal move) or greedy (one ply); e.g. 'strong,random'",
        )
        match_.add_argument("--games", type=int, default=100, metavar="N",
                            help="number of games (default 100)")
        match_.add_argument("--seed", type=int, default=1, metavar="N",
                            help="seed of the throws and the players' choices (default 1)")
        match_.set_defaults(func=cmd_match)

        play = command(
            rsub, "play", parents=[game, players, option], summary="play a whole game with random legal moves and print its record",
        )
        play.add_argument(
            "--seed", type=int, default=None, metavar="N",
            help="seed of the random throws and choices (same seed, same game)",
        )
        play.set_defaults(func=cmd_play)

    if wanted("run"):
        run = command(
            sub, "run",
            summary="the companion service: real hardware on a Raspberry Pi, else a terminal "
            "simulator (keys for the buttons, s to shake)",
        )
        run.add_argument("--log-file", default=None, metavar="FILE",
                         help="off-Pi only: write the log here (the terminal shows the OLED)")
        run.add_argument("--print-config", action="store_true",
                         help="print the effective configuration as a config file and exit")
        from companion.app import config as cfg  # the schema only: no hardware library

        cfg.add_arguments(run)
        run.set_defaults(func=cmd_run)

    if wanted("demo"):
        demo = command(
            sub, "demo",
            summary="play a scripted whole game (senet-tait unless --game) through the mock pins; "
            "print the record",
        )
        demo.add_argument("--frames", metavar="DIR", default=None,
                          help="write every distinct 128x64 frame as a PNG into DIR")
        demo.add_argument("--speech", metavar="DIR", default=None,
                          help="write every cue said aloud as a numbered WAV into DIR (espeak-ng), "
                          "listed in DIR/cues.txt; DIR may be the frames' folder")
        demo.add_argument("--seed", type=int, default=1, metavar="N",
                          help="seed of the throws and the choices (default 1)")
        demo.add_argument("--journal", metavar="DIR", default=None,
                          help="journal directory (default: a temporary one); an unfinished "
                          "game there is resumed")
        demo.add_argument("--game", default="senet-tait", choices=game_ids(),
                          help="the game to play (default senet-tait)")
        from companion.i18n import languages

        demo.add_argument("--language", default="en", choices=languages(),
                          help="the language of the screens and of the cues (default en; "
                          "display.language)")
        demo.set_defaults(func=cmd_demo)

    if wanted("doctor"):
        doctor = command(
            sub, "doctor",
            summary="check the box: Pi model, pin factory, OLED, buttons, shaker, service, speech, "
            "saved games; OK or a one-line fix each (exit status 1 if anything needs fixing)",
        )
        from companion.app import config as cfg  # the schema only: no hardware library

        cfg.add_arguments(doctor)
        doctor.set_defaults(func=cmd_doctor)

    if wanted("journal"):
        undone = ("Actions taken back with undo are shown where they were made, marked "
                  "'(taken back)', followed by the undo.")
        journal_help = ("the saved games, read for people: list them, show one in words, export "
                        "it as JSON or text (never changes a file)")
        journal = command(sub, "journal", journal_help, undone)
        jsub = journal.add_subparsers(dest="journal_command", required=True, metavar="ACTION")
        which_help = ("a journal file, or its number in `companion journal list` (1: the newest "
                      "game)")
        list_help = ("one line per saved game, the newest first: number, start (local time), "
                     "game, players, state (unfinished / won by X / abandoned / damaged / "
                     "unusable, with the reason)")
        from companion.i18n import languages

        spoken = argparse.ArgumentParser(add_help=False)
        spoken.add_argument("--language", default=None, choices=languages(),
                            help="the language of the words (default: display.language of the "
                            "config file, else en); the moves' notation stays as written")
        jlist = command(jsub, "list", list_help, parents=[where, spoken])
        jlist.set_defaults(func=cmd_journal_list)
        show_help = ("the whole game in words: each turn, each throw and move with its events "
                     "and who made it; a damaged journal up to the damage, and where it is")
        jshow = command(jsub, "show", show_help, undone, parents=[where, spoken])
        jshow.add_argument("journal", metavar="FILE|INDEX", help=which_help)
        jshow.set_defaults(func=cmd_journal_show)
        export_help = "the record as JSON (for programs) or as the text of `journal show`"
        jexport = command(jsub, "export", export_help, undone, parents=[where, spoken])
        jexport.add_argument("journal", metavar="FILE|INDEX", help=which_help)
        jexport.add_argument("--format", choices=("json", "text"), default="json",
                             help="json (default) or text")
        jexport.add_argument("-o", "--output", metavar="FILE", default=None,
                             help="write here instead of standard output")
        jexport.add_argument("--review", action="store_true",
                             help="add a 'review' block to the JSON (as `journal review "
                             "--format json`; seconds for a long game)")
        jexport.set_defaults(func=cmd_journal_export)
        review_help = ("the game reviewed: each move's error (the win chance given away against "
                       "the best move), each throw's luck, per player the totals, the biggest swings")
        jreview = command(
            jsub, "review", review_help, "Win "
            "chances come from the learned evaluation (docs/ai.md); undone "
                                  "actions are left out. A progress line goes to stderr.", parents=[where])
        jreview.add_argument("journal", metavar="FILE|INDEX", help=which_help)
        jreview.add_argument("--format", choices=("text", "json"), default="text",
                             help="text (default) or json")
        jreview.set_defaults(func=cmd_journal_review)

    if wanted("club"):
        club_help = ("serve the club page: every table's game live (board, whose turn, the last "
                     "event), the results and the ratings per game, from the boxes' MQTT broker")
        club = command(
            sub, "club", club_help, "It only reads from the broker "
            "(subscribes to TOPIC/#, a persistent session) and keeps the results in an SQLite "
            "file; the page listens on 127.0.0.1:8090 unless told otherwise. Bad messages are "
            "logged and skipped. See docs/club.md. Needs the club extra: pip install "
            "'board-companion[club]'.")
        club.add_argument("--broker", metavar="HOST", default="localhost",
                          help="the MQTT broker's host name (default: localhost); with --ca it "
                          "must match the broker's certificate")
        club.add_argument("--broker-port", metavar="N", type=int, default=None,
                          help="the broker's TCP port (default: 1883, 8883 with --ca)")
        club.add_argument("--ca", metavar="FILE", default=None,
                          help="the CA certificate (PEM) that signed the broker's: TLS")
        club.add_argument("--user", metavar="NAME", default=None,
                          help="the club's user name at the broker (default: anonymous)")
        club.add_argument("--password-file", metavar="FILE", default=None,
                          help="a file holding the club's password (kept off the command line; "
                          "default: the credential club-password of the systemd unit, if any)")
        club.add_argument("--topic", metavar="PREFIX", default="board-companion",
                          help="the boxes' topic prefix (club.topic of their config; default: "
                          "board-companion)")
        club.add_argument("--db", metavar="FILE", default=None,
                          help="the club's SQLite file (default: club.sqlite in $STATE_DIRECTORY, "
                          "else ~/.local/state/board-companion)")
        club.add_argument("--bind", metavar="ADDRESS", default="127.0.0.1",
                          help="IP address the page listens on (default: 127.0.0.1; 0.0.0.0: "
                          "every IPv4 interface)")
        club.add_argument("--port", metavar="N", type=int, default=8090,
                          help="the page's TCP port (default: 8090)")
        from companion.i18n import languages

        club.add_argument("--language", default="en", choices=languages(),
                          help="the page's language for a browser that asks for none the club "
                          "has (default en; each reader gets the first of their browser's "
                          "languages the club has, or ?lang=de)")
        club.set_defaults(func=cmd_club)

    if wanted("web"):
        web_help = ("serve the read-only spectator page: the game in progress (board, throw, "
                    "events, whose turn), live, and the saved games with their records")
        web = command(
            sub, "web", web_help, parents=[where], more="It only reads the journal "
            "directory (GET and HEAD only; nothing is ever written) and listens on "
            "127.0.0.1:8080 unless told otherwise: --bind 0.0.0.0 (or web.bind in the config "
            "file) opens it to the local network. Needs the web extra: pip install "
            "'board-companion[web]'.")
        web.add_argument("--bind", metavar="ADDRESS", default=None,
                         help="IP address to listen on (default: web.bind of the config file, "
                         "else 127.0.0.1; 0.0.0.0: every IPv4 interface, :: IPv6 too)")
        web.add_argument("--port", metavar="N", default=None,
                         help="TCP port 1-65535 (default: web.port of the config file, else 8080)")
        web.set_defaults(func=cmd_web)

    if wanted("publish"):
        publish_help = ("publish this table's live game and finished results to the club's MQTT "
                        "broker (club.* in the config), until stopped")
        publish = command(
            sub, "publish", publish_help, parents=[where], more="It only reads the "
            "journal directory; the result ids the broker acknowledged are kept in "
            "club-outbox.json in --state-dir, so that a result is sent once, also across power "
            "cuts. Does nothing unless club.publish is true. Needs the club extra: pip install "
            "'board-companion[club]'. See docs/service.md.")
        publish.add_argument("--state-dir", metavar="DIR", default=None,
                             help="where club-outbox.json is kept (default: $STATE_DIRECTORY, "
                             "else ~/.local/state/board-companion-publish; not the journal directory)")
        publish.set_defaults(func=cmd_publish)

    if wanted("board"):
        board = command(sub, "board", "the game's board for the camera: print it (issue 34)")
        bsub = board.add_subparsers(dest="board_command", required=True, metavar="ACTION")
        print_help = ("write the game's board at true size with four ArUco markers, as a PDF "
                      "and an SVG, to print and lay under the camera")
        bprint = command(bsub, "print", print_help, "Print at 100 % (no 'fit to page'); "
                         "the markers must stay uncovered. Needs the camera extra: pip install "
                         "'board-companion[camera]'. See docs/camera.md.", parents=[game, option])
        bprint.add_argument("--paper", choices=("A4", "A3"), default="A4",
                            help="paper size (default: A4)")
        bprint.add_argument("--out", metavar="FILE", default=None,
                            help="where to write, without suffix: FILE.pdf and FILE.svg (default: "
                            "GAME-PAPER in the current directory)")
        bprint.set_defaults(func=cmd_board_print)

    if wanted("camera"):
        camera = command(sub, "camera", "the camera over the board: check what it reads (issue 34)")
        csub = camera.add_subparsers(dest="camera_command", required=True, metavar="ACTION")
        check_help = ("print what the camera reads as a board (text) and write an overlay PNG: "
                      "the top view with each square's reading")
        check = command(csub, "check", check_help, "Only the fake camera is built: --fake SEED "
                        "photographs a random position of the game (seeded) on the printed "
                        "board. Exit status 1 when the picture is refused (a hand, a marker "
                        "not seen). See docs/camera.md.", parents=[game, option])
        check.add_argument("--fake", metavar="SEED", type=int, required=True,
                           help="use the fake camera with this seed (an integer)")
        check.add_argument("--hand", action="store_true",
                           help="the fake camera puts a hand over the board")
        check.add_argument("--paper", choices=("A4", "A3"), default="A4",
                           help="the paper the board was printed on (default: A4)")
        check.add_argument("--out", metavar="FILE", default=None,
                           help="the overlay PNG (default: camera-check-GAME-SEED.png); the "
                           "photo goes beside it as FILE-photo.png")
        check.set_defaults(func=cmd_camera_check)

    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for bad input)."""
    words = sys.argv[1:] if argv is None else list(argv)
    # the parser of the command named first (not of every command); any other first
    # word (--help, --version, a mistake) gets the whole parser and its messages
    only = words[0] if words and words[0] in COMMANDS else None
    parser = build_parser(only)
    args = parser.parse_args(words)
    try:
        status: int = args.func(args)
    except (UsageError, RulesError) as exc:
        print(f"companion: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # `companion rules play ... | head`
        return 0
    return status


if __name__ == "__main__":
    sys.exit(main())
