"""Bundles of resource cards and the trading rules of section 7 (maritime rates, domestic trade checks), and the
events and voiding of open offers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.catan.board import HARBOR_SPOT_NODES
from engine.catan.state import RESOURCE_INDEX, RESOURCES, Offer, State
from engine.errors import RuleError
from engine.game import Event

Bundle = list[int]  # counts indexed like RESOURCES


def parse_bundle(value: Any, field: str, action: str) -> Bundle:
    """``{"ore": 2}`` -> ``[0, 0, 0, 0, 2]``; raises RuleError for unknown resources or bad counts."""
    if not isinstance(value, Mapping):
        raise RuleError(
            "malformed_action",
            f'{action} needs {field!r} as an object of resource counts such as {{"ore": 2}}',
            action=action,
            field=field,
        )
    bundle = [0] * 5
    for name, count in value.items():
        index = RESOURCE_INDEX.get(name)
        if index is None:
            raise RuleError(
                "unknown_resource",
                f"{name!r} is not a resource (resources: {', '.join(RESOURCES)})",
                resource=str(name),
            )
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise RuleError(
                "malformed_action",
                f"{action}: the count of {name} in {field!r} must be a whole number of at least 0",
                action=action,
                field=field,
            )
        bundle[index] = count
    return bundle


def bundle_json(bundle: Sequence[int]) -> dict[str, int]:
    out = {}
    for i in range(5):
        if bundle[i]:
            out[RESOURCES[i]] = bundle[i]
    return out


def describe(bundle: Sequence[int]) -> str:
    return ", ".join(f"{n} {RESOURCES[i]}" for i, n in enumerate(bundle) if n)


def holds(hand: Sequence[int], bundle: Sequence[int]) -> bool:
    return (
        hand[0] >= bundle[0]
        and hand[1] >= bundle[1]
        and hand[2] >= bundle[2]
        and hand[3] >= bundle[3]
        and hand[4] >= bundle[4]
    )


def harbor_rates(harbors: Sequence[str], node_owner: Sequence[int], seat: int) -> list[int]:
    """Cards of each resource ``seat`` gives the bank for one card: 4, 3 with a generic harbour, 2 with its own."""
    rates = [4] * 5
    for kind, (a, b) in zip(harbors, HARBOR_SPOT_NODES, strict=True):
        if node_owner[a] == seat or node_owner[b] == seat:
            if kind == "3:1":
                rates = [min(r, 3) for r in rates]
            else:
                rates[RESOURCE_INDEX[kind]] = 2
    return rates


def check_domestic(give: Sequence[int], get: Sequence[int]) -> None:
    """Both sides non-empty and no resource on both sides (no gifts, no like-for-like)."""
    if not any(give) or not any(get):
        raise RuleError(
            "empty_side",
            "a trade needs cards on both sides: giving cards away is not allowed",
        )
    for i in range(5):
        if give[i] and get[i]:
            raise RuleError(
                "like_for_like",
                f"a trade cannot have {RESOURCES[i]} on both sides",
                resource=RESOURCES[i],
            )


def check_maritime(give: Sequence[int], get: Sequence[int], rates: Sequence[int]) -> None:
    """Whole lots, one card from the bank per lot, never the same resource both ways. A lot is 4 identical cards,
    always, or fewer at the player's harbour rate for that resource (3 or 2): a harbour adds a rate, it never
    takes the 4:1 trade away."""
    check_domestic(give, get)
    wanted = sum(get)
    possible = {0}  # the numbers of cards the resources looked at so far can pay for
    for i in range(5):
        count, rate = give[i], rates[i]
        if not count:
            continue
        lots = _lots(count, rate)
        if not lots:
            raise RuleError(
                "trade_rate",
                f"{RESOURCES[i]} goes to the bank in lots of {rate}, not {count}"
                if rate == 4
                else f"{RESOURCES[i]} goes to the bank in lots of {rate} or 4, not {count}",
                resource=RESOURCES[i],
                rate=rate,
                count=count,
            )
        possible = {before + more for before in possible for more in lots}
    if wanted not in possible:
        best = max(possible)
        raise RuleError(
            "trade_rate",
            f"these cards pay for {best} card(s) from the bank, not {wanted}",
            lots=best,
            count=wanted,
        )


def _lots(count: int, rate: int) -> set[int]:
    """The numbers of lots ``count`` identical cards make at ``rate`` and at 4 for one (empty: none fits)."""
    return {fours + (count - 4 * fours) // rate for fours in range(count // 4 + 1) if (count - 4 * fours) % rate == 0}


def privacy(offer: Offer) -> dict[str, Any]:
    """A private offer's events are routed only to its two parties."""
    if offer["to"] is None:
        return {}
    return {"private": sorted({offer["from"], offer["to"]}), "secret": ["*"]}


def offer_event(kind: str, offer: Offer) -> Event:
    return {
        "type": kind,
        "offer": offer["id"],
        "player": offer["from"],
        "to": offer["to"],
        "give": bundle_json(offer["give"]),
        "get": bundle_json(offer["get"]),
        **privacy(offer),
    }


def prune_offers(game: State, events: list[Event]) -> None:
    """Offers whose maker can no longer pay become void; acceptors who can no longer pay drop out."""
    kept = []
    for offer in game.offers:
        if not holds(game.hand[offer["from"]], offer["give"]):
            events.append(offer_event("offer_void", offer))
            continue
        offer["accepted"] = [s for s in offer["accepted"] if holds(game.hand[s], offer["get"])]
        kept.append(offer)
    game.offers = kept
