"""The ``standard`` Carcassonne computer player: one-ply search on its own model of the game, scored by a
heuristic estimate of every seat's final score.

It sees only ``situation.view`` and ``situation.legal``. From the view it rebuilds a game (``model.game_from_view``,
the stack order sampled with its own generator) and tries each placement on a copy. A position is worth, to each
seat: its score, plus for every feature it holds the majority of, the points expected when the game ends (the
chance of completion comes from how many unseen tiles fit each open cell), plus the followers it has in supply or
will get back, which are worth more early and nothing at the end. The player maximises its own worth minus the best
opponent's, so completing, joining, stealing and blocking all fall out of one comparison.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Final

from engine.ai.base import Situation
from engine.carcassonne.board import AROUND, CLOISTER, DELTA, Board, cell, fitting_rotations, in_reach
from engine.carcassonne.game import Carcassonne
from engine.carcassonne.model import game_from_view, unseen_tiles
from engine.carcassonne.scoring import completed_points, incomplete_points, majority
from engine.carcassonne.state import RANSOM_PRICE
from engine.carcassonne.tiles import FIELD, ORIENTED, TILES
from engine.game import Action

# Each open cell a road or city still needs may grow it further instead of closing it.
STAY_SMALL: Final = 0.8
# A follower that comes back later is worth less than one in hand now.
LATER: Final = 0.6
# Worth of one follower in supply: FOLLOWER_RATE points per own turn left, capped; the last ones kept count most.
FOLLOWER_RATE: Final = 0.3
FOLLOWER_CAP: Final = 3.5
KEEP: Final = (1.8, 1.4, 1.15, 1.0, 0.85, 0.7, 0.6, 0.5, 0.5, 0.5, 0.5, 0.5)
# A prisoner held may be ransomed back for 3 points; a tower piece is a spent capture chance.
PRISONER_WORTH: Final = 1.0
TOWER_PIECE_COST: Final = 0.3
# Share of its worth a new follower keeps when an opponent's tower could capture it next turn.
EXPOSED_KEEP: Final = 0.6
# A ransom must gain at least this much margin: the estimate is rough and the points are certain.
RANSOM_MARGIN: Final = 0.5


@dataclass
class Outlook:
    """Facts fixed for one decision: who decides and what the unseen tiles can still do."""

    me: int
    players: int
    unseen: Counter[str]  # tiles left to draw that can go anywhere (River tiles only continue the river)
    small_city: bool
    farm_points: int
    left: int = 0
    draws: float = 1.0  # own turns left
    follower: float = 0.0  # what one more follower in supply is worth on average now
    fits: dict[int, int] = field(default_factory=dict)  # empty-cell pattern -> unseen tiles fitting it
    chances: dict[int, float] = field(default_factory=dict)  # empty-cell pattern -> chance it is filled (``filled``)

    def __post_init__(self) -> None:
        self.left = sum(self.unseen.values())
        self.draws = max(1.0, self.left / self.players)
        self.follower = min(FOLLOWER_CAP, FOLLOWER_RATE * self.left / self.players)

    def fitting(self, pattern: int) -> int:
        found = self.fits.get(pattern)
        if found is None:
            found = sum(n for tid, n in self.unseen.items() if fitting_rotations(tid, pattern))
            self.fits[pattern] = found
        return found

    def filled(self, board: Board, empty: int) -> float:
        """Chance that the empty cell gets a tile before the end (0 when no unseen tile fits it)."""
        pattern = board.open.get(empty, 0)
        chance = self.chances.get(pattern)
        if chance is None:
            k = self.fitting(pattern)
            chance = self.chances[pattern] = 1.0 - (1.0 - k / self.left) ** self.draws if k else 0.0
        return chance

    def keep(self, supply: int) -> float:
        """Worth of the next follower for a seat that has ``supply`` in hand."""
        return self.follower * KEEP[min(supply, len(KEEP) - 1)]

    def in_hand(self, supply: int) -> float:
        return self.follower * (sum(KEEP[:supply]) + max(0, supply - len(KEEP)) * KEEP[-1])


def outlook_for(situation: Situation, model: Carcassonne) -> Outlook:
    unseen = Counter({t: n for t, n in unseen_tiles(situation.view).items() if TILES[t].expansion != "river"})
    opts = model.options
    return Outlook(
        me=situation.seat,
        players=len(model.players),
        unseen=unseen,
        small_city=opts.small_city,
        farm_points=4 if opts.farm_scoring == "first_edition" else 3,
    )


# -- what one feature is worth -------------------------------------------------------------------------------


def open_cells(board: Board, root: int) -> set[int]:
    """Empty cells that a road or city's open edges face."""
    found: set[int] = set()
    cells, find = board.cells, board.find  # the search's most called function: names looked up once
    for c in board.tiles[root]:
        o, base = cells[c]
        for side, seg in enumerate(o.side_segment):
            if seg >= 0:
                empty = c + DELTA[side]
                if empty not in cells and find(base + seg) == root:
                    found.add(empty)
    return found


