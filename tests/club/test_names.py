"""Names are safe text everywhere (issue 33): :func:`companion.journal.names.clean_name`
on any text gives one bounded line without bidirectional or other controls, and the
club page shows any name a box sends only that way, escaped."""

from __future__ import annotations

import unicodedata

from hypothesis import example, given
from hypothesis import strategies as st
from markupsafe import escape

from companion.club import page
from companion.club.store import compute_ratings, rating_name
from companion.journal.names import BIDI_CONTROLS, ELLIPSIS, MAX_NAME, clean_name, shown_name

NASTY = "".join(sorted(BIDI_CONTROLS)) + "\x00\x07\x1b\t\n\r\x7f\x85\u2028\u2029\ufeff\u00ad\u200b"
names = st.text(st.one_of(st.characters(), st.sampled_from(NASTY), st.sampled_from("<>&\"' ")),
                max_size=80)


def unsafe(ch: str) -> bool:
    """A character a shown name must never hold."""
    return ch in BIDI_CONTROLS or (unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn")
                                   and ch not in "\u200c\u200d") or (ch.isspace() and ch != " ")


@given(names)
@example("\u202eevil\u202c name")
@example("A" * 100)
@example(" \u200f\u061c ")
@example("e\u0301" * 40)
def test_a_clean_name_is_one_safe_bounded_line(text: str) -> None:
    name = clean_name(text)
    assert len(name) <= MAX_NAME
    assert not any(unsafe(ch) for ch in name), ascii(name)
    assert name == name.strip() and "  " not in name
    assert clean_name(name) == name  # idempotent: cleaning twice changes nothing
    assert unicodedata.is_normalized("NFC", name)
    plain = " ".join(unicodedata.normalize("NFC", text).split()).strip(" \u200c\u200d")
    if len(plain) <= MAX_NAME and not any(unsafe(c) for c in text):
        assert name == plain  # a name that is safe already is kept as it is


def test_what_is_removed_and_what_is_cut() -> None:
    assert clean_name("\u202eAnna\u202c") == "Anna"
    assert clean_name("Bo\u2066b\u2069 \u200e") == "Bob"
    assert clean_name("  Eve\n\tLyn  ") == "Eve Lyn"
    assert clean_name("\x00\x1b[31mRed") == "[31mRed"
    assert clean_name("Zo\u0308e") == "Zöe"  # NFC
    assert clean_name("\u200d") == "" and shown_name("\u202e") == "?"
    long = clean_name("Bartholomew " * 5)
    assert len(long) == MAX_NAME and long.endswith(ELLIPSIS) and " " + ELLIPSIS not in long
    assert clean_name("<b>&amp;") == "<b>&amp;"  # plain text: escaping is the page's


@given(names, names)
@example("\u202e<script>alert(1)</script>", "x" * 200)
def test_the_page_shows_any_name_only_clean_and_escaped(one: str, two: str) -> None:
    seats = [{"name": "Black", "kind": "human", "level": None, "person": one},
             {"name": two, "kind": "human", "level": None}]
    result = {"id": "0" * 20, "table": "t1", "game": "senet-tait", "players": 2,
              "seats": seats, "winner": two, "moves": 3, "started": "2026-11-26T02:00:00+00:00",
              "ended": "2026-11-26T03:00:00+00:00"}
    ratings = compute_ratings([result, dict(result, winner="Black")])
    out = page.live_html([], [result], 1, ratings)
    assert not any(ch in BIDI_CONTROLS for ch in out)
    assert "<script>" not in out
    for seat in seats:
        assert str(escape(page.seat_word(seat))) in out
        assert len(rating_name(seat)) <= MAX_NAME
