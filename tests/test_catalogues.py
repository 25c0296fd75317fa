"""The message catalogues (issue 20, languages): the German one is complete and true to
the code, its compiled file is the compile of its text, its sentences keep their
placeholders, the panel's font draws every letter of it, and the rules' English words
(events, names, implements, moves, reasons, options) are all said in German through
the templates of :mod:`companion.ui.rules_words`. A third language is one file."""

from __future__ import annotations

import io
import random
import re
import shutil
import string
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

import companion.i18n as i18n
from companion.i18n import _, language, languages, set_language
from companion.rules import Phase, game_class, game_ids, get_game, random_action
from companion.ui import font
from companion.ui.games import presenter_for
from companion.ui.rules_words import say, template_of, unsaid

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "companion" / "locale"
GERMAN_PO = LOCALE / "de" / "LC_MESSAGES" / "companion.po"
GERMAN_MO = GERMAN_PO.with_suffix(".mo")
FIELD = re.compile(r"\{(\w*)[^{}]*\}")


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    set_language("en")


def german() -> Catalog:
    with GERMAN_PO.open("rb") as fh:
        return read_po(fh)


def code_messages() -> set[str | tuple[str, ...]]:
    """Every message the code (and the bundled deck file) uses, extracted in memory
    with the mapping of ``babel.cfg``, as ``make catalogs`` does."""
    with (ROOT / "babel.cfg").open() as fh:
        method_map, options_map = parse_mapping_cfg(fh)  # type: ignore[no-untyped-call]
    found: set[str | tuple[str, ...]] = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(ROOT / "companion"), method_map, options_map,
    ):
        found.add(message)
    return found


def test_the_german_catalogue_has_every_message_the_code_uses_and_no_other() -> None:
    in_po = {m.id for m in german() if m.id}
    in_code = code_messages()
    assert len(in_code) > 400  # the extraction saw the screens, presenters and words
    assert not in_code - in_po, f"not in the German catalogue (make catalogs): {in_code - in_po}"
    assert not in_po - in_code, f"in the German catalogue, used nowhere: {in_po - in_code}"


def test_german_has_no_untranslated_or_fuzzy_entry() -> None:
    catalog = german()
    untranslated = [m.id for m in catalog if m.id and (
        not m.string or (isinstance(m.string, tuple) and not all(m.string)))]
    fuzzy = [m.id for m in catalog if m.id and m.fuzzy]
    assert not untranslated, untranslated
    assert not fuzzy, fuzzy


def translations(catalog: Catalog) -> dict[tuple[str | None, str | tuple[str, ...]],
                                          str | tuple[str, ...]]:
    """Every translated message of ``catalog``: (context, id) to its string or plural
    forms; the header (whose ``Generated-By`` names the compiler's version) left out.
    A context is text (Babel before 2.19 reads a .mo's contexts as bytes)."""
    return {(m.context.decode() if isinstance(m.context, bytes) else m.context,
             m.id if isinstance(m.id, str) else tuple(m.id)):
            texts(m.string) if not isinstance(m.string, str) else m.string
            for m in catalog if m.id and not m.fuzzy}


def test_the_committed_mo_says_what_the_po_says() -> None:
    """What the box loads (the .mo) holds every message of the .po with its translation,
    context and plural forms, and the same plural rule; the compiler's version, which
    the .mo's header names, does not matter (a new Babel release is not a change)."""
    with GERMAN_MO.open("rb") as fh:
        compiled = read_mo(fh)
    po = german()
    assert translations(compiled) == translations(po), "run make catalogs and commit the .mo"
    assert len(translations(po)) > 400
    assert compiled.plural_forms == po.plural_forms
    assert compiled.charset == "utf-8"


def test_the_mo_check_sees_a_changed_translation(tmp_path: Path) -> None:
    """The check above can fail: a .mo compiled from a .po with one translation changed
    differs in exactly that message."""
    po = german()
    changed = next(m for m in po if m.id and isinstance(m.string, str) and m.string)
    changed.string = f"{changed.string} (geändert)"
    buf = io.BytesIO()
    write_mo(buf, po)
    buf.seek(0)
    committed = translations(german())
    differs = {k for k, v in translations(read_mo(buf)).items() if committed.get(k) != v}
    assert differs == {(changed.context, changed.id)}


def texts(value: object) -> tuple[str, ...]:
    """A message's id or string as a tuple (one text, or the plural forms)."""
    if isinstance(value, str):
        return (value,)
    return tuple(str(v) for v in value) if isinstance(value, tuple | list) else ()


def test_each_translation_keeps_the_placeholders_of_its_message() -> None:
    for m in german():
        if not m.id:
            continue
        wanted = sorted(set(FIELD.findall(texts(m.id)[-1])))
        for s in texts(m.string):
            assert sorted(set(FIELD.findall(s))) == wanted, f"{m.id!r} -> {s!r}"


def test_the_german_plural_rule_is_one_and_other() -> None:
    catalog = german()
    assert catalog.num_plurals == 2
    assert catalog.plural_expr == "(n != 1)"
    set_language("de")
    assert i18n.ngettext("- loses {count} turn", "- loses {count} turns", 1) == "- setzt {count} Runde aus"
    assert i18n.ngettext("- loses {count} turn", "- loses {count} turns", 2) == "- setzt {count} Runden aus"


def test_the_panel_font_draws_every_letter_of_the_german_catalogue() -> None:
    """No German letter falls back to the font's ``?``: ä ö ü Ä Ö Ü ß are drawn."""
    drawn = set(string.printable) - set(string.whitespace) | {" "} | set(font.EXTRA)
    used = {ch for m in german() if m.id for s in texts(m.string) for ch in s}
    assert used - drawn == set()
    assert {"ä", "ö", "ü", "ß"} <= used  # the check is not vacuous
    question = font.glyph("?")
    assert all(font.glyph(ch).tobytes() != question.tobytes() for ch in "äöüÄÖÜß")


