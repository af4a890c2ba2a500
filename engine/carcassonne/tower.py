"""The Tower (rules section 6): building a tower level and capturing a follower in its reach, closing a tower with
a follower on top, and paying a ransom for a captured follower."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.carcassonne.board import cell, in_reach, xy
from engine.carcassonne.flow import add_points, end_turn, follower_phase, whole_number
from engine.carcassonne.state import MAX_COORD, RANSOM_PRICE, State
from engine.errors import RuleError
from engine.game import Action, Event


def tower_at(game: State, action: Mapping[str, Any], what: str) -> tuple[int, int, int]:
    """The open tower or foundation the action names: (cell, x, y)."""
    if not game.options.tower:
        raise RuleError("no_tower", "this game is played without The Tower")
    follower_phase(game)
    x, y = whole_number(action, "x", what), whole_number(action, "y", what)
    c = cell(x, y) if abs(x) <= MAX_COORD and abs(y) <= MAX_COORD else -1
    if c not in game.board.towers:
        raise RuleError("not_a_tower", f"there is no tower foundation at ({x}, {y})", x=x, y=y)
    if c in game.board.tops:
        raise RuleError("tower_closed", f"the tower at ({x}, {y}) is closed by a follower on top", x=x, y=y)
    return c, x, y


def _capture_target(game: State, capture: object, c: int, x: int, y: int, height: int) -> tuple[int, int | None]:
    """The follower a ``capture`` names in reach of the new level: (cell, node); node None for a tower top."""
    if not isinstance(capture, Mapping):
        raise RuleError("malformed_action", 'capture must be {"x": X, "y": Y, "on": SEGMENT}')
    tx, ty = whole_number(capture, "x", "capture"), whole_number(capture, "y", "capture")
    tc = cell(tx, ty) if abs(tx) <= MAX_COORD and abs(ty) <= MAX_COORD else -1
    if tc not in game.board.cells or not in_reach(c, tc, height):
        raise RuleError(
            "out_of_reach",
            f"({tx}, {ty}) is out of reach of a tower of height {height} at ({x}, {y}): same row or "
            f"column, at most {height} cells away",
            x=tx,
            y=ty,
            height=height,
            tower_x=x,
            tower_y=y,
        )
    on = capture.get("on")
    if on == "tower":
        if tc not in game.board.tops:
            raise RuleError("no_follower_there", f"no follower stands on a tower at ({tx}, {ty})", x=tx, y=ty)
        return tc, None
    node = game.board.node_of(tc, game.segment(tc, on))
    if node not in game.board.followers:
        raise RuleError(
            "no_follower_there",
            f"no follower stands on {on} at ({tx}, {ty})",
            x=tx,
            y=ty,
            segment=str(on),
        )
    return tc, node


def tower(game: State, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
    c, x, y = tower_at(game, action, "tower")
    if not game.pieces[seat]:
        raise RuleError("no_tower_pieces", "you have no tower pieces left")
    height = game.board.towers[c] + 1
    capture = action.get("capture")
    target = None if capture is None else _capture_target(game, capture, c, x, y, height)
    # Valid: build, then capture.
    game.board.towers[c] = height
    game.pieces[seat] -= 1
    recorded: Action = {"player": seat, "type": "tower", "x": x, "y": y}
    events.append({"type": "tower_built", "player": seat, "x": x, "y": y, "height": height})
    if target is not None:
        tc, node = target
        tx, ty = xy(tc)
        on_name = "tower" if node is None else game.board.segment_name(node)
        owner = game.board.tops.pop(tc) if node is None else game.board.remove_follower(node)
        recorded["capture"] = {"x": tx, "y": ty, "on": on_name}
        events.append({"type": "captured", "player": seat, "owner": owner, "x": tx, "y": ty, "on": on_name})
        if owner == seat:
            game.supply[seat] += 1
            events.append({"type": "follower_returned", "player": seat, "x": tx, "y": ty, "on": on_name})
        else:
            game.prisoners[seat][owner] += 1
            if game.prisoners[owner][seat]:
                # Both hold a prisoner of the other: one of each goes home at once.
                game.prisoners[seat][owner] -= 1
                game.prisoners[owner][seat] -= 1
                game.supply[seat] += 1
                game.supply[owner] += 1
                events.append({"type": "prisoners_exchanged", "players": sorted((seat, owner))})
    end_turn(game, events)
    return recorded


def tower_top(game: State, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
    c, x, y = tower_at(game, action, "tower_top")
    if game.board.towers[c] < 1:
        raise RuleError("no_tower_yet", f"the foundation at ({x}, {y}) has no tower on it yet", x=x, y=y)
    if not game.supply[seat]:
        raise RuleError("no_followers", "you have no follower in supply")
    game.board.tops[c] = seat
    game.supply[seat] -= 1
    events.append({"type": "tower_closed", "player": seat, "x": x, "y": y})
    end_turn(game, events)
    return {"player": seat, "type": "tower_top", "x": x, "y": y}


def ransom(game: State, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
    """Buy back one of one's followers from the player holding it (once a turn, before or after placing)."""
    holder = action.get("from")
    if not isinstance(holder, int) or isinstance(holder, bool) or not 0 <= holder < len(game.players):
        raise RuleError("malformed_action", f'ransom needs "from": a seat from 0 to {len(game.players) - 1}')
    if game.ransomed:
        raise RuleError("ransom_used", "you already paid a ransom this turn (one per turn)")
    if holder == seat or not game.prisoners[holder][seat]:
        raise RuleError("no_prisoner", f"seat {holder} holds none of your followers", holder=holder)
    if game.scores[seat] < RANSOM_PRICE:
        raise RuleError(
            "ransom_unaffordable",
            f"a ransom costs {RANSOM_PRICE} points and you have {game.scores[seat]}",
            score=game.scores[seat],
            price=RANSOM_PRICE,
        )
    game.prisoners[holder][seat] -= 1
    game.supply[seat] += 1
    add_points(game, seat, "ransom", -RANSOM_PRICE)
    add_points(game, holder, "ransom", RANSOM_PRICE)
    game.ransomed = True
    events.append({"type": "ransom_paid", "player": seat, "to": holder, "points": RANSOM_PRICE})
    return {"player": seat, "type": "ransom", "from": holder}
