"""The rules' English words in the language in use (:mod:`companion.i18n`).

The rules engines (:mod:`companion.rules`) import nothing of the project, so they
cannot call :func:`~companion.i18n._`: their titles, player names, option texts, the
names of their implements and their event sentences stay English there (the journal
keeps them so). This module knows the rules' sentences as *templates* (each written
once here, marked with :func:`~companion.i18n.N_` so that Babel extracts it) and
says a rules text in the language in use (:func:`say`): it finds the template the
text was made from, takes the fields out of it (a player's name, a square, a nested
sentence such as the reason of a win), says each field in turn and puts them into the
translated template. A text no template matches is its own catalogue entry (a
title, a name, an option's help) or, failing that, shown as it is: English.

``tests/test_catalogues.py`` plays whole games of every game and checks that every
sentence the rules say is matched here, so a new sentence in a rules engine that has
no template fails a test instead of showing English in a German game.
"""

from __future__ import annotations

import functools
import re

from companion.i18n import N_, _, known, language

TEMPLATES: tuple[str, ...] = (
    # -- lists, in any sentence (the most general: tried last)
    N_("{first} and {last}"),
    N_("{first}, {rest}"),
    # -- Senet (Tait's rules)
    N_("{player} throws {value}"),
    N_("{player} enters a piece on {dst}"),
    N_("{player} moves {src} to {dst}"),
    N_("{player}'s piece on {src} is bumped back to its plinth"),
    N_("{player}'s piece drowns in the House of Water and goes back to its plinth"),
    N_("{player} bears a piece off from {src}"),
    N_("{player} throws again ({why})"),
    N_("{player}'s throw of {value} is lost: no legal move"),
    N_("{player} wins: {reason}"),
    N_("{players} win: {reason}"),
    N_("threw a six"),
    N_("bore a piece off"),
    # -- Casting-stick Senet (a stick of the throw picture, "2 red"; its events are
    #    data, worded by companion/ui/events/senet_sticks.py)
    N_("{count} blue"),
    N_("{count} red"),
    N_("the board is blocked, no throw can move a plinth; {mine} against {theirs} plinths in "
       "the opponent's Home Row"),
    N_("the round limit ({rounds}) is reached; the leaders share the win"),
    N_("The walls shift. Go {way}."),
    # -- moves' notations with words in them (the moves screen's rows)
    N_("enter {dst}"),
    N_("{src}-off"),
    N_("{src}-{dst} with {value}"),
    N_("{src}-{dst} to {last} with {value}"),
    N_("{src}-{dst} to {last}"),
    N_("attack {player}"),
    N_("swap {player}"),
    N_("avert {item}"),
    N_("show {item}"),
    N_("cross to {dst}"),
    N_("fly {dst}"),
    N_("ride from {src}"),
    N_("stay on {src}"),
    N_("resurrect {dst}"),
    # -- a throw entered by hand (Implement.entry_words)
    N_("{value} (1 light side)"),
    N_("{value} ({count} light sides)"),
    N_("{value} (no light side)"),
    N_("{count}:red"),
    N_("{count}:blue"),
)
"""The rules' sentences with their fields named, as :func:`say` matches them."""