def completion(board: Board, root: int, outlook: Outlook) -> float:
    """Chance a road or city gets completed (0 if an open cell can never be filled)."""
    if board.open_edges[root] == 0:
        return 1.0
    chance = 1.0
    for empty in open_cells(board, root):
        chance *= outlook.filled(board, empty) * STAY_SMALL
        if not chance:
            break
    return chance


def feature_outlook(board: Board, root: int, outlook: Outlook) -> tuple[float, float]:
    """(points expected at the end for the majority, chance its followers come back) for a road, city or cloister."""
    kind = board.kind[root]
    if kind == CLOISTER:
        c = board.node_cell[root]
        chances = [outlook.filled(board, c + d) for d in AROUND if c + d not in board.cells]
        back = 1.0
        for p in chances:
            back *= p
        return 1 + (8 - len(chances)) + sum(chances), back
    p = completion(board, root, outlook)
    done = completed_points(board, root, outlook.small_city)
    return p * done + (1 - p) * incomplete_points(board, root), p


def farm_outlook(board: Board, root: int, outlook: Outlook, cities: dict[int, float]) -> float:
    """Points expected for a farm: per bordering city, its farm points times its chance of completion."""
    total = 0.0
    for city in {board.find(a) for a in board.adj[root]}:
        p = cities.get(city)
        if p is None:
            p = cities[city] = completion(board, city, outlook)
        total += outlook.farm_points * p
    return total


# -- what a position is worth --------------------------------------------------------------------------------

# Cells whose features a tile placed at the centre can change: the 5x5 square around it (a feature changes when
# it joins the tile or when one of its open cells, or a cloister's surroundings, is next to it).
NEAR: Final = tuple(dx * 1024 + dy for dx in range(-2, 3) for dy in range(-2, 3))


@dataclass
class Holdings:
    """Per seat: expected points from features held, and followers that come home at the end of this turn."""

    points: list[float]
    home: list[int]

    def add(self, other: Holdings, sign: int) -> Holdings:
        return Holdings(
            [a + sign * b for a, b in zip(self.points, other.points, strict=True)],
            [a + sign * b for a, b in zip(self.home, other.home, strict=True)],
        )


def held_roots(board: Board) -> dict[int, list[int]]:
    """Features with followers: root -> seats of its followers."""
    held: dict[int, list[int]] = {}
    find = board.find
    for node, seat in board.followers.items():
        held.setdefault(find(node), []).append(seat)
    return held


def leaders(seats: list[int]) -> list[int]:
    """The seats with most followers on a feature (all of them on a tie)."""
    if len(seats) == 1:
        return seats
    return majority(seats)[0]


def holdings(board: Board, held: dict[int, list[int]], outlook: Outlook, cities: dict[int, float]) -> Holdings:
    """What the features in ``held`` are worth to each seat."""
    points = [0.0] * outlook.players
    home = [0] * outlook.players
    for root, seats in held.items():
        winners = leaders(seats)
        if board.kind[root] == FIELD:
            value, back = farm_outlook(board, root, outlook, cities), 0.0
        else:
            value, back = feature_outlook(board, root, outlook)
        for w in winners:
            points[w] += value
        for s in seats:
            if back == 1.0:
                home[s] += 1  # scored at the end of this turn: as good as in hand
            else:
                points[s] += back * LATER * outlook.follower
    return Holdings(points, home)


