"""Events are values: what ``Game.apply`` reports stays what it was when it was reported.

The host keeps a turn's events while the turn goes on (replays, "since your last turn", the turn message), so an
event that shares a list or dict with the game state would silently change with the state: a Catan seven whose
``must_discard`` counts were the state's own ``owed`` list read "Discarding: ." once everyone had discarded.
"""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any

import pytest

from engine import game_class
from engine.ai import decide
from engine.game import Game

# Every option that changes what events look like, in both games.
CARCASSONNE_OPTIONS: list[dict[str, Any]] = [
    {"river": True, "tower": True},
    {"river": False, "tower": True, "farm_scoring": "first_edition", "small_city": True},
    {"river": True, "tower": False, "farm_scoring": "first_edition"},
]
CATAN_OPTIONS: list[dict[str, Any]] = [
    {},
    {"board": "beginner", "setup": "beginner"},
    {"board": "random_numbers", "strict_phases": True, "points_to_win": 8},
]
# Computer players of each game; "random" is the engine's own uniformly random legal action (offers included).
PLAYERS: dict[str, list[str]] = {
    "carcassonne": ["standard", "random", "standard"],
    "catan": ["standard", "standard", "random", "engine"],
}
# A game of random Catan moves can wander: enough actions for many sevens and trades, not necessarily an end.
MAX_ACTIONS = 3000


def snapshot(value: Any) -> Any:
    return json.loads(json.dumps(value))


def play_and_keep_events(game: Game, levels: list[str], seed: int) -> list[tuple[int, Any, Any]]:
    """Play ``game`` to its end (or ``MAX_ACTIONS``): every event as reported, with its copy taken at that moment."""
    rng = random.Random(seed)
    kept: list[tuple[int, Any, Any]] = []
    for step in range(MAX_ACTIONS):
        if game.finished:
            break
        action = game.automatic_action()
        if action is None:
            seat = rng.choice(game.actors())
            level = levels[seat % len(levels)]
            action = game.random_action(rng) if level == "engine" else decide(game, seat, level, rng)
        applied = game.apply(action)
        kept += [(step, event, snapshot(event)) for event in applied.events]
        kept.append((step, applied.action, snapshot(applied.action)))
    return kept


def changed(kept: list[tuple[int, Any, Any]]) -> list[str]:
    return [f"action {step}: reported {then}, now {event}" for step, event, then in kept if event != then]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("options", CARCASSONNE_OPTIONS, ids=["river+tower", "tower+farms", "river+farms"])
def test_carcassonne_events_stay_as_reported(options: dict[str, Any], seed: int) -> None:
    players = 2 + seed % 3
    game = game_class("carcassonne").new([f"P{i}" for i in range(players)], options, seed)
    kept = play_and_keep_events(game, PLAYERS["carcassonne"], seed)
    assert game.finished
    assert not changed(kept)


CATAN_SEEDS = range(6)


@cache
def catan_game(options_index: int, seed: int) -> tuple[tuple[int, Any, Any], ...]:
    """The events of one Catan game of this module, played once for both tests below."""
    players = 3 + seed % 2
    game = game_class("catan").new([f"P{i}" for i in range(players)], CATAN_OPTIONS[options_index], seed)
    return tuple(play_and_keep_events(game, PLAYERS["catan"], seed))


@pytest.mark.parametrize("seed", CATAN_SEEDS)
@pytest.mark.parametrize("options_index", range(len(CATAN_OPTIONS)), ids=["random", "beginner", "strict"])
def test_catan_events_stay_as_reported(options_index: int, seed: int) -> None:
    assert not changed(list(catan_game(options_index, seed)))


@pytest.mark.parametrize("options_index", range(len(CATAN_OPTIONS)), ids=["random", "beginner", "strict"])
def test_the_catan_games_above_discard_on_sevens(options_index: int) -> None:
    """The case that went wrong (``must_discard``) is among the games checked: most of them have a discard (the
    standard player spends down before a seven, so not every game does)."""
    discarding = [
        seed
        for seed in CATAN_SEEDS
        if any(event.get("type") == "must_discard" for _, event, _ in catan_game(options_index, seed))
    ]
    assert len(discarding) >= len(CATAN_SEEDS) // 2, discarding
