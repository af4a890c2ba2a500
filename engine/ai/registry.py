"""Which policy plays each game at each level."""

from __future__ import annotations

from collections.abc import Callable

from engine.ai.base import LEVELS, Policy, RandomPolicy
from engine.errors import RuleError


def _standard_carcassonne() -> Policy:
    from engine.ai.carcassonne import StandardCarcassonne  # lazy: the game's players load with their game

    return StandardCarcassonne()


# The standard players, per game (imported lazily so one game's start-up never pays for the other).
STANDARD: dict[str, Callable[[], Policy]] = {
    "carcassonne": _standard_carcassonne,
}


def policy_for(game: str, level: str) -> Policy:
    if level not in LEVELS:
        raise RuleError(
            "unknown_level",
            f"unknown computer level {level!r} (levels: {', '.join(LEVELS)})",
            level=level,
            allowed=list(LEVELS),
        )
    if game == "catan":
        if level == "expert":
            from engine.ai.catan_expert import ExpertCatanPolicy  # lazy: the search loads only when asked for

            return ExpertCatanPolicy()
        from engine.ai.catan import catan_policy  # lazy: the game's players load with their game

        return catan_policy(level)
    if level == "random":
        return RandomPolicy()
    make = STANDARD.get(game)
    if make is None:
        raise RuleError("unknown_level", f"no {level} computer player for {game} yet", level=level, game=game)
    return make()
