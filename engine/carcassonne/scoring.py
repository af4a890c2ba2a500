"""Scoring, rules section 4: completed features during the game, then final scoring and farms.

Functions here only read the board and return events; the game applies the points they award
(``event["scorers"]`` each get ``event["points"]`` in ``event["category"]``) and returns followers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from engine.carcassonne.board import AROUND, CLOISTER, Board, xy
from engine.carcassonne.tiles import CITY, FIELD, ROAD
from engine.game import Event

KIND_NAME = {CITY: "city", ROAD: "road", CLOISTER: "cloister", FIELD: "field"}


def majority(seats: Iterable[int]) -> tuple[list[int], dict[int, int]]:
    """Players with the most followers (ties all win) and the follower count of each player."""
    counts = Counter(seats)
    if not counts:
        return [], {}
    top = max(counts.values())
    return sorted(s for s, n in counts.items() if n == top), dict(sorted(counts.items()))


def _cells(board: Board, root: int) -> list[list[int]]:
    return [list(xy(c)) for c in sorted(board.tiles[root], key=lambda c: xy(c)[::-1])]


def completed_points(board: Board, root: int, small_city: bool) -> int:
    kind = board.kind[root]
    if kind == CLOISTER:
        return 9
    tiles = len(board.tiles[root])
    if kind == ROAD:
        return tiles
    if small_city and tiles == 2:
        return tiles + board.pennants[root]
    return 2 * (tiles + board.pennants[root])


def incomplete_points(board: Board, root: int) -> int:
    kind = board.kind[root]
    if kind == CLOISTER:
        return 1 + board.cloister_neighbours(board.node_cell[root])
    if kind == ROAD:
        return len(board.tiles[root])
    return len(board.tiles[root]) + board.pennants[root]


def _feature_event(board: Board, root: int, points: int, final: bool) -> Event:
    followers = board.feature_followers(root)
    scorers, counts = majority(seat for _, seat in followers)
    kind = board.kind[root]
    cell = board.node_cell[root]
    event: Event = {
        "type": "feature_scored" if final else "feature_completed",
        "feature": KIND_NAME[kind],
        "category": KIND_NAME[kind],
        "points": points,
        "scorers": scorers,
        "followers": {str(s): n for s, n in counts.items()},
    }
    if kind == CLOISTER:
        x, y = xy(cell)
        event.update(x=x, y=y, tiles=1 + board.cloister_neighbours(cell))
    else:
        event.update(cells=_cells(board, root), tiles=len(board.tiles[root]))
        if kind == CITY:
            event["pennants"] = board.pennants[root]
    return event


def completed_by(board: Board, c: int, small_city: bool) -> list[tuple[int, Event]]:
    """(feature root, event) for the cities, roads and cloisters that the tile just placed at ``c`` completed."""
    found: list[tuple[int, Event]] = []
    for root in board.roots_of(c):
        kind = board.kind[root]
        if kind in (CITY, ROAD) and board.open_edges[root] == 0:
            found.append((root, _feature_event(board, root, completed_points(board, root, small_city), False)))
    for d in (0, *AROUND):
        node = board.cloisters.get(c + d)
        if node is not None and board.cloister_neighbours(c + d) == 8:
            found.append((node, _feature_event(board, node, 9, False)))
    return found


def final_features(board: Board) -> list[tuple[int, Event]]:
    """Incomplete roads, cities and cloisters that hold followers (section 4.2 step 1)."""
    seen: dict[int, None] = {}
    for node in board.followers:
        root = board.find(node)
        if board.kind[root] != FIELD:
            seen.setdefault(root)
    return [(root, _feature_event(board, root, incomplete_points(board, root), True)) for root in seen]


def _farms(board: Board) -> dict[int, list[int]]:
    """Field roots with farmers -> the seats of those farmers (placement order)."""
    farms: dict[int, list[int]] = {}
    for node, seat in board.followers.items():
        root = board.find(node)
        if board.kind[root] == FIELD:
            farms.setdefault(root, []).append(seat)
    return farms


def _completed_cities(board: Board, field_root: int) -> list[int]:
    roots = {board.find(a) for a in board.adj[field_root]}
    return sorted(r for r in roots if board.open_edges[r] == 0)


def farms_current(board: Board) -> list[Event]:
    """Each farm's majority scores 3 per completed city it borders (section 4.2 step 2)."""
    events: list[Event] = []
    for root, seats in _farms(board).items():
        scorers, counts = majority(seats)
        cities = _completed_cities(board, root)
        x, y = xy(board.node_cell[root])
        events.append(
            {
                "type": "farm_scored",
                "category": "farm",
                "points": 3 * len(cities),
                "cities": len(cities),
                "scorers": scorers,
                "followers": {str(s): n for s, n in counts.items()},
                "x": x,
                "y": y,
            }
        )
    return events


def farms_first_edition(board: Board) -> list[Event]:
    """Each completed city gives 4 to the player(s) with most farmers in the fields around it (section 4.3)."""
    supplied: dict[int, list[int]] = {}
    farms = _farms(board)
    for root in farms:
        for city in _completed_cities(board, root):
            supplied.setdefault(city, []).append(root)
    events: list[Event] = []
    for city, fields in sorted(supplied.items()):
        scorers, counts = majority(seat for f in fields for seat in farms[f])
        event: dict[str, Any] = {
            "type": "farm_scored",
            "category": "farm",
            "points": 4,
            "cities": 1,
            "scorers": scorers,
            "followers": {str(s): n for s, n in counts.items()},
            "city": _cells(board, city),
        }
        events.append(event)
    return events
