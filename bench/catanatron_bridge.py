"""Our Catan computer players inside catanatron's engine (issue 28): a catanatron ``Player`` that asks our policy.

Runs inside a Python that has catanatron 3.2.1 (``bench/catanatron_arena.py`` builds one) with this tree on
``sys.path``. On every ``decide(game, playable_actions)`` the player rebuilds OUR engine's state from catanatron's
(board, buildings, roads, robber, harbours, hands, development cards, awards, bank, deck, phase), loads it with
``engine/catan/state_json.py``, takes ``view(seat)`` and ``legal_actions(seat)``, keeps the legal actions that
have a catanatron equivalent among ``playable_actions``, asks ``engine.ai.policy_for("catan", level)`` and plays
the catanatron action its choice maps to. A choice that maps to nothing falls back to the first mappable legal
action (then to catanatron's first action) and is counted: ``PlayerStats.fallbacks`` (0 in normal play).

The geometry half of this module (catanatron's cube coordinates, node ids and edge tuples <-> our hexes A..S,
intersections 0..53 and paths 0..71) is pure and imports no catanatron: ``tests/bench`` checks it.

Rules that differ between the engines (catanatron 3.2.1 rules decide; what our player sees follows them):

- Discards on a seven: catanatron 3.2.1 offers one action, ``DISCARD`` with no cards named, and discards half
  the hand AT RANDOM. Our player's discard choice cannot be played; the bridge plays that action without asking
  our policy (counted as ``forced``, not as a fallback). Every player, theirs included, discards at random.
- Trading: catanatron 3.2.1 has no domestic trade. Our offers, replies and direct trades are dropped from the
  legal actions before our policy chooses. Maritime trades are one lot at the player's best rate only
  (catanatron never offers 4:1 when a 3:1 harbour applies); our single-lot bank trades map one to one.
- Development cards: catanatron lets a card be played in the turn it was bought (our engine does not); the
  bridge tells our engine nothing was bought this turn, so our legal actions follow catanatron. Before the roll
  catanatron allows only the knight (ours: any card); after the roll the same cards. Road building is only
  offered while the player could also pay for a road (a catanatron 3.2.1 restriction); its two free roads are
  two decisions in catanatron: the bridge plays the pair our policy chose, in order.
- A knight is ``PLAY_KNIGHT_CARD`` and then a separate ``MOVE_ROBBER`` decision in catanatron; ours is one
  action with the hex and the victim. The bridge plays the card, then asks our policy again in the robber
  phase. catanatron never lets the robber steal nothing when someone there holds a card, and never from a
  player without cards: the same as ours.
- Production: when the bank cannot pay everyone a resource, catanatron pays nobody that resource; ours pays a
  sole claimant what is left. Tiny effect.
- Winning: catanatron checks 10 points (hidden victory point cards counted) after every action, anyone's; ours
  only on the player's own turn. catanatron stops a game at 1000 turns (its ``TURNS_LIMIT``): unfinished.
- Seating: catanatron shuffles seats at random; the arena sets the seating itself (rotated) before the first
  action, which is safe because every seat starts equal.
- Maps: catanatron 3.2.1's random map (random numbers, 6 and 8 may touch; harbours on the standard frame, types
  shuffled). Our engine loads it as an explicit layout.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from math import sqrt
from pathlib import Path
from typing import Any, Final

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this tree's code, whatever is installed

from engine.catan.board import (
    CORNERS,
    EDGE_BY_PAIR,
    EDGE_NAMES,
    HARBOR_SPOT_NODES,
    HEX_CORNERS,
    HEX_NAMES,
)
from engine.catan.longest_road import longest_road
from engine.catan.state_json import position

# -- geometry (pure) ---------------------------------------------------------------------------------------------

# catanatron's names, in our orders.
THEIR_RESOURCES: Final = ("BRICK", "WOOD", "SHEEP", "WHEAT", "ORE")  # ours: brick, lumber, wool, grain, ore
TERRAIN_OF: Final[dict[str | None, str]] = {
    "BRICK": "hills",
    "WOOD": "forest",
    "SHEEP": "pasture",
    "WHEAT": "fields",
    "ORE": "mountains",
    None: "desert",
}
HARBOR_OF: Final[dict[str | None, str]] = {
    "BRICK": "brick",
    "WOOD": "lumber",
    "SHEEP": "wool",
    "WHEAT": "grain",
    "ORE": "ore",
    None: "3:1",
}
RESOURCE_NAME: Final = {"BRICK": "brick", "WOOD": "lumber", "SHEEP": "wool", "WHEAT": "grain", "ORE": "ore"}
THEIR_RESOURCE: Final = {ours: theirs for theirs, ours in RESOURCE_NAME.items()}
# Our development cards (knight, victory_point, road_building, year_of_plenty, monopoly) by catanatron's names.
THEIR_CARDS: Final = ("KNIGHT", "VICTORY_POINT", "ROAD_BUILDING", "YEAR_OF_PLENTY", "MONOPOLY")
CORNER_OF: Final = {
    "NORTH": "N",
    "NORTHEAST": "NE",
    "SOUTHEAST": "SE",
    "SOUTH": "S",
    "SOUTHWEST": "SW",
    "NORTHWEST": "NW",
}


def hex_of_cube(cube: Sequence[int]) -> int:
    """Our hex (0..18) at catanatron's cube coordinate ``(x, y, z)``.

    Both boards have pointed-top hexes, north up. catanatron's ``x`` grows to the north-east and its ``z`` to the
    south (one row per step), so a hex's centre is ``2x + z`` half hex widths right of the centre hex J and
    ``3z`` quarter heights below it: our grid (``board._geometry``) with J at (4, 6).
    """
    x, _, z = cube
    point = (4 + 2 * x + z, 6 + 3 * z)
    row = point[1] // 3
    if point[1] % 3 or not 0 <= row < 5:
        raise ValueError(f"{tuple(cube)} is not a land hex")
    size = (3, 4, 5, 4, 3)[row]
    start = sum((3, 4, 5, 4, 3)[:row])
    column, odd = divmod(point[0] - (5 - size), 2)
    if odd or not 0 <= column < size:
        raise ValueError(f"{tuple(cube)} is not a land hex")
    return start + column


def pixel(cube: Sequence[int]) -> tuple[float, float]:
    """A hex centre in hex widths (for checks only)."""
    x, _, z = cube
    return (x + z / 2, z * sqrt(3) / 2)


@dataclass(frozen=True)
class Geometry:
    """The two boards' names for the same places, from catanatron's land tiles.

    ``tiles`` is ``(cube, {corner name: node id}, resource, number)`` per land tile, ``ports`` is
    ``(resource or None, (node id, node id))`` per harbour.
    """

    hex_at: dict[tuple[int, int, int], int]  # catanatron cube -> our hex
    cube_of: dict[int, tuple[int, int, int]]
    node_at: dict[int, int]  # catanatron node id -> our intersection (0..53)
    their_node: dict[int, int]
    harbors: list[str]  # harbour types in the order of board.HARBOR_SPOTS
    hexes: list[tuple[str, int | None]]  # our layout's hexes in letter order

    def edge(self, pair: Sequence[int]) -> int:
        """Our path (0..71) for catanatron's edge tuple (either order)."""
        return EDGE_BY_PAIR[(self.node_at[pair[0]], self.node_at[pair[1]])]

    def edge_name(self, pair: Sequence[int]) -> str:
        return EDGE_NAMES[self.edge(pair)]


