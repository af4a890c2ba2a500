"""The side panel shared by both games: one card per player (colour, mark, name, score, details) and a header."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache, partial
from typing import Final, NamedTuple

from PIL import Image, ImageDraw

from render import fonts
from render.fonts import Colour
from render.palette import RGB, text_on
from render.pasting import fill, paste
from render.rounded import rounded_rectangle

BG: Final = (36, 40, 47)
CARD: Final = (46, 51, 60)
ACTIVE: Final = (66, 74, 88)
TEXT: Final = (236, 238, 242)
MUTED: Final = (170, 177, 190)
ACCENT: Final = (255, 214, 80)

WIDTH: Final = 340
ROW: Final = 86
HEADER: Final = 64
PAD: Final = 14


@dataclass(frozen=True)
class PlayerCard:
    name: str
    colour: RGB
    mark: str
    score: str
    details: tuple[str, ...] = ()
    badges: tuple[str, ...] = ()  # short highlighted facts ("Longest road")
    active: bool = False
    winner: bool = False


@dataclass(frozen=True)
class Panel:
    title: str
    subtitle: str
    cards: tuple[PlayerCard, ...]
    footer: tuple[str, ...] = field(default=())


NAME_SIZE: Final = 21
DETAIL_SIZE: Final = 15
BADGE_SIZE: Final = 14
LINE_SIZE: Final = 16  # subtitle and footer
CAPTION_SIZE: Final = 18


def _line_height(size: int) -> int:
    return round(size * 1.3)


@dataclass(frozen=True)
class CardLayout:
    name: fonts.Fitted
    name_baselines: tuple[int, ...]  # from the card's top
    details: tuple[tuple[fonts.Fitted, tuple[int, ...]], ...]
    badges: tuple[tuple[str, int, int, int, int], ...]  # text, size, x from the left edge, baseline, width
    height: int


def _name_width(card: PlayerCard, width: int) -> int:
    return width - 2 * PAD - 60 - fonts.text_width(card.score, 24, True) - 12


@lru_cache(maxsize=256)
def card_layout(card: PlayerCard, width: int = WIDTH) -> CardLayout:
    """Where every text of a card goes: the name on as many lines as it needs (smaller first, then wrapped), the
    details wrapped, the badges in rows. Nothing is cut, so the card is as tall as its texts."""
    text = ("★ " if card.winner else "") + card.name
    name = fonts.fit(text, NAME_SIZE, _name_width(card, width), bold=True, lines=1, smallest=16)
    if len(name.lines) > 1:
        name = fonts.fit(text, NAME_SIZE, _name_width(card, width), bold=True, lines=2, smallest=14)
    if len(name.lines) == 1:
        baselines: tuple[int, ...] = (36,)
    else:
        step = _line_height(name.size)
        baselines = tuple(12 + name.size + i * step for i in range(len(name.lines)))
    ly = max(62, baselines[-1] + 24)
    inner = width - 2 * PAD - 60
    details = []
    for line in card.details:
        fitted = fonts.fit(line, DETAIL_SIZE, inner, bold=False, lines=1, smallest=12)
        step = _line_height(fitted.size) + 2
        details.append((fitted, tuple(ly + i * step for i in range(len(fitted.lines)))))
        ly += step * len(fitted.lines)
    badges = []
    bx = 0
    for text in card.badges:
        size = fonts.fit_line(text, BADGE_SIZE, inner - 14, bold=True, smallest=10)
        bw = fonts.text_width(text, size, True) + 14
        if bx and bx + bw > inner:
            bx = 0
            ly += 26
        badges.append((text, size, bx, ly, bw))
        bx += bw + 6
    bottom = ly + (26 if card.badges else 0)
    return CardLayout(name, baselines, tuple(details), tuple(badges), max(ROW, bottom - 12))


def card_height(card: PlayerCard, width: int = WIDTH) -> int:
    return card_layout(card, width).height


@lru_cache(maxsize=256)
def _header(panel: Panel, width: int) -> tuple[fonts.Fitted, fonts.Fitted, int]:
    title = fonts.fit(panel.title, 24, width - 2 * PAD, bold=True, lines=1, smallest=18)
    subtitle = fonts.fit(panel.subtitle, LINE_SIZE, width - 2 * PAD, bold=False, lines=1, smallest=13)
    height = (
        30
        + _line_height(title.size) * (len(title.lines) - 1)
        + 24
        + _line_height(subtitle.size) * (len(subtitle.lines) - 1)
    )
    return title, subtitle, max(HEADER, height + 10)


def _footer(panel: Panel, width: int) -> tuple[fonts.Fitted, ...]:
    return tuple(fonts.fit(line, LINE_SIZE, width - 2 * PAD, bold=False, lines=1, smallest=13) for line in panel.footer)


def _caption(caption: str, width: int) -> fonts.Fitted:
    return fonts.fit(caption, CAPTION_SIZE, width - 2 * PAD, bold=True, lines=1, smallest=14)


def panel_height(panel: Panel, picture: Image.Image | None = None, caption: str = "", width: int = WIDTH) -> int:
    extra = 0
    if picture is not None:
        extra = picture.height + 40 + _line_height(CAPTION_SIZE) * (len(_caption(caption, width).lines) - 1)
    footer = sum(_line_height(f.size) * len(f.lines) + 6 for f in _footer(panel, width))
    cards = sum(card_height(c, width) + 8 for c in panel.cards)
    return _header(panel, width)[2] + cards + footer + PAD + extra


def swatch(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, colour: RGB, mark: str) -> None:
    draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=colour, outline=TEXT, width=2)
    size = fonts.fit_line(mark, round(r * 1.15), r * 1.7, bold=True)
    fonts.draw_text(draw, (cx, cy), mark, size, text_on(colour), bold=True, anchor="mm", room=r * 1.7)


def draw_lines(
    draw: ImageDraw.ImageDraw,
    x: float,
    baselines: tuple[int, ...] | list[int],
    fitted: fonts.Fitted,
    room: float,
    fill: Colour,
    bold: bool = False,
) -> None:
    """The lines of ``fitted`` at ``baselines``, from ``x`` (right-to-left text: ending at ``x + room``)."""
    rtl = fonts.right_to_left(" ".join(fitted.lines))
    for line, y in zip(fitted.lines, baselines, strict=True):
        at = (x + room, y) if rtl else (x, y)
        fonts.draw_text(draw, at, line, fitted.size, fill, bold=bold, room=room, anchor="rs" if rtl else "ls")


def _baselines(top: int, fitted: fonts.Fitted) -> list[int]:
    return [top + i * _line_height(fitted.size) for i in range(len(fitted.lines))]


def draw_panel(
    panel: Panel, height: int, width: int = WIDTH, picture: Image.Image | None = None, caption: str = ""
) -> Image.Image:
    """The panel as an RGB image of ``width`` x ``height`` (height at least :func:`panel_height`).

    ``picture`` (the drawn tile of a turn preview) is shown under the cards with ``caption`` above it.
    """
    # not filled here: paint_panel paints the background itself
    img = Image.new("RGB", (width, max(height, panel_height(panel, picture, caption, width))))
    paint_panel(img, 0, panel, width, picture, caption)
    return img


def paint_panel(
    img: Image.Image, left: int, panel: Panel, width: int = WIDTH, picture: Image.Image | None = None, caption: str = ""
) -> None:
    """Draw the panel into ``img`` (at least :func:`panel_height` tall) from column ``left`` on, over whatever is there:
    the same pixels as :func:`draw_panel` pasted there, without a picture of its own to make and copy."""
    fill(img, BG, (left, 0, left + width, img.height))
    d = ImageDraw.Draw(img)
    for part in _parts(panel, img.height, width, picture, caption):
        part.paint(img, d, left)


def repaint_panel(
    img: Image.Image, left: int, panel: Panel, before: Panel, width: int = WIDTH, caption: str = ""
) -> list[Box]:
    """Turn the panel ``before`` painted in ``img`` (by :func:`paint_panel`, at ``left``, the same height) into
    ``panel``: only its parts that differ (the header, a card, the footer), each part's rows painted again from the
    background up. A part draws nothing outside its rows, so the rest is already right: the same pixels as painting
    ``panel`` whole. Returns the boxes painted again (a timelapse frame compares only those with the one before)."""
    kept = {(part.key, part.top, part.bottom) for part in _parts(before, img.height, width, None, caption)}
    d = ImageDraw.Draw(img)
    boxes: list[Box] = []
    for part in _parts(panel, img.height, width, None, caption):
        if (part.key, part.top, part.bottom) in kept:
            continue
        box = (left, part.top, left + width, part.bottom)
        fill(img, BG, box)
        part.paint(img, d, left)
        boxes.append(box)
    return boxes


Box = tuple[int, int, int, int]


class _Part(NamedTuple):
    """One band of a panel's rows and what draws in it: the header, a card (with the gap under it), or the footer to
    the bottom. ``key``: equal keys in equal rows draw equal pixels (a picture never counts as equal)."""

    key: tuple[object, ...]
    top: int
    bottom: int
    paint: Callable[[Image.Image, ImageDraw.ImageDraw, int], None]  # (the image, its drawing, the panel's left)


def _parts(panel: Panel, height: int, width: int, picture: Image.Image | None, caption: str) -> list[_Part]:
    title, subtitle, y = _header(panel, width)
    header = partial(_paint_header, title=title, subtitle=subtitle, width=width)
    parts = [_Part(("header", panel.title, panel.subtitle), 0, y, header)]
    for card in panel.cards:
        lay = card_layout(card, width)
        parts.append(
            _Part(("card", card), y, y + lay.height + 8, partial(_paint_card, y=y, card=card, lay=lay, width=width))
        )
        y += lay.height + 8
    tail = ("footer", panel.footer, caption, object() if picture is not None else None)
    paint = partial(_paint_footer, y=y, panel=panel, width=width, picture=picture, caption=caption)
    parts.append(_Part(tail, y, height, paint))
    return parts


def _paint_header(
    img: Image.Image, d: ImageDraw.ImageDraw, left: int, *, title: fonts.Fitted, subtitle: fonts.Fitted, width: int
) -> None:
    room = width - 2 * PAD
    x = left + PAD  # every column is counted from here: whole pixels, so text lands on the same pixels
    draw_lines(d, x, _baselines(30, title), title, room, TEXT, True)
    sub_top = 30 + _line_height(title.size) * (len(title.lines) - 1) + 24
    draw_lines(d, x, _baselines(sub_top, subtitle), subtitle, room, MUTED)


def _paint_card(
    img: Image.Image, d: ImageDraw.ImageDraw, left: int, *, y: int, card: PlayerCard, lay: CardLayout, width: int
) -> None:
    h = lay.height
    x = left + PAD
    rounded_rectangle(
        d,
        [x - 4, y, left + width - PAD + 4, y + h],
        radius=10,
        fill=ACTIVE if card.active else CARD,
        outline=ACCENT if card.active else None,
        width=3 if card.active else 0,
    )
    d.rectangle([x - 4, y + 8, x + 2, y + h - 8], fill=card.colour)
    swatch(d, x + 30, y + 28, 17, card.colour, card.mark)
    draw_lines(d, x + 56, [y + b for b in lay.name_baselines], lay.name, _name_width(card, width), TEXT, True)
    fonts.draw_text(
        d, (left + width - PAD - 4, y + 36), card.score, 24, ACCENT if card.winner else TEXT, bold=True, anchor="rs"
    )
    for fitted, baselines in lay.details:
        draw_lines(d, x + 56, [y + b for b in baselines], fitted, width - 2 * PAD - 60, MUTED)
    for text, size, bx, by, bw in lay.badges:
        x0, y0 = x + 56 + bx, y + by
        rounded_rectangle(d, [x0, y0 - 15, x0 + bw, y0 + 5], radius=6, fill=ACCENT)
        fonts.draw_text(d, (x0 + 7, y0), text, size, (30, 30, 30), bold=True, room=bw - 14)


def _paint_footer(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    left: int,
    *,
    y: int,
    panel: Panel,
    width: int,
    picture: Image.Image | None,
    caption: str,
) -> None:
    room = width - 2 * PAD
    x = left + PAD
    for fitted in _footer(panel, width):
        draw_lines(d, x, _baselines(y + 18, fitted), fitted, room, MUTED)
        y += _line_height(fitted.size) * len(fitted.lines) + 6
    if picture is not None:
        fitted = _caption(caption, width)
        draw_lines(d, x, _baselines(y + 24, fitted), fitted, room, TEXT, True)
        y += _line_height(CAPTION_SIZE) * (len(fitted.lines) - 1)
        paste(img, picture, (left + (width - picture.width) // 2, y + 36))
