"""Legal choices for the bot, complete legal actions, and the random policy of selfplay.

``legal_actions`` lists complete actions. Where the full set is large it lists a representative part, as
documented per kind: bank trades are single lots (``rate`` cards of one resource for 1 other card), domestic
offers are 1-for-1 offers, counters 1-for-1. Discards, year of plenty and road building are listed in full.

``random_action`` (the selfplay policy) is deterministic given its generator:

1. Discards owed: a uniformly random owing seat discards a uniformly random subset of its cards (every set of
   physical cards of the right size equally likely).
2. Set-up: a uniformly random legal settlement spot, then a uniformly random road touching it.
3. Replies owed to an open trade offer: a uniformly random (seat, offer) pair; that seat accepts (if it can pay),
   declines or counters with a random 1-for-1 offer, uniformly.
4. Robber: a uniformly random hex other than the robber's, then a uniformly random victim among the players
   there who hold cards (none if nobody there holds a card).
5. Before the roll: uniformly among ``roll`` and each playable card kind; a card's parameters uniformly.
6. After the roll: if a settlement or city can be built, uniformly among those spots (building is preferred so
   games end). Otherwise uniformly among the kinds available: road, buy, each playable card, bank trade, one
   domestic offer per turn, confirming/accepting a trade, withdrawing an offer, end turn; then the kind's
   parameters uniformly. Every turn ends: bank trades shrink the hand, and domestic offers are capped (one
   offer per turn, only in every fourth turn, so that trading does not dominate selfplay).
"""

from __future__ import annotations

import random
from itertools import combinations_with_replacement
from typing import Any

from engine.catan.board import EDGE_NAMES, EDGE_NODES, HEX_CORNERS, HEX_COUNT, HEX_NAMES, NODE_EDGES, RESOURCES
from engine.catan.state import (
    CARDS,
    CITIES,
    DISCARD,
    KNIGHT,
    MAIN,
    MONOPOLY,
    OVER,
    ROAD_BUILDING,
    ROADS,
    ROBBER,
    ROLL,
    SETTLEMENTS,
    SETUP,
    YEAR_OF_PLENTY,
    Offer,
    State,
)
from engine.catan.trading import bundle_json, holds
from engine.errors import RuleError
from engine.game import Action, not_your_turn

MAX_OFFERS_PER_TURN = 1
OFFER_TURNS = 4  # the active player makes domestic offers in one turn out of OFFER_TURNS


# -- legal choices -------------------------------------------------------------------------------------------


def settlement_spots(game: State, seat: int) -> list[int]:
    """Intersection numbers where ``seat`` may place a settlement now (ignoring cost)."""
    if game.phase == SETUP:
        if seat != game.current or game.setup_road:
            return []
        return [n + 1 for n in game.legal_settlements(seat)]
    if len(game.settlements[seat]) < SETTLEMENTS:
        return [n + 1 for n in game.legal_settlements(seat)]
    return []


def road_spots(game: State, seat: int) -> list[str]:
    """Path names where ``seat`` may build a road now (set-up: touching the settlement just placed)."""
    if game.phase == SETUP:
        if not game.setup_road or seat != game.current:
            return []
        return [EDGE_NAMES[e] for e in NODE_EDGES[game.last_setup_node()] if game.edge_owner[e] == -1]
    if len(game.roads[seat]) >= ROADS:
        return []
    return [EDGE_NAMES[e] for e in game.legal_roads(seat)]


def city_spots(game: State, seat: int) -> list[int]:
    return sorted(n + 1 for n in game.settlements[seat]) if len(game.cities[seat]) < CITIES else []


def robber_choices(game: State, seat: int) -> dict[str, list[int | None]]:
    """Hex letter -> the victims ``seat`` may choose there (None when nobody there holds a card)."""
    out: dict[str, list[int | None]] = {}
    for h in range(HEX_COUNT):
        if h == game.robber:
            continue
        victims = game.robber_victims(seat, h)
        choices: list[int | None] = list(victims)
        if not any(sum(game.hand[v]) for v in victims):
            choices.insert(0, None)
        out[HEX_NAMES[h]] = choices
    return out