def geometry(
    tiles: Iterable[tuple[Sequence[int], Mapping[str, int], str | None, int | None]],
    ports: Iterable[tuple[str | None, Sequence[int]]],
) -> Geometry:
    hex_at: dict[tuple[int, int, int], int] = {}
    node_at: dict[int, int] = {}
    hexes: list[tuple[str, int | None] | None] = [None] * len(HEX_NAMES)
    for cube, corners, resource, number in tiles:
        h = hex_of_cube(cube)
        key = (cube[0], cube[1], cube[2])
        hex_at[key] = h
        hexes[h] = (TERRAIN_OF[resource], number)
        for corner, node in corners.items():
            ours = HEX_CORNERS[h][CORNERS.index(CORNER_OF[corner])]
            if node_at.setdefault(node, ours) != ours:
                raise ValueError(f"catanatron node {node} is our {node_at[node] + 1} and {ours + 1}")
    if len(hex_at) != len(HEX_NAMES) or len(set(node_at.values())) != len(node_at) or len(node_at) != 54:
        raise ValueError("catanatron's land tiles do not cover our 19 hexes and 54 intersections one to one")
    harbors: list[str | None] = [None] * len(HARBOR_SPOT_NODES)
    for resource, pair in ports:
        ours = tuple(sorted(node_at[n] for n in pair))
        spot = next((i for i, spot in enumerate(HARBOR_SPOT_NODES) if tuple(sorted(spot)) == ours), None)
        if spot is None:
            raise ValueError(f"catanatron's harbour at {pair} is on no harbour spot of ours")
        harbors[spot] = HARBOR_OF[resource]
    if any(h is None for h in harbors) or any(h is None for h in hexes):
        raise ValueError("catanatron's map leaves a hex or a harbour spot of ours empty")
    return Geometry(
        hex_at=hex_at,
        cube_of={h: c for c, h in hex_at.items()},
        node_at=node_at,
        their_node={o: n for n, o in node_at.items()},
        harbors=[h for h in harbors if h is not None],
        hexes=[h for h in hexes if h is not None],
    )


