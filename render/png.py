"""A small, fast PNG writer.

Pillow's PNG encoder chooses a filter per row adaptively, which costs most of its time on our large, flat
images. Board images are mostly flat colour, where filter "None" with fast zlib compression is both much
faster and about as small. The deflating is done by Intel's ISA-L (``isal``) where it is installed: about three
times faster than zlib at level 1 on board images and a little smaller (zlib is the fallback, same output format).
Large images are deflated in independent row bands on two or more threads (both release the GIL) and joined into
one zlib stream, the way pigz does. The output is a standard PNG (8-bit RGB, RGBA, grey or palette).
"""

from __future__ import annotations

import contextlib
import os
import struct
import threading
import types
import zlib
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
_BASE: Final = 65521
_FILTER_NONE: Final = b"\x00"

_pool: ThreadPoolExecutor | None = None
_pool_lock: Final = threading.Lock()


def _workers() -> int:
    return max(2, min(4, os.cpu_count() or 2))


def _executor() -> ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=_workers(), thread_name_prefix="png")
        return _pool


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


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


def _band(raw: memoryview, stride: int, first: int, last: int, level: int, final: bool) -> tuple[bytes, int]:
    """Raw-deflate rows ``first..last-1`` (each prefixed with filter byte 0); returns data and its Adler-32."""
    c = deflate.compressobj(level, deflate.DEFLATED, -15)
    out = []
    adler = 1
    for y in range(first, last):
        row = raw[y * stride : (y + 1) * stride]
        out.append(c.compress(_FILTER_NONE))
        out.append(c.compress(row))
        adler = deflate.adler32(row, deflate.adler32(_FILTER_NONE, adler))
    out.append(c.flush(deflate.Z_FINISH if final else deflate.Z_SYNC_FLUSH))
    return b"".join(out), adler


def _idat(raw: bytes, stride: int, height: int, level: int) -> bytes:
    view = memoryview(raw)
    bands = _workers() if len(raw) >= PARALLEL_BYTES else 1
    bounds = [height * i // bands for i in range(bands + 1)]
    if bands == 1:
        results = [_band(view, stride, 0, height, level, True)]
    else:
        futures = [
            _executor().submit(_band, view, stride, bounds[i], bounds[i + 1], level, i == bands - 1)
            for i in range(bands)
        ]
        results = [f.result() for f in futures]
    adler = results[0][1]
    for i, (_, a) in enumerate(results[1:], start=1):
        adler = adler32_combine(adler, a, (bounds[i + 1] - bounds[i]) * (stride + 1))
    return b"\x78\x01" + b"".join(r[0] for r in results) + struct.pack(">I", adler)


def encode(img: Image.Image, level: int = LEVEL) -> bytes:
    """``img`` as PNG bytes (modes L, RGB, RGBA, P; others are converted to RGB)."""
    if img.mode not in _COLOUR_TYPE:
        img = img.convert("RGB")
    width, height = img.size
    stride = width * _CHANNELS[img.mode]
    out = [SIGNATURE, _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, _COLOUR_TYPE[img.mode], 0, 0, 0))]
    if img.mode == "P":
        palette = img.getpalette() or []
        out.append(_chunk(b"PLTE", bytes(palette[: 3 * 256])))
    out.append(_chunk(b"IDAT", _idat(img.tobytes(), stride, height, level)))
    out.append(_chunk(b"IEND", b""))
    return b"".join(out)
