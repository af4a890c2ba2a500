"""Catan's charts in the story of a game (``render.recap``): the dice rolled against the odds, each player's
resources gained, lost to the robber and traded away, and who held the longest road and the largest army."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from render.labels import label
from render.palette import marks, player_colour
from render.plots import Section, columns, heading, legend, timeline

ROLLED: Final = (120, 144, 156)
RESOURCES: Final = (("gained", (141, 190, 90)), ("robbed", (220, 120, 100)), ("traded", (106, 168, 196)))
TOTALS: Final = range(2, 13)


def chance(total: int) -> float:
    """The chance two dice show ``total``."""
    return (6 - abs(7 - total)) / 36


def recap(story: Mapping[str, Any]) -> list[Section]:
    names = [str(name) for name in story["players"]]
    mk = marks(names)
    dice = [int(n) for n in story["dice"]]
    rolls = sum(dice)
    expected = [round(rolls * chance(total), 1) for total in TOTALS]
    sections = [
        heading(label("story_dice", count=rolls)),
        legend([(ROLLED, "", label("story_rolled")), ((255, 214, 80), "", label("story_expected"))]),
        columns([(str(total), [(ROLLED, n)]) for total, n in zip(TOTALS, dice, strict=True)], curve=expected),
        heading(label("story_resources")),
        legend([(colour, "", label(f"story_{key}")) for key, colour in RESOURCES]),
        columns(
            [(name, [(colour, int(story[key][seat])) for key, colour in RESOURCES]) for seat, name in enumerate(names)]
        ),
        heading(label("story_awards")),
    ]
    rows = []
    for award in ("longest_road", "largest_army"):
        changes = [
            (float(turn), None if seat is None else player_colour(seat), "" if seat is None else mk[seat])
            for turn, seat in story["holders"][award]
        ]
        rows.append((label(award), changes))
    sections.append(timeline(rows, end=float(story["turns"]), x_label=label("story_turns")))
    return sections
