"""A game's timelapse: an animated picture of the board growing turn by turn, with the scoreboard beside it.

The frames are the public board after the set-up and at the end of every turn (``engine.history.frames``: spectator
views only), all drawn on one grid (a growing board's frames keep every cell of the final board in view). They
are drawn one at a time and handed straight to two encoders at once, so that a long game never holds more than a
frame or two in memory:

- animated WebP, lossless (board pictures are flat colour and text, which lossy coding smears), with keyframes
  switched off: each frame is stored as the rectangle that changed since the one before, which keeps both the size
  and the encoding time small (a keyframe every few frames cost 5-8 times the time for no gain here);
- GIF, every frame mapped to one palette made from the first and the last frame (so unchanged pixels stay
  unchanged) and stored as the rectangle that changed.

The smaller of the two is kept; by default each game's timelapse is encoded only in the format that has always come
out smaller for its boards (``GamePictures.timelapse_formats``: WebP for Carcassonne, GIF for Catan), which saves
the time of the other encoder (a third to a half of the whole). If it is over ``limit`` bytes the frames are drawn
smaller and, if need be, every other turn is left out, until it fits. Sizes and times for typical and the largest
games: ``bench/README.md``.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from PIL import GifImagePlugin, Image, ImageChops, features

from render.registry import pictures_of

View = Mapping[str, Any]
Progress = Callable[[int, int], None]  # a frame drawn: its number (from 0) and how many the animation has

MAX_BYTES: Final = 4 * 1024 * 1024  # well under Discord's 10 MiB upload limit
FORMATS: Final = ("webp", "gif")
TOTAL_MS: Final = 24_000  # how long one pass over the turns takes, whatever their number ...
FRAME_MS: Final = (100, 600)  # ... within these bounds per turn
FIRST_MS: Final = 1_000
LAST_MS: Final = 4_000  # the final board stays up a while before the animation starts again
# More turns than this are shown evenly spread (a frame at the shortest time per turn makes 48 s): a game of
# thousands of turns (random players, a long cut-short run) stays a picture worth watching and quick to draw.
MAX_FRAMES: Final = 480
ATTEMPTS: Final = 3  # frame sizes tried, largest first: each game's pictures say which (``GamePictures.frames``)
BACKGROUND: Final = (30, 34, 40)
CLEAR: Final = 255  # the GIF palette's transparent index: the frames' palette has 255 colours, 0-254


@dataclass(frozen=True)
class Animation:
    """An encoded timelapse: ``data`` in ``format`` ("webp" or "gif"), ``frames`` pictures of ``size`` pixels."""

    data: bytes
    format: str
    frames: int
    size: tuple[int, int]


def kept_frames(count: int, most: int = MAX_FRAMES) -> list[int]:
    """The numbers of the frames a timelapse of ``count`` frames shows: all of them, or ``most`` spread evenly
    over the game, the set-up and the final board always among them."""
    if count <= most:
        return list(range(count))
    return sorted({round(i * (count - 1) / (most - 1)) for i in range(most)})


def durations(count: int) -> list[int]:
    """Milliseconds per frame: the set-up a second, each turn an equal share of ``TOTAL_MS``, the end longer."""
    each = max(FRAME_MS[0], min(FRAME_MS[1], TOTAL_MS // max(1, count - 2)))
    out = [each] * count
    out[0] = max(each, FIRST_MS)
    out[-1] = LAST_MS
    return out


def _drawer(views: Sequence[View], attempt: int) -> Callable[[View], Image.Image]:
    """How to draw one frame of this game at the size of ``attempt`` (0: the largest)."""
    return pictures_of(views[-1]).frames(views, attempt)


class _Frames(Image.Image):
    """A multi-frame image whose frames are drawn when an encoder seeks to them (in order), each handed on to
    ``also`` as well: Pillow's WebP writer reads frames this way, so only the frame being encoded is in memory."""

    def __init__(self, draw: Callable[[int], Image.Image], count: int, also: Callable[[Image.Image], None]) -> None:
        super().__init__()
        self._draw = draw
        self._count = count
        self._also = also
        self._index = -1
        self.seek(0)

    @property
    def n_frames(self) -> int:
        return self._count

    @property
    def is_animated(self) -> bool:
        return self._count > 1

    def seek(self, frame: int) -> None:
        if frame == self._index:
            return
        img = self._draw(frame)
        if frame == self._index + 1:  # the next frame (the writer seeks back to the first when done)
            self._also(img)
        self.im = img.im
        self._mode = img.mode
        self._size = img.size
        self._index = frame

    def tell(self) -> int:
        return self._index


