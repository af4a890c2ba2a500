"""What the alt text of every picture shares: how a seat is named (its colour and mark, as the picture shows them),
points, the end of a game, and fitting the sentences into Discord's 1,024 characters."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from bot.text import listing, t
from bot.text.i18n import language
from bot.text.limits import ATTACHMENT_DESCRIPTION, clip
from render.palette import PLAYER_COLOURS, marks

View = Mapping[str, Any]
NO_GAP: Final = frozenset({"zh-CN", "zh-TW"})  # Chinese sets no space between sentences


def names_of(view: View) -> list[str]:
    return [str(p["name"]) for p in view["players"]]


def seat(view: View, number: int) -> str:
    """A player as the picture shows them: name, colour and the mark on their pieces ("Alice (orange, marked A)")."""
    names = names_of(view)
    colour = t(f"alt.colour.{number % len(PLAYER_COLOURS)}")
    return t("alt.seat", name=names[number], colour=colour, mark=marks(names)[number])


def name(view: View, number: object) -> str:
    names = names_of(view)
    return names[number] if isinstance(number, int) and 0 <= number < len(names) else "?"


def to_move(view: View) -> list[str]:
    """Whose turn it is (the picture frames that player's line), if anyone's."""
    current = view.get("current_player")
    if view.get("finished") or view.get("phase") == "over" or not isinstance(current, int):
        return []
    return [t("alt.to_move", name=name(view, current))]


def joined(sentences: Sequence[str], limit: int = ATTACHMENT_DESCRIPTION) -> str:
    """The sentences in reading order within ``limit`` characters: the last ones (the least needed) give way."""
    gap = "" if language() in NO_GAP else " "
    kept: list[str] = []
    for sentence in sentences:
        if len(gap.join([*kept, sentence])) > limit:
            break
        kept.append(sentence)
    return gap.join(kept) if kept else clip(sentences[0], limit) if sentences else ""


def winners(view: View) -> list[int]:
    found = set(view.get("winners") or [])
    if view.get("winner") is not None:
        found.add(int(view["winner"]))
    return sorted(found)


def won(view: View) -> list[str]:
    """Who won ("Alice won.", or a tie)."""
    seats = winners(view)
    if not seats:
        return []
    key = "alt.end.winners" if len(seats) > 1 else "alt.end.winner"
    return [t(key, names=listing(name(view, s) for s in seats))]


def points(player: Mapping[str, Any]) -> int:
    return int(player.get("score", player.get("points", 0)))


def final_scores(view: View) -> list[str]:
    """Everyone's final points in one sentence."""
    told = (t("alt.score", name=str(p["name"]), count=points(p)) for p in view["players"])
    return [t("alt.final_scores", scores=listing(told, style="enumeration"))]
