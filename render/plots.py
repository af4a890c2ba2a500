"""Small charts on the end chart's dark card style, for the pictures that tell numbers: the story of a game
(``render.recap``) and a player's rating history (``render.rating_chart``).

A picture is a column of sections, each drawn at its top: a heading, then its chart. Every text is fitted into the
room made for it (smaller first, never cut); colours come with a second cue (a player's mark, a legend).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw

from render import fonts
from render.palette import RGB
from render.panel import ACCENT, BG, CARD, MUTED, TEXT, swatch

WIDTH: Final = 1000
PAD: Final = 32
HEADING: Final = 22  # a section heading's size
SMALL: Final = 15  # axis labels and values
GRID: Final = (62, 68, 80)
NOBODY: Final = (88, 94, 106)  # an award nobody holds


@dataclass(frozen=True)
class Section:
    """A part of a picture: how tall it is, and how to draw it with its top at ``top``."""

    height: int
    draw: Callable[[ImageDraw.ImageDraw, int], None]


@dataclass(frozen=True)
class Box:
    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0


def compose(sections: Sequence[Section], width: int = WIDTH) -> Image.Image:
    """The sections one under another on one picture."""
    img = Image.new("RGB", (width, sum(s.height for s in sections) + PAD), BG)
    d = ImageDraw.Draw(img)
    top = PAD // 2
    for section in sections:
        section.draw(d, top)
        top += section.height
    return img


def text_section(text: str, size: int, colour: RGB, *, bold: bool = False, width: int = WIDTH) -> Section:
    """A line of text (wrapped onto more lines rather than cut)."""
    fitted = fonts.fit(text, size, width - 2 * PAD, bold=bold, lines=2, smallest=round(size * 0.7))
    step = round(fitted.size * 1.3)

    def draw(d: ImageDraw.ImageDraw, top: int) -> None:
        for i, line in enumerate(fitted.lines):
            fonts.draw_text(d, (PAD, top + fitted.size + i * step), line, fitted.size, colour, bold=bold,
                            room=width - 2 * PAD)  # fmt: skip

    return Section(step * len(fitted.lines) + 10, draw)


def heading(text: str, width: int = WIDTH) -> Section:
    return text_section(text, HEADING, TEXT, bold=True, width=width)


def legend(entries: Sequence[tuple[RGB, str, str]], width: int = WIDTH) -> Section:
    """Swatches with their texts, in rows: ``(colour, mark, text)``; a mark draws a player's disc, none a square."""
    size = 17
    placed: list[tuple[float, int, RGB, str, str, int]] = []
    x, row = float(PAD), 0
    for colour, mark, text in entries:
        shown = fonts.fit_line(text, size, width - 2 * PAD - 34, smallest=10)
        item = 34 + fonts.text_width(text, shown)
        if x > PAD and x + item > width - PAD:
            x, row = float(PAD), row + 1
        placed.append((x, row, colour, mark, text, shown))
        x += item + 22

    def draw(d: ImageDraw.ImageDraw, top: int) -> None:
        for x, row, colour, mark, text, shown in placed:
            cy = top + 14 + row * 30
            if mark:
                swatch(d, x + 12, cy, 12, colour, mark)
            else:
                d.rectangle([x + 2, cy - 9, x + 20, cy + 9], fill=colour)
            fonts.draw_text(d, (x + 32, cy), text, shown, TEXT, anchor="lm", room=width - PAD - x - 32)

    return Section(30 * (row + 1) + 8, draw)


def step_for(top: float, count: int = 4) -> int:
    """A round step (1, 2 or 5 times a power of ten) that divides 0..``top`` into about ``count`` parts."""
    raw = max(top, 1) / count
    power = 10 ** math.floor(math.log10(raw))
    return int(next(m * power for m in (1, 2, 5, 10) if m * power >= raw)) or 1


def value_axis(d: ImageDraw.ImageDraw, box: Box, low: float, high: float, step: float) -> Callable[[float], float]:
    """Grid lines at every ``step`` from ``low`` to ``high`` with their values left of ``box``; returns the map from
    a value to its height in the box."""

    def y(value: float) -> float:
        return box.y1 - (value - low) / ((high - low) or 1) * box.height

    value = math.ceil(low / step) * step
    while value <= high + 1e-9:
        at = y(value)
        d.line([(box.x0, at), (box.x1, at)], fill=GRID, width=1)
        fonts.draw_text(d, (box.x0 - 8, at), f"{value:g}", SMALL, MUTED, anchor="rm")
        value += step
    return y


