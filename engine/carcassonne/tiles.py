"""The tile inventory of rules section 5 and the geometry of edges, half-edges and rotations.

Sides are numbered N=0, E=1, S=2, W=3; half-edges clockwise from the north-west corner
Nw=0, Ne=1, En=2, Es=3, Se=4, Sw=5, Ws=6, Wn=7. A rotation of ``r`` quarter turns clockwise moves
side ``s`` to ``(s + r) % 4`` and half-edge ``h`` to ``(h + 2r) % 8``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

SIDES: Final = ("N", "E", "S", "W")
HALVES: Final = ("Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn")
SIDE_OF_HALF: Final = (0, 0, 1, 1, 2, 2, 3, 3)
HALVES_OF_SIDE: Final = ((0, 1), (2, 3), (4, 5), (6, 7))
ROTATIONS: Final = (0, 90, 180, 270)

# Edge kinds, as integers so that an empty cell's surroundings pack into one small number.
NONE, CITY, ROAD, FIELD, RIVER = 0, 1, 2, 3, 4
EDGE_CODE: Final = {"C": CITY, "R": ROAD, "F": FIELD, "I": RIVER}
EDGE_NAME: Final = {CITY: "city", ROAD: "road", FIELD: "field", RIVER: "river"}


def opposite(side: int) -> int:
    return (side + 2) % 4


def half_partner(half: int) -> int:
    """The half-edge of the neighbouring tile that touches ``half`` (Nw touches the northern tile's Sw)."""
    return ((half ^ 1) + 4) % 8


@dataclass(frozen=True, slots=True)
class Segment:
    """One feature part of a tile in reference orientation.

    ``edges`` are sides for cities and roads, half-edges for fields, empty for cloisters and the inner field.
    ``adj`` lists, for a field, the indices of the city segments of this tile that it borders.
    """

    kind: str  # "city" | "road" | "field" | "cloister"
    edges: tuple[int, ...]
    pennants: int = 0
    adj: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class TileType:
    id: str
    count: int
    edges: tuple[int, int, int, int]  # edge codes N, E, S, W in reference orientation
    segments: tuple[Segment, ...]
    expansion: str  # "base" | "river" | "tower"
    river: tuple[int, ...] = ()  # sides where the river leaves the tile
    tower: bool = False  # has a tower foundation
    spring: bool = False
    lake: bool = False

    @property
    def cloister(self) -> bool:
        return any(s.kind == "cloister" for s in self.segments)

    @property
    def pennants(self) -> int:
        return sum(s.pennants for s in self.segments)


ALL_HALVES = "Nw Ne En Es Se Sw Ws Wn"


def _tile(
    tid: str,
    count: int,
    edges: str,
    *,
    cities: tuple[str, ...] = (),
    roads: tuple[str, ...] = (),
    fields: tuple[str, ...] = (),
    river: str = "",
    cloister: bool = False,
    tower: bool = False,
    expansion: str = "base",
    spring: bool = False,
    lake: bool = False,
) -> TileType:
    """Build a tile from the notation of rules section 5.

    ``cities``: sides of each separate city, ``*`` marks a pennant ("NW*"). ``roads``: sides of each separate
    road ("WE" through, "S" ending on the tile). ``fields``: half-edges, then ``|`` and one side of each bordered
    city ("Wn En|N"); ``inner`` is a field touching no edge.
    """
    segments: list[Segment] = []
    city_index: dict[int, int] = {}
    for spec in cities:
        sides = tuple(SIDES.index(c) for c in spec.rstrip("*"))
        for side in sides:
            city_index[side] = len(segments)
        segments.append(Segment("city", sides, pennants=spec.count("*")))
    for spec in roads:
        segments.append(Segment("road", tuple(SIDES.index(c) for c in spec)))
    if cloister:
        segments.append(Segment("cloister", ()))
    for spec in fields:
        halves_spec, _, adj_spec = spec.partition("|")
        halves = () if halves_spec.strip() == "inner" else tuple(HALVES.index(h) for h in halves_spec.split())
        adj = tuple(sorted({city_index[SIDES.index(c)] for c in adj_spec.strip()}))
        segments.append(Segment("field", halves, adj=adj))
    return TileType(
        id=tid,
        count=count,
        edges=(EDGE_CODE[edges[0]], EDGE_CODE[edges[1]], EDGE_CODE[edges[2]], EDGE_CODE[edges[3]]),
        segments=tuple(segments),
        expansion=expansion,
        river=tuple(SIDES.index(c) for c in river),
        tower=tower,
        spring=spring,
        lake=lake,
    )


_BASE = (
    _tile("A", 2, "FFRF", roads=("S",), cloister=True, fields=(ALL_HALVES,)),
    _tile("B", 4, "FFFF", cloister=True, fields=(ALL_HALVES,)),
    _tile("C", 1, "CCCC", cities=("NESW*",)),
    _tile("D", 4, "CRFR", cities=("N",), roads=("WE",), fields=("Wn En|N", "Es Se Sw Ws")),
    _tile("E", 5, "CFFF", cities=("N",), fields=("En Es Se Sw Ws Wn|N",)),
    _tile("F", 2, "FCFC", cities=("EW*",), fields=("Nw Ne|E", "Se Sw|E")),
    _tile("G", 1, "FCFC", cities=("EW",), fields=("Nw Ne|E", "Se Sw|E")),
    _tile("H", 3, "CFCF", cities=("N", "S"), fields=("En Es Ws Wn|NS",)),
    _tile("I", 2, "CFFC", cities=("N", "W"), fields=("En Es Se Sw|NW",)),
    _tile("J", 3, "CRRF", cities=("N",), roads=("ES",), fields=("En Sw Ws Wn|N", "Es Se")),
    _tile("K", 3, "CFRR", cities=("N",), roads=("SW",), fields=("Wn En Es Se|N", "Ws Sw")),
    _tile("L", 3, "CRRR", cities=("N",), roads=("E", "S", "W"), fields=("Wn En|N", "Es Se", "Ws Sw")),
    _tile("M", 2, "CFFC", cities=("NW*",), fields=("En Es Se Sw|N",)),
    _tile("N", 3, "CFFC", cities=("NW",), fields=("En Es Se Sw|N",)),
    _tile("O", 2, "CRRC", cities=("NW*",), roads=("ES",), fields=("En Sw|N", "Es Se")),
    _tile("P", 3, "CRRC", cities=("NW",), roads=("ES",), fields=("En Sw|N", "Es Se")),
    _tile("Q", 1, "CCFC", cities=("NEW*",), fields=("Se Sw|N",)),
    _tile("R", 3, "CCFC", cities=("NEW",), fields=("Se Sw|N",)),
    _tile("S", 2, "CCRC", cities=("NEW*",), roads=("S",), fields=("Se|N", "Sw|N")),
    _tile("T", 1, "CCRC", cities=("NEW",), roads=("S",), fields=("Se|N", "Sw|N")),
    _tile("U", 8, "FRFR", roads=("WE",), fields=("Wn Nw Ne En", "Es Se Sw Ws")),
    _tile("V", 9, "FFRR", roads=("SW",), fields=("Wn Nw Ne En Es Se", "Sw Ws")),
    _tile("W", 4, "FRRR", roads=("E", "S", "W"), fields=("Wn Nw Ne En", "Es Se", "Sw Ws")),
    _tile("X", 1, "RRRR", roads=("N", "E", "S", "W"), fields=("Wn Nw", "Ne En", "Es Se", "Sw Ws")),
)

_RIVER = tuple(
    _tile(tid, count, edges, expansion="river", **kw)
    for tid, count, edges, kw in (
        ("R1", 1, "FIFF", {"river": "E", "spring": True, "fields": (ALL_HALVES,)}),
        ("R2", 1, "FFFI", {"river": "W", "lake": True, "fields": (ALL_HALVES,)}),
        ("R3", 2, "FIFI", {"river": "WE", "fields": ("Wn Nw Ne En", "Ws Sw Se Es")}),
        ("R4", 2, "FFII", {"river": "SW", "fields": ("Wn Nw Ne En Es Se", "Ws Sw")}),
        ("R5", 1, "CICI", {"river": "WE", "cities": ("N", "S"), "fields": ("Wn En|N", "Ws Es|S")}),
        (
            "R6",
            1,
            "CIRI",
            {"river": "WE", "cities": ("N",), "roads": ("S",), "fields": ("Wn|N", "En|N", "Es Se", "Ws Sw")},
        ),
        (
            "R7",
            1,
            "FIRI",
            {"river": "WE", "cloister": True, "roads": ("S",), "fields": ("Wn Nw Ne En", "Es Se", "Ws Sw")},
        ),
        ("R8", 1, "IRIR", {"river": "NS", "roads": ("WE",), "fields": ("Wn Nw", "Ne En", "Es Se", "Sw Ws")}),
        ("R9", 1, "CIIC", {"river": "ES", "cities": ("NW",), "fields": ("En Sw|N", "Es Se")}),
        ("R10", 1, "RRII", {"river": "SW", "roads": ("NE",), "fields": ("Ne En", "Wn Nw Es Se", "Ws Sw")}),
    )
)

_TOWER = tuple(
    _tile(tid, count, edges, expansion="tower", tower=True, **kw)
    for tid, count, edges, kw in (
        ("T1", 2, "CFFF", {"cities": ("N",), "fields": ("En Es Se Sw Ws Wn|N",)}),
        ("T2", 1, "CFFC", {"cities": ("N", "W"), "fields": ("En Es Se Sw|NW",)}),
        ("T3", 1, "CFFC", {"cities": ("NW",), "fields": ("En Es Se Sw|N",)}),
        ("T4", 1, "CFRF", {"cities": ("N",), "roads": ("S",), "fields": ("Wn Ws Sw|N", "En Es Se|N")}),
        ("T5", 1, "CRFR", {"cities": ("N",), "roads": ("WE",), "fields": ("Wn|N", "En|N", "Ws Sw Se Es")}),
        ("T6", 1, "CFRR", {"cities": ("N",), "roads": ("SW",), "fields": ("Wn En Es Se|N", "Ws Sw")}),
        ("T7", 1, "CRCR", {"cities": ("N", "S"), "roads": ("WE",), "fields": ("Wn En|N", "Ws Es|S")}),
        ("T8", 1, "RCRC", {"cities": ("EW",), "roads": ("NS",), "fields": ("Nw|E", "Ne|E", "Se|E", "Sw|E")}),
        ("T9", 1, "CRFC", {"cities": ("NW",), "roads": ("E",), "fields": ("En|N", "Es|N", "Se Sw|N")}),
        ("T10", 1, "CCRC", {"cities": ("NEW",), "roads": ("S",), "fields": ("Se|N", "Sw|N")}),
        ("T11", 1, "CCCC", {"cities": ("NEW*", "S"), "fields": ("inner|NS",)}),
        ("T12", 1, "FFFF", {"fields": (ALL_HALVES,)}),
        ("T13", 1, "FFFF", {"cloister": True, "fields": (ALL_HALVES,)}),
        ("T14", 1, "FFRR", {"roads": ("W", "S"), "fields": ("Wn Nw Ne En Es Se", "Ws Sw")}),
        ("T15", 1, "RRFR", {"roads": ("W", "N", "E"), "fields": ("Wn Nw", "Ne En", "Es Se Sw Ws")}),
        ("T16", 1, "RRRR", {"roads": ("N", "E", "S", "W"), "fields": ("Wn Nw", "Ne En", "Es Se", "Sw Ws")}),
        ("T17", 1, "RRRR", {"roads": ("NW", "SE"), "fields": ("Nw Wn", "Se Es", "Ne En Sw Ws")}),
    )
)

TILES: Final[dict[str, TileType]] = {t.id: t for t in (*_BASE, *_RIVER, *_TOWER)}
BASE_TILES: Final = tuple(t.id for t in _BASE)
RIVER_TILES: Final = tuple(t.id for t in _RIVER)
TOWER_TILES: Final = tuple(t.id for t in _TOWER)
START_TILE: Final = "D"
SPRING: Final = "R1"
LAKE: Final = "R2"


@dataclass(frozen=True, slots=True)
class Oriented:
    """A tile type in one rotation, with everything placement and naming need, precomputed."""

    tile: TileType
    rotation: int  # quarter turns clockwise
    edges: tuple[int, int, int, int]  # edge codes by board side
    side_segment: tuple[int, int, int, int]  # segment index of the city/road on each side, -1 if none
    half_segment: tuple[int, ...]  # segment index of the field on each half-edge, -1 if none
    river: tuple[int, ...]  # board sides where the river leaves
    names: tuple[str, ...]  # canonical board name of each segment ("city:N", "field:Sw", "cloister")
    lookup: dict[str, int]  # every accepted name (any touching edge) -> segment index
    segment_sides: tuple[tuple[int, ...], ...]  # board sides (cities, roads) or half-edges (fields)


def _orient(tile: TileType, rot: int) -> Oriented:
    side_segment = [-1, -1, -1, -1]
    half_segment = [-1] * 8
    names: list[str] = []
    lookup: dict[str, int] = {}
    segment_sides: list[tuple[int, ...]] = []
    for index, seg in enumerate(tile.segments):
        if seg.kind in ("city", "road"):
            sides = tuple(sorted((s + rot) % 4 for s in seg.edges))
            for side in sides:
                side_segment[side] = index
                lookup[f"{seg.kind}:{SIDES[side]}"] = index
            names.append(f"{seg.kind}:{SIDES[sides[0]]}")
        elif seg.kind == "field":
            sides = tuple(sorted((h + 2 * rot) % 8 for h in seg.edges))
            for half in sides:
                half_segment[half] = index
                lookup[f"field:{HALVES[half]}"] = index
            names.append(f"field:{HALVES[sides[0]]}" if sides else "field:inner")
            if not sides:
                lookup["field:inner"] = index
        else:
            sides = ()
            names.append("cloister")
            lookup["cloister"] = index
        segment_sides.append(sides)
    edges = tuple(tile.edges[(s - rot) % 4] for s in range(4))
    return Oriented(
        tile=tile,
        rotation=rot,
        edges=(edges[0], edges[1], edges[2], edges[3]),
        side_segment=(side_segment[0], side_segment[1], side_segment[2], side_segment[3]),
        half_segment=tuple(half_segment),
        river=tuple(sorted((s + rot) % 4 for s in tile.river)),
        names=tuple(names),
        lookup=lookup,
        segment_sides=tuple(segment_sides),
    )


ORIENTED: Final[dict[str, tuple[Oriented, Oriented, Oriented, Oriented]]] = {
    tid: (_orient(t, 0), _orient(t, 1), _orient(t, 2), _orient(t, 3)) for tid, t in TILES.items()
}


def lowercase_lookup(name: str) -> str:
    """Normalise a player's spelling of a segment (``City:n`` -> ``city:N``, ``field:sw`` -> ``field:Sw``)."""
    kind, sep, where = name.strip().partition(":")
    kind = kind.lower()
    if not sep:
        return kind
    where = where.strip()
    if kind == "field" and where.lower() != "inner":
        return f"field:{where[:1].upper()}{where[1:].lower()}"
    if kind == "field":
        return "field:inner"
    return f"{kind}:{where.upper()}"
