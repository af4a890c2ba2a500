"""The cschnelz bridge's geometry and state, without cschnelz/CarcassoneAI: its tile set's form is below."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from bench.cschnelz_bridge import matches, our_state, segment_of, tile_table
from engine.carcassonne.board import cell
from engine.carcassonne.game import Carcassonne
from engine.carcassonne.tiles import BASE_TILES, TILES

# One tile of each kind from their tile set (TileSetSepRoads.json at 0449e07): id, letter, and its features as
# their importer reads them ("City 0 3 *": a city on sides N and W with a shield), sides N=0 clockwise, half-edges
# from the north-west corner, each kind in its own reference orientation ("Garden", on two tiles, it skips).
KINDS = [
    (20, "a", "Chapel; Road 2; Grass 0 1 2 3 4 5 6 7"),
    (7, "b", "Chapel; Grass 0 1 2 3 4 5 6 7"),
    (63, "c", "City 0 1 2 3 *"),
    (21, "d", "City 1; Road 0 2; Grass 1 4; Grass 0 5 6 7"),
    (4, "e", "City 0; Grass 2 3 4 5 6 7"),
    (28, "f", "City 1 3 *; Grass 0 1; Grass 4 5"),
    (57, "g", "City 0 2; Grass 2 3; Grass 6 7"),
    (22, "h", "City 1; City 3; Grass 0 1 4 5"),
    (2, "i", "City 1; City 2; Grass 0 1 6 7"),
    (8, "j", "City 0; Road 1 2; Grass 2 5 6 7; Grass 3 4"),
    (13, "k", "City 1; Road 0 3; Grass 1 4 5 6; Grass 7 0"),
    (9, "l", "City 1; Road 0; Road 2; Road 3; Grass 1 4; Grass 5 6; Grass 7 0"),
    (12, "m", "City 0 3 *; Grass 2 3 4 5"),
    (51, "n", "City 0 3; Grass 2 3 4 5"),
    (1, "o", "City 0 3 *; Road 1 2; Grass 2 5; Grass 3 4"),
    (16, "p", "City 0 3; Road 1 2; Grass 2 5; Grass 3 4"),
    (14, "q", "City 0 1 3 *; Grass 4 5"),
    (3, "r", "City 0 1 3; Grass 4 5"),
    (23, "s", "City 0 1 3 *; Road 2; Grass 4; Grass 5"),
    (52, "t", "City 0 1 3; Road 2; Grass 4; Grass 5"),
    (5, "u", "Road 0 2; Grass 1 2 3 4; Grass 5 6 7 0"),
    (15, "v", "Road 2 3; Grass 0 1 2 3 4 7; Grass 5 6"),
    (6, "w", "Road 1; Road 2; Road 3; Grass 7 0 1 2; Grass 3 4; Grass 5 6"),
    (50, "x", "Road 0; Road 1; Road 2; Road 3; Grass 1 2; Grass 3 4; Grass 5 6; Grass 7 0"),
]


def their_json(tile_id: int, code: str, spec: str) -> dict[str, Any]:
    """A tile as their tile set writes it."""
    features: list[dict[str, Any]] = []
    for text in spec.split("; "):
        name, *rest = text.split()
        body: dict[str, Any] = {"Edges": [int(e) for e in rest if e != "*"]} if rest else {}
        if "*" in rest:
            body["Shield"] = "True"
        features.append({name: body})
    return {"id": tile_id, "img-code": code, "features": features}


THEIR_TILES = [their_json(*kind) for kind in KINDS]


def test_each_of_their_tiles_is_our_tile_of_the_same_letter_in_some_rotation() -> None:
    table = tile_table(THEIR_TILES)
    assert {kind for kind, _ in table.values()} == set(BASE_TILES)
    assert all(kind == tile["img-code"].upper() for tile in THEIR_TILES for kind, _ in [table[tile["id"]]])
    # their D is ours turned a quarter: its city faces east, its road runs north-south
    assert table[21] == ("D", 1)
    # their I: cities east and south, ours north and west: half a turn
    assert table[2] == ("I", 2)


def test_a_tile_that_is_none_of_ours_is_refused() -> None:
    with pytest.raises(ValueError, match="none of ours"):
        tile_table([their_json(99, "?", "City 0 1 2; Road 3")])


def test_their_feature_is_our_segment_by_the_sides_it_touches() -> None:
    # D turned a quarter: the city east, the road north-south, the fields west (three halves) and the east pair
    assert TILES["D"].segments[segment_of("D", 1, "CITY", [1])].kind == "city"
    assert TILES["D"].segments[segment_of("D", 1, "ROAD", [2, 0])].kind == "road"
    west = segment_of("D", 1, "GRASS", [0, 5, 6, 7])
    assert TILES["D"].segments[west].kind == "field" and west != segment_of("D", 1, "GRASS", [1, 4])
    assert TILES["A"].segments[segment_of("A", 3, "CHAPEL", [])].kind == "cloister"
    with pytest.raises(ValueError, match="no city"):
        segment_of("D", 1, "CITY", [0])


def tile(tile_id: int, orientation: int) -> SimpleNamespace:
    return SimpleNamespace(id=tile_id, orientation=orientation)


def their_state() -> SimpleNamespace:
    """Their ``State`` after two tiles: the start tile D, then a U south of it with player 1's meeple on its road;
    player 0 to place an E."""
    d, u, e = 21, 5, 4
    feature = SimpleNamespace(featType=SimpleNamespace(name="ROAD"), edges=[0, 2])
    board = SimpleNamespace(
        board={(0, 0): SimpleNamespace(tile=tile(d, 0)), (0, 1): SimpleNamespace(tile=tile(u, 0))},
        meepled={(0, 1): SimpleNamespace(id=1, featureObject=feature)},
    )
    tile_list = {i: [tile(i, 0)] for i in (d, u, e, 7)}
    return SimpleNamespace(
        board=board,
        tileList=tile_list,
        order=[7, 7],
        currentTile=[tile(e, 0)],
        currentPlayer=0,
        turn=3,
        players=[SimpleNamespace(meepleCount=7, score=0), SimpleNamespace(meepleCount=6, score=0)],
    )


def test_their_state_loads_as_ours_with_the_road_and_its_thief_joined() -> None:
    table = tile_table(THEIR_TILES)
    game = Carcassonne.from_json(our_state(their_state(), table, ["a", "b"]))
    view = game.view(0)
    assert [(t["tile"], t["x"], t["y"], t["rotation"]) for t in view["tiles"]] == [("D", 0, 0, 90), ("U", 0, 1, 90)]
    assert [(f["player"], f["x"], f["y"], f["on"]) for f in view["followers"]] == [(1, 0, 1, "road:N")]
    assert view["drawn"] == "E" and view["current_player"] == 0
    assert [p["followers"] for p in view["players"]] == [7, 6]
    # the U's road continues the start tile's: one road, and its thief is player 1's
    board = game.board
    start_road = board.find(board.node_of(cell(0, 0), segment_of("D", 1, "ROAD", [0, 2])))
    assert start_road == board.find(board.node_of(cell(0, 1), segment_of("U", 1, "ROAD", [0, 2])))
    assert [seat for _, seat in board.feature_followers(start_road)] == [1]


def test_our_choice_is_their_action_with_the_same_cell_shape_and_meeple() -> None:
    table = tile_table(THEIR_TILES)
    road = SimpleNamespace(featType=SimpleNamespace(name="ROAD"), edges=[0, 2])
    theirs = SimpleNamespace(x=0, y=1, tile=tile(5, 0), meeple=True, feature=road)  # their U, its road north-south
    on = segment_of("U", 1, "ROAD", [0, 2])
    assert matches(theirs, table, {"tile": "U", "x": 0, "y": 1, "rotation": 90}, on)
    # ours turned three quarters is the same U (its road north-south): the same action
    assert matches(theirs, table, {"tile": "U", "x": 0, "y": 1, "rotation": 270}, segment_of("U", 3, "ROAD", [0, 2]))
    assert not matches(theirs, table, {"tile": "U", "x": 0, "y": 1, "rotation": 0}, on)  # its road east-west
    assert not matches(theirs, table, {"tile": "U", "x": 0, "y": 1, "rotation": 90}, None)  # a meeple, or not
    assert not matches(theirs, table, {"tile": "U", "x": 1, "y": 1, "rotation": 90}, on)
