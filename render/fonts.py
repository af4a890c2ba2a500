"""Bundled fonts, a fallback chain, and text drawing for names in any script.

The chain is DejaVu Sans (Latin, Greek, Cyrillic, Arabic, Hebrew, symbols), Droid Sans Fallback (Chinese
simplified and traditional, Japanese kana), NanumSquare (Hangul) and Boardhost Emoji (colour emoji, Noto's
artwork). Text is cut into grapheme clusters (a letter with its marks, an emoji with its skin tone, a flag, a
ZWJ family), each cluster goes to the first font that covers it (Hangul to NanumSquare, emoji to the emoji font
first), and runs of one font and one direction are shaped by Raqm (HarfBuzz: Arabic letters joined, marks
placed, emoji sequences ligated) and ordered right to left where the Unicode bidirectional algorithm says so.
A cluster no font covers is drawn as a box, never left out.

Bold Chinese and Japanese have no bold face here: they are drawn bold with a thin stroke of their own colour.
The emoji font holds one 32-pixel colour strike: emoji are drawn at that size and scaled.

Fonts, coverage answers and shaped runs are cached; FreeType font objects are shared between threads only for
calls guarded by one lock, so every function here is safe to call from ``asyncio.to_thread``.
"""

from __future__ import annotations

import math
import threading
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Final, NamedTuple

from PIL import Image, ImageDraw, ImageFont


@dataclass(frozen=True)
class Face:
    file: str
    drawn_bold: bool = False  # no bold face: bold is drawn with a stroke
    strike: int = 0  # a colour bitmap font: the only pixel size it opens at


FONT_DIR: Final = Path(__file__).resolve().parent / "fonts"
EMOJI_FACE: Final = Face("BoardhostEmoji.ttf", strike=32)
REGULAR: Final = (Face("DejaVuSans.ttf"), Face("DroidSansFallbackFull.ttf"), Face("NanumSquareR.ttf"), EMOJI_FACE)
BOLD: Final = (
    Face("DejaVuSans-Bold.ttf"),
    Face("DroidSansFallbackFull.ttf", drawn_bold=True),
    Face("NanumSquareB.ttf"),
    EMOJI_FACE,
)
HANGUL: Final = 2
EMOJI: Final = 3
BOX: Final = -1  # the placeholder drawn for a cluster no font covers

# FreeType faces are not documented as thread-safe; every use of a face goes through this lock.
_LOCK: Final = threading.RLock()
# A code point no font maps: its rendering is the font's .notdef glyph.
_PROBE: Final = "\U0010fffd"

RGBA = tuple[int, int, int, int]
Colour = tuple[int, int, int] | RGBA


@dataclass(frozen=True)
class Run:
    """Text drawn by one font in one direction; runs of a line are in visual order, left to right."""

    text: str
    index: int  # font of the chain, or BOX
    rtl: bool = False


class StampingFont(ImageFont.FreeTypeFont):
    """A font that keeps the glyph masks it has rendered: board images draw the same cell numbers, coordinates,
    names and scores again and again, and rendering them is half of drawing a board. Pillow asks the font for
    the mask of each text at its sub-pixel start; the same question gets the same (unchanged) mask back, so the
    pictures are exactly those of a plain font."""

    LIMIT: Final = 4096  # masks kept per font and size (a few hundred bytes each)

    def __init__(self, path: str, size: int) -> None:
        super().__init__(path, size, layout_engine=ImageFont.Layout.RAQM)
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


def font(size: int, bold: bool = False, index: int = 0) -> ImageFont.FreeTypeFont:
    """The ``index``-th font of the (bold) chain at ``size`` pixels (the emoji font at its only size)."""
    face = (BOLD if bold else REGULAR)[index]
    return _open(face.file, face.strike or size)


@lru_cache(maxsize=64)
def _open(file: str, size: int) -> ImageFont.FreeTypeFont:
    with _LOCK:
        return StampingFont(str(FONT_DIR / file), size)


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
    """Whether font ``index`` of the chain has a real glyph for ``ch`` (not its .notdef glyph)."""
    f = font(24, bold, index)
    with _LOCK:
        mask = f.getmask(ch)
        got = (mask.size, bytes(mask))
    return got != _notdef(index, bold)