def total(model: Carcassonne, held: Holdings, outlook: Outlook) -> list[float]:
    """Each seat's estimated final score: score, features held, followers in hand, prisoners."""
    return [
        model.scores[s]
        + held.points[s]
        + outlook.in_hand(model.supply[s] + held.home[s])
        + PRISONER_WORTH * sum(model.prisoners[s])
        for s in range(outlook.players)
    ]


def worth(model: Carcassonne, outlook: Outlook) -> list[float]:
    """Each seat's estimated final score in this position (the model is in or just after a placement)."""
    return total(model, holdings(model.board, held_roots(model.board), outlook, {}), outlook)


def margin(values: list[float], me: int) -> float:
    """Own worth against the strongest opponent's."""
    return values[me] - max(v for s, v in enumerate(values) if s != me)


# -- the follower decision -----------------------------------------------------------------------------------


def exposed(model: Carcassonne, c: int, me: int) -> bool:
    """Whether an opponent with a tower piece could build on an open tower and capture a follower at cell ``c``."""
    board = model.board
    if not any(pieces for seat, pieces in enumerate(model.pieces) if seat != me):
        return False
    return any(in_reach(t, c, h + 1) for t, h in board.towers.items() if t not in board.tops)


def spot_gain(model: Carcassonne, node: int, outlook: Outlook) -> float:
    """What putting one of ``me``'s followers on the (unoccupied) feature of ``node`` adds to ``me``'s worth."""
    board = model.board
    me = outlook.me
    root = board.find(node)
    supply = model.supply[me]
    # A follower an opponent's tower can reach may be taken before it scores.
    safe = EXPOSED_KEEP if exposed(model, board.node_cell[node], me) else 1.0
    if board.kind[root] == FIELD:
        return safe * farm_outlook(board, root, outlook, {}) - outlook.keep(supply - 1)
    points, back = feature_outlook(board, root, outlook)
    if back == 1.0:
        return points  # completed now: the follower is home again at the end of the turn
    return safe * (points + back * LATER * outlook.follower) - outlook.keep(supply - 1)


def best_follower(model: Carcassonne, outlook: Outlook) -> tuple[float, str | None]:
    """The best follower spot on the tile just placed, by gain over passing (None: passing is best)."""
    if model.placed is None or not model.supply[outlook.me]:
        return 0.0, None
    board = model.board
    o, base = board.cells[model.placed]
    best, choice = 0.0, None
    for index, name in enumerate(o.names):
        node = base + index
        if board.count[board.find(node)]:
            continue
        gain = spot_gain(model, node, outlook)
        if gain > best:
            best, choice = gain, name
    return best, choice


def tower_gain(model: Carcassonne, action: Action, outlook: Outlook, base: float) -> float:
    """Margin gained by building on a tower and making its capture, tried on a copy of the model."""
    capture = action.get("capture")
    if capture is None:
        return -TOWER_PIECE_COST
    trial = model.copy()
    board = trial.board
    me = outlook.me
    c = cell(capture["x"], capture["y"])
    if capture["on"] == "tower":
        owner = board.tops.pop(c)
    else:
        owner = board.remove_follower(board.node_of(c, board.cells[c][0].lookup[capture["on"]]))
    if owner == me:
        trial.supply[me] += 1
    elif trial.prisoners[owner][me]:
        trial.prisoners[owner][me] -= 1
        trial.supply[me] += 1
        trial.supply[owner] += 1
    else:
        trial.prisoners[me][owner] += 1
    return margin(worth(trial, outlook), me) - base - TOWER_PIECE_COST


def choose_after_placing(situation: Situation, model: Carcassonne, outlook: Outlook) -> Action:
    """Follower, tower capture or pass, whichever gains the most margin."""
    me = outlook.me
    base = margin(worth(model, outlook), me)
    gain, spot = best_follower(model, outlook)
    best: Action = {"player": me, "type": "pass"}
    if spot is not None and {"player": me, "type": "follower", "on": spot} in situation.legal:
        best = {"player": me, "type": "follower", "on": spot}
    for action in situation.legal:
        if action["type"] == "tower":
            g = tower_gain(model, action, outlook, base)
            if g > gain:
                gain, best = g, dict(action)
    return best


# -- the placement decision ----------------------------------------------------------------------------------


