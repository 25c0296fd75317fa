"""What a page or a seat call returns is shown, never dropped (issue 31's pages).

Since the pages refactor a page's ``ok``/``back``/``step``/``throw_pressed`` and the
seat's calls that change the game (``begin``, ``resume``, ``undo``, ``act``,
``end_game``) return what is to be shown next (:data:`companion.app.screens.Next`)
and show nothing themselves. A caller that makes such a call as a statement of its
own drops the screen: after the refactor the scripted speech games called
``Controller.begin`` that way, never left the menu, and 22 speech tests failed on main.
Nothing in the type checker catches a dropped result, so this test reads the code: a
call of one of those names whose value is thrown away is refused, unless it is one of
the unrelated methods of the same name listed below (a journal's ``undo``, the club
publisher's ``step``, ...).
"""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

NEXT_CALLS = frozenset({"begin", "resume", "end_game", "undo", "act", "ok", "back", "step",
                        "throw_pressed", "then_end"})
"""Names of calls that return what to show (pages and the seat)."""

UNRELATED = {
    ("companion/journal/record.py", "self.undo"),  # a journal record's own replay
    ("companion/journal/record.py", "self.act"),
    ("companion/club/publish.py", "self.step"),  # the publisher's loop step
    ("*", "journal.undo"),  # a journal's undo: writes the record, returns nothing to show
    ("*", "self.journal.undo"),
    ("*", "table.journal.undo"),
}
"""(file, receiver.name) pairs whose call of such a name is not a page's or the seat's."""


def dropped(source: str, path: str) -> list[str]:
    """The calls in ``source`` whose returned screen is thrown away: ``"path:line: call"``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)):
            continue
        func = node.value.func
        if not (isinstance(func, ast.Attribute) and func.attr in NEXT_CALLS):
            continue
        called = f"{ast.unparse(func.value)}.{func.attr}"
        if (path, called) in UNRELATED or ("*", called) in UNRELATED:
            continue
        found.append(f"{path}:{node.lineno}: {ast.unparse(node.value)[:100]}")
    return found


def test_no_caller_drops_what_a_page_or_the_seat_returns() -> None:
    found = []
    for root in ("companion", "tests", "benchmarks"):
        for path in sorted((REPO / root).rglob("*.py")):
            found += dropped(path.read_text(encoding="utf-8"), str(path.relative_to(REPO)))
    assert found == [], "a returned screen is dropped (show it: ctl.show(...)):\n" + "\n".join(found)


def test_the_check_finds_the_drop_that_broke_the_speech_games() -> None:
    """tests/walkthroughs/cue_games.py before f0442ed: ``ctl.begin(...)`` as a
    statement, twice (the games never left the menu)."""
    before = '''
def play(ctl, game_id, players):
    ctl.begin(game_id, players, {}, {})
    ctl.show(ctl.begin(game_id, players, {}, {}))
    shown = ctl.begin(game_id, players, {}, {})
    journal.undo()
'''
    assert [line.split(": ", 1)[0] for line in dropped(before, "x.py")] == ["x.py:3"]
