"""Which policy plays each game at each level."""

from __future__ import annotations

from engine.ai.base import LEVELS, Policy, RandomPolicy
from engine.errors import RuleError


def policy_for(game: str, level: str) -> Policy:
    if level not in LEVELS:
        raise RuleError("unknown_level", f"unknown computer level {level!r}", level=level, allowed=list(LEVELS))
    if game == "catan":
        from engine.ai.catan import catan_policy  # imported here: the game's players load with their game

        return catan_policy(level)
    if level == "random":
        return RandomPolicy()
    # The standard players are added per game (engine/ai/carcassonne.py, engine/ai/catan.py).
    raise RuleError("unknown_level", f"no {level} computer player for {game} yet", level=level, game=game)
