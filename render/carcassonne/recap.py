"""Carcassonne's charts in the story of a game (``render.recap``): the scores turn by turn (who led when) and each
player's points by feature."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from render.labels import label
from render.palette import marks, player_colour
from render.plots import Section, columns, heading, line_chart

FEATURES: Final = ("city", "road", "cloister", "farm", "ransom")


def recap(story: Mapping[str, Any]) -> list[Section]:
    names = [str(name) for name in story["players"]]
    mk = marks(names)
    lead = story["lead"]
    lines = [
        (player_colour(seat), mk[seat], [(float(turn), float(scores[seat])) for turn, scores in lead])
        for seat in range(len(names))
    ]
    points = story["features"]
    shown = [f for f in FEATURES if f != "ransom" or any(p.get("ransom") for p in points)]  # ransom: The Tower only
    groups = [
        (label(f"cat_carcassonne_{f}"), [(player_colour(seat), int(p.get(f, 0))) for seat, p in enumerate(points)])
        for f in shown
    ]
    return [
        heading(label("story_lead")),
        line_chart(lines, x_label=label("story_turns")),
        heading(label("story_features")),
        columns(groups),
    ]
