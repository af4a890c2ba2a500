"""Carcassonne's slash commands: ``/carcassonne new`` (its options as command options) and ``/place`` (with
autocomplete of the numbered cells and their rotations), declared here and done in ``command_flows``. The first turn
is posted when the lobby starts."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.carcassonne import command_flows
from bot.core.funnel import autocomplete
from bot.flows.lobby import AWAY_HELP, STAND_IN_HELP, TAKEOVER_HELP, TURN_LIMIT_HELP, level_choices, open_lobby

if TYPE_CHECKING:
    from bot.core.host import Host


class CarcassonneCog(commands.Cog):
    carcassonne = app_commands.Group(name="carcassonne", description="Play Carcassonne in this channel")

    def __init__(self, bot: Host) -> None:
        self.bot = bot

    @carcassonne.command(name="new", description="Open a Carcassonne lobby in this channel")
    @app_commands.describe(
        river="Start with The River (default on)",
        tower="Add The Tower expansion",
        farm_scoring="Farm scoring rule",
        small_city="Old rule: a 2-tile city scores 2",
        turn_limit=TURN_LIMIT_HELP,
        takeover=TAKEOVER_HELP,
        away=AWAY_HELP,
        stand_in=STAND_IN_HELP,
    )
    @app_commands.choices(stand_in=level_choices("carcassonne"))
    async def carcassonne_new(
        self,
        interaction: discord.Interaction,
        river: bool = True,
        tower: bool = False,
        farm_scoring: Literal["current", "first_edition"] = "current",
        small_city: bool = False,
        turn_limit: app_commands.Range[int, 1, 336] | None = None,
        takeover: bool = False,
        away: Literal["wait", "computer"] = "wait",
        stand_in: str | None = None,
    ) -> None:
        await open_lobby(
            self.bot,
            interaction,
            "carcassonne",
            {"river": river, "tower": tower, "farm_scoring": farm_scoring, "small_city": small_city},
            turn_limit,
            takeover,
            away,
            stand_in,
        )

    @app_commands.command(name="place", description="Place the drawn Carcassonne tile")
    @app_commands.describe(cell="Where: pick a numbered cell", rotation="Clockwise rotation in degrees")
    async def place(self, interaction: discord.Interaction, cell: str, rotation: int) -> None:
        await command_flows.place(self.bot, interaction, cell, rotation)

    @place.autocomplete("cell")
    @autocomplete
    async def place_cell(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await command_flows.cell_choices(self.bot, interaction, current)

    @place.autocomplete("rotation")
    @autocomplete
    async def place_rotation(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        return await command_flows.rotation_choices(self.bot, interaction, current)