WORDS: tuple[str, ...] = (
    # The games' titles (their Game classes).
    N_("Senet (Tait's rules)"), N_("Casting-stick Senet"),
    N_("Game of the Labyrinth (Peter Aleff)"), N_("The Cretan Labyrinth"),
    # The players' names.
    N_("Black"), N_("White"), N_("Red"), N_("Blue"), N_("Green"), N_("Yellow"),
    N_("Player 1"), N_("Player 2"), N_("Player 3"), N_("Player 4"),
    # Colours, directions, squares and things named inside sentences.
    N_("blue"), N_("red"), N_("green"), N_("yellow"),
    N_("north"), N_("south"), N_("east"), N_("west"), N_("any way"),
    N_("NORTH"), N_("SOUTH"), N_("EAST"), N_("WEST"), N_("palace"), N_("any-way"),
    N_("Magic Bow and Arrow"), N_("Magic Feather"), N_("Magic Sword"), N_("Mirror"),
    N_("Rope"), N_("Shrinking Potion"), N_("Head of Medusa"), N_("House of Beauty"),
    # Moves without a square, and the tools and weapons by their short names.
    N_("pass"), N_("take-key"), N_("no-attack"), N_("keep-diamonds"), N_("face-danger"),
    N_("bow"), N_("sword"), N_("feather"), N_("potion"), N_("rope"), N_("mirror"), N_("head"),
    N_("Medusa-head"), N_("key"), N_("Cyclops"), N_("Medusa"), N_("Minotaur"),
    # The implements (State.throw_spec.describe()).
    N_("1 coloured stick"), N_("1 solid stick"), N_("3 casting sticks"),
    N_("4 casting sticks"), N_("5 casting sticks"), N_("a blue card"),
    N_("a direction card"), N_("a green card"), N_("a red card"), N_("a yellow card"),
    N_("one die"), N_("two dice"),
    # Why a game ended (Outcome.reason).
    N_("all five pieces borne off"), N_("all five plinths in the opponent's Home Row"),
    N_("all four pieces borne off"),
    N_("back at the own gateway with four diamonds and the Magic Key"),
    N_("the last player left in the labyrinth"),
    N_("first plinth in the opponent's Home Row (quick mode)"),
    # The options' help (Option.help), shown on an option's page.
    N_("Magic Keys in the palace: 1 (the rules) or 4 (the footnote: no battles)"),
    N_("Player 1 tosses a dual-coloured stick and plays the colour shown"),
    N_("a Knight's Orbit ride ending on 52: drops through the tunnel to 7 at once, or is "
       "trapped there like a count ending on 52"),
    N_("a board file (TOML) describing your own board and sticks"),
    N_("a double 1 may enter two pieces (no: one piece enters per turn)"),
    N_("a keeper starting a move within two spaces of a player: walks on (free) or must "
       "stop at the first step and battle (stop)"),
    N_("a piece leaving the trap on 52 through the tunnel may ride the Knight's Orbit from 7"),
    N_("a six earns the extra throw even when the six could not be used"),
    N_("a value inside a combination may land on and take an opponent (no: only the last "
       "value of a combination may)"),
    N_("add the extra solid casting stick (a faster game)"),
    N_("dice thrown for the distance of a move"),
    N_("a player the Minotaur meets without defense: back to the gateway, diamonds lost "
       "(quest) or out of the game (out)"),
    N_("end the game after this many rounds (0: no limit); the leaders share the win"),
    N_("extra throw for moving a piece onto square 26 ('onto') or off it ('from')"),
    N_("field 52: lose two turns there, then the tunnel to 7; or the tunnel first"),
    N_("normal: all five plinths must enter the opponent's Home Row; quick: the first plinth "
       "to reach it wins"),
    N_("number of casting sticks (4 as in Tutankhamun's boxes; 5 makes a throw of five possible)"),
    N_("path of a board TOML file (empty: the built-in board)"),
    N_("path of a board file (TOML) to use instead of the default board"),
    N_("path of a deck file (TOML) to use instead of the default decks"),
    N_("which 'Will Defeat' column of the weapon table holds for the attacker's item"),
    # The options' values where they are words.
    N_("attack-defend"), N_("defend-attack"), N_("free"), N_("from"), N_("normal"),
    N_("onto"), N_("out"), N_("quest"), N_("quick"), N_("stop"), N_("trap"), N_("trap-then-tunnel"), N_("tunnel"),
    N_("tunnel-then-trap"),
)
"""The rules' fixed words the screens show: a catalogue entry each (:func:`say`)."""