@dataclass
class Before:
    """The position before placing, evaluated once: its features held, their worth, the completion chances of
    cities bordering farms, and which cities each farm borders."""

    model: Carcassonne
    roots: dict[int, list[int]]
    held: Holdings
    cities: dict[int, float]
    farms: dict[int, set[int]]
    # Per cell a tile may go to: what placing there can change (``Around``), worked out for its first placement
    around: dict[int, Around] = field(default_factory=dict)


@dataclass
class Around:
    """What a tile placed at one cell can change, the same for each of its rotations: the cells near it, the farms
    whose worth it may change, the worth before of the features it may change, and the completion chances of the
    cities it cannot reach."""

    near: set[int]
    farms: set[int]
    was: Holdings
    far_cities: dict[int, float]


def around(before: Before, c: int, outlook: Outlook) -> Around:
    found = before.around.get(c)
    if found is None:
        was = before.model.board
        near = {c + d for d in NEAR}
        farms = {
            f for f, cities in before.farms.items() if not all(near.isdisjoint(was.tiles[r]) for r in (f, *cities))
        }
        old = {r: seats for r, seats in before.roots.items() if r in farms or not near.isdisjoint(was.tiles[r])}
        far_cities = {r: p for r, p in before.cities.items() if near.isdisjoint(was.tiles[r])}
        found = Around(near, farms, holdings(was, old, outlook, dict(before.cities)), far_cities)
        before.around[c] = found
    return found


def before_placing(model: Carcassonne, outlook: Outlook) -> Before:
    board = model.board
    roots = held_roots(board)
    cities: dict[int, float] = {}
    farms = {r: {board.find(a) for a in board.adj[r]} for r in roots if board.kind[r] == FIELD}
    return Before(model, roots, holdings(board, roots, outlook, cities), cities, farms)


def placement_value(before: Before, action: Action, outlook: Outlook) -> float:
    """The margin after placing the tile this way and then making the best follower choice.

    Only features near the tile (and farms bordering them) can change, so the others keep their worth.
    """
    trial = before.model.copy()
    trial.apply(action)
    assert trial.placed is not None
    at = around(before, trial.placed, outlook)
    now = trial.board
    new = {r: seats for r, seats in held_roots(now).items() if r in at.farms or not at.near.isdisjoint(now.tiles[r])}
    change = holdings(now, new, outlook, dict(at.far_cities)).add(at.was, -1)
    gain, _ = best_follower(trial, outlook)
    return margin(total(trial, before.held.add(change, 1), outlook), outlook.me) + gain


def distinct_placements(legal: list[Action]) -> list[Action]:
    """Placements, one per cell and edge layout (a symmetric tile's equal rotations are one choice)."""
    seen: set[tuple[int, int, tuple[int, ...]]] = set()
    found = []
    for action in legal:
        if action["type"] != "place":
            continue
        edges = ORIENTED[action["tile"]][action["rotation"] // 90].edges
        key = (action["x"], action["y"], edges)
        if key not in seen:
            seen.add(key)
            found.append(action)
    return found


def ransom_gain(model: Carcassonne, holder: int, outlook: Outlook, base: float) -> float:
    trial = model.copy()
    me = outlook.me
    trial.prisoners[holder][me] -= 1
    trial.supply[me] += 1
    trial.scores[me] -= RANSOM_PRICE
    trial.scores[holder] += RANSOM_PRICE
    return margin(worth(trial, outlook), me) - base


class StandardCarcassonne:
    """``standard``: one-ply search over placements and follower choices on a model rebuilt from the view."""

    level = "standard"

    def choose(self, situation: Situation) -> Action:
        legal = list(situation.legal)
        if len(legal) == 1:
            return dict(legal[0])
        model = game_from_view(situation.view, situation.rng)
        outlook = outlook_for(situation, model)
        base = margin(worth(model, outlook), outlook.me)
        for action in legal:
            # Worth it when a follower in hand is worth more than the points handed over.
            if action["type"] == "ransom" and ransom_gain(model, action["from"], outlook, base) > RANSOM_MARGIN:
                return dict(action)
        if model.phase == "follower":
            return choose_after_placing(situation, model, outlook)
        placements = distinct_placements(legal)
        if not placements:
            return dict(next(a for a in legal if a["type"] != "ransom"))
        before = before_placing(model, outlook)
        scored = [(placement_value(before, a, outlook), situation.rng.random(), a) for a in placements]
        return dict(max(scored, key=lambda s: (s[0], s[1]))[2])