def rules_words(game_id: str, players: int, seed: int, **options: object) -> Iterator[str]:
    """Every text of the rules a whole random game of ``game_id`` shows: its title, its
    players' names, the implement due and the words of its faces entered by
    hand, each legal move's notation, the reason of the end; the options' help and
    values. ``options``: the game's options (default: none)."""
    cls = game_class(game_id)
    yield cls.title
    for option in cls.options:
        yield option.help
        yield from (str(c) for c in option.choices if not str(c).isdigit())
    game = get_game(game_id, **options)
    rnd = random.Random(seed)
    state = game.new_state(players)
    yield from (game.player_name(p, players) for p in range(players))
    while state.phase is not Phase.OVER:
        spec = state.throw_spec
        if state.phase is Phase.THROW and spec is not None:
            yield spec.describe()
            if spec.kind != "card":  # a card is entered by its id (the manual screen)
                yield from (spec.entry_words(face) for slot in spec.entry_slots() for face in slot)
        else:
            yield from (m.notation for m in state.legal_moves())
        state.apply(random_action(state, rnd.randrange))  # events are data: test_event_words
    assert state.outcome is not None
    yield state.outcome.reason


@pytest.mark.parametrize("game_id", game_ids())
def test_every_word_of_the_rules_is_said_in_german(game_id: str) -> None:
    """The rules stay English (they import nothing of the project); each of their
    sentences is matched by a template and said whole in German, its fields too."""
    set_language("de")
    cls = game_class(game_id)
    left: dict[str, list[str]] = {}
    for players in range(cls.min_players, cls.max_players + 1):
        for seed in range(2):
            for text in rules_words(game_id, players, seed):
                missing = unsaid(text)
                if missing:
                    left[text] = missing
    assert not left, f"said in English in a German game: {dict(list(left.items())[:10])}"


def test_the_minotaurs_out_reading_is_said_in_german() -> None:
    """The Cretan Labyrinth's option ``minotaur=out`` (D30) says sentences no default
    game does: a player leaving, the last one left winning, the key going back. Its
    events are data (:mod:`companion.ui.events.cretan_labyrinth` words them)."""
    from companion.rules import Event
    from companion.rules.core import EV_WON
    from companion.rules.cretan_labyrinth import EV_KEY, EV_OUT
    from companion.ui.events import words_for

    kinds = set()
    for players in (2, 3):
        for seed in range(3):
            state = get_game("cretan-labyrinth", minotaur="out").new_state(players)
            rnd = random.Random(seed)
            while state.phase is not Phase.OVER:
                kinds |= {e.kind for e in state.apply(random_action(state, rnd.randrange))}
    assert EV_OUT in kinds
    set_language("de")
    words = words_for(get_game("cretan-labyrinth", minotaur="out").new_state(3))
    assert [words(e) for e in (Event(EV_OUT, 0), Event(EV_KEY, 0, args={"what": "back"}),
                               Event(EV_WON, 2, args={"what": "last-left"}))] == [
        "Spieler 1 ist tot und scheidet aus dem Spiel aus", "Der Zauberschlüssel kehrt in den Palast zurück",
        "Spieler 3 ist als Letzter im Labyrinth übrig und gewinnt!"]
    assert not unsaid("the last player left in the labyrinth")


def test_a_rules_sentence_is_said_with_its_fields_in_german() -> None:
    set_language("de")
    assert say("Black throws 4") == "Schwarz wirft 4"
    text = "the round limit (300) is reached; the leaders share the win"  # a reason: a rules text
    assert template_of(text) == ("the round limit ({rounds}) is reached; the leaders share the win",
                                 {"rounds": "300"})
    assert say(text) == "die Rundengrenze (300) ist erreicht; die Führenden teilen den Sieg"
    assert say("Red and Blue win: the board is blocked, no throw can move a plinth; 4 against "
               "3 plinths in the opponent's Home Row") == (
        "Rot und Blau gewinnen: das Brett ist blockiert, kein Wurf bewegt einen Stein; "
        "4 gegen 3 Steine in der Heimreihe des Gegners")
    assert say("a sentence no rule says") == "a sentence no rule says"
    set_language("en")
    assert say("Black throws 4") == "Black throws 4"


def test_the_presenters_words_are_german() -> None:
    """A presenter's own words (the lost throw's reason, the options' labels) come
    from the catalogue; a width decides the wording in German as in English."""
    set_language("de")
    state = get_game("senet-sticks").new_state()
    presenter = presenter_for("senet-sticks", 21)
    assert presenter.lost_reason(state) == "Kein Stein kann diese Hölzer nutzen."
    option = next(o for o in game_class("senet-sticks").options if o.name == "extra-stick")
    assert presenter.option_label(option) == "Extra-Holz"
    assert presenter.option_value(option, True) == "ja"


def test_a_third_language_is_one_po_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A copy of the German .po under a new code, without a .mo: offered, and usable
    (compiled in memory)."""
    base = tmp_path / "locale"
    shutil.copytree(LOCALE, base)
    target = base / "xx" / "LC_MESSAGES"
    target.mkdir(parents=True)
    shutil.copy(GERMAN_PO, target / "companion.po")
    monkeypatch.setattr(i18n, "locale_dir", lambda: base)
    assert languages() == ("de", "en", "xx")
    set_language("xx")
    assert language() == "xx"
    assert _("Settings") == "Einstellungen"
