"""Bundled fonts, a fallback chain, and text drawing that never shows a missing-glyph box.

The chain is DejaVu Sans (Latin, Greek, Cyrillic, symbols) then Droid Sans Fallback (Chinese simplified and
traditional, Japanese kana, Hangul). A character that no font of the chain maps to a real glyph (most emoji) is
left out. Fonts and coverage answers are cached; FreeType font objects are shared between threads only for
read-only calls guarded by one lock, so every function here is safe to call from ``asyncio.to_thread``.
"""

from __future__ import annotations

import threading
import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

from PIL import Image, ImageDraw, ImageFont

FONT_DIR: Final = Path(__file__).resolve().parent / "fonts"
REGULAR: Final = ("DejaVuSans.ttf", "DroidSansFallbackFull.ttf")
BOLD: Final = ("DejaVuSans-Bold.ttf", "DroidSansFallbackFull.ttf")

# FreeType faces are not documented as thread-safe; every use of a face goes through this lock.
_LOCK: Final = threading.RLock()
# A code point no font maps: its rendering is the font's .notdef glyph.
_PROBE: Final = "\U0010fffd"

Run = tuple[str, int]  # text and index of the font in the chain that draws it
RGBA = tuple[int, int, int, int]
Colour = tuple[int, int, int] | RGBA


class StampingFont(ImageFont.FreeTypeFont):
    """A font that keeps the glyph masks it has rendered: board images draw the same cell numbers, coordinates,
    names and scores again and again, and rendering them is half of drawing a board. Pillow asks the font for
    the mask of each text at its sub-pixel start; the same question gets the same (unchanged) mask back, so the
    pictures are exactly those of a plain font."""

    LIMIT: Final = 4096  # masks kept per font and size (a few hundred bytes each)

    def __init__(self, path: str, size: int) -> None:
        super().__init__(path, size, layout_engine=ImageFont.Layout.BASIC)
        self._masks: dict[tuple[object, ...], tuple[Any, tuple[int, int]]] = {}

    def getmask2(
        self,
        text: str | bytes,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
        stroke_width: float = 0,
        anchor: str | None = None,
        ink: int = 0,
        start: tuple[float, float] | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> tuple[Any, tuple[int, int]]:
        if mode == "RGBA" or args:  # Pillow changes colour masks after drawing them: never share those
            return super().getmask2(
                text, mode, direction, features, language, stroke_width, anchor, ink, start, *args, **kwargs
            )
        key = (text, mode, direction, tuple(features or ()), language, stroke_width, anchor, ink, start,
               tuple(sorted(kwargs.items())))  # fmt: skip
        found = self._masks.get(key)
        if found is None:
            found = super().getmask2(
                text, mode, direction, features, language, stroke_width, anchor, ink, start, **kwargs
            )
            if len(self._masks) >= self.LIMIT:
                self._masks.clear()
            self._masks[key] = found
        return found


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False, index: int = 0) -> ImageFont.FreeTypeFont:
    """The ``index``-th font of the (bold) chain at ``size`` pixels."""
    name = (BOLD if bold else REGULAR)[index]
    with _LOCK:
        return StampingFont(str(FONT_DIR / name), size)


def chain_length() -> int:
    return len(REGULAR)


@lru_cache(maxsize=8)
def _notdef(index: int, bold: bool) -> tuple[tuple[int, int], bytes]:
    f = font(24, bold, index)
    with _LOCK:
        mask = f.getmask(_PROBE)
        return mask.size, bytes(mask)


@lru_cache(maxsize=65536)
def covers(index: int, ch: str, bold: bool = False) -> bool:
    """Whether font ``index`` of the chain has a real glyph for ``ch`` (not its .notdef box)."""
    f = font(24, bold, index)
    with _LOCK:
        mask = f.getmask(ch)
        got = (mask.size, bytes(mask))
    return got != _notdef(index, bold)


def _invisible(ch: str) -> bool:
    """Control and format characters (zero-width joiners, variation selectors) that draw nothing anyway."""
    return unicodedata.category(ch) in ("Cc", "Cf", "Mn") or 0xFE00 <= ord(ch) <= 0xFE0F


@lru_cache(maxsize=4096)
def runs(text: str, bold: bool = False) -> tuple[Run, ...]:
    """Split ``text`` into runs drawn by one font each, leaving out characters that no font covers."""
    out: list[Run] = []
    for ch in text:
        if ch == " ":
            index = out[-1][1] if out else 0
        elif _invisible(ch):
            continue
        else:
            found = next((i for i in range(chain_length()) if covers(i, ch, bold)), -1)
            if found < 0:
                continue
            index = found
        if out and out[-1][1] == index:
            out[-1] = (out[-1][0] + ch, index)
        else:
            out.append((ch, index))
    return tuple(out)


def clean(text: str, bold: bool = False) -> str:
    """``text`` with every character no bundled font covers removed, spaces collapsed."""
    return " ".join("".join(t for t, _ in runs(text, bold)).split())


@lru_cache(maxsize=4096)
def text_width(text: str, size: int, bold: bool = False) -> int:
    total = 0.0
    for part, index in runs(text, bold):
        f = font(size, bold, index)
        with _LOCK:
            total += f.getlength(part)
    return round(total)


def fit(text: str, size: int, width: int, bold: bool = False) -> str:
    """``text`` cut with an ellipsis so that it is at most ``width`` pixels wide."""
    text = clean(text, bold)
    if text_width(text, size, bold) <= width:
        return text
    while text and text_width(text + "…", size, bold) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: Colour,
    *,
    bold: bool = False,
    anchor: str = "ls",
    stroke: int = 0,
    stroke_fill: Colour | None = None,
) -> int:
    """Draw ``text`` with the fallback chain; ``anchor`` is l/m/r + s (baseline) or m (middle). Returns width."""
    parts = runs(text, bold)
    width = sum(text_width(p, size, bold) for p, _ in parts)
    x, y = xy
    if anchor[0] == "m":
        x -= width / 2
    elif anchor[0] == "r":
        x -= width
    vertical = anchor[1]
    if vertical == "m":
        # middle of the Latin x-height band, so that mixed scripts share one line
        y += round(size * 0.36)
    elif vertical == "t":
        y += round(size * 0.8)
    for part, index in parts:
        f = font(size, bold, index)
        with _LOCK:
            draw.text((x, y), part, font=f, fill=fill, anchor="ls", stroke_width=stroke, stroke_fill=stroke_fill)
            x += f.getlength(part)
    return width


def text_image(text: str, size: int, fill: Colour, bold: bool = False) -> Image.Image:
    """A tight RGBA image of ``text`` (used by tests to check that names draw)."""
    width = max(1, text_width(text, size, bold))
    img = Image.new("RGBA", (width + 4, size * 2), (0, 0, 0, 0))
    draw_text(ImageDraw.Draw(img), (2, round(size * 1.4)), text, size, fill, bold=bold)
    return img
