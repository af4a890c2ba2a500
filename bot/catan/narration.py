"""Catan events told as short sentences for the turn message and the news lines. All text comes from the catalogue
(``narrate.*``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.catan.names import Case, bundle_text, card_name, intersection_label, path_label, resource, resource_name
from bot.text import MESSAGES, listing, t
from bot.text.story import Event, host_event, name_of


def _bundle(value: Any, case: Case = "accusative") -> str:
    """Cards as the object of the sentence (Russian accusative: «сбрасывает 1 глину»), or ``case="nominative"``."""
    return bundle_text(value or {}, case=case)


def _catan(event: Event, names: Sequence[str]) -> str | None:
    """Catan events as a spectator sees them (``public_events``): secret facts are already gone."""
    kind = event.get("type")
    player = name_of(names, event.get("player"))

    def built() -> str:
        piece = str(event.get("piece"))
        where = path_label(str(event["at"])) if piece == "road" else intersection_label(int(event["at"]))
        key = f"narrate.catan.built_free.{piece}" if event.get("free") else f"narrate.catan.built.{piece}"
        return t(key if key in MESSAGES else f"narrate.catan.built.{piece}", name=player, at=where)

    def produced() -> str:
        lines = [
            t("narrate.catan.gain", name=name_of(names, seat), cards=_bundle(bundle))
            for seat, bundle in enumerate(event.get("gains") or [])
            if bundle and any(bundle.values())
        ] or [t("narrate.catan.produced_none")]
        short = event.get("shortage") or []
        if short:
            lines.append(t("narrate.catan.shortage", resources=listing(resource_name(r) for r in short)))
        return "\n".join(lines)  # one sentence per player, each on its line

    def stolen() -> str:
        thief, victim = name_of(names, event.get("thief")), name_of(names, event.get("victim"))
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
        return t(f"narrate.catan.award.{card}", name=name_of(names, event.get("to")), count=size)

    def bought() -> str:
        if "card" in event:
            return t("narrate.catan.bought_card", name=player, card=card_name(event["card"]))
        return t("narrate.catan.bought", name=player)

    def offer(key: str) -> str:
        to = event.get("to")
        return t(
            key if to is not None else key + "_all",
            name=player,
            to=name_of(names, to),
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
                t("narrate.catan.owes", name=name_of(names, s), count=n)
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
            other=name_of(names, event.get("with")),
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
            name=name_of(names, event.get("winner")),
            points=(event.get("scores") or [0] * (int(event.get("winner") or 0) + 1))[int(event.get("winner") or 0)],
        ),
    }
    tell = tellers.get(str(kind))
    return host_event(event, names) if tell is None else tell()


def narrate(events: Sequence[Event], names: Sequence[str]) -> list[str]:
    """One sentence per event worth telling, in order. Callers pass events already filtered for the reader
    (``engine.catan.public_events``)."""
    return [line for event in events if (told := _catan(event, names)) for line in told.split("\n")]