# -- catanatron's state as our engine's state ----------------------------------------------------------------------


def map_geometry(catan_map: Any) -> Geometry:
    """``geometry`` of a catanatron ``CatanMap``."""
    from catanatron.models.map import PORT_DIRECTION_TO_NODEREFS, Port

    tiles = [
        (cube, {ref.value: node for ref, node in tile.nodes.items()}, tile.resource, tile.number)
        for cube, tile in catan_map.land_tiles.items()
    ]
    ports = []
    for tile in catan_map.tiles.values():
        if isinstance(tile, Port):
            a, b = PORT_DIRECTION_TO_NODEREFS[tile.direction]
            ports.append((tile.resource, (tile.nodes[a], tile.nodes[b])))
    return geometry(tiles, ports)


def our_state(game: Any, geo: Geometry, names: Sequence[str]) -> dict[str, Any]:
    """Our engine's state JSON (``state_json`` schema 1) for catanatron's ``game`` now, seat i = catanatron's
    ``state.colors[i]``."""
    from catanatron.models.enums import ActionPrompt, ActionType

    state = game.state
    ps = state.player_state
    n = len(state.colors)
    board = state.board
    node_owner = [-1] * 54
    node_city = [False] * 54
    edge_owner = [-1] * 72
    settlements: list[list[int]] = [[] for _ in range(n)]
    cities: list[list[int]] = [[] for _ in range(n)]
    roads: list[list[int]] = [[] for _ in range(n)]
    for seat, color in enumerate(state.colors):
        built = state.buildings_by_color[color]
        for node in built["SETTLEMENT"]:  # in building order: the set-up road touches the last one
            settlements[seat].append(geo.node_at[node])
        for node in built["CITY"]:
            cities[seat].append(geo.node_at[node])
        for pair in built["ROAD"]:
            e = geo.edge(pair)
            if edge_owner[e] == -1:
                roads[seat].append(e)
                edge_owner[e] = seat
        for node in settlements[seat] + cities[seat]:
            node_owner[node] = seat
        for node in cities[seat]:
            node_city[node] = True
    # The board's own record wins over the per-colour lists where they could disagree.
    for their, (color, kind) in board.buildings.items():
        node = geo.node_at[their]
        node_owner[node] = state.color_to_index[color]
        node_city[node] = kind == "CITY"

    def key(seat: int, name: str) -> Any:
        return ps[f"P{seat}_{name}"]

    hand = [[key(s, f"{r}_IN_HAND") for r in THEIR_RESOURCES] for s in range(n)]
    dev = [[key(s, f"{c}_IN_HAND") for c in THEIR_CARDS] for s in range(n)]
    knights = [key(s, "PLAYED_KNIGHT") for s in range(n)]
    # catanatron leaves the set-up roads out of its count (0 until a road is built in a turn); longer trails agree
    road_length = [max(key(s, "LONGEST_ROAD_LENGTH"), longest_road(s, roads[s], node_owner)) for s in range(n)]
    longest = next((s for s in range(n) if key(s, "HAS_ROAD")), None)
    army = next((s for s in range(n) if key(s, "HAS_ARMY")), None)
    bank_by = dict(zip(("WOOD", "BRICK", "SHEEP", "WHEAT", "ORE"), state.resource_freqdeck, strict=True))
    bank = [bank_by[r] for r in THEIR_RESOURCES]
    deck = [THEIR_CARDS.index(c) for c in state.development_listdeck]
    current = state.current_turn_index
    prompt = state.current_prompt
    rolled = bool(key(current, "HAS_ROLLED"))
    dice = None
    if state.is_initial_build_phase:
        phase = "setup"
    elif prompt == ActionPrompt.MOVE_ROBBER:
        phase = "robber"
    elif prompt == ActionPrompt.DISCARD:
        phase = "discard"
    elif not rolled:
        phase = "roll"
    else:
        phase = "main"
    if rolled:
        last = next((a for a in reversed(state.actions) if a.action_type == ActionType.ROLL), None)
        dice = list(last.value) if last is not None and last.value is not None else None
    setup_roads = sum(len(r) for r in roads) if phase == "setup" else 0
    setup_road = phase == "setup" and prompt == ActionPrompt.BUILD_INITIAL_ROAD
    n_setup_turns = 2 * (n - 1)  # catanatron counts a turn at each set-up hand-over
    turn = 0 if phase == "setup" else max(1, state.num_turns - n_setup_turns + 1)
    owed = [0] * n
    return position(
        names,
        (geo.hexes, geo.harbors),
        rng=random.Random(0),  # catanatron rolls the dice: ours never does
        seed=0,
        setup="snake",
        strict_phases=False,
        points_to_win=game.vps_to_win,
        given=["board", "first_player", "points_to_win"],
        node_owner=node_owner,
        node_city=node_city,
        edge_owner=edge_owner,
        settlements=settlements,
        cities=cities,
        roads=roads,
        hand=hand,
        bank=bank,
        dev=dev,
        bought=[0] * 5,  # catanatron lets a card be played in the turn it was bought
        deck=deck,
        knights=knights,
        road_length=road_length,
        owed=owed,
        dice=dice,
        robber=geo.hex_at[tuple(board.robber_coordinate)],
        longest_holder=longest,
        army_holder=army,
        phase=phase,
        current=current,
        turn=turn,
        setup_step=setup_roads,
        setup_road=setup_road,
        card_played=bool(key(current, "HAS_PLAYED_DEVELOPMENT_CARD_IN_TURN")),
        offers_made=0,
        actions=len(state.actions),
    )


