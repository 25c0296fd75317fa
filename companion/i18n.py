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
swapped whole).
"""

from __future__ import annotations

import gettext
import io
import logging
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


def set_language(code: str) -> None:
    """Use language ``code`` from now on, for every thread.

    :raises UnknownLanguage: see :func:`load` (the language in use stays).
    """
    global _current, _code
    translations = load(code)
    _current, _code = translations, code


def language() -> str:
    """The code of the language in use (``"en"`` until :func:`set_language`)."""
    return _code


def _(message: str) -> str:
    """``message`` in the language in use (itself when the catalogue lacks it)."""
    return _current.gettext(message)


def known(message: str) -> bool:
    """Whether the language in use has ``message`` (always, for English: the text in
    the code is English); a translation may be the same word (``normal``)."""
    catalog = getattr(_current, "_catalog", None)
    return catalog is None or message in catalog


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for the count ``n`` in the language in use
    (its catalogue's plural rule); the caller formats ``n`` into it."""
    return _current.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the sense ``context`` (the same English word translated two ways,
    e.g. ``pgettext("button", "Back")``)."""
    return _current.pgettext(context, message)


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
    "ngettext",
    "pgettext",
    "set_language",
]
