"""What a Catan game is made of: the constants of the rules, an open trade offer, and the state with its queries.

The rules (``game`` and the modules of each kind of action) change this state; the policy, the view and the
computer players read it. Everything here is data: nothing changes the state.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, NotRequired, TypedDict

from engine.catan.board import (
    EDGE_NAMES,
    EDGE_NODES,
    HEX_CORNERS,
    NODE_COUNT,
    NODE_EDGES,
    TERRAIN_RESOURCE,
)
from engine.catan.board import RESOURCE_INDEX as RESOURCE_INDEX
from engine.catan.board import RESOURCES as RESOURCES
from engine.catan.deck import CARD_INDEX as CARD_INDEX
from engine.catan.deck import CARDS as CARDS
from engine.catan.deck import DECK_COUNTS as DECK_COUNTS
from engine.catan.deck import KNIGHT as KNIGHT
from engine.catan.deck import MONOPOLY as MONOPOLY
from engine.catan.deck import ROAD_BUILDING as ROAD_BUILDING
from engine.catan.deck import VICTORY_POINT as VICTORY_POINT
from engine.catan.deck import YEAR_OF_PLENTY as YEAR_OF_PLENTY
from engine.catan.maps import Layout, layout_json
from engine.errors import RuleError

if TYPE_CHECKING:
    from engine.catan.options import Options

GAME: Final = "catan"  # the replay format's ``game`` value

# Phases of a game (the state's ``phase``).
SETUP: Final = "setup"
ROLL: Final = "roll"  # before the roll: roll or play a development card
DISCARD: Final = "discard"
ROBBER: Final = "robber"
MAIN: Final = "main"
OVER: Final = "over"

# Pieces in each player's supply, cards of each resource in the bank.
SETTLEMENTS: Final = 5
CITIES: Final = 4
ROADS: Final = 15
BANK_SIZE: Final = 19
LARGEST_ARMY: Final = 3  # knights played to claim the largest army

# Building costs, counts indexed like RESOURCES (brick, lumber, wool, grain, ore).
ROAD_COST: Final = (1, 1, 0, 0, 0)
SETTLEMENT_COST: Final = (1, 1, 1, 1, 0)
CITY_COST: Final = (0, 0, 0, 2, 3)
CARD_COST: Final = (0, 0, 1, 1, 1)
COSTS: Final[dict[str, tuple[int, ...]]] = {
    "road": ROAD_COST,
    "settlement": SETTLEMENT_COST,
    "city": CITY_COST,
    "card": CARD_COST,
}

# An open domestic trade offer, as kept in the state and its JSON. ``give`` is what the maker gives, ``get`` what
# it wants (counts indexed like RESOURCES); ``to`` is None for an offer to everyone; ``waiting`` are the
# recipients who have not answered yet (never the active player).
Offer = TypedDict(
    "Offer",
    {
        "id": int,
        "from": int,
        "to": int | None,
        "give": list[int],
        "get": list[int],
        "accepted": list[int],
        "declined": list[int],
        "waiting": list[int],
    },
)


def copy_offer(offer: Offer) -> Offer:
    """``offer`` with lists of its own: what the state's JSON holds, and what a loaded state keeps."""
    return {
        "id": offer["id"],
        "from": offer["from"],
        "to": offer["to"],
        "give": list(offer["give"]),
        "get": list(offer["get"]),
        "accepted": list(offer["accepted"]),
        "declined": list(offer["declined"]),
        "waiting": list(offer["waiting"]),
    }


class Decision(TypedDict):
    """A decision owed now (``State.pending``): who owes it, which, and its parameters."""

    seat: int
    decision: str  # setup_settlement, setup_road, roll_or_play, discard, robber, main or trade_reply
    touching: NotRequired[int]  # setup_road: the intersection of the settlement just placed
    count: NotRequired[int]  # discard: how many cards
    offer: NotRequired[int]  # trade_reply: the offer's number


