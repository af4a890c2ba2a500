"""What a player or a spectator sees. Carcassonne hides only the order of the stack: views give its size."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.carcassonne.board import xy

if TYPE_CHECKING:
    from engine.carcassonne.game import Carcassonne

ROLE = {"city": "knight", "road": "thief", "cloister": "monk", "field": "farmer"}


def player_view(game: Carcassonne, seat: int | None) -> dict[str, Any]:
    """The one way game state leaves the engine for display. ``seat`` None is a spectator."""
    board = game.board
    followers = []
    for node, owner in board.followers.items():
        x, y = xy(board.node_cell[node])
        on = board.segment_name(node)
        followers.append({"player": owner, "x": x, "y": y, "on": on, "role": ROLE[on.partition(":")[0]]})
    for c, owner in board.tops.items():
        x, y = xy(c)
        followers.append({"player": owner, "x": x, "y": y, "on": "tower", "role": "tower"})
    placed = game.placed
    return {
        "game": game.GAME,
        "viewer": seat,
        "options": game.options.to_json() | {"deck": None},
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
