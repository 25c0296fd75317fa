"""The board pictures of issue 12 §1, pixel for pixel and in words.

Each picture in ``tests/ui/reference/boards/`` is made from a position reached by a
seeded random game (the same every run) and compared pixel for pixel; each ``.svg``
there is the web page's sketch of a board, compared as text. A difference fails with
the picture's name and the number of pixels that differ. To change the pictures on
purpose, write them again (with the README's enlarged copies in ``docs/screens/``) and
LOOK at them before committing::

    UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/ui/test_boards.py
"""

from __future__ import annotations

import os
import random
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pytest
from PIL import Image, ImageChops

from companion.rules import IllegalMoveError, Move, Phase, PieceZone, State, get_game, random_action
from companion.rules.labyrinth import Labyrinth, LabyrinthState
from companion.ui.games.boards import (
    board_model,
    board_svg,
    draw_board,
    draw_inventories,
    inventory_pages,
    pieces_in_words,
)
from companion.ui.games.boards import labyrinth as labyrinth_board
from companion.ui.render import board_size
from companion.ui.view import View

REFERENCE = Path(__file__).parent / "reference" / "boards"
README_COPIES = Path(__file__).parents[2] / "docs" / "screens"
README_PICTURES = ("senet-tait-move", "senet-sticks-mid", "labyrinth-move", "cretan-labyrinth-mid")
"""The pictures shown (enlarged three times) in the README."""
UPDATE = bool(os.environ.get("UPDATE_GOLDEN"))
SMALL = (128, 32)
PAGE = board_size(View("board", "Title", hint="OK: back"), (128, 64))
"""What the board gets on its page of a 128x64 panel: between the title and the key line."""


def step(state: State, rng: random.Random) -> None:
    """One random action: a fair throw, or a uniformly chosen legal move."""
    state.apply(random_action(state, rng.randrange))


def until(game_id: str, players: int, seed: int, found: Callable[[State], bool], **options: object) -> State:
    """The first position of a seeded random game where ``found`` holds (and a choice is due)."""
    rng = random.Random(seed)
    state = get_game(game_id, **options).new_state(players)
    for _ in range(5000):
        if state.phase in (Phase.MOVE, Phase.DECIDE) and found(state):
            return state
        if state.phase is Phase.OVER:
            break
        step(state, rng)
    raise AssertionError(f"{game_id}: no such position in the game of seed {seed}")


def after(game_id: str, players: int, seed: int, actions: int) -> State:
    """The first position after ``actions`` random actions where a piece can move."""
    return until(
        game_id, players, seed,
        lambda state: len(state.history) >= actions and any(m.kind != "pass" for m in state.legal_moves()),
    )


def first_move(state: State) -> Move:
    """The first legal move that moves a piece (the preview the moves screen opens on)."""
    return next(m for m in state.legal_moves() if m.kind != "pass")


def tait_moving() -> State:
    """A Senet (Tait) position of the seeded game where a piece on the board can move."""
    return until(
        "senet-tait", 2, 7, lambda s: len(s.history) >= 350 and any(m.kind == "move" for m in s.legal_moves())
    )


def board_move(state: State) -> Move:
    """The first legal move of a piece already on the board."""
    return next(m for m in state.legal_moves() if m.kind == "move")


def jumping(state: State) -> bool:
    """A Labyrinth position where a legal count move is carried on by a jump or the geese."""
    game = state.game
    assert isinstance(game, Labyrinth)
    return any(game.count_end(m) not in (None, m.dst) for m in state.legal_moves())


def jump_move(state: State) -> Move:
    game = state.game
    assert isinstance(game, Labyrinth)
    return next(m for m in state.legal_moves() if game.count_end(m) not in (None, m.dst))


def trapped(state: State) -> bool:
    return isinstance(state, LabyrinthState) and bool(state.trapped())


Picture = Callable[[], Image.Image]


