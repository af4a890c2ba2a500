"""Carcassonne images: pixel probes of followers and markers, previews, size bounds, tile geometry."""

from __future__ import annotations

import random

import pytest
from PIL import Image

import render
from engine.carcassonne import Carcassonne
from engine.carcassonne.tiles import TILES
from render.carcassonne import board as cboard
from render.carcassonne import pictures, sprites
from render.carcassonne.shapes import HALF_POINT, MAP, reference_anchors, segment_map
from render.palette import player_colour

from .helpers import carcassonne_replay, decode, differs, share, view_after

ACTIONS = [
    {"player": 0, "type": "place", "tile": "U", "x": 1, "y": 0, "rotation": 0},
    {"player": 0, "type": "follower", "on": "road:E"},
    {"player": 1, "type": "place", "tile": "E", "x": 0, "y": -1, "rotation": 180},
    {"player": 1, "type": "follower", "on": "field:Nw"},
    {"player": 0, "type": "place", "tile": "B", "x": 1, "y": 1, "rotation": 0},
    {"player": 0, "type": "follower", "on": "cloister"},
]
DECK = ["U", "E", "B", "V"]


@pytest.fixture(scope="module")
def mid_view() -> dict:
    return view_after(carcassonne_replay(ACTIONS, DECK), limit=len(ACTIONS))


def test_every_tile_partitions_into_the_engines_segments() -> None:
    for tid, tile in TILES.items():
        seg_map = segment_map(tid)
        hist = seg_map.histogram()
        for index, seg in enumerate(tile.segments):
            assert hist[index + 1] > 0, (tid, index)
            if seg.kind == "field":
                for half in seg.edges:
                    hx, hy = HALF_POINT[half]
                    px = min(MAP - 2, max(1, round(hx * (MAP - 1))))
                    py = min(MAP - 2, max(1, round(hy * (MAP - 1))))
                    assert seg_map.getpixel((px, py)) == index + 1, (tid, seg, half)
        for index, (x, y) in enumerate(reference_anchors(tid)):
            assert seg_map.getpixel((min(MAP - 1, int(x * MAP)), min(MAP - 1, int(y * MAP)))) == index + 1, (tid, index)


@pytest.mark.parametrize(("seat", "x", "y", "on"), [(0, 1, 0, "road:E"), (1, 0, -1, "field:Nw"), (0, 1, 1, "cloister")])
def test_follower_colour_on_its_segment(mid_view: dict, seat: int, x: int, y: int, on: str) -> None:
    img = decode(render.board_png(mid_view))
    lay = cboard.layout(mid_view, (), img.height)
    px, py = cboard.segment_pixel(mid_view, lay, x, y, on)
    assert share(img, (px, py - 2), player_colour(seat), radius=3) > 0.4


def test_no_follower_colour_where_nobody_stands(mid_view: dict) -> None:
    img = decode(render.board_png(mid_view))
    lay = cboard.layout(mid_view, (), img.height)
    px, py = cboard.segment_pixel(mid_view, lay, 1, 0, "field:Nw")
    assert share(img, (px, py), player_colour(0), radius=3) < 0.1
    assert share(img, (px, py), player_colour(1), radius=3) < 0.1