# -- our actions as catanatron's ----------------------------------------------------------------------------------


def their_action(action: Mapping[str, Any], playable: Sequence[Any], geo: Geometry) -> Any | None:
    """The action of ``playable`` (catanatron's) that is ``action`` (ours), or None.

    A knight maps to ``PLAY_KNIGHT_CARD`` and road building to ``PLAY_ROAD_BUILDING`` (their robber move and
    roads are later decisions in catanatron); a robber move in catanatron's robber prompt to ``MOVE_ROBBER``.
    """
    kind = action["type"]
    by_type: dict[str, list[Any]] = {}
    for a in playable:
        by_type.setdefault(a.action_type.value, []).append(a)

    def one(their_type: str, test: Any = None) -> Any | None:
        for a in by_type.get(their_type, []):
            if test is None or test(a.value):
                return a
        return None

    if kind == "roll":
        return one("ROLL")
    if kind == "end_turn":
        return one("END_TURN")
    if kind == "buy":
        return one("BUY_DEVELOPMENT_CARD")
    if kind == "settlement":
        node = geo.their_node[int(action["at"]) - 1]
        return one("BUILD_SETTLEMENT", lambda v: v == node)
    if kind == "city":
        node = geo.their_node[int(action["at"]) - 1]
        return one("BUILD_CITY", lambda v: v == node)
    if kind == "road":
        name = action["at"]
        return one("BUILD_ROAD", lambda v: geo.edge_name(v) == name)
    if kind == "knight":
        return one("PLAY_KNIGHT_CARD")
    if kind == "road_building":
        return one("PLAY_ROAD_BUILDING")
    if kind == "monopoly":
        res = THEIR_RESOURCE[action["resource"]]
        return one("PLAY_MONOPOLY", lambda v: v == res)
    if kind == "year_of_plenty":
        take = sorted(r for name, k in action["take"].items() for r in [THEIR_RESOURCE[name]] * k)
        return one("PLAY_YEAR_OF_PLENTY", lambda v: sorted(v) == take)
    if kind == "bank_trade":
        give, get = action["give"], action["get"]
        if len(give) != 1 or len(get) != 1 or sum(get.values()) != 1:
            return None
        (g_name, g_count), (w_name,) = next(iter(give.items())), list(get)
        g, w = THEIR_RESOURCE[g_name], THEIR_RESOURCE[w_name]
        return one(
            "MARITIME_TRADE",
            lambda v: v[-1] == w and [r for r in v[:-1] if r is not None] == [g] * g_count,
        )
    if kind == "robber":
        cube = geo.cube_of[HEX_NAMES.index(action["hex"])]
        victim = action.get("victim")
        return one("MOVE_ROBBER", lambda v: tuple(v[0]) == cube and _victim_matches(v[1], victim))
    return None


_COLOR_SEATS: dict[Any, int] = {}


def _victim_matches(color: Any, victim: int | None) -> bool:
    if victim is None:
        return color is None
    return color is not None and _COLOR_SEATS.get(color) == victim


# -- the player ------------------------------------------------------------------------------------------------------


