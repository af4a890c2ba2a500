"""What a player or a spectator sees. Carcassonne hides only the order of the stack: views give its size."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict

from engine.carcassonne.board import xy
from engine.carcassonne.state import FOLLOWER_ROLE, GAME, State


class OptionsView(TypedDict):
    """The game's options as a view shows them: ``Options.to_json`` with the stack order hidden."""

    river: bool
    tower: bool
    farm_scoring: str  # current or first_edition
    small_city: bool
    tower_pieces: NotRequired[int]  # absent: the official table
    first_player: NotRequired[int]  # absent: seat 0
    deck: None  # a fixed stack's order is never shown


class PlayerView(TypedDict):
    """One seat (an entry of the view's ``players``)."""

    seat: int
    name: str
    score: int
    breakdown: dict[str, int]  # road, city, cloister, farm, ransom -> points
    followers: int  # followers left in the supply
    tower_pieces: int
    prisoners: list[int]  # prisoners[o]: followers of seat o this seat holds
    last_placed: list[int] | None  # [x, y] of the tile this seat placed last


class TileView(TypedDict):
    """A placed tile (an entry of the view's ``tiles``, in the order they were placed)."""

    tile: str
    x: int
    y: int
    rotation: int  # degrees clockwise: 0, 90, 180 or 270


class FollowerView(TypedDict):
    """A follower on the board; ``on`` is the segment name (``city:N``, ``road:E``...) or ``tower``."""

    player: int
    x: int
    y: int
    on: str
    role: str  # knight, thief, monk, farmer or tower


class TowerView(TypedDict):
    x: int
    y: int
    height: int
    top: int | None  # the seat whose follower crowns it


class CarcassonneView(TypedDict):
    """What ``Carcassonne.view`` returns (a JSON object; replays and the renderer read the same keys)."""

    game: str
    viewer: int | None
    options: OptionsView
    players: list[PlayerView]
    tiles: list[TileView]
    followers: list[FollowerView]
    towers: list[TowerView]
    current_player: int | None
    turn: int
    decision: str  # place, discard, follower or over
    drawn: str | None
    placed: list[int] | None  # [x, y] of the tile placed this turn
    tiles_left: int
    discarded: list[str]
    ransomed: bool  # the current player already paid a ransom this turn
    river_end: list[int] | None
    finished: bool
    winners: list[int]


def options_view(game: State) -> OptionsView:
    o = game.options
    out: OptionsView = {
        "river": o.river,
        "tower": o.tower,
        "farm_scoring": o.farm_scoring,
        "small_city": o.small_city,
        "deck": None,
    }
    if o.tower_pieces is not None:
        out["tower_pieces"] = o.tower_pieces
    if o.first_player is not None:
        out["first_player"] = o.first_player
    return out


def player_view(game: State, seat: int | None) -> CarcassonneView:
    """The one way game state leaves the engine for display. ``seat`` None is a spectator."""
    board = game.board
    followers: list[FollowerView] = []
    for node, owner in board.followers.items():
        x, y = xy(board.node_cell[node])
        on = board.segment_name(node)
        followers.append({"player": owner, "x": x, "y": y, "on": on, "role": FOLLOWER_ROLE[on.partition(":")[0]]})
    for c, owner in board.tops.items():
        x, y = xy(c)
        followers.append({"player": owner, "x": x, "y": y, "on": "tower", "role": "tower"})
    placed = game.placed
    return {
        "game": GAME,
        "viewer": seat,
        "options": options_view(game),
        "players": [
            {
                "seat": s,
                "name": name,
                "score": game.scores[s],
                "breakdown": dict(game.breakdown[s]),
                "followers": game.supply[s],
                "tower_pieces": game.pieces[s],
                # prisoners[s][o]: followers of seat o that seat s holds
                "prisoners": list(game.prisoners[s]),
                "last_placed": None if last is None else list(xy(last)),
            }
            for s, (name, last) in enumerate(zip(game.players, game.last, strict=True))
        ],
        "tiles": [
            {"tile": o.tile.id, "x": x, "y": y, "rotation": o.rotation * 90}
            for o, (x, y) in ((board.cells[c][0], xy(c)) for c in board.order)
        ],
        "followers": followers,
        "towers": [
            {"x": x, "y": y, "height": h, "top": board.tops.get(c)} for c, h in board.towers.items() for x, y in [xy(c)]
        ],
        "current_player": None if game.finished else game.current,
        "turn": game.turn,
        "decision": game.decision(),
        "drawn": game.drawn,
        "placed": None if placed is None else list(xy(placed)),
        "tiles_left": len(game.stack) + (1 if game.drawn else 0),
        "discarded": list(game.discarded),
        "ransomed": game.ransomed,  # the current player already paid a ransom this turn
        "river_end": None if game.river_end is None else list(xy(game.river_end[0])),
        "finished": game.finished,
        "winners": list(game.winners),
    }


def changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, list[Any]]:
    """The tiles on ``after``'s board that ``before``'s lacks, in the order they were placed."""
    had = {(t["x"], t["y"]) for t in before["tiles"]}
    return {"tiles": [[t["x"], t["y"]] for t in after["tiles"] if (t["x"], t["y"]) not in had]}
