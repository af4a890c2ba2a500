"""Placing a follower on the tile just placed (rules section 3.2): on a feature nobody occupies yet."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.carcassonne.board import xy
from engine.carcassonne.flow import end_turn, follower_phase
from engine.carcassonne.state import FOLLOWER_ROLE, State
from engine.carcassonne.tiles import lowercase_lookup
from engine.errors import RuleError
from engine.game import Action, Event


def follower(game: State, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
    c = follower_phase(game)
    index = game.segment(c, action.get("on"))
    board = game.board
    o, base = board.cells[c]
    name = o.names[index]
    if not game.supply[seat]:
        raise RuleError("no_followers", "you have no follower in supply")
    if board.count[board.find(base + index)]:
        kind, _, where = lowercase_lookup(str(action.get("on"))).partition(":")
        raise RuleError(
            "feature_occupied",
            f"the {kind} on {where} already has a follower" if where else f"the {kind} already has a follower",
            segment=name,
            kind=kind,
            side=where,
        )
    board.add_follower(base + index, seat)
    game.supply[seat] -= 1
    x, y = xy(c)
    events.append(
        {
            "type": "follower_placed",
            "player": seat,
            "x": x,
            "y": y,
            "on": name,
            "role": FOLLOWER_ROLE[name.partition(":")[0]],
        }
    )
    end_turn(game, events)
    return {"player": seat, "type": "follower", "on": name}
