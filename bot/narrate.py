"""Engine events told as short sentences for the turn message. All text comes from the catalogue (``narrate.*``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.text import t
from render.labels import spot_label

Event = Mapping[str, Any]


def spot_name(on: str) -> str:
    """A Carcassonne follower spot (``city:S``, ``field:Nw``, ``cloister``, ``tower``) in words, in the current
    language: the same texts the spot image shows (``image.spot_*``, ``image.side_*``, ``image.half_*``)."""
    return spot_label(str(on), lambda key, **params: t(f"image.{key}", **params))


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
    params = {"feature": feature, "where": _where(event), "why": _why(event), "count": event.get("points", 0)}
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
            owner=_name(names, event.get("owner")),
            on=spot_name(event["on"]),
            x=event["x"],
            y=event["y"],
        ),
        "prisoners_exchanged": lambda: t("narrate.prisoners_exchanged", who=_who(names, event.get("players", []))),
        "tower_closed": lambda: t("narrate.tower_closed", name=player, x=event["x"], y=event["y"]),
        "ransom_paid": lambda: t(
            "narrate.ransom_paid", name=player, to=_name(names, event.get("to")), count=event.get("points", 0)
        ),
        "tile_discarded": lambda: t("narrate.tile_discarded", name=player, tile=event["tile"]),
        "tile_drawn": lambda: t("narrate.tile_drawn", name=player, tile=event["tile"]),
        "feature_completed": lambda: _feature(event, names, final=False),
        "feature_scored": lambda: _feature(event, names, final=True),
        "farm_scored": lambda: t(
            "narrate.farm_scored" if event.get("scorers") else "narrate.farm_unclaimed",
            who=_who(names, event.get("scorers", [])),
            count=event.get("points", 0),
            cities=t("narrate.cities", count=event.get("cities", 0)),
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
        "returned": lambda: t("narrate.returned", name=player),
        "left": lambda: t("narrate.left", name=player),
    }
    tell = simple.get(str(kind))
    return None if tell is None else tell()


def _bundle(value: Any) -> str:
    from bot.catan.names import bundle_text

    return bundle_text(value or {})


def _catan(event: Event, names: Sequence[str]) -> str | None:
    """Catan events as a spectator sees them (``public_events``): secret facts are already gone."""
    from bot.catan.names import card_name, intersection_label, path_label, resource, resource_name

    kind = event.get("type")
    player = _name(names, event.get("player"))

    def built() -> str:
        piece = str(event.get("piece"))
        where = path_label(str(event["at"])) if piece == "road" else intersection_label(int(event["at"]))
        return t("narrate.catan.built_free" if event.get("free") else "narrate.catan.built",
                 name=player, piece=t(f"catan.piece.{piece}"), at=where)  # fmt: skip

    def produced() -> str:
        gains = [
            t("narrate.catan.gain", name=_name(names, seat), cards=_bundle(bundle))
            for seat, bundle in enumerate(event.get("gains") or [])
            if bundle and any(bundle.values())
        ]
        line = t("narrate.catan.produced", gains="; ".join(gains)) if gains else t("narrate.catan.produced_none")
        short = event.get("shortage") or []
        if short:
            line += " " + t("narrate.catan.shortage", resources=", ".join(resource_name(r) for r in short))
        return line

    def stolen() -> str:
        thief, victim = _name(names, event.get("thief")), _name(names, event.get("victim"))
        if event.get("victim") is None:
            return t("narrate.catan.stole_nobody", name=thief)
        if "resource" not in event:
            return t("narrate.catan.stole_hidden", name=thief, victim=victim)
        if event["resource"] is None:
            return t("narrate.catan.stole_nothing", name=thief, victim=victim)
        return t("narrate.catan.stole", name=thief, victim=victim, resource=resource(event["resource"], 1))

    def award() -> str:
        card = t(f"catan.award.{event.get('card')}")
        if event.get("to") is None:
            return t("narrate.catan.award_lost", card=card)
        size = event.get("length", event.get("knights", 0))
        return t("narrate.catan.award", name=_name(names, event.get("to")), card=card, size=size)

    def bought() -> str:
        if "card" in event:
            return t("narrate.catan.bought_card", name=player, card=card_name(event["card"]))
        return t("narrate.catan.bought", name=player)

    def offer(key: str) -> str:
        to = event.get("to")
        return t(
            key if to is not None else key + "_all",
            name=player,
            to=_name(names, to),
            give=_bundle(event.get("give")),
            get=_bundle(event.get("get")),
            offer=event.get("offer"),
        )

    tellers: dict[str, Callable[[], str]] = {
        "built": built,
        "start_resources": lambda: t("narrate.catan.start_resources", name=player, cards=_bundle(event.get("cards"))),
        "rolled": lambda: t(
            "narrate.catan.rolled", name=player, a=event["dice"][0], b=event["dice"][1], total=event["total"]
        ),
        "produced": produced,
        "must_discard": lambda: t(
            "narrate.catan.must_discard",
            who=", ".join(
                t("narrate.catan.owes", name=_name(names, s), count=n)
                for s, n in enumerate(event.get("counts") or [])
                if n
            ),
        ),
        "discarded": lambda: t("narrate.catan.discarded", name=player, cards=_bundle(event.get("cards"))),
        "robber_moved": lambda: t("narrate.catan.robber_moved", name=player, hex=event.get("hex")),
        "stolen": stolen,
        "bought": bought,
        "played": lambda: t("narrate.catan.played", name=player, card=card_name(str(event.get("card")))),
        "monopoly": lambda: t(
            "narrate.catan.monopoly",
            name=player,
            resource=resource_name(str(event.get("resource"))),
            count=sum(event.get("taken") or []),
        ),
        "took": lambda: t("narrate.catan.took", name=player, cards=_bundle(event.get("cards"))),
        "bank_traded": lambda: t(
            "narrate.catan.bank_traded", name=player, give=_bundle(event.get("give")), get=_bundle(event.get("get"))
        ),
        "traded": lambda: t(
            "narrate.catan.traded",
            name=player,
            other=_name(names, event.get("with")),
            give=_bundle(event.get("give")),
            get=_bundle(event.get("get")),
        ),
        "offer_made": lambda: offer("narrate.catan.offer_made"),
        "offer_void": lambda: t("narrate.catan.offer_void", name=player, offer=event.get("offer")),
        "offer_accepted": lambda: t("narrate.catan.offer_accepted", name=player, offer=event.get("offer")),
        "offer_declined": lambda: t("narrate.catan.offer_declined", name=player, offer=event.get("offer")),
        "offer_withdrawn": lambda: t("narrate.catan.offer_withdrawn", name=player, offer=event.get("offer")),
        "award": award,
        "game_over": lambda: t(
            "narrate.catan.game_over",
            name=_name(names, event.get("winner")),
            points=(event.get("scores") or [0] * (int(event.get("winner") or 0) + 1))[int(event.get("winner") or 0)],
        ),
        "undone": lambda: t("narrate.undone", name=player),
        "timed_out": lambda: t("narrate.timed_out", name=player),
        "returned": lambda: t("narrate.returned", name=player),
        "left": lambda: t("narrate.left", name=player),
    }
    tell = tellers.get(str(kind))
    return None if tell is None else tell()


def narrate(game: str, events: Sequence[Event], names: Sequence[str]) -> list[str]:
    """One sentence per event worth telling, in order (turn starts are left to the turn line).

    Catan callers pass events already filtered for the reader (``engine.catan.public_events``).
    """
    teller = _carcassonne if game == "carcassonne" else _catan
    lines = []
    worthless = 0
    for event in events:
        if game == "carcassonne" and _scores_nothing(event):
            worthless += 1  # the end's unclaimed features are counted, not listed one by one
            continue
        line = teller(event, names)
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
