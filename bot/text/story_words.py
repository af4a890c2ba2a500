"""What the story of every game shares in words (``bot/<game>/recap.py`` tell each game's own part): its picture's
head for the alt text (the game, the winner, each player as the picture shows them with their final points), the
players who lead one measure, and the rating changes the game made."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.text import listing, t
from bot.text.alt_words import View, seat, won
from bot.text.i18n import decimal, signed

Story = Mapping[str, Any]


def story_view(story: Story) -> View:
    """The story's players and winners as the shared alt-text words read a view."""
    return {
        "game": story["game"],
        "players": [
            {"seat": number, "name": str(name), "score": int(score)}
            for number, (name, score) in enumerate(zip(story["players"], story["scores"], strict=True))
        ],
        "winners": list(story["winners"]),
    }


def head(story: Story) -> list[str]:
    """The story picture's first sentences: what it is, who won, each player's colour, mark and points."""
    view = story_view(story)
    players = [
        t("alt.end.player", seat=seat(view, p["seat"]), points=t("alt.points", count=p["score"]))
        for p in view["players"]
    ]
    return [t("alt.story.head", game=t(f"game.{story['game']}")), *won(view), *players]


def leaders(values: Sequence[int], names: Sequence[str]) -> tuple[str, int] | None:
    """The names with the highest value (listed, several when tied) and that value; None when all are 0."""
    best = max(values, default=0)
    if best <= 0:
        return None
    return listing(name for name, value in zip(names, values, strict=True) if value == best), best


def rating_line(changes: Sequence[tuple[int, float, float]], names: Sequence[str]) -> list[str]:
    """The sentence of what the game did to each seat's shown rating, ``(seat, before, after)`` ("Ratings after
    this game: Alice 3.2 (+3.2), ..."), or nothing for a game not rated."""
    told = [
        t("story.rating_change", name=names[seat], rating=decimal(after), change=signed(after - before))
        for seat, before, after in sorted(changes)
    ]
    return [t("story.ratings", changes=listing(told, style="enumeration"))] if told else []
