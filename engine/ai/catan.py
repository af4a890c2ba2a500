"""Catan computer players. Each reads only the seat's view (``Catan.view(seat)``) and its legal actions.

``standard`` plays like a careful beginner: it places its first settlements on high, varied production, then
picks a goal each turn (city, settlement, the road to a new spot, or a development card), spends only the cards
the goal does not need, trades with the bank or the table toward the goal, puts the robber on the leader's best
hex, and keeps what the goal needs when it must discard.

``random`` is the uniform player made well-defined for Catan: uniform over the *kinds* of legal action, then
uniform within the kind (see ``RandomCatanPolicy``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from engine.ai.base import Situation
from engine.catan.board import (
    EDGE_BY_NAME,
    EDGE_NODES,
    HARBOR_SPOT_NODES,
    HEX_CORNERS,
    HEX_NAMES,
    NODE_COUNT,
    NODE_EDGES,
    NODE_HEXES,
    NODE_NEIGHBORS,
    RESOURCE_INDEX,
    RESOURCES,
    TERRAIN_RESOURCE,
)
from engine.catan.longest_road import MIN_LENGTH, longest_road
from engine.catan.state import CARD_COST, CITY_COST, LARGEST_ARMY, MAIN, ROAD_COST, ROBBER, ROLL, SETTLEMENT_COST, SETUP
from engine.game import Action

# Chance of each total on two dice, in 36ths ("pips").
PIPS: Final = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}
# Early in the game brick and lumber build the network; ore and grain make cities later.
RESOURCE_WEIGHT: Final = (1.0, 1.0, 0.85, 1.0, 1.05)
MAX_OFFERS: Final = 2  # domestic offers per turn, so trading never keeps a turn going


def pips(number: int | None) -> int:
    return PIPS.get(number or 0, 0)


def bundle(cards: Mapping[str, int]) -> list[int]:
    out = [0] * 5
    for name, count in cards.items():
        out[RESOURCE_INDEX[name]] = count
    return out


def as_json(cards: Sequence[int]) -> dict[str, int]:
    return {RESOURCES[r]: cards[r] for r in range(5) if cards[r]}


def missing(hand: Sequence[int], cost: Sequence[int]) -> list[int]:
    return [max(0, cost[r] - hand[r]) for r in range(5)]


# -- the table as one seat sees it -------------------------------------------------------------------------------


@dataclass
class Table:
    """Everything the policy derives from one seat's view: board, buildings, own hand, public counts."""

    seat: int
    view: Mapping[str, Any]
    hex_res: list[int | None]
    hex_pips: list[int]
    robber: int
    owner: list[int]  # intersection -> seat with a building there, or -1
    city: list[bool]
    edge_owner: list[int]
    harbor: dict[int, str]  # intersection -> harbour type
    hand: list[int]
    rates: list[int]
    dev: dict[str, int]
    bought: dict[str, int]
    points: list[int]
    cards: list[int]
    knights: list[int]
    me: Mapping[str, Any]
    to_win: int
    _production: list[float] | None = field(default=None, repr=False)

    @property
    def n(self) -> int:
        return len(self.points)

    def crowded(self, node: int) -> bool:
        """The distance rule forbids a settlement here."""
        return self.owner[node] != -1 or any(self.owner[m] != -1 for m in NODE_NEIGHBORS[node])

    def node_pips(self, node: int) -> list[float]:
        """What a settlement here yields per resource, in pips (the robber's hex yields nothing)."""
        out = [0.0] * 5
        for h in NODE_HEXES[node]:
            res = self.hex_res[h]
            if res is not None and h != self.robber:
                out[res] += self.hex_pips[h]
        return out

    def production(self) -> list[float]:
        """Own yield per resource in pips (cities count twice)."""
        if self._production is None:
            out = [0.0] * 5
            for node in range(NODE_COUNT):
                if self.owner[node] == self.seat:
                    gain = self.node_pips(node)
                    for r in range(5):
                        out[r] += gain[r] * (2 if self.city[node] else 1)
            self._production = out
        return self._production

    def reach(self) -> set[int]:
        """Intersections touched by own roads or buildings."""
        out = {n for n in range(NODE_COUNT) if self.owner[n] == self.seat}
        for e, o in enumerate(self.edge_owner):
            if o == self.seat:
                out.update(EDGE_NODES[e])
        return out

    def open_roads(self) -> list[int]:
        """Free paths a road may be built on (not through another player's building)."""
        out: set[int] = set()
        for node in self.reach():
            if self.owner[node] in (-1, self.seat):
                out.update(e for e in NODE_EDGES[node] if self.edge_owner[e] == -1)
        return sorted(out)

    def spots(self) -> list[int]:
        """Intersections where a settlement may be built now (touching an own road, distance rule kept)."""
        on_road = {n for e, o in enumerate(self.edge_owner) if o == self.seat for n in EDGE_NODES[e]}
        return sorted(n for n in on_road if not self.crowded(n))

    def leader(self) -> int:
        """The opponent furthest ahead in public points (more cards breaks ties: they are closer to building)."""
        others = [s for s in range(self.n) if s != self.seat]
        return max(others, key=lambda s: (self.points[s], self.cards[s], -s))

    def near_win(self, seat: int) -> bool:
        return self.points[seat] >= self.to_win - 2