# --- clusters --------------------------------------------------------------------------------------------------

ZWJ: Final = "\u200d"
VS15: Final = "\ufe0e"  # text presentation
VS16: Final = "\ufe0f"  # emoji presentation
KEYCAP: Final = "\u20e3"

# Characters shown as emoji by default although they sit in the Basic Multilingual Plane (Unicode's
# Emoji_Presentation property); from U+1F000 on, whatever the emoji font has is shown as emoji.
_EMOJI_BMP: Final = frozenset(
    chr(c)
    for a, b in (
        (0x231A, 0x231B), (0x23E9, 0x23EC), (0x23F0, 0x23F0), (0x23F3, 0x23F3), (0x25FD, 0x25FE), (0x2614, 0x2615),
        (0x2648, 0x2653), (0x267F, 0x267F), (0x2693, 0x2693), (0x26A1, 0x26A1), (0x26AA, 0x26AB), (0x26BD, 0x26BE),
        (0x26C4, 0x26C5), (0x26CE, 0x26CE), (0x26D4, 0x26D4), (0x26EA, 0x26EA), (0x26F2, 0x26F3), (0x26F5, 0x26F5),
        (0x26FA, 0x26FA), (0x26FD, 0x26FD), (0x2705, 0x2705), (0x270A, 0x270B), (0x2728, 0x2728), (0x274C, 0x274C),
        (0x274E, 0x274E), (0x2753, 0x2755), (0x2757, 0x2757), (0x2795, 0x2797), (0x27B0, 0x27B0), (0x27BF, 0x27BF),
        (0x2B1B, 0x2B1C), (0x2B50, 0x2B50), (0x2B55, 0x2B55),
    )
    for c in range(a, b + 1)
)  # fmt: skip


def _regional(ch: str) -> bool:
    return 0x1F1E6 <= ord(ch) <= 0x1F1FF


def _extends(ch: str) -> bool:
    """Characters that belong to the cluster before them: marks, selectors, skin tones, tag characters."""
    cp = ord(ch)
    return (
        unicodedata.category(ch) in ("Mn", "Me", "Mc")
        or 0xFE00 <= cp <= 0xFE0F
        or 0x1F3FB <= cp <= 0x1F3FF
        or 0xE0020 <= cp <= 0xE007F
        or 0xE0100 <= cp <= 0xE01EF
    )


def _invisible(ch: str) -> bool:
    """Control and format characters (bidi marks, zero-width spaces and joiners) that draw nothing anyway."""
    return unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") and ch != ZWJ and not 0xE0020 <= ord(ch) <= 0xE007F


@lru_cache(maxsize=4096)
def clusters(text: str) -> tuple[str, ...]:
    """``text`` as user-perceived characters: a base with its marks, selectors and skin tone; a pair of regional
    indicators (a flag); emoji joined by ZWJ. Invisible format characters are left out."""
    out: list[str] = []
    joining = False
    for ch in text:
        if _invisible(ch):
            continue
        flag = out and _regional(ch) and len(out[-1]) == 1 and _regional(out[-1])
        if out and (joining or _extends(ch) or ch == ZWJ or flag):
            out[-1] += ch
        else:
            out.append(ch)
        joining = ch == ZWJ
    return tuple(c for c in out if c != ZWJ)


def _is_emoji(cluster: str) -> bool:
    base = cluster[0]
    if VS15 in cluster:
        return False
    if VS16 in cluster or ZWJ in cluster or KEYCAP in cluster or _regional(base) or base in _EMOJI_BMP:
        return True
    return ord(base) >= 0x1F000 or any(0x1F3FB <= ord(c) <= 0x1F3FF for c in cluster)


def _hangul(ch: str) -> bool:
    cp = ord(ch)
    return 0x1100 <= cp <= 0x11FF or 0x3130 <= cp <= 0x318F or 0xA960 <= cp <= 0xA97F or 0xAC00 <= cp <= 0xD7FF