_FIELD = re.compile(r"\{(\w+)\}")
NUMBERS = frozenset({"count", "value", "total", "rounds", "mine", "theirs", "distance"})
"""The fields of :data:`TEMPLATES` that are always a number (matched as digits only)."""


def _pattern(template: str) -> re.Pattern[str]:
    """``template`` as a regular expression, each field a named group of some text."""
    out, at = [], 0
    for m in _FIELD.finditer(template):
        out.append(re.escape(template[at:m.start()]))
        name = m.group(1)
        out.append(f"(?P<{name}>\\d+)" if name in NUMBERS else f"(?P<{name}>.+?)")
        at = m.end()
    out.append(re.escape(template[at:]))
    return re.compile("".join(out), re.DOTALL)


@functools.lru_cache(maxsize=1)
def _patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """The templates, the most literal text first (the most specific wins)."""
    ordered = sorted(TEMPLATES, key=lambda t: -len(_FIELD.sub("", t)))
    return tuple((t, _pattern(t)) for t in ordered)


def template_of(text: str) -> tuple[str, dict[str, str]] | None:
    """The template ``text`` was made from and its fields (``None``: no template)."""
    for template, pattern in _patterns():
        m = pattern.fullmatch(text)
        if m is not None:
            return template, m.groupdict()
    return None


_SQUARE = r"(?:\d+|[a-l]\d+|gate\d+|palace)"
_WORDLESS = re.compile(rf"[\d\W]*|[a-l]\d+|gate\d+|{_SQUARE}-{_SQUARE}(?: \[[\d+]+\])?")
"""Texts with nothing to translate: numbers, squares (``12``, ``d4``, ``gate2``), a
move's squares (``12-16``, ``palace-f8``: a notation, as the board is labelled)."""


@functools.lru_cache(maxsize=4096)
def _say(text: str, lang: str) -> str:
    own = _(text)
    if own != text or _WORDLESS.fullmatch(text):
        return own
    found = template_of(text)
    if found is None:
        return text
    template, fields = found
    return _(template).format(**{k: _say(v, lang) for k, v in fields.items()})


def unsaid(text: str) -> list[str]:
    """The parts of the rules' ``text`` that :func:`say` leaves in English in the
    language in use (none: all of it is said): a text that is neither a catalogue
    entry, nor made from a template, nor without words (a number, a square), or such
    a part of a template's fields."""
    if known(text) or _WORDLESS.fullmatch(text):
        return []
    found = template_of(text)
    if found is None:
        return [text]
    return [part for value in found[1].values() for part in unsaid(value)]


def say(text: str) -> str:
    """The rules' English ``text`` (an event, a name, a title, a reason, an option's
    help or value) in the language in use: its own catalogue entry, else its template's
    with each field said in turn; ``text`` itself when neither is found."""
    if language() == "en":
        return text
    return _say(text, language())


__all__ = ["TEMPLATES", "WORDS", "extract_data_texts", "say", "template_of", "unsaid"]


def extract_data_texts(fileobj, keywords, comment_tags, options):  # type: ignore[no-untyped-def]
    """A Babel extraction method for the rules' data files (``babel.cfg``): every
    ``text`` and ``creature`` of a deck file (the cards' words), so that a card drawn is
    said in the language in use (:func:`say`). Yields Babel's ``(line, function,
    message, comments)``."""
    import tomllib

    raw = fileobj.read().decode("utf-8")
    data = tomllib.loads(raw)
    lines = raw.splitlines()
    seen: set[str] = set()

    def line_of(text: str) -> int:
        quoted = f'"{text}"'
        return next((i + 1 for i, line in enumerate(lines) if quoted in line), 0)

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("text", "creature") and isinstance(value, str) and value:
                    if value not in seen:
                        seen.add(value)
                        found.append((line_of(value), "_", value, []))
                else:
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    found: list[tuple[int, str, str, list[str]]] = []
    walk(data)
    yield from found
