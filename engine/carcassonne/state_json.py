"""A Carcassonne state's JSON form (schema 1): plain JSON types, and ``load(dump(g))`` continues exactly like ``g``.

The board's tables that follow from the tiles and followers (features, open cells) are rebuilt on load.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from engine.carcassonne.board import cell, xy
from engine.carcassonne.state import GAME, State
from engine.carcassonne.tiles import ORIENTED

SCHEMA: Final = 1  # version of the state JSON


def dump(game: State) -> dict[str, Any]:
    board = game.board
    return {
        "schema": SCHEMA,
        "game": GAME,
        "players": list(game.players),
        "options": game.options.to_json(),
        "seed": game.seed,
        "first_player": game.first_player,
        "stack": game.stack[::-1],
        "drawn": game.drawn,
        "tiles": [[board.cells[c][0].tile.id, *xy(c), board.cells[c][0].rotation * 90] for c in board.order],
        "followers": [
            [seat, *xy(board.node_cell[node]), board.node_seg[node]] for node, seat in board.followers.items()
        ],
        "towers": [[*xy(c), h] for c, h in board.towers.items()],
        "tops": [[*xy(c), seat] for c, seat in board.tops.items()],
        "current": game.current,
        "turn": game.turn,
        "phase": game.phase,
        "placed": None if game.placed is None else list(xy(game.placed)),
        "ransomed": game.ransomed,
        "supply": list(game.supply),
        "pieces": list(game.pieces),
        "prisoners": [list(row) for row in game.prisoners],
        "scores": list(game.scores),
        "breakdown": [dict(b) for b in game.breakdown],
        "last": [None if c is None else list(xy(c)) for c in game.last],
        "discarded": list(game.discarded),
        "river_end": None if game.river_end is None else [*xy(game.river_end[0]), game.river_end[1]],
        "river_turn": game.river_turn,
        "actions": game.actions,
        "winners": list(game.winners),
    }


def load(game: State, data: Mapping[str, Any]) -> None:
    """Fill ``game``, made with the players, options, seed and first player of ``data``, from its JSON form."""
    board = game.board
    for tid, x, y, rotation in data["tiles"]:
        board.place(cell(x, y), ORIENTED[tid][rotation // 90])
    for seat, x, y, segment in data["followers"]:
        board.add_follower(board.node_of(cell(x, y), segment), seat)
    for x, y, height in data["towers"]:
        board.towers[cell(x, y)] = height
    for x, y, seat in data["tops"]:
        board.tops[cell(x, y)] = seat
    game.stack = list(data["stack"])[::-1]
    game.drawn = data["drawn"]
    game.current = data["current"]
    game.turn = data["turn"]
    game.phase = data["phase"]
    game.placed = None if data["placed"] is None else cell(*data["placed"])
    game.ransomed = data["ransomed"]
    game.supply = list(data["supply"])
    game.pieces = list(data["pieces"])
    game.prisoners = [list(row) for row in data["prisoners"]]
    game.scores = list(data["scores"])
    game.breakdown = [dict(b) for b in data["breakdown"]]
    game.last = [None if p is None else cell(*p) for p in data["last"]]
    game.discarded = list(data["discarded"])
    end = data["river_end"]
    game.river_end = None if end is None else (cell(end[0], end[1]), end[2])
    game.river_turn = data["river_turn"]
    game.actions = data["actions"]
    game.winners = list(data["winners"])
