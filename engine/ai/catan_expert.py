"""Catan ``expert``: a determinised search over the engine, from one seat's view only.

At each decision of its own turn (before the roll, the robber, the main phase) it rebuilds the game from its view
several times with the hidden parts sampled (``catan_model.determinise``: the others' hands from their public counts,
the deck from the cards it has not seen), applies each candidate action to a copy with the real rules, looks one more
own action ahead for the best candidates (``DEPTH``: more, each after the likeliest ones before it), and scores where
the turn could end with ``value``: a position's worth to the seat. Actions whose outcome is hidden (buying a card,
stealing, monopoly) are averaged over the samples, a card bought over every kind the sample's deck holds, by its
chances (``outcomes``); the others are judged once. Near the end (``WIN_WITHIN``) it first looks for a win within the
turn through up to ``WIN_DEPTH`` actions whose outcome is certain (``winning_line``): two bank trades and a city are
one action more than the search looks ahead, and the value of a trade alone does not always lead there. Set-up,
discards and replies to offers use the ``standard`` rules of thumb (``catan.py``), which see the same view.

``value`` weighs, besides points: production by resource and variety (the robber's hex yields nothing), the
others' production (the leader's most), harbours by what they let the seat trade, room to build (open spots and
the best within two roads; the others' open spots count against, so cutting them off is worth a road), the
Longest Road race (own length against the best other), the Largest Army race (knights played and held), cards
in hand toward the next build, development cards held, and the risk of a seven: a hand above seven loses half
if any of the next rolls is a seven.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Final

from engine.ai.base import Situation
from engine.ai.catan import StandardCatanPolicy, goals, pips, read
from engine.ai.catan_model import determinise
from engine.catan.board import EDGE_NODES, NODE_EDGES, NODE_HEXES
from engine.catan.deck import CARDS, KNIGHT, MONOPOLY, ROAD_BUILDING, YEAR_OF_PLENTY
from engine.catan.game import Catan
from engine.catan.state import CARD_COST, CITY_COST, MAIN, ROBBER, ROLL, SETTLEMENT_COST, SETUP
from engine.errors import RuleError
from engine.game import Action

# 6 samples, 16 widened and a depth of 2 (tried on 2026-11-26) cost about 2.5x the CPU and won no more games
# (bench/README.md, "Deeper search"): the search stays at the cheaper settings.
SAMPLES: Final = 3  # determinisations for actions with a hidden outcome
WIDEN: Final = 8  # candidates that get the own actions after them looked at
DEPTH: Final = 1  # own actions looked at after a widened candidate
DEEP_WIDEN: Final = 4  # at a depth over 1: how many of those get one more looked at
# Actions with a hidden outcome: averaged over the samples.
CHANCE: Final = frozenset({"buy", "knight", "robber", "monopoly"})
# Kinds the search considers in the main phase (domestic trading is left to the others' offers).
SEARCHED: Final = frozenset(
    {"settlement", "city", "road", "buy", "bank_trade", "knight", "road_building", "year_of_plenty", "monopoly"}
)

# A win within the turn that takes more own actions than the search looks ahead (two bank trades and a city): near
# the end, a search of the actions whose outcome is certain, bounded so that a decision stays quick.
WIN_WITHIN: Final = 3  # points short of winning from which the win search runs
WIN_DEPTH: Final = 4  # own actions it looks through
WIN_NODES: Final = 2000  # positions it may try in one decision, lines with roads
WIN_NODES_ROADLESS: Final = 1000  # and before those, lines without roads
SURE: Final = frozenset({"settlement", "city", "road", "bank_trade", "year_of_plenty", "road_building"})
# Tried in this order: what scores first, roads (many, and seldom the point) last, so that the budget is not spent
# on roads before two trades and a city are looked at. A line's last action must be one that can end the game.
WIN_ORDER: Final = {"city": 0, "settlement": 1, "bank_trade": 2, "year_of_plenty": 3, "road_building": 4, "road": 5}
SCORING: Final = frozenset({"settlement", "city", "road", "road_building"})  # a point, or Longest Road
ROADS: Final = frozenset({"road", "road_building"})

# -- weights of ``value`` (one point is 100) ---------------------------------------------------------------------
POINT: Final = 100.0
WIN: Final = 10_000.0
PIP: Final = 3.2  # one pip (1/36 of a roll) of own production
VARIETY: Final = 6.0  # each resource produced at all
ENEMY_PIP: Final = 0.9  # one pip of another player's production (the leader's counts double)
HARBOR: Final = 0.45  # per pip of production a better rate applies to, per card saved on the rate
SPOT: Final = 1.2  # per pip of the best open settlement spot
SPOT_EACH: Final = 6.0  # each open spot (up to 3)
FAR_SPOT: Final = 0.5  # per pip of the best spot two roads away
ENEMY_SPOT: Final = 3.0  # each open spot of another player (up to 3 each)
ROAD_LEN: Final = 9.0  # each road segment of the longest road, up to two beyond the best other
ARMY: Final = 14.0  # each knight played, up to one beyond the best other
KNIGHT_HELD: Final = 24.0
CARD_HELD: Final = 30.0  # a progress card held
CARD: Final = 3.5  # a resource card in hand (up to seven)
NEAR: Final = 7.0  # each card of the nearest build already in hand
SEVEN_CARD: Final = 7.0  # a card lost to a seven
ENEMY_POINT: Final = 30.0  # each public point of another player (awards move them)
RESOURCE_WEIGHT: Final = (1.0, 1.0, 0.8, 1.0, 1.05)


def production(game: Catan, seat: int) -> list[float]:
    out = [0.0] * 5
    for node in game.settlements[seat]:
        for h in NODE_HEXES[node]:
            res = game.hex_resource[h]
            if res is not None and h != game.robber:
                out[res] += pips(game.hex_number[h])
    for node in game.cities[seat]:
        for h in NODE_HEXES[node]:
            res = game.hex_resource[h]
            if res is not None and h != game.robber:
                out[res] += 2 * pips(game.hex_number[h])
    return out


def node_pips(game: Catan, node: int) -> float:
    return float(sum(pips(game.hex_number[h]) for h in NODE_HEXES[node] if game.hex_resource[h] is not None))


def open_spots(game: Catan, seat: int) -> list[int]:
    crowded = game.crowded
    return [n for n in game.reach[seat] if not crowded[n] and game.has_road_at(seat, n)]


def far_spot(game: Catan, seat: int) -> float:
    """Pips of the best free spot one or two free paths beyond the seat's network."""
    best = 0.0
    owner, edge_owner, crowded = game.node_owner, game.edge_owner, game.crowded
    reach = game.reach[seat]
    for node in reach:
        if owner[node] not in (-1, seat):
            continue
        for e in NODE_EDGES[node]:
            if edge_owner[e] != -1:
                continue
            for a in EDGE_NODES[e]:
                if a in reach or owner[a] != -1:
                    continue
                if not crowded[a]:
                    best = max(best, node_pips(game, a))
                for e2 in NODE_EDGES[a]:
                    if edge_owner[e2] != -1:
                        continue
                    for b in EDGE_NODES[e2]:
                        if b != a and b not in reach and not crowded[b]:
                            best = max(best, 0.8 * node_pips(game, b))
    return best