class _Gif:
    """A GIF written frame by frame: one palette for all, each frame the rectangle that changed since the last."""

    def __init__(self, palette: Image.Image, durations: Sequence[int]) -> None:
        self.palette = palette
        self.durations = durations
        self.out = io.BytesIO()
        self.previous: Image.Image | None = None
        self.index = 0

    def add(self, frame: Image.Image) -> None:
        indexed = frame.convert("RGB").quantize(palette=self.palette, dither=Image.Dither.NONE)
        duration = self.durations[self.index]
        self.index += 1
        if self.previous is None:
            header, _ = GifImagePlugin.getheader(indexed, None, {"loop": 0, "duration": duration})
            self.out.write(b"".join(header))
            self.out.write(b"".join(GifImagePlugin.getdata(indexed, (0, 0), duration=duration)))
        else:
            changed = ImageChops.difference(_indices(self.previous), _indices(indexed))
            box = changed.getbbox() or (0, 0, 1, 1)  # nothing changed: one pixel keeps the frame and its time
            # Unchanged pixels inside the rectangle become transparent: long runs of one index, which LZW packs.
            part = indexed.crop(box)
            part.paste(CLEAR, mask=changed.crop(box).point([255] + [0] * 255, "1"))
            data = GifImagePlugin.getdata(part, box[:2], duration=duration, transparency=CLEAR)
            self.out.write(b"".join(data))
        self.previous = indexed

    def finish(self) -> bytes:
        return self.out.getvalue() + b";"


def _indices(img: Image.Image) -> Image.Image:
    """A palette image's indices as a greyscale image (to compare two frames on the same palette)."""
    return Image.frombytes("L", img.size, img.tobytes())


def _encode(views: Sequence[View], attempt: int, formats: Sequence[str], progress: Progress | None) -> list[Animation]:
    draw_view = _drawer(views, attempt)
    first = draw_view(views[0]).copy()  # kept: a game's drawer may draw the next frame over the one it returned
    last = draw_view(views[-1]).copy()
    width, height = max(first.width, last.width), max(first.height, last.height)

    def draw(index: int) -> Image.Image:
        if progress is not None:
            progress(index, len(views))
        img = first if index == 0 else last if index == len(views) - 1 else draw_view(views[index])
        if img.size == (width, height):
            return img
        canvas = Image.new("RGB", (width, height), BACKGROUND)  # a taller scoreboard: every frame as tall
        canvas.paste(img, (0, 0))
        return canvas

    times = durations(len(views))
    gif: _Gif | None = None
    if "gif" in formats:
        sample = Image.new("RGB", (width * 2, height), BACKGROUND)
        sample.paste(draw(0), (0, 0))
        sample.paste(draw(len(views) - 1), (width, 0))
        gif = _Gif(sample.quantize(255, method=Image.Quantize.FASTOCTREE), times)
    out = []
    if "webp" in formats and features.check("webp"):
        also = gif.add if gif is not None else lambda _: None
        sequence = _Frames(draw, len(views), also)
        buffer = io.BytesIO()
        sequence.save(buffer, "WEBP", save_all=True, duration=times, loop=0, lossless=True, quality=0, method=1,
                      kmin=0, kmax=0)  # fmt: skip
        out.append(Animation(buffer.getvalue(), "webp", len(views), (width, height)))
    elif gif is not None:
        for index in range(len(views)):
            gif.add(draw(index))
    if gif is not None:
        out.append(Animation(gif.finish(), "gif", len(views), (width, height)))
    return out


def timelapse(
    views: Sequence[View],
    formats: Sequence[str] | None = None,
    limit: int = MAX_BYTES,
    progress: Progress | None = None,
) -> Animation:
    """The timelapse of ``views`` (one per frame, in order: ``engine.history.frames``; at most ``MAX_FRAMES`` of
    them are shown, ``kept_frames``), in the smallest of ``formats`` (None: the game's own,
    ``GamePictures.timelapse_formats``) that fits in ``limit`` bytes (smaller frames, then fewer, until one does).
    ``progress`` is told each frame drawn: its number and how many there are."""
    if formats is None and views:
        formats = pictures_of(views[-1]).timelapse_formats
    formats = formats or ()
    unknown = [f for f in formats if f not in FORMATS]
    if unknown or not formats:
        raise ValueError(f"unknown timelapse format {unknown[0] if unknown else '(none)'!r}: use webp or gif")
    if len(views) < 2:
        raise ValueError("a timelapse needs at least two frames")
    chosen = [views[i] for i in kept_frames(len(views))]
    best: Animation | None = None
    for step in range(2 * ATTEMPTS):
        attempt = min(step, ATTEMPTS - 1)
        if step >= ATTEMPTS:  # still too large at the smallest size: every other turn, keeping the last
            chosen = [*chosen[:-1:2], chosen[-1]]
            if len(chosen) < 2:
                break
        encoded = _encode(chosen, attempt, formats, progress)
        best = min(encoded, key=lambda a: len(a.data))
        if len(best.data) <= limit:
            return best
    assert best is not None
    raise ValueError(f"the timelapse does not fit in {limit} bytes (smallest: {len(best.data)} bytes)")


def format_of(data: bytes) -> str:
    """``"webp"`` or ``"gif"`` from an encoded timelapse's first bytes."""
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "gif"
    raise ValueError("not a timelapse: neither WebP nor GIF")