def read(view: Mapping[str, Any], seat: int) -> Table:
    board = view["board"]
    owner = [-1] * NODE_COUNT
    city = [False] * NODE_COUNT
    for piece in board["settlements"]:
        owner[piece["at"] - 1] = piece["player"]
    for piece in board["cities"]:
        owner[piece["at"] - 1] = piece["player"]
        city[piece["at"] - 1] = True
    edge_owner = [-1] * len(EDGE_NODES)
    for road in board["roads"]:
        edge_owner[EDGE_BY_NAME[road["at"]]] = road["player"]
    harbor: dict[int, str] = {}
    for (a, b), kind in zip(HARBOR_SPOT_NODES, board["harbors"].values(), strict=True):
        harbor[a] = harbor[b] = kind
    players = view["players"]
    me = players[seat]
    return Table(
        seat=seat,
        view=view,
        hex_res=[TERRAIN_RESOURCE[h["terrain"]] for h in board["hexes"]],
        hex_pips=[pips(h["number"]) for h in board["hexes"]],
        robber=HEX_NAMES.index(board["robber"]),
        owner=owner,
        city=city,
        edge_owner=edge_owner,
        harbor=harbor,
        hand=[me["hand"][r] for r in RESOURCES],
        rates=[me["trade_rates"][r] for r in RESOURCES],
        dev=dict(me["development"]),
        bought=dict(me["bought_this_turn"]),
        points=[p["points"] for p in players],
        cards=[p["cards"] for p in players],
        knights=[p["knights"] for p in players],
        me=me,
        to_win=view["options"]["points_to_win"],
    )


# -- judging places --------------------------------------------------------------------------------------------


def spot_value(t: Table, node: int, produced: Sequence[float]) -> float:
    """A settlement spot: its pips, more for resources not yet produced, plus a useful harbour."""
    gain = t.node_pips(node)
    value = 0.0
    for r in range(5):
        if gain[r]:
            # A resource already produced is worth less; a new one opens new builds.
            fresh = 1.0 if produced[r] < 1 else 0.75 if produced[r] < 6 else 0.55
            value += gain[r] * RESOURCE_WEIGHT[r] * fresh
    value += 0.8 * sum(1 for g in gain if g)  # diversity
    kind = t.harbor.get(node)
    if kind == "3:1":
        value += 1.0
    elif kind is not None:
        r = RESOURCE_INDEX[kind]
        value += 0.4 * (gain[r] + produced[r])
    return value


