"""Rounded rectangles drawn once and pasted again: the scoreboard's cards and badges, the follower spots' name tags.

Pillow draws a rounded rectangle in Python (four pie slices, the rectangles between them, the outline's corners):
35-55 us, 50-80 with an outline. Its pixels are not blended (no anti-aliasing), so a rectangle drawn once at (0, 0),
with a mask of the pixels it drew, and pasted through that mask is exactly the rectangle drawn in place, wherever a
whole-pixel box puts it: about 25 us for a scoreboard's card, 12 for a name tag.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from render.palette import RGB
from render.pasting import paste


# A scoreboard card is about 95 KiB here (four bytes a pixel, and its mask), a name tag about 12: the few sizes a
# game draws stay, and 128 of the largest would be 12 MiB.
@lru_cache(maxsize=128)
def _stamp(
    width: int, height: int, radius: int, fill: RGB | None, outline: RGB | None, line: int
) -> tuple[Image.Image, Image.Image]:
    """The rectangle ``[0, 0, width, height]`` drawn in RGB, and which of its pixels it drew (a mode "1" mask: a
    paste through it copies those and leaves the rest, three times faster than through an alpha band)."""
    img = Image.new("RGBA", (width + 1, height + 1), (0, 0, 0, 0))
    ImageDraw.Draw(img).rounded_rectangle([0, 0, width, height], radius=radius, fill=fill, outline=outline, width=line)
    return img.convert("RGB"), img.getchannel("A").convert("1")


def _whole(value: float) -> bool:
    return float(value).is_integer()


def rounded_rectangle(
    draw: ImageDraw.ImageDraw,
    box: Sequence[float],
    radius: int,
    fill: RGB | None = None,
    outline: RGB | None = None,
    width: int = 1,
) -> None:
    """``draw.rounded_rectangle(box, radius, fill, outline, width)``, the same pixels: pasted from the rectangle
    drawn once, where it can be (an RGB picture drawn without blending, a box of whole pixels, colours as RGB);
    drawn by Pillow otherwise."""
    image = getattr(draw, "_image", None)
    x0, y0, x1, y1 = box
    if (
        isinstance(image, Image.Image)
        and image.mode == "RGB"
        and draw.mode == "RGB"
        and all(_whole(v) for v in box)
        and x1 >= x0
        and y1 >= y0
        and all(colour is None or len(colour) == 3 for colour in (fill, outline))
    ):
        pixels, drawn = _stamp(int(x1 - x0), int(y1 - y0), radius, fill, outline, width)
        paste(image, pixels, (int(x0), int(y0)), drawn)
        return
    draw.rounded_rectangle(list(box), radius=radius, fill=fill, outline=outline, width=width)
