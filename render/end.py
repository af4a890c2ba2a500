"""The end-of-game image of either game from its final view."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from PIL import Image

from render.chart import Row, chart_image
from render.labels import label
from render.palette import marks, player_colour

CATEGORIES: Final[dict[str, tuple[str, ...]]] = {
    "carcassonne": ("road", "city", "cloister", "farm", "ransom"),
    "catan": ("settlement", "city", "longest_road", "largest_army", "victory_point"),
}


def end_image(view: Mapping[str, Any]) -> Image.Image:
    game = str(view.get("game", "carcassonne"))
    keys = CATEGORIES.get(game, CATEGORIES["carcassonne"])
    players = list(view["players"])
    names = [str(p["name"]) for p in players]
    mk = marks(names)
    winners = set(view.get("winners") or [])
    rows = []
    for p in players:
        seat = int(p["seat"])
        breakdown = p.get("breakdown") or {}
        parts = tuple(int(breakdown.get(k, 0)) for k in keys)
        total = int(p.get("score", p.get("points", sum(parts))))
        rows.append(Row(names[seat], player_colour(seat), mk[seat], total, parts, seat in winners))
    title = label("final_scores") if view.get("finished") else label("turn", turn=view.get("turn", 0))
    return chart_image(title, [label("cat_" + k) for k in keys], rows)
