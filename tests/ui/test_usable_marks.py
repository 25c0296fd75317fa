"""Usable and unusable faces of a throw on the 1-bit panel, and a caption that does not fit."""

from __future__ import annotations

from companion.ui.render import PICTURE_H, TITLE_H, render
from companion.ui.view import ThrowPicture, View

TOP = TITLE_H + 2


def picture(faces: tuple[str, ...], usable: tuple[bool, ...] = (), caption: str = "", kind: str = "coloured") -> View:
    return View("moves", "Red threw", items=("plinth on 4",), picture=ThrowPicture(kind, faces, caption, usable=usable))


def lit(view: View, box: tuple[int, int, int, int]) -> float:
    """The share of lit pixels in ``box`` of the rendered view."""
    crop = render(view).crop(box).convert("L")
    return crop.histogram()[255] / (crop.width * crop.height)


def test_a_usable_face_is_lit_and_an_unusable_one_is_not() -> None:
    # "2 red" is 29 pixels of text in a box of 34 from x=2
    box = (2, TOP, 2 + 34, TOP + PICTURE_H)
    assert lit(picture(("2:red",), (True,)), box) > 0.6
    assert lit(picture(("2:red",), (False,)), box) < 0.4
    plain = render(picture(("2:red",))).crop(box).tobytes()
    assert render(picture(("2:red",), (False,))).crop(box).tobytes() != plain   # dotted and struck
    assert render(picture(("2:red",), (True,))).crop(box).tobytes() != plain


def test_dice_can_be_marked_too() -> None:
    box = (2, TOP, 2 + PICTURE_H, TOP + PICTURE_H)
    assert lit(picture(("5",), (True,), kind="dice"), box) > 0.6
    assert lit(picture(("5",), (False,), kind="dice"), box) < 0.4


def test_a_caption_with_no_room_left_is_left_out() -> None:
    faces = ("2:red", "3:blue", "4", "2")
    with_caption = render(picture(faces, caption="2+3+4+2"))
    assert with_caption.tobytes() == render(picture(faces)).tobytes()
    # with room, it is drawn
    assert render(picture(("4",), caption="4")).tobytes() != render(picture(("4",))).tobytes()
