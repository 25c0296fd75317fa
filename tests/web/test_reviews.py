"""The review of a finished game's page is worked out in the background: the page answers
at once with a note, the review comes when it is ready, once per journal content, one at
a time, and a review that fails is a sentence, never a 500.

The review is made slow by a test hook (a work function that waits for the test's word),
so what is checked is the ORDER of events, never a time."""

from __future__ import annotations

import random
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from web_journals import write_finished, write_game

from companion.ai import review
from companion.rules import get_game, play_out
from companion.web.app import create_app
from companion.web.reviews import NOT_REVIEWED, Reviewed, Reviews, player_colours, review_of


@pytest.fixture(scope="module")
def quick() -> Reviewed:
    """A real review, of the first 24 actions of a seeded game of Tait's Senet (a few
    CPU seconds; the hook's answer: what it reviews is not what is looked at here)."""
    game = get_game("senet-tait")
    state = play_out(game.new_state(2), random.Random(3).randrange,
                     until=lambda s: len(s.history) >= 24)
    actions = state.history
    return Reviewed(review.review(game, 2, actions), tuple(range(1, len(actions) + 1)),
                    player_colours(state))


class Held:
    """A review hook: notes when each review begins and ends (``events``), and waits
    for :meth:`release` before it answers ``answer`` (or raises it)."""

    def __init__(self, answer: Reviewed | Exception) -> None:
        self.answer = answer
        self.events: list[str] = []
        self.begun = threading.Event()
        self._go = threading.Event()

    def __call__(self, path: Path, data: bytes, cancel: threading.Event) -> Reviewed:
        self.events.append(f"begins {path.name}")
        self.begun.set()
        assert self._go.wait(60), "the test never released the review"
        self.events.append(f"ends {path.name}")
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer

    def release(self) -> None:
        self._go.set()


@pytest.fixture
def finished(tmp_path: Path) -> Path:
    return write_finished(tmp_path / "games", "senet-tait", seed=2)


@pytest.fixture
def held_app(quick: Reviewed) -> Iterator[tuple[Held, Reviews]]:
    hook = Held(quick)
    reviews = Reviews(hook)
    yield hook, reviews
    hook.release()
    reviews.close()


def test_the_page_answers_before_the_review_is_done_and_shows_it_once_done(
        finished: Path, held_app: tuple[Held, Reviews]) -> None:
    hook, reviews = held_app
    c = TestClient(create_app(finished.parent, reviews=reviews))
    url = f"/game/{finished.name}"
    page = c.get(url)
    hook.events.append("page served")
    assert page.status_code == 200
    assert 'data-game="senet-tait"' in page.text  # the game itself, at once
    assert 'id="review-pending"' in page.text and "being worked out" in page.text
    assert '<script src="/static/review.js"' in page.text and 'class="chances"' not in page.text
    assert hook.begun.wait(60)  # the page asked for the review, and it runs now...
    part = c.get(f"{url}/review")
    assert part.status_code == 202 and 'id="review-pending"' in part.text
    assert c.get(url).status_code == 200  # asked for again while it runs: not again
    assert "ends " + finished.name not in hook.events  # ...and was not done when served
    hook.release()
    assert reviews.wait()
    part = c.get(f"{url}/review")
    assert part.status_code == 200 and 'class="chances"' in part.text
    assert part.text.startswith('<section class="review">')
    page = c.get(url)
    assert 'class="chances"' in page.text and "review-pending" not in page.text
    assert "review.js" not in page.text
    assert reviews.started == 1  # five requests, one review
    assert hook.events == [f"begins {finished.name}", "page served", f"ends {finished.name}"] or \
        hook.events == ["page served", f"begins {finished.name}", f"ends {finished.name}"]


