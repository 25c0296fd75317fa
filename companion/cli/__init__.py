"""The ``companion`` command line.

``companion games`` lists the games; ``companion rules ...`` settles a dispute or
checks a position from the real board (see ``companion rules --help``). Errors in what
the user gave (a position file, an option, a throw) print one line naming the problem
and exit with status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from companion import __version__

# What tests and callers import from ``companion.cli`` (the commands live in its modules).
from companion.cli.common import (
    EXIT_USAGE,
    UsageError,
    _read_position,
)

if TYPE_CHECKING:
    from companion.cli.rules import hint_answer, play_record

# Each command's module (and the rules engines) is imported where its parser is built
# (build_parser), so that `companion run`, the box's start, imports no other command's
# code (issue 35: tests/sim/test_start_imports.py).
_LAZY = ("hint_answer", "play_record")


def __getattr__(name: str) -> Any:
    """:func:`~companion.cli.rules.hint_answer` and :func:`~companion.cli.rules.play_record`,
    given by ``companion.cli`` as before and imported on first use (PEP 562)."""
    if name in _LAZY:
        value = getattr(importlib.import_module("companion.cli.rules"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def sentence(summary: str) -> str:
    """A command's one-line ``help`` as the first sentence of its ``--help`` description
    (capitalised, with its full stop)."""
    return f"{summary[0].upper()}{summary[1:]}."


def command(parent: argparse._SubParsersAction[argparse.ArgumentParser], name: str,
            summary: str, more: str = "", **kwargs: Any) -> argparse.ArgumentParser:
    """The command (or action) ``name`` of ``parent``: ``summary`` is its line in the
    parent's ``--help`` and, as a sentence followed by ``more``, the description its own
    ``--help`` prints (issue 35: five commands printed none)."""
    description = f"{sentence(summary.replace('%%', '%'))} {more}".rstrip()
    return parent.add_parser(name, help=summary, description=description, **kwargs)


COMMANDS = ("games", "rules", "run", "demo", "doctor", "journal", "club", "web", "publish",
            "board", "camera")
"""The commands of :func:`build_parser`, in its order."""


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with ``only`` (one of :data:`COMMANDS`) the parser of
    that command alone, for a command line that names it: the box starts with
    ``companion run``, and a parser of every command costs it about as much CPU as
    drawing its first frame (argparse looks its messages up in gettext for each one)."""
    parser = argparse.ArgumentParser(
        prog="companion",
        description="board-companion: a Raspberry Pi referee for physical board games.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def wanted(command: str) -> bool:
        return only is None or only == command

    # The arguments several commands share, written once (argparse's parent parsers):
    # a game id, a number of players, game options, where the journals are, a position.
    game = argparse.ArgumentParser(add_help=False)
    game.add_argument("game", metavar="GAME", help="a game id (see `companion games`)")
    players = argparse.ArgumentParser(add_help=False)
    players.add_argument(
        "--players", type=int, default=None, metavar="N",
        help="number of players (default: the game's usual number)",
    )
    option = argparse.ArgumentParser(add_help=False)
    option.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE",
        help="a game option, e.g. sticks=5 (repeatable; see docs/rules/GAME.md)",
    )
    boardfile = argparse.ArgumentParser(add_help=False)
    boardfile.add_argument(
        "--board", metavar="FILE", default=None,
        help="a board file of your own (the game's option board=FILE: casting-stick Senet, "
        "the Labyrinth, the Cretan Labyrinth; docs/rules/GAME.md): its squares as the file "
        "defines them (default: the config's [games.GAME] board, else the built-in board)",
    )
    where = argparse.ArgumentParser(add_help=False)
    where.add_argument(
        "--dir", metavar="DIR", default=None,
        help="the journal directory (default: journal.dir of the config file, else "
        "$STATE_DIRECTORY, else ~/.local/state/board-companion; on a Pi installed with "
        "systemd/install.sh: /var/lib/board-companion)",
    )
    where.add_argument(
        "--config", metavar="FILE", default=None,
        help="TOML configuration file (default: $COMPANION_CONFIG, else "
        "/etc/board-companion/config.toml if it exists)",
    )
    position = argparse.ArgumentParser(add_help=False)
    position.add_argument(
        "--position", required=True, metavar="FILE",
        help="a position as JSON (docs/positions.md); options come from the file",
    )


    if wanted("games"):
        from companion.cli.rules import cmd_games

        games = command(sub, "games", "list the game ids, one per line, with their titles")
        games.set_defaults(func=cmd_games)

    if wanted("rules"):
        from companion.cli.rules import cmd_hint, cmd_legal, cmd_match, cmd_new, cmd_play

        rules = command(
            sub, "rules", "the rules engines: starting positions, legal moves, random games"
        )
        rsub = rules.add_subparsers(dest="rules_command", required=True, metavar="ACTION")

        new = command(rsub, "new", "print the starting position as JSON",
                      parents=[game, players, option])
        new.set_defaults(func=cmd_new)

        legal = command(
            rsub, "legal", parents=[game, position], summary="print the legal moves for a throw in a position, with the events each causes",
        )
        legal.add_argument(
            "--throw", metavar="VALUES",
            help="the throw: sticks as a score ('4') or faces ('LLDD'); dice as '3,5'",
        )
        legal.set_defaults(func=cmd_legal, option=[])

        hint = command(
            rsub, "hint", parents=[game, position], summary="the computer's best move for a throw in a position, in one sentence (ties "
            "said as ties), and every different result ranked with its chance to win, as "
            "JSON whose 'about' says what each field means",
        )
        hint.add_argument(
            "--throw", metavar="VALUES",
            help="the throw, when the position waits for one: sticks as a score ('4') or "
            "faces ('LLDD'); dice as '3,5'",
        )
        hint.add_argument(
            "--level", default="normal", metavar="LEVEL",
            help="easy, normal (default) or strong (see docs/ai.md); values are the player's "
            "chance to win, 0 to 1",
        )
        hint.add_argument("--seed", type=int, default=0, metavar="N",
                          help="seed of the easy level's noise (default 0)")
        hint.set_defaults(func=cmd_hint, option=[])

        match_ = command(
            rsub, "match", parents=[game, option], summary="play whole games between computer players (seats rotating) and print each "
            "one's win rate with a 95%% confidence interval",
        )
        match_.add_argument(
            "--players", required=True, metavar="NAMES",
            help="one player per seat, comma-separated: easy, normal, strong, random (a random "
            "legal move) or greedy (one ply); e.g. 'strong,random'",
        )
        match_.add_argument("--games", type=int, default=100, metavar="N",
                            help="number of games (default 100)")
        match_.add_argument("--seed", type=int, default=1, metavar="N",
                            help="seed of the throws and the players' choices (default 1)")
        match_.set_defaults(func=cmd_match)

        play = command(
            rsub, "play", parents=[game, players, option], summary="play a whole game with random legal moves and print its record",
        )
        play.add_argument(
            "--seed", type=int, default=None, metavar="N",
            help="seed of the random throws and choices (same seed, same game)",
        )
        play.set_defaults(func=cmd_play)

    if wanted("run"):
        from companion.cli.box import cmd_run

        run = command(
            sub, "run",
            summary="the companion service: real hardware on a Raspberry Pi, else a terminal "
            "simulator (keys for the buttons, s to shake)",
        )
        run.add_argument("--log-file", default=None, metavar="FILE",
                         help="off-Pi only: write the log here (the terminal shows the OLED)")
        run.add_argument("--print-config", action="store_true",
                         help="print the effective configuration as a config file and exit")
        from companion.app import config as cfg  # the schema only: no hardware library

        cfg.add_arguments(run)
        run.set_defaults(func=cmd_run)

    if wanted("demo"):
        from companion.cli.box import cmd_demo
        from companion.rules import game_ids

        demo = command(
            sub, "demo",
            summary="play a scripted whole game (senet-tait unless --game) through the mock pins; "
            "print the record",
            more="The moves are picked at random, in the Cretan Labyrinth as the computer "
            "at normal plays them (random moves seldom end that game).",
        )
        demo.add_argument("--frames", metavar="DIR", default=None,
                          help="write every distinct 128x64 frame as a PNG into DIR")
        demo.add_argument("--speech", metavar="DIR", default=None,
                          help="write every cue said aloud as a numbered WAV into DIR (espeak-ng), "
                          "listed in DIR/cues.txt; DIR may be the frames' folder")
        demo.add_argument("--seed", type=int, default=1, metavar="N",
                          help="seed of the throws and the choices (default 1)")
        demo.add_argument("--journal", metavar="DIR", default=None,
                          help="journal directory (default: a temporary one); an unfinished "
                          "game there is resumed")
        demo.add_argument("--game", default="senet-tait", choices=game_ids(),
                          help="the game to play (default senet-tait)")
        from companion.i18n import languages

        demo.add_argument("--language", default="en", choices=languages(),
                          help="the language of the screens and of the cues (default en; "
                          "display.language)")
        demo.add_argument("--camera", action="store_true",
                          help="the moves found by the box from the fake camera's pictures: the "
                          "scripted player makes each move on the fake board, the box reads it "
                          "and puts the cursor on it, the player presses OK (needs the camera "
                          "extra; docs/camera.md)")
        demo.set_defaults(func=cmd_demo)

    if wanted("doctor"):
        from companion.cli.box import cmd_doctor

        doctor = command(
            sub, "doctor",
            summary="check the box: Pi model, pin factory, OLED, buttons, shaker, service, speech, "
            "saved games; OK or a one-line fix each (exit status 1 if anything needs fixing)",
        )
        from companion.app import config as cfg  # the schema only: no hardware library

        cfg.add_arguments(doctor)
        doctor.set_defaults(func=cmd_doctor)

    if wanted("journal"):
        from companion.cli.journal import (
            cmd_journal_export,
            cmd_journal_list,
            cmd_journal_review,
            cmd_journal_show,
        )

        undone = ("Actions taken back with undo are shown where they were made, marked "
                  "'(taken back)', followed by the undo.")
        journal_help = ("the saved games, read for people: list them, show one in words, export "
                        "it as JSON or text (never changes a file)")
        journal = command(sub, "journal", journal_help, undone)
        jsub = journal.add_subparsers(dest="journal_command", required=True, metavar="ACTION")
        which_help = ("a journal file, or its number in `companion journal list` (1: the newest "
                      "game)")
        list_help = ("one line per saved game, the newest first: number, start (local time), "
                     "game, players, state (unfinished / won by X / abandoned / damaged / "
                     "unusable, with the reason)")
        from companion.i18n import languages

        spoken = argparse.ArgumentParser(add_help=False)
        spoken.add_argument("--language", default=None, choices=languages(),
                            help="the language of the words (default: display.language of the "
                            "config file, else en); the moves' notation stays as written")
        jlist = command(jsub, "list", list_help, parents=[where, spoken])
        jlist.set_defaults(func=cmd_journal_list)
        show_help = ("the whole game in words: each turn, each throw and move with its events "
                     "and who made it; a damaged journal up to the damage, and where it is")
        jshow = command(jsub, "show", show_help, undone, parents=[where, spoken])
        jshow.add_argument("journal", metavar="FILE|INDEX", help=which_help)
        jshow.set_defaults(func=cmd_journal_show)
        export_help = "the record as JSON (for programs) or as the text of `journal show`"
        jexport = command(jsub, "export", export_help, undone, parents=[where, spoken])
        jexport.add_argument("journal", metavar="FILE|INDEX", help=which_help)
        jexport.add_argument("--format", choices=("json", "text"), default="json",
                             help="json (default) or text")
        jexport.add_argument("-o", "--output", metavar="FILE", default=None,
                             help="write here instead of standard output")
        jexport.add_argument("--review", action="store_true",
                             help="add a 'review' block to the JSON (as `journal review "
                             "--format json`; seconds for a long game)")
        jexport.set_defaults(func=cmd_journal_export)
        review_help = ("the game reviewed: each move's error (the win chance given away against "
                       "the best move), each throw's luck, per player the totals, the biggest swings")
        jreview = command(
            jsub, "review", review_help, "Win "
            "chances come from the learned evaluation (docs/ai.md); undone "
                                  "actions are left out. A progress line goes to stderr.", parents=[where])
        jreview.add_argument("journal", metavar="FILE|INDEX", help=which_help)
        jreview.add_argument("--format", choices=("text", "json"), default="text",
                             help="text (default) or json")
        jreview.set_defaults(func=cmd_journal_review)

    if wanted("club"):
        from companion.cli.services import cmd_club, cmd_club_roster

        club_help = ("serve the club page: every table's game live (board, whose turn, the last "
                     "event), the results and the ratings per game, from the boxes' MQTT broker")
        club = command(
            sub, "club", club_help, "It only reads from the broker "
            "(subscribes to TOPIC/#, a persistent session) and keeps the results in an SQLite "
            "file; the page listens on 127.0.0.1:8090 unless told otherwise. Bad messages are "
            "logged and skipped. See docs/club.md. Needs the club extra: pip install "
            "'board-companion[club]'.")
        club.add_argument("--broker", metavar="HOST", default="localhost",
                          help="the MQTT broker's host name (default: localhost); with --ca it "
                          "must match the broker's certificate")
        club.add_argument("--broker-port", metavar="N", type=int, default=None,
                          help="the broker's TCP port (default: 1883, 8883 with --ca)")
        club.add_argument("--ca", metavar="FILE", default=None,
                          help="the CA certificate (PEM) that signed the broker's: TLS")
        club.add_argument("--user", metavar="NAME", default=None,
                          help="the club's user name at the broker (default: anonymous)")
        club.add_argument("--password-file", metavar="FILE", default=None,
                          help="a file holding the club's password (kept off the command line; "
                          "default: the credential club-password of the systemd unit, if any)")
        club.add_argument("--topic", metavar="PREFIX", default="board-companion",
                          help="the boxes' topic prefix (club.topic of their config; default: "
                          "board-companion)")
        club.add_argument("--db", metavar="FILE", default=None,
                          help="the club's SQLite file (default: club.sqlite in $STATE_DIRECTORY, "
                          "else ~/.local/state/board-companion)")
        club.add_argument("--bind", metavar="ADDRESS", default="127.0.0.1",
                          help="IP address the page listens on (default: 127.0.0.1; 0.0.0.0: "
                          "every IPv4 interface)")
        club.add_argument("--port", metavar="N", type=int, default=8090,
                          help="the page's TCP port (default: 8090)")
        from companion.i18n import languages

        club.add_argument("--language", default="en", choices=languages(),
                          help="the page's language for a browser that asks for none the club "
                          "has (default en; each reader gets the first of their browser's "
                          "languages the club has, or ?lang=de)")
        club.set_defaults(func=cmd_club)
        clubsub = club.add_subparsers(dest="club_command", required=False, metavar="ROSTER")
        roster = command(
            clubsub, "roster", "the club's roster: the people who play, sent to every box",
            "The names are kept in the club's SQLite file; a running `companion club` "
            "publishes the roster to the boxes (retained on TOPIC/roster) within 2 s of a "
            "change, and each box's seat screen offers them. A name is plain text of at most "
            "32 characters (control and bidirectional characters removed). See docs/club.md.")
        rosub = roster.add_subparsers(dest="roster_command", required=True, metavar="ACTION")
        roster_db = argparse.ArgumentParser(add_help=False)
        roster_db.add_argument("--db", dest="roster_db", metavar="FILE", default=None,
                               help="the club's SQLite file (as companion club's --db)")
        for action, action_help in (("add", "put a person on the roster"),
                                    ("remove", "take a person off the roster (their results "
                                     "and ratings stay)")):
            one = command(rosub, action, action_help, parents=[roster_db])
            one.add_argument("name", metavar="NAME", help="the person's name")
            one.set_defaults(func=cmd_club_roster)
        listing = command(rosub, "list", "print the roster, one name a line", parents=[roster_db])
        listing.set_defaults(func=cmd_club_roster)

    if wanted("web"):
        from companion.cli.services import cmd_web

        web_help = ("serve the read-only spectator page: the game in progress (board, throw, "
                    "events, whose turn), live, and the saved games with their records")
        web = command(
            sub, "web", web_help, parents=[where], more="It only reads the journal "
            "directory (GET and HEAD only; nothing is ever written) and listens on "
            "127.0.0.1:8080 unless told otherwise: --bind 0.0.0.0 (or web.bind in the config "
            "file) opens it to the local network. Needs the web extra: pip install "
            "'board-companion[web]'.")
        web.add_argument("--bind", metavar="ADDRESS", default=None,
                         help="IP address to listen on (default: web.bind of the config file, "
                         "else 127.0.0.1; 0.0.0.0: every IPv4 interface, :: IPv6 too)")
        web.add_argument("--port", metavar="N", default=None,
                         help="TCP port 1-65535 (default: web.port of the config file, else 8080)")
        web.set_defaults(func=cmd_web)

    if wanted("publish"):
        from companion.cli.services import cmd_publish

        publish_help = ("publish this table's live game and finished results to the club's MQTT "
                        "broker (club.* in the config), until stopped")
        publish = command(
            sub, "publish", publish_help, parents=[where], more="It only reads the "
            "journal directory; a result is sent again until the club confirms it has "
            "stored it (its receipt), and the ids it confirmed are kept in club-outbox.json in "
            "--state-dir, so that no result is lost or doubled, also across power cuts. Does nothing unless club.publish is true. Needs the club extra: pip install "
            "'board-companion[club]'. See docs/service.md.")
        publish.add_argument("--state-dir", metavar="DIR", default=None,
                             help="where club-outbox.json is kept (default: $STATE_DIRECTORY, "
                             "else ~/.local/state/board-companion-publish; not the journal directory)")
        publish.set_defaults(func=cmd_publish)

    if wanted("board"):
        from companion.cli.services import cmd_board_print

        board = command(sub, "board", "the game's board for the camera: print it (issue 34)")
        bsub = board.add_subparsers(dest="board_command", required=True, metavar="ACTION")
        print_help = ("write the game's board at true size with four ArUco markers, as a PDF "
                      "and an SVG, to print and lay under the camera")
        bprint = command(bsub, "print", print_help, "Print at 100 % (no 'fit to page'); "
                         "the markers must stay uncovered. With --board FILE, a board of your "
                         "own is printed, its squares and marks as the file defines them; the "
                         "box reads it when the same file is its board (the config's "
                         "[games.GAME] board). A board file with a mistake is refused, naming "
                         "its line, and nothing is written. Needs the camera extra: pip install "
                         "'board-companion[camera]'. See docs/camera.md.",
                         parents=[game, option, boardfile])
        bprint.add_argument("--paper", choices=("A4", "A3"), default="A4",
                            help="paper size (default: A4)")
        bprint.add_argument("--out", metavar="FILE", default=None,
                            help="where to write, without suffix: FILE.pdf and FILE.svg (default: "
                            "GAME-PAPER in the current directory; with --board, "
                            "GAME-BOARD-PAPER, BOARD the board file's name without suffix)")
        bprint.set_defaults(func=cmd_board_print)

    if wanted("camera"):
        from companion.cli.camera import cmd_camera_calibrate, cmd_camera_check

        camera = command(sub, "camera", "the camera over the board: calibrate it for a board "
                         "of your own, check what it reads (issue 34)")
        csub = camera.add_subparsers(dest="camera_command", required=True, metavar="ACTION")
        # where the pictures come from, as both actions take them
        source = argparse.ArgumentParser(add_help=False)
        pick = source.add_mutually_exclusive_group()
        pick.add_argument("--fake", metavar="SEED", type=int, default=None,
                          help="use the fake camera with this seed (an integer)")
        pick.add_argument("--device", metavar="PATH|INDEX", default=None,
                          help="a webcam (0, /dev/video0) or a video file, through OpenCV "
                          "(default: camera.source and camera.device of the config)")
        check_help = ("print what the camera reads as a board (text) and write an overlay PNG: "
                      "the top view with each square's reading")
        check = command(csub, "check", check_help, "The picture comes from --fake SEED (a "
                        "random position of the game, seeded, photographed by the fake "
                        "camera), --device, or the configured camera (the first picture "
                        "after the board has been still for a moment). The board is found "
                        "through the game's saved calibration when there is one (`companion "
                        "camera calibrate`: a board without markers; with --fake, the camera "
                        "stands where `calibrate --fake SEED` with the same SEED put it), else "
                        "through the printed board's markers. Exit status 1 when the picture "
                        "is refused (a hand, a marker not seen). The game's options, its board "
                        "file among them, are the config's [games.GAME] table, then --option, "
                        "then --board. See docs/camera.md.",
                        parents=[game, option, boardfile, source, where])
        check.add_argument("--hand", action="store_true",
                           help="the fake camera puts a hand over the board")
        check.add_argument("--paper", choices=("A4", "A3"), default="A4",
                           help="the paper the board was printed on (default: A4)")
        check.add_argument("--out", metavar="FILE", default=None,
                           help="the overlay PNG (default: camera-check-GAME-SEED.png, or "
                           "camera-check-GAME.png with a real camera); the photo goes beside "
                           "it as FILE-photo.png")
        check.set_defaults(func=cmd_camera_check)
        calibrate_help = ("calibrate the camera for a board of your own, without markers: "
                          "its four corners on a still of the empty board")
        calibrate = command(
            csub, "calibrate", calibrate_help, "Leave the board EMPTY under the camera and "
            "run it without --corners: it writes a still of the board (--still, default "
            "camera-still-GAME.png) and the same with a pixel grid (...-grid.png). Read the "
            "four corners of the board's playing area off the grid (x across, y down) and "
            "run it again with --corners X,Y X,Y X,Y X,Y, in the order top left, top "
            "right, bottom right, bottom left of the board as the box draws it: the "
            "calibration (the corners, the still's size, the empty board as the reference "
            "the reader compares with, the game) is saved in the state folder, beside the "
            "journals, as camera-calibration-GAME.json, and the box and `companion camera "
            "check` read that board through it instead of markers. The camera must not "
            "move afterwards. Corners in a wrong order are refused. Or, with --page, click the "
            "corners on the still shown on a page of the command's own (the spectator page's "
            "address, web.bind, and the port after it) until they are saved. Or, with --pieces, put one "
            "piece on each corner square in turn when asked (square 1 first on Tait's Senet): "
            "the corners are found from where they stood. Corners given from another "
            "corner (a half turn) cannot be told on the empty board: set the pieces up as "
            "--orient says and run it, and the calibration is turned to read them as they "
            "stand. --forget removes it "
            "(back to the printed board's markers). The game's options, its board file "
            "among them, are the config's [games.GAME] table, then --option, then --board. "
            "Needs the camera extra. See docs/camera.md.",
            parents=[game, option, boardfile, source, where])
        mark = calibrate.add_mutually_exclusive_group()
        mark.add_argument("--corners", nargs=4, metavar="X,Y", default=None,
                          help="the board's four corners in pixels of the still: top "
                          "left, top right, bottom right, bottom left")
        mark.add_argument("--pieces", action="store_true",
                          help="find the corners instead from a piece put on each corner square "
                          "in turn (the command says which; Enter when it stands)")
        mark.add_argument("--page", action="store_true",
                          help="mark the corners on a page instead: the still is shown at "
                          "http://BIND:PORT/ (web.bind, and web.port + 1) until the four corners "
                          "clicked there are saved")
        mark.add_argument("--orient", action="store_true",
                          help="after --corners: with the pieces set up as the command says (a "
                          "new game's start, or one piece on square 1), find whether the corners "
                          "were given turned (a half turn; a quarter on a squarish board: the "
                          "empty board cannot tell) and turn the saved calibration")
        calibrate.add_argument("--still", metavar="FILE", default=None,
                               help="the still (PNG) written; with --corners, the still the "
                               "corners were read on, when it exists and neither --fake nor "
                               "--device is given (else a new still is taken and written "
                               "there; default: camera-still-GAME.png)")
        calibrate.add_argument("--bind", metavar="ADDRESS", default=None,
                               help="with --page: the address to listen on (default: web.bind)")
        calibrate.add_argument("--port", metavar="PORT", type=int, default=None,
                               help="with --page: the port (default: web.port + 1)")
        calibrate.add_argument("--forget", action="store_true",
                               help="remove the game's calibration")
        calibrate.set_defaults(func=cmd_camera_calibrate)

    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for bad input)."""
    words = sys.argv[1:] if argv is None else list(argv)
    # the parser of the command named first (not of every command); any other first
    # word (--help, --version, a mistake) gets the whole parser and its messages
    only = words[0] if words and words[0] in COMMANDS else None
    parser = build_parser(only)
    args = parser.parse_args(words)
    try:
        status: int = args.func(args)
    except UsageError as exc:
        return _usage_error(exc)
    except BrokenPipeError:  # `companion rules play ... | head`
        return 0
    except Exception as exc:
        from companion.rules import RulesError  # imported already by what raised one

        if isinstance(exc, RulesError):
            return _usage_error(exc)
        raise
    return status


def _usage_error(exc: Exception) -> int:
    """``exc`` printed as the one line of a mistake in the user's input; the exit status."""
    print(f"companion: error: {exc}", file=sys.stderr)
    return EXIT_USAGE


__all__ = ["COMMANDS", "EXIT_USAGE", "UsageError", "_read_position", "build_parser",
           "hint_answer", "main", "play_record"]
