"""Pasting a picture or a colour into a canvas without Pillow's argument checks.

A board picture pastes about a hundred sprites (tiles, followers, badges, towers) and fills a few boxes; Pillow's
``Image.paste`` spends about twice the copy itself on finding out what it was given (a box or a corner, a colour
name, a mask, modes to convert, the canvas shared copy-on-write). Here the caller says what it gives: a canvas made
by ``Image.new`` (loaded, its own), a picture of the canvas's mode (or RGBA on RGB, which Pillow pastes as is), a
corner. The same pixels as ``Image.paste``; anything else falls back to it.
"""

from __future__ import annotations

from PIL import Image

_AS_IS = {("RGB", "RGBA"), ("RGB", "LA"), ("RGB", "RGBa")}  # modes Image.paste does not convert either


def paste(canvas: Image.Image, picture: Image.Image, at: tuple[int, int], mask: Image.Image | None = None) -> None:
    """``canvas.paste(picture, at, mask)``."""
    if (picture.mode != canvas.mode and (canvas.mode, picture.mode) not in _AS_IS) or canvas.readonly:
        canvas.paste(picture, at, mask)
        return
    x, y = at
    width, height = picture.size
    box = (x, y, x + width, y + height)
    if mask is None:
        canvas.im.paste(picture.im, box)
    else:
        canvas.im.paste(picture.im, box, mask.im)


def fill(canvas: Image.Image, colour: tuple[int, ...], box: tuple[int, int, int, int]) -> None:
    """``canvas.paste(colour, box)``: ``colour`` a tuple of the canvas's bands."""
    if canvas.readonly:
        canvas.paste(colour, box)
        return
    canvas.im.paste(colour, box)