def pictures() -> dict[str, Picture]:
    """Every reference picture by name."""

    def tait() -> State:
        return tait_moving()

    def sticks() -> State:
        return after("senet-sticks", 2, 3, 40)

    def lab4() -> State:
        return after("labyrinth", 4, 2, 160)

    def lab_jump() -> State:
        return until("labyrinth", 2, 4, jumping)

    def cretan() -> State:
        return after("cretan-labyrinth", 4, 1, 120)

    def cretan_out() -> State:
        # Option minotaur=out (D30): a 3-player game after the Minotaur took a player out.
        return until("cretan-labyrinth", 3, 2, lambda s: any(getattr(s, "out", ())), minotaur="out")

    return {
        "senet-tait-start": lambda: draw_board(board_model(get_game("senet-tait").new_state())),
        "senet-tait-mid": lambda: draw_board(board_model(tait())),
        "senet-tait-move": lambda: draw_board(board_model(s := tait(), highlight=board_move(s))),
        "senet-tait-move-blink": lambda: draw_board(board_model(s := tait(), highlight=board_move(s)), blink=True),
        "senet-tait-enter": lambda: draw_board(board_model(
            s := until("senet-tait", 2, 7, lambda s: any(m.kind == "enter" for m in s.legal_moves()) and len(s.history) > 20),
            highlight=next(m for m in s.legal_moves() if m.kind == "enter"))),
        "senet-tait-mid-128x32": lambda: draw_board(board_model(tait()), SMALL),
        "senet-sticks-start": lambda: draw_board(board_model(get_game("senet-sticks").new_state())),
        "senet-sticks-mid": lambda: draw_board(board_model(sticks())),
        "senet-sticks-move": lambda: draw_board(board_model(s := sticks(), highlight=board_move(s))),
        "senet-sticks-resurrect": lambda: draw_board(board_model(
            s := until("senet-sticks", 2, 3, lambda s: any(m.kind == "resurrect" for m in s.legal_moves())),
            highlight=next(m for m in s.legal_moves() if m.kind == "resurrect"))),
        "senet-sticks-mid-128x32": lambda: draw_board(board_model(sticks()), SMALL),
        "labyrinth-start": lambda: draw_board(board_model(get_game("labyrinth").new_state(4))),
        "labyrinth-mid": lambda: draw_board(board_model(lab4())),
        "labyrinth-move": lambda: draw_board(board_model(s := lab_jump(), highlight=jump_move(s))),
        "labyrinth-move-blink": lambda: draw_board(board_model(s := lab_jump(), highlight=jump_move(s)), blink=True),
        "labyrinth-trapped": lambda: draw_board(board_model(until("labyrinth", 3, 1, trapped))),
        "labyrinth-mid-128x32": lambda: draw_board(board_model(lab4()), SMALL),
        "cretan-labyrinth-start": lambda: draw_board(board_model(get_game("cretan-labyrinth").new_state(4))),
        "cretan-labyrinth-mid": lambda: draw_board(board_model(cretan())),
        "cretan-labyrinth-move": lambda: draw_board(board_model(s := cretan(), highlight=first_move(s))),
        "cretan-labyrinth-move-blink": lambda: draw_board(board_model(s := cretan(), highlight=first_move(s)), blink=True),
        "cretan-labyrinth-mid-128x32": lambda: draw_board(board_model(cretan()), SMALL),
        "cretan-labyrinth-inventories": lambda: draw_inventories(board_model(cretan())),
        "cretan-labyrinth-out": lambda: draw_board(board_model(cretan_out())),
        "cretan-labyrinth-out-inventories": lambda: draw_inventories(board_model(cretan_out())),
        # the board pages of a 128x64 panel, as the box shows them (issue 23's gap)
        "senet-tait-page": lambda: draw_board(board_model(tait()), PAGE),
        "senet-tait-page-enter": lambda: draw_board(board_model(
            s := until("senet-tait", 2, 7, lambda s: any(m.kind == "enter" for m in s.legal_moves()) and len(s.history) > 20),
            highlight=next(m for m in s.legal_moves() if m.kind == "enter")), PAGE),
        "senet-sticks-page": lambda: draw_board(board_model(s := sticks(), highlight=board_move(s)), PAGE),
        "labyrinth-page": lambda: draw_board(board_model(lab4()), PAGE),
        "cretan-labyrinth-page": lambda: draw_board(board_model(cretan()), PAGE),
    }


