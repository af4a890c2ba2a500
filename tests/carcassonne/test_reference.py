"""The engine's incremental features agree with a from-scratch search on random games."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.carcassonne import Carcassonne
from engine.carcassonne.board import cell
from engine.carcassonne.tiles import CITY, ROAD
from tests.carcassonne.reference import farm_points_current, features, pennants


def engine_partition(game: Carcassonne) -> dict[tuple[int, int, int], int]:
    board = game.board
    return {
        (x, y, seg): board.find(board.node_of(cell(x, y), seg))
        for t in game.view(None)["tiles"]
        for x, y in [(t["x"], t["y"])]
        for seg in range(len(board.cells[cell(x, y)][0].tile.segments))
    }


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6), river=st.booleans(), tower=st.booleans())
def test_union_find_matches_breadth_first_search(seed: int, players: int, river: bool, tower: bool) -> None:
    game = Carcassonne.new([f"P{i}" for i in range(players)], {"river": river, "tower": tower}, seed)
    policy = random.Random(seed)
    step = 0
    while not game.finished:
        game.apply(game.random_action(policy))
        step += 1
        if step % 15 and not game.finished:
            continue
        tiles = game.view(None)["tiles"]
        ids = {(t["x"], t["y"]): t["tile"] for t in tiles}
        roots = engine_partition(game)
        board = game.board
        for feature in features(tiles):
            feature_roots = {roots[n] for n in feature.nodes}
            assert len(feature_roots) == 1, "one search component is one union-find feature"
            root = feature_roots.pop()
            assert len(board.tiles[root]) == len(feature.cells) if feature.kind in ("city", "road") else True
            if board.kind[root] in (CITY, ROAD):
                assert board.open_edges[root] == feature.open_edges
                assert board.pennants[root] == pennants(feature, ids)
        assert len(set(roots.values())) == len(features(tiles)), "no two search components share a root"


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 5))
def test_final_farm_points_match_a_from_scratch_count(seed: int, players: int) -> None:
    game = Carcassonne.new([f"P{i}" for i in range(players)], {"tower": True}, seed)
    policy = random.Random(seed)
    events = []
    while not game.finished:
        events = game.apply(game.random_action(policy)).events
    farm_points: Counter[int] = Counter()
    for event in events:
        if event["type"] == "farm_scored":
            for seat in event["scorers"]:
                farm_points[seat] += event["points"]
    # Farmers stay on the board after the game ends, so the final view shows every farm.
    view = game.view(None)
    farmers = {
        (f["x"], f["y"], game.board.cells[cell(f["x"], f["y"])][0].lookup[f["on"]]): f["player"]
        for f in view["followers"]
        if f["role"] == "farmer"
    }
    assert +farm_points == +farm_points_current(view["tiles"], farmers)
    assert sum(farm_points.values()) == sum(b["farm"] for b in game.breakdown)
