"""An independent, slow model of Carcassonne features: breadth-first search over the placed tiles.

The engine keeps features in a union-find updated tile by tile; this recomputes them from scratch, straight from
the tile definitions, so the two can be compared on random games.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from engine.carcassonne.tiles import ORIENTED, SIDE_OF_HALF, TILES, half_partner

STEP = {0: (0, -1), 1: (1, 0), 2: (0, 1), 3: (-1, 0)}

Node = tuple[int, int, int]  # x, y, segment index


@dataclass
class Feature:
    kind: str
    nodes: set[Node] = field(default_factory=set)
    open_edges: int = 0

    @property
    def cells(self) -> set[tuple[int, int]]:
        return {(x, y) for x, y, _ in self.nodes}


def features(tiles: list[dict[str, int | str]]) -> list[Feature]:
    """Every feature on a board given as the view's ``tiles`` list."""
    board = {(int(t["x"]), int(t["y"])): ORIENTED[str(t["tile"])][int(t["rotation"]) // 90] for t in tiles}

    def neighbours(node: Node) -> tuple[list[Node], int]:
        x, y, seg = node
        o = board[(x, y)]
        found: list[Node] = []
        missing = 0
        kind = o.tile.segments[seg].kind
        for side_or_half in o.segment_sides[seg]:
            if kind == "field":
                side = SIDE_OF_HALF[side_or_half]
                dx, dy = STEP[side]
                other = board.get((x + dx, y + dy))
                if other is not None:
                    found.append((x + dx, y + dy, other.half_segment[half_partner(side_or_half)]))
            else:
                dx, dy = STEP[side_or_half]
                other = board.get((x + dx, y + dy))
                if other is None:
                    missing += 1
                else:
                    found.append((x + dx, y + dy, other.side_segment[(side_or_half + 2) % 4]))
        return found, missing

    seen: set[Node] = set()
    result: list[Feature] = []
    for (x, y), o in board.items():
        for seg, segment in enumerate(o.tile.segments):
            start = (x, y, seg)
            if start in seen:
                continue
            feature = Feature(segment.kind)
            todo = [start]
            seen.add(start)
            while todo:
                node = todo.pop()
                feature.nodes.add(node)
                found, missing = neighbours(node)
                feature.open_edges += missing
                for other in found:
                    if other not in seen:
                        seen.add(other)
                        todo.append(other)
            result.append(feature)
    return result


def pennants(feature: Feature, tiles: dict[tuple[int, int], str]) -> int:
    return sum(TILES[tiles[(x, y)]].segments[seg].pennants for x, y, seg in feature.nodes)


def city_nodes_bordering(feature: Feature, tiles: list[dict[str, int | str]]) -> set[Node]:
    """City segments that the field ``feature`` borders (on the same tiles)."""
    board = {(int(t["x"]), int(t["y"])): str(t["tile"]) for t in tiles}
    return {(x, y, a) for x, y, seg in feature.nodes for a in TILES[board[(x, y)]].segments[seg].adj}


def farm_points_current(tiles: list[dict[str, int | str]], farmers: dict[Node, int]) -> Counter[int]:
    """Final farm points per seat under the 3rd-edition rule, computed from scratch."""
    all_features = features(tiles)
    owner_of: dict[Node, Feature] = {n: f for f in all_features for n in f.nodes}
    points: Counter[int] = Counter()
    for feature in all_features:
        if feature.kind != "field":
            continue
        seats = Counter(farmers[n] for n in feature.nodes if n in farmers)
        if not seats:
            continue
        top = max(seats.values())
        cities = {id(owner_of[n]) for n in city_nodes_bordering(feature, tiles) if owner_of[n].open_edges == 0}
        for seat, count in seats.items():
            if count == top:
                points[seat] += 3 * len(cities)
    return points