def road_value(t: Table, edge: int, produced: Sequence[float], spots: set[int]) -> float:
    """How much a road on ``edge`` brings a new settlement spot nearer (best spot within two more paths)."""
    best = 0.0
    reach = t.reach()
    for end in EDGE_NODES[edge]:
        if end in reach or (t.owner[end] not in (-1, t.seat)):
            continue
        if not t.crowded(end) and end not in spots:
            best = max(best, spot_value(t, end, produced))
        for e in NODE_EDGES[end]:
            if e == edge or t.edge_owner[e] != -1:
                continue
            for far in EDGE_NODES[e]:
                if far != end and not t.crowded(far) and far not in reach:
                    best = max(best, 0.7 * spot_value(t, far, produced))
    return best


def best_road(t: Table, edges: Sequence[int]) -> tuple[int | None, float]:
    produced = t.production()
    spots = set(t.spots())
    scored = [(road_value(t, e, produced, spots), -e) for e in edges]
    if not scored:
        return None, 0.0
    value, neg = max(scored)
    return -neg, value


def hex_harm(t: Table, h: int, victim_weight: Sequence[float]) -> float:
    """What the robber on ``h`` costs the others (weighted toward the leader); own buildings there count against."""
    if t.hex_res[h] is None:
        return 0.0
    harm = 0.0
    for node in HEX_CORNERS[h]:
        o = t.owner[node]
        if o == -1:
            continue
        size = 2 if t.city[node] else 1
        harm += size * t.hex_pips[h] * (victim_weight[o] if o != t.seat else -3.0)
    return harm


def victim_weights(t: Table) -> list[float]:
    top = max(t.points[s] for s in range(t.n) if s != t.seat)
    return [1.0 + (1.5 if t.points[s] == top else 0.0) + 0.15 * t.points[s] for s in range(t.n)]


# -- goals -------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Goal:
    kind: str  # "city", "settlement", "road" (toward a settlement spot), "buy"
    cost: tuple[int, ...]


# Points a goal brings (a road counts toward the settlement it leads to; a card is worth about half a point).
GOAL_VALUE: Final = {"city": 2.3, "settlement": 2.2, "road": 1.3, "buy": 0.6}
PRICE_WEIGHT: Final = 0.25  # how much the whole price counts besides the wait for missing cards


