"""Engine events told as short sentences for the turn message. All text comes from the catalogue (``narrate.*``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bot.text import listing, t
from render.labels import spot_label

if TYPE_CHECKING:
    from bot.catan.names import Case

Event = Mapping[str, Any]


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


def _spot_kind(on: str, kinds: Sequence[str]) -> str:
    kind = str(on).partition(":")[0]
    return kind if kind in kinds else kinds[0]


PLACES = ("city", "road", "cloister", "field")
FEATURES = ("city", "road", "cloister")


def _name(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return "?"


def _who(names: Sequence[str], seats: Sequence[int]) -> str:
    return listing(_name(names, s) for s in seats)


def _where(event: Event) -> str:
    """Where a feature lies: its cloister cell, or the first cells of its tiles."""
    if "x" in event and "y" in event:
        return f"({event['x']}, {event['y']})"
    cells = event.get("cells") or []
    shown = listing((f"({x}, {y})" for x, y in cells[:3]), style="enumeration")
    return shown + ("…" if len(cells) > 3 else "")


def _why(event: Event) -> str:
    """Why a feature scored what it did: tiles and pennants."""
    parts = [t("narrate.tiles", count=event.get("tiles", 0))]
    pennants = event.get("pennants") or 0
    if pennants:
        parts.append(t("narrate.pennants", count=pennants))
    return listing(parts)


def _feature(event: Event, names: Sequence[str], final: bool) -> str:
    scorers = list(event.get("scorers") or [])
    feature = _spot_kind(str(event.get("feature", "city")), FEATURES)
    params = {"where": _where(event), "why": _why(event), "count": event.get("points", 0)}
    if not scorers:
        return t(f"narrate.{'final_unclaimed' if final else 'completed_unclaimed'}.{feature}", **params)
    key = f"narrate.{'final_scored' if final else 'completed'}.{feature}"
    return t(key, who=_who(names, scorers), **params)


def _scores(names: Sequence[str], scores: Sequence[int]) -> str:
    return listing((t("carcassonne.score", name=_name(names, s), points=p) for s, p in enumerate(scores)),
                   style="enumeration")  # fmt: skip


def _game_over(names: Sequence[str], winners: Sequence[int], scores: Sequence[int]) -> str:
    key = "narrate.game_over_tie" if len(winners) > 1 else "narrate.game_over"
    return t(key, winners=_who(names, winners), scores=_scores(names, scores))


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
            f"narrate.follower_placed.{_spot_kind(event['on'], PLACES)}",
            name=player,
            side=spot_side(event["on"]),
            x=event["x"],
            y=event["y"],
        ),
        "follower_returned": lambda: t(
            f"narrate.follower_returned.{_spot_kind(event['on'], (*PLACES, 'tower'))}",
            name=player,
            side=spot_side(event["on"]),
            x=event["x"],
            y=event["y"],
        ),
        "tower_built": lambda: t(
            "narrate.tower_built", name=player, x=event["x"], y=event["y"], height=event.get("height", 0)
        ),
        "captured": lambda: t(
            f"narrate.captured.{_spot_kind(event['on'], (*PLACES, 'tower'))}",
            name=player,
            owner=_name(names, event.get("owner")),
            side=spot_side(event["on"]),
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
        "game_over": lambda: _game_over(names, event.get("winners", []), event.get("scores", [])),
        "undone": lambda: t("narrate.undone", name=player),
        "timed_out": lambda: t("narrate.timed_out", name=player),
        "returned": lambda: t("narrate.returned", name=player),
        "left": lambda: t("narrate.left", name=player),
    }
    tell = simple.get(str(kind))
    return None if tell is None else tell()


def _bundle(value: Any, case: Case = "accusative") -> str:
    """Cards as the object of the sentence (Russian accusative: «сбрасывает 1 глину»), or ``case="nominative"``."""
    from bot.catan.names import bundle_text

    return bundle_text(value or {}, case=case)


def _catan(event: Event, names: Sequence[str]) -> str | None:
    """Catan events as a spectator sees them (``public_events``): secret facts are already gone."""
    from bot.catan.names import card_name, intersection_label, path_label, resource, resource_name
    from bot.text import MESSAGES

    kind = event.get("type")
    player = _name(names, event.get("player"))

    def built() -> str:
        piece = str(event.get("piece"))
        where = path_label(str(event["at"])) if piece == "road" else intersection_label(int(event["at"]))
        key = f"narrate.catan.built_free.{piece}" if event.get("free") else f"narrate.catan.built.{piece}"
        return t(key if key in MESSAGES else f"narrate.catan.built.{piece}", name=player, at=where)

    def produced() -> str:
        lines = [
            t("narrate.catan.gain", name=_name(names, seat), cards=_bundle(bundle))
            for seat, bundle in enumerate(event.get("gains") or [])
            if bundle and any(bundle.values())
        ] or [t("narrate.catan.produced_none")]
        short = event.get("shortage") or []
        if short:
            lines.append(t("narrate.catan.shortage", resources=listing(resource_name(r) for r in short)))
        return "\n".join(lines)  # one sentence per player, each on its line

    def stolen() -> str:
        thief, victim = _name(names, event.get("thief")), _name(names, event.get("victim"))
        if event.get("victim") is None:
            return t("narrate.catan.stole_nobody", name=thief)
        if "resource" not in event:
            return t("narrate.catan.stole_hidden", name=thief, victim=victim)
        if event["resource"] is None:
            return t("narrate.catan.stole_nothing", name=thief, victim=victim)
        return t(
            "narrate.catan.stole", name=thief, victim=victim, resource=resource(event["resource"], 1, "accusative")
        )

    def award() -> str:
        card = "largest_army" if event.get("card") == "largest_army" else "longest_road"
        if event.get("to") is None:
            return t(f"narrate.catan.award_lost.{card}")
        size = event.get("length", event.get("knights", 0))
        return t(f"narrate.catan.award.{card}", name=_name(names, event.get("to")), count=size)

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
        "start_resources": lambda: (
            t("narrate.catan.start_resources", name=player, cards=_bundle(event.get("cards"), "nominative"))
            if any((event.get("cards") or {}).values())
            else t("narrate.catan.start_resources_none", name=player)
        ),
        "rolled": lambda: t(
            "narrate.catan.rolled", name=player, a=event["dice"][0], b=event["dice"][1], total=event["total"]
        ),
        "produced": produced,
        "must_discard": lambda: t(
            "narrate.catan.must_discard",
            who=listing(
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
            f"narrate.catan.monopoly.{event.get('resource')}", name=player, count=sum(event.get("taken") or [])
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
        told = teller(event, names)
        if told:
            lines.extend(told.split("\n"))
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
