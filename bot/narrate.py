"""Engine events told as short sentences for the turn message. All text comes from the catalogue (``narrate.*``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.text import t

Event = Mapping[str, Any]


def _name(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return "?"


def _who(names: Sequence[str], seats: Sequence[int]) -> str:
    return t("narrate.and").join(_name(names, s) for s in seats)


def _where(event: Event) -> str:
    """Where a feature lies: its cloister cell, or the first cells of its tiles."""
    if "x" in event and "y" in event:
        return f"({event['x']}, {event['y']})"
    cells = event.get("cells") or []
    shown = ", ".join(f"({x}, {y})" for x, y in cells[:3])
    return shown + ("…" if len(cells) > 3 else "")


def _why(event: Event) -> str:
    """Why a feature scored what it did: tiles and pennants."""
    parts = [t("narrate.tiles", count=event.get("tiles", 0))]
    pennants = event.get("pennants") or 0
    if pennants:
        parts.append(t("narrate.pennants", count=pennants))
    return ", ".join(parts)


def _feature(event: Event, names: Sequence[str], final: bool) -> str:
    scorers = list(event.get("scorers") or [])
    feature = t(f"narrate.feature.{event.get('feature', 'city')}")
    params = {"feature": feature, "where": _where(event), "why": _why(event), "points": event.get("points", 0)}
    if not scorers:
        return t("narrate.final_unclaimed" if final else "narrate.completed_unclaimed", **params)
    return t("narrate.final_scored" if final else "narrate.completed", who=_who(names, scorers), **params)


def _carcassonne(event: Event, names: Sequence[str]) -> str | None:
    kind = event.get("type")
    player = _name(names, event.get("player"))
    simple: dict[str, Callable[[], str]] = {
        "tile_placed": lambda: t(
            "narrate.tile_placed",
            name=player,
            tile=event["tile"],
            x=event["x"],
            y=event["y"],
            rotation=event["rotation"],
        ),
        "follower_placed": lambda: t(
            "narrate.follower_placed",
            name=player,
            role=t(f"narrate.role.{event.get('role', 'follower')}"),
            on=event["on"],
            x=event["x"],
            y=event["y"],
        ),
        "follower_returned": lambda: t(
            "narrate.follower_returned", name=player, on=event["on"], x=event["x"], y=event["y"]
        ),
        "tower_built": lambda: t(
            "narrate.tower_built", name=player, x=event["x"], y=event["y"], height=event.get("height", 0)
        ),
        "captured": lambda: t(
            "narrate.captured",
            name=player,
            owner=_name(names, event.get("owner")),
            on=event["on"],
            x=event["x"],
            y=event["y"],
        ),
        "prisoners_exchanged": lambda: t("narrate.prisoners_exchanged", who=_who(names, event.get("players", []))),
        "tower_closed": lambda: t("narrate.tower_closed", name=player, x=event["x"], y=event["y"]),
        "ransom_paid": lambda: t(
            "narrate.ransom_paid", name=player, to=_name(names, event.get("to")), points=event.get("points", 0)
        ),
        "tile_discarded": lambda: t("narrate.tile_discarded", name=player, tile=event["tile"]),
        "tile_drawn": lambda: t("narrate.tile_drawn", name=player, tile=event["tile"]),
        "feature_completed": lambda: _feature(event, names, final=False),
        "feature_scored": lambda: _feature(event, names, final=True),
        "farm_scored": lambda: t(
            "narrate.farm_scored" if event.get("scorers") else "narrate.farm_unclaimed",
            who=_who(names, event.get("scorers", [])),
            points=event.get("points", 0),
            cities=event.get("cities", 0),
        ),
        "prisoners_returned": lambda: t(
            "narrate.prisoners_returned",
            holder=_name(names, event.get("holder")),
            owner=_name(names, event.get("owner")),
            count=event.get("count", 0),
        ),
        "game_over": lambda: t(
            "narrate.game_over",
            winners=_who(names, event.get("winners", [])),
            scores=", ".join(f"{_name(names, s)} {p}" for s, p in enumerate(event.get("scores", []))),
        ),
        "undone": lambda: t("narrate.undone", name=player),
        "timed_out": lambda: t("narrate.timed_out", name=player),
    }
    tell = simple.get(str(kind))
    return None if tell is None else tell()


def narrate(game: str, events: Sequence[Event], names: Sequence[str]) -> list[str]:
    """One sentence per event worth telling, in order (turn starts are left to the turn line)."""
    if game != "carcassonne":
        return []
    lines = []
    for event in events:
        line = _carcassonne(event, names)
        if line:
            lines.append(line)
    return lines


def fit(lines: Sequence[str], tail: str, limit: int = 2000) -> str:
    """``lines`` then ``tail`` within ``limit`` characters: the tail always stays, late lines give way first."""
    tail = tail[:limit]
    budget = limit - len(tail) - 1
    kept: list[str] = []
    used = 0
    for i, line in enumerate(lines):
        more = t("narrate.more", count=len(lines) - i)
        cost = len(line) + 1
        # keep room for the "and N more" note unless this is the last line
        reserve = 0 if i == len(lines) - 1 else len(more) + 1
        if used + cost + reserve > budget:
            note = t("narrate.more", count=len(lines) - i)
            if used + len(note) + 1 <= budget:
                kept.append(note)
            elif budget > 0 and not kept:
                kept.append(line[: max(budget - 2, 0)] + "…")
            break
        kept.append(line)
        used += cost
    return "\n".join([*kept, tail]) if kept else tail
