"""Rounded rectangles pasted from one drawn once are the rectangles Pillow draws in place (render/rounded.py)."""

from __future__ import annotations

import random

import pytest
from PIL import Image, ImageDraw

from render.rounded import rounded_rectangle


def busy(seed: int) -> Image.Image:
    """A picture with something different under every pixel, so that a stamp that touched a pixel it should not
    (its transparent corners) shows."""
    return Image.frombytes("RGB", (240, 160), random.Random(seed).randbytes(240 * 160 * 3))


@pytest.mark.parametrize(
    ("radius", "fill", "outline", "width"),
    [
        (10, (40, 44, 52), None, 0),  # a card
        (10, (52, 58, 70), (250, 200, 40), 3),  # the card of the player to move
        (6, (250, 200, 40), None, 1),  # a badge on a card
        (8, (250, 245, 230), (20, 20, 20), 2),  # a follower spot's name tag
        (12, None, (200, 0, 0), 4),  # an outline alone
    ],
)
def test_a_rounded_rectangle_pasted_again_is_the_one_pillow_draws_in_place(
    radius: int, fill: tuple[int, int, int] | None, outline: tuple[int, int, int] | None, width: int
) -> None:
    boxes = [(10, 12, 110, 60), (3, 90, 230, 150), (200, 5, 300, 40), (-20, -8, 30, 30), (50, 70, 57, 74)]
    boxes += [(40.5, 20, 90.5, 50)]  # not whole pixels: drawn by Pillow, the same as ever
    for seed, box in enumerate(boxes):
        stamped, plain = busy(seed), busy(seed)
        for _ in range(2):  # drawn, then pasted from what was drawn
            rounded_rectangle(ImageDraw.Draw(stamped), box, radius, fill=fill, outline=outline, width=width)
        ImageDraw.Draw(plain).rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)
        ImageDraw.Draw(plain).rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)
        assert stamped.tobytes() == plain.tobytes(), box


def test_a_picture_that_blends_or_is_not_rgb_is_drawn_by_pillow() -> None:
    for mode, draw_mode, fill in (("RGBA", "RGBA", (250, 200, 40, 120)), ("RGB", "RGBA", (250, 200, 40, 120))):
        stamped = Image.new(mode, (80, 60), (30, 60, 90))
        plain = stamped.copy()
        rounded_rectangle(ImageDraw.Draw(stamped, draw_mode), (5, 5, 70, 50), 9, fill=fill)  # type: ignore[arg-type]
        ImageDraw.Draw(plain, draw_mode).rounded_rectangle((5, 5, 70, 50), radius=9, fill=fill)
        assert stamped.tobytes() == plain.tobytes()