def outcomes(game: Catan, action: Action) -> list[tuple[float, Catan]]:
    """The games ``action`` leads to from ``game``, each with its chance (none if the rules refuse it). A card bought
    is each kind the deck holds, by its share of the deck: one point short of winning, a point card is a win, too
    rare a draw for a few samples to weigh (three draws hold none about half the time). Any other action is
    applied as it is, its hidden outcome (a card stolen) drawn by the game."""
    if action["type"] == "buy" and game.deck:
        size = len(game.deck)
        ways = [(game.deck.count(k) / size, {**action, "card": CARDS[k]}, True) for k in sorted(set(game.deck))]
    else:
        ways = [(1.0, action, False)]
    out = []
    for chance, outcome, named in ways:
        nxt = game.copy()
        try:
            nxt.apply(outcome, replay=named)  # a card named is an outcome given, as a replay gives it
        except RuleError:
            continue
        out.append((chance, nxt))
    return out


def value(game: Catan, seat: int) -> float:
    """What the position is worth to ``seat`` if its turn ended now (see the module's docstring)."""
    n = game.n
    target = game.options.points_to_win
    points = game.points(seat)
    if points >= target:
        return WIN + points * POINT
    total = points * POINT
    made = production(game, seat)
    total += sum(PIP * RESOURCE_WEIGHT[r] * made[r] + (VARIETY if made[r] else 0.0) for r in range(5))
    rates = game.rates[seat]
    total += sum(HARBOR * (4 - rates[r]) * made[r] for r in range(5))
    public = [game.public_points(s) for s in range(n)]
    others = [s for s in range(n) if s != seat]
    leader = max(others, key=lambda s: (public[s], sum(game.hand[s])))
    for s in others:
        weight = 2.0 if s == leader else 1.0
        total -= weight * ENEMY_PIP * sum(production(game, s))
        total -= ENEMY_POINT * public[s]
        if len(game.settlements[s]) < 5:
            total -= ENEMY_SPOT * min(3, len(open_spots(game, s)))
    if len(game.settlements[seat]) < 5:
        spots = open_spots(game, seat)
        if spots:
            total += SPOT * max(node_pips(game, s) for s in spots) + SPOT_EACH * min(3, len(spots))
        if len(game.roads[seat]) < 15:
            total += FAR_SPOT * far_spot(game, seat)
    best_road = max(game.road_length[s] for s in others)
    total += ROAD_LEN * min(game.road_length[seat], best_road + 2)
    best_army = max(game.knights[s] for s in others)
    total += ARMY * min(game.knights[seat], best_army + 1)
    dev = game.dev[seat]
    total += KNIGHT_HELD * dev[KNIGHT] + CARD_HELD * (dev[ROAD_BUILDING] + dev[YEAR_OF_PLENTY] + dev[MONOPOLY])
    hand = game.hand[seat]
    cards = sum(hand)
    total += CARD * min(cards, 7)
    goals = [CARD_COST]
    if game.settlements[seat] and len(game.cities[seat]) < 4:
        goals.append(CITY_COST)
    if len(game.settlements[seat]) < 5 and open_spots(game, seat):
        goals.append(SETTLEMENT_COST)
    total += NEAR * max(sum(min(hand[r], cost[r]) for r in range(5)) / sum(cost) * 4 for cost in goals)
    if cards > 7:
        # A seven in the others' rolls or our own next one (1 - (5/6)^n) takes half the hand.
        total -= (1 - (5 / 6) ** n) * (cards // 2) * SEVEN_CARD
    return total


class ExpertCatanPolicy:
    """``expert``: determinised one- and two-action search over the engine with ``value`` at the leaves."""

    level = "expert"

    def __init__(self) -> None:
        self.standard = StandardCatanPolicy()

    def choose(self, situation: Situation) -> Action:
        view, legal, seat = situation.view, situation.legal, situation.seat
        phase = view["phase"]
        kinds = {a["type"] for a in legal}
        if phase == SETUP or "discard" in kinds or seat != view["current_player"] or phase not in (ROLL, ROBBER, MAIN):
            return self.standard.choose(situation)
        if phase == MAIN:
            # Deals on the table first (confirming our accepted offers, taking a good one), as ``standard`` does.
            deal = self.deal(situation)
            if deal is not None:
                return deal
            searched = [a for a in legal if a["type"] in SEARCHED]
            end = next((a for a in legal if a["type"] == "end_turn"), None)
            if not searched:
                return end if end is not None else self.standard.choose(situation)
            win = self.win_now(situation)
            if win is not None:
                return win
            return self.search(situation, searched, stay=end)
        if phase == ROLL:
            knights = [a for a in legal if a["type"] == "knight"]
            roll = next(a for a in legal if a["type"] == "roll")
            if not knights:
                return roll
            return self.search(situation, knights, stay=roll, second=False)
        return self.search(situation, list(legal), stay=None, second=False)

    def deal(self, situation: Situation) -> Action | None:
        t = read(situation.view, situation.seat)
        by_kind: dict[str, list[Action]] = {}
        for a in situation.legal:
            by_kind.setdefault(a["type"], []).append(a)
        plan = goals(t)
        return self.standard.deal(t, by_kind, plan[0] if plan else None, plan)

    def search(
        self, situation: Situation, candidates: Sequence[Action], stay: Action | None, second: bool = True
    ) -> Action:
        """The candidate with the best value after it (and after the best own action that may follow it);
        ``stay`` (ending the turn, or rolling) is judged by the position as it is."""
        rng = situation.rng
        seat = situation.seat
        worlds = [determinise(situation.view, seat, random.Random(rng.getrandbits(48))) for _ in range(SAMPLES)]
        scored: list[tuple[float, int]] = []
        after: dict[int, list[tuple[float, Catan]]] = {}
        for i, action in enumerate(candidates):
            used = worlds if action["type"] in CHANCE else worlds[:1]
            games = [way for world in used for way in outcomes(world, action)]
            if games:
                after[i] = games
                scored.append((mean((chance, value(game, seat)) for chance, game in games), i))
        best_stay = value(worlds[0], seat) if stay is not None else float("-inf")
        if not scored:
            return dict(stay) if stay is not None else dict(candidates[0])
        scored.sort(key=lambda x: (-x[0], x[1]))
        if second:
            rescored = []
            for first, i in scored[:WIDEN]:
                rescored.append((max(first, self.follow_up(after[i], seat)), i))
            rescored.sort(key=lambda x: (-x[0], x[1]))
            scored = rescored + scored[WIDEN:]
        top, i = scored[0]
        if stay is not None and best_stay >= top:
            return dict(stay)
        return dict(candidates[i])

    def win_now(self, situation: Situation) -> Action | None:
        """The first action of a line of actions with certain outcomes that wins this turn, when the seat is
        ``WIN_WITHIN`` points or fewer short of winning (hidden cards play no part: none of those actions draws or
        steals)."""
        seat, view = situation.seat, situation.view
        own = view["players"][seat]
        if own.get("victory_points", own["points"]) + WIN_WITHIN < view["options"]["points_to_win"]:  # hidden ones too
            return None
        # Any sample of the hidden cards will do (none of these actions depends on them); not the game's random
        # stream, which the search's samples draw from.
        world = determinise(view, seat, random.Random(0))
        # Not the kinds of action the host leaves out (catanatron's bridge offers no road building card, say).
        kinds = SURE - ({a["type"] for a in world.legal_actions(seat)} - {a["type"] for a in situation.legal})
        # Lines without roads first, on a budget of their own: they are few, where the roads' many places (and a
        # road building card's pairs of them) can spend a whole budget before two trades and a city are tried. In
        # each, the shortest line first (one action, then two, ...): it spends no card a longer one would.
        for tried, nodes in ((kinds - ROADS, WIN_NODES_ROADLESS), (kinds, WIN_NODES)):
            lost: set[tuple[object, ...]] = set()
            budget = [nodes]
            for depth in range(1, WIN_DEPTH + 1):
                line = winning_line(world, seat, depth, lost, budget, tried)
                if line is not None:
                    return dict(line) if line in situation.legal else None
                if budget[0] <= 0:
                    break
        return None

    def follow_up(self, games: list[tuple[float, Catan]], seat: int) -> float:
        """The mean, over the samples and outcomes by their chances, of the best value ``DEPTH`` more own actions
        reach (past the first, only after the best ``DEEP_WIDEN`` of each step: trading twice at the bank for a
        build, say)."""
        return mean((chance, self.best_after(game, seat, DEPTH)) for chance, game in games)

    def best_after(self, game: Catan, seat: int, depth: int) -> float:
        """The best value ``depth`` more own actions (or stopping) reach from ``game``."""
        best = value(game, seat)
        if depth <= 0 or game.phase != MAIN or game.current != seat:
            return best
        scored: list[tuple[float, int, Catan]] = []
        for k, action in enumerate(game.legal_actions(seat)):
            if action["type"] not in SEARCHED or action["type"] == "road_building":
                continue
            ways = outcomes(game, action)
            if ways:
                # A card bought is worth what it may be, by its chances; the line goes on after the likeliest kind.
                likeliest = max(ways, key=lambda way: way[0])[1]
                scored.append((mean((chance, value(nxt, seat)) for chance, nxt in ways), k, likeliest))
        if not scored:
            return best
        scored.sort(key=lambda x: (-x[0], x[1]))
        best = max(best, scored[0][0])
        if depth > 1:
            for _, _, nxt in scored[:DEEP_WIDEN]:
                best = max(best, self.best_after(nxt, seat, depth - 1))
        return best


def mean(weighted: Iterable[tuple[float, float]]) -> float:
    """The mean of values weighed by their chances."""
    pairs = list(weighted)
    return sum(chance * v for chance, v in pairs) / sum(chance for chance, _ in pairs)


def _position(game: Catan, seat: int) -> tuple[object, ...]:
    """What a line of own actions has changed so far: two orders of the same trades reach the same position."""
    return (tuple(game.hand[seat]), tuple(sorted(game.roads[seat])), tuple(sorted(game.settlements[seat])),
            tuple(sorted(game.cities[seat])), tuple(game.dev[seat]))  # fmt: skip


def winning_line(
    game: Catan,
    seat: int,
    depth: int,
    lost: set[tuple[object, ...]],
    budget: list[int],
    kinds: frozenset[str] = SURE,
) -> Action | None:
    """The first of at most ``depth`` own actions of ``kinds`` (of certain outcome) after which ``seat`` has won, or
    None; ``lost``: positions already known to win nothing at this depth or less; ``budget``: positions left to try."""
    if depth <= 0 or game.phase != MAIN or game.current != seat:
        return None
    tried = [a for a in game.legal_actions(seat) if a["type"] in kinds and (depth > 1 or a["type"] in SCORING)]
    for action in sorted(tried, key=lambda a: WIN_ORDER[a["type"]]):
        if budget[0] <= 0:
            break
        budget[0] -= 1
        nxt = game.copy()
        try:
            nxt.apply(action)
        except RuleError:
            continue
        if nxt.finished:
            if nxt.winner == seat:
                return action
            continue
        key = (depth - 1, *_position(nxt, seat))
        if depth > 1 and key not in lost:
            if winning_line(nxt, seat, depth - 1, lost, budget, kinds) is not None:
                return action
            lost.add(key)
    return None
