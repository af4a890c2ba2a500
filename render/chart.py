"""The end-of-game image: final scores as stacked bars per scoring category, and the winner."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw

from render import fonts
from render.labels import label, names_list
from render.palette import INK, RGB
from render.panel import ACCENT, BG, CARD, MUTED, TEXT, swatch
from render.rounded import rounded_rectangle

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
class Scoring:
    """How a game's final scores are charted, with label keys (``render.labels``): the title once the game is over,
    the scoring categories (in bar order) by their keys in a player's ``breakdown``, and the legend of points lost
    (``""``: the game takes none away). A category's legend is the game's own word for it (``legend``)."""

    game: str
    title: str
    categories: tuple[str, ...]
    lost: str = ""

    def legend(self, category: str) -> str:
        """The label key of a category's legend: one per game, as the rulebooks' words differ."""
        return f"cat_{self.game}_{category}"


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


def _hatch(d: ImageDraw.ImageDraw, x0: float, y0: float, x1: float, y1: float) -> None:
    """The pattern of points lost (ransom paid): grey with diagonal strokes."""
    d.rectangle([x0, y0, x1, y1], fill=HATCH, outline=BG)
    for hx in range(int(x0), int(x1), 6):
        d.line([(hx, y1), (min(x1, hx + (y1 - y0)), y0)], fill=MUTED)


NAME_W: Final = 230


def chart_image(title: str, categories: Sequence[str], rows: Sequence[Row], lost: str = "") -> Image.Image:
    """Stacked horizontal bars, best score first; negative parts (ransom paid) drawn left of the axis, hatched,
    with ``lost`` as their legend. Names wrap onto more lines (and rows grow) rather than being cut."""
    ordered = sorted(rows, key=lambda r: -r.total)
    title_fit = fonts.fit(title, 34, WIDTH - 64, bold=True, lines=1, smallest=24)
    winners = [r.name for r in ordered if r.winner]
    winner_fit = None
    if winners:
        key = "winner" if len(winners) == 1 else "winners"
        winner_fit = fonts.fit(
            "★ " + label(key, names=names_list(winners)), 26, WIDTH - 64, bold=True, lines=1, smallest=18
        )
    names = [fonts.fit(r.name, 20, NAME_W - 50, bold=True, lines=2, smallest=14) for r in ordered]
    heights = [max(ROW_H, 24 + len(n.lines) * round(n.size * 1.25)) for n in names]
    title_h = 52 + round(title_fit.size * 1.25) * (len(title_fit.lines) - 1)
    winner_h = round(winner_fit.size * 1.3) * len(winner_fit.lines) if winner_fit else 0
    top = max(150, title_h + 22 + winner_h + 30)
    negative = any(p < 0 for r in ordered for p in r.parts)
    legend = [(name, False) for name in categories] + ([(lost, True)] if negative and lost else [])
    legend_rows = 1
    lx = 32
    for entry, _ in legend:
        item_w = fonts.text_width(entry, 17) + 34
        if lx + item_w > WIDTH - 20:
            legend_rows += 1
            lx = 32
        lx += item_w + 16
    height = top + sum(heights) + 20 + 28 * legend_rows + 20
    img = Image.new("RGB", (WIDTH, height), BG)
    d = ImageDraw.Draw(img)
    for i, line in enumerate(title_fit.lines):
        fonts.draw_text(d, (32, 52 + i * round(title_fit.size * 1.25)), line, title_fit.size, TEXT, bold=True,
                        room=WIDTH - 64)  # fmt: skip
    if winner_fit:
        for i, line in enumerate(winner_fit.lines):
            y = title_h + 48 + i * round(winner_fit.size * 1.3)
            fonts.draw_text(d, (32, y), line, winner_fit.size, ACCENT, bold=True, room=WIDTH - 64)
    x0 = 32 + NAME_W
    neg = max([-sum(p for p in r.parts if p < 0) for r in ordered] + [0])
    pos = max([sum(p for p in r.parts if p > 0) for r in ordered] + [1])
    span = WIDTH - x0 - 90
    unit = span / (pos + neg)
    axis = x0 + neg * unit
    y = top
    for r, name, row_h in zip(ordered, names, heights, strict=True):
        if r.winner:
            rounded_rectangle(d, [16, y - 4, WIDTH - 16, y + row_h - 8], radius=10, fill=CARD, outline=ACCENT, width=2)
        mid = y + row_h / 2 - 6
        swatch(d, 46, mid, 16, r.colour, r.mark)
        step = round(name.size * 1.25)
        first = mid - step * (len(name.lines) - 1) / 2
        rtl = fonts.right_to_left(r.name)
        for i, line in enumerate(name.lines):
            at = (72 + NAME_W - 50 if rtl else 72, first + i * step)
            fonts.draw_text(d, at, line, name.size, TEXT, bold=True, anchor="rm" if rtl else "lm", room=NAME_W - 50)
        bx = axis
        by0, by1 = mid - (ROW_H - 28) / 2, mid + (ROW_H - 28) / 2
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
            _hatch(d, nx - w, by0, nx - 1, by1)
            nx -= w
        fonts.draw_text(
            d, (bx + 10, (by0 + by1) / 2), str(r.total), 24, ACCENT if r.winner else TEXT, bold=True, anchor="lm"
        )
        d.line([(axis, by0 - 4), (axis, by1 + 4)], fill=MUTED, width=2)
        y += row_h
    ly = y + 20
    lx = 32
    for c, (entry, hatched) in enumerate(legend):
        item_w = fonts.text_width(entry, 17) + 34
        if lx + item_w > WIDTH - 20:
            ly += 28
            lx = 32
        if hatched:
            _hatch(d, lx, ly - 8, lx + 18, ly + 10)
        else:
            d.rectangle([lx, ly - 8, lx + 18, ly + 10], fill=CATEGORY_COLOURS[c % len(CATEGORY_COLOURS)])
        fonts.draw_text(d, (lx + 26, ly + 1), entry, 17, TEXT, anchor="lm", room=WIDTH - 20 - lx - 26)
        lx += item_w + 16
    return img
