"""`companion run` starts with what it draws: no web stack on the way to the first
frame (issue 23, item 10: the board SVG module brought urllib, http and email in
through xml.sax.saxutils, and the start took 2.5x the import floor)."""

from __future__ import annotations

import subprocess
import sys

from start_probe import floor_start, run_start

WEB = ("http", "urllib", "email", "xml", "html.parser", "starlette", "uvicorn", "h11",
       "anyio", "companion.web", "wsgiref", "socketserver")
"""Modules of a web page or a web server: the spectator page's process needs them, the
referee does not."""

NEVER = ("http", "urllib.request", "xml", "starlette", "uvicorn", "companion.web")
"""Not even the libraries below the referee import these."""


def _web(names: frozenset[str], prefixes: tuple[str, ...]) -> list[str]:
    return sorted(n for n in names if any(n == p or n.startswith(p + ".") for p in prefixes))


def test_companion_run_imports_no_web_module_up_to_its_first_frame() -> None:
    start = run_start(80, 24)
    assert "Up/Down" in start.screen  # it drew the panel and its key line
    floor = floor_start().modules
    assert "gpiozero" in start.modules and "luma.oled.device" in start.modules
    # what the libraries themselves import (gpiozero: importlib.metadata, which imports
    # email; pathlib: urllib.parse) is the floor's too; the referee adds none of its own
    assert _web(start.modules - floor, WEB) == []
    assert _web(start.modules, NEVER) == []


def test_the_menu_is_drawn_before_any_game_engine_is_imported() -> None:
    """The first frame (the splash, then the menu) draws no board: no game's engine,
    picture or computer player is imported for it (each is imported when its game is
    first set up, as the rules registry does)."""
    start = run_start(80, 24)
    engines = ("companion.rules.senet_tait", "companion.rules.senet_sticks",
               "companion.rules.labyrinth", "companion.rules.cretan_labyrinth",
               "companion.ui.games.boards.senet_tait", "companion.ui.games.boards.labyrinth",
               "companion.ai")
    assert _web(start.modules, engines) == []
    assert "companion.rules.registry" in start.modules  # the menu's list of games


LATER = ("companion.ui.games.boards.model", "companion.ui.games.boards.pixels",
         "companion.ui.games.boards.svg", "companion.ui.games.boards.words", "html",
         "secrets", "hashlib", "hmac", "concurrent.futures")
"""Imported when first needed, not for the menu: a board's model and drawing (the first
board shown), the SVG sketch and its HTML escaping (the web page's), the hashing modules
of :mod:`secrets` (the first throw drawn), the worker's thread pool (the computer's
first move or a hint)."""


def test_the_first_frame_imports_no_board_drawing_no_hashing_and_no_thread_pool() -> None:
    """Was: all of these came with the start (1.70x its import floor in CPU; see
    benchmarks/start_time.py)."""
    start = run_start(80, 24)
    floor = floor_start().modules
    assert _web(start.modules - floor, LATER) == []


SPLASH_LATER = ("companion.app.screens.start", "companion.app.screens.play",
                "companion.app.screens.turn", "companion.app.screens.review",
                "companion.app.screens.menus", "companion.app.table", "companion.speech.cues",
                "companion.ui.events", "companion.journal.names", "companion.app.results",
                "companion.rules.core", "companion.rules.throws")
"""Not needed for the splash (the first frame): the screens before a game (resume, setup,
seats), of a game in play, of the computer's turn, the review and the menus
(:mod:`companion.app.screens` gives them on first use, PEP 562), and the game's table
(imported when a game begins or is resumed), the sentences spoken (the first game's
voice), the words of a game's events (its first action) and the cleaning of people's
names (the roster, read when the seats screen opens), the worker's results (the first
event the loop handles, or the worker's first job), the rules engine's core and its
implements (a game's first set-up or a journal read: the menu lists the games from the
registry, which imports neither). Issue 35: the start to the first frame at most 1.3x
its import floor (CPU)."""


