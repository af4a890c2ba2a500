"""Pasting without Pillow's checks draws what ``Image.paste`` draws, whatever it is given."""

from __future__ import annotations

import random

import pytest
from PIL import Image

from render.carcassonne.board import SPOT_TILE, shade, shaded_tile
from render.carcassonne.sprites import tile_sprite
from render.pasting import fill, paste


def noise(mode: str, size: tuple[int, int], seed: int) -> Image.Image:
    rng = random.Random(seed)
    bands = len(mode)
    return Image.frombytes(mode, size, bytes(rng.randrange(256) for _ in range(size[0] * size[1] * bands)))


@pytest.mark.parametrize(
    ("canvas_mode", "picture_mode", "mask_mode"),
    [
        ("RGB", "RGB", None),
        ("RGB", "RGBA", None),  # Pillow pastes RGBA on RGB as it is
        ("RGB", "RGBA", "RGBA"),  # a sprite through its own alpha
        ("RGB", "RGB", "L"),
        ("RGB", "L", None),  # converted by Pillow: the fallback
        ("RGB", "L", "1"),
        ("RGBA", "RGBA", "RGBA"),
        ("L", "L", "L"),
    ],
)
@pytest.mark.parametrize("at", [(3, 4), (-5, 2), (20, 17), (0, 0)])  # inside, over the left edge, over the corner
def test_a_picture_is_pasted_as_pillow_pastes_it(
    canvas_mode: str, picture_mode: str, mask_mode: str | None, at: tuple[int, int]
) -> None:
    picture = noise(picture_mode, (9, 7), 2)
    mask = noise(mask_mode, (9, 7), 3) if mask_mode else None
    ours = noise(canvas_mode, (24, 20), 1)
    theirs = ours.copy()
    paste(ours, picture, at, mask)
    theirs.paste(picture, at, mask)
    assert ours.tobytes() == theirs.tobytes()


def test_a_canvas_shared_copy_on_write_is_not_written_through() -> None:
    """A canvas made from a buffer is read-only until Pillow copies it: the fallback does so, the buffer stays."""
    for write in (
        lambda canvas: paste(canvas, Image.new("RGBA", (2, 2), (200, 10, 10, 255)), (1, 1)),
        lambda canvas: fill(canvas, (200, 10, 10, 255), (1, 1, 3, 3)),
    ):
        buffer = bytearray(4 * 4 * 4)
        canvas = Image.frombuffer("RGBA", (4, 4), buffer, "raw", "RGBA", 0, 1)
        assert canvas.readonly
        write(canvas)
        assert canvas.getpixel((1, 1)) == (200, 10, 10, 255)
        assert bytes(buffer) == bytes(4 * 4 * 4)


@pytest.mark.parametrize("box", [(0, 0, 24, 20), (3, 5, 4, 19), (2, 2, 30, 3), (5, 5, 5, 9)])
def test_a_box_is_filled_as_pillow_fills_it(box: tuple[int, int, int, int]) -> None:
    ours = noise("RGB", (24, 20), 4)
    theirs = ours.copy()
    fill(ours, (12, 34, 56), box)
    theirs.paste((12, 34, 56), box)
    assert ours.tobytes() == theirs.tobytes()


def test_a_neighbour_in_the_follower_spots_picture_is_the_tile_dimmed() -> None:
    for tile, rotation in (("A", 0), ("D", 90), ("V", 270)):
        dimmed = tile_sprite(tile, rotation, SPOT_TILE).point(shade())
        assert shaded_tile(tile, rotation).tobytes() == dimmed.tobytes()
        assert shaded_tile(tile, rotation) is shaded_tile(tile, rotation)  # dimmed once
