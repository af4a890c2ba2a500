"""Carcassonne: base game, The River and The Tower."""

from typing import TYPE_CHECKING

from engine.carcassonne.game import Carcassonne
from engine.carcassonne.tiles import BASE_TILES, RIVER_TILES, TILES, TOWER_TILES
from engine.carcassonne.view import CarcassonneView, FollowerView, PlayerView, TileView, TowerView

__all__ = [
    "BASE_TILES",
    "RIVER_TILES",
    "TILES",
    "TOWER_TILES",
    "Carcassonne",
    "CarcassonneView",
    "FollowerView",
    "PlayerView",
    "TileView",
    "TowerView",
]

if TYPE_CHECKING:  # mypy checks that the class has the shape of every game
    from engine.game import Game

    _SHAPE: type[Game] = Carcassonne