def test_last_placement_marked_in_each_players_colour(mid_view: dict) -> None:
    img = decode(render.board_png(mid_view))
    lay = cboard.layout(mid_view, (), img.height)
    t = lay.tile
    for p in mid_view["players"]:
        x, y = p["last_placed"]
        ox, oy = lay.cell_origin(x, y)
        colour = player_colour(p["seat"])
        # the frame runs along every side of the cell
        assert share(img, (ox + t // 2, oy + 3), colour, radius=1) > 0.6
        assert share(img, (ox + t - 4, oy + t // 2), colour, radius=1) > 0.6
    # the start tile was placed by nobody: no frame
    ox, oy = lay.cell_origin(0, 0)
    for seat in (0, 1):
        assert share(img, (ox + t // 2, oy + 3), player_colour(seat), radius=1) < 0.2


def test_turn_preview_numbers_the_given_cells(mid_view: dict) -> None:
    cells = [(2, 0), (-1, 0), (0, 1)]
    img = decode(pictures.preview_png(mid_view, cells))
    lay = cboard.layout(mid_view, cells, img.height)
    for x, y in cells:
        ox, oy = lay.cell_origin(x, y)
        # the yellow frame of a legal cell
        assert share(img, (ox + lay.tile // 2, oy + 3), cboard.PREVIEW, radius=1) > 0.5
    ox, oy = lay.cell_origin(-1, -1)
    assert share(img, (ox + lay.tile // 2, oy + 3), cboard.PREVIEW, radius=1) == 0


def test_spots_image_labels_each_spot() -> None:
    data = carcassonne_replay(ACTIONS[:1], DECK)
    game = Carcassonne.new(["Alice", "Bob"], data["options"], 1)
    game.apply(ACTIONS[0], replay=True)
    spots = game.follower_spots()
    assert "road:E" in spots
    view = game.view(None)
    img = decode(pictures.spots_png(view, 1, 0, spots))
    lay = cboard.Layout(cboard.SPOT_TILE, 0, -1, 3, 3, 16, 56, 0, 0, 0, 0)
    for name in spots:
        px, py = lay.point(1, 0, cboard.anchor("U", 0, name))
        assert share(img, (px, py), cboard.PREVIEW, radius=1) > 0.5, name


def test_spots_image_dims_the_neighbours_as_one_blend_of_the_background(mid_view: dict) -> None:
    """The neighbours are pasted already dimmed: the same pixels as blending the background over the whole 3x3."""
    view = {**mid_view, "followers": []}
    t, pad, head = cboard.SPOT_TILE, 16, 56
    img = pictures.spots_image(view, 1, 0, [])
    expected = Image.new("RGB", (3 * t, 3 * t), cboard.EMPTY)
    for placed in view["tiles"]:
        if abs(placed["x"] - 1) <= 1 and abs(placed["y"]) <= 1:
            sprite = sprites.tile_sprite(placed["tile"], placed["rotation"], t)
            expected.paste(sprite, ((placed["x"] - 0) * t, (placed["y"] + 1) * t))
    expected.paste(Image.new("RGB", expected.size, cboard.BOARD_BG), (0, 0), Image.new("L", expected.size, 150))
    for i in range(3):
        for j in range(3):
            if (i, j) != (1, 1):  # the tile in question is not dimmed (and is framed)
                cell = (i * t, j * t, (i + 1) * t, (j + 1) * t)
                drawn = img.crop((pad + cell[0], head + cell[1], pad + cell[2], head + cell[3]))
                assert drawn.tobytes() == expected.crop(cell).tobytes(), (i, j)


def _spread_view(n: int = 102) -> dict:
    """A synthetic view: ``n`` tiles in one straight line, the widest spread a game can reach."""
    return {
        "game": "carcassonne",
        "viewer": None,
        "options": {"tower": True},
        "players": [
            {
                "seat": s,
                "name": name,
                "score": 10 * s,
                "breakdown": {},
                "followers": 7,
                "tower_pieces": 5,
                "prisoners": [0] * 6,
                "last_placed": [s, 0],
            }
            for s, name in enumerate(["Ana", "Ben", "Cy", "Dee", "Eve", "Fay"])
        ],
        "tiles": [{"tile": "U", "x": i, "y": 0, "rotation": 0} for i in range(n)],
        "followers": [{"player": 1, "x": 5, "y": 0, "on": "road:E", "role": "thief"}],
        "towers": [],
        "current_player": 0,
        "turn": n,
        "decision": "place",
        "drawn": "V",
        "placed": None,
        "tiles_left": 0,
        "discarded": [],
        "river_end": None,
        "finished": False,
        "winners": [],
    }


@pytest.mark.parametrize("vertical", [False, True])
def test_longest_side_at_most_2048_for_a_spread_out_board(vertical: bool) -> None:
    view = _spread_view()
    if vertical:
        for t in view["tiles"]:
            t["x"], t["y"] = 0, t["x"]
        for p in view["players"]:
            p["last_placed"] = [0, p["seat"]]
        view["followers"][0].update(x=0, y=5, on="road:S")
        for t in view["tiles"]:
            t["rotation"] = 90
    png = render.board_png(view)
    img = decode(png)
    assert max(img.size) <= 2048
    assert len(png) <= 1_000_000
    preview = decode(pictures.preview_png(view, [(0, -1)]))
    assert max(preview.size) <= 2048


def test_full_game_images_within_bounds() -> None:
    game = Carcassonne.new(["Alice", "Борис", "张伟", "さくら", "Eve", "Zoë"], {"tower": True}, 11)
    rng = random.Random(11)
    while not game.finished:
        game.apply(game.random_action(rng))
    view = game.view(None)
    assert len(view["tiles"]) > 90
    for png in (render.board_png(view), render.end_png(view)):
        assert png.startswith(b"\x89PNG")
        assert len(png) <= 1_000_000
        assert max(decode(png).size) <= 2048


def test_board_image_is_deterministic(mid_view: dict) -> None:
    assert not differs(render.board_png(mid_view), render.board_png(dict(mid_view)))


def test_every_tile_size_the_layout_may_choose_is_warmed_and_kept() -> None:
    """A long-lived drawing process draws boards of many sizes at once (one per game): its sprite cache must hold
    every tile in every rotation at every size, or games of different sizes evict each other's tiles."""
    from engine.carcassonne.tiles import ORIENTED
    from render.carcassonne.board import layout, tile_sizes, warm_sprites
    from render.carcassonne.sprites import tile_sprite

    chosen = set()
    for width in range(1, 60):
        tiles = [{"x": x, "y": 0} for x in range(width)] + [{"x": 0, "y": y} for y in range(width // 2)]
        chosen.add(layout({"tiles": tiles}).tile)
    assert chosen <= set(tile_sizes())
    tile_sprite.cache_clear()
    warm_sprites()
    before = tile_sprite.cache_info()
    assert before.currsize == len(tile_sizes()) * len(ORIENTED) * 4
    warm_sprites()
    assert tile_sprite.cache_info().misses == before.misses, "a second pass finds every sprite cached"
