"""What a board picture costs next to an ordinary screen, per game.

    .venv/bin/python benchmarks/board_picture_cost.py [--quick] [--rounds N]

For a position in the middle of a seeded game of each game (4 players where a game
allows them), the CPU time of one board frame -- ``board_model(state, highlight=move)``
then ``draw_board`` -- and of its words (``pieces_in_words``) and SVG (``board_svg``),
each printed as a ratio to the floor measured in the same run (CPU time, interleaved
rounds: benchmarks/measure.py): ``render`` of a moves screen (a title, six menu rows
and a hint line), the frame the companion draws on every button press. A board frame is drawn when a player opens the board or moves the
cursor in the move preview, so a ratio of a few times the floor keeps it as quick to
follow the cursor as the moves screen itself. Run it on the Pi you build (a Pi Zero 2 W
is several times slower than a desktop).
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
from functools import partial

from measure import interleave, ratio_line, repeat_until
from PIL import Image

from companion.rules import Move, Phase, State, get_game, play_out
from companion.ui.games.boards import board_model, board_svg, draw_board, pieces_in_words
from companion.ui.render import render
from companion.ui.view import View

GAMES = (("senet-tait", 2, 300), ("senet-sticks", 2, 40), ("labyrinth", 4, 160), ("cretan-labyrinth", 4, 120))
"""(game, players, random actions before the measured position)."""


def position(game_id: str, players: int, actions: int) -> tuple[State, Move | None]:
    state = get_game(game_id).new_state(players)
    play_out(state, random.Random(1).randrange,
             until=lambda s: len(s.history) >= actions and s.phase is not Phase.THROW)
    move = next((m for m in state.legal_moves() if m.kind != "pass"), None)
    return state, move


def board_frame(state: State, move: Move | None) -> Image.Image:
    """One frame of the move preview: the model with the move, then its picture."""
    return draw_board(board_model(state, highlight=move))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--quick", action="store_true", help="a few seconds (CI sanity)")
    parser.add_argument("--rounds", type=int, default=10, help="rounds per game (default 10)")
    args = parser.parse_args()
    rounds = 2 if args.quick else args.rounds
    print(f"{platform.machine()} {platform.python_implementation()} {platform.python_version()}")
    print("floor: render() of a moves screen (the frame of every press); CPU time, the")
    print("floor and the three board costs interleaved in rounds (benchmarks/measure.py)")
    view = View(
        "moves", "Black threw 3", items=("12-15", "14-17", "20-23", "enter 4", "25-28", "26-29"),
        hint="OK: move  BACK: menu",
    )
    floor_ms: list[float] = []
    for game_id, players, actions in GAMES[:1] if args.quick else GAMES:
        state, move = position(game_id, players, actions)
        board = board_model(state, highlight=move)
        result = interleave(
            repeat_until(lambda: render(view)),
            {
                "board frame": repeat_until(partial(board_frame, state, move)),
                "words": repeat_until(partial(pieces_in_words, state, 21)),
                "SVG": repeat_until(partial(board_svg, board)),
            },
            rounds,
            by="time",
        )
        floor_ms += [1000 / rate for rate in result.rates["floor"]]
        frame_ms = 1000 / statistics.median(result.rates["board frame"])
        print(f"{game_id} ({players}p): board frame {frame_ms:.3f} CPU ms")
        for name, ratios in result.ratios.items():
            print(ratio_line(f"  {name}", ratios, "x floor time", 16))
    print(f"floor: render() of a moves screen {statistics.median(floor_ms):.3f} CPU ms (median)")


if __name__ == "__main__":
    main()