def svgs() -> dict[str, Callable[[], str]]:
    """Every reference SVG by name: each game's board with a move previewed."""
    return {
        "senet-tait": lambda: board_svg(board_model(s := tait_moving(), highlight=board_move(s))),
        "senet-sticks": lambda: board_svg(board_model(s := after("senet-sticks", 2, 3, 40), highlight=first_move(s))),
        "labyrinth": lambda: board_svg(board_model(s := until("labyrinth", 2, 4, jumping), highlight=jump_move(s))),
        "cretan-labyrinth": lambda: board_svg(board_model(s := after("cretan-labyrinth", 4, 1, 120), highlight=first_move(s))),
    }


def test_every_reference_picture_is_still_made() -> None:
    on_disk = {p.stem for p in REFERENCE.glob("*.png")} | {p.stem + ".svg" for p in REFERENCE.glob("*.svg")}
    made = set(pictures()) | {name + ".svg" for name in svgs()}
    if UPDATE:
        for stale in on_disk - made:
            (REFERENCE / (stale if stale.endswith(".svg") else stale + ".png")).unlink()
        return
    assert on_disk == made, "write the references again (see this module's docstring)"


@pytest.mark.parametrize("name", sorted(pictures()))
def test_board_picture_matches_its_reference(name: str) -> None:
    image = pictures()[name]()
    assert image.mode == "1"
    path = REFERENCE / f"{name}.png"
    if UPDATE:
        REFERENCE.mkdir(parents=True, exist_ok=True)
        image.save(path)
        if name in README_PICTURES:
            big = image.convert("L").resize((image.width * 3, image.height * 3), Image.Resampling.NEAREST)
            big.save(README_COPIES / f"board-{name}.png")
    expected = Image.open(path).convert("1")
    assert image.size == expected.size
    diff = ImageChops.difference(image.convert("L"), expected.convert("L"))
    changed = sum(diff.histogram()[1:])
    assert changed == 0, f"{name}: {changed} pixels differ from {path}"


@pytest.mark.parametrize("name", sorted(svgs()))
def test_board_svg_matches_its_reference(name: str) -> None:
    text = svgs()[name]()
    path = REFERENCE / f"{name}.svg"
    if UPDATE:
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), f"{name}: the SVG differs from {path}"


@pytest.mark.parametrize("name", README_PICTURES)
def test_the_readme_shows_the_reference_pictures_enlarged(name: str) -> None:
    reference = Image.open(REFERENCE / f"{name}.png").convert("L")
    enlarged = reference.resize((reference.width * 3, reference.height * 3), Image.Resampling.NEAREST)
    shown = Image.open(README_COPIES / f"board-{name}.png").convert("L")
    assert shown.size == enlarged.size
    assert ImageChops.difference(shown, enlarged).getbbox() is None, f"docs/screens/board-{name}.png is stale"


# ------------------------------------------------------------- what a player sees


def cell_box(image_a: Image.Image, image_b: Image.Image) -> tuple[int, int, int, int] | None:
    """The bounding box of the pixels that differ between two pictures."""
    return ImageChops.difference(image_a.convert("L"), image_b.convert("L")).getbbox()


