"""The words on the screen and in speech, from message catalogues (GNU gettext).

Every text the box shows or says is written in English in the code, wrapped in
:func:`_` (or :func:`ngettext` where a number decides the plural form, or marked with
:func:`N_` where it is defined before a language is chosen and translated when used).
A language is one file: ``companion/locale/<code>/LC_MESSAGES/companion.po``, made and
kept up to date with Babel (``make catalogs``: extract, update, compile). The compiled
``companion.mo`` beside it is what the box loads (the standard library's
:mod:`gettext`, nothing to install on the Pi). A ``.po`` without its ``.mo`` (a new
language dropped in) is compiled in memory with Babel when Babel is installed.

English needs no catalogue: it is the text in the code.

The language is process-wide (:func:`set_language`), as gettext's usually is: the box
has one table and one language at a time. Reading it is thread-safe (one reference,
swapped whole). A page that answers each request in its reader's language (the
spectator and club pages) words it inside :func:`using`: a language for the current
context only (a :class:`contextvars.ContextVar`: a thread or an asyncio task of its
own, so two requests in two languages at once never mix); :func:`negotiate` picks the
language from a browser's ``Accept-Language``.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import gettext
import io
import logging
import re
from collections.abc import Iterator, Sequence
from importlib import resources
from pathlib import Path

from companion.errors import CompanionError

log = logging.getLogger(__name__)

DOMAIN = "companion"
"""The gettext domain: the catalogues' file name."""
SOURCE_LANGUAGE = "en"
"""The language of the text in the code."""


class UnknownLanguage(CompanionError, ValueError):
    """A language code with no catalogue (``.po`` or ``.mo``) in ``companion/locale``."""


def locale_dir() -> Path:
    """The folder of the catalogues: ``companion/locale``."""
    return Path(str(resources.files("companion") / "locale"))


def languages() -> tuple[str, ...]:
    """The language codes the box can use: English and every catalogue present, sorted
    (``("de", "en")`` today)."""
    found = {SOURCE_LANGUAGE}
    base = locale_dir()
    if base.is_dir():
        for entry in base.iterdir():
            messages = entry / "LC_MESSAGES"
            if (messages / f"{DOMAIN}.mo").is_file() or (messages / f"{DOMAIN}.po").is_file():
                found.add(entry.name)
    return tuple(sorted(found))


def load(code: str) -> gettext.NullTranslations:
    """The translations of language ``code`` (a null translation for English).

    :raises UnknownLanguage: no catalogue for ``code``, or its file cannot be read.
    """
    if code == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    messages = locale_dir() / code / "LC_MESSAGES"
    mo, po = messages / f"{DOMAIN}.mo", messages / f"{DOMAIN}.po"
    try:
        if mo.is_file():
            with mo.open("rb") as fh:
                return gettext.GNUTranslations(fh)
        if po.is_file():
            return _compile_po(po)
    except (OSError, ValueError) as exc:  # gettext raises OSError/ValueError on a bad file
        raise UnknownLanguage(f"language {code!r}: catalogue {exc}") from exc
    raise UnknownLanguage(
        f"language {code!r}: no catalogue in {messages} (have: {', '.join(languages())})"
    )


def _compile_po(po: Path) -> gettext.GNUTranslations:
    """A ``.po`` file compiled in memory (needs Babel)."""
    try:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po
    except ImportError as exc:
        raise ValueError(f"{po} has no compiled .mo and Babel is not installed") from exc
    with po.open("rb") as fh:
        catalog = read_po(fh)
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    return gettext.GNUTranslations(buf)


_current: gettext.NullTranslations = gettext.NullTranslations()
_code: str = SOURCE_LANGUAGE
_context: contextvars.ContextVar[tuple[str, gettext.NullTranslations] | None] = \
    contextvars.ContextVar("companion_language", default=None)
"""The language of :func:`using` in this context (``None``: the process's)."""


@functools.lru_cache(maxsize=16)
def _loaded(code: str) -> gettext.NullTranslations:
    """:func:`load` once per language (bounded: 16 languages, more than the box has)."""
    return load(code)


def _active() -> gettext.NullTranslations:
    found = _context.get()
    return _current if found is None else found[1]


@contextlib.contextmanager
def using(code: str) -> Iterator[str]:
    """Word everything in language ``code`` inside the ``with`` block, in this context
    only (this thread, or this asyncio task): other threads and tasks keep theirs, the
    process's language (:func:`set_language`) does not change. Yields ``code``.

    A worker thread does not inherit it from the thread that started it unless the
    context is copied (:func:`contextvars.copy_context`): enter :func:`using` in the
    thread that words.

    :raises UnknownLanguage: see :func:`load`.
    """
    token = _context.set((code, _loaded(code)))
    try:
        yield code
    finally:
        _context.reset(token)


_LANGUAGE_RANGE = re.compile(r"\s*([A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*|\*)\s*(?:;\s*q\s*=\s*([0-9.]{1,5}))?\s*")


def negotiate(header: str | None, default: str = SOURCE_LANGUAGE,
              available: Sequence[str] | None = None) -> str:
    """The language to answer a browser in: the first of its ``Accept-Language``
    ``header`` (RFC 9110: ``"de-CH, de;q=0.9, en;q=0.8"``, highest ``q`` first, ties in
    the header's order) that is ``available`` (default :func:`languages`), matched by
    its primary subtag (``de-AT`` is ``de``); ``default`` when none is (no header, only
    ``*``, or only languages the box has no catalogue for). Parts that do not parse are
    skipped; never raises."""
    have = tuple(available) if available is not None else languages()
    if not header:
        return default
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate(header[:1000].split(",")):
        found = _LANGUAGE_RANGE.fullmatch(part)
        if found is None:
            continue
        try:
            q = float(found.group(2)) if found.group(2) is not None else 1.0
        except ValueError:
            continue
        if q > 0:
            ranked.append((-q, index, found.group(1).lower()))
    for _q, _i, tag in sorted(ranked):
        if tag == "*":
            return default
        primary = tag.split("-", 1)[0]
        if primary in have:
            return primary
    return default


def set_language(code: str) -> None:
    """Use language ``code`` from now on, for every thread.

    :raises UnknownLanguage: see :func:`load` (the language in use stays).
    """
    global _current, _code
    translations = load(code)
    _current, _code = translations, code


def language() -> str:
    """The code of the language in use: :func:`using`'s in this context, else the
    process's (``"en"`` until :func:`set_language`)."""
    found = _context.get()
    return _code if found is None else found[0]


def _(message: str) -> str:
    """``message`` in the language in use (itself when the catalogue lacks it)."""
    return _active().gettext(message)


def known(message: str) -> bool:
    """Whether the language in use has ``message`` (always, for English: the text in
    the code is English); a translation may be the same word (``normal``)."""
    catalog = getattr(_active(), "_catalog", None)
    return catalog is None or message in catalog


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for the count ``n`` in the language in use
    (its catalogue's plural rule); the caller formats ``n`` into it."""
    return _active().ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the sense ``context`` (the same English word translated two ways,
    e.g. ``pgettext("button", "Back")``)."""
    return _active().pgettext(context, message)


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it now (a constant defined
    at import, translated with :func:`_` where it is shown)."""
    return message


__all__ = [
    "DOMAIN",
    "N_",
    "SOURCE_LANGUAGE",
    "UnknownLanguage",
    "_",
    "known",
    "language",
    "languages",
    "load",
    "locale_dir",
    "negotiate",
    "ngettext",
    "pgettext",
    "set_language",
    "using",
]
