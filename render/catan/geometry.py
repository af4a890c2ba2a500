"""Catan board geometry (rules section 2): pointy-top hexes in rows 3-4-5-4-3 lettered A..S in reading order,
intersections numbered 1..54 in reading order of their drawn position, paths ``a-b`` (smaller first).

Positions are first computed on an integer grid (x in half hex widths, y in quarter hex heights), exactly the
way the names are defined, then scaled to pixels by :class:`Geometry`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

HEX_NAMES: Final = "ABCDEFGHIJKLMNOPQRS"
ROW_SIZES: Final = (3, 4, 5, 4, 3)
CORNER_NAMES: Final = ("N", "NE", "SE", "S", "SW", "NW")
_OFFSETS: Final = ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1))
HARBOR_SPOTS: Final = ("1-4", "2-6", "11-16", "27-33", "43-47", "50-53", "48-52", "34-39", "12-17")

GridPoint = tuple[int, int]


def _centres() -> tuple[GridPoint, ...]:
    out = []
    for row, size in enumerate(ROW_SIZES):
        for i in range(size):
            out.append((5 - size + 2 * i, 3 * row))
    return tuple(out)


GRID_CENTRES: Final = _centres()
_CORNERS: Final = tuple(tuple((x + dx, y + dy) for dx, dy in _OFFSETS) for x, y in GRID_CENTRES)
GRID_POINTS: Final[tuple[GridPoint, ...]] = tuple(
    sorted({p for cs in _CORNERS for p in cs}, key=lambda p: (p[1], p[0]))
)
_NUMBER: Final = {p: i + 1 for i, p in enumerate(GRID_POINTS)}
# HEX_CORNERS[h] = intersection numbers of hex h at N, NE, SE, S, SW, NW
HEX_CORNERS: Final[tuple[tuple[int, ...], ...]] = tuple(tuple(_NUMBER[p] for p in cs) for cs in _CORNERS)


def _paths() -> tuple[tuple[int, int], ...]:
    pairs = set()
    for cs in HEX_CORNERS:
        for i in range(6):
            a, b = cs[i], cs[(i + 1) % 6]
            pairs.add((min(a, b), max(a, b)))
    return tuple(sorted(pairs))


PATHS: Final = _paths()
PATH_NAMES: Final = tuple(f"{a}-{b}" for a, b in PATHS)


def hex_index(letter: str) -> int:
    return HEX_NAMES.index(letter.upper())


def path_nodes(name: str) -> tuple[int, int]:
    a, _, b = name.partition("-")
    x, y = int(a), int(b)
    return (min(x, y), max(x, y))


def hexes_of_path(name: str) -> list[int]:
    a, b = path_nodes(name)
    return [h for h, cs in enumerate(HEX_CORNERS) if a in cs and b in cs]


@dataclass(frozen=True)
class Geometry:
    """Pixel positions for hexes of circumradius ``r`` with the board's centre (hex J) at (cx, cy)."""

    r: float
    cx: float
    cy: float

    @property
    def half_width(self) -> float:
        return math.sqrt(3) * self.r / 2

    def grid(self, p: GridPoint) -> tuple[float, float]:
        gx, gy = p
        return (self.cx + (gx - 4) * self.half_width, self.cy + (gy - 6) * self.r / 2)

    def hex_centre(self, letter: str) -> tuple[float, float]:
        return self.grid(GRID_CENTRES[hex_index(letter)])

    def hex_polygon(self, letter: str, scale: float = 1.0) -> list[tuple[float, float]]:
        x, y = self.hex_centre(letter)
        return [(x + dx * self.half_width * scale, y + dy * self.r / 2 * scale) for dx, dy in _OFFSETS]

    def intersection(self, number: int) -> tuple[float, float]:
        """Pixel of intersection ``number`` (1..54)."""
        return self.grid(GRID_POINTS[number - 1])

    def path(self, name: str) -> tuple[tuple[float, float], tuple[float, float]]:
        a, b = path_nodes(name)
        return (self.intersection(a), self.intersection(b))

    def path_mid(self, name: str) -> tuple[float, float]:
        (x0, y0), (x1, y1) = self.path(name)
        return ((x0 + x1) / 2, (y0 + y1) / 2)

    def harbor(self, spot: str) -> tuple[float, float]:
        """Where the harbour marker of ``spot`` sits: off the coast, away from its land hex."""
        mx, my = self.path_mid(spot)
        land = hexes_of_path(spot)[0]
        hx, hy = self.hex_centre(HEX_NAMES[land])
        dx, dy = mx - hx, my - hy
        length = math.hypot(dx, dy) or 1.0
        out = self.r * 0.62
        return (mx + dx / length * out, my + dy / length * out)


@lru_cache(maxsize=1)
def corner_names() -> dict[str, int]:
    """``J-NE`` style names -> intersection numbers (for tests and documentation)."""
    return {f"{HEX_NAMES[h]}-{CORNER_NAMES[i]}": n for h, cs in enumerate(HEX_CORNERS) for i, n in enumerate(cs)}
