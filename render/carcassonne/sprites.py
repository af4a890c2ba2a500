"""Tile, follower and tower sprites: drawn at twice the size, reduced once, cached (never mutate the results)."""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from PIL import Image, ImageDraw

from engine.carcassonne.tiles import TILES
from render import fonts
from render.carcassonne.shapes import (
    CLOISTER_HALF,
    JUNCTION_R,
    RIVER_W,
    ROAD_W,
    Point,
    pennant_point,
    rotate_point,
    tile_shapes,
)
from render.palette import INK, PAPER, RGB, darker, text_on

GRASS: Final = (141, 190, 90)
GRASS_EDGE: Final = (112, 158, 70)
CITY: Final = (222, 188, 128)
CITY_DARK: Final = (196, 158, 98)
WALL: Final = (110, 80, 52)
WALL_TOP: Final = (170, 134, 92)
ROAD: Final = (244, 236, 214)
ROAD_EDGE: Final = (150, 132, 100)
WATER: Final = (58, 140, 212)
WATER_LIGHT: Final = (120, 186, 236)
HEDGE: Final = (62, 110, 44)
STONE: Final = (160, 166, 172)
STONE_DARK: Final = (72, 78, 86)
PENNANT: Final = (40, 86, 170)
ROOF: Final = (181, 69, 47)
CHAPEL: Final = (246, 240, 228)


def _p(p: Point, s: float) -> tuple[float, float]:
    return (p[0] * s, p[1] * s)


