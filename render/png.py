"""A small, fast PNG writer.

Pillow's PNG encoder chooses a filter per row adaptively, which costs most of its time on our large, flat
images. Board images are mostly flat colour, where filter "None" with fast zlib compression is both much
faster and about as small. The deflating is done by Intel's ISA-L (``isal``) where it is installed: about three
times faster than zlib at level 1 on board images and a little smaller (zlib is the fallback, same output format).
Large images are deflated in independent row bands on two or more threads (both release the GIL) and joined into
one zlib stream, the way pigz does; Pillow packs the scanlines straight into one buffer for them (``scanlines``). On
one thread (a drawing process's setting, and every small image) Pillow packs a few hundred kB of rows at a time and
each piece is deflated while it is still in the CPU's cache, into one zlib stream whose Adler-32 the deflater keeps
as it reads (``_stream``). The output is a standard PNG (8-bit RGB, RGBA, grey or palette).
"""

from __future__ import annotations

import contextlib
import os
import struct
import threading
import types
import zlib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Final

from PIL import Image

deflate: types.ModuleType = zlib  # no isal wheel for this platform: the standard library writes the same format
with contextlib.suppress(ImportError):
    from isal import isal_zlib

    deflate = isal_zlib

SIGNATURE: Final = b"\x89PNG\r\n\x1a\n"
_COLOUR_TYPE: Final = {"L": 0, "RGB": 2, "P": 3, "RGBA": 6}
_CHANNELS: Final = {"L": 1, "RGB": 3, "P": 1, "RGBA": 4}
LEVEL: Final = 1
PARALLEL_BYTES: Final = 1 << 20  # below this, one thread
# Rows packed and deflated at a time on one thread: few enough to stay in a core's cache between the two, enough
# that the calls cost nothing (a 2 Mpx board encoded 8% faster in 150-600 kB pieces than packed whole; 8 rows slower).
PIECE_BYTES: Final = 256 * 1024
_BASE: Final = 65521

_pool: ThreadPoolExecutor | None = None
_pool_lock: Final = threading.Lock()


# Threads that deflate one image's row bands (None: 2-4 by the number of cores). Processes that are one of several
# drawing in parallel set 1: their parallelism is the other processes, and idle band threads only cost hand-offs.
band_threads: int | None = None


def _workers() -> int:
    if band_threads is not None:
        return band_threads
    return max(2, min(4, os.cpu_count() or 2))


def _executor() -> ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=_workers(), thread_name_prefix="png")
        return _pool


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(data, zlib.crc32(kind))  # without a copy of ``kind + data``
    return b"".join((struct.pack(">I", len(data)), kind, data, struct.pack(">I", crc)))


def adler32_combine(adler1: int, adler2: int, len2: int) -> int:
    """The Adler-32 of A + B from those of A and B (zlib's ``adler32_combine``)."""
    rem = len2 % _BASE
    sum1 = adler1 & 0xFFFF
    sum2 = (rem * sum1) % _BASE
    sum1 += (adler2 & 0xFFFF) + _BASE - 1
    sum2 += ((adler1 >> 16) & 0xFFFF) + ((adler2 >> 16) & 0xFFFF) + _BASE - rem
    sum1 %= _BASE
    sum2 %= _BASE
    return sum1 | (sum2 << 16)


def scanlines(img: Image.Image) -> bytes:
    """The rows of ``img`` (mode L, RGB, RGBA or P), each followed by a zero byte, packed by Pillow in one pass into
    one buffer: its raw encoder pads each row to the stride it is given. A zero byte before them all, and the last
    row's pad left off, are the PNG scanlines with filter "None" (0) each: no copy of the image in Python, where
    ``tobytes`` and inserting the filter bytes row by row copied it twice more (half the time of an encode)."""
    width, height = img.size
    line = width * _CHANNELS[img.mode] + 1
    return b"".join(_packed(img, line, height))  # the whole image fits: one call, one buffer (joined, not copied)


