"""Carcassonne: base game, The River and The Tower."""

from typing import TYPE_CHECKING

from engine.carcassonne.game import Carcassonne
from engine.carcassonne.tiles import BASE_TILES, RIVER_TILES, TILES, TOWER_TILES

__all__ = ["BASE_TILES", "RIVER_TILES", "TILES", "TOWER_TILES", "Carcassonne"]

if TYPE_CHECKING:  # mypy checks that the class has the shape of every game
    from engine.game import Game

    _SHAPE: type[Game] = Carcassonne