def test_the_preview_inverts_only_the_moving_piece_and_where_it_lands() -> None:
    """Senet (Tait): with a move previewed, the piece's square and its landing square
    are drawn inverted, and no other pixel changes."""
    state = tait_moving()
    move = board_move(state)
    assert isinstance(move.src, int) and isinstance(move.dst, int)
    plain = draw_board(board_model(state))
    shown = draw_board(board_model(state, highlight=move))
    from companion.ui.games.boards.senet_tait import square_box

    changed = ImageChops.difference(plain.convert("L"), shown.convert("L"))
    for square in (move.src, move.dst):
        x0, y0, x1, y1 = square_box(square, (128, 64))
        box = (x0, y0, x1 + 1, y1 + 1)
        inverse = bytes(255 - v for v in plain.crop(box).convert("L").tobytes())
        assert shown.crop(box).convert("L").tobytes() == inverse, f"square {square} is not drawn inverted"
        changed.paste(0, box)
    assert changed.getbbox() is None, "pixels changed outside the two squares"


def test_the_blink_frame_shows_the_piece_where_it_lands() -> None:
    """The second frame shows the position as the move leaves it (the same squares
    inverted): the piece is gone from its square and stands on the landing square."""
    state = tait_moving()
    move = board_move(state)
    frame = board_model(state, highlight=move)
    moved = [p for p in frame.pieces]
    from companion.ui.games.boards.pixels import shown_pieces

    second = shown_pieces(frame, blink=True)
    assert sorted(map(repr, second)) != sorted(map(repr, moved))
    assert any(p.square == move.dst and p.player == state.current_player for p in second)
    assert not any(p.square == move.src for p in second)
    assert draw_board(frame).tobytes() != draw_board(frame, blink=True).tobytes()


def test_entering_from_the_plinth_inverts_the_plinth_count() -> None:
    """A piece entering comes from the plinth: the plinth count of its side is shown
    inverted beside the landing square, and the blink frame counts one fewer."""
    state = until("senet-tait", 2, 7, lambda s: any(m.kind == "enter" for m in s.legal_moves()))
    move = next(m for m in state.legal_moves() if m.kind == "enter")
    board = board_model(state, highlight=move)
    assert board.highlight is not None and board.highlight.src_zone is PieceZone.OUTSIDE
    before = board.count(state.current_player, PieceZone.OUTSIDE)
    from companion.ui.games.boards.pixels import shown_pieces

    second = shown_pieces(board, blink=True)
    assert sum(1 for p in second if p.player == state.current_player and p.zone is PieceZone.OUTSIDE) == before - 1
    plain = draw_board(board_model(state))
    box = cell_box(plain, draw_board(board))
    assert box is not None and box[3] > 40, "the counts below the board change"


def test_a_move_carried_on_by_a_jump_previews_the_count_and_where_the_jump_ends() -> None:
    """Labyrinth 'Field 6 -- Free passage. When you land here, advance your piece to 12.':
    the preview's path is the field the count reaches, then where the jump leaves it,
    and the strip drawn holds the piece's field and both."""
    state = until("labyrinth", 2, 4, jumping)
    move = jump_move(state)
    board = board_model(state, highlight=move)
    h = board.highlight
    assert h is not None and h.src == move.src and h.path[0] == move.dst and len(h.path) == 2
    first = labyrinth_board.window(board, 24)
    assert all(first <= f < first + 24 for f in (h.src, *h.path) if isinstance(f, int))


def test_the_labyrinth_strip_shows_the_pieces_of_the_player_to_act() -> None:
    state = after("labyrinth", 4, 2, 160)
    board = board_model(state)
    first = labyrinth_board.window(board, 24)
    mine = [p.square for p in board.pieces if p.player == board.to_act and p.zone is PieceZone.BOARD]
    assert mine and any(isinstance(f, int) and first <= f < first + 24 for f in mine)


def test_the_cretan_region_holds_the_player_to_act() -> None:
    from companion.ui.games.boards.cretan_labyrinth import _region

    state = after("cretan-labyrinth", 4, 1, 120)
    board = board_model(state)
    assert board.to_act is not None
    top, left = _region(board, 6, 8)
    cell = board.cell(board.squares_of(board.to_act)[0])
    assert top <= cell.row < top + 6 and left <= cell.col < left + 8


def test_a_preview_of_an_illegal_move_is_refused_with_the_move_named() -> None:
    state = get_game("senet-tait").new_state()
    with pytest.raises(IllegalMoveError, match="'enter 4'"):
        board_model(state, highlight=Move("enter", None, 4, (4,)))


