"""Carcassonne tile geometry from the engine's segments, in unit coordinates (0..1, y down).

Everything is computed in the tile's reference orientation and rotated with :func:`rotate_point`. A coarse
segment map (:func:`segment_map`) is rasterised from the same shapes the sprites draw; fields are its flood-filled
regions, so farms follow exactly the separations the engine's segments describe, and every anchor (where a
follower stands, where a spot label goes) is the deepest point of its segment's region.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Final, NamedTuple

from PIL import Image, ImageDraw, ImageFilter

from engine.carcassonne.tiles import ORIENTED, TILES, TileType

Point = tuple[float, float]

MID: Final[tuple[Point, ...]] = ((0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5))  # N E S W edge midpoints
# Half-edge sample points Nw Ne En Es Se Sw Ws Wn, on the edge.
HALF_POINT: Final[tuple[Point, ...]] = (
    (0.25, 0.0),
    (0.75, 0.0),
    (1.0, 0.25),
    (1.0, 0.75),
    (0.75, 1.0),
    (0.25, 1.0),
    (0.0, 0.75),
    (0.0, 0.25),
)
ROAD_W: Final = 0.11
RIVER_W: Final = 0.15
CAP_DEPTH: Final = 0.3
BAND_DEPTH: Final = 0.28
THREE_DEPTH: Final = 0.36
DIAG_CTRL: Final = 0.52
MAP: Final = 64  # segment map resolution

SEPARATOR: Final = 250  # river, tower foundation, junction, hedge in the segment map
UNSET: Final = 0


def rotate_point(p: Point, quarter_turns: int) -> Point:
    """Rotate a unit point clockwise about the tile centre."""
    x, y = p
    for _ in range(quarter_turns % 4):
        x, y = 1.0 - y, x
    return (x, y)


def bezier(p0: Point, p1: Point, p2: Point, steps: int = 16) -> list[Point]:
    out = []
    for i in range(steps + 1):
        t = i / steps
        a, b, c = (1 - t) ** 2, 2 * (1 - t) * t, t * t
        out.append((a * p0[0] + b * p1[0] + c * p2[0], a * p0[1] + b * p1[1] + c * p2[1]))
    return out


def _rot_all(points: list[Point], k: int) -> list[Point]:
    return [rotate_point(p, k) for p in points]


class Foundation(NamedTuple):
    """Where a tile's tower stands: its centre and radius."""

    x: float
    y: float
    radius: float

    @property
    def centre(self) -> Point:
        return (self.x, self.y)


@dataclass(frozen=True)
class CityShape:
    segment: int
    polygon: tuple[Point, ...]
    walls: tuple[tuple[Point, ...], ...]  # the inner boundary lines (drawn as walls)
    pennants: int


@dataclass(frozen=True)
class Line:
    segment: int  # segment index, or -1 for the river
    points: tuple[Point, ...]
    through: bool  # runs edge to edge (not a dead end)


@dataclass(frozen=True)
class TileShapes:
    """All drawable parts of a tile type in reference orientation."""

    cities: tuple[CityShape, ...]
    roads: tuple[Line, ...]
    rivers: tuple[Line, ...]
    cloister: Point | None
    tower: Foundation | None
    junction: Point | None
    hedges: tuple[tuple[Point, ...], ...]
    spring: Point | None
    lake: tuple[float, float, float, float] | None  # ellipse box
    bridge: tuple[Point, Point] | None  # centre and road direction


