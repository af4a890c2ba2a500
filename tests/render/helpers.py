"""Shared helpers for the image tests: replays, pixel probes."""

from __future__ import annotations

import io
import tempfile
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops

from engine.replay import play
from render.timelapse import turns


def carcassonne_replay(
    actions: list[dict[str, Any]], deck: list[str], players: list[str] | None = None, **options: Any
) -> dict[str, Any]:
    return {
        "format": "boardhost-replay",
        "version": 1,
        "game": "carcassonne",
        "players": players or ["Alice", "Bob"],
        "seed": 1,
        "options": {"river": False, "deck": deck, **options},
        "actions": actions,
    }


def view_after(data: dict[str, Any], limit: int | None = None, seat: int | None = None) -> dict[str, Any]:
    return play(data, limit=limit).view(seat)


def decode(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img.convert("RGB")


def close(a: tuple[int, ...], b: tuple[int, ...], tol: int = 12) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=False))


def share(img: Image.Image, xy: tuple[int, int], colour: tuple[int, int, int], radius: int = 3, tol: int = 12) -> float:
    """Fraction of the pixels in the square of ``radius`` around ``xy`` that are close to ``colour``."""
    x0, y0 = xy
    hits = total = 0
    for y in range(y0 - radius, y0 + radius + 1):
        for x in range(x0 - radius, x0 + radius + 1):
            total += 1
            px = img.getpixel((x, y))
            assert isinstance(px, tuple)
            hits += close(px, colour, tol)
    return hits / total


def turn_count(data: bytes) -> int:
    """How many turns (pictures a person sees for longer than a blink) an animated timelapse shows."""
    img = Image.open(io.BytesIO(data))
    return len(turns(img))


def differs(first: bytes, second: bytes) -> str:
    """Why two pictures that should be the same bytes are not (empty when they are): whether their pixels differ and
    where, with both kept in a temporary folder. A PNG of the same pixels may still be another deflate stream, and a
    byte comparison alone says neither which nor where."""
    if first == second:
        return ""
    folder = Path(tempfile.mkdtemp(prefix="boardhost-differs-"))
    (folder / "first.png").write_bytes(first)
    (folder / "second.png").write_bytes(second)
    one, two = decode(first), decode(second)
    if one.size != two.size:
        where = f"sizes {one.size} and {two.size}"
    else:
        box = ImageChops.difference(one, two).getbbox()
        where = "the same pixels, another PNG stream" if box is None else f"pixels differ within {box}"
    return f"{len(first)} and {len(second)} bytes, {where}; both kept in {folder}"