def playable_cards(game: State, seat: int) -> list[str]:
    """Development cards ``seat`` may play now."""
    if game.card_played or seat != game.current or game.phase not in (ROLL, MAIN) or not any(game.dev[seat]):
        return []
    out = []
    for card in (KNIGHT, ROAD_BUILDING, YEAR_OF_PLENTY, MONOPOLY):
        if game.dev[seat][card] > game.bought[card]:
            if card == ROAD_BUILDING and (len(game.roads[seat]) >= ROADS or not game.legal_roads(seat)):
                continue
            if card == YEAR_OF_PLENTY and not sum(game.bank):
                continue
            out.append(CARDS[card])
    return out


def bank_trades(game: State, seat: int) -> list[dict[str, Any]]:
    """Single-lot maritime trades ``seat`` can afford now: ``{"give", "get", "rate"}``."""
    if seat != game.current or game.phase != MAIN or (game.options.strict_phases and game.built):
        return []
    hand, rates, bank = game.hand[seat], game.rates[seat], game.bank
    out = []
    for r in range(5):
        if hand[r] >= rates[r]:
            for g in range(5):
                if g != r and bank[g]:
                    out.append({"give": {RESOURCES[r]: rates[r]}, "get": {RESOURCES[g]: 1}, "rate": rates[r]})
    return out


def road_pairs(game: State, seat: int) -> list[list[str]]:
    """Every legal ``roads`` list for a road building card."""
    left = ROADS - len(game.roads[seat])
    out: list[list[str]] = []
    seen: set[frozenset[int]] = set()
    for first in game.legal_roads(seat):
        added = [n for n in EDGE_NODES[first] if n not in game.reach[seat]]
        game.edge_owner[first] = seat
        game.reach[seat].update(added)
        try:
            seconds = game.legal_roads(seat) if left >= 2 else []
        finally:
            game.edge_owner[first] = -1
            game.reach[seat].difference_update(added)
        if not seconds:
            out.append([EDGE_NAMES[first]])
        for second in seconds:
            key = frozenset((first, second))
            if key not in seen:
                seen.add(key)
                out.append([EDGE_NAMES[first], EDGE_NAMES[second]])
    return out


def _bundles(size: int, limit: list[int]) -> list[dict[str, int]]:
    out = []
    for combo in combinations_with_replacement(range(5), size):
        counts = [combo.count(r) for r in range(5)]
        if holds(limit, counts):
            out.append(bundle_json(counts))
    return out


# -- complete legal actions ----------------------------------------------------------------------------------


def legal_actions(game: State, seat: int) -> list[Action]:
    phase = game.phase
    if phase == OVER:
        return []
    if phase == DISCARD:
        owed = game.owed[seat]
        return (
            [{"player": seat, "type": "discard", "cards": b} for b in _bundles(owed, game.hand[seat])] if owed else []
        )
    if phase == SETUP:
        if seat != game.current:
            return []
        if game.setup_road:
            return [{"player": seat, "type": "road", "at": p} for p in road_spots(game, seat)]
        return [{"player": seat, "type": "settlement", "at": n} for n in settlement_spots(game, seat)]
    if seat != game.current:
        return _replies(game, seat) if phase == MAIN else []
    if phase == ROBBER:
        return [
            {"player": seat, "type": "robber", "hex": h, "victim": v}
            for h, victims in robber_choices(game, seat).items()
            for v in victims
        ]
    out: list[Action] = [] if phase == MAIN else [{"player": seat, "type": "roll"}]
    for card in playable_cards(game, seat):
        out += _card_actions(game, seat, card)
    if phase != MAIN:
        return out
    hand = game.hand[seat]
    if holds(hand, (1, 1, 1, 1, 0)):
        out += [{"player": seat, "type": "settlement", "at": n} for n in settlement_spots(game, seat)]
    if holds(hand, (0, 0, 0, 2, 3)):
        out += [{"player": seat, "type": "city", "at": n} for n in city_spots(game, seat)]
    if holds(hand, (1, 1, 0, 0, 0)):
        out += [{"player": seat, "type": "road", "at": p} for p in road_spots(game, seat)]
    if holds(hand, (0, 0, 1, 1, 1)) and game.deck:
        out.append({"player": seat, "type": "buy"})
    out += [{"player": seat, "type": "bank_trade", "give": t["give"], "get": t["get"]} for t in bank_trades(game, seat)]
    if not (game.options.strict_phases and game.built):
        out += _offers(game, seat, None)
        for offer in game.offers:
            if offer["from"] == seat:
                out += [{"player": seat, "type": "confirm", "offer": offer["id"], "with": s} for s in offer["accepted"]]
            elif holds(hand, offer["get"]):
                out.append({"player": seat, "type": "accept", "offer": offer["id"]})
    out += [{"player": seat, "type": "withdraw", "offer": o["id"]} for o in game.offers if o["from"] == seat]
    out.append({"player": seat, "type": "end_turn"})
    return out