@lru_cache(maxsize=16384)
def font_for(cluster: str, bold: bool = False) -> int:
    """The font of the chain that draws ``cluster``, or BOX when none covers its base character."""
    base = cluster[0]
    if base == " ":
        return 0
    order = list(range(chain_length()))
    if _is_emoji(cluster):
        order.remove(EMOJI)
        order.insert(0, EMOJI)
    elif _hangul(base):
        order.remove(HANGUL)
        order.insert(0, HANGUL)
    else:
        order.remove(EMOJI)  # a text symbol (☺, ♥) stays text unless it asks for emoji presentation
        order.append(EMOJI)
    return next((i for i in order if covers(i, base, bold)), BOX)


# --- bidirectional order ---------------------------------------------------------------------------------------

_STRONG: Final = {"L": "L", "R": "R", "AL": "R"}


def _resolve_levels(classes: list[str]) -> list[int]:
    """Embedding levels of the Unicode bidirectional algorithm (UAX #9) for one line without explicit embeddings:
    paragraph level from the first strong character (P2-P3), weak types (W1-W7), neutrals (N1-N2), implicit
    levels (I1-I2) and trailing white space (L1)."""
    n = len(classes)
    base = next((0 if c == "L" else 1 for c in classes if c in _STRONG), 0)
    sos = "R" if base else "L"
    types = ["ON" if c in ("LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI", "BN") else c for c in classes]
    prev = sos
    for i, t in enumerate(types):  # W1
        if t == "NSM":
            types[i] = prev
        prev = types[i]
    last = sos
    for i, t in enumerate(types):  # W2
        if t in ("L", "R", "AL"):
            last = t
        elif t == "EN" and last == "AL":
            types[i] = "AN"
    types = ["R" if t == "AL" else t for t in types]  # W3
    for i in range(1, n - 1):  # W4
        if types[i] == "ES" and types[i - 1] == types[i + 1] == "EN":
            types[i] = "EN"
        elif types[i] == "CS" and types[i - 1] == types[i + 1] and types[i - 1] in ("EN", "AN"):
            types[i] = types[i - 1]
    i = 0
    while i < n:  # W5
        if types[i] != "ET":
            i += 1
            continue
        j = i
        while j < n and types[j] == "ET":
            j += 1
        if (i > 0 and types[i - 1] == "EN") or (j < n and types[j] == "EN"):
            types[i:j] = ["EN"] * (j - i)
        i = j
    types = ["ON" if t in ("ES", "ET", "CS") else t for t in types]  # W6
    last = sos
    for i, t in enumerate(types):  # W7
        if t in ("L", "R"):
            last = t
        elif t == "EN" and last == "L":
            types[i] = "L"
    strong = ["R" if t in ("R", "EN", "AN") else t if t == "L" else "" for t in types]
    i = 0
    while i < n:  # N1-N2
        if strong[i]:
            i += 1
            continue
        j = i
        while j < n and not strong[j]:
            j += 1
        before = strong[i - 1] if i > 0 else sos
        after = strong[j] if j < n else sos
        fill = before if before == after else ("R" if base else "L")
        types[i:j] = [fill] * (j - i)
        i = j
    levels = []
    for t in types:  # I1-I2
        if base == 0:
            levels.append(1 if t == "R" else 2 if t in ("AN", "EN") else 0)
        else:
            levels.append(2 if t in ("L", "AN", "EN") else 1)
    for k in range(n - 1, -1, -1):  # L1: trailing white space at the paragraph level
        if classes[k] not in ("WS", "S"):
            break
        levels[k] = base
    return levels


def _visual(items: list[tuple[int, Run]]) -> list[Run]:
    """Runs with their levels in logical order -> runs in visual order (UAX #9 L2, a run being one unit)."""
    if not items:
        return []
    top = max(level for level, _ in items)
    lowest_odd = min((level for level, _ in items if level % 2), default=top + 1)
    order = list(items)
    for k in range(top, lowest_odd - 1, -1):
        i = 0
        while i < len(order):
            if order[i][0] < k:
                i += 1
                continue
            j = i
            while j < len(order) and order[j][0] >= k:
                j += 1
            order[i:j] = order[i:j][::-1]
            i = j
    return [run for _, run in order]


