"""The companion's screens: one small class each, behind one protocol.

A screen (:class:`Page`) keeps its own cursor and scroll and knows what it shows
(:meth:`Page.view`) and what OK, a short BACK and UP/DOWN do on it (:meth:`Page.ok`,
:meth:`Page.back`, :meth:`Page.step`): each returns what is to be shown next
(:data:`Next`: a page, a :class:`Message`, :class:`Route`, :class:`ToMenu`,
:class:`ToPause`; ``None``: it stays), which the controller shows. It sees the companion
through a narrow :class:`Seat` (what it may read, and what it may ask of the game: act,
undo, begin, ...; each such call returns what is to be shown because of it), never the
controller. A new screen is one class and the pages that return it; the dispatch in the
controller does not change.

By what they serve:

* :mod:`.base`: the screens' names, the page and seat protocols, what a page returns
  (:data:`Next`), the message screen;
* :mod:`.splash`: the first frame, and the offer to resume an unfinished game;
* :mod:`.start`: before a game ( setup, seats and who plays one, an
  option);
* :mod:`.play`: a game in play (throw, moves, events, the end, the board);
* :mod:`.turn`: :func:`for_position`, the screen a position calls for, and the
  computer's turn (thinking on the worker, then its move shown);
* :mod:`.menus`: the game menu, the settings, the pause menu;
* :mod:`.review`: the review of a finished game (its mistakes, its luck);
* :mod:`.calibrate`: the camera's calibration of a board without markers.

The tutor's question before a costly move is in :mod:`.play` (:func:`play_checked`).

Only :mod:`.base` and :mod:`.splash` (the splash screen, the first frame) are imported
with the package. The names of :mod:`.start`, :mod:`.play`, :mod:`.turn`, :mod:`.menus`,
:mod:`.review` and :mod:`.calibrate` are given on first use (PEP 562 ``__getattr__``), so the start does not pay
for them (issue 35; tests/sim/test_start_imports.py).

Game-specific words (status lines, prompts, the steps of a choice, which events are
routine) come from the game's presenter (:mod:`companion.ui.games`).
"""

import importlib
from typing import TYPE_CHECKING, Any

from companion.app.screens.base import (
    ERRORS,
    IN_GAME,
    NO_UNDO,
    PAUSE_ITEMS,
    Confirm,
    Message,
    Next,
    Page,
    Played,
    Route,
    Screen,
    Seat,
    Think,
    ToMenu,
    ToPause,
    is_error,
    message,
)
from companion.app.screens.splash import Resume, Splash

if TYPE_CHECKING:
    from companion.app.screens.calibrate import CalibrateGame, Calibrating
    from companion.app.screens.menus import (
        CONTRAST_CHOICES,
        SLEEP_CHOICES,
        TUTOR_SHARE_CHOICES,
        Menu,
        Pause,
        Settings,
        SpeechSettings,
    )
    from companion.app.screens.play import (
        UNCHOSEN,
        BoardCheck,
        BoardPage,
        Checking,
        Events,
        Lost,
        Manual,
        Moves,
        Over,
        Throwing,
        TutorConfirm,
        act,
        picture_marked,
        play_checked,
        throw_drawn,
        tutor_losses,
    )
    from companion.app.screens.review import (
        Luck,
        Mistakes,
        Reviewing,
        ReviewPage,
    )
    from companion.app.screens.start import (
        SEAT_CHOICES,
        OptionPage,
        Seats,
        Setup,
        Who,
        data_files,
        option_choices,
    )
    from companion.app.screens.turn import (
        WORKER_SLACK,
        ComputerMove,
        Thinking,
        computer_move,
        for_position,
        hint_lines,
    )

_LAZY = {
    "SEAT_CHOICES": "start",
    "OptionPage": "start",
    "Seats": "start",
    "Setup": "start",
    "Who": "start",
    "data_files": "start",
    "option_choices": "start",
    "CONTRAST_CHOICES": "menus",
    "SLEEP_CHOICES": "menus",
    "TUTOR_SHARE_CHOICES": "menus",
    "Menu": "menus",
    "Pause": "menus",
    "Settings": "menus",
    "SpeechSettings": "menus",
    "UNCHOSEN": "play",
    "BoardCheck": "play",
    "BoardPage": "play",
    "Checking": "play",
    "Events": "play",
    "Lost": "play",
    "Manual": "play",
    "Moves": "play",
    "Over": "play",
    "Throwing": "play",
    "TutorConfirm": "play",
    "act": "play",
    "picture_marked": "play",
    "play_checked": "play",
    "throw_drawn": "play",
    "tutor_losses": "play",
    "Luck": "review",
    "Mistakes": "review",
    "Reviewing": "review",
    "ReviewPage": "review",
    "WORKER_SLACK": "turn",
    "ComputerMove": "turn",
    "Thinking": "turn",
    "computer_move": "turn",
    "for_position": "turn",
    "hint_lines": "turn",
    "CalibrateGame": "calibrate",
    "Calibrating": "calibrate",
}
"""The names of the screens the first frame (the splash) does not need, by the module
that holds them: imported when first asked for (PEP 562), so the start does not pay for
the game, review and turn screens (see tests/sim/test_start_imports.py)."""


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


__all__ = [
    "CONTRAST_CHOICES",
    "ERRORS",
    "IN_GAME",
    "NO_UNDO",
    "PAUSE_ITEMS",
    "SEAT_CHOICES",
    "SLEEP_CHOICES",
    "TUTOR_SHARE_CHOICES",
    "UNCHOSEN",
    "WORKER_SLACK",
    "BoardCheck",
    "BoardPage",
    "CalibrateGame",
    "Calibrating",
    "Checking",
    "ComputerMove",
    "Confirm",
    "Events",
    "Lost",
    "Luck",
    "Manual",
    "Menu",
    "Message",
    "Mistakes",
    "Moves",
    "Next",
    "OptionPage",
    "Over",
    "Page",
    "Pause",
    "Played",
    "Resume",
    "ReviewPage",
    "Reviewing",
    "Route",
    "Screen",
    "Seat",
    "Seats",
    "Settings",
    "Setup",
    "SpeechSettings",
    "Splash",
    "Think",
    "Thinking",
    "Throwing",
    "ToMenu",
    "ToPause",
    "TutorConfirm",
    "Who",
    "act",
    "computer_move",
    "data_files",
    "for_position",
    "hint_lines",
    "is_error",
    "message",
    "option_choices",
    "picture_marked",
    "play_checked",
    "throw_drawn",
    "tutor_losses",
]