def _card_actions(game: State, seat: int, card: str) -> list[Action]:
    if card == "knight":
        return [
            {"player": seat, "type": "knight", "hex": h, "victim": v}
            for h, victims in robber_choices(game, seat).items()
            for v in victims
        ]
    if card == "road_building":
        return [{"player": seat, "type": "road_building", "roads": p} for p in road_pairs(game, seat)]
    if card == "year_of_plenty":
        return [
            {"player": seat, "type": "year_of_plenty", "take": b} for b in _bundles(min(2, sum(game.bank)), game.bank)
        ]
    return [{"player": seat, "type": "monopoly", "resource": r} for r in RESOURCES]


def _offers(game: State, seat: int, to: int | None) -> list[Action]:
    hand = game.hand[seat]
    return [
        {"player": seat, "type": "offer", "to": to, "give": {RESOURCES[r]: 1}, "get": {RESOURCES[g]: 1}}
        for r in range(5)
        if hand[r]
        for g in range(5)
        if g != r
    ]


def _replies(game: State, seat: int) -> list[Action]:
    if game.options.strict_phases and game.built:
        return []
    out: list[Action] = []
    for offer in game.offers:
        if offer["from"] == seat:
            out.append({"player": seat, "type": "withdraw", "offer": offer["id"]})
        elif seat in game.recipients(offer):
            if holds(game.hand[seat], offer["get"]):
                out.append({"player": seat, "type": "accept", "offer": offer["id"]})
            out.append({"player": seat, "type": "decline", "offer": offer["id"]})
            out += [
                {"player": seat, "type": "counter", "offer": offer["id"], "give": o["give"], "get": o["get"]}
                for o in _offers(game, seat, None)
            ]
    out += _offers(game, seat, game.current)
    return out


# -- the host's timeout moves --------------------------------------------------------------------------------


def timeout_action(game: State, seat: int) -> Action:
    """The move the host makes for an idle ``seat``: the smallest one that keeps the game going.

    - set-up: a settlement on the lowest-numbered legal intersection, then the first legal path touching it;
    - before the roll: roll (no card is played);
    - a discard: half the hand, one card at a time from the largest pile left (ties: resource order);
    - the robber: the first hex in letter order, other than the robber's, where ``seat`` has no building (any
      other hex when every one has), and the first legal victim there (none when nobody there holds a card);
    - after the roll: end the turn;
    - a reply owed to a trade offer: decline the first such offer.
    """
    phase = game.phase
    me: Action = {"player": seat}
    if phase == OVER:
        raise RuleError("game_over", "the game is over: no more actions")
    if phase == DISCARD:
        owed = game.owed[seat]
        if not owed:
            raise RuleError("no_discard_owed", f"seat {seat} has no cards to discard now", player=seat)
        left = list(game.hand[seat])
        cards = [0] * 5
        for _ in range(owed):
            r = max(range(5), key=lambda i: (left[i], -i))
            left[r] -= 1
            cards[r] += 1
        return {**me, "type": "discard", "cards": bundle_json(cards)}
    if phase == MAIN and seat != game.current:
        for offer in game.offers:
            if seat in game.awaiting_reply(offer):
                return {**me, "type": "decline", "offer": offer["id"]}
    if seat != game.current:
        raise not_your_turn(seat, game.current)
    if phase == SETUP:
        if game.setup_road:
            return {**me, "type": "road", "at": road_spots(game, seat)[0]}
        return {**me, "type": "settlement", "at": min(settlement_spots(game, seat))}
    if phase == ROLL:
        return {**me, "type": "roll"}
    if phase == ROBBER:
        choices = robber_choices(game, seat)
        letters = sorted(choices)
        free = [h for h in letters if all(game.node_owner[c] != seat for c in HEX_CORNERS[HEX_NAMES.index(h)])]
        hexagon = (free or letters)[0]
        return {**me, "type": "robber", "hex": hexagon, "victim": choices[hexagon][0]}
    return {**me, "type": "end_turn"}


