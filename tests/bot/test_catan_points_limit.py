"""The lobby offers exactly the points to win the engine accepts: what the computer players reach in practice."""

from __future__ import annotations

from discord import app_commands

from bot.catan.commands import CatanCog
from engine.catan.options import MAX_POINTS_TO_WIN


def test_the_lobby_offers_the_points_to_win_the_engine_allows() -> None:
    command = CatanCog.catan.get_command("new")
    assert isinstance(command, app_commands.Command)
    [points] = [p for p in command.parameters if p.name == "points_to_win"]
    assert (points.min_value, points.max_value) == (3, MAX_POINTS_TO_WIN) == (3, 12)
