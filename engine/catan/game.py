"""A game of Catan: turn flow, the actions of the replay format plus live trade offers, and the state's JSON form.

Every action handler validates completely before it changes anything, so a RuleError leaves the game as it was.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Final, Self

from engine.catan import longest_road as lr
from engine.catan.board import (
    EDGE_BY_NAME,
    EDGE_NAMES,
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
    edge_of,
    hex_index,
    node_of,
)
from engine.catan.maps import Layout, beginner_layout, layout_json, random_layout
from engine.catan.options import OPTION_NAMES, Options, parse_options
from engine.catan.policy import legal_actions, random_action, timeout_action
from engine.catan.state import (
    BANK_SIZE,
    CARD_COST,
    CARD_INDEX,
    CARDS,
    CITIES,
    CITY_COST,
    DECK_COUNTS,
    DISCARD,
    KNIGHT,
    LARGEST_ARMY,
    MAIN,
    MONOPOLY,
    OVER,
    ROAD_BUILDING,
    ROAD_COST,
    ROADS,
    ROBBER,
    ROLL,
    SETTLEMENT_COST,
    SETTLEMENTS,
    SETUP,
    VICTORY_POINT,
    YEAR_OF_PLENTY,
    Offer,
)
from engine.catan.state_json import dump, load
from engine.catan.trading import (
    Bundle,
    bundle_json,
    check_domestic,
    check_maritime,
    harbor_rates,
    holds,
    parse_bundle,
)
from engine.catan.view import player_view
from engine.errors import RuleError
from engine.game import Action, Applied, Event

HARBOR_NODES: Final = frozenset(n for pair in HARBOR_SPOT_NODES for n in pair)

# Beginner set-up (rules section 4): (other settlement, starred settlement, roads) per colour.
BEGINNER_PIECES: Final = {
    "red": (9, 29, ("5-9", "23-29")),
    "blue": (42, 40, ("37-42", "35-40")),
    "white": (26, 18, ("20-26", "13-18")),
    "orange": (15, 41, ("10-15", "36-41")),
}
BEGINNER_COLOURS: Final = {4: ("red", "blue", "white", "orange"), 3: ("blue", "white", "orange")}

# Fields each action type may carry besides "type" and "player".
FIELDS: Final[dict[str, frozenset[str]]] = {
    "settlement": frozenset({"at"}),
    "road": frozenset({"at"}),
    "city": frozenset({"at"}),
    "roll": frozenset({"dice"}),
    "discard": frozenset({"cards"}),
    "robber": frozenset({"hex", "victim", "stolen"}),
    "buy": frozenset({"card"}),
    "knight": frozenset({"hex", "victim", "stolen"}),
    "road_building": frozenset({"roads"}),
    "year_of_plenty": frozenset({"take"}),
    "monopoly": frozenset({"resource"}),
    "bank_trade": frozenset({"give", "get"}),
    "trade": frozenset({"with", "give", "get"}),
    "end_turn": frozenset(),
    "offer": frozenset({"to", "give", "get"}),
    "accept": frozenset({"offer"}),
    "decline": frozenset({"offer"}),
    "counter": frozenset({"offer", "give", "get"}),
    "confirm": frozenset({"offer", "with"}),
    "withdraw": frozenset({"offer"}),
}
_KEYS: Final = {kind: fields | {"type", "player"} for kind, fields in FIELDS.items()}
# Actions a player may take back: building, maritime trade and the steps of a trade offer reveal nothing. Not the
# roll, a purchase or a theft (chance), a played development card or a discard (hidden cards shown), a completed
# trade (another player's cards moved too) or the end of the turn (the turn passes on).
UNDOABLE: Final = frozenset(
    {"settlement", "road", "city", "bank_trade", "offer", "accept", "decline", "counter", "withdraw"}
)
# Chance outcomes a live action must leave to the engine (a player supplying them could cheat).
OUTCOMES: Final = {"roll": "dice", "robber": "stolen", "knight": "stolen", "buy": "card"}


def _seat_field(action: Mapping[str, Any], name: str, players: int, what: str) -> int:
    value = action.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < players:
        raise RuleError(
            "malformed_action",
            f"{what} needs {name!r} as a seat number from 0 to {players - 1}",
            action=what,
            field=name,
        )
    return value


def _offer_id(action: Mapping[str, Any], what: str) -> int:
    value = action.get("offer")
    if not isinstance(value, int) or isinstance(value, bool):
        raise RuleError("malformed_action", f"{what} needs the offer's number in 'offer'", action=what, field="offer")
    return value


class Catan:
    """The Catan base game for 3 or 4 players; see ``shared/rules/catan.md``."""

    GAME: ClassVar[str] = "catan"
    SCHEMA: ClassVar[int] = 1
    MIN_PLAYERS: ClassVar[int] = 3
    MAX_PLAYERS: ClassVar[int] = 4
    OPTIONS: ClassVar[frozenset[str]] = OPTION_NAMES
    # Actions of the live game that a replay file leaves out (a completed trade is recorded as ``trade``).
    LIVE_ONLY: Final = frozenset({"offer", "accept", "decline", "counter", "confirm", "withdraw"})

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

    # -- creation ------------------------------------------------------------------------------------------

    @classmethod
    def new(cls, players: Sequence[str], options: Mapping[str, Any] | None = None, seed: int = 0) -> Self:
        n = len(players)
        if not cls.MIN_PLAYERS <= n <= cls.MAX_PLAYERS:
            raise RuleError(
                "player_count",
                f"Catan needs {cls.MIN_PLAYERS} to {cls.MAX_PLAYERS} players, not {n}",
                count=n,
                min=cls.MIN_PLAYERS,
                max=cls.MAX_PLAYERS,
            )
        if options is not None and not isinstance(options, Mapping):
            raise RuleError("bad_option", "options must be an object")
        opts = parse_options(options or {}, n)
        rng = random.Random(seed)
        if isinstance(opts.board, tuple):
            layout = opts.board
        elif opts.board == "beginner":
            layout = beginner_layout()
        else:
            layout = random_layout(rng, "spiral" if opts.board == "random" else "random")
        # Seat 0 starts unless told otherwise (replay format): the bot draws the first player and records it.
        first = opts.first_player if opts.first_player is not None else 0
        game = cls(players, opts, seed, layout, first)
        game.rng = rng
        rest = [c for i, count in enumerate(DECK_COUNTS) for c in [i] * count]
        top = [CARD_INDEX[c] for c in opts.dev_deck or []]
        for c in top:
            rest.remove(c)
        rng.shuffle(rest)
        game.deck = rest + top[::-1]
        if opts.setup == "beginner":
            game._beginner_setup()
        return game

    def _beginner_setup(self) -> None:
        for seat, colour in enumerate(BEGINNER_COLOURS[self.n]):
            other, starred, roads = BEGINNER_PIECES[colour]
            for node in (other - 1, starred - 1):
                self._place_settlement(seat, node, [])
            for name in roads:
                self._place_road(seat, EDGE_BY_NAME[name], [])
            self._give_start_resources(seat, starred - 1, [])
        self._start_turn([])

    # -- the decision now ----------------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.phase == OVER

    def pending(self) -> list[dict[str, Any]]:
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
        out: list[dict[str, Any]] = [{"seat": self.current, "decision": "main"}]
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

    def current_seat(self) -> int | None:
        return None if self.phase == OVER else self.current

    def replies_owed_to(self, seat: int) -> list[int]:
        """Seats that have not yet answered an open offer made by ``seat``."""
        return sorted({s for offer in self.offers if offer["from"] == seat for s in offer["waiting"]})

    def undoable(self, action: Mapping[str, Any]) -> bool:
        return action.get("type") in UNDOABLE

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

    # -- scores --------------------------------------------------------------------------------------------

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
            "game": self.GAME,
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

    # -- actions -------------------------------------------------------------------------------------------

    def apply(self, action: Mapping[str, Any], *, replay: bool = False) -> Applied:
        if type(action) is not dict and not isinstance(action, Mapping):
            raise RuleError("malformed_action", "an action must be a JSON object")
        kind: str = action.get("type")  # type: ignore[assignment]  # checked just below
        handler = _HANDLERS.get(kind) if type(kind) is str else None
        if handler is None:
            raise RuleError(
                "unknown_action",
                f"unknown Catan action type {kind!r} (known: {', '.join(FIELDS)})",
                type=str(kind),
            )
        if self.phase == OVER:
            raise RuleError("game_over", "the game is over: no more actions", type=kind)
        seat = action.get("player")
        if type(seat) is not int or not 0 <= seat < self.n:
            seat = _seat_field(action, "player", self.n, kind)
        if not _KEYS[kind].issuperset(action):
            key = next(k for k in action if k not in _KEYS[kind])
            raise RuleError(
                "malformed_action",
                f"{kind} has no field {key!r} (fields: {', '.join(sorted(FIELDS[kind])) or 'none'})",
                action=kind,
                field=str(key),
            )
        if not replay:
            outcome = OUTCOMES.get(kind)
            if outcome is not None and outcome in action:
                raise RuleError(
                    "outcome_not_allowed",
                    f"{kind}: {outcome!r} is decided by the game, leave it out",
                    action=kind,
                    field=outcome,
                )
        events: list[Event] = []
        recorded = handler(self, seat, action, replay, events)
        if recorded["type"] not in self.LIVE_ONLY:  # count what a replay file holds, so both results agree
            self.actions += 1
        return Applied(recorded, events)

    # -- checks shared by handlers ---------------------------------------------------------------------------

    def _own_turn(self, seat: int) -> None:
        if seat != self.current:
            raise RuleError(
                "not_your_turn",
                f"it is seat {self.current}'s turn, not seat {seat}'s",
                player=seat,
                current=self.current,
            )

    def _main_phase(self, seat: int, what: str) -> None:
        """The active player after the roll with no discard or robber move outstanding."""
        self._own_turn(seat)
        phase = self.phase
        if phase == MAIN:
            return
        if phase == ROLL:
            raise RuleError("roll_first", f"roll the dice before {what}", action=what)
        if phase in (DISCARD, ROBBER):
            raise RuleError(
                "resolve_seven_first",
                f"the discards and the robber move come before {what}",
                action=what,
            )
        raise RuleError("wrong_phase", f"{what} is not possible during set-up", action=what, phase=phase)

    def _trade_phase(self, seat: int, what: str) -> None:
        if self.phase == MAIN and self.options.strict_phases and self.built:
            raise RuleError(
                "trading_after_building",
                "with strict_phases all trading comes before building: this turn's trading is over",
                action=what,
            )

    def _afford(self, seat: int, cost: Sequence[int], what: str) -> None:
        if not holds(self.hand[seat], cost):
            raise RuleError(
                "cannot_afford",
                f"{what} costs {_describe(cost)}; seat {seat} has {_describe(self.hand[seat]) or 'no cards'}",
                action=what,
                cost=bundle_json(cost),
            )

    def _has_road_at(self, seat: int, node: int) -> bool:
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
            if self._has_road_at(seat, node):
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

    def _settlement_problem(self, seat: int, node: int, setup: bool) -> None:
        if self.node_owner[node] != -1:
            raise RuleError("occupied", f"intersection {node + 1} already has a building", at=node + 1)
        if self.crowded[node]:
            raise RuleError(
                "distance_rule",
                f"intersection {node + 1} is next to a building: settlements need a free intersection all round",
                at=node + 1,
            )
        if not setup and not self._has_road_at(seat, node):
            raise RuleError(
                "not_connected", f"a settlement must touch one of your roads; {node + 1} does not", at=node + 1
            )

    # -- mutations -----------------------------------------------------------------------------------------

    def _place_settlement(self, seat: int, node: int, events: list[Event]) -> None:
        self.node_owner[node] = seat
        self.settlements[seat].append(node)
        for h in NODE_HEXES[node]:
            self.hex_buildings[h].append(node)
        self.crowded[node] += 1
        for m in NODE_NEIGHBORS[node]:
            self.crowded[m] += 1
        self.reach[seat].add(node)
        if node in HARBOR_NODES:
            self.rates[seat] = harbor_rates(self.harbors, self.node_owner, seat)
        # Another player's road through this intersection is broken here.
        broken = {self.edge_owner[e] for e in NODE_EDGES[node]} - {-1, seat}
        for other in broken:
            self.road_length[other] = lr.longest_road(other, self.roads[other], self.node_owner)
        if broken:
            self._award_longest_road(events)

    def _place_road(self, seat: int, edge: int, events: list[Event]) -> None:
        a, b = EDGE_NODES[edge]
        at_a, at_b = self._has_road_at(seat, a), self._has_road_at(seat, b)
        roads = self.roads[seat]
        if at_a and at_b:
            roads.append(edge)
            length = lr.longest_road(seat, roads, self.node_owner)
        elif at_a or at_b:
            # The usual case, a road extended at one end: only trails from the joint can get longer.
            length = lr.extended(seat, roads, self.node_owner, a if at_a else b, self.road_length[seat])
            roads.append(edge)
        else:
            length = max(self.road_length[seat], 1)
            roads.append(edge)
        self.edge_owner[edge] = seat
        self.reach[seat].add(a)
        self.reach[seat].add(b)
        if length != self.road_length[seat]:
            self.road_length[seat] = length
            self._award_longest_road(events)

    def _award_longest_road(self, events: list[Event]) -> None:
        holder = lr.award(self.longest_holder, self.road_length)
        if holder != self.longest_holder:
            events.append(
                {
                    "type": "award",
                    "card": "longest_road",
                    "from": self.longest_holder,
                    "to": holder,
                    "length": max(self.road_length),
                }
            )
            self.longest_holder = holder

    def _give_start_resources(self, seat: int, node: int, events: list[Event]) -> None:
        gains = [0] * 5
        for h in NODE_HEXES[node]:
            res = self.hex_resource[h]
            if res is not None and self.bank[res] > gains[res]:
                gains[res] += 1
        for r in range(5):
            self.hand[seat][r] += gains[r]
            self.bank[r] -= gains[r]
        events.append({"type": "start_resources", "player": seat, "cards": bundle_json(gains)})

    def _pay(self, seat: int, cost: Sequence[int]) -> None:
        hand, bank = self.hand[seat], self.bank
        for r in range(5):
            if cost[r]:
                hand[r] -= cost[r]
                bank[r] += cost[r]

    def _start_turn(self, events: list[Event]) -> None:
        self.phase = ROLL
        self.dice = None
        self.turn += 1
        self.card_played = False
        self.built = False
        self.bought = [0] * 5
        self.offers_made = 0
        events.append({"type": "turn_started", "player": self.current, "turn": self.turn})
        self._check_win(events)

    def _check_win(self, events: list[Event]) -> None:
        seat = self.current
        if self.points(seat) >= self.options.points_to_win:
            self.phase = OVER
            self.winner = seat
            self.offers = []
            self.owed = [0] * self.n
            events.append(
                {
                    "type": "game_over",
                    "winner": seat,
                    "scores": [self.points(s) for s in range(self.n)],
                    "breakdown": [self.breakdown(s) for s in range(self.n)],
                    "victory_point_cards": [self.dev[s][VICTORY_POINT] for s in range(self.n)],
                }
            )

    def _prune_offers(self, events: list[Event]) -> None:
        """Offers whose maker can no longer pay become void; acceptors who can no longer pay drop out."""
        kept = []
        for offer in self.offers:
            if not holds(self.hand[offer["from"]], offer["give"]):
                events.append(_offer_event("offer_void", offer))
                continue
            offer["accepted"] = [s for s in offer["accepted"] if holds(self.hand[s], offer["get"])]
            kept.append(offer)
        self.offers = kept

    def _after_main_action(self, events: list[Event]) -> None:
        if self.offers:
            if self.options.strict_phases and self.built:
                self.offers = []
            else:
                self._prune_offers(events)
        self._check_win(events)

    # -- handlers: building --------------------------------------------------------------------------------

    def _settlement(self, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
        node = node_of(action.get("at"))
        if self.phase == SETUP:
            self._own_turn(seat)
            if self.setup_road:
                raise RuleError(
                    "setup_expects_road",
                    f"place the road touching your settlement at {self.last_setup_node() + 1} first",
                    at=self.last_setup_node() + 1,
                )
            self._settlement_problem(seat, node, True)
            self._place_settlement(seat, node, events)
            events.append({"type": "built", "player": seat, "piece": "settlement", "at": node + 1})
            if self.setup_step >= self.n:
                self._give_start_resources(seat, node, events)
            self.setup_road = True
        else:
            self._main_phase(seat, "building")
            if len(self.settlements[seat]) >= SETTLEMENTS:
                raise RuleError("no_pieces_left", f"seat {seat} has no settlement left in supply", piece="settlement")
            self._afford(seat, SETTLEMENT_COST, "a settlement")
            self._settlement_problem(seat, node, False)
            self._pay(seat, SETTLEMENT_COST)
            self.built = True
            self._place_settlement(seat, node, events)
            events.append({"type": "built", "player": seat, "piece": "settlement", "at": node + 1})
            self._after_main_action(events)
        return {"player": seat, "type": "settlement", "at": node + 1}

    def _road(self, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
        edge = edge_of(action.get("at"))
        if self.phase == SETUP:
            self._own_turn(seat)
            if not self.setup_road:
                raise RuleError("setup_expects_settlement", "place a settlement first, then its road")
            last = self.last_setup_node()
            if last not in EDGE_NODES[edge]:
                raise RuleError(
                    "setup_road_must_touch",
                    f"the set-up road must touch the settlement just placed at {last + 1}",
                    at=EDGE_NAMES[edge],
                    settlement=last + 1,
                )
            if self.edge_owner[edge] != -1:
                raise RuleError("occupied", f"path {EDGE_NAMES[edge]} already has a road", at=EDGE_NAMES[edge])
            self._place_road(seat, edge, events)
            events.append({"type": "built", "player": seat, "piece": "road", "at": EDGE_NAMES[edge]})
            self.setup_road = False
            self.setup_step += 1
            if self.setup_step == len(self.setup_order):
                self.current = self.first_player
                self._start_turn(events)
            else:
                self.current = self.setup_order[self.setup_step]
        else:
            self._main_phase(seat, "building")
            if len(self.roads[seat]) >= ROADS:
                raise RuleError("no_pieces_left", f"seat {seat} has no road left in supply", piece="road")
            self._afford(seat, ROAD_COST, "a road")
            problem = self.road_problem(seat, edge)
            if problem is not None:
                raise problem
            self._pay(seat, ROAD_COST)
            self.built = True
            self._place_road(seat, edge, events)
            events.append({"type": "built", "player": seat, "piece": "road", "at": EDGE_NAMES[edge]})
            self._after_main_action(events)
        return {"player": seat, "type": "road", "at": EDGE_NAMES[edge]}

    def _city(self, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
        node = node_of(action.get("at"))
        self._main_phase(seat, "building")
        if len(self.cities[seat]) >= CITIES:
            raise RuleError("no_pieces_left", f"seat {seat} has no city left in supply", piece="city")
        if self.node_owner[node] != seat or self.node_city[node]:
            raise RuleError(
                "not_own_settlement", f"a city replaces one of your settlements; {node + 1} is not one", at=node + 1
            )
        self._afford(seat, CITY_COST, "a city")
        self._pay(seat, CITY_COST)
        self.built = True
        self.settlements[seat].remove(node)
        self.cities[seat].append(node)
        self.node_city[node] = True
        events.append({"type": "built", "player": seat, "piece": "city", "at": node + 1})
        self._after_main_action(events)
        return {"player": seat, "type": "city", "at": node + 1}

    def _buy(self, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
        self._main_phase(seat, "buying a development card")
        self._afford(seat, CARD_COST, "a development card")
        if not self.deck:
            raise RuleError("deck_empty", "the development deck is empty")
        if "card" in action:
            name = action["card"]
            card = CARD_INDEX.get(name) if isinstance(name, str) else None
            if card is None:
                raise RuleError("unknown_card", f"{name!r} is not a development card ({', '.join(CARDS)})")
            if card not in self.deck:
                raise RuleError("card_not_in_deck", f"the deck holds no {name} card any more", card=name)
            # Take the copy nearest the top so an exported game replays with the same deck.
            index = len(self.deck) - 1 - self.deck[::-1].index(card)
            del self.deck[index]
        else:
            card = self.deck.pop()
        self._pay(seat, CARD_COST)
        self.dev[seat][card] += 1
        self.bought[card] += 1
        self.built = True
        events.append({"type": "bought", "player": seat, "card": CARDS[card], "private": [seat], "secret": ["card"]})
        self._after_main_action(events)
        return {"player": seat, "type": "buy", "card": CARDS[card]}

    # -- handlers: dice and robber ---------------------------------------------------------------------------

    def _roll(self, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
        self._own_turn(seat)
        if self.phase != ROLL:
            if self.phase == MAIN or self.phase in (DISCARD, ROBBER):
                raise RuleError("already_rolled", "the dice were already rolled this turn")
            raise RuleError("wrong_phase", "no dice during set-up", phase=self.phase)
        if "dice" in action:
            dice = action["dice"]
            if (
                not isinstance(dice, list)
                or len(dice) != 2
                or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice)
            ):
                raise RuleError("bad_dice", "dice must be two whole numbers from 1 to 6, such as [3, 4]")
            d1, d2 = dice
            # A recorded roll still uses up the generator's two draws, so a game rebuilt from its log equals
            # the live game, generator included.
            self.rng.random()
            self.rng.random()
        else:
            rand = self.rng.random
            d1 = int(rand() * 6) + 1
            d2 = int(rand() * 6) + 1
        total = d1 + d2
        self.dice = [d1, d2]
        events.append({"type": "rolled", "player": seat, "dice": [d1, d2], "total": total})
        if total == 7:
            owed = [sum(h) // 2 if sum(h) > 7 else 0 for h in self.hand]
            if any(owed):
                self.owed = owed
                self.phase = DISCARD
                events.append({"type": "must_discard", "counts": owed})
            else:
                self.phase = ROBBER
        else:
            self._produce(total, events)
            self.phase = MAIN
        return {"player": seat, "type": "roll", "dice": [d1, d2]}

    def _produce(self, total: int, events: list[Event]) -> None:
        node_owner, node_city, robber, buildings = self.node_owner, self.node_city, self.robber, self.hex_buildings
        claims: dict[int, list[int]] = {}
        for h, res in self.producers[total]:
            if h == robber or not buildings[h]:
                continue
            per = claims.get(res)
            if per is None:
                per = claims[res] = [0] * self.n
            for c in buildings[h]:
                per[node_owner[c]] += 2 if node_city[c] else 1
        gains: list[dict[str, int]] = [{} for _ in range(self.n)]
        short: list[str] = []
        bank, hand = self.bank, self.hand
        for res, per in claims.items():
            name = RESOURCES[res]
            if sum(per) > bank[res]:
                claimants = [s for s in range(self.n) if per[s]]
                if len(claimants) > 1 or not bank[res]:
                    short.append(name)
                    continue
                per[claimants[0]] = bank[res]  # a sole claimant takes what is left
            for s in range(self.n):
                k = per[s]
                if k:
                    hand[s][res] += k
                    bank[res] -= k
                    gains[s][name] = k
        events.append({"type": "produced", "total": total, "gains": gains, "shortage": short})

    def _discard(self, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
        if self.phase != DISCARD or not self.owed[seat]:
            raise RuleError("no_discard_owed", f"seat {seat} has no cards to discard now", player=seat)
        cards = parse_bundle(action.get("cards"), "cards", "discard")
        owed = self.owed[seat]
        if sum(cards) != owed:
            raise RuleError(
                "discard_wrong_count",
                f"seat {seat} must discard exactly {owed} cards, not {sum(cards)}",
                player=seat,
                count=owed,
                given=sum(cards),
            )
        if not holds(self.hand[seat], cards):
            raise RuleError("cards_not_held", f"seat {seat} does not hold {_describe(cards)}", player=seat)
        self._pay(seat, cards)
        self.owed[seat] = 0
        events.append({"type": "discarded", "player": seat, "cards": bundle_json(cards)})
        if not any(self.owed):
            self.phase = ROBBER
        return {"player": seat, "type": "discard", "cards": bundle_json(cards)}

    def robber_victims(self, seat: int, hexagon: int) -> list[int]:
        """Other players with a building on ``hexagon``."""
        owners = {self.node_owner[c] for c in HEX_CORNERS[hexagon]}
        return sorted(o for o in owners if o != -1 and o != seat)

    def _check_robber(self, seat: int, action: Mapping[str, Any], what: str) -> tuple[int, int | None, int | None]:
        """(hex, victim, stolen resource or None when drawn/none), all validated."""
        target = hex_index(action.get("hex"))
        if target == self.robber:
            raise RuleError(
                "robber_must_move",
                f"the robber must move to another hex than {HEX_NAMES[target]}",
                hex=HEX_NAMES[target],
            )
        candidates = self.robber_victims(seat, target)
        victim = action.get("victim")
        if victim is None:
            if any(sum(self.hand[c]) for c in candidates):
                raise RuleError(
                    "victim_required",
                    f"choose whom to steal from on {HEX_NAMES[target]}: seat(s) {_seats(candidates)}",
                    hex=HEX_NAMES[target],
                    seats=candidates,
                )
        elif not isinstance(victim, int) or isinstance(victim, bool) or victim not in candidates:
            raise RuleError(
                "victim_not_adjacent",
                f"seat {victim} has no building on {HEX_NAMES[target]} to steal from"
                + (f" (choose {_seats(candidates)})" if candidates else " (nobody can be robbed there)"),
                hex=HEX_NAMES[target],
                victim=str(victim),
                seats=candidates,
            )
        stolen: int | None = None
        if "stolen" in action:
            name = action["stolen"]
            empty = victim is None or not sum(self.hand[victim])
            if name is None:
                if not empty:
                    raise RuleError("stolen_mismatch", f"{what}: the victim holds cards, so a card is stolen")
            else:
                index = RESOURCE_INDEX.get(name) if isinstance(name, str) else None
                if index is None or victim is None or not self.hand[victim][index]:
                    raise RuleError(
                        "stolen_mismatch", f"{what}: the victim holds no {name} to steal", resource=str(name)
                    )
                stolen = index
        return target, victim, stolen

    def _move_robber(
        self, seat: int, target: int, victim: int | None, stolen: int | None, events: list[Event]
    ) -> str | None:
        self.robber = target
        events.append({"type": "robber_moved", "player": seat, "hex": HEX_NAMES[target]})
        if victim is None:
            return None
        hand = self.hand[victim]
        count = sum(hand)
        if not count:
            events.append({"type": "stolen", "thief": seat, "victim": victim, "resource": None})
            return None
        draw = self.rng.random()  # drawn even when the outcome is recorded: see _roll
        if stolen is None:
            pick = int(draw * count)
            stolen = 0
            while pick >= hand[stolen]:
                pick -= hand[stolen]
                stolen += 1
        hand[stolen] -= 1
        self.hand[seat][stolen] += 1
        name = RESOURCES[stolen]
        events.append(
            {
                "type": "stolen",
                "thief": seat,
                "victim": victim,
                "resource": name,
                "private": [seat, victim],
                "secret": ["resource"],
            }
        )
        return name

    def _robber(self, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
        self._own_turn(seat)
        if self.phase != ROBBER:
            if self.phase == DISCARD:
                raise RuleError("discards_pending", "the robber moves once every discard is made")
            raise RuleError("wrong_phase", "the robber moves only after a 7 (or with a knight card)")
        target, victim, stolen = self._check_robber(seat, action, "robber")
        name = self._move_robber(seat, target, victim, stolen, events)
        self.phase = MAIN
        return {"player": seat, "type": "robber", "hex": HEX_NAMES[target], "victim": victim, "stolen": name}

    # -- handlers: development cards -------------------------------------------------------------------------

    def _check_play(self, seat: int, card: int) -> None:
        self._own_turn(seat)
        name = CARDS[card]
        if self.phase not in (ROLL, MAIN):
            if self.phase in (DISCARD, ROBBER):
                raise RuleError(
                    "resolve_seven_first", "the discards and the robber move come before any card", action=name
                )
            raise RuleError("wrong_phase", "no development cards during set-up", action=name)
        if self.card_played:
            raise RuleError("one_card_per_turn", "only one knight or progress card may be played per turn", card=name)
        held = self.dev[seat][card]
        if not held:
            raise RuleError("no_such_card", f"seat {seat} holds no {name} card", card=name)
        if held <= self.bought[card]:
            raise RuleError(
                "card_bought_this_turn", f"a {name} card cannot be played in the turn it was bought", card=name
            )

    def _knight(self, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
        self._check_play(seat, KNIGHT)
        target, victim, stolen = self._check_robber(seat, action, "knight")
        self._use_card(seat, KNIGHT, events)
        self.knights[seat] += 1
        name = self._move_robber(seat, target, victim, stolen, events)
        holder = self.army_holder
        if (
            self.knights[seat] >= LARGEST_ARMY
            and holder != seat
            and (holder is None or self.knights[seat] > self.knights[holder])
        ):
            events.append(
                {"type": "award", "card": "largest_army", "from": holder, "to": seat, "knights": self.knights[seat]}
            )
            self.army_holder = seat
        self._after_main_action(events)
        return {"player": seat, "type": "knight", "hex": HEX_NAMES[target], "victim": victim, "stolen": name}

    def _use_card(self, seat: int, card: int, events: list[Event]) -> None:
        self.dev[seat][card] -= 1
        self.card_played = True
        events.append({"type": "played", "player": seat, "card": CARDS[card]})

    def _road_building(self, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
        self._check_play(seat, ROAD_BUILDING)
        raw = action.get("roads")
        if not isinstance(raw, list) or not 1 <= len(raw) <= 2:
            raise RuleError("malformed_action", "road_building needs 'roads': a list of 1 or 2 paths")
        edges = [edge_of(r) for r in raw]
        left = ROADS - len(self.roads[seat])
        if not left:
            raise RuleError("no_pieces_left", f"seat {seat} has no road left in supply", piece="road")
        if len(edges) > left:
            raise RuleError("no_pieces_left", f"seat {seat} has only {left} road left", piece="road")
        problem = self.road_problem(seat, edges[0])
        if problem is not None:
            raise problem
        # Try the first road, look at the second, and take the first back before raising anything.
        first = edges[0]
        added = [n for n in EDGE_NODES[first] if n not in self.reach[seat]]
        self.edge_owner[first] = seat
        self.reach[seat].update(added)
        try:
            second_problem = self.road_problem(seat, edges[1]) if len(edges) == 2 else None
            more = bool(self.legal_roads(seat)) and left >= 2
        finally:
            self.edge_owner[first] = -1
            self.reach[seat].difference_update(added)
        if second_problem is not None:
            raise second_problem
        if len(edges) == 1 and more:
            raise RuleError(
                "road_building_count", "road building places 2 roads while a second one can legally be placed"
            )
        self._use_card(seat, ROAD_BUILDING, events)
        for e in edges:
            self._place_road(seat, e, events)
            events.append({"type": "built", "player": seat, "piece": "road", "at": EDGE_NAMES[e], "free": True})
        self._after_main_action(events)
        return {"player": seat, "type": "road_building", "roads": [EDGE_NAMES[e] for e in edges]}

    def _year_of_plenty(self, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
        self._check_play(seat, YEAR_OF_PLENTY)
        take = parse_bundle(action.get("take"), "take", "year_of_plenty")
        available = sum(self.bank)
        if not available:
            raise RuleError("bank_empty", "the bank holds no cards to take")
        want = min(2, available)
        if sum(take) != want:
            raise RuleError(
                "year_of_plenty_count", f"year of plenty takes exactly {want} card(s) from the bank", count=want
            )
        for r in range(5):
            if take[r] > self.bank[r]:
                raise RuleError(
                    "bank_empty",
                    f"the bank holds only {self.bank[r]} {RESOURCES[r]}",
                    resource=RESOURCES[r],
                    count=self.bank[r],
                )
        self._use_card(seat, YEAR_OF_PLENTY, events)
        for r in range(5):
            self.hand[seat][r] += take[r]
            self.bank[r] -= take[r]
        events.append({"type": "took", "player": seat, "cards": bundle_json(take)})
        self._after_main_action(events)
        return {"player": seat, "type": "year_of_plenty", "take": bundle_json(take)}

    def _monopoly(self, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
        self._check_play(seat, MONOPOLY)
        name = action.get("resource")
        res = RESOURCE_INDEX.get(name) if isinstance(name, str) else None
        if res is None:
            raise RuleError(
                "unknown_resource", f"{name!r} is not a resource ({', '.join(RESOURCES)})", resource=str(name)
            )
        self._use_card(seat, MONOPOLY, events)
        taken = [0] * self.n
        for s in range(self.n):
            if s != seat:
                taken[s] = self.hand[s][res]
                self.hand[s][res] = 0
        self.hand[seat][res] += sum(taken)
        events.append({"type": "monopoly", "player": seat, "resource": RESOURCES[res], "taken": taken})
        self._after_main_action(events)
        return {"player": seat, "type": "monopoly", "resource": RESOURCES[res]}

    # -- handlers: trading ---------------------------------------------------------------------------------

    def _bank_trade(self, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
        self._main_phase(seat, "trading")
        self._trade_phase(seat, "bank_trade")
        give = parse_bundle(action.get("give"), "give", "bank_trade")
        get = parse_bundle(action.get("get"), "get", "bank_trade")
        check_maritime(give, get, self.rates[seat])
        if not holds(self.hand[seat], give):
            raise RuleError("cannot_afford", f"seat {seat} does not hold {_describe(give)}", player=seat)
        for r in range(5):
            if get[r] > self.bank[r]:
                raise RuleError(
                    "bank_empty",
                    f"the bank holds only {self.bank[r]} {RESOURCES[r]}",
                    resource=RESOURCES[r],
                    count=self.bank[r],
                )
        hand, bank = self.hand[seat], self.bank
        for r in range(5):
            hand[r] += get[r] - give[r]
            bank[r] += give[r] - get[r]
        events.append({"type": "bank_traded", "player": seat, "give": bundle_json(give), "get": bundle_json(get)})
        self._after_main_action(events)
        return {"player": seat, "type": "bank_trade", "give": bundle_json(give), "get": bundle_json(get)}

    def _exchange(self, active: int, other: int, give: Bundle, get: Bundle, events: list[Event]) -> Action:
        """The active player gives ``give`` to ``other`` and receives ``get``; returns the recorded trade."""
        # A completed trade settles every open offer of the same terms between the same two players, so a replay
        # (which records only the trade) leaves the same offers open as the live game did.
        self.offers = [
            offer
            for offer in self.offers
            if not (
                (
                    offer["from"] == active
                    and offer["to"] in (None, other)
                    and offer["give"] == give
                    and offer["get"] == get
                )
                or (offer["from"] == other and offer["to"] == active and offer["give"] == get and offer["get"] == give)
            )
        ]
        a, o = self.hand[active], self.hand[other]
        for r in range(5):
            a[r] += get[r] - give[r]
            o[r] += give[r] - get[r]
        events.append(
            {"type": "traded", "player": active, "with": other, "give": bundle_json(give), "get": bundle_json(get)}
        )
        self._after_main_action(events)
        return {"player": active, "type": "trade", "with": other, "give": bundle_json(give), "get": bundle_json(get)}

    def _check_trade_parties(self, active: int, other: int, give: Bundle, get: Bundle) -> None:
        check_domestic(give, get)
        if not holds(self.hand[active], give):
            raise RuleError("cannot_afford", f"seat {active} does not hold {_describe(give)}", player=active)
        if not holds(self.hand[other], get):
            raise RuleError("cannot_afford", f"seat {other} does not hold {_describe(get)}", player=other)

    def _trade(self, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
        if not replay:
            raise RuleError(
                "trade_needs_offer",
                "a domestic trade happens by an offer and its confirmation (offer, accept, confirm)",
            )
        self._main_phase(seat, "trading")
        self._trade_phase(seat, "trade")
        other = _seat_field(action, "with", self.n, "trade")
        if other == seat:
            raise RuleError("trade_not_allowed", "a player cannot trade with themselves")
        give = parse_bundle(action.get("give"), "give", "trade")
        get = parse_bundle(action.get("get"), "get", "trade")
        self._check_trade_parties(seat, other, give, get)
        return self._exchange(seat, other, give, get, events)

    def _find_offer(self, action: Mapping[str, Any], what: str) -> Offer:
        ident = _offer_id(action, what)
        for offer in self.offers:
            if offer["id"] == ident:
                return offer
        raise RuleError("unknown_offer", f"there is no open offer number {ident}", offer=ident)

    def _offer_phase(self, seat: int, what: str) -> None:
        if self.phase != MAIN:
            raise RuleError(
                "trade_not_allowed",
                "trade offers are made only in the active player's turn after the roll",
                action=what,
            )
        self._trade_phase(seat, what)

    def _recipient(self, seat: int, offer: Offer) -> None:
        if seat not in self.recipients(offer):
            raise RuleError("not_offer_recipient", f"offer {offer['id']} is not made to seat {seat}", offer=offer["id"])

    def _new_offer(self, seat: int, to: int | None, give: Bundle, get: Bundle, events: list[Event]) -> Offer:
        offer: Offer = {
            "id": self.next_offer,
            "from": seat,
            "to": to,
            "give": give,
            "get": get,
            "accepted": [],
            "declined": [],
            "waiting": [],
        }
        offer["waiting"] = [s for s in self.recipients(offer) if s != self.current]
        self.next_offer += 1
        if seat == self.current:
            self.offers_made += 1
        self.offers.append(offer)
        events.append(_offer_event("offer_made", offer))
        return offer

    def _offer(self, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
        self._offer_phase(seat, "offer")
        to = action.get("to")
        if to is not None:
            to = _seat_field(action, "to", self.n, "offer")
            if to == seat:
                raise RuleError("trade_not_allowed", "a player cannot trade with themselves")
        if seat != self.current:
            if to is not None and to != self.current:
                raise RuleError(
                    "trade_not_allowed",
                    f"trades are only with the active player (seat {self.current}), never between two others",
                    current=self.current,
                )
            to = self.current
        give = parse_bundle(action.get("give"), "give", "offer")
        get = parse_bundle(action.get("get"), "get", "offer")
        check_domestic(give, get)
        if not holds(self.hand[seat], give):
            raise RuleError("cannot_afford", f"seat {seat} does not hold {_describe(give)}", player=seat)
        self._new_offer(seat, to, give, get, events)
        return {"player": seat, "type": "offer", "to": to, "give": bundle_json(give), "get": bundle_json(get)}

    def _accept(self, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
        self._offer_phase(seat, "accept")
        offer = self._find_offer(action, "accept")
        self._recipient(seat, offer)
        if not holds(self.hand[seat], offer["get"]):
            raise RuleError("cannot_afford", f"seat {seat} does not hold {_describe(offer['get'])}", player=seat)
        if seat == self.current:
            # The active player accepting a proposal completes the trade at once.
            return self._exchange(seat, offer["from"], offer["get"], offer["give"], events)
        if seat in offer["waiting"]:
            offer["waiting"].remove(seat)
        if seat not in offer["accepted"]:
            offer["accepted"].append(seat)
        if seat in offer["declined"]:
            offer["declined"].remove(seat)
        events.append({"type": "offer_accepted", "player": seat, "offer": offer["id"], **_privacy(offer)})
        return {"player": seat, "type": "accept", "offer": offer["id"]}

    def _decline(self, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
        self._offer_phase(seat, "decline")
        offer = self._find_offer(action, "decline")
        self._recipient(seat, offer)
        if seat in offer["waiting"]:
            offer["waiting"].remove(seat)
        if seat in offer["accepted"]:
            offer["accepted"].remove(seat)
        if seat not in offer["declined"]:
            offer["declined"].append(seat)
        events.append({"type": "offer_declined", "player": seat, "offer": offer["id"], **_privacy(offer)})
        return {"player": seat, "type": "decline", "offer": offer["id"]}

    def _counter(self, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
        self._offer_phase(seat, "counter")
        offer = self._find_offer(action, "counter")
        self._recipient(seat, offer)
        give = parse_bundle(action.get("give"), "give", "counter")
        get = parse_bundle(action.get("get"), "get", "counter")
        check_domestic(give, get)
        if not holds(self.hand[seat], give):
            raise RuleError("cannot_afford", f"seat {seat} does not hold {_describe(give)}", player=seat)
        if seat in offer["waiting"]:
            offer["waiting"].remove(seat)
        if seat in offer["accepted"]:
            offer["accepted"].remove(seat)
        if seat not in offer["declined"]:
            offer["declined"].append(seat)
        self._new_offer(seat, offer["from"], give, get, events)
        return {
            "player": seat,
            "type": "counter",
            "offer": offer["id"],
            "give": bundle_json(give),
            "get": bundle_json(get),
        }

    def _confirm(self, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
        self._own_turn(seat)
        self._offer_phase(seat, "confirm")
        offer = self._find_offer(action, "confirm")
        other = _seat_field(action, "with", self.n, "confirm")
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
        self._check_trade_parties(seat, other, give, get)
        return self._exchange(seat, other, give, get, events)

    def _withdraw(self, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
        offer = self._find_offer(action, "withdraw")
        if offer["from"] != seat:
            raise RuleError(
                "not_your_offer", f"offer {offer['id']} was made by seat {offer['from']}", offer=offer["id"]
            )
        self.offers.remove(offer)
        events.append({"type": "offer_withdrawn", "player": seat, "offer": offer["id"], **_privacy(offer)})
        return {"player": seat, "type": "withdraw", "offer": offer["id"]}

    def _end_turn(self, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
        self._main_phase(seat, "ending the turn")
        self.offers = []
        self.current = (seat + 1) % self.n
        self._start_turn(events)
        return {"player": seat, "type": "end_turn"}

    # -- the bot's helpers, views and JSON live in their own modules -----------------------------------------

    def legal_actions(self, seat: int) -> list[Action]:
        return legal_actions(self, seat)

    def automatic_action(self) -> Action | None:
        """Catan has no move the host makes for a player: every decision is somebody's."""
        return None

    def random_action(self, rng: random.Random) -> Action:
        return random_action(self, rng)

    def timeout_action(self, seat: int) -> Action:
        """The host's move for an idle seat (``policy.timeout_action``)."""
        return timeout_action(self, seat)

    def view(self, seat: int | None) -> dict[str, Any]:
        return player_view(self, seat)

    def to_json(self) -> dict[str, Any]:
        return dump(self)

    def copy(self) -> Self:
        """An independent copy (same state and generator): a JSON round trip is cheap for Catan's flat state."""
        return self.from_json(self.to_json())

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        game = cls.__new__(cls)
        load(game, data)
        return game


