"""Turn flow and scoring: the follower decision that ends a turn, the features it completes, the next turn, and the
final scoring once the stack is empty (rules sections 3 and 5).

The modules of each kind of action (``placing``, ``followers``, ``tower``) build on these; ``game`` dispatches the
actions to them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.carcassonne import scoring
from engine.carcassonne.board import xy
from engine.carcassonne.state import FOLLOWER, OVER, PLACE, State
from engine.errors import RuleError
from engine.game import Action, Event


def whole_number(action: Mapping[str, Any], name: str, what: str) -> int:
    """The whole number an action gives in field ``name``, checked."""
    value = action.get(name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise RuleError("malformed_action", f"{what} needs a whole number {name!r}", action=what, field=name)
    return value


def follower_phase(game: State) -> int:
    """The cell of the tile placed this turn, once the follower decision is due."""
    if game.phase != FOLLOWER or game.placed is None:
        raise RuleError("place_first", "place the drawn tile first")
    return game.placed


def pass_turn(game: State, seat: int, action: Mapping[str, Any], replay: bool, events: list[Event]) -> Action:
    """The follower decision without a follower or a tower: the turn ends."""
    follower_phase(game)
    end_turn(game, events)
    return {"player": seat, "type": "pass"}


def add_points(game: State, seat: int, category: str, points: int) -> None:
    game.scores[seat] += points
    game.breakdown[seat][category] += points


def award(game: State, event: Event) -> None:
    for seat in event["scorers"]:
        add_points(game, seat, event["category"], event["points"])


def return_followers(game: State, root: int, events: list[Event]) -> None:
    board = game.board
    for node, seat in board.feature_followers(root):
        board.remove_follower(node)
        game.supply[seat] += 1
        x, y = xy(board.node_cell[node])
        events.append({"type": "follower_returned", "player": seat, "x": x, "y": y, "on": board.segment_name(node)})


def end_turn(game: State, events: list[Event]) -> None:
    """Score what the tile placed this turn completed, then draw for the next player or score the game."""
    assert game.placed is not None
    for root, event in scoring.completed_by(game.board, game.placed, game.options.small_city):
        events.append(event)
        award(game, event)
        return_followers(game, root, events)
    game.placed = None
    if not game.stack:
        final_scoring(game, events)
        return
    start_turn(game, (game.current + 1) % len(game.players), events)


def start_turn(game: State, seat: int, events: list[Event]) -> None:
    game.current = seat
    game.turn += 1
    game.phase = PLACE
    game.ransomed = False
    game.drawn = game.stack.pop()
    events.append({"type": "turn_started", "player": seat, "turn": game.turn, "tile": game.drawn})


def final_scoring(game: State, events: list[Event]) -> None:
    """Incomplete features, then farms, then prisoners go home; the game is over."""
    board = game.board
    for _, event in scoring.final_features(board):
        award(game, event)
        events.append(event)
    farms = (
        scoring.farms_current(board) if game.options.farm_scoring == "current" else scoring.farms_first_edition(board)
    )
    for event in farms:
        award(game, event)
        events.append(event)
    for holder, held in enumerate(game.prisoners):
        for owner, count in enumerate(held):
            if count:
                game.supply[owner] += count
                held[owner] = 0
                events.append({"type": "prisoners_returned", "holder": holder, "owner": owner, "count": count})
    game.phase = OVER
    game.drawn = None
    best = max(game.scores)
    game.winners = [s for s, score in enumerate(game.scores) if score == best]
    events.append(
        {
            "type": "game_over",
            "scores": list(game.scores),
            "breakdown": [dict(b) for b in game.breakdown],
            "winners": list(game.winners),
        }
    )
