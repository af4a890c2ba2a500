"""The River (rules section 3.1): the river's open end, whether a River tile continues it, and where it flows next.

The state is the open end, ``(cell the river must continue into, flow direction)`` or None once the lake closes
it, and the turn of the last River tile (-1 left, 0 straight, 1 right): the river may not curve the same way twice
in a row.
"""

from __future__ import annotations

from engine.carcassonne.board import DELTA, Board, xy
from engine.carcassonne.tiles import SIDES, Oriented, opposite
from engine.errors import RuleError

RiverEnd = tuple[int, int]


def check_river(board: Board, end: RiverEnd | None, last_turn: int, c: int, o: Oriented, x: int, y: int) -> int:
    """Whether River tile ``o`` (not the spring) may go to cell ``c`` = (x, y); returns the turn it makes."""
    if end is None:
        raise RuleError("river_closed", "the river has no open end to continue")
    target, flow = end
    if c != target:
        tx, ty = xy(target)
        raise RuleError(
            "river_must_continue",
            f"a River tile must continue the river at ({tx}, {ty})",
            x=x,
            y=y,
            river_x=tx,
            river_y=ty,
        )
    entry = opposite(flow)
    if entry not in o.river:
        raise RuleError(
            "river_must_continue",
            f"the river must enter this tile from the {SIDES[entry]} side",
            x=x,
            y=y,
            side=SIDES[entry],
        )
    exits = [s for s in o.river if s != entry]
    if not exits:
        return 0
    out = exits[0]
    turn = 0 if out == flow else (1 if out == (flow + 1) % 4 else -1)
    if turn and turn == last_turn:
        raise RuleError(
            "river_u_turn",
            "the river may not curve the same way twice in a row (a U-turn)",
            direction="right" if turn > 0 else "left",
        )
    if c + DELTA[out] in board.cells:
        raise RuleError(
            "river_faces_occupied",
            f"the river would flow {SIDES[out]} into an occupied cell",
            side=SIDES[out],
        )
    return turn


def flow_on(end: RiverEnd | None, last_turn: int, c: int, o: Oriented, turn: int) -> tuple[RiverEnd | None, int]:
    """The open end and last turn once River tile ``o`` lies at ``c`` (``turn`` from ``check_river``)."""
    if o.tile.spring:
        return (c + DELTA[o.river[0]], o.river[0]), 0
    if end is None:
        return end, last_turn
    entry = opposite(end[1])
    exits = [s for s in o.river if s != entry]
    return ((c + DELTA[exits[0]], exits[0]) if exits else None), turn
