"""The render functions are pure and thread-safe: concurrent calls from cold caches give the serial bytes."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor

import render
from engine.carcassonne import Carcassonne
from render import badge, fonts
from render.carcassonne import shapes, sprites
from render.catan import board as catan_board
from render.panel import card_layout

from .helpers import differs
from .test_catan import beginner_view


def _views() -> list[dict]:
    out = []
    for seed in (1, 2):
        game = Carcassonne.new(["Ann \U0001f3b2", "Борис", "张伟", "محمد", "김민준"], {"tower": True}, seed)
        rng = random.Random(seed)
        for _ in range(40 * seed):
            game.apply(game.random_action(rng))
        out.append(game.view(None))
    return out


def _clear() -> None:
    for cached in (
        sprites.tile_sprite,
        sprites.meeple,
        badge.badge,
        sprites.tower_sprite,
        sprites._base,
        catan_board.static_layer,
        catan_board.settlement_sprite,
        catan_board.city_sprite,
        fonts.runs,
        fonts.text_width,
        fonts.run_width,
        fonts.font_for,
        fonts.clusters,
        fonts.fit,
        fonts._emoji_image,
        card_layout,
    ):
        cached.cache_clear()
    for cached_shape in (shapes.tile_shapes, shapes.segment_map, shapes.reference_anchors):
        cached_shape.cache_clear()


def test_concurrent_renders_match_serial() -> None:
    views = _views()
    catan = beginner_view(robber="E")
    jobs = [lambda v=v: render.board_png(v) for v in views] + [lambda: render.board_png(catan)]
    jobs += [lambda v=v: render.end_png(v) for v in views]
    serial = [job() for job in jobs]
    _clear()
    with ThreadPoolExecutor(max_workers=6) as pool:
        futures = [pool.submit(job) for job in jobs * 3]
        results = [f.result() for f in futures]
    pairs = zip(results, serial * 3, strict=True)
    wrong = [(i, why) for i, (got, alone) in enumerate(pairs) if (why := differs(alone, got))]
    assert not wrong
