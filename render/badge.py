"""The round numbered badge both games draw on their previews (legal cells, intersections, tower heights)."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from render import fonts
from render.palette import INK, PAPER, RGB


@lru_cache(maxsize=1024)
def badge(text: str, size: int, fill: RGB = PAPER, ink: RGB = INK, ring: RGB | None = None) -> Image.Image:
    """A round badge with ``text`` (legal-cell numbers, tower heights), ``size`` px across. RGBA."""
    s = size * 2
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.ellipse([1, 1, s - 2, s - 2], fill=fill, outline=ring or ink, width=max(2, s // 14))
    fsize = round(s * (0.5 if len(text) <= 2 else 0.38))
    fonts.draw_text(d, (s / 2, s / 2), text, fsize, ink, bold=True, anchor="mm")
    return img.reduce(2)
