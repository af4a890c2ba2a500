"""Carcassonne events told as short sentences for the turn message. All text comes from the catalogue
(``narrate.*``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.narration import Event, host_event, name_of, who
from bot.text import t
from render.labels import spot_label


def spot_name(on: str) -> str:
    """A Carcassonne follower spot (``city:S``, ``field:Nw``, ``cloister``, ``tower``) in words, in the current
    language: the same texts the spot image shows (``image.spot_*``, ``image.side_*``, ``image.half_*``)."""
    return spot_label(str(on), lambda key, **params: t(f"image.{key}", **params))


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
    params = {"feature": feature, "where": _where(event), "why": _why(event), "count": event.get("points", 0)}
    if not scorers:
        return t("narrate.final_unclaimed" if final else "narrate.completed_unclaimed", **params)
    return t("narrate.final_scored" if final else "narrate.completed", who=who(names, scorers), **params)


def _carcassonne(event: Event, names: Sequence[str]) -> str | None:
    kind = event.get("type")
    player = name_of(names, event.get("player"))
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
            on=spot_name(event["on"]),
            x=event["x"],
            y=event["y"],
        ),
        "follower_returned": lambda: t(
            "narrate.follower_returned", name=player, on=spot_name(event["on"]), x=event["x"], y=event["y"]
        ),
        "tower_built": lambda: t(
            "narrate.tower_built", name=player, x=event["x"], y=event["y"], height=event.get("height", 0)
        ),
        "captured": lambda: t(
            "narrate.captured",
            name=player,
            owner=name_of(names, event.get("owner")),
            on=spot_name(event["on"]),
            x=event["x"],
            y=event["y"],
        ),
        "prisoners_exchanged": lambda: t("narrate.prisoners_exchanged", who=who(names, event.get("players", []))),
        "tower_closed": lambda: t("narrate.tower_closed", name=player, x=event["x"], y=event["y"]),
        "ransom_paid": lambda: t(
            "narrate.ransom_paid", name=player, to=name_of(names, event.get("to")), count=event.get("points", 0)
        ),
        "tile_discarded": lambda: t("narrate.tile_discarded", name=player, tile=event["tile"]),
        "tile_drawn": lambda: t("narrate.tile_drawn", name=player, tile=event["tile"]),
        "feature_completed": lambda: _feature(event, names, final=False),
        "feature_scored": lambda: _feature(event, names, final=True),
        "farm_scored": lambda: t(
            "narrate.farm_scored" if event.get("scorers") else "narrate.farm_unclaimed",
            who=who(names, event.get("scorers", [])),
            count=event.get("points", 0),
            cities=t("narrate.cities", count=event.get("cities", 0)),
        ),
        "prisoners_returned": lambda: t(
            "narrate.prisoners_returned",
            holder=name_of(names, event.get("holder")),
            owner=name_of(names, event.get("owner")),
            count=event.get("count", 0),
        ),
        "game_over": lambda: t(
            "narrate.game_over",
            winners=who(names, event.get("winners", [])),
            scores=", ".join(f"{name_of(names, s)} {p}" for s, p in enumerate(event.get("scores", []))),
        ),
    }
    tell = simple.get(str(kind))
    return host_event(event, names) if tell is None else tell()


def narrate(events: Sequence[Event], names: Sequence[str]) -> list[str]:
    """One sentence per event worth telling, in order (turn starts are left to the turn line)."""
    lines = []
    worthless = 0
    for event in events:
        if _scores_nothing(event):
            worthless += 1  # the end's unclaimed features are counted, not listed one by one
            continue
        line = _carcassonne(event, names)
        if line:
            lines.append(line)
    if worthless:
        lines.append(t("narrate.final_nothing", count=worthless))
    return lines


def _scores_nothing(event: Event) -> bool:
    """A feature or farm scored at the end for no points (nobody had a follower on it)."""
    return event.get("type") in ("feature_scored", "farm_scored") and not (
        event.get("scorers") and event.get("points", 0)
    )
