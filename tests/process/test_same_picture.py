"""The process tests compare what the bot posted with what the test draws by picture, not by bytes: a PNG of the same
rows is not always the same deflate stream (the bot once posted a turn image 4 bytes longer than the test's, every
pixel the same), and a picture that differs by one pixel is still caught."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render import png
from render.timelapse import timelapse
from tests.process.secrets import same_picture
from tests.render.test_timelapse import whole_game


def board() -> Image.Image:
    img = Image.new("RGB", (700, 600), (30, 34, 40))
    for i in range(0, 700, 35):
        img.paste((200, 160 + i % 90, 90), (i, (i * 7) % 500, i + 30, (i * 7) % 500 + 80))
    return img


def test_the_same_rows_deflated_in_other_bands_are_the_same_picture(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(png, "band_threads", 1)
    one = png.encode(board())
    monkeypatch.setattr(png, "band_threads", 3)
    three = png.encode(board())
    assert one != three and same_picture(one, three)


def test_one_pixel_or_one_turn_of_difference_is_another_picture() -> None:
    changed = board()
    changed.putpixel((350, 599), (31, 34, 40))
    assert not same_picture(png.encode(board()), png.encode(changed))
    smaller = board().crop((0, 0, 700, 599))
    assert not same_picture(png.encode(board()), png.encode(smaller))
    views = whole_game(2, {}, 1)
    whole = timelapse(views, formats=("webp",)).data
    assert same_picture(whole, whole)
    assert not same_picture(whole, timelapse(views[:-1], formats=("webp",)).data)
    out = io.BytesIO()
    board().save(out, "GIF")
    assert not same_picture(png.encode(board()), out.getvalue())