def bar_value(d: ImageDraw.ImageDraw, x: float, y: float, value: float, room: float) -> None:
    """A bar's value just above (or, for a negative one, below) its end."""
    if room < 14:
        return
    size = fonts.fit_line(f"{value:g}", SMALL, room, smallest=10)
    at, anchor = ((x, y - 5), "ms") if value >= 0 else ((x, y + 5), "mt")
    fonts.draw_text(d, at, f"{value:g}", size, TEXT, anchor=anchor, room=room, stroke=3, stroke_fill=CARD)


def spread(positions: Sequence[float], gap: float) -> list[float]:
    """Sorted positions moved apart as little as possible so that each is at least ``gap`` from the next (marks at
    the ends of lines that end close together), keeping their middle where it was."""
    placed = list(positions)
    for i in range(1, len(placed)):
        placed[i] = max(placed[i], placed[i - 1] + gap)
    if placed:
        shift = (sum(positions) - sum(placed)) / len(placed)
        placed = [p + shift for p in placed]
    return placed


def line_chart(
    series: Sequence[tuple[RGB, str, Sequence[tuple[float, float]]]],
    *,
    height: int = 260,
    x_label: str = "",
    width: int = WIDTH,
) -> Section:
    """Lines of ``(x, y)`` points, one per ``(colour, mark, points)``, on shared axes; each line's mark at its end."""
    xs = [x for _, _, points in series for x, _ in points] or [0.0, 1.0]
    ys = [y for _, _, points in series for _, y in points] or [0.0]
    low_x, high_x = min(xs), max(max(xs), min(xs) + 1)
    step = step_for(max(ys) - min(min(ys), 0))
    low_y = math.floor(min(min(ys), 0) / step) * step
    high_y = max(math.ceil(max(ys) / step) * step, low_y + step)

    def draw(d: ImageDraw.ImageDraw, top: int) -> None:
        box = Box(PAD + 56, top + 10, width - PAD - 36, top + height - 40)
        d.rectangle([box.x0, box.y0, box.x1, box.y1], fill=CARD)
        y = value_axis(d, box, low_y, high_y, step)

        def x(value: float) -> float:
            return box.x0 + (value - low_x) / (high_x - low_x) * box.width

        for tick in (low_x, (low_x + high_x) / 2, high_x):
            fonts.draw_text(d, (x(tick), box.y1 + 20), f"{round(tick):d}", SMALL, MUTED, anchor="ms")
        if x_label:
            fonts.draw_text(d, (box.x1, box.y1 + 36), x_label, SMALL, MUTED, anchor="rs", room=box.width / 2)
        for colour, _, points in series:
            shown = [(x(px), y(py)) for px, py in points]
            if len(shown) > 1:
                d.line(shown, fill=colour, width=3, joint="curve")
            if shown:
                px, py = shown[-1]
                d.ellipse([px - 4, py - 4, px + 4, py + 4], fill=colour)
        ends = sorted(
            (y(points[-1][1]), x(points[-1][0]), colour, mark) for colour, mark, points in series if points and mark
        )
        placed_at = spread([e[0] for e in ends], 24)
        if placed_at:  # inside the chart, clear of the turn numbers under it
            placed_at = [p - max(0.0, placed_at[-1] - box.y1) + max(0.0, box.y0 - placed_at[0]) for p in placed_at]
        for (at, px, colour, mark), placed in zip(ends, placed_at, strict=True):
            if abs(placed - at) > 1:  # moved off its line's end: a thin lead shows whose it is
                d.line([(px, at), (px + 12, placed)], fill=colour, width=2)
            swatch(d, min(px + 16, width - PAD - 4), placed, 11, colour, mark)

    return Section(height, draw)