def city_shape(sides: tuple[int, ...]) -> tuple[list[Point], list[list[Point]]]:
    """Polygon and wall lines of one city touching ``sides`` (reference orientation)."""
    s = sorted(sides)
    if len(s) == 4:
        return [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)], []
    if len(s) == 1:
        curve = bezier((1.0, 0.0), (0.5, 2 * CAP_DEPTH), (0.0, 0.0))
        return _rot_all([(0.0, 0.0), *curve], s[0]), [_rot_all(curve, s[0])]
    if len(s) == 2 and (s[1] - s[0]) % 2 == 0:  # opposite: a band, canonical E+W
        k = 0 if s == [1, 3] else 1
        top = bezier((0.0, 0.0), (0.5, 2 * BAND_DEPTH), (1.0, 0.0))
        bottom = bezier((1.0, 1.0), (0.5, 1 - 2 * BAND_DEPTH), (0.0, 1.0))
        return _rot_all(top + bottom, k), [_rot_all(top, k), _rot_all(bottom, k)]
    if len(s) == 2:  # adjacent: canonical W+N (3, 0)
        first = s[1] if (s[0], s[1]) == (0, 3) else s[0]
        # first is the side clockwise-before the other: W for (0, 3); k turns W(3) into `first`
        k = (first - 3) % 4
        curve = bezier((0.0, 1.0), (DIAG_CTRL, DIAG_CTRL), (1.0, 0.0))
        return _rot_all([(1.0, 0.0), (0.0, 0.0), *curve], k), [_rot_all(curve, k)]
    missing = next(i for i in range(4) if i not in s)  # canonical missing S
    k = (missing - 2) % 4
    curve = bezier((1.0, 1.0), (0.5, 1 - 2 * THREE_DEPTH), (0.0, 1.0))
    return _rot_all([(0.0, 0.0), (1.0, 0.0), *curve], k), [_rot_all(curve, k)]


# Per-tile placement of tower foundations and hedges (unit coordinates), where the centre would not keep the
# engine's fields apart (or would wrongly split them).
_TOWER_AT: Final[dict[str, Foundation]] = {
    "T3": Foundation(0.72, 0.72, 0.14),
    "T4": Foundation(0.5, 0.46, 0.2),
    "T5": Foundation(0.5, 0.37, 0.125),
    "T6": Foundation(0.72, 0.56, 0.13),
    "T7": Foundation(0.5, 0.5, 0.11),
    "T8": Foundation(0.5, 0.5, 0.13),
    "T9": Foundation(0.8, 0.8, 0.12),
    "T10": Foundation(0.5, 0.4, 0.13),
    "T11": Foundation(0.5, 0.36, 0.13),
    "T13": Foundation(0.71, 0.7, 0.14),
    "T17": Foundation(0.78, 0.22, 0.11),
}
_HEDGES: Final[dict[str, tuple[tuple[Point, ...], ...]]] = {"T9": (((0.6, 0.55), (1.0, 1.0)),)}
_CLOISTER_AT: Final[dict[str, Point]] = {"R7": (0.5, 0.24), "T13": (0.36, 0.38)}


def _two_sided(a: int, b: int) -> list[Point]:
    if (a - b) % 2 == 0:
        return [MID[a], MID[b]]
    return bezier(MID[a], (0.5, 0.5), MID[b])


@cache
def tile_shapes(tile_id: str) -> TileShapes:
    tile: TileType = TILES[tile_id]
    cities = []
    for index, seg in enumerate(tile.segments):
        if seg.kind == "city":
            poly, walls = city_shape(seg.edges)
            cities.append(CityShape(index, tuple(poly), tuple(tuple(w) for w in walls), seg.pennants))
    cloister = _CLOISTER_AT.get(tile_id, (0.5, 0.5)) if tile.cloister else None
    tower = _TOWER_AT.get(tile_id, Foundation(0.5, 0.5, 0.17)) if tile.tower else None
    dead_ends = [seg for seg in tile.segments if seg.kind == "road" and len(seg.edges) == 1]
    junction = (0.5, 0.5) if len(dead_ends) >= 2 and tower is None else None
    roads = []
    for index, seg in enumerate(tile.segments):
        if seg.kind != "road":
            continue
        if len(seg.edges) == 2:
            roads.append(Line(index, tuple(_two_sided(*seg.edges)), True))
            continue
        side = seg.edges[0]
        start = MID[side]
        if tower is not None and (tile_id not in _TOWER_AT or tile_id == "T4"):
            end: Point = tower.centre
        elif junction is not None:
            end = junction
        elif cloister is not None:
            end = cloister
        else:  # into a city: run past the centre so that the city's wall covers the end
            dx, dy = 0.5 - start[0], 0.5 - start[1]
            end = (0.5 + dx * 0.5, 0.5 + dy * 0.5)
        roads.append(Line(index, (start, end), False))
    rivers = []
    spring = None
    lake = None
    if len(tile.river) == 2:
        rivers.append(Line(-1, tuple(_two_sided(*tile.river)), True))
    elif len(tile.river) == 1:
        side = tile.river[0]
        if tile.spring:
            spring = (0.5, 0.5)
            rivers.append(Line(-1, (MID[side], (0.5, 0.5)), False))
        else:
            lake = (0.3, 0.22, 0.86, 0.78)
            rivers.append(Line(-1, (MID[side], (0.45, 0.5)), False))
    bridge = None
    if len(tile.river) == 2 and (tile.river[0] - tile.river[1]) % 2 == 0:
        for road in roads:
            xs = [p[0] for p in road.points]
            ys = [p[1] for p in road.points]
            vertical = min(ys) < 0.4 and max(ys) > 0.6 and all(abs(x - 0.5) < 1e-9 for x in xs)
            horizontal = min(xs) < 0.4 and max(xs) > 0.6 and all(abs(y - 0.5) < 1e-9 for y in ys)
            if vertical or horizontal:
                bridge = ((0.5, 0.5), (0.0, 1.0) if vertical else (1.0, 0.0))
    return TileShapes(
        cities=tuple(cities),
        roads=tuple(roads),
        rivers=tuple(rivers),
        cloister=cloister,
        tower=tower,
        junction=junction,
        hedges=_HEDGES.get(tile_id, ()),
        spring=spring,
        lake=lake,
        bridge=bridge,
    )


