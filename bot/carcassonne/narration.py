"""Carcassonne events told as short sentences for the turn message. All text comes from the catalogue
(``narrate.*``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.carcassonne.cells import cell_text, cells_text
from bot.text import listing, t
from bot.text.story import Event, host_event, name_of, who
from render.labels import spot_label


def spot_name(on: str) -> str:
    """A Carcassonne follower spot (``city:S``, ``field:Nw``, ``cloister``, ``tower``) in words, in the current
    language: the same texts the spot image shows (``image.spot_*``, ``image.side_*``, ``image.half_*``)."""
    return spot_label(str(on), lambda key, **params: t(f"image.{key}", **params))


def spot_side(on: str) -> str:
    """The side of a tile a follower spot lies on, in words (``city:S`` -> "south", ``field:Nw`` -> "north, west
    half", ``field:inner`` -> "middle"); empty for a cloister or a tower."""
    kind, _, where = str(on).partition(":")
    if not where:
        return ""
    if kind == "field" and where == "inner":
        return t("narrate.side_middle")
    return t(f"image.half_{where}" if kind == "field" else f"image.side_{where}")


def spot_kind(on: str, kinds: Sequence[str]) -> str:
    kind = str(on).partition(":")[0]
    return kind if kind in kinds else kinds[0]


PLACES = ("city", "road", "cloister", "field")  # one sentence per feature: Russian needs each noun's own case
FEATURES = ("city", "road", "cloister")


def _where(event: Event) -> str:
    """Where a feature lies, as the image labels it: its cloister's cell, or the columns and rows of its tiles."""
    if "x" in event and "y" in event:
        return cell_text(event["x"], event["y"])
    return cells_text(event.get("cells") or [])


def _cell(event: Event) -> str:
    return cell_text(event["x"], event["y"])


def _why(event: Event) -> str:
    """Why a feature scored what it did: tiles and pennants."""
    parts = [t("narrate.tiles", count=event.get("tiles", 0))]
    pennants = event.get("pennants") or 0
    if pennants:
        parts.append(t("narrate.pennants", count=pennants))
    return listing(parts)


def _feature(event: Event, names: Sequence[str], final: bool) -> str:
    scorers = list(event.get("scorers") or [])
    feature = spot_kind(str(event.get("feature", "city")), FEATURES)
    params = {"where": _where(event), "why": _why(event), "count": event.get("points", 0)}
    if not scorers:
        return t(f"narrate.{'final_unclaimed' if final else 'completed_unclaimed'}.{feature}", **params)
    tie = "_tie" if len(scorers) > 1 else ""  # "Аня и Борис получают по 4 очка": a tie has its own sentence
    key = f"narrate.{'final_scored' if final else 'completed'}{tie}.{feature}"
    return t(key, who=who(names, scorers), **params)


def scores_text(names: Sequence[str], scores: Sequence[int]) -> str:
    """Every player's score as one enumeration: "alice 3, bob 7", 「alice 3 分、bob 7 分」."""
    told = (t("carcassonne.score", name=name_of(names, s), points=p) for s, p in enumerate(scores))
    return listing(told, style="enumeration")


def _game_over(names: Sequence[str], winners: Sequence[int], scores: Sequence[int]) -> str:
    key = "narrate.game_over_tie" if len(winners) > 1 else "narrate.game_over"
    return t(key, winners=who(names, winners), scores=scores_text(names, scores))


def _carcassonne(event: Event, names: Sequence[str]) -> str | None:
    kind = event.get("type")
    player = name_of(names, event.get("player"))
    simple: dict[str, Callable[[], str]] = {
        "tile_placed": lambda: t("narrate.tile_placed", name=player, cell=_cell(event), rotation=event["rotation"]),
        "follower_placed": lambda: t(
            f"narrate.follower_placed.{spot_kind(event['on'], PLACES)}",
            name=player,
            side=spot_side(event["on"]),
            cell=_cell(event),
        ),
        "follower_returned": lambda: t(
            f"narrate.follower_returned.{spot_kind(event['on'], (*PLACES, 'tower'))}",
            name=player,
            side=spot_side(event["on"]),
            cell=_cell(event),
        ),
        "tower_built": lambda: t("narrate.tower_built", name=player, cell=_cell(event), height=event.get("height", 0)),
        "captured": lambda: t(
            # a tower can take its builder's own follower back: "Alice captured Alice's farmer" is not a sentence
            f"narrate.{'captured_own' if event.get('owner') == event.get('player') else 'captured'}"
            f".{spot_kind(event['on'], (*PLACES, 'tower'))}",
            name=player,
            owner=name_of(names, event.get("owner")),
            side=spot_side(event["on"]),
            cell=_cell(event),
        ),
        "prisoners_exchanged": lambda: t("narrate.prisoners_exchanged", who=who(names, event.get("players", []))),
        "tower_closed": lambda: t("narrate.tower_closed", name=player, cell=_cell(event)),
        "ransom_paid": lambda: t(
            "narrate.ransom_paid", name=player, to=name_of(names, event.get("to")), count=event.get("points", 0)
        ),
        # a tile's id (R3, T11) means nothing to players: the image shows the drawn tile itself
        "tile_discarded": lambda: t("narrate.tile_discarded", name=player),
        "tile_drawn": lambda: t("narrate.tile_drawn", name=player),
        "feature_completed": lambda: _feature(event, names, final=False),
        "feature_scored": lambda: _feature(event, names, final=True),
        "farm_scored": lambda: t(
            ("narrate.farm_scored_tie" if len(event["scorers"]) > 1 else "narrate.farm_scored")
            if event.get("scorers")
            else "narrate.farm_unclaimed",
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
        "game_over": lambda: _game_over(names, event.get("winners", []), event.get("scores", [])),
    }
    tell = simple.get(str(kind))
    return host_event(event, names) if tell is None else tell()


def narrate(events: Sequence[Event], names: Sequence[str], state: Mapping[str, Any] | None = None) -> list[str]:
    """One sentence per event worth telling, in order (turn starts are left to the turn line). Carcassonne's
    sentences need nothing of the stored ``state``: its events name their cells."""
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
