"""Small builders for rulebook scenarios: a game with a fixed deck, one-line turns, and rejection checks.

Geometry reminder (engine/carcassonne/tiles.py): sides N=0 E=1 S=2 W=3, x grows east, y grows south, rotation is
clockwise (rotation 90 turns the reference N edge to face E). With the River off the start tile is D at (0, 0)
in reference orientation: city N, road W-E, field S.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from engine.carcassonne import Carcassonne
from engine.errors import RuleError

NAMES = ("Alice", "Bob", "Carol", "Dave", "Eve", "Frank")


def new_game(deck: Sequence[str] | None, players: int = 2, seed: int = 1, **options: Any) -> Carcassonne:
    """A game with the River off (unless given) and the exact draw order ``deck``."""
    opts: dict[str, Any] = {"river": False, **options}
    if deck is not None:
        opts["deck"] = list(deck)
    return Carcassonne.new(list(NAMES[:players]), opts, seed=seed)


def played_at_random(actions: int, seed: int = 4) -> Carcassonne:
    """A two-player base game after ``actions`` random actions and on to the next tile to place."""
    game = Carcassonne.new(["A", "B"], {"river": False}, seed=seed)
    moves = random.Random(seed)
    for _ in range(actions):
        game.apply(game.automatic_action() or game.random_action(moves))
    while game.phase != "place":
        game.apply(game.automatic_action() or game.random_action(moves))
    return game


def place(game: Carcassonne, seat: int, tile: str, x: int, y: int, rotation: int) -> list[dict[str, Any]]:
    applied = game.apply({"player": seat, "type": "place", "tile": tile, "x": x, "y": y, "rotation": rotation})
    return list(applied.events)


def play(
    game: Carcassonne,
    seat: int,
    tile: str,
    x: int,
    y: int,
    rotation: int,
    then: str | Mapping[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """One whole turn: place ``tile``, then a follower on segment ``then`` (a string), another ending action (a
    mapping such as ``{"type": "tower", ...}``), or pass (None). Returns all events of the turn."""
    events = place(game, seat, tile, x, y, rotation)
    if then is None:
        action: dict[str, Any] = {"player": seat, "type": "pass"}
    elif isinstance(then, str):
        action = {"player": seat, "type": "follower", "on": then}
    else:
        action = {"player": seat, **then}
    events += game.apply(action).events
    return events


def of_type(events: Sequence[Mapping[str, Any]], kind: str) -> list[Mapping[str, Any]]:
    return [e for e in events if e["type"] == kind]


def only(events: Sequence[Mapping[str, Any]], kind: str) -> Mapping[str, Any]:
    found = of_type(events, kind)
    assert len(found) == 1, f"expected one {kind} event, got {found}"
    return found[0]


def rejected(game: Carcassonne, action: Any, code: str, **kwargs: Any) -> RuleError:
    """``action`` must raise RuleError ``code`` and leave the state exactly as it was."""
    before = game.to_json()
    with pytest.raises(RuleError) as info:
        game.apply(action, **kwargs)
    assert info.value.code == code, f"expected {code}, got {info.value.code}: {info.value.message}"
    assert game.to_json() == before
    return info.value


def bad_setup(code: str, players: Sequence[str], options: Mapping[str, Any]) -> RuleError:
    with pytest.raises(RuleError) as info:
        Carcassonne.new(list(players), dict(options), seed=1)
    assert info.value.code == code, f"expected {code}, got {info.value.code}: {info.value.message}"
    return info.value
