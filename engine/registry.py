"""Game names to engine classes (imported lazily so one game's start-up never pays for the other)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from engine.errors import RuleError
from engine.game import Game

_GAMES = {
    "carcassonne": ("engine.carcassonne", "Carcassonne"),
    "catan": ("engine.catan", "Catan"),
}


def game_names() -> list[str]:
    return list(_GAMES)


def game_class(name: str) -> type[Game]:
    try:
        module_name, class_name = _GAMES[name]
    except KeyError:
        raise RuleError("unknown_game", f"unknown game {name!r} (known: {', '.join(_GAMES)})", game=name) from None
    cls: type[Game] = getattr(importlib.import_module(module_name), class_name)
    return cls


if TYPE_CHECKING:  # mypy checks that every game listed has the shape of every game
    from engine.carcassonne import Carcassonne
    from engine.catan import Catan

    _SHAPES: tuple[type[Game], ...] = (Carcassonne, Catan)
