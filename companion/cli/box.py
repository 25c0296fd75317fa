"""``companion run``, ``companion demo`` and ``companion doctor``: the box itself."""

from __future__ import annotations

import argparse
import faulthandler
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.app.config import Resolved
    from companion.app.lock import StateLock

from companion.cli.common import UsageError


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

    if args.camera:
        import importlib.util
        import logging

        if importlib.util.find_spec("cv2") is None:
            raise UsageError("--camera needs the camera extra: pip install 'board-companion[camera]'")
        # a picture refused is logged by the service; the demo counts them in its last line
        logging.getLogger("companion").addHandler(logging.NullHandler())
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
                             language=args.language, camera=args.camera)
    with tempfile.TemporaryDirectory(prefix="companion-demo-") as tmp:
        return demo.main(Path(tmp), seed=args.seed, frames_dir=frames, out=sys.stdout,
                         keep=False, game=args.game, speech_dir=speech, language=args.language,
                         camera=args.camera)


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
