"""Building (rules sections 4 and 6): settlements, roads and cities, in the set-up and in a turn, and what a new
piece changes (harbour rates, longest road)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from engine.catan import longest_road as lr
from engine.catan.board import (
    EDGE_BY_NAME,
    EDGE_NAMES,
    EDGE_NODES,
    HARBOR_SPOT_NODES,
    NODE_EDGES,
    NODE_HEXES,
    NODE_NEIGHBORS,
    edge_of,
    node_of,
)
from engine.catan.flow import afford, after_main_action, main_phase, own_turn, pay, start_turn
from engine.catan.state import (
    CITIES,
    CITY_COST,
    ROAD_COST,
    ROADS,
    SETTLEMENT_COST,
    SETTLEMENTS,
    SETUP,
    State,
)
from engine.catan.trading import (
    bundle_json,
    harbor_rates,
)
from engine.errors import RuleError
from engine.game import Action, Event

HARBOR_NODES: Final = frozenset(n for pair in HARBOR_SPOT_NODES for n in pair)

# Beginner set-up (rules section 4): (other settlement, starred settlement, roads) per colour.
BEGINNER_PIECES: Final = {
    "red": (9, 29, ("5-9", "23-29")),
    "blue": (42, 40, ("37-42", "35-40")),
    "white": (26, 18, ("20-26", "13-18")),
    "orange": (15, 41, ("10-15", "36-41")),
}
BEGINNER_COLOURS: Final = {4: ("red", "blue", "white", "orange"), 3: ("blue", "white", "orange")}


def beginner_setup(game: State) -> None:
    for seat, colour in enumerate(BEGINNER_COLOURS[game.n]):
        other, starred, roads = BEGINNER_PIECES[colour]
        for node in (other - 1, starred - 1):
            place_settlement(game, seat, node, [])
        for name in roads:
            place_road(game, seat, EDGE_BY_NAME[name], [])
        give_start_resources(game, seat, starred - 1, [])
    start_turn(game, [])


def settlement_problem(game: State, seat: int, node: int, setup: bool) -> None:
    if game.node_owner[node] != -1:
        raise RuleError("occupied", f"intersection {node + 1} already has a building", at=node + 1)
    if game.crowded[node]:
        raise RuleError(
            "distance_rule",
            f"intersection {node + 1} is next to a building: settlements need a free intersection all round",
            at=node + 1,
        )
    if not setup and not game.has_road_at(seat, node):
        raise RuleError("not_connected", f"a settlement must touch one of your roads; {node + 1} does not", at=node + 1)


def place_settlement(game: State, seat: int, node: int, events: list[Event]) -> None:
    game.node_owner[node] = seat
    game.settlements[seat].append(node)
    for h in NODE_HEXES[node]:
        game.hex_buildings[h].append(node)
    game.crowded[node] += 1
    for m in NODE_NEIGHBORS[node]:
        game.crowded[m] += 1
    game.reach[seat].add(node)
    if node in HARBOR_NODES:
        game.rates[seat] = harbor_rates(game.harbors, game.node_owner, seat)
    # Another player's road through this intersection is broken here.
    broken = {game.edge_owner[e] for e in NODE_EDGES[node]} - {-1, seat}
    for other in broken:
        game.road_length[other] = lr.longest_road(other, game.roads[other], game.node_owner)
    if broken:
        award_longest_road(game, events)


def place_road(game: State, seat: int, edge: int, events: list[Event]) -> None:
    a, b = EDGE_NODES[edge]
    at_a, at_b = game.has_road_at(seat, a), game.has_road_at(seat, b)
    roads = game.roads[seat]
    if at_a and at_b:
        roads.append(edge)
        length = lr.longest_road(seat, roads, game.node_owner)
    elif at_a or at_b:
        # The usual case, a road extended at one end: only trails from the joint can get longer.
        length = lr.extended(seat, roads, game.node_owner, a if at_a else b, game.road_length[seat])
        roads.append(edge)
    else:
        length = max(game.road_length[seat], 1)
        roads.append(edge)
    game.edge_owner[edge] = seat
    game.reach[seat].add(a)
    game.reach[seat].add(b)
    if length != game.road_length[seat]:
        game.road_length[seat] = length
        award_longest_road(game, events)


def award_longest_road(game: State, events: list[Event]) -> None:
    holder = lr.award(game.longest_holder, game.road_length)
    if holder != game.longest_holder:
        events.append(
            {
                "type": "award",
                "card": "longest_road",
                "from": game.longest_holder,
                "to": holder,
                "length": max(game.road_length),
            }
        )
        game.longest_holder = holder


def give_start_resources(game: State, seat: int, node: int, events: list[Event]) -> None:
    gains = [0] * 5
    for h in NODE_HEXES[node]:
        res = game.hex_resource[h]
        if res is not None and game.bank[res] > gains[res]:
            gains[res] += 1
    for r in range(5):
        game.hand[seat][r] += gains[r]
        game.bank[r] -= gains[r]
    events.append({"type": "start_resources", "player": seat, "cards": bundle_json(gains)})


def settlement(game: State, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
    node = node_of(action.get("at"))
    if game.phase == SETUP:
        own_turn(game, seat)
        if game.setup_road:
            raise RuleError(
                "setup_expects_road",
                f"place the road touching your settlement at {game.last_setup_node() + 1} first",
                at=game.last_setup_node() + 1,
            )
        settlement_problem(game, seat, node, True)
        place_settlement(game, seat, node, events)
        events.append({"type": "built", "player": seat, "piece": "settlement", "at": node + 1})
        if game.setup_step >= game.n:
            give_start_resources(game, seat, node, events)
        game.setup_road = True
    else:
        main_phase(game, seat, "building")
        if len(game.settlements[seat]) >= SETTLEMENTS:
            raise RuleError("no_pieces_left", f"seat {seat} has no settlement left in supply", piece="settlement")
        afford(game, seat, SETTLEMENT_COST, "a settlement")
        settlement_problem(game, seat, node, False)
        pay(game, seat, SETTLEMENT_COST)
        game.built = True
        place_settlement(game, seat, node, events)
        events.append({"type": "built", "player": seat, "piece": "settlement", "at": node + 1})
        after_main_action(game, events)
    return {"player": seat, "type": "settlement", "at": node + 1}


def road(game: State, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
    edge = edge_of(action.get("at"))
    if game.phase == SETUP:
        own_turn(game, seat)
        if not game.setup_road:
            raise RuleError("setup_expects_settlement", "place a settlement first, then its road")
        last = game.last_setup_node()
        if last not in EDGE_NODES[edge]:
            raise RuleError(
                "setup_road_must_touch",
                f"the set-up road must touch the settlement just placed at {last + 1}",
                at=EDGE_NAMES[edge],
                settlement=last + 1,
            )
        if game.edge_owner[edge] != -1:
            raise RuleError("occupied", f"path {EDGE_NAMES[edge]} already has a road", at=EDGE_NAMES[edge])
        place_road(game, seat, edge, events)
        events.append({"type": "built", "player": seat, "piece": "road", "at": EDGE_NAMES[edge]})
        game.setup_road = False
        game.setup_step += 1
        if game.setup_step == len(game.setup_order):
            game.current = game.first_player
            start_turn(game, events)
        else:
            game.current = game.setup_order[game.setup_step]
    else:
        main_phase(game, seat, "building")
        if len(game.roads[seat]) >= ROADS:
            raise RuleError("no_pieces_left", f"seat {seat} has no road left in supply", piece="road")
        afford(game, seat, ROAD_COST, "a road")
        problem = game.road_problem(seat, edge)
        if problem is not None:
            raise problem
        pay(game, seat, ROAD_COST)
        game.built = True
        place_road(game, seat, edge, events)
        events.append({"type": "built", "player": seat, "piece": "road", "at": EDGE_NAMES[edge]})
        after_main_action(game, events)
    return {"player": seat, "type": "road", "at": EDGE_NAMES[edge]}


def city(game: State, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
    node = node_of(action.get("at"))
    main_phase(game, seat, "building")
    if len(game.cities[seat]) >= CITIES:
        raise RuleError("no_pieces_left", f"seat {seat} has no city left in supply", piece="city")
    if game.node_owner[node] != seat or game.node_city[node]:
        raise RuleError(
            "not_own_settlement", f"a city replaces one of your settlements; {node + 1} is not one", at=node + 1
        )
    afford(game, seat, CITY_COST, "a city")
    pay(game, seat, CITY_COST)
    game.built = True
    game.settlements[seat].remove(node)
    game.cities[seat].append(node)
    game.node_city[node] = True
    events.append({"type": "built", "player": seat, "piece": "city", "at": node + 1})
    after_main_action(game, events)
    return {"player": seat, "type": "city", "at": node + 1}
