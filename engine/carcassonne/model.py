"""A game rebuilt from one player's view: what a computer player may know, with the hidden part sampled.

Carcassonne hides only the order of the stack. The tiles still in it are public (the inventory minus every tile
placed, discarded or drawn), so a model holds exactly those tiles, in an order drawn from the caller's generator
and kept to the draw stages (River tiles first, then the lake, then the rest).
"""

from __future__ import annotations

import random
import threading
from collections import Counter, OrderedDict
from collections.abc import Mapping
from typing import Any

from engine.carcassonne.board import cell
from engine.carcassonne.game import Carcassonne
from engine.carcassonne.options import inventory, parse_options, stage
from engine.carcassonne.placing import lay_tile
from engine.carcassonne.tiles import ORIENTED
from engine.errors import RuleError

_PHASE = {"place": "place", "discard": "place", "follower": "follower", "over": "over"}


def unseen_tiles(view: Mapping[str, Any]) -> Counter[str]:
    """The tiles still in the stack (not their order): the inventory minus what has been placed, discarded or drawn."""
    players = len(view["players"])
    options = parse_options({k: v for k, v in view["options"].items() if k != "deck"}, players)
    left = inventory(options)
    # The start tile is already out of the inventory and is the board's first tile.
    left.subtract(t["tile"] for t in view["tiles"][1:])
    left.subtract(view["discarded"])
    if view["drawn"] is not None:
        left[view["drawn"]] -= 1
    if any(n < 0 for n in left.values()):
        raise RuleError("bad_view", "the view shows more tiles than the game holds")
    return +left


def sample_stack(unseen: Counter[str], rng: random.Random) -> list[str]:
    """One order of the unseen tiles the rules allow, next tile last (the engine's stack layout)."""
    by_stage: dict[int, list[str]] = {0: [], 1: [], 2: []}
    for tid in sorted(unseen.elements()):
        by_stage[stage(tid)].append(tid)
    for tiles in by_stage.values():
        rng.shuffle(tiles)
    return (by_stage[0] + by_stage[1] + by_stage[2])[::-1]


def game_from_view(view: Mapping[str, Any], rng: random.Random) -> Carcassonne:
    """A complete game state that shows ``view`` to its viewer; the stack order is sampled with ``rng``."""
    players = [p["name"] for p in view["players"]]
    options = parse_options({k: v for k, v in view["options"].items() if k != "deck"}, len(players))
    first = options.first_player if options.first_player is not None else 0
    game = Carcassonne(players, options, 0, first)
    _lay_tiles(game, view["tiles"])
    board = game.board
    for f in view["followers"]:
        c = cell(f["x"], f["y"])
        if f["on"] == "tower":
            board.tops[c] = f["player"]
        else:
            board.add_follower(board.node_of(c, board.cells[c][0].lookup[f["on"]]), f["player"])
    for t in view["towers"]:
        board.towers[cell(t["x"], t["y"])] = t["height"]
    game.stack = sample_stack(unseen_tiles(view), rng)
    game.drawn = view["drawn"]
    game.current = view["current_player"] if view["current_player"] is not None else game.current
    game.turn = view["turn"]
    game.phase = _PHASE[view["decision"]]
    game.placed = None if view["placed"] is None else cell(*view["placed"])
    game.ransomed = bool(view.get("ransomed", False))
    seats = view["players"]
    game.supply = [p["followers"] for p in seats]
    game.pieces = [p["tower_pieces"] for p in seats]
    game.prisoners = [list(p["prisoners"]) for p in seats]
    game.scores = [p["score"] for p in seats]
    game.breakdown = [dict(p["breakdown"]) for p in seats]
    game.last = [None if p["last_placed"] is None else cell(*p["last_placed"]) for p in seats]
    game.discarded = list(view["discarded"])
    game.winners = list(view["winners"])
    return game


# Boards rebuilt lately, by the placements that made them. A computer player rebuilds the board at every decision
# and consecutive views differ by a tile or two, so the newest board is usually a copy and one placement away.
# A memo of a pure function: it changes how fast a model is built, never what it holds.
_LAID: OrderedDict[tuple[tuple[str, int, int, int], ...], Carcassonne] = OrderedDict()
_LAID_SIZE = 16
_LOOK_BACK = 4
# Computer players of different games decide in parallel threads (the bot): the memo is shared between them.
_LAID_LOCK = threading.Lock()


def _lay_tiles(game: Carcassonne, tiles: list[Mapping[str, Any]]) -> None:
    """Put the tiles down in the order they were played, so the River's open end and last curve come out right."""
    key = tuple((t["tile"], t["x"], t["y"], t["rotation"]) for t in tiles)
    start = 0
    with _LAID_LOCK:
        for back in range(min(_LOOK_BACK, len(key)) + 1):
            laid = _LAID.get(key[: len(key) - back])
            if laid is not None:
                game.board = laid.board.copy()
                game.river_end, game.river_turn = laid.river_end, laid.river_turn
                start = len(key) - back
                break
    for tid, x, y, rotation in key[start:]:
        lay_tile(game, cell(x, y), ORIENTED[tid][rotation // 90])
    with _LAID_LOCK:
        if start < len(key):
            _LAID[key] = game.copy()
            while len(_LAID) > _LAID_SIZE:
                _LAID.popitem(last=False)
        elif key in _LAID:  # another thread may have pushed it out meanwhile
            _LAID.move_to_end(key)
