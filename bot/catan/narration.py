"""Catan events told as short sentences for the turn message and the news lines. All text comes from the catalogue
(``narrate.*``); places are named in their running-text forms (``bot.catan.names``: ``intersection 40 (M-SE)``,
``hex R (fields 6)``), never as menu labels."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from bot.catan.names import (
    Case,
    bundle_text,
    card_name,
    hex_inline,
    intersection_inline,
    path_inline,
    resource,
    resource_word,
)
from bot.text import MESSAGES, listing, t
from bot.text.story import Event, host_event, name_of
from engine.catan import HexView, stored_hexes


def _bundle(value: Any, case: Case = "accusative") -> str:
    """Cards as the object of the sentence (Russian accusative: «сбрасывает 1 глину»), or ``case="nominative"``."""
    return bundle_text(value or {}, case=case)


def _catan(event: Event, names: Sequence[str], hexes: Sequence[HexView]) -> str | None:
    """Catan events as a spectator sees them (``public_events``): secret facts are already gone."""
    kind = event.get("type")
    player = name_of(names, event.get("player"))

    def built() -> str:
        piece = str(event.get("piece"))
        where = path_inline(str(event["at"])) if piece == "road" else intersection_inline(int(event["at"]))
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
            words = listing(resource_word(r, "accusative") for r in short)  # lower case, inside the sentence
            lines.append(t("narrate.catan.shortage", resources=words))
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

    def monopoly() -> str:
        taken = sum(event.get("taken") or [])
        key = "monopoly" if taken else "monopoly_none"  # "claimed every ore: 0 cards" is no sentence
        return t(f"narrate.catan.{key}.{event.get('resource')}", name=player, count=taken)

    def game_over() -> str:
        winner = int(event.get("winner") or 0)
        points = (event.get("scores") or [0] * (winner + 1))[winner]
        return t("narrate.catan.game_over", name=name_of(names, event.get("winner")), count=points)

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
        "robber_moved": lambda: t(
            "narrate.catan.robber_moved", name=player, hex=hex_inline(str(event.get("hex")), hexes)
        ),
        "stolen": stolen,
        "bought": bought,
        "played": lambda: t("narrate.catan.played", name=player, card=card_name(str(event.get("card")))),
        "monopoly": monopoly,
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
        "game_over": game_over,
    }
    tell = tellers.get(str(kind))
    return host_event(event, names) if tell is None else tell()


def narrate(events: Sequence[Event], names: Sequence[str], hexes: Iterable[HexView] = ()) -> list[str]:
    """One sentence per event worth telling, in order. Callers pass events already filtered for the reader
    (``engine.catan.public_events``) and the board's hexes (a view's, or ``stored_hexes``), which name the hex the
    robber moves to by its terrain and number."""
    board = list(hexes)
    return [line for event in events if (told := _catan(event, names, board)) for line in told.split("\n")]


def narrate_stored(events: Sequence[Event], names: Sequence[str], state: Mapping[str, Any] | None = None) -> list[str]:
    """``narrate`` for a game known by its stored state (``GameRow.state``): its board names the robber's hexes."""
    return narrate(events, names, stored_hexes(state) if state else ())