# -- the random policy ---------------------------------------------------------------------------------------


def random_action(game: State, rng: random.Random) -> Action:
    phase = game.phase
    seat = game.current
    if phase == MAIN:
        if game.offers:
            waiting = [(s, o) for o in game.offers for s in game.awaiting_reply(o)]
            if waiting:
                return _random_reply(game, rng, *waiting[int(rng.random() * len(waiting))])
        return _random_main(game, rng, seat)
    if phase == ROLL:
        kinds = playable_cards(game, seat)
        pick = int(rng.random() * (len(kinds) + 1))
        if pick == len(kinds):
            return {"player": seat, "type": "roll"}
        return _random_card(game, rng, seat, kinds[pick])
    if phase == DISCARD:
        owing = [s for s, k in enumerate(game.owed) if k]
        s = owing[int(rng.random() * len(owing))]
        cards = [r for r in range(5) for _ in range(game.hand[s][r])]
        counts = [0] * 5
        for r in rng.sample(cards, game.owed[s]):
            counts[r] += 1
        return {"player": s, "type": "discard", "cards": bundle_json(counts)}
    if phase == ROBBER:
        return {"player": seat, "type": "robber", **_random_robber(game, rng, seat)}
    if phase == SETUP:
        if game.setup_road:
            spots = road_spots(game, seat)
            return {"player": seat, "type": "road", "at": spots[int(rng.random() * len(spots))]}
        nodes = game.legal_settlements(seat)
        return {"player": seat, "type": "settlement", "at": nodes[int(rng.random() * len(nodes))] + 1}
    raise AssertionError("no action in a finished game")


def _random_robber(game: State, rng: random.Random, seat: int) -> dict[str, Any]:
    h = int(rng.random() * (HEX_COUNT - 1))
    if h >= game.robber:
        h += 1
    victims = [v for v in game.robber_victims(seat, h) if sum(game.hand[v])]
    victim = victims[int(rng.random() * len(victims))] if victims else None
    return {"hex": HEX_NAMES[h], "victim": victim}


def _random_card(game: State, rng: random.Random, seat: int, card: str) -> Action:
    if card == "knight":
        return {"player": seat, "type": "knight", **_random_robber(game, rng, seat)}
    if card == "monopoly":
        return {"player": seat, "type": "monopoly", "resource": RESOURCES[int(rng.random() * 5)]}
    if card == "year_of_plenty":
        bank = list(game.bank)
        take = [0] * 5
        for _ in range(min(2, sum(bank))):
            r = rng.choice([i for i in range(5) if bank[i]])
            bank[r] -= 1
            take[r] += 1
        return {"player": seat, "type": "year_of_plenty", "take": bundle_json(take)}
    pairs = road_pairs(game, seat)
    return {"player": seat, "type": "road_building", "roads": pairs[int(rng.random() * len(pairs))]}


