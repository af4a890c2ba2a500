"""Lookup tables for ``Image.point``, checked once.

Given a plain list, Pillow rounds every entry of the table each time it is used (768 calls of ``round`` for an RGB
table), which cost more than the lookup itself on a tile-sized picture: the follower spots picture dims up to eight
neighbours that way for every follower decision, the timelapse masks every frame. A ``Lookup`` holds whole numbers
already and hands them to Pillow's lookup as they are; the pixels are the same.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image
from PIL.Image import ImagePointHandler


class Lookup(ImagePointHandler):
    """A table for ``image.point(lookup)``: 256 whole numbers per band of the image (``mode``: the result's, as
    ``Image.point`` takes it; None keeps the image's)."""

    def __init__(self, table: Sequence[int], mode: str | None = None) -> None:
        if any(not isinstance(v, int) or isinstance(v, bool) for v in table):
            raise TypeError("a Lookup holds whole numbers")
        self.table = list(table)
        self.mode = mode

    def point(self, im: Image.Image) -> Image.Image:
        return im._new(im.im.point(self.table, self.mode))
