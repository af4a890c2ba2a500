"""The end-of-game image of either game from its final view."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from PIL import Image

from render.catan.state import read
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
    if view.get("winner") is not None:
        winners.add(int(view["winner"]))
    derived = _catan_breakdown(view) if game == "catan" else {}
    rows = []
    for p in players:
        seat = int(p["seat"])
        breakdown = p.get("breakdown") or derived.get(seat, {})
        parts = tuple(int(breakdown.get(k, 0)) for k in keys)
        total = int(p.get("score", p.get("points", sum(parts))))
        rows.append(Row(names[seat], player_colour(seat), mk[seat], total, parts, seat in winners))
    final = "final_scores_catan" if game == "catan" else "final_scores"
    title = label(final) if view.get("finished") or winners else label("turn", turn=view.get("turn", 0))
    lost = label("cat_ransom_paid") if game == "carcassonne" else ""
    prefix = "cat_catan_" if game == "catan" else "cat_carcassonne_"
    return chart_image(title, [label(prefix + k) for k in keys], rows, lost)


def _catan_breakdown(view: Mapping[str, Any]) -> dict[int, dict[str, int]]:
    """Points per category from the public board (the view has no breakdown): 1 per settlement, 2 per city,
    2 for each card held, and the victory point cards revealed at the end."""
    state = read(view)
    return {
        p.seat: {
            "settlement": p.settlements,
            "city": 2 * p.cities,
            "longest_road": 2 if state.longest_road == p.seat else 0,
            "largest_army": 2 if state.largest_army == p.seat else 0,
            "victory_point": p.vp_cards,
        }
        for p in state.players
    }
