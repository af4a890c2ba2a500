"""The PNG writer: lossless round trip in every mode, single- and multi-threaded."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render.png import adler32_combine, encode


@pytest.mark.parametrize("mode", ["RGB", "RGBA", "L", "P"])
@pytest.mark.parametrize("size", [(1, 1), (37, 19), (900, 700)])
def test_round_trip(mode: str, size: tuple[int, int]) -> None:
    img = Image.effect_noise(size, 60).convert("RGB").convert(mode)
    back = Image.open(io.BytesIO(encode(img)))
    back.load()
    assert back.mode == mode and back.size == size
    assert back.tobytes() == img.tobytes()


def test_adler32_combine() -> None:
    import zlib

    a, b = b"hello " * 1000, b"world" * 777
    assert adler32_combine(zlib.adler32(a), zlib.adler32(b), len(b)) == zlib.adler32(a + b)
