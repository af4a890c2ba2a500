"""Development cards (rules section 8): buying one, and playing a knight or a progress card."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.catan.board import EDGE_NAMES, EDGE_NODES, HEX_NAMES, edge_of
from engine.catan.building import place_road
from engine.catan.dice import check_robber, move_robber
from engine.catan.flow import afford, after_main_action, bank_holds, main_phase, own_turn, pay
from engine.catan.state import (
    CARD_COST,
    CARD_INDEX,
    CARDS,
    DISCARD,
    KNIGHT,
    LARGEST_ARMY,
    MAIN,
    MONOPOLY,
    RESOURCE_INDEX,
    RESOURCES,
    ROAD_BUILDING,
    ROADS,
    ROBBER,
    ROLL,
    YEAR_OF_PLENTY,
    State,
)
from engine.catan.trading import bundle_json, parse_bundle
from engine.errors import RuleError
from engine.game import Action, Event


def buy(game: State, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
    main_phase(game, seat, "buying a development card")
    afford(game, seat, CARD_COST, "a development card")
    if not game.deck:
        raise RuleError("deck_empty", "the development deck is empty")
    if "card" in action:
        name = action["card"]
        card = CARD_INDEX.get(name) if isinstance(name, str) else None
        if card is None:
            raise RuleError("unknown_card", f"{name!r} is not a development card ({', '.join(CARDS)})")
        if card not in game.deck:
            raise RuleError("card_not_in_deck", f"the deck holds no {name} card any more", card=name)
        # Take the copy nearest the top so an exported game replays with the same deck.
        index = len(game.deck) - 1 - game.deck[::-1].index(card)
        del game.deck[index]
    else:
        card = game.deck.pop()
    pay(game, seat, CARD_COST)
    game.dev[seat][card] += 1
    game.bought[card] += 1
    game.built = True
    events.append({"type": "bought", "player": seat, "card": CARDS[card], "private": [seat], "secret": ["card"]})
    after_main_action(game, events)
    return {"player": seat, "type": "buy", "card": CARDS[card]}


def check_play(game: State, seat: int, card: int) -> None:
    own_turn(game, seat)
    name = CARDS[card]
    if game.phase not in (ROLL, MAIN):
        if game.phase in (DISCARD, ROBBER):
            raise RuleError("resolve_seven_first", "the discards and the robber move come before any card", action=name)
        raise RuleError("wrong_phase", "no development cards during set-up", action=name)
    if game.card_played:
        raise RuleError("one_card_per_turn", "only one knight or progress card may be played per turn", card=name)
    held = game.dev[seat][card]
    if not held:
        raise RuleError("no_such_card", f"seat {seat} holds no {name} card", card=name)
    if held <= game.bought[card]:
        raise RuleError("card_bought_this_turn", f"a {name} card cannot be played in the turn it was bought", card=name)


def use_card(game: State, seat: int, card: int, events: list[Event]) -> None:
    game.dev[seat][card] -= 1
    game.card_played = True
    events.append({"type": "played", "player": seat, "card": CARDS[card]})


def knight(game: State, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
    check_play(game, seat, KNIGHT)
    target, victim, stolen = check_robber(game, seat, action, "knight")
    use_card(game, seat, KNIGHT, events)
    game.knights[seat] += 1
    name = move_robber(game, seat, target, victim, stolen, events)
    holder = game.army_holder
    if (
        game.knights[seat] >= LARGEST_ARMY
        and holder != seat
        and (holder is None or game.knights[seat] > game.knights[holder])
    ):
        events.append(
            {"type": "award", "card": "largest_army", "from": holder, "to": seat, "knights": game.knights[seat]}
        )
        game.army_holder = seat
    after_main_action(game, events)
    return {"player": seat, "type": "knight", "hex": HEX_NAMES[target], "victim": victim, "stolen": name}


def road_building(game: State, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
    check_play(game, seat, ROAD_BUILDING)
    raw = action.get("roads")
    if not isinstance(raw, list) or not 1 <= len(raw) <= 2:
        raise RuleError("malformed_action", "road_building needs 'roads': a list of 1 or 2 paths")
    edges = [edge_of(r) for r in raw]
    left = ROADS - len(game.roads[seat])
    if not left:
        raise RuleError("no_pieces_left", f"seat {seat} has no road left in supply", piece="road")
    if len(edges) > left:
        raise RuleError("no_pieces_left", f"seat {seat} has only {left} road left", piece="road")
    problem = game.road_problem(seat, edges[0])
    if problem is not None:
        raise problem
    # Try the first road, look at the second, and take the first back before raising anything.
    first = edges[0]
    added = [n for n in EDGE_NODES[first] if n not in game.reach[seat]]
    game.edge_owner[first] = seat
    game.reach[seat].update(added)
    try:
        second_problem = game.road_problem(seat, edges[1]) if len(edges) == 2 else None
        more = bool(game.legal_roads(seat)) and left >= 2
    finally:
        game.edge_owner[first] = -1
        game.reach[seat].difference_update(added)
    if second_problem is not None:
        raise second_problem
    if len(edges) == 1 and more:
        raise RuleError("road_building_count", "road building places 2 roads while a second one can legally be placed")
    use_card(game, seat, ROAD_BUILDING, events)
    for e in edges:
        place_road(game, seat, e, events)
        events.append({"type": "built", "player": seat, "piece": "road", "at": EDGE_NAMES[e], "free": True})
    after_main_action(game, events)
    return {"player": seat, "type": "road_building", "roads": [EDGE_NAMES[e] for e in edges]}


def year_of_plenty(game: State, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
    check_play(game, seat, YEAR_OF_PLENTY)
    take = parse_bundle(action.get("take"), "take", "year_of_plenty")
    available = sum(game.bank)
    if not available:
        raise RuleError("bank_empty", "the bank holds no cards to take")
    want = min(2, available)
    if sum(take) != want:
        raise RuleError(
            "year_of_plenty_count", f"year of plenty takes exactly {want} card(s) from the bank", count=want
        )
    bank_holds(game, take)
    use_card(game, seat, YEAR_OF_PLENTY, events)
    for r in range(5):
        game.hand[seat][r] += take[r]
        game.bank[r] -= take[r]
    events.append({"type": "took", "player": seat, "cards": bundle_json(take)})
    after_main_action(game, events)
    return {"player": seat, "type": "year_of_plenty", "take": bundle_json(take)}


def monopoly(game: State, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
    check_play(game, seat, MONOPOLY)
    name = action.get("resource")
    res = RESOURCE_INDEX.get(name) if isinstance(name, str) else None
    if res is None:
        raise RuleError("unknown_resource", f"{name!r} is not a resource ({', '.join(RESOURCES)})", resource=str(name))
    use_card(game, seat, MONOPOLY, events)
    taken = [0] * game.n
    for s in range(game.n):
        if s != seat:
            taken[s] = game.hand[s][res]
            game.hand[s][res] = 0
    game.hand[seat][res] += sum(taken)
    events.append({"type": "monopoly", "player": seat, "resource": RESOURCES[res], "taken": taken})
    after_main_action(game, events)
    return {"player": seat, "type": "monopoly", "resource": RESOURCES[res]}
