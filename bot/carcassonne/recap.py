"""A finished Carcassonne game's story in words (``engine.carcassonne.story``'s numbers): the few sentences posted
with its picture, and the picture in words (its alt text)."""

from __future__ import annotations

from typing import Any, Final

from bot.text import listing, t
from bot.text.story_words import Story

FEATURES: Final = ("city", "road", "cloister", "farm", "ransom")
QUARTERS: Final = 4  # the alt text tells the scores at each quarter of the game


def ahead(scores: list[int]) -> int | None:
    """The one player strictly ahead, or None (a tie for the lead)."""
    best = max(scores)
    first = [seat for seat, score in enumerate(scores) if score == best]
    return first[0] if len(first) == 1 else None


def sentences(story: Story) -> list[str]:
    """Who was ahead longest, when the winner took the lead for good, and the biggest scoring of the game."""
    names = [str(name) for name in story["players"]]
    lead: list[list[Any]] = story["lead"]
    told = []
    turns_ahead = [0] * len(names)
    for _, scores in lead:
        seat = ahead(scores)
        if seat is not None:
            turns_ahead[seat] += 1
    longest = max(turns_ahead)
    if longest:
        leading = listing(name for name, n in zip(names, turns_ahead, strict=True) if n == longest)
        told.append(t("story.carcassonne.ahead", names=leading, count=longest, turns=len(lead)))
    if len(story["winners"]) == 1 and lead:
        winner = story["winners"][0]
        behind = [i for i, (_, scores) in enumerate(lead) if ahead(scores) != winner]
        since = behind[-1] + 1 if behind else 0
        if since >= len(lead) - 1:
            told.append(t("story.carcassonne.lead_at_the_end", name=names[winner]))
        else:
            told.append(t("story.carcassonne.lead_for_good", name=names[winner], turn=lead[since][0]))
    biggest = story.get("biggest")
    if biggest:
        who = listing(names[seat] for seat in biggest["scorers"])
        kind = "biggest_tie" if len(biggest["scorers"]) > 1 else "biggest"  # each scorer got the points
        told.append(t(f"story.carcassonne.{kind}.{biggest['category']}", names=who, count=biggest["points"]))
    return told


def words(story: Story) -> list[str]:
    """The charts of the picture in words: the scores at each quarter of the game, then each player's points by
    feature."""
    names = [str(name) for name in story["players"]]
    lead: list[list[Any]] = story["lead"]
    told = []
    marks = sorted({len(lead) * q // QUARTERS - 1 for q in range(1, QUARTERS + 1)} - {-1})
    for index in marks:
        turn, scores = lead[index]
        listed = listing((t("alt.score", name=n, count=s) for n, s in zip(names, scores, strict=True)),
                         style="enumeration")  # fmt: skip
        told.append(t("alt.story.carcassonne.scores_at", turn=turn, scores=listed))
    for name, points in zip(names, story["features"], strict=True):
        parts = [
            t("alt.end.part", category=t(f"image.cat_carcassonne_{feature}"), count=points[feature])
            for feature in FEATURES
            if points.get(feature)
        ]
        if parts:
            told.append(t("alt.story.carcassonne.features", name=name, parts=listing(parts)))
    return told
