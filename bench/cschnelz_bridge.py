"""Our Carcassonne computer players inside cschnelz/CarcassoneAI's engine (issue 28): an agent of that project that
asks our policy.

cschnelz/CarcassoneAI (https://github.com/cschnelz/CarcassoneAI, MIT) is an independent Python implementation of
base Carcassonne for two players with its own agents: ``GreedyAgent`` (every legal move scored by the score
difference as if the game ended after it, its own farms and unfinished features included), ``Greedy2`` (a two-ply
search of the next tiles over four samples of the stack) and ``MCTS_Saver`` (determinised Monte Carlo tree search,
50 samples of the stack x 250 iterations, with a heuristic evaluation: the project's strongest). Its rules decide
our games there (``bench/carcassonne_cschnelz_arena.py``).

On every decision of ours the agent rebuilds OUR engine's state from theirs (tiles, followers, scores, followers
left, the drawn tile, the tiles left), loads it with ``engine/carcassonne/state_json.py``, asks our policy for the
placement from ``view(seat)``, applies it to the rebuilt game and asks again for the follower decision, and plays
the one action of theirs that is both (their turn is one action: tile, rotation and meeple). A choice with no
equal among their legal actions (a follower spot their rules refuse) falls back to the same placement without a
follower, then to their first action, and is counted (``PlayerStats.fallbacks``).

The geometry half of this module (their tiles, rotations and features <-> our tile kinds, rotations and segments)
is pure and imports nothing of theirs: ``tests/bench/test_cschnelz_bridge.py`` checks it against a copy of their
tile set's form.

Where the two engines' rules differ (theirs decide; our player sees our engine's idea of the position):

- Sides and half-edges are numbered alike (N=0 clockwise; half-edges from the north-west corner), a rotation is
  clockwise in both, and y grows southward in both, so cells keep their coordinates. Each tile kind's reference
  orientation differs: their tiles are matched to ours by their features (``tile_table``).
- The start tile: theirs is the first of a shuffled stack; the arena puts one of their four D tiles first (the
  rulebook's start tile, and the one our engine assumes), the rest shuffled by the game's seed.
- The end: their game ends after 70 placements, so one tile of the 71 left after the start tile is never played;
  our player expects to play it (a small end effect, theirs decides).
- Scoring: their own (a city 2 a tile and a pennant 2, halved when unfinished at the end; farms 3 a completed city;
  a tie on a feature pays both). Our player values positions by our engine's rules, which are the same in those.
- A meeple: their placement rule looks only at the features the new tile touches directly, as ours does.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from engine.ai import policy_for
from engine.ai.base import Situation
from engine.carcassonne.game import Carcassonne
from engine.carcassonne.options import FOLLOWERS
from engine.carcassonne.tiles import BASE_TILES, ORIENTED

# A tile or segment by what it is made of: ("city", sides, pennant), ("road", sides), ("field", half-edges) and
# ("cloister",) for each segment, in no order.
Shape = frozenset[tuple[Any, ...]]

THEIR_KIND: Final = {"City": "city", "Road": "road", "Grass": "field", "Chapel": "cloister"}
# Their FeatType enum's names, as our segment kinds.
THEIR_FEATURE: Final = {"CITY": "city", "ROAD": "road", "GRASS": "field", "CHAPEL": "cloister"}
PLAYERS: Final = 2
LAST_TURN: Final = 71  # their game ends once ``state.turn`` reaches 72: turns 2..71 place a tile


# -- geometry (pure) -----------------------------------------------------------------------------------------------


def part(kind: str, edges: Iterable[int], rotation: int, pennant: bool = False) -> tuple[Any, ...]:
    """One segment's shape after ``rotation`` quarter turns clockwise (sides, or half-edges for a field)."""
    if kind == "cloister":
        return ("cloister",)
    step, modulo = (2, 8) if kind == "field" else (1, 4)
    turned = tuple(sorted((e + step * rotation) % modulo for e in edges))
    return (kind, turned, pennant) if kind == "city" else (kind, turned)


