"""The end-of-game image of any game from its final view."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image

from render.chart import Row, chart_image
from render.labels import label
from render.palette import marks, player_colour
from render.registry import pictures_of


def end_image(view: Mapping[str, Any]) -> Image.Image:
    pictures = pictures_of(view)
    scoring = pictures.scoring
    players = list(view["players"])
    names = [str(p["name"]) for p in players]
    mk = marks(names)
    winners = set(view.get("winners") or [])
    if view.get("winner") is not None:
        winners.add(int(view["winner"]))
    derived = pictures.breakdown(view)
    rows = []
    for p in players:
        seat = int(p["seat"])
        breakdown = p.get("breakdown") or derived.get(seat, {})
        parts = tuple(int(breakdown.get(key, 0)) for key in scoring.categories)
        total = int(p.get("score", p.get("points", sum(parts))))
        rows.append(Row(names[seat], player_colour(seat), mk[seat], total, parts, seat in winners))
    over = view.get("finished") or winners
    title = label(scoring.title) if over else label("turn", turn=view.get("turn", 0))
    lost = label(scoring.lost) if scoring.lost else ""
    return chart_image(title, [label(scoring.legend(key)) for key in scoring.categories], rows, lost)