def _random_reply(game: State, rng: random.Random, seat: int, offer: Offer) -> Action:
    choices = ["decline", "counter"]
    if holds(game.hand[seat], offer["get"]):
        choices.append("accept")
    hand = game.hand[seat]
    held = [r for r in range(5) if hand[r]]
    if not held:
        choices.remove("counter")
    kind = choices[int(rng.random() * len(choices))]
    if kind != "counter":
        return {"player": seat, "type": kind, "offer": offer["id"]}
    give = held[int(rng.random() * len(held))]
    get = (give + 1 + int(rng.random() * 4)) % 5
    return {
        "player": seat,
        "type": "counter",
        "offer": offer["id"],
        "give": {RESOURCES[give]: 1},
        "get": {RESOURCES[get]: 1},
    }


def _random_main(game: State, rng: random.Random, seat: int) -> Action:
    hand = game.hand[seat]
    brick, lumber, wool, grain, ore = hand
    builds: list[Action] = []
    if brick and lumber and wool and grain and len(game.settlements[seat]) < SETTLEMENTS:
        builds = [{"player": seat, "type": "settlement", "at": n + 1} for n in game.legal_settlements(seat)]
    if grain >= 2 and ore >= 3 and len(game.cities[seat]) < CITIES:
        builds += [{"player": seat, "type": "city", "at": n + 1} for n in game.settlements[seat]]
    if builds:
        return builds[int(rng.random() * len(builds))]
    kinds: list[str] = []
    if brick and lumber and len(game.roads[seat]) < ROADS and game.has_legal_road(seat):
        kinds.append("road")
    if wool and grain and ore and game.deck:
        kinds.append("buy")
    if not game.card_played:
        kinds += playable_cards(game, seat)
    trading = not (game.options.strict_phases and game.built)
    rates = game.rates[seat]
    lots: list[tuple[int, int]] = []
    if trading and (
        brick >= rates[0] or lumber >= rates[1] or wool >= rates[2] or grain >= rates[3] or ore >= rates[4]
    ):
        bank = game.bank
        lots = [(r, g) for r in range(5) if hand[r] >= rates[r] for g in range(5) if g != r and bank[g]]
        if lots:
            kinds.append("bank_trade")
    if trading and game.turn % OFFER_TURNS == 0 and game.offers_made < MAX_OFFERS_PER_TURN and any(hand):
        kinds.append("offer")
    deals: list[Action] = []
    if trading and game.offers:
        for offer in game.offers:
            if offer["from"] == seat:
                deals += [
                    {"player": seat, "type": "confirm", "offer": offer["id"], "with": s} for s in offer["accepted"]
                ]
            elif holds(hand, offer["get"]):
                deals.append({"player": seat, "type": "accept", "offer": offer["id"]})
        if deals:
            kinds.append("deal")
        if any(o["from"] == seat for o in game.offers):
            kinds.append("withdraw")
    kinds.append("end_turn")
    kind = kinds[int(rng.random() * len(kinds))]
    if kind == "end_turn":
        return {"player": seat, "type": "end_turn"}
    if kind == "road":
        roads = game.legal_roads(seat)
        return {"player": seat, "type": "road", "at": EDGE_NAMES[roads[int(rng.random() * len(roads))]]}
    if kind == "buy":
        return {"player": seat, "type": "buy"}
    if kind == "bank_trade":
        r, g = lots[int(rng.random() * len(lots))]
        return {"player": seat, "type": "bank_trade", "give": {RESOURCES[r]: rates[r]}, "get": {RESOURCES[g]: 1}}
    if kind == "offer":
        held = [r for r in range(5) if hand[r]]
        give = held[int(rng.random() * len(held))]
        get = (give + 1 + int(rng.random() * 4)) % 5
        to = int(rng.random() * (game.n + 1))
        target = None if to >= game.n or to == seat else to
        return {
            "player": seat,
            "type": "offer",
            "to": target,
            "give": {RESOURCES[give]: 1},
            "get": {RESOURCES[get]: 1},
        }
    if kind == "deal":
        return deals[int(rng.random() * len(deals))]
    if kind == "withdraw":
        own = [o for o in game.offers if o["from"] == seat]
        return {"player": seat, "type": "withdraw", "offer": own[int(rng.random() * len(own))]["id"]}
    return _random_card(game, rng, seat, kind)
