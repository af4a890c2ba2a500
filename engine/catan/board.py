"""Board geometry and naming (rules section 2), computed once at import.

Internally hexes are 0..18 (A..S), intersections 0..53 (named 1..54) and paths 0..71; every table is a tuple of
small integers so the rules never hash strings on the hot path.
"""

from __future__ import annotations

from typing import Final

from engine.errors import RuleError

RESOURCES: Final = ("brick", "lumber", "wool", "grain", "ore")
RESOURCE_INDEX: Final = {name: i for i, name in enumerate(RESOURCES)}
TERRAIN_RESOURCE: Final[dict[str, int | None]] = {
    "hills": 0,
    "forest": 1,
    "pasture": 2,
    "fields": 3,
    "mountains": 4,
    "desert": None,
}
HEX_NAMES: Final = "ABCDEFGHIJKLMNOPQRS"
ROW_SIZES: Final = (3, 4, 5, 4, 3)
CORNERS: Final = ("N", "NE", "SE", "S", "SW", "NW")
# A side joins corner i and corner i+1 (E joins NE and SE).
SIDES: Final = ("NE", "E", "SE", "SW", "W", "NW")


def _geometry() -> tuple[list[tuple[int, int]], list[list[tuple[int, int]]]]:
    """Hex centres and corner points on an integer grid: x in half hex widths, y in quarter hex heights."""
    centres = []
    for row, size in enumerate(ROW_SIZES):
        for i in range(size):
            centres.append((5 - size + 2 * i, 3 * row))
    offsets = ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1))
    corners = [[(x + dx, y + dy) for dx, dy in offsets] for x, y in centres]
    return centres, corners


_CENTRES, _CORNER_POINTS = _geometry()
# Reading order of the drawn position: top first, then left to right.
_POINTS: Final = sorted({p for cs in _CORNER_POINTS for p in cs}, key=lambda p: (p[1], p[0]))
_POINT_INDEX: Final = {p: i for i, p in enumerate(_POINTS)}

HEX_CORNERS: Final[tuple[tuple[int, ...], ...]] = tuple(tuple(_POINT_INDEX[p] for p in cs) for cs in _CORNER_POINTS)
NODE_COUNT: Final = len(_POINTS)
HEX_COUNT: Final = len(HEX_CORNERS)


def _edges() -> list[tuple[int, int]]:
    pairs = set()
    for cs in HEX_CORNERS:
        for i in range(6):
            a, b = cs[i], cs[(i + 1) % 6]
            pairs.add((min(a, b), max(a, b)))
    return sorted(pairs)


EDGE_NODES: Final[tuple[tuple[int, int], ...]] = tuple(_edges())
EDGE_COUNT: Final = len(EDGE_NODES)
EDGE_NAMES: Final = tuple(f"{a + 1}-{b + 1}" for a, b in EDGE_NODES)
EDGE_BY_NAME: Final = {name: i for i, name in enumerate(EDGE_NAMES)}
EDGE_BY_PAIR: Final = {pair: i for i, pair in enumerate(EDGE_NODES)} | {
    (b, a): i for i, (a, b) in enumerate(EDGE_NODES)
}
NODE_EDGES: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(e for e, (a, b) in enumerate(EDGE_NODES) if n in (a, b)) for n in range(NODE_COUNT)
)
NODE_NEIGHBORS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(sorted(b if a == n else a for a, b in (EDGE_NODES[e] for e in NODE_EDGES[n]))) for n in range(NODE_COUNT)
)
NODE_HEXES: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(h for h in range(HEX_COUNT) if n in HEX_CORNERS[h]) for n in range(NODE_COUNT)
)
HEX_NEIGHBORS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(g for g in range(HEX_COUNT) if g != h and len(set(HEX_CORNERS[g]) & set(HEX_CORNERS[h])) == 2)
    for h in range(HEX_COUNT)
)

# The fixed harbour frame, with the beginner map's harbour on each spot.
HARBOR_SPOTS: Final = ("1-4", "2-6", "11-16", "27-33", "43-47", "50-53", "48-52", "34-39", "12-17")
BEGINNER_HARBORS: Final = ("3:1", "grain", "ore", "3:1", "wool", "3:1", "3:1", "brick", "lumber")
HARBOR_TYPES: Final = ("3:1", *RESOURCES)
HARBOR_SPOT_NODES: Final = tuple(EDGE_NODES[EDGE_BY_NAME[s]] for s in HARBOR_SPOTS)

assert NODE_COUNT == 54 and EDGE_COUNT == 72
assert [HEX_CORNERS[0][i] + 1 for i in range(6)] == [1, 5, 9, 13, 8, 4]
assert [HEX_CORNERS[9][i] + 1 for i in range(6)] == [19, 25, 31, 36, 30, 24]
assert [HEX_CORNERS[18][i] + 1 for i in range(6)] == [42, 47, 51, 54, 50, 46]


def hex_index(name: object) -> int:
    """``"F"`` -> 5."""
    if isinstance(name, str) and len(name) == 1 and name.upper() in HEX_NAMES:
        return HEX_NAMES.index(name.upper())
    raise RuleError("unknown_hex", f"{name!r} is not a hex: hexes are the letters A to S", hex=str(name))


def parse_intersection(name: object) -> int:
    """An intersection's number 1..54 from ``25``, ``"25"`` or ``"J-NE"``; raises RuleError otherwise."""
    if isinstance(name, int) and not isinstance(name, bool):
        if 1 <= name <= NODE_COUNT:
            return name
    elif isinstance(name, str):
        text = name.strip()
        if text.isdecimal() and 1 <= int(text) <= NODE_COUNT:  # not isdigit(): "²" is a digit int() refuses
            return int(text)
        letter, sep, corner = text.partition("-")
        if sep and len(letter) == 1 and letter.upper() in HEX_NAMES and corner.upper() in CORNERS:
            return HEX_CORNERS[HEX_NAMES.index(letter.upper())][CORNERS.index(corner.upper())] + 1
    raise RuleError(
        "unknown_intersection",
        f"{name!r} is not an intersection: use a number from 1 to 54 or a hex and corner such as J-NE",
        intersection=str(name),
    )


def parse_path(name: object) -> str:
    """A path's canonical name ``"a-b"`` (smaller first) from ``"31-25"``, ``"25-31"`` or ``"J-E"``."""
    if isinstance(name, str):
        first, sep, second = name.strip().partition("-")
        if sep:
            if len(first) == 1 and first.upper() in HEX_NAMES and second.upper() in SIDES:
                side = SIDES.index(second.upper())
                cs = HEX_CORNERS[HEX_NAMES.index(first.upper())]
                a, b = cs[side], cs[(side + 1) % 6]
                return EDGE_NAMES[EDGE_BY_PAIR[(a, b)]]
            if first.isdecimal() and second.isdecimal():
                pair = (int(first) - 1, int(second) - 1)
                if pair in EDGE_BY_PAIR:
                    return EDGE_NAMES[EDGE_BY_PAIR[pair]]
    raise RuleError(
        "unknown_path",
        f"{name!r} is not a path: name it by its two neighbouring intersections (12-17) or a hex and side (J-E)",
        path=str(name),
    )


def node_of(name: object) -> int:
    """Internal index (0..53) of an intersection name."""
    return parse_intersection(name) - 1


def edge_of(name: object) -> int:
    """Internal index (0..71) of a path name."""
    return EDGE_BY_NAME[parse_path(name)]
