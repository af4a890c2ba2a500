"""Make the bundled colour emoji font: Noto Color Emoji with its bitmaps scaled down to a smaller strike.

Noto Color Emoji stores every emoji as a 136x128 PNG (one 109 ppem strike, about 11 MB). The images draw names
at 14-34 px, so a strike of ``--ppem`` pixels (default 32) keeps every emoji, every ZWJ sequence, flag and skin
tone (the cmap and GSUB are untouched) at a fraction of the size. Each bitmap is resized with a Lanczos filter
and stored as an optimised PNG with a palette of ``--colours`` colours and alpha (64 by default: at this size
the difference from full colour cannot be seen, and it halves the file).

The font is renamed ("Boardhost Emoji") because it is a modified version under the SIL Open Font License.

Run (fontTools is a development tool, not a dependency of the project):
    apt-get download fonts-noto-color-emoji && dpkg-deb -x fonts-noto-color-emoji_*.deb deb
    pip install fonttools
    python tools/shrink_emoji_font.py deb/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf \
        render/fonts/BoardhostEmoji.ttf
"""

from __future__ import annotations

import argparse
import io

from fontTools.ttLib import TTFont
from PIL import Image


def shrink_png(data: bytes, scale: float, colours: int) -> tuple[bytes, int, int]:
    img = Image.open(io.BytesIO(data)).convert("RGBA")
    w, h = max(1, round(img.width * scale)), max(1, round(img.height * scale))
    small = img.resize((w, h), Image.Resampling.LANCZOS)
    best = b""
    for candidate in (small, small.quantize(colours, method=Image.Quantize.FASTOCTREE)):
        out = io.BytesIO()
        candidate.save(out, "PNG", optimize=True)
        if not best or len(out.getvalue()) < len(best):
            best = out.getvalue()
    return best, w, h


def shrink(source: str, target: str, ppem: int, colours: int) -> None:
    font = TTFont(source, recalcTimestamp=False)  # the same bytes on every run
    strike = font["CBLC"].strikes[0]
    size = strike.bitmapSizeTable
    scale = ppem / size.ppemY
    for metrics in (size.hori, size.vert):
        for name in ("ascender", "descender", "widthMax", "minOriginSB", "minAdvanceSB", "maxBeforeBL", "minAfterBL"):
            setattr(metrics, name, round(getattr(metrics, name) * scale))
    size.ppemX = size.ppemY = ppem
    for glyph in font["CBDT"].strikeData[0].values():
        glyph.decompile()
        m = glyph.metrics
        glyph.imageData, m.width, m.height = shrink_png(glyph.imageData, scale, colours)
        m.BearingX = round(m.BearingX * scale)
        m.BearingY = round(m.BearingY * scale)
        m.Advance = round(m.Advance * scale)
    for record in font["name"].names:
        if record.nameID in (1, 3, 4, 16):
            record.string = "Boardhost Emoji"
        elif record.nameID == 6:
            record.string = "BoardhostEmoji"
        elif record.nameID == 5:
            record.string = f"{record.toUnicode()}; shrunk to {ppem} ppem from Noto Color Emoji"
    font.save(target)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", help="NotoColorEmoji.ttf (CBDT bitmaps)")
    parser.add_argument("target", help="the font file to write")
    parser.add_argument("--ppem", type=int, default=32, help="pixel size of the new strike (default 32)")
    parser.add_argument("--colours", type=int, default=64, help="palette size of each bitmap (default 64)")
    args = parser.parse_args()
    shrink(args.source, args.target, args.ppem, args.colours)


if __name__ == "__main__":
    main()
