"""The actions a seat may take now, and the moves made without a player's judgement: the host's automatic and
timeout moves and the uniformly random move of self-play."""

from __future__ import annotations

import random

from engine.carcassonne.board import xy
from engine.carcassonne.state import OVER, PLACE, State
from engine.errors import RuleError
from engine.game import Action, not_your_turn


def legal_actions(game: State, seat: int) -> list[Action]:
    if game.phase == OVER or seat != game.current:
        return []
    me = {"player": seat}
    actions: list[Action] = [{**me, "type": "ransom", "from": h} for h in game.ransom_options()]
    if game.phase == PLACE:
        placements = game.placements()
        if not placements:
            return [*actions, {**me, "type": "discard", "tile": game.drawn}]
        for c, rots in placements.items():
            x, y = xy(c)
            actions += [{**me, "type": "place", "tile": game.drawn, "x": x, "y": y, "rotation": q * 90} for q in rots]
        return actions
    actions += [{**me, "type": "follower", "on": on} for on in game.follower_spots()]
    for option in game.tower_options():
        tower = {**me, "type": "tower", "x": option["x"], "y": option["y"]}
        actions.append(tower)
        actions += [{**tower, "capture": {"x": cap["x"], "y": cap["y"], "on": cap["on"]}} for cap in option["captures"]]
    actions += [{**me, "type": "tower_top", "x": x, "y": y} for x, y in game.tower_top_options()]
    actions.append({**me, "type": "pass"})
    return actions


def automatic_action(game: State) -> Action | None:
    """A drawn tile that fits nowhere is discarded without asking anyone (rules section 3.1)."""
    if game.decision() == "discard":
        return {"player": game.current, "type": "discard"}
    return None


def timeout_action(game: State, seat: int) -> Action:
    """The move the host makes for ``seat`` when its time is up: the smallest one that keeps the game going.

    Placing: the drawn tile at the first legal cell in the bot's numbering (top row first, then left to right:
    sorted by (y, x)) with its first legal rotation; a tile that fits nowhere is discarded. The follower decision:
    pass (no follower, no tower).
    """
    if game.phase == OVER:
        raise RuleError("game_over", "the game is over")
    if seat != game.current:
        raise not_your_turn(seat, game.current)
    if game.phase == PLACE:
        placements = game.legal_placements()
        if not placements:
            return {"player": seat, "type": "discard"}
        x, y = min(placements, key=lambda c: (c[1], c[0]))
        return {"player": seat, "type": "place", "x": x, "y": y, "rotation": placements[(x, y)][0]}
    return {"player": seat, "type": "pass"}


def random_action(game: State, rng: random.Random) -> Action:
    """Uniform over ``legal_actions(current)``, without building the whole list on the common path."""
    if game.phase == OVER:
        raise RuleError("game_over", "the game is over")
    if game.phase == PLACE and not game.ransom_options():
        placements = game.placements()
        if not placements:
            return {"player": game.current, "type": "discard", "tile": game.drawn}
        total = sum(len(r) for r in placements.values())
        pick = rng.randrange(total)
        for c, rots in placements.items():
            if pick < len(rots):
                x, y = xy(c)
                return {
                    "player": game.current,
                    "type": "place",
                    "tile": game.drawn,
                    "x": x,
                    "y": y,
                    "rotation": rots[pick] * 90,
                }
            pick -= len(rots)
    actions = legal_actions(game, game.current)
    return actions[rng.randrange(len(actions))]
