"""The PNG writer: lossless round trip in every mode, single- and multi-threaded."""

from __future__ import annotations

import io
import struct
import zlib

import pytest
from PIL import Image

from render import png
from render.png import adler32_combine, encode


@pytest.mark.parametrize("mode", ["RGB", "RGBA", "L", "P"])
@pytest.mark.parametrize("size", [(1, 1), (37, 19), (900, 700)])
def test_round_trip(mode: str, size: tuple[int, int]) -> None:
    img = Image.effect_noise(size, 60).convert("RGB").convert(mode)
    back = Image.open(io.BytesIO(encode(img)))
    back.load()
    assert back.mode == mode and back.size == size
    assert back.tobytes() == img.tobytes()


@pytest.mark.parametrize("size", [(37, 19), (900, 700)])
def test_the_zlib_fallback_writes_the_same_pixels(size: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    import zlib

    from render import png

    monkeypatch.setattr(png, "deflate", zlib)
    img = Image.effect_noise(size, 60).convert("RGB")
    back = Image.open(io.BytesIO(encode(img)))
    back.load()
    assert back.tobytes() == img.tobytes()


def test_isal_is_the_deflater_where_it_is_installed() -> None:
    from isal import isal_zlib

    from render import png

    assert png.deflate is isal_zlib


def test_adler32_combine() -> None:
    import zlib

    a, b = b"hello " * 1000, b"world" * 777
    assert adler32_combine(zlib.adler32(a), zlib.adler32(b), len(b)) == zlib.adler32(a + b)


@pytest.mark.parametrize("bands", [1, 2, 3])
def test_any_number_of_row_bands_writes_the_same_pixels(bands: int, monkeypatch: pytest.MonkeyPatch) -> None:
    from render import png

    monkeypatch.setattr(png, "band_threads", bands)
    img = Image.effect_noise((900, 701), 60).convert("RGB")  # rows not a multiple of the bands
    back = Image.open(io.BytesIO(encode(img)))
    back.load()
    assert back.tobytes() == img.tobytes()


@pytest.mark.parametrize("mode", ["RGB", "RGBA", "L", "P"])
@pytest.mark.parametrize("piece", [1, 2, 100, 2701, 2702, 5404, 1 << 18])
def test_on_one_thread_the_rows_are_deflated_a_piece_at_a_time_into_the_scanlines(
    mode: str, piece: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(png, "band_threads", 1)
    monkeypatch.setattr(png, "PIECE_BYTES", piece)  # an RGB row here is 2,701 bytes with its filter byte
    for size in [(900, 7), (1, 1), (3, 1), (1, 3)]:
        img = Image.effect_noise(size, 60).convert(mode)
        data = encode(img)
        (idat,) = [data[at + 8 : at + 8 + n] for at, n in _chunks(data) if data[at + 4 : at + 8] == b"IDAT"]
        assert zlib.decompress(idat) == b"\x00" + png.scanlines(img)[:-1]  # a whole zlib stream: its Adler-32 right
        back = Image.open(io.BytesIO(data))
        back.load()
        assert back.tobytes() == img.tobytes()


def _chunks(data: bytes) -> list[tuple[int, int]]:
    """Where each chunk of the PNG ``data`` starts, and its length."""
    found, at = [], 8
    while at < len(data):
        (n,) = struct.unpack(">I", data[at : at + 4])
        found.append((at, n))
        at += 12 + n
    return found


@pytest.mark.parametrize("mode", ["RGB", "RGBA", "L", "P"])
def test_the_scanlines_are_the_rows_each_after_a_filter_byte_of_zero(mode: str) -> None:
    from render.png import scanlines

    img = Image.effect_noise((23, 5), 60).convert("RGB").convert(mode)
    raw, row = img.tobytes(), len(img.tobytes()) // 5
    assert b"\x00" + scanlines(img)[:-1] == b"".join(b"\x00" + raw[y * row : (y + 1) * row] for y in range(5))


def test_a_pngs_size_is_read_from_its_header_and_nothing_else_has_one() -> None:
    data = png.encode(Image.new("RGB", (300, 200)))
    assert png.size(data) == (300, 200)
    assert png.size(data[:23]) is None and png.size(b"GIF89a" + data[6:]) is None