def test_a_panel_too_small_for_a_board_is_refused() -> None:
    board = board_model(get_game("senet-tait").new_state())
    with pytest.raises(ValueError, match="at least 64 x 32"):
        draw_board(board, (48, 32))


def test_only_the_cretan_players_hold_inventories() -> None:
    assert inventory_pages(board_model(get_game("labyrinth").new_state())) == 0
    with pytest.raises(ValueError, match="hold no inventories"):
        draw_inventories(board_model(get_game("senet-tait").new_state()))
    board = board_model(get_game("cretan-labyrinth").new_state(4))
    assert inventory_pages(board) == 1
    with pytest.raises(ValueError, match="page 1 does not exist"):
        draw_inventories(board, page=1)


def test_pieces_in_words_at_the_start_and_in_play() -> None:
    assert pieces_in_words(get_game("senet-sticks").new_state(), 40) == [
        "Red: 5 on 1, 2, 3, 4, 5",
        "Blue: 5 on 26, 27, 28, 29, 30",
    ]
    assert pieces_in_words(get_game("labyrinth").new_state(3), 21) == [
        "Red: 4 outside", "Blue: 4 outside", "Green: 4 outside",
    ]
    assert pieces_in_words(get_game("cretan-labyrinth").new_state(2), 40) == [
        "Player 1: on gate1, own gateway", "Player 2: on gate3, own gateway",
    ]
    state = until("labyrinth", 3, 1, trapped)
    assert isinstance(state, LabyrinthState)
    _, field, turns = state.trapped()[0]
    words = " ".join(pieces_in_words(state, 60))
    assert f"{field} (loses {turns})" in words


def test_senet_pieces_borne_off_and_on_the_plinth_are_counted_in_words() -> None:
    state = get_game("senet-tait").state_from_dict({
        "format": "board-companion/position", "version": 1, "game": "senet-tait",
        "to_act": "white", "throw": None,
        "pieces": {"black": [12, 15, 26, "off", "off"], "white": [1, "plinth", "plinth", "plinth", "off"]},
    })
    assert pieces_in_words(state, 21) == [
        "Black: 3 on 12, 15,", "  26; 2 off",
        "White: 1 on 1;", "  3 on the plinth;", "  1 off",
    ]


def test_the_svg_is_well_formed_and_draws_every_piece_on_the_board() -> None:
    for game_id, players in (("senet-tait", 2), ("senet-sticks", 2), ("labyrinth", 4), ("cretan-labyrinth", 3)):
        state = after(game_id, players, 11, 50)
        board = board_model(state, highlight=first_move(state))
        root = ET.fromstring(board_svg(board))
        groups = root.iter("{http://www.w3.org/2000/svg}g")
        pieces = [g for g in groups if "piece" in g.get("class", "").split()]
        assert len(pieces) == sum(1 for p in board.pieces if p.zone is PieceZone.BOARD)
        moving = [g for g in pieces if "moving" in g.get("class", "")]
        assert len(moving) == (1 if board.highlight and board.highlight.src is not None else 0)


def test_a_long_board_of_one_row_is_folded_to_fit_the_panel(tmp_path: Path) -> None:
    """A board file whose track is one row of 60 squares (``rows`` left at 1) is drawn
    folded boustrophedon, every plinth inside the panel."""
    from companion.rules.senet_sticks_board import DEFAULT_BOARD

    text = DEFAULT_BOARD.read_text(encoding="utf-8")
    text = text.replace("squares = 30", "squares = 60").replace("rows = 6", "rows = 1")
    text = text.replace("columns = 5", "columns = 60")
    path = tmp_path / "long.toml"
    path.write_text(text, encoding="utf-8")
    state = get_game("senet-sticks", board=str(path)).new_state()
    board = board_model(state)
    from companion.ui.games.boards import senet_sticks

    for size in ((128, 64), (128, 32)):
        canvas = Image.new("1", (size[0] + 24, size[1] + 24), 0)
        senet_sticks.draw(board, size, False, canvas)
        panel = canvas.crop((0, 0, *size))
        canvas.paste(0, (0, 0, *size))
        assert canvas.getbbox() is None, f"drawn outside the {size} panel"
        assert panel.getbbox() is not None
    assert pieces_in_words(state, 40)[1] == "Blue: 5 on 56, 57, 58, 59, 60"


