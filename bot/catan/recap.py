"""A finished Catan game's story in words (``engine.catan.story``'s numbers): the few sentences posted with its
picture, and the picture in words (its alt text)."""

from __future__ import annotations

from typing import Final

from bot.text import listing, t
from bot.text.i18n import decimal
from bot.text.story_words import Story, leaders

AWARDS: Final = ("longest_road", "largest_army")
SEVEN: Final = 5  # the index of the total 7 in the story's dice (totals 2 to 12)


def chance(total: int) -> float:
    """The chance two dice show ``total``."""
    return (6 - abs(7 - total)) / 36


def sentences(story: Story) -> list[str]:
    """The dice against the odds, who gained, lost and traded the most cards, and where the awards ended."""
    names = [str(name) for name in story["players"]]
    dice = [int(n) for n in story["dice"]]
    rolls = sum(dice)
    told = []
    if rolls:
        told.append(t("story.catan.sevens", count=dice[SEVEN], rolls=rolls, expected=decimal(rolls * chance(7))))
        most = max(dice)
        totals = [str(total) for total, n in zip(range(2, 13), dice, strict=True) if n == most]
        told.append(t("story.catan.most_rolled", totals=listing(totals), count=most))
    for key in ("gained", "robbed", "traded"):
        found = leaders([int(n) for n in story[key]], names)
        if found is not None:
            told.append(t(f"story.catan.most_{key}", names=found[0], count=found[1]))
    for award in AWARDS:
        told.append(award_sentence(award, story["holders"][award], names))
    return told


def award_sentence(award: str, changes: list[list[int | None]], names: list[str]) -> str:
    if not changes:
        return t(f"story.catan.{award}.never")
    holder = changes[-1][1]
    if holder is None:
        return t(f"story.catan.{award}.lost", count=len(changes) - 1)
    if len(changes) == 1:
        return t(f"story.catan.{award}.kept", name=names[holder], turn=changes[0][0])
    return t(f"story.catan.{award}.ended", name=names[holder], count=len(changes) - 1)


def words(story: Story) -> list[str]:
    """The charts of the picture in words: every total's rolls against the odds, each player's cards, and who
    held each award from which turn."""
    names = [str(name) for name in story["players"]]
    dice = [int(n) for n in story["dice"]]
    rolls = sum(dice)
    totals = [
        t("alt.story.catan.total", total=total, count=n, expected=decimal(rolls * chance(total)))
        for total, n in zip(range(2, 13), dice, strict=True)
    ]
    told = [t("alt.story.catan.dice", count=rolls, totals=listing(totals, style="enumeration"))]
    told += [
        t("alt.story.catan.cards", name=name, gained=story["gained"][seat], robbed=story["robbed"][seat],
          traded=story["traded"][seat])
        for seat, name in enumerate(names)
    ]  # fmt: skip
    for award in AWARDS:
        held = [
            t("alt.story.catan.held", name=names[seat], turn=turn)
            if seat is not None
            else t("alt.story.catan.held_by_nobody", turn=turn)
            for turn, seat in story["holders"][award]
        ]
        if held:
            told.append(t(f"alt.story.catan.{award}", holders=listing(held, style="enumeration")))
    return told