@lru_cache(maxsize=4096)
def runs(text: str, bold: bool = False) -> tuple[Run, ...]:
    """``text`` as runs of one font and one direction, in visual order; uncovered clusters as BOX runs."""
    parts = clusters(text)
    if not parts:
        return ()
    fonts_of = [font_for(c, bold) for c in parts]
    # emoji are neutral (ON) whatever their code point says, so that they follow the text around them
    classes = [
        "ON" if f == EMOJI else unicodedata.bidirectional(c[0]) or "ON" for c, f in zip(parts, fonts_of, strict=True)
    ]
    levels = _resolve_levels(classes)
    items: list[tuple[int, Run]] = []
    for cluster, index, level in zip(parts, fonts_of, levels, strict=True):
        if cluster == " " and items and items[-1][0] == level and items[-1][1].index not in (BOX, EMOJI):
            index = items[-1][1].index
        last = items[-1] if items else None
        if last is not None and last[0] == level and last[1].index == index and index != BOX:
            items[-1] = (level, Run(last[1].text + cluster, index, level % 2 == 1))
        else:
            items.append((level, Run(cluster, index, level % 2 == 1)))
    return tuple(_visual(items))


def right_to_left(text: str) -> bool:
    """Whether ``text`` is a right-to-left paragraph (its first strong character is Arabic, Hebrew, ...), so that
    its lines are aligned to the right."""
    return next((unicodedata.bidirectional(ch) in ("R", "AL") for ch in text if unicodedata.bidirectional(ch) in
                 ("L", "R", "AL")), False)  # fmt: skip


def missing(text: str, bold: bool = False) -> str:
    """The clusters of ``text`` that no bundled font covers (drawn as boxes)."""
    return "".join(c for c in clusters(text) if font_for(c, bold) == BOX)


# --- measuring -------------------------------------------------------------------------------------------------


def _drawn_bold(index: int, bold: bool) -> bool:
    return bold and index >= 0 and BOLD[index].drawn_bold


def _bold_stroke(size: int) -> float:
    return max(0.5, size / 36)


@lru_cache(maxsize=16384)
def run_width(run: Run, size: int, bold: bool = False) -> float:
    if run.index == BOX:
        return len(clusters(run.text)) * round(size * 0.62)
    f = font(size, bold, run.index)
    with _LOCK:
        width: float = f.getlength(run.text, direction="rtl" if run.rtl else "ltr")
    if run.index == EMOJI:
        width *= size / EMOJI_FACE.strike
    elif _drawn_bold(run.index, bold):
        width += 2 * _bold_stroke(size)
    return width


@lru_cache(maxsize=4096)
def text_width(text: str, size: int, bold: bool = False) -> int:
    return math.ceil(sum(run_width(r, size, bold) for r in runs(text, bold)) - 0.01)


# --- what was laid out, for tests --------------------------------------------------------------------------------


@dataclass(frozen=True)
class TextEvent:
    """One text drawn: ``ok`` is False when it is wider than the room its caller made for it. (Nothing here cuts
    text: :func:`fit` wraps and shrinks; a test that sees every name and label whole knows none was cut.)"""

    text: str
    size: int
    width: float
    room: float | None
    ok: bool


_RECORDING: ContextVar[list[TextEvent] | None] = ContextVar("render_text_events", default=None)


@contextmanager
def recording() -> Iterator[list[TextEvent]]:
    """Collect a TextEvent for every text drawn inside the block (in this thread or context)."""
    events: list[TextEvent] = []
    token = _RECORDING.set(events)
    try:
        yield events
    finally:
        _RECORDING.reset(token)


def _record(event: TextEvent) -> None:
    events = _RECORDING.get()
    if events is not None:
        events.append(event)


# --- fitting -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fitted:
    size: int
    lines: tuple[str, ...]


