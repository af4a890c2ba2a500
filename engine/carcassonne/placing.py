"""Placing the drawn tile (rules section 3.1) and The River's course, and discarding a tile that fits nowhere.

A replay may record a different tile than our own shuffle drew (its game shuffled differently): the recorded one
is swapped in from the stack, as long as the draw order's stages (River, lake, the rest) allow it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.carcassonne.board import cell, xy
from engine.carcassonne.flow import final_scoring, whole_number
from engine.carcassonne.options import stage
from engine.carcassonne.river import check_river, flow_on
from engine.carcassonne.state import FOLLOWER, MAX_COORD, PLACE, State
from engine.carcassonne.tiles import ORIENTED, ROTATIONS, TILES, Oriented
from engine.errors import RuleError
from engine.game import Action, Event


def put_tile(game: State, c: int, o: Oriented, river_turn: int = 0) -> None:
    """Place a tile, checked or known to fit, and move the river's open end if it is a River tile."""
    game.board.place(c, o)
    if o.river:
        game.river_end, game.river_turn = flow_on(game.river_end, game.river_turn, c, o, river_turn)


def lay_tile(game: State, c: int, o: Oriented) -> None:
    """Put a tile down again where it was played (rebuilding a board): a River tile's curve is worked out."""
    river = o.tile.expansion == "river" and not o.tile.spring
    x, y = xy(c)
    put_tile(game, c, o, check_river(game.board, game.river_end, game.river_turn, c, o, x, y) if river else 0)


def drawn_tile(game: State, action: Mapping[str, Any], replay: bool) -> tuple[str, bool]:
    """The tile this action uses, and whether a replay's recorded outcome must be swapped in."""
    drawn = game.drawn
    assert drawn is not None
    tile = action.get("tile", drawn)
    if tile == drawn:
        return drawn, False
    if not isinstance(tile, str) or tile not in TILES:
        raise RuleError("unknown_tile", f"unknown tile id {tile!r}", tile=str(tile))
    if not replay:
        raise RuleError("wrong_tile", f"the tile drawn is {drawn}, not {tile}", tile=tile, drawn=drawn)
    if game.options.deck is not None:
        raise RuleError("wrong_tile", f"the deck's next tile is {drawn}, not {tile}", tile=tile, drawn=drawn)
    if tile not in game.stack:
        raise RuleError("tile_not_in_stack", f"the stack holds no tile {tile}", tile=tile)
    if stage(tile) != stage(drawn):
        raise RuleError(
            "tile_out_of_order",
            f"{tile} cannot be drawn now: River tiles come first, then the lake, then the rest",
            tile=tile,
        )
    return tile, True


def swap_in(game: State, tile: str) -> None:
    """A replay recorded ``tile`` as drawn: exchange it with the tile our own shuffle put on top."""
    assert game.drawn is not None
    index = len(game.stack) - 1 - game.stack[::-1].index(tile)
    game.stack[index] = game.drawn
    game.drawn = tile


def place(game: State, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
    if game.phase != PLACE:
        raise RuleError(
            "already_placed",
            "you already placed a tile this turn: place a follower, use a tower, or pass",
        )
    tile, swap = drawn_tile(game, action, replay)
    x, y = whole_number(action, "x", "place"), whole_number(action, "y", "place")
    rotation = action.get("rotation")
    if rotation not in ROTATIONS or isinstance(rotation, bool):
        raise RuleError(
            "bad_rotation",
            f"rotation must be 0, 90, 180 or 270, not {rotation!r}",
            rotation=str(rotation),
        )
    c = cell(x, y) if abs(x) <= MAX_COORD and abs(y) <= MAX_COORD else None
    o = ORIENTED[tile][rotation // 90]
    turn = game.check_placement(tile, c, o, x, y)
    assert c is not None
    if swap:
        swap_in(game, tile)
    put_tile(game, c, o, turn)
    game.phase = FOLLOWER
    game.placed = c
    game.last[seat] = c
    game.drawn = None
    events.append({"type": "tile_placed", "player": seat, "tile": tile, "x": x, "y": y, "rotation": rotation})
    return {"player": seat, "type": "place", "tile": tile, "x": x, "y": y, "rotation": rotation}


def discard(game: State, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
    """The drawn tile fits nowhere (the host does this without asking): it goes out of the game, another is drawn."""
    if game.phase != PLACE:
        raise RuleError("already_placed", "you already placed a tile this turn")
    tile, swap = drawn_tile(game, action, replay)
    if swap:
        saved = game.drawn
        game.drawn = tile
        fits = game.placements()
        game.drawn = saved
    else:
        fits = game.placements()
    if fits:
        spots = sum(len(r) for r in fits.values())
        raise RuleError(
            "tile_fits",
            f"tile {tile} fits in {len(fits)} cells ({spots} placements), so it cannot be discarded",
            tile=tile,
            cells=len(fits),
            placements=spots,
        )
    if swap:
        swap_in(game, tile)
    game.discarded.append(tile)
    events.append({"type": "tile_discarded", "player": seat, "tile": tile})
    game.drawn = None
    if game.stack:
        game.drawn = game.stack.pop()
        events.append({"type": "tile_drawn", "player": seat, "tile": game.drawn})
    else:
        final_scoring(game, events)
    return {"player": seat, "type": "discard", "tile": tile}
