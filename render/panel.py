"""The side panel shared by both games: one card per player (colour, mark, name, score, details) and a header."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from PIL import Image, ImageDraw

from render import fonts
from render.palette import RGB, text_on

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


def card_height(card: PlayerCard) -> int:
    lines = len(card.details) + (1 if card.badges else 0)
    return max(ROW, 50 + 22 * lines)


def panel_height(panel: Panel, picture: Image.Image | None = None) -> int:
    extra = picture.height + 40 if picture is not None else 0
    return HEADER + sum(card_height(c) + 8 for c in panel.cards) + 26 * len(panel.footer) + PAD + extra


def swatch(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, colour: RGB, mark: str) -> None:
    draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=colour, outline=TEXT, width=2)
    fonts.draw_text(draw, (cx, cy), mark, round(r * 1.15), text_on(colour), bold=True, anchor="mm")


def draw_panel(
    panel: Panel, height: int, width: int = WIDTH, picture: Image.Image | None = None, caption: str = ""
) -> Image.Image:
    """The panel as an RGB image of ``width`` x ``height`` (height at least :func:`panel_height`).

    ``picture`` (the drawn tile of a turn preview) is shown under the cards with ``caption`` above it.
    """
    img = Image.new("RGB", (width, max(height, panel_height(panel, picture))), BG)
    d = ImageDraw.Draw(img)
    fonts.draw_text(d, (PAD, 30), fonts.fit(panel.title, 24, width - 2 * PAD, True), 24, TEXT, bold=True)
    fonts.draw_text(d, (PAD, 54), fonts.fit(panel.subtitle, 16, width - 2 * PAD), 16, MUTED)
    y = HEADER
    for card in panel.cards:
        h = card_height(card)
        d.rounded_rectangle(
            [PAD - 4, y, width - PAD + 4, y + h],
            radius=10,
            fill=ACTIVE if card.active else CARD,
            outline=ACCENT if card.active else None,
            width=3 if card.active else 0,
        )
        d.rectangle([PAD - 4, y + 8, PAD + 2, y + h - 8], fill=card.colour)
        swatch(d, PAD + 30, y + 28, 17, card.colour, card.mark)
        score_w = fonts.text_width(card.score, 24, True)
        name_w = width - 2 * PAD - 60 - score_w - 12
        name = ("★ " if card.winner else "") + card.name
        fonts.draw_text(d, (PAD + 56, y + 36), fonts.fit(name, 21, name_w, True), 21, TEXT, bold=True)
        fonts.draw_text(
            d, (width - PAD - 4, y + 36), card.score, 24, ACCENT if card.winner else TEXT, bold=True, anchor="rs"
        )
        ly = y + 62
        for line in card.details:
            fonts.draw_text(d, (PAD + 56, ly), fonts.fit(line, 15, width - 2 * PAD - 60), 15, MUTED)
            ly += 22
        if card.badges:
            bx = PAD + 56
            for b in card.badges:
                bw = fonts.text_width(b, 14, True) + 14
                d.rounded_rectangle([bx, ly - 15, bx + bw, ly + 5], radius=6, fill=ACCENT)
                fonts.draw_text(d, (bx + 7, ly), b, 14, (30, 30, 30), bold=True)
                bx += bw + 6
        y += h + 8
    for line in panel.footer:
        fonts.draw_text(d, (PAD, y + 18), fonts.fit(line, 16, width - 2 * PAD), 16, MUTED)
        y += 26
    if picture is not None:
        fonts.draw_text(d, (PAD, y + 24), fonts.fit(caption, 18, width - 2 * PAD, True), 18, TEXT, bold=True)
        img.paste(picture, ((width - picture.width) // 2, y + 36))
    return img
