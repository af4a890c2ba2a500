"""The story of a finished game in numbers, read from its log: what the end-of-game picture and its few sentences
tell (``render.story_png``, ``bot/<game>/recap.py``).

Each game has its own story (``engine/<game>/story.py``: ``story(log)``), a JSON object with at least ``game``,
``players`` (the seats' names), ``scores``, ``winners`` and ``turns``. It is made by replaying the log
(``engine.history.walk``) and reading only what a spectator saw (``Turn.events``) and the final result, so it tells
nothing that was secret during the game (which card a robber took, which development card was bought).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from engine.errors import RuleError
from engine.history import GameLog

_STORIES = {
    "carcassonne": "engine.carcassonne.story",
    "catan": "engine.catan.story",
}

Story = dict[str, Any]


def story(log: GameLog) -> Story:
    """The story of the finished game ``log``; ValueError if the log does not reach the end."""
    try:
        module = _STORIES[log.game]
    except KeyError:
        raise RuleError("unknown_game", f"no story for the game {log.game!r}", game=log.game) from None
    tell: Callable[[GameLog], Story] = importlib.import_module(module).story
    return tell(log)


def headline(log: GameLog, result: dict[str, Any]) -> Story:
    """What every game's story starts with: the game, its players, the final scores and winners, the last turn."""
    if not result["finished"]:
        raise ValueError("the game is not over: it has no story yet")
    return {
        "game": log.game,
        "players": list(log.players),
        "scores": list(result["scores"]),
        "winners": list(result["winners"]),
        "turns": int(result["turn"]),
    }