CLOISTER_HALF: Final = 0.15
JUNCTION_R: Final = 0.08


def _px(p: Point, scale: float) -> tuple[float, float]:
    return (p[0] * scale, p[1] * scale)


@cache
def segment_map(tile_id: str) -> Image.Image:
    """An ``L`` image (MAP x MAP) of the reference tile: segment index + 1 per pixel, SEPARATOR elsewhere."""
    shapes = tile_shapes(tile_id)
    tile = TILES[tile_id]
    img = Image.new("L", (MAP, MAP), UNSET)
    d = ImageDraw.Draw(img)
    s = float(MAP)
    for river in shapes.rivers:
        d.line([_px(p, s) for p in river.points], fill=SEPARATOR, width=round(RIVER_W * s))
    if shapes.lake:
        d.ellipse([v * s for v in shapes.lake], fill=SEPARATOR)
    for road in shapes.roads:
        d.line([_px(p, s) for p in road.points], fill=road.segment + 1, width=round(ROAD_W * s), joint="curve")
    for city in shapes.cities:
        d.polygon([_px(p, s) for p in city.polygon], fill=city.segment + 1)
        for wall in city.walls:
            d.line([_px(p, s) for p in wall], fill=city.segment + 1, width=3)
    for road in shapes.roads:  # a road through a city stays on top
        if road.through and any(c for c in shapes.cities):
            d.line([_px(p, s) for p in road.points], fill=road.segment + 1, width=round(ROAD_W * s), joint="curve")
    for hedge in shapes.hedges:
        d.line([_px(p, s) for p in hedge], fill=SEPARATOR, width=3)
    if shapes.junction:
        cx, cy = shapes.junction
        r = JUNCTION_R * s
        d.ellipse([cx * s - r, cy * s - r, cx * s + r, cy * s + r], fill=SEPARATOR)
    if shapes.tower:
        cx, cy, rr = shapes.tower
        r = rr * s
        d.ellipse([cx * s - r, cy * s - r, cx * s + r, cy * s + r], fill=SEPARATOR)
    if shapes.cloister:
        cloister_index = next(i for i, seg in enumerate(tile.segments) if seg.kind == "cloister")
        cx, cy = shapes.cloister
        h = CLOISTER_HALF * s
        d.rectangle([cx * s - h, cy * s - h, cx * s + h, cy * s + h], fill=cloister_index + 1)
    # fields: flood-fill from each half-edge
    for index, seg in enumerate(tile.segments):
        if seg.kind != "field":
            continue
        for half in seg.edges:
            hx, hy = HALF_POINT[half]
            px = min(MAP - 2, max(1, round(hx * (MAP - 1))))
            py = min(MAP - 2, max(1, round(hy * (MAP - 1))))
            if img.getpixel((px, py)) == UNSET:
                ImageDraw.floodfill(img, (px, py), index + 1)
    inner = [i for i, seg in enumerate(tile.segments) if seg.kind == "field" and not seg.edges]
    if inner:
        img = img.point(lambda v: inner[0] + 1 if v == UNSET else v)
    return _fill_pockets(img)


