"""Rules section 5: the tile inventory, checked against the counts the rules file gives."""

from collections import Counter

import pytest

from engine.carcassonne.tiles import (
    BASE_TILES,
    CITY,
    FIELD,
    HALVES_OF_SIDE,
    ORIENTED,
    RIVER,
    RIVER_TILES,
    ROAD,
    TILES,
    TOWER_TILES,
)


def _total(ids: tuple[str, ...]) -> int:
    return sum(TILES[t].count for t in ids)


def test_base_game_has_72_tiles_of_24_types_with_10_pennants_and_6_cloisters() -> None:
    assert BASE_TILES == tuple("ABCDEFGHIJKLMNOPQRSTUVWX")
    assert _total(BASE_TILES) == 72
    assert sum(TILES[t].count * TILES[t].pennants for t in BASE_TILES) == 10
    assert sum(TILES[t].count for t in BASE_TILES if TILES[t].cloister) == 6


def test_base_game_edge_totals_are_115_field_94_road_79_city() -> None:
    edges: Counter[int] = Counter()
    for t in BASE_TILES:
        for e in TILES[t].edges:
            edges[e] += TILES[t].count
    assert edges == {FIELD: 115, ROAD: 94, CITY: 79}


def test_base_tile_counts_match_the_table() -> None:
    counts = dict(
        zip(
            "ABCDEFGHIJKLMNOPQRSTUVWX",
            (2, 4, 1, 4, 5, 2, 1, 3, 2, 3, 3, 3, 2, 3, 2, 3, 1, 3, 2, 1, 8, 9, 4, 1),
            strict=True,
        )
    )
    assert {t: TILES[t].count for t in BASE_TILES} == counts


def test_river_has_12_tiles_one_cloister_no_pennant_4_roads_3_cities() -> None:
    assert RIVER_TILES == tuple(f"R{i}" for i in range(1, 11))
    assert _total(RIVER_TILES) == 12
    assert sum(TILES[t].count for t in RIVER_TILES if TILES[t].cloister) == 1
    assert sum(TILES[t].pennants for t in RIVER_TILES) == 0
    with_road = [t for t in RIVER_TILES if any(s.kind == "road" for s in TILES[t].segments)]
    with_city = [t for t in RIVER_TILES if any(s.kind == "city" for s in TILES[t].segments)]
    assert sum(TILES[t].count for t in with_road) == 4
    assert sum(TILES[t].count for t in with_city) == 3
    assert TILES["R1"].spring and TILES["R2"].lake
    assert all(len(TILES[t].river) == 2 for t in RIVER_TILES if t not in ("R1", "R2"))


def test_tower_has_18_tiles_of_17_types_all_with_foundations_one_pennant_one_cloister() -> None:
    assert TOWER_TILES == tuple(f"T{i}" for i in range(1, 18))
    assert _total(TOWER_TILES) == 18
    assert all(TILES[t].tower for t in TOWER_TILES)
    assert not any(TILES[t].tower for t in BASE_TILES + RIVER_TILES)
    assert sum(TILES[t].count * TILES[t].pennants for t in TOWER_TILES) == 1
    assert sum(TILES[t].count for t in TOWER_TILES if TILES[t].cloister) == 1


@pytest.mark.parametrize("tid", sorted(TILES))
def test_segments_cover_every_edge_exactly_once(tid: str) -> None:
    """City and road segments own their edges; fields own the halves of field, road and river edges only."""
    tile = TILES[tid]
    owned_sides: Counter[int] = Counter()
    owned_halves: Counter[int] = Counter()
    for seg in tile.segments:
        if seg.kind in ("city", "road"):
            owned_sides.update(seg.edges)
            assert all(tile.edges[s] == (CITY if seg.kind == "city" else ROAD) for s in seg.edges)
        elif seg.kind == "field":
            owned_halves.update(seg.edges)
    for side, code in enumerate(tile.edges):
        assert owned_sides[side] == (1 if code in (CITY, ROAD) else 0), (tid, side)
        for half in HALVES_OF_SIDE[side]:
            assert owned_halves[half] == (0 if code == CITY else 1), (tid, half)
        assert (side in tile.river) == (code == RIVER)


def test_fields_border_only_cities_of_their_own_tile() -> None:
    for tile in TILES.values():
        for seg in tile.segments:
            if seg.kind == "field":
                assert all(tile.segments[a].kind == "city" for a in seg.adj)


def test_rotation_is_clockwise_and_names_follow_the_board() -> None:
    """With rotation 90 the reference N edge faces east; names use board orientation."""
    d90 = ORIENTED["D"][1]
    assert d90.edges == (ROAD, CITY, ROAD, FIELD)
    assert d90.names[0] == "city:E"
    assert d90.lookup["field:Ne"] == d90.lookup["field:Se"]  # the strip between city and road
    d0 = ORIENTED["D"][0]
    assert d0.lookup["field:Wn"] == d0.lookup["field:En"]  # rules section 2's own example
    assert ORIENTED["T11"][0].lookup["field:inner"] >= 0