def _describe(bundle: Sequence[int]) -> str:
    return ", ".join(f"{n} {RESOURCES[i]}" for i, n in enumerate(bundle) if n)


def _seats(seats: Sequence[int]) -> str:
    return ", ".join(str(s) for s in seats)


def _privacy(offer: Offer) -> dict[str, Any]:
    """A private offer's events are routed only to its two parties."""
    if offer["to"] is None:
        return {}
    return {"private": sorted({offer["from"], offer["to"]}), "secret": ["*"]}


def _offer_event(kind: str, offer: Offer) -> Event:
    return {
        "type": kind,
        "offer": offer["id"],
        "player": offer["from"],
        "to": offer["to"],
        "give": bundle_json(offer["give"]),
        "get": bundle_json(offer["get"]),
        **_privacy(offer),
    }


Handler = Callable[[Catan, int, Mapping[str, Any], bool, list[Event]], Action]
_HANDLERS: Final[dict[str, Handler]] = {
    "settlement": Catan._settlement,
    "road": Catan._road,
    "city": Catan._city,
    "roll": Catan._roll,
    "discard": Catan._discard,
    "robber": Catan._robber,
    "buy": Catan._buy,
    "knight": Catan._knight,
    "road_building": Catan._road_building,
    "year_of_plenty": Catan._year_of_plenty,
    "monopoly": Catan._monopoly,
    "bank_trade": Catan._bank_trade,
    "trade": Catan._trade,
    "end_turn": Catan._end_turn,
    "offer": Catan._offer,
    "accept": Catan._accept,
    "decline": Catan._decline,
    "counter": Catan._counter,
    "confirm": Catan._confirm,
    "withdraw": Catan._withdraw,
}