def test_the_splash_imports_no_game_screen_menu_or_table() -> None:
    start = run_start(80, 24)
    assert "companion.app.screens.splash" in start.modules  # the splash's own module
    assert _web(start.modules, SPLASH_LATER) == []


def test_the_lazy_screen_names_are_all_there() -> None:
    """Every name :mod:`companion.app.screens` gives on first use is where it says."""
    import companion.app.screens as sc

    for name in sc.__all__:
        assert getattr(sc, name) is not None, name


OTHER_COMMANDS = ("companion.cli.rules", "companion.cli.journal", "companion.cli.services",
                  "companion.cli.camera")
"""The command line's other commands: `companion run` builds the parser of `run` alone
and imports no other command's module (each is imported where its parser is built)."""


def test_companion_run_imports_no_other_command_up_to_its_first_frame() -> None:
    start = run_start(80, 24)
    assert "companion.cli.box" in start.modules  # run's own module
    assert _web(start.modules, OTHER_COMMANDS) == []


def test_importing_the_command_line_imports_no_rules_engine_and_no_other_command() -> None:
    """What the console script does before `main` (``from companion.cli import main``)
    imports the command line's shared part only: the rules engines and the service are
    imported inside `companion run`, where the garbage collector is held until the first
    frame (companion.cli.box.cmd_run)."""
    code = ("import sys\nfrom companion.cli import main\n"
            "print('\\n'.join(m for m in sys.modules if m.startswith('companion')))")
    names = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                           text=True).stdout.split()
    assert "companion.cli.common" in names
    assert _web(frozenset(names), ("companion.rules", "companion.app", *OTHER_COMMANDS)) == []


def test_the_service_s_modules_make_none_of_the_worker_s_results() -> None:
    """The start imports the service, the controller, the worker and the terminal: none
    of them makes the worker's result classes (ten dataclasses, about 4 ms of CPU on a
    fast core), which come with the first event the loop handles
    (:mod:`companion.app.results`; :mod:`companion.app.events` gives their names on first
    use)."""
    code = ("import sys\nimport companion.app.service, companion.sim.terminal\n"
            "import companion.app.events as events\n"
            "print('companion.app.results' in sys.modules, 'WorkFailed' in vars(events))")
    shown = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                           text=True).stdout.split()
    assert shown == ["False", "False"]


def test_the_events_module_still_gives_the_worker_s_results_and_the_loop_s_union() -> None:
    import typing

    import companion.app.events as events
    import companion.app.results as results

    assert events.WorkFailed is results.WorkFailed and events.Found is results.Found
    assert set(typing.get_args(results.WorkDone)) <= set(typing.get_args(events.LoopEvent))
    assert events.Quit in typing.get_args(events.LoopEvent)


def test_the_service_and_the_light_rules_modules_import_no_engine_core() -> None:
    """The service, the terminal, the controller and what they import from the rules (the
    data files, the errors, the registry, the event kinds) import neither the engine's
    core nor its implements (about 10 ms of CPU: their dataclasses): :mod:`companion.rules`
    gives its names on first use (PEP 562)."""
    code = ("import sys\nimport companion.app.service, companion.sim.terminal\n"
            "import companion.rules.datafile, companion.rules.errors, companion.rules.registry\n"
            "import companion.rules.kinds, companion.ui.view\n"
            "print('companion.rules.core' in sys.modules, 'companion.rules.throws' in sys.modules)")
    shown = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                           text=True).stdout.split()
    assert shown == ["False", "False"]


def test_the_rules_package_gives_every_name_it_lists() -> None:
    """Every name of :mod:`companion.rules` is where it says, the same object as in the
    module that holds it; the event kinds and face tokens are the core's and the throws'."""
    import companion.rules as rules
    import companion.rules.core as core
    import companion.rules.kinds as kinds
    import companion.rules.throws as throws

    for name in rules.__all__:
        assert getattr(rules, name) is not None, name
    assert rules.Move is core.Move and rules.Throw is throws.Throw
    for name in kinds.__all__:
        holder = throws if name in ("LIGHT", "DARK") else core
        assert getattr(holder, name) == getattr(kinds, name), name