def their_shape(features: Sequence[Mapping[str, Any]], rotation: int = 0) -> Shape:
    """The shape of one tile of their tile set (its JSON form) turned ``rotation`` quarter turns."""
    parts = []
    for feature in features:
        ((name, spec),) = feature.items()
        if name not in THEIR_KIND:  # "Garden" on two tiles: their importer skips it too
            continue
        kind = THEIR_KIND[name]
        edges = spec.get("Edges") or [] if isinstance(spec, Mapping) else []
        pennant = isinstance(spec, Mapping) and spec.get("Shield") == "True"
        parts.append(part(kind, edges, rotation, pennant))
    return frozenset(parts)


def our_shape(kind: str, rotation: int) -> Shape:
    oriented = ORIENTED[kind][rotation]
    return frozenset(
        part(seg.kind, sides, 0, seg.pennants > 0)
        for seg, sides in zip(oriented.tile.segments, oriented.segment_sides, strict=True)
    )


_OUR_SHAPES: Final = {(kind, r): our_shape(kind, r) for kind in BASE_TILES for r in range(4)}


def tile_table(tiles: Sequence[Mapping[str, Any]]) -> dict[int, tuple[str, int]]:
    """Their tile id -> (our tile kind, our rotation of their reference orientation). Every one of their tiles must
    be one of ours (ValueError otherwise)."""
    table = {}
    for tile in tiles:
        shape = their_shape(tile["features"])
        found = next(((k, r) for (k, r), s in _OUR_SHAPES.items() if s == shape), None)
        if found is None:
            raise ValueError(f"their tile {tile['id']} ({tile.get('img-code')}) is none of ours: {sorted(shape)}")
        table[int(tile["id"])] = found
    return table


def segment_of(kind: str, rotation: int, feature: str, edges: Iterable[int]) -> int:
    """Our segment index, in ``kind`` turned ``rotation``, of their feature (``feature``: their FeatType name) on
    ``edges`` (ValueError if it has none)."""
    ours = THEIR_FEATURE[feature]
    wanted = part(ours, edges, 0)[:2] if ours != "cloister" else ("cloister",)
    oriented = ORIENTED[kind][rotation]
    for index, (seg, sides) in enumerate(zip(oriented.tile.segments, oriented.segment_sides, strict=True)):
        if seg.kind == ours and (ours == "cloister" or (ours, tuple(sides)) == wanted):
            return index
    raise ValueError(f"no {ours} on {sorted(edges)} in {kind} turned {rotation}")


def empty_state(players: Sequence[str]) -> dict[str, Any]:
    """Our engine's state JSON for a base game of two (no River, no Tower), the board and the stack empty: the
    engine's own form, filled in from theirs by ``our_state``."""
    data = Carcassonne.new(players, {"river": False, "tower": False}).to_json()
    return {**data, "stack": [], "drawn": None, "tiles": [], "followers": [], "last": [None] * len(players)}


# -- their state as ours (reads their objects; imports nothing of theirs) -------------------------------------------


def our_tile(table: Mapping[int, tuple[str, int]], tile: Any) -> tuple[str, int]:
    """(our kind, our rotation) of one of their oriented ``Tile`` objects."""
    kind, reference = table[int(tile.id)]
    rotation = (reference + int(tile.orientation)) % 4
    return kind, rotation


def our_state(state: Any, table: Mapping[int, tuple[str, int]], players: Sequence[str]) -> dict[str, Any]:
    """Our engine's JSON state of their ``State``, at the start of the current player's turn."""
    data = empty_state(players)
    cells = dict(state.board.board)
    order = sorted(cells, key=lambda xy: xy != (0, 0))  # the start tile first, then in the order they were laid
    for x, y in order:
        kind, rotation = our_tile(table, cells[(x, y)].tile)
        data["tiles"].append([kind, x, y, rotation * 90])
    for (x, y), meeple in state.board.meepled.items():
        kind, rotation = our_tile(table, cells[(x, y)].tile)
        feature = meeple.featureObject
        segment = segment_of(kind, rotation, feature.featType.name, feature.edges or [])
        data["followers"].append([int(meeple.id), x, y, segment])
    data["stack"] = [table[int(t[0].id)][0] for t in (state.tileList[i] for i in state.order)]
    data["drawn"] = table[int(state.currentTile[0].id)][0]
    data["current"] = int(state.currentPlayer)
    data["turn"] = int(state.turn)
    data["supply"] = [int(p.meepleCount) for p in state.players]
    data["scores"] = [int(p.score) for p in state.players]
    return data