def test_a_crowded_sanctuary_in_the_last_column_stays_inside_the_panel() -> None:
    """Found by the property test (4 players, seed 106): three pieces on the sanctuary 58,
    drawn as a token and ``+2`` in the strip's last column (a pixel narrower than the
    others) on a 128x32 panel, ran two pixels past the right edge."""
    state = get_game("labyrinth").state_from_dict({
        "format": "board-companion/position", "version": 1, "game": "labyrinth", "players": 4,
        "to_act": "red", "dice": [6, 2],
        "pieces": {
            "red": [51, "outside", "outside", "outside"], "blue": [58, 58, "outside", "outside"],
            "green": [58, "outside", "outside", "outside"], "yellow": ["outside"] * 4,
        },
    })
    board = board_model(state, highlight=state.parse_move("51-57"))
    assert labyrinth_board.window(board, 8) == 51  # 51 .. 58: the sanctuary in the last column
    canvas = Image.new("1", (128 + 24, 32 + 24), 0)
    labyrinth_board.draw(board, (128, 32), False, canvas)
    canvas.paste(0, (0, 0, 128, 32))
    assert canvas.getbbox() is None


def test_a_long_flight_on_pegasus_shows_where_it_lands() -> None:
    """Pegasus flies 'to any square': when the piece's square and the landing do not fit
    one region, the region shows the landing, inverted."""
    from companion.ui.games.boards.cretan_labyrinth import _region

    state = until("cretan-labyrinth", 2, 1, lambda s: any(m.kind == "fly" for m in s.legal_moves()))
    flights = [m for m in state.legal_moves() if m.kind == "fly"]
    board = board_model(state)
    src = board.cell(board.squares_of(state.current_player)[0])

    def distance(move: Move) -> int:
        assert move.dst is not None
        dst = board.cell(move.dst)
        return abs(dst.row - src.row) + abs(dst.col - src.col)

    far = max(flights, key=distance)
    assert far.dst is not None and distance(far) > 8
    shown = board_model(state, highlight=far)
    top, left = _region(shown, 6, 8)
    landing = shown.cell(far.dst)
    assert top <= landing.row < top + 6 and left <= landing.col < left + 8


def test_a_jump_longer_than_the_strip_shows_where_the_piece_ends() -> None:
    """'Field 42 -- Instead of doubling your move with the Goose symbol, advance to field
    56.' On a one-row strip (128x32) 40 and 56 do not fit together: the strip shows 56."""
    state = get_game("labyrinth").state_from_dict({
        "format": "board-companion/position", "version": 1, "game": "labyrinth", "players": 2,
        "to_act": "red", "dice": [2, 3],
        "pieces": {"red": [40, "outside", "outside", "outside"], "blue": ["outside"] * 4},
    })
    board = board_model(state, highlight=state.parse_move("40-42 to 56"))
    first = labyrinth_board.window(board, 8)
    assert first <= 56 < first + 8
    assert labyrinth_board.window(board, 24) <= 40  # three rows hold all of it


def test_pieces_sharing_a_sanctuary_are_counted_once_in_words() -> None:
    """'Fields 1 through 5 -- Any number of pieces may share these spaces.'"""
    state = get_game("labyrinth").state_from_dict({
        "format": "board-companion/position", "version": 1, "game": "labyrinth", "players": 2,
        "to_act": "red", "dice": None,
        "pieces": {"red": [1, 1, 31, "outside"], "blue": [1, "off", "off", "off"]},
    })
    assert pieces_in_words(state, 40) == [
        "Red: 3 on 1 x2, 31; 1 outside", "Blue: 1 on 1; 3 borne off",
    ]


