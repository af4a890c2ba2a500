"""Trading in a turn (rules section 7): maritime trades with the bank, domestic offers, their replies and the
confirmed trade."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.catan.flow import after_main_action, main_phase, own_turn, trade_phase
from engine.catan.state import (
    MAIN,
    RESOURCES,
    Offer,
    State,
)
from engine.catan.trading import (
    Bundle,
    bundle_json,
    check_domestic,
    check_maritime,
    describe,
    holds,
    offer_event,
    parse_bundle,
    privacy,
)
from engine.errors import RuleError
from engine.game import Action, Event, seat_field


def bank_trade(game: State, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
    main_phase(game, seat, "trading")
    trade_phase(game, seat, "bank_trade")
    give = parse_bundle(action.get("give"), "give", "bank_trade")
    get = parse_bundle(action.get("get"), "get", "bank_trade")
    check_maritime(give, get, game.rates[seat])
    if not holds(game.hand[seat], give):
        raise RuleError("cannot_afford", f"seat {seat} does not hold {describe(give)}", player=seat)
    for r in range(5):
        if get[r] > game.bank[r]:
            raise RuleError(
                "bank_empty",
                f"the bank holds only {game.bank[r]} {RESOURCES[r]}",
                resource=RESOURCES[r],
                count=game.bank[r],
            )
    hand, bank = game.hand[seat], game.bank
    for r in range(5):
        hand[r] += get[r] - give[r]
        bank[r] += give[r] - get[r]
    events.append({"type": "bank_traded", "player": seat, "give": bundle_json(give), "get": bundle_json(get)})
    after_main_action(game, events)
    return {"player": seat, "type": "bank_trade", "give": bundle_json(give), "get": bundle_json(get)}


def exchange(game: State, active: int, other: int, give: Bundle, get: Bundle, events: list[Event]) -> Action:
    """The active player gives ``give`` to ``other`` and receives ``get``; returns the recorded trade."""
    # A completed trade settles every open offer of the same terms between the same two players, so a replay
    # (which records only the trade) leaves the same offers open as the live game did.
    game.offers = [
        offer
        for offer in game.offers
        if not (
            (offer["from"] == active and offer["to"] in (None, other) and offer["give"] == give and offer["get"] == get)
            or (offer["from"] == other and offer["to"] == active and offer["give"] == get and offer["get"] == give)
        )
    ]
    a, o = game.hand[active], game.hand[other]
    for r in range(5):
        a[r] += get[r] - give[r]
        o[r] += give[r] - get[r]
    events.append(
        {"type": "traded", "player": active, "with": other, "give": bundle_json(give), "get": bundle_json(get)}
    )
    after_main_action(game, events)
    return {"player": active, "type": "trade", "with": other, "give": bundle_json(give), "get": bundle_json(get)}


def check_trade_parties(game: State, active: int, other: int, give: Bundle, get: Bundle) -> None:
    check_domestic(give, get)
    if not holds(game.hand[active], give):
        raise RuleError("cannot_afford", f"seat {active} does not hold {describe(give)}", player=active)
    if not holds(game.hand[other], get):
        raise RuleError("cannot_afford", f"seat {other} does not hold {describe(get)}", player=other)


def trade(game: State, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
    if not replay:
        raise RuleError(
            "trade_needs_offer",
            "a domestic trade happens by an offer and its confirmation (offer, accept, confirm)",
        )
    main_phase(game, seat, "trading")
    trade_phase(game, seat, "trade")
    other = seat_field(action, "with", game.n, "trade")
    if other == seat:
        raise RuleError("trade_not_allowed", "a player cannot trade with themselves")
    give = parse_bundle(action.get("give"), "give", "trade")
    get = parse_bundle(action.get("get"), "get", "trade")
    check_trade_parties(game, seat, other, give, get)
    return exchange(game, seat, other, give, get, events)


def find_offer(game: State, action: Mapping[str, Any], what: str) -> Offer:
    ident = _offer_id(action, what)
    for offer in game.offers:
        if offer["id"] == ident:
            return offer
    raise RuleError("unknown_offer", f"there is no open offer number {ident}", offer=ident)


def offer_phase(game: State, seat: int, what: str) -> None:
    if game.phase != MAIN:
        raise RuleError(
            "trade_not_allowed",
            "trade offers are made only in the active player's turn after the roll",
            action=what,
        )
    trade_phase(game, seat, what)


def check_recipient(game: State, seat: int, offer: Offer) -> None:
    if seat not in game.recipients(offer):
        raise RuleError("not_offer_recipient", f"offer {offer['id']} is not made to seat {seat}", offer=offer["id"])


def new_offer(game: State, seat: int, to: int | None, give: Bundle, get: Bundle, events: list[Event]) -> Offer:
    offer: Offer = {
        "id": game.next_offer,
        "from": seat,
        "to": to,
        "give": give,
        "get": get,
        "accepted": [],
        "declined": [],
        "waiting": [],
    }
    offer["waiting"] = [s for s in game.recipients(offer) if s != game.current]
    game.next_offer += 1
    if seat == game.current:
        game.offers_made += 1
    game.offers.append(offer)
    events.append(offer_event("offer_made", offer))
    return offer


def make_offer(game: State, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
    offer_phase(game, seat, "offer")
    to = action.get("to")
    if to is not None:
        to = seat_field(action, "to", game.n, "offer")
        if to == seat:
            raise RuleError("trade_not_allowed", "a player cannot trade with themselves")
    if seat != game.current:
        if to is not None and to != game.current:
            raise RuleError(
                "trade_not_allowed",
                f"trades are only with the active player (seat {game.current}), never between two others",
                current=game.current,
            )
        to = game.current
    give = parse_bundle(action.get("give"), "give", "offer")
    get = parse_bundle(action.get("get"), "get", "offer")
    check_domestic(give, get)
    if not holds(game.hand[seat], give):
        raise RuleError("cannot_afford", f"seat {seat} does not hold {describe(give)}", player=seat)
    new_offer(game, seat, to, give, get, events)
    return {"player": seat, "type": "offer", "to": to, "give": bundle_json(give), "get": bundle_json(get)}


def accept(game: State, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
    offer_phase(game, seat, "accept")
    offer = find_offer(game, action, "accept")
    check_recipient(game, seat, offer)
    if not holds(game.hand[seat], offer["get"]):
        raise RuleError("cannot_afford", f"seat {seat} does not hold {describe(offer['get'])}", player=seat)
    if seat == game.current:
        # The active player accepting a proposal completes the trade at once.
        return exchange(game, seat, offer["from"], offer["get"], offer["give"], events)
    if seat in offer["waiting"]:
        offer["waiting"].remove(seat)
    if seat not in offer["accepted"]:
        offer["accepted"].append(seat)
    if seat in offer["declined"]:
        offer["declined"].remove(seat)
    events.append({"type": "offer_accepted", "player": seat, "offer": offer["id"], **privacy(offer)})
    return {"player": seat, "type": "accept", "offer": offer["id"]}


def decline(game: State, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
    offer_phase(game, seat, "decline")
    offer = find_offer(game, action, "decline")
    check_recipient(game, seat, offer)
    if seat in offer["waiting"]:
        offer["waiting"].remove(seat)
    if seat in offer["accepted"]:
        offer["accepted"].remove(seat)
    if seat not in offer["declined"]:
        offer["declined"].append(seat)
    events.append({"type": "offer_declined", "player": seat, "offer": offer["id"], **privacy(offer)})
    return {"player": seat, "type": "decline", "offer": offer["id"]}


def counter(game: State, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
    offer_phase(game, seat, "counter")
    offer = find_offer(game, action, "counter")
    check_recipient(game, seat, offer)
    give = parse_bundle(action.get("give"), "give", "counter")
    get = parse_bundle(action.get("get"), "get", "counter")
    check_domestic(give, get)
    if not holds(game.hand[seat], give):
        raise RuleError("cannot_afford", f"seat {seat} does not hold {describe(give)}", player=seat)
    if seat in offer["waiting"]:
        offer["waiting"].remove(seat)
    if seat in offer["accepted"]:
        offer["accepted"].remove(seat)
    if seat not in offer["declined"]:
        offer["declined"].append(seat)
    new_offer(game, seat, offer["from"], give, get, events)
    return {
        "player": seat,
        "type": "counter",
        "offer": offer["id"],
        "give": bundle_json(give),
        "get": bundle_json(get),
    }


def confirm(game: State, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
    own_turn(game, seat)
    offer_phase(game, seat, "confirm")
    offer = find_offer(game, action, "confirm")
    other = seat_field(action, "with", game.n, "confirm")
    if offer["from"] == seat:
        if other not in offer["accepted"]:
            raise RuleError(
                "not_accepted", f"seat {other} has not accepted offer {offer['id']}", offer=offer["id"], seat=other
            )
        give, get = offer["give"], offer["get"]
    elif offer["from"] == other and offer["to"] == seat:
        give, get = offer["get"], offer["give"]
    else:
        raise RuleError("not_accepted", f"offer {offer['id']} is not between seat {seat} and seat {other}")
    check_trade_parties(game, seat, other, give, get)
    return exchange(game, seat, other, give, get, events)


def withdraw(game: State, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
    offer = find_offer(game, action, "withdraw")
    if offer["from"] != seat:
        raise RuleError("not_your_offer", f"offer {offer['id']} was made by seat {offer['from']}", offer=offer["id"])
    game.offers.remove(offer)
    events.append({"type": "offer_withdrawn", "player": seat, "offer": offer["id"], **privacy(offer)})
    return {"player": seat, "type": "withdraw", "offer": offer["id"]}


def _offer_id(action: Mapping[str, Any], what: str) -> int:
    value = action.get("offer")
    if not isinstance(value, int) or isinstance(value, bool):
        raise RuleError("malformed_action", f"{what} needs the offer's number in 'offer'", action=what, field="offer")
    return value