def _draw_base(tile_id: str, s: int) -> Image.Image:
    """The rotatable layer (fields, cities, roads, rivers) of a tile in reference orientation at ``s`` px."""
    shapes = tile_shapes(tile_id)
    img = Image.new("RGB", (s, s), GRASS)
    d = ImageDraw.Draw(img)
    # a few darker tufts give the grass texture, deterministic per tile
    seed = sum(ord(c) for c in tile_id)
    for i in range(9):
        tx = ((seed * 37 + i * 53) % 97) / 97
        ty = ((seed * 61 + i * 29) % 89) / 89
        r = s * 0.012
        d.ellipse([tx * s - r, ty * s - r, tx * s + r, ty * s + r], fill=GRASS_EDGE)
    for river in shapes.rivers:
        pts = [_p(p, s) for p in river.points]
        d.line(pts, fill=WATER, width=round(RIVER_W * s), joint="curve")
        d.line(pts, fill=WATER_LIGHT, width=max(1, round(RIVER_W * s * 0.25)), joint="curve")
    if shapes.lake:
        box = [v * s for v in shapes.lake]
        d.ellipse(box, fill=WATER, outline=(40, 100, 160), width=max(1, s // 60))
        inset = s * 0.08
        d.ellipse([box[0] + inset, box[1] + inset, box[2] - inset * 1.6, box[3] - inset * 1.6], fill=WATER_LIGHT)
    if shapes.spring:
        cx, cy = shapes.spring
        r = s * 0.11
        d.ellipse([cx * s - r, cy * s - r, cx * s + r, cy * s + r], fill=WATER, outline=(40, 100, 160), width=2)
        r2 = r * 0.45
        d.ellipse([cx * s - r2, cy * s - r2, cx * s + r2, cy * s + r2], fill=WATER_LIGHT)

    def road(points: tuple[Point, ...]) -> None:
        pts = [_p(p, s) for p in points]
        w = round(ROAD_W * s)
        d.line(pts, fill=ROAD_EDGE, width=w, joint="curve")
        d.line(pts, fill=ROAD, width=max(1, w - max(2, s // 40)), joint="curve")

    for r_ in shapes.roads:
        if not r_.through or not shapes.cities:
            road(r_.points)
    for city in shapes.cities:
        poly = [_p(p, s) for p in city.polygon]
        d.polygon(poly, fill=CITY)
        for wall in city.walls:
            pts = [_p(p, s) for p in wall]
            d.line(pts, fill=WALL, width=max(2, round(s * 0.05)), joint="curve")
            d.line(pts, fill=WALL_TOP, width=max(1, round(s * 0.018)), joint="curve")
    for r_ in shapes.roads:
        if r_.through and shapes.cities:
            road(r_.points)
    for hedge in shapes.hedges:
        pts = [_p(p, s) for p in hedge]
        d.line(pts, fill=HEDGE, width=max(2, round(s * 0.045)))
    if shapes.bridge:
        (cx, cy), (dx, dy) = shapes.bridge
        half = RIVER_W * 0.75
        off = ROAD_W * 0.62
        for sign in (-1, 1):
            nx, ny = dy * off * sign, dx * off * sign
            a = ((cx - dx * half + nx) * s, (cy - dy * half + ny) * s)
            b = ((cx + dx * half + nx) * s, (cy + dy * half + ny) * s)
            d.line([a, b], fill=STONE_DARK, width=max(2, round(s * 0.03)))
    return img


def _houses(d: ImageDraw.ImageDraw, poly: list[tuple[float, float]], s: int, seed: int) -> None:
    """Small upright houses on a lattice inside a city, only where a whole lattice cell is in the city."""
    mask = Image.new("L", (s, s), 0)
    ImageDraw.Draw(mask).polygon(poly, fill=255)
    step = s / 6
    for gy in range(6):
        for gx in range(6):
            if (gx + gy + seed) % 3:
                continue
            hx, hy = (gx + 0.5) * step, (gy + 0.5) * step
            probe = [
                (hx - step * 0.5, hy - step * 0.5),
                (hx + step * 0.5, hy + step * 0.5),
                (hx - step * 0.5, hy + step * 0.5),
                (hx + step * 0.5, hy - step * 0.5),
            ]
            if all(mask.getpixel((min(s - 1, int(px)), min(s - 1, int(py)))) for px, py in probe):
                w = step * 0.3
                d.rectangle([hx - w, hy - w * 0.4, hx + w, hy + w], fill=CITY_DARK)
                d.polygon(
                    [(hx - w * 1.2, hy - w * 0.3), (hx, hy - w * 1.2), (hx + w * 1.2, hy - w * 0.3)], fill=(168, 96, 64)
                )


def _draw_upright(img: Image.Image, tile_id: str, quarter: int, s: int) -> None:
    """Parts that stay upright whatever the rotation: houses, cloister, tower foundation, junction, pennants."""
    shapes = tile_shapes(tile_id)
    d = ImageDraw.Draw(img)
    tile = TILES[tile_id]
    seed = sum(ord(c) for c in tile_id)
    for city in shapes.cities:
        _houses(d, [_p(rotate_point(p, quarter), s) for p in city.polygon], s, seed)
    for city in shapes.cities:
        if city.pennants:
            px, py = rotate_point(pennant_point(tile_id, city.segment), quarter)
            w = s * 0.075
            cx, cy = px * s, py * s
            shield = [
                (cx - w, cy - w),
                (cx + w, cy - w),
                (cx + w, cy + w * 0.3),
                (cx, cy + w * 1.2),
                (cx - w, cy + w * 0.3),
            ]
            d.polygon(shield, fill=PENNANT, outline=PAPER, width=max(1, s // 80))
            d.line(
                [(cx - w * 0.5, cy - w * 0.2), (cx, cy + w * 0.35), (cx + w * 0.5, cy - w * 0.2)],
                fill=PAPER,
                width=max(1, s // 90),
            )
    if shapes.junction:
        cx, cy = rotate_point(shapes.junction, quarter)
        r = JUNCTION_R * s
        d.rectangle([cx * s - r, cy * s - r * 0.6, cx * s + r, cy * s + r], fill=CHAPEL, outline=WALL, width=2)
        d.polygon(
            [(cx * s - r * 1.3, cy * s - r * 0.5), (cx * s, cy * s - r * 1.5), (cx * s + r * 1.3, cy * s - r * 0.5)],
            fill=ROOF,
            outline=WALL,
        )
    if shapes.tower:
        cx, cy = rotate_point(shapes.tower.centre, quarter)
        r = shapes.tower.radius * s
        d.ellipse(
            [cx * s - r, cy * s - r, cx * s + r, cy * s + r], fill=STONE, outline=STONE_DARK, width=max(2, s // 50)
        )
        r2 = r * 0.6
        d.ellipse([cx * s - r2, cy * s - r2, cx * s + r2, cy * s + r2], outline=STONE_DARK, width=max(1, s // 90))
    if shapes.cloister:
        cx, cy = rotate_point(shapes.cloister, quarter)
        h = CLOISTER_HALF * s
        x0, y0 = cx * s - h, cy * s - h * 0.35
        d.rectangle([x0, y0, cx * s + h, cy * s + h], fill=CHAPEL, outline=WALL, width=max(2, s // 70))
        d.polygon(
            [(x0 - h * 0.15, y0 + 1), (cx * s, cy * s - h * 1.15), (cx * s + h * 1.15, y0 + 1)], fill=ROOF, outline=WALL
        )
        # door and cross
        d.rectangle([cx * s - h * 0.22, cy * s + h * 0.3, cx * s + h * 0.22, cy * s + h], fill=WALL)
        d.line([(cx * s, cy * s - h * 1.15), (cx * s, cy * s - h * 1.6)], fill=WALL, width=max(1, s // 80))
        d.line(
            [(cx * s - h * 0.2, cy * s - h * 1.42), (cx * s + h * 0.2, cy * s - h * 1.42)],
            fill=WALL,
            width=max(1, s // 80),
        )
    del tile


_TRANSPOSE: Final = {
    1: Image.Transpose.ROTATE_270,  # PIL rotates counter-clockwise: 270 ccw = 90 clockwise
    2: Image.Transpose.ROTATE_180,
    3: Image.Transpose.ROTATE_90,
}


@lru_cache(maxsize=4096)  # every tile x rotation x size ``layout`` may choose (51 x 4 x 17): games differ in size
def tile_sprite(tile_id: str, rotation: int, size: int) -> Image.Image:
    """The tile ``tile_id`` at ``rotation`` degrees clockwise, ``size`` px square, with a thin edge line."""
    s = size * 2
    quarter = rotation // 90 % 4
    img = _base(tile_id, s)
    img = img.transpose(_TRANSPOSE[quarter]) if quarter else img.copy()
    _draw_upright(img, tile_id, quarter, s)
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, s - 1, s - 1], outline=darker(GRASS, 0.55), width=max(1, s // 90))
    return img.reduce(2)


@lru_cache(maxsize=1024)
def _base(tile_id: str, s: int) -> Image.Image:
    return _draw_base(tile_id, s)


MEEPLE: Final[tuple[Point, ...]] = (
    (0.36, 0.33),
    (0.1, 0.4),
    (0.03, 0.52),
    (0.08, 0.58),
    (0.3, 0.56),
    (0.14, 0.93),
    (0.18, 0.97),
    (0.42, 0.97),
    (0.5, 0.8),
    (0.58, 0.97),
    (0.82, 0.97),
    (0.86, 0.93),
    (0.7, 0.56),
    (0.92, 0.58),
    (0.97, 0.52),
    (0.9, 0.4),
    (0.64, 0.33),
)


@lru_cache(maxsize=512)
def meeple(colour: RGB, mark: str, size: int, lying: bool = False) -> Image.Image:
    """A follower in ``colour`` with the owner's ``mark`` on its body; ``lying`` for farmers. RGBA."""
    s = size * 2
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    outline = INK if sum(colour) > 200 else PAPER
    lw = max(2, s // 18)
    poly = [(x * s, y * s) for x, y in MEEPLE]
    d.polygon(poly, fill=colour, outline=outline, width=lw)
    r = s * 0.17
    d.ellipse([s * 0.5 - r, s * 0.2 - r, s * 0.5 + r, s * 0.2 + r], fill=colour, outline=outline, width=lw)
    d.polygon(poly[1:-1], fill=colour)  # hide the head outline where it meets the body
    d.rectangle([s * 0.38, s * 0.3, s * 0.62, s * 0.45], fill=colour)
    if mark:
        room = s * 0.5
        fsize = fonts.fit_line(mark, max(8, round(s * 0.34)), room, bold=True)
        fonts.draw_text(d, (s * 0.5, s * 0.6), mark, fsize, text_on(colour), bold=True, anchor="mm", room=room)
    if lying:
        img = img.transpose(Image.Transpose.ROTATE_90)
    return img.reduce(2)


@lru_cache(maxsize=256)
def tower_sprite(height: int, size: int) -> Image.Image:
    """A built tower of ``height`` pieces seen from above-front, its height printed on it. RGBA."""
    s = size * 2
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    w = s * 0.36
    top = s * 0.14
    d.rectangle(
        [s / 2 - w, top + s * 0.1, s / 2 + w, s * 0.92], fill=(120, 126, 134), outline=STONE_DARK, width=max(2, s // 30)
    )
    for i in range(4):  # crenellations
        x = s / 2 - w + i * (2 * w / 3.5)
        d.rectangle(
            [x, top, x + w * 0.34, top + s * 0.12], fill=(120, 126, 134), outline=STONE_DARK, width=max(1, s // 40)
        )
    fonts.draw_text(
        d,
        (s / 2, s * 0.58),
        str(height),
        round(s * 0.42),
        PAPER,
        bold=True,
        anchor="mm",
        stroke=max(1, s // 40),
        stroke_fill=STONE_DARK,
    )
    return img.reduce(2)