def matches(action: Any, table: Mapping[int, tuple[str, int]], place: Mapping[str, Any], on: int | None) -> bool:
    """Whether their ``Action`` lays our ``place`` (cell and shape: a symmetric tile's rotations are one) and puts
    a meeple on our segment ``on`` (None: no meeple)."""
    if (action.x, action.y) != (place["x"], place["y"]):
        return False
    kind, rotation = our_tile(table, action.tile)
    if kind != place["tile"] or _OUR_SHAPES[(kind, rotation)] != _OUR_SHAPES[(kind, place["rotation"] // 90)]:
        return False
    if not action.meeple:
        return on is None
    if on is None:
        return False
    feature = action.feature
    try:
        return segment_of(kind, place["rotation"] // 90, feature.featType.name, feature.edges or []) == on
    except ValueError:
        return False


# -- the agent ---------------------------------------------------------------------------------------------------


@dataclass
class PlayerStats:
    decisions: int = 0
    fallbacks: int = 0
    mismatches: int = 0  # turns whose rebuilt followers do not add up to 7 a player (their engine's count)
    seconds: list[float] = field(default_factory=list)  # per turn: both our decisions, the state rebuilt included
    refused: list[str] = field(default_factory=list)  # the first few choices with no equal among theirs


class OurAgent:
    """A cschnelz agent (``getResponse(validActions, game, maxPlayer)``) that plays our policy ``level``."""

    def __init__(self, level: str, table: Mapping[int, tuple[str, int]], seed: int, clock: Callable[[], float]):
        self.policy = policy_for("carcassonne", level)
        self.level = level
        self.table = table
        self.seed = seed
        self.clock = clock
        self.stats = PlayerStats()
        self.turns = 0

    def getResponse(self, validActions: Sequence[Any], game: Any = None, maxPlayer: int | None = None) -> Any:
        started = self.clock()
        state = game.state
        seat = int(state.currentPlayer)
        data = our_state(state, self.table, [f"seat{s}" for s in range(PLAYERS)])
        # Every follower is in the supply or on the board; their engine's count once in a while says otherwise.
        if any(data["supply"][s] + sum(f[0] == s for f in data["followers"]) != FOLLOWERS for s in range(PLAYERS)):
            self.stats.mismatches += 1
        ours = Carcassonne.from_json(data)
        self.turns += 1
        place = self._choose(ours, seat, 0)
        if place["type"] != "place":
            return self._fallback(validActions, f"not a placement: {place}")
        ours.apply(place)
        on: int | None = None
        if ours.phase == "follower" and ours.current == seat:
            follower = self._choose(ours, seat, 1)
            if follower["type"] == "follower":
                assert ours.placed is not None
                oriented = ours.board.cells[ours.placed][0]
                on = oriented.lookup[follower["on"]]
        chosen = next((a for a in validActions if matches(a, self.table, place, on)), None)
        if chosen is None:
            chosen = next((a for a in validActions if matches(a, self.table, place, None)), None)
            chosen = self._fallback(validActions, f"{place} on segment {on}", chosen)
        self.stats.seconds.append(self.clock() - started)
        return chosen

    def _choose(self, ours: Carcassonne, seat: int, step: int) -> dict[str, Any]:
        rng = random.Random((self.seed * 1_000_003 + seat * 7919 + self.turns * 2 + step) & 0xFFFF_FFFF_FFFF)
        situation = Situation("carcassonne", seat, ours.view(seat), ours.legal_actions(seat), rng)
        self.stats.decisions += 1
        return dict(self.policy.choose(situation))

    def _fallback(self, options: Sequence[Any], why: str, instead: Any = None) -> Any:
        self.stats.fallbacks += 1
        if len(self.stats.refused) < 5:
            self.stats.refused.append(why)
        return instead if instead is not None else options[0]