def _breakable(cluster: str) -> bool:
    """A cluster after which a line may break although no space follows (Chinese, Japanese, Korean)."""
    cp = ord(cluster[0])
    return 0x2E80 <= cp <= 0x9FFF or 0xAC00 <= cp <= 0xD7AF or 0xF900 <= cp <= 0xFAFF or 0xFF00 <= cp <= 0xFFEF


# Punctuation that never starts a line (closing) or ends one (opening), as Chinese and Japanese typesetting has it.
_NO_LINE_START: Final = frozenset("、。，．：；！？）」』】〕〉》”’…・ー々,.:;!?)]}")
_NO_LINE_END: Final = frozenset("（「『【〔〈《“‘([{")


def _pieces(text: str) -> list[str]:
    """Units a line is made of: a word with the spaces after it, or one Chinese/Japanese/Korean character (with
    the punctuation that may not be parted from it)."""
    out: list[str] = []
    current = ""
    for c in clusters(text):
        if c == " ":
            current += c
            continue
        if c in _NO_LINE_START or (current and current[-1] in _NO_LINE_END):
            current += c
            continue
        if current and (current.endswith(" ") or _breakable(c) or _breakable(current[-1])):
            out.append(current)
            current = ""
        current += c
    if current:
        out.append(current)
    return out


def wrap(text: str, size: int, width: float, bold: bool = False) -> tuple[str, ...]:
    """``text`` broken into lines at most ``width`` pixels wide: at spaces, between Chinese, Japanese and Korean
    characters, and inside a word only when the word alone is too wide. Nothing is left out."""
    lines: list[str] = []
    line = ""
    for piece in _pieces(" ".join(text.split())):
        if text_width((line + piece).rstrip(), size, bold) <= width:
            line += piece
            continue
        if line.strip():
            lines.append(line.rstrip())
        line = ""
        for c in clusters(piece) if text_width(piece.rstrip(), size, bold) > width else (piece,):
            if line and text_width((line + c).rstrip(), size, bold) > width:
                lines.append(line.rstrip())
                line = ""
            line += c
    if line.strip() or not lines:
        lines.append(line.rstrip())
    return tuple(lines)


@lru_cache(maxsize=4096)
def fit(text: str, size: int, width: float, *, bold: bool = False, lines: int = 1, smallest: int = 0) -> Fitted:
    """``text`` at the largest size from ``size`` down to ``smallest`` (default: three quarters of ``size``) that
    fits in ``lines`` lines of ``width`` pixels; when even the smallest needs more lines, more lines. Never cut."""
    floor = smallest or max(8, round(size * 0.75))
    sizes = range(size, floor - 1, -1)
    for whole_words in (True, False):  # rather smaller than a word broken in two
        for s in sizes:
            if text_width(text, s, bold) <= width:
                return Fitted(s, (" ".join(text.split()),))
            wrapped = wrap(text, s, width, bold)
            if len(wrapped) <= lines and not (whole_words and _breaks_words(text, wrapped)):
                return Fitted(s, wrapped)
    return Fitted(floor, wrap(text, floor, width, bold))


def _breaks_words(text: str, lines: tuple[str, ...]) -> bool:
    """Whether ``lines`` cut a word of ``text`` (other than between Chinese, Japanese or Korean characters)."""
    return len(" ".join(lines).split()) != len(text.split()) and not any(map(_breakable, clusters(text)))


def fit_line(text: str, size: int, width: float, *, bold: bool = False, smallest: int = 0) -> int:
    """The largest size from ``size`` down that draws ``text`` on one line of ``width`` pixels (for marks, tags and
    labels that cannot wrap); the smallest size if none does (then drawing it records an overflow)."""
    floor = smallest or max(8, round(size * 0.6))
    return next((s for s in range(size, floor - 1, -1) if text_width(text, s, bold) <= width), floor)


# --- drawing -----------------------------------------------------------------------------------------------------