def test_a_review_is_kept_by_the_journals_content(
        finished: Path, held_app: tuple[Held, Reviews]) -> None:
    """The same bytes under another name are not reviewed again; a journal whose
    content changed is (an old review is never shown for it)."""
    hook, reviews = held_app
    hook.release()
    c = TestClient(create_app(finished.parent, reviews=reviews))
    c.get(f"/game/{finished.name}")
    assert reviews.wait()
    copy = finished.with_name("20300101-120000-senet-tait.journal")
    shutil.copy(finished, copy)
    assert 'class="chances"' in c.get(f"/game/{copy.name}").text  # at once: the same content
    assert reviews.started == 1
    other = write_finished(finished.parent.parent / "other", "senet-tait", seed=3)
    finished.write_bytes(other.read_bytes())  # another game under the same name
    assert "review-pending" in c.get(f"/game/{finished.name}").text
    assert reviews.wait()
    assert reviews.started == 2


def test_reviews_are_worked_out_one_at_a_time_in_the_order_asked(
        tmp_path: Path, held_app: tuple[Held, Reviews]) -> None:
    hook, reviews = held_app
    first = write_finished(tmp_path, "senet-tait", seed=2)
    second = tmp_path / "20300101-120000-senet-tait.journal"  # another game
    second.write_bytes(write_finished(tmp_path / "other", "senet-tait", seed=3).read_bytes())
    c = TestClient(create_app(tmp_path, reviews=reviews))
    assert "review-pending" in c.get(f"/game/{first.name}").text
    assert hook.begun.wait(60)
    assert "review-pending" in c.get(f"/game/{second.name}").text
    assert hook.events == [f"begins {first.name}"]  # the second waits its turn
    hook.release()
    assert reviews.wait()
    assert hook.events == [f"begins {first.name}", f"ends {first.name}",
                           f"begins {second.name}", f"ends {second.name}"]


def test_a_review_that_fails_is_a_plain_sentence_not_a_500(finished: Path) -> None:
    hook = Held(RuntimeError("a bug in the search"))
    hook.release()
    reviews = Reviews(hook)
    c = TestClient(create_app(finished.parent, reviews=reviews))
    assert c.get(f"/game/{finished.name}").status_code == 200
    assert reviews.wait()
    for url in (f"/game/{finished.name}", f"/game/{finished.name}/review"):
        answer = c.get(url)
        assert answer.status_code == 200
        assert "The review of this game could not be worked out." in answer.text
        assert "chances" not in answer.text and "review-pending" not in answer.text
    german = c.get(f"/game/{finished.name}?lang=de").text
    assert "Die Analyse dieses Spiels konnte nicht erstellt werden." in german
    assert reviews.started == 1  # a failure is kept: not worked out at each request


def test_the_note_that_the_review_is_coming_is_in_the_readers_language(
        finished: Path, held_app: tuple[Held, Reviews]) -> None:
    _hook, reviews = held_app
    c = TestClient(create_app(finished.parent, reviews=reviews))
    page = c.get(f"/game/{finished.name}?lang=de").text
    assert "Die Analyse dieses Spiels wird gerade erstellt" in page
    assert "being worked out" not in page
    assert "Analyse" in c.get(f"/game/{finished.name}/review?lang=de").text


def test_an_unfinished_game_has_no_review_and_asks_for_none(tmp_path: Path) -> None:
    write_game(tmp_path, "senet-tait", 30)
    reviews = Reviews(Held(RuntimeError("never asked")))
    c = TestClient(create_app(tmp_path, reviews=reviews))
    (name,) = (p.name for p in tmp_path.glob("*.journal"))
    page = c.get(f"/game/{name}").text
    assert 'class="review' not in page and "review.js" not in page
    assert reviews.started == 0


def test_review_of_an_unfinished_journal_is_no_review(tmp_path: Path) -> None:
    """review_of, the hook's real counterpart (its review of a finished game: the page
    tests of tests/web/test_app.py and tests/ai/test_review.py)."""
    path, _state = write_game(tmp_path, "senet-tait", 12)
    assert review_of(path, path.read_bytes()) == NOT_REVIEWED
