"""The placed tiles and the features they form.

Cells are packed into one int (``cell(x, y)``) so that neighbours are an addition away. Every segment of a
placed tile is a node of a union-find; joining two tiles joins the nodes on their touching edges, so a feature
is a root with its open-edge count, tiles, pennants, follower count and (fields) bordering cities.
Empty cells next to the board carry a packed "pattern" of the edges facing them, which makes "where does this
tile fit" one cached lookup per empty cell.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from engine.carcassonne.tiles import (
    CITY,
    FIELD,
    HALVES_OF_SIDE,
    ORIENTED,
    ROAD,
    Oriented,
    half_partner,
    opposite,
)

_OFF: Final = 512
# Neighbour offsets by side N, E, S, W for packed cells.
DELTA: Final = (-1, 1024, 1, -1024)
# Offsets of the 8 cells around a cell (for cloisters).
AROUND: Final = (-1025, -1, 1023, -1024, 1024, -1023, 1, 1025)
_POW: Final = (1, 5, 25, 125)

KIND_CODE: Final = {"city": CITY, "road": ROAD, "field": FIELD, "cloister": 5}
CLOISTER: Final = 5


def cell(x: int, y: int) -> int:
    return ((x + _OFF) << 10) | (y + _OFF)


def xy(c: int) -> tuple[int, int]:
    return (c >> 10) - _OFF, (c & 1023) - _OFF


def in_reach(tower: int, target: int, height: int) -> bool:
    """Whether packed cell ``target`` is within reach of a tower of ``height`` at packed cell ``tower``: the
    tower's cell and ``height`` cells in each orthogonal direction (The Tower, rules section 6.1a).

    A shared column means equal high bits and a shared row equal low bits. Nothing blocks: other towers and empty
    cells in between do not matter.
    """
    if tower >> 10 == target >> 10:
        return abs((tower & 1023) - (target & 1023)) <= height
    if tower & 1023 == target & 1023:
        return abs((tower >> 10) - (target >> 10)) <= height
    return False


# Rotations (quarter turns) of a tile that fit an empty cell's pattern, cached per tile and pattern.
_FITS: dict[str, dict[int, tuple[int, ...]]] = {tid: {} for tid in ORIENTED}


def fitting_rotations(tile_id: str, pattern: int) -> tuple[int, ...]:
    cache = _FITS[tile_id]
    rots = cache.get(pattern)
    if rots is None:
        wanted = [(pattern // _POW[s]) % 5 for s in range(4)]
        rots = tuple(
            o.rotation for o in ORIENTED[tile_id] if all(w == 0 or w == e for w, e in zip(wanted, o.edges, strict=True))
        )
        # Symmetric tiles repeat rotations with identical edges; all stay legal and distinct in name.
        cache[pattern] = rots
    return rots


class Board:
    """Tiles, features, followers and towers. Mutated only through ``place`` and the follower helpers."""

    __slots__ = (
        "adj",
        "cells",
        "cloisters",
        "count",
        "followers",
        "kind",
        "node_cell",
        "node_seg",
        "open",
        "open_edges",
        "order",
        "parent",
        "pennants",
        "tiles",
        "tops",
        "towers",
    )

    def __init__(self) -> None:
        self.cells: dict[int, tuple[Oriented, int]] = {}  # cell -> (oriented tile, first node id)
        self.order: list[int] = []  # cells in placement order
        self.open: dict[int, int] = {}  # empty cell next to the board -> pattern of facing edges
        self.cloisters: dict[int, int] = {}  # cell -> cloister node
        self.towers: dict[int, int] = {}  # foundation cell -> tower height (0 = bare foundation)
        self.tops: dict[int, int] = {}  # tower cell -> seat of the follower on top
        self.followers: dict[int, int] = {}  # node -> seat, in placement order
        # Union-find arrays, indexed by node; the feature fields are meaningful on roots.
        self.parent: list[int] = []
        self.kind: list[int] = []
        self.node_cell: list[int] = []
        self.node_seg: list[int] = []
        self.open_edges: list[int] = []
        self.tiles: list[set[int]] = []
        self.pennants: list[int] = []
        self.count: list[int] = []  # followers on the feature
        self.adj: list[list[int]] = []  # fields: city nodes bordered

    # -- placement -----------------------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.order)

    def fits(self, c: int, tile_id: str) -> tuple[int, ...]:
        """Rotations in which ``tile_id`` fits the empty cell ``c`` (empty tuple if none or not next to the board)."""
        pattern = self.open.get(c)
        if pattern is None:
            return ()
        return fitting_rotations(tile_id, pattern)

    def placements(self, tile_id: str) -> dict[int, tuple[int, ...]]:
        """Every empty cell next to the board where the tile fits, with its fitting rotations."""
        fits = _FITS[tile_id]
        result: dict[int, tuple[int, ...]] = {}
        for c, pattern in self.open.items():
            rots = fits.get(pattern)
            if rots is None:
                rots = fitting_rotations(tile_id, pattern)
            if rots:
                result[c] = rots
        return result

    def place(self, c: int, o: Oriented) -> int:
        """Put a tile on the board and join its segments with its neighbours'. Returns its first node id."""
        base = len(self.parent)
        for index, seg in enumerate(o.tile.segments):
            node = base + index
            self.parent.append(node)
            code = KIND_CODE[seg.kind]
            self.kind.append(code)
            self.node_cell.append(c)
            self.node_seg.append(index)
            self.open_edges.append(len(seg.edges) if code in (CITY, ROAD) else 0)
            self.tiles.append({c})
            self.pennants.append(seg.pennants)
            self.count.append(0)
            self.adj.append([base + a for a in seg.adj])
            if code == CLOISTER:
                self.cloisters[c] = node
        if o.tile.tower:
            self.towers[c] = 0
        self.cells[c] = (o, base)
        self.order.append(c)
        self.open.pop(c, None)
        edges = o.edges
        for side in range(4):
            n = c + DELTA[side]
            other = self.cells.get(n)
            if other is None:
                self.open[n] = self.open.get(n, 0) + edges[side] * _POW[opposite(side)]
                continue
            no, nbase = other
            back = opposite(side)
            mine = o.side_segment[side]
            if mine >= 0:
                self._join(base + mine, nbase + no.side_segment[back])
            for half in HALVES_OF_SIDE[side]:
                mine = o.half_segment[half]
                if mine >= 0:
                    self._join(base + mine, nbase + no.half_segment[half_partner(half)])
        return base

    def find(self, node: int) -> int:
        parent = self.parent
        root = node
        while parent[root] != root:
            root = parent[root]
        while parent[node] != root:
            parent[node], node = root, parent[node]
        return root

    def _join(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            self.open_edges[ra] -= 2  # a road or city closing on itself (a loop)
            return
        if len(self.tiles[ra]) < len(self.tiles[rb]):
            ra, rb = rb, ra
        self.parent[rb] = ra
        self.open_edges[ra] += self.open_edges[rb] - 2 if self.kind[ra] != FIELD else 0
        # New containers rather than in-place updates, so that copies of the board may share the old ones.
        self.tiles[ra] = self.tiles[ra] | self.tiles[rb]
        self.pennants[ra] += self.pennants[rb]
        self.count[ra] += self.count[rb]
        if self.adj[rb]:
            self.adj[ra] = self.adj[ra] + self.adj[rb]
        self.tiles[rb] = set()
        self.adj[rb] = []

    def copy(self) -> Board:
        """An independent copy (for computer players trying moves on a model). The per-node tile sets and city
        lists are shared: ``_join`` replaces them instead of changing them in place."""
        new = Board.__new__(Board)
        new.cells = dict(self.cells)
        new.order = list(self.order)
        new.open = dict(self.open)
        new.cloisters = dict(self.cloisters)
        new.towers = dict(self.towers)
        new.tops = dict(self.tops)
        new.followers = dict(self.followers)
        new.parent = list(self.parent)
        new.kind = list(self.kind)
        new.node_cell = list(self.node_cell)
        new.node_seg = list(self.node_seg)
        new.open_edges = list(self.open_edges)
        new.tiles = list(self.tiles)
        new.pennants = list(self.pennants)
        new.count = list(self.count)
        new.adj = list(self.adj)
        return new

    # -- queries -------------------------------------------------------------------------------------------

    def node_of(self, c: int, segment: int) -> int:
        return self.cells[c][1] + segment

    def complete(self, root: int) -> bool:
        kind = self.kind[root]
        if kind == CLOISTER:
            return self.cloister_neighbours(self.node_cell[root]) == 8
        return kind != FIELD and self.open_edges[root] == 0

    def cloister_neighbours(self, c: int) -> int:
        cells = self.cells
        return sum(1 for d in AROUND if c + d in cells)

    def feature_followers(self, root: int) -> list[tuple[int, int]]:
        """(node, seat) of every follower on the feature, in placement order."""
        find = self.find
        return [(node, seat) for node, seat in self.followers.items() if find(node) == root]

    def roots_of(self, c: int) -> Iterator[int]:
        """The distinct features (roots) of the tile at ``c``, in segment order."""
        o, base = self.cells[c]
        seen: set[int] = set()
        for index in range(len(o.tile.segments)):
            root = self.find(base + index)
            if root not in seen:
                seen.add(root)
                yield root

    # -- followers -----------------------------------------------------------------------------------------

    def add_follower(self, node: int, seat: int) -> None:
        self.followers[node] = seat
        self.count[self.find(node)] += 1

    def remove_follower(self, node: int) -> int:
        seat = self.followers.pop(node)
        self.count[self.find(node)] -= 1
        return seat

    def segment_name(self, node: int) -> str:
        o, base = self.cells[self.node_cell[node]]
        return o.names[node - base]