@lru_cache(maxsize=1024)
def _emoji_image(text: str, size: int, rtl: bool) -> Image.Image:
    """Emoji drawn at the colour font's only size, scaled to ``size``; the baseline is at the image's bottom edge
    minus the scaled descent (see :func:`_emoji_baseline`)."""
    f = font(EMOJI_FACE.strike, False, EMOJI)
    with _LOCK:
        ascent, descent = f.getmetrics()
        width = math.ceil(f.getlength(text, direction="rtl" if rtl else "ltr")) + 2
        img = Image.new("RGBA", (width, ascent + descent), (0, 0, 0, 0))
        ImageDraw.Draw(img).text(
            (1, ascent), text, font=f, anchor="ls", embedded_color=True, direction="rtl" if rtl else "ltr"
        )
    scale = size / EMOJI_FACE.strike
    return img.resize((max(1, round(img.width * scale)), max(1, round(img.height * scale))), Image.Resampling.LANCZOS)


@lru_cache(maxsize=64)
def _emoji_ascent(size: int) -> int:
    with _LOCK:
        ascent, _ = font(EMOJI_FACE.strike, False, EMOJI).getmetrics()
    return round(ascent * size / EMOJI_FACE.strike)


def _draw_box(draw: ImageDraw.ImageDraw, x: float, y: float, count: int, size: int, fill: Colour) -> None:
    """The placeholder of an uncovered character: an empty box the height of a capital letter."""
    step = round(size * 0.62)
    line = max(1, round(size / 14))
    for k in range(count):
        left = x + k * step + size * 0.08
        draw.rectangle([left, y - size * 0.74, left + step - size * 0.16, y], outline=fill, width=line)


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
    room: float | None = None,
) -> int:
    """Draw ``text`` with the fallback chain; ``anchor`` is l/m/r + s (baseline), m (middle) or t (top). Returns
    the width. ``room``: the width the caller made for it (drawing wider is recorded as an overflow)."""
    parts = runs(text, bold)
    width = text_width(text, size, bold)
    _record(TextEvent(text, size, width, room, room is None or width <= room + 0.5))
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
    image = getattr(draw, "_image", None)
    for run in parts:
        advance = run_width(run, size, bold)
        direction = "rtl" if run.rtl else "ltr"
        if run.index == BOX:
            _draw_box(draw, x, y, len(clusters(run.text)), size, fill)
        elif run.index == EMOJI and isinstance(image, Image.Image):
            picture = _emoji_image(run.text, size, run.rtl)
            at = (round(x) - 1, round(y) - _emoji_ascent(size))
            image.paste(picture if image.mode == "RGBA" else picture.convert(image.mode), at, picture)
        else:
            f = font(size, bold, run.index)
            width_extra = _bold_stroke(size) if _drawn_bold(run.index, bold) else 0
            inked = Inked(run.text, f, fill, direction, stroke or width_extra, stroke_fill if stroke else fill)
            _draw_run(draw, (x + width_extra, y), inked)
        x += advance
    return width


# What Pillow's ``ImageDraw.text`` drew for a run, by everything its pixels depend on (the font, the text, the
# colours, the start's fraction of a pixel, the drawing's modes): each stroke and fill as (mask, x, y, ink), x and y
# from the start's whole pixel. Drawing them again is the same ``draw_bitmap`` calls with the same masks and inks.
Stamp = tuple[tuple[Any, int, int, int], ...]
_stamps: dict[tuple[object, ...], Stamp] = {}
STAMPS_LIMIT: Final = 8192  # a few hundred bytes each (the masks are the font's own, shared)
STAMPED_MODES: Final = ("RGB", "RGBA", "L")  # where a colour's ink does not depend on the image (no palette)
stamping = True  # tests compare with False: Pillow's ``text`` itself, every time


class _Unrecordable(Exception):
    """``ImageDraw.text`` asked the recorder for something other than ink and bitmaps: draw the plain way."""


