"""Catan's slash commands: ``/catan new`` (its options as command options), ``/build`` (with autocomplete that
accepts ``25``, ``J-NE``, ``25-31``, ``J-E``) and ``/hand``, declared here and done in ``command_flows``. The first
turn is posted when the lobby starts."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.catan import command_flows
from bot.core.funnel import autocomplete
from bot.flows.lobby import AWAY_HELP, STAND_IN_HELP, TAKEOVER_HELP, TURN_LIMIT_HELP, level_choices, open_lobby
from engine.catan.options import MAX_POINTS_TO_WIN

if TYPE_CHECKING:
    from bot.core.host import Host

Piece = Literal["road", "settlement", "city"]


class CatanCog(commands.Cog):
    catan = app_commands.Group(name="catan", description="Play Catan in this channel")

    def __init__(self, bot: Host) -> None:
        self.bot = bot

    @catan.command(name="new", description="Open a Catan lobby in this channel")
    @app_commands.describe(
        board="Map: random, random numbers, or the beginner map",
        setup="Set-up: snake draft or the beginner positions",
        points_to_win="Victory points needed (default 10)",
        strict_phases="All trading before any building",
        turn_limit=TURN_LIMIT_HELP,
        takeover=TAKEOVER_HELP,
        away=AWAY_HELP,
        stand_in=STAND_IN_HELP,
    )
    @app_commands.choices(stand_in=level_choices("catan"))
    async def catan_new(
        self,
        interaction: discord.Interaction,
        board: Literal["random", "random_numbers", "beginner"] = "random",
        setup: Literal["snake", "beginner"] = "snake",
        points_to_win: app_commands.Range[int, 3, MAX_POINTS_TO_WIN] = 10,
        strict_phases: bool = False,
        turn_limit: app_commands.Range[int, 1, 336] | None = None,
        takeover: bool = False,
        away: Literal["wait", "computer"] = "wait",
        stand_in: str | None = None,
    ) -> None:
        await open_lobby(
            self.bot,
            interaction,
            "catan",
            {"board": board, "setup": setup, "points_to_win": points_to_win, "strict_phases": strict_phases},
            turn_limit,
            takeover,
            away,
            stand_in,
        )

    @app_commands.command(name="hand", description="Your Catan cards, points and open trade offers (only you see it)")
    async def hand(self, interaction: discord.Interaction) -> None:
        await command_flows.hand(self.bot, interaction)

    @app_commands.command(name="build", description="Build a Catan road, settlement or city")
    @app_commands.describe(
        what="What to build",
        where="Intersection (25 or J-NE) for a settlement or city; path (25-31 or J-E) for a road",
    )
    async def build(self, interaction: discord.Interaction, what: Piece, where: str) -> None:
        await command_flows.build(self.bot, interaction, what, where)

    @build.autocomplete("where")
    @autocomplete
    async def build_where(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await command_flows.build_choices(self.bot, interaction, current)