def columns(
    groups: Sequence[tuple[str, Sequence[tuple[RGB, float]]]],
    *,
    height: int = 240,
    curve: Sequence[float] = (),
    curve_colour: RGB = ACCENT,
    width: int = WIDTH,
) -> Section:
    """Vertical bars in groups, each ``(label, [(colour, value), ...])``, with each value above its bar (below a
    negative one); ``curve``: one value per group, drawn as a line with dots over the bars (what to expect)."""
    values = [v for _, bars in groups for _, v in bars] + list(curve)
    top_value = max([*values, 1])
    low = min([*values, 0])
    step = step_for(top_value - low)
    high = math.ceil(top_value / step) * step
    low = math.floor(low / step) * step

    def draw(d: ImageDraw.ImageDraw, top: int) -> None:
        box = Box(PAD + 56, top + 18, width - PAD, top + height - 34)  # two lines of labels under it
        d.rectangle([box.x0, box.y0, box.x1, box.y1], fill=CARD)
        y = value_axis(d, box, low, high, step)
        slot = box.width / max(len(groups), 1)
        centres, values = [], []
        for i, (label, bars) in enumerate(groups):
            x0 = box.x0 + i * slot + slot * 0.12
            bar = slot * 0.76 / max(len(bars), 1)
            for j, (colour, value) in enumerate(bars):
                bx = x0 + j * bar
                y0, y1 = sorted((y(0), y(value)))
                if y1 - y0 >= 1:
                    d.rectangle([bx + 1, y0, bx + bar - 1, y1], fill=colour)
                values.append((bx + bar / 2, y(value), value, bar + 6))
            centre = box.x0 + (i + 0.5) * slot
            centres.append(centre)
            shown = fonts.fit(label, SMALL, slot - 4, lines=2, smallest=11)
            for k, line in enumerate(shown.lines):
                fonts.draw_text(d, (centre, box.y1 + 20 + k * round(shown.size * 1.2)), line, shown.size, MUTED,
                                anchor="ms", room=slot - 4)  # fmt: skip
        d.line([(box.x0, y(0)), (box.x1, y(0))], fill=MUTED, width=1)
        if curve:
            points = [(cx, y(v)) for cx, v in zip(centres, curve, strict=True)]
            d.line(points, fill=curve_colour, width=3, joint="curve")
            for px, py in points:
                d.ellipse([px - 4, py - 4, px + 4, py + 4], fill=curve_colour, outline=BG)
        for at in values:  # over the curve, outlined: always readable
            bar_value(d, *at)

    return Section(height + 18, draw)


def timeline(
    rows: Sequence[tuple[str, Sequence[tuple[float, RGB | None, str]]]],
    *,
    end: float,
    x_label: str = "",
    width: int = WIDTH,
) -> Section:
    """Strips across the turns 0..``end``, one per ``(label, changes)``: from each change ``(turn, colour, mark)``
    on, the strip has that holder's colour and mark (None: nobody, grey)."""
    label_w = 210
    strip = 34
    labels = [fonts.fit(label, 17, label_w - 12, bold=True, lines=2, smallest=12) for label, _ in rows]

    def draw(d: ImageDraw.ImageDraw, top: int) -> None:
        box = Box(PAD + label_w, top + 6, width - PAD, top + 6 + len(rows) * (strip + 12))

        def x(turn: float) -> float:
            return box.x0 + min(max(turn, 0), end) / (end or 1) * box.width

        for i, ((_, changes), label) in enumerate(zip(rows, labels, strict=True)):
            y0 = box.y0 + i * (strip + 12)
            step = round(label.size * 1.2)
            first = y0 + strip / 2 - step * (len(label.lines) - 1) / 2
            for j, line in enumerate(label.lines):
                fonts.draw_text(d, (PAD, first + j * step), line, label.size, TEXT, bold=True, anchor="lm",
                                room=label_w - 12)  # fmt: skip
            spans = [(0.0, None, ""), *changes]
            for k, (start, colour, mark) in enumerate(spans):
                stop = spans[k + 1][0] if k + 1 < len(spans) else end
                x0, x1 = x(start), x(stop)
                if x1 - x0 < 1:
                    continue
                d.rectangle([x0, y0, x1, y0 + strip], fill=colour or NOBODY, outline=BG)
                if mark and x1 - x0 > 30:
                    swatch(d, (x0 + x1) / 2, y0 + strip / 2, 12, colour or NOBODY, mark)
        for tick in (0, end / 2, end):
            fonts.draw_text(d, (x(tick), box.y1 + 16), f"{round(tick):d}", SMALL, MUTED, anchor="ms")
        if x_label:
            fonts.draw_text(d, (box.x1, box.y1 + 34), x_label, SMALL, MUTED, anchor="rs", room=box.width / 2)

    return Section(len(rows) * (strip + 12) + 48, draw)
