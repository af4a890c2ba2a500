"""Trading in a turn (rules section 7): maritime trades with the bank, domestic offers, their replies and the
confirmed trade."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.catan.flow import after_main_action, bank_holds, main_phase, own_turn, trade_phase
from engine.catan.state import MAIN, Offer, State
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
    check_holds(game, seat, give)
    bank_holds(game, get)
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
    check_holds(game, active, give)
    check_holds(game, other, get)


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


def answered_offer(game: State, seat: int, action: Mapping[str, Any], what: str) -> Offer:
    """The open offer ``seat`` answers (accept, decline, counter): one made to ``seat``, in the main phase."""
    offer_phase(game, seat, what)
    offer = find_offer(game, action, what)
    if seat not in game.recipients(offer):
        raise RuleError("not_offer_recipient", f"offer {offer['id']} is not made to seat {seat}", offer=offer["id"])
    return offer


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
    give, get = _terms(game, seat, action, "offer")
    new_offer(game, seat, to, give, get, events)
    return {"player": seat, "type": "offer", "to": to, "give": bundle_json(give), "get": bundle_json(get)}


def accept(game: State, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
    offer = answered_offer(game, seat, action, "accept")
    check_holds(game, seat, offer["get"])
    if seat == game.current:
        # The active player accepting a proposal completes the trade at once.
        return exchange(game, seat, offer["from"], offer["get"], offer["give"], events)
    _answer(offer, seat, accepted=True)
    events.append({"type": "offer_accepted", "player": seat, "offer": offer["id"], **privacy(offer)})
    return {"player": seat, "type": "accept", "offer": offer["id"]}


def decline(game: State, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
    offer = answered_offer(game, seat, action, "decline")
    _answer(offer, seat, accepted=False)
    events.append({"type": "offer_declined", "player": seat, "offer": offer["id"], **privacy(offer)})
    return {"player": seat, "type": "decline", "offer": offer["id"]}


def counter(game: State, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
    offer = answered_offer(game, seat, action, "counter")
    give, get = _terms(game, seat, action, "counter")
    _answer(offer, seat, accepted=False)  # a counter-offer declines the offer it answers
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


def check_holds(game: State, seat: int, bundle: Sequence[int]) -> None:
    if not holds(game.hand[seat], bundle):
        raise RuleError("cannot_afford", f"seat {seat} does not hold {describe(bundle)}", player=seat)


def _terms(game: State, seat: int, action: Mapping[str, Any], what: str) -> tuple[Bundle, Bundle]:
    """The ``give`` and ``get`` of an offer ``seat`` makes: a domestic trade whose ``give`` it holds."""
    give = parse_bundle(action.get("give"), "give", what)
    get = parse_bundle(action.get("get"), "get", what)
    check_domestic(give, get)
    check_holds(game, seat, give)
    return give, get


def _answer(offer: Offer, seat: int, *, accepted: bool) -> None:
    """Record ``seat``'s answer to ``offer``: no longer waiting, on the accepted or the declined list only."""
    if seat in offer["waiting"]:
        offer["waiting"].remove(seat)
    now, before = (offer["accepted"], offer["declined"]) if accepted else (offer["declined"], offer["accepted"])
    if seat in before:
        before.remove(seat)
    if seat not in now:
        now.append(seat)


def _offer_id(action: Mapping[str, Any], what: str) -> int:
    value = action.get("offer")
    if not isinstance(value, int) or isinstance(value, bool):
        raise RuleError("malformed_action", f"{what} needs the offer's number in 'offer'", action=what, field="offer")
    return value
