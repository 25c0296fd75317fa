"""``companion journal list / show / review / export``: the saved games, read only,
in the language asked for."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    pass

from companion.cli.common import UsageError


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
