"""Pure game rules for boardhost: no Discord, no files, no clocks, no Pillow.

Each game is a class implementing :class:`engine.game.Game`; :mod:`engine.registry` maps game names to them.
"""

from engine.errors import RuleError
from engine.game import Action, Applied, Event, Game
from engine.registry import game_class, game_names

__all__ = ["Action", "Applied", "Event", "Game", "RuleError", "game_class", "game_names"]
