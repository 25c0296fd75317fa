"""The pages' HTML templates (Jinja2): one environment per set of template folders.

Every page of ``companion web`` and ``companion club`` is a Jinja2 template under
``companion/web/templates/`` (the club's own under ``companion/club/templates/``), all
built on one shell, ``base.html`` (the document, its head, the header and ``<main>``).
Autoescaping is on: a value put in a page is escaped unless it is
:class:`markupsafe.Markup` (the board's SVG and the drawings this package makes
itself, already escaped where they hold text). The words come from the message
catalogues through Jinja2's i18n extension, installed with :mod:`companion.i18n`'s
gettext (``newstyle``: ``{{ _("Turn %(number)s", number=n) }}`` escapes its values),
so a page is worded in the language in use when it is rendered: render inside
:func:`companion.i18n.using` to answer a reader in their language. ``make catalogs``
extracts the templates' words (``babel.cfg``).
"""

from __future__ import annotations

import functools
from typing import Any

import jinja2
from markupsafe import Markup

from companion import i18n

__all__ = ["Markup", "environment", "render"]


@functools.lru_cache(maxsize=4)
def environment(*packages: str) -> jinja2.Environment:
    """The environment loading the ``templates`` folder of each of ``packages`` in
    order (a name found in an earlier one wins), ``companion.web``'s always last (the
    shell). One per set of packages (at most 4 kept); rendering is thread-safe.

    :raises ModuleNotFoundError: a package does not exist.
    """
    names = [p for p in packages if p != "companion.web"] + ["companion.web"]
    env = jinja2.Environment(
        loader=jinja2.ChoiceLoader([jinja2.PackageLoader(p, "templates") for p in names]),
        autoescape=True, undefined=jinja2.StrictUndefined,
        extensions=["jinja2.ext.i18n"], trim_blocks=True, lstrip_blocks=True,
    )
    env.install_gettext_callables(  # type: ignore[attr-defined]  # added by the i18n extension
        gettext=i18n._, ngettext=i18n.ngettext, pgettext=i18n.pgettext, newstyle=True)
    return env


def render(packages: tuple[str, ...], template: str, **context: Any) -> str:
    """The template ``template`` rendered with ``context`` in the language in use (its code
    is ``lang`` in the template: ``<html lang>``)."""
    found = environment(*packages).get_template(template)
    return found.render(lang=i18n.language(), **context)