def test_boards_of_one_position_are_equal_and_hash_alike() -> None:
    """So that a screen can keep its frames in a cache keyed by the board."""
    state = after("labyrinth", 3, 2, 80)
    move = first_move(state)
    a, b = board_model(state, highlight=move), board_model(state.copy(), highlight=move)
    assert a == b and hash(a) == hash(b)
    assert a != board_model(state)


# ------------------------------------------------- the board pages of a 128x64 panel


class Drawn:
    """The texts a board module draws (its ``draw_text`` and ``tiny`` watched), with where."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, module: object) -> None:
        self.texts: list[tuple[int, int, str]] = []
        for name in ("draw_text", "tiny", "centred_text"):
            original = getattr(module, name, None)
            if original is None:
                continue
            monkeypatch.setattr(module, name, self._watch(name, original))

    def _watch(self, name: str, original: Callable[..., object]) -> Callable[..., object]:
        def watched(image: Image.Image, *args: object, **kwargs: object) -> object:
            where: Any = args[0]
            if name == "tiny":  # tiny(image, x, y, text)
                x, y, text = where, cast(int, args[1]), args[2]
            else:  # draw_text(image, (x, y), text); centred_text(image, box, text)
                x, y, text = where[0], where[1], args[1]
            self.texts.append((int(x), int(y), str(text)))
            return original(image, *args, **kwargs)
        return watched

    def words(self) -> list[str]:
        return [t for _x, _y, t in self.texts]


def test_the_page_is_the_room_between_the_title_and_the_key_line() -> None:
    assert PAGE == (128, 44)


def senet_counts(state: State) -> list[str]:
    """What the line under the Tait board should say: the plinth's counts, then the off ones."""
    pieces = state.pieces()
    return [str(sum(1 for p in pieces if p.player == side and p.zone is zone))
            for zone in (PieceZone.OUTSIDE, PieceZone.OFF) for side in (0, 1)]