def _packed(img: Image.Image, line: int, rows: int) -> Iterator[bytes]:
    """``img``'s rows packed by Pillow's raw encoder ``rows`` at a time, each row padded to ``line`` bytes with a zero
    after it."""
    width, height = img.size
    encoder = Image._getencoder(img.mode, "raw", (img.mode, line, 1))
    packed = status = 0
    try:
        encoder.setimage(img.im, (0, 0, width, height))
        while status == 0:
            _, status, data = encoder.encode(line * rows)
            packed += len(data)
            if data:
                yield data
    finally:
        encoder.cleanup()
    if status != 1 or packed != line * height:
        raise RuntimeError(f"Pillow's raw encoder stopped early (status {status})")


def _stream(img: Image.Image, line: int, level: int) -> bytes:
    """The zlib stream of ``img``'s scanlines (filter "None"), packed by Pillow and deflated a piece at a time. Pillow's
    raw encoder puts each row's pad (the zero filter byte) after the row: a zero first and the very last byte left
    off make them the PNG's scanlines, each filter byte before its row, as in ``scanlines``."""
    c = deflate.compressobj(level, deflate.DEFLATED, 15)
    out = [c.compress(b"\x00")]
    held = b""  # the last byte packed so far: deflated once more follows it (the very last is left off)
    for data in _packed(img, line, max(1, PIECE_BYTES // line)):
        out.append(c.compress(held))
        out.append(c.compress(memoryview(data)[:-1]))
        held = data[-1:]
    out.append(c.flush())
    return b"".join(out)


def _pieces(data: memoryview, line: int, start: int, stop: int) -> list[memoryview | bytes]:
    """Scanlines ``start`` to ``stop`` (rows) out of ``data`` (``scanlines``: each row's filter byte after it)."""
    if start == 0:
        return [b"\x00", data[: stop * line - 1]]
    return [data[start * line - 1 : stop * line - 1]]


def _band(pieces: list[memoryview | bytes], level: int, final: bool) -> tuple[bytes, int]:
    """Raw-deflate a run of whole scanlines; returns the data and its Adler-32."""
    c = deflate.compressobj(level, deflate.DEFLATED, -15)
    out = [c.compress(piece) for piece in pieces]
    out.append(c.flush(deflate.Z_FINISH if final else deflate.Z_SYNC_FLUSH))
    adler = 1
    for piece in pieces:
        adler = deflate.adler32(piece, adler)
    return b"".join(out), adler


def _idat(data: bytes, line: int, height: int, level: int) -> bytes:
    """The zlib stream of the scanlines ``data`` deflated in row bands on the band threads, joined."""
    rows = memoryview(data)
    bands = _workers()
    bounds = [height * i // bands for i in range(bands + 1)]
    parts = [_pieces(rows, line, bounds[i], bounds[i + 1]) for i in range(bands)]
    futures = [_executor().submit(_band, part, level, i == bands - 1) for i, part in enumerate(parts)]
    results = [f.result() for f in futures]
    adler = results[0][1]
    for i, (_, a) in enumerate(results[1:], start=1):
        adler = adler32_combine(adler, a, (bounds[i + 1] - bounds[i]) * line)
    return b"\x78\x01" + b"".join(r[0] for r in results) + struct.pack(">I", adler)


def size(data: bytes) -> tuple[int, int] | None:
    """The width and height of the PNG ``data``, from its header chunk (IHDR, always the first); None if ``data`` is
    no PNG. Nothing else is read."""
    if len(data) < 24 or not data.startswith(SIGNATURE) or data[12:16] != b"IHDR":
        return None
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def encode(img: Image.Image, level: int = LEVEL) -> bytes:
    """``img`` as PNG bytes (modes L, RGB, RGBA, P; others are converted to RGB)."""
    if img.mode not in _COLOUR_TYPE:
        img = img.convert("RGB")
    width, height = img.size
    out = [SIGNATURE, _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, _COLOUR_TYPE[img.mode], 0, 0, 0))]
    if img.mode == "P":
        palette = img.getpalette() or []
        out.append(_chunk(b"PLTE", bytes(palette[: 3 * 256])))
    img.load()
    line = width * _CHANNELS[img.mode] + 1
    if _workers() > 1 and line * height >= PARALLEL_BYTES:
        idat = _idat(scanlines(img), line, height, level)
    else:
        idat = _stream(img, line, level)
    out.append(_chunk(b"IDAT", idat))
    out.append(_chunk(b"IEND", b""))
    return b"".join(out)
