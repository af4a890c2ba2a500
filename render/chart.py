"""The end-of-game image: final scores as stacked bars per scoring category, and the winner."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw

from render import fonts
from render.labels import label
from render.palette import INK, RGB
from render.panel import ACCENT, BG, CARD, MUTED, TEXT, swatch

# Category colours: a muted qualitative set, distinct from each other, never mistaken for player colours since
# every segment also has its legend and its value printed on it when there is room.
CATEGORY_COLOURS: Final[tuple[RGB, ...]] = (
    (196, 160, 98),
    (120, 144, 156),
    (141, 190, 90),
    (233, 196, 106),
    (171, 130, 195),
    (106, 168, 196),
    (220, 120, 100),
)
HATCH: Final = (90, 96, 108)


@dataclass(frozen=True)
class Row:
    name: str
    colour: RGB
    mark: str
    total: int
    parts: tuple[int, ...]  # points per category, same order as the categories
    winner: bool


WIDTH: Final = 1000
ROW_H: Final = 64


def chart_image(title: str, categories: Sequence[str], rows: Sequence[Row]) -> Image.Image:
    """Stacked horizontal bars, best score first; negative parts (ransom paid) drawn left of the axis, hatched."""
    ordered = sorted(rows, key=lambda r: -r.total)
    top = 150
    legend_h = 50
    height = top + ROW_H * len(ordered) + legend_h + 30
    img = Image.new("RGB", (WIDTH, height), BG)
    d = ImageDraw.Draw(img)
    fonts.draw_text(d, (32, 52), title, 34, TEXT, bold=True)
    winners = [r.name for r in ordered if r.winner]
    if winners:
        key = "winner" if len(winners) == 1 else "winners"
        line = fonts.fit("★ " + label(key, names=", ".join(winners)), 26, WIDTH - 64, True)
        fonts.draw_text(d, (32, 100), line, 26, ACCENT, bold=True)
    name_w = 230
    x0 = 32 + name_w
    neg = max([-sum(p for p in r.parts if p < 0) for r in ordered] + [0])
    pos = max([sum(p for p in r.parts if p > 0) for r in ordered] + [1])
    span = WIDTH - x0 - 90
    unit = span / (pos + neg)
    axis = x0 + neg * unit
    for i, r in enumerate(ordered):
        y = top + i * ROW_H
        if r.winner:
            d.rounded_rectangle([16, y - 4, WIDTH - 16, y + ROW_H - 8], radius=10, fill=CARD, outline=ACCENT, width=2)
        swatch(d, 46, y + ROW_H / 2 - 6, 16, r.colour, r.mark)
        fonts.draw_text(
            d, (72, y + ROW_H / 2 - 6), fonts.fit(r.name, 20, name_w - 50, True), 20, TEXT, bold=True, anchor="lm"
        )
        bx = axis
        by0, by1 = y + 8, y + ROW_H - 20
        for c, value in enumerate(r.parts):
            if value <= 0:
                continue
            w = value * unit
            colour = CATEGORY_COLOURS[c % len(CATEGORY_COLOURS)]
            d.rectangle([bx, by0, bx + w - 1, by1], fill=colour, outline=BG)
            if w >= 28:
                fonts.draw_text(d, (bx + w / 2, (by0 + by1) / 2), str(value), 16, INK, bold=True, anchor="mm")
            bx += w
        nx = axis
        for value in r.parts:
            if value >= 0:
                continue
            w = -value * unit
            d.rectangle([nx - w, by0, nx - 1, by1], fill=HATCH, outline=BG)
            for hx in range(int(nx - w), int(nx), 6):
                d.line([(hx, by1), (min(nx - 1, hx + (by1 - by0)), by0)], fill=MUTED)
            nx -= w
        fonts.draw_text(
            d, (bx + 10, (by0 + by1) / 2), str(r.total), 24, ACCENT if r.winner else TEXT, bold=True, anchor="lm"
        )
        d.line([(axis, by0 - 4), (axis, by1 + 4)], fill=MUTED, width=2)
    ly = top + ROW_H * len(ordered) + 20
    lx = 32.0
    for c, name in enumerate(categories):
        colour = CATEGORY_COLOURS[c % len(CATEGORY_COLOURS)]
        w = fonts.text_width(name, 17) + 34
        if lx + w > WIDTH - 20:
            ly += 28
            lx = 32
        d.rectangle([lx, ly - 8, lx + 18, ly + 10], fill=colour)
        fonts.draw_text(d, (lx + 26, ly + 1), name, 17, TEXT, anchor="lm")
        lx += w + 16
    if ly + 30 > height:
        img = img.crop((0, 0, WIDTH, ly + 30))
    return img