def test_the_senet_board_page_says_how_many_pieces_are_on_the_plinth_and_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Was: the page (128 x 44) drew the 30 squares only; where the pieces off the board
    were, only Game status said (issue 23, item 1's cost)."""
    from companion.ui.games.boards import senet_tait as tait_board

    state = until("senet-tait", 2, 7, lambda s: len(s.history) >= 350 and any(
        p.zone is PieceZone.OFF for p in s.pieces()))
    drawn = Drawn(monkeypatch, tait_board)
    draw_board(board_model(state), PAGE)
    below = [(x, t) for x, y, t in drawn.texts if y > 3 * 11]
    words = [t for _x, t in below]
    plinth, off = senet_counts(state)[:2], senet_counts(state)[2:]
    assert words == ["plinth", *plinth, "off", *off]
    assert all(x + len(t) * 6 - 1 <= PAGE[0] for x, t in below), "the line runs off the panel"
    on_board = sum(1 for p in state.pieces() if p.zone is PieceZone.BOARD)
    assert on_board + sum(map(int, words[1:3] + words[4:])) == 10  # every piece is somewhere


def test_the_senet_page_line_fits_in_every_language(monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.i18n import _, languages, pgettext, set_language
    from companion.ui.games.boards import senet_tait as tait_board

    state = tait_moving()
    try:
        for code in languages():
            set_language(code)
            drawn = Drawn(monkeypatch, tait_board)
            draw_board(board_model(state), PAGE)
            below = [(x, t) for x, y, t in drawn.texts if y > 3 * 11]
            assert [t for _x, t in below][::3] == [_("plinth"), pgettext("pieces borne off, short", "off")], code
            assert all(x + len(t) * 6 - 1 <= PAGE[0] for x, t in below), code
    finally:
        set_language("en")


def test_entering_from_the_plinth_inverts_the_plinth_count_on_the_page_too() -> None:
    state = until("senet-tait", 2, 7, lambda s: any(m.kind == "enter" for m in s.legal_moves()))
    move = next(m for m in state.legal_moves() if m.kind == "enter")
    box = cell_box(draw_board(board_model(state), PAGE), draw_board(board_model(state, highlight=move), PAGE))
    assert box is not None and box[3] > 3 * 11 + 1, "the line under the board changes"


def test_the_labyrinth_page_shows_two_rows_of_fields_and_the_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Was: one row of 8 fields over the counts, the rest of the page blank."""
    state = after("labyrinth", 4, 2, 160)
    drawn = Drawn(monkeypatch, labyrinth_board)
    draw_board(board_model(state), PAGE)
    # a field's number at its top (a jump's target or a trap's turns sit lower, by the token)
    numbers = [int(t) for x, y, t in drawn.texts if t.isdigit() and y % labyrinth_board.PITCH_Y_SMALL == 2]
    first = labyrinth_board.window(board_model(state), 16)
    assert numbers[:16] == list(range(first, first + 16))
    assert any(t.startswith("Out") for t in drawn.words())  # the pieces outside, still said


def test_the_cretan_page_names_its_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    """Was: no column letters on the page, while the squares beside it say 'e9'."""
    from companion.ui.games.boards import cretan_labyrinth as cretan_board

    state = after("cretan-labyrinth", 4, 1, 120)
    drawn = Drawn(monkeypatch, cretan_board)
    draw_board(board_model(state), PAGE)
    letters = [t for x, y, t in drawn.texts if y == 0 and len(t) == 1 and t.isalpha()]
    assert len(letters) == 8 and "".join(letters) in "abcdefghijklmnopqrstuvwxyz"
    rows = [t for x, y, t in drawn.texts if x < 12 and t.isdigit()]
    assert len(rows) == 4


def test_the_casting_stick_page_numbers_its_squares(monkeypatch: pytest.MonkeyPatch) -> None:
    """Was: squares of 8 pixels (7 inside) drew no numbers, no Sun and no river."""
    from companion.ui.games.boards import senet_sticks as sticks_board

    state = after("senet-sticks", 2, 3, 40)
    board = board_model(state)
    drawn = Drawn(monkeypatch, sticks_board)
    draw_board(board, PAGE)
    occupied = {p.square for p in board.pieces if p.zone is PieceZone.BOARD}
    plain = [c.label for c in board.cells if c.square not in occupied and not c.marks]
    assert plain and set(plain) <= set(drawn.words())


@pytest.mark.parametrize(("game_id", "module", "english", "german"), [
    ("labyrinth", "labyrinth", ("Out", "Off"), ("Vor", "Ab")),
    ("senet-sticks", "senet_sticks", ("Abyss",), ("Abgrund", "A")),
    ("senet-tait", "senet_tait", ("plinth", "off"), ("Sockel", "ab")),
])
def test_the_page_counts_are_in_the_language_in_use(
        monkeypatch: pytest.MonkeyPatch, game_id: str, module: str,
        english: tuple[str, ...], german: tuple[str, ...]) -> None:
    """Was: the Labyrinth's "Out"/"Off" and the casting sticks' "Abyss" stayed English in
    German, and Senet's borne-off count said "aus" (the Settings' "switched off")."""
    import importlib

    from companion.i18n import set_language

    state = {"labyrinth": lambda: after("labyrinth", 4, 2, 160),
             "senet-sticks": lambda: after("senet-sticks", 2, 3, 40),
             "senet-tait": tait_moving}[game_id]()
    board_module = importlib.import_module(f"companion.ui.games.boards.{module}")
    try:
        said = {}
        for code in ("en", "de"):
            set_language(code)
            drawn = Drawn(monkeypatch, board_module)
            draw_board(board_model(state), PAGE)
            said[code] = {w for text in drawn.words() for w in text.split()}
    finally:
        set_language("en")
    assert english[0] in said["en"], said["en"]
    assert set(german) & said["de"], said["de"]
    assert not (set(english) | {"aus"}) & said["de"], said["de"]