@dataclass
class PlayerStats:
    """What one of our players did in one game."""

    decisions: int = 0  # decisions our policy made
    forced: int = 0  # catanatron offered one action only (a random discard, a lone roll): played without asking
    fallbacks: int = 0  # our choice mapped to no catanatron action: the first mappable one was played instead
    unmappable_choices: list[str] = field(default_factory=list)  # the first few, for the report
    # catanatron's playable actions that no legal action of ours maps to, by catanatron's type: how far the two
    # engines' rules and the rebuilt state disagree (expected: none beyond the differences listed above)
    theirs_unmatched: dict[str, int] = field(default_factory=dict)
    # our legal actions with no catanatron equivalent (dropped before our policy chooses), by our type
    ours_dropped: dict[str, int] = field(default_factory=dict)
    seconds: list[float] = field(default_factory=list)  # per decision, state building included


def make_player(color: Any, level: str, seed: int) -> Any:
    """A catanatron ``Player`` of ``color`` that plays our ``level``."""
    from catanatron.models.enums import ActionType
    from catanatron.models.player import Player

    from engine.ai import policy_for
    from engine.ai.base import Situation
    from engine.catan.game import Catan

    policy = policy_for("catan", level)
    domestic = frozenset({"offer", "accept", "decline", "counter", "confirm", "withdraw", "trade"})

    class OurPlayer(Player):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__(color)
            self.stats = PlayerStats()
            self.level = level
            self._geo: Geometry | None = None
            self._map: Any = None
            self._planned_roads: list[str] = []  # the second road of a road building card in play
            self._step = 0

        def decide(self, game: Any, playable_actions: Sequence[Any]) -> Any:
            playable = list(playable_actions)
            if len(playable) == 1:
                self.stats.forced += 1
                return playable[0]
            started = time.perf_counter()
            state = game.state
            if self._map is not state.board.map:
                self._map = state.board.map
                self._geo = map_geometry(state.board.map)
            geo = self._geo
            assert geo is not None
            _COLOR_SEATS.clear()
            _COLOR_SEATS.update(state.color_to_index)
            seat = state.color_to_index[self.color]
            if state.is_road_building:
                chosen = self._free_road(game, geo, seat, playable)
            else:
                chosen = self._ask(game, geo, seat, playable)
            self.stats.seconds.append(time.perf_counter() - started)
            return chosen

        def _ask(self, game: Any, geo: Geometry, seat: int, playable: list[Any]) -> Any:
            names = [c.value for c in game.state.colors]
            ours = Catan.from_json(our_state(game, geo, names))
            legal = ours.legal_actions(seat)
            for a in legal:
                if a["type"] in domestic:
                    self.stats.ours_dropped["domestic trade"] = self.stats.ours_dropped.get("domestic trade", 0) + 1
            legal = [a for a in legal if a["type"] not in domestic]
            mapped = [(a, their_action(a, playable, geo)) for a in legal]
            for a, t in mapped:
                if t is None:
                    self.stats.ours_dropped[a["type"]] = self.stats.ours_dropped.get(a["type"], 0) + 1
            mapped = [(a, t) for a, t in mapped if t is not None]
            matched = {id(t) for _, t in mapped}
            for t in playable:
                if id(t) not in matched:
                    name = t.action_type.value
                    self.stats.theirs_unmatched[name] = self.stats.theirs_unmatched.get(name, 0) + 1
            if not mapped:
                return self._fallback(playable, f"no legal action of ours maps ({ours.phase})")
            self._step += 1
            rng = random.Random(seed * 1_000_003 + seat * 7919 + self._step)
            situation = Situation(game="catan", seat=seat, view=ours.view(seat), legal=[a for a, _ in mapped], rng=rng)
            choice = policy.choose(situation)
            self.stats.decisions += 1
            target = their_action(choice, playable, geo)
            if target is None:
                return self._fallback([t for _, t in mapped], f"{choice}")
            if choice["type"] == "road_building":
                self._planned_roads = list(choice["roads"])
            return target

        def _free_road(self, game: Any, geo: Geometry, seat: int, playable: list[Any]) -> Any:
            """A free road of a road building card: the next road of the pair our policy chose."""
            self.stats.decisions += 1
            while self._planned_roads:
                name = self._planned_roads.pop(0)
                road = next((a for a in playable if geo.edge_name(a.value) == name), None)
                if road is not None:
                    return road
            return self._fallback(playable, "road building: no planned road left")

        def _fallback(self, options: list[Any], why: str) -> Any:
            self.stats.fallbacks += 1
            if len(self.stats.unmappable_choices) < 5:
                self.stats.unmappable_choices.append(why)
            return options[0]

    del ActionType
    return OurPlayer()
