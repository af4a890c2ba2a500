"""A game's timelapse: an animated picture of the board growing turn by turn, with the scoreboard beside it.

The frames are the public board after the set-up and at the end of every turn (``engine.history.frames``: spectator
views only), all drawn on one grid (a growing board's frames keep every cell of the final board in view). They
are drawn one at a time and handed straight to two encoders at once, so that a long game never holds more than a
frame or two in memory:

- animated WebP, lossless (board pictures are flat colour and text, which lossy coding smears), without keyframes:
  each frame is stored as the rectangle that changed since the one before (or two, where it changed two places far
  apart), drawn over it, which keeps both the size and the encoding time small (a keyframe every few frames cost 5-8
  times the time for no gain here); each rectangle is encoded by libwebp and the animation put together here
  (``_WebP``);
- GIF, every frame mapped to one palette made from the first and the last frame (so unchanged pixels stay
  unchanged) and stored as the rectangle that changed; only that rectangle is mapped (``_Gif``).

The smaller of the two is kept; by default each game's timelapse is encoded only in the format that has always come
out smaller for its boards (``GamePictures.timelapse_formats``: WebP for Carcassonne, GIF for Catan), which saves
the time of the other encoder (a third to a half of the whole). If it is over ``limit`` bytes the frames are drawn
smaller and, if need be, every other turn is left out, until it fits. Sizes and times for typical and the largest
games: ``bench/README.md``.
"""

from __future__ import annotations

import io
import struct
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from PIL import GifImagePlugin, Image, ImageChops, features

from render.lookup import Lookup
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


