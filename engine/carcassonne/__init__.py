"""Carcassonne: base game, The River and The Tower."""

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
