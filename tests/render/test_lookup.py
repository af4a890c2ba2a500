"""A lookup table made once gives the pixels Pillow's own list table gives, without rounding it on every use."""

from __future__ import annotations

import random

import pytest
from PIL import Image

from render.carcassonne.board import shade, shade_table
from render.lookup import Lookup


def noise(mode: str, seed: int) -> Image.Image:
    rng = random.Random(seed)
    bands = len(mode)
    return Image.frombytes(mode, (37, 23), bytes(rng.randrange(256) for _ in range(37 * 23 * bands)))


@pytest.mark.parametrize("mode", ["RGB", "L"])
def test_a_lookup_gives_the_same_pixels_as_the_plain_table(mode: str) -> None:
    rng = random.Random(mode)
    table = [rng.randrange(256) for _ in range(256 * len(mode))]
    img = noise(mode, 1)
    assert img.point(Lookup(table)).tobytes() == img.point(table).tobytes()


def test_a_lookup_may_change_the_mode_as_pillows_table_does() -> None:
    img = noise("L", 2)
    kept = [255] + [0] * 255
    assert img.point(Lookup(kept, "1")).tobytes() == img.point(kept, "1").tobytes()
    assert img.point(Lookup(kept, "1")).mode == "1"


def test_the_neighbours_of_the_spots_picture_are_dimmed_as_by_the_board_backgrounds_table() -> None:
    tile = noise("RGB", 3)
    assert tile.point(shade()).tobytes() == tile.point(shade_table()).tobytes()


def test_a_lookup_refuses_what_is_not_a_whole_number() -> None:
    with pytest.raises(TypeError, match="whole numbers"):
        Lookup([0.5] * 256)  # type: ignore[list-item]
    with pytest.raises(TypeError, match="whole numbers"):
        Lookup([True] * 256)