class _Recorder:
    """Stands in for a drawing's core while ``ImageDraw.text`` draws: keeps each ``draw_bitmap`` instead of drawing
    it, answers ``draw_ink`` as the real core does, and refuses anything else (a Pillow that drew text another way
    would otherwise be recorded wrong)."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.drawn: list[tuple[Any, int, int, int]] = []

    def draw_ink(self, ink: Any) -> int:
        return int(self.real.draw_ink(ink))

    def draw_bitmap(self, xy: tuple[int, int], mask: Any, ink: int) -> None:
        self.drawn.append((mask, xy[0], xy[1], ink))

    def __getattr__(self, name: str) -> Any:
        raise _Unrecordable(name)


class Inked(NamedTuple):
    """A run of text as Pillow draws it, apart from where: its pixels depend on these and on the start's fraction
    of a pixel (and the drawing's modes)."""

    text: str
    font: ImageFont.FreeTypeFont
    fill: Colour
    direction: str
    stroke_width: float
    stroke_fill: Colour | None

    def draw(self, draw: ImageDraw.ImageDraw, xy: tuple[float, float]) -> None:
        """Pillow's own ``text``, the baseline's left end at ``xy``."""
        draw.text(
            xy, self.text, font=self.font, fill=self.fill, anchor="ls", direction=self.direction,
            stroke_width=self.stroke_width, stroke_fill=self.stroke_fill,
        )  # fmt: skip


def _draw_run(draw: ImageDraw.ImageDraw, xy: tuple[float, float], run: Inked) -> None:
    """``run.draw(draw, xy)``, the same pixels, in about half the time once the same run has been drawn at the same
    fraction of a pixel: Pillow's ``text`` spends most of its time building objects around the one ``draw_bitmap``
    a run needs (board pictures draw the same coordinates, names and scores every turn, 40 or so texts each)."""
    image = getattr(draw, "_image", None)
    x, y = xy
    fraction = (math.modf(x)[0], math.modf(y)[0])
    mode = image.mode if isinstance(image, Image.Image) else None
    with _LOCK:
        stamp = None
        if stamping and mode in STAMPED_MODES:
            key = (run, fraction, draw.mode, draw.fontmode, mode)
            stamp = _stamps.get(key)
            if stamp is None:
                stamp = _record_stamp(draw, fraction, run, str(mode))
                if stamp is not None:
                    if len(_stamps) >= STAMPS_LIMIT:
                        _stamps.clear()
                    _stamps[key] = stamp
        if stamp is None:
            run.draw(draw, xy)
            return
        core, left, top = draw.draw, int(x), int(y)
        for mask, dx, dy, ink in stamp:
            core.draw_bitmap((left + dx, top + dy), mask, ink)


def _record_stamp(draw: ImageDraw.ImageDraw, fraction: tuple[float, float], run: Inked, mode: str) -> Stamp | None:
    """What ``ImageDraw.text`` draws for ``run`` started at ``fraction`` of a pixel from (0, 0), drawn by a drawing
    of the same modes into a recorder; None where it would not be recorded faithfully."""
    scratch = ImageDraw.Draw(Image.new(mode, (1, 1)), draw.mode)
    scratch.fontmode = draw.fontmode
    recorder = _Recorder(scratch.draw)
    scratch.draw = recorder
    try:
        run.draw(scratch, fraction)
    except _Unrecordable:
        return None
    return tuple(recorder.drawn)


def warm_fonts() -> None:
    """Open every font of both chains and shape a word of each script, so that the first names in Korean, Arabic
    or emoji cost a long-lived drawing process nothing extra."""
    for bold in (False, True):
        for index in range(chain_length()):
            font(24, bold, index)
        text_width("Aa Жж 张 김 محمد דוד \U0001f3b2", 20, bold)
    _emoji_image("\U0001f3b2", 20, False)


def text_image(text: str, size: int, fill: Colour, bold: bool = False) -> Image.Image:
    """A tight RGBA image of ``text`` (used by tests to check that names draw)."""
    width = max(1, text_width(text, size, bold))
    img = Image.new("RGBA", (width + 4, size * 2), (0, 0, 0, 0))
    draw_text(ImageDraw.Draw(img), (2, round(size * 1.4)), text, size, fill, bold=bold)
    return img