def _fill_pockets(img: Image.Image) -> Image.Image:
    """Give the few pixels no flood reached (pockets cut off by a curve's width) a neighbouring segment."""
    data = bytearray(img.tobytes())
    while UNSET in data:
        changed = False
        for i, v in enumerate(data):
            if v != UNSET:
                continue
            x, y = i % MAP, i // MAP
            for nx, ny in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
                if 0 <= nx < MAP and 0 <= ny < MAP:
                    n = data[ny * MAP + nx]
                    if n not in (UNSET, SEPARATOR):
                        data[i] = n
                        changed = True
                        break
        if not changed:
            data = bytearray(SEPARATOR if v == UNSET else v for v in data)
    return Image.frombytes("L", (MAP, MAP), bytes(data))


def _deepest(region: Image.Image) -> Point:
    """The point of a binary region farthest from its border (ties: nearest the region's centroid)."""
    padded = Image.new("L", (MAP + 2, MAP + 2), 0)
    padded.paste(region, (1, 1))
    last = padded
    current = padded
    while current.getbbox() is not None:
        last = current
        current = current.filter(ImageFilter.MinFilter(3))
    data = last.tobytes()
    w = MAP + 2
    pts = [(i % w, i // w) for i, v in enumerate(data) if v]
    mx = sum(p[0] for p in pts) / len(pts)
    my = sum(p[1] for p in pts) / len(pts)
    bx, by = min(pts, key=lambda p: ((p[0] - mx) ** 2 + (p[1] - my) ** 2, p[1], p[0]))
    return ((bx - 1 + 0.5) / MAP, (by - 1 + 0.5) / MAP)


@cache
def reference_anchors(tile_id: str) -> tuple[Point, ...]:
    """Where a follower stands on each segment of the tile in reference orientation."""
    tile = TILES[tile_id]
    shapes = tile_shapes(tile_id)
    seg_map = segment_map(tile_id)
    out: list[Point] = []
    for index, seg in enumerate(tile.segments):
        if seg.kind == "cloister" and shapes.cloister is not None:
            out.append((shapes.cloister[0], shapes.cloister[1] + 0.04))
            continue
        if seg.kind == "road":
            line = next(r for r in shapes.roads if r.segment == index)
            pts = line.points
            if line.through:
                busy = shapes.tower is not None or shapes.bridge is not None
                out.append(pts[len(pts) // 5] if busy and len(pts) > 2 else _along(pts, 0.2 if busy else 0.5))
            else:
                out.append(_along(pts, 0.3))
            continue
        region = seg_map.point(lambda v, want=index + 1: 255 if v == want else 0)
        out.append(_deepest(region))
    return tuple(out)


def _along(points: tuple[Point, ...], t: float) -> Point:
    if len(points) == 2:
        (x0, y0), (x1, y1) = points
        return (x0 + (x1 - x0) * t, y0 + (y1 - y0) * t)
    return points[round(t * (len(points) - 1))]


def anchor(tile_id: str, rotation_deg: int, name: str) -> Point:
    """Unit position on a placed tile (rotation in degrees) of the segment called ``name`` in board terms."""
    o = ORIENTED[tile_id][rotation_deg // 90 % 4]
    index = o.lookup[name]
    return rotate_point(reference_anchors(tile_id)[index], o.rotation)


def pennant_point(tile_id: str, segment: int) -> Point:
    """Reference-orientation position of a city's pennant shield (beside the knight's anchor)."""
    seg_map = segment_map(tile_id)
    ax, ay = reference_anchors(tile_id)[segment]
    for dx, dy in ((0.2, -0.03), (-0.2, -0.03), (0.0, -0.16), (0.0, 0.16), (0.14, 0.12), (-0.14, 0.12)):
        px, py = ax + dx, ay + dy
        if 0.08 < px < 0.92 and 0.08 < py < 0.92 and seg_map.getpixel((int(px * MAP), int(py * MAP))) == segment + 1:
            return (px, py)
    return (ax + 0.15, ay)
