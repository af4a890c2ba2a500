"""Engine games from stored rows: load the saved state, or rebuild it from the action log."""

from __future__ import annotations

from collections.abc import Sequence

from bot.storage import GameRow
from engine import Action, Game, game_class


def load(row: GameRow) -> Game:
    """The engine game of a started row, from its saved state."""
    if row.state is None:
        raise ValueError(f"game {row.id} has not started")
    return game_class(row.game).from_json(row.state)


def rebuild(row: GameRow, actions: Sequence[Action]) -> Game:
    """Replay the action log from the game's set-up; equals ``load(row)`` whenever storage is consistent."""
    game = game_class(row.game).new([s.name for s in row.seats], row.options, row.seed)
    for action in actions:
        game.apply(action, replay=True)
    return game