def goals(t: Table) -> list[Goal]:
    """What this seat could work toward, best first (pieces, spots and the deck permitting).

    Each goal is judged by its value over the turns it costs: the wait for the missing cards, plus a share of
    the whole price (cards spent here are not spent on something else)."""
    me = t.me
    produced = t.production()
    total = sum(produced)
    # Turns one card of each resource takes: 36/pips rolls, or trading what is produced at the bank's rate.
    wait = [36 / max(produced[r], total / t.rates[r], 1.0) for r in range(5)]

    def turns(cost: Sequence[int]) -> float:
        need = missing(t.hand, cost)
        spare = [max(0, t.hand[r] - cost[r]) for r in range(5)]
        lots = sum(spare[r] // t.rates[r] for r in range(5))
        # Spare cards pay the bank for the hardest missing cards at once.
        waits = sorted((wait[r] for r in range(5) for _ in range(need[r])), reverse=True)
        price = sum(wait[r] * cost[r] for r in range(5))
        return 0.5 * min(lots, len(waits)) + sum(waits[lots:]) + PRICE_WEIGHT * price

    options: list[Goal] = []
    if me["cities_left"] and any(t.owner[n] == t.seat and not t.city[n] for n in range(NODE_COUNT)):
        options.append(Goal("city", CITY_COST))
    if me["settlements_left"]:
        if t.spots():
            options.append(Goal("settlement", SETTLEMENT_COST))
        elif me["roads_left"] and best_road(t, t.open_roads())[1] > 0:
            options.append(Goal("road", ROAD_COST))
    if t.view["deck_size"]:
        options.append(Goal("buy", CARD_COST))
    return sorted(options, key=lambda g: -GOAL_VALUE[g.kind] / (1 + turns(g.cost)))


def surplus(hand: Sequence[int], goal: Goal | None) -> list[int]:
    """Cards beyond what the goal needs."""
    cost = goal.cost if goal else (0,) * 5
    return [max(0, hand[r] - cost[r]) for r in range(5)]


# -- the standard player ---------------------------------------------------------------------------------------


class StandardCatanPolicy:
    """``standard``: heuristics from the seat's view only; every turn ends (trades shrink a deficit)."""

    level = "standard"

    def choose(self, situation: Situation) -> Action:
        view, legal, seat = situation.view, situation.legal, situation.seat
        kinds = {a["type"] for a in legal}
        t = read(view, seat)
        if "discard" in kinds:
            return self.discard(t, legal)
        phase = view["phase"]
        if phase == SETUP:
            return self.setup(t, legal)
        if phase == ROBBER:
            return self.robber(t, [a for a in legal if a["type"] == "robber"])
        if seat != view["current_player"]:
            return self.reply(t, legal)
        if phase == ROLL:
            return self.before_roll(t, legal)
        return self.main(t, legal)

    # set-up

    def setup(self, t: Table, legal: Sequence[Action]) -> Action:
        if legal[0]["type"] == "settlement":
            produced = t.production()
            return max(legal, key=lambda a: (spot_value(t, a["at"] - 1, produced), -a["at"]))
        # The set-up road points at the best spot it brings within reach.
        edges = [EDGE_BY_NAME[a["at"]] for a in legal]
        edge, _ = best_road(t, edges)
        return next(a for a in legal if EDGE_BY_NAME[a["at"]] == edge)

    # sevens

    def discard(self, t: Table, legal: Sequence[Action]) -> Action:
        """Drop the cards the goal needs least: surplus first, the biggest pile first."""
        owed = sum(legal[0]["cards"].values())
        goal = next(iter(goals(t)), None)
        cost = goal.cost if goal else (0,) * 5
        left = list(t.hand)
        drop = [0] * 5
        for _ in range(owed):
            held = [i for i in range(5) if left[i]]
            r = max(held, key=lambda i: (left[i] > cost[i], left[i] - cost[i], left[i], -i))
            left[r] -= 1
            drop[r] += 1
        want = as_json(drop)
        return next((a for a in legal if a["cards"] == want), legal[0])

    def robber(self, t: Table, moves: Sequence[Action]) -> Action:
        """The leader's best hex, never one of ours if avoidable; steal from the leader there."""
        weights = victim_weights(t)
        leader = t.leader()

        def touches(a: Action, seat: int) -> bool:
            return any(t.owner[n] == seat for n in HEX_CORNERS[HEX_NAMES.index(a["hex"])])

        free = [a for a in moves if not touches(a, t.seat)] or list(moves)
        candidates = [a for a in free if touches(a, leader)] or free

        def score(a: Action) -> tuple[float, float, int, int]:
            h = HEX_NAMES.index(a["hex"])
            v = a.get("victim")
            steal = -1.0 if v is None else (weights[v] + 0.1 * t.cards[v] if t.cards[v] else 0.0)
            return (hex_harm(t, h, weights), steal, -h, -(v or 0))

        return max(candidates, key=score)

    # the turn

    def before_roll(self, t: Table, legal: Sequence[Action]) -> Action:
        knights = [a for a in legal if a["type"] == "knight"]
        if knights and (self.robbed(t) or self.army_gain(t)):
            return self.robber(t, knights)
        return next(a for a in legal if a["type"] == "roll")

    def robbed(self, t: Table) -> bool:
        """The robber sits on one of our producing hexes."""
        h = t.robber
        return t.hex_res[h] is not None and any(t.owner[n] == t.seat for n in HEX_CORNERS[h])

    def army_gain(self, t: Table) -> bool:
        """One more knight takes (or secures) largest army."""
        mine = t.knights[t.seat] + 1
        best_other = max(t.knights[s] for s in range(t.n) if s != t.seat)
        return mine >= LARGEST_ARMY and mine > best_other and not t.me["largest_army"]

    def main(self, t: Table, legal: Sequence[Action]) -> Action:
        by_kind: dict[str, list[Action]] = {}
        for a in legal:
            by_kind.setdefault(a["type"], []).append(a)
        plan = goals(t)
        goal = plan[0] if plan else None
        for step in (self.deal, self.play_card, self.build, self.bank, self.offer, self.spend, self.build_down):
            action = step(t, by_kind, goal, plan)
            if action is not None:
                return action
        return by_kind["end_turn"][0]

    def deal(self, t: Table, by_kind: dict[str, list[Action]], goal: Goal | None, plan: list[Goal]) -> Action | None:
        """Confirm an accepted own offer; accept a good offer made to us."""
        offers = {o["id"]: o for o in t.view["offers"]}
        for a in by_kind.get("confirm", []):
            if not t.near_win(a["with"]):
                return a
        for a in by_kind.get("accept", []):
            o = offers[a["offer"]]
            # Their "give" is what we receive.
            if self.good_trade(t, goal, get=bundle(o["give"]), give=bundle(o["get"]), partner=o["from"]):
                return a
        return None

    def good_trade(self, t: Table, goal: Goal | None, get: list[int], give: list[int], partner: int) -> bool:
        """Fair, toward the goal, and not feeding a player about to win."""
        if goal is None or t.near_win(partner):
            return False
        before = sum(missing(t.hand, goal.cost))
        after_hand = [t.hand[r] + get[r] - give[r] for r in range(5)]
        if any(c < 0 for c in after_hand):
            return False
        after = sum(missing(after_hand, goal.cost))
        return after < before and sum(get) >= sum(give)

    def play_card(
        self, t: Table, by_kind: dict[str, list[Action]], goal: Goal | None, plan: list[Goal]
    ) -> Action | None:
        if by_kind.get("knight") and (self.robbed(t) or self.army_gain(t)):
            return self.robber(t, by_kind["knight"])
        if by_kind.get("year_of_plenty") and goal is not None:
            need = missing(t.hand, goal.cost)
            if 0 < sum(need) <= 2 or sum(t.hand) < 3:
                return max(
                    by_kind["year_of_plenty"],
                    key=lambda a: (sum(min(need[r], bundle(a["take"])[r]) for r in range(5)), a["take"] == {}),
                )
        if by_kind.get("monopoly") and goal is not None:
            others = sum(t.cards) - t.cards[t.seat]
            short = missing(t.hand, goal.cost)
            if others >= 3 * (t.n - 1) and any(short):
                res = max(range(5), key=lambda r: (short[r], goal.cost[r], -r))
                return next(a for a in by_kind["monopoly"] if a["resource"] == RESOURCES[res])
        if by_kind.get("road_building") and t.me["settlements_left"] and not t.spots():
            return max(by_kind["road_building"], key=lambda a: self.roads_value(t, a["roads"]))
        return None

    def roads_value(self, t: Table, roads: Sequence[str]) -> float:
        edges = [EDGE_BY_NAME[r] for r in roads]
        _, value = best_road(t, edges)
        return value + 0.1 * len(roads)

    def build(self, t: Table, by_kind: dict[str, list[Action]], goal: Goal | None, plan: list[Goal]) -> Action | None:
        """A city or settlement whenever affordable (points first); a road when it is the goal."""
        if by_kind.get("city"):
            return max(by_kind["city"], key=lambda a: (sum(t.node_pips(a["at"] - 1)), -a["at"]))
        if by_kind.get("settlement"):
            produced = t.production()
            return max(by_kind["settlement"], key=lambda a: (spot_value(t, a["at"] - 1, produced), -a["at"]))
        taking = self.longest_road_taker(t, by_kind.get("road", []))
        if taking is not None:
            return taking
        if goal is not None and goal.kind == "road" and by_kind.get("road"):
            edge, value = best_road(t, [EDGE_BY_NAME[a["at"]] for a in by_kind["road"]])
            if value > 0:
                return next(a for a in by_kind["road"] if EDGE_BY_NAME[a["at"]] == edge)
        if goal is not None and goal.kind == "buy" and by_kind.get("buy"):
            return by_kind["buy"][0]
        return None

    def longest_road_taker(self, t: Table, roads: Sequence[Action]) -> Action | None:
        """A road that makes ours the longest road (2 points for one road), when we do not hold it yet."""
        if not roads or t.me["longest_road"]:
            return None
        best_other = max(t.view["players"][s]["road_length"] for s in range(t.n) if s != t.seat)
        mine = [e for e, o in enumerate(t.edge_owner) if o == t.seat]
        for a in roads:
            length = longest_road(t.seat, [*mine, EDGE_BY_NAME[a["at"]]], t.owner)
            if length >= MIN_LENGTH and length > best_other:
                return a
        return None

    def bank(self, t: Table, by_kind: dict[str, list[Action]], goal: Goal | None, plan: list[Goal]) -> Action | None:
        """A bank trade only when surplus lots pay for every missing card of the goal (each trade shrinks the hand)."""
        if goal is None or not by_kind.get("bank_trade"):
            return None
        need = missing(t.hand, goal.cost)
        spare = surplus(t.hand, goal)
        lots = sum(spare[r] // t.rates[r] for r in range(5))
        if not sum(need) or lots < sum(need):
            return None
        for a in sorted(by_kind["bank_trade"], key=lambda a: -sum(bundle(a["give"]))):
            give, get = bundle(a["give"]), bundle(a["get"])
            if all(give[r] <= spare[r] for r in range(5)) and any(get[r] and need[r] for r in range(5)):
                return a
        return None

    def offer(self, t: Table, by_kind: dict[str, list[Action]], goal: Goal | None, plan: list[Goal]) -> Action | None:
        """One card of surplus for one missing card, to everyone, when the goal is close; never many at once."""
        if goal is None or not by_kind.get("offer"):
            return None
        own = [o for o in t.view["offers"] if o["from"] == t.seat]
        need = missing(t.hand, goal.cost)
        if t.me["offers_made_this_turn"] >= MAX_OFFERS or not 0 < sum(need) <= 2:
            return None
        spare = surplus(t.hand, goal)
        asked = {(tuple(bundle(o["give"])), tuple(bundle(o["get"]))) for o in own}
        for a in by_kind["offer"]:
            give, get = bundle(a["give"]), bundle(a["get"])
            key = (tuple(give), tuple(get))
            useful = all(give[r] <= spare[r] for r in range(5)) and any(get[r] and need[r] for r in range(5))
            if a["to"] is None and key not in asked and useful:
                return a
        return None

    def spend(self, t: Table, by_kind: dict[str, list[Action]], goal: Goal | None, plan: list[Goal]) -> Action | None:
        """Cards the goal does not need: a development card, or a useful road, above all before a 7 can cost them."""
        spare = surplus(t.hand, goal)
        if by_kind.get("buy") and all(spare[r] >= CARD_COST[r] for r in range(5)):
            return by_kind["buy"][0]
        if by_kind.get("road") and all(spare[r] >= ROAD_COST[r] for r in range(5)):
            edge, value = best_road(t, [EDGE_BY_NAME[a["at"]] for a in by_kind["road"]])
            if value > 0 and t.me["roads_left"] > 2:
                return next(a for a in by_kind["road"] if EDGE_BY_NAME[a["at"]] == edge)
        return None

    def build_down(
        self, t: Table, by_kind: dict[str, list[Action]], goal: Goal | None, plan: list[Goal]
    ) -> Action | None:
        """More than 7 cards at the end of the turn lose half to a seven: a card, a road, or a bank trade of the
        biggest pile for what the goal lacks most (each shrinks the hand, so the turn still ends)."""
        if sum(t.hand) <= 7:
            return None
        if by_kind.get("buy"):
            return by_kind["buy"][0]
        if by_kind.get("road") and t.me["roads_left"] > 2:
            edges = [EDGE_BY_NAME[a["at"]] for a in by_kind["road"]]
            edge, _ = best_road(t, edges)
            return next(a for a in by_kind["road"] if EDGE_BY_NAME[a["at"]] == edge)
        trades = by_kind.get("bank_trade")
        if trades:
            cost = goal.cost if goal else CITY_COST
            need = missing(t.hand, cost)

            def worth(a: Action) -> tuple[int, int, int]:
                give, get = bundle(a["give"]), bundle(a["get"])
                r = next(i for i in range(5) if give[i])
                g = next(i for i in range(5) if get[i])
                return (t.hand[r] - cost[r], need[g], -g)

            return max(trades, key=worth)
        return None

    # another player's turn

    def reply(self, t: Table, legal: Sequence[Action]) -> Action:
        """Accept a fair offer that helps our goal from a player not about to win; decline anything else."""
        owed = [p["offer"] for p in t.view["pending"] if p["seat"] == t.seat and p["decision"] == "trade_reply"]
        offers = {o["id"]: o for o in t.view["offers"]}
        goal = next(iter(goals(t)), None)
        for ident in owed:
            o = offers[ident]
            accept = {"player": t.seat, "type": "accept", "offer": ident}
            if accept in legal and self.good_trade(t, goal, bundle(o["give"]), bundle(o["get"]), o["from"]):
                return accept
            return {"player": t.seat, "type": "decline", "offer": ident}
        return next((a for a in legal if a["type"] == "decline"), legal[0])


# -- the random player -------------------------------------------------------------------------------------------


class RandomCatanPolicy:
    """``random`` for Catan: uniform over the kinds of legal action, then uniform within the kind.

    Uniform over ``legal_actions`` itself makes Catan practically endless: after the roll most listed actions
    are 1-for-1 trade offers and bank trades, so ``end_turn`` is rarely drawn and offers pile up. So, from the
    view and the legal actions only:

    - a reply owed to an offer: accept, decline or counter, uniformly, then uniformly within the kind;
    - after the roll a settlement or city when one is listed (so games end), otherwise a uniform kind among
      those listed, except that domestic offers are made only in every fourth turn and only while none of the
      seat's own offers is open;
    - everything else (set-up, discards, robber, before the roll): uniform over kinds, then within the kind.
    """

    level = "random"

    def choose(self, situation: Situation) -> Action:
        view, legal, seat, rng = situation.view, situation.legal, situation.seat, situation.rng
        if view["phase"] == MAIN and seat != view["current_player"]:
            owed = [p["offer"] for p in view["pending"] if p["seat"] == seat and p["decision"] == "trade_reply"]
            replies = [a for a in legal if a.get("offer") in owed and a["type"] in ("accept", "decline", "counter")]
            return pick_kind(replies or legal, rng)
        if view["phase"] == MAIN:
            builds = [a for a in legal if a["type"] in ("settlement", "city")]
            if builds:
                return dict(builds[rng.randrange(len(builds))])
            own_open = any(o["from"] == seat for o in view["offers"])
            if view["turn"] % 4 or own_open:
                legal = [a for a in legal if a["type"] != "offer"]
        return pick_kind(legal, rng)


def pick_kind(legal: Sequence[Action], rng: random.Random) -> Action:
    kinds = sorted({a["type"] for a in legal})
    kind = kinds[rng.randrange(len(kinds))]
    within = [a for a in legal if a["type"] == kind]
    return dict(within[rng.randrange(len(within))])
