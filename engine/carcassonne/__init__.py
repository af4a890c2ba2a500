"""Carcassonne: base game, The River and The Tower (``shared/rules/carcassonne.md``)."""

from engine.carcassonne.game import Carcassonne
from engine.carcassonne.tiles import BASE_TILES, RIVER_TILES, TILES, TOWER_TILES

__all__ = ["BASE_TILES", "RIVER_TILES", "TILES", "TOWER_TILES", "Carcassonne"]