class _WebP:
    """An animated WebP written frame by frame: each frame after the first is the rectangle that changed since the one
    before, its unchanged pixels transparent (drawn over the previous frame), encoded losslessly by libwebp as a still
    picture; the RIFF container is put together here. Where a turn changed two places far apart (the tile on the board
    and the scores beside it) the frame is stored as two rectangles, the first shown for ``PART_MS`` only: libwebp's
    time grows with the area it codes, transparent or not, and the one rectangle around both was three to four times
    the area of the two (``bench/webp_writer_bench.py``)."""

    def __init__(self, size: tuple[int, int], durations: Sequence[int]) -> None:
        self.size = size
        self.durations = durations
        self.frames = 0
        self.chunks: list[bytes] = []
        self.previous: Image.Image | None = None
        self.alpha = False

    def add(self, frame: Image.Image, changed: Sequence[Box] | None = None) -> None:
        """The next frame; ``changed``: rectangles outside which it is known to be the same as the frame before
        (None: it may differ anywhere), so that only they are compared."""
        frame = frame if frame.mode == "RGB" else frame.convert("RGB")
        duration = self.durations[self.frames]
        self.frames += 1
        if self.previous is None:
            self._store((0, 0, *self.size), frame, duration, _NO_BLEND)
            self.previous = frame.copy()  # kept: a game's drawer may draw the next frame over this one
            return
        box, mask = self._changes(frame, [(0, 0, *self.size)] if changed is None else changed)
        parts = _parts(mask, box)
        for index, part in enumerate(parts):
            piece = frame.crop(part)
            piece.putalpha(mask.crop(_within(part, box)))
            last = index == len(parts) - 1
            self._store(part, piece, duration - PART_MS * index if last else PART_MS, 0)  # blended over the previous
        self.alpha = True

    def _changes(self, frame: Image.Image, regions: Sequence[Box]) -> tuple[Box, Image.Image]:
        """The rectangle around every pixel of ``frame`` that differs from the previous frame, looked for in
        ``regions`` only, and the mask of those pixels in it (255 where changed); the previous frame becomes
        ``frame``. Unchanged pixels are made transparent: the previous frame shows through, and they compress to
        nothing."""
        assert self.previous is not None
        found: list[tuple[Box, Image.Image]] = []
        edges: list[Box] = []
        for region in regions:
            whole = region == (0, 0, *self.size)
            before = self.previous if whole else self.previous.crop(region)
            difference = ImageChops.difference(before, frame if whole else frame.crop(region))
            inner = difference.getbbox()
            if inner is not None:
                found.append((region, difference))
                edges.append((region[0] + inner[0], region[1] + inner[1], region[0] + inner[2], region[1] + inner[3]))
        if not edges:
            edges = [(0, 0, 1, 1)]  # nothing changed: one clear pixel
        left, top = min(e[0] for e in edges) & ~1, min(e[1] for e in edges) & ~1  # a frame's offset is stored halved
        box = (left, top, max(e[2] for e in edges), max(e[3] for e in edges))
        mask = Image.new("L", (box[2] - left, box[3] - top), 0)
        for region, difference in found:
            x0, y0 = max(left, region[0]), max(top, region[1])  # the region within ``box``: the rest is unchanged
            x1, y1 = min(box[2], region[2]), min(box[3], region[3])
            within = difference.crop((x0 - region[0], y0 - region[1], x1 - region[0], y1 - region[1]))
            mask.paste(within.convert("L", _ANY_CHANNEL).point(_CHANGED), (x0 - left, y0 - top))
            self.previous.paste(frame.crop((x0, y0, x1, y1)), (x0, y0))
        return box, mask

    def _store(self, box: tuple[int, int, int, int], piece: Image.Image, duration: int, flags: int) -> None:
        out = io.BytesIO()
        piece.save(out, "WEBP", lossless=True, quality=0, method=1)
        image = b"".join(data for tag, data in _riff_chunks(out.getvalue()) if tag in (b"ALPH", b"VP8 ", b"VP8L"))
        x, y, right, bottom = box
        header = b"".join(_u24(v) for v in (x // 2, y // 2, right - x - 1, bottom - y - 1, duration))
        self.chunks.append(_chunk(b"ANMF", header + bytes([flags]) + image))

    def finish(self) -> bytes:
        width, height = self.size
        features = _ANIMATION | (_ALPHA if self.alpha else 0)
        vp8x = _chunk(b"VP8X", bytes([features, 0, 0, 0]) + _u24(width - 1) + _u24(height - 1))
        anim = _chunk(b"ANIM", bytes(4) + struct.pack("<H", 0))  # no background colour; loop forever
        body = b"WEBP" + vp8x + anim + b"".join(self.chunks)
        return b"RIFF" + struct.pack("<I", len(body)) + body


_NO_BLEND, _ANIMATION, _ALPHA = 0x02, 0x02, 0x10  # ANMF's and VP8X's flag bits (the WebP container's)
_ANY_CHANNEL = (1, 1, 1, 0)  # R + G + B, clipped: not 0 where any channel differs
_CHANGED = Lookup([0] + [255] * 255)
_KEPT = Lookup([255] + [0] * 255, "1")  # an index that did not change: 1
Box = tuple[int, int, int, int]
# A frame's first rectangle is shown this long (ms) before the second completes it: above the 10 ms under which
# browsers show a frame for 100 ms, and too short to see.
PART_MS: Final = 20
BLOCK: Final = 8  # the changed pixels are looked at in blocks of 8 x 8 to find where to cut
SPLIT_GAIN: Final = 0.6  # cut in two only when the two rectangles' area is at most this share of the one's
SPLIT_FROM: Final = 64 * 64  # smaller rectangles are not worth a second call to the encoder


def _parts(mask: Image.Image, box: Box) -> list[Box]:
    """``box`` (its changed pixels ``mask``) as the one rectangle, or as two with the widest band of unchanged pixels
    across it left out, whichever has the smaller area (by ``SPLIT_GAIN``); offsets even, as the container keeps
    them halved."""
    width, height = mask.size
    if width * height < SPLIT_FROM:
        return [box]
    small = mask.reduce(BLOCK).point(_CHANGED)  # any changed pixel in a block: 255 (a pixel alone averages to 4)
    data, (w, h) = small.tobytes(), small.size
    empty_row, empty_column = bytes(w), bytes(h)
    best, area = [box], width * height * SPLIT_GAIN
    for cuts, across in (([data[c::w] == empty_column for c in range(w)], "x"),
                         ([data[r * w : (r + 1) * w] == empty_row for r in range(h)], "y")):  # fmt: skip
        gap = _widest_gap(cuts)
        if gap is None:
            continue
        start, stop = gap[0] * BLOCK, gap[1] * BLOCK
        if across == "x":
            halves = [(0, 0, start, height), (stop, 0, width, height)]
        else:
            halves = [(0, 0, width, start), (0, stop, width, height)]
        parts = []
        for half in halves:
            found = mask.crop(half).getbbox()
            if found is None:
                break
            x0, y0 = box[0] + half[0] + found[0], box[1] + half[1] + found[1]
            parts.append((x0 & ~1, y0 & ~1, box[0] + half[0] + found[2], box[1] + half[1] + found[3]))
        else:
            total = sum((r - x) * (b - y) for x, y, r, b in parts)
            if total < area:
                best, area = parts, total
    return best


def _widest_gap(empty: list[bool]) -> tuple[int, int] | None:
    """The longest run of ``True`` with something on both sides: (first, after last), or None."""
    best: tuple[int, int] | None = None
    start: int | None = None
    for index, blank in enumerate(empty):
        if blank and start is None:
            start = index
        elif not blank and start is not None:
            if start > 0 and (best is None or index - start > best[1] - best[0]):
                best = (start, index)
            start = None
    return best


def _within(part: Box, box: Box) -> Box:
    """``part``, a rectangle inside ``box``, in ``box``'s own coordinates."""
    return (part[0] - box[0], part[1] - box[1], part[2] - box[0], part[3] - box[1])


def _u24(value: int) -> bytes:
    return value.to_bytes(3, "little")


def _chunk(tag: bytes, payload: bytes) -> bytes:
    return tag + struct.pack("<I", len(payload)) + payload + b"\0" * (len(payload) & 1)


def _riff_chunks(data: bytes) -> Iterator[tuple[bytes, bytes]]:
    """The chunks of a RIFF WebP file: each one's tag and its whole bytes (header and padding included)."""
    at = 12
    while at + 8 <= len(data):
        size = struct.unpack_from("<I", data, at + 4)[0]
        end = at + 8 + size + (size & 1)
        yield data[at : at + 4], data[at:end]
        at = end


class _Gif:
    """A GIF written frame by frame: one palette for all, each frame the rectangle that changed since the last. Only
    what changed is mapped to the palette (a pixel's colour is its nearest in the palette, whatever its neighbours:
    the same indices as mapping the whole frame, at a fraction of the cost)."""

    def __init__(self, palette: Image.Image, durations: Sequence[int]) -> None:
        self.palette = palette
        self.durations = durations
        self.out = io.BytesIO()
        self.previous: Image.Image | None = None  # the last frame, mapped to the palette
        self.colours: Image.Image | None = None  # the last frame as drawn (its own copy)
        self.index = 0

    def _mapped(self, img: Image.Image) -> Image.Image:
        return img.quantize(palette=self.palette, dither=Image.Dither.NONE)

    def add(self, frame: Image.Image) -> None:
        frame = frame if frame.mode == "RGB" else frame.convert("RGB")
        duration = self.durations[self.index]
        self.index += 1
        if self.previous is None or self.colours is None:
            self.previous, self.colours = self._mapped(frame), frame.copy()
            header, _ = GifImagePlugin.getheader(self.previous, None, {"loop": 0, "duration": duration})
            self.out.write(b"".join(header))
            self.out.write(b"".join(GifImagePlugin.getdata(self.previous, (0, 0), duration=duration)))
            return
        region = ImageChops.difference(self.colours, frame).getbbox() or (0, 0, 1, 1)
        indexed = self._mapped(frame.crop(region))
        self.colours.paste(frame.crop(region), region[:2])
        changed = ImageChops.difference(_indices(self.previous.crop(region)), _indices(indexed))
        self.previous.paste(indexed, region[:2])
        inner = changed.getbbox()
        if inner is None:  # no index changed (or no colour): one clear pixel keeps the frame and its time
            part, at = self.previous.crop((0, 0, 1, 1)), (0, 0)
            part.paste(CLEAR, (0, 0, 1, 1))
        else:
            # Unchanged pixels inside the rectangle become transparent: long runs of one index, which LZW packs.
            part, at = indexed.crop(inner), (region[0] + inner[0], region[1] + inner[1])
            part.paste(CLEAR, mask=changed.crop(inner).point(_KEPT))
        self.out.write(b"".join(GifImagePlugin.getdata(part, at, duration=duration, transparency=CLEAR)))

    def finish(self) -> bytes:
        return self.out.getvalue() + b";"


def _indices(img: Image.Image) -> Image.Image:
    """A palette image's indices as a greyscale image (to compare two frames on the same palette)."""
    return Image.frombytes("L", img.size, img.tobytes())


class _Frames:
    """Draws frame ``index`` of a timelapse at its one size (``frames(index)``; the picture returned may be drawn over
    by the next call: copy it to keep it), and knows where it may differ from frame ``index - 1`` (``changed``)."""

    def __init__(self, views: Sequence[View], attempt: int, progress: Progress | None) -> None:
        self.views = views
        self.progress = progress
        self.draw_view = _drawer(views, attempt)
        self.first = self.draw_view(views[0]).copy()  # kept: a game's drawer may draw the next frame over it
        self.last = self.draw_view(views[-1]).copy()
        self.size = (max(self.first.width, self.last.width), max(self.first.height, self.last.height))
        self.changed: list[Box] | None = None  # of the frame last returned: None, anywhere

    def __call__(self, index: int) -> Image.Image:
        if self.progress is not None:
            self.progress(index, len(self.views))
        if index == 0 or index == len(self.views) - 1:
            img, self.changed = (self.first if index == 0 else self.last), None
        else:
            img = self.draw_view(self.views[index])
            # a drawer's hint is about the picture it drew before, which is frame ``index - 1`` from frame 2 on
            self.changed = getattr(self.draw_view, "changed", None) if index >= 2 else None
        if img.size == self.size:
            return img
        self.changed = None
        canvas = Image.new("RGB", self.size, BACKGROUND)  # a taller scoreboard: every frame as tall
        canvas.paste(img, (0, 0))
        return canvas


def frame_source(
    views: Sequence[View], attempt: int = 0, progress: Progress | None = None
) -> tuple[tuple[int, int], _Frames]:
    """The size of the timelapse's frames and how to draw frame ``index`` at it (the picture returned may be drawn
    over by the next call: copy it to keep it)."""
    frames = _Frames(views, attempt, progress)
    return frames.size, frames


def _encode(views: Sequence[View], attempt: int, formats: Sequence[str], progress: Progress | None) -> list[Animation]:
    (width, height), draw = frame_source(views, attempt, progress)
    times = durations(len(views))
    gif: _Gif | None = None
    if "gif" in formats:
        sample = Image.new("RGB", (width * 2, height), BACKGROUND)
        sample.paste(draw(0), (0, 0))
        sample.paste(draw(len(views) - 1), (width, 0))
        gif = _Gif(sample.quantize(255, method=Image.Quantize.FASTOCTREE), times)
    webp = _WebP((width, height), times) if "webp" in formats and features.check("webp") else None
    for index in range(len(views)):
        frame = draw(index)
        if webp is not None:
            webp.add(frame, draw.changed)
        if gif is not None:
            gif.add(frame)
    out = []
    if webp is not None:
        out.append(Animation(webp.finish(), "webp", len(views), (width, height)))
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


def turns(img: Image.Image) -> list[tuple[Image.Image, int]]:
    """Each turn of an opened timelapse as a person sees it: its picture (RGB) and for how many milliseconds. A turn
    stored as two rectangles (``_WebP``: the first shown ``PART_MS``) counts once. The writers' inverse, for the
    tests and benchmarks that compare what two timelapses show."""
    out: list[tuple[Image.Image, int]] = []
    waited = 0
    for index in range(getattr(img, "n_frames", 1)):
        img.seek(index)
        img.load()  # a WebP frame's duration is known once it is decoded
        duration = int(img.info.get("duration", 0))
        if duration == PART_MS:
            waited += duration
            continue
        out.append((img.convert("RGB"), waited + duration))
        waited = 0
    if waited:
        raise ValueError("the animation ends on the first part of a turn")
    return out


def format_of(data: bytes) -> str:
    """``"webp"`` or ``"gif"`` from an encoded timelapse's first bytes."""
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "gif"
    raise ValueError("not a timelapse: neither WebP nor GIF")
