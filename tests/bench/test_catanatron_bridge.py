"""The catanatron bridge's geometry and action mapping, without catanatron: its base map's numbering is below."""

from __future__ import annotations

from collections import namedtuple
from enum import Enum

import pytest

from bench.catanatron_bridge import Geometry, geometry, hex_of_cube, their_action
from engine.catan.board import EDGE_NODES, HARBOR_SPOTS, HEX_CORNERS, HEX_NAMES, HEX_NEIGHBORS

# catanatron 3.2.1's base map: each land tile's cube coordinate and its node ids N, NE, SE, S, SW, NW (the
# numbering is the same for every map: its topology is fixed, only terrains, numbers and harbour types shuffle).
TILES = [
    ((0, 0, 0), (0, 1, 2, 3, 4, 5)),
    ((1, -1, 0), (6, 7, 8, 9, 2, 1)),
    ((0, -1, 1), (2, 9, 10, 11, 12, 3)),
    ((-1, 0, 1), (4, 3, 12, 13, 14, 15)),
    ((-1, 1, 0), (16, 5, 4, 15, 17, 18)),
    ((0, 1, -1), (19, 20, 0, 5, 16, 21)),
    ((1, 0, -1), (22, 23, 6, 1, 0, 20)),
    ((2, -2, 0), (24, 25, 26, 27, 8, 7)),
    ((1, -2, 1), (8, 27, 28, 29, 10, 9)),
    ((0, -2, 2), (10, 29, 30, 31, 32, 11)),
    ((-1, -1, 2), (12, 11, 32, 33, 34, 13)),
    ((-2, 0, 2), (14, 13, 34, 35, 36, 37)),
    ((-2, 1, 1), (17, 15, 14, 37, 38, 39)),
    ((-2, 2, 0), (40, 18, 17, 39, 41, 42)),
    ((-1, 2, -1), (43, 21, 16, 18, 40, 44)),
    ((0, 2, -2), (45, 46, 19, 21, 43, 47)),
    ((1, 1, -2), (48, 49, 22, 20, 19, 46)),
    ((2, 0, -2), (50, 51, 52, 23, 22, 49)),
    ((2, -1, -1), (52, 53, 24, 7, 6, 23)),
]
PORTS = [
    ("BRICK", (25, 26)),
    (None, (28, 29)),
    (None, (32, 33)),
    ("ORE", (35, 36)),
    ("WOOD", (38, 39)),
    (None, (40, 44)),
    ("WHEAT", (47, 45)),
    ("SHEEP", (48, 49)),
    (None, (52, 53)),
]
CORNER_NAMES = ("NORTH", "NORTHEAST", "SOUTHEAST", "SOUTH", "SOUTHWEST", "NORTHWEST")


def tiles(nodes: list[tuple[tuple[int, int, int], tuple[int, ...]]] = TILES) -> list[object]:
    resources = ["WOOD"] * 18 + [None]
    return [
        (cube, dict(zip(CORNER_NAMES, ids, strict=True)), res, None if res is None else 6)
        for (cube, ids), res in zip(nodes, resources, strict=True)
    ]


def base() -> Geometry:
    return geometry(tiles(), PORTS)  # type: ignore[arg-type]


def test_the_centre_is_j_and_each_step_lands_on_a_neighbour() -> None:
    assert HEX_NAMES[hex_of_cube((0, 0, 0))] == "J"
    assert HEX_NAMES[hex_of_cube((1, -1, 0))] == "K"  # east
    assert HEX_NAMES[hex_of_cube((0, 1, -1))] == "E"  # north-west
    assert HEX_NAMES[hex_of_cube((-2, 2, 0))] == "H"  # two steps west
    centre = hex_of_cube((0, 0, 0))
    ring = {hex_of_cube(cube) for cube, _ in TILES[1:7]}
    assert ring == set(HEX_NEIGHBORS[centre])
    with pytest.raises(ValueError):
        hex_of_cube((3, -3, 0))  # the water ring


def test_catanatrons_base_map_lands_on_our_board_one_to_one() -> None:
    geo = base()
    assert sorted(geo.node_at.values()) == list(range(54))
    assert geo.node_at[0] == HEX_CORNERS[HEX_NAMES.index("J")][0]  # the centre tile's north corner
    for _, ids in TILES:  # every tile edge is one of our paths
        for i in range(6):
            pair = (ids[i], ids[(i + 1) % 6])
            a, b = EDGE_NODES[geo.edge(pair)]
            assert {a, b} == {geo.node_at[pair[0]], geo.node_at[pair[1]]}
    assert len(geo.harbors) == len(HARBOR_SPOTS)
    assert sorted(geo.harbors) == sorted(["3:1"] * 4 + ["brick", "lumber", "wool", "grain", "ore"])
    assert geo.hexes[HEX_NAMES.index("J")] == ("forest", 6)


def test_a_tile_that_contradicts_its_neighbours_is_refused() -> None:
    broken = list(TILES)
    cube, ids = broken[1]
    broken[1] = (cube, (ids[0], ids[1], ids[2], ids[3], ids[5], ids[4]))  # SW and NW swapped
    with pytest.raises(ValueError):
        geometry(tiles(broken), PORTS)  # type: ignore[arg-type]


class Kind(Enum):
    BUILD_SETTLEMENT = "BUILD_SETTLEMENT"
    BUILD_ROAD = "BUILD_ROAD"
    MARITIME_TRADE = "MARITIME_TRADE"
    END_TURN = "END_TURN"


Act = namedtuple("Act", ["color", "action_type", "value"])


def test_our_actions_map_to_catanatrons_and_a_trade_only_at_its_rate() -> None:
    geo = base()
    ours_node = geo.node_at[9]
    playable = [
        Act("RED", Kind.END_TURN, None),
        Act("RED", Kind.BUILD_SETTLEMENT, 9),
        Act("RED", Kind.BUILD_ROAD, (9, 2)),
        Act("RED", Kind.MARITIME_TRADE, ("WOOD", "WOOD", "WOOD", None, "ORE")),
    ]
    assert their_action({"type": "settlement", "at": ours_node + 1}, playable, geo) is playable[1]
    assert their_action({"type": "road", "at": geo.edge_name((2, 9))}, playable, geo) is playable[2]
    assert their_action({"type": "end_turn"}, playable, geo) is playable[0]
    three = {"type": "bank_trade", "give": {"lumber": 3}, "get": {"ore": 1}}
    assert their_action(three, playable, geo) is playable[3]
    four = {"type": "bank_trade", "give": {"lumber": 4}, "get": {"ore": 1}}
    assert their_action(four, playable, geo) is None  # catanatron trades at the best rate only
    assert their_action({"type": "city", "at": ours_node + 1}, playable, geo) is None
    assert their_action({"type": "offer", "give": {"lumber": 1}, "get": {"ore": 1}}, playable, geo) is None