class State:
    """A game of Catan at one moment, and what can be read from it. The rules change it (``Catan``)."""

    def __init__(self, players: Sequence[str], options: Options, seed: int, layout: Layout, first: int) -> None:
        n = len(players)
        self.players = list(players)
        self.n = n
        self.options = options
        self.seed = seed
        self.rng = random.Random(seed)
        self.layout = layout
        self.first_player = first
        hexes, harbors = layout
        self.harbors = harbors
        self.hex_resource = [TERRAIN_RESOURCE[t] for t, _ in hexes]
        self.hex_number = [num for _, num in hexes]
        # Producing hexes by dice total: (hex, resource, corners).
        self.producers: list[list[tuple[int, int]]] = [[] for _ in range(13)]
        for h, (terrain, num) in enumerate(hexes):
            res = TERRAIN_RESOURCE[terrain]
            if num is not None and res is not None:
                self.producers[num].append((h, res))
        self.hex_buildings: list[list[int]] = [[] for _ in hexes]  # intersections with a building, per hex
        self.robber = next(h for h, (t, _) in enumerate(hexes) if t == "desert")
        self.node_owner = [-1] * NODE_COUNT
        self.node_city = [False] * NODE_COUNT
        self.crowded = [0] * NODE_COUNT  # buildings on or next to each intersection (distance rule)
        self.edge_owner = [-1] * len(EDGE_NODES)
        self.settlements: list[list[int]] = [[] for _ in range(n)]
        self.cities: list[list[int]] = [[] for _ in range(n)]
        self.roads: list[list[int]] = [[] for _ in range(n)]
        self.reach: list[set[int]] = [set() for _ in range(n)]  # intersections touched by own roads/buildings
        self.rates = [[4] * 5 for _ in range(n)]
        self.hand = [[0] * 5 for _ in range(n)]
        self.bank = [BANK_SIZE] * 5
        self.dev = [[0] * 5 for _ in range(n)]
        self.bought = [0] * 5  # cards bought this turn by the current player
        self.deck: list[int] = []  # the top card last
        self.knights = [0] * n
        self.road_length = [0] * n
        self.longest_holder: int | None = None
        self.army_holder: int | None = None
        self.phase = SETUP
        self.current = first
        self.turn = 0
        self.dice: list[int] | None = None  # this turn's roll, public
        self.setup_order = [*range(first, n), *range(first), *range(first - 1, -1, -1), *range(n - 1, first - 1, -1)]
        self.setup_step = 0  # index into setup_order
        self.setup_road = False  # the current set-up placement is waiting for its road
        self.card_played = False
        self.built = False  # for strict_phases: no trading after building
        self.owed = [0] * n  # cards each player must still discard
        self.offers: list[Offer] = []
        self.next_offer = 1
        self.offers_made = 0  # by the active player this turn (used by the random policy)
        self.actions = 0
        self.winner: int | None = None

    @property
    def finished(self) -> bool:
        return self.phase == OVER

    def pending(self) -> list[Decision]:
        """The decisions owed now, each ``{"seat", "decision", ...parameters}``."""
        phase = self.phase
        if phase == OVER:
            return []
        if phase == SETUP:
            if self.setup_road:
                return [{"seat": self.current, "decision": "setup_road", "touching": self.last_setup_node() + 1}]
            return [{"seat": self.current, "decision": "setup_settlement"}]
        if phase == ROLL:
            return [{"seat": self.current, "decision": "roll_or_play"}]
        if phase == DISCARD:
            return [{"seat": s, "decision": "discard", "count": k} for s, k in enumerate(self.owed) if k]
        if phase == ROBBER:
            return [{"seat": self.current, "decision": "robber"}]
        out: list[Decision] = [{"seat": self.current, "decision": "main"}]
        for offer in self.offers:
            for s in self.awaiting_reply(offer):
                out.append({"seat": s, "decision": "trade_reply", "offer": offer["id"]})
        return out

    def actors(self) -> list[int]:
        if self.phase == DISCARD:
            return [s for s, k in enumerate(self.owed) if k]
        if self.phase == OVER:
            return []
        if self.phase == MAIN and self.offers:
            seats = [self.current]
            for offer in self.offers:
                seats += [s for s in self.awaiting_reply(offer) if s not in seats]
            return seats
        return [self.current]

    def public_actors(self) -> list[int]:
        """The seats owing a decision as anyone may know it: a private offer's recipient is not shown."""
        seats: list[int] = []
        for decision in self.pending():
            if decision["decision"] == "trade_reply" and not self._public_offer(decision["offer"]):
                continue
            if decision["seat"] not in seats:
                seats.append(decision["seat"])
        return seats

    def _public_offer(self, ident: int) -> bool:
        offer = self.offer(ident)
        return offer is not None and offer["to"] is None

    def current_seat(self) -> int | None:
        return None if self.phase == OVER else self.current

    def replies_owed_to(self, seat: int) -> list[int]:
        """Seats that have not yet answered an open offer made by ``seat``."""
        return sorted({s for offer in self.offers if offer["from"] == seat for s in offer["waiting"]})

    def offer(self, ident: int) -> Offer | None:
        """The open offer numbered ``ident``, if any."""
        return next((offer for offer in self.offers if offer["id"] == ident), None)

    def recipients(self, offer: Offer) -> list[int]:
        if offer["to"] is not None:
            return [offer["to"]]
        return [s for s in range(self.n) if s != offer["from"]]

    def awaiting_reply(self, offer: Offer) -> list[int]:
        """Recipients who have neither accepted nor declined (the active player never owes a reply)."""
        return offer["waiting"]

    def last_setup_node(self) -> int:
        return self.settlements[self.current][-1]

    def stalled(self) -> bool:
        """Whether the game can never end: nobody can ever reach ``points_to_win`` (``most_points``), or no score
        can change any more (the deck is empty, no knight is left in a hand, and nobody can build) while nobody
        has the points. Such a game would go on for ever."""
        if self.phase in (SETUP, OVER):
            return False
        target = self.options.points_to_win
        if all(self.most_points(seat) < target for seat in range(self.n)):
            return True
        if self.deck:
            return False
        for seat in range(self.n):
            if self.points(seat) >= target or self.dev[seat][KNIGHT] or self.can_build(seat):
                return False
        return True

    def can_build(self, seat: int) -> bool:
        """Whether ``seat`` has a piece and a place for a city, a settlement or a road now (ignoring cost)."""
        if self.settlements[seat] and len(self.cities[seat]) < CITIES:
            return True
        if len(self.settlements[seat]) < SETTLEMENTS and self.legal_settlements(seat):
            return True
        return len(self.roads[seat]) < ROADS and self.has_legal_road(seat)

    def most_points(self, seat: int) -> int:
        """More points than ``seat`` can ever have (an upper bound, hidden cards counted): a settlement on every
        free intersection while it can still reach one, every city piece, both awards unless out of its reach, and
        every victory point card left in the deck."""
        settles = len(self.settlements[seat]) < SETTLEMENTS and bool(self.legal_settlements(seat))
        builds_roads = len(self.roads[seat]) < ROADS and (settles or self.has_legal_road(seat))
        # Buildings are never removed, so a free intersection (none on or next to it) only ever gets fewer.
        new = sum(1 for c in self.crowded if not c) if settles or builds_roads else 0
        places = len(self.settlements[seat]) + len(self.cities[seat]) + new
        cities = min(CITIES, places)
        points = 2 * cities + min(SETTLEMENTS, places - cities)
        points += self.dev[seat][VICTORY_POINT] + self.deck.count(VICTORY_POINT)
        if self.longest_holder == seat or builds_roads or self.road_length[seat] >= 5:
            points += 2
        if self.army_holder == seat or self.dev[seat][KNIGHT] or KNIGHT in self.deck:
            points += 2
        return points

    def public_points(self, seat: int) -> int:
        return (
            len(self.settlements[seat])
            + 2 * len(self.cities[seat])
            + (2 if self.longest_holder == seat else 0)
            + (2 if self.army_holder == seat else 0)
        )

    def points(self, seat: int) -> int:
        return self.public_points(seat) + self.dev[seat][VICTORY_POINT]

    def breakdown(self, seat: int) -> dict[str, int]:
        return {
            "settlement": len(self.settlements[seat]),
            "city": 2 * len(self.cities[seat]),
            "longest_road": 2 if self.longest_holder == seat else 0,
            "largest_army": 2 if self.army_holder == seat else 0,
            "victory_point": self.dev[seat][VICTORY_POINT] if self.phase == OVER else 0,
        }

    def result(self) -> dict[str, Any]:
        done = self.phase == OVER
        breakdown = [self.breakdown(s) for s in range(self.n)]
        return {
            "game": GAME,
            "finished": done,
            "winners": [self.winner] if self.winner is not None else [],
            "scores": [sum(b.values()) for b in breakdown],
            "breakdown": breakdown,
            "turn": self.turn,
            "current_player": None if done else self.current,
            "actions": self.actions,
            "longest_road": self.longest_holder,
            "largest_army": self.army_holder,
        }

    def replay_options(self) -> dict[str, Any]:
        opts = self.options
        out: dict[str, Any] = {"board": layout_json(self.layout), "first_player": self.first_player}
        if "setup" in opts.given:
            out["setup"] = opts.setup
        if "strict_phases" in opts.given:
            out["strict_phases"] = opts.strict_phases
        if "points_to_win" in opts.given:
            out["points_to_win"] = opts.points_to_win
        if opts.dev_deck is not None:
            out["dev_deck"] = list(opts.dev_deck)
        return out

    def has_road_at(self, seat: int, node: int) -> bool:
        owner = self.edge_owner
        return any(owner[e] == seat for e in NODE_EDGES[node])

    def road_problem(self, seat: int, edge: int) -> RuleError | None:
        """Why ``seat`` may not build on ``edge`` by the normal rules, or None."""
        if self.edge_owner[edge] != -1:
            return RuleError("occupied", f"path {EDGE_NAMES[edge]} already has a road", at=EDGE_NAMES[edge])
        blocked = False
        for node in EDGE_NODES[edge]:
            owner = self.node_owner[node]
            if owner == seat:
                return None
            if self.has_road_at(seat, node):
                if owner == -1:
                    return None
                blocked = True
        if blocked:
            return RuleError(
                "blocked_by_opponent",
                f"a road cannot continue through another player's building: {EDGE_NAMES[edge]} "
                "joins your road only there",
                at=EDGE_NAMES[edge],
            )
        return RuleError(
            "not_connected",
            f"path {EDGE_NAMES[edge]} must join your road, settlement or city",
            at=EDGE_NAMES[edge],
        )

    def legal_roads(self, seat: int) -> list[int]:
        """Free paths ``seat`` may build on by the normal rules (ignoring cost and pieces)."""
        owner, node_owner = self.edge_owner, self.node_owner
        out: set[int] = set()
        for node in self.reach[seat]:
            o = node_owner[node]
            if o == -1 or o == seat:
                for e in NODE_EDGES[node]:
                    if owner[e] == -1:
                        out.add(e)
        return sorted(out)

    def has_legal_road(self, seat: int) -> bool:
        owner, node_owner = self.edge_owner, self.node_owner
        for node in self.reach[seat]:
            o = node_owner[node]
            if o == -1 or o == seat:
                for e in NODE_EDGES[node]:
                    if owner[e] == -1:
                        return True
        return False

    def legal_settlements(self, seat: int) -> list[int]:
        """Intersections where ``seat`` may build a settlement now (set-up: any free spot)."""
        crowded = self.crowded
        if self.phase == SETUP:
            return [n for n in range(NODE_COUNT) if not crowded[n]]
        return sorted(n for n in self.reach[seat] if not crowded[n])

    def robber_victims(self, seat: int, hexagon: int) -> list[int]:
        """Other players with a building on ``hexagon``."""
        owners = {self.node_owner[c] for c in HEX_CORNERS[hexagon]}
        return sorted(o for o in owners if o != -1 and o != seat)
