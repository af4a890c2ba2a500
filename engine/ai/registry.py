"""Which policy plays each game at each level: the one table the lobby, the host and the arenas read.

``LEVELS`` (``engine.ai.base``) names every level there is, weakest first; a game has the levels registered for it
here (``levels(game)``), so nothing is offered that cannot play. The factories are module-level functions that
import their player lazily, so one game's start-up never pays for the other's players and a factory can be sent
to a worker process by reference (pickle sends its module and name).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.ai.base import LEVELS, Policy, RandomPolicy
from engine.errors import RuleError

Factory = Callable[[], Policy]


def _random() -> Policy:
    return RandomPolicy()


def _standard_carcassonne() -> Policy:
    from engine.ai.carcassonne import StandardCarcassonne  # lazy: the game's players load with their game

    return StandardCarcassonne()


def _expert_carcassonne() -> Policy:
    from engine.ai.carcassonne_expert import ExpertCarcassonne  # lazy: the search loads only when asked for

    return ExpertCarcassonne()


def _random_catan() -> Policy:
    from engine.ai.catan import RandomCatanPolicy  # lazy: the game's players load with their game

    return RandomCatanPolicy()


def _standard_catan() -> Policy:
    from engine.ai.catan import StandardCatanPolicy  # lazy: the game's players load with their game

    return StandardCatanPolicy()


def _expert_catan() -> Policy:
    from engine.ai.catan_expert import ExpertCatanPolicy  # lazy: the search loads only when asked for

    return ExpertCatanPolicy()


# Per game: level -> the factory of its player. A new level is one line here (and its name in ``LEVELS``).
PLAYERS: dict[str, dict[str, Factory]] = {
    "carcassonne": {"random": _random, "standard": _standard_carcassonne, "expert": _expert_carcassonne},
    "catan": {"random": _random_catan, "standard": _standard_catan, "expert": _expert_catan},
}


def register(game: str, level: str, factory: Factory) -> Factory | None:
    """Let ``factory`` play ``game`` at ``level`` (one of ``LEVELS``); returns the factory it replaces, if any."""
    if level not in LEVELS:
        raise ValueError(f"unknown computer level {level!r} (levels: {', '.join(LEVELS)})")
    players = PLAYERS.setdefault(game, {})
    before = players.get(level)
    players[level] = factory
    return before


def unregister(game: str, level: str, before: Factory | None = None) -> None:
    """Undo ``register``: ``before`` (what ``register`` returned) plays again, or nobody."""
    players = PLAYERS.setdefault(game, {})
    if before is None:
        players.pop(level, None)
    else:
        players[level] = before


def levels(game: str) -> tuple[str, ...]:
    """The levels ``game`` has, weakest first (the order of ``LEVELS``)."""
    players = PLAYERS.get(game, {})
    return tuple(level for level in LEVELS if level in players)


def strongest(game: str) -> str:
    """The strongest level ``game`` has (``random`` for a game without players: every game can play random)."""
    found = levels(game)
    return found[-1] if found else LEVELS[0]


def factory_for(game: str, level: str) -> Factory:
    if level not in LEVELS:
        allowed = list(levels(game))
        raise RuleError(
            "unknown_level",
            f"unknown computer level {level!r} (levels: {', '.join(allowed)})",
            level=level,
            allowed=allowed,
        )
    make = PLAYERS.get(game, {}).get(level)
    if make is None:
        raise RuleError("unknown_level", f"no {level} computer player for {game} yet", level=level, game=game)
    return make


def policy_for(game: str, level: str) -> Policy:
    return factory_for(game, level)()
